//! The async readers' test harness (feature `async`): an executor that fails a future that
//! waits without having asked to be woken (a reader that would hang), sources that hand out
//! given chunks with a `Pending` before some of them, and the chunkings a body is fed in.

use std::future::Future;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use bytes::Bytes;
use reqparse::stream::{Error, Multipart, Stream};

use super::body::multipart::{Decision, Outcome};

/// A waker that records that it was woken.
struct Flag(AtomicBool);

impl Wake for Flag {
    fn wake(self: Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs `future` to its end on this thread. A `Pending` is allowed only when something has
/// woken the task since the last poll (as a source that is waiting for the network would,
/// later): a `Pending` with no wake means the future would wait forever, and panics.
pub fn run<F: Future>(future: F) -> F::Output {
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    let mut future = pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
        assert!(
            flag.0.swap(false, Ordering::SeqCst),
            "Pending without a wake: the reader would wait forever"
        );
    }
}

/// A source of the given chunks, then its end (or `error` after them). With `pending`, it
/// answers `Pending` before every other chunk and at the end (waking the task first, as a
/// socket that becomes readable does); it panics if polled after it ended, as a stream may.
pub struct Chunks {
    chunks: std::vec::IntoIter<Bytes>,
    pending: bool,
    wait: bool,
    error: Option<std::io::Error>,
    ended: bool,
}

impl Chunks {
    pub fn new(chunks: Vec<Bytes>, pending: bool) -> Self {
        Chunks {
            chunks: chunks.into_iter(),
            pending,
            wait: pending,
            error: None,
            ended: false,
        }
    }

    /// The chunks, then `error` instead of the end.
    pub fn failing(chunks: Vec<Bytes>, error: std::io::Error) -> Self {
        Chunks {
            error: Some(error),
            ..Chunks::new(chunks, false)
        }
    }
}

impl Stream for Chunks {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        assert!(!self.ended, "polled after its end");
        if self.wait {
            self.wait = false;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        self.wait = self.pending;
        match self.chunks.next() {
            Some(chunk) => Poll::Ready(Some(Ok(chunk))),
            None => match self.error.take() {
                Some(e) => Poll::Ready(Some(Err(e))),
                None => {
                    self.ended = true;
                    Poll::Ready(None)
                }
            },
        }
    }
}

/// A small deterministic generator (xorshift64*), so that a failing chunking can be replayed
/// from its seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// `input` cut into chunks of 1 to `max` bytes, at random; every chunk a slice of one `Bytes`
/// (as a server's reads are slices of its buffer).
pub fn random_chunks(input: &Bytes, rng: &mut Rng, max: usize) -> Vec<Bytes> {
    let mut chunks = Vec::new();
    let mut at = 0;
    while at < input.len() {
        let n = 1 + rng.below(max);
        let end = (at + n).min(input.len());
        chunks.push(input.slice(at..end));
        at = end;
    }
    chunks
}

/// The chunkings every case is fed in, labelled: whole, one byte at a time, and `random`
/// random ones (chunks of up to 1, 3, 8, 17, 64 bytes, by turns).
pub fn chunkings(input: &[u8], seed: u64, random: usize) -> Vec<(String, Vec<Bytes>)> {
    let whole = Bytes::copy_from_slice(input);
    let mut all = vec![
        ("whole".to_owned(), vec![whole.clone()]),
        (
            "one byte at a time".to_owned(),
            (0..whole.len()).map(|i| whole.slice(i..i + 1)).collect(),
        ),
    ];
    let mut rng = Rng::new(seed);
    for i in 0..random {
        let max = [3, 8, 17, 64, 2][i % 5];
        all.push((
            format!("random chunks of 1..={max} (seed {seed}, #{i})"),
            random_chunks(&whole, &mut rng, max),
        ));
    }
    all
}

/// Reads a body through the async reader as a caller would: each part's name, filename and
/// content type, then its data chunk by chunk; the error (kind and offset) where it stops.
/// `check` sees every data chunk.
pub async fn read<S>(
    mut multipart: Multipart<S>,
    decisions: &[(usize, Decision)],
    mut check: impl FnMut(&Bytes),
) -> Outcome
where
    S: Stream<Item = Result<Bytes, std::io::Error>>,
{
    let mut out = Outcome::default();
    loop {
        let mut part = match multipart.next_part().await {
            Ok(Some(part)) => part,
            Ok(None) => return out,
            Err(e) => return fail(out, e),
        };
        let filename = part.filename();
        out.part(
            &part.name(),
            filename.as_ref().map(|f| f.as_str()),
            part.content_type(),
        );
        drop(filename);
        match decisions.iter().find(|(i, _)| *i == part.index()) {
            Some((_, Decision::Skip)) => {
                part.skip();
                continue;
            }
            Some((_, Decision::Limit(n))) => assert!(part.set_limit(*n)),
            None => {}
        }
        loop {
            match part.chunk().await {
                Ok(Some(data)) => {
                    check(&data);
                    out.data(&data);
                }
                Ok(None) => break,
                Err(e) => return fail(out, e),
            }
        }
    }
}

pub fn fail(mut out: Outcome, e: Error) -> Outcome {
    match e {
        Error::Multipart(e) | Error::ContentType(e) => out.fail(e),
        other => panic!("not a body's error: {other}"),
    }
    out
}
