#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Journal throughput: appending with a sync per entry (what every command pays), and
//! reading back a long journal (what `replay` and re-opening pay).
//!
//! `cargo bench --bench journal`.

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use umpire::journal::JournalFile;

/// An entry about the size of a real command's: text, a roll, a few changes.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    command: String,
    rolls: Vec<serde_json::Value>,
    changes: Vec<serde_json::Value>,
    output: String,
}

fn entry(i: u64) -> Entry {
    Entry {
        command: format!("shoot scorp{i} war4 flank"),
        rolls: vec![
            serde_json::json!({"expr": "1d6", "total": 4, "dice": [{"value": 4, "kept": true, "source": "rng"}]}),
        ],
        changes: vec![
            serde_json::json!({"set": {"unit": "war4", "attr": "sp", "old": 5, "new": 0}}),
        ],
        output: "Shooting 5.2.1 — scorp1 at war4, flank\n  1d6 4\n  + current SP 6\n  = 12 HP"
            .into(),
    }
}

fn journal(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("journal");
    group.throughput(Throughput::Elements(1));
    let path = dir.path().join("append.jsonl");
    let mut j = JournalFile::open::<Entry>(&path).unwrap().journal;
    let e = entry(1);
    group.bench_function("append_synced", |b| b.iter(|| j.append(&e).unwrap()));
    drop(j);

    let n = 100_000;
    let long = dir.path().join("long.jsonl");
    {
        let mut j = JournalFile::open::<Entry>(&long).unwrap().journal;
        for i in 0..n {
            j.append(&entry(i)).unwrap();
        }
    }
    group.throughput(Throughput::Elements(n));
    group.sample_size(10);
    group.bench_function("open_and_verify_100k", |b| {
        b.iter_batched(
            || (),
            |()| JournalFile::open::<Entry>(&long).unwrap().entries.len(),
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

criterion_group!(benches, journal);
criterion_main!(benches);
