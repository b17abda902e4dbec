//! The multipart/form-data reader through the component: [`WasmMultipartReader`], its
//! [`WasmPart`]s and [`WasmMultipartEvent`]s.

use super::convert::{self, multipart_error};
use super::invalid;
use super::{Fed, Held};
use crate::body::multipart::{self, Filename, MimeType};
use crate::engine::bindings::exports::reqparse::http::body as wit;
use crate::engine::error::EngineError;
use crate::engine::inspector::WasmInspector;
use std::borrow::Cow;

/// A part's header block as the guest read it: [`Part`](crate::body::multipart::Part)'s
/// readings, borrowed from the reads (or from the feed's decoded text).
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// let body = b"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"C:\\x\\a.txt\"\r\n\
///     Content-Type: text/plain\r\n\r\n";
/// let fed = reader.feed(body, false)?;
/// let WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
/// assert_eq!(part.name(), "f");
/// assert_eq!(part.filename().unwrap().basename(), "a.txt");
/// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
/// assert_eq!((part.index(), part.offset()), (0, 5));
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WasmPart<'a> {
    name: &'a str,
    name_bytes: &'a [u8],
    filename: Option<(&'a str, &'a [u8])>,
    content_type: Option<&'a [u8]>,
    mime_type: Option<MimeType<'a>>,
    header_block: &'a [u8],
    offset: u64,
    index: usize,
}

impl<'a> WasmPart<'a> {
    /// The `name` parameter as the profile reads it ([`Part::name`](crate::body::multipart::Part::name)).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.name(), "a%22b"); // Fetch: as written
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The `name` parameter's bytes as written, without quotes.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.name_bytes(), b"a%22b");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn name_bytes(&self) -> &'a [u8] {
        self.name_bytes
    }

    /// The filename, when the part has one: the effective name and the raw bytes.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.filename().map(|f| f.basename().to_owned()).as_deref(), Some("x.txt"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn filename(&self) -> Option<Filename<'a>> {
        self.filename
            .map(|(effective, raw)| Filename::new(Cow::Borrowed(effective), raw))
    }

    /// The `Content-Type` value as sent, without surrounding whitespace.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.content_type(), Some(&b"text/plain"[..]));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn content_type(&self) -> Option<&'a [u8]> {
        self.content_type
    }

    /// The MIME type the Fetch Standard reads in the `Content-Type`
    /// ([`Part::mime_type`](crate::body::multipart::Part::mime_type)): its serialization, as
    /// the guest gave it (`mime-type`), with the essence and parameters read from it. `None`
    /// when the part has no `Content-Type` or one that is not a MIME type (then
    /// [`content_type`](Self::content_type) is `Some`).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=f; filename=a.txt\r\n\
    ///     Content-Type: Text/Plain; Charset=\"utf-8\"\r\n\r\n";
    /// let fed = reader.feed(body, false)?;
    /// let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.content_type(), Some(&b"Text/Plain; Charset=\"utf-8\""[..])); // as sent
    /// let mime = part.mime_type().unwrap();
    /// assert_eq!(mime.as_bytes(), b"text/plain;charset=utf-8");
    /// assert_eq!(mime.essence(), "text/plain");
    /// assert_eq!(mime.parameter("charset").as_deref(), Some(&b"utf-8"[..]));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn mime_type(&self) -> Option<MimeType<'a>> {
        self.mime_type.clone()
    }

    /// The header block as sent, without the empty line that ends it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert!(part.header_block().ends_with(b"text/plain\r\n"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn header_block(&self) -> &'a [u8] {
        self.header_block
    }

    /// Where the header block starts, in bytes from the start of the body.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.offset(), 5);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The part's number, from 0.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// # let body = b"--b\r\nContent-Disposition: form-data; name=\"a%22b\"; filename=\"C:\\x.txt\"\r\nContent-Type: text/plain\r\n\r\n";
    /// # let fed = reader.feed(body, false)?;
    /// # let reqparse::engine::WasmMultipartEvent::Part(part) = &fed.events[0] else { panic!() };
    /// assert_eq!(part.index(), 0);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }
}

