//! A part's header block, read once: each line checked as it completes, and each field the
//! part is made of (`Content-Disposition`, `Content-Type`, Strict's
//! `Content-Transfer-Encoding`) read as it completes, so that the [`Part`] handed out when the
//! block's empty line arrives needs no second pass over the block. A field's own errors wait
//! for the empty line: the lines' errors and the block's limits come first, whatever the
//! reads.
#![forbid(unsafe_code)]

use super::error::MultipartLimits;
use super::part::{parse_disposition, trim, unquote, Span};
use super::{MultipartError, MultipartErrorKind, MultipartLimit, MultipartReader, Part, Profile};
use crate::body::find_byte;
use crate::body::grammar::{is, run, skip, FIELD, TOKEN, WS};
use crate::bytes::slice;
use crate::disposition::ContentDisposition;
use alloc::borrow::Cow;

/// Where in a header block something is, and what is wrong there.
pub(super) type Fault = (usize, MultipartErrorKind);

/// What the fields of the header block read so far make of the part, in offsets from the
/// block's start (which stays put while the block is read: nothing is consumed).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fields {
    /// The last field whose line has been read, not yet the field itself ((Lenient) a line
    /// that starts with SP or HTAB may continue it): where it starts, its colon, where the
    /// text of its last line ends.
    open: Option<(usize, usize, usize)>,
    /// The value of the last `Content-Disposition`, and the part it makes (or what is wrong
    /// with it: checked as the whole block was, in the same order).
    disposition: Option<(Span, Result<Named, Fault>)>,
    /// The value of the last `Content-Type`.
    content_type: Option<Span>,
    /// The first field that is wrong (a disposition that does not parse, a repeated field, a
    /// transfer encoding): no field after it is read.
    fault: Option<Fault>,
}

/// How far a part's header block has been read (the reader in the machine's `Headers` state):
/// the current line starts at `line` in the input fed (the lines before it are checked) and holds
/// no LF before `scanned`, `lines` fields so far; the block must end within `window` bytes, or
/// `limit` is broken (the header limit less any transport padding before the block, or what
/// the body limit leaves, whichever is less: both fixed while the block is read, as nothing is
/// consumed). What was scanned is not scanned again when it is fed again, longer. Kept apart
/// from the state, which every step returns: a state of one word is what the 1-byte reads'
/// steps can afford to write whole (BENCHMARKS.md, "Multipart search").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Block {
    pub(super) line: usize,
    pub(super) scanned: usize,
    pub(super) lines: usize,
    pub(super) window: usize,
    pub(super) limit: MultipartLimit,
}

/// What a `Content-Disposition` of type `form-data` with a `name` says of its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Named {
    name: Span,
    has_filename: bool,
    /// The effective filename, when it is the raw filename's bytes as written (UTF-8, nothing
    /// unescaped, decoded or unfolded): what [`Part::filename`] hands out without parsing the
    /// disposition again. `None` for a file part whose filename is read another way.
    filename: Option<Span>,
    name_as_written: bool,
}

impl Fields {
    /// Reads the open field, if any, out of `seen` (the block so far).
    fn close(&mut self, seen: &[u8], profile: Profile, limits: &MultipartLimits) {
        let Some((start, colon, end)) = self.open.take() else {
            return;
        };
        if self.fault.is_some() {
            return;
        }
        if let Err(fault) = self.read(seen, start, colon, end, profile, limits) {
            self.fault = Some(fault);
        }
    }

    /// The field `seen[start..end]`, whose (checked) name ends at the colon at `colon`.
    fn read(
        &mut self,
        seen: &[u8],
        start: usize,
        colon: usize,
        end: usize,
        profile: Profile,
        limits: &MultipartLimits,
    ) -> Result<(), Fault> {
        let name = trim(slice(seen, start..colon));
        let raw = slice(seen, (colon + 1).min(end)..end);
        let lead = raw.len() - trim_start(raw).len();
        let value = trim(raw);
        let value_at = colon + 1 + lead;
        let strict = profile == Profile::Strict;
        if is_named(name, b"content-disposition") {
            if strict && self.disposition.is_some() {
                return Err((start, MultipartErrorKind::DuplicateHeader));
            }
            if let Some(named) = short_named(seen, value, profile, limits) {
                self.disposition = Some((Span::of(seen, value), named));
                return Ok(());
            }
            let cd = parse_disposition(value, profile).map_err(|e| {
                (
                    value_at + e.offset,
                    MultipartErrorKind::InvalidDisposition(e.kind),
                )
            })?;
            let named = named(&cd, seen, value_at, profile, limits);
            self.disposition = Some((Span::of(seen, value), named));
        } else if is_named(name, b"content-type") {
            if strict && self.content_type.is_some() {
                return Err((start, MultipartErrorKind::DuplicateHeader));
            }
            self.content_type = Some(Span::of(seen, value));
        } else if strict
            && is_named(name, b"content-transfer-encoding")
            && ![&b"7bit"[..], b"8bit", b"binary"]
                .iter()
                .any(|e| value.eq_ignore_ascii_case(e))
        {
            return Err((value_at, MultipartErrorKind::TransferEncoding));
        }
        Ok(())
    }
}

