//! axum extractors (feature `axum`, axum 0.8): [`Multipart`] reads a `multipart/form-data`
//! body part by part as it arrives ([`crate::stream::Multipart`] over axum's `Body`), and
//! [`Form`] collects an urlencoded body's pairs.
//!
//! Limits and profile are set per route with an `Extension` layer holding a
//! [`MultipartConfig`] or a [`FormConfig`] (the defaults without one). A refused request is
//! answered by [`Rejection`]: `413` for a limit, `415` for another media type, `400` for a
//! malformed body, each with the error's text (its byte offset included). These limits are
//! the reader's own and count every byte (`max_body_bytes`); axum's `DefaultBodyLimit` is not
//! applied on top of them.
//!
//! ```no_run
//! use axum::{routing::post, Extension, Router};
//! use reqparse::axum::{Multipart, MultipartConfig};
//! use reqparse::body::multipart::MultipartLimits;
//!
//! async fn upload(mut multipart: Multipart) -> Result<String, reqparse::axum::Rejection> {
//!     let mut total = 0;
//!     while let Some(mut part) = multipart.next_part().await? {
//!         while let Some(chunk) = part.chunk().await? {
//!             total += chunk.len();
//!         }
//!     }
//!     Ok(format!("{total} bytes"))
//! }
//!
//! let limits = MultipartLimits { max_body_bytes: 8 << 20, max_parts: 16, ..Default::default() };
//! let app: Router = Router::new().route(
//!     "/upload",
//!     post(upload).layer(Extension(MultipartConfig { limits, ..Default::default() })),
//! );
//! # let _ = app;
//! ```
#![forbid(unsafe_code)]

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use ::axum::body::Body;
use ::axum::extract::{FromRequest, Request};
use ::axum::http::{header, StatusCode};
use ::axum::response::{IntoResponse, Response};

use crate::stream::{self, BodyStream};
pub use crate::stream::{Error, FormConfig, MultipartConfig};

/// A `multipart/form-data` request body, read part by part as it arrives: the extractor
/// (axum's `FromRequest`; take it as the handler's last argument, it consumes the body).
/// The boundary comes from the request's `Content-Type`; the profile and limits from a
/// [`MultipartConfig`] in its extensions (an `Extension` layer), else the defaults.
///
/// ```
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// use axum::extract::FromRequest;
/// use reqparse::axum::Multipart;
///
/// let request = axum::http::Request::post("/")
///     .header("content-type", "multipart/form-data; boundary=b")
///     .body(axum::body::Body::from("--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--"))?;
/// let mut multipart = Multipart::from_request(request, &()).await?;
/// let part = multipart.next_part().await?.unwrap();
/// assert_eq!((part.name().into_owned(), part.text().await?), ("a".to_owned(), "1".to_owned()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
pub type Multipart = stream::Multipart<BodyStream<Body>>;

/// A part of a [`Multipart`] request body ([`stream::Part`] over axum's `Body`).
///
/// ```
/// async fn first_name(mut multipart: reqparse::axum::Multipart) -> Option<String> {
///     let part: reqparse::axum::Part<'_> = multipart.next_part().await.ok()??;
///     Some(part.name().into_owned())
/// }
/// # let _ = first_name;
/// ```
pub type Part<'r> = stream::Part<'r, BodyStream<Body>>;

/// A [`Part`]'s data handed off ([`stream::PartStream`] over axum's `Body`).
///
/// ```
/// fn forward(data: reqparse::axum::PartStream) -> axum::body::Body {
///     axum::body::Body::from_stream(data)
/// }
/// # let _ = forward;
/// ```
pub type PartStream = stream::PartStream<BodyStream<Body>>;

impl<St: Send + Sync> FromRequest<St> for Multipart {
    type Rejection = Rejection;

    async fn from_request(req: Request, _state: &St) -> Result<Self, Rejection> {
        let config: MultipartConfig = route_config(&req);
        // The head and the body apart: the reader reads the boundary from the header value
        // where it is (no copy of it per request).
        let (head, body) = req.into_parts();
        let content_type = head
            .headers
            .get(header::CONTENT_TYPE)
            .map_or(&b""[..], |v| v.as_bytes());
        Ok(Multipart::from_body(body, content_type, config)?)
    }
}

