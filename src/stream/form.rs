//! The async `application/x-www-form-urlencoded` reader: [`FormPairs`].

use alloc::string::String;
use alloc::vec::Vec;
use core::future::poll_fn;
use core::pin::Pin;
use core::task::{Context, Poll};

use bytes::Buf;
use futures_core::Stream;
use http_body::Body;

use super::driver::Driver;
use super::error::{BoxError, Error};
use super::BodyStream;
use crate::body::form::{FormEvent, FormLimits, FormReader};
use crate::query::Profile;

/// How a [`FormPairs`] reads: the profile (the query decoder's) and the limits, as
/// [`FormReader::new`] takes them. The axum extractor takes it from the request's extensions
/// (an `Extension` layer on the route).
///
/// ```
/// use reqparse::body::form::FormLimits;
/// use reqparse::query::Profile;
/// use reqparse::stream::FormConfig;
/// let config = FormConfig { profile: Profile::Strict, limits: FormLimits { max_pairs: 8, ..FormLimits::default() } };
/// assert_eq!(FormConfig::default().profile, Profile::Whatwg);
/// # let _ = config;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormConfig {
    /// How names and values are decoded, and what is refused.
    pub profile: Profile,
    /// What the body may make the reader hold or do.
    pub limits: FormLimits,
}

/// The decoded pairs of an urlencoded body that arrives as a stream of chunks: a [`Stream`]
/// of `(name, value)`, or all of them at once with [`collect`](Self::collect). Holds at most
/// one pair cut by a chunk (its name and value limits cap it); the pairs are bounded by
/// [`FormLimits::max_pairs`].
///
/// ```
/// use bytes::Bytes;
/// use reqparse::stream::FormPairs;
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
/// # }
/// # block_on(async {
/// let chunks = [&b"name=Jos%C3"[..], b"%A9&city=S%C3%A3o+Pau", b"lo"];
/// let source = futures_util::stream::iter(chunks.map(|c| Ok::<_, std::io::Error>(Bytes::from_static(c))));
/// let pairs = FormPairs::new(source).collect().await?;
/// assert_eq!(pairs, [("name".into(), "José".into()), ("city".into(), "São Paulo".into())]);
/// # Ok::<(), reqparse::stream::Error>(())
/// # }).unwrap();
/// ```
pub struct FormPairs<S> {
    driver: Driver<S, FormReader>,
    /// The end was read, or an error answered: the stream has ended.
    done: bool,
}

