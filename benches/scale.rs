//! Whether a command's cost stays flat as the game grows: each command that touches a fixed
//! number of stands, timed through the session (journal in memory, so no fsync hides
//! anything) in an OLAB game of 40 stands (one Command of 20 a side) and one of 2,000, and
//! the ratio printed. The goal (issue 14) is at most 1.5× for `shoot`, `cc`, `set`, `show`,
//! `undo`, `redo`, `activate`, `next` (with the same markers expiring) and `status` of one
//! Command.
//!
//! `cargo bench --bench scale` prints one line per command: the median time per command at
//! each size and the ratio. The two sizes are timed in alternating rounds, so a busy
//! machine slows both alike.
//!
//! For exact instruction counts (a busy machine does not enter them),
//! `cargo bench --bench scale -- count CASE PER_SIDE ITERS` runs one case ITERS times on a game
//! of two sides of PER_SIDE stands and nothing else (untimed): under `valgrind
//! --tool=callgrind`, the count at ITERS less the count at 0, over ITERS, is the cost of one
//! (its untimed `before` and `after` lines included: an `undo`, a `mark`, a few µs). Add
//! `--toggle-collect=scale::counted` to leave out building the game, whose cost varies.

use std::time::{Duration, Instant};

use umpire::dice::DiceBox;
use umpire::engine::Session;

#[allow(dead_code)] // not every bench uses all of it
#[path = "common/mod.rs"]
mod common;
use common::repo;
use umpire::limits::Limits;

fn run(s: &mut Session, line: &str) {
    match s.execute(line, None) {
        Some(Ok(_)) | None => {}
        Some(Err((_, e))) => panic!("`{line}` failed: {e}"),
    }
}

/// An OLAB game of two sides of `per_side` stands in Commands of 20, at the manoeuvre phase
/// of round 1 (`a0`…, `b0`…; every fifth an archer).
fn game(per_side: usize) -> Session {
    game_with(per_side, Limits::default())
}

/// The same game under `limits`.
fn game_with(per_side: usize, limits: Limits) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_limits(limits);
    s.set_rules_root(repo());
    run(&mut s, "ruleset use olab");
    run(&mut s, "add side red Red");
    run(&mut s, "add side blue Blue");
    for (side, p) in [("red", 'a'), ("blue", 'b')] {
        for i in 0..per_side {
            if i % 20 == 0 {
                run(
                    &mut s,
                    &format!("add command {side} {p}c{} {side} {}", i / 20, i / 20),
                );
            }
            let kind = if i % 5 == 0 {
                "type=ARC weapon=bow"
            } else {
                "type=INF/U"
            };
            run(
                &mut s,
                &format!(
                    "add unit {p}c{} {p}{i} {p}{i} {kind} sp=6 sp_start=6",
                    i / 20
                ),
            );
        }
    }
    // Command phase, then manoeuvre phase.
    run(&mut s, "next");
    run(&mut s, "next");
    s
}

/// One measurement: `before` lines untimed, `timed` lines timed, `after` lines untimed (to
/// put the game back), repeated.
struct Case {
    name: &'static str,
    before: &'static [&'static str],
    timed: &'static [&'static str],
    after: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "shoot",
        before: &[],
        timed: &["shoot a0 b1 6"],
        after: &["undo"],
    },
    Case {
        name: "cc",
        before: &[],
        timed: &["cc a1 b1"],
        after: &["undo"],
    },
    Case {
        name: "set",
        before: &[],
        timed: &["set a3 sp 5"],
        after: &["undo"],
    },
    Case {
        name: "show",
        before: &[],
        timed: &["show a3"],
        after: &[],
    },
    Case {
        name: "undo",
        before: &["set a3 sp 5"],
        timed: &["undo"],
        after: &[],
    },
    Case {
        name: "redo",
        before: &["set a3 sp 5", "undo"],
        timed: &["redo"],
        after: &["undo"],
    },
    Case {
        name: "activate",
        before: &[],
        timed: &["activate a1,a2,a3,a4,a6"],
        after: &["undo"],
    },
    Case {
        name: "next",
        before: &["mark a1 a2 a3 a4 a6 shot until end of phase"],
        timed: &["next"],
        after: &["undo", "undo"],
    },
    Case {
        name: "status of one command",
        before: &[],
        timed: &["status command:ac0"],
        after: &[],
    },
];

