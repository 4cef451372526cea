//! Runs that could run for hours: the work a level may take is bounded.

use crate::cli::{TempDir, delve};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Placing up to 400 overlapping rooms and joining them with DeadEnd
/// corridors fails every attempt at depth 1 of seed 6700, and 65535
/// attempts took about 36 minutes; with 10000 tries a room and a give-up
/// streak of 100000, one attempt took 0.4 s. The work budget of the level
/// ends both with an error that names it.
#[test]
fn a_level_that_would_take_hours_stops_at_its_work_budget() {
    let dir = TempDir::new("budget");
    let heavy = "(rooms: (count: (max: 400), max_floor_share: 1.0), corridors: DeadEnd, \
                 rooms_may_overlap: true, generation_retries: 65535)";
    let heavier = "(rooms: (count: (max: 400), max_floor_share: 1.0, attempts_per_room: 10000, \
                   give_up_streak: 100000), corridors: DeadEnd, rooms_may_overlap: true, \
                   generation_retries: 65535)";
    for (name, config) in [("heavy.ron", heavy), ("heavier.ron", heavier)] {
        let cfg = dir.file(name, config);
        let out = delve(&[
            "generate", "--seed", "6700", "--depth", "1", "--config", &cfg,
        ]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(
            err.contains("depth 1") && err.contains("work budget"),
            "{name}: {err}"
        );
        // It says what to change.
        assert!(
            err.contains("generation_retries") || err.contains("rooms."),
            "{name}: {err}"
        );
    }
}

/// The budget never binds on ordinary configs, with room to spare: the
/// levels of every corridor style, with rooms overlapping or not, at the
/// default size, 002's 80x21 and with extra loops and pruning, take at most
/// a tenth of it; so does 40 rooms of Grid corridors on 500x500 failing
/// all 32 attempts (README's example of a style giving up), which must
/// still fail for what it is, not for the budget.
#[test]
fn ordinary_levels_stay_far_within_their_budget() {
    use delve::config::CorridorStyle;
    use delve::generate::budget;
    use delve::{Config, GenerateError, Generator};

    let mut generator = Generator::default();
    let styles = [
        CorridorStyle::Tunnel,
        CorridorStyle::Grid,
        CorridorStyle::DeadEnd,
        CorridorStyle::Straight,
    ];
    let sizes = [
        ("()", 3),
        ("(width: 80, height: 21, levels: 3)", 20),
        ("(width: 100, height: 40, levels: 1)", 20),
        (
            "(levels: 3, extra_loops: (count: 5, ratio: 3.0, max_length: 10), dead_ends: Prune)",
            3,
        ),
    ];
    for (text, seeds) in sizes {
        for style in styles {
            for overlap in [false, true] {
                let mut config = Config::from_ron(text, "test").unwrap();
                config.corridors = style;
                config.rooms_may_overlap = overlap;
                let limit = budget::total_for(config.width, config.height) / 10;
                for seed in 0..seeds {
                    for depth in 1..=config.levels {
                        generator.level(&config, seed, depth).unwrap();
                        assert!(
                            generator.work_spent() <= limit,
                            "{text} {style:?} overlap {overlap} seed {seed} depth {depth}: {} of {}",
                            generator.work_spent(),
                            limit * 10
                        );
                    }
                }
            }
        }
    }
    let sparse = Config::from_ron(
        "(width: 500, height: 500, levels: 1, corridors: Grid)",
        "test",
    )
    .unwrap();
    let e = generator.level(&sparse, 1, 1).unwrap_err();
    assert!(matches!(e, GenerateError::Unjoinable { .. }), "{e}");
    assert!(generator.work_spent() <= budget::total_for(500, 500) / 4);
}
