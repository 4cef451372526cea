//! How often a corridor style throws attempts away: generates one level a
//! seed and counts the attempts each needed, by how many vaults the level
//! got, and the most work a level took. The failure rate behind a style's
//! speed, which the work budget and `generation_retries` must allow for
//! (docs/generation.md).
//!
//! `cargo run --release --example rejected_attempts -- STYLE [FIRST_SEED]
//! [SEEDS] [DEPTH] [REVISION] [VAULTS_MIN] [VAULTS_MAX]`, STYLE one of
//! tunnel, grid, deadend, straight (the default config in that style),
//! shipped (the shipped config, whose depth decides the style) or the path
//! of a config file (`.ron`); by default seeds 1000 to 1199 at depth 1 of
//! the config's generator revision, with the config's vault count.

use delve::config::{CorridorStyle, Range};
use delve::{Config, Generator, Shape};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).map(|a| a.parse::<u64>()).transpose();
    let mut config = match args.first().map(String::as_str).unwrap_or("grid") {
        "shipped" => Config::shipped(),
        path if path.ends_with(".ron") => Config::load(std::path::Path::new(path))?,
        name => {
            let style = match name {
                "tunnel" => CorridorStyle::Tunnel,
                "grid" => CorridorStyle::Grid,
                "deadend" => CorridorStyle::DeadEnd,
                "straight" => CorridorStyle::Straight,
                other => return Err(format!("unknown style {other:?}").into()),
            };
            Config {
                corridors: style,
                ..Config::default()
            }
        }
    };
    let first = arg(1)?.unwrap_or(1000);
    let seeds = arg(2)?.unwrap_or(200);
    let depth = arg(3)?.unwrap_or(1) as u16;
    if let Some(revision) = arg(4)? {
        config.revisions.generator = revision as u16;
    }
    if let (Some(min), Some(max)) = (arg(5)?, arg(6)?) {
        config.vaults.count = Range::new(min as u16, max as u16);
    }
    let mut generator = Generator::default();
    // By vaults on the level (0, 1, 2, more): levels, attempts thrown away,
    // levels with any thrown away, the most on one level.
    let mut rows = [(0u64, 0u64, 0u64, 0u32); 4];
    let mut failed = 0;
    // The most work a level took, as a share of its budget.
    let budget = delve::generate::budget::total_for(config.width, config.height);
    let mut most_work = 0u64;
    for seed in first..first + seeds {
        let level = match generator.level(&config, delve::vault::shipped(), seed, depth) {
            Ok(level) => level,
            Err(e) => {
                println!("seed {seed}: {e}");
                failed += 1;
                continue;
            }
        };
        most_work = most_work.max(generator.work_spent());
        let vaults = level
            .rooms()
            .iter()
            .filter(|r| matches!(r.shape, Shape::Vault(_)))
            .count();
        let row = &mut rows[vaults.min(3)];
        let rejected = level.rejected_attempts();
        row.0 += 1;
        row.1 += u64::from(rejected);
        row.2 += u64::from(rejected > 0);
        row.3 = row.3.max(rejected);
    }
    println!(
        "{:?} at depth {depth}, generator revision {}, seeds {first} to {}",
        config.at_depth(depth).corridors,
        config.revisions.generator,
        first + seeds - 1
    );
    println!("vaults  levels  thrown away  a level  levels with any  most");
    let mut all = (0u64, 0u64, 0u64, 0u32);
    for (vaults, &(levels, rejected, with_any, most)) in rows.iter().enumerate() {
        if levels == 0 {
            continue;
        }
        all = (
            all.0 + levels,
            all.1 + rejected,
            all.2 + with_any,
            all.3.max(most),
        );
        let label = if vaults == 3 {
            "3+".to_string()
        } else {
            vaults.to_string()
        };
        println!(
            "{label:>6}  {levels:>6}  {rejected:>11}  {:>7.2}  {with_any:>15}  {most:>4}",
            rejected as f64 / levels as f64
        );
    }
    println!(
        "   all  {:>6}  {:>11}  {:>7.2}  {:>15}  {:>4}",
        all.0,
        all.1,
        all.1 as f64 / all.0.max(1) as f64,
        all.2,
        all.3
    );
    println!(
        "most work a level took: {:.2}% of its budget",
        most_work as f64 * 100.0 / budget as f64
    );
    if failed > 0 {
        println!("{failed} level(s) could not be made");
    }
    Ok(())
}
