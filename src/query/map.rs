//! [`QueryMap`]: a query parsed once into a multi-map, for many lookups.
#![forbid(unsafe_code)]

use alloc::string::String;
use alloc::vec::Vec;

use super::decode::CountSink;
use super::{pairs, Profile, QueryError, QueryErrorKind};
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

#[derive(Clone, Copy, Debug)]
struct Entry {
    name: (u32, u32),
    value: (u32, u32),
    /// Position of the pair in the input.
    index: u32,
}

#[derive(Clone, Copy, Debug)]
struct Group {
    /// `entries[start..end]` share a name; `entries[start]` is its first appearance.
    start: u32,
    end: u32,
}

/// A parsed multi-map of a query string (the `QueryHelpers.ParseQuery` counterpart).
///
/// Names come in first-appearance order, each with its values in input order. Limits are
/// checked before anything is allocated. A parse makes at most three allocations however many
/// pairs there are (one `String` with all decoded text, one `Vec` of pair spans sorted by name,
/// one `Vec` of name groups); lookups allocate nothing and cost O(log n) comparisons.
///
/// **Map or re-enumerate?** Looking a name up by re-enumerating with [`Pair::name_eq`] costs a
/// scan of the query up to the name (all of it for a missing name) per lookup; the map costs
/// one decode of everything plus a sort, then a binary search per lookup. Measured with
/// `cargo bench --bench query -- crossover` (2 shared, heavily loaded cores, so ±30%): on a
/// short query (4 pairs) the two cross at about 4 lookups (4: 0.8–1.1 µs both ways; 8:
/// 1.4–2.0 µs vs 1.0–1.4 µs); on a realistic 1 KB query (56 pairs) at about 16 lookups (8:
/// 6.9–7.9 µs vs 12.7–13.5 µs; 16: 13.5–19.6 µs vs 13.5–17.3 µs; two runs). Below that,
/// re-enumerate; above it, parse once and use [`QueryMap::get`].
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
    entries: Vec<Entry>,
    groups: Vec<Group>,
    ignore_case: bool,
}

