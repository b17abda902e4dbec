//! Each reader's limits by name: the one table every face reads them from (the CLI's
//! `--limit NAME=VALUE` and its help, the npm options, the component's records), so that a
//! limit is spelled where it is declared and nowhere else.
//!
//! A reader's table ([`multipart!`], [`form!`], [`chunked!`]) is a macro holding one row per
//! limit, `field (Variant, WitCase): type = default,` under the field's docs, then the
//! [`…Limit`](super::multipart::MultipartLimit) variants that are no field (`Variant
//! (WitCase) = "name",`). It hands its rows to a callback macro, `table!(path::to::callback(args…))`
//! expanding to `callback! { (args…) { rows } { extra variants } }`, or, with `names`, to
//! `callback!(args… field, field, …)`. [`declare!`] writes the reader's public types from it;
//! the component faces write their WIT conversions from it (`WitCase` is the case's name in the
//! WIT bindings, `max-file-bytes` → `MaxFileBytes`, which a `macro_rules!` cannot derive), and
//! the npm face its wire order. Adding a limit is a row here and its check in the reader; the
//! faces that list limits (`wit/reqparse.wit`, `js/index.d.cts`) fail to build until they have it
//! (the WIT record by the conversions' struct literals, the npm types by `js/test`).

use core::fmt;

/// A limit that could not be set by name; see
/// [`MultipartLimits::set`](super::multipart::MultipartLimits::set).
///
/// ```
/// use reqparse::body::{multipart::MultipartLimits, LimitError};
/// let mut limits = MultipartLimits::default();
/// assert_eq!(limits.set("max_flies", 1), Err(LimitError::Unknown));
/// assert_eq!(LimitError::Unknown.to_string(), "no limit of that name");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitError {
    /// The reader has no limit of that name.
    Unknown,
    /// The value does not fit the limit's type on this platform (a `usize` limit on a 32-bit
    /// target), whose largest value is `max`.
    TooLarge {
        /// The largest value the limit takes.
        max: u64,
    },
}

impl fmt::Display for LimitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LimitError::Unknown => f.write_str("no limit of that name"),
            LimitError::TooLarge { max } => write!(f, "over the largest value it takes, {max}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LimitError {}

/// `NAMES`, `get` and `set` for a limits struct, from the list of its fields (each a `usize`
/// or a `u64`); `$path` is the struct's path as its doc examples name it.
macro_rules! by_name {
    ($ty:ident, $path:literal, [$($field:ident),+ $(,)?]) => {
        impl $ty {
            #[doc = concat!(
                "The name of every limit, in the order the fields are declared: what [`get`](Self::get) ",
                "and [`set`](Self::set) take.\n\n```\nuse ", $path, ";\nassert!(", stringify!($ty),
                "::NAMES.contains(&\"max_body_bytes\"));\n```"
            )]
            pub const NAMES: &'static [&'static str] = &[$(stringify!($field)),+];

            #[doc = concat!(
                "The limit named `name` (its field's name), or `None` when there is no such limit.\n\n",
                "```\nuse ", $path, ";\nlet limits = ", stringify!($ty), "::default();\n",
                "assert_eq!(limits.get(\"max_body_bytes\"), Some(limits.max_body_bytes as u64));\n",
                "assert_eq!(limits.get(\"nope\"), None);\n```"
            )]
            pub fn get(&self, name: &str) -> Option<u64> {
                match name {
                    $(stringify!($field) => Some(self.$field as u64),)+
                    _ => None,
                }
            }

            #[doc = concat!(
                "Sets the limit named `name` (its field's name) to `value`.\n\n# Errors\n",
                "[`LimitError::Unknown`](crate::body::LimitError::Unknown) for a name that is not one of ",
                "[`NAMES`](Self::NAMES); [`LimitError::TooLarge`](crate::body::LimitError::TooLarge) for ",
                "a value the field's type does not hold on this platform.\n\n",
                "```\nuse ", $path, ";\nlet mut limits = ", stringify!($ty), "::default();\n",
                "limits.set(\"max_body_bytes\", 1 << 30)?;\n",
                "assert_eq!(limits.max_body_bytes, 1 << 30);\n",
                "# Ok::<(), reqparse::body::LimitError>(())\n```"
            )]
            pub fn set(&mut self, name: &str, value: u64) -> Result<(), $crate::body::LimitError> {
                match name {
                    $(stringify!($field) => {
                        self.$field = $crate::body::limits::convert(value)?;
                        Ok(())
                    })+
                    _ => Err($crate::body::LimitError::Unknown),
                }
            }
        }
    };
}
pub(crate) use by_name;

