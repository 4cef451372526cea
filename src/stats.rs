//! Level metrics for `delve stats`: what a level is made of and how it
//! walks, so people can compare corridor styles and tune a config.
//!
//! Pure functions from levels to numbers and from numbers to text. The
//! generation time is not measured here (the library never reads the
//! clock): the caller times the generator and passes the times in.
//!
//! Distances are orthogonal steps over walkable cells, the connectivity the
//! generator proves. Loops are the level graph's independent cycles (edges -
//! nodes + components); dead ends are its dead-end nodes.

use serde::Serialize;

use crate::generate::verify::distance_map;
use crate::geom::Shape;
use crate::graph::LevelGraph;
use crate::grid_search::Bfs;
use crate::level::{Level, StairDirection, Tile};

/// The metrics of one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelStats {
    /// The level's place in the stack, 1 at the top.
    pub depth: u16,
    /// Rooms of all shapes.
    pub rooms: usize,
    /// Rectangular rooms.
    pub rect_rooms: usize,
    /// Circular rooms.
    pub circle_rooms: usize,
    /// Rooms merged from overlapping placements (`rooms_may_overlap`).
    pub merged_rooms: usize,
    /// Vaults: set pieces from the vaults file.
    pub vault_rooms: usize,
    /// Door cells.
    pub doors: usize,
    /// Corridor cells, dug ones included.
    pub corridor_cells: usize,
    /// Walkable cells over all cells, 0 to 1.
    pub open_share: f64,
    /// Independent cycles of the level graph: edges - nodes + components.
    pub loops: usize,
    /// Dead-end nodes of the level graph.
    pub dead_ends: usize,
    /// Steps from the first up staircase to the first down staircase, if
    /// the level has both.
    pub stair_distance: Option<u32>,
    /// The longest of the shortest walks between two rooms' centres.
    pub longest_room_path: u32,
}

impl LevelStats {
    /// Measures a level: a breadth-first search from each room's centre, so it costs rooms x cells.
    pub fn of(level: &Level) -> LevelStats {
        let graph: &LevelGraph = level.graph();
        let count = |f: fn(&Shape) -> bool| level.rooms().iter().filter(|r| f(&r.shape)).count();
        let tiles = level.tiles();
        let w = usize::from(level.width());
        let mut bfs = Bfs::default();
        let stair = |d: StairDirection| level.stairs_going(d).next().map(|s| level.index(s.pos));
        let stair_distance = match (stair(StairDirection::Up), stair(StairDirection::Down)) {
            (Some(up), Some(down)) => {
                distance_map(w, tiles, up, &mut bfs);
                Some(bfs.dist(down)).filter(|&d| d != Bfs::UNREACHED)
            }
            _ => None,
        };
        let centres: Vec<usize> = (0..level.rooms().len())
            .map(|i| level.index(level.room_cell(i)))
            .collect();
        let mut longest = 0;
        for (i, &from) in centres.iter().enumerate() {
            distance_map(w, tiles, from, &mut bfs);
            for &to in &centres[i + 1..] {
                if bfs.dist(to) != Bfs::UNREACHED {
                    longest = longest.max(bfs.dist(to));
                }
            }
        }
        LevelStats {
            depth: level.depth(),
            rooms: level.rooms().len(),
            rect_rooms: count(|s| matches!(s, Shape::Rect(_))),
            circle_rooms: count(|s| matches!(s, Shape::Circle { .. })),
            merged_rooms: count(|s| matches!(s, Shape::Merged(_))),
            vault_rooms: count(|s| matches!(s, Shape::Vault(_))),
            doors: tiles.iter().filter(|&&t| t == Tile::Door).count(),
            corridor_cells: tiles.iter().filter(|&&t| t == Tile::Corridor).count(),
            open_share: level.open_cells() as f64 / tiles.len() as f64,
            loops: graph.loops(),
            dead_ends: graph.dead_ends(),
            stair_distance,
            longest_room_path: longest,
        }
    }
}

