//! What bounds the guest: [`Limits`], the store data that enforces the memory cap, and the
//! epoch ticker behind the deadline.

use std::time::Duration;

use wasmtime::{Engine, ResourceLimiter, StoreLimits, StoreLimitsBuilder};

use super::error::{EngineError, EngineErrorKind};

/// What one epoch tick lasts: the granularity of [`Limits::deadline`].
const TICK: Duration = Duration::from_millis(5);

/// Limits applied to every guest call. The defaults suit a server parsing request heads.
///
/// ```
/// let limits = reqparse::engine::Limits::default();
/// assert!(limits.max_input_bytes < 10 << 20);
/// ```
#[derive(Clone, Debug)]
pub struct Limits {
    /// The sum of the lengths of a call's inputs; checked before entering the guest, so a
    /// hostile 10 MB input costs the host nothing but the length check. Default 256 KiB
    /// (request heads are limited far below that by every HTTP server).
    pub max_input_bytes: usize,
    /// The guest's linear memory may not grow past this (`StoreLimits`); growing past it traps.
    /// Default 32 MiB: the worst case measured, a 256 KiB query `a&a&…` returned as 131 072
    /// string pairs, grows the guest to 9 MiB.
    pub max_memory_bytes: usize,
    /// Wall-clock budget of one call (epoch interruption, granularity 5 ms). Default 1 s.
    pub deadline: Duration,
    /// The instance is replaced after this many calls (its memory never shrinks). Default 100 000.
    pub recycle_after_calls: u64,
    /// …or as soon as its memory has grown past this many bytes. Default 4 MiB.
    pub recycle_memory_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: 256 << 10,
            max_memory_bytes: 32 << 20,
            deadline: Duration::from_secs(1),
            recycle_after_calls: 100_000,
            recycle_memory_bytes: 4 << 20,
        }
    }
}

impl Limits {
    /// The documented input limit, checked before the guest sees a byte.
    pub(super) fn check_input(&self, input_len: usize) -> Result<(), EngineError> {
        let max = self.max_input_bytes;
        if input_len > max {
            return Err(EngineError::new(
                EngineErrorKind::InputTooLarge,
                format!("input of {input_len} bytes exceeds the limit of {max} bytes"),
            ));
        }
        Ok(())
    }
}

/// One thread per engine advances the epoch; it ends when the engine is dropped.
pub(super) fn start_ticker(engine: &Engine) -> std::io::Result<()> {
    let weak = engine.weak();
    std::thread::Builder::new()
        .name("reqparse-epoch".into())
        .spawn(move || loop {
            std::thread::sleep(TICK);
            match weak.upgrade() {
                Some(engine) => engine.increment_epoch(),
                None => break,
            }
        })
        .map(drop)
}

/// A deadline in epoch ticks, as `Store::set_epoch_deadline` takes it.
pub(super) fn ticks(deadline: Duration) -> u64 {
    // Round up, and count the tick already under way as lost: a deadline of 0 traps at once.
    if deadline.is_zero() {
        return 0;
    }
    // wasmtime adds this to the current epoch: keep far from overflow (2^40 ticks = 174 years).
    u64::try_from(deadline.as_nanos().div_ceil(TICK.as_nanos()))
        .unwrap_or(u64::MAX)
        .min(1 << 40)
        + 1
}

/// The store's data: the memory limits, and what the host learns about the guest's memory.
pub(super) struct GuestState {
    limits: StoreLimits,
    pub(super) max_memory: usize,
    /// The largest size the guest's memory has grown to.
    pub(super) memory: usize,
    /// Set when the guest asked for more than `max_memory` during the current call.
    pub(super) hit_memory_cap: bool,
}

impl GuestState {
    pub(super) fn new(limits: &Limits) -> Self {
        GuestState {
            limits: StoreLimitsBuilder::new()
                .memory_size(limits.max_memory_bytes)
                .instances(16)
                .trap_on_grow_failure(true)
                .build(),
            max_memory: limits.max_memory_bytes,
            memory: 0,
            hit_memory_cap: false,
        }
    }
}

impl ResourceLimiter for GuestState {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.max_memory {
            self.hit_memory_cap = true;
        }
        let allowed = self.limits.memory_growing(current, desired, maximum);
        if matches!(allowed, Ok(true)) {
            self.memory = self.memory.max(desired);
        }
        allowed
    }

    fn memory_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.limits.memory_grow_failed(error)
    }

    fn table_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        self.limits.table_growing(current, desired, maximum)
    }

    fn table_grow_failed(&mut self, error: wasmtime::Error) -> wasmtime::Result<()> {
        self.limits.table_grow_failed(error)
    }

    fn instances(&self) -> usize {
        self.limits.instances()
    }

    fn tables(&self) -> usize {
        self.limits.tables()
    }

    fn memories(&self) -> usize {
        self.limits.memories()
    }
}
