//! Parse-and-roll throughput of common expressions (issue 2's benchmark set).
//!
//! `cargo bench --bench dice`. Each iteration parses the text and rolls it once with a seeded
//! generator, as `roll EXPR` does.

#![allow(missing_docs)] // criterion_group! generates undocumented functions

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::dice::{Caps, DiceBox, parse, roll};

const EXPRESSIONS: [&str; 6] = ["1d6", "3d6+2", "4d6kh3", "10d6!", "20d10>=8", "2d20kl1+5"];

fn parse_and_roll(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse_and_roll");
    group.throughput(Throughput::Elements(1));
    for text in EXPRESSIONS {
        let mut dice = DiceBox::seeded(1);
        group.bench_function(text, |b| {
            b.iter(|| {
                let e = parse(black_box(text)).unwrap();
                roll(&e, &mut dice.source(None), &Caps::DEFAULT).unwrap()
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("roll_only");
    group.throughput(Throughput::Elements(1));
    for text in EXPRESSIONS {
        let mut dice = DiceBox::seeded(1);
        let e = parse(text).unwrap();
        group.bench_function(text, |b| {
            b.iter(|| roll(black_box(&e), &mut dice.source(None), &Caps::DEFAULT).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, parse_and_roll);
criterion_main!(benches);
