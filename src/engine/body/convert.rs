//! The conversions between the native body types and the WIT's (`wit/reqparse.wit`, the `body`
//! interface): limits on the way in, errors on the way out, case for case.

use super::wit;
use crate::body::{chunked, form, multipart};
use crate::{disposition, query};

/// A native limit as the WIT record takes it: a `usize` saturating at `u32::MAX` (a limit
/// past it is as good as none on wasm32), a `u64` as it is.
trait ToWit {
    type Wit;
    fn to_wit(self) -> Option<Self::Wit>;
}

impl ToWit for usize {
    type Wit = u32;
    fn to_wit(self) -> Option<u32> {
        Some(u32::try_from(self).unwrap_or(u32::MAX))
    }
}

impl ToWit for u64 {
    type Wit = u64;
    fn to_wit(self) -> Option<u64> {
        Some(self)
    }
}

/// A reader's limits record and its limit enum's conversion back, from the reader's table in
/// `crate::body::limits` (a WIT record that lacks a field of the table does not build).
macro_rules! limit_conversions {
    (($reader:ident, $limits:ident, $limit:ident, $record:ident, $from_wit:ident)
     { $( $(#[$doc:meta])* $field:ident ($variant:ident, $wit:ident): $ty:ty = $default:expr ),+ $(,)? }
     { $( $(#[$extra_doc:meta])* $extra:ident ($extra_wit:ident) = $extra_name:literal ),* $(,)? }) => {
        pub(super) fn $record(limits: $reader::$limits) -> wit::$limits {
            wit::$limits { $( $field: limits.$field.to_wit(), )+ }
        }

        fn $from_wit(limit: wit::$limit) -> $reader::$limit {
            match limit {
                $( wit::$limit::$wit => $reader::$limit::$variant, )+
                $( wit::$limit::$extra_wit => $reader::$limit::$extra, )*
            }
        }
    };
}

crate::body::limits::every_reader!(limit_conversions);

pub(super) fn chunked_error(e: wit::ChunkedError) -> chunked::ChunkedError {
    use chunked::ChunkedErrorKind as C;
    use wit::ChunkedErrorKind as W;
    let kind = match e.kind {
        W::EmptySize => C::EmptySize,
        W::InvalidSize => C::InvalidSize,
        W::SizeOverflow => C::SizeOverflow,
        W::InvalidExtension => C::InvalidExtension,
        W::BareCr => C::BareCr,
        W::BareLf => C::BareLf,
        W::MissingCrlf => C::MissingCrlf,
        W::InvalidTrailer => C::InvalidTrailer,
        W::UnexpectedEnd => C::UnexpectedEnd,
        W::Limit(limit) => C::Limit(chunked_limit(limit)),
    };
    chunked::ChunkedError {
        kind,
        offset: e.offset,
    }
}

pub(super) fn form_error(e: wit::FormError) -> form::FormError {
    use form::FormErrorKind as C;
    use query::QueryErrorKind as Q;
    use wit::{FormErrorKind as W, QueryErrorKind as WQ};
    let kind = match e.kind {
        W::Decode(kind) => C::Decode(match kind {
            WQ::InvalidEscape => Q::InvalidEscape,
            WQ::InvalidUtf8 => Q::InvalidUtf8,
            WQ::TooManyPairs => Q::TooManyPairs,
            WQ::TooLarge => Q::TooLarge,
        }),
        W::Limit(limit) => C::Limit(form_limit(limit)),
    };
    form::FormError {
        kind,
        offset: e.offset,
    }
}

pub(super) fn multipart_profile(profile: multipart::Profile) -> wit::MultipartProfile {
    match profile {
        multipart::Profile::Fetch => wit::MultipartProfile::Fetch,
        multipart::Profile::Strict => wit::MultipartProfile::Strict,
        multipart::Profile::Lenient => wit::MultipartProfile::Lenient,
    }
}

pub(super) fn multipart_error(e: wit::MultipartError) -> multipart::MultipartError {
    use multipart::MultipartErrorKind as C;
    use wit::MultipartErrorKind as W;
    let kind = match e.kind {
        W::InvalidBoundary => C::InvalidBoundary,
        W::ExpectedBoundary => C::ExpectedBoundary,
        W::InvalidDelimiter => C::InvalidDelimiter,
        W::BareCr => C::BareCr,
        W::BareLf => C::BareLf,
        W::InvalidHeader => C::InvalidHeader,
        W::DuplicateHeader => C::DuplicateHeader,
        W::MissingDisposition => C::MissingDisposition,
        W::NotFormData => C::NotFormData,
        W::MissingName => C::MissingName,
        W::InvalidDisposition(kind) => C::InvalidDisposition(disposition_kind(kind)),
        W::TransferEncoding => C::TransferEncoding,
        W::AfterEnd => C::AfterEnd,
        W::UnexpectedEnd => C::UnexpectedEnd,
        W::Limit(limit) => C::Limit(multipart_limit(limit)),
        W::NotMultipart => C::NotMultipart,
        W::MissingBoundary => C::MissingBoundary,
        W::InvalidContentType => C::InvalidContentType,
    };
    multipart::MultipartError {
        kind,
        offset: e.offset,
        // A part's index is a `usize` in the guest too (wasm32: never past `u32::MAX`).
        part: e.part.map(|p| p as usize),
    }
}

fn disposition_kind(k: wit::DispositionErrorKind) -> disposition::DispositionErrorKind {
    use disposition::DispositionErrorKind as C;
    use wit::DispositionErrorKind as W;
    match k {
        W::TooLong => C::TooLong,
        W::TooManyParameters => C::TooManyParameters,
        W::SectionLimit => C::SectionLimit,
        W::MissingType => C::MissingType,
        W::QuotedType => C::QuotedType,
        W::TrailingSemicolon => C::TrailingSemicolon,
        W::EmptyParameter => C::EmptyParameter,
        W::InvalidName => C::InvalidName,
        W::MissingEquals => C::MissingEquals,
        W::MissingValue => C::MissingValue,
        W::UnterminatedQuote => C::UnterminatedQuote,
        W::InvalidQuotedChar => C::InvalidQuotedChar,
        W::TokenWithSpace => C::TokenWithSpace,
        W::Comma => C::Comma,
        W::UnexpectedChar => C::UnexpectedChar,
        W::NonAscii => C::NonAscii,
        W::InvalidUtf8 => C::InvalidUtf8,
        W::DuplicateParameter => C::DuplicateParameter,
        W::InvalidSize => C::InvalidSize,
        W::InvalidDate => C::InvalidDate,
    }
}
