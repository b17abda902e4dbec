//! wit-bindgen exports of the `reqparse:http@0.1.0` world (`wit/reqparse.wit`): type conversion
//! only, every answer comes from the core modules, so the component and the native crate agree
//! on every vector. Compiled only for wasm32 with the `component` feature (see src/lib.rs).
//!
//! Build with `.ci/build-component.sh`; a host loads the result with `reqparse::engine`
//! (feature `engine-wasm`) or any component runtime:
//!
//! ```text
//! cargo run --example component_host --features engine-wasm
//! ```

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Display;

use crate::{disposition, inspect, query, uri};

wit_bindgen::generate!({ world: "reqparse", path: "wit" });

use exports::reqparse::http::disposition as wit_disposition;
use exports::reqparse::http::inspect as wit_inspect;
use exports::reqparse::http::query as wit_query;
use exports::reqparse::http::types::ParseError;
use exports::reqparse::http::uri as wit_uri;

struct Component;

// The `body` interface: the body readers as resources.
mod body;

export!(Component);

/// Offsets past `u32::MAX` cannot happen (wasm32 inputs are shorter), but saturate rather than
/// wrap if they ever did.
fn parse_error(offset: usize, error: impl Display) -> ParseError {
    ParseError {
        offset: u32::try_from(offset).unwrap_or(u32::MAX),
        message: error.to_string(),
    }
}

fn query_error(e: query::QueryError) -> ParseError {
    parse_error(e.offset, e)
}

fn query_profile(p: wit_query::Profile) -> query::Profile {
    match p {
        wit_query::Profile::Whatwg => query::Profile::Whatwg,
        wit_query::Profile::DotNet => query::Profile::DotNet,
        wit_query::Profile::Strict => query::Profile::Strict,
    }
}

/// Raw pair bytes are input slices cut at ASCII `&` / `=`, so they are UTF-8 when the input is;
/// the lossy conversion only guards that reasoning.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

impl wit_query::Guest for Component {
    type QueryMap = QueryMap;

    fn pairs(
        input: String,
        profile: wit_query::Profile,
    ) -> Result<Vec<(String, String)>, ParseError> {
        let profile = query_profile(profile);
        query::pairs(&input)
            .map(|pair| {
                let name = pair.decode_name(profile).map_err(query_error)?;
                let value = pair.decode_value(profile).map_err(query_error)?;
                Ok((name.into_owned(), value.into_owned()))
            })
            .collect()
    }

    fn raw_pairs(input: String) -> Vec<(String, String)> {
        query::pairs(&input)
            .map(|pair| (text(pair.name()), text(pair.value())))
            .collect()
    }

    fn pair_spans(
        input: String,
        profile: wit_query::Profile,
    ) -> Result<wit_query::Spans, ParseError> {
        // Sized up front so the guest never regrows them: decoding never lengthens a query
        // (an escape of 3 bytes becomes at most 3), and a pair takes at least one byte and a
        // separator, so there are at most (len + 1) / 2 of them. Not counted with memchr:
        // its count on wasm32 is a byte loop, and every iteration pays an epoch check.
        let mut decoded = Vec::with_capacity(input.len());
        let mut spans = Vec::with_capacity((input.len() / 2 + 1).saturating_mul(4));
        query::decode_str_spans(&input, query_profile(profile), &mut decoded, &mut spans)
            .map_err(query_error)?;
        Ok(wit_query::Spans { spans, decoded })
    }
}

/// The `query-map` resource: the core's owned map, parsed once in the guest.
struct QueryMap(query::QueryMap);

impl wit_query::GuestQueryMap for QueryMap {
    fn parse(
        input: String,
        options: wit_query::MapOptions,
    ) -> Result<wit_query::QueryMap, ParseError> {
        let defaults = query::MapOptions::default();
        let options = query::MapOptions {
            profile: query_profile(options.profile),
            ignore_case: options.ignore_case,
            max_pairs: options.max_pairs.map_or(defaults.max_pairs, |n| n as usize),
            max_decoded_bytes: options
                .max_decoded_bytes
                .map_or(defaults.max_decoded_bytes, |n| n as usize),
        };
        let map = query::QueryMap::parse(&input, options).map_err(query_error)?;
        Ok(wit_query::QueryMap::new(QueryMap(map)))
    }

