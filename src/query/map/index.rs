//! The open-addressing [`Index`] that finds a name's head in a map of more than
//! [`LINEAR_MAX`] pairs, and its fallback when a query floods it: the heads sorted by name,
//! found by binary search.

use alloc::vec;
use alloc::vec::Vec;

use super::{Entry, QueryMap};
use crate::bytes::slice;

/// Up to this many pairs (counted from the `&`s, so an upper bound) heads are found by a
/// linear scan; past it an [`Index`] is built. Measured with callgrind on realistic queries
/// (parse plus k lookups, each way): at 2 to 5 pairs the scan costs 1-9% less for k = 1 and
/// about the same for k = 4, the index 2-6% less for k = 16; from 6 pairs on the index is
/// cheaper or equal for every k (8 pairs: 0.5% at k = 1, 7% at k = 16; 28 pairs: 5%).
pub(super) const LINEAR_MAX: usize = 5;

/// Open addressing with linear probing over a power-of-two table at most two thirds full: each
/// slot is 0 (empty) or a head's number plus one. A probe that meets another name is mostly
/// told apart by the head's key, so the slots hold no hash bits and the table (zeroed at
/// parse) is kept small.
///
/// The hash has no key (`core` has no randomness), so a query can be made whose names all
/// probe the same run of slots, which would make the build quadratic. The build counts its
/// probe steps; past [`flood_budget`] it stops hashing, and at the end the table is refilled
/// with the heads sorted by name, looked up by binary search: O(n log n) at worst, as the
/// sort-based map this one replaced.
#[derive(Clone, Debug, Default)]
pub(super) struct Index {
    pub(super) slots: Vec<u32>,
    /// `64 - log2(slots.len())`: the hash's top bits pick the first slot.
    shift: u32,
    /// Probe steps taken by the build so far.
    pub(super) steps: usize,
    /// The slots are no hash table but the heads sorted by name (`slots[..distinct]`), or
    /// (during the build) will be.
    pub(super) sorted: bool,
}

/// How many probe steps a build of `pairs` pairs may take before it is taken for a flood.
/// Honest names take one or two steps each at the table's load (callgrind counts on
/// realistic queries and on 1000 distinct names: under 2 per pair).
pub(super) fn flood_budget(pairs: usize) -> usize {
    8 * pairs + 256
}

/// `a` against `b`, ASCII-lowercased with `ignore_case`: the order of a flooded index.
pub(super) fn cmp_names(a: &[u8], b: &[u8], ignore_case: bool) -> core::cmp::Ordering {
    if ignore_case {
        a.iter()
            .map(u8::to_ascii_lowercase)
            .cmp(b.iter().map(u8::to_ascii_lowercase))
    } else {
        a.cmp(b)
    }
}

impl Index {
    /// An index for up to `pairs` names (none: an empty table, for a linear map).
    pub(super) fn with_room(pairs: usize) -> Index {
        if pairs <= LINEAR_MAX {
            return Index::default();
        }
        // At most two thirds full, so probe runs stay short; most queries repeat names, and
        // fill much less. `pairs` is at most `u32::MAX`.
        let len = pairs.saturating_add(pairs / 2).next_power_of_two();
        Index {
            slots: vec![0; len],
            shift: 64 - len.trailing_zeros(),
            steps: 0,
            sorted: false,
        }
    }

    /// `Ok(head)` of the name hashed to `hash` for which `is` holds, or `Err(slot)`: the
    /// empty slot where it goes; and how many slots were looked at.
    #[inline]
    pub(super) fn probe(&self, hash: u64, is: impl Fn(u32) -> bool) -> (Result<u32, usize>, usize) {
        let mask = self.slots.len().wrapping_sub(1);
        // `shift` leaves at most log2(len) bits: always in the table.
        let mut at = (hash >> self.shift) as usize & mask;
        // The table is never full, so the walk ends at an empty slot.
        for step in 1..=self.slots.len() {
            let slot = self.slots.get(at).copied().unwrap_or(0);
            if slot == 0 {
                return (Err(at), step);
            }
            let head = slot - 1;
            if is(head) {
                return (Ok(head), step);
            }
            at = (at + 1) & mask;
        }
        debug_assert!(false, "index full");
        (Err(at), self.slots.len())
    }

    /// Records `head` in the empty slot `at` that [`Index::probe`] gave.
    pub(super) fn insert(&mut self, at: usize, head: u32) {
        if let Some(slot) = self.slots.get_mut(at) {
            *slot = head + 1;
        }
    }
}

