//! The one async feed loop: a sans-io reader ([`Decode`]) over a stream of [`Bytes`] chunks,
//! reading each chunk where it is and copying only the bytes the reader holds back.
//!
//! The readers' protocol ([`crate::body::Step`]): bytes not consumed must be fed again,
//! followed by what arrives next. While nothing is held, the reader reads the current chunk
//! itself, and what it hands out are slices of that chunk ([`Locate`] makes them
//! `Bytes::slice`s of it: no copy). When it needs more input with bytes left (a delimiter's
//! first bytes at the end of a chunk, an incomplete header block or pair), those bytes are
//! copied into the window, and the next chunk is appended after them a bounded piece at a
//! time ([`APPEND`]), until the reader has consumed every held byte: it then reads the rest
//! of that chunk where it is again. The window thus holds at most what the reader's limits
//! let it hold back, plus one piece.
//!
//! Chunks under [`SMALL`] bytes that the source has ready one after another are gathered
//! first ([`Driver::poll_source`]): copied into one buffer of at most [`GATHER`] bytes, which
//! is then "the chunk" above. The reader then steps once per gathered buffer, not once per
//! tiny chunk.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::pin::Pin;
use core::task::{Context, Poll};

use bytes::{Buf, BufMut, Bytes, BytesMut};
use futures_core::Stream;

use super::error::{BoxError, Error};
use crate::body::form::FormReader;
use crate::body::multipart::{MultipartError, MultipartErrorKind, MultipartReader};
use crate::body::Decode;
use crate::bytes::{offset_in, slice};

/// How many bytes of a chunk are copied after held bytes at a time (at least the delimiter's
/// length, so that a held delimiter prefix is settled by one piece: the reader then hands
/// out, or takes as the delimiter, more bytes than it held).
const APPEND: usize = 1024;

/// A chunk shorter than this, when the source has another chunk ready after it, is gathered:
/// copied with the small chunks ready after it into one buffer of at most [`GATHER`] bytes,
/// which the reader then reads as one chunk. A byte copied is far cheaper than a reader step
/// and a `Bytes` handed out per tiny chunk (a client writing a byte at a time, a proxy
/// re-chunking); a chunk this long or longer is never gathered, so the zero-copy rule of the
/// module documentation holds for it.
pub(crate) const SMALL: usize = 256;

/// The most bytes gathered into one buffer (at most one allocation for up to this many tiny
/// chunks; none when the data handed out from the last one has been dropped).
pub(crate) const GATHER: usize = 4096;

/// A source of chunks: any `Stream` of `Result<impl Buf, impl Into<BoxError>>`.
pub(crate) trait Source {
    /// The next chunk, as `Bytes` (for a `Bytes` chunk, itself: `Buf::copy_to_bytes` of a
    /// whole `Bytes` is a move), or the source's error.
    fn poll_chunk(self: Pin<&mut Self>, cx: &mut Context<'_>)
        -> Poll<Option<Result<Bytes, Error>>>;
}

impl<S, B, E> Source for S
where
    S: Stream<Item = Result<B, E>>,
    B: Buf,
    E: Into<BoxError>,
{
    fn poll_chunk(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Error>>> {
        self.poll_next(cx).map(|item| {
            item.map(|chunk| match chunk {
                Ok(mut buf) => Ok(buf.copy_to_bytes(buf.remaining())),
                Err(e) => Err(Error::source(e)),
            })
        })
    }
}

/// A reader the driver feeds: [`Decode`], and the error it answers when the input ends where
/// it needs more (each reader reports that itself from `step` with `eof`; this is the
/// driver's guard that a finished source is never polled again).
pub(crate) trait Reader: Decode {
    fn ended_early(&self) -> Error;
}

impl Reader for MultipartReader {
    fn ended_early(&self) -> Error {
        Error::Multipart(MultipartError {
            kind: MultipartErrorKind::UnexpectedEnd,
            offset: self.position(),
            part: None,
        })
    }
}

impl Reader for FormReader {
    fn ended_early(&self) -> Error {
        // The form reader answers every input fed with `eof` (a pair or the end): unreachable
        // in practice, and then said as a source that ended.
        Error::source("the form body ended before the form reader did")
    }
}

/// Where the slices of an event are, to hand them out as `Bytes`.
pub(crate) struct Locate<'a> {
    chunk: &'a Bytes,
    held: Option<Held<'a>>,
}

/// The window: `win[..old]` held from earlier chunks (`src`: the same bytes as a slice of the
/// one chunk they came from, when they did), then a copy of the chunk's first bytes.
struct Held<'a> {
    win: &'a [u8],
    old: usize,
    src: Option<&'a Bytes>,
}

