//! The `http` feature: what a hyper or axum server holds goes straight in, header values as
//! bytes, and `Request` and `request::Parts` give the same answers.
#![cfg(feature = "http")]

use http::{HeaderValue, Request};
use reqparse::disposition::{DispositionErrorKind, Profile};
use reqparse::interop::http::{absolute_url, content_disposition, RequestExt};
use reqparse::uri::UriErrorKind;

fn request(target: &str, headers: &[(&str, &[u8])]) -> Request<()> {
    let mut builder = Request::post(target);
    for &(name, value) in headers {
        builder = builder.header(
            name,
            HeaderValue::from_bytes(value).expect("a header value"),
        );
    }
    builder.body(()).expect("a request")
}

#[test]
fn header_values_are_read_as_bytes() {
    // Raw UTF-8 and ISO-8859-1 filenames: obs-text that `HeaderValue::to_str` refuses.
    for (bytes, name) in [
        (
            "attachment; filename=\"résumé.pdf\"".as_bytes(),
            "résumé.pdf",
        ),
        (&b"attachment; filename=\"\xe4.txt\""[..], "ä.txt"),
    ] {
        let value = HeaderValue::from_bytes(bytes).unwrap();
        assert!(value.to_str().is_err());
        let cd = content_disposition(&value, Profile::Strict).unwrap();
        assert_eq!(cd.filename().as_deref(), Some(name));
        let req = request("/", &[("content-disposition", bytes)]);
        assert_eq!(req.content_disposition(Profile::Strict).unwrap(), Ok(cd));
    }
    // A refusal keeps the parser's error and offset.
    let req = request("/", &[("content-disposition", b"attachment; filename=a b")]);
    let err = req
        .content_disposition(Profile::Strict)
        .unwrap()
        .unwrap_err();
    assert_eq!(
        (err.kind, err.offset),
        (DispositionErrorKind::TokenWithSpace, 23)
    );
}

#[test]
fn request_and_parts_agree() {
    let req = request(
        "/files/a%20b?q=rust+forms&&lang=en",
        &[
            ("host", b"example.com:8080"),
            ("content-disposition", b"inline"),
        ],
    );
    let (parts, ()) = request(
        "/files/a%20b?q=rust+forms&&lang=en",
        &[
            ("host", b"example.com:8080"),
            ("content-disposition", b"inline"),
        ],
    )
    .into_parts();
    let raw = |pairs: reqparse::query::StrPairs<'_>| -> Vec<(String, String)> {
        pairs.map(|p| (p.name().into(), p.value().into())).collect()
    };
    assert_eq!(raw(req.query_pairs()), raw(parts.query_pairs()));
    assert_eq!(raw(req.query_pairs()).len(), 2);
    assert_eq!(req.absolute_url(), parts.absolute_url());
    assert_eq!(
        req.absolute_url().unwrap(),
        "http://example.com:8080/files/a%20b?q=rust+forms&&lang=en"
    );
    assert_eq!(
        req.content_disposition(Profile::Strict),
        parts.content_disposition(Profile::Strict)
    );
}

#[test]
fn absolute_urls() {
    // An absolute-form target's authority wins over the Host header.
    let req = request("https://a.example/x?y", &[("host", b"b.example")]);
    assert_eq!(req.absolute_url().unwrap(), "https://a.example/x?y");
    // No authority and no Host: the builder's empty host.
    let err = request("/x", &[]).absolute_url().unwrap_err();
    assert_eq!((err.kind, err.offset), (UriErrorKind::EmptyHost, 0));
    // A Host header that is not UTF-8 is refused where it stops being so.
    let err = absolute_url(
        request("/", &[]).uri(),
        request("/", &[("host", b"ab\xff")]).headers(),
    )
    .unwrap_err();
    assert_eq!((err.kind, err.offset), (UriErrorKind::InvalidHost, 2));
    // The query without one: no `?`.
    let req = request("/p", &[("host", b"h")]);
    assert_eq!(req.absolute_url().unwrap(), "http://h/p");
    assert_eq!(req.query_pairs().count(), 0);
}