/// Mean, least and greatest of one metric over many levels.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The average.
    pub mean: f64,
    /// The smallest value.
    pub min: f64,
    /// The largest value.
    pub max: f64,
}

impl Spread {
    /// `None` for no values.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Spread> {
        let (mut n, mut sum) = (0usize, 0.0);
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values {
            n += 1;
            sum += v;
            min = min.min(v);
            max = max.max(v);
        }
        (n > 0).then(|| Spread {
            mean: sum / n as f64,
            min,
            max,
        })
    }
}

/// The median of some times, in whole microseconds (0 for none).
pub fn median_us(times_us: &[u64]) -> u64 {
    let mut t = times_us.to_vec();
    t.sort_unstable();
    match t.len() {
        0 => 0,
        n if n % 2 == 1 => t[n / 2],
        n => (t[n / 2 - 1] + t[n / 2]) / 2,
    }
}

/// The metrics `delve stats` reports, in order: key, column heading, unit.
pub const METRICS: [(&str, &str, &str); 13] = [
    ("rooms", "rooms", ""),
    ("rect_rooms", "rect", ""),
    ("circle_rooms", "circle", ""),
    ("merged_rooms", "merged", ""),
    ("vault_rooms", "vaults", ""),
    ("doors", "doors", ""),
    ("corridor_cells", "corridor", "cells"),
    ("open_share", "open", "%"),
    ("loops", "loops", ""),
    ("dead_ends", "dead ends", ""),
    ("stair_distance", "stairs", "steps"),
    ("longest_room_path", "longest", "steps"),
    ("generation_us", "time", "µs"),
];

/// A metric's value for one level (`None` where it does not apply); the
/// open share in percent.
fn value(s: &LevelStats, time_us: u64, key: &str) -> Option<f64> {
    Some(match key {
        "rooms" => s.rooms as f64,
        "rect_rooms" => s.rect_rooms as f64,
        "circle_rooms" => s.circle_rooms as f64,
        "merged_rooms" => s.merged_rooms as f64,
        "vault_rooms" => s.vault_rooms as f64,
        "doors" => s.doors as f64,
        "corridor_cells" => s.corridor_cells as f64,
        "open_share" => s.open_share * 100.0,
        "loops" => s.loops as f64,
        "dead_ends" => s.dead_ends as f64,
        "stair_distance" => f64::from(s.stair_distance?),
        "longest_room_path" => f64::from(s.longest_room_path),
        "generation_us" => time_us as f64,
        _ => return None,
    })
}

/// One row a level, right-aligned under two heading lines (names, then
/// units), narrow enough for an 80-column terminal: the rooms by shape
/// share one column.
pub fn level_table(levels: &[LevelStats], times_us: &[u64]) -> String {
    let columns = [
        ("depth", ""),
        ("rooms", "(r/c/m/v)"),
        ("doors", ""),
        ("corridor", "cells"),
        ("open", "%"),
        ("loops", ""),
        ("dead", "ends"),
        ("stairs", "steps"),
        ("longest", "steps"),
        ("time", "µs"),
    ];
    let mut rows: Vec<Vec<String>> = Vec::with_capacity(levels.len() + 2);
    rows.push(columns.iter().map(|(name, _)| name.to_string()).collect());
    rows.push(columns.iter().map(|(_, unit)| unit.to_string()).collect());
    for (s, &t) in levels.iter().zip(times_us) {
        let number = |key: &str| match value(s, t, key) {
            None => "-".to_string(),
            Some(v) if key == "open_share" => format!("{v:.1}"),
            Some(v) => format!("{v:.0}"),
        };
        rows.push(vec![
            s.depth.to_string(),
            format!(
                "{} ({}/{}/{}/{})",
                s.rooms, s.rect_rooms, s.circle_rooms, s.merged_rooms, s.vault_rooms
            ),
            number("doors"),
            number("corridor_cells"),
            number("open_share"),
            number("loops"),
            number("dead_ends"),
            number("stair_distance"),
            number("longest_room_path"),
            number("generation_us"),
        ]);
    }
    let mut out = align(&rows, false);
    out.push_str(
        "\nrooms: all (rectangles/circles/merged); steps: orthogonal moves; \
         - : no down stairs\n",
    );
    out.push_str(&format!(
        "generation: median {} µs a level over {} level(s)\n",
        median_us(times_us),
        times_us.len()
    ));
    out
}

