//! Formatting `Content-Disposition` values. The builder writes only what its own
//! [`Profile::Strict`](super::Profile::Strict) parser reads back as it was given: anything it
//! cannot write faithfully (a type or parameter name that is not a token, a repeated
//! parameter, a header over [`MAX_HEADER_LEN`]) is a [`BuildError`], never a rewritten or
//! unreadable header. The exact length is computed first, then the header is written into one
//! `String` of that capacity.

use super::ext_value::section;
use super::grammar::{is, is_token, TCHAR};
use super::{DateTime, MAX_HEADER_LEN, MAX_PARAMS};
use crate::percent::{encode_into, encoded_len, ATTR_CHAR};
use alloc::string::String;
use core::fmt;

/// The most items (filename, parameters, size, dates) one builder holds; they live inline in
/// the builder so that building allocates exactly once.
///
/// ```
/// use reqparse::disposition::{BuildError, DispositionBuilder, MAX_BUILDER_PARAMS};
/// let names: Vec<String> = (0..=MAX_BUILDER_PARAMS).map(|i| format!("p{i}")).collect();
/// let mut b = DispositionBuilder::new("inline");
/// for name in &names {
///     b = b.param(name, "v");
/// }
/// assert_eq!(b.build(), Err(BuildError::TooManyItems { max: MAX_BUILDER_PARAMS }));
/// ```
pub const MAX_BUILDER_PARAMS: usize = 16;

// Each item writes at most two parameters (`filename` and `filename*`), so a built header
// never holds more than the parser accepts.
const _: () = assert!(2 * MAX_BUILDER_PARAMS <= MAX_PARAMS);

