//! Percent-decoding 16 or 32 bytes a step (SSSE3 or AVX2 on x86-64, simd128 on wasm32): the
//! core's one module with `unsafe`.
//!
//! Why it exists: the scalar decoder (`query::decode`) spends about 1.2 ns per `%XX` escape,
//! two table loads and a branch each, and no scalar rewrite did better (BENCHMARKS.md, "Percent
//! decoding"). Escape-dense values (UTF-8 text in a query is nothing but
//! escapes) need several escapes per step, which takes a byte shuffle: SSSE3's `pshufb` on
//! x86-64 (AVX2 for 32-byte steps), `i8x16_swizzle` on wasm32 built with simd128 (the npm
//! package's build; the component's is built without). Where there is neither,
//! [`PercentDecoder::get`] is `None` and the scalar decoder does all the work, with the same
//! answers.
//!
//! # How one step works
//!
//! A step loads 16 input bytes and decodes the first 14 of them ("committed"); the last two are
//! read only as the hex digits of escapes that start at 12 or 13. Whether a byte starts an
//! escape depends only on itself and the two bytes after it: a `%` followed by two hex digits.
//! Escapes can never overlap, because a hex digit is never a `%`, so the scalar decoder's
//! left-to-right reading and this all-positions-at-once reading agree on every input. Each
//! escape start becomes its decoded byte, each `+` a space, and the two digits after each
//! escape are dropped by one shuffle from a table indexed by the mask of bytes kept. Digits
//! that fall in the next step's first two bytes are carried to it as a mask, so steps advance
//! by a constant 14 and the next load never waits on this step's result.
//!
//! With AVX2 the same step runs on 32 bytes (30 committed, each 128-bit lane packed as above),
//! and the 16-byte step does what is left.
//!
//! # Invariants the `unsafe` relies on
//!
//! - A kernel runs only on a CPU with its instructions: [`PercentDecoder`] can be made only by
//!   [`PercentDecoder::get`], which checks for them (at compile time, or once at run time), and
//!   it records which kernel it checked for.
//! - Every load reads `raw[i..i + W]` (`W` the step's width, 16 or 32), and a step runs only
//!   while `i + W <= raw.len()`; the 16-byte kernel's last step reads `raw`'s last 16 bytes,
//!   and runs only when `raw.len() >= 16`.
//! - Every store writes within `out[n..n + W]` (pieces of 16 and 8 bytes, each starting after
//!   fewer bytes than it leaves room for, as each store's comment counts), and a step runs only
//!   while `n + W <= out.len()`.
//! - Nothing here makes a `str`: the caller validates the bytes written as UTF-8.
//!
//! Its tests run natively for every kernel the CPU has, and under Miri for both x86 kernels
//! (`.ci/miri.sh` compiles them in with `-C target-feature`, since Miri has no CPUID). The
//! wasm kernel is held to `URLSearchParams` on long values by the npm tests
//! (js/test/api.test.mjs), which a broken kernel fails.
#![allow(unsafe_code)]
// Where no kernel exists `PercentDecoder::get` is always `None`: the step's constants go
// unused there.
#![cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code, unused_macros)
)]

/// Input bytes a step reads: the shortest input [`PercentDecoder::decode`] takes.
pub(crate) const READ: usize = 16;
/// Input bytes a step decodes; the last `READ - COMMIT` are only looked at.
const COMMIT: usize = 14;
/// Output bytes the wide AVX2 step may write past its start (the 16-byte step: 16).
#[cfg(test)]
const WRITE: usize = 32;

/// What [`PercentDecoder::decode`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    /// Where the caller goes on: everything before `raw[next..]` is decoded.
    pub(crate) next: usize,
    /// Bytes written to the front of `out`.
    pub(crate) written: usize,
    /// It stopped before a step holding a `%` that starts no valid escape (only when asked to
    /// stop there).
    pub(crate) malformed: bool,
}

/// Proof that the vector decoder can run on this CPU, and with which instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PercentDecoder(Level);

