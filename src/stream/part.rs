//! A part of a multipart body ([`Part`]) and its data handed off ([`PartStream`]): a part
//! reads its data through its borrow of the [`Multipart`] reader, a stream through the state
//! it shares with the reader, one poll for data at a time.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::sync::Arc;
use core::future::poll_fn;
use core::pin::Pin;
use core::task::{Context, Poll};
use std::sync::Mutex;

use bytes::{Buf, Bytes, BytesMut};
use futures_core::Stream;

use super::error::{BoxError, Error};
use super::shared::{lock, moved, Head, Shared, State};
#[cfg(doc)]
use super::Multipart;
use crate::body::multipart::{self as sync, Filename, Headers};
#[cfg(doc)]
use crate::body::multipart::{MultipartLimits, MultipartReader};
use crate::disposition::{ContentDisposition, DispositionError};

/// A part of a multipart body: its header block, parsed (the views of
/// [`body::multipart::Part`](sync::Part)), and its data, read as it arrives with
/// [`chunk`](Self::chunk) or as a [`Stream`] of [`Bytes`]. Dropping a part skips what is left
/// of its data (the next [`Multipart::next_part`] reads past it).
///
/// ```
/// use reqparse::stream::Multipart;
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=\"doc\"; \
///     filename=\"C:\\tmp\\CON.txt\"\r\nContent-Type: text/plain\r\nX-Note: hi\r\n\r\nabc\r\n--b--");
/// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
/// let part = multipart.next_part().await?.unwrap();
/// assert_eq!((part.index(), part.name()), (0, "doc".into()));
/// let filename = part.filename().unwrap();
/// assert_eq!(filename.as_str(), r"C:\tmp\CON.txt");
/// assert_eq!((filename.basename(), filename.portable().as_str()), ("CON.txt", "_CON.txt"));
/// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
/// assert_eq!(part.headers().nth(2), Some((&b"X-Note"[..], &b"hi"[..])));
/// # Ok::<(), reqparse::stream::Error>(())
/// # }).unwrap();
/// ```
pub struct Part<'r, S> {
    /// Its head, in the reader.
    head: &'r Head,
    /// The reader's state, which the part's data is read through: one part at a time.
    state: &'r mut State<S>,
    /// The part's data has ended (or an error was answered).
    done: bool,
}

impl<S> core::fmt::Debug for Part<'_, S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Part")
            .field("index", &self.index())
            .field("name", &self.name())
            .field("filename", &self.filename().map(Filename::into_cow))
            .finish_non_exhaustive()
    }
}

impl<'r, S> Part<'r, S> {
    #[inline]
    pub(super) fn new(state: &'r mut State<S>, head: &'r Head) -> Self {
        Part {
            head,
            state,
            done: false,
        }
    }

