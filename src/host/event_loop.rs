//! One event loop: a mio `Poll`, a `SO_REUSEPORT` listener, a slab of connection records, a
//! segment pool, a scratch buffer and a timer wheel, all owned by one thread.
//!
//! A connection's mio token is `generation << 32 | slab key`, so an event or timer entry for a
//! closed connection never reaches the connection that reuses its slot.
//!
//! Each kind of event has its handler, as in mio's examples:
//! - the listener is readable: `Loop::accept` (bounded per wakeup, backs off on `EMFILE`);
//! - a socket is ready, or has work left in `pending`: `Loop::drive` flushes the output, then
//!   either discards input (`Loop::linger`), or reads and answers (`Loop::read_and_serve`:
//!   `read` → `serve` → `keep_tail` → `finish_turn`), or only re-arms its deadline;
//! - a wheel slot is due: `Loop::on_timer` per entry, which `Loop::expire`s the connection
//!   (408 for a started head, else close) or re-arms it.
//!
//! A connection's life is a `Phase`: `Serving` until it must end, then `Closing` until its
//! output is flushed, then `Lingering` (write side shut, input discarded) until EOF or the linger
//! deadline. Error statuses (the parser's 4xx/501 and the header timeout's 408) are written by
//! one function, `refuse`, and take that same way out. Every end, graceful or not, and the
//! loop's own shutdown, goes through `release`, which gives the segments back.

use std::io::{self, Read};
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::atomic::Ordering;
use std::time::Instant;

use mio::net::{TcpListener, TcpStream};
use mio::{Events, Interest, Poll, Token, Waker};
use slab::Slab;

use super::body::{BodyEvent, BodyReader, ContentKind, Fed};
use super::conn::{
    refuse, release, send, Conn, InFlight, Mark, Marks, Phase, Progress, ReadEnd, ReadTurn,
    Refusal, Request, Served, Timeout, Wake,
};
use super::handler::{Handler, Reading, Response, Service};
use super::http1::{self, Persistence, Version};
use super::nonblocking;
use super::pipe::{Exhausted, Pipe};
use super::pool::{return_to_os, Pool};
use super::timer::{Entry, Wheel};
use super::{Config, Limits, LoopStats, Shared};

const LISTENER: Token = Token(usize::MAX);
/// What a connection that holds nothing may read when the pool is exhausted: room for a
/// complete ordinary request.
const NEWCOMER_READ: usize = 16 * 1024;
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

    /// Fails with `AddrInUse`, naming the port, when another socket already listens on `addr`.
    ///
    /// `SO_REUSEPORT`, which lets this server's loops share one port, would also let them join
    /// the listeners of another process of the same user (a second `reqparse serve` on the
    /// same port), and the kernel would split new connections between the two. So the port is
    /// first bound by a probe socket *without* `SO_REUSEPORT`: that bind fails with
    /// `EADDRINUSE` whenever any socket listens there, reuseport or not. The probe is closed
    /// before the loops bind; a process that binds with `SO_REUSEPORT` in that instant (or
    /// later, as `SO_REUSEPORT` allows any process of the same user to) is not detected, but a
    /// second reqparse is, since its own probe then finds our listeners. The alternative, one
    /// listener whose descriptor every loop polls, would wake every loop for each connection
    /// instead of the kernel's spreading, so it is not taken.
    ///
    /// Port 0 is not probed: the kernel never autobinds a port into an existing reuseport
    /// group (Linux ≥ 4.6), so the first loop gets a fresh port and the others share it.
    pub(super) fn check_free(addr: SocketAddr) -> io::Result<()> {
        use socket2::{Domain, Protocol, Socket, Type};
        if addr.port() == 0 {
            return Ok(());
        }
        let probe = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
        // As the listeners have it: connections of a previous run in TIME_WAIT do not count.
        probe.set_reuse_address(true)?;
        match probe.bind(&addr.into()) {
            Err(e) if e.kind() == io::ErrorKind::AddrInUse => Err(io::Error::new(
                io::ErrorKind::AddrInUse,
                format!("port {} is in use by another server", addr.port()),
            )),
            other => other,
        }
    }
}

