//! The reader's state machine: where it is in the body ([`State`]), and a step of each state
//! over the input fed: the delimiters, transport padding, preamble and epilogue, and a part's
//! data (its header block is [`head`](super::head)'s). [`MultipartReader::decode`] runs it.
#![forbid(unsafe_code)]

use super::head::{Block, Fields, Read};
use super::search::{partial_at_end, starts_with};
use super::{
    MultipartError, MultipartErrorKind, MultipartEvent, MultipartLimit, MultipartReader, Profile,
    Step,
};
use crate::body::grammar::{is, WS};
use crate::bytes::slice;

/// Where the reader is in the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum State {
    /// At the start of the body: the first delimiter has no CRLF before it.
    Start,
    /// (Lenient) In the preamble, looking for the first delimiter.
    Preamble,
    /// Just after a boundary, and `padding` bytes of transport padding after it.
    AfterBoundary { padding: usize },
    /// In a part's header block; how far it has been read is the block's own record
    /// ([`Block`]), as what its fields make of the part is ([`Fields`]).
    Headers,
    /// Just past a part's header block, before any of its data: the CRLF of the block's empty
    /// line may have been the delimiter's own (RFC 2046 §5.1.1, `body-part :=
    /// MIME-part-headers [CRLF *OCTET]`: a part with neither the empty line nor data, as Go's
    /// reader takes and werkzeug writes), so `--boundary` here ends the part, empty.
    DataStart,
    /// In a part's data; the input fed starts with the first `held` bytes of the delimiter
    /// (held back by the last call: only what follows them is new).
    Data { held: usize },
    /// (Lenient) In a part's data, in a body whose lines end in LF: its delimiter is
    /// `LF--boundary`, searched for by [`MultipartReader::lf`].
    LfData,
    /// After the close delimiter.
    Close,
    /// (Fetch, Strict) After the CRLF that may follow the close delimiter: the epilogue
    /// (Fetch), nothing else (Strict).
    Closed,
    /// The end has been handed out.
    Done,
}

/// What a state's step did with the input it was given, besides using `.0` bytes of it: the
/// event's parts that `decode` cuts from the input, so that no step moves a whole
/// [`MultipartEvent`] about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ev {
    /// Moved on: read on.
    On,
    /// Nothing more to do without more input.
    More,
    /// The bytes used are data.
    Data,
    /// The bytes used are the delimiter that ends the part's data.
    PartEnd,
    /// The bytes used are a header block and its empty line; the block is the first `.0`.
    Part(usize),
    /// The end of the body.
    End,
}

/// What a state's step did: the bytes it used, what they are, and the state it moves to
/// (the state it was in, when it stays). [`MultipartReader::steps`] is the one place that
/// moves the reader from state to state (each step returns the next, as hyper's
/// `proto/h1/decode.rs` does): a step reads the state it is in, and its errors are in that
/// state; the body limit's error, found once the step is done, is in the state it moved to.
/// Within a state, two more write its field in place, never moving to another state:
/// [`MultipartReader::small_step`] (the 1-byte reads' path) and
/// [`MultipartReader::skip_data`] (data the caller read: nothing held).
pub(super) type Moved = (usize, Ev, State);

/// The most new bytes [`MultipartReader::small_step`] takes as a small read.
pub(super) const SMALL_READ: usize = 8;

