//! The chunked transfer coding (RFC 9112 §7.1), decoded sans-io and strictly.
//!
//! ```text
//! chunked-body   = *chunk last-chunk trailer-section CRLF
//! chunk          = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
//! chunk-size     = 1*HEXDIG
//! last-chunk     = 1*("0") [ chunk-ext ] CRLF
//! chunk-ext      = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
//! chunk-ext-val  = token / quoted-string
//! trailer-section = *( field-line CRLF )
//! ```
//!
//! Request smuggling lives in the differences between two parsers' reading of these lines,
//! so this decoder accepts exactly the grammar and nothing a lenient peer might read another
//! way: at least one hex digit, and at most [`ChunkedLimits::max_size_digits`] of them; an
//! empty size line is an error (not a zero); a CR or LF anywhere in a chunk line but its final
//! CRLF is an error (a lone LF inside an extension was Kestrel's CVE-2025-55315); extensions
//! are tokens and quoted-strings, capped per line and per body; the chunk data is followed by
//! exactly CRLF; trailer fields are parsed like header fields (no obs-fold, no whitespace
//! before the colon, RFC 9112 §5.1-5.2) and capped in bytes and in number.
//!
//! ```
//! use reqparse::body::chunked::{Chunk, ChunkedDecoder, ChunkedErrorKind};
//!
//! // A bare LF ends no chunk line.
//! let err = ChunkedDecoder::default().decode(b"5;ext\nhello\r\n0\r\n\r\n").unwrap_err();
//! assert_eq!((err.kind, err.offset), (ChunkedErrorKind::BareLf, 5));
//!
//! // Data is handed out as it comes, borrowed from the input.
//! let mut decoder = ChunkedDecoder::default();
//! let step = decoder.decode(b"a\r\n0123")?;
//! assert_eq!((step.consumed, step.event), (7, Some(Chunk::Data(&b"0123"[..]))));
//! # Ok::<(), reqparse::body::chunked::ChunkedError>(())
//! ```
#![forbid(unsafe_code)]

use core::fmt;

use super::grammar::{is, skip, FIELD, QDTEXT, QUOTABLE, TOKEN, WS};
use super::Step;
use crate::bytes::slice;

crate::body::limits::chunked!(crate::body::limits::declare(
    /// Limits on what a chunked body may make the decoder (and the caller's buffer) hold or do.
    /// Every one is finite by default; each error names the limit it hit.
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedDecoder, ChunkedErrorKind, ChunkedLimit, ChunkedLimits};
    ///
    /// let limits = ChunkedLimits { max_body_bytes: 4, ..ChunkedLimits::default() };
    /// // Refused at the size line, before any of the data arrives.
    /// let err = ChunkedDecoder::new(limits).decode(b"5\r\n").unwrap_err();
    /// assert_eq!(err.kind, ChunkedErrorKind::Limit(ChunkedLimit::BodyBytes));
    /// assert_eq!(err.to_string(), "chunked body over max_body_bytes at byte 0");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct ChunkedLimits = "reqparse::body::chunked::ChunkedLimits";

    /// The limit a body went over; see [`ChunkedLimits`].
    ///
    /// ```
    /// use reqparse::body::chunked::ChunkedLimit;
    /// assert_eq!(ChunkedLimit::TrailerFields.name(), "max_trailer_fields");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum ChunkedLimit;

    /// The name of the [`ChunkedLimits`] field.
    ///
    /// ```
    /// use reqparse::body::chunked::ChunkedLimit;
    /// assert_eq!(ChunkedLimit::BodyBytes.name(), "max_body_bytes");
    /// ```
    pub const fn name;
));

