//! `read_from(impl std::io::Read)` of every body reader: the feed driver ([`Feed`]) over
//! reads into its own buffer, and [`ReadError`], what stops it (the input, or the body).

use std::io::{ErrorKind, Read};

use super::feed::{Decode, Fed, Feed};
use super::multipart::error::MultipartError;

/// The largest read from the input.
const READ_SIZE: usize = 64 * 1024;
/// The first read: a small body then costs no 64 KiB buffer (reads grow while they fill).
const FIRST_READ: usize = 4 * 1024;

/// What stopped a reader's `read_from`: the input, or the body (`E`, the reader's error;
/// the multipart reader's by default).
///
/// ```
/// use reqparse::body::multipart::{MultipartReader, ReadError};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default()).unwrap();
/// let err = reader.read_from(&b"nope"[..], |_| {}).unwrap_err();
/// assert!(matches!(err, ReadError::Body(_)));
/// assert_eq!(err.to_string(), "body does not start with the boundary at byte 0");
/// ```
#[derive(Debug)]
pub enum ReadError<E = MultipartError> {
    /// Reading the input failed.
    Io(std::io::Error),
    /// The body is not one the reader accepts.
    Body(E),
}

impl<E: core::fmt::Display> core::fmt::Display for ReadError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "I/O error: {e}"),
            ReadError::Body(e) => core::fmt::Display::fmt(e, f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for ReadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::Body(e) => Some(e),
        }
    }
}

impl From<MultipartError> for ReadError<MultipartError> {
    fn from(e: MultipartError) -> Self {
        ReadError::Body(e)
    }
}

/// Reads a body from `input` to its end through `decoder`, handing every event (the end
/// last) to `each`: one buffer that holds what the reader holds back and one read (4 KiB
/// first, doubling while reads fill it, up to 64 KiB). Returns how many bytes were read
/// past the body's end (they are not the body's; a source that carries more than one
/// body needs [`Feed`] over its own reads instead).
pub(crate) fn read_from<D: Decode, R: Read>(
    decoder: &mut D,
    mut input: R,
    mut each: impl FnMut(D::Event<'_>),
) -> Result<usize, ReadError<D::Error>> {
    let mut feed = Feed::default();
    let mut room = FIRST_READ;
    loop {
        let spare = feed.spare(room);
        let n = loop {
            match input.read(spare) {
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(ReadError::Io(e)),
                Ok(n) => break n,
            }
        };
        feed.filled(n);
        if n == room {
            room = (room * 2).min(READ_SIZE);
        }
        match feed.run(decoder, n == 0, &mut each) {
            Ok(Fed::More) => {}
            Ok(Fed::End { after }) => return Ok(after),
            Err(e) => return Err(ReadError::Body(e)),
        }
    }
}