/// Hands a table's rows to a callback (see the module documentation); the one place the row
/// grammar is read for `names`.
macro_rules! each {
    ([names $cb:ident ($($args:tt)*)]
     { $( $(#[$doc:meta])* $field:ident ($variant:ident, $wit:ident): $ty:ty = $default:expr ),+ $(,)? }
     $extra:tt) => {
        $cb!($($args)* $($field),+);
    };
    ([$($cb:ident)::+ ($($args:tt)*)] $rows:tt $extra:tt) => {
        $($cb)::+! { ($($args)*) $rows $extra }
    };
}
pub(crate) use each;

/// The multipart reader's limits: [`MultipartLimits`](super::multipart::MultipartLimits) and
/// [`MultipartLimit`](super::multipart::MultipartLimit). The defaults are ASP.NET Core's
/// `FormOptions` where it has one, except the boundary's (RFC 2046 §5.1.1).
macro_rules! multipart {
    ($($cb:tt)+) => {
        $crate::body::limits::each! { [$($cb)+] {
            /// Parts in the body (`ValueCountLimit`, 1,024).
            max_parts (Parts, MaxParts): usize = 1024,
            /// Bytes of the boundary (RFC 2046 §5.1.1: 70; ASP.NET's `MultipartBoundaryLengthLimit`
            /// is 128).
            max_boundary_bytes (BoundaryBytes, MaxBoundaryBytes): usize = 70,
            /// Header fields in one part (`MultipartHeadersCountLimit`, 16).
            max_headers (Headers, MaxHeaders): usize = 16,
            /// Bytes of one part's header block, its final empty line and any transport padding
            /// before it included (`MultipartHeadersLengthLimit`, 16 KiB): what the caller's buffer
            /// may have to hold of an incomplete header block.
            max_header_bytes (HeaderBytes, MaxHeaderBytes): usize = 16 * 1024,
            /// Bytes of one part without a filename: a form value (`ValueLengthLimit`, 4 MiB).
            max_value_bytes (ValueBytes, MaxValueBytes): u64 = 4 * 1024 * 1024,
            /// Bytes of the whole body, framing included (`MultipartBodyLengthLimit`, 128 MiB).
            max_body_bytes (BodyBytes, MaxBodyBytes): u64 = 128 * 1024 * 1024,
            /// Bytes before the first delimiter ([`Profile::Lenient`](crate::body::multipart::Profile::Lenient); the others allow none).
            max_preamble_bytes (PreambleBytes, MaxPreambleBytes): usize = 16 * 1024,
            /// Bytes after the close delimiter: transport padding in every profile, and the epilogue
            /// ([`Profile::Lenient`](crate::body::multipart::Profile::Lenient) anywhere, [`Profile::Fetch`](crate::body::multipart::Profile::Fetch)
            /// after the CRLF that ends the close delimiter's line; [`Profile::Strict`](crate::body::multipart::Profile::Strict)
            /// allows none).
            max_epilogue_bytes (EpilogueBytes, MaxEpilogueBytes): usize = 16 * 1024,
            /// Parts with a filename: files (100, Django's `DATA_UPLOAD_MAX_NUMBER_FILES`, added
            /// against CVE-2023-24580: formidable's unbounded `maxFiles` let 10,000 tiny files exhaust
            /// a server's file descriptors; more than PHP's 20, which a photo upload of one folder
            /// breaks, far fewer than ASP.NET's 1,024 entries of any kind).
            max_files (Files, MaxFiles): usize = 100,
            /// Parts without a filename: form fields (1,024, ASP.NET's `ValueCountLimit`).
            max_fields (Fields, MaxFields): usize = 1024,
            /// Data bytes of one file part (128 MiB, the body's own default: set it lower to keep
            /// files small while the body may carry several).
            max_file_bytes (FileBytes, MaxFileBytes): u64 = 128 * 1024 * 1024,
            /// Data bytes of all form fields together (16 MiB: four fields at
            /// [`max_value_bytes`](crate::body::multipart::MultipartLimits::max_value_bytes); fields are what a server keeps in memory,
            /// and 1,024 of them at 4 MiB would be 4 GiB).
            max_text_bytes (TextBytes, MaxTextBytes): u64 = 16 * 1024 * 1024,
            /// Bytes of a part's `name` as sent (2,048, ASP.NET's `KeyLengthLimit`).
            max_name_bytes (NameBytes, MaxNameBytes): usize = 2048,
            /// Bytes of a part's `filename` and of its `filename*`, each as sent (1,024: a path of a
            /// few 255-byte names).
            max_filename_bytes (FilenameBytes, MaxFilenameBytes): usize = 1024,
        } {
            /// The limit the caller set for one part, once its headers were read
            /// ([`MultipartReader::limit_part`](crate::body::multipart::MultipartReader::limit_part)).
            PartBytes (MaxPartBytes) = "max_part_bytes",
        } }
    };
}
pub(crate) use multipart;

/// The form reader's limits: [`FormLimits`](super::form::FormLimits) and
/// [`FormLimit`](super::form::FormLimit) (ASP.NET Core's `FormOptions` defaults).
macro_rules! form {
    ($($cb:tt)+) => {
        $crate::body::limits::each! { [$($cb)+] {
            /// Pairs in the body (`ValueCountLimit`, 1,024).
            max_pairs (Pairs, MaxPairs): usize = 1024,
            /// Bytes of one name (`KeyLengthLimit`, 2,048).
            max_name_bytes (NameBytes, MaxNameBytes): usize = 2048,
            /// Bytes of one value (`ValueLengthLimit`, 4 MiB).
            max_value_bytes (ValueBytes, MaxValueBytes): usize = 4 * 1024 * 1024,
            /// Bytes of the whole body (`BufferBodyLengthLimit`, 128 MiB).
            max_body_bytes (BodyBytes, MaxBodyBytes): u64 = 128 * 1024 * 1024,
        } {} }
    };
}
pub(crate) use form;

/// The chunked decoder's limits: [`ChunkedLimits`](super::chunked::ChunkedLimits) and
/// [`ChunkedLimit`](super::chunked::ChunkedLimit).
macro_rules! chunked {
    ($($cb:tt)+) => {
        $crate::body::limits::each! { [$($cb)+] {
            /// Hex digits in a chunk size, leading zeros included (16 fit any `u64`).
            max_size_digits (SizeDigits, MaxSizeDigits): usize = 16,
            /// Bytes in one chunk-size line, extensions and CRLF included: what the caller's buffer
            /// may have to hold of an incomplete line.
            max_line_bytes (LineBytes, MaxLineBytes): usize = 4096,
            /// Bytes of chunk extensions in the whole body.
            max_extension_bytes (ExtensionBytes, MaxExtensionBytes): usize = 16 * 1024,
            /// Framing bytes (size lines, extensions, CRLFs) allowed beyond the data's own length:
            /// past it, framing may be at most as long as the data it frames, so a body of tiny
            /// chunks cannot cost many times its payload.
            overhead_grace (Overhead, OverheadGrace): u64 = 64 * 1024,
            /// Bytes of chunk data in the whole body (128 MiB, ASP.NET Core's multipart body limit).
            max_body_bytes (BodyBytes, MaxBodyBytes): u64 = 128 * 1024 * 1024,
            /// Bytes of the trailer section, CRLFs included.
            max_trailer_bytes (TrailerBytes, MaxTrailerBytes): usize = 16 * 1024,
            /// Fields in the trailer section.
            max_trailer_fields (TrailerFields, MaxTrailerFields): usize = 64,
        } {} }
    };
}
pub(crate) use chunked;

/// Every reader's table through one callback: `callback! { (reader, Limits, Limit, limits,
/// limit) { rows } { extra variants } }`, `reader` the module in `crate::body`, `limits` and
/// `limit` the names the callback gives its conversions of the struct and of the enum.
#[cfg(any(feature = "engine-wasm", feature = "component"))]
macro_rules! every_reader {
    ($($cb:ident)::+) => {
        $crate::body::limits::chunked!($($cb)::+(
            chunked,
            ChunkedLimits,
            ChunkedLimit,
            chunked_limits,
            chunked_limit
        ));
        $crate::body::limits::form!($($cb)::+(form, FormLimits, FormLimit, form_limits, form_limit));
        $crate::body::limits::multipart!($($cb)::+(
            multipart,
            MultipartLimits,
            MultipartLimit,
            multipart_limits,
            multipart_limit
        ));
    };
}
#[cfg(any(feature = "engine-wasm", feature = "component"))]
pub(crate) use every_reader;

/// A reader's public limit types from its table: the `…Limits` struct (its docs and derives
/// given here, each field's from its row) with `Default`, `NAMES`, `get` and `set`; the
/// `…Limit` enum with `name()`; and `kind_name()`, the `limit:` name its error kind's `name()`
/// gives the limit.
macro_rules! declare {
    ((
        $(#[$struct_attr:meta])* pub struct $limits:ident = $path:literal;
        $(#[$enum_attr:meta])* pub enum $limit:ident;
        $(#[$name_attr:meta])* pub const fn name;
    )
    { $( $(#[$doc:meta])* $field:ident ($variant:ident, $wit:ident): $ty:ty = $default:expr ),+ $(,)? }
    { $( $(#[$extra_doc:meta])* $extra:ident ($extra_wit:ident) = $extra_name:literal ),* $(,)? }) => {
        $(#[$struct_attr])*
        pub struct $limits {
            $( $(#[$doc])* pub $field: $ty, )+
        }

        $crate::body::limits::by_name!($limits, $path, [$($field),+]);

        impl Default for $limits {
            fn default() -> Self {
                $limits { $($field: $default,)+ }
            }
        }

        $(#[$enum_attr])*
        pub enum $limit {
            $(
                #[doc = concat!("[`", stringify!($limits), "::", stringify!($field), "`].")]
                $variant,
            )+
            $( $(#[$extra_doc])* $extra, )*
        }

        impl $limit {
            $(#[$name_attr])*
            pub const fn name(self) -> &'static str {
                match self {
                    $( $limit::$variant => stringify!($field), )+
                    $( $limit::$extra => $extra_name, )*
                }
            }

            /// The error kind's name for this limit: `limit:` and [`name`](Self::name).
            pub(crate) const fn kind_name(self) -> &'static str {
                match self {
                    $( $limit::$variant => concat!("limit:", stringify!($field)), )+
                    $( $limit::$extra => concat!("limit:", $extra_name), )*
                }
            }
        }
    };
}
pub(crate) use declare;

/// `value` as a limit field's type (`usize` or `u64`).
pub(crate) fn convert<T: Field>(value: u64) -> Result<T, LimitError> {
    T::try_from(value).map_err(|_| LimitError::TooLarge { max: T::MAX })
}

/// A limit field's type, and its largest value as a `u64`.
pub(crate) trait Field: TryFrom<u64> {
    const MAX: u64;
}

impl Field for u64 {
    const MAX: u64 = u64::MAX;
}

impl Field for usize {
    // `usize` is at most 64 bits on every target Rust supports.
    const MAX: u64 = usize::MAX as u64;
}

#[cfg(test)]
mod tests {
    use super::super::{chunked::ChunkedLimits, form::FormLimits, multipart::MultipartLimits};
    use alloc::format;

    /// Every field is in the table: as many names as the struct's `Debug` shows fields, each
    /// read back as set.
    #[test]
    fn every_field_by_name() {
        fn check<T: core::fmt::Debug + Default>(
            names: &[&str],
            get: impl Fn(&T, &str) -> Option<u64>,
            set: impl Fn(&mut T, &str, u64) -> Result<(), super::LimitError>,
        ) {
            let debug = format!("{:?}", T::default());
            assert_eq!(debug.matches(": ").count(), names.len(), "{debug}");
            for (i, name) in names.iter().enumerate() {
                assert!(debug.contains(&format!("{name}: ")), "{name} in {debug}");
                let mut limits = T::default();
                set(&mut limits, name, i as u64 + 7).unwrap();
                assert_eq!(get(&limits, name), Some(i as u64 + 7));
            }
            let mut limits = T::default();
            assert_eq!(set(&mut limits, "nope", 1), Err(super::LimitError::Unknown));
        }
        check(
            MultipartLimits::NAMES,
            MultipartLimits::get,
            MultipartLimits::set,
        );
        check(FormLimits::NAMES, FormLimits::get, FormLimits::set);
        check(ChunkedLimits::NAMES, ChunkedLimits::get, ChunkedLimits::set);
    }
}
