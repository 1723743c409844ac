#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! The cost of the OLAB rules (issue 5), all through the shell session as an umpire types them:
//!
//! - `shoot` with every Table 7/8 step that applies (weapon, flank, firer SKI, cover, save) and
//!   `cc` with two attackers and every Table 9/10 step (charge bonus, charging WBD, mounted
//!   against foot, General, INF/A against non-firearms, defending terrain, flank, return blow),
//!   each against `roll`ing the same dice alone (`roll 1d6` + `roll 2d6` per die roll of the
//!   resolution);
//! - loading the largest sample army (`army load`, the biggest file in `examples/olab/`);
//! - a `shoot` and a `status` in a 400-stand game against the same in a 20-stand game.
//!
//! Every resolution changes the game, so each is undone (untimed) to fire the same shot again;
//! the in-memory journal keeps every record, so the session is rebuilt (untimed) every
//! `REBUILD` iterations to keep memory flat. `cargo bench --bench olab`.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::dice::DiceBox;
use umpire::engine::Session;

#[allow(dead_code)] // not every bench uses all of it
#[path = "common/mod.rs"]
mod common;
use common::{OLAB, repo, run};

/// Iterations between fresh sessions (the journal grows by a record or two an iteration).
const REBUILD: u64 = 2_000;

/// A session under `ruleset use olab` with `setup` run.
fn olab(setup: &[String]) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(repo());
    run(&mut s, "ruleset use olab");
    for l in setup {
        run(&mut s, l);
    }
    s
}

/// Times `lines` (run in order, as one iteration), undoing `undo` commands after each
/// iteration untimed, on a session rebuilt from `setup` every REBUILD iterations.
fn timed(setup: &[String], lines: &[&str], undo: usize) -> impl FnMut(u64) -> Duration {
    move |iters| {
        let mut total = Duration::ZERO;
        let mut s = olab(setup);
        for i in 0..iters {
            if i > 0 && i % REBUILD == 0 {
                s = olab(setup);
            }
            let t = Instant::now();
            for l in lines {
                black_box(s.execute(l, None));
            }
            total += t.elapsed();
            for _ in 0..undo {
                run(&mut s, "undo");
            }
        }
        total
    }
}

/// Two sides of `per_side` stands in Commands of 20 (the first, `a0`/`b0`, are archers).
fn roster(per_side: usize) -> Vec<String> {
    let mut out = vec![
        "add side red Red".to_string(),
        "add side blue Blue".to_string(),
    ];
    for (side, p) in [("red", 'a'), ("blue", 'b')] {
        for i in 0..per_side {
            if i % 20 == 0 {
                out.push(format!(
                    "add command {side} {p}c{} {side} {}",
                    i / 20,
                    i / 20
                ));
            }
            let kind = if i % 5 == 0 {
                "type=ARC weapon=bow"
            } else {
                "type=INF/U"
            };
            out.push(format!(
                "add unit {p}c{} {p}{i} {p}{i} {kind} sp=6 sp_start=6",
                i / 20
            ));
        }
    }
    out
}

/// A small game for the resolutions (the shared OLAB set-up, `ruleset use olab` aside).
fn duel() -> Vec<String> {
    OLAB[1..].iter().map(|s| s.to_string()).collect()
}

const SHOOT: &str = "shoot rifles tgt 12 flank cover";
const CC: &str = "cc wbd leg front cat flank charge defended";

fn olab_benches(c: &mut Criterion) {
    // Check once that every line works and rolls what the comparison assumes.
    let mut s = olab(&duel());
    for line in [SHOOT, CC] {
        match s.execute(line, None) {
            Some(Ok(out)) => eprintln!("{line}:\n{out:?}\n"),
            other => panic!("`{line}`: {other:?}"),
        }
    }

    let mut g = c.benchmark_group("olab/resolve");
    // A shot rolls 1d6 and the 2d6 save; the two rolls alone, as two commands.
    g.bench_function("shoot_all_factors", |b| {
        b.iter_custom(timed(&duel(), &[SHOOT], 1))
    });
    g.bench_function("roll_same_dice_as_shoot", |b| {
        b.iter_custom(timed(&duel(), &["roll 1d6", "roll 2d6"], 0))
    });
    // Close combat: two attackers and the return blow, each a 1d6 and a 2d6 save.
    g.bench_function("cc_two_attackers_all_factors", |b| {
        b.iter_custom(timed(&duel(), &[CC], 1))
    });
    let six = [
        "roll 1d6", "roll 2d6", "roll 1d6", "roll 2d6", "roll 1d6", "roll 2d6",
    ];
    g.bench_function("roll_same_dice_as_cc", |b| {
        b.iter_custom(timed(&duel(), &six, 0))
    });
    g.finish();

    // The largest sample army file.
    let largest = std::fs::read_dir(repo().join("examples/olab"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let rel = largest
        .strip_prefix(repo())
        .unwrap()
        .to_string_lossy()
        .to_string();
    let load = format!("army load {rel}");
    let mut g = c.benchmark_group("olab/army");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(4));
    g.bench_function(format!("load_largest ({rel})"), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut s = olab(&[]);
                let t = Instant::now();
                black_box(s.execute(&load, None));
                total += t.elapsed();
            }
            total
        })
    });
    g.finish();

    // Command latency by game size: 20 stands (10 a side) against 400 (200 a side).
    let mut g = c.benchmark_group("olab/game_size");
    g.sample_size(30);
    for (label, per_side) in [("20_stands", 10), ("400_stands", 200)] {
        let setup = roster(per_side);
        g.bench_function(format!("shoot/{label}"), |b| {
            b.iter_custom(timed(&setup, &["shoot a0 b1 6"], 1))
        });
        g.bench_function(format!("status/{label}"), |b| {
            b.iter_custom(timed(&setup, &["status"], 0))
        });
    }
    g.finish();
}

criterion_group!(benches, olab_benches);
criterion_main!(benches);