/// What was wrong with a chunked body; see [`ChunkedError`].
///
/// ```
/// use reqparse::body::chunked::{ChunkedDecoder, ChunkedErrorKind};
/// let err = ChunkedDecoder::default().decode(b"\r\n").unwrap_err();
/// assert_eq!(err.kind, ChunkedErrorKind::EmptySize);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChunkedErrorKind {
    /// A chunk-size line with no size at all (lenient parsers read it as 0).
    EmptySize,
    /// A chunk-size line that does not start with a hex digit.
    InvalidSize,
    /// A chunk size past `u64::MAX` (only with `max_size_digits` above 16).
    SizeOverflow,
    /// A chunk extension that is not `;` name [`=` token or quoted-string].
    InvalidExtension,
    /// A CR that is not part of a line's final CRLF.
    BareCr,
    /// An LF not preceded by CR.
    BareLf,
    /// Chunk data not followed by exactly CRLF.
    MissingCrlf,
    /// A trailer field that is not `name: value` (RFC 9112 §5.1-5.2).
    InvalidTrailer,
    /// The input ended before the last chunk and the trailer section did
    /// ([`ChunkedDecoder::finish`]).
    UnexpectedEnd,
    /// A limit of [`ChunkedLimits`] was reached.
    Limit(ChunkedLimit),
}

impl ChunkedErrorKind {
    /// The kind's name in every face (CLI, vectors, WIT): kebab-case, and `limit:` followed
    /// by the limit's field name for [`ChunkedErrorKind::Limit`].
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedErrorKind, ChunkedLimit};
    /// assert_eq!(ChunkedErrorKind::BareLf.name(), "bare-lf");
    /// assert_eq!(ChunkedErrorKind::Limit(ChunkedLimit::BodyBytes).name(), "limit:max_body_bytes");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ChunkedErrorKind::EmptySize => "empty-size",
            ChunkedErrorKind::InvalidSize => "invalid-size",
            ChunkedErrorKind::SizeOverflow => "size-overflow",
            ChunkedErrorKind::InvalidExtension => "invalid-extension",
            ChunkedErrorKind::BareCr => "bare-cr",
            ChunkedErrorKind::BareLf => "bare-lf",
            ChunkedErrorKind::MissingCrlf => "missing-crlf",
            ChunkedErrorKind::InvalidTrailer => "invalid-trailer",
            ChunkedErrorKind::UnexpectedEnd => "unexpected-end",
            ChunkedErrorKind::Limit(limit) => limit.kind_name(),
        }
    }
}

/// An error in a chunked body, with the byte offset (from the start of the body) where it
/// was found.
///
/// ```
/// use reqparse::body::chunked::{ChunkedDecoder, ChunkedError, ChunkedErrorKind};
/// let mut decoder = ChunkedDecoder::default();
/// let step = decoder.decode(b"3\r\nabcX")?; // the data, then
/// let err = decoder.decode(&b"3\r\nabcX"[step.consumed..]).unwrap_err();
/// assert_eq!((err.kind, err.offset), (ChunkedErrorKind::MissingCrlf, 6));
/// assert_eq!(err.to_string(), "chunk data not followed by CRLF at byte 6");
/// # Ok::<(), ChunkedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkedError {
    /// What was wrong.
    pub kind: ChunkedErrorKind,
    /// Where, in bytes from the start of the chunked body.
    pub offset: u64,
}

impl ChunkedError {
    /// Whether the body went over a limit (rather than being malformed).
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedError, ChunkedErrorKind, ChunkedLimit};
    /// let e = ChunkedError { kind: ChunkedErrorKind::Limit(ChunkedLimit::BodyBytes), offset: 9 };
    /// assert!(e.is_limit());
    /// ```
    pub const fn is_limit(&self) -> bool {
        matches!(self.kind, ChunkedErrorKind::Limit(_))
    }

    /// The HTTP status an error answers (RFC 9110 §15.5): 413 (Content Too Large) for a limit,
    /// 400 (Bad Request) for a malformed body.
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedError, ChunkedErrorKind, ChunkedLimit};
    /// let e = ChunkedError { kind: ChunkedErrorKind::Limit(ChunkedLimit::BodyBytes), offset: 9 };
    /// assert_eq!(e.status(), 413);
    /// ```
    pub const fn status(&self) -> u16 {
        if self.is_limit() {
            413
        } else {
            400
        }
    }
}

