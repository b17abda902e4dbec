//! The async multipart/form-data reader: [`Multipart`], its [`Part`]s and their data.
//!
//! The reader's state ([`Shared`]) lives in the [`Multipart`] itself while no part's data has
//! been handed off: a [`Part`] borrows the reader mutably, so the compiler sees to it that one
//! part at a time is read, and a part reads its data straight through that borrow (no lock,
//! no reference count: `Mutex::get_mut`). [`Part::into_stream`] ends that borrow and moves
//! the state into an `Arc<Mutex<_>>` the reader and the stream then share, locked only inside
//! a poll, never across an await; `next_part` then waits for the stream's part to end (or
//! the stream to be dropped) before it reads on. The state is not put behind an `Arc` from
//! the start: the sync reader's memmem searcher makes it 32-byte aligned and 2 KiB large,
//! an allocation the system allocator serves through `posix_memalign` (several thousand
//! instructions a body, more than the rest of reading a small form's header blocks).

use core::future::poll_fn;
use core::task::{Context, Poll};
use std::sync::Mutex;

use bytes::Buf;
use futures_core::Stream;
use http_body::Body;

use super::driver::Driver;
use super::error::{BoxError, Error};
use super::part::Part;
use super::shared::{lock, moved, Head, Shared, State};
use super::BodyStream;
use crate::body::multipart::{boundary, MultipartError, MultipartLimits, MultipartReader, Profile};
use crate::bytes::offset_in;

/// How a [`Multipart`] reads: the profile and the limits, as the sync reader takes them (see
/// [`MultipartReader::new`]). The axum extractor takes it from the request's extensions (an
/// `Extension` layer on the route).
///
/// ```
/// use reqparse::body::multipart::{MultipartLimits, Profile};
/// use reqparse::stream::MultipartConfig;
///
/// let config = MultipartConfig {
///     profile: Profile::Strict,
///     limits: MultipartLimits { max_parts: 4, ..MultipartLimits::default() },
/// };
/// assert_eq!(MultipartConfig::default().profile, Profile::Fetch);
/// # let _ = config;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultipartConfig {
    /// Which rules the body is read by.
    pub profile: Profile,
    /// What the body may make the reader hold or do.
    pub limits: MultipartLimits,
}

/// An async multipart/form-data reader over a stream of chunks (see the
/// [module documentation](super) for the sources it takes and what it copies).
///
/// ```
/// use bytes::Bytes;
/// use reqparse::stream::Multipart;
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// let body = "--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n\
///             --b\r\nContent-Disposition: form-data; name=f; filename=x.txt\r\n\r\nhello\r\n--b--";
/// // Three bytes at a time, as a slow client sends them.
/// let chunks = body.as_bytes().chunks(3).map(|c| Ok::<_, std::io::Error>(Bytes::copy_from_slice(c)));
/// let mut multipart = Multipart::new(futures_util::stream::iter(chunks), b"b")?;
/// let mut names = Vec::new();
/// while let Some(mut part) = multipart.next_part().await? {
///     let mut size = 0;
///     while let Some(chunk) = part.chunk().await? {
///         size += chunk.len();
///     }
///     names.push((part.name().into_owned(), size));
/// }
/// assert_eq!(names, [("a".to_owned(), 1), ("f".to_owned(), 5)]);
/// # Ok::<(), reqparse::stream::Error>(())
/// # }).unwrap();
/// ```
pub struct Multipart<S> {
    pub(super) state: State<S>,
    /// The head of the part handed out last, which its [`Part`] borrows (kept out of the
    /// state: a part reads it without a lock, and a small `Part` is what moves through the
    /// awaits).
    head: Option<Head>,
}

