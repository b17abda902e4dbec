//! Formatting `Content-Disposition` values: the exact length is computed first, then the
//! header is written into one `String` of that capacity.

use super::date::RFC1123_LEN;
use super::{is, DateTime, DispositionError, DispositionErrorKind, ATTR, TCHAR};
use crate::percent::write_escape;
use alloc::string::String;

/// The most items (filename, parameters, size, dates) one builder holds; they live inline in
/// the builder so that building allocates exactly once.
pub const MAX_BUILDER_PARAMS: usize = 16;

#[derive(Clone, Copy, Debug)]
enum Item<'b> {
    Filename(&'b str),
    HttpFilename(&'b str),
    Param(&'b str, &'b str),
    Size(u64),
    Date(&'static str, DateTime),
}

/// Builds a `Content-Disposition` header value.
///
/// Values are written as a token when they are one, else as a quoted string (`\` and `"`
/// escaped) when they are printable ASCII, else as an RFC 8187 ext-value `name*=UTF-8''...`.
/// Bytes of the type or of a parameter name that are not token characters are written as `_`.
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionBuilder};
/// let h = DispositionBuilder::new("attachment").filename("€ rates.pdf").size(42).build();
/// assert_eq!(h, "attachment; filename=\"_ rates.pdf\"; filename*=UTF-8''%E2%82%AC%20rates.pdf; size=42");
/// assert_eq!(h.capacity(), h.len());
/// let cd = ContentDisposition::parse_str(&h, Default::default())?;
/// assert_eq!(cd.filename().as_deref(), Some("€ rates.pdf"));
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Debug)]
pub struct DispositionBuilder<'b> {
    kind: &'b str,
    items: [Option<Item<'b>>; MAX_BUILDER_PARAMS],
    len: usize,
    overflow: bool,
}

/// Where the writer puts its output: a counter for the first pass, the `String` for the
/// second.
trait Out {
    fn str(&mut self, s: &str);
    fn byte(&mut self, b: u8);
}

struct Count(usize);

impl Out for Count {
    fn str(&mut self, s: &str) {
        self.0 += s.len();
    }
    fn byte(&mut self, _: u8) {
        self.0 += 1;
    }
}

impl Out for String {
    fn str(&mut self, s: &str) {
        self.push_str(s);
    }
    fn byte(&mut self, b: u8) {
        // Only ASCII is ever written byte by byte.
        self.push(char::from(b));
    }
}

impl<'b> DispositionBuilder<'b> {
    /// Starts a header of disposition type `kind` (`attachment`, `inline`, `form-data`...).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// assert_eq!(DispositionBuilder::new("inline").build(), "inline");
    /// ```
    pub fn new(kind: &'b str) -> Self {
        DispositionBuilder {
            kind,
            items: [None; MAX_BUILDER_PARAMS],
            len: 0,
            overflow: false,
        }
    }

    fn push(mut self, item: Item<'b>) -> Self {
        match self.items.get_mut(self.len) {
            Some(slot) => {
                *slot = Some(item);
                self.len += 1;
            }
            None => self.overflow = true,
        }
        self
    }

    /// Sets the filename, written so that every profile parses it back: a token when it is
    /// one, a quoted string when it is printable ASCII without `%`, `"`, `\`, `=?` or
    /// surrounding spaces (which Chromium or .NET would read differently), else
    /// `filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded>` (RFC 6266 appendix D:
    /// the fallback first; in the fallback, control and non-ASCII characters become `_`).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// assert_eq!(DispositionBuilder::new("attachment").filename("a.txt").build(), "attachment; filename=a.txt");
    /// assert_eq!(DispositionBuilder::new("attachment").filename("a b.txt").build(), "attachment; filename=\"a b.txt\"");
    /// assert_eq!(
    ///     DispositionBuilder::new("attachment").filename("100%.txt").build(),
    ///     "attachment; filename=\"100%.txt\"; filename*=UTF-8''100%25.txt"
    /// );
    /// ```
    pub fn filename(self, name: &'b str) -> Self {
        self.push(Item::Filename(name))
    }

