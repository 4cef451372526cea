//! Simulation benchmarks: autopilot turns of a default run, and the
//! distance maps monsters share.
//!
//! Run with `cargo bench --bench simulate`; the README lists the medians.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::sim::{DistanceMap, MonsterKind, Run, autopilot};
use delve::{Config, generate_level};

fn turns(c: &mut Criterion) {
    let config = Config::default();
    let start = Run::new(config, MonsterKind::defaults(), 7).expect("default config generates");
    // Time 1000 turns from a fixed start; the start is cloned outside the clock.
    c.bench_function("1000 autopilot turns, default run", |b| {
        b.iter_batched(
            || start.clone(),
            |mut run| {
                for _ in 0..1000 {
                    let action = autopilot(&mut run);
                    black_box(run.step(action).expect("levels generate"));
                }
                run
            },
            criterion::BatchSize::LargeInput,
        )
    });
}

fn maps(c: &mut Criterion) {
    let level = generate_level(&Config::default(), 7, 1).expect("default config generates");
    let from = level.stairs()[0].pos;
    c.bench_function("walking distance map 150x150", |b| {
        b.iter(|| black_box(DistanceMap::walking(&level, from)))
    });
    c.bench_function("tunnelling distance map 150x150", |b| {
        b.iter(|| black_box(DistanceMap::tunnelling(&level, from, 85)))
    });
}

criterion_group!(benches, turns, maps);
criterion_main!(benches);
