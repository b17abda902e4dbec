//! Async readers (feature `async`): the body readers over a [`Stream`] of chunks, as Rust
//! servers get bodies (hyper's and axum's `Body`, actix-web's `Payload`, warp's body stream).
//!
//! - [`Multipart`]: multipart/form-data, part by part: [`Multipart::next_part`] hands out a
//!   [`Part`] (its header block parsed, as [`body::multipart::Part`](crate::body::multipart::Part)
//!   views it) whose data comes as [`Bytes`] from [`Part::chunk`], or as a [`Stream`]; a part
//!   dropped unread is skipped, and [`Part::into_stream`] hands the data off as a `'static`
//!   stream that still drives the reader.
//! - [`FormPairs`]: `application/x-www-form-urlencoded` pairs, decoded, one by one or
//!   [`collect`](FormPairs::collect)ed.
//!
//! The source is any `Stream<Item = Result<B, E>>` whose chunks `B` are [`Buf`]s (`Bytes`,
//! `BytesMut`, `&'static [u8]`, `http_body`'s data frames) and whose error converts into a
//! [`BoxError`]; or an [`http_body::Body`] ([`Multipart::from_body`], [`FormPairs::from_body`],
//! through [`BodyStream`]); or, with the feature `tokio`, a tokio `AsyncRead` (a file, a
//! socket, a child's stdout: [`Multipart::from_reader`], [`FormPairs::from_reader`], through
//! tokio-util's [`ReaderStream`], 64 KiB reads). A stream of `Vec<u8>` can be mapped through
//! `Bytes::from` first.
//!
//! **Zero copy.** When the chunks are `Bytes` (or `BytesMut`), a part's data is handed out as
//! `Bytes::slice`s of the chunks that carried it: the same allocation, no copy. Two things are
//! copied, each bounded:
//!
//! - what the reader must hold across chunks (the first bytes of what may be a delimiter at
//!   the end of a chunk, an incomplete header block, a pair cut by a chunk), bounded by the
//!   reader's limits ([`MultipartLimits`], [`FormLimits`]); a header block that arrived in one
//!   chunk is a slice of it too;
//! - tiny chunks that arrive together: a chunk under 256 bytes, when the source has the next
//!   chunk ready as soon as it is asked, is copied with the chunks under 256 bytes ready after
//!   it into one buffer of at most 4 KiB, which is then read as one chunk (its data handed out
//!   as slices of that buffer). A byte copied costs far less than a reader step and a `Bytes`
//!   per tiny chunk (a client that writes a byte at a time). A chunk of 256 bytes or more is
//!   never gathered, nor is a small one that the source answers `Pending` after.
//!
//! Each source's chunk of 256 bytes or more is read where it is.
//!
//! **Errors** are [`Error`]s: the body's (with its byte offset, as the sync readers report
//! it), the `Content-Type`'s, or the source's; each says whether it is a limit (413) or
//! malformed input (400). An error is final: the reader answers it again to every later poll,
//! and a source that ended early is an error ([`MultipartErrorKind::UnexpectedEnd`]), never a
//! reader that waits forever.
//!
//! A plain `futures` stream of `Bytes` (what actix-web's `Payload` and warp's body are)
//! feeds the reader as it is:
//!
//! ```
//! use bytes::Bytes;
//! use reqparse::stream::Multipart;
//!
//! # fn block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let mut f = std::pin::pin!(f);
//! #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
//! #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
//! # }
//! # block_on(async {
//! let chunks: Vec<Result<Bytes, std::io::Error>> = vec![
//!     Ok(Bytes::from_static(b"--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHol")),
//!     Ok(Bytes::from_static(b"iday\r\n--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; ")),
//!     Ok(Bytes::from_static(b"filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\r\n--XyZ--\r\n")),
//! ];
//! let source = futures_util::stream::iter(chunks); // an actix-web `Payload` in a handler
//! let mut multipart = Multipart::new(source, b"XyZ")?;
//! let mut title = multipart.next_part().await?.unwrap();
//! assert_eq!(title.name(), "title");
//! assert_eq!(title.text().await?, "Holiday");
//! let photo = multipart.next_part().await?.unwrap();
//! assert_eq!(photo.filename().unwrap().basename(), "a.jpg");
//! assert_eq!(photo.content_type(), Some(&b"image/jpeg"[..]));
//! assert_eq!(photo.bytes().await?, &b"\xff\xd8\xff"[..]);
//! assert!(multipart.next_part().await?.is_none());
//! # Ok::<(), reqparse::stream::Error>(())
//! # }).unwrap();
//! ```
//!
//! [`MultipartErrorKind::UnexpectedEnd`]: crate::body::multipart::MultipartErrorKind::UnexpectedEnd
//! [`MultipartLimits`]: crate::body::multipart::MultipartLimits
//! [`FormLimits`]: crate::body::form::FormLimits
//! [`Buf`]: bytes::Buf
#![forbid(unsafe_code)]

use core::pin::Pin;
use core::task::{Context, Poll};

use alloc::boxed::Box;
pub use bytes::Bytes;
pub use futures_core::Stream;
use http_body::Body;

mod driver;
mod error;
mod form;
mod multipart;
mod part;
mod shared;

pub use error::{BoxError, Error};
pub use form::{FormConfig, FormPairs};
pub use multipart::{Multipart, MultipartConfig};
pub use part::{Part, PartStream};
/// tokio-util's stream of an `AsyncRead`'s reads as [`Bytes`], which the readers'
/// `from_reader` constructors read through.
#[cfg(feature = "tokio")]
pub use tokio_util::io::ReaderStream;

/// The bytes an `AsyncRead` source is read in at most: each read is one chunk, whose data the
/// readers hand out as slices of it.
#[cfg(feature = "tokio")]
const READ_BYTES: usize = 64 * 1024;

/// `reader` as the readers' source: 64 KiB reads.
#[cfg(feature = "tokio")]
fn reader_stream<R: tokio::io::AsyncRead>(reader: R) -> ReaderStream<R> {
    ReaderStream::with_capacity(reader, READ_BYTES)
}

/// The data frames of an [`http_body::Body`] as a [`Stream`] (trailers are skipped): how
/// [`Multipart::from_body`] and [`FormPairs::from_body`] read a body. The body is boxed once,
/// so any body will do, `Unpin` or not.
///
/// ```
/// use reqparse::stream::{BodyStream, Stream};
/// let body = http_body_util::Full::new(bytes::Bytes::from_static(b"a=1"));
/// let stream = BodyStream::new(body);
/// assert_eq!(stream.size_hint(), (0, None));
/// ```
pub struct BodyStream<B> {
    body: Pin<Box<B>>,
}

impl<B> BodyStream<B> {
    /// The data frames of `body`.
    ///
    /// ```
    /// let stream = reqparse::stream::BodyStream::new(http_body_util::Empty::<bytes::Bytes>::new());
    /// # let _ = stream;
    /// ```
    pub fn new(body: B) -> Self {
        BodyStream {
            body: Box::pin(body),
        }
    }
}

impl<B> core::fmt::Debug for BodyStream<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("BodyStream").finish_non_exhaustive()
    }
}

impl<B: Body> Stream for BodyStream<B> {
    type Item = Result<B::Data, B::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            let frame = match self.body.as_mut().poll_frame(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Some(Err(e))),
                Poll::Ready(Some(Ok(frame))) => frame,
            };
            // A trailers frame (HTTP/2, chunked): not the body's bytes.
            if let Ok(data) = frame.into_data() {
                return Poll::Ready(Some(Ok(data)));
            }
        }
    }
}