struct Loop<'a, S: Service> {
    poll: Poll,
    listener: TcpListener,
    conns: Slab<Conn<S::Exchange>>,
    next_generation: u32,
    pool: Pool,
    wheel: Wheel,
    scratch: Box<[u8]>,
    /// The responses of one turn, sent together.
    out: Vec<u8>,
    /// One response body, reused.
    body: String,
    pending: Vec<u64>,
    starved: Vec<u64>,
    limits: &'a Limits,
    service: S,
    stats: &'a LoopStats,
    epoch: Instant,
    /// Accepting is paused (descriptor or memory exhaustion) until this time.
    accept_resume: Option<u64>,
    /// More connections may be waiting in the backlog (accept budget ran out).
    accept_more: bool,
    next_trim: u64,
    pool_idle_ms: u64,
    responses: u64,
    /// This wakeup handled an event or expired a connection (anything that may have freed
    /// memory); reset by `trim_when_idle`.
    worked: bool,
    /// When the loop last worked (ms since it started).
    last_work: u64,
    /// The allocator was already asked to return its free pages since the loop last worked.
    idle_trimmed: bool,
    /// How long the loop must do nothing before that (`IDLE_TRIM` or `pool_idle_release`,
    /// whichever is shorter).
    idle_trim_ms: u64,
}

/// How long a loop does nothing (no event, no expiry) before the allocator is asked to return
/// the pages the loop's work freed, once per idle period.
const IDLE_TRIM: std::time::Duration = std::time::Duration::from_secs(1);

fn ms(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn token_of(key: usize, generation: u32) -> u64 {
    (u64::from(generation) << 32) | key as u64
}

/// Accept failures that say the process or system is out of descriptors or memory.
fn out_of_resources(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOBUFS | libc::ENOMEM)
    )
}

/// A read-closed or error event is a reason to read too: the read reports it.
fn wants_read(event: &mio::event::Event) -> bool {
    event.is_readable() || event.is_read_closed() || event.is_error()
}

pub(super) fn run<H: Handler>(
    seed: Seed,
    config: &Config,
    shared: &Shared,
    stats: &LoopStats,
    handler: &H,
) -> io::Result<()> {
    let service = handler.service()?;
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
        service,
        stats,
        epoch: Instant::now(),
        accept_resume: None,
        accept_more: false,
        next_trim: pool_idle_ms,
        pool_idle_ms,
        responses: 0,
        worked: false,
        last_work: 0,
        // Nothing was freed yet: the first trim waits for the first idle period after work.
        idle_trimmed: true,
        idle_trim_ms: ms(config.pool_idle_release.min(IDLE_TRIM)).max(1),
    };
    let mut events = Events::with_capacity(config.limits.max_events_per_wakeup);
    let result = lp.run(&mut events, shared);
    lp.drain(&mut events);
    lp.close_all();
    lp.publish();
    result
}