impl fmt::Display for ChunkedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            ChunkedErrorKind::EmptySize => "empty chunk-size line",
            ChunkedErrorKind::InvalidSize => "invalid chunk size",
            ChunkedErrorKind::SizeOverflow => "chunk size overflow",
            ChunkedErrorKind::InvalidExtension => "invalid chunk extension",
            ChunkedErrorKind::BareCr => "bare CR in a chunk line",
            ChunkedErrorKind::BareLf => "bare LF in a chunk line",
            ChunkedErrorKind::MissingCrlf => "chunk data not followed by CRLF",
            ChunkedErrorKind::InvalidTrailer => "invalid trailer field",
            ChunkedErrorKind::UnexpectedEnd => "chunked body ended early",
            ChunkedErrorKind::Limit(limit) => {
                return write!(
                    f,
                    "chunked body over {} at byte {}",
                    limit.name(),
                    self.offset
                )
            }
        };
        write!(f, "{what} at byte {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ChunkedError {}

/// An event of a chunked body, borrowing from the input that was fed.
///
/// ```
/// use reqparse::body::chunked::{Chunk, ChunkedDecoder};
///
/// let mut decoder = ChunkedDecoder::default();
/// let step = decoder.decode(b"0\r\nExpires: never\r\n\r\n")?;
/// assert_eq!(step.event, Some(Chunk::Trailer { name: b"Expires", value: b"never" }));
/// assert_eq!(decoder.decode(b"\r\n")?.event, Some(Chunk::End));
/// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunk<'a> {
    /// Bytes of chunk data, in order (one chunk may come in several pieces).
    Data(&'a [u8]),
    /// A trailer field, its value without surrounding whitespace.
    Trailer {
        /// The field name, as sent (a token).
        name: &'a [u8],
        /// The field value.
        value: &'a [u8],
    },
    /// The end of the body: the last chunk and the trailer section are read. Any input after
    /// it is not the body's.
    End,
}

/// Where the decoder is in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// At the start of a chunk-size line.
    SizeLine,
    /// In a chunk's data, with this many bytes to go.
    Data(u64),
    /// After a chunk's data, expecting its CR.
    DataCr,
    /// After that CR, expecting LF.
    DataLf,
    /// At the start of a trailer line (or the final CRLF).
    Trailer,
    /// Past the final CRLF.
    Done,
}

/// The sans-io decoder of a chunked body (see the module documentation and
/// [`Step`] for the protocol).
///
/// ```
/// use reqparse::body::chunked::{Chunk, ChunkedDecoder};
///
/// // A read that ends inside a size line: the line is not consumed, but fed again.
/// let mut decoder = ChunkedDecoder::default();
/// let step = decoder.decode(b"2\r\nhi\r\n1")?;
/// assert_eq!((step.consumed, step.event), (5, Some(Chunk::Data(&b"hi"[..]))));
/// let step = decoder.decode(b"\r\n1")?;
/// assert_eq!((step.consumed, step.event), (2, None));
/// let step = decoder.decode(b"1\r\n!\r\n0\r\n\r\n")?;
/// assert_eq!((step.consumed, step.event), (4, Some(Chunk::Data(&b"!"[..]))));
/// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ChunkedDecoder {
    limits: ChunkedLimits,
    state: State,
    /// Bytes consumed so far: the offset of the next byte fed.
    position: u64,
    data_bytes: u64,
    framing_bytes: u64,
    extension_bytes: usize,
    trailer_bytes: usize,
    trailer_fields: usize,
}

impl Default for ChunkedDecoder {
    fn default() -> Self {
        ChunkedDecoder::new(ChunkedLimits::default())
    }
}

