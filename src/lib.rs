//! reqparse: allocation-free parsing of the parts of an HTTP request that servers touch most.
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

extern crate alloc;

/// `Profile::ALL`, `as_str`, `Display` and `FromStr` for a module's `Profile`, from one list of
/// names (the default first): the name every face uses (CLI flag, JSON vectors, WIT, JS).
macro_rules! profile_names {
    ($($module:ident)::+: $first:ident => $first_name:literal $(, $variant:ident => $name:literal)* $(,)?) => {
        impl Profile {
            /// Every profile, the default first.
            ///
            /// ```
            #[doc = concat!("use reqparse::", stringify!($($module)::+), "::Profile;")]
            /// assert_eq!(Profile::ALL[0], Profile::default());
            /// ```
            pub const ALL: [Profile; [$first_name $(, $name)*].len()] =
                [Profile::$first $(, Profile::$variant)*];

            #[doc = concat!(
                "The profile's name in every face (CLI flag, JSON vectors, WIT, JS): `",
                $first_name $(, "`, `", $name)*, "`."
            )]
            ///
            /// ```
            #[doc = concat!("use reqparse::", stringify!($($module)::+), "::Profile;")]
            #[doc = concat!("assert_eq!(Profile::", stringify!($first), ".as_str(), \"", $first_name, "\");")]
            #[doc = concat!("assert_eq!(\"", $first_name, "\".parse::<Profile>(), Ok(Profile::", stringify!($first), "));")]
            /// assert!("nope".parse::<Profile>().is_err());
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    Profile::$first => $first_name,
                    $(Profile::$variant => $name,)*
                }
            }
        }

        impl core::fmt::Display for Profile {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl core::str::FromStr for Profile {
            type Err = $crate::UnknownProfile;

            /// Parses a name written by [`Profile::as_str`] (exactly, lowercase).
            fn from_str(name: &str) -> Result<Self, Self::Err> {
                // The names are `as_str`'s, so the two cannot drift apart.
                Profile::ALL
                    .into_iter()
                    .find(|p| p.as_str() == name)
                    .ok_or($crate::UnknownProfile {
                        expected: concat!($first_name $(, ", ", $name)*),
                    })
            }
        }
    };
}
pub(crate) use profile_names;

pub mod body;
pub mod disposition;
pub mod percent;
pub mod query;
pub mod uri;

// Trait impls and adapters for other crates (features `serde`, `http`).
#[cfg(any(feature = "serde", feature = "http"))]
pub mod interop;

// Crate-private: class-table builders and checked slicing shared by the core parsers.
mod bytes;

// Not core: shared by the host shim and the component guest, so both answer alike.
#[cfg(feature = "inspect")]
pub mod inspect;

#[cfg(feature = "host")]
pub mod host;

#[cfg(feature = "engine-wasm")]
pub mod engine;

#[cfg(all(feature = "component", feature = "js", target_arch = "wasm32"))]
compile_error!("the `component` and `js` features are exclusive on wasm32: build them separately");

// The component (`component`) and npm (`js`) exports. wasm32 only: export names contain `:`,
// which native linkers reject.
#[cfg(all(any(feature = "component", feature = "js"), target_arch = "wasm32"))]
mod faces;

/// A profile name that is not one of the module's profiles (`"whatwg"`, `"dotnet"`,
/// `"strict"` for [`query::Profile`]; `"strict"`, `"browser"`, `"dotnet"` for
/// [`disposition::Profile`]).
///
/// ```
/// let err = "WHATWG".parse::<reqparse::query::Profile>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown profile (expected one of: whatwg, dotnet, strict)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnknownProfile {
    /// The names that would have been accepted, comma-separated.
    pub expected: &'static str,
}

impl core::fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unknown profile (expected one of: {})", self.expected)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownProfile {}

// The README's examples are compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
