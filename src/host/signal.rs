//! Ctrl-C for `serve`: SIGINT and SIGTERM are blocked in every thread and taken by one thread
//! with `sigwait`, which then asks the loops to stop. No handler runs in signal context, so
//! nothing here has to be async-signal-safe.

use std::io;

/// SIGINT and SIGTERM, blocked in the calling thread (and every thread it spawns later).
pub(crate) struct Terminate {
    set: libc::sigset_t,
}

impl Terminate {
    /// Blocks SIGINT and SIGTERM in the calling thread; threads spawned afterwards inherit it.
    pub(crate) fn block() -> io::Result<Terminate> {
        // SAFETY: sigset_t is plain data; sigemptyset initialises it before any other use.
        let mut set: libc::sigset_t = unsafe { core::mem::zeroed() };
        // SAFETY: `set` is a valid, exclusively borrowed sigset_t; the signal numbers are valid.
        let rc = unsafe {
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::pthread_sigmask(libc::SIG_BLOCK, &set, core::ptr::null_mut())
        };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(Terminate { set })
    }

    /// Spawns the thread that waits for SIGINT or SIGTERM and then calls `on_signal` once.
    pub(crate) fn spawn_waiter(self, on_signal: impl FnOnce() + Send + 'static) -> io::Result<()> {
        let Terminate { set } = self;
        // sigset_t is plain data; moving a copy into the thread is fine.
        let set = SigSet(set);
        std::thread::Builder::new()
            .name("reqparse-signals".into())
            .spawn(move || {
                let set = set;
                let mut sig: libc::c_int = 0;
                // SAFETY: `set.0` was initialised by sigemptyset/sigaddset; `sig` is a valid out pointer.
                let rc = unsafe { libc::sigwait(&set.0, &mut sig) };
                if rc == 0 {
                    on_signal();
                }
            })?;
        Ok(())
    }
}

struct SigSet(libc::sigset_t);
