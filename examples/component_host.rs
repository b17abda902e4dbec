//! What a host author writes to run the reqparse component with plain wasmtime: generate
//! bindings from the WIT, load the component, instantiate it with an EMPTY linker (it imports
//! nothing), call it.
//!
//! ```text
//! cargo run --example component_host --features engine-wasm [-- path/to/reqparse.component.wasm]
//! ```
//!
//! Without a path it runs the component that ships with the crate (`reqparse::bundled`); a
//! host in another language gets the same file with `reqparse component --out FILE`.
//!
//! (`reqparse::engine` wraps the same steps with limits, instance reuse and a precompiled
//! cache; this example shows the bare API.)

use reqparse::query::SPAN_DECODED;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store};

wasmtime::component::bindgen!({ world: "reqparse", path: "wit" });

use exports::reqparse::http::{disposition, query};

fn main() -> wasmtime::Result<()> {
    let engine = Engine::default();
    let component = match std::env::args().nth(1) {
        Some(path) => Component::from_file(&engine, &path)
            .map_err(|e| e.context(format!("loading {path}")))?,
        None => Component::new(&engine, reqparse::bundled::COMPONENT)?,
    };
    let linker = Linker::new(&engine); // nothing to link: the component imports nothing
    let mut store = Store::new(&engine, ());
    let reqparse = Reqparse::instantiate(&mut store, &component, &linker)?;

    // A query string, decoded as URLSearchParams would.
    let q = reqparse.reqparse_http_query();
    let input = "?name=J%C3%BCrgen+M&tag=a&tag=b";
    match q.call_pairs(&mut store, input, query::Profile::Whatwg)? {
        Ok(pairs) => println!("query {input:?} -> {pairs:?}"),
        Err(e) => println!(
            "query {input:?} -> error at byte {}: {}",
            e.offset, e.message
        ),
    }

    // The same query as spans: no string per pair built in the guest.
    if let Ok(spans) = q.call_pair_spans(&mut store, input, query::Profile::Whatwg)? {
        for span in spans.spans.chunks_exact(4) {
            // A span with the core's SPAN_DECODED bit set points into `decoded`.
            let text = |start: u32, end: u32| {
                let (source, start, end) = if start & SPAN_DECODED != 0 {
                    (
                        spans.decoded.as_slice(),
                        start & !SPAN_DECODED,
                        end & !SPAN_DECODED,
                    )
                } else {
                    (input.as_bytes(), start, end)
                };
                String::from_utf8_lossy(&source[start as usize..end as usize]).into_owned()
            };
            println!(
                "  span {:?} = {:?}",
                span,
                (text(span[0], span[1]), text(span[2], span[3]))
            );
        }
    }

    // The map resource: parse once, look up many times, then drop it.
    let maps = q.query_map();
    let options = query::MapOptions {
        profile: query::Profile::DotNet,
        ignore_case: true,
        max_pairs: None,
        max_decoded_bytes: None,
    };
    if let Ok(map) = maps.call_parse(&mut store, input, options)? {
        println!(
            "  map get-all(\"TAG\") = {:?}",
            maps.call_get_all(&mut store, map, "TAG")?
        );
        map.resource_drop(&mut store)?;
    }

    // A URI, with a Unicode host (punycode) and escaping.
    let uri = reqparse.reqparse_http_uri();
    let built = uri.call_build_absolute(
        &mut store,
        "https",
        "bücher.example",
        "/base",
        "/a b",
        "?x=1",
        "",
    )?;
    println!("uri build-absolute -> {built:?}");
    println!(
        "uri split-absolute -> {:?}",
        uri.call_split_absolute(&mut store, "http://example.com/a%20b?q=1#top")?
    );

    // A Content-Disposition header with an RFC 8187 filename*.
    let header = b"attachment; filename=\"EURO rates.txt\"; filename*=UTF-8''%e2%82%ac%20rates.txt";
    match reqparse.reqparse_http_disposition().call_parse(
        &mut store,
        header,
        disposition::Profile::Strict,
        false,
    )? {
        Ok(cd) => println!(
            "disposition -> type {:?}, filename {:?}, parameters {:?}",
            cd.type_, cd.filename, cd.parameters
        ),
        Err(e) => println!("disposition -> error at byte {}: {}", e.offset, e.message),
    }
    Ok(())
}