    /// The sync reader's view of the part's header block, for what this type does not
    /// forward ([`header_block`](sync::Part::header_block), …).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.view().header_block(), b"Content-Disposition: form-data; name=a\r\n");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn view(&self) -> sync::Part<'_> {
        self.head.view()
    }

    /// The `name` parameter as text ([`body::multipart::Part::name`](sync::Part::name)).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=\"caf\xc3\xa9\"\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.name(), "café");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn name(&self) -> Cow<'_, str> {
        self.view().name()
    }

    /// The `name` parameter's bytes as written
    /// ([`body::multipart::Part::name_bytes`](sync::Part::name_bytes)).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.name_bytes(), b"a%22b");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn name_bytes(&self) -> &[u8] {
        self.view().name_bytes()
    }

    /// The filename, when the part is a file: the effective one
    /// ([`as_str`](Filename::as_str): RFC 6266 §4.3, a `filename*` that decodes first), and
    /// [`raw`](Filename::raw), [`basename`](Filename::basename) and
    /// [`portable`](Filename::portable).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f; filename=\"../../x.sh\"; filename*=UTF-8''%E2%82%AC.txt\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// let filename = part.filename().unwrap();
    /// assert_eq!((filename.as_str(), filename.raw()), ("€.txt", &b"../../x.sh"[..]));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn filename(&self) -> Option<Filename<'_>> {
        // Most parts have none: answered without building a view.
        if !self.head.part.has_filename() {
            return None;
        }
        self.view().filename()
    }

    /// The `Content-Type` value as sent, without surrounding whitespace
    /// ([`body::multipart::Part::content_type`](sync::Part::content_type)).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\nContent-Type: image/png\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.content_type(), Some(&b"image/png"[..]));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn content_type(&self) -> Option<&[u8]> {
        self.view().content_type()
    }

    /// The `Content-Disposition`, for its other parameters
    /// ([`body::multipart::Part::disposition`](sync::Part::disposition)).
    ///
    /// # Errors
    /// None in practice (it parsed when the part was read).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a; size=3\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.disposition().unwrap().size(), Some(Ok(3)));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn disposition(&self) -> Result<ContentDisposition<'_>, DispositionError> {
        self.view().disposition()
    }

    /// The header fields as sent, `(name, value)`, in order
    /// ([`body::multipart::Part::headers`](sync::Part::headers)).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\nX-Trace:  7 \r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// let fields: Vec<_> = part.headers().collect();
    /// assert_eq!(fields[1], (&b"X-Trace"[..], &b"7"[..]));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn headers(&self) -> Headers<'_> {
        self.view().headers()
    }

    /// The part's number, from 0.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// assert_eq!(multipart.next_part().await?.unwrap().index(), 0);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn index(&self) -> usize {
        self.head.part.index()
    }

    /// Where the part's header block starts, in bytes from the start of the body.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// assert_eq!(multipart.next_part().await?.unwrap().offset(), 5);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn offset(&self) -> u64 {
        self.head.part.offset()
    }

    /// Sets this part's data limit, decided from its headers (its name, filename, type): in
    /// place of [`MultipartLimits::max_file_bytes`] or [`MultipartLimits::max_value_bytes`],
    /// lower or higher ([`MultipartReader::limit_part`](crate::body::multipart::MultipartReader::limit_part));
    /// data past it is answered
    /// [`MultipartLimit::PartBytes`](crate::body::multipart::MultipartLimit::PartBytes)
    /// (413). Answers `false`, and changes nothing, once the part's data has ended.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=avatar; \
    ///     filename=a.png\r\n\r\n0123456789\r\n--b--");
    /// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let mut part = multipart.next_part().await?.unwrap();
    /// if part.name() == "avatar" {
    ///     assert!(part.set_limit(8));
    /// }
    /// let err = part.bytes().await.unwrap_err();
    /// assert_eq!((err.status(), err.part()), (413, Some(0)));
    /// assert_eq!(err.to_string(), "multipart body over max_part_bytes at byte 76 (part 0)");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn set_limit(&mut self, max_bytes: u64) -> bool {
        let index = self.head.part.index();
        !self.done
            && self.state.with(|shared| {
                shared.open == Some(index) && shared.driver.reader.limit_part(max_bytes)
            }) == Some(true)
    }

    /// Skips the rest of this part's data: the reader reads past it without handing it out
    /// and without its part limits (only [`MultipartLimits::max_body_bytes`] bounds it, and a
    /// skipped value does not count against [`MultipartLimits::max_text_bytes`]): a part the
    /// application refuses by its headers (busboy's `file.resume()`, multer's `fileFilter`).
    /// Dropping a part also skips what is left of it, but reads it under its limits.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f; filename=x.exe\r\n\r\nMZ\r\n\
    ///     --b\r\nContent-Disposition: form-data; name=g\r\n\r\n1\r\n--b--");
    /// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// if part.filename().is_some_and(|f| f.as_str().ends_with(".exe")) {
    ///     part.skip();
    /// }
    /// assert_eq!(multipart.next_part().await?.unwrap().name(), "g");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn skip(self) {
        let index = self.head.part.index();
        if !self.done {
            self.state.with(|shared| {
                if shared.open == Some(index) {
                    shared.driver.reader.skip_part();
                }
            });
        }
    }
}

