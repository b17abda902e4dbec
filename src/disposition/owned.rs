//! [`OwnedContentDisposition`]: a parsed header that owns its bytes, for keeping it past the
//! request it came with.

use alloc::boxed::Box;
use core::fmt;

use super::{ContentDisposition, DispositionError, Profile};
use crate::bytes::{offset_in, slice};

/// A parsed `Content-Disposition` that owns a copy of its header (one allocation) and hands
/// out the borrowed [`ContentDisposition`] view again without parsing twice
/// ([`get`](Self::get)).
///
/// ```
/// use reqparse::disposition::{ContentDisposition, OwnedContentDisposition, Profile};
///
/// fn keep(header: &[u8]) -> Result<OwnedContentDisposition, reqparse::disposition::DispositionError> {
///     Ok(ContentDisposition::parse(header, Profile::Strict)?.into_owned())
/// }
/// let kept = keep(b"attachment; filename=\"a b.txt\"".to_vec().as_slice())?;
/// assert_eq!(kept.get().filename().as_deref(), Some("a b.txt"));
/// assert_eq!(kept.header(), b"attachment; filename=\"a b.txt\"");
/// # Ok::<(), reqparse::disposition::DispositionError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct OwnedContentDisposition {
    header: Box<[u8]>,
    /// The type's range in `header`; `None` for [`Profile::Browser`]'s default `inline`,
    /// which is not in the header.
    kind: Option<(u16, u16)>,
    /// Everything else the parse found (offsets into `header`), over empty bytes.
    shape: ContentDisposition<'static>,
}

impl OwnedContentDisposition {
    /// Parses `header` as [`ContentDisposition::parse`] does and keeps a copy of it.
    ///
    /// # Errors
    /// As [`ContentDisposition::parse`].
    ///
    /// ```
    /// use reqparse::disposition::{OwnedContentDisposition, Profile};
    /// let cd = OwnedContentDisposition::parse(b"inline", Profile::Strict)?;
    /// assert!(cd.get().is_inline());
    /// assert!(OwnedContentDisposition::parse(b"\"inline\"", Profile::Strict).is_err());
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn parse(header: &[u8], profile: Profile) -> Result<Self, DispositionError> {
        Ok(ContentDisposition::parse(header, profile)?.into_owned())
    }

    /// The borrowed view, as [`ContentDisposition::parse`] returned it. Allocates nothing.
    ///
    /// ```
    /// use reqparse::disposition::{OwnedContentDisposition, Profile};
    /// let cd = OwnedContentDisposition::parse(b"filename=x", Profile::Browser)?;
    /// assert_eq!(cd.get().disposition_type(), "inline");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn get(&self) -> ContentDisposition<'_> {
        let header: &[u8] = &self.header;
        let kind = match self.kind {
            // A range `into_owned` took from this header.
            Some((start, end)) => slice(header, usize::from(start)..usize::from(end)),
            None => b"inline",
        };
        self.shape.over(header, kind)
    }

    /// The header's bytes, as parsed.
    ///
    /// ```
    /// use reqparse::disposition::{OwnedContentDisposition, Profile};
    /// assert_eq!(OwnedContentDisposition::parse(b"inline", Profile::Strict)?.header(), b"inline");
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn header(&self) -> &[u8] {
        &self.header
    }
}

impl fmt::Debug for OwnedContentDisposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

impl<'a> ContentDisposition<'a> {
    /// An owned copy (one allocation: the header's bytes), for keeping the parsed header past
    /// the buffer it was read from; see [`OwnedContentDisposition`].
    ///
    /// ```
    /// use reqparse::disposition::{ContentDisposition, Profile};
    /// let owned = {
    ///     let buffer = String::from("form-data; name=\"f\"; filename=\"r\u{e9}sum\u{e9}.pdf\"");
    ///     ContentDisposition::parse_str(&buffer, Profile::Strict)?.into_owned()
    /// };
    /// assert_eq!(owned.get().filename().as_deref(), Some("résumé.pdf"));
    /// # Ok::<(), reqparse::disposition::DispositionError>(())
    /// ```
    pub fn into_owned(self) -> OwnedContentDisposition {
        // The type is a slice of the header, or (Browser's default) the static `inline`: its
        // place in the header, found from the two addresses, is all that needs keeping.
        // Both are below MAX_HEADER_LEN, which fits in u16.
        let kind =
            offset_in(self.header, self.kind).map(|at| (at as u16, (at + self.kind.len()) as u16));
        OwnedContentDisposition {
            header: self.header.into(),
            kind,
            shape: self.over(&[], &[]),
        }
    }

    /// The same parse over other bytes: `header` must be the parsed header's bytes (a copy)
    /// and `kind` its type, for the offsets to hold.
    fn over<'b>(&self, header: &'b [u8], kind: &'b [u8]) -> ContentDisposition<'b> {
        ContentDisposition {
            header,
            kind,
            params_at: self.params_at,
            count: self.count,
            profile: self.profile,
            found: self.found,
            literal: self.literal,
            folds: self.folds,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_views_equal_the_borrowed_ones() {
        let headers: &[(&[u8], Profile)] = &[
            (
                b"attachment; filename=\"a.txt\"; filename*=UTF-8''%e2%82%ac",
                Profile::Strict,
            ),
            (b"filename=x", Profile::Browser),
            (b"  ; x", Profile::Browser),
            (b"inline", Profile::Browser),
            (b"Form-Data; name=a; name=b", Profile::DotNet),
        ];
        for &(h, profile) in headers {
            let cd = ContentDisposition::parse(h, profile).unwrap();
            let owned = cd.into_owned();
            assert_eq!(owned.get(), cd, "{h:?}");
            assert_eq!(owned.get().filename(), cd.filename());
        }
        let form = ContentDisposition::parse_form_data(br#"form-data; name="C:\a""#).unwrap();
        assert_eq!(form.into_owned().get().param("name"), form.param("name"));
    }
}
