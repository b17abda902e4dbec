//! [`QueryMap`]: a query parsed once into a multi-map, for many lookups.
//!
//! Built in one pass over the pairs, with no sort: one `String` (the arena) starts with a copy
//! of the query and gets the names and values that need decoding appended decoded; every pair
//! becomes an [`Entry`] of spans into it, and the entries of one name are linked in input
//! order from the first of them (the name's head). Heads are found by a linear scan in a small
//! map and by a small open-addressing [`Index`] in a larger one (past [`LINEAR_MAX`] pairs).
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::decode::CountSink;
use super::{pairs, Pair, Profile, QueryError, QueryErrorKind};
use crate::bytes::{slice, str_slice};

/// Options for [`QueryMap::parse`].
///
/// ```
/// use reqparse::query::MapOptions;
/// let opts = MapOptions { ignore_case: true, ..MapOptions::default() };
/// assert_eq!((opts.max_pairs, opts.max_decoded_bytes), (1000, 64 * 1024));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapOptions {
    /// How names and values are decoded.
    pub profile: Profile,
    /// Names compare ASCII case-insensitively; the first spelling seen is kept.
    pub ignore_case: bool,
    /// Most pairs accepted (default 1000); more is [`QueryErrorKind::TooManyPairs`].
    pub max_pairs: usize,
    /// Most decoded bytes (names + values) accepted (default 64 KiB); more is
    /// [`QueryErrorKind::TooLarge`].
    pub max_decoded_bytes: usize,
}

impl Default for MapOptions {
    fn default() -> Self {
        MapOptions {
            profile: Profile::Whatwg,
            ignore_case: false,
            max_pairs: 1000,
            max_decoded_bytes: 64 * 1024,
        }
    }
}

/// Up to this many pairs (counted from the `&`s, so an upper bound) heads are found by a
/// linear scan; past it an [`Index`] is built. Measured with callgrind on realistic queries
/// (parse plus k lookups, each way): at 2 to 5 pairs the scan costs 1-9% less for k = 1 and
/// about the same for k = 4, the index 2-6% less for k = 16; from 6 pairs on the index is
/// cheaper or equal for every k (8 pairs: 0.5% at k = 1, 7% at k = 16; 28 pairs: 5%).
const LINEAR_MAX: usize = 5;

/// One pair: its decoded name is `text[name.0..name.1]` and its value `text[value.0..value.1]`.
/// 40 bytes.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The name's [`name_key`]: most names that differ are told apart by it alone.
    key: u64,
    name: (u32, u32),
    value: (u32, u32),
    /// The next entry with the same name, in input order; 0 after the last (entry 0 is always
    /// a head, so it is never anyone's next).
    next: u32,
    /// On a head (the name's first entry): how many entries have the name. 0 on every other
    /// entry, which is how heads are told apart.
    count: u32,
    /// On a head: the name's last entry, where the next one is linked on.
    last: u32,
}

/// A name to look for, with what is compared first.
#[derive(Clone, Copy)]
struct Name<'n> {
    bytes: &'n [u8],
    key: u64,
}

impl<'n> Name<'n> {
    #[inline]
    fn new(bytes: &'n [u8], ignore_case: bool) -> Self {
        Name {
            bytes,
            key: name_key(bytes, ignore_case),
        }
    }
}

/// The entries and their arena, read together to compare names.
#[derive(Clone, Copy)]
struct Names<'m> {
    entries: &'m [Entry],
    text: &'m [u8],
    ignore_case: bool,
}

impl Names<'_> {
    /// Whether entry `e` has `name`. A key holds a whole name of up to 8 bytes, so only a
    /// longer one is compared further.
    #[inline(always)]
    fn is(&self, e: &Entry, name: Name<'_>) -> bool {
        let len = name.bytes.len();
        e.key == name.key
            && (e.name.1 - e.name.0) as usize == len
            && (len <= 8 || {
                let have = slice(self.text, e.name.0 as usize..e.name.1 as usize);
                same_after_key(have, name.bytes, self.ignore_case)
            })
    }

    /// The head of `name`, by a scan of the heads: for a map without an index.
    #[inline]
    fn scan(&self, name: Name<'_>) -> Option<u32> {
        for (id, e) in self.entries.iter().enumerate() {
            // The key first: it differs for nearly every other name.
            if e.key == name.key && e.count != 0 && self.is(e, name) {
                // Entry numbers fit in `u32` (checked by `parse`).
                return Some(id as u32);
            }
        }
        None
    }

    /// Whether `head` (an entry number from the index) has `name`.
    #[inline]
    fn head_is(&self, head: u32, name: Name<'_>) -> bool {
        self.entries
            .get(head as usize)
            .is_some_and(|e| self.is(e, name))
    }
}

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
struct Index {
    slots: Vec<u32>,
    /// `64 - log2(slots.len())`: the hash's top bits pick the first slot.
    shift: u32,
    /// Probe steps taken by the build so far.
    steps: usize,
    /// The slots are no hash table but the heads sorted by name (`slots[..distinct]`), or
    /// (during the build) will be.
    sorted: bool,
}