/// The instruction sets a kernel is compiled for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    /// SSSE3 and POPCNT: every x86-64 CPU since about 2008.
    #[cfg(target_arch = "x86_64")]
    Ssse3,
    /// AVX2 and POPCNT: 32-byte steps, then the 16-byte ones in VEX encoding.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// WebAssembly's 128-bit SIMD (`i8x16_swizzle` is `pshufb`): only when the build enables
    /// it (`-C target-feature=+simd128`, as the npm package's does), since wasm has no
    /// run-time detection.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl PercentDecoder {
    /// The decoder, when this CPU can run it: the best kernel it has.
    #[inline]
    pub(crate) fn get() -> Option<Self> {
        Level::ALL
            .iter()
            .copied()
            .find(|l| l.supported())
            .map(PercentDecoder)
    }

    /// Every kernel this CPU can run, for tests that hold each to the scalar decoder.
    #[cfg(test)]
    pub(crate) fn all() -> impl Iterator<Item = Self> {
        Level::ALL
            .iter()
            .copied()
            .filter(|l| l.supported())
            .map(PercentDecoder)
    }

    /// Decodes `raw[start..]` into the front of `out` (`+` to space, `%XX` to its byte, a `%`
    /// that starts no escape kept as it is) to the end of `raw`, or until `out` has no room
    /// for a step's output (16 or 32 bytes); the caller goes on from `raw[next..]`. `raw`
    /// must be at least [`READ`] bytes long (else nothing is done): the last step reads
    /// `raw`'s last 16 bytes, some of them before `start`. With `stop_at_malformed`, it stops before the
    /// 14 bytes that hold a `%` that starts no escape (the caller's Strict profile decides).
    ///
    /// Bytes are not checked for UTF-8 here: the caller validates what was written.
    #[inline]
    pub(crate) fn decode(
        self,
        raw: &[u8],
        start: usize,
        out: &mut [u8],
        stop_at_malformed: bool,
    ) -> Decoded {
        // Where no kernel exists, `Level` has no values and this is never called.
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        let _ = (raw, start, out, stop_at_malformed);
        match self.0 {
            // SAFETY: `self` exists only if `get` found the level's instructions (the module's
            // first invariant).
            #[cfg(target_arch = "x86_64")]
            Level::Ssse3 => unsafe { x86::ssse3::decode(raw, start, out, stop_at_malformed) },
            // SAFETY: as above.
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => unsafe { x86::wide::decode(raw, start, out, stop_at_malformed) },
            // SAFETY: as above (and the build promised simd128).
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Level::Simd128 => unsafe { wasm::decode(raw, start, out, stop_at_malformed) },
        }
    }
}

impl Level {
    /// Best first.
    #[cfg(target_arch = "x86_64")]
    const ALL: &[Level] = &[Level::Avx2, Level::Ssse3];
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    const ALL: &[Level] = &[Level::Simd128];
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    const ALL: &[Level] = &[];

    /// Whether this CPU has the level's instructions: known at compile time when the target
    /// promises them, else asked of the CPU (std caches the answer). Without `std` (and under
    /// Miri, which has no CPUID) only the compile-time answer counts.
    #[inline]
    fn supported(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            Level::Ssse3 | Level::Avx2 => {
                let promised = match self {
                    Level::Avx2 => cfg!(all(target_feature = "avx2", target_feature = "popcnt")),
                    _ => cfg!(all(target_feature = "ssse3", target_feature = "popcnt")),
                };
                #[cfg(all(feature = "std", not(miri)))]
                let promised = promised
                    || std::is_x86_feature_detected!("popcnt")
                        && match self {
                            Level::Avx2 => std::is_x86_feature_detected!("avx2"),
                            _ => std::is_x86_feature_detected!("ssse3"),
                        };
                promised
            }
            // Compiled in only when the build enables it.
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Level::Simd128 => true,
        }
    }
}

