#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Undo and redo at club scale (issue 14): a command that touches one stand, and undoing and
//! redoing it, should cost about the same in a game of 2,000 stands as in a game of 20. All
//! through the shell session as an umpire types them, with the journal in memory (as the
//! `session` benches keep it), so no sync hides what the game costs:
//!
//! - `set_then_undo/N`: `set STAND sp N` and `undo`, one iteration;
//! - `undo_then_redo/N`: `undo` and `redo` of one such `set`;
//!
//! each in a game of N stands (two sides of ten commands). The in-memory journal keeps every
//! record, so the session is rebuilt (untimed) every `REBUILD` iterations to keep memory flat.
//!
//! `cargo bench --bench undo`. For exact instruction counts (the machine's load does not
//! enter them), `cargo bench --bench undo -- count BENCH N ITERS` runs `BENCH` (one of the
//! two above) ITERS times on a game of N stands and nothing else: under
//! `valgrind --tool=callgrind`, the count at ITERS less the count at 0, over ITERS, is the
//! cost of one iteration.

use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group};
use std::hint::black_box;
use umpire::dice::DiceBox;
use umpire::engine::Session;

#[allow(dead_code)] // not every bench uses all of it
#[path = "common/mod.rs"]
mod common;
use common::run;
use umpire::journal::Journal;
use umpire::state::{Game, Schema, Value};

/// Iterations between fresh sessions (the journal grows by two records an iteration).
const REBUILD: u64 = 20_000;

/// A game of `n` stands under the example schema, in two sides of ten commands.
fn game(n: usize) -> Game {
    let text = include_str!("../examples/data/schema.toml");
    let mut g = Game::new(Schema::from_toml("schema.toml", text).unwrap());
    for s in 0..2 {
        g.add_side(&format!("s{s}"), &format!("Side {s}")).unwrap();
        for c in 0..10 {
            g.add_command(&format!("s{s}"), &format!("s{s}c{c}"), "command")
                .unwrap();
        }
    }
    for i in 0..n {
        let c = format!("s{}c{}", i % 2, (i / 2) % 10);
        let attrs = [("sp".to_string(), Value::Int((i % 12) as i64))];
        g.add_unit(&c, &format!("u{i}"), &format!("Unit {i}"), attrs)
            .unwrap();
    }
    g
}

/// A session on `game`, journalling in memory.
fn session(game: &Game) -> Session {
    Session::with_journal(DiceBox::seeded(1), Journal::in_memory(), game.clone())
}

/// Times `lines` (one iteration), after `setup` (untimed, on every fresh session).
fn timed<'a>(
    game: &'a Game,
    setup: &'a [String],
    lines: &'a [String],
) -> impl FnMut(u64) -> Duration + 'a {
    move |iters| {
        let fresh = || {
            let mut s = session(game);
            for l in setup {
                run(&mut s, l);
            }
            s
        };
        let mut total = Duration::ZERO;
        let mut s = fresh();
        for i in 0..iters {
            if i > 0 && i % REBUILD == 0 {
                s = fresh();
            }
            let t = Instant::now();
            for l in lines {
                black_box(s.execute(l, None));
            }
            total += t.elapsed();
        }
        total
    }
}

/// The line that sets one stand in a game of `n` (the stand starts at sp (n/2) % 12; the set
/// always changes it).
fn set_line(n: usize) -> String {
    format!("set u{} sp {}", n / 2, (n / 2 + 1) % 12)
}

/// `count BENCH N ITERS`: runs one bench's lines ITERS times, untimed, for callgrind.
fn count(bench: &str, n: usize, iters: u64) {
    let g = game(n);
    let set = set_line(n);
    let (setup, lines) = match bench {
        "set_then_undo" => (vec![], vec![set, "undo".to_string()]),
        "undo_then_redo" => (vec![set], vec!["undo".to_string(), "redo".to_string()]),
        _ => panic!("BENCH is set_then_undo or undo_then_redo"),
    };
    let mut s = session(&g);
    for l in &setup {
        run(&mut s, l);
    }
    // One iteration before counting, so first-use costs are in every run and cancel out.
    for l in &lines {
        run(&mut s, l);
    }
    for _ in 0..iters {
        for l in &lines {
            black_box(s.execute(l, None));
        }
    }
}

fn undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("undo");
    for n in [20, 2000] {
        let g = game(n);
        let set = set_line(n);
        // Check once that every line does what the bench assumes.
        let mut s = session(&g);
        run(&mut s, &set);
        let before = s.state.game.clone();
        run(&mut s, "undo");
        assert_eq!(s.state.game, g);
        run(&mut s, "redo");
        assert_eq!(s.state.game, before);

        let lines = [set.clone(), "undo".to_string()];
        group.bench_function(BenchmarkId::new("set_then_undo", n), |b| {
            b.iter_custom(timed(&g, &[], &lines))
        });
        let setup = [set.clone()];
        let lines = ["undo".to_string(), "redo".to_string()];
        group.bench_function(BenchmarkId::new("undo_then_redo", n), |b| {
            b.iter_custom(timed(&g, &setup, &lines))
        });
    }
    group.finish();
}

criterion_group!(benches, undo);

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let [mode, bench, n, iters] = args.as_slice()
        && mode == "count"
    {
        count(
            bench,
            n.parse().expect("N is a whole number"),
            iters.parse().expect("ITERS is a whole number"),
        );
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
