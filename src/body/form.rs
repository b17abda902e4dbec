//! `application/x-www-form-urlencoded` bodies, read as they arrive: the query decoder over a
//! stream (same profiles, same answers; offsets from the start of the body).
//!
//! A pair ends at `&` or at the end of the body. A pair not yet ended is not consumed: the
//! caller feeds it again with what arrives next, so it holds at most one pair, and the limits
//! cap that pair: a name or value longer (as sent, before decoding) than its limit is refused
//! as soon as the bytes that make it so are fed, whether or not the pair has ended.
//!
//! ```
//! use reqparse::body::form::{FormEvent, FormReader};
//!
//! let mut reader = FormReader::default();
//! let mut pairs = Vec::new();
//! let body: &[u8] = b"name=Jos%C3%A9&city=S%C3%A3o+Paulo";
//! let (mut input, eof) = (body, true);
//! loop {
//!     let step = reader.decode(input, eof)?;
//!     input = &input[step.consumed..];
//!     match step.event {
//!         Some(FormEvent::Pair(p)) => pairs.push((p.name.to_owned(), p.value.to_owned())),
//!         Some(FormEvent::End) | None => break,
//!     }
//! }
//! assert_eq!(pairs, [("name".into(), "José".into()), ("city".into(), "São Paulo".into())]);
//! # Ok::<(), reqparse::body::form::FormError>(())
//! ```
#![forbid(unsafe_code)]

use alloc::string::String;
use core::fmt;

use super::{find_byte, Step};
use crate::bytes::slice;
use crate::query::{Pairs, Profile, QueryErrorKind};

crate::body::limits::form!(crate::body::limits::declare(
    /// Limits on a form body (ASP.NET Core's `FormOptions` defaults). Lengths are of the bytes as
    /// sent, before decoding, so a limit is certain as soon as those bytes arrive.
    ///
    /// ```
    /// use reqparse::body::form::{FormErrorKind, FormLimit, FormLimits, FormReader};
    /// use reqparse::query::Profile;
    ///
    /// let limits = FormLimits { max_pairs: 1, ..FormLimits::default() };
    /// let mut reader = FormReader::new(Profile::Whatwg, limits);
    /// let consumed = reader.decode(b"a=1&b=2", true)?.consumed;
    /// let err = reader.decode(&b"a=1&b=2"[consumed..], true).unwrap_err();
    /// assert_eq!((err.kind, err.offset), (FormErrorKind::Limit(FormLimit::Pairs), 4));
    /// assert_eq!(err.to_string(), "form body over max_pairs at byte 4");
    /// # Ok::<(), reqparse::body::form::FormError>(())
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct FormLimits = "reqparse::body::form::FormLimits";

    /// The limit a form body went over; see [`FormLimits`].
    ///
    /// ```
    /// use reqparse::body::form::FormLimit;
    /// assert_eq!(FormLimit::ValueBytes.name(), "max_value_bytes");
    /// ```
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    #[non_exhaustive]
    pub enum FormLimit;

    /// The name of the [`FormLimits`] field.
    ///
    /// ```
    /// assert_eq!(reqparse::body::form::FormLimit::Pairs.name(), "max_pairs");
    /// ```
    pub const fn name;
));

/// What was wrong with a form body; see [`FormError`].
///
/// ```
/// use reqparse::body::form::FormErrorKind;
/// use reqparse::query::QueryErrorKind;
/// assert_ne!(FormErrorKind::Decode(QueryErrorKind::InvalidUtf8), FormErrorKind::Decode(QueryErrorKind::InvalidEscape));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FormErrorKind {
    /// The profile refused a name or value, as the query decoder does
    /// ([`Profile::Strict`]).
    Decode(QueryErrorKind),
    /// A limit of [`FormLimits`] was reached.
    Limit(FormLimit),
}

impl FormErrorKind {
    /// The kind's name in every face (npm, vectors): the query decoder's kind in kebab-case,
    /// and `limit:` followed by the limit's field name for [`FormErrorKind::Limit`].
    ///
    /// ```
    /// use reqparse::body::form::{FormErrorKind, FormLimit};
    /// use reqparse::query::QueryErrorKind;
    /// assert_eq!(FormErrorKind::Decode(QueryErrorKind::InvalidEscape).name(), "invalid-escape");
    /// assert_eq!(FormErrorKind::Limit(FormLimit::Pairs).name(), "limit:max_pairs");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            FormErrorKind::Decode(QueryErrorKind::InvalidEscape) => "invalid-escape",
            FormErrorKind::Decode(QueryErrorKind::InvalidUtf8) => "invalid-utf8",
            FormErrorKind::Decode(QueryErrorKind::TooManyPairs) => "too-many-pairs",
            FormErrorKind::Decode(QueryErrorKind::TooLarge) => "too-large",
            FormErrorKind::Limit(limit) => limit.kind_name(),
        }
    }
}

