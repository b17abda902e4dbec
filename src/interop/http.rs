//! Parsing straight from the [`http`] crate's types (feature `http`), the ones every
//! hyper, axum or tower server holds: the query pairs of a [`Uri`], the `Content-Disposition`
//! of a [`HeaderValue`] or [`HeaderMap`] (read as bytes, so obs-text works), and the absolute
//! URL of a request, through [`RequestExt`] on [`Request`] and [`request::Parts`].
//!
//! ```
//! use http::Request;
//! use reqparse::disposition::Profile;
//! use reqparse::interop::http::RequestExt;
//!
//! let req = Request::post("/upload?q=rust+forms&lang=en")
//!     .header("host", "example.com")
//!     .header("content-disposition", "attachment; filename=\"r\u{e9}sum\u{e9}.pdf\"")
//!     .body(())?;
//! let names: Vec<&str> = req.query_pairs().map(|p| p.name()).collect();
//! assert_eq!(names, ["q", "lang"]);
//! let cd = req.content_disposition(Profile::Strict).expect("the header is there")?;
//! assert_eq!(cd.filename().as_deref(), Some("résumé.pdf"));
//! assert_eq!(req.absolute_url()?, "http://example.com/upload?q=rust+forms&lang=en");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use alloc::string::String;

use ::http::header::{HeaderMap, HeaderValue, CONTENT_DISPOSITION, HOST};
use ::http::{request, Request, Uri};

use crate::disposition::{ContentDisposition, DispositionError, Profile};
use crate::query::{str_pairs, StrPairs};
use crate::uri::{build_absolute, UriError, UriErrorKind};

/// The pairs of a URI's query (none when it has no `?`); allocates nothing.
///
/// ```
/// let uri: http::Uri = "https://example.com/search?q=a+b&page=2".parse()?;
/// let pairs: Vec<(&str, &str)> =
///     reqparse::interop::http::query_pairs(&uri).map(|p| (p.name(), p.value())).collect();
/// assert_eq!(pairs, [("q", "a+b"), ("page", "2")]);
/// # Ok::<(), http::uri::InvalidUri>(())
/// ```
pub fn query_pairs(uri: &Uri) -> StrPairs<'_> {
    str_pairs(uri.query().unwrap_or_default())
}

/// Parses a `Content-Disposition` header value from its bytes: obs-text (a raw UTF-8 or
/// ISO-8859-1 filename, which [`HeaderValue::to_str`] refuses) reads as the parser's
/// [module docs](crate::disposition#header-bytes) say. Allocates nothing.
///
/// # Errors
/// As [`ContentDisposition::parse`].
///
/// ```
/// use http::HeaderValue;
/// use reqparse::disposition::Profile;
/// use reqparse::interop::http::content_disposition;
///
/// // ISO-8859-1 `ä` (0xE4): not visible ASCII, so `to_str` would fail.
/// let value = HeaderValue::from_bytes(b"attachment; filename=\"\xe4.txt\"")?;
/// assert!(value.to_str().is_err());
/// assert_eq!(content_disposition(&value, Profile::Strict)?.filename().as_deref(), Some("ä.txt"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn content_disposition(
    value: &HeaderValue,
    profile: Profile,
) -> Result<ContentDisposition<'_>, DispositionError> {
    ContentDisposition::parse(value.as_bytes(), profile)
}

