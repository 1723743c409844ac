#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Battle reports (issue 20): a report of a 1,000-command battle should take well under a
//! second. The battle is made once (untimed) as an umpire would type it, journalled to a file:
//! the example schema and both example armies, then 1,000 commands — rolls, strength changes,
//! the clock moving on, notes, and an undo now and then. Timed:
//!
//! - `report/html_1000`: reading the journal, rebuilding the game after every command, the
//!   dice against their exact odds, the charts, the HTML page (not written);
//! - `report/markdown_1000`: the same as Markdown with its chart files' text.
//!
//! `cargo bench --bench report`. Measured on a busy two-core virtual machine: html_1000
//! 9.4 ms, markdown_1000 14 ms (the battle holds 803 commands in force and 100 undone).

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
    group.finish();
}

criterion_group!(benches, report);
criterion_main!(benches);
