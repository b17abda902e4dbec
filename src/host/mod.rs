//! The native host shim: an HTTP/1.1 inspection server (`reqparse serve`) whose idle
//! connections cost almost nothing.
//!
//! One [`mio`] event loop per thread, each with its own `SO_REUSEPORT` listener (the kernel
//! spreads new connections over them), its own [`Pool`] of segments (4 KiB by default), one
//! scratch buffer (64 KiB) and one [`timer::Wheel`]. Loops share only the read-only [`Config`],
//! the stop flag and the counters behind [`Stats`], so no lock is taken on the data path.
//!
//! # A request through the shim
//!
//! 1. `poll` says a socket is readable. Nothing was allocated for it while it waited: a
//!    connection is a slab record of a few words and one 8-byte wheel entry.
//! 2. The loop reads into its scratch buffer: first any bytes the connection kept from the last
//!    turn, then the socket, never more than the pool could keep if it all turned out to be an
//!    incomplete head.
//! 3. [`http1::parse`] runs over the scratch. Each complete head goes to the [`Handler`]'s
//!    [`Service`] (by default [`Inspect`]: the inspect JSON, from the native core or the wasm
//!    component, see [`Engine`]). Its framing is decided once (RFC 9112 §6.3: chunked, one
//!    `Content-Length`, or none; anything ambiguous is refused), and its body streams through
//!    the core's chunked decoder and the reader its `Content-Type` names (form, multipart)
//!    into [`Service::body`] as it arrives, then [`Service::respond`] answers. A malformed
//!    head, a broken chunked framing, or one over a [`Limits`] bound, gets its status code and
//!    the connection closes. At most [`Limits::max_pipelined`] requests are answered per turn,
//!    so one pipelining peer cannot starve the others.
//! 4. Only the unparsed tail is copied out of the scratch, into segments rented from the pool
//!    (the connection's input [`Pipe`]): an incomplete head, or what a body reader could not
//!    consume yet (a pair cut in two, what may begin a multipart delimiter — bounded by the
//!    readers' limits). Chunk data a reader leaves is kept by the body reader itself, as small.
//! 5. The responses are written straight to the socket; only what the kernel did not take goes
//!    into the output pipe, until the socket is writable again. Above
//!    [`Limits::output`]`.pause` unsent bytes the connection stops reading: TCP pushes back.
//! 6. A connection that must close (an error status, `Connection: close`, a half-close) stops
//!    reading, flushes, shuts its write side and reads and discards for
//!    [`Limits::close_linger`], so the peer sees the response rather than a reset.
//!
//! # Invariants
//!
//! - A pipe gives each segment back the moment its last byte is consumed, and an empty pipe holds
//!   none: an idle keep-alive connection is its record and the kernel's socket, nothing else
//!   (at most 128 bytes of heap, `tests/host_alloc.rs`). Once every connection is closed the pool
//!   has every segment back; unused ones are freed after [`Config::pool_idle_release`], and
//!   a loop left idle has the allocator return the pages its work freed.
//! - Every peer-controlled quantity is bounded by [`Limits`] or by the pool's cap
//!   ([`Config::pool_max_bytes`]); at the cap connections stop reading instead of growing,
//!   except that one holding nothing still reads a complete request (answered from the
//!   scratch), and one that must keep a tail closes the unfinished head that has held the
//!   pool longest ([`Stats::shed`]): a full pool costs the hoarders, not the newcomers.
//! - Every connection has one running deadline, picked from its state: head, body rate (none
//!   when [`Limits::min_data_rate`] is off), idle, write or linger. The header timer is not
//!   pushed back by more bytes, which is what stops slowloris.
//! - Connection tokens carry a generation, so an event or timer entry left over from a closed
//!   connection never reaches the one that reuses its slot.
//!
//! The crate-level layering (the shim depends on the core and on `inspect`, never the reverse)
//! is described in `ARCHITECTURE.md`.
//!
//! ```no_run
//! use reqparse::host::{Config, Server};
//! let server = Server::bind(Config { addr: "127.0.0.1:0".parse().unwrap(), ..Config::default() })?;
//! println!("listening on http://{}", server.local_addr());
//! let stop = server.shutdown_handle();
//! std::thread::spawn(move || { std::thread::sleep(std::time::Duration::from_secs(1)); stop.shutdown(); });
//! server.run()?;
//! # Ok::<(), std::io::Error>(())
//! ```

