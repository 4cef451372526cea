//! A property a user would check over their own config: whatever the seed,
//! every walkable cell of a generated level is reachable from every other.
//!
//! `cargo run --example connectivity` runs a handful of cases with proptest
//! and exits 0 when all hold (proptest prints the failing seed otherwise).

use std::collections::VecDeque;

use delve::{Config, Level, generate_level};
use proptest::prelude::*;
use proptest::test_runner::{Config as Cases, TestRunner};

/// The config under test: yours would be loaded with `Config::load`.
fn my_config() -> Config {
    Config {
        width: 60,
        height: 30,
        levels: 1,
        ..Config::default()
    }
}

/// How many walkable cells a flood from the first one reaches, and how many
/// there are.
fn reached_and_walkable(level: &Level) -> (usize, usize) {
    let (w, h) = (level.width(), level.height());
    let walkable = |x: u16, y: u16| level.tile(delve::Pos::new(x, y)).is_walkable();
    let cells: Vec<(u16, u16)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .filter(|&(x, y)| walkable(x, y))
        .collect();
    let Some(&start) = cells.first() else {
        return (0, 0);
    };
    let mut seen = vec![false; usize::from(w) * usize::from(h)];
    let index = |(x, y): (u16, u16)| usize::from(y) * usize::from(w) + usize::from(x);
    let mut queue = VecDeque::from([start]);
    seen[index(start)] = true;
    let mut reached = 0;
    while let Some((x, y)) = queue.pop_front() {
        reached += 1;
        let (x, y) = (i32::from(x), i32::from(y));
        for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
            let (Ok(nx), Ok(ny)) = (u16::try_from(nx), u16::try_from(ny)) else {
                continue;
            };
            if nx < w && ny < h && walkable(nx, ny) && !seen[index((nx, ny))] {
                seen[index((nx, ny))] = true;
                queue.push_back((nx, ny));
            }
        }
    }
    (reached, cells.len())
}

fn main() {
    let config = my_config();
    config.validate().expect("my config is valid");
    let mut runner = TestRunner::new(Cases {
        cases: 8,
        // An example has no source tree to keep regressions in.
        failure_persistence: None,
        ..Cases::default()
    });
    runner
        .run(&any::<u64>(), |seed| {
            let level = generate_level(&config, seed, 1).expect("the level generates");
            let (reached, walkable) = reached_and_walkable(&level);
            prop_assert_eq!(reached, walkable, "seed {} leaves cells cut off", seed);
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    println!("every level of 8 seeds is connected");
}