/// Whether `name`, a checked field name (a token), is `lower` (lowercase ASCII letters and
/// `-`) in any case: eight bytes at a time, `| 0x20` taking `A-Z` to `a-z` (and onto `-`
/// only CR, which no token holds), a last word overlapping the one before for the rest. A
/// part's every field is compared with `content-disposition` and `content-type`: byte by
/// byte, that cost as much as checking the line.
pub(super) fn is_named(name: &[u8], lower: &[u8]) -> bool {
    if name.len() != lower.len() {
        return false;
    }
    let (Some(last), Some(lower_last)) = (name.last_chunk::<8>(), lower.last_chunk::<8>()) else {
        return name.iter().zip(lower).all(|(&a, &b)| (a | 0x20) == b);
    };
    let folded = |w: &[u8; 8]| u64::from_le_bytes(*w) | 0x2020_2020_2020_2020;
    let (words, _) = name.as_chunks::<8>();
    let (lower_words, _) = lower.as_chunks::<8>();
    folded(last) == u64::from_le_bytes(*lower_last)
        && words
            .iter()
            .zip(lower_words)
            .all(|(a, b)| folded(a) == u64::from_le_bytes(*b))
}

/// `bytes` without leading SP, HTAB (and folds).
fn trim_start(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| !super::part::is_space(b))
        .unwrap_or(bytes.len());
    slice(bytes, start..)
}

/// (Fetch) The name, and the filename if any, of a disposition written `form-data;
/// name="…"` (a value) or `form-data; name="…"; filename="…"` (a file), as browsers write them
/// (HTML's multipart/form-data encoding: `"`, CR and LF sent as `%22`, `%0D`, `%0A`): the name
/// printable ASCII, the filename UTF-8 without `"` or a control byte. That is all that
/// [`ContentDisposition::parse_form_data`] reads of them (the type `form-data`, the name and
/// the filename as written, the filename the effective one), without its grammar, which costs
/// a part more than the rest of it. `None` for any other value: the parser reads it.
pub(super) fn browser_disposition(value: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    const HEAD: &[u8; 17] = b"form-data; name=\"";
    const FILENAME: &[u8; 13] = b"\"; filename=\"";
    let (head, rest) = value.split_first_chunk::<17>()?;
    if head != HEAD {
        return None;
    }
    // The name: printable bytes up to its quote (one pass: a name is short).
    let name_byte = |&b: &u8| (0x20..0x7F).contains(&b) && b != b'"';
    let end = rest.iter().position(|b| !name_byte(b))?;
    let (name, after) = rest.split_at(end);
    if name.len() > MAX_BROWSER_NAME {
        return None;
    }
    if after == b"\"" {
        return Some((name, None));
    }
    let (mid, rest) = after.split_first_chunk::<13>()?;
    let (&quote, filename) = rest.split_last()?;
    // No control byte (a `\t` the grammar may read otherwise), no `"`, and text: the
    // filename is its own effective name, borrowed as it is.
    let plain = |b: u8| b >= 0x20 && b != 0x7F && b != b'"';
    (mid == FILENAME
        && quote == b'"'
        && value.len() <= crate::disposition::MAX_HEADER_LEN
        && filename.iter().all(|&b| plain(b))
        && (filename.is_ascii() || core::str::from_utf8(filename).is_ok()))
    .then_some((name, Some(filename)))
}

