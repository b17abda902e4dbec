//! A part's header block: each line checked as it completes, and the [`Part`] handed out
//! when the block's empty line arrives.
#![forbid(unsafe_code)]

use super::machine::{Ev, Moved, State};
use super::{MultipartError, MultipartErrorKind, MultipartLimit, MultipartReader, Part, Profile};
use crate::body::find_byte;
use crate::body::grammar::{is, FIELD, TOKEN, WS};
use crate::bytes::slice;

impl MultipartReader {
    /// A part's header block: checks each line as it completes and hands out the part when
    /// the empty line arrives. Bytes scanned by an earlier call (`scanned`: fed again, with
    /// more after them) are not scanned again: on 1-byte reads each byte is looked at once.
    pub(super) fn headers(
        &mut self,
        rest: &[u8],
        mut line: usize,
        scanned: usize,
        mut lines: usize,
        window: usize,
        limit: MultipartLimit,
    ) -> Result<Moved, MultipartError> {
        let seen = slice(rest, ..rest.len().min(window));
        let mut from = scanned.clamp(line, seen.len().max(line));
        loop {
            let Some(lf) = find_byte(b'\n', slice(seen, from.min(seen.len())..)).map(|i| from + i)
            else {
                if rest.len() >= window {
                    return Err(self.limit_at(window, limit));
                }
                self.state = State::Headers {
                    line,
                    scanned: seen.len(),
                    lines,
                    window,
                    limit,
                };
                return Ok((0, Ev::More));
            };
            // The line's end: its CRLF, or in a body whose lines end in LF, its LF.
            let end = if self.lf.is_some() {
                lf
            } else if lf == line || seen.get(lf - 1) != Some(&b'\r') {
                return Err(self.error_at(lf, MultipartErrorKind::BareLf));
            } else {
                lf - 1
            };
            let text = slice(seen, line..end);
            if let Some(cr) = memchr::memchr(b'\r', text) {
                return Err(self.error_at(line + cr, MultipartErrorKind::BareCr));
            }
            if text.is_empty() {
                return Ok((lf + 1, Ev::Part(line)));
            }
            // (Lenient) A line starting with SP or HTAB after a field continues it (RFC 5322
            // §2.2.3 obs-fold; busboy reads `Content-Type: \r\n text/plain`): the same field.
            let continued = self.profile == Profile::Lenient
                && lines > 0
                && text.first().is_some_and(|&b| is(b, WS));
            if !continued {
                if lines == self.limits.max_headers {
                    return Err(self.limit_at(line, MultipartLimit::Headers));
                }
                if let Err(at) = check_field(text, self.profile) {
                    return Err(self.error_at(line + at, MultipartErrorKind::InvalidHeader));
                }
                lines += 1;
            }
            line = lf + 1;
            from = line;
        }
    }

    /// The part whose (checked) header block is `block`, at the current position; its data
    /// comes next.
    pub(super) fn part<'a>(&mut self, block: &'a [u8]) -> Result<Part<'a>, MultipartError> {
        let part = Part::parse(block, self.position, self.parts, self.profile, &self.limits)
            .map_err(|(at, kind)| self.error_at(at, kind))?;
        let has_filename = part.has_filename();
        if has_filename {
            if self.files == self.limits.max_files {
                return Err(self.limit_at(0, MultipartLimit::Files));
            }
            self.files += 1;
        } else {
            if self.fields == self.limits.max_fields {
                return Err(self.limit_at(0, MultipartLimit::Fields));
            }
            self.fields += 1;
        }
        self.parts += 1;
        self.part_bytes = 0;
        self.part_cap = if has_filename {
            (self.limits.max_file_bytes, MultipartLimit::FileBytes)
        } else {
            (self.limits.max_value_bytes, MultipartLimit::ValueBytes)
        };
        self.counts_as_text = !has_filename;
        self.skipping = false;
        self.state = State::DataStart;
        Ok(part)
    }
}

/// Checks one header line (without its CRLF); `Err` has the offset of the offending byte.
/// Fetch and Lenient: a token name between optional whitespace, `:`, anything but CR and LF
/// (the Fetch Standard's "parse multipart/form-data headers"; WPT formdata-parsing "Parse
/// whitespace before a header name", "Parse whitespace between a header name and the colon"),
/// and in Fetch no NUL (WPT formdata-parsing "Parse failure: NUL in a name", "Parse failure:
/// NUL in an unknown header"). Strict: RFC 9110 §5: no whitespace around the name, a value of
/// field-vchar, SP and HTAB.
pub(super) fn check_field(line: &[u8], profile: Profile) -> Result<(), usize> {
    if profile == Profile::Strict {
        // A token right up to the colon: a line starting with whitespace is obs-fold.
        let colon = line
            .iter()
            .position(|&b| !is(b, TOKEN))
            .unwrap_or(line.len());
        if colon == 0 || line.get(colon) != Some(&b':') {
            return Err(colon);
        }
        return match slice(line, colon + 1..).iter().position(|&b| !is(b, FIELD)) {
            Some(i) => Err(colon + 1 + i),
            None => Ok(()),
        };
    }
    let colon = memchr::memchr(b':', line).ok_or(line.len())?;
    let name = slice(line, ..colon);
    let start = name.iter().position(|&b| !is(b, WS)).unwrap_or(colon);
    let end = name
        .iter()
        .rposition(|&b| !is(b, WS))
        .map_or(start, |i| i + 1);
    if start == end {
        return Err(start);
    }
    if let Some(i) = slice(name, start..end).iter().position(|&b| !is(b, TOKEN)) {
        return Err(start + i);
    }
    if profile == Profile::Fetch {
        if let Some(nul) = memchr::memchr(0, slice(line, colon + 1..)) {
            return Err(colon + 1 + nul);
        }
    }
    Ok(())
}
