//! Generation benchmarks: one default level (vaults and loops on), the
//! same without them and with secret doors, a cave and a labyrinth, an
//! 80x21 level, a 1000x1000 level, and a default stack.
//!
//! Run with `cargo bench --bench generate`; the README lists the medians.

use std::hint::black_box;

use criterion::{Bencher, Criterion, criterion_group, criterion_main};
use delve::config::{LevelKind, LoopConfig, Range, RoomConfig, RoomLoopConfig, VaultConfig};
use delve::vault::Vault;
use delve::vault::shipped;
use delve::{Config, Dungeon, Generator};

/// Times levels of `config` from fresh seeds (counting on from `seed`) on
/// one warm generator, as a game making level after level would.
fn levels(
    b: &mut Bencher,
    generator: &mut Generator,
    config: &Config,
    vaults: &[Vault],
    seed: &mut u64,
) {
    b.iter(|| {
        *seed = seed.wrapping_add(1);
        black_box(
            generator
                .level(config, vaults, *seed, 1)
                .expect("the benchmark's config generates"),
        )
    })
}

fn one_level(c: &mut Criterion) {
    let config = Config::default();
    let mut generator = Generator::default();
    let mut seed = 0u64;
    c.bench_function("level 150x150 (default config)", |b| {
        levels(b, &mut generator, &config, shipped(), &mut seed)
    });
    let small = Config::from_ron("(width: 80, height: 21, levels: 1)", "bench").unwrap();
    c.bench_function("level 80x21", |b| {
        levels(b, &mut generator, &small, shipped(), &mut seed)
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
        levels(b, &mut generator, &plain, &[], &mut seed)
    });
    // The kinds that are not rooms, at their default settings.
    for kind in [LevelKind::Cave, LevelKind::Labyrinth] {
        let config = Config {
            kind,
            ..Config::default()
        };
        c.bench_function(&format!("level 150x150 ({})", kind.name()), |b| {
            levels(b, &mut generator, &config, shipped(), &mut seed)
        });
    }
    // The default level with 15% of its doors secret (the deepest bands of
    // the shipped progression): what the secret doors stage costs, against
    // the first level above (same seeds, one stage more: the walks from
    // the stairs back to the anchor, a scan of the grid, the draw, and
    // the verifying flood).
    let secret = Config {
        secret_doors: 0.15,
        ..Config::default()
    };
    let mut seed = 0u64;
    c.bench_function("level 150x150 (default config, 15% secret doors)", |b| {
        levels(b, &mut generator, &secret, shipped(), &mut seed)
    });
}

/// How cost grows with the level: 1000x1000 (44 times the cells of
/// 150x150) with rooms scaled to its area, everything else default.
fn large_level(c: &mut Criterion) {
    let config = Config {
        width: 1000,
        height: 1000,
        levels: 1,
        rooms: RoomConfig {
            count: Range::new(222, 1778),
            ..Config::default().rooms
        },
        ..Config::default()
    };
    let mut generator = Generator::default();
    let mut seed = 0u64;
    let mut group = c.benchmark_group("large");
    group.sample_size(10);
    group.bench_function("level 1000x1000, 1,778 rooms", |b| {
        levels(b, &mut generator, &config, shipped(), &mut seed)
    });
    group.finish();
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
    // What a run gets without `--config`: data/default.ron's progression
    // by depth (Tunnel, Grid halls, two caves, DeadEnd mazes, a
    // labyrinth), where the row above is ten default Tunnel levels.
    let shipped = Config::shipped();
    c.bench_function(
        "stack of 10 levels 150x150, the shipped progression (all cores)",
        |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(
                    Dungeon::generate_all(shipped.clone(), seed).expect("shipped config generates"),
                )
            })
        },
    );
}

criterion_group!(benches, one_level, large_level, stack);
criterion_main!(benches);
