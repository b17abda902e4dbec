//! A part's filename: data, not a path. Four readings, each a call: the bytes as sent, the
//! effective name, the basename over `/` and `\`, and a sanitized portable name.
#![forbid(unsafe_code)]

use alloc::borrow::Cow;
use alloc::string::String;

/// The longest portable name, in bytes (the common file system limit, ext4's and NTFS's in
/// UTF-16 units, which 255 UTF-8 bytes never exceed).
const MAX_PORTABLE_BYTES: usize = 255;

/// The filename of a file part (see [`Part::filename`](super::Part::filename)).
///
/// A filename is what the client says its file was called; it is never a path to open. Read
/// it as one of:
/// - [`raw`](Self::raw): the parameter's bytes as sent, between its quotes;
/// - [`as_str`](Self::as_str): the effective name (RFC 6266 §4.3: a decodable `filename*`
///   first), as the profile reads it;
/// - [`basename`](Self::basename): what follows the last `/` or `\` (old browsers sent
///   whole Windows paths);
/// - [`portable`](Self::portable): a name safe to create on any common file system.
///
/// ```
/// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
/// let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"C:\\Users\\x\\CON.txt\"\r\n\r\n";
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
/// let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
/// let f = part.filename().unwrap();
/// assert_eq!(f.raw(), br"C:\Users\x\CON.txt");
/// assert_eq!(f.as_str(), r"C:\Users\x\CON.txt");
/// assert_eq!(f.basename(), "CON.txt");
/// assert_eq!(f.portable(), "_CON.txt");
/// # Ok::<(), reqparse::body::multipart::MultipartError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filename<'a> {
    value: Cow<'a, str>,
    raw: &'a [u8],
}

impl<'a> Filename<'a> {
    /// A filename from its two readings, as a reader that is not this crate's (the component,
    /// through `reqparse::engine`) hands them out: the effective name and the raw bytes.
    ///
    /// ```
    /// use reqparse::body::multipart::Filename;
    /// let f = Filename::new("C:\\x\\a.txt".into(), b"C:\\x\\a.txt");
    /// assert_eq!(f.basename(), "a.txt");
    /// ```
    pub fn new(value: Cow<'a, str>, raw: &'a [u8]) -> Self {
        Filename { value, raw }
    }

    /// The bytes of the `filename` parameter as sent, without its quotes (of `filename*` when
    /// there is no `filename`): nothing decoded, whatever their encoding.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"a%22b.txt\"\r\n\r\n";
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.filename().unwrap().raw(), b"a%22b.txt");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The effective filename, as the profile reads it (borrowed unless it was decoded).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"x\"; filename*=UTF-8''%E2%82%AC.txt\r\n\r\n";
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.filename().unwrap().as_str(), "€.txt");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// The effective filename, owned or borrowed as it was read.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"a.txt\"\r\n\r\n";
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert!(matches!(part.filename().unwrap().into_cow(), std::borrow::Cow::Borrowed("a.txt")));
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn into_cow(self) -> Cow<'a, str> {
        self.value
    }

    /// What follows the last `/` or `\` of the effective name (all of it when there is
    /// neither): a Windows path or a relative path loses its directories. It may still be
    /// `..`, empty, or a reserved name: see [`portable`](Self::portable).
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=\"../../etc/passwd\"\r\n\r\n";
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body, false)?.event else { panic!() };
    /// assert_eq!(part.filename().unwrap().basename(), "passwd");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn basename(&self) -> &str {
        basename(&self.value)
    }

    /// A name safe to create on Linux, macOS and Windows alike, from the
    /// [`basename`](Self::basename): control characters, `< > : " / \ | ? *` and the
    /// bidirectional overrides (which make `exe.txt` display as `txt.exe`) become `_`;
    /// leading dots (hidden files, `..`) and trailing dots and spaces (which Windows drops)
    /// are removed; a Windows device name (`CON`, `NUL`, `COM1`…, with any extension) gets a
    /// leading `_`; the result is cut to 255 bytes on a character boundary, keeping the
    /// extension when it is short; an empty result is `_`. Allocates the result.
    ///
    /// ```
    /// # use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// # let body = "--b\r\nContent-Disposition: form-data; name=f; filename=\"..\\\\ré*sumé.pdf. \"\r\n\r\n";
    /// # let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// # let Some(MultipartEvent::Part(part)) = reader.decode(body.as_bytes(), false)?.event else { panic!() };
    /// assert_eq!(part.filename().unwrap().portable(), "ré_sumé.pdf");
    /// # Ok::<(), reqparse::body::multipart::MultipartError>(())
    /// ```
    pub fn portable(&self) -> String {
        portable(self.basename())
    }
}

