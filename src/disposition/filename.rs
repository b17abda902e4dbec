//! The effective filename (RFC 6266 §4.3), per profile: which of `filename*`, the RFC 2231
//! continuation and `filename` wins, and how each is decoded.

use super::charset::{decode_pct, Charset, ExtRules, Invalid};
use super::encoded_word::{browser_word, decode_2047_words, dotnet_mime, Word};
use super::ext_value::{decode_ext, section, Sections};
use super::{latin1, strip_quotes, ContentDisposition, Param, Profile, Quoting};
use alloc::borrow::Cow;
use alloc::string::String;

/// Options for [`ContentDisposition::filename_with`](super::ContentDisposition::filename_with).
///
/// ```
/// use reqparse::disposition::{ContentDisposition, FilenameOptions};
/// let cd = ContentDisposition::parse_str(
///     "attachment; filename=\"=?utf-8?B?w6TDtsO8LnR4dA==?=\"", Default::default())?;
/// assert_eq!(cd.filename().as_deref(), Some("=?utf-8?B?w6TDtsO8LnR4dA==?="));
/// let decoded = cd.filename_with(FilenameOptions { decode_2047: true });
/// assert_eq!(decoded.as_deref(), Some("äöü.txt"));
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FilenameOptions {
    /// Decode RFC 2047 encoded-words (`=?charset?B|Q?...?=`) in the plain `filename`, with
    /// the profile's rules (Strict: RFC 2047 §5/§6; Browser: Chromium's `DecodeWord`; DotNet:
    /// a whole quoted `B` word, as `TryDecodeMime`). Off by default: returned literally.
    pub decode_2047: bool,
}

/// The filename parameters, noted while parsing so that `filename()` need not re-scan.
/// Spans, not [`Param`]s: this is part of every [`ContentDisposition`], which stays small.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Found {
    /// The first `filename`, the first `filename*`, and how many of each there are.
    plain: Option<Span>,
    star: Option<Span>,
    plains: u8,
    stars: u8,
    /// Whether a `filename*<N>` section exists.
    continued: bool,
}

/// Where a noted parameter is: its name's offset and its value's range in the header, which
/// is shorter than [`MAX_HEADER_LEN`](super::MAX_HEADER_LEN), so every offset fits in u16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    name_at: u16,
    start: u16,
    end: u16,
    quoting: Quoting,
    latin1: bool,
}

/// `filename` in ASCII lowercase, as a little-endian word: `(word | 0x20..20) == FILENAME`
/// compares eight letters case-insensitively at once (only `A-Z` map onto `a-z` that way).
const FILENAME: u64 = u64::from_le_bytes(*b"filename");

impl Found {
    pub(super) fn note(&mut self, header: &[u8], p: &Param<'_>) {
        let n = p.name;
        let Some(head) = n.first_chunk::<8>() else {
            return;
        };
        if u64::from_le_bytes(*head) | 0x2020_2020_2020_2020 != FILENAME {
            return;
        }
        // Every value is a slice of the header (the grammars cut even an empty one from it).
        // Checked all the same: a value from anywhere else is not noted rather than noted at a
        // wrapped-around offset.
        let Some(start) = crate::bytes::offset_in(header, p.raw) else {
            return;
        };
        let span = Span {
            name_at: p.offset as u16,
            start: start as u16,
            end: (start + p.raw.len()) as u16,
            quoting: p.quoting,
            latin1: p.latin1,
        };
        match n.get(8..) {
            Some(b"") => {
                self.plains = self.plains.saturating_add(1);
                self.plain = self.plain.or(Some(span));
            }
            Some(b"*") => {
                self.stars = self.stars.saturating_add(1);
                self.star = self.star.or(Some(span));
            }
            Some([b'*', ..]) => self.continued = true,
            _ => {}
        }
    }
}

