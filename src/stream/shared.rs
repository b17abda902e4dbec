//! The state a [`Multipart`](super::Multipart) reader and its parts share: the driver, which
//! part is open, whether its data was handed off, and the events made owned (a part's
//! [`Head`], its data as [`Bytes`]). The reader ([`super::multipart`]) and the parts
//! ([`super::part`]) both read through it; neither reaches into the other.

use alloc::sync::Arc;
use core::task::{Context, Poll, Waker};
use std::sync::{Mutex, MutexGuard, PoisonError};

use bytes::Bytes;

use super::driver::{Driver, Locate, Source};
use super::error::Error;
use crate::body::multipart::{self as sync, MultipartEvent, MultipartReader};
use crate::body::Step;
use crate::bytes::slice;

/// What the reader hands out, owned; a part's [`Head`] is put in [`Shared::head`] (an event
/// stays small: it is moved through every layer of a poll).
enum Event {
    Part,
    Data(Bytes),
    PartEnd,
    End,
}

/// A part's header block: the bytes, and the sync reader's part over an empty block (its
/// spans are offsets into the block, see `Part::rebase`).
pub(super) struct Head {
    block: Bytes,
    pub(super) part: sync::Part<'static>,
}

impl Head {
    pub(super) fn view(&self) -> sync::Part<'_> {
        self.part.rebase(&self.block)
    }
}

/// The state the reader and its parts share.
pub(super) struct Shared<S> {
    pub(super) driver: Driver<S, MultipartReader>,
    /// The part whose data is being read (its index), until its end is read.
    pub(super) open: Option<usize>,
    /// The open part's data was handed off to a [`PartStream`](super::PartStream) that is alive.
    pub(super) detached: bool,
    /// The task waiting in `next_part` for that stream's part to end.
    pub(super) waiter: Option<Waker>,
    /// The rest of a data event that came from two chunks: handed out next.
    pub(super) queued: Option<Bytes>,
    /// The part the reader read last, until `next_part` hands it out (also when a poll for
    /// data read it: never, by the reader's protocol, as a part's end comes first).
    pub(super) head: Option<Head>,
}

/// `event` owned: a part's head into `head`, the rest of data that came from two chunks into
/// `queued`.
#[inline(always)]
fn map(
    event: MultipartEvent<'_>,
    locate: &Locate<'_>,
    head: &mut Option<Head>,
    queued: &mut Option<Bytes>,
) -> Event {
    match event {
        MultipartEvent::Part(part) => {
            *head = Some(Head {
                block: locate.whole(part.header_block()),
                part: part.rebase(&[]),
            });
            Event::Part
        }
        MultipartEvent::Data(data) => {
            let (first, rest) = locate.pieces(data);
            // Written only when there is a rest (never on the short path): `queued` is empty
            // whenever an event is read (it is handed out first).
            if rest.is_some() {
                *queued = rest;
            }
            Event::Data(first)
        }
        MultipartEvent::PartEnd => Event::PartEnd,
        MultipartEvent::End => Event::End,
    }
}

impl<S: Source> Shared<S> {
    /// The next event; a part's head goes into `out` when given (`next_part`'s own place for
    /// it: not moved again), else into [`Shared::head`].
    #[inline(always)]
    fn poll_event(
        &mut self,
        cx: &mut Context<'_>,
        out: Option<&mut Option<Head>>,
    ) -> Poll<Result<Event, Error>> {
        // Tested before it is taken: `take` writes the field back on every poll.
        if self.queued.is_some() {
            if let Some(rest) = self.queued.take() {
                return Poll::Ready(Ok(Event::Data(rest)));
            }
        }
        let queued = &mut self.queued;
        let head = match out {
            Some(out) => out,
            None => &mut self.head,
        };
        // The short path written out here, not through the driver's generic one: the step's
        // event is matched where it is made, and what is handed out built once (no layer of
        // `Poll<Result<Option<_>>>` around a closure's result).
        if !self.driver.readable() && self.driver.poll_refill(cx).is_pending() {
            return Poll::Pending;
        }
        if let Some((reader, chunk, pos, eof)) = self.driver.here() {
            let input = slice(chunk, pos..);
            return match reader.decode_chunk(input, eof) {
                Ok(Step {
                    consumed,
                    event: Some(event),
                }) => {
                    let consumed = consumed.min(input.len());
                    let end = matches!(event, MultipartEvent::End);
                    let made = map(event, &Locate::of(chunk), head, queued);
                    self.driver.took(consumed, end);
                    Poll::Ready(Ok(made))
                }
                Ok(Step {
                    consumed,
                    event: None,
                }) => {
                    let consumed = consumed.min(input.len());
                    self.driver
                        .poll_more(cx, consumed, |event, locate| {
                            map(event, locate, head, queued)
                        })
                        .map(|event| event.map(|event| event.unwrap_or(Event::End)))
                }
                Err(e) => Poll::Ready(Err(self.driver.fail(e.into()))),
            };
        }
        self.driver
            .poll_event_slow(cx, |event, locate| map(event, locate, head, queued), false)
            .map(|event| event.map(|event| event.unwrap_or(Event::End)))
    }

