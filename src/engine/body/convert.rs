//! The conversions between the native body types and the WIT's (`wit/reqparse.wit`, the `body`
//! interface): limits on the way in, errors on the way out, case for case.

use super::wit;
use crate::body::{chunked, form, multipart};
use crate::{disposition, query};

/// A native limit as the WIT record takes it (saturating: a limit past `u32::MAX` is as good
/// as none on wasm32).
fn limit(n: usize) -> Option<u32> {
    Some(u32::try_from(n).unwrap_or(u32::MAX))
}

pub(super) fn chunked_limits(limits: chunked::ChunkedLimits) -> wit::ChunkedLimits {
    wit::ChunkedLimits {
        max_size_digits: limit(limits.max_size_digits),
        max_line_bytes: limit(limits.max_line_bytes),
        max_extension_bytes: limit(limits.max_extension_bytes),
        overhead_grace: Some(limits.overhead_grace),
        max_body_bytes: Some(limits.max_body_bytes),
        max_trailer_bytes: limit(limits.max_trailer_bytes),
        max_trailer_fields: limit(limits.max_trailer_fields),
    }
}

pub(super) fn chunked_error(e: wit::ChunkedError) -> chunked::ChunkedError {
    use chunked::{ChunkedErrorKind as C, ChunkedLimit as L};
    use wit::{ChunkedErrorKind as W, ChunkedLimit as WL};
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
        W::Limit(limit) => C::Limit(match limit {
            WL::MaxSizeDigits => L::SizeDigits,
            WL::MaxLineBytes => L::LineBytes,
            WL::MaxExtensionBytes => L::ExtensionBytes,
            WL::OverheadGrace => L::Overhead,
            WL::MaxBodyBytes => L::BodyBytes,
            WL::MaxTrailerBytes => L::TrailerBytes,
            WL::MaxTrailerFields => L::TrailerFields,
        }),
    };
    chunked::ChunkedError {
        kind,
        offset: e.offset,
    }
}

pub(super) fn form_limits(limits: form::FormLimits) -> wit::FormLimits {
    wit::FormLimits {
        max_pairs: limit(limits.max_pairs),
        max_name_bytes: limit(limits.max_name_bytes),
        max_value_bytes: limit(limits.max_value_bytes),
        max_body_bytes: Some(limits.max_body_bytes),
    }
}

pub(super) fn form_error(e: wit::FormError) -> form::FormError {
    use form::{FormErrorKind as C, FormLimit as L};
    use query::QueryErrorKind as Q;
    use wit::{FormErrorKind as W, FormLimit as WL, QueryErrorKind as WQ};
    let kind = match e.kind {
        W::Decode(kind) => C::Decode(match kind {
            WQ::InvalidEscape => Q::InvalidEscape,
            WQ::InvalidUtf8 => Q::InvalidUtf8,
            WQ::TooManyPairs => Q::TooManyPairs,
            WQ::TooLarge => Q::TooLarge,
        }),
        W::Limit(limit) => C::Limit(match limit {
            WL::MaxPairs => L::Pairs,
            WL::MaxNameBytes => L::NameBytes,
            WL::MaxValueBytes => L::ValueBytes,
            WL::MaxBodyBytes => L::BodyBytes,
        }),
    };
    form::FormError {
        kind,
        offset: e.offset,
    }
}

pub(super) fn multipart_limits(limits: multipart::MultipartLimits) -> wit::MultipartLimits {
    wit::MultipartLimits {
        max_parts: limit(limits.max_parts),
        max_boundary_bytes: limit(limits.max_boundary_bytes),
        max_headers: limit(limits.max_headers),
        max_header_bytes: limit(limits.max_header_bytes),
        max_value_bytes: Some(limits.max_value_bytes),
        max_body_bytes: Some(limits.max_body_bytes),
        max_preamble_bytes: limit(limits.max_preamble_bytes),
        max_epilogue_bytes: limit(limits.max_epilogue_bytes),
        max_files: limit(limits.max_files),
        max_fields: limit(limits.max_fields),
        max_file_bytes: Some(limits.max_file_bytes),
        max_text_bytes: Some(limits.max_text_bytes),
        max_name_bytes: limit(limits.max_name_bytes),
        max_filename_bytes: limit(limits.max_filename_bytes),
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
    use multipart::{MultipartErrorKind as C, MultipartLimit as L};
    use wit::{MultipartErrorKind as W, MultipartLimit as WL};
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
        W::Limit(limit) => C::Limit(match limit {
            WL::MaxParts => L::Parts,
            WL::MaxBoundaryBytes => L::BoundaryBytes,
            WL::MaxHeaders => L::Headers,
            WL::MaxHeaderBytes => L::HeaderBytes,
            WL::MaxValueBytes => L::ValueBytes,
            WL::MaxBodyBytes => L::BodyBytes,
            WL::MaxPreambleBytes => L::PreambleBytes,
            WL::MaxEpilogueBytes => L::EpilogueBytes,
            WL::MaxFiles => L::Files,
            WL::MaxFields => L::Fields,
            WL::MaxFileBytes => L::FileBytes,
            WL::MaxTextBytes => L::TextBytes,
            WL::MaxNameBytes => L::NameBytes,
            WL::MaxFilenameBytes => L::FilenameBytes,
            WL::MaxPartBytes => L::PartBytes,
        }),
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
