//! The harness every bench binary shares: one list of cases, each named `group/impl/input`,
//! either timed by criterion (the default) or run a fixed number of times for callgrind.
//!
//! Why not `criterion_main!`: `scripts/bench-counts.py` needs to run exactly one case N times
//! in the very binary criterion times, so that the instruction counts belong to the same code
//! (same build, same closure, same input) as the wall times.
//!
//! - `cargo bench --bench query` (and any criterion flag after `--`): criterion, as usual.
//! - `REQPARSE_COUNT=list <bench binary>`: prints every case id, one a line.
//! - `REQPARSE_COUNT=<id> REQPARSE_COUNT_N=<n> <bench binary>`: runs that case `n` times
//!   (default 1000) and nothing else of criterion.
//!
//! Ids: our implementations are named `reqparse` (the one the goals compare) or `reqparse_*`
//! (variants); peers by crate (`form-net`, `form_urlencoded`, ...), their variants `crate_*`.

// Not every bench binary uses every helper.
#![allow(dead_code)]

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Bencher, BenchmarkId, Criterion, Throughput};

/// What a case's closure is asked to do. Timing and counting both run the case's own
/// (monomorphized) closure in their loop, with no dynamic call per iteration: on a 20 ns case a
/// virtual call would be a visible part of the time.
enum Drive<'b, 'c> {
    Time(&'b mut Bencher<'c>),
    Count(u64),
}

struct Case {
    group: String,
    imp: String,
    input: String,
    throughput: Option<Throughput>,
    run: Box<dyn FnMut(Drive<'_, '_>)>,
}

impl Case {
    fn id(&self) -> String {
        format!("{}/{}/{}", self.group, self.imp, self.input)
    }
}

/// Every case of one bench binary, in the order they are timed.
#[derive(Default)]
pub struct Suite {
    cases: Vec<Case>,
    /// `(id, note)`: what a reader of the numbers must know (e.g. ours errors on this input).
    notes: Vec<(String, String)>,
}

impl Suite {
    /// Adds the case `group/imp/input`. `f` is what is timed (and counted); its result is
    /// passed through `black_box` and dropped inside the loop, as criterion's `iter` does.
    pub fn add<R>(
        &mut self,
        group: &str,
        imp: &str,
        input: &str,
        throughput: Option<Throughput>,
        mut f: impl FnMut() -> R + 'static,
    ) {
        let case = Case {
            group: group.to_owned(),
            imp: imp.to_owned(),
            input: input.to_owned(),
            throughput,
            run: Box::new(move |drive| match drive {
                Drive::Time(b) => b.iter(&mut f),
                Drive::Count(n) => reqparse_count_loop(&mut f, n),
            }),
        };
        assert!(
            self.cases.iter().all(|c| c.id() != case.id()),
            "duplicate bench id {}",
            case.id()
        );
        // A criterion group cannot unset a throughput once set: all or none of a group's
        // cases have one.
        assert!(
            self.cases
                .iter()
                .filter(|c| c.group == case.group)
                .all(|c| c.throughput.is_some() == case.throughput.is_some()),
            "{}: a group's cases must all have a throughput or none",
            case.id()
        );
        self.cases.push(case);
    }

    /// Records a note for `id` (printed now, and written beside criterion's output so
    /// `scripts/bench-chart.py` can mark the bar).
    pub fn note(&mut self, id: &str, note: &str) {
        eprintln!("note: {id}: {note}");
        self.notes.push((id.to_owned(), note.to_owned()));
    }

    fn count(mut self, id: &str) {
        let ids: Vec<String> = self.cases.iter().map(Case::id).collect();
        if let Some((i, n)) = count_request(id, &ids) {
            (self.cases[i].run)(Drive::Count(n));
            eprintln!("ran {id} {n} times");
        }
    }

