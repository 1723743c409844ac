#![allow(missing_docs)] // criterion_group! generates undocumented functions

//! Game-state latency at club scale: the everyday operations on a game of 20 units and of
//! 2,000 units. Lookups, `show`, `set` and id selectors should cost the same at both sizes;
//! `status` and filter-only selectors scan the units and grow with them.
//!
//! `cargo bench --bench state`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::state::{Game, Schema, Selector, Value};

fn game(n: usize) -> Game {
    let text = include_str!("../examples/data/schema.toml");
    let mut g = Game::new(Schema::from_toml("schema.toml", text).unwrap());
    for s in 0..2 {
        g.add_side(&format!("s{s}"), &format!("Side {s}")).unwrap();
        for c in 0..10 {
            g.add_command(&format!("s{s}"), &format!("s{s}c{c}"), "command")
                .unwrap();
        }
    }
    for i in 0..n {
        let c = format!("s{}c{}", i % 2, (i / 2) % 10);
        let attrs = [("sp".to_string(), Value::Int((i % 13) as i64))];
        g.add_unit(&c, &format!("u{i}"), &format!("Unit {i}"), attrs)
            .unwrap();
    }
    g
}

fn state(c: &mut Criterion) {
    let mut group = c.benchmark_group("state");
    for n in [20, 2000] {
        let mut g = game(n);
        let id = format!("u{}", n / 2);
        group.bench_with_input(BenchmarkId::new("show", n), &n, |b, _| {
            b.iter(|| black_box(g.view(&id).unwrap()))
        });
        let by_id = Selector::parse(&id).unwrap();
        group.bench_with_input(BenchmarkId::new("select_id", n), &n, |b, _| {
            b.iter(|| black_box(by_id.resolve(&g).unwrap()))
        });
        let filtered = Selector::parse(&format!("{id} sp>=0 unmarked:routed")).unwrap();
        group.bench_with_input(BenchmarkId::new("select_id_filters", n), &n, |b, _| {
            b.iter(|| black_box(filtered.resolve(&g).unwrap()))
        });
        let scan = Selector::parse("command:s0c0 sp<3").unwrap();
        group.bench_with_input(BenchmarkId::new("select_command_filter", n), &n, |b, _| {
            b.iter(|| black_box(scan.resolve(&g).ok()))
        });
        let mut v = 0;
        group.bench_with_input(BenchmarkId::new("set_and_undo", n), &n, |b, _| {
            b.iter(|| {
                v = (v + 1) % 12;
                let c = g.set_attr(&id, "sp", Value::Int(v)).unwrap();
                g.apply(&c.inverse()).unwrap();
            })
        });
        group.bench_with_input(BenchmarkId::new("status", n), &n, |b, _| {
            b.iter(|| black_box(g.status()))
        });
        group.bench_with_input(BenchmarkId::new("status_render", n), &n, |b, _| {
            b.iter(|| black_box(g.status().render(100)))
        });
    }
    group.finish();
}

criterion_group!(benches, state);
criterion_main!(benches);