    fn get(&self, name: String) -> Option<String> {
        self.0.get(&name).map(String::from)
    }

    fn get_all(&self, name: String) -> Vec<String> {
        self.0.get_all(&name).map(String::from).collect()
    }

    fn has(&self, name: String) -> bool {
        self.0.contains(&name)
    }

    fn len(&self) -> u32 {
        u32::try_from(self.0.len()).unwrap_or(u32::MAX)
    }

    fn entries(&self) -> Vec<(String, Vec<String>)> {
        self.0
            .iter()
            .map(|(name, values)| (String::from(name), values.map(String::from).collect()))
            .collect()
    }
}

fn uri_error(e: uri::UriError) -> ParseError {
    parse_error(e.offset, e)
}

impl wit_uri::Guest for Component {
    fn build_absolute(
        scheme: String,
        host: String,
        path_base: String,
        path: String,
        query: String,
        fragment: String,
    ) -> Result<String, ParseError> {
        uri::build_absolute(&scheme, &host, &path_base, &path, &query, &fragment).map_err(uri_error)
    }

    fn build_relative(path_base: String, path: String, query: String, fragment: String) -> String {
        uri::build_relative(&path_base, &path, &query, &fragment)
    }

    fn split_absolute(input: String) -> Result<wit_uri::Parts, ParseError> {
        let parts = uri::split_absolute(&input).map_err(uri_error)?;
        Ok(wit_uri::Parts {
            scheme: parts.scheme.into(),
            host: parts.host.into(),
            path: parts.path.into_owned(),
            query: parts.query.into(),
            fragment: parts.fragment.into(),
        })
    }
}

fn disposition_profile(p: wit_disposition::Profile) -> disposition::Profile {
    match p {
        wit_disposition::Profile::Strict => disposition::Profile::Strict,
        wit_disposition::Profile::Browser => disposition::Profile::Browser,
        wit_disposition::Profile::DotNet => disposition::Profile::DotNet,
    }
}

impl wit_disposition::Guest for Component {
    fn parse(
        header: Vec<u8>,
        profile: wit_disposition::Profile,
        decode_2047: bool,
    ) -> Result<wit_disposition::ContentDisposition, ParseError> {
        let cd = disposition::ContentDisposition::parse(&header, disposition_profile(profile))
            .map_err(|e| parse_error(e.offset, e))?;
        let filename = cd.filename_with(disposition::FilenameOptions { decode_2047 });
        Ok(wit_disposition::ContentDisposition {
            type_: cd.disposition_type().to_ascii_lowercase(),
            filename: filename.map(Cow::into_owned),
            parameters: cd
                .params()
                .map(|p| (p.name().to_ascii_lowercase(), p.value().into_owned()))
                .collect(),
        })
    }

    fn format(
        disposition_type: String,
        filename: Option<String>,
        parameters: Vec<(String, String)>,
    ) -> Result<String, wit_disposition::BuildError> {
        let mut builder = disposition::DispositionBuilder::new(&disposition_type);
        if let Some(filename) = &filename {
            builder = builder.filename(filename);
        }
        for (name, value) in &parameters {
            builder = builder.param(name, value);
        }
        builder.build().map_err(|e| wit_disposition::BuildError {
            message: e.to_string(),
        })
    }
}

impl wit_inspect::Guest for Component {
    fn inspect(head: wit_inspect::RequestHead) -> String {
        let mut out = String::new();
        inspect::inspect(
            &inspect::RequestHead {
                method: &head.method,
                scheme: &head.scheme,
                host: &head.host,
                target: &head.target,
                content_disposition: head.content_disposition.as_deref(),
            },
            &mut out,
        );
        out
    }
}