mod body;
mod conn;
mod event_loop;
mod handler;
pub mod http1;
mod inspect;
mod pipe;
mod pool;
mod signal;
pub mod timer;

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use body::{BodyEvent, ContentError};
pub use handler::{Handler, Reading, Response, ResponseError, Service};
pub use http1::{Framing, Head};
pub use inspect::{Inspect, Inspector, ANSWER_PAGE, MAX_LISTED, MAX_SHOWN_VALUE, UPLOAD_PAGE};
pub use pipe::{Exhausted, Pipe, Thresholds};
pub use pool::{Pool, Segment};

/// Which implementation turns a request head into the JSON answer.
#[derive(Default)]
pub enum Engine {
    /// The Rust core, called directly.
    #[default]
    Native,
    /// The WebAssembly component, run by wasmtime (one instance per loop).
    #[cfg(feature = "engine-wasm")]
    Wasm(crate::engine::WasmEngine),
}

impl core::fmt::Debug for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Engine::Native => f.write_str("Native"),
            #[cfg(feature = "engine-wasm")]
            Engine::Wasm(_) => f.write_str("Wasm"),
        }
    }
}

/// Minimum request-body data rate (Kestrel's `MinRequestBodyDataRate`): after `grace`, a body
/// must keep arriving at `bytes_per_second` on average or the connection is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinDataRate {
    /// Average bytes per second required once the grace period is over.
    pub bytes_per_second: u32,
    /// Time allowed before the rate applies.
    pub grace: Duration,
}

/// Limits on everything a peer controls. Each one is a status code or a close the peer sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Time allowed from a connection's start (or a request's first byte) to the end of its
    /// head; on expiry the shim answers 408 and closes. Default 30 s (Kestrel). Cuts off slowloris.
    pub header_timeout: Duration,
    /// Minimum body data rate; `None` disables it. Default 240 B/s after 5 s (Kestrel).
    pub min_data_rate: Option<MinDataRate>,
    /// How long a keep-alive connection may sit idle between requests. Default 130 s (Kestrel).
    pub keep_alive_timeout: Duration,
    /// How long a response may wait for the peer to read it without any progress. Default 30 s.
    pub write_timeout: Duration,
    /// After an error response, how long the shim keeps reading (and discarding) before closing,
    /// so the peer sees the response instead of a reset. Default 2 s.
    pub close_linger: Duration,
    /// Longest request line in bytes (without CRLF); longer → 414 and close. Default 8 KiB.
    pub max_request_line: usize,
    /// Largest header section in bytes; larger → 431 and close. Default 32 KiB.
    pub max_header_bytes: usize,
    /// Most header fields; more → 431 and close. Default 100, at most [`http1::MAX_HEADERS_CAP`].
    pub max_headers: usize,
    /// Requests answered per connection per readiness turn; the rest waits for the next turn, so
    /// one pipelining client cannot starve the others. Default 16.
    pub max_pipelined: usize,
    /// Largest body, after the transfer coding: a larger `Content-Length` → 413 before the body
    /// is read; a chunked body that grows past it → 413 and close. Default 128 MiB (ASP.NET
    /// Core's multipart body limit).
    pub max_body: u64,
    /// The chunked decoder's limits: chunk-line, chunk-extension and trailer sizes, framing
    /// overhead. Its `max_body_bytes` is not used: [`Limits::max_body`] replaces it. Over one →
    /// 400 and close (413 for the body size), with the limit's name.
    pub chunked: crate::body::chunked::ChunkedLimits,
    /// Limits of `application/x-www-form-urlencoded` bodies. A pair is held whole until its `&`
    /// arrives, so the host's default value limit is 64 KiB rather than the core's 4 MiB.
    /// Its `max_body_bytes` is not used: [`Limits::max_body`] replaces it.
    pub form: crate::body::form::FormLimits,
    /// How form bodies are decoded. Default `whatwg`.
    pub form_profile: crate::query::Profile,
    /// Limits of `multipart/form-data` bodies (parts, header block, values, files, preamble, …).
    /// Its `max_body_bytes` is not used: [`Limits::max_body`] replaces it. Its `max_file_bytes`
    /// (128 MiB) still bounds each file: raise it with `max_body` for larger uploads
    /// (`reqparse serve --max-body` sets both).
    pub multipart: crate::body::multipart::MultipartLimits,
    /// How multipart bodies are read. Default `fetch` (what browsers send, as WPT checks it).
    pub multipart_profile: crate::body::multipart::Profile,
    /// Readiness events handled per `poll` wakeup. Default 1024.
    pub max_events_per_wakeup: usize,
    /// Unsent response bytes at which a connection stops reading requests, and at which it
    /// resumes. Default 64 KiB / 16 KiB.
    pub output: Thresholds,
    /// How long accepting pauses after `EMFILE`/`ENFILE`/`ENOBUFS`/`ENOMEM`. Default 100 ms.
    pub accept_backoff: Duration,
}