/// An event of a multipart body read in the guest:
/// [`MultipartEvent`](crate::body::multipart::MultipartEvent) with a [`WasmPart`].
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// assert_eq!(reader.feed(b"--b--", true)?.events, [WasmMultipartEvent::End]);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WasmMultipartEvent<'a> {
    /// A part begins: its header block, parsed.
    Part(WasmPart<'a>),
    /// Bytes of the current part's data, in order.
    Data(&'a [u8]),
    /// The current part's data is over.
    PartEnd,
    /// The close delimiter has been read and the input has ended.
    End,
}

/// A multipart/form-data body read in the guest (`multipart-reader`); see
/// [`MultipartReader`](crate::body::multipart::MultipartReader) for the events and errors.
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::WasmMultipartEvent;
/// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
/// let fed = reader.feed(b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nhi\r\n-", false)?;
/// assert_eq!(fed.events[1], WasmMultipartEvent::Data(b"hi"));
/// assert_eq!(reader.held(), 3); // what may begin the delimiter
/// let fed = reader.feed(b"-b--", true)?;
/// assert_eq!(fed.events, [WasmMultipartEvent::PartEnd, WasmMultipartEvent::End]);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct WasmMultipartReader<'i>(pub(super) Held<'i>);

impl WasmInspector {
    /// `multipart-reader.create`: a multipart body read in this inspector's instance; the
    /// boundary's error as [`MultipartReader::new`](crate::body::multipart::MultipartReader::new)
    /// gives it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::{MultipartErrorKind, Profile};
    /// let err = inspector.multipart_reader(b"a b ", Profile::Strict, Default::default())?.err().unwrap();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::InvalidBoundary, 3));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn multipart_reader(
        &mut self,
        boundary: &[u8],
        profile: multipart::Profile,
        limits: multipart::MultipartLimits,
    ) -> Result<Result<WasmMultipartReader<'_>, multipart::MultipartError>, EngineError> {
        let limits = convert::multipart_limits(limits);
        let profile = convert::multipart_profile(profile);
        let made = self.call(boundary.len(), |api, store| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_create(store, boundary, profile, limits)
        })?;
        Ok(match made {
            Ok(handle) => Ok(WasmMultipartReader(Held::new(self, handle))),
            Err(e) => Err(multipart_error(e)),
        })
    }

    /// `body.boundary`: the boundary of a `Content-Type` value
    /// ([`multipart::boundary`](crate::body::multipart::boundary)).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let b = inspector.multipart_boundary(b"multipart/form-data; boundary=\"a b\"")?;
    /// assert_eq!(b.unwrap(), b"a b");
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn multipart_boundary(
        &mut self,
        content_type: &[u8],
    ) -> Result<Result<Vec<u8>, multipart::MultipartError>, EngineError> {
        let found = self.call(content_type.len(), |api, store| {
            api.reqparse_http_body().call_boundary(store, content_type)
        })?;
        Ok(found.map_err(multipart_error))
    }
}

