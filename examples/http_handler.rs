//! A hyper/axum-style handler over `http::Request`, run on requests built in memory (no
//! network): the query pairs, the Content-Disposition and the absolute URL of each request,
//! answered as JSON in the shapes the `reqparse` command prints.
//!
//! `cargo run --example http_handler --features http,serde`

use http::{Request, Response, StatusCode};
use reqparse::disposition::Profile as DispositionProfile;
use reqparse::interop::http::RequestExt;
use reqparse::query::{self, Profile};
use serde_json::json;

/// What a service would do with a request: every decision is the library's; errors are
/// `400 Bad Request` with the error's `{"offset", "message"}`.
fn handle<B>(req: &Request<B>) -> Response<String> {
    let answer = (|| {
        // Decoded pairs for the answer; `req.query_pairs()` gives the raw ones, borrowed.
        let q = query::collect_pairs(req.uri().query().unwrap_or_default(), Profile::Strict)
            .map_err(|e| json!(e))?;
        let url = req.absolute_url().map_err(|e| json!(e))?;
        let cd = match req.content_disposition(DispositionProfile::Strict) {
            Some(Ok(cd)) => json!(cd),
            Some(Err(e)) => return Err(json!(e)),
            None => json!(null),
        };
        let raw: Vec<_> = req.query_pairs().collect();
        Ok(json!({ "url": url, "query": q, "raw_query": raw, "content_disposition": cd }))
    })();
    let (status, body) = match answer {
        Ok(body) => (StatusCode::OK, body),
        Err(error) => (StatusCode::BAD_REQUEST, json!({ "error": error })),
    };
    let mut response = Response::new(body.to_string());
    *response.status_mut() = status;
    response
}

fn main() -> Result<(), http::Error> {
    let requests = [
        Request::post("/files/upload?q=rust+forms&lang=en")
            .header("Host", "example.com")
            // Raw UTF-8 in a quoted filename, as browsers send it: bytes, not `to_str`.
            .header("Content-Disposition", "attachment; filename=\"résumé.pdf\"")
            .body(())?,
        Request::get("https://example.org:8443/a%20b?page=2").body(())?,
        Request::get("/?a=%zz")
            .header("Host", "localhost")
            .body(())?,
    ];
    for req in &requests {
        let response = handle(req);
        println!(
            "{} {} -> {} {}",
            req.method(),
            req.uri(),
            response.status(),
            response.body()
        );
    }
    Ok(())
}