impl Limits {
    /// The chunked decoder's limits, its body size [`Limits::max_body`]: one number for every
    /// body-size limit, so raising it is enough for a 1 GiB upload.
    pub(crate) fn chunked_limits(&self) -> crate::body::chunked::ChunkedLimits {
        crate::body::chunked::ChunkedLimits {
            max_body_bytes: self.max_body,
            ..self.chunked
        }
    }

    /// The form reader's limits, its body size [`Limits::max_body`].
    pub(crate) fn form_limits(&self) -> crate::body::form::FormLimits {
        crate::body::form::FormLimits {
            max_body_bytes: self.max_body,
            ..self.form
        }
    }

    /// The multipart reader's limits, its body size [`Limits::max_body`].
    pub(crate) fn multipart_limits(&self) -> crate::body::multipart::MultipartLimits {
        crate::body::multipart::MultipartLimits {
            max_body_bytes: self.max_body,
            ..self.multipart
        }
    }

    /// The longest incomplete pair the form reader may leave unconsumed.
    pub(crate) fn form_tail(&self) -> usize {
        self.form
            .max_name_bytes
            .saturating_add(self.form.max_value_bytes)
            .saturating_add(2)
    }

    /// The longest tail the multipart reader may leave unconsumed: a header block, or what may
    /// begin a delimiter and its padding.
    pub(crate) fn multipart_tail(&self) -> usize {
        self.multipart
            .max_header_bytes
            .saturating_add(self.multipart.max_boundary_bytes)
            .saturating_add(4096)
    }

    /// The longest run of bytes a body may leave unconsumed between two reads: the scratch must
    /// hold it and more, or the body could not go on.
    pub(crate) fn largest_body_tail(&self) -> usize {
        let c = &self.chunked;
        self.form_tail()
            .max(self.multipart_tail())
            .max(c.max_line_bytes)
            .max(c.max_trailer_bytes)
    }
}

