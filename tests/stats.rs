//! `delve stats`: metrics of a hand-built level whose answers are known,
//! and the command's table and JSON.

use delve::Level;
use delve::stats::{self, LevelStats, Spread, median_us};

use crate::common::{delve, ok, readme_example, rect_room};

/// Two rooms joined by two corridors (one loop), with a spur off the lower
/// corridor ending in a dead end; up stairs in the left room, down stairs
/// in the right one.
fn known() -> Level {
    two_rooms(2, " <..+###+..> ")
}

/// `known` at `depth`, its top row (the upper corridor's) as given.
fn two_rooms(depth: u16, top_row: &str) -> Level {
    Level::from_rows(
        depth,
        &[
            "             ",
            top_row,
            " ...     ... ",
            " ...+###+... ",
            "      #      ",
            "      #      ",
            "             ",
        ],
        vec![rect_room(1, 1, 3, 3), rect_room(9, 1, 3, 3)],
    )
}

#[test]
fn a_known_level_measures_as_counted_by_hand() {
    let s = LevelStats::of(&known());
    assert_eq!(s.depth, 2);
    assert_eq!(
        (s.rooms, s.rect_rooms, s.circle_rooms, s.merged_rooms),
        (2, 2, 0, 0)
    );
    assert_eq!(s.doors, 4);
    assert_eq!(s.corridor_cells, 8);
    assert_eq!(s.loops, 1);
    assert_eq!(s.dead_ends, 1);
    // Along the top row from x=1 to x=11.
    assert_eq!(s.stair_distance, Some(10));
    // Centre (2,2) to centre (10,2): up a row, 8 across, down a row.
    assert_eq!(s.longest_room_path, 10);
    assert!(
        (s.open_share - 30.0 / 91.0).abs() < 1e-12,
        "{}",
        s.open_share
    );
}

#[test]
fn cutting_the_loop_leaves_a_tree_and_a_longer_walk() {
    // The top corridor gone: no loop, two dead ends, and the stairs are
    // reached round through the bottom corridor.
    let level = two_rooms(1, " <..+#  +..> ");
    let s = LevelStats::of(&level);
    assert_eq!(s.loops, 0);
    assert_eq!(s.dead_ends, 2);
    // (1,1) down to (3,3), across to (9,3), up to (11,1): 2+2+6+2+2 = 14.
    assert_eq!(s.stair_distance, Some(14));
}

#[test]
fn spreads_and_medians() {
    let s = Spread::of([3.0, 1.0, 2.0]).unwrap();
    assert_eq!((s.mean, s.min, s.max), (2.0, 1.0, 3.0));
    assert!(Spread::of(std::iter::empty()).is_none());
    assert_eq!(median_us(&[5, 1, 9]), 5);
    assert_eq!(median_us(&[4, 1, 9, 2]), 3);
    assert_eq!(median_us(&[]), 0);
}

#[test]
fn tables_are_aligned_and_carry_units() {
    let s = LevelStats::of(&known());
    let t = stats::level_table(&[s.clone(), s], &[120, 80]);
    let lines: Vec<&str> = t.lines().collect();
    assert!(
        lines[0].contains("open") && lines[0].ends_with("time"),
        "{t}"
    );
    assert!(lines[1].contains("%") && lines[1].ends_with("µs"), "{t}");
    // Every row of the table ends at the same column, within 90.
    let width = lines[0].chars().count();
    assert!(width <= 90, "{t}");
    assert!(
        lines[1..4].iter().all(|l| l.chars().count() == width),
        "{t}"
    );
    assert!(lines[2].ends_with("  120"), "{t}");
    assert!(t.contains("median 100 µs a level over 2 level(s)"), "{t}");
}

