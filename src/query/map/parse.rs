//! Building a [`QueryMap`]: sizing from cheap bounds (or, for a query that may break a limit,
//! exactly), then one pass over the pairs that copies or decodes each name and value into the
//! arena and links it to its name's head.

use alloc::string::String;
use alloc::vec::Vec;

use super::hash::{hash_name, Name, Names};
use super::index::{flood_budget, Index};
use super::{Entry, MapOptions, QueryMap};
use crate::bytes::slice;
use crate::query::decode::CountSink;
use crate::query::{pairs, Pair, Profile, QueryError, QueryErrorKind};

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
        // end. (Parse plus a lookup 1.12x faster at 4 pairs, 1.16x at 28, 1.20x at 260 and
        // 1.23x on tiny pairs, though only 2-3% fewer instructions, 16% on tiny pairs: the
        // stack buffer's zeroing and each part's own check and copy are gone. BENCHMARKS.md,
        // "Owned pairs and the QueryMap arena".)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