/// What the disposition `value` (in `seen`) makes of its part, read without the profile's
/// parser when its shape allows, else `None`. Fetch: the browsers' shapes
/// ([`browser_disposition`]). Strict and Lenient: those of them whose name and filename the
/// parser reads as written too: no `\` (the parser unescapes a quoted-pair, the Fetch Standard
/// does not), a filename of printable ASCII (the parser reads bytes that are not UTF-8 as
/// ISO-8859-1). A part's usual disposition, `form-data; name="…"`, then costs no grammar in any
/// profile. `tests::browser_dispositions_are_parsed_dispositions` checks that both readings
/// agree, in every profile.
#[inline]
pub(super) fn short_named(
    seen: &[u8],
    value: &[u8],
    profile: Profile,
    limits: &MultipartLimits,
) -> Option<Result<Named, Fault>> {
    let (name, filename) = browser_disposition(value)?;
    let plain = |f: &[u8]| f.iter().all(|&b| (0x20..0x7F).contains(&b) && b != b'\\');
    if profile != Profile::Fetch && (name.contains(&b'\\') || !filename.is_none_or(plain)) {
        return None;
    }
    let mut named = browser_named(seen, name, filename, limits);
    if let Ok(named) = &mut named {
        // The parser's value of such a name is its bytes (Fetch's name is read as written).
        named.name_as_written = profile != Profile::Fetch;
    }
    Some(named)
}

/// The longest name [`browser_disposition`] reads: well within the disposition parser's
/// [`MAX_HEADER_LEN`](crate::disposition::MAX_HEADER_LEN), so that what it reads the parser
/// would not refuse as too long.
const MAX_BROWSER_NAME: usize = 1024;

/// What a disposition [`browser_disposition`] read makes of its part: its name and filename
/// (spans in `seen`) within their limits, the name checked first, as [`named`] checks them.
pub(super) fn browser_named(
    seen: &[u8],
    name: &[u8],
    filename: Option<&[u8]>,
    limits: &MultipartLimits,
) -> Result<Named, Fault> {
    let name = name_within(seen, name, limits)?;
    let filename = match filename {
        Some(f) if f.len() > limits.max_filename_bytes => {
            let at = Span::of(seen, f).start() + limits.max_filename_bytes;
            return Err((at, MultipartErrorKind::Limit(MultipartLimit::FilenameBytes)));
        }
        Some(f) => Some(Span::of(seen, f)),
        None => None,
    };
    Ok(Named {
        name,
        has_filename: filename.is_some(),
        filename,
        name_as_written: false,
    })
}

/// The span of `name` (the name's bytes as written, in `seen`), within
/// [`MultipartLimits::max_name_bytes`]: else the byte past the limit.
fn name_within(seen: &[u8], name: &[u8], limits: &MultipartLimits) -> Result<Span, Fault> {
    let span = Span::of(seen, name);
    if name.len() > limits.max_name_bytes {
        let limit = MultipartErrorKind::Limit(MultipartLimit::NameBytes);
        return Err((span.start() + limits.max_name_bytes, limit));
    }
    Ok(span)
}

/// What the disposition `cd` (the value at `value_at` of a field in `seen`) makes of
/// its part, should it be the block's last: its type must be `form-data`, its `name` there
/// and within its limit, its filenames within theirs.
pub(super) fn named(
    cd: &ContentDisposition<'_>,
    seen: &[u8],
    value_at: usize,
    profile: Profile,
    limits: &MultipartLimits,
) -> Result<Named, Fault> {
    // The type is a token (every profile's grammar reads it so).
    if !is_named(cd.type_bytes(), b"form-data") {
        return Err((value_at, MultipartErrorKind::NotFormData));
    }
    let Some(name) = cd.find("name") else {
        return Err((value_at, MultipartErrorKind::MissingName));
    };
    let name_bytes = unquote(name.raw_value_bytes());
    // The name and filenames as sent, each against its limit: the byte past the limit
    // (where it is, looked up only then).
    let over = |bytes: &[u8], max: usize, limit| {
        let at = || Span::of(seen, bytes).start();
        (bytes.len() > max).then(|| (at() + max, MultipartErrorKind::Limit(limit)))
    };
    if let Some(e) = over(name_bytes, limits.max_name_bytes, MultipartLimit::NameBytes) {
        return Err(e);
    }
    // One pass over the other parameters (each `find` reads them all again), and none for a
    // field's usual disposition, `name` alone. It notes the first `filename` and the first
    // `filename*` (what `find` would find): the raw filename `Part::filename` hands out.
    let (mut plain, mut star) = (None, None);
    if cd.param_count() > 1 {
        for p in cd.params() {
            let is_plain = p.name().eq_ignore_ascii_case("filename");
            if !is_plain && !p.name().eq_ignore_ascii_case("filename*") {
                continue;
            }
            let raw = unquote(p.raw_value_bytes());
            let max = limits.max_filename_bytes;
            if let Some(e) = over(raw, max, MultipartLimit::FilenameBytes) {
                return Err(e);
            }
            let first = if is_plain { &mut plain } else { &mut star };
            first.get_or_insert(raw);
        }
    }
    let name_as_written = profile != Profile::Fetch
        && matches!(name.value(), Cow::Borrowed(v) if v.as_bytes() == name_bytes);
    let value = cd.filename();
    // The effective filename kept when it is the raw filename itself, the same bytes (not
    // decoded from `filename*`, unescaped, or read as ISO-8859-1) and unfolded already: then
    // `Part::filename` need not parse the disposition again to hand it out.
    let filename = match (&value, plain.or(star)) {
        (Some(Cow::Borrowed(v)), Some(raw))
            if core::ptr::eq(v.as_bytes(), raw)
                && (profile != Profile::Lenient || memchr::memchr(b'\n', raw).is_none()) =>
        {
            Some(Span::of(seen, raw))
        }
        _ => None,
    };
    Ok(Named {
        name: Span::of(seen, name_bytes),
        has_filename: value.is_some(),
        filename,
        name_as_written,
    })
}

