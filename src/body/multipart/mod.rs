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

use super::grammar::{is, FIELD, TOKEN, WS};
use super::{find_byte, Step};
use crate::bytes::slice;
use search::{partial_at_end, DelimiterSearch};

mod content_type;
mod error;
mod filename;
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
pub use mime::{MimeParameters, MimeType};
pub use part::{unfold, Headers, MultipartEvent, Part};
pub use profile::Profile;
pub use write::{write, write_into, written_len, WriteError, WritePart};

/// Where the reader is in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// At the start of the body: the first delimiter has no CRLF before it.
    Start,
    /// (Lenient) In the preamble, looking for the first delimiter.
    Preamble,
    /// Just after a boundary, and `padding` bytes of transport padding after it.
    AfterBoundary { padding: usize },
    /// In a part's header block: the current line starts at `line` in the input fed (the
    /// lines before it are checked) and holds no LF before `scanned`, `lines` fields so far;
    /// the block must end within `window` bytes, or `limit` is broken (the header limit less
    /// any transport padding before the block, or what the body limit leaves, whichever is
    /// less: both fixed while the block is read, as nothing is consumed). What was scanned is
    /// not scanned again when it is fed again, longer.
    Headers {
        line: usize,
        scanned: usize,
        lines: usize,
        window: usize,
        limit: MultipartLimit,
    },
    /// Just past a part's header block, before any of its data: the CRLF of the block's empty
    /// line may have been the delimiter's own (RFC 2046 §5.1.1, `body-part :=
    /// MIME-part-headers [CRLF *OCTET]`: a part with neither the empty line nor data, as Go's
    /// reader takes and werkzeug writes), so `--boundary` here ends the part, empty.
    DataStart,
    /// In a part's data; the input fed starts with the first `held` bytes of the delimiter
    /// (held back by the last call: only what follows them is new).
    Data { held: usize },
    /// (Lenient) In a part's data, in a body whose lines end in LF: its delimiter is
    /// `LF--boundary`, searched for by [`MultipartReader::lf`].
    LfData,
    /// After the close delimiter.
    Close,
    /// (Fetch, Strict) After the CRLF that may follow the close delimiter: the epilogue
    /// (Fetch), nothing else (Strict).
    Closed,
    /// The end has been handed out.
    Done,
}

/// What a state's step did with the input it was given, besides using `.0` bytes of it: the
/// event's parts that `decode` cuts from the input, so that no step moves a whole
/// [`MultipartEvent`] about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    /// Moved on: read on.
    On,
    /// Nothing more to do without more input.
    More,
    /// The bytes used are data.
    Data,
    /// The bytes used are the delimiter that ends the part's data.
    PartEnd,
    /// The bytes used are a header block and its empty line; the block is the first `.0`.
    Part(usize),
    /// The end of the body.
    End,
}