/// How many probe steps a build of `pairs` pairs may take before it is taken for a flood.
/// Honest names take one or two steps each at the table's load (callgrind counts on
/// realistic queries and on 1000 distinct names: under 2 per pair).
fn flood_budget(pairs: usize) -> usize {
    8 * pairs + 256
}

/// `a` against `b`, ASCII-lowercased with `ignore_case`: the order of a flooded index.
fn cmp_names(a: &[u8], b: &[u8], ignore_case: bool) -> core::cmp::Ordering {
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
    fn with_room(pairs: usize) -> Index {
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
    fn probe(&self, hash: u64, is: impl Fn(u32) -> bool) -> (Result<u32, usize>, usize) {
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
    fn insert(&mut self, at: usize, head: u32) {
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
    fn regroup_sorted(&mut self) {
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
                if let (Some(e), [_, next]) = (self.entries.get_mut(pair[0] as usize), pair) {
                    e.next = *next;
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

/// Reads `name` as words: `word(at)` is the 8 bytes at `at`, `half` the 4, `byte` the one
/// (each 0 past the end, which the callers never reach).
#[inline]
fn word(name: &[u8], at: usize) -> u64 {
    name.get(at..)
        .and_then(<[u8]>::first_chunk)
        .map_or(0, |c| u64::from_le_bytes(*c))
}

#[inline]
fn half(name: &[u8], at: usize) -> u64 {
    name.get(at..)
        .and_then(<[u8]>::first_chunk)
        .map_or(0, |c| u64::from(u32::from_le_bytes(*c)))
}

#[inline]
fn byte(name: &[u8], at: usize) -> u64 {
    u64::from(name.get(at).copied().unwrap_or(0))
}

/// The first 8 bytes of `name` as one word, ASCII-lowercased with `ignore_case`. A shorter
/// name is read in two or three loads that overlap (as wyhash reads short keys) and so is
/// held whole: two names of at most 8 bytes are the same when their keys and lengths are.
#[inline]
fn name_key(name: &[u8], ignore_case: bool) -> u64 {
    let len = name.len();
    let w = match len {
        0 => 0,
        1..=3 => byte(name, 0) | byte(name, len / 2) << 8 | byte(name, len - 1) << 16,
        4..=7 => half(name, 0) | half(name, len - 4) << 32,
        _ => word(name, 0),
    };
    if ignore_case {
        ascii_lower(w)
    } else {
        w
    }
}

/// A hash of `name`: its key, its length, and past 8 bytes the rest, lowercased like the key.
/// The index takes its top bits, where a multiply mixes every input bit.
#[inline]
fn hash_name(name: Name<'_>, ignore_case: bool) -> u64 {
    // rustc-hash's multiplier: odd, and its bits spread a product well.
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let bytes = name.bytes;
    let len = bytes.len();
    let mut h = (name.key ^ len as u64).wrapping_mul(K);
    if len > 8 {
        let fold = |w: u64| if ignore_case { ascii_lower(w) } else { w };
        let mut at = 8;
        while at + 8 < len {
            h = (h ^ fold(word(bytes, at))).wrapping_mul(K);
            at += 8;
        }
        // The last 8 bytes, overlapping the word before when `len` is no multiple of 8.
        h = (h ^ fold(word(bytes, len - 8))).wrapping_mul(K);
    }
    h
}

/// Whether `a` and `b`, of one length over 8 whose keys are equal (so their first 8 bytes are
/// the same), are the same name: the rest compared a word at a time, the last word overlapping
/// the one before (as `hash_name` reads it), lowercased with `ignore_case`. A word loop, not
/// `memcmp` or a byte loop: names are short, and this is the probe's hot path.
#[inline]
fn same_after_key(a: &[u8], b: &[u8], ignore_case: bool) -> bool {
    let fold = |w: u64| if ignore_case { ascii_lower(w) } else { w };
    let len = a.len();
    let mut at = 8;
    while at + 8 < len {
        if fold(word(a, at)) != fold(word(b, at)) {
            return false;
        }
        at += 8;
    }
    len >= 8 && fold(word(a, len - 8)) == fold(word(b, len - 8))
}

/// `w` with every ASCII uppercase byte lowercased, eight bytes at a time.
#[inline]
fn ascii_lower(w: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let b = w & LOW7;
    // Per byte, no carries (b <= 0x7F): the high bit set where b >= 'A' (0x41 + 0x3F = 0x80),
    // and where b > 'Z' (0x5B + 0x25 = 0x80); a byte with its own high bit set is not ASCII.
    let at_least_a = b + 0x3F3F_3F3F_3F3F_3F3F;
    let past_z = b + 0x2525_2525_2525_2525;
    let upper = at_least_a & !past_z & !w & HIGH;
    // 0x80 >> 2 is 0x20, the bit that lowercases an ASCII letter.
    w | upper >> 2
}

/// How many `&` are in `bytes`. A short query is counted eight bytes at a time here, since
/// memchr's vector loop costs more to set up than such a query takes (callgrind: 400 vs 60
/// instructions at 66 bytes); a long one by memchr.
#[inline]
fn count_amps(bytes: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    if bytes.len() >= 248 {
        return memchr::memchr_iter(b'&', bytes).count();
    }
    let (words, tail) = bytes.as_chunks::<8>();
    // Per-byte counters: at most 30 words, so no lane (nor their sum) passes 255.
    let mut lanes = 0u64;
    for w in words {
        let x = u64::from_le_bytes(*w) ^ (ONES * u64::from(b'&'));
        // The high bit clear exactly in the bytes of `x` that are zero (no borrow, unlike the
        // scanner's test: here every byte counts, not only the first).
        let nonzero = ((x & LOW7) + LOW7) | x;
        lanes += (!nonzero >> 7) & ONES;
    }
    let counted = (lanes.wrapping_mul(ONES) >> 56) as usize;
    counted + tail.iter().filter(|&&b| b == b'&').count()
}

/// A parsed multi-map of a query string (the `QueryHelpers.ParseQuery` counterpart).
///
/// Names come in first-appearance order, each with its values in input order. Limits are
/// checked before anything is allocated. A parse makes at most three allocations however many
/// pairs there are, and none for a query with no pairs: one `String` of at most twice the
/// query's length (a copy of the query, which holds the names and values with nothing to
/// decode, then the others decoded), one `Vec` of pair spans (sized from the `&`s), and past
/// 5 pairs one hash index of the names (a `u32` per slot, 1.5 to 3 slots per pair). Lookups
/// allocate nothing; they are a scan of at most 5 names in a small map and a hash probe in a
/// larger one, with no sort anywhere.
///
/// **Map or re-enumerate?** Looking a name up by re-enumerating with [`Pair::name_eq`] costs a
/// scan of the query up to the name per lookup, all of it for a name that is not there; the
/// map costs one decode of everything, then about 130 instructions per lookup. Measured in
/// callgrind instructions per operation with `scripts/bench-counts.py 'crossover/*'` (parse
/// plus k lookups with [`QueryMap::get`], against k `pairs(q).find(|p| p.name_eq(name))` plus
/// `value_in`; realistic queries, the first 4 names looked up among their first 4 pairs, the
/// 5th absent, the rest among the first 18 pairs):
///
/// | pairs | k = 1 | k = 2 | k = 4 | k = 8 | k = 16 |
/// |---:|---:|---:|---:|---:|---:|
/// | 4 (66 B) | 3.1K / 1.4K | 3.2K / 2.3K | **3.5K** / 5.2K | **4.0K** / 14K | **5.0K** / 33K |
/// | 28 (543 B) | 21K / 1.4K | 21K / 2.3K | 22K / 5.2K | **22K** / 45K | **23K** / 103K |
/// | 260 (4.8 KB) | 187K / 1.4K | 187K / 2.3K | 187K / 5.2K | 188K / 179K | **189K** / 238K |
///
/// (map / re-enumerate; bold where the map costs less.) So parse once from about 3 lookups on
/// a short query; on a longer one re-enumerate while the names sit near its start, and parse
/// once as soon as a lookup may miss or sit far in (that lookup alone scans the whole query:
/// at 260 pairs about as much as the parse).
///
/// [`Pair::name_eq`]: super::Pair::name_eq
///
/// ```
/// use reqparse::query::{MapOptions, QueryMap};
///
/// let map = QueryMap::parse("?tag=a&Tag=b&tag=c&q=x+y", MapOptions::default())?;
/// assert_eq!(map.get("q"), Some("x y"));
/// assert_eq!(map.get_all("tag").collect::<Vec<_>>(), ["a", "c"]);
/// let ci = QueryMap::parse("?tag=a&Tag=b", MapOptions { ignore_case: true, ..Default::default() })?;
/// assert_eq!(ci.get_all("TAG").collect::<Vec<_>>(), ["a", "b"]);
/// assert_eq!(ci.iter().next().unwrap().0, "tag");
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct QueryMap {
    text: String,
    /// `text` starts with the query: names and values with nothing to decode are spans of it.
    copied: bool,
    entries: Vec<Entry>,
    /// Empty in a linear map.
    index: Index,
    /// Distinct names (heads).
    distinct: usize,
    ignore_case: bool,
}

/// The exact (pairs, decoded bytes) of `query`, or the limit it breaks, found without
/// allocating: for a query that may break a limit. The first pair past `max_pairs` is an
/// error wherever it is; then, only when the raw bytes are over `max_decoded_bytes`, the
/// decoded bytes are counted (decoding never makes valid UTF-8 longer) and the pair that
/// crosses the limit is the error.
#[cold]
fn exact_size(query: &str, options: &MapOptions) -> Result<(usize, usize), QueryError> {
    let mut count = 0usize;
    let mut raw_total = 0usize;
    for pair in pairs(query) {
        count += 1;
        if count > options.max_pairs {
            return Err(QueryError::new(QueryErrorKind::TooManyPairs, pair.offset()));
        }
        raw_total += pair.name().len() + pair.value().len();
    }
    let mut capacity = raw_total;
    if raw_total > options.max_decoded_bytes {
        let mut sink = CountSink(0);
        for pair in pairs(query) {
            pair.name_part().decode_to(options.profile, &mut sink)?;
            pair.value_part().decode_to(options.profile, &mut sink)?;
            if sink.0 > options.max_decoded_bytes {
                return Err(QueryError::new(QueryErrorKind::TooLarge, pair.offset()));
            }
        }
        capacity = sink.0;
    }
    // Spans and entry numbers are `u32`.
    if capacity > u32::MAX as usize || count > u32::MAX as usize {
        return Err(QueryError::new(QueryErrorKind::TooLarge, 0));
    }
    // Room for the raw bytes, not only the decoded ones: a part is decoded into room for its
    // raw length, then cut back (`QueryMap::push`), so this way nothing reallocates.
    Ok((count, capacity.max(raw_total)))
}

impl QueryMap {
    /// Parses `query` (one leading `?` allowed) into a map, checking the limits first.
    ///
    /// ```
    /// use reqparse::query::{MapOptions, QueryErrorKind, QueryMap};
    ///
    /// let opts = MapOptions { max_pairs: 2, ..MapOptions::default() };
    /// let err = QueryMap::parse("a=1&b=2&c=3", opts).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (QueryErrorKind::TooManyPairs, 8));
    /// ```
    pub fn parse(query: &str, options: MapOptions) -> Result<QueryMap, QueryError> {
        let mut it = pairs(query);
        let ignore_case = options.ignore_case;
        let Some(first) = it.next() else {
            return Ok(QueryMap {
                text: String::new(),
                copied: false,
                entries: Vec::new(),
                index: Index::default(),
                distinct: 0,
                ignore_case,
            });
        };
        // Sizes from bounds that cost no pass over the pairs: a pair per `&` and one more, and
        // the whole input's length (decoding never makes valid UTF-8 longer). Only a query for
        // which these bounds break a limit is measured exactly first.
        let bound = count_amps(query.as_bytes()) + 1;
        let (pair_room, text_room) = if bound <= options.max_pairs
            && query.len() <= options.max_decoded_bytes
            && query.len() <= u32::MAX as usize
        {
            (bound, query.len())
        } else {
            exact_size(query, &options)?
        };
        // The arena starts with a copy of the whole query, where the names and values that
        // need no decoding stay (one copy instead of one per name and value); the others are
        // decoded after it, into at most as many bytes as their raw text. A query too long for
        // `u32` spans over twice its length is decoded whole instead.
        //
        // It is built as bytes: each part is decoded straight into its tail and only its runs
        // of escapes are checked (the byte sink's path, as the spans take), with no stack
        // buffer and no check of each part as a whole; the arena becomes text once, at the
        // end. (Stop 24: parse plus a lookup 1.12x faster at 4 pairs, 1.16x at 28, 1.20x at
        // 260 and 1.23x on tiny pairs, though only 2-3% fewer instructions, 16% on tiny
        // pairs: the stack buffer's zeroing and each part's own check and copy are gone.)
        let copy = query.len() <= (u32::MAX as usize - text_room);
        let mut arena = Vec::with_capacity(if copy {
            query.len() + text_room
        } else {
            text_room
        });
        if copy {
            arena.extend_from_slice(query.as_bytes());
        }
        let mut map = QueryMap {
            text: String::new(),
            copied: copy,
            entries: Vec::with_capacity(pair_room),
            index: Index::with_room(pair_room),
            distinct: 0,
            ignore_case,
        };
        let mut next = Some(first);
        while let Some(pair) = next {
            map.push(&mut arena, &pair, options.profile)?;
            next = it.next();
        }
        map.text = into_text(arena);
        if map.index.sorted {
            map.regroup_sorted();
        }
        Ok(map)
    }

    /// Records `pair` (its name and value found in the copied query, or decoded onto the
    /// arena) and links it to its name's head, or makes it one. The room was made by `parse`:
    /// nothing here reallocates.
    #[inline]
    fn push(
        &mut self,
        arena: &mut Vec<u8>,
        pair: &Pair<'_>,
        profile: Profile,
    ) -> Result<(), QueryError> {
        // Offsets are within the query, and lengths within the room `parse` checked to fit
        // in `u32`.
        let name_start = pair.offset();
        let name_end = name_start + pair.name().len();
        // What the scan found: no `+` and no `%`, so decoding would copy the text unchanged.
        let (plain_name, plain_value) = pair.plain;
        let name = if plain_name && self.copied {
            (name_start as u32, name_end as u32)
        } else {
            let start = arena.len();
            pair.name_part().decode_to(profile, arena)?;
            (start as u32, arena.len() as u32)
        };
        let value = if pair.value().is_empty() {
            (name.1, name.1)
        } else if plain_value && self.copied {
            // The value follows the name's `=`.
            let start = name_end + 1;
            (start as u32, (start + pair.value().len()) as u32)
        } else {
            let start = arena.len();
            pair.value_part().decode_to(profile, arena)?;
            (start as u32, arena.len() as u32)
        };
        let ignore_case = self.ignore_case;
        let names = Names {
            entries: &self.entries,
            text: arena,
            ignore_case,
        };
        let name_span = name;
        let name = Name::new(
            slice(names.text, name.0 as usize..name.1 as usize),
            ignore_case,
        );
        let id = self.entries.len() as u32;
        let head = if self.index.slots.is_empty() {
            names.scan(name)
        } else if self.index.sorted {
            // A flood: grouped at the end, by `regroup_sorted`.
            None
        } else {
            let hash = hash_name(name, ignore_case);
            let (found, steps) = self.index.probe(hash, |h| names.head_is(h, name));
            self.index.steps += steps;
            self.index.sorted = self.index.steps > flood_budget(self.entries.len());
            match found {
                Ok(head) => Some(head),
                Err(at) => {
                    self.index.insert(at, id);
                    None
                }
            }
        };
        let mut entry = Entry {
            key: name.key,
            name: name_span,
            value,
            next: 0,
            count: 1,
            last: id,
        };
        match head.and_then(|h| self.entries.get_mut(h as usize)) {
            Some(h) => {
                let last = core::mem::replace(&mut h.last, id);
                h.count += 1;
                entry.count = 0;
                if let Some(l) = self.entries.get_mut(last as usize) {
                    l.next = id;
                }
            }
            None => self.distinct += 1,
        }
        self.entries.push(entry);
        Ok(())
    }

    /// The number of `name`'s head entry.
    fn head_id(&self, name: &str) -> Option<u32> {
        let names = Names {
            entries: &self.entries,
            text: self.text.as_bytes(),
            ignore_case: self.ignore_case,
        };
        let name = Name::new(name.as_bytes(), self.ignore_case);
        if self.index.slots.is_empty() {
            names.scan(name)
        } else if self.index.sorted {
            let heads = slice(&self.index.slots, ..self.distinct);
            let found = heads.binary_search_by(|&h| {
                let e = self.entries.get(h as usize);
                let have = e.map_or("", |e| self.name(e)).as_bytes();
                cmp_names(have, name.bytes, self.ignore_case)
            });
            found.ok().and_then(|i| heads.get(i).copied())
        } else {
            let hash = hash_name(name, self.ignore_case);
            self.index.probe(hash, |h| names.head_is(h, name)).0.ok()
        }
    }

    /// `name`'s head entry.
    fn head(&self, name: &str) -> Option<&Entry> {
        self.head_id(name)
            .and_then(|h| self.entries.get(h as usize))
    }

    fn name(&self, e: &Entry) -> &str {
        span(&self.text, e.name)
    }

    fn value(&self, e: &Entry) -> &str {
        span(&self.text, e.value)
    }

    fn values(&self, head: Option<&Entry>, id: u32) -> Values<'_> {
        Values {
            map: self,
            at: id,
            left: head.map_or(0, |h| h.count),
        }
    }

    /// The first value of `name`, if it appears.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&a=2", Default::default())?;
    /// assert_eq!(map.get("a"), Some("1"));
    /// assert_eq!(map.get("b"), None);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.head(name).map(|e| self.value(e))
    }

    /// Every value of `name`, in input order (empty if it does not appear).
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&b=0&a=2", Default::default())?;
    /// assert_eq!(map.get_all("a").collect::<Vec<_>>(), ["1", "2"]);
    /// assert_eq!(map.get_all("z").count(), 0);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn get_all(&self, name: &str) -> Values<'_> {
        let id = self.head_id(name);
        let head = id.and_then(|h| self.entries.get(h as usize));
        // The chain starts at the head itself.
        self.values(head, id.unwrap_or(0))
    }

    /// Whether `name` appears.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("flag", Default::default())?;
    /// assert!(map.contains("flag"));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.head(name).is_some()
    }

    /// The number of distinct names.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&b=2&a=3", Default::default())?;
    /// assert_eq!((map.len(), map.pair_count()), (2, 3));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.distinct
    }

    /// Whether the query had no pairs.
    ///
    /// ```
    /// assert!(reqparse::query::QueryMap::parse("?&&", Default::default())?.is_empty());
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.distinct == 0
    }

    /// The number of pairs (values over all names).
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a&a&b", Default::default())?;
    /// assert_eq!(map.pair_count(), 3);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn pair_count(&self) -> usize {
        self.entries.len()
    }

    /// Names in first-appearance order, each with its values in input order.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("b=1&a=2&b=3", Default::default())?;
    /// let all: Vec<(&str, Vec<&str>)> = map.iter().map(|(n, v)| (n, v.collect())).collect();
    /// assert_eq!(all, [("b", vec!["1", "3"]), ("a", vec!["2"])]);
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            map: self,
            at: 0,
            left: self.distinct,
        }
    }
}