/// An `application/x-www-form-urlencoded` request body, decoded: its pairs in order. The
/// extractor reads the whole body (bounded by the [`FormConfig`]'s limits, from the request's
/// extensions, else the defaults); a request of another media type is refused with 415.
///
/// ```
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// use axum::extract::FromRequest;
/// use reqparse::axum::Form;
///
/// let request = axum::http::Request::post("/")
///     .header("content-type", "application/x-www-form-urlencoded")
///     .body(axum::body::Body::from("q=rust+forms&lang=en"))?;
/// let Form(pairs) = Form::from_request(request, &()).await?;
/// assert_eq!(pairs[0], ("q".to_owned(), "rust forms".to_owned()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// # }).unwrap();
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form(pub Vec<(String, String)>);

/// The media type [`Form`] reads.
const FORM_TYPE: &str = "application/x-www-form-urlencoded";

impl<St: Send + Sync> FromRequest<St> for Form {
    type Rejection = Rejection;

    async fn from_request(req: Request, _state: &St) -> Result<Self, Rejection> {
        let config: FormConfig = route_config(&req);
        let is_form = req
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| media_type(v.as_bytes()).eq_ignore_ascii_case(FORM_TYPE.as_bytes()));
        if !is_form {
            return Err(Rejection::UnsupportedMediaType {
                expected: FORM_TYPE,
            });
        }
        let pairs = stream::FormPairs::from_body(req.into_body(), config)
            .collect()
            .await?;
        Ok(Form(pairs))
    }
}

/// A `Content-Type` value's media type: before any parameter, without whitespace around it
/// (RFC 9110 §8.3.1).
/// The route's config (its `Extension` layer), or the default.
fn route_config<T: Copy + Default + Send + Sync + 'static>(req: &Request) -> T {
    req.extensions().get::<T>().copied().unwrap_or_default()
}

fn media_type(value: &[u8]) -> &[u8] {
    let end = value.iter().position(|&b| b == b';').unwrap_or(value.len());
    value.get(..end).unwrap_or_default().trim_ascii()
}

/// Why an extractor refused a request, answered as its status with the reason as text.
///
/// ```
/// use axum::response::IntoResponse;
/// use reqparse::axum::Rejection;
/// let response = Rejection::UnsupportedMediaType { expected: "application/x-www-form-urlencoded" }.into_response();
/// assert_eq!(response.status(), 415);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Rejection {
    /// The request's `Content-Type` is not the extractor's media type: 415.
    UnsupportedMediaType {
        /// The media type the extractor reads.
        expected: &'static str,
    },
    /// The body or its `Content-Type` was refused, or its source failed: the status
    /// [`Error::status`] says (413 for a limit, 415 for another media type, else 400).
    Body(Error),
}

impl Rejection {
    /// The status the rejection is answered with.
    ///
    /// ```
    /// use reqparse::axum::Rejection;
    /// let r = Rejection::UnsupportedMediaType { expected: "application/x-www-form-urlencoded" };
    /// assert_eq!(r.status(), axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE);
    /// ```
    pub fn status(&self) -> StatusCode {
        match self {
            Rejection::UnsupportedMediaType { .. } => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Rejection::Body(e) => {
                StatusCode::from_u16(e.status()).unwrap_or(StatusCode::BAD_REQUEST)
            }
        }
    }
}

impl core::fmt::Display for Rejection {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Rejection::UnsupportedMediaType { expected } => {
                write!(f, "expected a request with Content-Type: {expected}")
            }
            Rejection::Body(e) => core::fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for Rejection {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Rejection::UnsupportedMediaType { .. } => None,
            Rejection::Body(e) => Some(e),
        }
    }
}

impl From<Error> for Rejection {
    /// A reader's error, as a handler's `?` converts it.
    fn from(e: Error) -> Self {
        Rejection::Body(e)
    }
}

impl IntoResponse for Rejection {
    fn into_response(self) -> Response {
        (self.status(), self.to_string()).into_response()
    }
}
