//! Byte-level helpers every core parser shares (crate-private).
//!
//! - **Class tables**: each parser classifies bytes with one 256-entry table of bit flags,
//!   built in `const` context by [`set`] and [`set_range`], one call per row of the grammar,
//!   each commented with the characters it covers (httparse's habit).
//! - **Checked slicing**: a parser that has already checked its bounds slices with [`slice()`]
//!   and [`str_slice`] instead of indexing. A broken invariant is then a `debug_assert!`
//!   failure, which the property tests and fuzzers run with, and an empty slice in release,
//!   never a panic in a user's server. Plain `.get(..).unwrap_or_default()` would hide the
//!   same bug from every test; see ARCHITECTURE.md, "No panics".
#![forbid(unsafe_code)]

use core::slice::SliceIndex;

/// The row of `b` in a 256-entry table: in bounds by the index's type, so the one place the
/// core's table lookups index without a check the compiler cannot see (the core denies
/// `clippy::indexing_slicing`; this is its one allowed lookup, and it compiles to the bare
/// load).
#[inline(always)]
#[allow(clippy::indexing_slicing)]
pub(crate) const fn row<T: Copy>(table: &[T; 256], b: u8) -> T {
    table[b as usize]
}

/// The row of `b` in a 256-entry table, to write (see [`row`]).
#[inline(always)]
#[allow(clippy::indexing_slicing)]
pub(crate) fn row_mut<T>(table: &mut [T; 256], b: u8) -> &mut T {
    &mut table[usize::from(b)]
}

/// Adds `class` to the row of each byte of `bytes`.
#[allow(clippy::indexing_slicing)] // `bytes[i]` with `i < len`; a byte indexes 256 rows
pub(crate) const fn set(t: &mut [u8; 256], bytes: &[u8], class: u8) {
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] |= class;
        i += 1;
    }
}

/// Adds `class` to the rows of every byte from `lo` to `hi` inclusive.
#[allow(clippy::indexing_slicing)] // `b <= hi`, a byte: within the 256 rows
pub(crate) const fn set_range(t: &mut [u8; 256], lo: u8, hi: u8, class: u8) {
    let mut b = lo as usize;
    while b <= hi as usize {
        t[b] |= class;
        b += 1;
    }
}

/// Adds `class` to the rows of RFC 9110 §5.6.2's `tchar`: ALPHA, DIGIT and
/// `` !#$%&'*+-.^_`|~ `` (the one place the HTTP grammars' token row is written).
pub(crate) const fn set_tchar(t: &mut [u8; 256], class: u8) {
    set_range(t, b'A', b'Z', class);
    set_range(t, b'a', b'z', class);
    set_range(t, b'0', b'9', class);
    set(t, b"!#$%&'*+-.^_`|~", class);
}

/// Adds `class` to the rows of RFC 9110 §5.6.4's `qdtext` without obs-text: HTAB, SP, `!`,
/// `#`-`[`, `]`-`~` (every visible character but `"` and `\`); `obs_text` adds 0x80-0xFF.
pub(crate) const fn set_qdtext(t: &mut [u8; 256], class: u8, obs_text: bool) {
    set(t, b"\t !", class);
    set_range(t, b'#', b'[', class);
    set_range(t, b']', b'~', class);
    if obs_text {
        set_range(t, 0x80, 0xFF, class);
    }
}

/// `items[range]`, for a range the caller has already proven in bounds (bytes mostly, but any
/// slice: a parser's own tables of spans too).
#[inline]
#[track_caller]
pub(crate) fn slice<T, I>(items: &[T], range: I) -> &[T]
where
    I: SliceIndex<[T], Output = [T]>,
{
    match items.get(range) {
        Some(s) => s,
        None => {
            debug_assert!(false, "slice out of bounds: a parser invariant is broken");
            &[]
        }
    }
}

/// `items[range]` to write, for a range the caller has already proven in bounds.
#[inline]
#[track_caller]
pub(crate) fn slice_mut<T, I>(items: &mut [T], range: I) -> &mut [T]
where
    I: SliceIndex<[T], Output = [T]>,
{
    match items.get_mut(range) {
        Some(s) => s,
        None => {
            debug_assert!(false, "slice out of bounds: a parser invariant is broken");
            &mut []
        }
    }
}

/// `text[range]`, for a range the caller has already proven in bounds and on character
/// boundaries.
#[inline]
#[track_caller]
pub(crate) fn str_slice<I>(text: &str, range: I) -> &str
where
    I: SliceIndex<str, Output = str>,
{
    match text.get(range) {
        Some(s) => s,
        None => {
            debug_assert!(false, "str slice out of bounds or off a char boundary");
            ""
        }
    }
}

/// Where `part` starts inside `whole`, found from the two addresses; `None` when `part` is
/// not a sub-slice of it (a static `&[]`, or bytes from elsewhere). The parsers hand out
/// slices of their input and keep only offsets: this is the one place an address becomes one.
#[inline]
pub(crate) fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    let start = (part.as_ptr() as usize).checked_sub(whole.as_ptr() as usize)?;
    (start.checked_add(part.len())? <= whole.len()).then_some(start)
}

/// `bytes` as text, for bytes the caller has already proven to be UTF-8 (ASCII, or a prefix
/// that `from_utf8` reported valid).
#[inline]
#[track_caller]
pub(crate) fn as_str(bytes: &[u8]) -> &str {
    match core::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => {
            debug_assert!(false, "bytes proven UTF-8 are not");
            ""
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_rows() {
        const T: [u8; 256] = {
            let mut t = [0; 256];
            // `a`-`c`
            set_range(&mut t, b'a', b'c', 1);
            // `-` `c`
            set(&mut t, b"-c", 2);
            t
        };
        assert_eq!(
            (T[b'a' as usize], T[b'c' as usize], T[b'-' as usize]),
            (1, 3, 2)
        );
        assert_eq!(T[b'd' as usize], 0);
    }

    #[test]
    fn in_bounds_slices() {
        assert_eq!(slice(b"abc", 1..), b"bc");
        assert_eq!(str_slice("abc", ..2), "ab");
        assert_eq!(as_str(b"ok"), "ok");
    }

    #[test]
    #[should_panic(expected = "invariant")]
    #[cfg(debug_assertions)]
    fn broken_invariants_fail_in_tests() {
        let _ = slice(b"abc", 2..9);
    }
}
