//! Each reader's limits by name: the one table every face reads them from (the CLI's
//! `--limit NAME=VALUE` and its help, the npm options, the component's records), so that a
//! limit is spelled where it is declared and nowhere else.

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
