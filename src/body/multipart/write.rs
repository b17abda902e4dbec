//! The multipart/form-data writer: the exact length first, then one allocation of exactly
//! that, so that `parse(write(parts)) == parts` can be tested (and a client can send a
//! `Content-Length`).
#![forbid(unsafe_code)]

use alloc::vec::Vec;
use core::fmt;

use super::content_type::check_boundary;
use super::error::MultipartLimits;
use super::profile::Profile;

/// One part to write: a value when it has no `filename`, a file when it has one.
///
/// ```
/// use reqparse::body::multipart::WritePart;
/// let part = WritePart { name: "title", filename: None, content_type: None, data: b"Holiday" };
/// assert_eq!(part, WritePart::value("title", b"Holiday"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WritePart<'a> {
    /// The `name` parameter; no `"`, CR or LF (browsers would send them as `%22`, `%0D`,
    /// `%0A`, which the reader keeps as written: refusing them keeps the round trip exact).
    pub name: &'a str,
    /// The `filename` parameter, with the same rule as `name`; a backslash is written as it
    /// is, as browsers do.
    pub filename: Option<&'a str>,
    /// The `Content-Type` field's value; no CR or LF, and no space or tab at either end.
    pub content_type: Option<&'a str>,
    /// The part's data; it must not hold the delimiter (CRLF, `--` and the boundary), nor
    /// begin with `--` and the boundary (which the CRLF before the data would make one).
    pub data: &'a [u8],
}

impl<'a> WritePart<'a> {
    /// A value part: a name and its data, no filename nor content type.
    ///
    /// ```
    /// use reqparse::body::multipart::WritePart;
    /// assert_eq!(WritePart::value("a", b"1").filename, None);
    /// ```
    pub const fn value(name: &'a str, data: &'a [u8]) -> Self {
        WritePart {
            name,
            filename: None,
            content_type: None,
            data,
        }
    }
}