impl<'a> Locate<'a> {
    /// Slices of `chunk`, read where it is (nothing held).
    #[inline(always)]
    pub(crate) fn of(chunk: &'a Bytes) -> Self {
        Locate { chunk, held: None }
    }

    /// `s`, a slice of the input the reader was fed, as `Bytes`: a slice of the chunk that
    /// carried it; the part of it held from earlier chunks as a slice of the chunk it came
    /// from, or a copy when it came from several (then `.1` is the rest, in the current
    /// chunk). Bytes from elsewhere are copied.
    #[inline(always)]
    pub(crate) fn pieces(&self, s: &[u8]) -> (Bytes, Option<Bytes>) {
        let Some(held) = &self.held else {
            return (sub(self.chunk, s), None);
        };
        let Some(a) = offset_in(held.win, s) else {
            return (Bytes::copy_from_slice(s), None);
        };
        let b = a + s.len();
        if a >= held.old {
            return (range(self.chunk, s, a - held.old, b - held.old), None);
        }
        let first_end = b.min(held.old);
        let first = match held.src {
            Some(src) => range(src, slice(held.win, a..first_end), a, first_end),
            None => Bytes::copy_from_slice(slice(held.win, a..first_end)),
        };
        if b <= held.old {
            return (first, None);
        }
        let rest = range(self.chunk, slice(held.win, held.old..b), 0, b - held.old);
        (first, Some(rest))
    }

    /// `s` as one `Bytes`: a slice of the chunk (or the held chunk) that carried it whole, else
    /// a copy. (Inlined: with nothing held, as on the short path, it is one `Bytes::slice`.)
    #[inline(always)]
    pub(crate) fn whole(&self, s: &[u8]) -> Bytes {
        match self.pieces(s) {
            (one, None) => one,
            (_, Some(_)) => Bytes::copy_from_slice(s),
        }
    }
}

/// `s` as a slice of `chunk`, or a copy when it is not one.
#[inline(always)]
fn sub(chunk: &Bytes, s: &[u8]) -> Bytes {
    match offset_in(chunk, s) {
        Some(a) => chunk.slice(a..a + s.len()),
        None => Bytes::copy_from_slice(s),
    }
}

/// `chunk[a..b]`, whose bytes are `s`; a copy of `s` when the range is not in `chunk` (a
/// broken invariant, never a panic).
#[inline]
fn range(chunk: &Bytes, s: &[u8], a: usize, b: usize) -> Bytes {
    if a <= b && b <= chunk.len() {
        chunk.slice(a..b)
    } else {
        debug_assert!(false, "a held range outside its chunk");
        Bytes::copy_from_slice(s)
    }
}

/// A reader fed from a source of chunks.
pub(crate) struct Driver<S, D> {
    source: Pin<Box<S>>,
    /// The source has said it has no more chunks: it is not polled again.
    source_done: bool,
    pub(crate) reader: D,
    /// The current chunk, from its first byte not yet consumed (in the window: from the first
    /// byte after the held ones; its first `win.len() - old` bytes are copied there).
    chunk: Bytes,
    /// Bytes of `chunk` the short path of [`poll_event`](Self::poll_event) has consumed (an
    /// offset, not `Bytes::advance` at every step); the long way advances the chunk past them
    /// first, and reads it from its start.
    pos: usize,
    /// Empty, or the window: held bytes, then a copy of the chunk's first bytes.
    win: Vec<u8>,
    /// Bytes of the window consumed.
    start: usize,
    /// `win[..old]` are the held bytes.
    old: usize,
    /// `win[..old]` as a slice of the chunk they came from (when one did).
    held_src: Option<Bytes>,
    /// What the source answered after the chunks gathered last (a chunk that did not fit,
    /// its end, its error): the source's next answer.
    deferred: Option<Option<Result<Bytes, Error>>>,
    /// Where tiny chunks are gathered: each gathering is split off it, as one `Bytes`.
    gather: BytesMut,
    /// The first error: every later poll answers it again.
    failed: Option<Error>,
    /// The reader's end has been handed out.
    ended: bool,
    /// Where the short path's input ends: `chunk.len()` while the reader reads the chunk
    /// where it is (nothing held, the end not handed out), else 0. One compare with `pos` on
    /// every poll, in place of three; set wherever the chunk, the window or `ended` change
    /// (`took`, `refill`, `fail`, and on every return of the long way).
    fast: usize,
}