/// The finished arena as text. It is text by construction (a `&str` query and parts the
/// decoders wrote as UTF-8), so the one check never fails; were it ever to, every lookup would
/// see U+FFFD where the bytes went wrong, never a panic.
fn into_text(arena: Vec<u8>) -> String {
    String::from_utf8(arena).unwrap_or_else(|e| {
        debug_assert!(false, "the arena is UTF-8: {e}");
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    })
}

/// `text[a..b]`, a span `parse` recorded (the ends of a whole decoded name or value).
#[inline]
fn span(text: &str, (a, b): (u32, u32)) -> &str {
    str_slice(text, a as usize..b as usize)
}

/// Iterator over the values of one name; see [`QueryMap::get_all`].
///
/// ```
/// let map = reqparse::query::QueryMap::parse("a=1&a=2", Default::default())?;
/// assert_eq!(map.get_all("a").len(), 2);
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Values<'m> {
    map: &'m QueryMap,
    /// The next entry to give.
    at: u32,
    /// How many are left.
    left: u32,
}

impl<'m> Iterator for Values<'m> {
    type Item = &'m str;

    fn next(&mut self) -> Option<&'m str> {
        if self.left == 0 {
            return None;
        }
        let e = self.map.entries.get(self.at as usize)?;
        self.left -= 1;
        self.at = e.next;
        Some(self.map.value(e))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Values<'_> {}

/// Iterator over `(name, values)`; see [`QueryMap::iter`].
///
/// ```
/// let map = reqparse::query::QueryMap::parse("x=1", Default::default())?;
/// let (name, mut values) = map.iter().next().unwrap();
/// assert_eq!((name, values.next()), ("x", Some("1")));
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Iter<'m> {
    map: &'m QueryMap,
    /// Where the search for the next head starts.
    at: usize,
    /// Heads left.
    left: usize,
}

