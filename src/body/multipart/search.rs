//! Finding the delimiter (`CRLF--boundary`) in a part's data, and the bytes at the end of a
//! read that may begin one.
//!
//! With vectors (AVX2 on x86_64, simd128 on wasm32 built with it), first memchr's one-byte
//! search for the delimiter's CR, its last byte or its middle byte while the byte searched for
//! stays rare in the input (most data: a vector read once), then a packed-pair prefilter on
//! its CR and its last byte that moves to the bytes near misses get wrong when they repeat;
//! elsewhere Horspool's search (a window's last byte decides how far the next window starts),
//! which hands stretches where its shifts are short to one [`memchr::memmem::Finder`]: near
//! misses cost about what ordinary data does. The vectors' part is `mod vectors`, the one
//! place that knows the target.

use memchr::memmem::Finder;

use crate::bytes::slice;

/// The delimiter and its searchers, built once when the reader is made (the delimiter is the
/// reader's one allocation): Horspool's table, with vectors the packed pairs and Sunday's
/// table, and without them memmem's finder.
#[derive(Clone, Debug)]
pub(super) struct DelimiterSearch {
    /// `CRLF--boundary`.
    delimiter: alloc::boxed::Box<[u8]>,
    /// memmem's searcher for the stretches where Horspool's shifts are short, built only
    /// where [`horspool_find`](Self::horspool_find) searches whole reads: without the vectors'
    /// pair. With it, `horspool_find` sees only what is left shorter than the pair's
    /// `min_haystack_len` (the delimiter's length and a vector's), too few windows to run
    /// its credit out (more than `CREDIT_MAX / (DENSE - 1)` are needed), so this searcher,
    /// ~3,300 instructions to build (its Two-Way factorization, Rabin-Karp hash and prefilter:
    /// most of what a small form cost to read before the reader was), would never search.
    finder: Option<Finder<'static>>,
    /// Horspool's shift for each byte ending a delimiter-long window that is not the
    /// delimiter: how far the next possible start is (see [`Self::horspool_find`]).
    shift: [u8; 256],
    /// What this target's vectors search with (nothing without them).
    vectors: vectors::Vectors,
}

impl DelimiterSearch {
    /// The searchers of `delimiter` (`CRLF--boundary`; a `Vec` of its length is kept as it
    /// is).
    pub(super) fn new(delimiter: impl Into<alloc::boxed::Box<[u8]>>) -> Self {
        let delimiter = delimiter.into();
        let vectors = vectors::Vectors::new(&delimiter);
        DelimiterSearch {
            finder: (!vectors.has_pair()).then(|| Finder::new(&delimiter).into_owned()),
            shift: horspool(&delimiter),
            vectors,
            delimiter,
        }
    }

    /// The delimiter: CRLF, `--` and the boundary.
    #[inline]
    pub(super) fn delimiter(&self) -> &[u8] {
        &self.delimiter
    }

    /// How many bytes at the end of `rest` could begin the delimiter.
    #[inline]
    pub(super) fn partial(&self, rest: &[u8]) -> usize {
        partial_delimiter(rest, self.delimiter())
    }

    /// The first delimiter in `rest`. Where there are vectors (AVX2, wasm simd128), first by
    /// a one-byte search for its CR, then for its last byte, then for its middle byte
    /// ([`sparse_search`]), while the byte searched for stays rare in the input; then by a
    /// packed-pair search on two of the delimiter's bytes at their distance, then a compare:
    /// first its CR and its last byte, where a near miss (the delimiter but its last byte, or
    /// but any byte of the boundary, over and over) cannot fire it, where `memmem`'s pair of
    /// "rare" bytes fires at each near miss. A false candidate says where the input got the
    /// delimiter wrong (at `j`); input whose false candidates come one per delimiter or so (a
    /// near miss in the middle, a run of the byte before the last between CR and the last
    /// byte) mostly gets it wrong there again, so the search goes on with the pair of the CR
    /// and byte `j`, which such input does not fire; near misses of two kinds by turns move
    /// it once more, to the two bytes they get wrong. Past that, each dense candidate is
    /// checked in a loop of Sunday's shifts (no call per candidate), and the end pair is
    /// taken up again.
    /// Elsewhere (and for a haystack too short for the vectors), [`DelimiterSearch::horspool_find`].
    #[inline]
    pub(super) fn find(&self, rest: &[u8]) -> Option<usize> {
        self.vectors.find(self, rest)
    }

