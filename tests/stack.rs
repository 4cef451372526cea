//! The stack: stairs linked both ways, every room reachable from depth 1,
//! and levels that depend on (seed, depth, config) alone.

use delve::dungeon::StackEdge;
use delve::{Config, Dungeon, GenerateError, StairDirection};
use proptest::prelude::*;

/// Every staircase leads to one that leads back to it.
pub fn check_links(dungeon: &Dungeon) {
    for depth in 1..=dungeon.depth_count() {
        let level = dungeon.generated(depth).unwrap();
        for (i, s) in level.stairs().iter().enumerate() {
            match dungeon.destination(depth, i) {
                None => {
                    assert!(
                        depth == 1 && s.direction == StairDirection::Up,
                        "unlinked stairs at depth {depth}"
                    );
                }
                Some(dest) => {
                    let expect = if s.direction == StairDirection::Down {
                        depth + 1
                    } else {
                        depth - 1
                    };
                    assert_eq!(dest.depth, expect);
                    let there = dungeon.generated(dest.depth).unwrap();
                    assert_eq!(there.stairs()[dest.stairs].pos, dest.pos);
                    let back = dungeon.destination(dest.depth, dest.stairs).unwrap();
                    assert_eq!((back.depth, back.pos, back.stairs), (depth, s.pos, i));
                }
            }
        }
    }
}

/// Every room of every level is reachable from depth 1 in the stack graph.
pub fn check_reachable(dungeon: &Dungeon) {
    let graph = dungeon.stack_graph();
    let start = graph
        .node_indices()
        .find(|&n| graph[n].0 == 1)
        .expect("depth 1 has rooms");
    let mut seen = vec![false; graph.node_count()];
    let mut todo = vec![start];
    seen[start.index()] = true;
    while let Some(n) = todo.pop() {
        for m in graph.neighbors(n) {
            if !seen[m.index()] {
                seen[m.index()] = true;
                todo.push(m);
            }
        }
    }
    assert!(
        seen.iter().all(|&s| s),
        "some rooms are unreachable from depth 1"
    );
    let stairs = graph
        .edge_weights()
        .filter(|&&e| e == StackEdge::Stairs)
        .count();
    // Each depth's own count of staircases down (profiles may vary it).
    let config = dungeon.config();
    let down: usize = (1..dungeon.depth_count())
        .map(|d| usize::from(config.at_depth(d).stairs.per_level))
        .sum();
    assert_eq!(stairs, down);
}

fn small() -> Config {
    Config::from_ron("(width: 60, height: 24, levels: 5)", "test").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// One at a time, in any order, equals all at once.
    #[test]
    fn lazy_equals_all_at_once(seed in any::<u64>(), order in Just((1u16..=5).collect::<Vec<_>>()).prop_shuffle()) {
        let all = Dungeon::generate_all(small(), seed).unwrap();
        let mut lazy = Dungeon::new(small(), seed);
        for &d in &order {
            lazy.level(d).unwrap();
        }
        for d in 1..=5 {
            prop_assert_eq!(all.generated(d).unwrap(), lazy.generated(d).unwrap());
        }
    }

    /// The same seed gives the same stack; a different one a different stack.
    #[test]
    fn same_seed_same_stack(seed in any::<u64>()) {
        let a = Dungeon::generate_all(small(), seed).unwrap();
        let b = Dungeon::generate_all(small(), seed).unwrap();
        let c = Dungeon::generate_all(small(), seed ^ 1).unwrap();
        for d in 1..=5 {
            prop_assert_eq!(a.generated(d).unwrap(), b.generated(d).unwrap());
        }
        prop_assert!((1..=5).any(|d| a.generated(d).unwrap().tiles() != c.generated(d).unwrap().tiles()));
    }
}

#[test]
fn default_stack_links_and_reachability() {
    for seed in [0, 1, 42, u64::MAX] {
        let dungeon = Dungeon::generate_all(Config::default(), seed).unwrap();
        check_links(&dungeon);
        check_reachable(&dungeon);
    }
}

#[test]
fn several_stairs_per_level() {
    let config = Config::from_ron("(width: 100, height: 40, levels: 4, rooms: (count: (min: 6, max: 40)), stairs: (per_level: 3))", "test").unwrap();
    let dungeon = Dungeon::generate_all(config.clone(), 9).unwrap();
    check_links(&dungeon);
    check_reachable(&dungeon);
    for d in 1..=4 {
        crate::check::level(dungeon.generated(d).unwrap(), &config);
    }
}

#[test]
fn depth_outside_the_stack_is_an_error() {
    let mut dungeon = Dungeon::new(small(), 1);
    for depth in [0, 6, u16::MAX] {
        let e = dungeon.level(depth).unwrap_err();
        assert_eq!(e, GenerateError::NoSuchDepth { depth, levels: 5 }, "{e}");
        assert!(dungeon.generated(depth).is_none());
    }
    // The whole stack is still there to be made.
    for depth in 1..=5 {
        assert!(dungeon.generated(depth).is_none());
        dungeon.level(depth).unwrap();
    }
}

#[test]
fn known_seed_is_stable_across_runs_and_machines() {
    // A fingerprint of a fixed stack. It changes only when generation
    // changes on purpose; a change on another machine means lost determinism.
    let dungeon = Dungeon::generate_all(small(), 42).unwrap();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for d in 1..=5 {
        for &t in dungeon.generated(d).unwrap().tiles() {
            hash = (hash ^ t as u64).wrapping_mul(0x100_0000_01b3);
        }
        for &h in dungeon.generated(d).unwrap().hardness_grid() {
            hash = (hash ^ u64::from(h)).wrapping_mul(0x100_0000_01b3);
        }
    }
    assert_eq!(hash, FINGERPRINT, "generation output changed: {hash:#x}");
}

const FINGERPRINT: u64 = 0x1c49_f9a8_05e1_ecbc;

/// `delve generate` draws each level as it is made and keeps only the
/// drawing: the levels handed over are the stack's own, in the order asked
/// for, and a failing depth is reported as generating the stack reports it.
#[test]
fn levels_handed_over_as_made_are_the_stacks() {
    let config = small();
    let whole = Dungeon::generate_all(config.clone(), 77).unwrap();
    let dungeon = Dungeon::new(config.clone(), 77);
    let depths = [4, 1, 5, 2];
    let made = dungeon.map_levels(&depths, |level| level).unwrap();
    assert_eq!(made.len(), depths.len());
    for (level, &d) in made.iter().zip(&depths) {
        assert_eq!(Some(level), whole.generated(d), "depth {d}");
    }
    // Nothing is stored.
    assert!((1..=5).all(|d| dungeon.generated(d).is_none()));
    assert_eq!(
        dungeon.map_levels(&[1, 6], |level| level.depth()),
        Err(GenerateError::NoSuchDepth {
            depth: 6,
            levels: 5
        })
    );

    // Depths 3 and 4 cannot be made: the error is depth 3's, the first
    // failure in the order asked, as for the whole stack.
    let failing = Config::from_ron(
        "(width: 60, height: 30, levels: 5, profiles: [(depths: (min: 3, max: 4), rooms: (count: (min: 40, max: 40)))])",
        "test",
    )
    .unwrap();
    let stack_error = Dungeon::generate_all(failing.clone(), 5).unwrap_err();
    let mapped_error = Dungeon::new(failing, 5)
        .map_levels(&[1, 2, 3, 4, 5], |level| level.depth())
        .unwrap_err();
    assert_eq!(mapped_error, stack_error);
    assert!(
        stack_error.to_string().starts_with("depth 3:"),
        "{stack_error}"
    );
}
