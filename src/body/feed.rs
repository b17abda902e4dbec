//! One feed driver for every body reader: keep the tail a reader did not consume, put what
//! arrives next after it, feed again.
//!
//! The three readers ([`chunked`](super::chunked), [`form`](super::form),
//! [`multipart`](super::multipart)) answer one protocol ([`Step`]): the bytes consumed and,
//! when there is one, an event borrowing from the input; the bytes not consumed (bounded by
//! the reader's limits) must be fed again, before the next ones. [`Decode`] names that
//! protocol once, and [`Feed`] is the one place that keeps the tail: a caller either pushes
//! bytes it owns elsewhere ([`Feed::push`]: with nothing held they are decoded where they
//! are, uncopied) or reads straight into the feed's buffer ([`Feed::spare`],
//! [`Feed::filled`], [`Feed::run`]). `read_from(impl std::io::Read)` of every reader is the
//! second way; the CLI and the component's resources use them too. Split invariance is then
//! a property of this driver, proven once (the tests below) for all three readers.

// Without `std` only the component's `Feed::window` serves a face so far: the loops over a
// `Decode` serve `read_from` (std) and the unit tests, until the other push-style faces
// (host, engine, npm) move onto `Feed::push`.
#![cfg_attr(not(feature = "std"), allow(dead_code))]

use alloc::vec::Vec;

use super::Step;

/// A sans-io body reader, as the driver feeds it.
pub(crate) trait Decode {
    /// What the reader hands out, borrowing from the input (and, for the form reader, from
    /// the reader's own buffer of decoded text).
    type Event<'a>
    where
        Self: 'a;
    /// What the reader refuses; final.
    type Error;

    /// One step over `input` (the bytes after what was consumed so far); `eof`: no byte
    /// follows `input`. At the end of the input with nothing found, the reader's own
    /// "ended early" error.
    fn step<'a>(
        &'a mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<Self::Event<'a>>, Self::Error>;

    /// Whether `event` ends the body (nothing after it is the body's).
    fn is_end(event: &Self::Event<'_>) -> bool;
}

/// The readers whose `decode` takes `eof` itself: a step is their `decode`.
macro_rules! decode_with_eof {
    ($($reader:ident => $event:ident, $error:ident;)*) => {$(
        impl $crate::body::feed::Decode for $reader {
            type Event<'a> = $event<'a>;
            type Error = $error;

            #[inline]
            fn step<'a>(
                &'a mut self,
                input: &'a [u8],
                eof: bool,
            ) -> Result<$crate::body::Step<$event<'a>>, $error> {
                self.decode(input, eof)
            }

            fn is_end(event: &$event<'_>) -> bool {
                matches!(event, $event::End)
            }
        }
    )*};
}
pub(crate) use decode_with_eof;

/// How a run of the driver ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fed {
    /// The reader needs more input; the tail it did not consume is held.
    More,
    /// The body ended; `after` bytes that followed it were fed and are not the body's.
    End { after: usize },
}

/// The tail a reader did not consume, and room after it: the one buffer of a body read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Feed {
    buf: Vec<u8>,
    /// The bytes not yet consumed: `buf[start..end]`.
    start: usize,
    end: usize,
}

impl Feed {
    /// The bytes held back, to be fed first next time.
    #[cfg(test)]
    fn held(&self) -> &[u8] {
        self.buf.get(self.start..self.end).unwrap_or_default()
    }