impl ChunkedDecoder {
    /// A decoder at the start of a body, with these limits.
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedDecoder, ChunkedLimits};
    /// let decoder = ChunkedDecoder::new(ChunkedLimits::default());
    /// assert!(!decoder.is_done());
    /// ```
    pub fn new(limits: ChunkedLimits) -> Self {
        ChunkedDecoder {
            limits,
            state: State::SizeLine,
            position: 0,
            data_bytes: 0,
            framing_bytes: 0,
            extension_bytes: 0,
            trailer_bytes: 0,
            trailer_fields: 0,
        }
    }

    /// Whether the whole body (to its final CRLF) has been read.
    ///
    /// ```
    /// use reqparse::body::chunked::ChunkedDecoder;
    /// let mut decoder = ChunkedDecoder::default();
    /// decoder.decode(b"0\r\n\r\n")?;
    /// assert!(decoder.is_done());
    /// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
    /// ```
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }

    /// How many bytes have been consumed so far: the offset in the body of the next byte fed.
    ///
    /// ```
    /// use reqparse::body::chunked::ChunkedDecoder;
    /// let mut decoder = ChunkedDecoder::default();
    /// decoder.decode(b"3\r\nabc")?;
    /// assert_eq!(decoder.position(), 6);
    /// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Bytes of chunk data decoded so far.
    ///
    /// ```
    /// use reqparse::body::chunked::ChunkedDecoder;
    /// let mut decoder = ChunkedDecoder::default();
    /// decoder.decode(b"3\r\nab")?;
    /// assert_eq!(decoder.data_bytes(), 2);
    /// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
    /// ```
    pub fn data_bytes(&self) -> u64 {
        self.data_bytes
    }

    /// Says that the input has ended: an error unless the body was complete.
    ///
    /// ```
    /// use reqparse::body::chunked::{ChunkedDecoder, ChunkedErrorKind};
    /// let mut decoder = ChunkedDecoder::default();
    /// decoder.decode(b"3\r\nab")?;
    /// let err = decoder.finish().unwrap_err();
    /// assert_eq!((err.kind, err.offset), (ChunkedErrorKind::UnexpectedEnd, 5));
    /// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
    /// ```
    pub fn finish(&self) -> Result<(), ChunkedError> {
        match self.state {
            State::Done => Ok(()),
            _ => Err(self.error_at(0, ChunkedErrorKind::UnexpectedEnd)),
        }
    }

    /// Reads a chunked body from `input` and hands every event, [`Chunk::End`] last, to
    /// `each`, through one buffer that holds what the decoder holds back (an incomplete line,
    /// which its limits cap) and one read (4 KiB first, doubling while reads fill it, up to
    /// 64 KiB). Returns how many bytes read from `input` follow the body: they are not the
    /// body's (RFC 9112 §9.3: the next message's); a caller that reads several messages from
    /// one stream feeds [`decode`](Self::decode) from its own buffer instead.
    ///
    /// # Errors
    /// [`ReadError::Io`](crate::body::ReadError::Io) when a read fails (reads interrupted by
    /// a signal are retried); [`ReadError::Body`](crate::body::ReadError::Body) for what
    /// `decode` refuses, and for an input that ends before the body does.
    ///
    /// ```
    /// use reqparse::body::chunked::{Chunk, ChunkedDecoder};
    /// let input: &[u8] = b"5\r\nhello\r\n0\r\n\r\nnext";
    /// let mut body = Vec::new();
    /// let after = ChunkedDecoder::default().read_from(input, |chunk| {
    ///     if let Chunk::Data(data) = chunk {
    ///         body.extend_from_slice(data);
    ///     }
    /// })?;
    /// assert_eq!((body.as_slice(), after), (&b"hello"[..], 4));
    /// let err = ChunkedDecoder::default().read_from(&b"5\r\nhel"[..], |_| {}).unwrap_err();
    /// assert_eq!(err.to_string(), "chunked body ended early at byte 6");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn read_from<R: std::io::Read>(
        &mut self,
        input: R,
        each: impl FnMut(Chunk<'_>),
    ) -> Result<usize, crate::body::ReadError<ChunkedError>> {
        super::read::read_from(self, input, each)
    }

    /// Decodes from `input` (the bytes that follow what was consumed so far) up to the next
    /// event. Bytes not consumed (at most an incomplete chunk-size line or trailer line) must
    /// be fed again with what arrives next. An error is final: the body is not to be read on.
    ///
    /// ```
    /// use reqparse::body::chunked::{Chunk, ChunkedDecoder};
    /// let mut decoder = ChunkedDecoder::default();
    /// let step = decoder.decode(b"3;name=\"quoted value\"\r\nabc\r\n")?;
    /// assert_eq!(step.event, Some(Chunk::Data(&b"abc"[..])));
    /// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
    /// ```
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> Result<Step<Chunk<'a>>, ChunkedError> {
        let mut consumed = 0;
        loop {
            let rest = slice(input, consumed..);
            let (used, event) = match self.state {
                State::SizeLine => (self.size_line(rest)?, None),
                State::Data(remaining) => {
                    if rest.is_empty() {
                        return Ok(Step {
                            consumed,
                            event: None,
                        });
                    }
                    // At most `rest.len()`, so the cast back is lossless.
                    let take = remaining.min(rest.len() as u64) as usize;
                    self.data_bytes += take as u64;
                    self.state = match remaining - take as u64 {
                        0 => State::DataCr,
                        left => State::Data(left),
                    };
                    (take, Some(Chunk::Data(slice(rest, ..take))))
                }
                State::DataCr | State::DataLf => (self.data_end(rest)?, None),
                State::Trailer => match self.trailer_line(rest)? {
                    Some((used, field)) => (used, field),
                    None => (0, None),
                },
                State::Done => {
                    return Ok(Step {
                        consumed,
                        event: Some(Chunk::End),
                    })
                }
            };
            self.position += used as u64;
            consumed += used;
            if event.is_some() || self.state == State::Done {
                let event = event.or(Some(Chunk::End));
                return Ok(Step { consumed, event });
            }
            if used == 0 {
                return Ok(Step {
                    consumed,
                    event: None,
                });
            }
        }
    }

    /// An error at `offset` bytes past the current position.
    fn error_at(&self, offset: usize, kind: ChunkedErrorKind) -> ChunkedError {
        ChunkedError {
            kind,
            offset: self.position + offset as u64,
        }
    }

    fn limit_at(&self, offset: usize, limit: ChunkedLimit) -> ChunkedError {
        self.error_at(offset, ChunkedErrorKind::Limit(limit))
    }

    /// Reads a chunk-size line at the start of `rest` if it is whole; returns the bytes used
    /// (0: the line is incomplete).
    fn size_line(&mut self, rest: &[u8]) -> Result<usize, ChunkedError> {
        let max = self.limits.max_line_bytes;
        // Never look further than a line may be long.
        let Some(lf) = memchr::memchr(b'\n', slice(rest, ..rest.len().min(max))) else {
            if rest.len() >= max {
                return Err(self.limit_at(max, ChunkedLimit::LineBytes));
            }
            return Ok(0);
        };
        let line =
            line_before(rest, lf).map_err(|at| self.error_at(at, ChunkedErrorKind::BareLf))?;
        let SizeLine {
            size,
            extension_bytes,
        } = parse_size_line(line, self.limits.max_size_digits)
            .map_err(|(at, kind)| self.error_at(at, kind))?;
        self.extension_bytes += extension_bytes;
        if self.extension_bytes > self.limits.max_extension_bytes {
            return Err(self.limit_at(0, ChunkedLimit::ExtensionBytes));
        }
        self.count_framing(lf + 1)?;
        if size > self.limits.max_body_bytes - self.data_bytes {
            return Err(self.limit_at(0, ChunkedLimit::BodyBytes));
        }
        self.state = if size == 0 {
            State::Trailer
        } else {
            State::Data(size)
        };
        Ok(lf + 1)
    }

    /// Counts `n` more framing bytes against [`ChunkedLimits::overhead_grace`].
    fn count_framing(&mut self, n: usize) -> Result<(), ChunkedError> {
        self.framing_bytes += n as u64;
        let allowed = self.data_bytes.saturating_add(self.limits.overhead_grace);
        if self.framing_bytes > allowed {
            return Err(self.limit_at(0, ChunkedLimit::Overhead));
        }
        Ok(())
    }

    /// The CRLF after a chunk's data, a byte at a time (it may be split across reads).
    fn data_end(&mut self, rest: &[u8]) -> Result<usize, ChunkedError> {
        let (expected, next) = match self.state {
            State::DataCr => (b'\r', State::DataLf),
            _ => (b'\n', State::SizeLine),
        };
        match rest.first() {
            None => Ok(0),
            Some(&b) if b == expected => {
                self.count_framing(1)?;
                self.state = next;
                Ok(1)
            }
            Some(_) => Err(self.error_at(0, ChunkedErrorKind::MissingCrlf)),
        }
    }

    /// Reads a trailer line at the start of `rest` if it is whole: the bytes used and the
    /// field, or no field for the final CRLF. `None`: the line is incomplete.
    fn trailer_line<'a>(
        &mut self,
        rest: &'a [u8],
    ) -> Result<Option<(usize, Option<Chunk<'a>>)>, ChunkedError> {
        let budget = self.limits.max_trailer_bytes - self.trailer_bytes;
        let Some(lf) = memchr::memchr(b'\n', slice(rest, ..rest.len().min(budget))) else {
            if rest.len() >= budget {
                return Err(self.limit_at(budget, ChunkedLimit::TrailerBytes));
            }
            return Ok(None);
        };
        let line =
            line_before(rest, lf).map_err(|at| self.error_at(at, ChunkedErrorKind::BareLf))?;
        self.trailer_bytes += lf + 1;
        if line.is_empty() {
            self.state = State::Done;
            return Ok(Some((lf + 1, None)));
        }
        if self.trailer_fields == self.limits.max_trailer_fields {
            return Err(self.limit_at(0, ChunkedLimit::TrailerFields));
        }
        self.trailer_fields += 1;
        let (name, value) = parse_field_line(line).map_err(|(at, kind)| self.error_at(at, kind))?;
        Ok(Some((lf + 1, Some(Chunk::Trailer { name, value }))))
    }
}

