//! One event loop: a mio `Poll`, a `SO_REUSEPORT` listener, a slab of connection records, a
//! segment pool, a scratch buffer and a timer wheel, all owned by one thread.
//!
//! A connection's mio token is `generation << 32 | slab key`, so an event or timer entry for a
//! closed connection never reaches the connection that reuses its slot.

use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::Instant;

use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token, Waker};
use slab::Slab;

use super::http1::{self, Head, HeadError};
use super::pipe::Pipe;
use super::pool::Pool;
use super::timer::Wheel;
use super::{Config, Engine, Limits, LoopStats, Shared};

const LISTENER: Token = Token(usize::MAX);
const WAKER: Token = Token(usize::MAX - 1);

/// A loop's listener and poll, created by `Server::bind` so that the address and the wakers exist
/// before any thread runs.
#[derive(Debug)]
pub(super) struct Seed {
    poll: Poll,
    listener: TcpListener,
}

impl Seed {
    pub(super) fn bind(addr: SocketAddr) -> io::Result<(Seed, Waker)> {
        use socket2::{Domain, Protocol, Socket, Type};
        let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
        socket.set_reuse_address(true)?;
        // Every loop binds the same port; the kernel spreads new connections over them.
        socket.set_reuse_port(true)?;
        socket.set_nonblocking(true)?;
        socket.bind(&addr.into())?;
        socket.listen(4096)?;
        let mut listener = TcpListener::from_std(socket.into());
        let poll = Poll::new()?;
        poll.registry()
            .register(&mut listener, LISTENER, Interest::READABLE)?;
        let waker = Waker::new(poll.registry(), WAKER)?;
        Ok((Seed { poll, listener }, waker))
    }

    pub(super) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }
}

// Connection flags.
/// At least one response was sent: idle time is keep-alive time, not header time.
const SERVED: u16 = 1;
/// No more requests are read; close once the output is flushed.
const CLOSING: u16 = 1 << 1;
/// Output above the pause threshold: stop reading until it drains.
const PAUSED: u16 = 1 << 2;
/// Queued in `pending` (has work left without a new readiness event).
const PENDING: u16 = 1 << 3;
/// Queued in `starved` (could not read for lack of segments).
const STARVED: u16 = 1 << 4;
/// Output flushed and write side shut: reading and discarding until EOF or the linger deadline.
const LINGER: u16 = 1 << 5;
/// Which deadline is running (two bits).
const KIND_MASK: u16 = 3 << 6;
const KIND_HEAD: u16 = 0;
const KIND_IDLE: u16 = 1 << 6;
const KIND_BODY: u16 = 2 << 6;
const KIND_WRITE: u16 = 3 << 6;

/// One connection record: this is all an idle keep-alive connection costs (plus one timer entry).
#[derive(Debug)]
struct Conn {
    /// When the running deadline expires (ms since the loop started).
    deadline: u64,
    /// Body bytes still to discard.
    body_left: u64,
    /// Unparsed request bytes (an incomplete head, or requests beyond `max_pipelined`).
    input: Pipe,
    /// Response bytes the kernel did not take yet.
    output: Pipe,
    sock: TcpStream,
    generation: u32,
    /// Wheel tick of this connection's live timer entry; 0 when none is filed.
    timer_tick: u32,
    flags: u16,
}

/// Where a request's JSON answer comes from, per loop.
enum Inspector {
    Native,
    /// Boxed: one per loop, and the instance state is large.
    #[cfg(feature = "engine-wasm")]
    Wasm(Box<crate::engine::WasmInspector>),
}

struct Loop<'a> {
    poll: Poll,
    listener: TcpListener,
    conns: Slab<Conn>,
    next_generation: u32,
    pool: Pool,
    wheel: Wheel,
    scratch: Box<[u8]>,
    out: Vec<u8>,
    body: String,
    pending: Vec<u64>,
    starved: Vec<u64>,
    limits: &'a Limits,
    inspector: Inspector,
    stats: &'a LoopStats,
    epoch: Instant,
    /// Accepting is paused (descriptor or memory exhaustion) until this time.
    accept_resume: Option<u64>,
    /// More connections may be waiting in the backlog (accept budget ran out).
    accept_more: bool,
    next_trim: u64,
    pool_idle_ms: u64,
    responses: u64,
}

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn token_of(key: usize, generation: u32) -> u64 {
    (u64::from(generation) << 32) | key as u64
}