/// The 16-byte kernel's loop, written once for every target: it expands inside each kernel's
/// `decode`, where that kernel's `Kernel`, `load`, `store` and `write_kept` (its own
/// instructions) are in scope. See the module documentation for what a step does.
macro_rules! sixteen_byte_loop {
    ($raw:ident, $start:ident, $out:ident, $stop_at_malformed:ident) => {{
        let k = Kernel::new();
        let (mut i, mut n) = ($start, 0);
        // Bytes 0 and 1 of this step that are digits of an escape the last step decoded.
        let mut carried = 0u32;
        let stopped = |i: usize, n: usize, carried: u32, malformed: bool| Decoded {
            next: i + carried.count_ones() as usize,
            written: n,
            malformed,
        };
        if $raw.len() < READ {
            return stopped(i, n, 0, false);
        }
        while n + STEP_WRITE <= $out.len() {
            if i + READ <= $raw.len() {
                // SAFETY: `raw[i..i + 16]` is in bounds (just checked); unaligned load.
                let v = unsafe { load($raw.as_ptr().add(i)) };
                let s = k.step(v);
                if s.special == 0 && carried == 0 {
                    // Nothing to decode in all 16 bytes: they are the output.
                    // SAFETY: `out[n..n + 16]` is in bounds (loop condition).
                    unsafe { store($out.as_mut_ptr().add(n), v) };
                    i += READ;
                    n += READ;
                    continue;
                }
                let escapes = s.escapes & COMMITTED;
                if $stop_at_malformed && s.percents & !escapes & COMMITTED != 0 {
                    return stopped(i, n, carried, true);
                }
                let dropped = escapes << 1 | escapes << 2 | carried;
                carried = dropped >> COMMIT;
                // SAFETY: `n + STEP_WRITE <= out.len()` (loop condition).
                n += unsafe { write_kept(s.merged, !dropped & COMMITTED, $out, n) };
                i += COMMIT;
                continue;
            }
            // The last bytes: the final 16 of `raw`, of which the first `done` are decoded
            // already. The input ends here, so a `%` at 14 or 15 starts no escape.
            let rest = $raw.len() - i;
            if rest == 0 {
                return stopped(i, n, 0, false);
            }
            let base = $raw.len() - READ;
            let done = READ - rest;
            // SAFETY: `raw[base..base + 16]` is `raw`'s last 16 bytes (`raw.len() >= READ`).
            let v = unsafe { load($raw.as_ptr().add(base)) };
            let s = k.step(v);
            let before = (1u32 << done) - 1;
            let escapes = s.escapes & COMMITTED & !before;
            if $stop_at_malformed && s.percents & !escapes & !before & 0xFFFF != 0 {
                return stopped(i, n, carried, true);
            }
            let dropped = escapes << 1 | escapes << 2 | carried << done | before;
            // SAFETY: `n + STEP_WRITE <= out.len()` (loop condition).
            n += unsafe { write_kept(s.merged, !dropped & 0xFFFF, $out, n) };
            return stopped($raw.len(), n, 0, false);
        }
        stopped(i, n, carried, false)
    }};
}

