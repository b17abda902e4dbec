//! The views of a part the reader hands out: [`MultipartEvent`], and [`Part`] over its
//! checked header block (name, filename, content type, headers), parsed when asked.

use alloc::borrow::Cow;
use alloc::string::String;

use super::filename::Filename;
use super::mime::MimeType;
use super::profile::Profile;
use crate::body::grammar::{is, WS};
use crate::bytes::{offset_in, slice};
use crate::disposition::{self, ContentDisposition, DispositionError};

/// An event of a body, borrowing from the input that was fed.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// assert_eq!(reader.decode(b"--b--", true)?.event, Some(MultipartEvent::End));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MultipartEvent<'a> {
    /// A part begins: its header block, parsed.
    Part(Part<'a>),
    /// Bytes of the current part's data, in order (a part may come in many pieces).
    Data(&'a [u8]),
    /// The current part's data is over.
    PartEnd,
    /// The close delimiter (and whatever the profile allows after it) has been read and the
    /// input has ended.
    End,
}

/// A part's header block, parsed: borrowed from the input, nothing allocated.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"\r\nContent-Type: text/plain\r\n\r\n";
/// let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// assert_eq!(part.name(), "a%22b"); // as written: no percent-decoding
/// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
/// assert!(part.filename().is_none());
/// assert_eq!((part.index(), part.offset()), (0, 5));
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part<'a> {
    block: &'a [u8],
    offset: u64,
    index: usize,
    /// The `name` parameter's value as written, without its quotes, in `block`.
    name: Span,
    /// The `Content-Type` value in `block`.
    content_type: Option<Span>,
    /// The (winning) `Content-Disposition` value in `block`: parsed again on demand, so that
    /// the part (and every event) stays small.
    disposition: Span,
    /// The disposition has a filename ([`ContentDisposition::filename`]).
    has_filename: bool,
    /// The filename, when it is the raw filename as written (the header block's reading
    /// found it so): handed out without parsing the disposition again.
    filename: Option<Span>,
    /// (Strict, Lenient) The disposition parser's value of `name` is its bytes as written,
    /// which are UTF-8: no quoted-pair to unescape, nothing read as ISO-8859-1.
    name_as_written: bool,
    profile: Profile,
}

/// Where some bytes of a part's header block are: a small `Copy` stand-in for a slice of it,
/// so that a [`MultipartEvent`] (moved out of every `decode` call, one per byte on 1-byte
/// reads) stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    start: u32,
    end: u32,
}

impl Span {
    /// The span of `sub`, a slice of `block`; an empty span if it is not one (a broken
    /// invariant: every slice handed here was cut from `block`).
    pub(super) fn of(block: &[u8], sub: &[u8]) -> Span {
        let start = offset_in(block, sub);
        let end = start.map(|s| s + sub.len());
        match (start.map(u32::try_from), end.map(u32::try_from)) {
            (Some(Ok(start)), Some(Ok(end))) => Span { start, end },
            _ => {
                debug_assert!(false, "a span outside the header block");
                Span { start: 0, end: 0 }
            }
        }
    }

    /// Where the bytes start.
    pub(super) fn start(self) -> usize {
        self.start as usize
    }

    fn get(self, block: &[u8]) -> &[u8] {
        slice(block, self.start as usize..self.end as usize)
    }
}