pub(super) fn run(
    seed: Seed,
    config: &Config,
    shared: &Shared,
    stats: &LoopStats,
) -> io::Result<()> {
    let inspector = match &config.engine {
        Engine::Native => Inspector::Native,
        #[cfg(feature = "engine-wasm")]
        Engine::Wasm(engine) => Inspector::Wasm(Box::new(
            engine
                .inspector()
                .map_err(|e| io::Error::other(format!("wasm engine: {e:#}")))?,
        )),
    };
    let pool_idle_ms = ms(config.pool_idle_release).max(1);
    let mut lp = Loop {
        poll: seed.poll,
        listener: seed.listener,
        conns: Slab::new(),
        next_generation: 0,
        pool: Pool::new(config.segment_size, config.pool_max_bytes),
        wheel: Wheel::new(ms(config.timer_tick), 0),
        scratch: vec![0u8; config.scratch_size].into(),
        out: Vec::new(),
        body: String::new(),
        pending: Vec::new(),
        starved: Vec::new(),
        limits: &config.limits,
        inspector,
        stats,
        epoch: Instant::now(),
        accept_resume: None,
        accept_more: false,
        next_trim: pool_idle_ms,
        pool_idle_ms,
        responses: 0,
    };
    let mut events = Events::with_capacity(config.limits.max_events_per_wakeup);
    let result = lp.run(&mut events, shared);
    lp.close_all();
    lp.publish();
    result
}

