//! Generator revisions: a run keeps the generator it began with. Revision 1
//! (every run saved before revisions) must make its levels byte for byte as
//! the build that made them did; revision 2 joins every vault door that no
//! corridor reached (or walls it up), and differs from 1 only there.

use delve::config::{CorridorStyle, DeadEndPolicy, Revisions};
use delve::vault::shipped;
use delve::{Config, Generator, Level, Shape, Tile};

use crate::check;

/// FNV-1a over what a level is: tiles, hardness, rooms and their doors,
/// stairs.
fn fingerprint(level: &Level, hash: &mut u64) {
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            *hash = (*hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    };
    eat(&level.tiles().iter().map(|&t| t as u8).collect::<Vec<_>>());
    eat(level.hardness_grid());
    for room in level.rooms() {
        let b = room.shape.bounds();
        for v in [b.x, b.y, b.width, b.height, room.doors.len() as u16] {
            eat(&v.to_le_bytes());
        }
        for d in &room.doors {
            eat(&d.pos.x.to_le_bytes());
            eat(&d.pos.y.to_le_bytes());
        }
    }
    for s in level.stairs() {
        eat(&[s.pos.x as u8, s.pos.y as u8, s.direction as u8, s.room as u8]);
    }
}

/// The configs the identity is held on: the shipped progression, and the
/// default level in both styles that place vaults, with rooms overlapping
/// and dead ends pruned.
fn configs() -> Vec<(&'static str, Config, u64)> {
    let tunnel = Config::default();
    let dead_end = Config {
        corridors: CorridorStyle::DeadEnd,
        ..Config::default()
    };
    let overlap_pruned = Config {
        rooms_may_overlap: true,
        dead_ends: DeadEndPolicy::Prune,
        ..Config::default()
    };
    let dead_end_pruned = Config {
        corridors: CorridorStyle::DeadEnd,
        rooms_may_overlap: true,
        dead_ends: DeadEndPolicy::Prune,
        ..Config::default()
    };
    vec![
        ("shipped", Config::shipped(), 4),
        ("tunnel", tunnel, 2),
        ("dead end", dead_end, 2),
        ("overlap, pruned", overlap_pruned, 2),
        ("dead end, overlap, pruned", dead_end_pruned, 2),
    ]
}

fn with_generator(config: &Config, generator: u16) -> Config {
    Config {
        revisions: Revisions {
            generator,
            rules: 2,
        },
        ..config.clone()
    }
}

/// Generator revision 1 makes today's levels exactly as the build before
/// revision 2 did (the hashes were taken there, at 441622f): old saves
/// regenerate their unvisited levels, and journals replay, through it.
#[test]
fn generator_revision_1_makes_the_levels_it_always_made() {
    let want: [u64; 5] = [
        0x07ee_e303_3ecb_004a,
        0x0492_1485_0231_e6b4,
        0xeefa_c0c4_e740_e827,
        0xba65_c468_5553_efcb,
        0xbd4a_8cc5_5837_34fe,
    ];
    let mut generator = Generator::default();
    let mut got = Vec::new();
    for (_, config, seeds) in configs() {
        let config = with_generator(&config, 1);
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for seed in 1..=seeds {
            for depth in 1..=config.levels {
                let level = generator.level(&config, shipped(), seed, depth).unwrap();
                fingerprint(&level, &mut hash);
            }
        }
        got.push(hash);
    }
    let names: Vec<&str> = configs().iter().map(|c| c.0).collect();
    assert_eq!(got, want, "{names:?}: {got:#x?}");
}