impl Default for Limits {
    /// The documented defaults.
    ///
    /// ```
    /// let limits = reqparse::host::Limits::default();
    /// assert_eq!((limits.max_request_line, limits.max_header_bytes, limits.max_headers), (8192, 32768, 100));
    /// ```
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(30),
            min_data_rate: Some(MinDataRate {
                bytes_per_second: 240,
                grace: Duration::from_secs(5),
            }),
            keep_alive_timeout: Duration::from_secs(130),
            write_timeout: Duration::from_secs(30),
            close_linger: Duration::from_secs(2),
            max_request_line: 8 * 1024,
            max_header_bytes: 32 * 1024,
            max_headers: 100,
            max_pipelined: 16,
            max_body: 128 << 20,
            chunked: crate::body::chunked::ChunkedLimits::default(),
            form: crate::body::form::FormLimits {
                max_value_bytes: 64 * 1024,
                ..Default::default()
            },
            form_profile: crate::query::Profile::default(),
            multipart: crate::body::multipart::MultipartLimits::default(),
            multipart_profile: crate::body::multipart::Profile::default(),
            max_events_per_wakeup: 1024,
            output: Thresholds {
                pause: 64 * 1024,
                resume: 16 * 1024,
            },
            accept_backoff: Duration::from_millis(100),
        }
    }
}

/// Server configuration.
#[derive(Debug)]
pub struct Config {
    /// Address to listen on. Default `127.0.0.1:8080`.
    pub addr: SocketAddr,
    /// Event loops (threads), each with its own `SO_REUSEPORT` listener. Default: available cores.
    pub threads: usize,
    /// Native core or the wasm component. Default native.
    pub engine: Engine,
    /// Limits on what peers control.
    pub limits: Limits,
    /// Bytes per pooled segment. Default 4 KiB.
    pub segment_size: usize,
    /// Cap on segment memory per loop (rented + kept). At the cap, connections stop reading.
    /// Default 64 MiB.
    pub pool_max_bytes: usize,
    /// Segments not rented during a whole interval are freed. Default 10 s. A loop that has
    /// had no event for this long, or for 1 s if that is shorter, also has the allocator return
    /// the free pages its work left (glibc's `malloc_trim`), once per idle period.
    pub pool_idle_release: Duration,
    /// Per-loop scratch buffer that every read goes into. Default 64 KiB; raised if needed to
    /// hold the largest head the limits allow.
    pub scratch_size: usize,
    /// Timer wheel resolution. Default 10 ms.
    pub timer_tick: Duration,
}

impl Default for Config {
    /// `127.0.0.1:8080`, one loop per available core, native engine, default limits.
    ///
    /// ```
    /// let config = reqparse::host::Config::default();
    /// assert_eq!(config.addr.to_string(), "127.0.0.1:8080");
    /// assert!(config.threads >= 1);
    /// ```
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            engine: Engine::Native,
            limits: Limits::default(),
            segment_size: 4096,
            pool_max_bytes: 64 << 20,
            pool_idle_release: Duration::from_secs(10),
            scratch_size: 64 * 1024,
            timer_tick: Duration::from_millis(10),
        }
    }
}

/// Live figures summed over the loops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Open connections.
    pub connections: usize,
    /// Segments rented out of the pools (held by pipes).
    pub rented_segments: usize,
    /// Bytes of free segments kept by the pools for reuse.
    pub pooled_bytes: usize,
    /// Times accepting paused because the process or system ran out of descriptors or memory.
    pub accept_backoffs: u64,
    /// Requests answered (any status).
    pub responses: u64,
    /// Connections closed to free segments for others: unfinished heads that held the
    /// exhausted pool longest.
    pub shed: u64,
    /// Times a loop, idle for a while after some work, had the allocator return the free pages
    /// that work left (glibc's `malloc_trim`; counted, and a no-op, on other targets): at most
    /// once per idle period.
    pub idle_trims: u64,
}

#[derive(Debug, Default)]
struct LoopStats {
    connections: AtomicUsize,
    rented_segments: AtomicUsize,
    pooled_bytes: AtomicUsize,
    accept_backoffs: AtomicU64,
    responses: AtomicU64,
    shed: AtomicU64,
    idle_trims: AtomicU64,
}

#[derive(Debug)]
struct Shared {
    stop: AtomicBool,
    wakers: Vec<mio::Waker>,
}

