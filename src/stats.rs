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

use crate::config::{CorridorStyle, LevelKind};
use crate::geom::Shape;
use crate::graph::LevelGraph;
use crate::grid_search::Bfs;
use crate::level::{Level, StairDirection, Tile};

/// The metrics of one level.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelStats {
    /// The level's place in the stack, 1 at the top.
    pub depth: u16,
    /// The corridor style the level was made with, which profiles may vary
    /// by depth; `None` when not known (a level is measured from its cells
    /// alone; [`LevelStats::with_style`] adds it).
    pub style: Option<CorridorStyle>,
    /// The kind of level: rooms (in `style`), cave or labyrinth
    /// ([`LevelStats::with_kind`] sets it; rooms until then).
    pub kind: LevelKind,
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
    /// Door cells, secret ones included.
    pub doors: usize,
    /// Secret doors among them (`secret_doors` in the config, rules 3).
    pub secret_doors: usize,
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
                bfs.distance_map(w, tiles.len(), up, |n| tiles[n].is_walkable());
                Some(bfs.dist(down)).filter(|&d| d != Bfs::UNREACHED)
            }
            _ => None,
        };
        let centres: Vec<usize> = (0..level.rooms().len())
            .map(|i| level.index(level.room_cell(i)))
            .collect();
        let mut longest = 0;
        for (i, &from) in centres.iter().enumerate() {
            bfs.distance_map(w, tiles.len(), from, |n| tiles[n].is_walkable());
            for &to in &centres[i + 1..] {
                if bfs.dist(to) != Bfs::UNREACHED {
                    longest = longest.max(bfs.dist(to));
                }
            }
        }
        LevelStats {
            depth: level.depth(),
            style: None,
            kind: LevelKind::Rooms,
            rooms: level.rooms().len(),
            rect_rooms: count(|s| matches!(s, Shape::Rect(_))),
            circle_rooms: count(|s| matches!(s, Shape::Circle { .. })),
            merged_rooms: count(|s| matches!(s, Shape::Merged(_))),
            vault_rooms: count(|s| matches!(s, Shape::Vault(_))),
            doors: tiles.iter().filter(|t| t.is_door()).count(),
            secret_doors: tiles.iter().filter(|&&t| t == Tile::SecretDoor).count(),
            corridor_cells: tiles.iter().filter(|&&t| t == Tile::Corridor).count(),
            open_share: level.open_cells() as f64 / tiles.len() as f64,
            loops: graph.loops(),
            dead_ends: graph.dead_ends(),
            stair_distance,
            longest_room_path: longest,
        }
    }

    /// The metrics with the corridor style the level was made with.
    pub fn with_style(self, style: CorridorStyle) -> LevelStats {
        LevelStats {
            style: Some(style),
            ..self
        }
    }
}

impl LevelStats {
    /// The metrics with the kind of level it was made as.
    pub fn with_kind(self, kind: LevelKind) -> LevelStats {
        LevelStats { kind, ..self }
    }

    /// How tables group and name the level: its kind, or for rooms and
    /// corridors its corridor style.
    fn layout(&self) -> (LevelKind, Option<CorridorStyle>) {
        match self.kind {
            LevelKind::Rooms => (LevelKind::Rooms, self.style),
            kind => (kind, None),
        }
    }
}

/// How tables name a layout: a kind other than rooms by its name, rooms
/// by the corridor style as the config writes it, `-` if unknown.
fn layout_name((kind, style): (LevelKind, Option<CorridorStyle>)) -> String {
    if kind != LevelKind::Rooms {
        return kind.name().to_string();
    }
    style_name(style)
}

/// How tables name a style: as the config writes it, `-` if unknown.
fn style_name(style: Option<CorridorStyle>) -> String {
    style.map_or_else(|| "-".to_string(), |s| s.name().to_string())
}

/// The styles among `levels`, in order of first appearance, each with the
/// indices of its levels.
type Layout = (LevelKind, Option<CorridorStyle>);

