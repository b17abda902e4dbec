//! `Serialize` (feature `serde`) for what the parsers return, in the shapes the `reqparse`
//! command prints, so a server that answers with JSON answers as the CLI, the component and
//! the npm package do:
//!
//! | type | JSON |
//! |---|---|
//! | [`query::Pair`], [`query::StrPair`] | `[name, value]`, raw (as `reqparse query --raw`) |
//! | [`query::QueryMap`] | `{name: [values...]}` (as `reqparse query --map`) |
//! | [`uri::Parts`] | `{"scheme", "host", "path", "query", "fragment"}` (as `reqparse uri split`) |
//! | [`disposition::ContentDisposition`], [`disposition::OwnedContentDisposition`] | `{"type", "filename", "parameters"}`: the type and parameter names lowercased, the effective filename, `[name, value]` pairs (as `reqparse disposition`) |
//! | [`disposition::Param`] | `[name, value]`, the name lowercased |
//! | [`disposition::DispositionType`] | its [`as_str`](disposition::DispositionType::as_str) |
//! | [`form::FormPair`] | `[name, value]`, decoded (as `reqparse form`) |
//! | [`multipart::Part`] | `{"name", "filename", "content_type", "mime_type"}` (the head of a `reqparse multipart` part) |
//! | the parse errors | `{"offset", "message"}` (the component's `parse-error`), with `"kind"` where the error has a kind name ([`chunked::ChunkedError`], [`multipart::MultipartError`]) |
//! | [`disposition::BuildError`] | `{"message"}` (the component's `build-error`) |
//!
//! Decoded query pairs are [`query::collect_pairs`]' `Vec<(String, String)>`, which serde
//! already writes as `[[name, value], ...]`.
//!
//! ```
//! use reqparse::disposition::{ContentDisposition, Profile};
//!
//! let cd = ContentDisposition::parse_str("Attachment; FileName=\"a b.txt\"", Profile::Strict)?;
//! assert_eq!(
//!     serde_json::to_string(&cd)?,
//!     r#"{"type":"attachment","filename":"a b.txt","parameters":[["filename","a b.txt"]]}"#
//! );
//! let pairs: Vec<_> = reqparse::query::pairs("a=1&b=x+y").collect();
//! assert_eq!(serde_json::to_string(&pairs)?, r#"[["a","1"],["b","x+y"]]"#);
//! let err = reqparse::uri::split_absolute("https://").unwrap_err();
//! assert_eq!(serde_json::to_string(&err)?, r#"{"offset":8,"message":"empty host at byte 8"}"#);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::string::String;
use core::fmt::{self, Display, Write as _};

use serde::ser::{Serialize, SerializeMap, SerializeSeq, SerializeStruct, Serializer};

use crate::body::multipart::{self, MultipartError};
use crate::body::{chunked, form};
use crate::disposition::{self, ContentDisposition, DispositionType, Param};
use crate::{query, uri};

/// Text written ASCII-lowercased, without an intermediate `String`.
struct Lower<'a>(&'a str);

impl Display for Lower<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .chars()
            .try_for_each(|c| f.write_char(c.to_ascii_lowercase()))
    }
}

/// A header value's bytes as text: UTF-8 when they are, else ISO-8859-1 (obs-text, RFC 9110
/// §5.5), the reading the disposition parser and the CLI give header bytes.
fn header_text(bytes: &[u8]) -> alloc::borrow::Cow<'_, str> {
    match core::str::from_utf8(bytes) {
        Ok(text) => text.into(),
        Err(_) => bytes
            .iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .into(),
    }
}

/// `[name, value]`.
fn pair<S: Serializer>(
    s: S,
    name: impl Serialize,
    value: impl Serialize,
) -> Result<S::Ok, S::Error> {
    (name, value).serialize(s)
}

/// `{"offset", "message"}` and, when given, `"kind"` first: an error as every face reports it.
fn error<S: Serializer>(
    s: S,
    kind: Option<&str>,
    offset: impl Serialize,
    message: &dyn Display,
) -> Result<S::Ok, S::Error> {
    let mut e = s.serialize_struct("Error", 2 + usize::from(kind.is_some()))?;
    if let Some(kind) = kind {
        e.serialize_field("kind", kind)?;
    }
    e.serialize_field("offset", &offset)?;
    e.serialize_field("message", &Collect(message))?;
    e.end()
}

/// A `Display` serialized as a string.
struct Collect<'a>(&'a dyn Display);

impl Serialize for Collect<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// A raw query part: the `&str` slice when the pairs came from text, else the bytes read as
/// UTF-8 with invalid sequences replaced (as `reqparse query --raw` prints them).
fn raw_text<'a>(text: Option<&'a str>, bytes: &'a [u8]) -> alloc::borrow::Cow<'a, str> {
    match text {
        Some(text) => text.into(),
        None => String::from_utf8_lossy(bytes),
    }
}

