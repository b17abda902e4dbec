//! Request bodies, read as they arrive: sans-io decoders that borrow the caller's buffer.
//!
//! Each reader is a state machine the caller feeds: it takes the bytes read so far and
//! answers a [`Step`]: how many of them it consumed and, when it has one, an event borrowing
//! from them. `event: None` means it needs more input; the bytes it did not consume (at most
//! one incomplete line, whose length is capped by a limit) must be fed again, followed by what
//! arrives next. Nothing is copied and nothing is allocated on the data path, and every split
//! of the same input into reads gives the same events (data may come in different pieces) and
//! the same errors at the same offsets; the split-invariance property tests prove it.
//!
//! - [`chunked`]: the chunked transfer coding of RFC 9112 §7.1, strict where request
//!   smuggling lives.
//! - [`form`]: `application/x-www-form-urlencoded` bodies, through the query decoder.
//! - [`multipart`]: `multipart/form-data` bodies (RFC 7578, RFC 2046, the Fetch Standard).
//!
//! ```
//! use reqparse::body::chunked::{Chunk, ChunkedDecoder};
//!
//! let mut decoder = ChunkedDecoder::default();
//! let mut input: &[u8] = b"5\r\nhello\r\n0\r\n\r\n";
//! let mut body = Vec::new();
//! loop {
//!     let step = decoder.decode(input)?;
//!     input = &input[step.consumed..];
//!     match step.event {
//!         Some(Chunk::Data(data)) => body.extend_from_slice(data),
//!         Some(Chunk::Trailer { .. }) => {}
//!         Some(Chunk::End) => break,
//!         None => unreachable!("the whole body was given"),
//!     }
//! }
//! assert_eq!(body, b"hello");
//! # Ok::<(), reqparse::body::chunked::ChunkedError>(())
//! ```
#![forbid(unsafe_code)]

pub mod chunked;
mod feed;
pub mod form;
// Crate-private: the byte classes the readers share.
mod grammar;
// Crate-wide: each reader's limit table, which the faces read their conversions from.
pub(crate) mod limits;
pub mod multipart;
// `read_from` over `std::io::Read`, for every reader.
#[cfg(feature = "std")]
mod read;

pub use limits::LimitError;

// The faces that push borrowed bytes through the driver.
#[cfg(all(feature = "component", target_arch = "wasm32"))]
pub(crate) use feed::Feed;
#[cfg(feature = "std")]
pub use read::ReadError;
// The async readers (`crate::stream`) drive the readers through the same protocol.
#[cfg(feature = "async")]
pub(crate) use feed::Decode;

/// The first `byte` in `hay`: by a plain loop when `hay` is short (the bytes a small read
/// added: one, on 1-byte reads), where `memchr`'s dispatch and vector setup cost more than the
/// loop; else by `memchr`.
#[inline]
pub(crate) fn find_byte(byte: u8, hay: &[u8]) -> Option<usize> {
    if hay.len() < 16 {
        hay.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, hay)
    }
}

/// What a reader made of the input it was given: how much of it it consumed, and the event it
/// found, if any (`None`: it needs more input).
///
/// ```
/// use reqparse::body::chunked::ChunkedDecoder;
///
/// // An incomplete size line is not consumed: it is fed again with what follows.
/// let step = ChunkedDecoder::default().decode(b"1F")?;
/// assert_eq!((step.consumed, step.event), (0, None));
/// # Ok::<(), reqparse::body::chunked::ChunkedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step<E> {
    /// How many bytes of the input were consumed; the rest is fed again.
    pub consumed: usize,
    /// The event found, borrowing from the input; `None` when more input is needed.
    pub event: Option<E>,
}