    /// Runs `decoder` over what is held, then `bytes`, handing each event to `each`, until
    /// it needs more input, ends or fails. With nothing held, `bytes` are read where they
    /// are; what is left unconsumed is copied here (at most what the reader's limits let it
    /// hold back). After an end or an error nothing is held.
    #[cfg(any(test, all(feature = "component", target_arch = "wasm32")))]
    pub(crate) fn push<D: Decode>(
        &mut self,
        decoder: &mut D,
        bytes: &[u8],
        eof: bool,
        each: impl FnMut(D::Event<'_>),
    ) -> Result<Fed, D::Error> {
        self.window(bytes, |window| {
            let (consumed, fed) = drive(decoder, window, eof, each);
            (consumed, matches!(fed, Ok(Fed::More)), fed)
        })
    }

    /// Runs `read` over this feed's window: what is held, then `bytes` (with nothing held,
    /// `bytes` themselves: no copy). `read` answers how many bytes it consumed and whether
    /// the rest is to be held (not after an end or an error), with what it made. For a
    /// caller that needs the window itself (to give events as offsets into it).
    #[cfg(any(test, all(feature = "component", target_arch = "wasm32")))]
    pub(crate) fn window<R>(
        &mut self,
        bytes: &[u8],
        read: impl FnOnce(&[u8]) -> (usize, bool, R),
    ) -> R {
        if self.start < self.end {
            self.spare(bytes.len()).copy_from_slice(bytes);
            self.filled(bytes.len());
            let window = self.buf.get(self.start..self.end).unwrap_or_default();
            let (consumed, keep, made) = read(window);
            if keep {
                self.start = (self.start + consumed).min(self.end);
            } else {
                self.clear();
            }
            return made;
        }
        let (consumed, keep, made) = read(bytes);
        if keep {
            let tail = bytes.get(consumed..).unwrap_or_default();
            self.spare(tail.len()).copy_from_slice(tail);
            self.filled(tail.len());
        }
        made
    }

    /// Room for `n` more bytes after the held tail, which moves to the front of the buffer
    /// first (its one copy): the caller writes into it and says how many with
    /// [`filled`](Self::filled).
    pub(crate) fn spare(&mut self, n: usize) -> &mut [u8] {
        let held = self.end - self.start;
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            (self.start, self.end) = (0, held);
        }
        if self.buf.len() < held + n {
            self.buf.resize(held + n, 0);
        }
        self.buf.get_mut(held..held + n).unwrap_or_default()
    }

