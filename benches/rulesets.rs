#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! The cost of a scripted resolution in the rulesets after OLAB, each against rolling the
//! same dice alone: the resolution is run once, the rolls its transaction recorded are read
//! from the journal, and the comparison types one `roll EXPR` per recorded roll. The goal is
//! at most 5× the dice alone.
//!
//! - OpenD6: a volley of the ten Ice Rangers with its damage rolls, and one soldier fighting
//!   three in close combat;
//! - FLD: a melee of two 48-figure units (four ranks of twelve);
//! - Undying Lands: a melee of two units of three vignettes.
//!
//! Every resolution is undone (untimed) to run the same one again; the session is rebuilt
//! every `REBUILD` iterations to keep the in-memory journal small. `cargo bench --bench
//! rulesets`.
//!
//! For exact instruction counts under callgrind (`bash benches/profile/rulesets.sh`), the
//! environment variable `UMPIRE_COUNT=BENCH:WHAT:N` runs one benchmark's work N times and
//! nothing else: BENCH is `od6_volley`, `od6_close`, `fld_melee` or `ul_melee`; WHAT is
//! `resolution` (the command, then `undo`), `undo` (`undo` then `redo` of one resolution) or
//! `dice` (the same dice as `roll` commands).

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};

#[allow(dead_code)] // not every bench uses all of it
#[path = "common/mod.rs"]
mod common;
use common::{FLD, OD6, UL, run, session};

/// Iterations between fresh sessions.
const REBUILD: u64 = 1_000;

/// Times `lines` (one iteration), undoing `undo` commands after each, untimed.
fn timed<'a>(
    setup: &'a [&'a str],
    lines: &'a [String],
    undo: usize,
) -> impl FnMut(u64) -> Duration + 'a {
    move |iters| {
        let mut total = Duration::ZERO;
        let mut s = session(setup);
        for i in 0..iters {
            if i > 0 && i % REBUILD == 0 {
                s = session(setup);
            }
            let t = Instant::now();
            for l in lines {
                run(&mut s, l);
            }
            total += t.elapsed();
            for _ in 0..undo {
                run(&mut s, "undo");
            }
        }
        total
    }
}

/// The rolls `line` makes, as `roll EXPR` lines: it is run once and its transaction read.
fn same_dice(setup: &[&str], line: &str) -> Vec<String> {
    let mut s = session(setup);
    run(&mut s, line);
    let recent = s.state.journal.recent(1).expect("the journal");
    let (_, tx, _) = recent.first().expect("the resolution's transaction");
    let rolls: Vec<String> = tx
        .rolls
        .iter()
        .map(|r| format!("roll {}", r.expr()))
        .collect();
    assert!(!rolls.is_empty(), "`{line}` rolled nothing");
    eprintln!("{line}: {} rolls ({})", rolls.len(), rolls.join(", "));
    rolls
}

/// Benches `line` after `setup` against the same dice rolled alone.
fn compare(c: &mut Criterion, group: &str, setup: &[&str], line: &str) {
    let dice = same_dice(setup, line);
    let resolution = [line.to_string()];
    let mut g = c.benchmark_group(group);
    g.sample_size(30);
    g.bench_function("resolution", |b| {
        b.iter_custom(timed(setup, &resolution, 1))
    });
    g.bench_function("same_dice_rolled_alone", |b| {
        b.iter_custom(timed(setup, &dice, 0))
    });
    g.finish();
}

/// A benchmark: its name for `UMPIRE_COUNT`, its criterion group, its setup and its command.
struct Bench {
    name: &'static str,
    group: &'static str,
    setup: &'static [&'static str],
    line: &'static str,
}

const BENCHES: &[Bench] = &[
    Bench {
        name: "od6_volley",
        group: "opend6fm/volley_10_with_damage",
        setup: OD6,
        line: "fire rangers snipers range=20",
    },
    Bench {
        name: "od6_close",
        group: "opend6fm/close_combat_3_on_1",
        setup: OD6,
        line: "melee icebreakers.2 warband.2,warband.3,warband.4 target=warband.2",
    },
    Bench {
        name: "fld_melee",
        group: "fld/melee_48_v_48",
        setup: FLD,
        line: "melee sw cw",
    },
    Bench {
        name: "ul_melee",
        group: "undying_lands/melee_3_v_3",
        setup: UL,
        line: "melee warband pikes",
    },
];

fn benches(c: &mut Criterion) {
    for b in BENCHES {
        compare(c, b.group, b.setup, b.line);
    }
}

/// `UMPIRE_COUNT=BENCH:WHAT:N`: one benchmark's work N times, for callgrind (see the top).
fn count(spec: &str) {
    let [name, what, n] = spec.split(':').collect::<Vec<_>>()[..] else {
        panic!("UMPIRE_COUNT is BENCH:WHAT:N, such as ul_melee:resolution:200");
    };
    let n: usize = n.parse().expect("N is a whole number");
    let b = BENCHES
        .iter()
        .find(|b| b.name == name)
        .unwrap_or_else(|| panic!("no benchmark `{name}`"));
    let dice = same_dice(b.setup, b.line);
    let mut s = session(b.setup);
    // One of each before counting, so first-use costs are in every run and cancel out.
    run(&mut s, b.line);
    run(&mut s, "undo");
    for l in &dice {
        run(&mut s, l);
    }
    run(&mut s, b.line);
    for _ in 0..n {
        match what {
            "resolution" => {
                run(&mut s, "undo");
                run(&mut s, b.line);
            }
            "undo" => {
                run(&mut s, "undo");
                run(&mut s, "redo");
            }
            "dice" => dice.iter().for_each(|l| run(&mut s, l)),
            _ => panic!("WHAT is resolution, undo or dice"),
        }
    }
}

criterion_group!(rulesets, benches);

fn main() {
    match std::env::var("UMPIRE_COUNT") {
        Ok(spec) => count(&spec),
        Err(_) => {
            rulesets();
            Criterion::default().configure_from_args().final_summary();
        }
    }
}