    /// Sets the filename exactly as ASP.NET Core's `SetHttpFileName` does: `filename` is the
    /// name with every UTF-16 unit below U+0020 or from U+007F up replaced by `_` (quoted
    /// unless a token), and `filename*=UTF-8''...` is always added. An empty name adds nothing.
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let h = DispositionBuilder::new("inline").http_filename("File?Name.bat").build();
    /// assert_eq!(h, "inline; filename=\"File?Name.bat\"; filename*=UTF-8''File%3FName.bat");
    /// ```
    pub fn http_filename(self, name: &'b str) -> Self {
        self.push(Item::HttpFilename(name))
    }

    /// Adds a parameter. A name ending in `*` gets an ext-value; a value that is neither a
    /// token nor printable ASCII is written as `name*=UTF-8''...`.
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let h = DispositionBuilder::new("form-data").param("name", "a \"b\"").param("x", "é").build();
    /// assert_eq!(h, r#"form-data; name="a \"b\""; x*=UTF-8''%C3%A9"#);
    /// ```
    pub fn param(self, name: &'b str, value: &'b str) -> Self {
        self.push(Item::Param(name, value))
    }

    /// Adds `size=<n>` (RFC 2183 §2.7).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// assert_eq!(DispositionBuilder::new("attachment").size(0).build(), "attachment; size=0");
    /// ```
    pub fn size(self, n: u64) -> Self {
        self.push(Item::Size(n))
    }

    /// Adds `creation-date="<RFC 1123 date>"` (RFC 2183 §2.4).
    ///
    /// ```
    /// use reqparse::disposition::{DateTime, DispositionBuilder};
    /// let d = DateTime::from_unix_seconds(855764991).unwrap();
    /// assert_eq!(
    ///     DispositionBuilder::new("attachment").creation_date(d).build(),
    ///     "attachment; creation-date=\"Wed, 12 Feb 1997 16:29:51 GMT\""
    /// );
    /// ```
    pub fn creation_date(self, d: DateTime) -> Self {
        self.push(Item::Date("creation-date", d))
    }

    /// Adds `modification-date="<RFC 1123 date>"` (RFC 2183 §2.5).
    ///
    /// ```
    /// use reqparse::disposition::{DateTime, DispositionBuilder};
    /// let d = DateTime::from_unix_seconds(0).unwrap();
    /// assert_eq!(
    ///     DispositionBuilder::new("inline").modification_date(d).build(),
    ///     "inline; modification-date=\"Thu, 01 Jan 1970 00:00:00 GMT\""
    /// );
    /// ```
    pub fn modification_date(self, d: DateTime) -> Self {
        self.push(Item::Date("modification-date", d))
    }

    /// Adds `read-date="<RFC 1123 date>"` (RFC 2183 §2.6).
    ///
    /// ```
    /// use reqparse::disposition::{DateTime, DispositionBuilder};
    /// let d = DateTime::from_unix_seconds(60).unwrap();
    /// assert!(DispositionBuilder::new("inline").read_date(d).build().ends_with("00:01:00 GMT\""));
    /// ```
    pub fn read_date(self, d: DateTime) -> Self {
        self.push(Item::Date("read-date", d))
    }

    /// The exact length [`build`](Self::build) will produce.
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let b = DispositionBuilder::new("attachment").filename("ä");
    /// assert_eq!(b.encoded_len(), b.build().len());
    /// ```
    pub fn encoded_len(&self) -> usize {
        let mut c = Count(0);
        self.emit(&mut c);
        c.0
    }