    /// `n` bytes were written into [`spare`](Self::spare).
    pub(crate) fn filled(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Runs `decoder` over the bytes held until it needs more input, ends or fails (see
    /// [`push`](Self::push)).
    pub(crate) fn run<D: Decode>(
        &mut self,
        decoder: &mut D,
        eof: bool,
        each: impl FnMut(D::Event<'_>),
    ) -> Result<Fed, D::Error> {
        let window = self.buf.get(self.start..self.end).unwrap_or_default();
        let (consumed, fed) = drive(decoder, window, eof, each);
        match fed {
            Ok(Fed::More) => self.start += consumed,
            _ => self.clear(),
        }
        fed
    }

    fn clear(&mut self) {
        (self.start, self.end) = (0, 0);
    }
}

/// The loop itself: `decoder` over `window` until it needs more, ends or fails; returns the
/// bytes consumed with how it ended.
#[inline]
fn drive<D: Decode>(
    decoder: &mut D,
    window: &[u8],
    eof: bool,
    mut each: impl FnMut(D::Event<'_>),
) -> (usize, Result<Fed, D::Error>) {
    let mut at = 0;
    loop {
        let step = match decoder.step(window.get(at..).unwrap_or_default(), eof) {
            Ok(step) => step,
            Err(e) => return (at, Err(e)),
        };
        at += step.consumed;
        let Some(event) = step.event else {
            return (at, Ok(Fed::More));
        };
        let end = D::is_end(&event);
        each(event);
        if end {
            let after = window.len().saturating_sub(at);
            return (at, Ok(Fed::End { after }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::body::chunked::{Chunk, ChunkedDecoder};
    use crate::body::form::{FormEvent, FormReader};
    use crate::body::multipart::{MultipartEvent, MultipartReader};
    use alloc::string::String;
    use alloc::vec;

    /// Every event as text, data pieces joined (only their concatenation is invariant).
    fn push_all<D: Decode>(
        decoder: &mut D,
        reads: &[&[u8]],
        show: impl Fn(&D::Event<'_>) -> String,
    ) -> (Vec<String>, Option<D::Error>) {
        let mut feed = Feed::default();
        let mut out: Vec<String> = Vec::new();
        for (i, read) in reads.iter().enumerate() {
            let eof = i + 1 == reads.len();
            let fed = feed.push(decoder, read, eof, |event| {
                let text = show(&event);
                match (text.strip_prefix("data:"), out.last_mut()) {
                    (Some(more), Some(last)) if last.starts_with("data:") => last.push_str(more),
                    _ => out.push(text),
                }
            });
            match fed {
                Ok(Fed::More) => {}
                Ok(Fed::End { .. }) => return (out, None),
                Err(e) => return (out, Some(e)),
            }
        }
        (out, None)
    }

    fn cuts(body: &[u8]) -> Vec<Vec<&[u8]>> {
        let mut all: Vec<Vec<&[u8]>> = (0..=body.len())
            .map(|at| {
                let (a, b) = body.split_at(at);
                vec![a, b]
            })
            .collect();
        let mut bytes: Vec<&[u8]> = body.chunks(1).collect();
        bytes.push(b"");
        all.push(bytes);
        all
    }

    #[test]
    fn every_split_is_the_same_for_every_reader() {
        let chunked = b"5\r\nhello\r\n3;x=y\r\n ab\r\n0\r\nT: v\r\n\r\n";
        let show_chunk = |c: &Chunk<'_>| match c {
            Chunk::Data(d) => alloc::format!("data:{}", String::from_utf8_lossy(d)),
            Chunk::Trailer { name, value } => alloc::format!("{name:?}={value:?}"),
            Chunk::End => "end".into(),
        };
        let whole = push_all(&mut ChunkedDecoder::default(), &[chunked], show_chunk);
        assert_eq!(whole.0.last().map(String::as_str), Some("end"));
        for reads in cuts(chunked) {
            let got = push_all(&mut ChunkedDecoder::default(), &reads, show_chunk);
            assert_eq!(got, whole);
        }
        let form = b"a=1&b=x+y&c=%41%e2%82%ac";
        let show_pair = |e: &FormEvent<'_>| match e {
            FormEvent::Pair(p) => alloc::format!("{}={}@{}", p.name, p.value, p.offset),
            FormEvent::End => "end".into(),
        };
        let whole = push_all(&mut FormReader::default(), &[form], show_pair);
        assert_eq!(whole.0.len(), 4);
        for reads in cuts(form) {
            assert_eq!(
                push_all(&mut FormReader::default(), &reads, show_pair),
                whole
            );
        }
        let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--\r\n--b\r\n\
            Content-Disposition: form-data; name=f; filename=x\r\n\r\n\r\n--b--\r\n";
        let show_part = |e: &MultipartEvent<'_>| match e {
            MultipartEvent::Part(p) => alloc::format!("part:{}", p.name()),
            MultipartEvent::Data(d) => alloc::format!("data:{}", String::from_utf8_lossy(d)),
            MultipartEvent::PartEnd => "part-end".into(),
            MultipartEvent::End => "end".into(),
        };
        let new = || MultipartReader::new(b"b", Default::default(), Default::default()).unwrap();
        let whole = push_all(&mut new(), &[body], show_part);
        assert_eq!(whole.0.len(), 6, "{whole:?}");
        for reads in cuts(body) {
            assert_eq!(push_all(&mut new(), &reads, show_part), whole);
        }
        // An error at the same offset, however the body is cut.
        let bad = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b\r\nX";
        let whole = push_all(&mut new(), &[bad], show_part);
        assert!(whole.1.is_some());
        for reads in cuts(bad) {
            assert_eq!(push_all(&mut new(), &reads, show_part), whole);
        }
    }

    #[test]
    fn holds_only_the_tail_and_says_what_follows_the_end() {
        let mut feed = Feed::default();
        let mut decoder = ChunkedDecoder::default();
        let fed = feed.push(&mut decoder, b"5\r\nhel", false, |_| {});
        assert_eq!((fed, feed.held()), (Ok(Fed::More), &b""[..]));
        let fed = feed.push(&mut decoder, b"lo\r\n0\r", false, |_| {});
        assert_eq!((fed, feed.held()), (Ok(Fed::More), &b"0\r"[..]));
        let fed = feed.push(&mut decoder, b"\n\r\nGET", false, |_| {});
        assert_eq!((fed, feed.held()), (Ok(Fed::End { after: 3 }), &b""[..]));
    }
}
