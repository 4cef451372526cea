//! Generates many default levels on one warm generator: a steady workload
//! for `perf record` or valgrind's callgrind when looking for where the
//! generator spends its time (see docs/performance.md).
//!
//! `cargo run --release --example profile_levels -- [LEVELS] [STYLE]`, where
//! STYLE is tunnel (the default config), plain (the default without
//! vaults and loops), grid, deadend, straight, small (80x21) or big
//! (1000x1000 with rooms scaled to its area), or the path of a config
//! file (`.ron`), each level made at depth 1 as the file says.

use delve::config::CorridorStyle;
use delve::{Config, Generator};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let levels: u64 = args.next().map(|a| a.parse()).transpose()?.unwrap_or(200);
    let style = args.next().unwrap_or_else(|| "tunnel".to_string());
    let config = match style.as_str() {
        "tunnel" => Config::default(),
        // The default level as it was before loops and vaults.
        "plain" => Config {
            vaults: delve::config::VaultConfig::NONE,
            room_loops: delve::config::RoomLoopConfig::NONE,
            extra_loops: delve::config::LoopConfig::NONE,
            ..Config::default()
        },
        "grid" => Config {
            corridors: CorridorStyle::Grid,
            ..Config::default()
        },
        "deadend" => Config {
            corridors: CorridorStyle::DeadEnd,
            ..Config::default()
        },
        "straight" => Config {
            corridors: CorridorStyle::Straight,
            ..Config::default()
        },
        "small" => Config {
            width: 80,
            height: 21,
            levels: 1,
            ..Config::default()
        },
        // 1000x1000, rooms scaled to its area (44 times the cells of
        // 150x150): how each stage scales.
        "big" => Config {
            width: 1000,
            height: 1000,
            levels: 1,
            rooms: delve::config::RoomConfig {
                count: delve::config::Range::new(222, 1778),
                ..Config::default().rooms
            },
            ..Config::default()
        },
        path if path.ends_with(".ron") => delve::Config::load(std::path::Path::new(path))?,
        other => return Err(format!("unknown style {other}").into()),
    };
    config.validate()?;
    let mut generator = Generator::default();
    let vaults = if style == "plain" {
        &[]
    } else {
        delve::vault::shipped()
    };
    // With DELVE_FINGERPRINT set, a hash of every level's text and
    // hardness: the same number before and after a change means the same
    // levels (and on standard error, the work they spent).
    let fingerprint = std::env::var_os("DELVE_FINGERPRINT").is_some();
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut rooms = 0;
    let mut work = 0u64;
    for seed in 1..=levels {
        let level = generator.level(&config, vaults, seed, 1)?;
        rooms += level.rooms().len();
        work += generator.work_spent();
        if fingerprint {
            let text = delve::export::ascii(&level);
            let graph = format!("{:?}", level.graph().graph());
            for &b in text
                .as_bytes()
                .iter()
                .chain(level.hardness_grid())
                .chain(graph.as_bytes())
            {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    if fingerprint {
        println!("{levels} levels, {rooms} rooms, fingerprint {hash:016x}");
        // The work the levels spent from their budgets, apart from the
        // fingerprint: a change that keeps the levels should keep it too.
        eprintln!("work {work}");
    } else {
        println!("{levels} levels, {rooms} rooms");
    }
    Ok(())
}
