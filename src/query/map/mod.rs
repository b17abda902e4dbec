//! [`QueryMap`]: a query parsed once into a multi-map, for many lookups.
//!
//! Built in one pass over the pairs, with no sort: one `String` (the arena) starts with a copy
//! of the query and gets the names and values that need decoding appended decoded; every pair
//! becomes an [`Entry`] of spans into it, and the entries of one name are linked in input
//! order from the first of them (the name's head). Heads are found by a linear scan in a small
//! map and by a small open-addressing [`Index`] in a larger one (past [`LINEAR_MAX`] pairs);
//! only a query whose names flood the index is sorted instead.
//!
//! Read in four files: this one (the map, its entries, its lookups and iterators), `parse.rs`
//! (building it), `index.rs` (the index and its flood fallback) and `hash.rs` (a name's key
//! and hash, and how two names are compared).
//!
//! [`LINEAR_MAX`]: index::LINEAR_MAX
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec::Vec;

use super::Profile;
use crate::bytes::{slice, str_slice};

mod hash;
mod index;
mod parse;

use hash::{hash_name, Name, Names};
use index::{cmp_names, Index};

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
    /// Most pairs accepted (default 1000); more is
    /// [`QueryErrorKind::TooManyPairs`](super::QueryErrorKind::TooManyPairs).
    pub max_pairs: usize,
    /// Most decoded bytes (names + values) accepted (default 64 KiB); more is
    /// [`QueryErrorKind::TooLarge`](super::QueryErrorKind::TooLarge).
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

/// One pair: its decoded name is `text[name.0..name.1]` and its value `text[value.0..value.1]`.
/// 40 bytes.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The name's [`name_key`](hash::name_key): most names that differ are told apart by it alone.
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

impl QueryMap {
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
