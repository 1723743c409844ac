#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Journal throughput: appending a transaction with a sync (what every command pays), and
//! replaying 100,000 transactions onto a game (what re-opening a long journal pays).
//!
//! `cargo bench --bench journal`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use umpire::journal::{Caps, Journal, Transaction};
use umpire::state::{Game, Schema, Value};

fn game() -> Game {
    let text = include_str!("../examples/data/schema.toml");
    let mut g = Game::new(Schema::from_toml("schema.toml", text).unwrap());
    g.add_side("romans", "Romans").unwrap();
    g.add_command("romans", "left", "Left wing").unwrap();
    for i in 0..20 {
        g.add_unit("left", &format!("leg{i}"), &format!("Legion {i}"), [])
            .unwrap();
    }
    g
}

/// A transaction about the size of a real command's: one roll-free change and its output.
fn tx(g: &mut Game, i: u64) -> Transaction {
    let change = g
        .set_attr(&format!("leg{}", i % 20), "sp", Value::Int((i % 12) as i64))
        .unwrap();
    Transaction {
        command: format!("set leg{} sp {}", i % 20, i % 12),
        rolls: Vec::new(),
        changes: vec![change],
        reasons: Vec::new(),
        output: "leg1 sp 6 → 4".into(),
        generation: 0,
        rules: None,
        at: 0,
    }
}

fn journal(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("journal");

    group.throughput(Throughput::Elements(1));
    let path = dir.path().join("append.jsonl");
    let mut g = game();
    let start = g.clone();
    let (mut j, _) = Journal::open(&path, &mut g.clone(), Caps::DEFAULT).unwrap();
    let mut i = 0;
    group.bench_function("commit_synced", |b| {
        b.iter(|| {
            i += 1;
            let t = tx(&mut g, i);
            j.commit(t).unwrap()
        })
    });
    drop(j);

    let n = 100_000;
    let long = dir.path().join("long.jsonl");
    // About 30 MiB: over the default file limit, as a club would raise it for such a journal.
    let big = Caps {
        file: 1 << 30,
        ..Caps::DEFAULT
    };
    {
        let mut g = start.clone();
        let (mut j, _) = Journal::open(&long, &mut start.clone(), big).unwrap();
        for i in 0..n {
            let t = tx(&mut g, i);
            j.commit(t).unwrap();
        }
    }
    group.throughput(Throughput::Elements(n));
    group.sample_size(10);
    group.bench_function("replay_100k", |b| {
        b.iter_batched(
            || start.clone(),
            |mut g| Journal::open(&long, &mut g, big).unwrap().0.records().len(),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, journal);
criterion_main!(benches);