    /// The next part's head into `out` (`true`), reading past what is left of the open part;
    /// `false` at the end. Inlined into `next_part`'s poll, as `poll_data` is into a part's:
    /// the answer is then built where the caller reads it, not returned through memory from
    /// a call (about 15 instructions a part on small fields, by callgrind).
    #[inline(always)]
    pub(super) fn poll_next_part(
        &mut self,
        cx: &mut Context<'_>,
        out: &mut Option<Head>,
    ) -> Poll<Result<bool, Error>> {
        loop {
            if self.head.is_some() {
                *out = self.head.take();
                return Poll::Ready(Ok(true));
            }
            if self.open.is_some() && self.detached {
                // The part's data is another stream's to read: wait for its end.
                self.waiter = Some(cx.waker().clone());
                return Poll::Pending;
            }
            let event = match self.poll_event(cx, Some(&mut *out)) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Ready(Ok(event)) => event,
            };
            match event {
                // The rest of a part no one reads.
                Event::Data(..) => {}
                Event::PartEnd => self.open = None,
                Event::Part => {
                    self.open = out.as_ref().map(|head| head.part.index());
                    return Poll::Ready(Ok(out.is_some()));
                }
                Event::End => {
                    self.open = None;
                    return Poll::Ready(Ok(false));
                }
            }
        }
    }

    /// The next piece of part `index`'s data; `None` once the part has ended. Inlined into
    /// the caller's poll (about 13 instructions a poll on small fields, by callgrind).
    #[inline(always)]
    pub(super) fn poll_data(
        &mut self,
        index: usize,
        cx: &mut Context<'_>,
    ) -> Poll<Result<Option<Bytes>, Error>> {
        if self.open != Some(index) {
            return Poll::Ready(Ok(None));
        }
        let event = match self.poll_event(cx, None) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(e)) => {
                self.release();
                return Poll::Ready(Err(e));
            }
            Poll::Ready(Ok(event)) => event,
        };
        match event {
            Event::Data(data) => return Poll::Ready(Ok(Some(data))),
            Event::PartEnd | Event::End => self.open = None,
            // Kept in `head` for `next_part`.
            Event::Part => self.open = self.head.as_ref().map(|head| head.part.index()),
        }
        self.release();
        Poll::Ready(Ok(None))
    }

    /// A handed-off part's stream is done with it: `next_part` may read on.
    fn release(&mut self) {
        self.detached = false;
        if let Some(waiter) = self.waiter.take() {
            waiter.wake();
        }
    }
}

/// Locks the shared state. A poisoned lock (a panic elsewhere while it was held, which this
/// module's code does not do) still holds a consistent state: every change is a whole
/// assignment.
pub(super) fn lock<S>(shared: &Mutex<Shared<S>>) -> MutexGuard<'_, Shared<S>> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where a [`Multipart`](super::Multipart)'s state is.
// `Own` is large on purpose: boxed, it would be the over-aligned allocation this avoids.
#[allow(clippy::large_enum_variant)]
pub(super) enum State<S> {
    /// In the reader, read through `&mut` (no part's data handed off yet).
    Own(Mutex<Shared<S>>),
    /// Shared with the [`PartStream`](super::PartStream)s a part's data was handed off to.
    Shared(Arc<Mutex<Shared<S>>>),
    /// Only while [`State::share`] moves `Own` into `Shared` (nothing in between can
    /// panic or return): never seen by a poll, which then answers an error.
    Moving,
}

impl<S> State<S> {
    /// The state, for one poll: without a lock while it is the reader's own.
    #[inline]
    pub(super) fn with<T>(&mut self, f: impl FnOnce(&mut Shared<S>) -> T) -> Option<T> {
        match self {
            State::Own(own) => Some(f(own.get_mut().unwrap_or_else(PoisonError::into_inner))),
            State::Shared(shared) => Some(f(&mut lock(shared))),
            State::Moving => None,
        }
    }

    /// The state as an `Arc` to hand off, moved there on the first hand-off.
    pub(super) fn share(&mut self) -> Option<Arc<Mutex<Shared<S>>>> {
        if let State::Own(_) = self {
            if let State::Own(own) = core::mem::replace(self, State::Moving) {
                *self = State::Shared(Arc::new(own));
            }
        }
        match self {
            State::Shared(shared) => Some(Arc::clone(shared)),
            State::Own(_) | State::Moving => None,
        }
    }
}

/// What a poll answers when the state is away (see [`State::Moving`]).
pub(super) fn moved() -> Error {
    Error::source("the multipart reader's state was being handed off")
}
