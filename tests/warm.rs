//! A warm generator makes the same levels as a fresh one: whatever levels
//! it made before (other sizes, the same area turned on its side, other
//! corridor styles, overlapping rooms or not, profiles, vaults, loops,
//! configs that are refused or fail), the buffers it kept must not reach
//! the next level. Each buffer reset only where its last level touched it
//! is a chance for a stale cell; this is where they would show.

use delve::config::{CorridorStyle, Range};
use delve::vault::shipped;
use delve::{Config, Dungeon, Generator, generate_level};
use proptest::prelude::*;

use crate::properties::{layout, profiled_config, small_config, with_layout};

/// A small random config in any corridor style, with random vault
/// counts, room loops and extra loops, and sometimes trouble: `1` asks
/// for more rooms than fit (most such levels fail with a typed error,
/// after attempts thrown away part way), `2` for vaults and barely enough
/// rooms for the stairs (attempts thrown away once their corridors are
/// carved, for want of rooms to hold the stairs).
fn any_config() -> impl Strategy<Value = Config> {
    let plain = (
        small_config(),
        layout(),
        (0u16..=3, 0u16..=3),
        0u16..=4,
        prop_oneof![2 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
        any::<bool>(),
    )
        .prop_map(
            |(c, layout, (vmin, vextra), room_loops, trouble, stairs2)| {
                let mut c = with_layout(c, layout);
                c.vaults.count = Range::new(vmin, vmin + vextra);
                c.room_loops.count = room_loops;
                if stairs2 {
                    c.stairs.per_level = 2;
                }
                match trouble {
                    1 => {
                        let max = c.rooms.count.max;
                        c.rooms.count = Range::new(max.max(24), max.max(40));
                        c.rooms.max_floor_share = 0.6;
                        c.generation_retries = 3;
                    }
                    2 => {
                        let needed = c.stair_rooms_needed();
                        c.corridors = CorridorStyle::Tunnel;
                        c.vaults.count = Range::new(1, 3);
                        c.rooms.count = Range::new(needed, needed + 1);
                        c.generation_retries = 4;
                    }
                    _ => {}
                }
                c
            },
        );
    prop_oneof![3 => plain, 1 => profiled_config()]
}

/// A level to make: its config, seed and depth (any of the config's).
fn request() -> impl Strategy<Value = (Config, u64, prop::sample::Index, bool)> {
    (
        any_config(),
        any::<u64>(),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
}

/// `config` laid out with the same area and another width: turned on its
/// side (width and height swapped) where that is a valid size, else the
/// nearest other factoring of the area; room sizes clamped to fit.
fn turned(config: &Config) -> Config {
    let mut c = config.clone();
    let area = u32::from(c.width) * u32::from(c.height);
    let fits =
        |w: u32| area % w == 0 && w != u32::from(c.width) && (15..=2000).contains(&(area / w));
    let width = (30..=2000u32)
        .filter(|&w| fits(w))
        .min_by_key(|&w| w.abs_diff(u32::from(c.height)));
    let Some(width) = width else {
        return c;
    };
    c.width = width as u16;
    c.height = (area / width) as u16;
    let clamp = |r: Range, most: u16| Range::new(r.min.min(most), r.max.min(most));
    c.rooms.width = clamp(c.rooms.width, c.width / 4);
    c.rooms.height = clamp(c.rooms.height, c.height / 4);
    c.rooms.circle_radius = clamp(c.rooms.circle_radius, (c.height / 6).max(1));
    c
}

fn depth_of(config: &Config, index: &prop::sample::Index) -> u16 {
    index.index(usize::from(config.levels)) as u16 + 1
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// One generator makes one to four levels of random configs (some of
    /// them the target's own area turned on its side, or the target's
    /// config at other seeds), then the target level: it must be, byte for
    /// byte and work unit for work unit, what a fresh generator makes, and
    /// the same error if it fails.
    #[test]
    fn a_warm_generator_makes_what_a_fresh_one_makes(
        before in prop::collection::vec((request(), 0u8..=3), 1..=4),
        target in any_config().prop_filter("valid", |c| c.validate().is_ok()),
        seed in any::<u64>(),
        depth in any::<prop::sample::Index>(),
    ) {
        let depth = depth_of(&target, &depth);
        let mut warm = Generator::default();
        for ((config, s, d, no_vaults), kind) in &before {
            // 0 and 1: a config of its own; 2: the target turned on its
            // side; 3: the target itself at another seed.
            let config = match kind {
                2 => turned(&target),
                3 => target.clone(),
                _ => config.clone(),
            };
            let vaults = if *no_vaults { &[][..] } else { shipped() };
            let d = depth_of(&config, d);
            // An error is fine; only a panic or what it leaves behind is not.
            let _ = warm.level(&config, vaults, *s, d);
        }
        let mut fresh = Generator::default();
        let want = fresh.level(&target, shipped(), seed, depth);
        let got = warm.level(&target, shipped(), seed, depth);
        prop_assert_eq!(got, want);
        prop_assert_eq!(warm.work_spent(), fresh.work_spent());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The same through `Dungeon`: every worker thread's generator, warm
    /// from stacks of other configs (and the target's turned on its side),
    /// makes each level of the target's stack as a fresh generator does.
    #[test]
    fn dungeon_stacks_on_warm_threads_match_fresh_levels(
        before in prop::collection::vec(any_config(), 1..=3),
        target in any_config().prop_filter("valid", |c| c.validate().is_ok()),
        seed in any::<u64>(),
    ) {
        for config in before.iter().cloned().chain([turned(&target)]) {
            let _ = Dungeon::generate_all(config, seed ^ 0x5eed);
        }
        if let Ok(dungeon) = Dungeon::generate_all(target.clone(), seed) {
            for d in 1..=target.levels {
                let fresh = generate_level(&target, seed, d).unwrap();
                prop_assert_eq!(dungeon.generated(d).unwrap(), &fresh, "depth {}", d);
            }
        }
    }
}

/// Same area, other width: 60x40 then 40x60 and back, in every style, each
/// level as a fresh generator makes it.
#[test]
fn the_same_area_turned_on_its_side_makes_fresh_levels() {
    let mut warm = Generator::default();
    for style in crate::properties::STYLES {
        for overlap in [false, true] {
            for (w, h) in [(60, 40), (40, 60), (60, 40)] {
                let config = Config {
                    width: w,
                    height: h,
                    levels: 2,
                    corridors: style,
                    rooms_may_overlap: overlap,
                    rooms: delve::config::RoomConfig {
                        count: Range::new(4, 12),
                        width: Range::new(3, 8),
                        height: Range::new(3, 8),
                        ..Default::default()
                    },
                    ..Config::default()
                };
                for seed in 0..3 {
                    let fresh = Generator::default().level(&config, shipped(), seed, 2);
                    let got = warm.level(&config, shipped(), seed, 2);
                    assert!(
                        got.is_ok(),
                        "{style:?} overlap {overlap} {w}x{h} seed {seed}: {got:?}"
                    );
                    assert_eq!(
                        got, fresh,
                        "{style:?} overlap {overlap} {w}x{h} seed {seed}"
                    );
                }
            }
        }
    }
}

/// Caves and labyrinths, which keep buffers of their own (the cave's
/// grids, its join's blocks and marks, the maze's lattice), on one warm
/// generator in turn with rooms levels: sizes turned on their side, rows
/// ending at every place in a draw's quarters, the caves of revisions 6
/// and 7 (two ways of joining sharing buffers) and the current one, with
/// and without vaults. Each level is the one a fresh generator makes.
#[test]
fn caves_and_labyrinths_on_a_warm_generator_make_fresh_levels() {
    use delve::config::{LevelKind, Revisions};
    let mut warm = Generator::default();
    let revision = |generator| Revisions {
        generator,
        ..Revisions::CURRENT
    };
    let mut made = 0;
    for (w, h) in [
        (60, 40),
        (40, 60),
        (61, 31),
        (31, 61),
        (62, 40),
        (60, 40),
        (150, 150),
        (150, 150),
    ] {
        for kind in [LevelKind::Cave, LevelKind::Rooms, LevelKind::Labyrinth] {
            for revisions in [revision(6), revision(7), Revisions::CURRENT] {
                let config = Config {
                    width: w,
                    height: h,
                    levels: 2,
                    kind,
                    revisions,
                    rooms: delve::config::RoomConfig {
                        count: Range::new(4, 10),
                        width: Range::new(3, 7),
                        height: Range::new(3, 7),
                        ..Default::default()
                    },
                    ..Config::default()
                };
                for (seed, vaults) in [(1, shipped()), (2, &[][..])] {
                    let fresh = Generator::default().level(&config, vaults, seed, 2);
                    let got = warm.level(&config, vaults, seed, 2);
                    made += usize::from(got.is_ok());
                    assert_eq!(
                        got, fresh,
                        "{kind:?} {w}x{h} revision {revisions:?} seed {seed}"
                    );
                }
            }
        }
    }
    assert!(made > 110, "only {made} of 144 levels made");
}

/// A level that runs out of work budget part way (placing 400 overlapping
/// rooms joined by DeadEnd corridors of generator 3, which throws away
/// attempts that leave rooms apart, as in tests/limits.rs) leaves nothing
/// behind: the level after it is a fresh generator's (Tunnel, and the
/// DeadEnd style that ran out).
#[test]
fn a_level_over_budget_leaves_nothing_behind() {
    let heavy = Config::from_ron(
        "(rooms: (count: (max: 400), max_floor_share: 1.0), corridors: DeadEnd, \
         rooms_may_overlap: true, generation_retries: 65535, \
         revisions: (generator: 3))",
        "test",
    )
    .unwrap();
    let mut warm = Generator::default();
    for style in [CorridorStyle::Tunnel, CorridorStyle::DeadEnd] {
        let got = warm.level(&heavy, shipped(), 6700, 1);
        assert!(
            matches!(got, Err(delve::GenerateError::OverBudget(_))),
            "{got:?}"
        );
        let config = Config {
            corridors: style,
            ..Config::default()
        };
        let fresh = Generator::default().level(&config, shipped(), 6700, 1);
        assert!(fresh.is_ok());
        assert_eq!(warm.level(&config, shipped(), 6700, 1), fresh, "{style:?}");
    }
}