/// The line that ends with the LF at `rest[lf]`, without its CRLF; `Err(lf)` when the LF
/// is bare.
/// The feed driver's protocol: a step is `decode`, and an end of input with no event is
/// [`ChunkedDecoder::finish`]'s question.
impl super::feed::Decode for ChunkedDecoder {
    type Event<'a> = Chunk<'a>;
    type Error = ChunkedError;

    #[inline]
    fn step<'a>(
        &'a mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<super::Step<Chunk<'a>>, ChunkedError> {
        let step = self.decode(input)?;
        if eof && step.event.is_none() {
            // The body ended before its last chunk: the decoder says where.
            self.finish()?;
        }
        Ok(step)
    }

    fn is_end(event: &Chunk<'_>) -> bool {
        matches!(event, Chunk::End)
    }
}

fn line_before(rest: &[u8], lf: usize) -> Result<&[u8], usize> {
    match lf.checked_sub(1) {
        Some(cr) if rest.get(cr) == Some(&b'\r') => Ok(slice(rest, ..cr)),
        _ => Err(lf),
    }
}

/// The kind of error for a byte that breaks a line's grammar: a CR is always a bare one (the
/// line's own CRLF was cut off before parsing).
fn bad_byte(b: Option<&u8>, otherwise: ChunkedErrorKind) -> ChunkedErrorKind {
    match b {
        Some(b'\r') => ChunkedErrorKind::BareCr,
        _ => otherwise,
    }
}