impl<'a> Part<'a> {
    /// The part whose checked header block is `block`, at `offset` in the body, the `index`th,
    /// as [`head`](super::head) read its fields: where its name and its `Content-Disposition`
    /// are (`spans`), and its `Content-Type`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        block: &'a [u8],
        offset: u64,
        index: usize,
        profile: Profile,
        [name, disposition]: [Span; 2],
        content_type: Option<Span>,
        (has_filename, filename): (bool, Option<Span>),
        name_as_written: bool,
    ) -> Self {
        Part {
            block,
            offset,
            index,
            name,
            content_type,
            disposition,
            has_filename,
            filename,
            name_as_written,
            profile,
        }
    }

    /// The same part over `block`, a copy of its header block kept elsewhere (the async
    /// reader keeps the block as `Bytes`, the part over an empty block, and views it through
    /// this): the spans are offsets into the block, so they hold for any copy of it (over
    /// other bytes, every view reads empty or other bytes, never out of bounds: `Span::get`).
    #[cfg(feature = "async")]
    pub(crate) fn rebase<'b>(&self, block: &'b [u8]) -> Part<'b> {
        Part {
            block,
            offset: self.offset,
            index: self.index,
            name: self.name,
            content_type: self.content_type,
            disposition: self.disposition,
            has_filename: self.has_filename,
            filename: self.filename,
            name_as_written: self.name_as_written,
            profile: self.profile,
        }
    }

    /// Whether the part has a filename: read without a view (most parts do not).
    #[cfg(feature = "async")]
    #[inline]
    pub(crate) fn has_filename(&self) -> bool {
        self.has_filename
    }

    /// The `name` parameter as text. [`Profile::Fetch`]: the bytes between the quotes as
    /// written (no percent-decoding, `\` kept), as UTF-8 with invalid bytes replaced (the
    /// Fetch Standard's "UTF-8 decode without BOM"); the other profiles: the disposition
    /// parser's value (quoted-pairs unescaped; bytes that are not UTF-8 read as ISO-8859-1).
    /// Borrowed unless something had to be replaced or unescaped.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader, Profile};
    /// let body = b"--b\r\nContent-Disposition: form-data; name=\"a\\b\"\r\n\r\n";
    /// for (profile, name) in [(Profile::Fetch, "a\\b"), (Profile::Strict, "ab")] {
    ///     let mut reader = MultipartReader::new(b"b", profile, Default::default())?;
    ///     let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    ///     assert_eq!(part.name(), name);
    /// }
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    // Inlined with its Fetch reading only (the default profile's, a lossy UTF-8 view of
    // the bytes as written): a caller's view of the part (the async reader builds one from
    // the part it keeps) is then read where it is, not copied for a call.
    #[inline]
    pub fn name(&self) -> Cow<'a, str> {
        if self.profile == Profile::Fetch {
            return String::from_utf8_lossy(self.name_bytes());
        }
        self.parsed_name()
    }

    /// [`name`](Self::name) by the other profiles.
    fn parsed_name(&self) -> Cow<'a, str> {
        if self.name_as_written {
            if let Ok(name) = core::str::from_utf8(self.name_bytes()) {
                return unfold_text(Cow::Borrowed(name), self.profile);
            }
        }
        // Quoted-pairs or ISO-8859-1: the parser's reading (the part has a `name`).
        let disposition = self.disposition().ok();
        let name = disposition
            .and_then(|d| d.find("name"))
            .map_or(Cow::Borrowed(""), |p| p.value());
        unfold_text(name, self.profile)
    }

    /// The `name` parameter's bytes as written, without its quotes (quoted-pairs not
    /// unescaped).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"caf\xc3\xa9\"\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.name_bytes(), "café".as_bytes());
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn name_bytes(&self) -> &'a [u8] {
        self.name.get(self.block)
    }

    /// The filename, when the part has one (a file): see [`Filename`] for its readings.
    /// RFC 6266 §4.3: a `filename*` that decodes wins over `filename`.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"../x.txt\"\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// let filename = part.filename().unwrap();
    /// assert_eq!((filename.as_str(), filename.basename()), ("../x.txt", "x.txt"));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    #[inline]
    pub fn filename(&self) -> Option<Filename<'a>> {
        if !self.has_filename {
            return None;
        }
        self.file_filename()
    }

    /// [`filename`](Self::filename) of a file part, out of line: a value part's answer, none,
    /// stays a test where it is asked.
    fn file_filename(&self) -> Option<Filename<'a>> {
        // Found as written when the block was read (a copy of the block that is not one reads
        // other bytes: then the parse below).
        let kept = self.filename.map(|s| s.get(self.block));
        if let Some((raw, Ok(value))) = kept.map(|raw| (raw, core::str::from_utf8(raw))) {
            return Some(Filename::new(Cow::Borrowed(value), raw));
        }
        let disposition = self.disposition().ok()?;
        let value = disposition.filename()?;
        let raw = disposition
            .find("filename")
            .or_else(|| disposition.find("filename*"))
            .map_or(&[][..], |p| unquote(p.raw_value_bytes()));
        Some(Filename::new(unfold_text(value, self.profile), raw))
    }

    /// The `Content-Type` value as sent, without surrounding whitespace (of the last
    /// `Content-Type` field when there are several; a folded value, [`Profile::Lenient`], with
    /// its folds: see [`unfold`](super::unfold)); `None` when the part has none (RFC 7578
    /// §4.4: `text/plain` for a value, what the application decides for a file).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.content_type(), None);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn content_type(&self) -> Option<&'a [u8]> {
        Some(self.content_type?.get(self.block))
    }

    /// The part's MIME type, as the Fetch Standard reads its `Content-Type` ("extract a MIME
    /// type": the values of every `Content-Type` field, split at commas outside quoted
    /// strings, each parsed by the WHATWG MIME Sniffing Standard's "parse a MIME type", the
    /// last that parses winning), in its serialization ("serialize a MIME type": lowercase,
    /// `text/html;;x="y"` is `text/html;x=y`). `None` when the part has no `Content-Type`
    /// ([`content_type`](Self::content_type) is `None` too), or none of its values is a MIME
    /// type (not `type/subtype` of tokens, empty, a byte above 0x7F or a control in the
    /// essence). Borrowed from the header block when the value is written that way already;
    /// else one allocation (two when a value is folded or a quoted string runs from one
    /// `Content-Type` into the next). Parsed on each call. Every profile reads it the same way.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a; filename=f\r\n\
    /// #     Content-Type: TEXT/HTML;;x=\"y\"\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.content_type(), Some(&b"TEXT/HTML;;x=\"y\""[..]));
    /// let mime = part.mime_type().unwrap();
    /// assert_eq!((mime.as_bytes(), mime.essence()), (&b"text/html;x=y"[..], "text/html"));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn mime_type(&self) -> Option<MimeType<'a>> {
        // The header block's reading kept the last `Content-Type` field it met (every field
        // named so, in any case, whitespace trimmed): none there is none below, and a part
        // without one (most values) is answered without walking its fields again.
        self.content_type?;
        let values = self
            .headers()
            .filter(|(name, _)| name.eq_ignore_ascii_case(b"content-type"))
            .map(|(_, value)| value);
        MimeType::from_fields(values)
    }

    /// The `Content-Disposition`, for its other parameters: parsed again from the header
    /// block, by the profile's parser (the part keeps only where it is, so that every event
    /// stays small). It parsed when the part was read, so this is always `Ok`.
    ///
    /// # Errors
    /// None in practice: the parser's error, would it refuse what it accepted before.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a; size=3\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.disposition()?.size(), Some(Ok(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn disposition(&self) -> Result<ContentDisposition<'a>, DispositionError> {
        parse_disposition(self.disposition.get(self.block), self.profile)
    }

    /// The header fields as sent: `(name, value)` pairs, the value without surrounding
    /// whitespace, in order. [`Profile::Lenient`]: a folded field is one pair, its value with
    /// its folds as sent (line breaks and the whitespace after them: see
    /// [`unfold`](super::unfold)).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\nX-Note:  hi \r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// let fields: Vec<_> = part.headers().collect();
    /// assert_eq!(fields[1], (&b"X-Note"[..], &b"hi"[..]));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn headers(&self) -> Headers<'a> {
        Headers {
            rest: self.block,
            at: 0,
            folds: self.profile == Profile::Lenient,
        }
    }

    /// The header block as sent, each line with its CRLF (LF in a [`Profile::Lenient`] body
    /// whose lines end in LF), without the empty line that ends it (folded lines as sent).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.header_block(), b"Content-Disposition: form-data; name=a\r\n");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn header_block(&self) -> &'a [u8] {
        self.block
    }

    /// Where the header block starts, in bytes from the start of the body.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.offset(), 5);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The part's number, from 0.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.index(), 0);
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }
}

