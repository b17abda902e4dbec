//! Which rules a multipart body is read by.

/// Which rules a body is read by; see the [module documentation](super).
///
/// ```
/// use reqparse::body::multipart::Profile;
/// assert_eq!(Profile::default(), Profile::Fetch);
/// assert_eq!("lenient".parse::<Profile>(), Ok(Profile::Lenient));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The Fetch Standard's multipart/form-data parser (WPT `formdata-parsing`, at commit
    /// `59dabd58`).
    #[default]
    Fetch,
    /// RFC 7578 and RFC 2046 §5.1, without preamble or epilogue.
    Strict,
    /// busboy and ASP.NET Core: preamble, epilogue and transport padding allowed; folded
    /// headers (busboy) and bodies whose lines end in LF (Go, werkzeug) read.
    Lenient,
}

crate::profile_names!(body::multipart: Fetch => "fetch", Strict => "strict", Lenient => "lenient");