type Moved = (usize, Ev);

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
            search: DelimiterSearch::new(&delimiter),
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
        super::feed::read_from(self, input, each).map(|_| ())
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
        // The caller holds nothing back: what comes next starts no held delimiter.
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

    /// The steps of a small read that need none of the state machine (a read of a few bytes,
    /// off a slow or a hostile peer, mostly ends in one of them): nothing fed; a header line
    /// a few bytes longer, without its LF; a held delimiter prefix a few bytes longer; or a
    /// few bytes of data without a CR, within the limits. Inlined into the caller's loop,
    /// where [`Self::steps`] costs a call with the whole state machine's entry and exit
    /// (on 1-byte reads, most of the time: BENCHMARKS.md, "Multipart search"). `None`: not one of
    /// them, for `steps` to read (which reads each of them to the same step).
    #[inline(always)]
    fn small_step<'a>(&mut self, input: &'a [u8]) -> Option<Step<MultipartEvent<'a>>> {
        // At most this many new bytes: more are not a small read, and would be scanned twice
        // whenever `steps` has to take them after all.
        const SMALL: usize = 8;
        let more = Step {
            consumed: 0,
            event: None,
        };
        let n = self.search.delimiter().len();
        match &mut self.state {
            State::Headers {
                line,
                scanned,
                window,
                ..
            } => {
                let new = input.get((*scanned).max(*line)..)?;
                if new.len() > SMALL || input.len() >= *window || new.contains(&b'\n') {
                    return None;
                }
                *scanned = input.len();
                Some(more)
            }
            State::Data { held: 0 } => {
                if input.len() > SMALL.min(n - 1) || input.contains(&b'\r') {
                    return None;
                }
                if input.is_empty() {
                    return Some(more);
                }
                // Taken as data the caller found itself: within the budgets (past them `steps`
                // names the limit), and the state stays `Data { held: 0 }`.
                if !self.skip_data(input.len() as u64) {
                    return None;
                }
                let data = (!self.skipping).then_some(MultipartEvent::Data(input));
                Some(Step {
                    consumed: input.len(),
                    event: data,
                })
            }
            State::Data { held } => {
                // The held prefix, and a few more of the delimiter's bytes: still a prefix.
                let upto = input.len();
                if upto <= *held || upto >= n || upto - *held > SMALL {
                    return None;
                }
                let delimiter = self.search.delimiter();
                if slice(input, *held..) != slice(delimiter, *held..upto) {
                    return None;
                }
                *held = upto;
                Some(more)
            }
            State::Done => None,
            // Nothing fed: every other state needs more (as `steps` finds).
            _ if input.is_empty() => Some(more),
            _ => None,
        }
    }

    /// [`Self::decode`], step by step through the state machine.
    #[inline(never)]
    fn steps<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        let mut consumed = 0;
        loop {
            let rest = slice(input, consumed..);
            let (used, ev) = match self.state {
                State::Data { held } => self.data(rest, held)?,
                State::LfData => self.lf_data(rest)?,
                State::DataStart => self.data_start(rest, eof),
                State::Start => self.start(rest, eof)?,
                State::Preamble => self.preamble(rest)?,
                State::AfterBoundary { padding } => self.after_boundary(rest, padding)?,
                State::Headers {
                    line,
                    scanned,
                    lines,
                    window,
                    limit,
                } => self.headers(rest, line, scanned, lines, window, limit)?,
                State::Close | State::Closed => self.close(rest, eof)?,
                State::Done => (0, Ev::End),
            };
            let budget = self.limits.max_body_bytes - self.position;
            if used as u64 > budget {
                return Err(self.limit_at(budget as usize, MultipartLimit::BodyBytes));
            }
            let event = match ev {
                Ev::On => None,
                Ev::More => {
                    if eof {
                        let end = rest.len();
                        return Err(self.error_at(end, MultipartErrorKind::UnexpectedEnd));
                    }
                    // Its own return (the most frequent on small reads): only the step's
                    // `consumed` and "no event" to write.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: None,
                    });
                }
                // A skipped part's data: consumed, and read on.
                Ev::Data if self.skipping => None,
                Ev::Data => {
                    // As `More`: its own return, which writes no part.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: Some(MultipartEvent::Data(slice(rest, ..used))),
                    });
                }
                Ev::PartEnd => Some(MultipartEvent::PartEnd),
                // Read before the position moves: the part's offsets start at its block.
                Ev::Part(block) => Some(MultipartEvent::Part(self.part(slice(rest, ..block))?)),
                Ev::End => Some(MultipartEvent::End),
            };
            self.position += used as u64;
            consumed += used;
            if event.is_some() {
                return Ok(Step { consumed, event });
            }
        }
    }

    /// An error at `offset` bytes past the current position, in the part the reader is in.
    fn error_at(&self, offset: usize, kind: MultipartErrorKind) -> MultipartError {
        let part = match self.state {
            State::Headers { .. } => Some(self.parts),
            State::DataStart | State::Data { .. } | State::LfData => self.parts.checked_sub(1),
            _ => None,
        };
        MultipartError {
            kind,
            offset: self.position + offset as u64,
            part,
        }
    }

    fn limit_at(&self, offset: usize, limit: MultipartLimit) -> MultipartError {
        self.error_at(offset, MultipartErrorKind::Limit(limit))
    }

    /// The first `--boundary`, at the very start of the body.
    fn start(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        let dash = slice(self.search.delimiter(), 2..);
        let n = rest.len().min(dash.len());
        let mismatch = slice(rest, ..n).iter().zip(dash).position(|(a, b)| a != b);
        let whole = n == dash.len();
        match mismatch {
            None if whole => {
                self.state = State::AfterBoundary { padding: 0 };
                Ok((n, Ev::On))
            }
            // A prefix of `--boundary` so far.
            None if !eof => Ok((0, Ev::More)),
            _ if self.profile == Profile::Lenient => {
                self.state = State::Preamble;
                Ok((0, Ev::On))
            }
            Some(at) => Err(self.error_at(at, MultipartErrorKind::ExpectedBoundary)),
            None => Err(self.error_at(n, MultipartErrorKind::ExpectedBoundary)),
        }
    }

    /// (Lenient) Skips the preamble up to the first line that starts with `--boundary`: up to
    /// its `LF--boundary` (the line before it may end in CRLF or LF: the line after the
    /// boundary tells which the body's lines end in).
    fn preamble(&mut self, rest: &[u8]) -> Result<Moved, MultipartError> {
        let needle = slice(self.search.delimiter(), 1..);
        let (skip, found) = match memchr::memmem::find(rest, needle) {
            Some(at) => (at, true),
            None => (rest.len() - partial_at_end(rest, needle), false),
        };
        let budget = self.limits.max_preamble_bytes - self.outside;
        if skip > budget {
            return Err(self.limit_at(budget, MultipartLimit::PreambleBytes));
        }
        self.outside += skip;
        if !found {
            // What is left may begin the delimiter: it needs what follows.
            return Ok((skip, Ev::More));
        }
        self.outside = 0;
        self.state = State::AfterBoundary { padding: 0 };
        Ok((skip + needle.len(), Ev::On))
    }

    /// After a boundary: `--` (the close delimiter), or transport padding and CRLF (a part).
    /// (Lenient) LF instead of CRLF after the first boundary: the body's lines end in LF (as
    /// Go's `mime/multipart` decides, on the first delimiter line; werkzeug reads them too),
    /// and from there every line break is LF: its delimiter `LF--boundary`, its header lines'.
    fn after_boundary(&mut self, rest: &[u8], padding: usize) -> Result<Moved, MultipartError> {
        let invalid = |at| Err(self.error_at(at, MultipartErrorKind::InvalidDelimiter));
        let lf = self.lf.is_some();
        match rest {
            [] | [b'-'] => Ok((0, Ev::More)),
            [b'\r'] if !lf => Ok((0, Ev::More)),
            [b'-', b'-', ..] if padding == 0 => {
                self.state = State::Close;
                Ok((2, Ev::On))
            }
            [b'\r', b'\n', ..] if !lf => self.header_block(padding, 2),
            [b'\n', ..] if lf => self.header_block(padding, 1),
            [b'\n', ..] if self.profile == Profile::Lenient && self.parts == 0 => {
                // The first delimiter line ends in LF: so does every line of the body.
                let delimiter = slice(self.search.delimiter(), 1..);
                self.lf = Some(memchr::memmem::Finder::new(delimiter).into_owned());
                self.header_block(padding, 1)
            }
            [b' ' | b'\t', ..] => {
                // Transport padding (RFC 2046 §5.1.1; WPT formdata-parsing "Parse transport
                // padding after a delimiter"): it counts against the header limit of the part
                // that follows, so it cannot run on unbounded.
                let n = rest.iter().take_while(|&&b| is(b, WS)).count();
                let budget = self.limits.max_header_bytes.saturating_sub(padding);
                if n > budget {
                    return Err(self.limit_at(budget, MultipartLimit::HeaderBytes));
                }
                self.state = State::AfterBoundary {
                    padding: padding + n,
                };
                Ok((n, Ev::On))
            }
            [b'\r', _, ..] if !lf => invalid(1),
            _ => invalid(0),
        }
    }

    /// The line break (`nl` bytes) after a delimiter and its `padding`: a part's header block
    /// comes next.
    fn header_block(&mut self, padding: usize, nl: usize) -> Result<Moved, MultipartError> {
        if self.parts == self.limits.max_parts {
            let e = self.limit_at(0, MultipartLimit::Parts);
            // The part that would be one too many.
            return Err(MultipartError {
                part: Some(self.parts),
                ..e
            });
        }
        // The block starts past the line break (`decode` refuses it if the body limit does).
        let header_budget = self.limits.max_header_bytes.saturating_sub(padding);
        let body_budget = (self.limits.max_body_bytes - self.position).saturating_sub(nl as u64);
        let (window, limit) = if (header_budget as u64) <= body_budget {
            (header_budget, MultipartLimit::HeaderBytes)
        } else {
            // Smaller than a usize header budget, so it fits.
            (body_budget as usize, MultipartLimit::BodyBytes)
        };
        self.state = State::Headers {
            line: 0,
            scanned: 0,
            lines: 0,
            window,
            limit,
        };
        Ok((nl, Ev::On))
    }

    /// A part's header block: checks each line as it completes and hands out the part when
    /// the empty line arrives. Bytes scanned by an earlier call (`scanned`: fed again, with
    /// more after them) are not scanned again: on 1-byte reads each byte is looked at once.
    fn headers(
        &mut self,
        rest: &[u8],
        mut line: usize,
        scanned: usize,
        mut lines: usize,
        window: usize,
        limit: MultipartLimit,
    ) -> Result<Moved, MultipartError> {
        let seen = slice(rest, ..rest.len().min(window));
        let mut from = scanned.clamp(line, seen.len().max(line));
        loop {
            let Some(lf) = find_byte(b'\n', slice(seen, from.min(seen.len())..)).map(|i| from + i)
            else {
                if rest.len() >= window {
                    return Err(self.limit_at(window, limit));
                }
                self.state = State::Headers {
                    line,
                    scanned: seen.len(),
                    lines,
                    window,
                    limit,
                };
                return Ok((0, Ev::More));
            };
            // The line's end: its CRLF, or in a body whose lines end in LF, its LF.
            let end = if self.lf.is_some() {
                lf
            } else if lf == line || seen.get(lf - 1) != Some(&b'\r') {
                return Err(self.error_at(lf, MultipartErrorKind::BareLf));
            } else {
                lf - 1
            };
            let text = slice(seen, line..end);
            if let Some(cr) = memchr::memchr(b'\r', text) {
                return Err(self.error_at(line + cr, MultipartErrorKind::BareCr));
            }
            if text.is_empty() {
                return Ok((lf + 1, Ev::Part(line)));
            }
            // (Lenient) A line starting with SP or HTAB after a field continues it (RFC 5322
            // §2.2.3 obs-fold; busboy reads `Content-Type: \r\n text/plain`): the same field.
            let continued = self.profile == Profile::Lenient
                && lines > 0
                && text.first().is_some_and(|&b| is(b, WS));
            if !continued {
                if lines == self.limits.max_headers {
                    return Err(self.limit_at(line, MultipartLimit::Headers));
                }
                if let Err(at) = check_field(text, self.profile) {
                    return Err(self.error_at(line + at, MultipartErrorKind::InvalidHeader));
                }
                lines += 1;
            }
            line = lf + 1;
            from = line;
        }
    }

    /// The part whose (checked) header block is `block`, at the current position; its data
    /// comes next.
    fn part<'a>(&mut self, block: &'a [u8]) -> Result<Part<'a>, MultipartError> {
        let part = Part::parse(block, self.position, self.parts, self.profile, &self.limits)
            .map_err(|(at, kind)| self.error_at(at, kind))?;
        let has_filename = part.has_filename();
        if has_filename {
            if self.files == self.limits.max_files {
                return Err(self.limit_at(0, MultipartLimit::Files));
            }
            self.files += 1;
        } else {
            if self.fields == self.limits.max_fields {
                return Err(self.limit_at(0, MultipartLimit::Fields));
            }
            self.fields += 1;
        }
        self.parts += 1;
        self.part_bytes = 0;
        self.part_cap = if has_filename {
            (self.limits.max_file_bytes, MultipartLimit::FileBytes)
        } else {
            (self.limits.max_value_bytes, MultipartLimit::ValueBytes)
        };
        self.counts_as_text = !has_filename;
        self.skipping = false;
        self.state = State::DataStart;
        Ok(part)
    }

    /// The start of a part's data: `--boundary` right here is the delimiter whose CRLF ended
    /// the header block (the part is empty); anything else is data, read by [`Self::data`].
    /// The same delimiter as anywhere else, so what follows it is checked the same way: data
    /// that begins with `--boundary` is the delimiter (RFC 2046 §5.1.1 forbids it in a part,
    /// and [`write()`] refuses it).
    fn data_start(&mut self, rest: &[u8], eof: bool) -> Moved {
        let dash = slice(self.search.delimiter(), 2..);
        if rest.starts_with(dash) {
            let n = dash.len();
            self.state = State::AfterBoundary { padding: 0 };
            return (n, Ev::PartEnd);
        }
        if !eof && dash.starts_with(rest) {
            // A prefix of `--boundary` so far (`rest` is not empty: `decode` answers that).
            return (0, Ev::More);
        }
        self.state = if self.lf.is_some() {
            State::LfData
        } else {
            State::Data { held: 0 }
        };
        (0, Ev::On)
    }

    /// A part's data up to the next delimiter; the bytes that may begin one are held back.
    /// `held`: the input starts with that many bytes of the delimiter, held back by the last
    /// call (on 1-byte reads, a delimiter arriving costs a compare of each byte once).
    fn data(&mut self, rest: &[u8], held: usize) -> Result<Moved, MultipartError> {
        let delimiter = self.search.delimiter();
        let n = delimiter.len();
        if held > 0 && rest.len() >= held {
            let upto = rest.len().min(n);
            // Byte by byte: on small reads, one or two (cheaper than a `memcmp` call).
            let new = slice(rest, held..upto).iter();
            if new.zip(slice(delimiter, held..upto)).all(|(a, b)| a == b) {
                if upto < n {
                    self.state = State::Data { held: upto };
                    return Ok((0, Ev::More));
                }
                self.state = State::AfterBoundary { padding: 0 };
                return Ok((n, Ev::PartEnd));
            }
            // Not the delimiter after all: the held bytes are data (read as any other).
        }
        // The delimiter right here (the usual case after a piece of data that ended at it):
        // no search, which for a small part costs more than the part.
        if rest.starts_with(delimiter) {
            self.state = State::AfterBoundary { padding: 0 };
            return Ok((n, Ev::PartEnd));
        }
        // Shorter than the delimiter (a small read): no search, only what may begin one.
        let found = if rest.len() < n {
            None
        } else {
            self.search.find(rest)
        };
        let (mut take, hold) = match found {
            Some(at) => (at, 0),
            None => {
                let hold = self.search.partial(rest);
                (rest.len() - hold, hold)
            }
        };
        if take == 0 {
            self.state = State::Data { held: hold };
            return Ok((0, Ev::More));
        }
        // Hand out what the limits allow; the next call refuses the byte past them, so every
        // split gives the same data before the same error.
        let (budget, limit) = self.data_budget();
        if budget == 0 {
            return Err(self.limit_at(0, limit));
        }
        if take as u64 > budget {
            // Cut short: what follows is not the held tail.
            take = budget as usize;
            self.state = State::Data { held: 0 };
        } else {
            // The rest, fed again with what follows, starts with the held tail.
            self.state = State::Data { held: hold };
        }
        self.took(take as u64);
        Ok((take, Ev::Data))
    }

    /// (Lenient) A part's data up to the next `LF--boundary`, in a body whose lines end in
    /// LF; the bytes that may begin one are held back (and looked at again with what
    /// follows: such bodies are rare, and [`Self::data`] keeps its ways to itself).
    fn lf_data(&mut self, rest: &[u8]) -> Result<Moved, MultipartError> {
        let Some(finder) = &self.lf else {
            // Only entered once the searcher is made.
            return Ok((0, Ev::More));
        };
        let n = finder.needle().len();
        let take = match finder.find(rest) {
            Some(0) => {
                self.state = State::AfterBoundary { padding: 0 };
                return Ok((n, Ev::PartEnd));
            }
            Some(at) => at,
            None => rest.len() - partial_at_end(rest, finder.needle()),
        };
        if take == 0 {
            return Ok((0, Ev::More));
        }
        // As in `data`: what the limits allow, the byte past them refused by the next call.
        let (budget, limit) = self.data_budget();
        if budget == 0 {
            return Err(self.limit_at(0, limit));
        }
        let take = take.min(usize::try_from(budget).unwrap_or(usize::MAX));
        self.took(take as u64);
        Ok((take, Ev::Data))
    }

    /// How many more data bytes the limits allow the current part, and the limit that says
    /// so, the smallest of: the body's; the part's (the one the caller set, or else a file's
    /// or a value's); for a value, what is left of the values' total. A skipped part's data
    /// is not kept, so only the body's applies to it. `data` and `skip_data` hand out data
    /// within it.
    #[inline]
    fn data_budget(&self) -> (u64, MultipartLimit) {
        let body = self.limits.max_body_bytes - self.position;
        let (cap, limit) = self.part_cap;
        let part = cap.saturating_sub(self.part_bytes);
        let mut least = if part < body {
            (part, limit)
        } else {
            (body, MultipartLimit::BodyBytes)
        };
        if self.counts_as_text {
            let text = self.limits.max_text_bytes.saturating_sub(self.text_bytes);
            if text < least.0 {
                least = (text, MultipartLimit::TextBytes);
            }
        }
        least
    }

    /// `n` more data bytes of the current part read (within [`Self::data_budget`]).
    #[inline]
    fn took(&mut self, n: u64) {
        self.part_bytes += n;
        if self.counts_as_text {
            self.text_bytes += n;
        }
    }

    /// After the close delimiter: what the profile allows, then the end of the input.
    /// Lenient: anything, the epilogue. Fetch and Strict: transport padding, then the end or a
    /// CRLF; after that CRLF, Fetch reads an epilogue (WPT formdata-parsing "Parse epilogue
    /// after close delimiter"), Strict nothing. Padding and epilogue count against
    /// [`MultipartLimits::max_epilogue_bytes`].
    fn close(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        if rest.is_empty() {
            if eof {
                self.state = State::Done;
                return Ok((0, Ev::End));
            }
            return Ok((0, Ev::More));
        }
        let after_end = |at| Err(self.error_at(at, MultipartErrorKind::AfterEnd));
        let epilogue = match self.profile {
            Profile::Lenient => true,
            Profile::Fetch => self.state == State::Closed,
            Profile::Strict => false,
        };
        if epilogue {
            // Read and dropped, up to its limit.
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if rest.len() > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += rest.len();
            return Ok((rest.len(), Ev::On));
        }
        if self.state == State::Closed {
            return after_end(0);
        }
        if rest.first().is_some_and(|&b| is(b, WS)) {
            // Transport padding, counted against the epilogue limit.
            let n = rest.iter().take_while(|&&b| is(b, WS)).count();
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if n > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += n;
            return Ok((n, Ev::On));
        }
        match rest {
            [b'\r'] => Ok((0, Ev::More)),
            [b'\r', b'\n', ..] => {
                self.state = State::Closed;
                Ok((2, Ev::On))
            }
            [b'\r', ..] => after_end(1),
            _ => after_end(0),
        }
    }
}

