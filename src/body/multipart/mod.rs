//! `multipart/form-data` bodies (RFC 7578, RFC 2046 §5.1 and the Fetch Standard's parser),
//! read as they arrive.
//!
//! ```text
//! multipart-body = [preamble CRLF] dash-boundary transport-padding CRLF body-part
//!                  *( CRLF dash-boundary transport-padding CRLF body-part )
//!                  CRLF dash-boundary "--" transport-padding [CRLF epilogue]
//! dash-boundary  = "--" boundary
//! body-part      = header-fields [CRLF *OCTET]
//! ```
//!
//! A part's data may be left out with the empty line before it (RFC 2046 §5.1.1: the CRLF
//! that ends the header block is then the delimiter's own, as Go's `mime/multipart` reads
//! and werkzeug writes an empty field): in every profile, `--boundary` right after a
//! header block's empty line ends the part, with no data.
//!
//! The reader hands out, for each part, a [`MultipartEvent::Part`] with its header block
//! parsed (the `Content-Disposition` through this crate's own parser: the name, the effective
//! filename with RFC 6266 §4.3's `filename*` preference, raw UTF-8 filenames; the
//! `Content-Type` as sent and as a MIME type), then its data as [`MultipartEvent::Data`] slices borrowed from the input,
//! then [`MultipartEvent::PartEnd`]; after the close delimiter, [`MultipartEvent::End`].
//!
//! The delimiter (`CRLF--boundary`) is found, with vectors (AVX2 on x86_64, simd128 on wasm32
//! built with it), first by memchr's one-byte search for its CR, its last byte or its middle
//! byte while the byte searched for stays rare in the input (most data: a vector read once),
//! then by a packed-pair prefilter on its CR and its last byte that moves to the bytes near
//! misses get wrong when they repeat; elsewhere by Horspool's search (a window's
//! last byte decides how far the next window starts), which hands stretches where its shifts
//! are short to one [`memchr::memmem::Finder`] built when the reader is: near misses cost
//! about what ordinary data does. What the reader does not consume must be fed again with what
//! arrives next (see [`Step`]); it holds back at most:
//! - of data, the bytes at the end of the input that could begin a delimiter (never more than
//!   the delimiter's length minus one);
//! - an incomplete header block, which [`MultipartLimits::max_header_bytes`] caps.
//!
//! Three [`Profile`]s decide what is accepted:
//! - [`Profile::Fetch`] (the default): the Fetch Standard's multipart/form-data parser, as
//!   web-platform-tests' `fetch/api/body/formdata-parsing.any.js` tests it, at commit
//!   `59dabd58fc4cac475a56757843aa25a1ecba6743` (each of its cases is a vector of
//!   `tests/vectors/multipart.json`, named after its test): the body starts with the first
//!   delimiter (no preamble); transport padding after a delimiter and after the close
//!   delimiter; after the close delimiter's CRLF, an epilogue (capped); a header line is a
//!   token name, whitespace before and after it allowed, then `:` and a value, no NUL
//!   anywhere in it (other controls are kept), and no folding; the `Content-Disposition` read
//!   as browsers write it ([`ContentDisposition::parse_form_data`](crate::disposition::ContentDisposition::parse_form_data): `\` literal, `%22` kept as
//!   written, names not percent-decoded, read as UTF-8 with U+FFFD for invalid bytes);
//!   `Content-Transfer-Encoding` ignored; a repeated header: the last one counts; the
//!   `Content-Type` as Fetch's "extract a MIME type" reads it ([`Part::mime_type`]).
//! - [`Profile::Strict`]: RFC 7578 and RFC 2046 to the letter, no preamble nor epilogue:
//!   header fields as RFC 9110 §5 writes them (no whitespace before the colon, no control
//!   bytes), the `Content-Disposition` by RFC 6266's grammar ([`disposition::Profile::Strict`](crate::disposition::Profile::Strict),
//!   quoted-pairs unescaped), a repeated `Content-Disposition` or `Content-Type` refused, a
//!   `Content-Transfer-Encoding` other than `7bit`, `8bit` or `binary` refused (RFC 7578
//!   §4.7), transport padding (spaces and tabs after a boundary) allowed.
//! - [`Profile::Lenient`]: what busboy and ASP.NET Core's `MultipartReader` accept: a preamble
//!   and an epilogue (each capped), transport padding, the `Content-Disposition` as
//!   [`disposition::Profile::DotNet`](crate::disposition::Profile::DotNet) reads it, and folded header fields as busboy reads them
//!   (RFC 5322 §2.2.3 obs-fold: a line starting with SP or HTAB after a field continues it;
//!   [`unfold`] makes each fold one SP, as [`Part::name`], [`Part::filename`] and
//!   [`Part::mime_type`] do, and the `Content-Disposition` reads a fold as whitespace).
//!   Fetch and Strict refuse a folded field (a line without a colon, or not starting with a
//!   token). And bodies whose lines end in LF, as old clients send them and Go's
//!   `mime/multipart` and werkzeug read them: the first delimiter line's ending decides (as
//!   Go's reader does), and then every line break of the body is LF: the delimiter is
//!   `LF--boundary` (a CR before it is data), a header line ends in LF (a CR in it is an
//!   error), and so on; Fetch and Strict refuse the LF after the first boundary.
//!
//! In every profile a part needs a `Content-Disposition` of type `form-data` with a `name`,
//! header lines end with CRLF (a bare CR or LF is an error; Lenient: LF throughout a body
//! whose first delimiter line ends in LF), and every limit of
//! [`MultipartLimits`] is finite and checked before the bytes it governs are buffered.
//!
//! What Fetch's `FormData` makes of a part past the parser is the caller's, and the parser
//! reports what it needs: a part with a filename is a `File` whose type is
//! [`Part::mime_type`]'s serialization, the empty string when the part has a `Content-Type`
//! that is not a MIME type ([`Part::content_type`] is `Some`, `mime_type` `None`: WPT
//! "Parse Content-Type that is not a MIME type is ignored") and `text/plain` when it has
//! none (both `None`: "Parse file part without Content-Type"); the body holds no
//! modification date (the `File`'s `lastModified` is the `File` layer's: "Parse a file part's
//! lastModified"); data is handed out as sent, and a value's bytes are then decoded as UTF-8
//! with U+FFFD for invalid bytes ("Parse invalid UTF-8 in a value"). The request's
//! `Content-Type` is read by [`boundary()`], which finds the boundary's bytes; Fetch reads
//! that header as ISO-8859-1 text and looks for the boundary UTF-8 encoded ("Parse a
//! non-ASCII boundary parameter"), so a caller that follows it transcodes a boundary with
//! bytes above 0x7F before making the reader.
//!
//! ```
//! use reqparse::body::multipart::{MultipartEvent, MultipartReader};
//!
//! let body = b"--XyZ\r\n\
//!     Content-Disposition: form-data; name=\"title\"\r\n\r\n\
//!     Holiday\r\n\
//!     --XyZ\r\n\
//!     Content-Disposition: form-data; name=\"photo\"; filename=\"C:\\photos\\a.jpg\"\r\n\
//!     Content-Type: image/jpeg\r\n\r\n\
//!     \xff\xd8\xff\r\n\
//!     --XyZ--\r\n";
//! let mut reader = MultipartReader::new(b"XyZ", Default::default(), Default::default())?;
//! let mut input: &[u8] = body;
//! let mut parts = Vec::new();
//! loop {
//!     let step = reader.decode(input, true)?;
//!     input = &input[step.consumed..];
//!     match step.event {
//!         Some(MultipartEvent::Part(part)) => {
//!             let filename = part.filename().map(|f| f.basename().to_owned());
//!             parts.push((part.name().into_owned(), filename, Vec::new()));
//!         }
//!         Some(MultipartEvent::Data(data)) => parts.last_mut().unwrap().2.extend_from_slice(data),
//!         Some(MultipartEvent::PartEnd) => {}
//!         Some(MultipartEvent::End) | None => break,
//!     }
//! }
//! assert_eq!(parts[0], ("title".into(), None, b"Holiday".to_vec()));
//! assert_eq!(parts[1], ("photo".into(), Some("a.jpg".into()), b"\xff\xd8\xff".to_vec()));
//! # Ok::<(), reqparse::body::multipart::MultipartError>(())
//! ```
#![forbid(unsafe_code)]