    /// Whether the delimiter starts at `at` in `rest`.
    #[inline]
    fn delimiter_at(&self, rest: &[u8], at: usize) -> bool {
        let d = self.delimiter();
        rest.get(at..at + d.len())
            .is_some_and(|window| is_delimiter(window, d))
    }

    /// The first delimiter in `rest`, by Horspool's search: each delimiter-long window is
    /// looked at through its last byte (compared in full only when that byte is the
    /// delimiter's last and its first a CR), and the next window starts past every start that
    /// would put that byte where the delimiter does not have it — on ordinary data, and on a
    /// near miss (the delimiter but a byte, over and over) alike, the delimiter's length on.
    /// A substring searcher's prefilter fires at each near miss and verifies it; this costs a
    /// few instructions per window whatever the input. Where the shifts are short (the input
    /// made of the delimiter's last bytes) and windows come more than one per `DENSE` bytes,
    /// the next `DENSE_CHUNK` bytes go to the `memmem` searcher, which such input does not slow.
    pub(super) fn horspool_find(&self, rest: &[u8]) -> Option<usize> {
        let delimiter = self.delimiter();
        let n = delimiter.len();
        let last = *delimiter.last()?;
        let mut at = 0;
        // Bytes skipped minus DENSE per window: below zero, the shifts are too short.
        let mut credit = CREDIT_MAX;
        while let Some(&end) = rest.get(at + n - 1) {
            if end == last && rest.get(at) == Some(&b'\r') && self.delimiter_at(rest, at) {
                return Some(at);
            }
            let shift = usize::from(crate::bytes::row(&self.shift, end));
            at += shift;
            credit = (credit + shift as isize - DENSE as isize).min(CREDIT_MAX);
            if credit < 0 {
                let to = rest.len().min(at + DENSE_CHUNK + n - 1);
                let stretch = slice(rest, at..to);
                // (With the vectors' pair, never reached: see `finder`.)
                let found = match &self.finder {
                    Some(finder) => finder.find(stretch),
                    None => memchr::memmem::find(stretch, delimiter),
                };
                if let Some(found) = found {
                    return Some(at + found);
                }
                at = (to + 1).saturating_sub(n).max(at);
                credit = CREDIT_MAX;
            }
        }
        None
    }
}

/// One window per this many bytes, on average, before `horspool_find` hands a stretch to
/// `memmem`; what a window costs next to what `memmem` costs per byte, about.
const DENSE: usize = 8;
/// How much good stretch `horspool_find` remembers: a long run of long shifts does not
/// buy a long run of dense candidates after it.
const CREDIT_MAX: isize = 256;
/// The stretch handed to `memmem` when candidates are dense.
const DENSE_CHUNK: usize = 4096;

/// Whether `rest` starts with `needle` (the delimiter, or `--boundary`): compared a word at a
/// time, inline, where `starts_with` calls `memcmp` (a part's end and its data's start, each
/// once a part).
#[inline]
pub(super) fn starts_with(rest: &[u8], needle: &[u8]) -> bool {
    rest.get(..needle.len())
        .is_some_and(|window| mismatch(window, needle).is_none())
}

/// Whether `window` (as long as `delimiter`) is `delimiter`.
#[inline]
fn is_delimiter(window: &[u8], delimiter: &[u8]) -> bool {
    window.len() == delimiter.len() && mismatch(window, delimiter).is_none()
}

/// The first index where `window` and `delimiter` (as long) differ: compared eight bytes at a
/// time, inline, a last word overlapping the one before covering what the words leave. A false
/// candidate of the search (a near miss, which adversarial inputs make one per delimiter length)
/// then costs a few instructions where a `memcmp` call costs a few dozen, and says where the
/// input got the delimiter wrong.
#[inline]
fn mismatch(window: &[u8], delimiter: &[u8]) -> Option<usize> {
    let (Some(w_last), Some(d_last)) = (window.last_chunk::<8>(), delimiter.last_chunk::<8>())
    else {
        // A delimiter shorter than a word (a boundary of 1 to 3 bytes).
        return window.iter().zip(delimiter).position(|(a, b)| a != b);
    };
    let (words, tail) = window.as_chunks::<8>();
    let (d_words, _) = delimiter.as_chunks::<8>();
    let differ = |a: &[u8; 8], b: &[u8; 8]| {
        let x = u64::from_le_bytes(*a) ^ u64::from_le_bytes(*b);
        (x != 0).then_some(x.trailing_zeros() as usize / 8)
    };
    for (i, (a, b)) in words.iter().zip(d_words).enumerate() {
        if let Some(k) = differ(a, b) {
            return Some(i * 8 + k);
        }
    }
    if tail.is_empty() {
        return None;
    }
    differ(w_last, d_last).map(|k| window.len() - 8 + k)
}

