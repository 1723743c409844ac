#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Journal throughput: appending a transaction with a sync (what every command pays), and
//! continuing a journal of 100,000 transactions (what starting umpire on a long game pays:
//! `Journal::open`, which checks the whole hash chain, and rebuilding the game):
//!
//! - `open_100k/snapshot`: with the snapshot written at its last entry;
//! - `open_100k/snapshot_1000_behind`: with a snapshot 1,000 entries behind (a session that
//!   ended just before its next snapshot): those entries are replayed and a fresh snapshot
//!   written;
//! - `open_100k/no_snapshot`: without one (a journal from before snapshots, or copied without
//!   it): every entry is parsed and replayed, and a snapshot written.
//!
//! `cargo bench --bench journal`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use umpire::journal::{Caps, Journal, SNAPSHOT_EVERY, Transaction, snapshot_path};
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
        public: None,
        umpire_only: false,
        rolls: Vec::new(),
        changes: vec![change],
        reasons: Vec::new(),
        output: "leg1 sp 6 → 4".into(),
        generation: 0,
        rules: None,
        answers: Vec::new(),
        by: None,
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
            j.commit(t, &g).unwrap()
        })
    });
    drop(j);

    let n = 100_000;
    let long = dir.path().join("long.jsonl");
    let snap = snapshot_path(&long);
    let behind = dir.path().join("behind.snap");
    let at_end = dir.path().join("end.snap");
    // About 30 MiB: over the default file limit, as a club would raise it for such a journal.
    let big = Caps {
        file: 1 << 30,
        ..Caps::DEFAULT
    };
    {
        let mut g = start.clone();
        let (mut j, _) = Journal::open(&long, &mut start.clone(), big).unwrap();
        for i in 0..n {
            if i == n - SNAPSHOT_EVERY {
                std::fs::copy(&snap, &behind).unwrap();
            }
            let t = tx(&mut g, i);
            j.commit(t, &g).unwrap();
        }
        std::fs::copy(&snap, &at_end).unwrap();
    }
    let live = {
        let mut g = start.clone();
        std::fs::remove_file(&snap).unwrap();
        Journal::open(&long, &mut g, big).unwrap();
        g
    };
    group.throughput(Throughput::Elements(n));
    group.sample_size(10);
    for (name, from) in [
        ("snapshot", Some(&at_end)),
        ("snapshot_1000_behind", Some(&behind)),
        ("no_snapshot", None),
    ] {
        let put_back = || match from {
            Some(f) => {
                std::fs::copy(f, &snap).unwrap();
            }
            None => {
                let _ = std::fs::remove_file(&snap);
            }
        };
        // Check once that the game is the one full replay gives, and the snapshot was used.
        put_back();
        let mut g = start.clone();
        let (j, _) = Journal::open(&long, &mut g, big).unwrap();
        assert_eq!(g, live);
        assert_eq!(j.opened_from_snapshot().is_some(), from.is_some(), "{name}");
        drop(j);
        group.bench_function(format!("open_100k/{name}"), |b| {
            b.iter_batched(
                || {
                    put_back();
                    start.clone()
                },
                |mut g| Journal::open(&long, &mut g, big).unwrap().0,
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, journal);
criterion_main!(benches);