fn cmp_names(a: &str, b: &str, ignore_case: bool) -> core::cmp::Ordering {
    if ignore_case {
        let a = a.bytes().map(|c| c.to_ascii_lowercase());
        a.cmp(b.bytes().map(|c| c.to_ascii_lowercase()))
    } else {
        a.cmp(b)
    }
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
        // Pass 1: count and bound before allocating. Decoding never makes valid UTF-8 longer,
        // so the raw length bounds the decoded one; only when it is over the limit is the
        // exact decoded length computed.
        let mut count = 0usize;
        let mut raw_total = 0usize;
        for pair in pairs(query) {
            count += 1;
            if count > options.max_pairs {
                return Err(QueryError::new(QueryErrorKind::TooManyPairs, pair.offset));
            }
            raw_total += pair.name.len() + pair.value.len();
        }
        let mut capacity = raw_total;
        if raw_total > options.max_decoded_bytes {
            let mut sink = CountSink(0);
            for pair in pairs(query) {
                pair.name_part().decode_to(options.profile, &mut sink)?;
                pair.value_part().decode_to(options.profile, &mut sink)?;
                if sink.0 > options.max_decoded_bytes {
                    return Err(QueryError::new(QueryErrorKind::TooLarge, pair.offset));
                }
            }
            capacity = sink.0;
        }
        if capacity > u32::MAX as usize || count > u32::MAX as usize {
            return Err(QueryError::new(QueryErrorKind::TooLarge, 0));
        }
        // Pass 2: decode everything into one string.
        let mut text = String::with_capacity(capacity);
        let mut entries = Vec::with_capacity(count);
        for (index, pair) in pairs(query).enumerate() {
            let n0 = text.len();
            pair.decode_name_into(options.profile, &mut text)?;
            let n1 = text.len();
            pair.decode_value_into(options.profile, &mut text)?;
            let v1 = text.len();
            // All below `capacity`, checked to fit in u32 above.
            entries.push(Entry {
                name: (n0 as u32, n1 as u32),
                value: (n1 as u32, v1 as u32),
                index: index as u32,
            });
        }
        let ic = options.ignore_case;
        // Spans were cut at the ends of whole decoded names, within `text`.
        let name_of = |e: &Entry| str_slice(&text, e.name.0 as usize..e.name.1 as usize);
        // Unstable sort allocates nothing; the index tiebreak keeps input order per name.
        entries.sort_unstable_by(|a, b| {
            cmp_names(name_of(a), name_of(b), ic).then(a.index.cmp(&b.index))
        });
        let same = |a: &Entry, b: &Entry| cmp_names(name_of(a), name_of(b), ic).is_eq();
        let distinct = entries
            .windows(2)
            .filter(|w| matches!(w, [a, b] if !same(a, b)))
            .count()
            + usize::from(!entries.is_empty());
        let mut groups = Vec::with_capacity(distinct);
        let mut start = 0;
        for i in 1..=entries.len() {
            let boundary = match (entries.get(i - 1), entries.get(i)) {
                (Some(a), Some(b)) => !same(a, b),
                _ => true,
            };
            if boundary {
                groups.push(Group {
                    start: start as u32,
                    end: i as u32,
                });
                start = i;
            }
        }
        groups.sort_unstable_by_key(|g| entries.get(g.start as usize).map_or(0, |e| e.index));
        Ok(QueryMap {
            text,
            entries,
            groups,
            ignore_case: ic,
        })
    }

    /// The text of a span `parse` recorded (the ends of a whole decoded name or value).
    fn str_at(&self, span: (u32, u32)) -> &str {
        str_slice(&self.text, span.0 as usize..span.1 as usize)
    }

    /// The entries (sorted by name) whose name is `name`.
    fn range(&self, name: &str) -> &[Entry] {
        let ic = self.ignore_case;
        let lo = self
            .entries
            .partition_point(|e| cmp_names(self.str_at(e.name), name, ic).is_lt());
        // Both partition points are at most the length of what they partition.
        let rest = slice(&self.entries, lo..);
        let n = rest.partition_point(|e| cmp_names(self.str_at(e.name), name, ic).is_eq());
        slice(rest, ..n)
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
        self.range(name).first().map(|e| self.str_at(e.value))
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
        Values {
            map: self,
            entries: self.range(name).iter(),
        }
    }

    /// Whether `name` appears.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("flag", Default::default())?;
    /// assert!(map.contains("flag"));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        !self.range(name).is_empty()
    }

    /// The number of distinct names.
    ///
    /// ```
    /// let map = reqparse::query::QueryMap::parse("a=1&b=2&a=3", Default::default())?;
    /// assert_eq!((map.len(), map.pair_count()), (2, 3));
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether the query had no pairs.
    ///
    /// ```
    /// assert!(reqparse::query::QueryMap::parse("?&&", Default::default())?.is_empty());
    /// # Ok::<(), reqparse::query::QueryError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
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
            groups: self.groups.iter(),
        }
    }
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
    entries: core::slice::Iter<'m, Entry>,
}

impl<'m> Iterator for Values<'m> {
    type Item = &'m str;

    fn next(&mut self) -> Option<&'m str> {
        self.entries.next().map(|e| self.map.str_at(e.value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
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
    groups: core::slice::Iter<'m, Group>,
}

impl<'m> Iterator for Iter<'m> {
    type Item = (&'m str, Values<'m>);

    fn next(&mut self) -> Option<Self::Item> {
        let g = self.groups.next()?;
        // Groups were cut from `entries` by `parse`.
        let entries = slice(&self.map.entries, g.start as usize..g.end as usize);
        let name = entries.first().map_or("", |e| self.map.str_at(e.name));
        Some((
            name,
            Values {
                map: self.map,
                entries: entries.iter(),
            },
        ))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.groups.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}