/// A line's error: where in the line, and what.
type LineError = (usize, ChunkedErrorKind);

/// A parsed chunk-size line.
struct SizeLine {
    size: u64,
    extension_bytes: usize,
}

/// Parses a chunk-size line without its CRLF; errors carry the offset in the line.
fn parse_size_line(line: &[u8], max_digits: usize) -> Result<SizeLine, LineError> {
    let mut size: u64 = 0;
    let mut i = 0;
    while let Some(digit) = line.get(i).and_then(|&b| (b as char).to_digit(16)) {
        if i == max_digits {
            return Err((i, ChunkedErrorKind::Limit(ChunkedLimit::SizeDigits)));
        }
        size = size
            .checked_mul(16)
            .map(|s| s | u64::from(digit))
            .ok_or((i, ChunkedErrorKind::SizeOverflow))?;
        i += 1;
    }
    if i == 0 {
        let kind = match line.first() {
            None => ChunkedErrorKind::EmptySize,
            b => bad_byte(b, ChunkedErrorKind::InvalidSize),
        };
        return Err((0, kind));
    }
    let digits = i;
    // *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
    loop {
        let at = skip(line, i, WS);
        match line.get(at) {
            None if at == i => break,
            // Whitespace at the end of the line.
            None => return Err((i, ChunkedErrorKind::InvalidExtension)),
            Some(b';') => {}
            // Whitespace after the size or an extension must lead to another extension.
            b => return Err((at, bad_byte(b, ChunkedErrorKind::InvalidExtension))),
        }
        let name = skip(line, at + 1, WS);
        i = skip(line, name, TOKEN);
        if i == name {
            return Err((i, bad_byte(line.get(i), ChunkedErrorKind::InvalidExtension)));
        }
        let eq = skip(line, i, WS);
        if line.get(eq) == Some(&b'=') {
            let value = skip(line, eq + 1, WS);
            i = extension_value(line, value)?;
        }
    }
    Ok(SizeLine {
        size,
        extension_bytes: line.len() - digits,
    })
}