impl Serialize for query::Pair<'_> {
    /// `[name, value]`, raw.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let name = raw_text(self.name_str(), self.name());
        pair(s, name, raw_text(self.value_str(), self.value()))
    }
}

impl Serialize for query::StrPair<'_> {
    /// `[name, value]`, raw.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        pair(s, self.name(), self.value())
    }
}

/// One name's values as a JSON array.
struct ValuesOf<'m>(query::Values<'m>);

impl Serialize for ValuesOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.clone())
    }
}

impl Serialize for query::QueryMap {
    /// `{name: [values...]}`, names in first-appearance order.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.len()))?;
        for (name, values) in self.iter() {
            map.serialize_entry(name, &ValuesOf(values))?;
        }
        map.end()
    }
}

impl Serialize for query::QueryError {
    /// `{"offset", "message"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        error(s, None, self.offset, self)
    }
}

impl Serialize for uri::Parts<'_> {
    /// `{"scheme", "host", "path", "query", "fragment"}`, the path decoded.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut p = s.serialize_struct("Parts", 5)?;
        p.serialize_field("scheme", self.scheme)?;
        p.serialize_field("host", self.host)?;
        p.serialize_field("path", &*self.path)?;
        p.serialize_field("query", self.query)?;
        p.serialize_field("fragment", self.fragment)?;
        p.end()
    }
}

impl Serialize for uri::UriError {
    /// `{"offset", "message"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        error(s, None, self.offset, self)
    }
}

/// The parameters of a header as `[[name, value], ...]`.
struct ParamsOf<'h>(&'h ContentDisposition<'h>);

impl Serialize for ParamsOf<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.param_count()))?;
        for param in self.0.params() {
            seq.serialize_element(&param)?;
        }
        seq.end()
    }
}

impl Serialize for ContentDisposition<'_> {
    /// `{"type", "filename", "parameters"}`: the type lowercased, the effective filename
    /// ([`ContentDisposition::filename`]) or `null`, every parameter as `[name, value]`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut cd = s.serialize_struct("ContentDisposition", 3)?;
        cd.serialize_field("type", &Collect(&Lower(self.disposition_type())))?;
        cd.serialize_field("filename", &self.filename())?;
        cd.serialize_field("parameters", &ParamsOf(self))?;
        cd.end()
    }
}

impl Serialize for disposition::OwnedContentDisposition {
    /// As its [`get`](disposition::OwnedContentDisposition::get) view.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(s)
    }
}

impl Serialize for Param<'_> {
    /// `[name, value]`: the name lowercased, the value unquoted (ext-values as written).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        pair(s, Collect(&Lower(self.name())), self.value())
    }
}

impl Serialize for DispositionType<'_> {
    /// Its [`as_str`](DispositionType::as_str).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Serialize for disposition::DispositionError {
    /// `{"offset", "message"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        error(s, None, self.offset, self)
    }
}

impl Serialize for disposition::BuildError {
    /// `{"message"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut e = s.serialize_struct("BuildError", 1)?;
        e.serialize_field("message", &Collect(self))?;
        e.end()
    }
}

impl Serialize for form::FormPair<'_> {
    /// `[name, value]`, decoded.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        pair(s, self.name, self.value)
    }
}

impl Serialize for form::FormError {
    /// `{"offset", "message"}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        error(s, None, self.offset, self)
    }
}

impl Serialize for chunked::ChunkedError {
    /// `{"kind", "offset", "message"}`, the kind as the vectors name it.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        error(s, Some(self.kind.name()), self.offset, self)
    }
}

impl Serialize for MultipartError {
    /// `{"kind", "offset", "message", "part", "status"}`, the kind as the vectors name it, the
    /// part the error is in (its index, or `null`) and the HTTP status it answers (413 for a
    /// limit, 400).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut e = s.serialize_struct("MultipartError", 5)?;
        e.serialize_field("kind", self.kind.name())?;
        e.serialize_field("offset", &self.offset)?;
        e.serialize_field("message", &Collect(self))?;
        e.serialize_field("part", &self.part)?;
        e.serialize_field("status", &self.status())?;
        e.end()
    }
}

impl Serialize for multipart::Part<'_> {
    /// `{"name", "filename", "content_type", "mime_type"}`: the effective filename or `null`,
    /// the content type's bytes and the serialized [`multipart::MimeType`]'s as UTF-8, else
    /// ISO-8859-1, or `null`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut p = s.serialize_struct("Part", 4)?;
        p.serialize_field("name", &self.name())?;
        p.serialize_field("filename", &self.filename().map(|f| f.into_cow()))?;
        p.serialize_field("content_type", &self.content_type().map(header_text))?;
        let mime = self.mime_type();
        p.serialize_field(
            "mime_type",
            &mime.as_ref().map(|m| header_text(m.as_bytes())),
        )?;
        p.end()
    }
}
