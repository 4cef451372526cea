//! Measures the Tunnel's room loops over seeds and settings: loops a level
//! (and how many levels have fewer than one for every ten rooms), the
//! longest room-to-room walk, 2x2 blocks of corridor, and generation work.
//! The numbers behind `room_loops`' defaults.
//!
//! `cargo run --release --example room_loops -- [SEEDS] [SETTINGS]`, where
//! SEEDS is a range such as `1-20` (the default) and SETTINGS is a list of
//! `count,ratio,reach` separated by `;`, each optionally with a fourth
//! field, the shortcuts' (`extra_loops`) count: `"0,2,40;10,2,40"`. The
//! default is the shipped setting.

use delve::config::RoomLoopConfig;
use delve::level::{Level, Tile};
use delve::stats::{LevelStats, Spread};
use delve::{Config, Generator};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let seeds: Vec<u64> = match args.next() {
        Some(range) => {
            let (a, b) = range.split_once('-').ok_or("SEEDS is a range: 1-20")?;
            (a.parse()?..=b.parse()?).collect()
        }
        None => (1..=20).collect(),
    };
    let settings: Vec<(RoomLoopConfig, Option<u16>)> = match args.next() {
        Some(list) => list
            .split(';')
            .map(|t| -> Result<_, Box<dyn std::error::Error>> {
                let v: Vec<&str> = t.split(',').collect();
                let field = |i: usize| v.get(i).copied().ok_or("count,ratio,reach[,shortcuts]");
                let loops = RoomLoopConfig {
                    count: field(0)?.parse()?,
                    ratio: field(1)?.parse()?,
                    reach: field(2)?.parse()?,
                };
                Ok((loops, v.get(3).map(|c| c.parse()).transpose()?))
            })
            .collect::<Result<_, _>>()?,
        None => vec![(Config::default().room_loops, None)],
    };
    let mut generator = Generator::default();
    for (setting, shortcuts) in settings {
        let mut config = Config {
            room_loops: setting.clone(),
            ..Config::default()
        };
        if let Some(count) = shortcuts {
            config.extra_loops.count = count;
        }
        let (mut loops, mut longest, mut work, mut slab) = (Vec::new(), Vec::new(), 0, 0);
        let mut below_a_tenth = 0;
        for &seed in &seeds {
            for depth in 1..=config.levels {
                let level = generator.level(&config, delve::vault::shipped(), seed, depth)?;
                work += generator.work_spent();
                let stats = LevelStats::of(&level);
                below_a_tenth += usize::from(stats.loops * 10 < stats.rooms);
                loops.push(stats.loops as f64);
                longest.push(f64::from(stats.longest_room_path));
                slab += slabs(&level);
            }
        }
        let n = loops.len();
        let (Some(loops), Some(longest)) = (Spread::of(loops), Spread::of(longest)) else {
            return Err("no levels".into());
        };
        println!(
            "{setting:?}, shortcuts {}: {n} levels, loops mean {:.1} min {} max {} \
             ({below_a_tenth} below a tenth of the rooms), longest mean {:.1} max {}, \
             slab blocks {slab}, work {:.0} a level",
            config.extra_loops.count,
            loops.mean,
            loops.min,
            loops.max,
            longest.mean,
            longest.max,
            work as f64 / n as f64,
        );
    }
    Ok(())
}

/// Top-left corners of 2x2 blocks of corridor and door cells.
fn slabs(level: &Level) -> usize {
    let w = usize::from(level.width());
    let t = level.tiles();
    let open = |c: usize| matches!(t[c], Tile::Corridor | Tile::Door);
    (0..t.len() - w - 1)
        .filter(|&c| c % w + 1 < w && open(c) && open(c + 1) && open(c + w) && open(c + w + 1))
        .count()
}