/// What reading a header block came to ([`MultipartReader::headers`]): the machine
/// moves on from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Read {
    /// The block is whole: `used` bytes with its empty line, the block the first `len`.
    Block { used: usize, len: usize },
    /// Not yet: more input is needed (what was scanned is in [`Block`]).
    More,
}

impl MultipartReader {
    /// A part's header block: checks each line as it completes, reads each field when the
    /// line after it shows it complete, and hands out the part when the empty line arrives.
    /// Bytes scanned by an earlier call (`scanned`: fed again, with more after them) are not
    /// scanned again: on 1-byte reads each byte is looked at once. A line seen whole from its
    /// start (most lines, on reads of any size) costs one search, for its CRLF and any CR or
    /// NUL before it at once.
    pub(super) fn headers(&mut self, rest: &[u8]) -> Result<Read, MultipartError> {
        let Block {
            mut line,
            scanned,
            mut lines,
            window,
            limit,
        } = self.block;
        let seen = slice(rest, ..rest.len().min(window));
        let mut from = scanned.clamp(line, seen.len().max(line));
        let crlf = self.lf.is_none();
        loop {
            // The empty line (its CRLF right at the line's start: no LF can be before it).
            if crlf && seen.get(line..line + 2) == Some(b"\r\n") {
                self.head.close(seen, self.profile, &self.limits);
                return Ok(Read::Block {
                    used: line + 2,
                    len: line,
                });
            }
            // A line seen from its start: one search finds its CRLF and tells whether a CR,
            // an LF or a NUL comes before it (then the line is read the long way).
            let mut clean = false;
            let found = if crlf && from == line {
                let text = slice(seen, line..);
                match memchr::memchr3(b'\r', b'\n', 0, text) {
                    Some(i) if text.get(i..i + 2) == Some(b"\r\n") => {
                        clean = true;
                        Some(line + i + 1)
                    }
                    Some(_) => find_byte(b'\n', text).map(|i| line + i),
                    None => None,
                }
            } else {
                find_byte(b'\n', slice(seen, from.min(seen.len())..)).map(|i| from + i)
            };
            let Some(lf) = found else {
                if rest.len() >= window {
                    return Err(self.limit_at(window, limit));
                }
                self.block = Block {
                    line,
                    scanned: seen.len(),
                    lines,
                    window,
                    limit,
                };
                return Ok(Read::More);
            };
            // The line's end: its CRLF, or in a body whose lines end in LF, its LF.
            let end = if !crlf {
                lf
            } else if lf == line || seen.get(lf - 1) != Some(&b'\r') {
                return Err(self.error_at(lf, MultipartErrorKind::BareLf));
            } else {
                lf - 1
            };
            let text = slice(seen, line..end);
            if !clean {
                if let Some(cr) = memchr::memchr(b'\r', text) {
                    return Err(self.error_at(line + cr, MultipartErrorKind::BareCr));
                }
            }
            if text.is_empty() {
                self.head.close(seen, self.profile, &self.limits);
                return Ok(Read::Block {
                    used: lf + 1,
                    len: line,
                });
            }
            // (Lenient) A line starting with SP or HTAB after a field continues it (RFC 5322
            // §2.2.3 obs-fold; busboy reads `Content-Type: \r\n text/plain`): the same field.
            let continued = self.profile == Profile::Lenient
                && lines > 0
                && text.first().is_some_and(|&b| is(b, WS));
            if continued {
                if let Some(open) = &mut self.head.open {
                    open.2 = end;
                }
            } else {
                if lines == self.limits.max_headers {
                    return Err(self.limit_at(line, MultipartLimit::Headers));
                }
                let colon = match check_field(text, self.profile, clean) {
                    Ok(colon) => colon,
                    Err(at) => {
                        return Err(self.error_at(line + at, MultipartErrorKind::InvalidHeader))
                    }
                };
                lines += 1;
                // The field before this line is whole.
                self.head.close(seen, self.profile, &self.limits);
                self.head.open = Some((line, line + colon, end));
            }
            line = lf + 1;
            from = line;
        }
    }