/// Reads a running [`Server`]'s [`Stats`] from any thread.
#[derive(Clone, Debug)]
pub struct StatsHandle {
    loops: Vec<Arc<LoopStats>>,
}

impl StatsHandle {
    /// Figures summed over the loops (each loop publishes them after every wakeup).
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// assert_eq!(server.stats_handle().stats().rented_segments, 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn stats(&self) -> Stats {
        let mut s = Stats::default();
        for l in &self.loops {
            s.connections += l.connections.load(Ordering::Relaxed);
            s.rented_segments += l.rented_segments.load(Ordering::Relaxed);
            s.pooled_bytes += l.pooled_bytes.load(Ordering::Relaxed);
            s.accept_backoffs += l.accept_backoffs.load(Ordering::Relaxed);
            s.responses += l.responses.load(Ordering::Relaxed);
            s.shed += l.shed.load(Ordering::Relaxed);
            s.idle_trims += l.idle_trims.load(Ordering::Relaxed);
        }
        s
    }
}

/// Stops a running [`Server`] from any thread.
///
/// ```no_run
/// let server = reqparse::host::Server::bind(Default::default())?;
/// let stop = server.shutdown_handle();
/// std::thread::spawn(move || stop.shutdown());
/// server.run()?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ShutdownHandle {
    shared: Arc<Shared>,
}

impl ShutdownHandle {
    /// Asks every loop to stop: no new connection or request is taken, answers already written
    /// are flushed for at most [`Limits::close_linger`], then the connections close and `run`
    /// returns `Ok(())`.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// server.shutdown_handle().shutdown(); // run() will return at once
    /// server.run()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn shutdown(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for waker in &self.shared.wakers {
            // A failed wake means the loop is gone already.
            let _ = waker.wake();
        }
    }
}

/// A bound, not yet running server.
#[derive(Debug)]
pub struct Server {
    seeds: Vec<event_loop::Seed>,
    local_addr: SocketAddr,
    shared: Arc<Shared>,
    stats: Vec<Arc<LoopStats>>,
    config: Config,
}