/// The absolute URL of a request from its URI and headers: the URI's scheme (`http` when the
/// request line had none, as an HTTP/1.1 origin-form target has not: a server behind TLS
/// knows better and can call [`build_absolute`] itself), its authority or else the `Host`
/// header, its path and query; built by [`build_absolute`], so the host is checked, a Unicode
/// host becomes punycode and the path's escapes are normalized. One allocation.
///
/// # Errors
/// As [`build_absolute`]: [`UriErrorKind::EmptyHost`] when there is neither an authority nor
/// a `Host` header, [`UriErrorKind::InvalidHost`] at the first byte of a `Host` header that
/// is not UTF-8 (a UTF-8 one is a Unicode host, written in punycode).
///
/// ```
/// use http::{HeaderMap, HeaderValue, Uri};
/// use reqparse::interop::http::absolute_url;
///
/// let mut headers = HeaderMap::new();
/// headers.insert("host", HeaderValue::from_bytes("b\u{fc}cher.example:8080".as_bytes())?);
/// let uri: Uri = "/a b?x=1".replace(' ', "%20").parse()?;
/// assert_eq!(absolute_url(&uri, &headers)?, "http://xn--bcher-kva.example:8080/a%20b?x=1");
///
/// headers.insert("host", HeaderValue::from_bytes(b"\xff")?);
/// assert_eq!(absolute_url(&uri, &headers).unwrap_err().offset, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn absolute_url(uri: &Uri, headers: &HeaderMap) -> Result<String, UriError> {
    let host = match (uri.authority(), headers.get(HOST)) {
        (Some(authority), _) => authority.as_str(),
        // Bytes, read as UTF-8: a Unicode host then becomes punycode as in `build_absolute`.
        (None, Some(host)) => core::str::from_utf8(host.as_bytes()).map_err(|e| UriError {
            kind: UriErrorKind::InvalidHost,
            offset: e.valid_up_to(),
        })?,
        (None, None) => "",
    };
    // `path_and_query` holds both, the query from its `?`: the query is the rest after the path.
    let (path, query) = match uri.path_and_query() {
        Some(pq) => (
            pq.path(),
            pq.as_str().get(pq.path().len()..).unwrap_or_default(),
        ),
        None => ("", ""),
    };
    build_absolute(
        uri.scheme_str().unwrap_or("http"),
        host,
        "",
        path,
        query,
        "",
    )
}

/// Parsing from a request: implemented for [`Request`] and [`request::Parts`] (what an axum
/// extractor or a hyper service holds).
///
/// ```
/// use reqparse::interop::http::RequestExt;
///
/// let (parts, _body) = http::Request::get("http://h.example/p?a=1").body(())?.into_parts();
/// assert_eq!(parts.query_pairs().next().map(|p| p.value()), Some("1"));
/// assert!(parts.content_disposition(Default::default()).is_none());
/// assert_eq!(parts.absolute_url()?, "http://h.example/p?a=1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait RequestExt {
    /// The query pairs of the request target; see [`query_pairs`].
    ///
    /// ```
    /// use reqparse::interop::http::RequestExt;
    /// let req = http::Request::get("/?q=1").body(())?;
    /// assert_eq!(req.query_pairs().count(), 1);
    /// # Ok::<(), http::Error>(())
    /// ```
    fn query_pairs(&self) -> StrPairs<'_>;

    /// The first `Content-Disposition` header, parsed; `None` without one. See
    /// [`content_disposition`].
    ///
    /// ```
    /// use reqparse::interop::http::RequestExt;
    /// let req = http::Request::post("/").header("Content-Disposition", "inline").body(())?;
    /// assert!(req.content_disposition(Default::default()).unwrap()?.is_inline());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn content_disposition(
        &self,
        profile: Profile,
    ) -> Option<Result<ContentDisposition<'_>, DispositionError>>;

    /// The request's absolute URL; see [`absolute_url`].
    ///
    /// # Errors
    /// As [`absolute_url`].
    ///
    /// ```
    /// use reqparse::interop::http::RequestExt;
    /// let req = http::Request::get("/x").header("Host", "localhost").body(())?;
    /// assert_eq!(req.absolute_url()?, "http://localhost/x");
    /// assert!(http::Request::get("/x").body(())?.absolute_url().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn absolute_url(&self) -> Result<String, UriError>;
}

/// `RequestExt` for a request type, given how `$this` reaches its URI and headers.
macro_rules! request_ext {
    ([$($generic:tt)*] $type:ty, $this:ident => $uri:expr, $headers:expr) => {
        impl<$($generic)*> RequestExt for $type {
            fn query_pairs(&self) -> StrPairs<'_> {
                let $this = self;
                query_pairs($uri)
            }

            fn content_disposition(
                &self,
                profile: Profile,
            ) -> Option<Result<ContentDisposition<'_>, DispositionError>> {
                let $this = self;
                Some(content_disposition($headers.get(CONTENT_DISPOSITION)?, profile))
            }

            fn absolute_url(&self) -> Result<String, UriError> {
                let $this = self;
                absolute_url($uri, $headers)
            }
        }
    };
}

request_ext!([] request::Parts, head => &head.uri, &head.headers);
request_ext!([B] Request<B>, request => request.uri(), request.headers());
