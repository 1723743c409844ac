#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Battle reports (issue 20): a report of a 1,000-command battle should take well under a
//! second. The battle is made once (untimed) as an umpire would type it, journalled to a file:
//! the example schema and both example armies, then 1,000 commands — rolls, strength changes,
//! the clock moving on, notes, and an undo now and then. Timed:
//!
//! - `report/html_1000`: reading the journal, rebuilding the game after every command, the
//!   dice against their exact odds, the charts, the HTML page (not written);
//! - `report/markdown_1000`: the same as Markdown with its chart files' text;
//! - `report/campaign_html_10x100`: the campaign report of ten battles of 100 commands each
//!   (every battle's journal read and rebuilt, the campaign chart, the HTML page).
//!
//! `cargo bench --bench report`. Measured on a busy two-core virtual machine: html_1000
//! 9.4 to 11 ms, markdown_1000 12 to 14 ms (the battle holds 803 commands in force and 100
//! undone), campaign_html_10x100 about 14 ms.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use umpire::dice::DiceBox;
use umpire::engine::Session;
use umpire::journal::{Caps, Journal};
use umpire::state::Game;

/// Runs a line that must succeed.
fn run(s: &mut Session, line: &str) {
    if let Some(Err((_, e))) = s.execute(line, None) {
        panic!("`{line}` failed: {e:?}");
    }
}

/// The journal of a battle of `n` commands after the set-up, in `dir`.
pub fn battle(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join("long_battle.jsonl");
    let mut game = Game::default();
    let (j, _) = Journal::open(&path, &mut game, Caps::DEFAULT).unwrap();
    let mut s = Session::with_journal(DiceBox::seeded(7), j, game);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/data");
    for f in ["schema.toml", "romans.toml", "britons.toml"] {
        let verb = if f == "schema.toml" { "schema" } else { "army" };
        run(&mut s, &format!("{verb} load {}", data.join(f).display()));
    }
    let units = [
        "leg1", "leg2", "aux1", "ala1", "war1", "war2", "war3", "war4",
    ];
    for i in 0..n {
        let line = match i % 10 {
            0 | 3 | 6 => "roll 2d6".to_string(),
            1 => "roll 1d6".to_string(),
            2 | 5 => format!("set {} sp {}", units[i % units.len()], (i / 10) % 7),
            4 => "next".to_string(),
            7 => format!("note after command {i}"),
            8 => "roll 3d6".to_string(),
            _ => "undo".to_string(),
        };
        run(&mut s, &line);
    }
    path
}

fn report(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = battle(dir.path(), 1000);
    let b = umpire::report::from_file(&path, Caps::DEFAULT).unwrap();
    assert!(b.transactions >= 800, "{}", b.transactions);
    let mut group = c.benchmark_group("report");
    group.sample_size(10);
    group.bench_function("html_1000", |bench| {
        bench.iter(|| {
            let b = umpire::report::from_file(&path, Caps::DEFAULT).unwrap();
            black_box(umpire::report::render::html(&b).unwrap())
        })
    });
    group.bench_function("markdown_1000", |bench| {
        bench.iter(|| {
            let b = umpire::report::from_file(&path, Caps::DEFAULT).unwrap();
            black_box(umpire::report::render::markdown(&b, "long_battle").unwrap())
        })
    });
    let campaign = dir.path().join("campaign");
    let c = a_campaign(&campaign, 10, 100);
    let r = umpire::report::campaign::CampaignReport::build(&c, Caps::DEFAULT).unwrap();
    assert_eq!(r.battles.len(), 10);
    group.bench_function("campaign_html_10x100", |bench| {
        bench.iter(|| {
            let r = umpire::report::campaign::CampaignReport::build(&c, Caps::DEFAULT).unwrap();
            black_box(umpire::report::render::campaign_html(&r).unwrap())
        })
    });
    group.finish();
}

/// A campaign in `dir` of `battles` battles of `n` commands each, under the demo ruleset, two
/// sides of four units.
fn a_campaign(dir: &Path, battles: usize, n: usize) -> umpire::campaign::Campaign {
    let mut s = Session::new(DiceBox::seeded(3));
    s.set_rules_root(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    run(&mut s, "ruleset use demo");
    for (side, name) in [("red", "Red"), ("blue", "Blue")] {
        run(&mut s, &format!("add side {side} {name}"));
        run(
            &mut s,
            &format!("add command {side} {side}_foot {name} foot"),
        );
        for u in 1..=4 {
            run(
                &mut s,
                &format!("add unit {side}_foot {side}{u} {name} {u} sp=10"),
            );
        }
    }
    run(
        &mut s,
        &format!("campaign new {} Long campaign", dir.display()),
    );
    for b in 0..battles {
        run(&mut s, &format!("battle new b{b}"));
        // Reinforced between battles: nobody is lost, so every unit fights every battle.
        for side in ["red", "blue"] {
            for u in 1..=4 {
                run(&mut s, &format!("set {side}{u} sp 10"));
            }
        }
        for i in 0..n {
            let line = match i % 5 {
                0 => format!("shoot red{} 0 blue{}", 1 + i % 4, 1 + (i / 5) % 4),
                1 => format!("shoot blue{} 0 red{}", 1 + i % 4, 1 + (i / 5) % 4),
                2 => "next".to_string(),
                3 => "roll 2d6".to_string(),
                _ => format!("set red{} sp {}", 1 + i % 4, 1 + (i + b) % 9),
            };
            run(&mut s, &line);
        }
        run(&mut s, &format!("battle end battle {b} is over"));
    }
    umpire::campaign::Campaign::open(dir).unwrap()
}

criterion_group!(benches, report);
criterion_main!(benches);
