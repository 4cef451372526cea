//! Simulation benchmarks: autopilot turns of a default run (Combat) and of
//! a Stomp run, batch runs on one and on two threads, and the distance maps
//! monsters share.
//!
//! Run with `cargo bench --bench simulate`; the README lists the medians.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::config::SimulationConfig;
use delve::sim::batch::{RunRecord, play_run, run_batch};
use delve::sim::{DistanceMap, ItemKind, MonsterKind, Run, autopilot};
use delve::{Config, generate_level};

/// Times 1000 autopilot turns from a fixed start of seed 7; the start is
/// cloned outside the clock.
fn thousand_turns(c: &mut Criterion, name: &str, config: Config, kinds: Vec<MonsterKind>) {
    let start = Run::new(config, kinds, 7).expect("default config generates");
    c.bench_function(name, |b| {
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

/// Plays a default run of a seed for up to `turns` turns, as `simulate`
/// does, with the shipped kinds and vaults.
fn player(turns: u64) -> impl Fn(u64) -> RunRecord + Sync {
    let config = Config::default();
    let (kinds, items) = (MonsterKind::defaults(), ItemKind::defaults());
    move |seed| {
        play_run(
            &config,
            (&kinds, &items, delve::vault::shipped()),
            seed,
            turns,
        )
        .expect("levels generate")
    }
}

/// Whole runs as `simulate` plays them: the autopilot from the first turn
/// to the last (death, victory or 50,000 turns), seeds 11 to 13, through
/// every depth the runs reach. The first thousand turns of a run (above)
/// are mostly exploring near the stairs; a whole run also walks the
/// length of explored levels to items and stairs, the autopilot's dearest
/// turns, so this is the figure to hold the simulation's speed to. The
/// throughput criterion prints is turns a second.
fn whole_runs(c: &mut Criterion) {
    let play = player(50_000);
    let turns: u64 = (11..=13).map(|seed| play(seed).turns).sum();
    let mut group = c.benchmark_group("whole autopilot runs");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(criterion::Throughput::Elements(turns));
    group.bench_function(format!("seeds 11 to 13, {turns} turns"), |b| {
        b.iter(|| {
            for seed in 11..=13 {
                black_box(play(seed));
            }
        })
    });
    group.finish();
}

fn turns(c: &mut Criterion) {
    thousand_turns(
        c,
        "1000 autopilot turns, default run",
        Config::default(),
        MonsterKind::defaults(),
    );
}

fn stomp_turns(c: &mut Criterion) {
    let config = Config {
        simulation: SimulationConfig::stomp(),
        ..Config::default()
    };
    thousand_turns(
        c,
        "1000 autopilot turns, Stomp run",
        config,
        MonsterKind::stomp(),
    );
}

/// `simulate --seed 1 --runs 32 --turns 3000` on one thread and on two,
/// each run played as the command plays it: the ratio of the medians is
/// the batch's speed-up. Thirty-two runs, not four: a batch on two threads
/// takes half its work plus a tail, up to one run long, that one thread
/// plays alone, and runs differ a lot (the 3000 turns of seeds 1 to 32
/// take 0.9 to 2.1 billion instructions). With four runs one run is a
/// quarter of the work, so the ratio measured how the four seeds' lengths
/// happened to pair up; with 32 the tail is a few per cent whatever the
/// seeds (for seeds 1 to 32, handed out in order, two threads can at best
/// be 1.91 times one). It is also the command the README times by hand.
fn batch(c: &mut Criterion) {
    let play = player(3000);
    let mut group = c.benchmark_group("32 runs of 3000 turns");
    group.sample_size(10);
    // A --jobs 1 batch takes about 3 s: room for ten of them.
    group.measurement_time(Duration::from_secs(40));
    for jobs in [1, 2] {
        group.bench_function(format!("--jobs {jobs}"), |b| {
            b.iter(|| black_box(run_batch(1, 32, jobs, &play, || {})))
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

criterion_group!(benches, turns, stomp_turns, whole_runs, batch, maps);
criterion_main!(benches);