impl WasmMultipartReader<'_> {
    /// Reads what `bytes` (the next read) completes; `eof`: no byte follows them. Data
    /// borrows from the reads, as
    /// [`MultipartReader::decode`](crate::body::multipart::MultipartReader::decode) hands it
    /// out (perhaps in other pieces).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::MultipartErrorKind;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let err = reader.feed(b"--b--junk", true)?.error.unwrap();
    /// assert_eq!((err.kind, err.offset), (MultipartErrorKind::AfterEnd, 5));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        self.read(bytes, eof, false)
    }

    /// [`feed`](Self::feed) that stops right after a [`WasmMultipartEvent::Part`] (`feed-to-part`),
    /// which is then the last event, so that the part can be decided about
    /// ([`limit_part`](Self::limit_part), [`skip_part`](Self::skip_part)) before any of its
    /// data is read, as after a native [`MultipartEvent::Part`](crate::body::multipart::MultipartEvent::Part).
    /// The rest of the read is held (in the guest, and copied here): feed on with the next
    /// read, or with no bytes (and the same `eof`) when there is none. A feed whose last event
    /// is another one stopped where `feed` stops.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n\
    ///     --b\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// assert!(matches!(&fed.events[..], [WasmMultipartEvent::Part(p)] if p.name() == "a"));
    /// assert_eq!(reader.held(), 58); // the rest of the body
    /// // Nothing new to read: on with what is held, to the next part.
    /// let fed = reader.feed_to_part(b"", true)?;
    /// assert_eq!(fed.events[..2], [WasmMultipartEvent::Data(b"1"), WasmMultipartEvent::PartEnd]);
    /// assert!(matches!(&fed.events[2], WasmMultipartEvent::Part(p) if p.name() == "b"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn feed_to_part<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        self.read(bytes, eof, true)
    }

    /// `feed` or, `to_part`, `feed-to-part`.
    fn read<'a>(
        &'a mut self,
        bytes: &'a [u8],
        eof: bool,
        to_part: bool,
    ) -> Result<Fed<WasmMultipartEvent<'a>, multipart::MultipartError>, EngineError> {
        let fed = self.0.handle.call(bytes.len(), |api, store, h| {
            let reader = api.reqparse_http_body().multipart_reader();
            if to_part {
                reader.call_feed_to_part(store, h, bytes, eof)
            } else {
                reader.call_feed(store, h, bytes, eof)
            }
        })?;
        let ended =
            fed.error.is_some() || matches!(fed.events.last(), Some(wit::MultipartEvent::End));
        let decoded = (fed.held, fed.decoded);
        let events = self
            .0
            .events(bytes, decoded, ended, fed.events, |spans, event| {
                Ok(match event {
                    wit::MultipartEvent::Part(p) => WasmMultipartEvent::Part(WasmPart {
                        name: spans.text(p.name)?,
                        name_bytes: spans.span(p.name_raw)?,
                        filename: match p.filename {
                            Some(f) => Some((spans.text(f.effective)?, spans.span(f.raw)?)),
                            None => None,
                        },
                        content_type: p.content_type.map(|c| spans.span(c)).transpose()?,
                        mime_type: match p.mime_type {
                            Some(m) => {
                                Some(MimeType::from_serialization(spans.bytes(m)?).ok_or_else(
                                    || invalid("a MIME type that is not a serialization"),
                                )?)
                            }
                            None => None,
                        },
                        header_block: spans.span(p.header_block)?,
                        offset: p.offset,
                        index: p.index as usize,
                    }),
                    wit::MultipartEvent::Data(d) => WasmMultipartEvent::Data(spans.span(d)?),
                    wit::MultipartEvent::PartEnd => WasmMultipartEvent::PartEnd,
                    wit::MultipartEvent::End => WasmMultipartEvent::End,
                })
            })?;
        Ok(Fed {
            events,
            error: fed.error.map(multipart_error),
        })
    }

    /// Sets the current part's data limit (`limit-part`,
    /// [`MultipartReader::limit_part`](crate::body::multipart::MultipartReader::limit_part)):
    /// in place of `max_file_bytes` or `max_value_bytes`, lower or higher; data past it is
    /// refused as [`MultipartLimit::PartBytes`](crate::body::multipart::MultipartLimit::PartBytes).
    /// `Ok(false)`, and no change, outside a part (before its [`WasmMultipartEvent::Part`],
    /// after its [`WasmMultipartEvent::PartEnd`]) and after an error. Read to the part with
    /// [`feed_to_part`](Self::feed_to_part) to set it before any of its data is read.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::body::multipart::{MultipartErrorKind, MultipartLimit};
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// assert!(!reader.limit_part(8)?); // no part yet
    /// let body = b"--b\r\nContent-Disposition: form-data; name=avatar; filename=a.png\r\n\r\n\
    ///     0123456789\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// let avatar = matches!(&fed.events[..], [WasmMultipartEvent::Part(p)] if p.name() == "avatar");
    /// if avatar {
    ///     assert!(reader.limit_part(8)?); // avatars are small: 8 bytes here
    /// }
    /// let err = reader.feed(b"", true)?.error.unwrap();
    /// assert_eq!(err.kind, MultipartErrorKind::Limit(MultipartLimit::PartBytes));
    /// assert_eq!((err.offset, err.part), (76, Some(0))); // data from 68: its 9th byte
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn limit_part(&mut self, max_bytes: u64) -> Result<bool, EngineError> {
        self.0.handle.call(0, |api, store, h| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_limit_part(store, h, max_bytes)
        })
    }

    /// Skips the current part's data (`skip-part`,
    /// [`MultipartReader::skip_part`](crate::body::multipart::MultipartReader::skip_part)): it
    /// is read past without [`WasmMultipartEvent::Data`] events (its
    /// [`WasmMultipartEvent::PartEnd`] comes as usual), and the body is read on. `Ok(false)`,
    /// and no change, where [`limit_part`](Self::limit_part) answers it.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::WasmMultipartEvent;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// let body = b"--b\r\nContent-Disposition: form-data; name=junk; filename=x.exe\r\n\r\n\
    ///     MZ...\r\n--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--";
    /// let fed = reader.feed_to_part(body, true)?;
    /// let exe = matches!(&fed.events[..],
    ///     [WasmMultipartEvent::Part(p)] if p.filename().is_some_and(|f| f.as_str().ends_with(".exe")));
    /// if exe {
    ///     assert!(reader.skip_part()?);
    /// }
    /// let fed = reader.feed(b"", true)?;
    /// let data: Vec<&[u8]> = fed.events.iter().filter_map(|e| match e {
    ///     WasmMultipartEvent::Data(d) => Some(*d),
    ///     _ => None,
    /// }).collect();
    /// assert_eq!(data, [b"1"]); // none of the skipped part's
    /// assert_eq!(fed.events.last(), Some(&WasmMultipartEvent::End));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn skip_part(&mut self) -> Result<bool, EngineError> {
        self.0.handle.call(0, |api, store, h| {
            api.reqparse_http_body()
                .multipart_reader()
                .call_skip_part(store, h)
        })
    }

    /// Bytes of the body consumed so far.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// reader.feed(b"--b\r\n", false)?;
    /// assert_eq!(reader.position(), 5);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn position(&self) -> u64 {
        self.0.window.position
    }

    /// How many bytes the guest holds (what may begin a delimiter, an incomplete header
    /// block).
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// let mut reader = inspector.multipart_reader(b"b", Default::default(), Default::default())?.unwrap();
    /// reader.feed(b"--b\r\nContent-Disp", false)?;
    /// assert_eq!(reader.held(), 12);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn held(&self) -> usize {
        self.0.window.tail.len()
    }
}