/// What follows the last `/` or `\`.
fn basename(name: &str) -> &str {
    match name.rfind(['/', '\\']) {
        // `/` and `\` are one byte: the next character starts right after.
        Some(at) => crate::bytes::str_slice(name, at + 1..),
        None => name,
    }
}

/// Whether `c` may not appear in a portable name.
fn unportable(c: char) -> bool {
    c.is_control()
        || matches!(c, '<' | '>' | ':' | '"' | '/' | '\\' | '|' | '?' | '*')
        // LRE RLE PDF LRO RLO, LRI RLI FSI PDI: they reorder what a user sees.
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `stem` (the name before its first `.`) is a Windows device name.
fn reserved(stem: &str) -> bool {
    const DEVICES: [&str; 4] = ["CON", "PRN", "AUX", "NUL"];
    if DEVICES.iter().any(|d| stem.eq_ignore_ascii_case(d)) {
        return true;
    }
    match stem.as_bytes() {
        [a, b, c, b'1'..=b'9'] => {
            let head = [*a, *b, *c];
            head.eq_ignore_ascii_case(b"COM") || head.eq_ignore_ascii_case(b"LPT")
        }
        _ => false,
    }
}

fn portable(base: &str) -> String {
    let mut out = String::with_capacity(base.len().min(MAX_PORTABLE_BYTES) + 1);
    let trimmed = base.trim_start_matches('.').trim_end_matches(['.', ' ']);
    let stem = trimmed.split('.').next().unwrap_or_default();
    if reserved(stem) {
        out.push('_');
    }
    out.extend(trimmed.chars().map(|c| if unportable(c) { '_' } else { c }));
    if out.len() > MAX_PORTABLE_BYTES {
        cut(&mut out);
    }
    if out.is_empty() {
        out.push('_');
    }
    out
}

/// Cuts `name` to [`MAX_PORTABLE_BYTES`] on a character boundary, keeping an extension of up
/// to 16 bytes.
fn cut(name: &mut String) {
    let ext_len = match name.rfind('.') {
        Some(dot) if name.len() - dot <= 16 => name.len() - dot,
        _ => 0,
    };
    let mut keep = MAX_PORTABLE_BYTES - ext_len;
    while !name.is_char_boundary(keep) {
        keep -= 1;
    }
    let ext_at = name.len() - ext_len;
    name.replace_range(keep..ext_at, "");
    // Cutting may leave the dots or spaces Windows drops at the end of the stem.
    while name.ends_with(['.', ' ']) && ext_len == 0 {
        name.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basenames() {
        assert_eq!(basename(r"C:\a\b.txt"), "b.txt");
        assert_eq!(basename("a/b/"), "");
        assert_eq!(basename("plain"), "plain");
    }

    #[test]
    fn portable_names() {
        assert_eq!(portable("a<b>c:d\"e|f?g*h"), "a_b_c_d_e_f_g_h");
        assert_eq!(portable(".."), "_");
        assert_eq!(portable(".bashrc"), "bashrc");
        assert_eq!(portable("nul"), "_nul");
        assert_eq!(portable("com7.tar.gz"), "_com7.tar.gz");
        assert_eq!(portable("com0"), "com0");
        assert_eq!(portable("Console.txt"), "Console.txt");
        assert_eq!(portable("a\u{202E}txt.exe"), "a_txt.exe");
        assert_eq!(portable("tab\there"), "tab_here");
        let long = format!("{}.jpeg", "é".repeat(200));
        let p = portable(&long);
        assert!(p.len() <= MAX_PORTABLE_BYTES && p.ends_with(".jpeg"), "{p}");
        let long = "x".repeat(300);
        assert_eq!(portable(&long).len(), MAX_PORTABLE_BYTES);
    }
}