use super::Step;
use machine::State;
use search::DelimiterSearch;

// What each file holds: this one, the reader's public face ([`MultipartReader`]'s fields and
// the calls a caller makes); `machine`, where the reader is in the body and a step of each
// state; `head`, a part's header block, read once; `search`, the delimiter's search in a
// part's data; `part`, the views of a part handed out; `content_type`, the request's
// boundary; `error`, the errors and limits; `filename` and `mime`, readings of a part's
// filename and type; `write`, the writer.
mod content_type;
// Also the body's: `ReadError`'s default error type is this reader's.
pub(in crate::body) mod error;
mod filename;
mod head;
mod machine;
mod mime;
mod part;
mod profile;
mod search;
#[cfg(test)]
mod tests;
mod write;

#[cfg(feature = "std")]
pub use super::ReadError;
pub use content_type::boundary;
use content_type::check_boundary;
pub use error::{MultipartError, MultipartErrorKind, MultipartLimit, MultipartLimits};
pub use filename::Filename;
#[cfg(test)]
use head::check_field;
pub use mime::{MimeParameters, MimeType};
pub use part::{unfold, Headers, MultipartEvent, Part};
pub use profile::Profile;
pub use write::{write, write_into, written_len, WriteError, WritePart};

/// The sans-io reader of a multipart/form-data body (see the [module documentation](self)
/// and [`Step`] for the protocol).
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
///
/// // A read that ends inside a delimiter: the bytes that may begin it are held back.
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nhi\r\n-";
/// let mut input: &[u8] = body;
/// let mut data = Vec::new();
/// loop {
///     let step = reader.decode(input, false)?;
///     input = &input[step.consumed..];
///     match step.event {
///         Some(MultipartEvent::Data(d)) => data.extend_from_slice(d),
///         None => break,
///         _ => {}
///     }
/// }
/// assert_eq!((data.as_slice(), input), (&b"hi"[..], &b"\r\n-"[..]));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug)]
pub struct MultipartReader {
    /// The delimiter (`CRLF--boundary`) and its searchers.
    search: DelimiterSearch,
    /// (Lenient) The searcher of `LF--boundary`, once the first delimiter line has ended in
    /// LF: the body's lines end in LF, and its parts' data end at that delimiter.
    lf: Option<memchr::memmem::Finder<'static>>,
    profile: Profile,
    limits: MultipartLimits,
    state: State,
    /// Bytes consumed so far: the offset of the next byte fed.
    position: u64,
    parts: usize,
    /// Parts with a filename so far, and parts without one.
    files: usize,
    fields: usize,
    /// Data bytes of the current part.
    part_bytes: u64,
    /// Data bytes of every value so far.
    text_bytes: u64,
    /// The most data bytes the current part may have, and the limit that says so: a file's
    /// or a value's, the one the caller set ([`MultipartReader::limit_part`]), none
    /// (`u64::MAX`) for a part the caller skips. Decided when it changes, so that each piece
    /// of data costs one compare for it.
    part_cap: (u64, MultipartLimit),
    /// The current part's data counts against [`MultipartLimits::max_text_bytes`]: a value
    /// the caller does not skip.
    counts_as_text: bool,
    /// The caller skips the current part's data ([`MultipartReader::skip_part`]).
    skipping: bool,
    /// Preamble or epilogue bytes consumed so far.
    outside: usize,
    /// What the current header block's fields read so far make of its part.
    head: head::Fields,
    /// How far the current header block has been read.
    block: head::Block,
}