impl<'m> Iterator for Iter<'m> {
    type Item = (&'m str, Values<'m>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let rest = slice(&self.map.entries, self.at.min(self.map.entries.len())..);
        let skip = rest.iter().position(|e| e.count != 0)?;
        let id = self.at + skip;
        let head = rest.get(skip)?;
        self.at = id + 1;
        self.left -= 1;
        // Entry numbers fit in `u32` (checked by `parse`).
        let values = self.map.values(Some(head), id as u32);
        Some((self.map.name(head), values))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_lower_words() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'Q', 0x80 | b, b'z', b'@', b'[', 0xC3, b'A']);
            let want = u64::from_le_bytes([
                b.to_ascii_lowercase(),
                b'q',
                0x80 | b,
                b'z',
                b'@',
                b'[',
                0xC3,
                b'a',
            ]);
            assert_eq!(ascii_lower(w), want, "{b:#x}");
        }
    }

    #[test]
    fn keys_and_hashes() {
        let names = [
            "",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcde",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
        ];
        let hash = |n: &[u8], ic| hash_name(Name::new(n, ic), ic);
        for n in names {
            let upper = n.to_ascii_uppercase();
            let (n, upper) = (n.as_bytes(), upper.as_bytes());
            assert_eq!(name_key(n, true), name_key(upper, true));
            assert_eq!(hash(n, true), hash(upper, true));
            if !n.is_empty() {
                assert_ne!(hash(n, false), hash(upper, false));
            }
            // Every byte reaches the hash, and a short name's key.
            for i in 0..n.len() {
                let mut other = n.to_vec();
                other[i] = b'z';
                assert_ne!(hash(n, false), hash(&other, false), "{n:?} {i}");
                if n.len() <= 8 {
                    assert_ne!(name_key(n, false), name_key(&other, false), "{n:?} {i}");
                }
            }
        }
    }

    #[test]
    fn amps_counted() {
        for len in [0, 1, 7, 8, 9, 100, 239, 240, 247, 248, 249, 1000] {
            for every in [1, 2, 3, 7, 8, 9] {
                let q: Vec<u8> = (0..len)
                    .map(|i| if i % every == 0 { b'&' } else { 0xA6 })
                    .collect();
                let want = q.iter().filter(|&&b| b == b'&').count();
                assert_eq!(count_amps(&q), want, "{len} {every}");
            }
        }
    }

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

    #[test]
    fn long_names_compared_whole() {
        let base = b"abcdefghijklmnopqrstuvwxyz0123456789";
        for len in 9..base.len() {
            let a = &base[..len];
            assert!(same_after_key(a, a, false));
            let upper = a.to_ascii_uppercase();
            assert!(same_after_key(a, &upper, true));
            assert!(!same_after_key(a, &upper, false));
            for i in 8..len {
                let mut b = a.to_vec();
                b[i] = b'#';
                assert!(!same_after_key(a, &b, false), "{len} {i}");
                assert!(!same_after_key(a, &b, true), "{len} {i}");
                // Case folding is ASCII only: 0xC9 and 0xE9 differ only in the 0x20 bit.
                b[i] = 0xC9;
                let mut c = a.to_vec();
                c[i] = 0xE9;
                assert!(!same_after_key(&c, &b, true), "{len} {i}");
            }
        }
    }
}
