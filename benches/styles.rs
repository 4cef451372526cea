//! Corridor-style benchmarks on the default 150x150 level: each style's
//! corridor stage alone (rings, door candidates and the style's joining, on
//! rooms already placed), and a whole level in each style.
//!
//! Run with `cargo bench --bench styles`; the README lists the medians.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use delve::config::CorridorStyle;
use delve::{Config, Generator};

const STYLES: [CorridorStyle; 4] = CorridorStyle::ALL;

fn config(style: CorridorStyle) -> Config {
    Config {
        corridors: style,
        ..Config::default()
    }
}

fn corridor_stage(c: &mut Criterion) {
    for style in STYLES {
        let config = config(style);
        let mut generator = Generator::default();
        // A fixed set of levels, cycled, so every style sees the same rooms.
        let works: Vec<_> = (1..=32u64)
            .filter_map(|seed| generator.groundwork(&config, delve::vault::shipped(), seed, 1))
            .collect();
        let mut i = 0;
        c.bench_function(&format!("corridors 150x150 ({style:?})"), |b| {
            b.iter_batched(
                || {
                    i = (i + 1) % works.len();
                    works[i].clone()
                },
                |mut work| black_box(generator.corridor_stage(&config, &mut work)),
                BatchSize::PerIteration,
            )
        });
    }
}

fn whole_level(c: &mut Criterion) {
    for style in STYLES {
        let config = config(style);
        let mut generator = Generator::default();
        let mut seed = 0u64;
        c.bench_function(&format!("level 150x150 ({style:?})"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(
                    generator
                        .level(&config, delve::vault::shipped(), seed, 1)
                        .expect("generates"),
                )
            })
        });
    }
}

criterion_group!(benches, corridor_stage, whole_level);
criterion_main!(benches);