impl MultipartReader {
    /// A reader at the start of a body whose boundary (the `boundary` parameter of its
    /// `Content-Type`, unquoted) is `boundary`. Builds the delimiter's searcher once: the
    /// only allocation the reader makes (but, [`Profile::Lenient`], a second searcher for a
    /// body whose lines end in LF, when its first delimiter line shows it).
    ///
    /// # Errors
    /// [`MultipartErrorKind::InvalidBoundary`] for an empty boundary, one holding CR or LF,
    /// or (Strict) one that is not RFC 2046 `bchars` or ends with a space; over
    /// [`MultipartLimits::max_boundary_bytes`], that limit.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit, MultipartReader, Profile};
    /// assert!(MultipartReader::new(b"----WebKitFormBoundaryx1", Profile::Strict, Default::default()).is_ok());
    /// let err = MultipartReader::new(b"a b ", Profile::Strict, Default::default()).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::InvalidBoundary, 3));
    /// let long = [b'x'; 71];
    /// let err = MultipartReader::new(&long, Profile::Fetch, Default::default()).unwrap_err();
    /// assert_eq!(err.kind, MultipartErrorKind::Limit(MultipartLimit::BoundaryBytes));
    /// ```
    pub fn new(
        boundary: &[u8],
        profile: Profile,
        limits: MultipartLimits,
    ) -> Result<Self, MultipartError> {
        check_boundary(boundary, profile, limits.max_boundary_bytes)?;
        let mut delimiter = alloc::vec::Vec::with_capacity(boundary.len() + 4);
        delimiter.extend_from_slice(b"\r\n--");
        delimiter.extend_from_slice(boundary);
        Ok(MultipartReader {
            search: DelimiterSearch::new(delimiter),
            lf: None,
            profile,
            limits,
            state: State::Start,
            position: 0,
            parts: 0,
            files: 0,
            fields: 0,
            part_bytes: 0,
            text_bytes: 0,
            part_cap: (u64::MAX, MultipartLimit::BodyBytes),
            counts_as_text: false,
            skipping: false,
            outside: 0,
            head: head::Fields::default(),
            block: head::Block {
                line: 0,
                scanned: 0,
                lines: 0,
                window: 0,
                limit: MultipartLimit::HeaderBytes,
            },
        })
    }