/// Why [`DispositionBuilder::build`] wrote nothing: the header would not parse back (with
/// [`Profile::Strict`](super::Profile::Strict)) to what was given. `index` counts the items
/// in the order they were added (filename, parameters, size and dates alike), from 0.
///
/// ```
/// use reqparse::disposition::{BuildError, DispositionBuilder};
/// let e = DispositionBuilder::new("attachment").param("filename", "a.txt").filename("b.txt")
///     .build()
///     .unwrap_err();
/// assert_eq!(e, BuildError::DuplicateParam { index: 1 });
/// assert_eq!(e.to_string(), "item 1 writes a parameter an earlier item already wrote");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BuildError {
    /// More than `max` ([`MAX_BUILDER_PARAMS`]) items were added.
    TooManyItems {
        /// The limit, [`MAX_BUILDER_PARAMS`].
        max: usize,
    },
    /// The disposition type is not a token (RFC 9110 §5.6.2): empty, or holding a space,
    /// a separator, a control or a non-ASCII character.
    InvalidType,
    /// The name of the parameter at `index` is not a token, or is an RFC 2231 section
    /// (`name*0`, `name*1*`: the builder writes every value whole, and the parser would join
    /// sections into one value).
    InvalidParamName {
        /// The item's position.
        index: usize,
    },
    /// The item at `index` writes a parameter name (ASCII case-insensitively) that an earlier
    /// item already wrote; a filename claims both `filename` and `filename*`. The Strict parser
    /// refuses duplicates, and the other profiles would keep only one.
    DuplicateParam {
        /// The item's position.
        index: usize,
    },
    /// The header would be `len` bytes, more than `max` ([`MAX_HEADER_LEN`]), which no
    /// profile parses.
    TooLong {
        /// The exact length the header would have.
        len: usize,
        /// The limit, [`MAX_HEADER_LEN`].
        max: usize,
    },
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BuildError::TooManyItems { max } => write!(f, "more than {max} items"),
            BuildError::InvalidType => f.write_str("disposition type is not a token"),
            BuildError::InvalidParamName { index } => {
                write!(f, "parameter name of item {index} is not a token")
            }
            BuildError::DuplicateParam { index } => write!(
                f,
                "item {index} writes a parameter an earlier item already wrote"
            ),
            BuildError::TooLong { len, max } => {
                write!(
                    f,
                    "header would be {len} bytes, longer than the limit of {max}"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BuildError {}

#[derive(Clone, Copy, Debug)]
enum Item<'b> {
    Filename(&'b str),
    HttpFilename(&'b str),
    Param(&'b str, &'b str),
    Size(u64),
    Date(&'static str, DateTime),
}

/// A parameter name as the builder writes it: the given name, and whether a `*` follows.
type Written<'b> = (&'b str, bool);

impl<'b> Item<'b> {
    /// The parameter names this item claims (a filename claims `filename*` even when it does
    /// not write it, so that no other item can override the filename).
    fn names(&self) -> [Option<Written<'b>>; 2] {
        match *self {
            Item::HttpFilename("") => [None, None],
            Item::Filename(_) | Item::HttpFilename(_) => {
                [Some(("filename", false)), Some(("filename", true))]
            }
            Item::Param(name, value) => [Some((name, adds_star(name, value))), None],
            Item::Size(_) => [Some(("size", false)), None],
            Item::Date(name, _) => [Some((name, false)), None],
        }
    }
}

/// Whether two written names are the same parameter (ASCII case-insensitive).
fn same_name(a: Written<'_>, b: Written<'_>) -> bool {
    fn lower((name, star): Written<'_>) -> impl Iterator<Item = u8> + '_ {
        name.bytes()
            .chain(star.then_some(b'*'))
            .map(|c| c.to_ascii_lowercase())
    }
    lower(a).eq(lower(b))
}

/// Builds a `Content-Disposition` header value that [`Profile::Strict`](super::Profile::Strict)
/// parses back to the same type, filename and parameters.
///
/// Values are written as a token when they are one, else as a quoted string (`\` and `"`
/// escaped) when they are printable ASCII, else as an RFC 8187 ext-value `name*=UTF-8''...`.
/// What cannot be written faithfully is a [`BuildError`].
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionBuilder};
/// let h = DispositionBuilder::new("attachment").filename("€ rates.pdf").size(42).build()?;
/// assert_eq!(h, "attachment; filename=\"_ rates.pdf\"; filename*=UTF-8''%E2%82%AC%20rates.pdf; size=42");
/// assert_eq!(h.capacity(), h.len());
/// let cd = ContentDisposition::parse_str(&h, Default::default())?;
/// assert_eq!(cd.filename().as_deref(), Some("€ rates.pdf"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
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
    /// `s` percent-encoded with RFC 8187 attr-chars kept.
    fn attr_chars(&mut self, s: &str);
}

/// Counts bytes; saturates, so an absurd length still fails the length check.
struct Count(usize);

impl Out for Count {
    fn str(&mut self, s: &str) {
        self.0 = self.0.saturating_add(s.len());
    }
    fn byte(&mut self, _: u8) {
        self.0 = self.0.saturating_add(1);
    }
    fn attr_chars(&mut self, s: &str) {
        // `None` only when the length overflows `usize`: saturate like the other counts.
        let n = encoded_len(s.as_bytes(), &ATTR_CHAR).unwrap_or(usize::MAX);
        self.0 = self.0.saturating_add(n);
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
    fn attr_chars(&mut self, s: &str) {
        encode_into(s, &ATTR_CHAR, self);
    }
}

impl<'b> DispositionBuilder<'b> {
    /// Starts a header of disposition type `kind` (`attachment`, `inline`, `form-data`...),
    /// which must be a token.
    ///
    /// ```
    /// use reqparse::disposition::{BuildError, DispositionBuilder};
    /// assert_eq!(DispositionBuilder::new("inline").build().as_deref(), Ok("inline"));
    /// assert_eq!(DispositionBuilder::new("bad type").build(), Err(BuildError::InvalidType));
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
    /// let h = |name| DispositionBuilder::new("attachment").filename(name).build().unwrap();
    /// assert_eq!(h("a.txt"), "attachment; filename=a.txt");
    /// assert_eq!(h("a b.txt"), "attachment; filename=\"a b.txt\"");
    /// assert_eq!(h("100%.txt"), "attachment; filename=\"100%.txt\"; filename*=UTF-8''100%25.txt");
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
    /// let h = DispositionBuilder::new("inline").http_filename("File?Name.bat").build()?;
    /// assert_eq!(h, "inline; filename=\"File?Name.bat\"; filename*=UTF-8''File%3FName.bat");
    /// # Ok::<(), reqparse::disposition::BuildError>(())
    /// ```
    pub fn http_filename(self, name: &'b str) -> Self {
        self.push(Item::HttpFilename(name))
    }

    /// Adds a parameter; `name` must be a token and not an RFC 2231 section (`name*0`). A name
    /// ending in `*` gets an ext-value; a value that is neither a token nor printable ASCII is
    /// written as `name*=UTF-8''...`.
    ///
    /// ```
    /// use reqparse::disposition::{BuildError, DispositionBuilder};
    /// let h = DispositionBuilder::new("form-data").param("name", "a \"b\"").param("x", "é").build()?;
    /// assert_eq!(h, r#"form-data; name="a \"b\""; x*=UTF-8''%C3%A9"#);
    /// let e = DispositionBuilder::new("form-data").param("", "v").build();
    /// assert_eq!(e, Err(BuildError::InvalidParamName { index: 0 }));
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn param(self, name: &'b str, value: &'b str) -> Self {
        self.push(Item::Param(name, value))
    }

    /// Adds `size=<n>` (RFC 2183 §2.7).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// assert_eq!(DispositionBuilder::new("attachment").size(0).build().as_deref(), Ok("attachment; size=0"));
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
    ///     DispositionBuilder::new("attachment").creation_date(d).build()?,
    ///     "attachment; creation-date=\"Wed, 12 Feb 1997 16:29:51 GMT\""
    /// );
    /// # Ok::<(), reqparse::disposition::BuildError>(())
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
    ///     DispositionBuilder::new("inline").modification_date(d).build()?,
    ///     "inline; modification-date=\"Thu, 01 Jan 1970 00:00:00 GMT\""
    /// );
    /// # Ok::<(), reqparse::disposition::BuildError>(())
    /// ```
    pub fn modification_date(self, d: DateTime) -> Self {
        self.push(Item::Date("modification-date", d))
    }

    /// Adds `read-date="<RFC 1123 date>"` (RFC 2183 §2.6).
    ///
    /// ```
    /// use reqparse::disposition::{DateTime, DispositionBuilder};
    /// let d = DateTime::from_unix_seconds(60).unwrap();
    /// assert!(DispositionBuilder::new("inline").read_date(d).build()?.ends_with("00:01:00 GMT\""));
    /// # Ok::<(), reqparse::disposition::BuildError>(())
    /// ```
    pub fn read_date(self, d: DateTime) -> Self {
        self.push(Item::Date("read-date", d))
    }

    /// The exact length of the header [`build`](Self::build) writes when it succeeds (also
    /// computed when it fails: [`BuildError::TooLong`] reports it).
    ///
    /// ```
    /// use reqparse::disposition::DispositionBuilder;
    /// let b = DispositionBuilder::new("attachment").filename("ä");
    /// assert_eq!(b.encoded_len(), b.build()?.len());
    /// # Ok::<(), reqparse::disposition::BuildError>(())
    /// ```
    pub fn encoded_len(&self) -> usize {
        let mut c = Count(0);
        self.emit(&mut c);
        c.0
    }

    /// Writes the header: every check first, then one allocation of exactly the final length.
    ///
    /// # Errors
    /// A [`BuildError`] when the header would not parse back to what was given: more than
    /// [`MAX_BUILDER_PARAMS`] items, a type or parameter name that is not a token, a parameter
    /// written twice, or more than [`MAX_HEADER_LEN`] bytes.
    ///
    /// ```
    /// use reqparse::disposition::{BuildError, DispositionBuilder, MAX_HEADER_LEN};
    /// let h = DispositionBuilder::new("attachment").filename("report.pdf").build()?;
    /// assert_eq!(h, "attachment; filename=report.pdf");
    ///
    /// let long = "é".repeat(3000);
    /// let e = DispositionBuilder::new("attachment").filename(&long).build().unwrap_err();
    /// assert_eq!(e, BuildError::TooLong { len: 21_042, max: MAX_HEADER_LEN });
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn build(&self) -> Result<String, BuildError> {
        self.check()?;
        let len = self.encoded_len();
        if len > MAX_HEADER_LEN {
            return Err(BuildError::TooLong {
                len,
                max: MAX_HEADER_LEN,
            });
        }
        let mut out = String::with_capacity(len);
        self.emit(&mut out);
        debug_assert_eq!(out.len(), len);
        Ok(out)
    }

    /// Every check but the length, in the order the items were added.
    fn check(&self) -> Result<(), BuildError> {
        if self.overflow {
            return Err(BuildError::TooManyItems {
                max: MAX_BUILDER_PARAMS,
            });
        }
        if !is_token(self.kind.as_bytes()) {
            return Err(BuildError::InvalidType);
        }
        let items = || self.items.iter().take(self.len).flatten();
        for (index, item) in items().enumerate() {
            if let Item::Param(name, _) = *item {
                if !is_token(name.as_bytes()) || section(name.as_bytes()).is_some() {
                    return Err(BuildError::InvalidParamName { index });
                }
            }
            let earlier = items().take(index).flat_map(|e| e.names()).flatten();
            let mut names = item.names().into_iter().flatten();
            if names.any(|n| earlier.clone().any(|e| same_name(n, e))) {
                return Err(BuildError::DuplicateParam { index });
            }
        }
        Ok(())
    }

    fn emit(&self, out: &mut impl Out) {
        out.str(self.kind);
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
                    decimal(n, out);
                }
                Item::Date(name, d) => {
                    out.str("; ");
                    out.str(name);
                    out.str("=\"");
                    for b in d.rfc1123() {
                        out.byte(b);
                    }
                    out.byte(b'"');
                }
            }
        }
    }
}