impl Server {
    /// Binds one `SO_REUSEPORT` listener per loop (port 0 picks one port for all of them).
    /// A port another socket already listens on is an `AddrInUse` error naming the address:
    /// only this server's own loops share the port.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(reqparse::host::Config {
    ///     addr: "127.0.0.1:0".parse().unwrap(),
    ///     ..Default::default()
    /// })?;
    /// assert_ne!(server.local_addr().port(), 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn bind(mut config: Config) -> io::Result<Server> {
        let l = &config.limits;
        let invalid = |what: &str| {
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("host config: {what}"),
            ))
        };
        if config.threads == 0 {
            return invalid("threads must be at least 1");
        }
        if l.max_headers > http1::MAX_HEADERS_CAP {
            return invalid("max_headers is over 256");
        }
        if config.segment_size == 0 || l.max_pipelined == 0 || l.max_events_per_wakeup == 0 {
            return invalid(
                "segment_size, max_pipelined and max_events_per_wakeup must be positive",
            );
        }
        if l.output.resume > l.output.pause {
            return invalid("output.resume is above output.pause");
        }
        // The longest incomplete head `http1::parse` may ask to keep: leading empty lines, the
        // request line and the header section. The scratch must hold it and one more byte.
        let largest_head = l
            .max_request_line
            .saturating_mul(2)
            .saturating_add(l.max_header_bytes)
            .saturating_add(8);
        let largest_tail = l.largest_body_tail().saturating_add(l.max_request_line);
        config.scratch_size = config
            .scratch_size
            .max(largest_head)
            .max(largest_tail.saturating_add(1))
            .max(config.segment_size);
        let mut addr = config.addr;
        let asked = config.addr;
        let named =
            move |e: io::Error| io::Error::new(e.kind(), format!("cannot listen on {asked}: {e}"));
        // Only this server's own loops share the port (see `check_free`).
        event_loop::Seed::check_free(addr).map_err(named)?;
        let mut seeds = Vec::with_capacity(config.threads);
        let mut wakers = Vec::with_capacity(config.threads);
        for _ in 0..config.threads {
            let (seed, waker) = event_loop::Seed::bind(addr).map_err(named)?;
            addr = seed.local_addr()?;
            seeds.push(seed);
            wakers.push(waker);
        }
        Ok(Server {
            local_addr: addr,
            stats: seeds.iter().map(|_| Arc::default()).collect(),
            seeds,
            shared: Arc::new(Shared {
                stop: AtomicBool::new(false),
                wakers,
            }),
            config,
        })
    }

    /// The address the listeners are bound to.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// println!("http://{}", server.local_addr());
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// A handle that stops the server from another thread.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// let _stop = server.shutdown_handle();
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn shutdown_handle(&self) -> ShutdownHandle {
        ShutdownHandle {
            shared: self.shared.clone(),
        }
    }

    /// Live [`Stats`] now (all zero before `run`).
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// assert_eq!(server.stats().connections, 0);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn stats(&self) -> Stats {
        self.stats_handle().stats()
    }

    /// A handle that reads [`Stats`] from another thread while `run` blocks.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// let stats = server.stats_handle();
    /// std::thread::spawn(move || println!("{:?}", stats.stats()));
    /// server.run()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn stats_handle(&self) -> StatsHandle {
        StatsHandle {
            loops: self.stats.clone(),
        }
    }

    /// Runs the loops (one thread each) until [`ShutdownHandle::shutdown`]; connections are
    /// closed and every segment given back before it returns.
    ///
    /// ```no_run
    /// let server = reqparse::host::Server::bind(Default::default())?;
    /// server.run()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn run(self) -> io::Result<()> {
        // The engine moves out of the config for the handler to borrow while the loops run.
        let Server {
            seeds,
            local_addr,
            shared,
            stats,
            mut config,
        } = self;
        let engine = core::mem::take(&mut config.engine);
        let limits = config.limits.clone();
        let server = Server {
            seeds,
            local_addr,
            shared,
            stats,
            config,
        };
        server.run_with(&Inspect::with_limits(&engine, limits))
    }

    /// Runs the loops with `handler` answering every request (see [`Handler`]); otherwise as
    /// [`Server::run`] (whose handler is [`Inspect`]).
    ///
    /// ```no_run
    /// use reqparse::host::{Config, Engine, Inspect, Server};
    /// let server = Server::bind(Config::default())?;
    /// let engine = Engine::Native;
    /// server.run_with(&Inspect::new(&engine))?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn run_with<H: Handler>(self, handler: &H) -> io::Result<()> {
        let Server {
            seeds,
            shared,
            stats,
            config,
            ..
        } = self;
        let config = &config;
        std::thread::scope(|scope| {
            let handles: Vec<_> = seeds
                .into_iter()
                .zip(stats)
                .enumerate()
                .map(|(i, (seed, stats))| {
                    let shared = shared.clone();
                    std::thread::Builder::new()
                        .name(format!("reqparse-loop-{i}"))
                        .spawn_scoped(scope, move || {
                            let result = event_loop::run(seed, config, &shared, &stats, handler);
                            if result.is_err() {
                                // One loop failing stops the server rather than leaving it half up.
                                ShutdownHandle {
                                    shared: shared.clone(),
                                }
                                .shutdown();
                            }
                            result
                        })
                })
                .collect::<io::Result<_>>()?;
            let mut first_err = Ok(());
            for h in handles {
                let r = h
                    .join()
                    .unwrap_or_else(|_| Err(io::Error::other("event loop panicked")));
                if first_err.is_ok() {
                    first_err = r;
                }
            }
            first_err
        })
    }
}