/// An error in a form body, with its byte offset from the start of the body.
///
/// ```
/// use reqparse::body::form::FormReader;
/// use reqparse::query::Profile;
/// let err = FormReader::new(Profile::Strict, Default::default()).decode(b"a=%zz", true).unwrap_err();
/// assert_eq!(err.offset, 2);
/// assert_eq!(err.to_string(), "invalid percent escape at byte 2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormError {
    /// What was wrong.
    pub kind: FormErrorKind,
    /// Where, in bytes from the start of the body.
    pub offset: u64,
}

impl FormError {
    /// Whether the body went over a limit (rather than being malformed).
    ///
    /// ```
    /// use reqparse::body::form::{FormError, FormErrorKind, FormLimit};
    /// let e = FormError { kind: FormErrorKind::Limit(FormLimit::Pairs), offset: 9 };
    /// assert!(e.is_limit());
    /// ```
    pub const fn is_limit(&self) -> bool {
        matches!(self.kind, FormErrorKind::Limit(_))
    }

    /// The HTTP status an error answers (RFC 9110 §15.5): 413 (Content Too Large) for a limit,
    /// 400 (Bad Request) for a body the profile refuses.
    ///
    /// ```
    /// use reqparse::body::form::{FormError, FormErrorKind, FormLimit};
    /// let e = FormError { kind: FormErrorKind::Limit(FormLimit::BodyBytes), offset: 9 };
    /// assert_eq!(e.status(), 413);
    /// ```
    pub const fn status(&self) -> u16 {
        if self.is_limit() {
            413
        } else {
            400
        }
    }
}

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            // The query decoder's own words, at the body's offset.
            FormErrorKind::Decode(kind) => write!(f, "{} at byte {}", kind.what(), self.offset),
            FormErrorKind::Limit(limit) => {
                write!(f, "form body over {} at byte {}", limit.name(), self.offset)
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FormError {}

/// One pair of a form body, decoded: each part borrowed from the input when there was
/// nothing to decode, else from the reader's scratch buffer.
///
/// ```
/// use reqparse::body::form::{FormEvent, FormReader};
/// let mut reader = FormReader::default();
/// let step = reader.decode(b"a+b=c&", false)?;
/// let Some(FormEvent::Pair(pair)) = step.event else { unreachable!() };
/// assert_eq!((pair.name, pair.value, pair.offset), ("a b", "c", 0));
/// # Ok::<(), reqparse::body::form::FormError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormPair<'a> {
    /// The decoded name.
    pub name: &'a str,
    /// The decoded value.
    pub value: &'a str,
    /// Where the pair starts, in bytes from the start of the body.
    pub offset: u64,
}

/// An event of a form body.
///
/// ```
/// use reqparse::body::form::{FormEvent, FormReader};
/// assert_eq!(FormReader::default().decode(b"", true)?.event, Some(FormEvent::End));
/// # Ok::<(), reqparse::body::form::FormError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormEvent<'a> {
    /// The next pair.
    Pair(FormPair<'a>),
    /// The end of the body: every pair has been handed out.
    End,
}

/// The sans-io reader of a form body (see the module documentation).
///
/// ```
/// use reqparse::body::form::{FormEvent, FormReader};
///
/// // A read that ends inside a pair: the pair is not consumed, and comes whole with the next.
/// let mut reader = FormReader::default();
/// let step = reader.decode(b"q=ru", false)?;
/// assert_eq!((step.consumed, step.event), (0, None));
/// let step = reader.decode(b"q=rust&", false)?;
/// assert!(matches!(step.event, Some(FormEvent::Pair(p)) if p.value == "rust"));
/// # Ok::<(), reqparse::body::form::FormError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct FormReader {
    profile: Profile,
    limits: FormLimits,
    /// Bytes consumed so far.
    position: u64,
    pairs: usize,
    done: bool,
    /// Bytes of the pending pair (the input fed, past any `&` skipped) that the last call
    /// scanned and found no `&` in: fed again with more after them, they are not scanned
    /// again (on 1-byte reads each byte is looked at once).
    scanned: usize,
    /// The same for the pair's `=`, looked for only once the pair is longer than the
    /// shorter of the name and value limits (before, neither can be broken): bytes scanned
    /// for it, and where it is once found.
    eq_scanned: usize,
    eq: Option<usize>,
    /// Where decoded names and values go; it grows to the longest pair decoded, at most the
    /// name and value limits together, and is kept for [`FormReader::reset`].
    scratch: String,
}

