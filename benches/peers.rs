//! delve against other Rust dungeon generators, in one run, on 150x150
//! levels: delve's four corridor styles as whole levels (the Tunnel is
//! `Config::default()`, vaults and loops on), terrain-forge 0.7's simple
//! rooms and mapgen 0.6's simple rooms, each called the way its own README
//! and docs show, with a fresh seed every iteration.
//!
//! Run with `cargo bench --bench peers`; the "Side by side" table of
//! docs/performance.md lists the medians and what each generator does and
//! does not do.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use delve::config::CorridorStyle;
use delve::{Config, Generator};
use mapgen::MapBuilder;
use mapgen::filter::{AreaStartingPosition, DistantExit, NearestCorridors, XStart, YStart};
use rand_08::SeedableRng;
use rand_08::rngs::StdRng;
use terrain_forge::algorithms::{SimpleRooms, SimpleRoomsConfig};
use terrain_forge::{Algorithm, Grid};

const SIZE: usize = 150;

const STYLES: [CorridorStyle; 4] = CorridorStyle::ALL;

fn delve_levels(c: &mut Criterion) {
    let mut group = c.benchmark_group("level 150x150");
    for style in STYLES {
        let config = Config {
            corridors: style,
            ..Config::default()
        };
        assert_eq!((config.width, config.height), (150, 150));
        let mut generator = Generator::default();
        let mut seed = 0u64;
        group.bench_function(format!("delve {style:?}"), |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(
                    generator
                        .level(&config, delve::vault::shipped(), seed, 1)
                        .expect("the default config generates"),
                )
            })
        });
    }
    group.finish();
}

/// terrain-forge's `rooms` algorithm: rectangles placed at random, each
/// joined to the one placed before it by an L-shaped corridor between
/// their centres. Once with its defaults (up to 10 rooms of 4 to 10
/// cells a side) and once asking for delve's 40.
fn terrain_forge(c: &mut Criterion) {
    let mut group = c.benchmark_group("level 150x150");
    for (name, max_rooms) in [
        ("terrain-forge rooms (defaults, 10 rooms)", 10),
        ("terrain-forge rooms (40 rooms)", 40),
    ] {
        let rooms = SimpleRooms::new(SimpleRoomsConfig {
            max_rooms,
            ..SimpleRoomsConfig::default()
        });
        // What is timed makes a level: a grid with floor on it.
        let mut check = Grid::new(SIZE, SIZE);
        rooms.generate(&mut check, 1);
        assert!(check.count(|t| t.is_floor()) > 0, "{name} carves nothing");
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                let mut grid = Grid::new(SIZE, SIZE);
                rooms.generate(&mut grid, seed);
                black_box(grid)
            })
        });
    }
    group.finish();
}

/// mapgen's `SimpleRooms` (30 placement tries of 6 to 9 cells a side, not
/// configurable) joined by `NearestCorridors`, as its demo builds it; then
/// the same with a start (`AreaStartingPosition`, as in its README) and an
/// exit placed by its Dijkstra map (`DistantExit`).
fn mapgen(c: &mut Criterion) {
    let mut group = c.benchmark_group("level 150x150");
    for with_exit in [false, true] {
        let mut builder = MapBuilder::new(SIZE, SIZE);
        builder
            .with(mapgen::filter::SimpleRooms::new())
            .with(NearestCorridors::new());
        if with_exit {
            builder
                .with(AreaStartingPosition::new(XStart::CENTER, YStart::CENTER))
                .with(DistantExit::new());
        }
        let name = if with_exit {
            "mapgen simple rooms + DistantExit"
        } else {
            "mapgen simple rooms"
        };
        let check = builder.build_with_rng(&mut StdRng::seed_from_u64(1));
        assert!(!check.rooms.is_empty(), "{name} places no rooms");
        assert_eq!(check.exit_point.is_some(), with_exit);
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed = seed.wrapping_add(1);
                black_box(builder.build_with_rng(&mut StdRng::seed_from_u64(seed)))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, delve_levels, terrain_forge, mapgen);
criterion_main!(benches);