/// Binds `config`, prints `listening on http://ADDR` to stderr and serves until SIGINT or
/// SIGTERM, then closes every connection and returns `Ok(())`.
///
/// The signals are blocked in the calling thread first, so the loop threads inherit the mask.
/// Threads that already run do not: if one was started before (loading [`Engine::Wasm`]
/// starts wasmtime's epoch and compiler threads), call [`block_stop_signals`] before that.
///
/// ```no_run
/// reqparse::host::serve(reqparse::host::Config::default())?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn serve(config: Config) -> io::Result<()> {
    // Blocked before the loop threads exist, so they inherit the mask and only the signal
    // thread ever sees SIGINT/SIGTERM (blocking twice, after `block_stop_signals`, is harmless).
    let signals = signal::Terminate::block()?;
    let server = Server::bind(config)?;
    eprintln!("listening on http://{}", server.local_addr());
    // Threads started before the mask was set (the wasm engine's, say) may take the signal.
    // Counted before the waiter starts: a thread in sigwait shows the signals unblocked.
    let unblocked = signal::unblocked_threads();
    if unblocked > 0 {
        eprintln!(
            "warning: {unblocked} thread(s) started before serve() do not block SIGINT and \
             SIGTERM, so a stop signal may end the process abruptly: call \
             reqparse::host::block_stop_signals() before starting them"
        );
    }
    let stop = server.shutdown_handle();
    signals.spawn_waiter(move || stop.shutdown())?;
    server.run()
}

/// Blocks SIGINT and SIGTERM in the calling thread and in every thread it starts from now on,
/// as [`serve`] does itself. Call it before anything that starts threads ahead of `serve`: a
/// thread with the signals unblocked takes them instead of `serve`'s signal thread, and then
/// SIGTERM's default action ends the process (exit 143) without the clean stop, and an
/// ignored SIGINT (a script's background job inherits that) is dropped.
///
/// ```no_run
/// reqparse::host::block_stop_signals()?;
/// // ... start threads (e.g. load the wasm engine), then:
/// reqparse::host::serve(reqparse::host::Config::default())?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn block_stop_signals() -> io::Result<()> {
    signal::Terminate::block().map(drop)
}

/// Runs one nonblocking call (read, write, accept, poll), retrying it when a signal interrupted
/// it. `Ok(None)` means it would block: wait for the next readiness event. This is the one place
/// those two error kinds are handled; every other error is the caller's to judge.
fn nonblocking<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<Option<T>> {
    loop {
        match op() {
            Ok(v) => return Ok(Some(v)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The inspector's view of an accepted head: the shim only speaks plain HTTP.
fn request_head<'a>(head: &http1::Head<'a>) -> crate::inspect::RequestHead<'a> {
    crate::inspect::RequestHead {
        method: head.method,
        scheme: "http",
        host: head.host,
        target: head.target,
        content_disposition: head.content_disposition,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonblocking_retries_interrupts_and_maps_would_block() {
        // (results the call returns in turn) → what nonblocking makes of them.
        use io::ErrorKind::{Interrupted, Other, WouldBlock};
        type Case = (
            &'static [Result<u8, io::ErrorKind>],
            Result<Option<u8>, io::ErrorKind>,
        );
        let cases: &[Case] = &[
            (&[Ok(3)], Ok(Some(3))),
            (&[Err(Interrupted), Err(Interrupted), Ok(0)], Ok(Some(0))),
            (&[Err(Interrupted), Err(WouldBlock)], Ok(None)),
            (&[Err(Other)], Err(Other)),
        ];
        for &(results, expect) in cases {
            let mut calls = results.iter();
            let got = nonblocking(|| match calls.next() {
                Some(&Ok(v)) => Ok(v),
                Some(&Err(kind)) => Err(io::Error::from(kind)),
                None => panic!("called after a final result"),
            });
            assert_eq!(got.map_err(|e| e.kind()), expect, "{results:?}");
            assert!(calls.next().is_none(), "{results:?}: every result consumed");
        }
    }
}
