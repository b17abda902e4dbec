//! Per-loop segment pool: fixed-size byte segments rented and returned without a lock.
//!
//! Every event loop owns one [`Pool`]; nothing is shared between threads, so renting is a
//! `Vec::pop`. The pool caps the bytes it will ever hand out or keep (`max_bytes`); when the cap
//! is reached [`Pool::rent`] says no and the caller stops reading, which lets TCP push back on
//! the peer instead of growing memory. Segments nobody rented during a whole trim interval are
//! surplus and [`Pool::trim`] gives them back to the allocator, and has the allocator give
//! the pages back to the OS (see [`return_to_os`]).

/// One rented segment: a fixed-size heap buffer (two words).
pub type Segment = Box<[u8]>;

/// A lock-free (single-owner) pool of fixed-size segments with a memory cap.
///
/// ```
/// use reqparse::host::Pool;
/// let mut pool = Pool::new(4096, 8192);
/// let a = pool.rent().unwrap();
/// let b = pool.rent().unwrap();
/// assert!(pool.rent().is_none(), "the cap is two segments");
/// pool.give_back(a);
/// pool.give_back(b);
/// assert_eq!((pool.rented(), pool.pooled_bytes()), (0, 8192));
/// ```
#[derive(Debug)]
pub struct Pool {
    free: Vec<Segment>,
    segment_size: usize,
    /// Most segments alive at once (rented + free), from `max_bytes`.
    max_segments: usize,
    rented: usize,
    /// Fewest free segments seen since the last trim: that many were never needed.
    low_water: usize,
    /// Bytes freed by trims since the allocator was last asked to return pages to the OS.
    released: usize,
}

/// Freed bytes after which [`Pool::trim`] has the allocator return free pages to the OS even
/// though the pool is still in use (an idle pool returns them after any release).
const RETURN_TO_OS_BYTES: usize = 1 << 20;

impl Pool {
    /// A pool of `segment_size`-byte segments holding at most `max_bytes` (rented + free).
    ///
    /// ```
    /// let pool = reqparse::host::Pool::new(4096, 1 << 20);
    /// assert_eq!(pool.available(), 256);
    /// ```
    pub fn new(segment_size: usize, max_bytes: usize) -> Pool {
        let segment_size = segment_size.max(1);
        Pool {
            free: Vec::new(),
            segment_size,
            max_segments: max_bytes / segment_size,
            rented: 0,
            low_water: 0,
            released: 0,
        }
    }

    /// Size of every segment in bytes.
    ///
    /// ```
    /// assert_eq!(reqparse::host::Pool::new(4096, 0).segment_size(), 4096);
    /// ```
    pub fn segment_size(&self) -> usize {
        self.segment_size
    }

    /// Rents a segment (a free one if any, else a fresh allocation), or `None` at the cap.
    ///
    /// ```
    /// let mut pool = reqparse::host::Pool::new(4096, 4096);
    /// let seg = pool.rent().unwrap();
    /// assert_eq!(seg.len(), 4096);
    /// assert!(pool.rent().is_none());
    /// ```
    pub fn rent(&mut self) -> Option<Segment> {
        let seg = match self.free.pop() {
            Some(seg) => {
                self.low_water = self.low_water.min(self.free.len());
                seg
            }
            None if self.rented < self.max_segments => vec![0u8; self.segment_size].into(),
            None => return None,
        };
        self.rented += 1;
        Some(seg)
    }

    /// Returns a segment rented from this pool; it is kept for reuse.
    ///
    /// ```
    /// let mut pool = reqparse::host::Pool::new(16, 64);
    /// let seg = pool.rent().unwrap();
    /// pool.give_back(seg);
    /// assert_eq!(pool.pooled_bytes(), 16);
    /// ```
    pub fn give_back(&mut self, seg: Segment) {
        debug_assert_eq!(seg.len(), self.segment_size);
        self.rented = self.rented.saturating_sub(1);
        self.free.push(seg);
    }

    /// How many more segments [`rent`](Pool::rent) would hand out right now.
    ///
    /// ```
    /// let mut pool = reqparse::host::Pool::new(16, 64);
    /// let _seg = pool.rent();
    /// assert_eq!(pool.available(), 3);
    /// ```
    pub fn available(&self) -> usize {
        self.max_segments.saturating_sub(self.rented)
    }

    /// Segments currently rented out.
    ///
    /// ```
    /// let mut pool = reqparse::host::Pool::new(16, 64);
    /// let _seg = pool.rent();
    /// assert_eq!(pool.rented(), 1);
    /// ```
    pub fn rented(&self) -> usize {
        self.rented
    }

    /// Bytes held by free segments (kept for reuse, not rented).
    ///
    /// ```
    /// assert_eq!(reqparse::host::Pool::new(16, 64).pooled_bytes(), 0);
    /// ```
    pub fn pooled_bytes(&self) -> usize {
        self.free.len() * self.segment_size
    }

