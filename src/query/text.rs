//! [`str_pairs`]: the pairs of a `&str` query with `&str` raw accessors.
//!
//! Splitting a `&str` at the ASCII bytes `&` and `=` cuts it at character boundaries, so each
//! raw name and value is a `&str` already: these accessors hand it out without a second UTF-8
//! check. [`Pair`]'s byte API stays as it is, for queries that arrive as bytes.
#![forbid(unsafe_code)]

use core::ops::Deref;

use super::{pairs, Pair, Pairs};

/// Enumerates the pairs of a query string given as text, each a [`StrPair`] whose raw name
/// and value are `&str`; otherwise exactly [`pairs`] (same splitting, same decoding).
///
/// ```
/// use reqparse::query::{self, Profile};
///
/// for pair in query::str_pairs("?q=rust+forms&lang=en") {
///     let name: &str = pair.name();
///     if name == "q" {
///         assert_eq!(pair.value(), "rust+forms");
///         // Every `Pair` method is there too, through `Deref`.
///         assert_eq!(pair.decode_value(Profile::Whatwg)?, "rust forms");
///     }
/// }
/// # Ok::<(), reqparse::query::QueryError>(())
/// ```
pub fn str_pairs(input: &str) -> StrPairs<'_> {
    StrPairs(pairs(input))
}

/// Iterator over the raw pairs of a `&str` query; see [`str_pairs`]. Allocates nothing.
///
/// ```
/// let names: Vec<&str> = reqparse::query::str_pairs("a=1&b=2").map(|p| p.name()).collect();
/// assert_eq!(names, ["a", "b"]);
/// ```
#[derive(Clone, Debug)]
pub struct StrPairs<'a>(Pairs<'a>);

impl<'a> Iterator for StrPairs<'a> {
    type Item = StrPair<'a>;

    // Natively inlined, as `Pairs::next` is (see there).
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    fn next(&mut self) -> Option<StrPair<'a>> {
        self.0.next().map(StrPair)
    }
}

impl core::iter::FusedIterator for StrPairs<'_> {}

/// One raw pair of a `&str` query: [`Pair`] (reached through `Deref`, or [`StrPair::pair`])
/// whose [`name`](StrPair::name) and [`value`](StrPair::value) are `&str`.
///
/// ```
/// use reqparse::query::{str_pairs, Pair};
///
/// let pair = str_pairs("na%C3%AFve=caf\u{e9}").next().unwrap();
/// assert_eq!((pair.name(), pair.value()), ("na%C3%AFve", "café"));
/// // The byte API is one call away.
/// let raw: Pair = pair.pair();
/// assert_eq!(raw.value(), "café".as_bytes());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrPair<'a>(Pair<'a>);

impl<'a> StrPair<'a> {
    /// The raw (still encoded) name, as text.
    ///
    /// ```
    /// assert_eq!(reqparse::query::str_pairs("a+b=1").next().unwrap().name(), "a+b");
    /// ```
    pub fn name(&self) -> &'a str {
        self.text().0
    }

    /// The raw (still encoded) value, as text; empty when there is no `=`.
    ///
    /// ```
    /// let mut it = reqparse::query::str_pairs("a=x%20y&b");
    /// assert_eq!(it.next().unwrap().value(), "x%20y");
    /// assert_eq!(it.next().unwrap().value(), "");
    /// ```
    pub fn value(&self) -> &'a str {
        self.text().1
    }

    /// The pair with the byte API ([`Pair::name`] and [`Pair::value`] are `&[u8]`).
    ///
    /// ```
    /// let pair = reqparse::query::str_pairs("k=v").next().unwrap().pair();
    /// assert_eq!(pair.name(), b"k");
    /// ```
    pub fn pair(&self) -> Pair<'a> {
        self.0
    }

    fn text(&self) -> (&'a str, &'a str) {
        match self.0.text {
            Some(text) => text,
            None => {
                // `StrPairs` only wraps `pairs(&str)`, which always sets the text.
                debug_assert!(false, "a StrPair without its text");
                ("", "")
            }
        }
    }
}

impl<'a> Deref for StrPair<'a> {
    type Target = Pair<'a>;

    fn deref(&self) -> &Pair<'a> {
        &self.0
    }
}

impl<'a> From<StrPair<'a>> for Pair<'a> {
    /// ```
    /// use reqparse::query::{str_pairs, Pair};
    /// let pair: Pair = str_pairs("a=1").next().unwrap().into();
    /// assert_eq!(pair.value(), b"1");
    /// ```
    fn from(pair: StrPair<'a>) -> Pair<'a> {
        pair.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_matches_bytes() {
        for input in ["", "?", "?a=1&&=x&b=&c&d=e=f", "é=ü&%FF=+&😀"] {
            let text: alloc::vec::Vec<_> = str_pairs(input).collect();
            let raw: alloc::vec::Vec<_> = pairs(input).collect();
            assert_eq!(text.len(), raw.len(), "{input:?}");
            for (t, r) in text.iter().zip(&raw) {
                assert_eq!(
                    (t.name().as_bytes(), t.value().as_bytes()),
                    (r.name(), r.value())
                );
                assert_eq!(
                    (t.name_str(), t.value_str()),
                    (Some(t.name()), Some(t.value()))
                );
            }
        }
    }
}