/// Horspool's bad-character shifts for `delimiter`: for each byte, the distance from its last
/// occurrence before the delimiter's last byte to that last byte, or the whole length when it
/// occurs nowhere before it; capped at 255 (a shorter shift is never wrong, only slower).
fn horspool(delimiter: &[u8]) -> [u8; 256] {
    let n = delimiter.len();
    let mut shift = [u8::try_from(n).unwrap_or(u8::MAX); 256];
    for (i, &b) in slice(delimiter, ..n.saturating_sub(1)).iter().enumerate() {
        *crate::bytes::row_mut(&mut shift, b) = u8::try_from(n - 1 - i).unwrap_or(u8::MAX);
    }
    shift
}

/// How many bytes at the end of `rest` could begin `delimiter` (which starts with its only
/// CR, so only the last CR of the tail can start such a suffix).
fn partial_delimiter(rest: &[u8], delimiter: &[u8]) -> usize {
    let from = rest.len().saturating_sub(delimiter.len() - 1);
    let tail = slice(rest, from..);
    // A short tail (a small read) by a plain loop: cheaper than `memrchr`'s setup.
    let cr = if tail.len() < 16 {
        tail.iter().rposition(|&b| b == b'\r')
    } else {
        memchr::memrchr(b'\r', tail)
    };
    let Some(cr) = cr else {
        return 0;
    };
    let tail = slice(rest, from + cr..);
    if delimiter.starts_with(tail) {
        tail.len()
    } else {
        0
    }
}

/// How many bytes at the end of `rest` could begin `needle`, whose first byte it holds
/// nowhere else (`LF--boundary`, `--boundary` after a preamble's LF): any needle, where
/// [`partial_delimiter`] is the data path's, for its CR.
pub(super) fn partial_at_end(rest: &[u8], needle: &[u8]) -> usize {
    let Some(&first) = needle.first() else {
        return 0;
    };
    let from = rest.len().saturating_sub(needle.len() - 1);
    let Some(at) = memchr::memrchr(first, slice(rest, from..)) else {
        return 0;
    };
    let tail = slice(rest, from + at..);
    if needle.starts_with(tail) {
        tail.len()
    } else {
        0
    }
}

