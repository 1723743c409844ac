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

use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use umpire::dice::DiceBox;
use umpire::engine::Session;

/// Iterations between fresh sessions.
const REBUILD: u64 = 1_000;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs a line that must succeed.
fn run(s: &mut Session, line: &str) {
    match s.execute(line, None) {
        Some(Ok(_)) | None => {}
        Some(Err((_, e))) => panic!("`{line}` failed: {e:?}"),
    }
}

/// A session with `setup` run (its first line chooses the ruleset).
fn session(setup: &[&str]) -> Session {
    let mut s = Session::new(DiceBox::seeded(1));
    s.set_rules_root(repo());
    for l in setup {
        run(&mut s, l);
    }
    s
}

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

fn benches(c: &mut Criterion) {
    let od6 = [
        "ruleset use opend6fm",
        "army load examples/opend6fm/ice_rangers.toml",
        "army load examples/opend6fm/frostmere.toml",
        "army load examples/opend6fm/goblins.toml",
    ];
    compare(
        c,
        "opend6fm/volley_10_with_damage",
        &od6,
        "fire rangers snipers range=20",
    );
    compare(
        c,
        "opend6fm/close_combat_3_on_1",
        &od6,
        "melee icebreakers.2 warband.2,warband.3,warband.4 target=warband.2",
    );
    // Two units of 48 figures in four ranks of 12, hand weapons, both fighting in full.
    let fld = [
        "ruleset use fld",
        "add side light Light",
        "add side dark Dark",
        "add command light l1 Lights",
        "add command dark d1 Darks",
        "add unit l1 sw Swordsmen figures=48 files=12 height=6 melee=3 strength=3 armour=partial_sh morale=4",
        "add unit d1 cw Chaos_Warriors figures=48 files=12 height=7 attacks=2 melee=4 strength=4 natural=1 armour=plate_sh morale=5",
        "muster",
    ];
    compare(c, "fld/melee_48_v_48", &fld, "melee sw cw");
    // Undying Lands: the example armies' warband (three vignettes) against the pikes (three).
    let ul = [
        "ruleset use undying_lands",
        "army load examples/undying_lands/vale.toml",
        "army load examples/undying_lands/horde.toml",
        "muster",
    ];
    compare(c, "undying_lands/melee_3_v_3", &ul, "melee warband pikes");
}

criterion_group!(rulesets, benches);
criterion_main!(rulesets);