/// Why a body cannot be written; see [`write()`].
///
/// ```
/// use reqparse::body::multipart::{written_len, WriteError, WritePart};
/// let err = written_len("b", &[WritePart::value("a\"b", b"")]).unwrap_err();
/// assert_eq!(err, WriteError::Unwritable { part: 0 });
/// // A NUL would not read back either: the Fetch profile refuses it in a header line.
/// let err = written_len("b", &[WritePart::value("a\0b", b"")]).unwrap_err();
/// assert_eq!(err, WriteError::Unwritable { part: 0 });
/// assert_eq!(err.to_string(), "part 0 has a name, filename or content type that cannot be written");
/// // Data that begins with `--boundary`: the empty line's CRLF before it would make a delimiter.
/// let err = written_len("b", &[WritePart::value("a", b""), WritePart::value("c", b"--b")]);
/// assert_eq!(err, Err(WriteError::BoundaryInData { part: 1 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WriteError {
    /// The boundary is not 1 to 70 RFC 2046 `bchars` ending in a non-space.
    InvalidBoundary,
    /// A part's name or filename holds `"`, CR, LF or NUL, or its content type CR, LF, NUL or
    /// surrounding whitespace.
    Unwritable {
        /// The part's index.
        part: usize,
    },
    /// A part's data holds the delimiter, or begins with `--` and the boundary: choose
    /// another boundary.
    BoundaryInData {
        /// The part's index.
        part: usize,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::InvalidBoundary => {
                f.write_str("the boundary is not 1 to 70 RFC 2046 bchars ending in a non-space")
            }
            WriteError::Unwritable { part } => write!(
                f,
                "part {part} has a name, filename or content type that cannot be written"
            ),
            WriteError::BoundaryInData { part } => {
                write!(f, "part {part}'s data holds the delimiter")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for WriteError {}

/// The exact length of the body [`write()`] makes of `parts`.
///
/// # Errors
/// As [`write()`].
///
/// ```
/// use reqparse::body::multipart::{write, written_len, WritePart};
/// let parts = [WritePart::value("a", b"1")];
/// assert_eq!(written_len("b", &parts)?, write("b", &parts)?.len());
/// assert_eq!(written_len("b", &[])?, b"--b--\r\n".len());
/// # Ok::<(), reqparse::body::multipart::WriteError>(())
/// ```
pub fn written_len(boundary: &str, parts: &[WritePart<'_>]) -> Result<usize, WriteError> {
    check(boundary, parts)?;
    let mut len = 0;
    emit(boundary, parts, &mut |bytes: &[u8]| len += bytes.len());
    Ok(len)
}

/// Writes `parts` as a multipart/form-data body with `boundary`, in one allocation of exactly
/// [`written_len`] bytes, the way browsers do (HTML's multipart/form-data encoding): each
/// part a `Content-Disposition: form-data; name="…"` with `; filename="…"` for a file, then
/// its `Content-Type` when it has one. [`Profile::Fetch`] reads it back to the same parts;
/// the other profiles do too when no name or filename holds a `\` (a quoted-pair there) or a
/// control character.
///
/// # Errors
/// [`WriteError`]: a boundary that is not RFC 2046's, a name, filename or content type that
/// would not read back the same, data holding the delimiter.
///
/// ```
/// use reqparse::body::multipart::{write, WritePart};
/// let file = WritePart {
///     name: "photo",
///     filename: Some(r"C:\photos\a.jpg"),
///     content_type: Some("image/jpeg"),
///     data: b"\xff\xd8",
/// };
/// let body = write("XyZ", &[WritePart::value("title", b"Holiday"), file])?;
/// assert_eq!(body, &b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHoliday\r\n\
///     --XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"C:\\photos\\a.jpg\"\r\n\
///     Content-Type: image/jpeg\r\n\r\n\xff\xd8\r\n--XyZ--\r\n"[..]);
/// assert_eq!(body.capacity(), body.len());
/// # Ok::<(), reqparse::body::multipart::WriteError>(())
/// ```
pub fn write(boundary: &str, parts: &[WritePart<'_>]) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    write_into(boundary, parts, &mut out)?;
    Ok(out)
}

/// [`write()`], appending to `out` (reserving exactly what it needs); returns the bytes written.
///
/// # Errors
/// As [`write()`]; `out` is then unchanged.
///
/// ```
/// use reqparse::body::multipart::{write_into, WritePart};
/// let mut out = b"head:".to_vec();
/// let n = write_into("b", &[], &mut out)?;
/// assert_eq!((n, out.as_slice()), (7, &b"head:--b--\r\n"[..]));
/// # Ok::<(), reqparse::body::multipart::WriteError>(())
/// ```
pub fn write_into(
    boundary: &str,
    parts: &[WritePart<'_>],
    out: &mut Vec<u8>,
) -> Result<usize, WriteError> {
    let len = written_len(boundary, parts)?;
    out.reserve_exact(len);
    let before = out.len();
    emit(boundary, parts, &mut |bytes: &[u8]| {
        out.extend_from_slice(bytes)
    });
    debug_assert_eq!(out.len() - before, len);
    Ok(len)
}

/// The body's bytes, in order, to `sink`: one description for the length and the bytes.
fn emit(boundary: &str, parts: &[WritePart<'_>], sink: &mut dyn FnMut(&[u8])) {
    let b = boundary.as_bytes();
    for p in parts {
        let head: [&[u8]; 3] = [b"--", b, b"\r\nContent-Disposition: form-data; name=\""];
        for piece in head {
            sink(piece);
        }
        sink(p.name.as_bytes());
        sink(b"\"");
        if let Some(f) = p.filename {
            sink(b"; filename=\"");
            sink(f.as_bytes());
            sink(b"\"");
        }
        sink(b"\r\n");
        if let Some(ct) = p.content_type {
            sink(b"Content-Type: ");
            sink(ct.as_bytes());
            sink(b"\r\n");
        }
        sink(b"\r\n");
        sink(p.data);
        sink(b"\r\n");
    }
    let close: [&[u8]; 3] = [b"--", b, b"--\r\n"];
    for piece in close {
        sink(piece);
    }
}

/// What [`write()`] refuses.
fn check(boundary: &str, parts: &[WritePart<'_>]) -> Result<(), WriteError> {
    let max = MultipartLimits::default().max_boundary_bytes;
    check_boundary(boundary.as_bytes(), Profile::Strict, max)
        .map_err(|_| WriteError::InvalidBoundary)?;
    // NUL too: the Fetch profile refuses it in any header line (WPT formdata-parsing "Parse
    // failure: NUL in a name", "… in an unknown header"), so a body holding one would not read
    // back.
    let quotable = |s: &str| !s.contains(['"', '\r', '\n', '\0']);
    let field =
        |s: &str| !s.contains(['\r', '\n', '\0']) && s.trim_matches([' ', '\t']).len() == s.len();
    let mut delimiter = Vec::with_capacity(boundary.len() + 4);
    delimiter.extend_from_slice(b"\r\n--");
    delimiter.extend_from_slice(boundary.as_bytes());
    let finder = memchr::memmem::Finder::new(&delimiter);
    for (part, p) in parts.iter().enumerate() {
        if !quotable(p.name)
            || !p.filename.is_none_or(quotable)
            || !p.content_type.is_none_or(field)
        {
            return Err(WriteError::Unwritable { part });
        }
        // The data follows the header block's CRLF, so `--boundary` at its start would make
        // that CRLF a delimiter (RFC 2046 §5.1.1's empty part) as much as one inside it.
        if finder.find(p.data).is_some() || p.data.starts_with(crate::bytes::slice(&delimiter, 2..))
        {
            return Err(WriteError::BoundaryInData { part });
        }
    }
    Ok(())
}
