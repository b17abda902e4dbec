//! A connection's record and what one turn of it reports: the loop (`event_loop.rs`) owns a
//! slab of these and moves each through its [`Phase`]s; `release` is the one way a record ends.

use std::io::Write;
use std::num::NonZeroU32;

use mio::net::TcpStream;
use mio::Registry;

use super::body::{BodyReader, FramingError};
use super::http1::{self, HeadError, Persistence, Version};
use super::nonblocking;
use super::pipe::Pipe;
use super::pool::Pool;

/// Where a connection is in its life; it only ever moves down this list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Reading requests and answering them.
    Serving,
    /// No more requests are read; once the output is flushed the connection lingers.
    Closing,
    /// Output flushed and write side shut: input is read and discarded until EOF or the linger
    /// deadline, so unread request bytes do not turn the close into a reset that destroys the
    /// response.
    Lingering,
}

/// Which limit `Conn::deadline` enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timeout {
    /// `header_timeout`, from the connection's start or a head's first byte.
    Head,
    /// `keep_alive_timeout` between requests.
    Idle,
    /// The minimum body data rate (grace, then stretched by each body byte).
    Body,
    /// `write_timeout`: the peer must take some output by then.
    Write,
    /// `close_linger`: the most a lingering connection is kept.
    Linger,
}

/// One bit of `Marks`.
#[derive(Clone, Copy, Debug)]
#[repr(u8)]
pub(super) enum Mark {
    /// At least one response was sent: idle time is keep-alive time, not header time.
    Served = 1,
    /// Output above the pause threshold: stop reading until it drains.
    Paused = 1 << 1,
    /// Queued in `Loop::pending` (has work left without a new readiness event).
    Pending = 1 << 2,
    /// Queued in `Loop::starved` (could not read for lack of segments).
    Starved = 1 << 3,
}

/// The connection's [`Mark`]s, one byte: separate `bool`s would cost the record 8 more bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Marks(u8);

impl Marks {
    pub(super) fn has(self, mark: Mark) -> bool {
        self.0 & mark as u8 != 0
    }

    /// Sets `mark`; true when it was not set before (as `HashSet::insert`).
    pub(super) fn insert(&mut self, mark: Mark) -> bool {
        let new = !self.has(mark);
        self.0 |= mark as u8;
        new
    }

    pub(super) fn remove(&mut self, mark: Mark) {
        self.0 &= !(mark as u8);
    }
}

/// A request whose body is arriving: its reader, the service's state for it, and how its
/// answer is to be written. Boxed in the connection record, so an idle connection pays one
/// pointer for it.
pub(super) struct InFlight<X> {
    pub(super) reader: BodyReader,
    pub(super) exchange: X,
    pub(super) version: Version,
    pub(super) persistence: Persistence,
    pub(super) head_only: bool,
}

/// One connection record: this is all an idle keep-alive connection costs (plus one timer entry).
pub(super) struct Conn<X> {
    /// When the running deadline expires (ms since the loop started); `u64::MAX` for none.
    pub(super) deadline: u64,
    /// The request whose body is arriving, if any.
    pub(super) body: Option<Box<InFlight<X>>>,
    /// Unparsed request bytes (an incomplete head, or requests beyond `max_pipelined`).
    pub(super) input: Pipe,
    /// Response bytes the kernel did not take yet.
    pub(super) output: Pipe,
    pub(super) sock: TcpStream,
    pub(super) generation: u32,
    /// Wheel tick of this connection's live timer entry, if one is filed. 32 bits are 16 months
    /// of 10 ms ticks; later ticks saturate, which only makes their entry come round early.
    pub(super) timer_tick: Option<NonZeroU32>,
    pub(super) phase: Phase,
    pub(super) timeout: Timeout,
    pub(super) marks: Marks,
}

// The idle-connection budget (128 B of heap, tests/host_alloc.rs) rests on this record staying
// 48 bytes; mio adds a selector id to its sockets in debug builds only.
const _: () = assert!(
    core::mem::size_of::<Conn<()>>()
        <= 48
            + (core::mem::size_of::<TcpStream>() - core::mem::size_of::<std::net::TcpStream>())
                .next_multiple_of(8)
);

impl<X> Conn<X> {
    /// The limit that applies in the connection's present state.
    pub(super) fn running_timeout(&self) -> Timeout {
        if self.phase == Phase::Lingering {
            Timeout::Linger
        } else if !self.output.is_empty() {
            Timeout::Write
        } else if self.body.is_some() {
            Timeout::Body
        } else if !self.input.is_empty() || !self.marks.has(Mark::Served) {
            Timeout::Head
        } else {
            Timeout::Idle
        }
    }

    /// Closing with everything owed sent: time to linger.
    pub(super) fn flushed_closing(&self) -> bool {
        self.phase == Phase::Closing && self.output.is_empty()
    }