impl<'a> ContentDisposition<'a> {
    /// The parameter a [`Span`] notes; `name_len` is 8 (`filename`) or 9 (`filename*`).
    fn noted(&self, s: Span, name_len: usize) -> Param<'a> {
        let at = usize::from(s.name_at);
        Param {
            name: crate::bytes::slice(self.header, at..at + name_len),
            raw: crate::bytes::slice(self.header, usize::from(s.start)..usize::from(s.end)),
            quoting: s.quoting,
            latin1: s.latin1,
            offset: u32::from(s.name_at),
        }
    }

    /// The first `filename` and the first `filename*`, as noted while parsing.
    fn first_filenames(&self) -> (Option<Param<'a>>, Option<Param<'a>>) {
        (
            self.found.plain.map(|s| self.noted(s, 8)),
            self.found.star.map(|s| self.noted(s, 9)),
        )
    }

    /// The effective filename (RFC 6266 §4.3) with RFC 2047 words left as they are.
    /// Borrowed unless something had to be decoded.
    ///
    /// ```
    /// use reqparse::disposition::ContentDisposition;
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; filename*0*=UTF-8''foo-%c3%a4; filename*1=\".html\"", Default::default())?;
    /// assert_eq!(cd.filename().as_deref(), Some("foo-ä.html"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    #[inline]
    pub fn filename(&self) -> Option<Cow<'a, str>> {
        if self.found == Found::default() {
            // No filename parameter was noted (`inline`, `form-data; name=x`): no call at all.
            return None;
        }
        self.filename_with(FilenameOptions::default())
    }

    /// The effective filename with options; see [`FilenameOptions`].
    ///
    /// - Strict: a valid `filename*` (UTF-8, ISO-8859-1 or US-ASCII, language ignored), else
    ///   the RFC 2231 continuation `filename*0`, `filename*1*`, ... (numeric order, stopping at
    ///   a gap; `*N*` parts percent-decoded in part 0's charset), else `filename`.
    /// - Browser: the first non-empty `filename*`, else the first non-empty decoded `filename`.
    /// - DotNet: the first `filename*` if it decodes, else the first `filename`.
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, FilenameOptions, Profile};
    /// let cd = ContentDisposition::parse_str(
    ///     "attachment; filename==?utf-8?Q?caf=C3=A9.txt?=", Profile::Browser)?;
    /// let o = FilenameOptions { decode_2047: true };
    /// assert_eq!(cd.filename_with(o).as_deref(), Some("café.txt"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn filename_with(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        match self.profile {
            Profile::Strict => self.filename_strict(opts),
            Profile::Browser => self.filename_browser(opts),
            Profile::DotNet => self.filename_dotnet(opts),
        }
    }

    fn filename_strict(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        // Strict has no duplicates: the first is the only one.
        let (plain, star) = self.first_filenames();
        let continued = self.found.continued;
        if let Some(s) = star {
            // A token, so ASCII.
            if s.quoting == Quoting::Token {
                if let Some(v) = decode_ext(s.raw, ExtRules::Strict) {
                    return Some(v);
                }
            }
        }
        if continued {
            // Only now pay for the section table (a second pass over the parameters).
            let mut parts = Sections::new();
            for p in self.params() {
                if let Some((base, n, encoded)) = section(p.name) {
                    if base.eq_ignore_ascii_case(b"filename") {
                        parts.set(n, p, encoded);
                    }
                }
            }
            if let Some(v) = parts.join() {
                return Some(v);
            }
        }
        let p = plain?;
        let v = p.value();
        if opts.decode_2047 {
            if let Some(d) = decode_2047_words(&v) {
                return Some(Cow::Owned(d));
            }
        }
        Some(v)
    }

    fn filename_browser(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        let f = self.found;
        if f.plains <= 1 && f.stars <= 1 {
            // No duplicates: the noted parameters are the only candidates.
            let (plain, star) = self.first_filenames();
            // Chromium wants an ASCII ext-value: a Latin-1 one (no text) fails like any other.
            if let Some(v) = star.and_then(|s| browser_ext(&s)) {
                if !v.is_empty() {
                    return Some(v);
                }
            }
            let p = plain?;
            return browser_filename(p.value(), opts.decode_2047).filter(|v| !v.is_empty());
        }
        // Chromium takes the first *non-empty* of each, so a later duplicate may win.
        let mut plain: Option<Cow<'a, str>> = None;
        for p in self.params() {
            if plain.is_none() && p.name.eq_ignore_ascii_case(b"filename") {
                plain = browser_filename(p.value(), opts.decode_2047).filter(|v| !v.is_empty());
            } else if p.name.eq_ignore_ascii_case(b"filename*") {
                if let Some(v) = browser_ext(&p) {
                    if !v.is_empty() {
                        return Some(v);
                    }
                }
            }
        }
        plain
    }

    fn filename_dotnet(&self, opts: FilenameOptions) -> Option<Cow<'a, str>> {
        // NameValueHeaderValue.Find: the first of each name.
        let (plain, star) = self.first_filenames();
        if let Some(s) = star {
            let v = if s.latin1 {
                // .NET sees the header as text: the Latin-1 characters, decoded the same way.
                decode_ext(latin1(s.raw, false).as_bytes(), ExtRules::DotNet)
                    .map(|v| Cow::Owned(v.into_owned()))
            } else {
                decode_ext(s.raw, ExtRules::DotNet)
            };
            if v.is_some() {
                return v;
            }
        }
        let p = plain?;
        if opts.decode_2047 {
            if let Some(v) = p.raw_text().and_then(dotnet_mime) {
                return Some(Cow::Owned(v));
            }
        }
        // .NET's GetName only strips the quotes (HeaderUtilities.RemoveQuotes).
        let raw = p.raw;
        let unquoted = if raw.len() > 1 {
            strip_quotes(raw)
        } else {
            raw
        };
        Some(if p.latin1 {
            Cow::Owned(latin1(unquoted, false))
        } else {
            Cow::Borrowed(crate::bytes::as_str(unquoted))
        })
    }
}