/// `n` in decimal, without formatting machinery.
fn decimal(mut n: u64, out: &mut impl Out) {
    let mut buf = [0u8; 20];
    let mut digits = 0;
    for slot in buf.iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        digits += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &b in crate::bytes::slice(&buf, buf.len() - digits..) {
        out.byte(b);
    }
}

fn quoted(s: &str, out: &mut impl Out) {
    out.byte(b'"');
    for part in s.split_inclusive(['"', '\\']) {
        match part.strip_suffix(['"', '\\']) {
            Some(text) => {
                out.str(text);
                out.byte(b'\\');
                // The character stripped: the last byte of `part`, ASCII.
                out.str(crate::bytes::str_slice(part, text.len()..));
            }
            None => out.str(part),
        }
    }
    out.byte(b'"');
}

/// RFC 8187 `UTF-8''` + value-chars: attr-chars as they are, every other byte `%XX`.
fn ext_value(s: &str, out: &mut impl Out) {
    out.str("UTF-8''");
    out.attr_chars(s);
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
        if is_token(name.as_bytes()) {
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

/// Whether `param(name, value)` is written `name*=` (an ext-value) although `name` has no `*`.
fn adds_star(name: &str, value: &str) -> bool {
    !name.ends_with('*') && !is_token(value.as_bytes()) && !printable(value)
}

fn param(name: &str, value: &str, out: &mut impl Out) {
    out.str(name);
    if name.ends_with('*') {
        out.byte(b'=');
        ext_value(value, out);
    } else if is_token(value.as_bytes()) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn err(b: DispositionBuilder<'_>) -> BuildError {
        b.build().unwrap_err()
    }

    #[test]
    fn what_strict_refuses_is_an_error() {
        let b = DispositionBuilder::new;
        assert_eq!(err(b("")), BuildError::InvalidType);
        assert_eq!(err(b("bad type")), BuildError::InvalidType);
        assert_eq!(
            err(b("inline").size(1).param("=", "v")),
            BuildError::InvalidParamName { index: 1 }
        );
        assert_eq!(
            err(b("inline").param("title*2", "v")),
            BuildError::InvalidParamName { index: 0 }
        );
        let dup = |b: DispositionBuilder<'_>| err(b);
        assert_eq!(
            dup(b("a").filename("x").param("FILENAME*", "y")),
            BuildError::DuplicateParam { index: 1 }
        );
        assert_eq!(
            dup(b("a").param("x", "é").param("x*", "y")),
            BuildError::DuplicateParam { index: 1 }
        );
        assert_eq!(
            dup(b("a").size(1).param("Size", "2")),
            BuildError::DuplicateParam { index: 1 }
        );
        assert_eq!(
            dup(b("a").filename("x").http_filename("y")),
            BuildError::DuplicateParam { index: 1 }
        );
        // `x` (a token) and `x*` (an ext-value) are different parameters.
        assert!(b("a").param("x", "1").param("x", "é").build().is_ok());
        assert!(b("a").http_filename("").filename("x").build().is_ok());
    }

    #[test]
    fn length_limit_is_exact() {
        let room = MAX_HEADER_LEN - "attachment; filename=".len();
        let fits = "a".repeat(room);
        assert_eq!(
            DispositionBuilder::new("attachment")
                .filename(&fits)
                .build()
                .map(|h| h.len()),
            Ok(MAX_HEADER_LEN)
        );
        let over = "a".repeat(room + 1);
        assert_eq!(
            err(DispositionBuilder::new("attachment").filename(&over)),
            BuildError::TooLong {
                len: MAX_HEADER_LEN + 1,
                max: MAX_HEADER_LEN
            }
        );
    }

    #[test]
    fn decimal_and_dates() {
        let d = DateTime::from_unix_seconds(855_764_991).unwrap();
        let h = DispositionBuilder::new("a")
            .size(u64::MAX)
            .read_date(d)
            .build()
            .unwrap();
        assert_eq!(
            h,
            "a; size=18446744073709551615; read-date=\"Wed, 12 Feb 1997 16:29:51 GMT\""
        );
    }
}