impl Loop<'_> {
    fn now(&self) -> u64 {
        ms(self.epoch.elapsed())
    }

    fn run(&mut self, events: &mut Events, shared: &Shared) -> io::Result<()> {
        loop {
            let timeout = self.poll_timeout();
            match self.poll.poll(events, timeout) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            if shared.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            for event in events.iter() {
                match event.token() {
                    LISTENER => self.accept(),
                    WAKER => {}
                    Token(t) => {
                        let readable =
                            event.is_readable() || event.is_read_closed() || event.is_error();
                        self.drive(t as u64, readable);
                    }
                }
            }
            if self.accept_more {
                self.accept();
            }
            self.run_pending();
            self.run_timers();
            self.publish();
        }
    }

    fn poll_timeout(&self) -> Option<std::time::Duration> {
        if !self.pending.is_empty() || self.accept_more {
            return Some(std::time::Duration::ZERO);
        }
        let now = self.now();
        let mut wait = self.wheel.timeout_ms(now);
        if let Some(at) = self.accept_resume {
            wait = Some(wait.map_or(at.saturating_sub(now), |w| w.min(at.saturating_sub(now))));
        }
        if self.pool.pooled_bytes() > 0 {
            let t = self.next_trim.saturating_sub(now);
            wait = Some(wait.map_or(t, |w| w.min(t)));
        }
        wait.map(std::time::Duration::from_millis)
    }

    fn publish(&mut self) {
        self.stats
            .connections
            .store(self.conns.len(), Ordering::Relaxed);
        self.stats
            .rented_segments
            .store(self.pool.rented(), Ordering::Relaxed);
        self.stats
            .pooled_bytes
            .store(self.pool.pooled_bytes(), Ordering::Relaxed);
        self.stats
            .responses
            .store(self.responses, Ordering::Relaxed);
    }

    fn accept(&mut self) {
        self.accept_more = false;
        if self.accept_resume.is_some() {
            return;
        }
        // Bounded: a connect flood cannot keep this loop from serving its connections.
        for _ in 0..self.limits.max_events_per_wakeup {
            match self.listener.accept() {
                Ok((sock, _)) => self.register(sock),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.raw_os_error(),
                        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
                    ) =>
                {
                    // The pending connection stays in the backlog and the listener will not signal
                    // again for it (edge-triggered): retry on a timer instead of spinning.
                    self.accept_resume = Some(self.now() + ms(self.limits.accept_backoff).max(1));
                    self.stats.accept_backoffs.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                // ECONNABORTED and friends concern one peer only.
                Err(_) => {}
            }
        }
        self.accept_more = true;
    }

    fn register(&mut self, mut sock: TcpStream) {
        let deadline = self.now() + ms(self.limits.header_timeout);
        let entry = self.conns.vacant_entry();
        let key = entry.key();
        if key > u32::MAX as usize {
            return;
        }
        self.next_generation = self.next_generation.wrapping_add(1);
        let generation = self.next_generation;
        let token = token_of(key, generation);
        // Nagle would hold a pipelined tail back for a delayed ACK.
        let _ = sock.set_nodelay(true);
        if self
            .poll
            .registry()
            .register(
                &mut sock,
                Token(token as usize),
                Interest::READABLE | Interest::WRITABLE,
            )
            .is_err()
        {
            return;
        }
        entry.insert(Conn {
            deadline,
            body_left: 0,
            input: Pipe::new(),
            output: Pipe::new(),
            sock,
            generation,
            timer_tick: 0,
            flags: KIND_HEAD,
        });
        self.arm(key);
    }

    /// The connection for `token`, if it is still the one the token was issued for.
    fn key_of(&self, token: u64) -> Option<usize> {
        let key = (token & u64::from(u32::MAX)) as usize;
        let generation = (token >> 32) as u32;
        match self.conns.get(key) {
            Some(c) if c.generation == generation => Some(key),
            _ => None,
        }
    }

    fn close(&mut self, key: usize) {
        if !self.conns.contains(key) {
            return;
        }
        let mut conn = self.conns.remove(key);
        conn.input.clear(&mut self.pool);
        conn.output.clear(&mut self.pool);
        let _ = self.poll.registry().deregister(&mut conn.sock);
    }

    fn close_all(&mut self) {
        for mut conn in self.conns.drain() {
            conn.input.clear(&mut self.pool);
            conn.output.clear(&mut self.pool);
            let _ = self.poll.registry().deregister(&mut conn.sock);
        }
        self.pending.clear();
        self.starved.clear();
    }

    fn arm(&mut self, key: usize) {
        let Some(conn) = self.conns.get_mut(key) else {
            return;
        };
        if conn.deadline == u64::MAX {
            return;
        }
        let tick = self.wheel.tick_at(conn.deadline);
        let tick32 = u32::try_from(tick).unwrap_or(u32::MAX);
        if conn.timer_tick == 0 || conn.timer_tick > tick32 {
            conn.timer_tick = tick32;
            self.wheel.insert(tick, token_of(key, conn.generation));
        }
    }

    fn run_timers(&mut self) {
        let now = self.now();
        while let Some(mut due) = self.wheel.next_due(now) {
            let current = self.wheel.current();
            let current32 = u32::try_from(current).unwrap_or(u32::MAX);
            for token in due.drain(..) {
                let Some(key) = self.key_of(token) else {
                    continue;
                };
                let conn = &mut self.conns[key];
                if conn.timer_tick == 0 {
                    continue;
                }
                if conn.timer_tick > current32 {
                    // Only the entry filed in this slot for a later round is live; others are stale.
                    if u64::from(conn.timer_tick) % super::timer::SLOTS as u64
                        == current % super::timer::SLOTS as u64
                    {
                        self.wheel.insert(u64::from(conn.timer_tick), token);
                    }
                    continue;
                }
                conn.timer_tick = 0;
                if conn.deadline <= now {
                    self.expire(key);
                } else {
                    self.arm(key);
                }
            }
            self.wheel.recycle(due);
        }
        if self.accept_resume.is_some_and(|at| at <= now) {
            self.accept_resume = None;
            self.accept();
        }
        if now >= self.next_trim {
            self.pool.trim();
            self.next_trim = now + self.pool_idle_ms;
        }
    }

    fn expire(&mut self, key: usize) {
        let conn = &mut self.conns[key];
        let flags = conn.flags;
        let head_started = flags & KIND_MASK == KIND_HEAD && !conn.input.is_empty();
        if head_started && flags & (CLOSING | LINGER) == 0 {
            // Slowloris: the head did not complete in time.
            self.body.clear();
            http1::error_body(
                &mut self.body,
                "408 Request Timeout: request head not received in time",
            );
            self.out.clear();
            http1::write_response(
                &mut self.out,
                (408, "Request Timeout"),
                self.body.as_bytes(),
                false,
                true,
            );
            let sent = send(conn, &mut self.pool, &self.out);
            self.out.clear();
            self.responses += 1;
            if sent {
                // Linger like any other error response, so the 408 is not lost to a reset.
                conn.flags |= CLOSING;
                conn.input.clear(&mut self.pool);
                let now = self.now();
                if self.conns[key].output.is_empty() {
                    return self.start_linger(key, now);
                }
                return self.set_deadline(key, now, true, false);
            }
        }
        self.close(key);
    }

    fn run_pending(&mut self) {
        if !self.starved.is_empty() && self.pool.available() > 0 {
            for token in core::mem::take(&mut self.starved) {
                if let Some(key) = self.key_of(token) {
                    self.conns[key].flags &= !STARVED;
                    self.enqueue(key, token);
                }
            }
        }
        if self.pending.is_empty() {
            return;
        }
        let pending = core::mem::take(&mut self.pending);
        for &token in &pending {
            if let Some(key) = self.key_of(token) {
                self.conns[key].flags &= !PENDING;
                self.drive(token, true);
            }
        }
        // Keep the capacity when nothing was queued meanwhile.
        if self.pending.is_empty() {
            self.pending = pending;
            self.pending.clear();
        }
    }

    fn enqueue(&mut self, key: usize, token: u64) {
        let conn = &mut self.conns[key];
        if conn.flags & PENDING == 0 {
            conn.flags |= PENDING;
            self.pending.push(token);
        }
    }

    /// Handles readiness (or leftover work) for one connection.
    fn drive(&mut self, token: u64, readable: bool) {
        let Some(key) = self.key_of(token) else {
            return;
        };
        let now = self.now();
        let limits = self.limits;
        let conn = &mut self.conns[key];
        let mut progress = false;
        let mut readable = readable;
        if !conn.output.is_empty() {
            match conn.output.write_to(&mut self.pool, &mut conn.sock) {
                Ok(n) => progress = n > 0,
                Err(_) => return self.close(key),
            }
            if conn.flags & PAUSED != 0 && !limits.output.paused(true, conn.output.len()) {
                conn.flags &= !PAUSED;
                // A readable edge may have come and gone while paused: look now.
                readable = true;
            }
        }
        if conn.flags & LINGER != 0 {
            return self.linger(key);
        }
        if conn.flags & CLOSING != 0 {
            if conn.output.is_empty() {
                return self.start_linger(key, now);
            }
        } else if conn.flags & PAUSED == 0 && readable {
            return self.read_and_serve(key, token, now);
        }
        self.set_deadline(key, now, progress, false);
    }

    fn read_and_serve(&mut self, key: usize, token: u64, now: u64) {
        let limits = self.limits;
        let seg = self.pool.segment_size();
        let mut scratch = core::mem::take(&mut self.scratch);
        let conn = &mut self.conns[key];
        let held = conn.input.len();
        let mut filled = conn.input.read(&mut self.pool, &mut scratch);
        // Read no more than the pool could keep if all of it turned out to be an incomplete
        // tail (the pipe's own segments are back in the pool by now, so they count).
        let budget = self.pool.available().saturating_mul(seg).min(scratch.len());
        let (mut drained, mut eof) = (false, false);
        while filled < budget {
            match conn.sock.read(&mut scratch[filled..budget]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    drained = true;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => {
                    // Reset by peer (or worse): nothing left to answer.
                    self.scratch = scratch;
                    return self.close(key);
                }
            }
        }
        // No room to read at all: wait in `starved` until some segment comes back.
        let starved = budget <= held && !drained && !eof;
        let mut pos = 0usize;
        let mut served = 0usize;
        let mut body_bytes = 0u64;
        let mut more = false;
        loop {
            if conn.body_left > 0 {
                let n = conn.body_left.min((filled - pos) as u64);
                pos += n as usize;
                conn.body_left -= n;
                body_bytes += n;
                if conn.body_left > 0 {
                    break;
                }
            }
            if pos == filled || conn.flags & CLOSING != 0 {
                break;
            }
            if served == limits.max_pipelined {
                more = true;
                break;
            }
            match http1::parse(&scratch[pos..filled], limits) {
                Ok(Some(head)) => {
                    pos += head.len;
                    served += 1;
                    let keep =
                        head.keep_alive && !(head.expect_continue && head.content_length > 0);
                    let ok = answer(
                        &mut self.inspector,
                        &mut self.body,
                        &mut self.out,
                        &head,
                        keep,
                    );
                    conn.body_left = head.content_length;
                    if !keep || !ok {
                        conn.flags |= CLOSING;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    served += 1;
                    refuse(&mut self.body, &mut self.out, e);
                    conn.flags |= CLOSING;
                    break;
                }
            }
        }
        self.responses += served as u64;
        let mut fail = false;
        if conn.flags & CLOSING == 0 && pos < filled {
            fail = conn
                .input
                .write(&mut self.pool, &scratch[pos..filled])
                .is_err();
        }
        self.scratch = scratch;
        if fail {
            self.out.clear();
            return self.close(key);
        }
        if served > 0 {
            conn.flags |= SERVED;
        }
        if !self.out.is_empty() && !send(conn, &mut self.pool, &self.out) {
            self.out.clear();
            return self.close(key);
        }
        self.out.clear();
        if limits.output.paused(false, conn.output.len()) {
            conn.flags |= PAUSED;
        }
        if eof && !more {
            // Half-close: the peer will send nothing more; finish what is owed, then close.
            // (With requests still queued, the next turn reads EOF again and gets here later.)
            if conn.output.is_empty() {
                return self.close(key);
            }
            conn.flags |= CLOSING;
        }
        if conn.flags & CLOSING != 0 && conn.output.is_empty() {
            return self.start_linger(key, now);
        }
        if let Some(rate) = limits
            .min_data_rate
            .filter(|_| body_bytes > 0 && conn.body_left > 0)
        {
            if conn.flags & KIND_MASK == KIND_BODY {
                let extra =
                    body_bytes.saturating_mul(1000) / u64::from(rate.bytes_per_second.max(1));
                conn.deadline = conn.deadline.saturating_add(extra);
            }
        }
        if conn.flags & PAUSED == 0
            && conn.flags & CLOSING == 0
            && (more || (filled == budget && !drained && !eof && !starved))
        {
            self.enqueue(key, token);
        } else if starved && conn.flags & STARVED == 0 {
            conn.flags |= STARVED;
            self.starved.push(token);
        }
        self.set_deadline(key, now, served > 0 || filled > held, served > 0);
    }

    /// Picks the running deadline from the connection's state and files its timer.
    fn set_deadline(&mut self, key: usize, now: u64, progress: bool, new_request: bool) {
        let limits = self.limits;
        let conn = &mut self.conns[key];
        let old = conn.flags & KIND_MASK;
        let (kind, deadline) = if !conn.output.is_empty() {
            (
                KIND_WRITE,
                if old != KIND_WRITE || progress {
                    now + ms(limits.write_timeout)
                } else {
                    conn.deadline
                },
            )
        } else if conn.body_left > 0 {
            let deadline = match (old, limits.min_data_rate) {
                (KIND_BODY, _) if !new_request => conn.deadline,
                (_, Some(rate)) => now + ms(rate.grace),
                (_, None) => u64::MAX,
            };
            (KIND_BODY, deadline)
        } else if !conn.input.is_empty() || conn.flags & SERVED == 0 {
            // The header timer runs from the head's first byte (or the connection's start) and
            // is not pushed back by more bytes: that is what cuts slowloris off.
            let keep = old == KIND_HEAD && !new_request;
            (
                KIND_HEAD,
                if keep {
                    conn.deadline
                } else {
                    now + ms(limits.header_timeout)
                },
            )
        } else {
            (
                KIND_IDLE,
                if old == KIND_IDLE && !progress {
                    conn.deadline
                } else {
                    now + ms(limits.keep_alive_timeout)
                },
            )
        };
        conn.flags = (conn.flags & !KIND_MASK) | kind;
        conn.deadline = deadline;
        self.arm(key);
    }

    /// Everything owed is sent: shut the write side and read until EOF for a short while, so
    /// unread request bytes do not turn the close into a reset that destroys the response.
    fn start_linger(&mut self, key: usize, now: u64) {
        let conn = &mut self.conns[key];
        if conn.sock.shutdown(std::net::Shutdown::Write).is_err() {
            return self.close(key);
        }
        conn.input.clear(&mut self.pool);
        conn.flags |= LINGER;
        conn.flags &= !KIND_MASK;
        conn.flags |= KIND_WRITE;
        conn.deadline = now + ms(self.limits.close_linger);
        self.linger(key);
        if self.conns.contains(key) {
            self.arm(key);
        }
    }

    fn linger(&mut self, key: usize) {
        let conn = &mut self.conns[key];
        // Bounded: at most one scratch-full per turn, then wait for the next readiness event.
        let mut budget = self.scratch.len();
        while budget > 0 {
            match conn.sock.read(&mut self.scratch[..budget]) {
                Ok(0) => return self.close(key),
                Ok(n) => budget -= n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return self.close(key),
            }
        }
        let token = token_of(key, conn.generation);
        self.enqueue(key, token);
    }
}