/// The end of the token or quoted-string at `line[at..]`.
fn extension_value(line: &[u8], at: usize) -> Result<usize, LineError> {
    let invalid = |i: usize| Err((i, bad_byte(line.get(i), ChunkedErrorKind::InvalidExtension)));
    if line.get(at) != Some(&b'"') {
        let end = skip(line, at, TOKEN);
        return if end == at { invalid(at) } else { Ok(end) };
    }
    let mut i = at + 1;
    loop {
        match line.get(i) {
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') if line.get(i + 1).is_some_and(|&b| is(b, QUOTABLE)) => i += 2,
            Some(b'\\') => return invalid(i + 1),
            Some(&b) if is(b, QDTEXT) => i += 1,
            _ => return invalid(i),
        }
    }
}

/// Parses a trailer field line without its CRLF into its name and its value without the
/// surrounding whitespace.
fn parse_field_line(line: &[u8]) -> Result<(&[u8], &[u8]), LineError> {
    let invalid = |i: usize| Err((i, bad_byte(line.get(i), ChunkedErrorKind::InvalidTrailer)));
    // A line that starts with whitespace is obs-fold (RFC 9112 §5.2): refused.
    let colon = skip(line, 0, TOKEN);
    if colon == 0 || line.get(colon) != Some(&b':') {
        return invalid(colon);
    }
    let start = skip(line, colon + 1, WS);
    let mut end = start;
    for (k, &b) in slice(line, start..).iter().enumerate() {
        if !is(b, FIELD) {
            return invalid(start + k);
        }
        if !is(b, WS) {
            end = start + k + 1;
        }
    }
    Ok((slice(line, ..colon), slice(line, start..end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_lines() {
        let ok = |l: &[u8]| parse_size_line(l, 16).map(|s| (s.size, s.extension_bytes));
        assert_eq!(ok(b"1f"), Ok((31, 0)));
        assert_eq!(ok(b"0;a=b ; c"), Ok((0, 8)));
        assert_eq!(ok(b"A ;q=\"x\\\"y\""), Ok((10, 10)));
        assert_eq!(ok(b"1 "), Err((1, ChunkedErrorKind::InvalidExtension)));
        assert_eq!(ok(b"1;"), Err((2, ChunkedErrorKind::InvalidExtension)));
        assert_eq!(ok(b"1;a=\"x"), Err((6, ChunkedErrorKind::InvalidExtension)));
        assert_eq!(ok(b"1;a\rb"), Err((3, ChunkedErrorKind::BareCr)));
        assert_eq!(ok(b"-1"), Err((0, ChunkedErrorKind::InvalidSize)));
        assert_eq!(ok(b"0x1"), Err((1, ChunkedErrorKind::InvalidExtension)));
        let big = parse_size_line(b"10000000000000000", 32).map(|s| s.size);
        assert_eq!(big, Err((16, ChunkedErrorKind::SizeOverflow)));
    }

    #[test]
    fn field_lines() {
        assert_eq!(parse_field_line(b"A: b c \t"), Ok((&b"A"[..], &b"b c"[..])));
        assert_eq!(parse_field_line(b"A:"), Ok((&b"A"[..], &b""[..])));
        let bad = |l: &[u8]| parse_field_line(l).unwrap_err();
        assert_eq!(bad(b" A: b"), (0, ChunkedErrorKind::InvalidTrailer));
        assert_eq!(bad(b"A : b"), (1, ChunkedErrorKind::InvalidTrailer));
        assert_eq!(bad(b"A: b\rc"), (4, ChunkedErrorKind::BareCr));
        assert_eq!(bad(b"A: b\0"), (4, ChunkedErrorKind::InvalidTrailer));
    }
}
