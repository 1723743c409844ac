//! Timing of exact distributions (`prob …`) for the pools people ask about most.
//!
//! Run with `cargo bench --bench exact` (on a shared machine:
//! `cargo bench --bench exact -- --warm-up-time 1 --measurement-time 3`).

// `criterion_group!` generates an undocumented function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use umpire::dice::exact::distribution;
use umpire::dice::{ExactOptions, parse};

fn exact(c: &mut Criterion) {
    let cases = [
        ("10d6", 5),
        ("4d6kh3", 5),
        ("20d10>=8", 5),
        ("3d6!", 3),
        ("100d10", 5),
        ("10d10!", 5),
    ];
    for (text, depth) in cases {
        let expr = parse(text).expect("valid notation");
        let opts = ExactOptions {
            explode_depth: depth,
            ..ExactOptions::default()
        };
        distribution(&expr, &opts).expect("supported");
        c.bench_function(&format!("{text} depth {depth}"), |b| {
            b.iter(|| distribution(black_box(&expr), black_box(&opts)).unwrap())
        });
    }
}

criterion_group!(benches, exact);
criterion_main!(benches);
