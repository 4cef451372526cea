//! Generation benchmarks: one default level (vaults and loops on), the
//! same without them, and a default stack.
//!
//! Run with `cargo bench --bench generate`; the README lists the medians.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::config::{LoopConfig, RoomLoopConfig, VaultConfig};
use delve::vault::shipped;
use delve::{Config, Dungeon, Generator};

fn one_level(c: &mut Criterion) {
    let config = Config::default();
    let mut generator = Generator::default();
    let mut seed = 0u64;
    c.bench_function("level 150x150 (default config)", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(
                generator
                    .level(&config, shipped(), seed, 1)
                    .expect("default config generates"),
            )
        })
    });
    let small = Config::from_ron("(width: 80, height: 21, levels: 1)", "bench").unwrap();
    c.bench_function("level 80x21", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(
                generator
                    .level(&small, shipped(), seed, 1)
                    .expect("80x21 generates"),
            )
        })
    });
    // The same level without vaults and loops (as before issue 12): what
    // they cost.
    let plain = Config {
        vaults: VaultConfig::NONE,
        room_loops: RoomLoopConfig::NONE,
        extra_loops: LoopConfig::NONE,
        ..Config::default()
    };
    c.bench_function("level 150x150 (no vaults, no loops)", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(
                generator
                    .level(&plain, &[], seed, 1)
                    .expect("default config generates"),
            )
        })
    });
}

fn stack(c: &mut Criterion) {
    let config = Config::default();
    let mut seed = 0u64;
    c.bench_function("stack of 10 levels 150x150 (all cores)", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            black_box(
                Dungeon::generate_all(config.clone(), seed).expect("default config generates"),
            )
        })
    });
}

criterion_group!(benches, one_level, stack);
criterion_main!(benches);
