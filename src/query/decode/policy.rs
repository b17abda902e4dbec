//! What the profiles disagree on, and only that: a malformed `%` (a literal `%`, or an error
//! under Strict) and a maximal invalid subpart of decoded bytes (U+FFFD, the escapes as
//! written, or an error).

use super::Sink;
use crate::bytes::{as_str, slice};
use crate::query::{Profile, QueryError, QueryErrorKind};

const REPLACEMENT: &str = "\u{FFFD}";

impl Profile {
    /// A `%` at `at` that starts no valid escape: a literal `%`, or (Strict) an error.
    #[inline]
    pub(super) fn malformed_escape(self, at: usize) -> Result<(), QueryError> {
        match self {
            Profile::Strict => Err(QueryError::new(QueryErrorKind::InvalidEscape, at)),
            Profile::Whatwg | Profile::DotNet => Ok(()),
        }
    }

    /// The policy for one maximal invalid subpart of decoded bytes: the subpart's bytes came
    /// from `raw` (which starts at byte `base` of the whole input) where `origins` says.
    /// `Ok(false)`: the sink stopped.
    pub(super) fn put_invalid<S: Sink>(
        self,
        raw: &[u8],
        origins: Origins<'_>,
        base: usize,
        sink: &mut S,
    ) -> Result<bool, QueryError> {
        match (self, origins) {
            // One U+FFFD per maximal subpart, as `URLSearchParams` decodes.
            (Profile::Whatwg, _) => Ok(sink.put(REPLACEMENT)),
            // Escapes stay as written (`Uri.UnescapeDataString`): a run of them in one piece.
            (Profile::DotNet, Origins::Escapes { first, len }) => {
                Ok(sink.put(as_str(slice(raw, 3 * first..3 * (first + len)))))
            }
            // A raw byte can only be shown as U+FFFD, one per run of them, as a .NET string
            // decode would.
            (Profile::DotNet, Origins::Recorded(from)) => {
                let mut replaced = false;
                for &at in from {
                    let ok = match raw.get(at..at + 3) {
                        // A `%` that is no valid escape decodes to itself, which is never
                        // invalid: this is a whole escape, so ASCII.
                        Some(escape @ [b'%', ..]) => {
                            replaced = false;
                            sink.put(as_str(escape))
                        }
                        _ if replaced => true,
                        _ => {
                            replaced = true;
                            sink.put(REPLACEMENT)
                        }
                    };
                    if !ok {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            (Profile::Strict, origins) => {
                let at = base + origins.first();
                Err(QueryError::new(QueryErrorKind::InvalidUtf8, at))
            }
        }
    }
}

/// Where in the decoder's input the bytes of an invalid subpart were decoded from.
#[derive(Clone, Copy)]
pub(super) enum Origins<'o> {
    /// From `len` consecutive escapes, the first of them the `first`-th of the input (an
    /// escape run: no need to record anything per byte).
    Escapes { first: usize, len: usize },
    /// From these offsets, one per byte (a byte or an escape each).
    Recorded(&'o [usize]),
}

impl Origins<'_> {
    /// The offset of the subpart's first byte. `put_valid` never reports an empty subpart.
    fn first(self) -> usize {
        let first = match self {
            Origins::Escapes { first, .. } => Some(3 * first),
            Origins::Recorded(from) => from.first().copied(),
        };
        debug_assert!(first.is_some(), "an invalid subpart has a byte");
        first.unwrap_or(0)
    }
}
