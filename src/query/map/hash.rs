//! Names: their keys, their hash, and how two are compared. A name's key is its first 8 bytes
//! as one word (a shorter name whole), so most names that differ are told apart by one
//! compare; the hash mixes the key, the length and the rest for the [`Index`](super::Index).

use super::Entry;
use crate::bytes::slice;

/// A name to look for, with what is compared first.
#[derive(Clone, Copy)]
pub(super) struct Name<'n> {
    pub(super) bytes: &'n [u8],
    pub(super) key: u64,
}

impl<'n> Name<'n> {
    #[inline]
    pub(super) fn new(bytes: &'n [u8], ignore_case: bool) -> Self {
        Name {
            bytes,
            key: name_key(bytes, ignore_case),
        }
    }
}

/// The entries and their arena, read together to compare names.
#[derive(Clone, Copy)]
pub(super) struct Names<'m> {
    pub(super) entries: &'m [Entry],
    pub(super) text: &'m [u8],
    pub(super) ignore_case: bool,
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
    pub(super) fn scan(&self, name: Name<'_>) -> Option<u32> {
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
    pub(super) fn head_is(&self, head: u32, name: Name<'_>) -> bool {
        self.entries
            .get(head as usize)
            .is_some_and(|e| self.is(e, name))
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
pub(super) fn name_key(name: &[u8], ignore_case: bool) -> u64 {
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
pub(super) fn hash_name(name: Name<'_>, ignore_case: bool) -> u64 {
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