/// Median of `v`.
fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Times `case` `n` times on `s`; the time per timed line.
fn sample(s: &mut Session, case: &Case, n: usize) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            for l in case.before {
                run(s, l);
            }
            let t = Instant::now();
            for l in case.timed {
                std::hint::black_box(s.execute(l, None));
            }
            let d = t.elapsed() / case.timed.len() as u32;
            for l in case.after {
                run(s, l);
            }
            d
        })
        .collect()
}

/// `count CASE PER_SIDE ITERS`: runs one case ITERS times, untimed, for callgrind.
fn count(name: &str, per_side: usize, iters: usize) {
    let case = CASES
        .iter()
        .find(|c| c.name == name)
        .expect("CASE is a case name, e.g. `activate` or `status of one command`");
    // Under callgrind everything runs some fifty times slower: no time limit stops it.
    let mut limits = Limits::default();
    limits.set("script-time=3600s").expect("a valid limit");
    let mut s = game_with(per_side, limits);
    counted(&mut s, case, iters);
}

/// The part of `count` worth counting (callgrind's `--toggle-collect=scale::counted` leaves out
/// building the game, whose cost varies from run to run with hash seeds).
#[inline(never)]
fn counted(s: &mut Session, case: &Case, iters: usize) {
    // One iteration before counting, so first-use costs are in every run and cancel out.
    sample(s, case, 1);
    sample(s, case, iters);
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if let [mode, case, per_side, iters] = args.as_slice()
        && mode == "count"
    {
        count(
            case,
            per_side.parse().expect("PER_SIDE is a whole number"),
            iters.parse().expect("ITERS is a whole number"),
        );
        return;
    }
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing and only checks
    // that it runs.
    // `SCALE_PROFILE=set cargo bench --bench scale` runs one case 300 times on the large
    // game only, for a profiler.
    // `SCALE_LINES='set a3 sp 5;set a3 sp 6'` runs those lines 300 times on the large game.
    if let Ok(lines) = std::env::var("SCALE_LINES") {
        let mut large = game(1000);
        for _ in 0..300 {
            for l in lines.split(';') {
                std::hint::black_box(large.execute(l, None));
            }
        }
        return;
    }
    if let Ok(name) = std::env::var("SCALE_PROFILE") {
        let case = CASES.iter().find(|c| c.name == name).expect("a case name");
        let mut large = game(1000);
        sample(&mut large, case, 300);
        return;
    }
    let quick = !std::env::args().any(|a| a == "--bench");
    let (rounds, per_round) = if quick { (1, 3) } else { (15, 40) };
    let mut small = game(20);
    let mut large = game(1000);
    println!(
        "{:<24} {:>12} {:>12} {:>7}",
        "command", "40 stands", "2,000", "ratio"
    );
    for case in CASES {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        // Warm up both, then alternate.
        sample(&mut small, case, per_round.min(5));
        sample(&mut large, case, per_round.min(5));
        for _ in 0..rounds {
            a.extend(sample(&mut small, case, per_round));
            b.extend(sample(&mut large, case, per_round));
        }
        let (ma, mb) = (median(&mut a), median(&mut b));
        println!(
            "{:<24} {:>10.1}µs {:>10.1}µs {:>6.2}×",
            case.name,
            ma.as_secs_f64() * 1e6,
            mb.as_secs_f64() * 1e6,
            mb.as_secs_f64() / ma.as_secs_f64()
        );
    }
}