    /// The part whose (checked) header block is `block`, at the current position, as its
    /// fields made it; its data comes next ([`steps`](Self::steps) moves the reader there).
    /// Its errors are in this part, the one whose block it is (`self.parts`, counted once the
    /// part is whole), whatever state the reader is in.
    pub(super) fn part<'a>(&mut self, block: &'a [u8]) -> Result<Part<'a>, MultipartError> {
        let fields = self.head;
        let this = Some(self.parts);
        if let Some((at, kind)) = fields.fault {
            return Err(self.error_in(this, at, kind));
        }
        let Some((disposition, named)) = fields.disposition else {
            return Err(self.error_in(this, 0, MultipartErrorKind::MissingDisposition));
        };
        let named = named.map_err(|(at, kind)| self.error_in(this, at, kind))?;
        let has_filename = named.has_filename;
        let part = Part::new(
            block,
            self.position,
            self.parts,
            self.profile,
            [named.name, disposition],
            fields.content_type,
            (has_filename, named.filename),
            named.name_as_written,
        );
        if has_filename {
            if self.files == self.limits.max_files {
                let files = MultipartErrorKind::Limit(MultipartLimit::Files);
                return Err(self.error_in(this, 0, files));
            }
            self.files += 1;
        } else {
            if self.fields == self.limits.max_fields {
                let fields = MultipartErrorKind::Limit(MultipartLimit::Fields);
                return Err(self.error_in(this, 0, fields));
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
        Ok(part)
    }
}

/// Checks one header line (without its CRLF): `Ok` has the offset of its colon, `Err` the
/// offset of the offending byte. Fetch and Lenient: a token name between optional whitespace,
/// `:`, anything but CR and LF (the Fetch Standard's "parse multipart/form-data headers"; WPT
/// formdata-parsing "Parse whitespace before a header name", "Parse whitespace between a
/// header name and the colon"), and in Fetch no NUL (WPT formdata-parsing "Parse failure: NUL
/// in a name", "Parse failure: NUL in an unknown header"). Strict: RFC 9110 §5: no whitespace
/// around the name, a value of field-vchar, SP and HTAB. `clean`: the line is known to hold
/// no NUL (the search for its end looked).
pub(super) fn check_field(line: &[u8], profile: Profile, clean: bool) -> Result<usize, usize> {
    if profile == Profile::Strict {
        // A token right up to the colon: a line starting with whitespace is obs-fold.
        let colon = run(line, 0, TOKEN);
        if colon == 0 || line.get(colon) != Some(&b':') {
            return Err(colon);
        }
        return match slice(line, colon + 1..).iter().position(|&b| !is(b, FIELD)) {
            Some(i) => Err(colon + 1 + i),
            None => Ok(colon),
        };
    }
    // The usual line, forward: whitespace, a token, whitespace, the colon.
    let start = skip(line, 0, WS);
    let end = run(line, start, TOKEN);
    let colon = skip(line, end, WS);
    if end == start || line.get(colon) != Some(&b':') {
        return Err(field_name_error(line));
    }
    if profile == Profile::Fetch && !clean {
        if let Some(nul) = memchr::memchr(0, slice(line, colon + 1..)) {
            return Err(colon + 1 + nul);
        }
    }
    Ok(colon)
}

/// (Fetch, Lenient) Where a line that is not whitespace, a token, whitespace and a colon goes
/// wrong: past its end without a colon; else the name before the first colon, less the
/// whitespace around it, is empty (where it would start) or holds a byte that is no token's.
fn field_name_error(line: &[u8]) -> usize {
    let Some(colon) = memchr::memchr(b':', line) else {
        return line.len();
    };
    let name = slice(line, ..colon);
    let start = name.iter().position(|&b| !is(b, WS)).unwrap_or(colon);
    let end = name
        .iter()
        .rposition(|&b| !is(b, WS))
        .map_or(start, |i| i + 1);
    slice(name, start..end)
        .iter()
        .position(|&b| !is(b, TOKEN))
        .map_or(start, |i| start + i)
}