/// Checks one header line (without its CRLF); `Err` has the offset of the offending byte.
/// Fetch and Lenient: a token name between optional whitespace, `:`, anything but CR and LF
/// (the Fetch Standard's "parse multipart/form-data headers"; WPT formdata-parsing "Parse
/// whitespace before a header name", "Parse whitespace between a header name and the colon"),
/// and in Fetch no NUL (WPT formdata-parsing "Parse failure: NUL in a name", "Parse failure:
/// NUL in an unknown header"). Strict: RFC 9110 §5: no whitespace around the name, a value of
/// field-vchar, SP and HTAB.
fn check_field(line: &[u8], profile: Profile) -> Result<(), usize> {
    if profile == Profile::Strict {
        // A token right up to the colon: a line starting with whitespace is obs-fold.
        let colon = line
            .iter()
            .position(|&b| !is(b, TOKEN))
            .unwrap_or(line.len());
        if colon == 0 || line.get(colon) != Some(&b':') {
            return Err(colon);
        }
        return match slice(line, colon + 1..).iter().position(|&b| !is(b, FIELD)) {
            Some(i) => Err(colon + 1 + i),
            None => Ok(()),
        };
    }
    let colon = memchr::memchr(b':', line).ok_or(line.len())?;
    let name = slice(line, ..colon);
    let start = name.iter().position(|&b| !is(b, WS)).unwrap_or(colon);
    let end = name
        .iter()
        .rposition(|&b| !is(b, WS))
        .map_or(start, |i| i + 1);
    if start == end {
        return Err(start);
    }
    if let Some(i) = slice(name, start..end).iter().position(|&b| !is(b, TOKEN)) {
        return Err(start + i);
    }
    if profile == Profile::Fetch {
        if let Some(nul) = memchr::memchr(0, slice(line, colon + 1..)) {
            return Err(colon + 1 + nul);
        }
    }
    Ok(())
}