/// Writes straight to the socket; only what the kernel did not take goes into the output pipe.
/// Returns false when the connection must be closed (write error, or no segment for the tail).
fn send(conn: &mut Conn, pool: &mut Pool, data: &[u8]) -> bool {
    if !conn.output.is_empty() {
        // Earlier bytes are still queued: keep the order.
        return conn.output.write(pool, data).is_ok();
    }
    let mut rest = data;
    while !rest.is_empty() {
        match conn.sock.write(rest) {
            Ok(0) => return false,
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return false,
        }
    }
    conn.output.write(pool, rest).is_ok()
}

/// Appends the response for an accepted head. Returns false when the engine failed (500, close).
fn answer(
    inspector: &mut Inspector,
    body: &mut String,
    out: &mut Vec<u8>,
    head: &Head<'_>,
    keep_alive: bool,
) -> bool {
    body.clear();
    let ok = match inspector {
        Inspector::Native => {
            crate::inspect::inspect(&super::request_head(head), body);
            true
        }
        #[cfg(feature = "engine-wasm")]
        Inspector::Wasm(wasm) => {
            let req = super::request_head(head);
            match wasm.inspect(&req, body) {
                Ok(()) => true,
                Err(e) => {
                    body.clear();
                    http1::error_body(body, &format!("500 engine error: {e:#}"));
                    false
                }
            }
        }
    };
    let status = if ok {
        (200, "OK")
    } else {
        (500, "Internal Server Error")
    };
    http1::write_response(
        out,
        status,
        body.as_bytes(),
        keep_alive && ok,
        head.minor_version >= 1,
    );
    if head.method == "HEAD" {
        // RFC 9110 §9.3.2: same headers, no content.
        out.truncate(out.len() - body.len());
    }
    ok
}

fn refuse(body: &mut String, out: &mut Vec<u8>, e: HeadError) {
    body.clear();
    http1::error_body(body, &e.to_string());
    http1::write_response(out, e.status(), body.as_bytes(), false, true);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_record_is_small() {
        // An idle keep-alive connection is this record (in the slab) plus one 8-byte wheel entry.
        // mio adds a selector id to its sockets in debug builds only.
        let debug_extra =
            core::mem::size_of::<TcpStream>() - core::mem::size_of::<std::net::TcpStream>();
        let size = core::mem::size_of::<Conn>();
        assert!(size <= 48 + debug_extra.next_multiple_of(8), "{size}");
    }
}