impl<S: Source, D: Reader> Driver<S, D>
where
    D::Error: Into<Error>,
{
    pub(crate) fn new(source: S, reader: D) -> Self {
        Driver {
            source: Box::pin(source),
            source_done: false,
            reader,
            chunk: Bytes::new(),
            pos: 0,
            win: Vec::new(),
            start: 0,
            old: 0,
            held_src: None,
            deferred: None,
            gather: BytesMut::new(),
            failed: None,
            ended: false,
            fast: 0,
        }
    }

    /// The source's next chunk, tiny chunks that are ready together gathered into one
    /// ([`SMALL`], [`GATHER`]).
    fn poll_source(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Error>>> {
        // A small chunk that did not fit in the last gathering starts the next one.
        let next = match self.deferred.take() {
            Some(item) => Poll::Ready(item),
            None => self.source.as_mut().poll_chunk(cx),
        };
        let first = match next {
            Poll::Ready(Some(Ok(chunk))) if chunk.len() < SMALL => chunk,
            other => return other,
        };
        let mut gathered = false;
        loop {
            let len = if gathered {
                self.gather.len()
            } else {
                first.len()
            };
            let next = match self.source.as_mut().poll_chunk(cx) {
                // Nothing more ready now (the waker is registered): read what is here.
                Poll::Pending => break,
                Poll::Ready(Some(Ok(chunk)))
                    if chunk.len() < SMALL && len + chunk.len() <= GATHER =>
                {
                    chunk
                }
                Poll::Ready(other) => {
                    self.deferred = Some(other);
                    break;
                }
            };
            if !gathered {
                // The buffer of the last gathering is taken back when nothing handed out
                // from it is alive any more; else this allocates a new one.
                self.gather.reserve(GATHER);
                self.gather.extend_from_slice(&first);
                gathered = true;
            }
            if let [byte] = next[..] {
                // A client writing a byte at a time: one store, not a call to `memcpy`.
                self.gather.put_u8(byte);
            } else {
                self.gather.extend_from_slice(&next);
            }
        }
        if gathered {
            Poll::Ready(Some(Ok(self.gather.split().freeze())))
        } else {
            Poll::Ready(Some(Ok(first)))
        }
    }

    /// The next event, made into `T` by `map` (which gets a [`Locate`] for its slices);
    /// `Ok(None)` once the end has been handed out. Polls the source (registering `cx`'s
    /// waker) only when the reader needs more input. An error is final: every later poll
    /// answers it again.
    #[inline(always)]
    pub(crate) fn poll_event<T>(
        &mut self,
        cx: &mut Context<'_>,
        mut map: impl FnMut(D::Event<'_>, &Locate<'_>) -> T,
    ) -> Poll<Result<Option<T>, Error>> {
        // The common case, kept short enough to inline into every caller: the reader finds an
        // event in the chunk where it is. The rest goes the long way.
        let Some((reader, chunk, pos, eof)) = self.here() else {
            return self.poll_event_slow(cx, map, false);
        };
        // The step and its event borrow the chunk: done with in this block.
        let input = slice(chunk, pos..);
        let stepped = match reader.step(input, eof) {
            Ok(step) => {
                let consumed = step.consumed.min(input.len());
                let locate = Locate::of(chunk);
                let made = step
                    .event
                    .map(|event| (D::is_end(&event), map(event, &locate)));
                Ok((consumed, made))
            }
            Err(e) => Err(e.into()),
        };
        match stepped {
            Ok((consumed, Some((end, made)))) => {
                self.took(consumed, end);
                Poll::Ready(Ok(Some(made)))
            }
            Ok((consumed, None)) => self.poll_more(cx, consumed, map),
            Err(e) => Poll::Ready(Err(self.fail(e))),
        }
    }

    /// The short path's input, when the reader reads the current chunk where it is (nothing
    /// held, a byte of it not consumed, the end not handed out, no error: [`Driver::fast`]):
    /// the reader, the chunk, the offset of its first byte not consumed, and whether the
    /// source has ended. A step over `chunk[pos..]` that finds an event is then recorded with
    /// [`took`](Self::took); one that needs more input goes on with
    /// [`poll_more`](Self::poll_more); an error goes to [`fail`](Self::fail).
    #[inline(always)]
    pub(crate) fn here(&mut self) -> Option<(&mut D, &Bytes, usize, bool)> {
        if self.readable() {
            Some((&mut self.reader, &self.chunk, self.pos, self.source_done))
        } else {
            None
        }
    }

    /// The next chunk, polled before a step when the reader has read every byte of the
    /// current one and holds none (its last event ended at the chunk's end, as a piece of a
    /// large part's data most often does): a step over no bytes would only ask for more
    /// (the reader answers an empty input before its end so in every state), so the source
    /// is polled without it, and the chunk it answers is then read on the short path.
    /// `Ready` once there is something for a step (or for the long way: the source's end,
    /// its error, an empty chunk); `Pending` as the source answered.
    #[inline(always)]
    pub(crate) fn poll_refill(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let read = self.win.is_empty() && self.pos >= self.chunk.len();
        if !read || self.ended || self.source_done || self.failed.is_some() {
            return Poll::Ready(());
        }
        self.refill(cx)
    }

    /// [`poll_refill`](Self::poll_refill)'s poll of the source.
    #[inline(never)]
    fn refill(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        match self.poll_source(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(None) => self.source_done = true,
            Poll::Ready(Some(Err(e))) => {
                self.fail(e);
            }
            // Nothing is held (`take`'s work is for held bytes): the chunk replaces the one
            // read. An empty one is left to the long way.
            Poll::Ready(Some(Ok(chunk))) => {
                self.fast = chunk.len();
                (self.chunk, self.pos) = (chunk, 0);
            }
        }
        Poll::Ready(())
    }

    /// Whether [`here`](Self::here) has an input for the reader.
    #[inline(always)]
    pub(crate) fn readable(&self) -> bool {
        self.pos < self.fast
    }

    /// A step over [`here`](Self::here)'s input consumed `consumed` bytes and handed out an
    /// event (`end`: the reader's end).
    #[inline(always)]
    pub(crate) fn took(&mut self, consumed: usize, end: bool) {
        self.pos += consumed;
        if end {
            (self.ended, self.fast) = (true, 0);
        }
    }

    /// A step over [`here`](Self::here)'s input consumed `consumed` bytes and needs more
    /// input: the rest is held, and the source polled for the next chunk.
    #[inline(never)]
    pub(crate) fn poll_more<T>(
        &mut self,
        cx: &mut Context<'_>,
        consumed: usize,
        map: impl FnMut(D::Event<'_>, &Locate<'_>) -> T,
    ) -> Poll<Result<Option<T>, Error>> {
        if let Err(e) = self.hold_rest(self.pos + consumed, self.source_done) {
            return Poll::Ready(Err(self.fail(e)));
        }
        // The reader has read all there is: the source's next chunk.
        self.poll_event_slow(cx, map, true)
    }

    /// [`poll_event`](Self::poll_event) after its short path: the whole loop.
    #[inline(never)]
    pub(crate) fn poll_event_slow<T>(
        &mut self,
        cx: &mut Context<'_>,
        map: impl FnMut(D::Event<'_>, &Locate<'_>) -> T,
        // The reader needs more input than is here (it has just said so): poll the source.
        more: bool,
    ) -> Poll<Result<Option<T>, Error>> {
        let polled = self.long_way(cx, map, more);
        self.fast = if self.win.is_empty() && !self.ended {
            self.chunk.len()
        } else {
            0
        };
        polled
    }

    /// [`poll_event_slow`](Self::poll_event_slow)'s loop.
    fn long_way<T>(
        &mut self,
        cx: &mut Context<'_>,
        mut map: impl FnMut(D::Event<'_>, &Locate<'_>) -> T,
        mut more: bool,
    ) -> Poll<Result<Option<T>, Error>> {
        // The long way reads the chunk from its start.
        if self.pos > 0 {
            self.chunk.advance(self.pos.min(self.chunk.len()));
            self.pos = 0;
        }
        loop {
            if let Some(e) = &self.failed {
                return Poll::Ready(Err(e.clone()));
            }
            if self.ended {
                return Poll::Ready(Ok(None));
            }
            if !core::mem::take(&mut more) {
                match self.decode(&mut map) {
                    Ok(Some(t)) => return Poll::Ready(Ok(Some(t))),
                    Ok(None) => {}
                    Err(e) => return Poll::Ready(Err(self.fail(e))),
                }
            }
            match self.poll_source(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => self.source_done = true,
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(self.fail(e))),
                Poll::Ready(Some(Ok(chunk))) => self.take(chunk),
            }
        }
    }

    /// Records the first error, and answers it.
    pub(crate) fn fail(&mut self, e: Error) -> Error {
        self.failed = Some(e.clone());
        self.fast = 0;
        // Nothing is read after an error: let the buffers go.
        (self.win, self.chunk, self.held_src) = (Vec::new(), Bytes::new(), None);
        self.pos = 0;
        (self.deferred, self.gather) = (None, BytesMut::new());
        e
    }

    /// A new chunk from the source (which is polled only once the last one is read or held).
    fn take(&mut self, chunk: Bytes) {
        if chunk.is_empty() {
            return;
        }
        let start = self.start.min(self.win.len());
        if self.win.len() > self.old {
            // All of the last chunk is in the window now, after held bytes not yet consumed:
            // every byte there is held, and they span two chunks (no one chunk's slice).
            self.win.drain(..start);
            (self.start, self.old, self.held_src) = (0, self.win.len(), None);
        } else if start > 0 {
            // Only held bytes (the tail of the chunk before): still that chunk's.
            self.win.drain(..start);
            if let Some(src) = &mut self.held_src {
                src.advance(start.min(src.len()));
            }
            (self.start, self.old) = (0, self.win.len());
        }
        self.chunk = chunk;
    }

    /// The reader read the chunk where it is, consumed its first `consumed` bytes and needs more
    /// input: the rest is held (copied into the window), and the chunk is done with. At the
    /// source's end (`eof`), the reader's "ended early".
    #[inline(never)]
    fn hold_rest(&mut self, consumed: usize, eof: bool) -> Result<(), Error> {
        if eof {
            return Err(self.reader.ended_early());
        }
        let rest = self.chunk.slice(consumed..);
        if !rest.is_empty() {
            self.win.extend_from_slice(&rest);
            (self.start, self.old) = (0, rest.len());
            self.held_src = Some(rest);
        }
        (self.chunk, self.pos) = (Bytes::new(), 0);
        Ok(())
    }

    /// Runs the reader over what is here until it hands out an event (`Some`) or needs more
    /// input (`None`: the rest is held).
    fn decode<T>(
        &mut self,
        map: &mut impl FnMut(D::Event<'_>, &Locate<'_>) -> T,
    ) -> Result<Option<T>, Error> {
        loop {
            if self.win.is_empty() {
                // Nothing held: the reader reads the chunk where it is.
                let eof = self.source_done;
                // The step and its event borrow the chunk: done with in this block.
                let (consumed, made) = {
                    let step = self.reader.step(&self.chunk, eof).map_err(Into::into)?;
                    let consumed = step.consumed.min(self.chunk.len());
                    let locate = Locate::of(&self.chunk);
                    let made = step
                        .event
                        .map(|event| (D::is_end(&event), map(event, &locate)));
                    (consumed, made)
                };
                if let Some((end, made)) = made {
                    self.chunk.advance(consumed);
                    self.ended = end;
                    return Ok(Some(made));
                }
                self.hold_rest(consumed, eof)?;
                return Ok(None);
            }
            // The window: held bytes, then the chunk's first `appended` bytes.
            let appended = self.win.len() - self.old;
            let eof = self.source_done && appended == self.chunk.len();
            let (consumed, made) = {
                let input = slice(&self.win, self.start..);
                let step = self.reader.step(input, eof).map_err(Into::into)?;
                let consumed = step.consumed.min(input.len());
                let locate = Locate {
                    chunk: &self.chunk,
                    held: Some(Held {
                        win: &self.win,
                        old: self.old,
                        src: self.held_src.as_ref(),
                    }),
                };
                let made = step
                    .event
                    .map(|event| (D::is_end(&event), map(event, &locate)));
                (consumed, made)
            };
            self.start += consumed;
            if self.start >= self.old {
                // Every held byte is consumed: the rest is the chunk's, read where it is.
                self.chunk
                    .advance((self.start - self.old).min(self.chunk.len()));
                self.win.clear();
                (self.start, self.old, self.held_src) = (0, 0, None);
            }
            if let Some((end, made)) = made {
                self.ended = end;
                return Ok(Some(made));
            }
            if self.win.is_empty() {
                continue;
            }
            if appended < self.chunk.len() {
                // More of the chunk after the held bytes, a bounded piece at a time.
                let n = (self.chunk.len() - appended).min(APPEND);
                let piece = slice(&self.chunk, appended..appended + n);
                self.win.extend_from_slice(piece);
                continue;
            }
            if eof {
                return Err(self.reader.ended_early());
            }
            return Ok(None);
        }
    }
}