impl<S, B, E> Part<'_, S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    /// The next piece of the part's data, in order, as a slice of the source's chunk that
    /// carried it (see the [module documentation](super)); `None` once the part's data has
    /// ended (and after an error was answered).
    ///
    /// # Errors
    /// The body's (a limit: [`MultipartLimits::max_value_bytes`] for a part without a
    /// filename, what [`MultipartLimits::max_body_bytes`] leaves for a file), the source's.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\nPK\x03\x04\r\n--b--");
    /// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body.clone())]), b"b")?;
    /// let mut part = multipart.next_part().await?.unwrap();
    /// let data = part.chunk().await?.unwrap();
    /// assert_eq!(data, &b"PK\x03\x04"[..]);
    /// // The source's own bytes: no copy.
    /// assert_eq!(data.as_ptr(), body[body.len() - 11..].as_ptr());
    /// assert_eq!(part.chunk().await?, None);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, Error> {
        poll_fn(|cx| self.poll_chunk(cx)).await
    }

    /// [`chunk`](Self::chunk) as a poll.
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// use std::task::{Context, Poll, Waker};
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let mut part = multipart.next_part().await?.unwrap();
    /// let mut cx = Context::from_waker(Waker::noop());
    /// assert!(matches!(part.poll_chunk(&mut cx), Poll::Ready(Ok(Some(d))) if d == "1"));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    #[inline]
    pub fn poll_chunk(&mut self, cx: &mut Context<'_>) -> Poll<Result<Option<Bytes>, Error>> {
        if self.done {
            return Poll::Ready(Ok(None));
        }
        let index = self.head.part.index();
        let polled = self
            .state
            .with(
                #[inline(always)]
                |shared| shared.poll_data(index, cx),
            )
            .unwrap_or_else(|| Poll::Ready(Err(moved())));
        if let Poll::Ready(Err(_) | Ok(None)) = &polled {
            self.done = true;
        }
        polled
    }

    /// All of the part's data, as one `Bytes`: the one chunk's slice when it came in one (no
    /// copy), else the pieces joined. Bounded by the part's limit
    /// ([`MultipartLimits::max_value_bytes`] for a part without a filename, what
    /// [`MultipartLimits::max_body_bytes`] leaves for a file): read a large file with
    /// [`chunk`](Self::chunk) instead.
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\x00\x01\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.bytes().await?, &b"\x00\x01"[..]);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn bytes(mut self) -> Result<Bytes, Error> {
        let Some(first) = self.chunk().await? else {
            return Ok(Bytes::new());
        };
        let Some(second) = self.chunk().await? else {
            return Ok(first);
        };
        let mut all = BytesMut::with_capacity(first.len() + second.len());
        all.extend_from_slice(&first);
        all.extend_from_slice(&second);
        while let Some(more) = self.chunk().await? {
            all.extend_from_slice(&more);
        }
        Ok(all.freeze())
    }

    /// All of the part's data as text: UTF-8, an invalid sequence replaced by U+FFFD (the
    /// Fetch Standard reads a value's bytes with "UTF-8 decode without BOM"). Bounded as
    /// [`bytes`](Self::bytes) is.
    ///
    /// # Errors
    /// As [`chunk`](Self::chunk).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\ncaf\xc3\xa9 \xff\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.text().await?, "café \u{fffd}");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn text(self) -> Result<String, Error> {
        let bytes = self.bytes().await?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Hands the part's data off as a `'static` stream (when the source is `'static`) that
    /// still drives the reader: for an upload forwarded elsewhere (an object store's client, a
    /// spawned task). The reader's next [`next_part`](Multipart::next_part) waits until the
    /// stream has read the part's end, answered an error, or been dropped (what it left
    /// unread is then skipped).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// use futures_util::StreamExt;
    /// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\nabc\r\n\
    ///     --b\r\nContent-Disposition: form-data; name=g\r\n\r\n1\r\n--b--");
    /// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// let upload = multipart.next_part().await?.unwrap().into_stream();
    /// fn forward(s: impl futures_util::Stream + Send + 'static) -> impl futures_util::Stream { s }
    /// let sent: Vec<_> = forward(upload).collect().await;
    /// assert_eq!(sent.len(), 1);
    /// assert_eq!(multipart.next_part().await?.unwrap().name(), "g");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn into_stream(self) -> PartStream<S> {
        let index = self.head.part.index();
        // The state moves behind an `Arc` now (once a body: see the `multipart` module).
        let shared = self.state.share();
        if let Some(shared) = &shared {
            let mut shared = lock(shared);
            if !self.done && shared.open == Some(index) {
                shared.detached = true;
            }
        }
        PartStream {
            shared,
            index,
            done: self.done,
        }
    }
}

/// A part is the stream of its data (the same stream [`Part::into_stream`] hands off).
impl<S, B, E> Stream for Part<'_, S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_chunk(cx).map(Result::transpose)
    }
}

/// A part's data handed off by [`Part::into_stream`]: a [`Stream`] of [`Bytes`] that owns its
/// share of the reader (`'static` when the source is), for a consumer elsewhere. It ends at
/// the part's end, or after answering an error; dropped early, it leaves the rest to be
/// skipped.
///
/// ```
/// # use reqparse::stream::{Multipart, PartStream};
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// use futures_util::TryStreamExt;
/// let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\nabc\r\n--b--");
/// let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
/// let stream = multipart.next_part().await?.unwrap().into_stream();
/// assert_eq!(stream.index(), 0);
/// let pieces: Vec<bytes::Bytes> = stream.try_collect().await?;
/// assert_eq!(pieces.concat(), b"abc");
/// # Ok::<(), reqparse::stream::Error>(())
/// # }).unwrap();
/// ```
pub struct PartStream<S> {
    /// The state shared with the reader (`None` only when it was away: see
    /// `multipart::State::Moving`).
    shared: Option<Arc<Mutex<Shared<S>>>>,
    index: usize,
    /// The part's data has ended, or an error was answered (a stream that answers an error
    /// then ends, so that no consumer loops on it).
    done: bool,
}

impl<S> PartStream<S> {
    /// The number of the part whose data this is, from 0.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// # let body = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\r\n--b--");
    /// # let mut multipart = Multipart::new(futures_util::stream::iter([Ok::<_, std::io::Error>(body)]), b"b")?;
    /// assert_eq!(multipart.next_part().await?.unwrap().into_stream().index(), 0);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<S> core::fmt::Debug for PartStream<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PartStream")
            .field("index", &self.index)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<S, B, E> Stream for PartStream<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    type Item = Result<Bytes, Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if this.done {
            return Poll::Ready(None);
        }
        let polled = match &this.shared {
            Some(shared) => lock(shared).poll_data(this.index, cx),
            None => Poll::Ready(Err(moved())),
        };
        if let Poll::Ready(Err(_) | Ok(None)) = &polled {
            this.done = true;
        }
        polled.map(Result::transpose)
    }
}

impl<S> Drop for PartStream<S> {
    fn drop(&mut self) {
        let Some(shared) = &self.shared else {
            return;
        };
        let mut shared = lock(shared);
        if shared.open == Some(self.index) && shared.detached {
            // Let `next_part` read on: it skips what this stream left.
            shared.detached = false;
            if let Some(waiter) = shared.waiter.take() {
                waiter.wake();
            }
        }
    }
}