/// Byte classes by low nibble: bit 0 for `0`-`9` (0x30-0x39), bit 1 for `A`-`F` and `a`-`f`
/// (low nibble 1-6).
const LOW_CLASS: [u8; 16] = [1, 3, 3, 3, 3, 3, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0];
/// Byte classes by high nibble: bit 0 for 0x3_ (digits), bit 1 for 0x4_ and 0x6_ (letters).
/// A byte is a hex digit when its two classes share a bit.
const HIGH_CLASS: [u8; 16] = [0, 0, 0, 1, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// What a hex digit adds to its low nibble, by high nibble: 9 for letters (`A` is 0x41).
const HIGH_ADD: [u8; 16] = [0, 0, 0, 0, 9, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0];

/// For each mask of kept bytes in 8, the shuffle that packs them to the front: the positions of
/// the set bits in order, then `0x80` (a `pshufb` index that writes zero).
#[allow(clippy::indexing_slicing)] // const-evaluated: out of bounds is a compile error
const PACK: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut bytes = [0x80u8; 8];
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if mask & (1 << bit) != 0 {
                bytes[k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        table[mask] = u64::from_le_bytes(bytes);
        mask += 1;
    }
    table
};

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{COMMIT, HIGH_ADD, HIGH_CLASS, LOW_CLASS};
    use core::arch::x86_64::*;

    /// The 14 committed positions of a step.
    const COMMITTED: u32 = (1 << COMMIT) - 1;

    /// `+` (0x2B) xor this is a space (0x20).
    const PLUS_TO_SPACE: i8 = 0x2B ^ 0x20;

    #[inline(always)]
    fn table(t: [u8; 16]) -> __m128i {
        // SAFETY: `[u8; 16]` and `__m128i` are both 16 plain bytes.
        unsafe { core::mem::transmute::<[u8; 16], __m128i>(t) }
    }

    /// One kernel, compiled for the instruction sets `$features` names.
    macro_rules! kernel {
        ($features:literal) => {
            use super::*;
            use crate::bytes::row;
            use crate::vector::{Decoded, PACK, READ};

            /// Output bytes a step may write past its start.
            const STEP_WRITE: usize = 16;

            /// The constants of a step, loaded once per call.
            struct Kernel {
                percent: __m128i,
                plus: __m128i,
                nibble: __m128i,
                high_digit: __m128i,
                plus_to_space: __m128i,
                low_class: __m128i,
                high_class: __m128i,
                high_add: __m128i,
                /// All ones at 14 and 15, whose digits would be past the 16 bytes.
                past_end: __m128i,
            }

            /// One step's reading of 16 bytes.
            struct Step {
                /// Each byte decoded in place: an escape's `%` holds its byte, a `+` is a space, every
                /// other byte (the escapes' digits too) is as it was.
                merged: __m128i,
                /// Bits of the bytes that start an escape within the 16 (never 14 or 15).
                escapes: u32,
                /// Bits of every `%`.
                percents: u32,
                /// Bits of every `%` and `+`.
                special: u32,
            }

            impl Kernel {
                #[target_feature(enable = $features)]
                #[inline]
                fn new() -> Self {
                    Kernel {
                        percent: _mm_set1_epi8(b'%' as i8),
                        plus: _mm_set1_epi8(b'+' as i8),
                        nibble: _mm_set1_epi8(0x0F),
                        high_digit: _mm_set1_epi8(0xF0_u8 as i8),
                        plus_to_space: _mm_set1_epi8(PLUS_TO_SPACE),
                        low_class: table(LOW_CLASS),
                        high_class: table(HIGH_CLASS),
                        high_add: table(HIGH_ADD),
                        past_end: table([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]),
                    }
                }

                #[target_feature(enable = $features)]
                #[inline]
                fn step(&self, v: __m128i) -> Step {
                    let is_percent = _mm_cmpeq_epi8(v, self.percent);
                    let is_plus = _mm_cmpeq_epi8(v, self.plus);
                    let low = _mm_and_si128(v, self.nibble);
                    let high = _mm_and_si128(_mm_srli_epi16(v, 4), self.nibble);
                    let class = _mm_and_si128(
                        _mm_shuffle_epi8(self.low_class, low),
                        _mm_shuffle_epi8(self.high_class, high),
                    );
                    let not_hex = _mm_cmpeq_epi8(class, _mm_setzero_si128());
                    let value = _mm_add_epi8(low, _mm_shuffle_epi8(self.high_add, high));
                    // An escape starts at a `%` whose next two bytes are hex digits. The shifts bring
                    // in zeros ("hex") past the end, so the digits of 14 and 15 are marked missing.
                    let digits_missing = _mm_or_si128(
                        _mm_or_si128(_mm_srli_si128(not_hex, 1), _mm_srli_si128(not_hex, 2)),
                        self.past_end,
                    );
                    let escape = _mm_andnot_si128(digits_missing, is_percent);
                    let decoded = _mm_or_si128(
                        _mm_and_si128(_mm_slli_epi16(_mm_srli_si128(value, 1), 4), self.high_digit),
                        _mm_srli_si128(value, 2),
                    );
                    let merged =
                        _mm_or_si128(_mm_and_si128(escape, decoded), _mm_andnot_si128(escape, v));
                    let merged = _mm_xor_si128(merged, _mm_and_si128(is_plus, self.plus_to_space));
                    Step {
                        merged,
                        escapes: _mm_movemask_epi8(escape) as u32,
                        percents: _mm_movemask_epi8(is_percent) as u32,
                        special: _mm_movemask_epi8(_mm_or_si128(is_percent, is_plus)) as u32,
                    }
                }
            }

            /// 16 bytes from `p`, unaligned.
            ///
            /// # Safety
            /// `p..p + 16` must be readable.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn load(p: *const u8) -> __m128i {
                // SAFETY: the caller's promise.
                unsafe { _mm_loadu_si128(p.cast()) }
            }

            /// `v` to `p..p + 16`, unaligned.
            ///
            /// # Safety
            /// `p..p + 16` must be writable.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn store(p: *mut u8, v: __m128i) {
                // SAFETY: the caller's promise.
                unsafe { _mm_storeu_si128(p.cast(), v) }
            }

            /// Writes the bytes of `merged` whose bits are set in `kept` (16 bits) to `out[n..]`, in
            /// order, and returns how many. Writes within `out[n..n + 16]`, which must be in bounds.
            ///
            /// # Safety
            /// `n + STEP_WRITE <= out.len()`.
            #[target_feature(enable = $features)]
            #[inline]
            unsafe fn write_kept(merged: __m128i, kept: u32, out: &mut [u8], n: usize) -> usize {
                let (low_kept, high_kept) = (kept as u8, (kept >> 8) as u8);
                let pack = _mm_set_epi64x(
                    (row(&PACK, high_kept) | 0x0808_0808_0808_0808) as i64,
                    row(&PACK, low_kept) as i64,
                );
                let packed = _mm_shuffle_epi8(merged, pack);
                let low_len = low_kept.count_ones() as usize;
                // SAFETY: 16 bytes at `n`, then 8 at `n + low_len <= n + 8`: within `out[n..n + 16]`,
                // in bounds (the caller's promise).
                unsafe {
                    let at = out.as_mut_ptr().add(n);
                    _mm_storeu_si128(at.cast(), packed);
                    _mm_storel_epi64(at.add(low_len).cast(), _mm_unpackhi_epi64(packed, packed));
                }
                (kept & 0xFFFF).count_ones() as usize
            }

            /// See the module documentation and [`PercentDecoder::decode`](super::PercentDecoder::decode).
            ///
            /// # Safety
            /// The CPU must have the kernel's instructions.
            #[target_feature(enable = $features)]
            pub(in crate::vector) unsafe fn decode(
                raw: &[u8],
                start: usize,
                out: &mut [u8],
                stop_at_malformed: bool,
            ) -> Decoded {
                sixteen_byte_loop!(raw, start, out, stop_at_malformed)
            }
        };
    }

    /// SSSE3 (`pshufb`) and POPCNT.
    pub(super) mod ssse3 {
        kernel!("ssse3,popcnt");
    }

    /// The same code in VEX encoding: the steps [`wide`] leaves.
    pub(super) mod avx2 {
        kernel!("avx2,popcnt");
    }

    /// 32 bytes a step (30 committed) with AVX2, then [`avx2`] for what is left (fewer than 32
    /// bytes, or the room for fewer than 32 output bytes). Each 128-bit lane is packed as the
    /// 16-byte kernel packs its 16 bytes, and the four 8-byte pieces are stored one after
    /// another.
    pub(super) mod wide {
        use super::*;
        use crate::bytes::row;
        use crate::vector::{Decoded, PACK};

        const STEP: usize = 32;
        const WIDE_COMMIT: usize = 30;
        const WIDE_COMMITTED: u32 = (1 << WIDE_COMMIT) - 1;

        #[target_feature(enable = "avx2,popcnt")]
        #[inline]
        fn both_lanes(t: [u8; 16]) -> __m256i {
            _mm256_broadcastsi128_si256(table(t))
        }

        /// `x` moved down by `K` bytes across the two lanes, zeros coming in at the top.
        #[target_feature(enable = "avx2,popcnt")]
        #[inline]
        fn down<const K: i32>(x: __m256i) -> __m256i {
            _mm256_alignr_epi8::<K>(_mm256_permute2x128_si256::<0x81>(x, x), x)
        }

        /// See the module documentation and [`PercentDecoder::decode`](crate::vector::PercentDecoder::decode).
        ///
        /// # Safety
        /// The CPU must have AVX2 and POPCNT.
        #[target_feature(enable = "avx2,popcnt")]
        pub(in crate::vector) unsafe fn decode(
            raw: &[u8],
            start: usize,
            out: &mut [u8],
            stop_at_malformed: bool,
        ) -> Decoded {
            let percent = _mm256_set1_epi8(b'%' as i8);
            let plus = _mm256_set1_epi8(b'+' as i8);
            let nibble = _mm256_set1_epi8(0x0F);
            let high_digit = _mm256_set1_epi8(0xF0_u8 as i8);
            let plus_to_space = _mm256_set1_epi8(PLUS_TO_SPACE);
            let (low_class, high_class, high_add) = (
                both_lanes(LOW_CLASS),
                both_lanes(HIGH_CLASS),
                both_lanes(HIGH_ADD),
            );
            // All ones at 30 and 31, whose digits would be past the 32 bytes.
            let past_end = _mm256_set_epi64x(-1 << 48, 0, 0, 0);

            let (mut i, mut n) = (start, 0);
            let mut carried = 0u32;
            while i + STEP <= raw.len() && n + STEP <= out.len() {
                // SAFETY: `raw[i..i + 32]` is in bounds (loop condition); unaligned load.
                let v = unsafe { _mm256_loadu_si256(raw.as_ptr().add(i).cast()) };
                let is_percent = _mm256_cmpeq_epi8(v, percent);
                let is_plus = _mm256_cmpeq_epi8(v, plus);
                let special = _mm256_movemask_epi8(_mm256_or_si256(is_percent, is_plus)) as u32;
                if special == 0 && carried == 0 {
                    // SAFETY: `out[n..n + 32]` is in bounds (loop condition).
                    unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(n).cast(), v) };
                    i += STEP;
                    n += STEP;
                    continue;
                }
                let low = _mm256_and_si256(v, nibble);
                let high = _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
                let class = _mm256_and_si256(
                    _mm256_shuffle_epi8(low_class, low),
                    _mm256_shuffle_epi8(high_class, high),
                );
                let not_hex = _mm256_cmpeq_epi8(class, _mm256_setzero_si256());
                let value = _mm256_add_epi8(low, _mm256_shuffle_epi8(high_add, high));
                let digits_missing = _mm256_or_si256(
                    _mm256_or_si256(down::<1>(not_hex), down::<2>(not_hex)),
                    past_end,
                );
                let escape = _mm256_andnot_si256(digits_missing, is_percent);
                let decoded = _mm256_or_si256(
                    _mm256_and_si256(_mm256_slli_epi16(down::<1>(value), 4), high_digit),
                    down::<2>(value),
                );
                let merged = _mm256_or_si256(
                    _mm256_and_si256(escape, decoded),
                    _mm256_andnot_si256(escape, v),
                );
                let merged = _mm256_xor_si256(merged, _mm256_and_si256(is_plus, plus_to_space));
                let escapes = _mm256_movemask_epi8(escape) as u32 & WIDE_COMMITTED;
                let percents = _mm256_movemask_epi8(is_percent) as u32;
                if stop_at_malformed && percents & !escapes & WIDE_COMMITTED != 0 {
                    return Decoded {
                        next: i + carried.count_ones() as usize,
                        written: n,
                        malformed: true,
                    };
                }
                let dropped = escapes << 1 | escapes << 2 | carried;
                carried = dropped >> WIDE_COMMIT;
                let kept = !dropped & WIDE_COMMITTED;
                let [k0, k1, k2, k3] = kept.to_le_bytes();
                let pack = _mm256_set_epi64x(
                    (row(&PACK, k3) | 0x0808_0808_0808_0808) as i64,
                    row(&PACK, k2) as i64,
                    (row(&PACK, k1) | 0x0808_0808_0808_0808) as i64,
                    row(&PACK, k0) as i64,
                );
                let packed = _mm256_shuffle_epi8(merged, pack);
                let (low_lane, high_lane) = (
                    _mm256_castsi256_si128(packed),
                    _mm256_extracti128_si256::<1>(packed),
                );
                let [c0, c1, c2] = [k0, k1, k2].map(|k| k.count_ones() as usize);
                // SAFETY: the four pieces end at `n + 16`, `n + c0 + 8 <= n + 16`,
                // `n + c0 + c1 + 16 <= n + 32` and `n + c0 + c1 + c2 + 8 <= n + 32`: within
                // `out[n..n + 32]`, in bounds (loop condition).
                unsafe {
                    let at = out.as_mut_ptr().add(n);
                    _mm_storeu_si128(at.cast(), low_lane);
                    _mm_storel_epi64(at.add(c0).cast(), _mm_unpackhi_epi64(low_lane, low_lane));
                    let at = at.add(c0 + c1);
                    _mm_storeu_si128(at.cast(), high_lane);
                    _mm_storel_epi64(at.add(c2).cast(), _mm_unpackhi_epi64(high_lane, high_lane));
                }
                n += kept.count_ones() as usize;
                i += WIDE_COMMIT;
            }
            // Digits carried in are decoded already: the 16-byte kernel starts after them.
            let i = i + carried.count_ones() as usize;
            let rest = match out.get_mut(n..) {
                Some(rest) if rest.len() >= 16 => rest,
                _ => {
                    return Decoded {
                        next: i,
                        written: n,
                        malformed: false,
                    }
                }
            };
            // SAFETY: this CPU has AVX2 and POPCNT (this function's own requirement).
            let d = unsafe { super::avx2::decode(raw, i, rest, stop_at_malformed) };
            Decoded {
                written: n + d.written,
                ..d
            }
        }
    }
}

