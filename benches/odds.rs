#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! The cost of `odds` (issue 22): one simulated resolution — a worker's run of the command
//! on its scratch copy of the game, taken back in place, counted — against the same
//! resolution through the session with the journal in memory (undone untimed, as
//! `benches/olab.rs` and `benches/rulesets.rs` time it), for OLAB `shoot` and `cc`, an FLD
//! melee of two 48-figure units and an OpenD6 volley of ten; and the whole command
//! `odds 100000 shoot …` on every core. Criterion reports the simulated resolutions per
//! second (`thrpt`). `cargo bench --bench odds`.

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::engine::commands::odds::sim::{Setup, Worker, run_seed};
use umpire::script::Control;

#[allow(dead_code)] // not every bench uses all of it
#[path = "common/mod.rs"]
mod common;
use common::{FLD, OD6, OLAB, run, session};

/// Iterations between fresh sessions (the in-memory journal grows with each).
const REBUILD: u64 = 1_000;

const SHOOT: &str = "shoot rifles tgt 12 flank cover";
const CC: &str = "cc wbd leg front cat flank charge defended";

/// One resolution through the session (journal in memory), undone untimed.
fn through_session(
    setup: &'static [&'static str],
    line: &'static str,
) -> impl FnMut(u64) -> Duration {
    move |iters| {
        let mut total = Duration::ZERO;
        let mut s = session(setup);
        for i in 0..iters {
            if i > 0 && i % REBUILD == 0 {
                s = session(setup);
            }
            let t = Instant::now();
            black_box(s.execute(line, None));
            total += t.elapsed();
            run(&mut s, "undo");
        }
        total
    }
}

/// A worker for `line` after `setup`, its memo on or off, checked to run without refusals.
fn worker(setup: &[&str], line: &str, memo: bool) -> Worker {
    let s = session(setup);
    let mut w = Worker::new(
        Setup {
            memo,
            ..Setup::of(&s.state, line)
        },
        Control::new(),
    )
    .expect("a worker");
    for i in 0..20 {
        assert!(w.run(i, run_seed(1, 0, i), &|| false));
    }
    assert!(
        w.tally.refusals() < 20,
        "`{line}` was refused: {:?}",
        w.tally.refused
    );
    w
}

/// One simulated resolution (a worker's run, taken back in place and counted), with the memo
/// of outcomes already resolved and without it (every run through the rules), against the
/// same resolution through the session.
fn simulated(c: &mut Criterion, group: &str, setup: &'static [&'static str], line: &'static str) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(1));
    g.sample_size(30);
    for (name, memo) in [
        ("simulated", true),
        ("simulated_every_run_through_the_rules", false),
    ] {
        let mut w = worker(setup, line, memo);
        let mut n = 1_000u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                n += 1;
                black_box(w.run(n, run_seed(1, 0, n), &|| false))
            })
        });
        eprintln!(
            "{group}/{name}: {} of {} runs through the rules",
            w.resolved, w.tally.runs
        );
    }
    g.bench_function("through_the_session", |b| {
        b.iter_custom(through_session(setup, line))
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    simulated(c, "odds/olab_shoot", OLAB, SHOOT);
    simulated(c, "odds/olab_cc", OLAB, CC);
    simulated(c, "odds/fld_melee_48_v_48", FLD, "melee sw cw");
    simulated(
        c,
        "odds/opend6fm_volley_10",
        OD6,
        "fire rangers snipers range=20",
    );
    // The whole command, on every core: the goal is at most 1.5 s on two.
    let mut g = c.benchmark_group("odds/command");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(20));
    g.throughput(Throughput::Elements(100_000));
    let mut s = session(OLAB);
    let line = format!("odds 100000 --seed 1 {SHOOT}");
    g.bench_function("odds_100000_olab_shoot", |b| {
        b.iter(|| black_box(s.execute(&line, None).unwrap().is_ok()))
    });
    g.finish();
}

criterion_group!(odds, benches);
criterion_main!(odds);