/// The searches of this target's vectors: the packed pairs and Sunday's table.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod vectors {
    use super::{is_delimiter, mismatch, DelimiterSearch};
    use crate::bytes::slice;
    use memchr::arch::all::packedpair::Pair;

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    use memchr::arch::wasm32::simd128::packedpair::Finder as PairFinder;
    /// memchr's packed-pair searcher of this target: AVX2 on x86_64 (when the CPU has it, seen
    /// when the reader is made), simd128 on wasm32 built with it (`.ci/build-component.sh` and
    /// the npm build do). Other targets search with [`DelimiterSearch::horspool_find`] alone.
    #[cfg(target_arch = "x86_64")]
    use memchr::arch::x86_64::avx2::packedpair::Finder as PairFinder;

    /// The packed-pair searcher on `delimiter`'s first byte and its last (None without the
    /// vectors, or for a delimiter longer than the pair's offsets reach).
    fn end_pair(delimiter: &[u8]) -> Option<PairFinder> {
        let last = u8::try_from(delimiter.len().checked_sub(1)?).ok()?;
        let pair = memchr::arch::all::packedpair::Pair::with_indices(delimiter, 0, last)?;
        PairFinder::with_pair(delimiter, pair)
    }

    #[derive(Clone, Debug)]
    pub(super) struct Vectors {
        /// The packed-pair searcher on the delimiter's first and last bytes.
        pair: Option<PairFinder>,
        /// Sunday's shift for each byte just past a delimiter-long window that is not the
        /// delimiter (for the false candidates of `pair` that moving it did not stop).
        sunday: [u8; 256],
    }

    impl Vectors {
        pub(super) fn new(delimiter: &[u8]) -> Self {
            Vectors {
                pair: end_pair(delimiter),
                sunday: sunday(delimiter),
            }
        }

        /// Whether [`find`](Self::find) searches with the pair (else with
        /// [`DelimiterSearch::horspool_find`] alone).
        pub(super) fn has_pair(&self) -> bool {
            self.pair.is_some()
        }

        /// The first delimiter in `rest` (see [`DelimiterSearch::find`]).
        pub(super) fn find(&self, search: &DelimiterSearch, rest: &[u8]) -> Option<usize> {
            let Some(ends) = &self.pair else {
                return search.horspool_find(rest);
            };
            let d = search.delimiter();
            let n = d.len();
            // The pair in use when it is not `ends`: the delimiter's byte `.0` and the one
            // before, (`.2`) the second move.
            let mut moved: Option<(usize, PairFinder, bool)> = None;
            let mut at = 0;
            // Data without CRs (text with LF line ends, a run of one byte) is searched for
            // its CRs alone: memchr's one-byte loop reads a vector once where the pair reads
            // it twice, about three times the pair's speed on data in cache. Data dense in
            // CRs (CRLF text, a run of CRs, dashes and line ends) is searched the same way
            // for the delimiter's last byte, a byte of the boundary, which such data seldom
            // holds; data dense in both, for its middle byte. A byte that comes sooner than
            // `SPARSE` bytes after the last hands the rest to the next search (each one found
            // costs a call), the pair last, so no input costs more than about that.
            for k in [0, n - 1, n / 2] {
                match sparse_search(rest, d, k, at) {
                    Sparse::Found(found) => return Some(found),
                    Sparse::Absent => return None,
                    Sparse::Dense(next) => at = next,
                }
            }
            loop {
                let pair = moved.as_ref().map_or(ends, |m| &m.1);
                if rest.len() - at < pair.min_haystack_len() {
                    break;
                }
                // The vectors' prefilter, then the compare here: cheaper than `find` (which
                // verifies inside its vector loop) on data that never fires the pair.
                let at_before = at;
                let found = at + pair.find_prefilter(slice(rest, at..))?;
                // A window past the end: no later one fits either.
                let window = rest.get(found..found + n)?;
                let Some(j) = mismatch(window, d) else {
                    return Some(found);
                };
                at = found + 1;
                // Only when false candidates come close (about one per delimiter, as the
                // near misses repeat): scattered ones (random input) cost less than a new
                // pair, and one at a byte the input holds often could fire more.
                if found - at_before >= 2 * n {
                    continue;
                }
                let new_pair = |i: usize, j: usize| {
                    let pair = Pair::with_indices(d, u8::try_from(i).ok()?, u8::try_from(j).ok()?);
                    PairFinder::with_pair(d, pair?)
                };
                match moved {
                    // The CR and the byte the input got wrong.
                    None => moved = new_pair(0, j).map(|f| (j, f, false)),
                    // Near misses of two kinds by turns (each fires the pair the other moved
                    // the search to): the two bytes they get wrong.
                    Some((i, _, false)) => moved = new_pair(i, j).map(|f| (j, f, true)),
                    Some((_, _, true)) => {
                        // More kinds than that: each candidate checked here while the byte
                        // past its window (Sunday's shift) sends the next window far and that
                        // window has the delimiter's ends, then the end pair again.
                        moved = None;
                        let mut q = found;
                        loop {
                            let shift =
                                usize::from(crate::bytes::row(&self.sunday, *rest.get(q + n)?));
                            if shift < n / 2 {
                                at = q + 1;
                                break;
                            }
                            q += shift;
                            let window = rest.get(q..q + n)?;
                            if window.first() != Some(&b'\r') || window.last() != d.last() {
                                at = q;
                                break;
                            }
                            if is_delimiter(window, d) {
                                return Some(q);
                            }
                        }
                    }
                }
            }
            search
                .horspool_find(slice(rest, at..))
                .map(|found| at + found)
        }
    }

    /// A delimiter byte found sooner than this after the last one (or the search's start) moves
    /// `Vectors::find` from its one-byte search to the next: about where a memchr call per byte
    /// found costs as much as the pair's slower loop over the bytes between (~10 ns against 0.026
    /// ns a byte, less 0.009 for the one-byte search itself, on a Xeon with the data in cache).
    const SPARSE: usize = 512;

    /// How [`sparse_search`] ended.
    enum Sparse {
        /// The delimiter starts here.
        Found(usize),
        /// No delimiter starts at or after the search's start and fits.
        Absent,
        /// The byte came too often: the search ends before this start, not found up to there.
        Dense(usize),
    }

    /// Looks for the delimiter `d` in `rest` from start `at` by memchr over its byte `k` alone:
    /// every start `s` that holds it has `d[k]` at `s + k`, so each such byte found names the one
    /// window to compare, and a byte not found rules out every start that would need it.
    ///
    /// Out of line: inlined into `Vectors::find`, it moved the pair's loop there to where the
    /// near-miss shapes ran 10-25% slower with the same instructions (loop placement; with
    /// `-C llvm-args=-align-loops=64` both ran alike; BENCHMARKS.md, "Multipart search").
    #[inline(never)]
    fn sparse_search(rest: &[u8], d: &[u8], k: usize, mut at: usize) -> Sparse {
        let Some(&byte) = d.get(k) else {
            return Sparse::Dense(at);
        };
        loop {
            let Some(hit) = rest
                .get(at + k..)
                .and_then(|tail| memchr::memchr(byte, tail))
            else {
                return Sparse::Absent;
            };
            let start = at + hit;
            // A window past the end: no later one fits either.
            let Some(window) = rest.get(start..start + d.len()) else {
                return Sparse::Absent;
            };
            if is_delimiter(window, d) {
                return Sparse::Found(start);
            }
            at = start + 1;
            if hit < SPARSE {
                return Sparse::Dense(at);
            }
        }
    }

    /// Sunday's shifts for `delimiter`: for each byte, the distance from its last occurrence to
    /// just past the delimiter, or that plus one when it occurs nowhere; capped at 255.
    fn sunday(delimiter: &[u8]) -> [u8; 256] {
        let n = delimiter.len();
        let mut shift = [u8::try_from(n + 1).unwrap_or(u8::MAX); 256];
        for (i, &b) in delimiter.iter().enumerate() {
            *crate::bytes::row_mut(&mut shift, b) = u8::try_from(n - i).unwrap_or(u8::MAX);
        }
        shift
    }
}