/// The 16-byte kernel in WebAssembly SIMD: the same step as [`x86`]'s (see the module
/// documentation), with wasm's per-byte shifts and `bitselect` where x86 needs masks.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm {
    use super::{Decoded, COMMIT, HIGH_ADD, HIGH_CLASS, LOW_CLASS, PACK, READ};
    use core::arch::wasm32::*;

    const COMMITTED: u32 = (1 << COMMIT) - 1;
    /// Output bytes a step may write past its start.
    const STEP_WRITE: usize = 16;

    const fn table(t: [u8; 16]) -> v128 {
        u8x16(
            t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
            t[14], t[15],
        )
    }

    /// `x` moved down by one byte, a zero coming in at the top.
    #[inline(always)]
    fn down_1(x: v128) -> v128 {
        i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>(x, u8x16_splat(0))
    }

    /// `x` moved down by two bytes.
    #[inline(always)]
    fn down_2(x: v128) -> v128 {
        i8x16_shuffle::<2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17>(x, u8x16_splat(0))
    }

    /// One step's reading of 16 bytes (as `x86`'s `Step`).
    struct Step {
        merged: v128,
        escapes: u32,
        percents: u32,
        special: u32,
    }

    /// The constants of a step are `const` here: nothing to load per call.
    struct Kernel;

    impl Kernel {
        #[inline(always)]
        fn new() -> Self {
            Kernel
        }

        #[inline(always)]
        fn step(&self, v: v128) -> Step {
            step(v)
        }
    }

    /// 16 bytes from `p` (wasm loads need no alignment).
    ///
    /// # Safety
    /// `p..p + 16` must be readable.
    #[inline(always)]
    unsafe fn load(p: *const u8) -> v128 {
        // SAFETY: the caller's promise.
        unsafe { v128_load(p.cast()) }
    }

    /// `v` to `p..p + 16`.
    ///
    /// # Safety
    /// `p..p + 16` must be writable.
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: v128) {
        // SAFETY: the caller's promise.
        unsafe { v128_store(p.cast(), v) }
    }

    #[inline(always)]
    fn step(v: v128) -> Step {
        let is_percent = u8x16_eq(v, u8x16_splat(b'%'));
        let is_plus = u8x16_eq(v, u8x16_splat(b'+'));
        let low = v128_and(v, u8x16_splat(0x0F));
        let high = u8x16_shr(v, 4);
        let class = v128_and(
            u8x16_swizzle(table(LOW_CLASS), low),
            u8x16_swizzle(table(HIGH_CLASS), high),
        );
        let not_hex = u8x16_eq(class, u8x16_splat(0));
        let value = u8x16_add(low, u8x16_swizzle(table(HIGH_ADD), high));
        // The digits of 14 and 15 would be past the 16 bytes.
        let past_end = table([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]);
        let digits_missing = v128_or(v128_or(down_1(not_hex), down_2(not_hex)), past_end);
        // wasm's `andnot(a, b)` is `a & !b`.
        let escape = v128_andnot(is_percent, digits_missing);
        let decoded = v128_or(u8x16_shl(down_1(value), 4), down_2(value));
        let merged = v128_bitselect(decoded, v, escape);
        let merged = v128_xor(merged, v128_and(is_plus, u8x16_splat(b'+' ^ b' ')));
        Step {
            merged,
            escapes: u32::from(u8x16_bitmask(escape)),
            percents: u32::from(u8x16_bitmask(is_percent)),
            special: u32::from(u8x16_bitmask(v128_or(is_percent, is_plus))),
        }
    }

    /// Writes the bytes of `merged` kept in `kept` to `out[n..]`, in order; returns how many.
    ///
    /// # Safety
    /// `n + STEP_WRITE <= out.len()`.
    #[inline(always)]
    unsafe fn write_kept(merged: v128, kept: u32, out: &mut [u8], n: usize) -> usize {
        let (low_kept, high_kept) = (kept & 0xFF, kept >> 8 & 0xFF);
        let pack = u64x2(
            PACK[low_kept as usize],
            PACK[high_kept as usize] | 0x0808_0808_0808_0808,
        );
        // Indices of 0x80 and up write zero, as `pshufb`'s do.
        let packed = u8x16_swizzle(merged, pack);
        let low_len = low_kept.count_ones() as usize;
        // SAFETY: 16 bytes at `n`, then 8 at `n + low_len <= n + 8`: within `out[n..n + 16]`,
        // in bounds (the caller's promise).
        unsafe {
            let at = out.as_mut_ptr().add(n);
            v128_store(at.cast(), packed);
            v128_store64_lane::<1>(packed, at.add(low_len).cast());
        }
        (kept & 0xFFFF).count_ones() as usize
    }

    /// As `x86`'s 16-byte `decode`.
    ///
    /// # Safety
    /// The build must enable simd128 (this module exists only then).
    pub(super) unsafe fn decode(
        raw: &[u8],
        start: usize,
        out: &mut [u8],
        stop_at_malformed: bool,
    ) -> Decoded {
        sixteen_byte_loop!(raw, start, out, stop_at_malformed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scalar reading of the same bytes: what `decode` must agree with.
    fn scalar(raw: &[u8]) -> (alloc::vec::Vec<u8>, Option<usize>) {
        let mut out = alloc::vec::Vec::new();
        let mut malformed = None;
        let mut i = 0;
        while let Some(&b) = raw.get(i) {
            match (b, crate::percent::escape_at(&raw[i..])) {
                (b'%', Some(v)) => {
                    out.push(v);
                    i += 3;
                    continue;
                }
                (b'%', None) => {
                    malformed.get_or_insert(i);
                    out.push(b'%');
                }
                (b'+', _) => out.push(b' '),
                _ => out.push(b),
            }
            i += 1;
        }
        (out, malformed)
    }

    /// Runs the vector decoder, then the scalar one on what it left.
    /// Runs each kernel, then the scalar reading on what it left; one answer per kernel.
    fn both(raw: &[u8], stop: bool) -> alloc::vec::Vec<(alloc::vec::Vec<u8>, Decoded)> {
        PercentDecoder::all()
            .map(|decoder| {
                let mut out = [0u8; 256];
                let d = decoder.decode(raw, 0, &mut out, stop);
                let mut all = out[..d.written].to_vec();
                all.extend(scalar(&raw[d.next..]).0);
                (all, d)
            })
            .collect()
    }

    #[test]
    #[cfg(all(target_arch = "x86_64", feature = "std", not(miri)))]
    fn is_there_where_the_cpu_has_ssse3() {
        assert_eq!(
            PercentDecoder::get().is_some(),
            std::is_x86_feature_detected!("ssse3") && std::is_x86_feature_detected!("popcnt")
        );
    }

    /// Under Miri (`.ci/miri.sh`), the kernels are the ones compiled in: both of them.
    #[test]
    #[cfg(all(miri, target_feature = "avx2", target_feature = "popcnt"))]
    fn miri_runs_both_kernels() {
        assert_eq!(PercentDecoder::all().count(), 2);
    }

    #[test]
    fn pack_table_packs() {
        assert_eq!(PACK[0], 0x8080_8080_8080_8080);
        assert_eq!(
            PACK[0b1010_0001].to_le_bytes(),
            [0, 5, 7, 0x80, 0x80, 0x80, 0x80, 0x80]
        );
        assert_eq!(PACK[0xFF].to_le_bytes(), [0, 1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn agrees_with_the_scalar_reading() {
        let cases: [&[u8]; 9] = [
            b"%41%42%43%44%45%46%47%48%49%4A%4B",
            b"%E4%B8%AD%E6%96%87%E4%B8%AD%E6%96%87%E4%B8%AD",
            b"%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%",
            b"a+b+c+d+e+f+g+h+i+j+k+l+m+n+o+p+q",
            b"plain-text-with-no-escapes-at-all-here",
            b"x%4%41%zz%4g%%41+%2B%2b%0a%ff%FF%G0abc%",
            b"0123456789abc%41%42xyz0123456789abc%41",
            b"0123456789ab%41%42xyz0123456789ab%41%4",
            b"\xC3\xA9%C3%A9\xE4\xB8\xAD%20\xF0\x9F\x98\x80%F0%9F%98%80",
        ];
        for raw in cases {
            for (got, _) in both(raw, false) {
                assert_eq!(got, scalar(raw).0, "{:?}", core::str::from_utf8(raw));
            }
        }
    }

    #[test]
    fn every_offset_of_a_mixed_input() {
        let base = b"ab%41+%%42%zz%C3%A9cd%4%41efghijklmn%2Bop%ff%";
        let mut raw = alloc::vec::Vec::new();
        for _ in 0..4 {
            raw.extend_from_slice(base);
        }
        // Under Miri (a thousand times slower) every start, and ends a few bytes apart.
        let ends = if cfg!(miri) { 7 } else { 1 };
        for start in 0..base.len() {
            for end in (start..raw.len()).step_by(ends) {
                let slice = &raw[start..end];
                for (got, d) in both(slice, false) {
                    assert_eq!(got, scalar(slice).0, "{start}..{end}");
                    assert!(!d.malformed);
                }
            }
        }
    }

    #[test]
    fn stops_before_a_malformed_escape_when_asked() {
        let raw = b"%41%42%43%44%45%46%47%48%49%4A%4B%zz%4C%4D%4E%4F%50%51%52";
        for (got, d) in both(raw, true) {
            assert!(d.malformed);
            assert!(d.next <= scalar(raw).1.unwrap_or(0));
            assert_eq!(got, scalar(raw).0);
        }
    }

    #[test]
    fn respects_the_room_left() {
        for decoder in PercentDecoder::all() {
            let raw = [b'a'; 64];
            let mut out = [0u8; WRITE + 3];
            let d = decoder.decode(&raw, 0, &mut out, false);
            assert_eq!((d.next, d.written), (32, 32));
            let d = decoder.decode(&raw, 0, &mut out[..WRITE - 1], false);
            assert_eq!((d.next, d.written), (16, 16));
            let d = decoder.decode(&raw, 0, &mut out[..15], false);
            assert_eq!((d.next, d.written), (0, 0));
        }
    }
}