/// A part's `Content-Disposition` value, by the profile's parser: Lenient's may be folded,
/// its folds whitespace where whitespace may be.
pub(super) fn parse_disposition(
    value: &[u8],
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    match profile {
        Profile::Fetch => ContentDisposition::parse_form_data(value),
        Profile::Strict => ContentDisposition::parse(value, disposition::Profile::Strict),
        Profile::Lenient if memchr::memchr(b'\n', value).is_some() => {
            ContentDisposition::parse_folded(value)
        }
        Profile::Lenient => ContentDisposition::parse(value, disposition::Profile::DotNet),
    }
}

/// A folded header value unfolded (RFC 5322 §2.2.3 obs-fold, as RFC 9112 §5.2 replaces it):
/// each line break (CRLF, or LF in a body whose lines end in LF) followed by SP or HTAB, with
/// the whitespace around it, is one SP. Borrowed when there is no line break.
///
/// A part's header block holds folds only in [`Profile::Lenient`]: [`Part::headers`] and
/// [`Part::content_type`] hand out such values as sent; [`Part::name`], [`Part::filename`]
/// and [`Part::mime_type`] unfold them.
///
/// ```
/// use reqparse::body::multipart::unfold;
/// assert_eq!(unfold(b"form-data; \r\n\t name=a"), &b"form-data; name=a"[..]);
/// assert_eq!(unfold(b"text/plain"), &b"text/plain"[..]);
/// ```
pub fn unfold(value: &[u8]) -> Cow<'_, [u8]> {
    let Some(first) = memchr::memchr(b'\n', value) else {
        return Cow::Borrowed(value);
    };
    let mut out = alloc::vec::Vec::with_capacity(value.len());
    let mut rest = value;
    let mut nl = Some(first);
    while let Some(lf) = nl {
        // The whitespace (and CR) before the LF, and the whitespace after it: one SP.
        let before = slice(rest, ..lf);
        let kept = before.len() - before.iter().rev().take_while(|&&b| is_space(b)).count();
        out.extend_from_slice(slice(before, ..kept));
        // Folds with only whitespace between them: one SP for all.
        if kept > 0 || out.last() != Some(&b' ') {
            out.push(b' ');
        }
        let after = slice(rest, lf + 1..);
        rest = slice(after, after.iter().take_while(|&&b| is(b, WS)).count()..);
        nl = memchr::memchr(b'\n', rest);
    }
    out.extend_from_slice(rest);
    Cow::Owned(out)
}