impl FormReader {
    /// A reader at the start of a body.
    ///
    /// ```
    /// use reqparse::body::form::{FormLimits, FormReader};
    /// use reqparse::query::Profile;
    /// let reader = FormReader::new(Profile::DotNet, FormLimits::default());
    /// assert_eq!(reader.position(), 0);
    /// ```
    pub fn new(profile: Profile, limits: FormLimits) -> Self {
        FormReader {
            profile,
            limits,
            ..FormReader::default()
        }
    }

    /// Starts again at the start of a new body, keeping the scratch buffer's capacity.
    ///
    /// ```
    /// use reqparse::body::form::FormReader;
    /// let mut reader = FormReader::default();
    /// reader.decode(b"a=%41", true)?;
    /// reader.reset();
    /// assert_eq!(reader.position(), 0);
    /// # Ok::<(), reqparse::body::form::FormError>(())
    /// ```
    pub fn reset(&mut self) {
        let scratch = core::mem::take(&mut self.scratch);
        *self = FormReader {
            scratch,
            ..FormReader::new(self.profile, self.limits)
        };
    }

    /// Bytes consumed so far: the offset in the body of the next byte fed.
    ///
    /// ```
    /// use reqparse::body::form::FormReader;
    /// let mut reader = FormReader::default();
    /// reader.decode(b"a=1&b", false)?;
    /// assert_eq!(reader.position(), 4);
    /// # Ok::<(), reqparse::body::form::FormError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Reads a form body from `input` to its end and hands every event, [`FormEvent::End`]
    /// last, to `each`, through one buffer that holds what the reader holds back (a pair
    /// cut by a read, which its limits cap) and one read (4 KiB first, doubling while reads
    /// fill it, up to 64 KiB).
    ///
    /// # Errors
    /// [`ReadError::Io`](crate::body::ReadError::Io) when a read fails (reads interrupted by
    /// a signal are retried); [`ReadError::Body`](crate::body::ReadError::Body) for what
    /// [`decode`](Self::decode) refuses.
    ///
    /// ```
    /// use reqparse::body::form::{FormEvent, FormReader};
    /// let mut pairs = Vec::new();
    /// FormReader::default().read_from(&b"a=1&b=x+y"[..], |event| {
    ///     if let FormEvent::Pair(p) = event {
    ///         pairs.push((p.name.to_owned(), p.value.to_owned()));
    ///     }
    /// })?;
    /// assert_eq!(pairs, [("a".into(), "1".into()), ("b".into(), "x y".into())]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn read_from<R: std::io::Read>(
        &mut self,
        input: R,
        each: impl FnMut(FormEvent<'_>),
    ) -> Result<(), crate::body::ReadError<FormError>> {
        super::read::read_from(self, input, each).map(|_| ())
    }