    /// Writes the header: one allocation of exactly the final length.
    ///
    /// # Errors
    /// `TooManyParameters` when more than [`MAX_BUILDER_PARAMS`] items were added.
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let mut b = DispositionBuilder::new("inline");
    /// for _ in 0..=reqparse::disposition::MAX_BUILDER_PARAMS {
    ///     b = b.size(1);
    /// }
    /// assert!(b.try_build().is_err());
    /// ```
    pub fn try_build(&self) -> Result<String, DispositionError> {
        if self.overflow {
            return Err(DispositionError {
                kind: DispositionErrorKind::TooManyParameters,
                offset: MAX_BUILDER_PARAMS,
            });
        }
        let mut out = String::with_capacity(self.encoded_len());
        self.emit(&mut out);
        debug_assert_eq!(out.len(), out.capacity());
        Ok(out)
    }

    /// [`try_build`](Self::try_build), returning an empty string when too many items were
    /// added (the only error).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let h = DispositionBuilder::new("attachment").filename("report.pdf").build();
    /// assert_eq!(h, "attachment; filename=report.pdf");
    /// ```
    pub fn build(&self) -> String {
        self.try_build().unwrap_or_default()
    }

    fn emit(&self, out: &mut impl Out) {
        token_or_underscores(self.kind, out);
        for item in self.items.iter().take(self.len).flatten() {
            match *item {
                Item::Filename(name) => filename(name, out),
                Item::HttpFilename(name) => http_filename(name, out),
                Item::Param(name, value) => {
                    out.str("; ");
                    param(name, value, out);
                }
                Item::Size(n) => {
                    out.str("; size=");
                    let mut buf = [0u8; 20];
                    let mut i = buf.len();
                    let mut n = n;
                    loop {
                        i -= 1;
                        buf[i] = b'0' + (n % 10) as u8;
                        n /= 10;
                        if n == 0 {
                            break;
                        }
                    }
                    for &b in buf.get(i..).unwrap_or(&[]) {
                        out.byte(b);
                    }
                }
                Item::Date(name, d) => {
                    out.str("; ");
                    out.str(name);
                    out.str("=\"");
                    for b in rfc1123(d) {
                        out.byte(b);
                    }
                    out.byte(b'"');
                }
            }
        }
    }
}

/// `s` with every character that is not a tchar written as `_` (an empty `s` as `_`).
fn token_or_underscores(s: &str, out: &mut impl Out) {
    if s.is_empty() {
        out.byte(b'_');
    }
    for c in s.chars() {
        match u8::try_from(c) {
            Ok(b) if is(b, TCHAR) => out.byte(b),
            _ => out.byte(b'_'),
        }
    }
}

fn quoted(s: &str, out: &mut impl Out) {
    out.byte(b'"');
    for part in s.split_inclusive(['"', '\\']) {
        match part.as_bytes().last() {
            Some(&q @ (b'"' | b'\\')) => {
                out.str(part.get(..part.len() - 1).unwrap_or(""));
                out.byte(b'\\');
                out.byte(q);
            }
            _ => out.str(part),
        }
    }
    out.byte(b'"');
}

/// RFC 8187 `UTF-8''` + value-chars: attr-chars as they are, every other byte `%XX`.
fn ext_value(s: &str, out: &mut impl Out) {
    out.str("UTF-8''");
    for &b in s.as_bytes() {
        if is(b, ATTR) {
            out.byte(b);
        } else {
            let mut e = [0u8; 3];
            write_escape(b, &mut e);
            for x in e {
                out.byte(x);
            }
        }
    }
}

fn printable(s: &str) -> bool {
    s.bytes().all(|b| (0x20..0x7F).contains(&b))
}

/// Printable ASCII that every profile reads back unchanged from a quoted string.
fn plain_safe(s: &str) -> bool {
    !s.is_empty()
        && printable(s)
        && !s.contains(['%', '"', '\\'])
        && !s.contains("=?")
        && !s.starts_with(' ')
        && !s.ends_with(' ')
}

