//! A byte pipe made of pool segments: the writer appends at the tail, the reader consumes at
//! the head, and a segment goes back to the pool the moment its last byte is consumed.
//!
//! An empty pipe is one null pointer: no segment, no chain. That is what lets an idle
//! keep-alive connection cost only its slab record.

use std::collections::VecDeque;
use std::io;

use super::pool::{Pool, Segment};

/// The pool could not supply the segments a write needed; nothing was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exhausted;

impl core::fmt::Display for Exhausted {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("segment pool exhausted")
    }
}

impl std::error::Error for Exhausted {}

/// Pause/resume hysteresis for a pipe: stop feeding it at `pause` buffered bytes, start again
/// once it has drained to `resume`.
///
/// ```
/// use reqparse::host::Thresholds;
/// let t = Thresholds { pause: 100, resume: 10 };
/// assert!(t.paused(false, 100));
/// assert!(t.paused(true, 50), "still above resume: stays paused");
/// assert!(!t.paused(true, 10));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// Buffered bytes at which the producer must stop.
    pub pause: usize,
    /// Buffered bytes at or below which a paused producer may go on.
    pub resume: usize,
}

impl Thresholds {
    /// The next paused state given the current one and the bytes now buffered.
    ///
    /// ```
    /// let t = reqparse::host::Thresholds { pause: 8, resume: 0 };
    /// assert!(!t.paused(false, 7));
    /// ```
    pub fn paused(&self, paused: bool, buffered: usize) -> bool {
        if paused {
            buffered > self.resume
        } else {
            buffered >= self.pause
        }
    }
}

#[derive(Debug)]
struct Chain {
    segs: VecDeque<Segment>,
    /// Read offset in the first segment.
    head: usize,
    /// Bytes buffered in the whole chain.
    len: usize,
}

/// A chain of pooled segments with a reader and a writer side.
///
/// Call [`clear`](Pipe::clear) before dropping a pipe that is not empty: a dropped segment is
/// freed, but the pool still counts it as rented.
///
/// ```
/// use reqparse::host::{Pipe, Pool};
/// let mut pool = Pool::new(4, 64);
/// let mut pipe = Pipe::new();
/// pipe.write(&mut pool, b"hello, world").unwrap();
/// assert_eq!(pool.rented(), 3);
/// let mut buf = [0u8; 5];
/// assert_eq!(pipe.read(&mut pool, &mut buf), 5);
/// assert_eq!(&buf, b"hello");
/// assert_eq!(pool.rented(), 2, "the first segment went back as soon as it was consumed");
/// pipe.clear(&mut pool);
/// ```
#[derive(Debug, Default)]
pub struct Pipe {
    chain: Option<Box<Chain>>,
}

impl Pipe {
    /// An empty pipe (holds nothing).
    ///
    /// ```
    /// assert!(reqparse::host::Pipe::new().is_empty());
    /// ```
    pub const fn new() -> Pipe {
        Pipe { chain: None }
    }

    /// Bytes buffered.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// assert_eq!(pipe.len(), 6);
    /// ```
    pub fn len(&self) -> usize {
        self.chain.as_ref().map_or(0, |c| c.len)
    }