    /// Reads only while serving and not paused by back-pressure.
    pub(super) fn reading(&self) -> bool {
        self.phase == Phase::Serving && !self.marks.has(Mark::Paused)
    }
}

/// What woke a connection up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wake {
    /// Readable, read-closed or failed, or queued work: read.
    Readable,
    /// Writable only: flush, and read only if that lifted a pause.
    Writable,
}

/// Whether a turn moved bytes: the write and idle timers restart on progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Progress {
    Made,
    Stalled,
}

/// Whether a turn answered a request: the head and body timers restart for a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Request {
    New,
    Continuing,
}

/// How a read turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ReadEnd {
    /// The socket would block: everything the peer sent so far is in.
    Drained,
    /// The peer shut its write side.
    Eof,
    /// The read budget ran out with the socket maybe still readable: read again next turn.
    Full,
    /// No budget at all: the pool could not keep more than what was already held.
    Starved,
}

/// The bytes of a read turn, in the scratch: `..held` came from the input pipe, `held..filled`
/// from the socket.
#[derive(Clone, Copy, Debug)]
pub(super) struct ReadTurn {
    pub(super) held: usize,
    pub(super) filled: usize,
    pub(super) end: ReadEnd,
}

/// What `serve` made of a read turn's bytes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Served {
    /// Bytes of heads and bodies consumed; the rest is an incomplete tail.
    pub(super) consumed: usize,
    /// Responses appended to `Loop::out` (any status).
    pub(super) answered: usize,
    /// Body bytes consumed (framing included).
    pub(super) body_bytes: u64,
    /// `max_pipelined` requests were answered with more bytes left: serve again next turn.
    pub(super) more: bool,
}

/// Why the loop answers with an error status and stops reading.
#[derive(Clone, Copy, Debug)]
pub(super) enum Refusal {
    /// The head broke a rule or a limit (400, 413, 414, 417, 431, 501).
    Head(HeadError),
    /// A chunked body's framing broke a rule or a limit (400, 413): the next request cannot be
    /// found, so the connection closes.
    Framing(FramingError),
    /// The service wrote no answer (a bug of the handler) → 500.
    NoResponse,
    /// A head was started but did not complete within `header_timeout` (408): slowloris.
    HeadTimeout,
    /// A body arrived slower than `min_data_rate` (408).
    BodyTimeout,
}

impl Refusal {
    pub(super) fn status(self) -> (u16, &'static str) {
        match self {
            Refusal::Head(e) => e.status(),
            Refusal::Framing(e) => e.status(),
            Refusal::NoResponse => (500, "Internal Server Error"),
            Refusal::HeadTimeout | Refusal::BodyTimeout => (408, "Request Timeout"),
        }
    }
}

impl core::fmt::Display for Refusal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Refusal::Head(e) => e.fmt(f),
            Refusal::Framing(e) => e.fmt(f),
            Refusal::NoResponse => {
                f.write_str("500 Internal Server Error: the handler wrote no response")
            }
            Refusal::HeadTimeout => {
                f.write_str("408 Request Timeout: request head not received in time")
            }
            Refusal::BodyTimeout => {
                f.write_str("408 Request Timeout: request body slower than min_data_rate")
            }
        }
    }
}

/// The one way a connection record ends: its segments go back to the pool and its socket leaves
/// the poll (dropping `conn` then closes it).
pub(super) fn release<X>(mut conn: Conn<X>, pool: &mut Pool, registry: &Registry) {
    conn.input.clear(pool);
    conn.output.clear(pool);
    let _ = registry.deregister(&mut conn.sock);
}

/// Writes straight to the socket; only what the kernel did not take goes into the output pipe.
/// Returns false when the connection must be closed (write error, or no segment for the tail).
pub(super) fn send<X>(conn: &mut Conn<X>, pool: &mut Pool, data: &[u8]) -> bool {
    if !conn.output.is_empty() {
        // Earlier bytes are still queued: keep the order.
        return conn.output.write(pool, data).is_ok();
    }
    let mut rest = data;
    while !rest.is_empty() {
        match nonblocking(|| conn.sock.write(rest)) {
            Ok(Some(0)) | Err(_) => return false,
            Ok(Some(n)) => rest = &rest[n..],
            Ok(None) => break,
        }
    }
    conn.output.write(pool, rest).is_ok()
}

/// Appends the error response for `refusal`; it always says `Connection: close`, and the caller
/// stops reading (the connection then flushes, lingers and closes).
pub(super) fn refuse(body: &mut String, out: &mut Vec<u8>, refusal: Refusal) {
    body.clear();
    http1::error_body(body, &refusal.to_string());
    http1::write_response(
        out,
        refusal.status(),
        body.as_bytes(),
        Persistence::Close,
        Version::Http11,
    );
}
