//! Building queries: [`append_pairs`] and [`add_query_string`], ASP.NET Core's
//! `QueryHelpers.AddQueryString`, each reserving the exact output length first. The escaping is
//! the percent toolbox's, with RFC 3986 unreserved kept.
#![forbid(unsafe_code)]

use alloc::string::String;

use crate::bytes::str_slice;
use crate::percent::{encode_into, encoded_len, UNRESERVED};

/// What goes before the first pair appended to `base`: `?`, `&` or nothing.
fn separator(base: &str) -> &'static str {
    if !base.contains('?') {
        "?"
    } else if base.ends_with('?') || base.ends_with('&') {
        ""
    } else {
        "&"
    }
}

/// The length of `s` once escaped. Saturates: a length past `usize::MAX` cannot be reserved
/// anyway, and `reserve_exact` then fails as for any allocation too large.
fn escaped_len(s: &str) -> usize {
    encoded_len(s.as_bytes(), &UNRESERVED).unwrap_or(usize::MAX)
}

/// The length of `pairs` once written: `name=value`, `&` between pairs.
fn pairs_len(pairs: &[(&str, &str)]) -> usize {
    pairs.iter().fold(0usize, |n, (k, v)| {
        n.saturating_add(escaped_len(k))
            .saturating_add(escaped_len(v))
            .saturating_add(1)
    }) + pairs.len().saturating_sub(1)
}

fn write_pairs(pairs: &[(&str, &str)], out: &mut String) {
    for (i, (k, v)) in pairs.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode_into(k, &UNRESERVED, out);
        out.push('=');
        encode_into(v, &UNRESERVED, out);
    }
}

/// Appends `name=value` pairs to a query or URI (without fragment) in `out`.
///
/// The first pair is preceded by `?` when `out` has no `?`, else by `&` unless `out` already
/// ends in `?` or `&`. Names and values are encoded like ASP.NET Core's
/// `QueryHelpers.AddQueryString`: uppercase `%XX` (of the UTF-8 bytes) for everything outside
/// ALPHA / DIGIT / `-._~`, space as `%20`. Reserves the exact length first.
///
/// ```
/// let mut q = String::from("/search");
/// reqparse::query::append_pairs(&mut q, &[("q", "a b&c"), ("lang", "fr-CA")]);
/// assert_eq!(q, "/search?q=a%20b%26c&lang=fr-CA");
/// reqparse::query::append_pairs(&mut q, &[("é", "~")]);
/// assert_eq!(q, "/search?q=a%20b%26c&lang=fr-CA&%C3%A9=~");
/// ```
pub fn append_pairs(out: &mut String, pairs: &[(&str, &str)]) {
    if pairs.is_empty() {
        return;
    }
    let sep = separator(out);
    out.reserve_exact(sep.len().saturating_add(pairs_len(pairs)));
    out.push_str(sep);
    write_pairs(pairs, out);
}

/// Inserts pairs into `uri` before its first `#` (AddQueryString semantics, see
/// [`append_pairs`] for the separator and encoding), with exactly one allocation of the exact
/// final length.
///
/// ```
/// use reqparse::query::add_query_string;
/// let uri = add_query_string("http://x/p?a=1#frag", &[("b", "2 3")]);
/// assert_eq!(uri, "http://x/p?a=1&b=2%203#frag");
/// assert_eq!(uri.capacity(), uri.len());
/// ```
pub fn add_query_string(uri: &str, pairs: &[(&str, &str)]) -> String {
    let (base, fragment) = match memchr::memchr(b'#', uri.as_bytes()) {
        // `#` is ASCII: a character boundary.
        Some(i) => (str_slice(uri, ..i), str_slice(uri, i..)),
        None => (uri, ""),
    };
    let sep = if pairs.is_empty() {
        ""
    } else {
        separator(base)
    };
    let len = base
        .len()
        .saturating_add(sep.len())
        .saturating_add(if pairs.is_empty() {
            0
        } else {
            pairs_len(pairs)
        })
        .saturating_add(fragment.len());
    let mut out = String::with_capacity(len);
    out.push_str(base);
    out.push_str(sep);
    write_pairs(pairs, &mut out);
    out.push_str(fragment);
    debug_assert_eq!(out.len(), len);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builders() {
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
        let cases: &[Case] = &[
            ("http://x/", &[("a", "1")], "http://x/?a=1"),
            ("http://x/?", &[("a", "1")], "http://x/?a=1"),
            ("http://x/?b=2&", &[("a", "1")], "http://x/?b=2&a=1"),
            ("http://x/#f?", &[("a", "")], "http://x/?a=#f?"),
            ("http://x/", &[], "http://x/"),
            ("/p", &[("a b", "+/?")], "/p?a%20b=%2B%2F%3F"),
        ];
        for (uri, pairs, expect) in cases {
            let out = add_query_string(uri, pairs);
            assert_eq!(&out, expect);
            assert_eq!(out.capacity(), out.len());
        }
        let mut s = String::new();
        append_pairs(&mut s, &[("k", "v")]);
        assert_eq!(s, "?k=v");
    }
}