    /// Releases the free segments that were not needed since the previous call, and returns
    /// how many. Call it every idle interval: a burst's surplus lasts at most two intervals.
    /// Once it has freed 1 MiB, or freed anything and left the pool idle (nothing rented or
    /// kept), the allocator is asked to return its free pages to the OS, so that the memory of
    /// a burst leaves the process's resident set rather than only the pool's count.
    ///
    /// ```
    /// let mut pool = reqparse::host::Pool::new(16, 64);
    /// let (a, b) = (pool.rent().unwrap(), pool.rent().unwrap());
    /// pool.give_back(a);
    /// pool.give_back(b);
    /// pool.trim(); // starts the observation window
    /// assert_eq!(pool.trim(), 2, "neither segment was rented during the window");
    /// assert_eq!(pool.pooled_bytes(), 0);
    /// ```
    pub fn trim(&mut self) -> usize {
        let surplus = self.low_water.min(self.free.len());
        self.free.truncate(self.free.len() - surplus);
        if self.free.is_empty() {
            // An empty free list must not keep its capacity either.
            self.free = Vec::new();
        }
        self.low_water = self.free.len();
        self.released = self
            .released
            .saturating_add(surplus.saturating_mul(self.segment_size));
        let idle = self.rented == 0 && self.free.is_empty();
        if self.released >= RETURN_TO_OS_BYTES || (idle && self.released > 0) {
            return_to_os();
            self.released = 0;
        }
        surplus
    }
}

/// Has glibc's malloc return the free pages of every arena to the OS (`madvise(DONTNEED)`).
///
/// Segments are small (4 KiB by default), so glibc carves them out of its arenas' heaps, and
/// on `free` keeps those pages: only the top of a heap is ever trimmed by itself, and segments
/// freed in the middle stay resident (measured: after 500 connections held 1,500 segments and
/// were reset, the resident set stayed 5.9 MiB above its baseline with the pool empty, see
/// `tests/host_rss.rs`). `malloc_trim(0)` releases every whole free page of every arena; it is
/// called at most once per trim interval per loop, and only after a trim freed memory, and by
/// each event loop once per idle period (what requests and connections freed). The
/// alternatives are worse: a segment of its own `mmap` is a system call and a mapping per
/// segment, and segments large enough for the allocator to map directly (128 KiB) would
/// multiply what a connection with a partial head holds. Other allocators (musl's, or a
/// `#[global_allocator]`) are left to their own policy.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) fn return_to_os() {
    // SAFETY: malloc_trim takes no pointers; it walks glibc's own arenas under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) fn return_to_os() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_rent_return_trim() {
        // (segment size, cap bytes) → segments available
        for (size, cap, expect) in [
            (4096, 0, 0),
            (4096, 4095, 0),
            (4096, 4096, 1),
            (4096, 1 << 20, 256),
            (1, 3, 3),
        ] {
            assert_eq!(Pool::new(size, cap).available(), expect, "{size} {cap}");
        }
        let mut pool = Pool::new(8, 24);
        let segs: Vec<_> = (0..3).map(|_| pool.rent().unwrap()).collect();
        assert!(pool.rent().is_none());
        assert_eq!(pool.rented(), 3);
        for s in segs {
            pool.give_back(s);
        }
        assert_eq!(
            (pool.rented(), pool.pooled_bytes(), pool.available()),
            (0, 24, 3)
        );
        // Window 1: one segment is rented and returned, so at least 2 stayed free all along.
        pool.trim();
        let s = pool.rent().unwrap();
        pool.give_back(s);
        assert_eq!(pool.trim(), 2);
        assert_eq!(pool.pooled_bytes(), 8);
        // Window 2: nobody rented; the last one goes too.
        assert_eq!(pool.trim(), 1);
        assert_eq!(pool.pooled_bytes(), 0);
        assert_eq!(pool.trim(), 0);
    }

    #[test]
    fn pages_go_back_to_the_os_after_1_mib_or_once_idle() {
        let mut pool = Pool::new(4096, 8 << 20);
        let burst = |pool: &mut Pool, n: usize| {
            let segs: Vec<_> = (0..n).map(|_| pool.rent().unwrap()).collect();
            segs.into_iter().for_each(|s| pool.give_back(s));
            pool.trim();
            pool.trim()
        };
        let held = pool.rent().unwrap(); // the pool stays in use
        assert_eq!(burst(&mut pool, 128), 128);
        assert_eq!(
            pool.released,
            128 * 4096,
            "512 KiB freed: counted, not returned yet"
        );
        assert_eq!(burst(&mut pool, 128), 128);
        assert_eq!(pool.released, 0, "1 MiB freed in all: returned");
        assert_eq!(burst(&mut pool, 1), 1);
        assert_eq!(pool.released, 4096);
        pool.give_back(held);
        pool.trim();
        assert_eq!(pool.trim(), 1);
        assert_eq!(
            pool.released, 0,
            "idle pool: whatever was freed is returned"
        );
    }
}
