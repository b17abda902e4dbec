//! [`DispositionType`]: the disposition type compared as HTTP compares it (ignoring case).

use core::fmt;

/// The disposition type of a header, for comparing: the types HTTP uses (`inline` and
/// `attachment` of RFC 6266, `form-data` of RFC 7578) matched ignoring ASCII case, and any
/// other type as written. [`ContentDisposition::disposition_type`](super::ContentDisposition::disposition_type)
/// keeps the raw text.
///
/// ```
/// use reqparse::disposition::{ContentDisposition, DispositionType};
///
/// let cd = ContentDisposition::parse_str("ATTACHMENT; filename=a.txt", Default::default())?;
/// assert_eq!(cd.kind(), DispositionType::Attachment);
/// assert_eq!(cd.disposition_type(), "ATTACHMENT");
/// match ContentDisposition::parse_str("Signal; handling=optional", Default::default())?.kind() {
///     DispositionType::Other(t) => assert_eq!(t, "Signal"),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DispositionType<'a> {
    /// `inline` (RFC 6266 §4.2): shown as part of the page. Also what
    /// [`Profile::Browser`](super::Profile::Browser) reads a missing or malformed type as.
    Inline,
    /// `attachment` (RFC 6266 §4.2): offered for download.
    Attachment,
    /// `form-data` (RFC 7578 §4.2): a part of a multipart/form-data body.
    FormData,
    /// Any other type (an extension token, RFC 6266 §4.2), as written.
    Other(&'a str),
}

impl<'a> DispositionType<'a> {
    /// Classifies a type as written (ASCII case ignored).
    ///
    /// ```
    /// use reqparse::disposition::DispositionType;
    /// assert_eq!(DispositionType::from_type("Form-Data"), DispositionType::FormData);
    /// assert_eq!(DispositionType::from_type("x-mine"), DispositionType::Other("x-mine"));
    /// ```
    pub fn from_type(written: &'a str) -> Self {
        [Self::Inline, Self::Attachment, Self::FormData]
            .into_iter()
            .find(|known| known.as_str().eq_ignore_ascii_case(written))
            .unwrap_or(Self::Other(written))
    }

    /// The registered type's lowercase name, or an `Other` type as written.
    ///
    /// ```
    /// use reqparse::disposition::DispositionType;
    /// assert_eq!(DispositionType::from_type("INLINE").as_str(), "inline");
    /// assert_eq!(DispositionType::Other("X-Mine").as_str(), "X-Mine");
    /// ```
    pub const fn as_str(&self) -> &'a str {
        match *self {
            Self::Inline => "inline",
            Self::Attachment => "attachment",
            Self::FormData => "form-data",
            Self::Other(written) => written,
        }
    }
}

impl fmt::Display for DispositionType<'_> {
    /// [`as_str`](DispositionType::as_str).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