impl<S: Service> Loop<'_, S> {
    fn now(&self) -> u64 {
        ms(self.epoch.elapsed())
    }

    fn run(&mut self, events: &mut Events, shared: &Shared) -> io::Result<()> {
        loop {
            let timeout = self.poll_timeout();
            nonblocking(|| self.poll.poll(events, timeout))?;
            if shared.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            self.worked |= !events.is_empty();
            for event in events.iter() {
                match event.token() {
                    LISTENER => self.accept(),
                    WAKER => {}
                    Token(t) if wants_read(event) => self.drive(t as u64, Wake::Readable),
                    Token(t) => self.drive(t as u64, Wake::Writable),
                }
            }
            if self.accept_more {
                self.accept();
            }
            self.run_pending();
            self.run_timers();
            self.trim_when_idle();
            self.publish();
        }
    }

    /// Has the allocator return the pages the loop's last busy period freed once the loop has
    /// been idle (no event, no expiry) for `idle_trim_ms`: glibc keeps a thread arena's freed
    /// pages resident, and before this only the pool's release asked for them back (30 s of
    /// `wrk -c800` uploads left RssAnon 2.5 MiB above its start; this trim returns 0.7 MiB of
    /// it, the rest are pages that still hold live chunks, mostly glibc's per-thread cache of
    /// small freed chunks, which `malloc_trim` does not empty). Once per idle period, never
    /// while events come.
    fn trim_when_idle(&mut self) {
        let now = self.now();
        if core::mem::take(&mut self.worked) {
            self.last_work = now;
            self.idle_trimmed = false;
        } else if !self.idle_trimmed && now >= self.last_work.saturating_add(self.idle_trim_ms) {
            self.idle_trimmed = true;
            return_to_os();
            self.stats.idle_trims.fetch_add(1, Ordering::Relaxed);
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
        if !self.idle_trimmed {
            let t = (self.last_work.saturating_add(self.idle_trim_ms)).saturating_sub(now);
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

    /// The listener is readable: take what the backlog holds, at most one event budget's worth.
    fn accept(&mut self) {
        self.accept_more = false;
        if self.accept_resume.is_some() {
            return;
        }
        // Bounded: a connect flood cannot keep this loop from serving its connections.
        for _ in 0..self.limits.max_events_per_wakeup {
            match nonblocking(|| self.listener.accept()) {
                Ok(Some((sock, _))) => self.register(sock),
                Ok(None) => return,
                Err(e) if out_of_resources(&e) => {
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
            body: None,
            input: Pipe::new(),
            output: Pipe::new(),
            sock,
            generation,
            timer_tick: None,
            phase: Phase::Serving,
            timeout: Timeout::Head,
            marks: Marks::default(),
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

    /// Ends a connection now. Its queue and timer entries go stale (the generation check drops
    /// them).
    fn close(&mut self, key: usize) {
        if let Some(conn) = self.conns.try_remove(key) {
            release(conn, &mut self.pool, self.poll.registry());
        }
    }

    /// The loop is stopping: no more connections or requests are taken, but answers already
    /// written are flushed to the peers that read them, for at most `close_linger`; each
    /// connection closes once its output is sent (or its socket fails).
    fn drain(&mut self, events: &mut Events) {
        let _ = self.poll.registry().deregister(&mut self.listener);
        let deadline = Instant::now() + self.limits.close_linger;
        let mut keys = Vec::new();
        loop {
            keys.clear();
            keys.extend(self.conns.iter().map(|(key, _)| key));
            for &key in &keys {
                let conn = &mut self.conns[key];
                let sent = conn.output.is_empty()
                    || conn
                        .output
                        .write_to(&mut self.pool, &mut conn.sock)
                        .map_or(true, |_| conn.output.is_empty());
                if sent {
                    self.close(key);
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if self.conns.is_empty() || left.is_zero() {
                return;
            }
            // Writable edges (or the deadline) wake the next round.
            if nonblocking(|| self.poll.poll(events, Some(left))).is_err() {
                return;
            }
        }
    }

    /// The loop is stopping: every connection ends now.
    fn close_all(&mut self) {
        for conn in self.conns.drain() {
            release(conn, &mut self.pool, self.poll.registry());
        }
        self.pending.clear();
        self.starved.clear();
    }

    /// Files the connection's deadline in the wheel, unless its live entry is due at or before
    /// that tick: that entry re-arms when it comes round, so a deadline that moved later costs
    /// nothing now.
    fn arm(&mut self, key: usize) {
        let Some(conn) = self.conns.get_mut(key) else {
            return;
        };
        if conn.deadline == u64::MAX {
            return;
        }
        let tick = self.wheel.tick_at(conn.deadline);
        // `tick_at` is never below 1, so the tick is never zero.
        let tick32 =
            NonZeroU32::new(u32::try_from(tick).unwrap_or(u32::MAX)).unwrap_or(NonZeroU32::MAX);
        if conn.timer_tick.is_none_or(|live| live > tick32) {
            conn.timer_tick = Some(tick32);
            self.wheel.insert(tick, token_of(key, conn.generation));
        }
    }

    fn run_timers(&mut self) {
        let now = self.now();
        while let Some(mut due) = self.wheel.next_due(now) {
            for token in due.drain(..) {
                self.on_timer(token, now);
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

    /// A wheel entry came round: fire it, file it again for a later round, or drop it.
    fn on_timer(&mut self, token: u64, now: u64) {
        let Some(key) = self.key_of(token) else {
            return;
        };
        let conn = &mut self.conns[key];
        let armed = conn.timer_tick.map(|t| u64::from(t.get()));
        match self.wheel.classify(armed) {
            Entry::Stale => {}
            Entry::Later => self.wheel.insert(armed.unwrap_or_default(), token),
            Entry::Due => {
                conn.timer_tick = None;
                if conn.deadline <= now {
                    self.expire(key);
                } else {
                    self.arm(key);
                }
            }
        }
    }

    /// The running deadline passed: a started head or a slow body is answered 408 (then the
    /// connection lingers like after any error response, so the 408 is not lost to a reset);
    /// anything else closes.
    fn expire(&mut self, key: usize) {
        self.worked = true;
        let conn = &mut self.conns[key];
        let serving = conn.phase == Phase::Serving;
        let refusal = match conn.timeout {
            Timeout::Head if serving && !conn.input.is_empty() => Refusal::HeadTimeout,
            Timeout::Body if serving => Refusal::BodyTimeout,
            _ => return self.close(key),
        };
        conn.body = None;
        refuse(&mut self.body, &mut self.out, refusal);
        self.responses += 1;
        if !self.send_out(key) {
            return self.close(key);
        }
        let conn = &mut self.conns[key];
        conn.phase = Phase::Closing;
        conn.input.clear(&mut self.pool);
        self.settle(key, self.now(), Progress::Made, Request::Continuing);
    }

    /// Drives the connections that have work left without a readiness event to come, and hands
    /// the `starved` ones over to them once a segment is free.
    fn run_pending(&mut self) {
        if !self.starved.is_empty() && self.pool.available() > 0 {
            for token in core::mem::take(&mut self.starved) {
                if let Some(key) = self.key_of(token) {
                    self.conns[key].marks.remove(Mark::Starved);
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
                self.conns[key].marks.remove(Mark::Pending);
                self.drive(token, Wake::Readable);
            }
        }
        // Keep the capacity when nothing was queued meanwhile.
        if self.pending.is_empty() {
            self.pending = pending;
            self.pending.clear();
        }
    }

    fn enqueue(&mut self, key: usize, token: u64) {
        if self.conns[key].marks.insert(Mark::Pending) {
            self.pending.push(token);
        }
    }

    /// Handles readiness (or leftover work) for one connection: flush first, then whatever its
    /// phase does with input.
    fn drive(&mut self, token: u64, wake: Wake) {
        let Some(key) = self.key_of(token) else {
            return;
        };
        let now = self.now();
        let conn = &mut self.conns[key];
        let mut progress = Progress::Stalled;
        let mut wake = wake;
        if !conn.output.is_empty() {
            match conn.output.write_to(&mut self.pool, &mut conn.sock) {
                Ok(0) => {}
                Ok(_) => progress = Progress::Made,
                Err(_) => return self.close(key),
            }
            if conn.marks.has(Mark::Paused) && !self.limits.output.paused(true, conn.output.len()) {
                conn.marks.remove(Mark::Paused);
                // A readable edge may have come and gone while paused: look now.
                wake = Wake::Readable;
            }
        }
        match conn.phase {
            Phase::Lingering => self.linger(key),
            Phase::Serving if wake == Wake::Readable && conn.reading() => {
                self.read_and_serve(key, token, now)
            }
            Phase::Serving | Phase::Closing => self.settle(key, now, progress, Request::Continuing),
        }
    }

    /// A readable turn: read what the budget allows, answer the complete requests, keep the
    /// incomplete tail, then send and decide what to wait for.
    fn read_and_serve(&mut self, key: usize, token: u64, now: u64) {
        // Out of `self` for the turn, so the parsed heads can borrow it while `self` is mutated.
        let mut scratch = core::mem::take(&mut self.scratch);
        let turn = self.read(key, &mut scratch).and_then(|read| {
            let served = self.serve(key, &scratch[..read.filled]);
            let tail = &scratch[served.consumed..read.filled];
            self.keep_tail(key, tail).ok().map(|()| (read, served))
        });
        self.scratch = scratch;
        match turn {
            Some((read, served)) => self.finish_turn(key, token, now, read, served),
            None => {
                self.out.clear();
                self.close(key);
            }
        }
    }

    /// Fills `scratch` with the input pipe's bytes, then the socket's, as far as the pool could
    /// keep them. `None`: the read failed (reset by peer, or worse), nothing is left to answer.
    fn read(&mut self, key: usize, scratch: &mut [u8]) -> Option<ReadTurn> {
        let segment_size = self.pool.segment_size();
        let conn = &mut self.conns[key];
        let held = conn.input.read(&mut self.pool, scratch);
        // Read no more than the pool could keep if all of it turned out to be an incomplete
        // tail (the pipe's own segments are back in the pool by now, so they count). A
        // connection that holds nothing may read a little even from an exhausted pool:
        // complete requests are answered straight from the scratch, and a tail that must be
        // kept sheds the oldest unfinished head (`shed_for`), so a full pool costs the peers
        // that hoard it, not the newcomers.
        let pool_budget = self.pool.available().saturating_mul(segment_size);
        let newcomer = if held == 0 { NEWCOMER_READ } else { 0 };
        let budget = pool_budget.max(newcomer).min(scratch.len());
        let mut filled = held;
        let end = loop {
            if filled >= budget {
                break if budget <= held {
                    ReadEnd::Starved
                } else {
                    ReadEnd::Full
                };
            }
            match nonblocking(|| conn.sock.read(&mut scratch[filled..budget])) {
                Ok(Some(0)) => break ReadEnd::Eof,
                Ok(Some(n)) => filled += n,
                Ok(None) => break ReadEnd::Drained,
                Err(_) => return None,
            }
        };
        Some(ReadTurn { held, filled, end })
    }

    /// Answers the complete requests at the start of `input` (at most `max_pipelined`) into
    /// `self.out`, feeding their bodies to the service as they arrive; stops at the first
    /// refusal or closing answer, or where a body needs more bytes.
    fn serve(&mut self, key: usize, input: &[u8]) -> Served {
        let limits = self.limits;
        let mut served = Served::default();
        loop {
            if self.conns[key].body.is_some() && !self.feed_body(key, input, &mut served) {
                break;
            }
            let conn = &mut self.conns[key];
            if served.consumed == input.len() || conn.phase != Phase::Serving {
                break;
            }
            if served.answered == limits.max_pipelined {
                served.more = true;
                break;
            }
            match http1::parse(&input[served.consumed..], limits) {
                Ok(Some(head)) => {
                    served.consumed += head.len;
                    let (exchange, reading) = self.service.head(&head);
                    let flight_persistence = if head.keep_alive {
                        Persistence::KeepAlive
                    } else {
                        Persistence::Close
                    };
                    let head_only = head.method == "HEAD";
                    if !head.framing.has_body() {
                        served.answered += 1;
                        self.respond(key, exchange, head.version(), flight_persistence, head_only);
                        continue;
                    }
                    let kind = match reading {
                        Reading::Raw => Ok(ContentKind::Raw),
                        Reading::Parse => ContentKind::of(head.content_type),
                    };
                    let reader = BodyReader::new(head.framing, kind, limits);
                    if head.expect_continue {
                        // RFC 9110 §10.1.1: the head is accepted and the body will be read.
                        self.out.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
                    }
                    self.conns[key].body = Some(Box::new(InFlight {
                        reader,
                        exchange,
                        version: head.version(),
                        persistence: flight_persistence,
                        head_only,
                    }));
                }
                Ok(None) => break,
                Err(e) => {
                    served.answered += 1;
                    refuse(&mut self.body, &mut self.out, Refusal::Head(e));
                    self.conns[key].phase = Phase::Closing;
                    break;
                }
            }
        }
        self.responses += served.answered as u64;
        served
    }

    /// Feeds the in-flight body what `input` holds of it; answers the request when the body is
    /// over. False: stop serving this turn (more bytes needed, or the framing failed).
    fn feed_body(&mut self, key: usize, input: &[u8], served: &mut Served) -> bool {
        let conn = &mut self.conns[key];
        let Some(flight) = conn.body.as_deref_mut() else {
            return true;
        };
        let service = &mut self.service;
        let InFlight {
            reader, exchange, ..
        } = flight;
        let fed = reader.feed(&input[served.consumed..], &mut |event| {
            service.body(exchange, event)
        });
        match fed {
            Ok((used, Fed::More)) => {
                served.consumed += used;
                served.body_bytes += used as u64;
                false
            }
            Ok((used, Fed::Done)) => {
                served.consumed += used;
                served.body_bytes += used as u64;
                served.answered += 1;
                let Some(flight) = conn.body.take() else {
                    return false;
                };
                let InFlight {
                    reader,
                    mut exchange,
                    version,
                    persistence,
                    head_only,
                } = *flight;
                let size = reader.size();
                self.service.body(&mut exchange, BodyEvent::End { size });
                self.respond(key, exchange, version, persistence, head_only);
                true
            }
            Err(e) => {
                conn.body = None;
                served.answered += 1;
                refuse(&mut self.body, &mut self.out, Refusal::Framing(e));
                conn.phase = Phase::Closing;
                false
            }
        }
    }

    /// The service writes its answer into `self.out`; a connection it asked to close (or one
    /// whose answer it did not write: 500) stops reading.
    fn respond(
        &mut self,
        key: usize,
        exchange: S::Exchange,
        version: Version,
        persistence: Persistence,
        head_only: bool,
    ) {
        let mut response = Response::new(&mut self.out, version, persistence, head_only);
        self.service.respond(exchange, &mut response);
        let (sent, given) = (response.sent(), response.persistence());
        if !sent {
            refuse(&mut self.body, &mut self.out, Refusal::NoResponse);
        }
        if !sent || given == Persistence::Close {
            self.conns[key].phase = Phase::Closing;
        }
    }

    /// Keeps an incomplete request for the next turn (nothing is kept once closing). When the
    /// pool is exhausted, the oldest unfinished heads make room (`shed_for`).
    fn keep_tail(&mut self, key: usize, tail: &[u8]) -> Result<(), Exhausted> {
        if self.conns[key].phase != Phase::Serving {
            return Ok(());
        }
        loop {
            match self.conns[key].input.write(&mut self.pool, tail) {
                Ok(()) => return Ok(()),
                Err(Exhausted) if self.shed_for(key) => {}
                Err(Exhausted) => return Err(Exhausted),
            }
        }
    }

    /// The pool is exhausted and `key` needs segments: closes the connection whose unfinished
    /// head has waited longest — a slowloris or a hoarder, never a body in progress — if it
    /// started no later than `key`'s own head. False when there is none.
    fn shed_for(&mut self, key: usize) -> bool {
        let me = &self.conns[key];
        let limit = if me.timeout == Timeout::Head {
            me.deadline
        } else {
            u64::MAX
        };
        let victim = self
            .conns
            .iter()
            .filter(|&(k, c)| {
                k != key
                    && c.phase == Phase::Serving
                    && c.body.is_none()
                    && c.timeout == Timeout::Head
                    && !c.input.is_empty()
                    && c.deadline <= limit
            })
            .min_by_key(|&(_, c)| c.deadline)
            .map(|(k, _)| k);
        match victim {
            Some(v) => {
                self.close(v);
                self.stats.shed.fetch_add(1, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// After a read turn: send its answers, then decide what the connection waits for.
    fn finish_turn(&mut self, key: usize, token: u64, now: u64, read: ReadTurn, served: Served) {
        if served.answered > 0 {
            self.conns[key].marks.insert(Mark::Served);
        }
        if !self.send_out(key) {
            return self.close(key);
        }
        let conn = &mut self.conns[key];
        if self.limits.output.paused(false, conn.output.len()) {
            conn.marks.insert(Mark::Paused);
        }
        if read.end == ReadEnd::Eof && !served.more {
            // Half-close: the peer will send nothing more; finish what is owed, then close.
            // (With requests still queued, the next turn reads EOF again and gets here later.)
            if conn.output.is_empty() {
                return self.close(key);
            }
            conn.phase = Phase::Closing;
        }
        if conn.flushed_closing() {
            return self.start_linger(key, now);
        }
        self.stretch_body_deadline(key, served.body_bytes);
        self.queue_more(key, token, read.end, served.more);
        let (progress, request) = match (served.answered, read.filled > read.held) {
            (0, false) => (Progress::Stalled, Request::Continuing),
            (0, true) => (Progress::Made, Request::Continuing),
            _ => (Progress::Made, Request::New),
        };
        self.set_deadline(key, now, progress, request);
    }

    /// Sends the turn's responses (`self.out`) and empties it. False: the connection must close
    /// (write error, or no segment for what the kernel did not take).
    fn send_out(&mut self, key: usize) -> bool {
        let sent = self.out.is_empty() || send(&mut self.conns[key], &mut self.pool, &self.out);
        self.out.clear();
        sent
    }

    /// With a minimum data rate, each body byte buys `1 / rate` seconds more.
    fn stretch_body_deadline(&mut self, key: usize, body_bytes: u64) {
        let conn = &mut self.conns[key];
        let Some(rate) = self.limits.min_data_rate else {
            return;
        };
        if body_bytes > 0 && conn.body.is_some() && conn.timeout == Timeout::Body {
            let extra = body_bytes.saturating_mul(1000) / u64::from(rate.bytes_per_second.max(1));
            conn.deadline = conn.deadline.saturating_add(extra);
        }
    }

    /// Queues a connection whose work is not done but will get no readiness event for it:
    /// requests beyond `max_pipelined`, or a read that stopped at its budget. One that could not
    /// read at all waits in `starved` until a segment comes back.
    fn queue_more(&mut self, key: usize, token: u64, end: ReadEnd, more: bool) {
        let conn = &mut self.conns[key];
        if conn.reading() && (more || end == ReadEnd::Full) {
            self.enqueue(key, token);
        } else if end == ReadEnd::Starved && conn.marks.insert(Mark::Starved) {
            self.starved.push(token);
        }
    }

    /// Lingers once a closing connection's output is flushed; otherwise files the next deadline.
    fn settle(&mut self, key: usize, now: u64, progress: Progress, request: Request) {
        if self.conns[key].flushed_closing() {
            return self.start_linger(key, now);
        }
        self.set_deadline(key, now, progress, request);
    }

    /// Picks the running deadline from the connection's state and files its timer.
    fn set_deadline(&mut self, key: usize, now: u64, progress: Progress, request: Request) {
        let limits = self.limits;
        let conn = &mut self.conns[key];
        let timeout = conn.running_timeout();
        let restart = conn.timeout != timeout
            || match timeout {
                Timeout::Write | Timeout::Idle => progress == Progress::Made,
                // The header timer runs from the head's first byte (or the connection's start)
                // and is not pushed back by more bytes: that is what cuts slowloris off.
                Timeout::Head | Timeout::Body => request == Request::New,
                Timeout::Linger => false,
            };
        if restart {
            conn.deadline = match timeout {
                Timeout::Write => now + ms(limits.write_timeout),
                Timeout::Body => limits
                    .min_data_rate
                    .map_or(u64::MAX, |rate| now + ms(rate.grace)),
                Timeout::Head => now + ms(limits.header_timeout),
                Timeout::Idle => now + ms(limits.keep_alive_timeout),
                Timeout::Linger => now + ms(limits.close_linger),
            };
        }
        conn.timeout = timeout;
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
        conn.phase = Phase::Lingering;
        conn.timeout = Timeout::Linger;
        conn.deadline = now + ms(self.limits.close_linger);
        self.linger(key);
        if self.conns.contains(key) {
            self.arm(key);
        }
    }

    /// Reads and discards until EOF (which closes); at most one scratch-full per turn, then it
    /// waits in `pending` so other connections get their turn.
    fn linger(&mut self, key: usize) {
        let conn = &mut self.conns[key];
        let mut budget = self.scratch.len();
        while budget > 0 {
            match nonblocking(|| conn.sock.read(&mut self.scratch[..budget])) {
                Ok(Some(0)) | Err(_) => return self.close(key),
                Ok(Some(n)) => budget -= n,
                Ok(None) => return,
            }
        }
        let token = token_of(key, conn.generation);
        self.enqueue(key, token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::http1::HeadError;

    #[test]
    fn idle_record_is_small() {
        // An idle keep-alive connection is this record (in the slab) plus one 8-byte wheel entry.
        // mio adds a selector id to its sockets in debug builds only.
        let debug_extra =
            core::mem::size_of::<TcpStream>() - core::mem::size_of::<std::net::TcpStream>();
        let size = core::mem::size_of::<Conn<()>>();
        assert!(size <= 48 + debug_extra.next_multiple_of(8), "{size}");
    }

    #[test]
    fn marks_are_independent_bits() {
        let all = [Mark::Served, Mark::Paused, Mark::Pending, Mark::Starved];
        let mut marks = Marks::default();
        for (i, &m) in all.iter().enumerate() {
            assert!(marks.insert(m), "{m:?} newly set");
            assert!(!marks.insert(m), "{m:?} already set");
            assert!(all[..=i].iter().all(|&n| marks.has(n)));
            assert!(all[i + 1..].iter().all(|&n| !marks.has(n)));
        }
        marks.remove(Mark::Paused);
        assert!(!marks.has(Mark::Paused) && marks.has(Mark::Served) && marks.has(Mark::Starved));
    }

    #[test]
    fn refusals_answer_their_status_and_close() {
        // (refusal, status line, JSON body)
        let cases = [
            (
                Refusal::HeadTimeout,
                "408 Request Timeout",
                r#"{"error":"408 Request Timeout: request head not received in time"}"#,
            ),
            (
                Refusal::Head(HeadError::HeadersTooLarge),
                "431 Request Header Fields Too Large",
                r#"{"error":"431 Request Header Fields Too Large"}"#,
            ),
        ];
        for (refusal, status, json) in cases {
            let (mut body, mut out) = (String::new(), Vec::new());
            refuse(&mut body, &mut out, refusal);
            let expect = format!(
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
                json.len()
            );
            assert_eq!(String::from_utf8(out).unwrap(), expect);
        }
    }
}
