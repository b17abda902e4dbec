//! A hashed timer wheel holding connection tokens, one per loop.
//!
//! Each connection keeps its own deadline; the wheel only holds one `u64` token per armed
//! connection, in the slot of the tick it must be looked at. Entries are never removed when a
//! deadline moves: each connection remembers the tick of its one live entry (its "armed" tick),
//! and when a slot comes round [`Wheel::classify`] tells, from that tick, whether an entry is
//! due, the live one for a later round of the same slot, or a stale leftover to drop. That keeps
//! arming O(1) and costs 8 bytes per idle connection.

/// Slots in the wheel; deadlines further away than `SLOTS` ticks are simply seen more than once.
pub const SLOTS: usize = 256;

/// What an entry taken from a due slot is, judged by its owner's armed tick
/// (see [`Wheel::classify`]).
///
/// ```
/// use reqparse::host::timer::{Entry, Wheel};
/// assert_eq!(Wheel::new(10, 0).classify(None), Entry::Stale);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The armed tick has come: fire (the owner then checks its deadline and re-arms if the
    /// deadline moved later).
    Due,
    /// The live entry, filed in this slot for a later round: file it again under the armed tick.
    Later,
    /// A leftover from an earlier arming (or the owner has no live entry): drop it.
    Stale,
}

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

    /// Judges an entry taken from the slot just returned by [`next_due`](Wheel::next_due), given
    /// the tick its owner's one live entry is filed under (`None` when it has none).
    ///
    /// A slot holds entries for every tick congruent to it modulo [`SLOTS`], and an owner whose
    /// deadline moved earlier has filed a new entry without removing the old one. So an entry is
    /// due when the armed tick has come, is the live one for a later round when the armed tick
    /// falls in this same slot, and is stale otherwise.
    ///
    /// ```
    /// use reqparse::host::timer::{Entry, Wheel, SLOTS};
    /// let mut wheel = Wheel::new(1, 0);
    /// assert!(wheel.next_due(3).is_some()); // now at tick 1
    /// assert_eq!(wheel.classify(Some(1)), Entry::Due);
    /// assert_eq!(wheel.classify(Some(1 + SLOTS as u64)), Entry::Later);
    /// assert_eq!(wheel.classify(Some(2)), Entry::Stale, "its live entry is in another slot");
    /// ```
    pub fn classify(&self, armed: Option<u64>) -> Entry {
        match armed {
            None => Entry::Stale,
            Some(tick) if tick <= self.current => Entry::Due,
            Some(tick) if tick % SLOTS as u64 == self.current % SLOTS as u64 => Entry::Later,
            Some(_) => Entry::Stale,
        }
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
    fn classify_fires_live_entries_once_and_drops_stale_ones() {
        // One owner re-armed from tick 300 to tick 40 (a deadline moved earlier): the entry at
        // 300 stays filed. Then, once 40 fired, it re-armed at 296 (40 + SLOTS): the old entry
        // at 300 must not fire, and the one at 296 must come round twice before it does.
        let mut wheel = Wheel::new(1, 0);
        wheel.insert(300, 7);
        wheel.insert(40, 7);
        let mut armed = Some(40u64);
        let mut fired = Vec::new();
        for now in 1..=700u64 {
            while let Some(mut due) = wheel.next_due(now) {
                for token in due.drain(..) {
                    match wheel.classify(armed) {
                        Entry::Due => {
                            fired.push(wheel.current());
                            armed = (wheel.current() == 40).then_some(40 + 2 * SLOTS as u64);
                            if let Some(tick) = armed {
                                wheel.insert(tick, token);
                            }
                        }
                        Entry::Later => wheel.insert(armed.unwrap(), token),
                        Entry::Stale => {}
                    }
                }
                wheel.recycle(due);
            }
        }
        assert_eq!(
            fired,
            [40, 552],
            "each live entry fired once, at its own tick"
        );
        assert!(wheel.is_empty(), "the stale entry at 300 was dropped");

        // The table itself, at tick 5 of a 256-slot wheel.
        let mut wheel = Wheel::new(1, 0);
        while wheel.current() < 5 {
            wheel.next_due(5);
        }
        let slots = SLOTS as u64;
        let cases = [
            (None, Entry::Stale),
            (Some(3), Entry::Due),
            (Some(5), Entry::Due),
            (Some(5 + slots), Entry::Later),
            (Some(5 + 3 * slots), Entry::Later),
            (Some(6), Entry::Stale),
            (Some(4 + slots), Entry::Stale),
        ];
        for (armed, expect) in cases {
            assert_eq!(wheel.classify(armed), expect, "armed {armed:?}");
        }
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
