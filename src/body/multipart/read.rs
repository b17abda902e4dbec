//! A convenience over [`std::io::Read`] (feature `std`): the sans-io reader driven over one
//! buffer that holds at most what the reader may hold back, plus one read.
#![forbid(unsafe_code)]

use std::io::{ErrorKind, Read};
use std::vec::Vec;

use super::{MultipartError, MultipartEvent, MultipartReader};

/// The largest read from the input.
const READ_SIZE: usize = 64 * 1024;
/// The first read: a small body then costs no 64 KiB buffer (reads grow while they fill).
const FIRST_READ: usize = 4 * 1024;

/// What stopped [`MultipartReader::read_from`]: the input, or the body.
///
/// ```
/// use reqparse::body::multipart::{MultipartReader, ReadError};
/// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default()).unwrap();
/// let err = reader.read_from(&b"nope"[..], |_| {}).unwrap_err();
/// assert!(matches!(err, ReadError::Body(_)));
/// assert_eq!(err.to_string(), "body does not start with the boundary at byte 0");
/// ```
#[derive(Debug)]
pub enum ReadError {
    /// Reading the input failed.
    Io(std::io::Error),
    /// The body is not one the reader accepts.
    Body(MultipartError),
}

impl core::fmt::Display for ReadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "I/O error: {e}"),
            ReadError::Body(e) => core::fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::Io(e) => Some(e),
            ReadError::Body(e) => Some(e),
        }
    }
}

impl From<MultipartError> for ReadError {
    fn from(e: MultipartError) -> Self {
        ReadError::Body(e)
    }
}

impl MultipartReader {
    /// Reads the body from `input` to its end and hands every event, [`MultipartEvent::End`]
    /// last, to `each`. Data is borrowed from one buffer that holds what the reader holds
    /// back (at most an incomplete header block, capped by
    /// [`max_header_bytes`](super::MultipartLimits::max_header_bytes)) and one read (4 KiB
    /// first, doubling while reads fill it, up to 64 KiB);
    /// nothing else is allocated.
    ///
    /// # Errors
    /// [`ReadError::Io`] when a read fails (reads interrupted by a signal are retried),
    /// [`ReadError::Body`] for what [`decode`](Self::decode) refuses.
    ///
    /// ```
    /// use reqparse::body::multipart::{MultipartEvent, MultipartReader};
    /// let body: &[u8] = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--";
    /// let mut reader = MultipartReader::new(b"b", Default::default(), Default::default())?;
    /// let mut names = Vec::new();
    /// reader.read_from(body, |event| {
    ///     if let MultipartEvent::Part(part) = event {
    ///         names.push(part.name().into_owned());
    ///     }
    /// })?;
    /// assert_eq!(names, ["a"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_from<R: Read>(
        &mut self,
        mut input: R,
        mut each: impl FnMut(MultipartEvent<'_>),
    ) -> Result<(), ReadError> {
        let mut buf: Vec<u8> = Vec::new();
        let (mut held, mut eof, mut room) = (0..0, false, FIRST_READ);
        loop {
            let step = self.decode(&buf[held.clone()], eof)?;
            held.start += step.consumed;
            match step.event {
                Some(MultipartEvent::End) => {
                    each(MultipartEvent::End);
                    return Ok(());
                }
                Some(event) => each(event),
                None => {
                    // The bytes held back to the front, and room for one read after them.
                    let len = held.len();
                    buf.copy_within(held, 0);
                    if buf.len() < len + room {
                        buf.resize(len + room, 0);
                    }
                    let n = loop {
                        match input.read(&mut buf[len..len + room]) {
                            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                            Err(e) => return Err(ReadError::Io(e)),
                            Ok(n) => break n,
                        }
                    };
                    if n == room {
                        room = (room * 2).min(READ_SIZE);
                    }
                    (held, eof) = (0..len + n, n == 0);
                }
            }
        }
    }
}
