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

/// How many threads of this process do not block both SIGINT and SIGTERM (from each thread's
/// `SigBlk` in `/proc/self/task/*/status`; 0 where that cannot be read). Such a thread, started
/// before [`Terminate::block`], may take the signal instead of the waiter. Count before the
/// waiter starts: while in `sigwait` a thread's mask shows the awaited signals unblocked.
pub(crate) fn unblocked_threads() -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    let wanted = (1u64 << (libc::SIGINT - 1)) | (1u64 << (libc::SIGTERM - 1));
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("status")).ok())
        .filter_map(|status| {
            let mask = status.lines().find_map(|l| l.strip_prefix("SigBlk:"))?;
            u64::from_str_radix(mask.trim(), 16).ok()
        })
        .filter(|blocked| blocked & wanted != wanted)
        .count()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn counts_threads_that_do_not_block_the_signals() {
        let (started, stop) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|s| {
            s.spawn(|| {
                started.wait();
                stop.wait();
            });
            started.wait();
            // This thread and the one just spawned block nothing.
            assert!(super::unblocked_threads() >= 2);
            stop.wait();
        });
    }
}