/// One row a metric: mean, min and max over every level given.
pub fn summary_table(levels: &[LevelStats], times_us: &[u64]) -> String {
    let mut rows = vec![vec![
        "metric".to_string(),
        "mean".into(),
        "min".into(),
        "max".into(),
    ]];
    for (key, h, u) in METRICS {
        let spread = Spread::of(
            levels
                .iter()
                .zip(times_us)
                .filter_map(|(s, &t)| value(s, t, key)),
        );
        let mut row = vec![heading(h, u)];
        match spread {
            Some(sp) => {
                let places = if key == "open_share" { 1 } else { 0 };
                row.push(format!("{:.1}", sp.mean));
                row.push(format!("{:.*}", places, sp.min));
                row.push(format!("{:.*}", places, sp.max));
            }
            None => row.extend(["-".to_string(), "-".into(), "-".into()]),
        }
        rows.push(row);
    }
    let mut out = align(&rows, true);
    out.push_str(&format!(
        "\ngeneration: median {} µs a level over {} level(s)\n",
        median_us(times_us),
        times_us.len()
    ));
    out
}

/// Every level's metrics and the median generation time, as JSON.
pub fn level_json(seed: u64, levels: &[LevelStats], times_us: &[u64]) -> String {
    #[derive(Serialize)]
    struct Row<'a> {
        #[serde(flatten)]
        stats: &'a LevelStats,
        generation_us: u64,
    }
    #[derive(Serialize)]
    struct Doc<'a> {
        seed: u64,
        levels: Vec<Row<'a>>,
        generation_median_us: u64,
    }
    let doc = Doc {
        seed,
        levels: levels
            .iter()
            .zip(times_us)
            .map(|(stats, &generation_us)| Row {
                stats,
                generation_us,
            })
            .collect(),
        generation_median_us: median_us(times_us),
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("plain data always serialises");
    s.push('\n');
    s
}

/// Mean, min and max of every metric over the levels of `samples` stacks
/// from seeds `first_seed` on, as JSON.
pub fn summary_json(
    first_seed: u64,
    samples: u64,
    levels: &[LevelStats],
    times_us: &[u64],
) -> String {
    let metrics: serde_json::Map<String, serde_json::Value> = METRICS
        .iter()
        .map(|&(key, ..)| {
            let spread = Spread::of(
                levels
                    .iter()
                    .zip(times_us)
                    .filter_map(|(s, &t)| value(s, t, key)),
            );
            (
                key.to_string(),
                serde_json::to_value(spread).expect("plain data"),
            )
        })
        .collect();
    let doc = serde_json::json!({
        "first_seed": first_seed,
        "samples": samples,
        "levels": levels.len(),
        "metrics": metrics,
        "generation_median_us": median_us(times_us),
    });
    let mut s = serde_json::to_string_pretty(&doc).expect("plain data always serialises");
    s.push('\n');
    s
}

fn heading(name: &str, unit: &str) -> String {
    if unit.is_empty() {
        name.to_string()
    } else {
        format!("{name} ({unit})")
    }
}

/// Columns padded to their widest cell, two spaces apart, right-aligned
/// (numbers line up by their last digit) except a first column of names.
fn align(rows: &[Vec<String>], names_first: bool) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = width[c] - cell.chars().count();
            if c == 0 && names_first {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else if c == 0 {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