/// Text of a header value unfolded ([`unfold`]): Lenient's may be folded.
fn unfold_text(text: Cow<'_, str>, profile: Profile) -> Cow<'_, str> {
    if profile != Profile::Lenient || !text.contains('\n') {
        return text;
    }
    // Unfolding replaces ASCII bytes with a space: the text stays UTF-8.
    Cow::Owned(String::from_utf8_lossy(&unfold(text.as_bytes())).into_owned())
}

/// A quoted value without its quotes; anything else as it is.
pub(super) fn unquote(raw: &[u8]) -> &[u8] {
    match raw {
        [b'"', inner @ .., b'"'] => inner,
        _ => raw,
    }
}

/// The header fields of a [`Part`]; see [`Part::headers`].
///
/// ```
/// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// # let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n";
/// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// assert_eq!(part.headers().count(), 1);
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Headers<'a> {
    rest: &'a [u8],
    at: usize,
    /// (Lenient) A line that starts with SP or HTAB continues the field before it.
    folds: bool,
}

impl<'a> Iterator for Headers<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        let (_, line, next) = next_field(self.rest, self.at, self.folds)?;
        self.at = next;
        // Every line was checked when the block was read: it has a colon.
        let colon = memchr::memchr(b':', line).unwrap_or(line.len());
        let name = trim(slice(line, ..colon));
        let value = trim(slice(line, (colon + 1).min(line.len())..));
        Some((name, value))
    }
}

/// The line of `block` that starts at `at`, without its CRLF: `(start, line, next start)`.
fn next_line(block: &[u8], at: usize) -> Option<(usize, &[u8], usize)> {
    let rest = block.get(at..).filter(|r| !r.is_empty())?;
    let lf = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    let end = if lf > 0 && rest.get(lf - 1) == Some(&b'\r') {
        lf - 1
    } else {
        lf
    };
    Some((at, slice(rest, ..end), at + lf + 1))
}

/// The field of `block` that starts at `at`: its line and, with `folds`, the lines that
/// continue it (each starting with SP or HTAB), without the last one's line break: `(start,
/// field, next start)`.
fn next_field(block: &[u8], at: usize, folds: bool) -> Option<(usize, &[u8], usize)> {
    let (start, mut field, mut next) = next_line(block, at)?;
    while folds && block.get(next).is_some_and(|&b| is(b, WS)) {
        let Some((_, line, after)) = next_line(block, next) else {
            break;
        };
        field = slice(block, start..next + line.len());
        next = after;
    }
    Some((start, field, next))
}

/// SP, HTAB, and the CR and LF of a fold (the only line breaks inside a field).
pub(super) fn is_space(b: u8) -> bool {
    is(b, WS) || b == b'\r' || b == b'\n'
}

/// `bytes` without leading and trailing SP and HTAB (and folds).
pub(super) fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |i| i + 1);
    slice(bytes, start..end)
}