impl QueryMap {
    /// Groups the entries again from scratch with the old sort (a flooded index): every
    /// entry's number into the slots (there are at least as many slots as pairs), sorted by
    /// name and then number, so that each run of one name is its entries in input order; the
    /// runs are linked, and the slots end as the heads sorted by name.
    #[cold]
    #[inline(never)]
    pub(super) fn regroup_sorted(&mut self) {
        let ic = self.ignore_case;
        let n = self.entries.len();
        let text = self.text.as_bytes();
        let name_of = |entries: &[Entry], id: u32| {
            entries.get(id as usize).map_or(&[][..], |e| {
                slice(text, e.name.0 as usize..e.name.1 as usize)
            })
        };
        let Some(ids) = self.index.slots.get_mut(..n) else {
            debug_assert!(false, "fewer slots than pairs");
            return;
        };
        // Entry numbers fit in `u32` (checked by `parse`).
        for (i, id) in ids.iter_mut().enumerate() {
            *id = i as u32;
        }
        let entries = &self.entries;
        // An unstable sort allocates nothing; the number breaks ties.
        ids.sort_unstable_by(|&a, &b| {
            cmp_names(name_of(entries, a), name_of(entries, b), ic).then(a.cmp(&b))
        });
        let mut distinct = 0;
        let mut run = 0;
        while run < n {
            let head = ids.get(run).copied().unwrap_or(0);
            let mut end = run + 1;
            while let Some(&next) = ids.get(end) {
                let entries = &self.entries;
                if cmp_names(name_of(entries, head), name_of(entries, next), ic).is_ne() {
                    break;
                }
                end += 1;
            }
            // `ids[run..end]` are one name's entries in input order: link them.
            let members = slice(ids, run..end);
            for pair in members.windows(2) {
                let &[first, next] = pair else { continue };
                if let Some(e) = self.entries.get_mut(first as usize) {
                    e.next = next;
                    e.count = 0;
                }
            }
            let last = members.last().copied().unwrap_or(head);
            if let Some(l) = self.entries.get_mut(last as usize) {
                l.next = 0;
                l.count = 0;
            }
            if let Some(h) = self.entries.get_mut(head as usize) {
                h.count = (end - run) as u32;
                h.last = last;
            }
            // The heads, in name order, where the slots already read.
            if let Some(slot) = ids.get_mut(distinct) {
                *slot = head;
            }
            distinct += 1;
            run = end;
        }
        self.distinct = distinct;
    }
}

#[cfg(test)]
mod tests {
    use super::super::hash::{hash_name, Name};
    use super::super::MapOptions;
    use super::*;
    use alloc::string::String;

    /// Names that all start their probe at slot 0: the build must notice the flood, sort,
    /// and answer as an honest map does.
    #[test]
    fn flooded_index_sorts() {
        use alloc::format;
        use alloc::string::ToString;
        for ignore_case in [false, true] {
            // 120 pairs: a 256-slot index, its first slot picked by the hash's top 8 bits.
            let mut names = Vec::new();
            let mut i = 0u32;
            while names.len() < 60 {
                let n = format!("n{i}");
                let lowered = n.to_ascii_lowercase();
                if hash_name(Name::new(lowered.as_bytes(), ignore_case), ignore_case) >> 56 == 0 {
                    names.push(n);
                }
                i += 1;
            }
            // Each name twice, the second time in capitals, half of them far apart.
            let mut pairs = Vec::new();
            for (k, n) in names.iter().enumerate() {
                pairs.push(format!("{n}={k}"));
                if k % 2 == 0 {
                    pairs.push(format!("{}={k}b", n.to_ascii_uppercase()));
                }
            }
            for (k, n) in names.iter().enumerate().filter(|(k, _)| k % 2 == 1) {
                pairs.push(format!("{}={k}b", n.to_ascii_uppercase()));
            }
            let q = pairs.join("&");
            let opts = MapOptions {
                ignore_case,
                ..MapOptions::default()
            };
            let map = QueryMap::parse(&q, opts).unwrap();
            assert!(map.index.sorted, "the flood was not noticed");
            assert_eq!(map.pair_count(), 120);
            let mut want: Vec<(String, Vec<String>)> = Vec::new();
            for p in &pairs {
                let (n, v) = p.split_once('=').unwrap();
                let same = |g: &String| {
                    if ignore_case {
                        g.eq_ignore_ascii_case(n)
                    } else {
                        g == n
                    }
                };
                match want.iter_mut().find(|(g, _)| same(g)) {
                    Some((_, vs)) => vs.push(v.to_string()),
                    None => want.push((n.to_string(), alloc::vec![v.to_string()])),
                }
            }
            let got: Vec<(String, Vec<String>)> = map
                .iter()
                .map(|(n, vs)| (n.to_string(), vs.map(str::to_string).collect()))
                .collect();
            assert_eq!(got, want);
            for (n, vs) in &want {
                for spelling in [n.clone(), n.to_ascii_uppercase(), format!("{n}0")] {
                    let hit = want.iter().find(|(g, _)| {
                        if ignore_case {
                            g.eq_ignore_ascii_case(&spelling)
                        } else {
                            *g == spelling
                        }
                    });
                    let all: Vec<&str> = map.get_all(&spelling).collect();
                    let expect: Vec<&str> =
                        hit.map_or(alloc::vec![], |(_, v)| v.iter().map(|x| &**x).collect());
                    assert_eq!(all, expect, "{spelling}");
                    assert_eq!(map.get(&spelling), expect.first().copied());
                }
                let _ = vs;
            }
        }
    }

    /// Honest queries, many distinct names among them, stay within the flood budget.
    #[test]
    fn honest_names_are_no_flood() {
        use alloc::format;
        for n in [6, 100, 1000] {
            for ignore_case in [false, true] {
                let q: Vec<_> = (0..n).map(|i| format!("name_{i}=v&N{i}=w")).collect();
                let opts = MapOptions {
                    ignore_case,
                    max_pairs: 2 * n,
                    ..MapOptions::default()
                };
                let map = QueryMap::parse(&q.join("&"), opts).unwrap();
                assert!(!map.index.sorted, "{n} {ignore_case}");
            }
        }
    }
}