fn by_style(levels: &[LevelStats]) -> Vec<(Layout, Vec<usize>)> {
    let mut groups: Vec<(Layout, Vec<usize>)> = Vec::new();
    for (i, s) in levels.iter().enumerate() {
        match groups.iter_mut().find(|g| g.0 == s.layout()) {
            Some(g) => g.1.push(i),
            None => groups.push((s.layout(), vec![i])),
        }
    }
    groups
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
pub const METRICS: [(&str, &str, &str); 14] = [
    ("rooms", "rooms", ""),
    ("rect_rooms", "rect", ""),
    ("circle_rooms", "circle", ""),
    ("merged_rooms", "merged", ""),
    ("vault_rooms", "vaults", ""),
    ("doors", "doors", ""),
    ("secret_doors", "secret doors", ""),
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
        "secret_doors" => s.secret_doors as f64,
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
/// units): the rooms by shape share one column, so that with the style of
/// each level it stays under 90 columns.
pub fn level_table(levels: &[LevelStats], times_us: &[u64]) -> String {
    let columns = [
        ("depth", ""),
        ("style", ""),
        ("rooms", "(r/c/m/v)"),
        ("doors", "(hid)"),
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
            layout_name(s.layout()),
            format!(
                "{} ({}/{}/{}/{})",
                s.rooms, s.rect_rooms, s.circle_rooms, s.merged_rooms, s.vault_rooms
            ),
            format!("{}({})", number("doors"), number("secret_doors")),
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
        "\nrooms: all (rectangles/circles/merged/vaults); doors: all (hidden: secret ones);\n\
         steps: orthogonal moves; - : no down stairs\n",
    );
    out.push_str(&format!(
        "generation: median {} µs a level over {} level(s)\n",
        median_us(times_us),
        times_us.len()
    ));
    out
}

/// The spread of one metric over some of the levels (`None`: all).
fn spread_of(
    levels: &[LevelStats],
    times_us: &[u64],
    only: Option<&[usize]>,
    key: &str,
) -> Option<Spread> {
    let value_at = |i: usize| value(&levels[i], *times_us.get(i)?, key);
    match only {
        Some(indices) => Spread::of(indices.iter().filter_map(|&i| value_at(i))),
        None => Spread::of((0..levels.len()).filter_map(value_at)),
    }
}

/// One row a metric: mean, min and max over every level given; when the
/// levels have more than one corridor style (profiles), also the mean over
/// each style's levels.
pub fn summary_table(levels: &[LevelStats], times_us: &[u64]) -> String {
    let styles = by_style(levels);
    let split = styles.len() > 1;
    let mut head = vec![
        "metric".to_string(),
        "mean".into(),
        "min".into(),
        "max".into(),
    ];
    if split {
        head.extend(styles.iter().map(|(layout, _)| layout_name(*layout)));
    }
    let mut rows = vec![head];
    for (key, h, u) in METRICS {
        let mut row = vec![heading(h, u)];
        match spread_of(levels, times_us, None, key) {
            Some(sp) => {
                let places = if key == "open_share" { 1 } else { 0 };
                row.push(format!("{:.1}", sp.mean));
                row.push(format!("{:.*}", places, sp.min));
                row.push(format!("{:.*}", places, sp.max));
            }
            None => row.extend(["-".to_string(), "-".into(), "-".into()]),
        }
        if split {
            for (_, indices) in &styles {
                row.push(match spread_of(levels, times_us, Some(indices), key) {
                    Some(sp) => format!("{:.1}", sp.mean),
                    None => "-".into(),
                });
            }
        }
        rows.push(row);
    }
    let mut out = align(&rows, true);
    if split {
        let counts: Vec<String> = styles
            .iter()
            .map(|(layout, indices)| format!("{} {}", layout_name(*layout), indices.len()))
            .collect();
        out.push_str(&format!(
            "\nby style, the mean over its levels ({})\n",
            counts.join(", ")
        ));
    }
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
    let metrics = |only: Option<&[usize]>| -> serde_json::Map<String, serde_json::Value> {
        METRICS
            .iter()
            .map(|&(key, ..)| {
                let spread = spread_of(levels, times_us, only, key);
                (
                    key.to_string(),
                    serde_json::to_value(spread).expect("plain data"),
                )
            })
            .collect()
    };
    let styles: Vec<serde_json::Value> = by_style(levels)
        .into_iter()
        .map(|((kind, style), indices)| {
            // A kind other than rooms is named as the kind; rooms by
            // their style, as before kinds.
            let style = match kind {
                LevelKind::Rooms => serde_json::json!(style),
                kind => serde_json::json!(kind.name()),
            };
            serde_json::json!({
                "style": style,
                "levels": indices.len(),
                "metrics": metrics(Some(&indices)),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "first_seed": first_seed,
        "samples": samples,
        "levels": levels.len(),
        "metrics": metrics(None),
        "styles": styles,
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