impl<S, B, E> Multipart<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    /// A reader of the body `source` carries, whose boundary (the `boundary` parameter of its
    /// `Content-Type`, unquoted: see [`boundary`]) is `boundary`, by the default profile
    /// ([`Profile::Fetch`]) and limits.
    ///
    /// # Errors
    /// [`Error::ContentType`] with [`MultipartReader::new`]'s error for a boundary it refuses.
    ///
    /// ```
    /// use reqparse::stream::Multipart;
    /// let source = futures_util::stream::empty::<Result<bytes::Bytes, std::io::Error>>();
    /// assert_eq!(Multipart::new(source, b"").unwrap_err().status(), 400);
    /// ```
    pub fn new(source: S, boundary: &[u8]) -> Result<Self, Error> {
        Self::with_config(source, boundary, MultipartConfig::default())
    }

    /// [`new`](Self::new) with a profile and limits.
    ///
    /// # Errors
    /// As [`new`](Self::new); over [`MultipartLimits::max_boundary_bytes`], that limit.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartLimits, Profile};
    /// use reqparse::stream::{Multipart, MultipartConfig};
    /// let config = MultipartConfig { profile: Profile::Lenient, limits: MultipartLimits::default() };
    /// let source = futures_util::stream::empty::<Result<bytes::Bytes, std::io::Error>>();
    /// assert!(Multipart::with_config(source, b"b", config).is_ok());
    /// ```
    pub fn with_config(source: S, boundary: &[u8], config: MultipartConfig) -> Result<Self, Error> {
        let reader = MultipartReader::new(boundary, config.profile, config.limits)
            .map_err(Error::ContentType)?;
        Ok(Multipart {
            head: None,
            state: State::Own(Mutex::new(Shared {
                driver: Driver::new(source, reader),
                open: None,
                detached: false,
                waiter: None,
                queued: None,
                head: None,
            })),
        })
    }

    /// A reader of the body `source` carries, with the boundary read from its `Content-Type`
    /// header value (`multipart/form-data; boundary=…`, by [`boundary`]).
    ///
    /// # Errors
    /// [`Error::ContentType`]: [`boundary`]'s error, or the reader's refusal of the boundary;
    /// each with its offset into `content_type`.
    ///
    /// ```
    /// use reqparse::stream::{Multipart, MultipartConfig};
    /// let source = || futures_util::stream::empty::<Result<bytes::Bytes, std::io::Error>>();
    /// let config = MultipartConfig::default();
    /// assert!(Multipart::from_content_type(source(), b"multipart/form-data; boundary=x", config).is_ok());
    /// let err = Multipart::from_content_type(source(), b"application/json", config).unwrap_err();
    /// assert_eq!((err.status(), err.to_string().as_str()), (415, "Content-Type is not multipart/form-data at byte 0"));
    /// ```
    pub fn from_content_type(
        source: S,
        content_type: &[u8],
        config: MultipartConfig,
    ) -> Result<Self, Error> {
        let b = boundary(content_type).map_err(Error::ContentType)?;
        Self::with_config(source, b, config).map_err(|e| match e {
            // Said where it is in the header value, as `boundary`'s own errors are.
            Error::ContentType(MultipartError { kind, offset, part }) => {
                let at = offset_in(content_type, b).unwrap_or(0) as u64;
                Error::ContentType(MultipartError {
                    kind,
                    offset: at + offset,
                    part,
                })
            }
            other => other,
        })
    }

    /// The next part, once the part before it (what its reader left unread) has been read
    /// past; `None` after the last one (the body's end read, with the source's). Waits while
    /// the part before it was handed off ([`Part::into_stream`]) and its stream is alive and
    /// has not reached the part's end: do not await this on the task that is to drive that
    /// stream.
    ///
    /// # Errors
    /// The body's, the source's; an error is final, and answered again to every later call.
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// // The source ends inside a part: an error at the end of what came, not a wait.
    /// let chunk = bytes::Bytes::from_static(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nunfinished");
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(chunk)]);
    /// let mut multipart = Multipart::new(source, b"b")?;
    /// let part = multipart.next_part().await?.unwrap();
    /// drop(part); // skipped
    /// let err = multipart.next_part().await.unwrap_err();
    /// assert_eq!((err.status(), err.offset()), (400, Some(57)));
    /// assert_eq!(err.to_string(), "multipart body ended early at byte 57 (part 0)");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn next_part(&mut self) -> Result<Option<Part<'_, S>>, Error> {
        // The part before is done with (its borrow has ended): its head goes now.
        self.head = None;
        poll_fn(|cx| self.poll_head(cx)).await?;
        Ok(self.part())
    }

    /// The next part's head into `self.head` (see [`Shared::poll_next_part`]).
    #[inline]
    fn poll_head(&mut self, cx: &mut Context<'_>) -> Poll<Result<bool, Error>> {
        let head = &mut self.head;
        self.state
            .with(
                #[inline(always)]
                |shared| shared.poll_next_part(cx, head),
            )
            .unwrap_or_else(|| Poll::Ready(Err(moved())))
    }

    /// The part whose head is in `self.head`.
    #[inline]
    fn part(&mut self) -> Option<Part<'_, S>> {
        let Multipart { state, head } = self;
        head.as_ref().map(|head| Part::new(state, head))
    }

    /// [`next_part`](Self::next_part) as a poll, for a caller that implements a future or a
    /// stream of its own.
    ///
    /// # Errors
    /// As [`next_part`](Self::next_part).
    ///
    /// ```
    /// # use reqparse::stream::Multipart;
    /// use std::task::{Context, Poll, Waker};
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"--b--"))]);
    /// let mut multipart = Multipart::new(source, b"b")?;
    /// let mut cx = Context::from_waker(Waker::noop());
    /// assert!(matches!(multipart.poll_next_part(&mut cx), Poll::Ready(Ok(None))));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// ```
    pub fn poll_next_part(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Result<Option<Part<'_, S>>, Error>> {
        self.head = None;
        match self.poll_head(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Ready(Ok(_)) => Poll::Ready(Ok(self.part())),
        }
    }
}