    /// Reads the body from `input` to its end and hands every event, [`MultipartEvent::End`]
    /// last, to `each`. Data is borrowed from one buffer that holds what the reader holds
    /// back (at most an incomplete header block, capped by
    /// [`max_header_bytes`](MultipartLimits::max_header_bytes)) and one read (4 KiB first,
    /// doubling while reads fill it, up to 64 KiB); nothing else is allocated.
    ///
    /// # Errors
    /// [`ReadError::Io`] when a read fails (reads interrupted by a signal are retried),
    /// [`ReadError::Body`] for what [`decode`](Self::decode) refuses.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// let body: &[u8] = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--";
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let mut names = Vec::new();
    /// reader.read_from(body, |event| {
    ///     if let MultipartEvent::Part(part) = event {
    ///         names.push(part.name().into_owned());
    ///     }
    /// })?;
    /// assert_eq!(names, ["a"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn read_from<R: std::io::Read>(
        &mut self,
        input: R,
        each: impl FnMut(MultipartEvent<'_>),
    ) -> Result<(), ReadError> {
        // The reader itself reads on to the end of the input (the epilogue, or `AfterEnd`).
        super::read::read_from(self, input, each).map(|_| ())
    }

    /// The profile the body is read by.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartReader, Profile};
    /// let reader = MultipartReader::new(b"b", Profile::Lenient, Default::default())?;
    /// assert_eq!(reader.profile(), Profile::Lenient);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// How many bytes have been consumed so far: the offset in the body of the next byte fed.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b\r\n", false)?;
    /// assert_eq!(reader.position(), 5);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.position
    }

    /// How many parts have begun so far.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// assert_eq!(reader.parts(), 0);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn parts(&self) -> usize {
        self.parts
    }

    /// Whether [`MultipartEvent::End`] has been handed out.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b--\r\n", true)?;
    /// assert!(reader.is_done());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// The delimiter the reader looks for in a part's data: CRLF, `--` and the boundary (LF,
    /// `--` and the boundary once a [`Profile::Lenient`] body's first delimiter line has ended
    /// in LF).
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let reader = MultipartReader::new(b"XyZ", Default::default(), Default::default())?;
    /// assert_eq!(reader.delimiter(), b"\r\n--XyZ");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn delimiter(&self) -> &[u8] {
        match &self.lf {
            Some(lf) => lf.needle(),
            None => self.search.delimiter(),
        }
    }

    /// Whether the reader is in a part's data (its header block read and its first bytes,
    /// which may be the delimiter of an empty part, seen; its delimiter not yet found): where
    /// [`skip_data`](Self::skip_data) may be called.
    ///
    /// ```
    /// use reqparse::body::multipart::MultipartReader;
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// reader.decode(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n", false)?;
    /// // `--b` here would end the part, empty (RFC 2046 §5.1.1): not data yet.
    /// assert!(!reader.in_data());
    /// reader.decode(b"hello", false)?;
    /// assert!(reader.in_data());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn in_data(&self) -> bool {
        matches!(self.state, State::Data { .. } | State::LfData)
    }

    /// Takes `n` bytes of the current part's data as read, without seeing them: for a caller
    /// that searched them for the delimiter itself (a JS engine's native `indexOf`, which
    /// saves copying them into wasm memory). The caller holds no unconsumed input, and the `n`
    /// bytes that follow what was consumed hold no [`delimiter`](Self::delimiter) and do not
    /// end with a prefix of one: exactly when [`decode`](Self::decode) would hand them out as
    /// [`MultipartEvent::Data`]. Answers `false`, and changes nothing, when the reader is not
    /// in a part's data or a limit would stop the data within those bytes: `decode` then
    /// reads them, to the same data and the same error at the same offset. So too in a body
    /// whose lines end in LF ([`Profile::Lenient`]), which `decode` alone reads (its delimiter
    /// starts with LF, where a caller's search may take CR for granted).
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let head = b"--b\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\nPK";
    /// assert!(matches!(reader.decode(head, false)?.event, Some(MultipartEvent::Part(_))));
    /// assert_eq!(reader.decode(b"PK", false)?.event, Some(MultipartEvent::Data(b"PK")));
    /// assert!(reader.skip_data(1000));
    /// assert_eq!(reader.position(), head.len() as u64 + 1000);
    /// assert_eq!(reader.decode(b"\r\n--b--", true)?.event, Some(MultipartEvent::PartEnd));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn skip_data(&mut self, n: u64) -> bool {
        if !matches!(self.state, State::Data { .. }) {
            return false;
        }
        if n > self.data_budget().0 {
            return false;
        }
        self.position += n;
        self.took(n);
        // The caller holds nothing back: what comes next starts no held delimiter (the reader
        // stays in the data, `steps` alone moves it elsewhere).
        self.state = State::Data { held: 0 };
        true
    }

    /// Sets the current part's data limit, once its [`MultipartEvent::Part`] has been handed
    /// out and before its [`MultipartEvent::PartEnd`]: in place of
    /// [`max_file_bytes`](MultipartLimits::max_file_bytes) or
    /// [`max_value_bytes`](MultipartLimits::max_value_bytes), lower or higher (the body's limit
    /// and, for a value, [`max_text_bytes`](MultipartLimits::max_text_bytes) still apply).
    /// Data past it is refused as [`MultipartLimit::PartBytes`]. What multer's `for_field`
    /// and busboy's per-file decisions are for: a limit chosen by the part's name, filename or
    /// type. Answers `false`, and changes nothing, outside a part.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartEvent, MultipartLimit, MultipartReader};
    /// let body = b"--b\r\nContent-Disposition: form-data; name=avatar; filename=a.png\r\n\r\n\
    ///     0123456789\r\n--b--";
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let mut input: &[u8] = body;
    /// let err = loop {
    ///     let step = match reader.decode(input, true) {
    ///         Ok(step) => step,
    ///         Err(e) => break e,
    ///     };
    ///     input = &input[step.consumed..];
    ///     if let Some(MultipartEvent::Part(part)) = step.event {
    ///         // Avatars are small: 8 bytes here.
    ///         if part.name() == "avatar" {
    ///             reader.limit_part(8);
    ///         }
    ///     }
    /// };
    /// assert_eq!(err.kind, MultipartErrorKind::Limit(MultipartLimit::PartBytes));
    /// assert_eq!((err.offset, err.part), (76, Some(0)));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn limit_part(&mut self, max_bytes: u64) -> bool {
        if !self.in_part() {
            return false;
        }
        if !self.skipping {
            self.part_cap = (max_bytes, MultipartLimit::PartBytes);
        }
        true
    }

    /// Skips the current part's data, once its [`MultipartEvent::Part`] has been handed out
    /// and before its [`MultipartEvent::PartEnd`]: `decode` consumes it without handing it
    /// out (and hands out the part's `PartEnd` as usual), and only the body's limit applies
    /// to it; a skipped value does not count against
    /// [`max_text_bytes`](MultipartLimits::max_text_bytes). The body is read on, to the next
    /// part. Answers `false`, and changes nothing, outside a part.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// let body = b"--b\r\nContent-Disposition: form-data; name=junk; filename=x.exe\r\n\r\n\
    ///     MZ...\r\n--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--";
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let mut input: &[u8] = body;
    /// let mut seen = Vec::new();
    /// loop {
    ///     let step = reader.decode(input, true)?;
    ///     input = &input[step.consumed..];
    ///     match step.event {
    ///         Some(MultipartEvent::Part(part)) => {
    ///             if part.filename().is_some_and(|f| f.as_str().ends_with(".exe")) {
    ///                 reader.skip_part();
    ///             }
    ///             seen.push(part.name().into_owned());
    ///         }
    ///         Some(MultipartEvent::Data(d)) => seen.push(String::from_utf8_lossy(d).into()),
    ///         Some(MultipartEvent::End) | None => break,
    ///         Some(MultipartEvent::PartEnd) => {}
    ///     }
    /// }
    /// assert_eq!(seen, ["junk", "a", "1"]);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn skip_part(&mut self) -> bool {
        if !self.in_part() {
            return false;
        }
        self.skipping = true;
        self.part_cap = (u64::MAX, MultipartLimit::BodyBytes);
        self.counts_as_text = false;
        true
    }

    /// Whether the reader is between a part's [`MultipartEvent::Part`] and its
    /// [`MultipartEvent::PartEnd`].
    fn in_part(&self) -> bool {
        matches!(
            self.state,
            State::DataStart | State::Data { .. } | State::LfData
        )
    }

    /// Reads from `input` (the bytes that follow what was consumed so far) up to the next
    /// event; `eof` says that no byte follows `input`. Bytes not consumed (what may begin a
    /// delimiter, or an incomplete header block) must be fed again with what arrives next.
    /// An error is final: the body is not to be read on.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartReader};
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let err = reader.decode(b"--b--junk", true).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::AfterEnd, 5));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    #[inline]
    pub fn decode<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        if !eof {
            if let Some(step) = self.small_step(input) {
                return Ok(step);
            }
        }
        self.steps(input, eof)
    }

    /// [`decode`](Self::decode) for a caller whose input is most often large (the async
    /// reader's chunks, read where they are): an input longer than a small read goes straight
    /// to the state machine, without the small reads' checks before it (`steps` reads every
    /// input to the step `small_step` would make of it: skipping it changes no step).
    #[cfg(feature = "async")]
    #[inline(always)]
    pub(crate) fn decode_chunk<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        if input.len() > machine::SMALL_READ {
            return self.steps(input, eof);
        }
        self.decode(input, eof)
    }
}

// The feed driver's protocol: a step is `decode`, which takes `eof` itself.
super::feed::decode_with_eof! {
    MultipartReader => MultipartEvent, MultipartError;
}
