//! Per-loop segment pool: fixed-size byte segments rented and returned without a lock.
//!
//! Every event loop owns one [`Pool`]; nothing is shared between threads, so renting is a
//! `Vec::pop`. The pool caps the bytes it will ever hand out or keep (`max_bytes`); when the cap
//! is reached [`Pool::rent`] says no and the caller stops reading, which lets TCP push back on
//! the peer instead of growing memory. Segments nobody rented during a whole trim interval are
//! surplus and [`Pool::trim`] gives them back to the allocator.

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
}

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
        surplus
    }
}

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
}