impl<S> core::fmt::Debug for FormPairs<S> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FormPairs")
            .field("position", &self.driver.reader.position())
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<S, B, E> FormPairs<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    /// The pairs of the body `source` carries, by the default profile
    /// ([`Profile::Whatwg`]) and limits.
    ///
    /// ```
    /// let source = futures_util::stream::empty::<Result<bytes::Bytes, std::io::Error>>();
    /// let pairs = reqparse::stream::FormPairs::new(source);
    /// # let _ = pairs;
    /// ```
    pub fn new(source: S) -> Self {
        Self::with_config(source, FormConfig::default())
    }

    /// [`new`](Self::new) with a profile and limits.
    ///
    /// ```
    /// use reqparse::body::form::FormLimits;
    /// use reqparse::query::Profile;
    /// use reqparse::stream::{FormConfig, FormPairs};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let config = FormConfig { profile: Profile::Whatwg, limits: FormLimits { max_pairs: 1, ..FormLimits::default() } };
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"a=1&b=2"))]);
    /// let err = FormPairs::with_config(source, config).collect().await.unwrap_err();
    /// assert_eq!((err.status(), err.to_string().as_str()), (413, "form body over max_pairs at byte 4"));
    /// # });
    /// ```
    pub fn with_config(source: S, config: FormConfig) -> Self {
        FormPairs {
            driver: Driver::new(source, FormReader::new(config.profile, config.limits)),
            done: false,
        }
    }

    /// The next pair, decoded; `None` at the end of the body (and after an error was
    /// answered).
    ///
    /// # Errors
    /// The body's (a limit, or what the profile refuses, with its offset), the source's.
    ///
    /// ```
    /// # use reqparse::stream::FormPairs;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"q=a+b"))]);
    /// let mut pairs = FormPairs::new(source);
    /// assert_eq!(pairs.next_pair().await?, Some(("q".into(), "a b".into())));
    /// assert_eq!(pairs.next_pair().await?, None);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn next_pair(&mut self) -> Result<Option<(String, String)>, Error> {
        poll_fn(|cx| self.poll_pair(cx)).await
    }

    /// [`next_pair`](Self::next_pair) as a poll.
    ///
    /// # Errors
    /// As [`next_pair`](Self::next_pair).
    ///
    /// ```
    /// use std::task::{Context, Poll, Waker};
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"a"))]);
    /// let mut pairs = reqparse::stream::FormPairs::new(source);
    /// let mut cx = Context::from_waker(Waker::noop());
    /// assert!(matches!(pairs.poll_pair(&mut cx), Poll::Ready(Ok(Some((n, v)))) if n == "a" && v.is_empty()));
    /// ```
    pub fn poll_pair(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<Result<Option<(String, String)>, Error>> {
        loop {
            if self.done {
                return Poll::Ready(Ok(None));
            }
            let event = self.driver.poll_event(cx, |event, _| match event {
                FormEvent::Pair(pair) => Some((String::from(pair.name), String::from(pair.value))),
                FormEvent::End => None,
            });
            return match event {
                Poll::Pending => Poll::Pending,
                Poll::Ready(Ok(Some(Some(pair)))) => Poll::Ready(Ok(Some(pair))),
                Poll::Ready(Ok(_)) => {
                    self.done = true;
                    continue;
                }
                Poll::Ready(Err(e)) => {
                    self.done = true;
                    Poll::Ready(Err(e))
                }
            };
        }
    }

    /// Every pair of the body, in order (at most [`FormLimits::max_pairs`]).
    ///
    /// # Errors
    /// As [`next_pair`](Self::next_pair).
    ///
    /// ```
    /// # use reqparse::stream::FormPairs;
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let source = futures_util::stream::iter([Ok::<_, std::io::Error>(bytes::Bytes::from_static(b"a=1&&b=%41"))]);
    /// assert_eq!(FormPairs::new(source).collect().await?, [("a".into(), "1".into()), ("b".into(), "A".into())]);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn collect(mut self) -> Result<Vec<(String, String)>, Error> {
        let mut pairs = Vec::new();
        while let Some(pair) = self.next_pair().await? {
            pairs.push(pair);
        }
        Ok(pairs)
    }
}

impl<D: Body> FormPairs<BodyStream<D>>
where
    D::Error: Into<BoxError>,
{
    /// The pairs of an [`http_body::Body`].
    ///
    /// ```
    /// use reqparse::stream::{FormConfig, FormPairs};
    /// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
    /// #     let mut f = std::pin::pin!(f);
    /// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    /// #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out } }
    /// # }
    /// # block_on(async {
    /// let body = http_body_util::Full::new(bytes::Bytes::from_static(b"x=1"));
    /// let pairs = FormPairs::from_body(body, FormConfig::default()).collect().await?;
    /// assert_eq!(pairs, [("x".into(), "1".into())]);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn from_body(body: D, config: FormConfig) -> Self {
        Self::with_config(BodyStream::new(body), config)
    }
}

#[cfg(feature = "tokio")]
impl<R: tokio::io::AsyncRead> FormPairs<super::ReaderStream<R>> {
    /// The pairs of the body `reader` reads (feature `tokio`), in reads of up to 64 KiB.
    ///
    /// ```
    /// use reqparse::stream::{FormConfig, FormPairs};
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let body: &[u8] = b"q=rust+forms&lang=en";
    /// let pairs = FormPairs::from_reader(body, FormConfig::default()).collect().await?;
    /// assert_eq!(pairs, [("q".into(), "rust forms".into()), ("lang".into(), "en".into())]);
    /// # Ok::<(), reqparse::stream::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn from_reader(reader: R, config: FormConfig) -> Self {
        Self::with_config(super::reader_stream(reader), config)
    }
}

impl<S, B, E> Stream for FormPairs<S>
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    type Item = Result<(String, String), Error>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.get_mut().poll_pair(cx).map(Result::transpose)
    }
}
