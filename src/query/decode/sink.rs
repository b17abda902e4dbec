//! Where decoded text goes: the [`Sink`] trait and its four kinds, a `String` or byte vector
//! (appended to), [`EqSink`] (compared, for `Pair::name_eq`) and [`CountSink`] (counted, for
//! the map's size bound).

use alloc::string::String;
use alloc::vec::Vec;

/// Where decoded text goes. `put` returns `false` to stop early (a comparison that failed).
pub(in crate::query) trait Sink {
    fn put(&mut self, s: &str) -> bool;

    /// A point to come back to when the well-formed decoder gives up half-way.
    fn mark(&self) -> usize;

    fn reset(&mut self, mark: usize);

    /// `b` is ASCII.
    #[inline]
    fn put_ascii(&mut self, b: u8) -> bool {
        self.put(char::from(b).encode_utf8(&mut [0; 4]))
    }

    /// The sink as a byte vector, when it is one: the well-formed decoder then writes into
    /// it directly (`decode_well_formed_into`) and validates what it wrote afterwards.
    #[inline]
    fn bytes(&mut self) -> Option<&mut Vec<u8>> {
        None
    }

    /// The sink as a `String`, when it is one: when it is empty, the well-formed decoder
    /// writes into its bytes directly (`decode_well_formed_string`).
    #[inline]
    fn string(&mut self) -> Option<&mut String> {
        None
    }
}

/// `String` and `Vec<u8>` are sinks alike: append, and truncate back to a mark. Only how
/// text and an ASCII byte are appended differs.
macro_rules! buffer_sink {
    ($buffer:ty, $append:ident($text:path), $push:ident($ascii:path) $(, $bytes:item)?) => {
        impl Sink for $buffer {
            #[inline]
            fn put(&mut self, s: &str) -> bool {
                self.$append($text(s));
                true
            }

            fn mark(&self) -> usize {
                self.len()
            }

            fn reset(&mut self, mark: usize) {
                self.truncate(mark);
            }

            #[inline]
            fn put_ascii(&mut self, b: u8) -> bool {
                self.$push($ascii(b));
                true
            }

            $($bytes)?
        }
    };
}

buffer_sink!(
    String,
    push_str(core::convert::identity),
    push(char::from),
    #[inline]
    fn string(&mut self) -> Option<&mut String> {
        Some(self)
    }
);
buffer_sink!(
    Vec<u8>,
    extend_from_slice(str::as_bytes),
    push(core::convert::identity),
    #[inline]
    fn bytes(&mut self) -> Option<&mut Vec<u8>> {
        Some(self)
    }
);

/// Compares decoded text against an expected string as it is produced, so that
/// [`Pair::name_eq`](crate::query::Pair::name_eq) allocates nothing.
pub(in crate::query) struct EqSink<'t> {
    expected: &'t [u8],
    matched: usize,
}

impl<'t> EqSink<'t> {
    pub(in crate::query) fn new(expected: &'t str) -> Self {
        EqSink {
            expected: expected.as_bytes(),
            matched: 0,
        }
    }

    /// Whether everything expected was produced (a prefix is not a match).
    pub(in crate::query) fn matched_all(&self) -> bool {
        self.matched == self.expected.len()
    }
}

impl Sink for EqSink<'_> {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        let end = self.matched + s.len();
        // A real "maybe": the decoded text may run past what is expected.
        if self.expected.get(self.matched..end) == Some(s.as_bytes()) {
            self.matched = end;
            true
        } else {
            false
        }
    }

    fn mark(&self) -> usize {
        self.matched
    }

    fn reset(&mut self, mark: usize) {
        self.matched = mark;
    }
}

/// Counts decoded bytes (the map's exact size bound).
pub(in crate::query) struct CountSink(pub(in crate::query) usize);

impl Sink for CountSink {
    #[inline]
    fn put(&mut self, s: &str) -> bool {
        self.0 = self.0.saturating_add(s.len());
        true
    }

    fn mark(&self) -> usize {
        self.0
    }

    fn reset(&mut self, mark: usize) {
        self.0 = mark;
    }
}