/// Chromium's DecodeExtValue: an ASCII ext-value only, so a Latin-1 one fails like any other.
fn browser_ext<'a>(p: &Param<'a>) -> Option<Cow<'a, str>> {
    decode_ext(p.raw, ExtRules::Browser).filter(|_| !p.latin1)
}

/// Chromium's DecodeFilenameValue: words split on whitespace, each whitespace character a
/// space unless it follows an encoded-word; ASCII words RFC 2047-decoded (when asked) or
/// %-decoded (must then be UTF-8); other words kept. `None` when a word fails.
fn browser_filename(v: Cow<'_, str>, decode_2047: bool) -> Option<Cow<'_, str>> {
    let ws = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r');
    // Only ASCII words are %-decoded: a `%` in a non-ASCII word changes nothing.
    let simple = (!v.contains('%') || v.split(' ').all(|w| !w.contains('%') || !w.is_ascii()))
        && !v.contains(['\t', '\n', '\r'])
        && !v.starts_with(' ')
        && (!decode_2047 || !v.contains("=?"));
    if simple {
        return Some(v);
    }
    let mut out = String::with_capacity(v.len());
    let mut prev_2047 = true;
    let mut rest: &str = &v;
    while let Some(c) = rest.chars().next() {
        if ws(c) {
            if !prev_2047 {
                out.push(' ');
            }
            rest = crate::bytes::str_slice(rest, c.len_utf8()..);
            continue;
        }
        let end = rest.find(ws).unwrap_or(rest.len());
        let (word, tail) = rest.split_at(end);
        rest = tail;
        prev_2047 = false;
        if !word.is_ascii() {
            out.push_str(word);
            continue;
        }
        if decode_2047 {
            match browser_word(word) {
                Word::Text(t) => {
                    out.push_str(&t);
                    prev_2047 = true;
                    continue;
                }
                Word::Fail => return None,
                Word::NotEncoded => {}
            }
        }
        out.push_str(&decode_pct(word, Charset::Utf8, Invalid::Fail)?);
    }
    Some(Cow::Owned(out))
}