    /// Decodes the next pair from `input` (the bytes after what was consumed so far); `eof`
    /// says that `input` is the rest of the body. Bytes not consumed (a pair not yet ended)
    /// must be fed again with what arrives next.
    ///
    /// ```
    /// use reqparse::body::form::{FormEvent, FormReader};
    /// let mut reader = FormReader::default();
    /// let step = reader.decode(b"&&a=1", true)?;
    /// assert_eq!(step.consumed, 5);
    /// assert!(matches!(step.event, Some(FormEvent::Pair(p)) if p.offset == 2));
    /// # Ok::<(), reqparse::body::form::FormError>(())
    /// ```
    pub fn decode<'a>(
        &'a mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<FormEvent<'a>>, FormError> {
        // Empty segments (`&&`) are skipped, as the query enumerator skips them (a pending
        // pair starts with a byte that is not `&`).
        let skipped = if self.scanned > 0 {
            0
        } else {
            input.iter().take_while(|&&b| b == b'&').count()
        };
        let rest = slice(input, skipped..);
        let from = self.scanned.min(rest.len());
        let end = find_byte(b'&', slice(rest, from..)).map(|i| from + i);
        let pair_bytes = match end {
            Some(end) => slice(rest, ..end),
            None => rest,
        };
        let eq = self.eq_in(pair_bytes);
        self.check_limits(pair_bytes.len(), eq, skipped, end.is_some())?;
        if end.is_none() && !eof {
            self.position += skipped as u64;
            self.scanned = rest.len();
            return Ok(Step {
                consumed: skipped,
                event: None,
            });
        }
        // The pair is consumed: the next one is scanned from its start.
        (self.scanned, self.eq_scanned, self.eq) = (0, 0, None);
        if pair_bytes.is_empty() {
            // Only at the end of the body: `end` is none and `eof` set.
            self.position += skipped as u64;
            self.done = true;
            return Ok(Step {
                consumed: skipped,
                event: Some(FormEvent::End),
            });
        }
        let offset = self.position + skipped as u64;
        let consumed = skipped + pair_bytes.len() + usize::from(end.is_some());
        self.position += consumed as u64;
        self.pairs += 1;
        let mut pairs = Pairs::form(pair_bytes);
        let pair = pairs.next();
        debug_assert!(
            pair.is_some(),
            "a non-empty segment without `&` is one pair"
        );
        let Some(pair) = pair else {
            return Ok(Step {
                consumed,
                event: None,
            });
        };
        let (name, value) = pair
            .decode_in(self.profile, &mut self.scratch)
            .map_err(|e| FormError {
                kind: FormErrorKind::Decode(e.kind),
                offset: offset + e.offset as u64,
            })?;
        let event = FormEvent::Pair(FormPair {
            name,
            value,
            offset,
        });
        Ok(Step {
            consumed,
            event: Some(event),
        })
    }

    /// Where the pending pair's `=` is, as far as the limits need it: `None` while the pair
    /// is too short to break the name or value limit whatever it holds (the limits then read
    /// it as all name, which breaks nothing either); else found once, scanning only the
    /// bytes not scanned before.
    fn eq_in(&mut self, pair: &[u8]) -> Option<usize> {
        if pair.len() <= self.limits.max_name_bytes.min(self.limits.max_value_bytes) {
            return None;
        }
        if self.eq.is_none() {
            let from = self.eq_scanned.min(pair.len());
            self.eq = memchr::memchr(b'=', slice(pair, from..)).map(|i| from + i);
            self.eq_scanned = pair.len();
        }
        self.eq
    }

    /// The limits over the pair (complete or not) that starts `skipped` bytes into the
    /// input: each is refused as soon as its bytes are here. Each broken limit is located at
    /// the first byte past it, and the earliest one is reported: the same whatever the reads
    /// were (with fewer bytes, only the limits broken within them are seen, and a later byte
    /// cannot break one earlier).
    fn check_limits(
        &self,
        pair_len: usize,
        eq: Option<usize>,
        skipped: usize,
        ended: bool,
    ) -> Result<(), FormError> {
        let start = self.position + skipped as u64;
        let limits = &self.limits;
        let name_len = eq.unwrap_or(pair_len);
        let value_len = eq.map_or(0, |eq| pair_len - eq - 1);
        let end = start + (pair_len + usize::from(ended)) as u64;
        let pairs_over = pair_len > 0 && self.pairs == limits.max_pairs;
        if !pairs_over
            && name_len <= limits.max_name_bytes
            && value_len <= limits.max_value_bytes
            && end <= limits.max_body_bytes
        {
            // The usual answer, without building the list below.
            return Ok(());
        }
        // Where each broken limit's first byte past it is, from the start of the body. The
        // body limit counts every byte: the `&`s skipped before the pair and the one that
        // ends it too.
        let at = |offset: usize| start + offset as u64;
        let broken = [
            pairs_over.then(|| (FormLimit::Pairs, at(0))),
            (name_len > limits.max_name_bytes)
                .then(|| (FormLimit::NameBytes, at(limits.max_name_bytes))),
            eq.filter(|_| value_len > limits.max_value_bytes)
                .map(|eq| (FormLimit::ValueBytes, at(eq + 1 + limits.max_value_bytes))),
            (end > limits.max_body_bytes).then_some((FormLimit::BodyBytes, limits.max_body_bytes)),
        ];
        match broken
            .into_iter()
            .flatten()
            .min_by_key(|&(_, offset)| offset)
        {
            Some((limit, offset)) => Err(FormError {
                kind: FormErrorKind::Limit(limit),
                offset,
            }),
            None => Ok(()),
        }
    }
}

// The feed driver's protocol: a step is `decode`, which takes `eof` itself.
super::feed::decode_with_eof! {
    FormReader => FormEvent, FormError;
}