    /// True when nothing is buffered (and no segment is held).
    ///
    /// ```
    /// assert!(reqparse::host::Pipe::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.chain.is_none()
    }

    /// Appends all of `data`, or nothing if the pool cannot supply the segments needed.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 8), Pipe::new());
    /// assert!(pipe.write(&mut pool, b"123456789").is_err(), "needs 3 segments, cap is 2");
    /// assert!(pipe.is_empty() && pool.rented() == 0);
    /// ```
    pub fn write(&mut self, pool: &mut Pool, data: &[u8]) -> Result<(), Exhausted> {
        if data.is_empty() {
            return Ok(());
        }
        let size = pool.segment_size();
        let room = match &self.chain {
            // The tail segment's free space: total capacity minus what is used.
            Some(c) => c.segs.len() * size - c.head - c.len,
            None => 0,
        };
        let needed = data.len().saturating_sub(room).div_ceil(size);
        if needed > pool.available() {
            return Err(Exhausted);
        }
        let chain = self.chain.get_or_insert_with(|| {
            Box::new(Chain {
                segs: VecDeque::new(),
                head: 0,
                len: 0,
            })
        });
        let mut rest = data;
        while !rest.is_empty() {
            let used = (chain.head + chain.len) % size;
            let tail_full = used == 0;
            if tail_full {
                // Checked above: the pool has a segment for every chunk that needs one.
                let Some(seg) = pool.rent() else {
                    return Err(Exhausted);
                };
                chain.segs.push_back(seg);
            }
            let Some(tail) = chain.segs.back_mut() else {
                return Err(Exhausted);
            };
            let n = rest.len().min(size - used);
            tail[used..used + n].copy_from_slice(&rest[..n]);
            chain.len += n;
            rest = &rest[n..];
        }
        Ok(())
    }

    /// The first contiguous run of buffered bytes (empty when the pipe is).
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// assert_eq!(pipe.front(), b"abcd");
    /// ```
    pub fn front(&self) -> &[u8] {
        match &self.chain {
            Some(c) => match c.segs.front() {
                Some(seg) => {
                    let end = (c.head + c.len).min(seg.len());
                    &seg[c.head..end]
                }
                None => &[],
            },
            None => &[],
        }
    }

    /// Drops `n` bytes from the head, giving emptied segments back to the pool at once.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// pipe.consume(&mut pool, 4);
    /// assert_eq!((pipe.front(), pool.rented()), (&b"ef"[..], 1));
    /// pipe.consume(&mut pool, 99);
    /// assert!(pipe.is_empty() && pool.rented() == 0);
    /// ```
    pub fn consume(&mut self, pool: &mut Pool, n: usize) {
        let Some(chain) = self.chain.as_mut() else {
            return;
        };
        let size = pool.segment_size();
        let mut n = n.min(chain.len);
        while n > 0 {
            let in_front = (size - chain.head).min(chain.len);
            let k = n.min(in_front);
            chain.head += k;
            chain.len -= k;
            n -= k;
            if chain.head == size || chain.len == 0 {
                if let Some(seg) = chain.segs.pop_front() {
                    pool.give_back(seg);
                }
                chain.head = 0;
            }
        }
        if chain.len == 0 {
            for seg in chain.segs.drain(..) {
                pool.give_back(seg);
            }
            self.chain = None;
        }
    }

    /// Copies up to `dst.len()` bytes out of the head and consumes them; returns the count.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// let mut buf = [0u8; 16];
    /// assert_eq!(pipe.read(&mut pool, &mut buf), 6);
    /// assert!(pipe.is_empty());
    /// ```
    pub fn read(&mut self, pool: &mut Pool, dst: &mut [u8]) -> usize {
        let mut done = 0;
        while done < dst.len() {
            let front = self.front();
            if front.is_empty() {
                break;
            }
            let n = front.len().min(dst.len() - done);
            dst[done..done + n].copy_from_slice(&front[..n]);
            done += n;
            self.consume(pool, n);
        }
        done
    }

    /// Writes buffered bytes to `w` until the pipe is empty or `w` would block; returns the
    /// bytes written. `WouldBlock` is not an error here; other errors are returned.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// let mut out = Vec::new();
    /// assert_eq!(pipe.write_to(&mut pool, &mut out).unwrap(), 6);
    /// assert_eq!(out, b"abcdef");
    /// ```
    pub fn write_to<W: io::Write>(&mut self, pool: &mut Pool, w: &mut W) -> io::Result<usize> {
        let mut done = 0;
        loop {
            let front = self.front();
            if front.is_empty() {
                return Ok(done);
            }
            match super::nonblocking(|| w.write(front))? {
                Some(0) => return Err(io::ErrorKind::WriteZero.into()),
                Some(n) => {
                    done += n;
                    self.consume(pool, n);
                }
                None => return Ok(done),
            }
        }
    }

    /// Gives every segment back and empties the pipe.
    ///
    /// ```
    /// use reqparse::host::{Pipe, Pool};
    /// let (mut pool, mut pipe) = (Pool::new(4, 64), Pipe::new());
    /// pipe.write(&mut pool, b"abcdef").unwrap();
    /// pipe.clear(&mut pool);
    /// assert_eq!(pool.rented(), 0);
    /// ```
    pub fn clear(&mut self, pool: &mut Pool) {
        let len = self.len();
        self.consume(pool, len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_pipe_is_one_word() {
        assert_eq!(core::mem::size_of::<Pipe>(), core::mem::size_of::<usize>());
    }

    #[test]
    fn write_read_tables() {
        // (segment size, writes, read sizes) → bytes read in order; the pool is back to 0 rented.
        type Case<'a> = (usize, &'a [&'a [u8]], &'a [usize]);
        let cases: &[Case] = &[
            (4, &[b"abcdefgh"], &[8]),
            (4, &[b"ab", b"cd", b"ef"], &[1, 1, 4]),
            (3, &[b"abcdefg", b"h"], &[2, 2, 2, 2]),
            (1, &[b"xyz"], &[5]),
            (8, &[b"", b"a"], &[1]),
        ];
        for &(size, writes, reads) in cases {
            let mut pool = Pool::new(size, 1024);
            let mut pipe = Pipe::new();
            let mut expect = Vec::new();
            for w in writes {
                pipe.write(&mut pool, w).unwrap();
                expect.extend_from_slice(w);
            }
            assert_eq!(pipe.len(), expect.len());
            let mut got = Vec::new();
            for &r in reads {
                let mut buf = vec![0; r];
                let n = pipe.read(&mut pool, &mut buf);
                got.extend_from_slice(&buf[..n]);
            }
            assert_eq!(got, expect, "size {size}");
            assert!(pipe.is_empty());
            assert_eq!(pool.rented(), 0, "size {size}: every segment returned");
        }
    }

    #[test]
    fn interleaved_write_consume_keeps_order() {
        let mut pool = Pool::new(5, 1 << 16);
        let mut pipe = Pipe::new();
        let mut model = std::collections::VecDeque::new();
        let mut x = 7u32;
        for round in 0..2000u32 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let n = (x >> 16) as usize % 13;
            let data: Vec<u8> = (0..n).map(|i| (round as usize + i) as u8).collect();
            pipe.write(&mut pool, &data).unwrap();
            model.extend(data);
            let k = (x >> 8) as usize % 11;
            let mut buf = vec![0; k];
            let got = pipe.read(&mut pool, &mut buf);
            let want: Vec<u8> = model.drain(..got.min(model.len())).collect();
            assert_eq!(&buf[..got], &want[..]);
            assert_eq!(pipe.len(), model.len());
            // Held segments: those the bytes span, plus at most one partly consumed at the head.
            let spans = pipe.len().div_ceil(5);
            assert!(
                (spans..=spans + 1).contains(&pool.rented()),
                "{} {}",
                pool.rented(),
                spans
            );
        }
        pipe.clear(&mut pool);
        assert_eq!(pool.rented(), 0);
    }

    #[test]
    fn all_or_nothing_when_exhausted() {
        let mut pool = Pool::new(4, 8);
        let mut pipe = Pipe::new();
        pipe.write(&mut pool, b"abc").unwrap();
        assert_eq!(
            pipe.write(&mut pool, b"defgh+"),
            Err(Exhausted),
            "needs 2 more, 1 left"
        );
        assert_eq!(pipe.len(), 3);
        pipe.write(&mut pool, b"defgh").unwrap();
        assert_eq!(pool.available(), 0);
        assert_eq!(pipe.write(&mut pool, b"i"), Err(Exhausted));
        pipe.clear(&mut pool);
    }

    #[test]
    fn write_to_stops_on_would_block() {
        struct Slow(Vec<u8>, usize);
        impl io::Write for Slow {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                if self.1 == 0 {
                    return Err(io::ErrorKind::WouldBlock.into());
                }
                let n = b.len().min(self.1).min(3);
                self.1 -= n;
                self.0.extend_from_slice(&b[..n]);
                Ok(n)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut pool = Pool::new(4, 64);
        let mut pipe = Pipe::new();
        pipe.write(&mut pool, b"0123456789").unwrap();
        let mut sink = Slow(Vec::new(), 7);
        assert_eq!(pipe.write_to(&mut pool, &mut sink).unwrap(), 7);
        assert_eq!(sink.0, b"0123456");
        assert_eq!(
            (pipe.len(), pool.rented()),
            (3, 2),
            "\"7\" ends one segment, \"89\" is in the next"
        );
        sink.1 = 100;
        assert_eq!(pipe.write_to(&mut pool, &mut sink).unwrap(), 3);
        assert!(pipe.is_empty() && pool.rented() == 0);
    }
}
