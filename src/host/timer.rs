//! A hashed timer wheel holding connection tokens, one per loop.
//!
//! Each connection keeps its own deadline; the wheel only holds one `u64` token per armed
//! connection, in the slot of the tick it must be looked at. Entries are never removed when a
//! deadline moves: the loop checks the connection's armed tick when the slot comes round, and
//! re-arms or drops the entry. That keeps arming O(1) and costs 8 bytes per idle connection.

/// Slots in the wheel; deadlines further away than `SLOTS` ticks are simply seen more than once.
pub const SLOTS: usize = 256;

/// The wheel: `SLOTS` buckets of tokens, and the last tick already processed.
#[derive(Debug)]
pub struct Wheel {
    slots: Vec<Vec<u64>>,
    tick_ms: u64,
    /// Last processed tick.
    current: u64,
    len: usize,
}

impl Wheel {
    /// A wheel whose ticks are `tick_ms` milliseconds apart, starting at tick `now_ms / tick_ms`.
    ///
    /// ```
    /// let wheel = reqparse::host::timer::Wheel::new(10, 1234);
    /// assert_eq!(wheel.current(), 123);
    /// ```
    pub fn new(tick_ms: u64, now_ms: u64) -> Wheel {
        let tick_ms = tick_ms.max(1);
        Wheel {
            slots: (0..SLOTS).map(|_| Vec::new()).collect(),
            tick_ms,
            current: now_ms / tick_ms,
            len: 0,
        }
    }

    /// The first tick at or after `deadline_ms` (never one already processed).
    ///
    /// ```
    /// let wheel = reqparse::host::timer::Wheel::new(10, 0);
    /// assert_eq!((wheel.tick_at(0), wheel.tick_at(101)), (1, 11));
    /// ```
    pub fn tick_at(&self, deadline_ms: u64) -> u64 {
        deadline_ms.div_ceil(self.tick_ms).max(self.current + 1)
    }

    /// The last processed tick.
    ///
    /// ```
    /// assert_eq!(reqparse::host::timer::Wheel::new(10, 0).current(), 0);
    /// ```
    pub fn current(&self) -> u64 {
        self.current
    }

    /// Files `token` under `tick` (from [`tick_at`](Wheel::tick_at)).
    ///
    /// ```
    /// let mut wheel = reqparse::host::timer::Wheel::new(10, 0);
    /// wheel.insert(5, 42);
    /// assert_eq!(wheel.len(), 1);
    /// ```
    pub fn insert(&mut self, tick: u64, token: u64) {
        self.slots[(tick % SLOTS as u64) as usize].push(token);
        self.len += 1;
    }

    /// Entries filed (including stale ones not yet dropped).
    ///
    /// ```
    /// assert_eq!(reqparse::host::timer::Wheel::new(10, 0).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no entry is filed.
    ///
    /// ```
    /// assert!(reqparse::host::timer::Wheel::new(10, 0).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Milliseconds from `now_ms` until the next non-empty slot is due, or `None` when the wheel
    /// is empty: a loop whose timers are all far away sleeps instead of waking every tick.
    ///
    /// ```
    /// let mut wheel = reqparse::host::timer::Wheel::new(10, 0);
    /// assert_eq!(wheel.timeout_ms(3), None);
    /// wheel.insert(5, 7);
    /// assert_eq!(wheel.timeout_ms(3), Some(47));
    /// ```
    pub fn timeout_ms(&self, now_ms: u64) -> Option<u64> {
        if self.len == 0 {
            return None;
        }
        let ahead = (1..=SLOTS as u64)
            .find(|k| !self.slots[((self.current + k) % SLOTS as u64) as usize].is_empty())
            .unwrap_or(1);
        Some(((self.current + ahead) * self.tick_ms).saturating_sub(now_ms))
    }

    /// Takes the entries of the next due slot (advancing `current`), or `None` when every tick up
    /// to `now_ms` has been processed. The caller decides per entry: fire, re-file, or drop.
    /// Hand the emptied vector back with [`recycle`](Wheel::recycle) to keep its capacity.
    ///
    /// ```
    /// let mut wheel = reqparse::host::timer::Wheel::new(10, 0);
    /// wheel.insert(wheel.tick_at(25), 7);
    /// let mut seen = Vec::new();
    /// while let Some(v) = wheel.next_due(20) {
    ///     seen.extend(v); // ticks 1 and 2: nothing due
    /// }
    /// assert!(seen.is_empty());
    /// assert_eq!(wheel.next_due(30), Some(vec![7]), "tick 3 holds the entry");
    /// ```
    pub fn next_due(&mut self, now_ms: u64) -> Option<Vec<u64>> {
        let now_tick = now_ms / self.tick_ms;
        if self.current >= now_tick {
            return None;
        }
        // After a long stall one pass over every slot covers all ticks.
        self.current = self.current.max(now_tick.saturating_sub(SLOTS as u64)) + 1;
        let slot = core::mem::take(&mut self.slots[(self.current % SLOTS as u64) as usize]);
        self.len -= slot.len();
        Some(slot)
    }

    /// Returns an emptied vector from [`next_due`](Wheel::next_due) to the current slot.
    ///
    /// ```
    /// let mut wheel = reqparse::host::timer::Wheel::new(10, 0);
    /// let v = wheel.next_due(10).unwrap();
    /// wheel.recycle(v);
    /// ```
    pub fn recycle(&mut self, mut v: Vec<u64>) {
        v.clear();
        let slot = &mut self.slots[(self.current % SLOTS as u64) as usize];
        if slot.is_empty() && slot.capacity() < v.capacity() {
            *slot = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fires_in_order_and_wraps() {
        // (tick_ms, deadlines in ms) → every token comes out at the first tick at/after it.
        let mut wheel = Wheel::new(10, 0);
        let deadlines = [5u64, 10, 11, 2559, 2560, 2561, 5000, 100_000];
        for (i, &d) in deadlines.iter().enumerate() {
            wheel.insert(wheel.tick_at(d), i as u64);
        }
        let mut fired = vec![None; deadlines.len()];
        let mut now = 0;
        while now <= 101_000 {
            while let Some(mut v) = wheel.next_due(now) {
                let tick = wheel.current();
                for tok in v.drain(..) {
                    let d = deadlines[tok as usize];
                    if d.div_ceil(10) > tick {
                        // A later round of the same slot: file again, as the loop does.
                        wheel.insert(wheel.tick_at(d), tok);
                    } else {
                        fired[tok as usize] = Some(now);
                    }
                }
                wheel.recycle(v);
            }
            now += 7;
        }
        for (i, &d) in deadlines.iter().enumerate() {
            let at = fired[i].unwrap_or_else(|| panic!("{d} never fired"));
            assert!(at >= d && at < d + 10 + 7, "deadline {d} fired at {at}");
        }
        assert!(wheel.is_empty());
    }

    #[test]
    fn long_stall_covers_every_slot_once() {
        let mut wheel = Wheel::new(1, 0);
        for t in 1..=SLOTS as u64 {
            wheel.insert(t, t);
        }
        let mut seen = 0;
        while let Some(v) = wheel.next_due(1_000_000) {
            seen += v.len();
        }
        assert_eq!(seen, SLOTS);
        assert!(wheel.is_empty());
    }
}