/// Without vectors: Horspool's search alone.
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod vectors {
    use super::DelimiterSearch;

    #[derive(Clone, Debug)]
    pub(super) struct Vectors;

    impl Vectors {
        pub(super) fn new(_delimiter: &[u8]) -> Self {
            Vectors
        }

        /// No pair: [`DelimiterSearch::horspool_find`] searches alone.
        pub(super) fn has_pair(&self) -> bool {
            false
        }

        #[inline]
        pub(super) fn find(&self, search: &DelimiterSearch, rest: &[u8]) -> Option<usize> {
            search.horspool_find(rest)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_delimiters() {
        let d = b"\r\n--ab";
        assert_eq!(partial_delimiter(b"xyz", d), 0);
        assert_eq!(partial_delimiter(b"xyz\r", d), 1);
        assert_eq!(partial_delimiter(b"xyz\r\n--a", d), 5);
        assert_eq!(partial_delimiter(b"\r\n--a\r", d), 1);
        assert_eq!(partial_delimiter(b"xyz\r\n-x", d), 0);
        assert_eq!(partial_delimiter(b"", d), 0);
    }

    /// The CR-to-CR scan, its shifts and its `memmem` stretches find the first delimiter
    /// exactly where a naive search does, on inputs built from the delimiter's own bytes
    /// (thick CRs, near misses, periodic boundaries), at every length.
    #[test]
    fn search_is_naive_search() {
        let naive = |hay: &[u8], d: &[u8]| hay.windows(d.len()).position(|w| w == d);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for boundary in [&b"ab"[..], b"abab", b"----x", b"-", b"a\rb", b"XyZ0g0g"] {
            let d = [&b"\r\n--"[..], boundary].concat();
            let search = DelimiterSearch::new(&d[..]);
            let mut alphabet = d.clone();
            alphabet.extend_from_slice(b"\r\r\r\nz");
            for round in 0..1500 {
                let len = (next() % 12_000) as usize;
                let dense = round % 4;
                // Mode 3's byte far apart: the CR, the last byte, the middle byte by turns.
                let rare = if (round / 4) % 3 == 1 {
                    d[d.len() - 1]
                } else {
                    d[d.len() / 2]
                };
                let hay: alloc::vec::Vec<u8> = (0..len)
                    .map(|_| {
                        let r = next();
                        match dense {
                            0 => alphabet[(r as usize) % alphabet.len()],
                            1 if r % 4 == 0 => b'\r',
                            // CRs far apart and now and then close (half the gaps are under
                            // SPARSE): the CR search, and its handing over to the next search.
                            3 if (round / 4) % 3 == 0 && r % 700 == 0 => b'\r',
                            3 if (round / 4) % 3 == 0 => b'-',
                            // CRs close together, the delimiter's last byte (then, with it
                            // close too, its middle byte) far apart and now and then close:
                            // the search for that byte, and its handing over to the next.
                            3 if r % 3 == 0 => b'\r',
                            3 if (round / 4) % 3 == 2 && r % 3 == 1 => d[d.len() - 1],
                            3 if r % 700 == 1 => rare,
                            3 => b'-',
                            _ => d[(r as usize >> 8) % d.len()],
                        }
                    })
                    .collect();
                let mut hay = hay;
                if round % 5 == 4 {
                    // Near misses over and over: the delimiter with a byte wrong (at one, two
                    // or three places, by turns), where the search moves its pair.
                    let flips = [0; 3].map(|_| next() as usize % d.len());
                    let mut unit = 0;
                    hay = alloc::vec::Vec::with_capacity(len + d.len());
                    while hay.len() < len {
                        let mut near = d.clone();
                        let at = flips[unit % (1 + (round / 5) % 3)];
                        near[at] = near[at].wrapping_add(1 + (next() % 3) as u8);
                        hay.extend_from_slice(&near);
                        unit += 1;
                    }
                }
                if round % 7 == 0 && len > d.len() {
                    let at = (next() as usize) % (len - d.len());
                    hay[at..at + d.len()].copy_from_slice(&d);
                }
                assert_eq!(search.find(&hay), naive(&hay, &d), "{round}");
            }
        }
    }

    #[test]
    fn starts_with_is_slice_starts_with() {
        let d = b"\r\n------WebKitFormBoundary7MA4YWxkTrZu0g";
        for needle in [&d[..], &d[2..], &d[..3], b"--b"] {
            for len in 0..=d.len() + 2 {
                let mut rest = d.repeat(2)[..len].to_vec();
                assert_eq!(starts_with(&rest, needle), rest.starts_with(needle));
                for at in 0..len {
                    rest[at] ^= 1;
                    assert_eq!(starts_with(&rest, needle), rest.starts_with(needle));
                    rest[at] ^= 1;
                }
            }
        }
    }

    #[test]
    fn mismatches() {
        let d: alloc::vec::Vec<u8> = (0..80u8).collect();
        for n in 1..d.len() {
            let d = &d[..n];
            assert_eq!(mismatch(d, d), None, "{n}");
            for at in 0..n {
                let mut w = d.to_vec();
                w[at] ^= 0x40;
                assert_eq!(mismatch(&w, d), Some(at), "{n} {at}");
                w[n - 1] ^= 0x01;
                assert_eq!(mismatch(&w, d), Some(at), "{n} {at} and the last");
            }
        }
    }

    #[test]
    fn delimiters_near_and_far() {
        let search = DelimiterSearch::new(&b"\r\n--ab"[..]);
        for (prefix, cr_at) in [
            (0, None),
            (10, None),
            (300, None),
            (10, Some(5)),
            (300, Some(299)),
        ] {
            let mut data = alloc::vec![b'x'; prefix];
            if let Some(at) = cr_at {
                data[at] = b'\r';
            }
            data.extend_from_slice(b"\r\n--ab\r\n--ab");
            assert_eq!(search.find(&data), Some(prefix), "{prefix} {cr_at:?}");
            assert_eq!(search.find(&data[..prefix + 5]), None);
        }
    }
}
