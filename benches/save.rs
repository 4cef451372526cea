//! Save benchmarks: encoding and decoding a default 10-level run with every
//! level visited (no fsync: that is the disk's time, not delve's).
//!
//! Run with `cargo bench --bench save`; the README lists the medians and the
//! file size, which this prints.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::Config;
use delve::config::Goal;
use delve::save;
use delve::sim::{MonsterKind, Outcome, Run, autopilot};

/// A default run played until it stands on the deepest level.
fn deep_run() -> Run {
    let mut config = Config::default();
    config.simulation.goal = Goal::ReachBottom;
    config.simulation.lives = 99;
    let mut run = Run::new(config, MonsterKind::defaults(), 21).expect("default config generates");
    while run.outcome() == Outcome::Playing && run.turn() < 200_000 {
        let a = autopilot(&mut run);
        run.step(a).expect("levels generate");
    }
    assert_eq!(run.visited().count(), 10, "every level visited");
    run
}

fn save_load(c: &mut Criterion) {
    let run = deep_run();
    let bytes = save::encode(&run, 0);
    eprintln!("save of a 10-level run: {} bytes", bytes.len());
    c.bench_function("save 10-level run (encode)", |b| {
        b.iter(|| black_box(save::encode(&run, 0)))
    });
    c.bench_function("load 10-level run (decode + validate)", |b| {
        b.iter(|| black_box(save::decode(&bytes, "bench").expect("own save loads")))
    });
}

criterion_group!(benches, save_load);
criterion_main!(benches);