impl MultipartReader {
    /// The steps of a small read that need none of the state machine (a read of a few bytes,
    /// off a slow or a hostile peer, mostly ends in one of them): nothing fed; a header line
    /// a few bytes longer, without its LF; a held delimiter prefix a few bytes longer; or a
    /// few bytes of data without a CR, within the limits. Inlined into the caller's loop,
    /// where [`Self::steps`] costs a call with the whole state machine's entry and exit
    /// (on 1-byte reads, most of the time: BENCHMARKS.md, "Multipart search"). `None`: not one of
    /// them, for `steps` to read (which reads each of them to the same step).
    ///
    /// It writes the state in place (a held prefix's length; and the header block's
    /// progress, [`Block`]), and never moves to another state: [`Self::steps`] alone does.
    /// Returning the state, as the steps do, would cost the hot path a copy of it on every
    /// small read.
    #[inline(always)]
    pub(super) fn small_step<'a>(&mut self, input: &'a [u8]) -> Option<Step<MultipartEvent<'a>>> {
        // At most this many new bytes: more are not a small read, and would be scanned twice
        // whenever `steps` has to take them after all.
        const SMALL: usize = SMALL_READ;
        let more = Step {
            consumed: 0,
            event: None,
        };
        let n = self.search.delimiter().len();
        match &mut self.state {
            State::Headers => {
                let block = &mut self.block;
                let new = input.get(block.scanned.max(block.line)..)?;
                if new.len() > SMALL || input.len() >= block.window || new.contains(&b'\n') {
                    return None;
                }
                block.scanned = input.len();
                Some(more)
            }
            State::Data { held: 0 } => {
                if input.len() > SMALL.min(n - 1) || input.contains(&b'\r') {
                    return None;
                }
                if input.is_empty() {
                    return Some(more);
                }
                // Taken as data the caller found itself: within the budgets (past them `steps`
                // names the limit), and the state stays `Data { held: 0 }`.
                if !self.skip_data(input.len() as u64) {
                    return None;
                }
                let data = (!self.skipping).then_some(MultipartEvent::Data(input));
                Some(Step {
                    consumed: input.len(),
                    event: data,
                })
            }
            State::Data { held } => {
                // The held prefix, and a few more of the delimiter's bytes: still a prefix.
                let upto = input.len();
                if upto <= *held || upto >= n || upto - *held > SMALL {
                    return None;
                }
                let delimiter = self.search.delimiter();
                if slice(input, *held..) != slice(delimiter, *held..upto) {
                    return None;
                }
                *held = upto;
                Some(more)
            }
            State::Done => None,
            // Nothing fed: every other state needs more (as `steps` finds).
            _ if input.is_empty() => Some(more),
            _ => None,
        }
    }

    /// [`Self::decode`], step by step through the state machine.
    #[inline(never)]
    pub(super) fn steps<'a>(
        &mut self,
        input: &'a [u8],
        eof: bool,
    ) -> Result<Step<MultipartEvent<'a>>, MultipartError> {
        let mut consumed = 0;
        loop {
            let rest = slice(input, consumed..);
            let (used, ev, next) = match self.state {
                State::Data { held } => self.data(rest, held)?,
                State::LfData => self.lf_data(rest)?,
                State::DataStart => self.data_start(rest, eof),
                State::Start => self.start(rest, eof)?,
                State::Preamble => self.preamble(rest)?,
                State::AfterBoundary { padding } => self.after_boundary(rest, padding)?,
                State::Headers => match self.headers(rest)? {
                    Read::Block { used, len } => (used, Ev::Part(len), State::DataStart),
                    Read::More => (0, Ev::More, State::Headers),
                },
                State::Close | State::Closed => self.close(rest, eof)?,
                State::Done => (0, Ev::End, State::Done),
            };
            // A header block's part is read before the reader moves into its data, and before
            // the position moves (the part's offsets start at its block): its errors are the
            // part's (whose block it is), and leave the reader in the block, as every step's
            // error leaves the reader in the state it was in. (The block fits the body limit:
            // `headers` reads no further than it allows.)
            let part = match ev {
                Ev::Part(block) => Some(self.part(slice(rest, ..block))?),
                _ => None,
            };
            // The one place the state moves; the body limit's error below is in the state
            // moved to (a part's header block is the new part's; a delimiter past the limit is
            // no part's).
            self.state = next;
            let budget = self.limits.max_body_bytes - self.position;
            if used as u64 > budget {
                return Err(self.limit_at(budget as usize, MultipartLimit::BodyBytes));
            }
            let event = match ev {
                Ev::On => None,
                Ev::More => {
                    if eof {
                        let end = rest.len();
                        return Err(self.error_at(end, MultipartErrorKind::UnexpectedEnd));
                    }
                    // Its own return (the most frequent on small reads): only the step's
                    // `consumed` and "no event" to write.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: None,
                    });
                }
                // A skipped part's data: consumed, and read on.
                Ev::Data if self.skipping => None,
                Ev::Data => {
                    // As `More`: its own return, which writes no part.
                    self.position += used as u64;
                    return Ok(Step {
                        consumed: consumed + used,
                        event: Some(MultipartEvent::Data(slice(rest, ..used))),
                    });
                }
                Ev::PartEnd => Some(MultipartEvent::PartEnd),
                Ev::Part(_) => part.map(MultipartEvent::Part),
                Ev::End => Some(MultipartEvent::End),
            };
            self.position += used as u64;
            consumed += used;
            if event.is_some() {
                return Ok(Step { consumed, event });
            }
        }
    }

    /// An error at `offset` bytes past the current position, in the part the reader is in.
    pub(super) fn error_at(&self, offset: usize, kind: MultipartErrorKind) -> MultipartError {
        let part = match self.state {
            State::Headers => Some(self.parts),
            State::DataStart | State::Data { .. } | State::LfData => self.parts.checked_sub(1),
            _ => None,
        };
        self.error_in(part, offset, kind)
    }

    /// An error at `offset` bytes past the current position, in `part`.
    pub(super) fn error_in(
        &self,
        part: Option<usize>,
        offset: usize,
        kind: MultipartErrorKind,
    ) -> MultipartError {
        MultipartError {
            kind,
            offset: self.position + offset as u64,
            part,
        }
    }

    pub(super) fn limit_at(&self, offset: usize, limit: MultipartLimit) -> MultipartError {
        self.error_at(offset, MultipartErrorKind::Limit(limit))
    }

    /// The first `--boundary`, at the very start of the body.
    fn start(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        let dash = slice(self.search.delimiter(), 2..);
        let n = rest.len().min(dash.len());
        let mismatch = slice(rest, ..n).iter().zip(dash).position(|(a, b)| a != b);
        let whole = n == dash.len();
        match mismatch {
            None if whole => Ok((n, Ev::On, State::AfterBoundary { padding: 0 })),
            // A prefix of `--boundary` so far.
            None if !eof => Ok((0, Ev::More, State::Start)),
            _ if self.profile == Profile::Lenient => Ok((0, Ev::On, State::Preamble)),
            Some(at) => Err(self.error_at(at, MultipartErrorKind::ExpectedBoundary)),
            None => Err(self.error_at(n, MultipartErrorKind::ExpectedBoundary)),
        }
    }

    /// (Lenient) Skips the preamble up to the first line that starts with `--boundary`: up to
    /// its `LF--boundary` (the line before it may end in CRLF or LF: the line after the
    /// boundary tells which the body's lines end in).
    fn preamble(&mut self, rest: &[u8]) -> Result<Moved, MultipartError> {
        let needle = slice(self.search.delimiter(), 1..);
        let (skip, found) = match memchr::memmem::find(rest, needle) {
            Some(at) => (at, true),
            None => (rest.len() - partial_at_end(rest, needle), false),
        };
        let budget = self.limits.max_preamble_bytes - self.outside;
        if skip > budget {
            return Err(self.limit_at(budget, MultipartLimit::PreambleBytes));
        }
        self.outside += skip;
        if !found {
            // What is left may begin the delimiter: it needs what follows.
            return Ok((skip, Ev::More, State::Preamble));
        }
        self.outside = 0;
        Ok((
            skip + needle.len(),
            Ev::On,
            State::AfterBoundary { padding: 0 },
        ))
    }

    /// After a boundary: `--` (the close delimiter), or transport padding and CRLF (a part).
    /// (Lenient) LF instead of CRLF after the first boundary: the body's lines end in LF (as
    /// Go's `mime/multipart` decides, on the first delimiter line; werkzeug reads them too),
    /// and from there every line break is LF: its delimiter `LF--boundary`, its header lines'.
    fn after_boundary(&mut self, rest: &[u8], padding: usize) -> Result<Moved, MultipartError> {
        let invalid = |at| Err(self.error_at(at, MultipartErrorKind::InvalidDelimiter));
        let lf = self.lf.is_some();
        let more = Ok((0, Ev::More, State::AfterBoundary { padding }));
        match rest {
            [] | [b'-'] => more,
            [b'\r'] if !lf => more,
            [b'-', b'-', ..] if padding == 0 => Ok((2, Ev::On, State::Close)),
            [b'\r', b'\n', ..] if !lf => self.header_block(padding, 2),
            [b'\n', ..] if lf => self.header_block(padding, 1),
            [b'\n', ..] if self.profile == Profile::Lenient && self.parts == 0 => {
                // The first delimiter line ends in LF: so does every line of the body.
                let delimiter = slice(self.search.delimiter(), 1..);
                self.lf = Some(memchr::memmem::Finder::new(delimiter).into_owned());
                self.header_block(padding, 1)
            }
            [b' ' | b'\t', ..] => {
                // Transport padding (RFC 2046 §5.1.1; WPT formdata-parsing "Parse transport
                // padding after a delimiter"): it counts against the header limit of the part
                // that follows, so it cannot run on unbounded.
                let n = rest.iter().take_while(|&&b| is(b, WS)).count();
                let budget = self.limits.max_header_bytes.saturating_sub(padding);
                if n > budget {
                    return Err(self.limit_at(budget, MultipartLimit::HeaderBytes));
                }
                let padding = padding + n;
                Ok((n, Ev::On, State::AfterBoundary { padding }))
            }
            [b'\r', _, ..] if !lf => invalid(1),
            _ => invalid(0),
        }
    }

    /// The line break (`nl` bytes) after a delimiter and its `padding`: a part's header block
    /// comes next.
    fn header_block(&mut self, padding: usize, nl: usize) -> Result<Moved, MultipartError> {
        if self.parts == self.limits.max_parts {
            // The part that would be one too many.
            let parts = MultipartErrorKind::Limit(MultipartLimit::Parts);
            return Err(self.error_in(Some(self.parts), 0, parts));
        }
        // The block starts past the line break (`decode` refuses it if the body limit does).
        let header_budget = self.limits.max_header_bytes.saturating_sub(padding);
        let body_budget = (self.limits.max_body_bytes - self.position).saturating_sub(nl as u64);
        let (window, limit) = if (header_budget as u64) <= body_budget {
            (header_budget, MultipartLimit::HeaderBytes)
        } else {
            // Smaller than a usize header budget, so it fits.
            (body_budget as usize, MultipartLimit::BodyBytes)
        };
        self.head = Fields::default();
        self.block = Block {
            line: 0,
            scanned: 0,
            lines: 0,
            window,
            limit,
        };
        Ok((nl, Ev::On, State::Headers))
    }
    /// The start of a part's data: `--boundary` right here is the delimiter whose CRLF ended
    /// the header block (the part is empty); anything else is data, read by [`Self::data`].
    /// The same delimiter as anywhere else, so what follows it is checked the same way: data
    /// that begins with `--boundary` is the delimiter (RFC 2046 §5.1.1 forbids it in a part,
    /// and [`write()`] refuses it).
    fn data_start(&mut self, rest: &[u8], eof: bool) -> Moved {
        let dash = slice(self.search.delimiter(), 2..);
        if starts_with(rest, dash) {
            return (dash.len(), Ev::PartEnd, State::AfterBoundary { padding: 0 });
        }
        if !eof && dash.starts_with(rest) {
            // A prefix of `--boundary` so far (`rest` is not empty: `decode` answers that).
            return (0, Ev::More, State::DataStart);
        }
        let data = if self.lf.is_some() {
            State::LfData
        } else {
            State::Data { held: 0 }
        };
        (0, Ev::On, data)
    }

    /// A part's data up to the next delimiter; the bytes that may begin one are held back.
    /// `held`: the input starts with that many bytes of the delimiter, held back by the last
    /// call (on 1-byte reads, a delimiter arriving costs a compare of each byte once).
    fn data(&mut self, rest: &[u8], held: usize) -> Result<Moved, MultipartError> {
        let delimiter = self.search.delimiter();
        let n = delimiter.len();
        if held > 0 && rest.len() >= held {
            let upto = rest.len().min(n);
            // Byte by byte: on small reads, one or two (cheaper than a `memcmp` call).
            let new = slice(rest, held..upto).iter();
            if new.zip(slice(delimiter, held..upto)).all(|(a, b)| a == b) {
                if upto < n {
                    return Ok((0, Ev::More, State::Data { held: upto }));
                }
                return Ok((n, Ev::PartEnd, State::AfterBoundary { padding: 0 }));
            }
            // Not the delimiter after all: the held bytes are data (read as any other).
        }
        // The delimiter right here (the usual case after a piece of data that ended at it):
        // no search, which for a small part costs more than the part.
        if starts_with(rest, delimiter) {
            return Ok((n, Ev::PartEnd, State::AfterBoundary { padding: 0 }));
        }
        // Shorter than the delimiter (a small read): no search, only what may begin one.
        let found = if rest.len() < n {
            None
        } else {
            self.search.find(rest)
        };
        let (mut take, hold) = match found {
            Some(at) => (at, 0),
            None => {
                let hold = self.search.partial(rest);
                (rest.len() - hold, hold)
            }
        };
        if take == 0 {
            return Ok((0, Ev::More, State::Data { held: hold }));
        }
        // Hand out what the limits allow; the next call refuses the byte past them, so every
        // split gives the same data before the same error.
        let (budget, limit) = self.data_budget();
        if budget == 0 {
            return Err(self.limit_at(0, limit));
        }
        let held = if take as u64 > budget {
            // Cut short: what follows is not the held tail.
            take = budget as usize;
            0
        } else {
            // The rest, fed again with what follows, starts with the held tail.
            hold
        };
        self.took(take as u64);
        Ok((take, Ev::Data, State::Data { held }))
    }

    /// (Lenient) A part's data up to the next `LF--boundary`, in a body whose lines end in
    /// LF; the bytes that may begin one are held back (and looked at again with what
    /// follows: such bodies are rare, and [`Self::data`] keeps its ways to itself).
    fn lf_data(&mut self, rest: &[u8]) -> Result<Moved, MultipartError> {
        let Some(finder) = &self.lf else {
            // Only entered once the searcher is made.
            return Ok((0, Ev::More, State::LfData));
        };
        let n = finder.needle().len();
        let take = match finder.find(rest) {
            Some(0) => return Ok((n, Ev::PartEnd, State::AfterBoundary { padding: 0 })),
            Some(at) => at,
            None => rest.len() - partial_at_end(rest, finder.needle()),
        };
        if take == 0 {
            return Ok((0, Ev::More, State::LfData));
        }
        // As in `data`: what the limits allow, the byte past them refused by the next call.
        let (budget, limit) = self.data_budget();
        if budget == 0 {
            return Err(self.limit_at(0, limit));
        }
        let take = take.min(usize::try_from(budget).unwrap_or(usize::MAX));
        self.took(take as u64);
        Ok((take, Ev::Data, State::LfData))
    }

    /// How many more data bytes the limits allow the current part, and the limit that says
    /// so, the smallest of: the body's; the part's (the one the caller set, or else a file's
    /// or a value's); for a value, what is left of the values' total. A skipped part's data
    /// is not kept, so only the body's applies to it. `data` and `skip_data` hand out data
    /// within it.
    #[inline]
    pub(super) fn data_budget(&self) -> (u64, MultipartLimit) {
        let body = self.limits.max_body_bytes - self.position;
        let (cap, limit) = self.part_cap;
        let part = cap.saturating_sub(self.part_bytes);
        let mut least = if part < body {
            (part, limit)
        } else {
            (body, MultipartLimit::BodyBytes)
        };
        if self.counts_as_text {
            let text = self.limits.max_text_bytes.saturating_sub(self.text_bytes);
            if text < least.0 {
                least = (text, MultipartLimit::TextBytes);
            }
        }
        least
    }

    /// `n` more data bytes of the current part read (within [`Self::data_budget`]).
    #[inline]
    pub(super) fn took(&mut self, n: u64) {
        self.part_bytes += n;
        if self.counts_as_text {
            self.text_bytes += n;
        }
    }

    /// After the close delimiter: what the profile allows, then the end of the input.
    /// Lenient: anything, the epilogue. Fetch and Strict: transport padding, then the end or a
    /// CRLF; after that CRLF, Fetch reads an epilogue (WPT formdata-parsing "Parse epilogue
    /// after close delimiter"), Strict nothing. Padding and epilogue count against
    /// [`MultipartLimits::max_epilogue_bytes`].
    fn close(&mut self, rest: &[u8], eof: bool) -> Result<Moved, MultipartError> {
        // Close or Closed: the state it is in, where it stays but for the CRLF and the end.
        let here = self.state;
        if rest.is_empty() {
            if eof {
                return Ok((0, Ev::End, State::Done));
            }
            return Ok((0, Ev::More, here));
        }
        let after_end = |at| Err(self.error_at(at, MultipartErrorKind::AfterEnd));
        let epilogue = match self.profile {
            Profile::Lenient => true,
            Profile::Fetch => here == State::Closed,
            Profile::Strict => false,
        };
        if epilogue {
            // Read and dropped, up to its limit.
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if rest.len() > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += rest.len();
            return Ok((rest.len(), Ev::On, here));
        }
        if here == State::Closed {
            return after_end(0);
        }
        if rest.first().is_some_and(|&b| is(b, WS)) {
            // Transport padding, counted against the epilogue limit.
            let n = rest.iter().take_while(|&&b| is(b, WS)).count();
            let budget = self.limits.max_epilogue_bytes - self.outside;
            if n > budget {
                return Err(self.limit_at(budget, MultipartLimit::EpilogueBytes));
            }
            self.outside += n;
            return Ok((n, Ev::On, here));
        }
        match rest {
            [b'\r'] => Ok((0, Ev::More, here)),
            [b'\r', b'\n', ..] => Ok((2, Ev::On, State::Closed)),
            [b'\r', ..] => after_end(1),
            _ => after_end(0),
        }
    }
}
