//! Simulation benchmarks: autopilot turns of a default run (Combat) and of
//! a Stomp run, batch runs on one and on two threads, and the distance maps
//! monsters share.
//!
//! Run with `cargo bench --bench simulate`; the README lists the medians.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::config::SimulationConfig;
use delve::sim::batch::run_batch;
use delve::sim::{DistanceMap, MonsterKind, Run, autopilot, play_headless};
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

fn stomp_turns(c: &mut Criterion) {
    let config = Config {
        simulation: SimulationConfig::stomp(),
        ..Config::default()
    };
    let start = Run::new(config, MonsterKind::stomp(), 7).expect("default config generates");
    c.bench_function("1000 autopilot turns, Stomp run", |b| {
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

/// `simulate --runs 4 --turns 3000` on one thread and on two: the ratio of
/// the medians is the batch's speed-up.
fn batch(c: &mut Criterion) {
    let config = Config::default();
    let play = |seed: u64| {
        let mut run = Run::new(config.clone(), MonsterKind::defaults(), seed)
            .expect("default config generates");
        play_headless(&mut run, 3000).expect("levels generate");
        run.record()
    };
    let mut group = c.benchmark_group("4 runs of 3000 turns");
    group.sample_size(10);
    for jobs in [1, 2] {
        group.bench_function(format!("--jobs {jobs}"), |b| {
            b.iter(|| black_box(run_batch(1, 4, jobs, play, || {})))
        });
    }
    group.finish();
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

criterion_group!(benches, turns, stomp_turns, batch, maps);
criterion_main!(benches);