#[test]
fn stats_command_table_and_json() {
    let out = delve(&["stats", "--seed", "4", "--levels", "2"]);
    ok(&out);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("depth") && lines[0].contains("loops"),
        "{text}"
    );
    assert!(lines[2].trim_start().starts_with("1 "), "{text}");
    assert!(lines[3].trim_start().starts_with("2 "), "{text}");
    // Depth 2 is the last: no down stairs, so no stair distance.
    assert!(lines[3].contains(" - "), "{text}");
    // The style of each level, as the shipped progression has it.
    let heads: Vec<&str> = lines[0].split_whitespace().take(3).collect();
    assert_eq!(heads, ["depth", "style", "rooms"], "{text}");
    assert!(lines[2].contains("  Tunnel  "), "{text}");

    let out = delve(&["stats", "--seed", "4", "--levels", "2", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let levels = doc["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 2);
    assert!(levels[0]["stair_distance"].as_u64().unwrap() > 0);
    assert!(levels[1]["stair_distance"].is_null());
    assert_eq!(levels[0]["style"], "Tunnel");
    assert!(levels[0]["rooms"].as_u64().unwrap() >= 5);
    assert!(doc["generation_median_us"].is_u64());

    let out = delve(&[
        "stats",
        "--seed",
        "4",
        "--levels",
        "2",
        "--samples",
        "3",
        "--format",
        "json",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (doc["samples"].as_u64(), doc["levels"].as_u64()),
        (Some(3), Some(6))
    );
    let rooms = &doc["metrics"]["rooms"];
    assert!(rooms["min"].as_f64() <= rooms["mean"].as_f64());
    assert!(rooms["mean"].as_f64() <= rooms["max"].as_f64());
    assert_eq!(doc["styles"][0]["style"], "Tunnel");
    assert_eq!(doc["styles"][0]["levels"], 6);

    let out = delve(&["stats", "--samples", "0"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stats_are_deterministic_but_for_the_time() {
    let run = || {
        let out = delve(&["stats", "--seed", "9", "--levels", "2", "--format", "json"]);
        let mut doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        for l in doc["levels"].as_array_mut().unwrap() {
            l.as_object_mut().unwrap().remove("generation_us");
        }
        doc.as_object_mut().unwrap().remove("generation_median_us");
        doc
    };
    assert_eq!(run(), run());
}

#[test]
fn readme_stats_example_is_real_output_but_for_the_times() {
    let block = readme_example("delve stats --seed 1");
    let out = delve(&["stats", "--seed", "1"]);
    let text = String::from_utf8(out.stdout).unwrap();
    // Every line but the timings: the table without its last column, and
    // no generation line.
    let strip = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with("generation:"))
            .map(|l| match l.rfind("  ") {
                Some(i) if !l.trim().is_empty() => l[..i].trim_end().to_string(),
                _ => l.to_string(),
            })
            .collect()
    };
    assert_eq!(strip(&text), strip(&block));
}

/// Profiles vary the corridor style by depth: each level's row names its
/// style, and a summary over several styles gives each style's means.
#[test]
fn stats_name_each_levels_style_and_sum_up_each_style() {
    let dir = crate::common::TempDir::new("stats-styles");
    let config = dir.file(
        "styles.ron",
        "(width: 60, height: 30, levels: 3, profiles: [(depths: (min: 2, max: 2), corridors: Grid), \
         (depths: (min: 3), corridors: DeadEnd)])",
    );
    let stats = |more: &[&str]| {
        let mut args = vec!["stats", "--seed", "2", "--config", &config];
        args.extend(more);
        let out = delve(&args);
        ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    let text = stats(&[]);
    let styles: Vec<&str> = text
        .lines()
        .skip(2)
        .take(3)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(styles, ["Tunnel", "Grid", "DeadEnd"], "{text}");

    let text = stats(&["--samples", "2"]);
    let head = text.lines().find(|l| l.starts_with("metric")).unwrap();
    let heads: Vec<&str> = head.split_whitespace().collect();
    assert_eq!(
        heads,
        ["metric", "mean", "min", "max", "Tunnel", "Grid", "DeadEnd"],
        "{text}"
    );
    assert!(
        text.contains("by style, the mean over its levels (Tunnel 2, Grid 2, DeadEnd 2)"),
        "{text}"
    );
    // The name, mean, min and max, then a mean for each of the styles.
    let rooms_row = text.lines().find(|l| l.starts_with("rooms ")).unwrap();
    assert_eq!(rooms_row.split_whitespace().count(), 7, "{text}");

    let json = stats(&["--samples", "2", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let styles = doc["styles"].as_array().unwrap();
    let names: Vec<&str> = styles
        .iter()
        .map(|s| s["style"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Tunnel", "Grid", "DeadEnd"]);
    let rooms_of = |s: &serde_json::Value| s["metrics"]["rooms"]["mean"].as_f64().unwrap();
    let mean = styles.iter().map(rooms_of).sum::<f64>() / 3.0;
    assert!((mean - doc["metrics"]["rooms"]["mean"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn a_level_measured_alone_has_no_style_until_given_one() {
    let s = LevelStats::of(&known());
    assert_eq!(s.style, None);
    let t = stats::level_table(std::slice::from_ref(&s), &[5]);
    let row: Vec<&str> = t
        .lines()
        .nth(2)
        .unwrap()
        .split_whitespace()
        .take(2)
        .collect();
    assert_eq!(row, ["2", "-"], "{t}");
    let s = s.with_style(delve::config::CorridorStyle::Grid);
    let json = stats::level_json(1, &[s], &[5]);
    assert!(json.contains("\"style\": \"Grid\""), "{json}");
}