fn filename(name: &str, out: &mut impl Out) {
    out.str("; filename=");
    if plain_safe(name) {
        if name.bytes().all(|b| is(b, TCHAR)) {
            out.str(name);
        } else {
            quoted(name, out);
        }
        return;
    }
    out.byte(b'"');
    for c in name.chars() {
        match c {
            '"' | '\\' => {
                out.byte(b'\\');
                out.byte(c as u8);
            }
            ' '..='~' => out.byte(c as u8),
            _ => out.byte(b'_'),
        }
    }
    out.str("\"; filename*=");
    ext_value(name, out);
}

/// ASP.NET Core's `SetHttpFileName`: `Sanitize` then `EncodeAndQuoteMime` for `filename`,
/// `Encode5987` for `filename*`.
fn http_filename(name: &str, out: &mut impl Out) {
    if name.is_empty() {
        return;
    }
    out.str("; filename=");
    // IsQuoted: a value already in quotes keeps them (and gets its inside escaped).
    let (inner, mut needs_quotes) = match name.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if name.len() > 1 => (inner, true),
        _ => (name, false),
    };
    // After Sanitize only ASCII 0x20..0x7E and `_` remain; `_` is a tchar.
    let sanitized_is_token = !inner.is_empty()
        && inner.chars().all(|c| match u8::try_from(c) {
            Ok(b) => is(b, TCHAR) || !(0x20..0x7F).contains(&b),
            Err(_) => true,
        });
    needs_quotes |= !sanitized_is_token && !inner.is_empty();
    if needs_quotes {
        out.byte(b'"');
    }
    for c in inner.chars() {
        match c {
            '"' | '\\' if needs_quotes => {
                out.byte(b'\\');
                out.byte(c as u8);
            }
            ' '..='~' => out.byte(c as u8),
            // One `_` per UTF-16 code unit, as .NET strings count them.
            _ => {
                for _ in 0..c.len_utf16() {
                    out.byte(b'_');
                }
            }
        }
    }
    if needs_quotes {
        out.byte(b'"');
    }
    out.str("; filename*=");
    ext_value(name, out);
}

fn param(name: &str, value: &str, out: &mut impl Out) {
    token_or_underscores(name, out);
    if name.ends_with('*') {
        out.byte(b'=');
        ext_value(value, out);
    } else if !value.is_empty() && value.bytes().all(|b| is(b, TCHAR)) {
        out.byte(b'=');
        out.str(value);
    } else if printable(value) {
        out.byte(b'=');
        quoted(value, out);
    } else {
        out.str("*=");
        ext_value(value, out);
    }
}

fn two(n: u8) -> [u8; 2] {
    [b'0' + n / 10 % 10, b'0' + n % 10]
}

/// `Wed, 12 Feb 1997 16:29:51 GMT` without formatting machinery.
fn rfc1123(d: DateTime) -> [u8; RFC1123_LEN] {
    const DAYS: [&[u8; 3]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];
    const MONTHS: [&[u8; 3]; 12] = [
        b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
        b"Dec",
    ];
    let wd = (d.unix_seconds().div_euclid(86_400) + 3).rem_euclid(7) as usize;
    let (y, (hh, mm, ss)) = (d.year(), d.time());
    let mut o = [b' '; RFC1123_LEN];
    o[..3].copy_from_slice(DAYS.get(wd).copied().unwrap_or(b"Mon"));
    o[3] = b',';
    o[5..7].copy_from_slice(&two(d.day()));
    o[8..11].copy_from_slice(
        MONTHS
            .get(usize::from(d.month()).wrapping_sub(1))
            .copied()
            .unwrap_or(b"Jan"),
    );
    o[12..14].copy_from_slice(&two((y / 100) as u8));
    o[14..16].copy_from_slice(&two((y % 100) as u8));
    o[17..19].copy_from_slice(&two(hh));
    o[19] = b':';
    o[20..22].copy_from_slice(&two(mm));
    o[22] = b':';
    o[23..25].copy_from_slice(&two(ss));
    o[26..29].copy_from_slice(b"GMT");
    o
}