    fn criterion(mut self) {
        self.write_notes();
        let mut c = Criterion::default().configure_from_args();
        // Groups in order of first appearance, each with all its cases.
        let mut order: Vec<String> = Vec::new();
        for case in &self.cases {
            if !order.contains(&case.group) {
                order.push(case.group.clone());
            }
        }
        for group in order {
            let mut g = c.benchmark_group(&group);
            for case in self.cases.iter_mut().filter(|c| c.group == group) {
                if let Some(t) = &case.throughput {
                    g.throughput(t.clone());
                }
                let run = &mut case.run;
                g.bench_function(BenchmarkId::new(&case.imp, &case.input), |b| {
                    run(Drive::Time(b))
                });
            }
            g.finish();
        }
        c.final_summary();
    }

    /// `<criterion dir>/reqparse-notes/<bench>.tsv` (and `<bench>.ids`, every id in order),
    /// rewritten on every criterion run of this binary (empty when there is nothing to say, so
    /// stale notes go away). The directory is found as criterion finds its own, minus the
    /// `cargo metadata` fallback.
    fn write_notes(&self) {
        let dir = match (
            std::env::var_os("CRITERION_HOME"),
            std::env::var_os("CARGO_TARGET_DIR"),
        ) {
            (Some(home), _) => PathBuf::from(home),
            (None, Some(target)) => PathBuf::from(target).join("criterion"),
            (None, None) => PathBuf::from("target/criterion"),
        }
        .join("reqparse-notes");
        let exe = std::env::current_exe().ok();
        let stem = exe
            .as_ref()
            .and_then(|e| e.file_stem())
            .and_then(|s| s.to_str())
            .map(|s| {
                s.rsplit_once('-')
                    .map_or(s, |(name, _hash)| name)
                    .to_owned()
            })
            .unwrap_or_else(|| "bench".to_owned());
        let text: String = self
            .notes
            .iter()
            .map(|(id, note)| format!("{id}\t{note}\n"))
            .collect();
        // The ids in the order the bench defines them, so the chart keeps that order.
        let ids: String = self.cases.iter().map(|c| c.id() + "\n").collect();
        if std::fs::create_dir_all(&dir).is_ok() {
            let _ = std::fs::write(dir.join(format!("{stem}.tsv")), text);
            let _ = std::fs::write(dir.join(format!("{stem}.ids")), ids);
        }
    }
}

/// `REQPARSE_COUNT=<id>` for a binary with its own list of `ids` (benches/component.rs; a
/// [`Suite`] uses it too): `list` prints them and gives `None`; an id gives its index and how
/// many times to run it (`REQPARSE_COUNT_N`, default 1000), in [`reqparse_count_loop`]; an id
/// not in `ids` exits with status 2.
pub fn count_request(id: &str, ids: &[String]) -> Option<(usize, u64)> {
    if id == "list" {
        for id in ids {
            println!("{id}");
        }
        return None;
    }
    let n: u64 = match std::env::var("REQPARSE_COUNT_N") {
        Ok(v) => v.parse().expect("REQPARSE_COUNT_N is a number"),
        Err(_) => 1000,
    };
    let Some(i) = ids.iter().position(|c| c == id) else {
        eprintln!("no bench id {id} (REQPARSE_COUNT=list prints them)");
        std::process::exit(2);
    };
    Some((i, n))
}

/// The loop `scripts/bench-counts.py` counts: callgrind collects only inside this function
/// (`--toggle-collect`), so input building, agreement checks and whatever else the process does
/// (hash seeds make some peers' set-up vary run to run) stay out of the counts.
#[inline(never)]
pub fn reqparse_count_loop<R>(f: &mut impl FnMut() -> R, n: u64) {
    for _ in 0..n {
        black_box(f());
    }
}

/// The `main` of every bench binary: builds the cases (agreement checks included), then
/// counts or times them.
pub fn main(build: fn(&mut Suite)) {
    let mut suite = Suite::default();
    build(&mut suite);
    match std::env::var("REQPARSE_COUNT") {
        Ok(id) => suite.count(&id),
        Err(_) => suite.criterion(),
    }
}

/// Leaks `s` so that the timed closures can hold a `&'static str` (a bench binary's inputs
/// live as long as the process anyway).
pub fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// `Throughput::Bytes` of `s`.
pub fn bytes(s: &str) -> Option<Throughput> {
    Some(Throughput::Bytes(s.len() as u64))
}
