//! A counting global allocator for the allocation tests.
//!
//! A test binary installs it with one declaration:
//!
//! ```ignore
//! #[global_allocator]
//! static GLOBAL: support::alloc::Counting = support::alloc::Counting;
//! ```
//!
//! and then measures with [`count`] (or reads [`heap_requests`] and [`live_bytes`] around what
//! it measures). [`count`] counts only the calling thread's heap requests: the test harness's
//! own threads allocate now and then (seen under load: a stray 4 or 5 in a case that makes 0),
//! and what is measured runs on the calling thread. [`heap_requests`] and [`live_bytes`] are
//! process-wide, for servers measured on their own threads; such a binary runs its cases from
//! one `#[test]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::SeqCst};

/// Forwards every call to [`System`] and counts it.
pub struct Counting;

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static REALLOCS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    // `const` initialisers: reading them never allocates, so the allocator may use them.
    static THREAD_ALLOCS: Cell<usize> = const { Cell::new(0) };
    static THREAD_REALLOCS: Cell<usize> = const { Cell::new(0) };
}

/// Adds one to a thread's counter; a thread being torn down has none left, and is not measured.
fn bump(counter: &'static std::thread::LocalKey<Cell<usize>>) {
    let _ = counter.try_with(|c| c.set(c.get() + 1));
}

fn thread_count(counter: &'static std::thread::LocalKey<Cell<usize>>) -> usize {
    counter.with(Cell::get)
}

// SAFETY: every call is forwarded unchanged to the system allocator; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, SeqCst);
        bump(&THREAD_ALLOCS);
        LIVE.fetch_add(layout.size() as isize, SeqCst);
        // SAFETY: same layout contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, SeqCst);
        // SAFETY: `ptr` came from System.alloc with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCS.fetch_add(1, SeqCst);
        bump(&THREAD_REALLOCS);
        LIVE.fetch_add(new_size as isize - layout.size() as isize, SeqCst);
        // SAFETY: `ptr` came from System with `layout`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations plus reallocations so far: every trip to the heap that can cost.
pub fn heap_requests() -> usize {
    assert_installed();
    ALLOCS.load(SeqCst) + REALLOCS.load(SeqCst)
}

/// Bytes allocated and not yet freed.
pub fn live_bytes() -> isize {
    assert_installed();
    LIVE.load(SeqCst)
}

/// Heap requests (allocations and reallocations) made by `f` on this thread; its result is
/// returned, to be dropped outside the count.
pub fn count<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let (allocs, reallocs, out) = count_apart(f);
    (allocs + reallocs, out)
}

/// (allocations, reallocations) made by `f` on this thread, apart; its result is dropped
/// outside the count.
pub fn count_apart<T>(f: impl FnOnce() -> T) -> (usize, usize, T) {
    assert_installed();
    let (a, r) = (thread_count(&THREAD_ALLOCS), thread_count(&THREAD_REALLOCS));
    let out = std::hint::black_box(f());
    let (a2, r2) = (thread_count(&THREAD_ALLOCS), thread_count(&THREAD_REALLOCS));
    (a2 - a, r2 - r, out)
}

/// Records "`what`: N allocations, want M" in `failures` when the two counts differ.
pub fn check(failures: &mut Vec<String>, what: &str, got: usize, want: usize) {
    if got != want {
        failures.push(format!("{what}: {got} allocations, want {want}"));
    }
}

/// A binary that forgot the `#[global_allocator]` line would count nothing, and every "0
/// allocations" case would pass. Installed, the counter has moved long before a test runs (the
/// test harness allocates).
fn assert_installed() {
    assert!(
        ALLOCS.load(SeqCst) > 0,
        "support::alloc::Counting is not this binary's #[global_allocator]"
    );
}