impl<D: Body> Multipart<BodyStream<D>>
where
    D::Error: Into<BoxError>,
{
    /// A reader of an [`http_body::Body`] (hyper's `Incoming`, axum's `Body`, …) whose
    /// `Content-Type` header value is `content_type`, by `config`.
    ///
    /// # Errors
    /// As [`from_content_type`](Self::from_content_type).
    ///
    /// ```
    /// use reqparse::stream::{Multipart, MultipartConfig};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let body = http_body_util::Full::new(bytes::Bytes::from_static(
    ///     b"--b\r\nContent-Disposition: form-data; name=q\r\n\r\nrust\r\n--b--\r\n",
    /// ));
    /// let ct = b"multipart/form-data; boundary=b";
    /// let mut multipart = Multipart::from_body(body, ct, MultipartConfig::default())?;
    /// let part = multipart.next_part().await?.unwrap();
    /// let name = part.name().into_owned();
    /// assert_eq!((name, part.text().await?), ("q".to_owned(), "rust".to_owned()));
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn from_body(body: D, content_type: &[u8], config: MultipartConfig) -> Result<Self, Error> {
        Self::from_content_type(BodyStream::new(body), content_type, config)
    }
}

#[cfg(feature = "tokio")]
impl<R: tokio::io::AsyncRead> Multipart<super::ReaderStream<R>> {
    /// A reader of the body `reader` reads (feature `tokio`): a file, a socket, a child
    /// process's stdout. Read in reads of up to 64 KiB, each one chunk whose data the parts
    /// hand out as slices of it.
    ///
    /// # Errors
    /// As [`with_config`](Self::with_config); a failed read is [`Error::Source`].
    ///
    /// ```
    /// use reqparse::stream::{Multipart, MultipartConfig};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// // Any tokio AsyncRead: here a byte slice, as a file or a socket would be read.
    /// let body: &[u8] = b"--b\r\nContent-Disposition: form-data; name=f; filename=a.txt\r\n\r\nhi\r\n--b--";
    /// let mut multipart = Multipart::from_reader(body, b"b", MultipartConfig::default())?;
    /// let part = multipart.next_part().await?.unwrap();
    /// assert_eq!(part.filename().unwrap().as_str(), "a.txt");
    /// assert_eq!(part.bytes().await?, "hi");
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn from_reader(reader: R, boundary: &[u8], config: MultipartConfig) -> Result<Self, Error> {
        Self::with_config(super::reader_stream(reader), boundary, config)
    }
}

impl<S> core::fmt::Debug for Multipart<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let shared = match &self.state {
            State::Own(own) => lock(own),
            State::Shared(shared) => lock(shared),
            State::Moving => return f.debug_struct("Multipart").finish_non_exhaustive(),
        };
        f.debug_struct("Multipart")
            .field("profile", &shared.driver.reader.profile())
            .field("position", &shared.driver.reader.position())
            .field("parts", &shared.driver.reader.parts())
            .finish_non_exhaustive()
    }
}
