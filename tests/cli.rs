//! The `delve` binary: formats, determinism, errors and exit codes.

use crate::common::{
    TempDir, assert_contains, damage, delve, ok, readme, readme_example, refused, stderr, stdout,
};

#[test]
fn ascii_has_exact_shape() {
    let dir = TempDir::new("ascii");
    let cfg = dir.file("small.ron", "(width: 80, height: 21, levels: 3)");
    let out = delve(&["generate", "--seed", "42", "--config", &cfg]);
    ok(&out);
    let text = stdout(&out);
    let lines: Vec<&str> = text.split('\n').collect();
    // 3 levels of (header + 21 rows + blank), then the final newline's empty tail.
    assert_eq!(lines.len(), 3 * 23 + 1);
    for level in 0..3 {
        let block = &lines[level * 23..(level + 1) * 23];
        assert_eq!(block[0], format!("level {}", level + 1));
        for row in &block[1..22] {
            assert_eq!(row.chars().count(), 80, "row {row:?}");
            assert!(row.chars().all(|c| " .#+<>".contains(c)), "row {row:?}");
        }
        assert_eq!(block[22], "");
    }
    assert!(text.contains('<') && text.contains('>') && text.contains('+'));
}

#[test]
fn same_seed_same_bytes() {
    let a = delve(&["generate", "--seed", "7", "--levels", "3"]);
    let b = delve(&["generate", "--seed", "7", "--levels", "3"]);
    ok(&a);
    assert_eq!(a.stdout, b.stdout);
    let c = delve(&["generate", "--seed", "8", "--levels", "3"]);
    assert_ne!(a.stdout, c.stdout);
}

#[test]
fn random_seed_is_printed_and_reproduces() {
    let dir = TempDir::new("seed");
    let cfg = dir.file("small.ron", "(width: 40, height: 20, levels: 2)");
    let out = delve(&["generate", "--config", &cfg]);
    ok(&out);
    let err = stderr(&out);
    // After the note that the config has no profiles.
    let seed = err
        .lines()
        .find_map(|l| l.strip_prefix("seed: "))
        .expect("seed: N on stderr");
    let again = delve(&["generate", "--config", &cfg, "--seed", seed]);
    assert_eq!(out.stdout, again.stdout);
}

#[test]
fn one_depth_matches_the_full_stack() {
    let full = stdout(&delve(&["generate", "--seed", "3", "--levels", "4"]));
    let one = stdout(&delve(&[
        "generate", "--seed", "3", "--levels", "4", "--depth", "3",
    ]));
    assert!(full.contains(&one));
    assert!(one.starts_with("level 3\n"));
}

#[test]
fn json_document() {
    let dir = TempDir::new("json");
    let cfg = dir.file("small.ron", "(width: 60, height: 20, levels: 3)");
    let out = delve(&[
        "generate", "--seed", "5", "--config", &cfg, "--format", "json",
    ]);
    ok(&out);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["seed"], 5);
    assert_eq!(
        (doc["width"].as_u64(), doc["height"].as_u64()),
        (Some(60), Some(20))
    );
    let levels = doc["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 3);
    for (i, level) in levels.iter().enumerate() {
        assert_eq!(level["depth"], i + 1);
        let rows = level["rows"].as_array().unwrap();
        assert_eq!(rows.len(), 20);
        assert!(
            rows.iter()
                .all(|r| r.as_str().unwrap().chars().count() == 60)
        );
        for room in level["rooms"].as_array().unwrap() {
            let shape = room["shape"].as_str().unwrap();
            assert!(["rect", "circle", "vault"].contains(&shape), "{shape}");
            assert_eq!(room["vault"].is_string(), shape == "vault");
            for key in ["id", "x", "y", "width", "height"] {
                assert!(room[key].is_u64(), "{key}");
            }
            for door in room["doors"].as_array().unwrap() {
                let (x, y) = (
                    door[0].as_u64().unwrap() as usize,
                    door[1].as_u64().unwrap() as usize,
                );
                assert_eq!(rows[y].as_str().unwrap().as_bytes()[x], b'+');
            }
        }
        for s in level["stairs"].as_array().unwrap() {
            let (x, y) = (
                s["x"].as_u64().unwrap() as usize,
                s["y"].as_u64().unwrap() as usize,
            );
            let glyph = rows[y].as_str().unwrap().as_bytes()[x];
            match s["direction"].as_str().unwrap() {
                "up" => assert_eq!(glyph, b'<'),
                "down" => assert_eq!(glyph, b'>'),
                other => panic!("direction {other}"),
            }
            if s["to"].is_null() {
                assert_eq!(
                    (i, s["direction"].as_str()),
                    (0, Some("up")),
                    "only depth 1's exit leads nowhere"
                );
            } else {
                let to = &s["to"];
                let to_level = &levels[to["depth"].as_u64().unwrap() as usize - 1];
                let back = to_level["stairs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|t| t["x"] == to["x"] && t["y"] == to["y"])
                    .expect("destination is a staircase");
                assert_eq!(back["to"]["depth"], i + 1);
                assert_eq!((&back["to"]["x"], &back["to"]["y"]), (&s["x"], &s["y"]));
            }
        }
    }
}

#[test]
fn out_writes_a_file() {
    let dir = TempDir::new("out");
    let path = dir.join("level.txt").display().to_string();
    let out = delve(&["generate", "--seed", "1", "--levels", "1", "--out", &path]);
    ok(&out);
    assert!(out.stdout.is_empty());
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("level 1\n")
    );
}

#[test]
fn unknown_field_exits_2_with_location() {
    let dir = TempDir::new("unknown");
    let cfg = dir.file(
        "mine.ron",
        "(\n  width: 80,\n  rooms: (\n    max_rom: 3,\n  ),\n)\n",
    );
    let err = refused(&delve(&["generate", "--seed", "1", "--config", &cfg]));
    assert!(
        err.contains(&format!(
            "{cfg}:4:5: rooms.max_rom: unknown field \"max_rom\", expected one of"
        )),
        "{err}"
    );
}

#[test]
fn invalid_values_exit_2() {
    let dir = TempDir::new("invalid");
    for (text, field) in [
        ("(width: 10)", "width"),
        ("(height: 5000)", "height"),
        ("(levels: 0)", "levels"),
        ("(rooms: (circle_share: NaN))", "rooms.circle_share"),
        ("(rooms: (width: (min: 9, max: 4)))", "rooms.width"),
        (
            "(width: 30, height: 15, rooms: (count: (min: 90, max: 90)))",
            "rooms.count.min",
        ),
        ("(levels: -3)", "levels"),
        ("(grid_spacing: 1)", "grid_spacing"),
        ("(extra_loops: (ratio: 0.5))", "extra_loops.ratio"),
        ("(corridors: Maze)", "corridors"),
        ("(width: 80", ""),
        ("not ron at all", ""),
    ] {
        let cfg = dir.file("bad.ron", text);
        let err = refused(&delve(&["generate", "--seed", "1", "--config", &cfg]));
        assert!(err.starts_with(&format!("delve: {cfg}:")), "{text}: {err}");
        assert!(err.contains(field), "{text}: {err}");
        assert!(!err.contains("panicked"), "{text}: {err}");
    }
}

/// A bad field inside a profile, or a bad band, is refused like any bad
/// config value: exit 2, nothing on standard output, and the file, line
/// and column of the entry's field, with the band it breaks.
#[test]
fn a_bad_profile_exits_2_naming_the_entry_and_band() {
    let dir = TempDir::new("bad-profile");
    let cfg = dir.file(
        "mine.ron",
        "(\n  profiles: [\n    (depths: (min: 1, max: 3), corridors: Grid),\n    \
         (depths: (min: 4, max: 6), grid_spacing: 99),\n  ],\n)\n",
    );
    let err = refused(&delve(&["generate", "--seed", "1", "--config", &cfg]));
    assert!(
        err.starts_with(&format!(
            "delve: {cfg}:4:32: profiles[1].grid_spacing: at depths 4-6: must be from 3 to 64 \
             cells, got 99"
        )),
        "{err}"
    );
    let cfg = dir.file("band.ron", "(profiles: [(depths: (min: 0, max: 2))])");
    let err = refused(&delve(&["stats", "--seed", "1", "--config", &cfg]));
    assert!(
        err.starts_with(&format!(
            "delve: {cfg}:1:23: profiles[0].depths.min: must be at least 1"
        )),
        "{err}"
    );
}

/// Without `--config`, delve uses the shipped data/default.ron, profiles
/// and all; a file of its own that leaves `profiles` out has none.
#[test]
fn the_shipped_progression_is_the_default_and_a_file_without_it_has_none() {
    let dir = TempDir::new("progression");
    let plain = dir.file("plain.ron", "()");
    let shipped = delve(&["generate", "--seed", "5", "--depth", "5"]);
    let own = delve(&[
        "generate", "--seed", "5", "--depth", "5", "--config", &plain,
    ]);
    ok(&shipped);
    ok(&own);
    assert_ne!(shipped.stdout, own.stdout);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.ron");
    let file = delve(&["generate", "--seed", "5", "--depth", "5", "--config", path]);
    assert_eq!(shipped.stdout, file.stdout);
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["generate", "--depth", "0"],
        vec!["generate", "--depth", "11"],
        vec!["generate", "--levels", "0"],
        vec!["generate", "--format", "xml"],
        vec!["generate", "--seed", "-1"],
        vec!["generate", "--config", "/no/such/file.ron"],
        vec!["frobnicate"],
    ] {
        let out = delve(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
}

/// A count of zero (or of more than delve can hold) is refused by the
/// argument parser, with its usual message and the range allowed, before
/// anything runs: `--runs 0` used to print an empty summary and exit 0,
/// and `--runs` in the trillions to abort on an allocation.
#[test]
fn counts_out_of_range_are_bad_usage() {
    for (args, want) in [
        (
            vec!["simulate", "--seed", "1", "--runs", "0"],
            "'0' for '--runs <N>': 0 is not in 1..=1000000",
        ),
        (
            vec![
                "simulate",
                "--seed",
                "1",
                "--runs",
                "100000000000000",
                "--turns",
                "0",
            ],
            "is not in 1..=1000000",
        ),
        (
            vec!["simulate", "--seed", "1", "--runs", "1", "--jobs", "0"],
            "'0' for '--jobs <J>': 0 is not in 1..=1024",
        ),
        (vec!["stats", "--samples", "0"], "0 is not in 1..=100000"),
        (
            vec!["stats", "--levels", "0"],
            "'0' for '--levels <N>': 0 is not in 1..=1000",
        ),
        (vec!["generate", "--levels", "0"], "0 is not in 1..=1000"),
        (
            vec!["generate", "--levels", "70000"],
            "70000 is not in 1..=1000",
        ),
    ] {
        let out = delve(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(want), "{args:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // Zero turns is a load that plays nothing, and one run is a batch.
    let out = delve(&[
        "simulate", "--seed", "1", "--runs", "1", "--turns", "0", "--jobs", "1",
    ]);
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stdout).contains("runs: 1"));
}

#[test]
fn unwritable_output_exits_1() {
    let out = delve(&[
        "generate",
        "--seed",
        "1",
        "--levels",
        "1",
        "--out",
        "/no/such/dir/level.txt",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("/no/such/dir/level.txt"));
}

#[test]
fn data_default_ron_is_the_default() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.ron");
    let a = delve(&[
        "generate", "--seed", "11", "--levels", "2", "--config", path,
    ]);
    let b = delve(&["generate", "--seed", "11", "--levels", "2"]);
    ok(&a);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn readme_excerpt_is_real_output() {
    // The README's 80x21 example must stay what delve prints.
    let readme = readme();
    let start = readme
        .find("$ delve generate --seed 42 --config small.ron")
        .expect("example in README");
    let block: Vec<&str> = readme[start..]
        .lines()
        .skip(3)
        .take_while(|l| *l != "...")
        .collect();
    assert!(block.len() >= 5, "excerpt too short: {block:?}");
    let dir = TempDir::new("readme");
    let cfg = dir.file("small.ron", "(width: 80, height: 21, levels: 1)");
    let out = stdout(&delve(&["generate", "--seed", "42", "--config", &cfg]));
    let rows: Vec<&str> = out.lines().skip(1 + 5).map(str::trim_end).collect();
    assert_eq!(
        &rows[..block.len()],
        &block[..],
        "README excerpt differs from rows 5.. of the output"
    );
}

#[test]
fn simulate_prints_a_summary_and_a_stable_digest() {
    let a = delve(&["simulate", "--seed", "3", "--turns", "400"]);
    ok(&a);
    let text = stdout(&a);
    for key in [
        "turns: ",
        "depth: ",
        "lives: ",
        "killed: ",
        "levels visited: ",
        "outcome: ",
        "digest: ",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(key)),
            "no {key:?} in {text}"
        );
    }
    let digest = text.lines().find(|l| l.starts_with("digest: ")).unwrap();
    assert_eq!(digest.len(), "digest: ".len() + 16);
    let b = delve(&["simulate", "--seed", "3", "--turns", "400"]);
    assert_eq!(a.stdout, b.stdout);
    let c = delve(&["simulate", "--seed", "3", "--turns", "401"]);
    assert_ne!(
        stdout(&c).lines().last(),
        text.lines().last(),
        "one more turn, another state"
    );
}

#[test]
fn simulate_rejects_bad_monster_files() {
    let dir = TempDir::new("monsters");
    let bad = dir.file(
        "m.ron",
        "[\n (name: \"x\", glyph: 'x', colour: Red, speed: 99),\n]",
    );
    let out = delve(&["simulate", "--seed", "1", "--monsters", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{bad}:2:")),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("[0].speed"), "{}", stderr(&out));
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/data/monsters.ron");
    let a = delve(&[
        "simulate",
        "--seed",
        "1",
        "--turns",
        "50",
        "--monsters",
        shipped,
    ]);
    let b = delve(&["simulate", "--seed", "1", "--turns", "50"]);
    ok(&a);
    assert_eq!(a.stdout, b.stdout, "data/monsters.ron is the default");
}

#[test]
fn readme_simulate_example_is_real_output() {
    let block = readme_example("delve simulate --seed 1 --turns 5000");
    let out = delve(&["simulate", "--seed", "1", "--turns", "5000"]);
    assert_eq!(stdout(&out), block);
}

#[test]
fn json_names_merged_rooms_with_their_bounding_box() {
    let dir = TempDir::new("merged");
    let cfg = dir.file(
        "o.ron",
        "(width: 90, height: 40, levels: 1, rooms_may_overlap: true, rooms: (max_floor_share: 0.5))",
    );
    let out = delve(&[
        "generate", "--seed", "2", "--config", &cfg, "--format", "json",
    ]);
    ok(&out);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let level = &doc["levels"][0];
    let rows: Vec<&str> = level["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let merged: Vec<&serde_json::Value> = level["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["shape"] == "merged")
        .collect();
    assert!(!merged.is_empty(), "no merged room");
    for room in merged {
        let n = |k: &str| room[k].as_u64().unwrap() as usize;
        let (x, y, w, h) = (n("x"), n("y"), n("width"), n("height"));
        // The box is tight: floor on its top and bottom rows and its left
        // and right columns.
        let floor = |cx: usize, cy: usize| b".<>".contains(&rows[cy].as_bytes()[cx]);
        assert!((x..x + w).any(|cx| floor(cx, y)) && (x..x + w).any(|cx| floor(cx, y + h - 1)));
        assert!((y..y + h).any(|cy| floor(x, cy)) && (y..y + h).any(|cy| floor(x + w - 1, cy)));
    }
}

#[test]
fn a_style_that_cannot_join_says_what_would_help() {
    let dir = TempDir::new("unjoinable");
    // 40 rooms on 500x500 leave Grid's wandering corridors too far apart;
    // wider grid spacing, as the message suggests, joins them.
    let sparse = dir.file(
        "sparse.ron",
        "(width: 500, height: 500, levels: 1, corridors: Grid)",
    );
    let err = refused(&delve(&["generate", "--seed", "1", "--config", &sparse]));
    assert!(
        err.contains("Grid corridors could not join them all") && err.contains("grid_spacing"),
        "{err}"
    );
    let wider = dir.file(
        "wider.ron",
        "(width: 500, height: 500, levels: 1, corridors: Grid, grid_spacing: 20)",
    );
    let out = delve(&["generate", "--seed", "1", "--config", &wider]);
    ok(&out);
}

#[test]
fn a_misspelt_style_is_named_without_rust_types() {
    let dir = TempDir::new("misspelt");
    let bad = dir.file("bad.ron", "(\n    corridors: Grids,\n)\n");
    let err = refused(&delve(&["generate", "--config", &bad]));
    assert!(
        err.contains("bad.ron:2:16: corridors: unexpected variant named `Grids`"),
        "{err}"
    );
    assert!(
        !err.contains("CorridorStyle") && err.contains("`Straight`"),
        "{err}"
    );
}

#[test]
fn play_checks_its_files_before_it_needs_a_terminal() {
    // Without a terminal (stdin is not one here), bad input is still
    // reported as such, with its location, before "needs a terminal".
    let dir = TempDir::new("play-files");
    let saves = dir.join("saves").display().to_string();
    let keymap = dir.file("keys.ron", "(\n    look: [\"F13\"],\n)\n");
    let out = delve(&["play", "--keymap", &keymap, "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!(
            "delve: {keymap}:2:5: look: \"F13\" is not a key name"
        )),
        "{}",
        stderr(&out)
    );
    let config = dir.file("config.ron", "(width: 10)");
    let out = delve(&["play", "--config", &config, "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with(&format!("delve: {config}:1:2: width")),
        "{}",
        stderr(&out)
    );
    let monsters = dir.file(
        "monsters.ron",
        "[(name: \"rat\", glyph: 'r', colour: Red, speed: 99)]",
    );
    let out = delve(&["play", "--monsters", &monsters, "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("[0].speed"), "{}", stderr(&out));
    let out = delve(&["play", "--load", "nothing-here", "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("nothing-here"), "{}", stderr(&out));

    // A damaged save is reported as damaged (exit 1), not as a missing terminal.
    let made = delve(&[
        "simulate",
        "--seed",
        "2",
        "--turns",
        "5",
        "--save",
        "hurt",
        "--saves-dir",
        &saves,
    ]);
    ok(&made);
    // A second save, so a backup is there to offer.
    let made = delve(&[
        "simulate",
        "--load",
        "hurt",
        "--turns",
        "5",
        "--save",
        "hurt",
        "--saves-dir",
        &saves,
    ]);
    ok(&made);
    let file = dir.join("saves/hurt.sav");
    let bytes = damage(&file);
    let out = delve(&["play", "--load", "hurt", "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("hurt.sav"), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(&file).unwrap(),
        bytes,
        "the damaged save is left as it was"
    );

    // Good files, and only then: no terminal.
    let out = delve(&["play", "--seed", "1", "--saves-dir", &saves]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("needs a terminal"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("saves/seed-1.sav").exists(), "nothing is saved");
}

/// The README's text from a heading to the next heading of its level.
fn readme_section(readme: &str, heading: &str) -> String {
    let start = readme
        .find(&format!("\n{heading}\n"))
        .unwrap_or_else(|| panic!("README has no {heading:?}"));
    let level = heading.split(' ').next().unwrap();
    let rest = &readme[start + heading.len() + 2..];
    let end = rest.find(&format!("\n{level} ")).unwrap_or(rest.len());
    rest[..end].to_string()
}

#[test]
fn readme_names_every_source_document() {
    let readme = readme();
    let start = readme
        .find("The numbers 000 to 004")
        .expect("the paragraph on sources");
    let paragraph = &readme[start..start + readme[start..].find("\n\n").unwrap()];
    let paragraph = paragraph.replace('\n', " ");
    for n in ["000", "001", "002", "003", "004"] {
        assert!(
            paragraph.contains(&format!(" {n} ")) || paragraph.contains(&format!(": {n} ")),
            "the sources paragraph does not describe {n}: {paragraph}"
        );
    }
}

#[test]
fn readme_says_what_building_needs() {
    let manifest =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml states a rust-version")
        .trim_matches('"');
    let setup = readme();
    let setup = &setup[..setup.find("```sh").unwrap()].replace('\n', " ");
    assert!(
        setup.contains(&format!("Rust {version}")),
        "the set-up paragraph names the minimum Rust ({version}): {setup}"
    );
    assert!(setup.contains("C compiler"), "zstd builds C code: {setup}");
}

#[test]
fn readme_playing_section_names_its_options_keys_and_signals() {
    let playing = readme_section(&readme(), "## Playing").replace('\n', " ");
    for needed in [
        "--config",
        "--monsters",
        "--keymap",
        "`Ctrl-Z`",
        "`Ctrl-R`",
        "SIGINT",
        "SIGTERM",
        "SIGHUP",
        "exit",
    ] {
        assert!(
            playing.contains(needed),
            "Playing does not mention {needed}"
        );
    }
}

#[test]
fn readme_loop_counts_are_the_measured_ones() {
    // The style table and "How a level is made" both quote the Tunnel's
    // mean loops over `stats --seed 1 --samples 20 --config tunnel.ron`,
    // a file without profiles, so every depth is a Tunnel level.
    let dir = TempDir::new("tunnel-loops");
    let tunnel = dir.file("tunnel.ron", "(corridors: Tunnel)");
    let out = delve(&[
        "stats",
        "--seed",
        "1",
        "--samples",
        "20",
        "--config",
        &tunnel,
        "--format",
        "json",
    ]);
    ok(&out);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mean = json["metrics"]["loops"]["mean"].as_f64().unwrap();
    let mean = format!("{mean:.1}");
    let readme = readme();
    assert!(
        readme.contains(&format!("| Tunnel | 490 | 90 | {mean} |")),
        "the style table's Tunnel loops are not {mean}"
    );
    let how = readme_section(&readme, "## How a level is made").replace('\n', " ");
    assert!(
        how.contains(&format!("against {mean} ")),
        "How a level is made does not say {mean} loops a level: {how}"
    );
}

/// Issue 23, item 29: a `--config` file without `profiles` drops the
/// shipped progression by depth, which a newcomer does not expect: delve
/// says so once on stderr. A copy of data/default.ron with one setting
/// changed keeps the progression (the way the README shows), and says
/// nothing.
#[test]
fn a_config_without_profiles_says_every_depth_uses_its_settings() {
    let dir = TempDir::new("no-profiles");
    let plain = dir.file("lives.ron", "(simulation: (lives: 1))");
    let note = format!("delve: note: {plain} has no profiles: every depth uses its settings");
    for args in [
        vec![
            "generate", "--seed", "1", "--levels", "2", "--config", &plain,
        ],
        vec!["stats", "--seed", "1", "--levels", "2", "--config", &plain],
        vec![
            "simulate", "--seed", "1", "--turns", "10", "--config", &plain,
        ],
    ] {
        let o = delve(&args);
        ok(&o);
        let err = stderr(&o);
        assert_eq!(err.matches(&note).count(), 1, "{args:?}: {err}");
    }
    // A file that writes `profiles: []` means it: no note.
    let none = dir.file("none.ron", "(simulation: (lives: 1), profiles: [])");
    let o = delve(&[
        "generate", "--seed", "1", "--levels", "2", "--config", &none,
    ]);
    ok(&o);
    assert_eq!(stderr(&o), "", "profiles written empty on purpose");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.ron")).unwrap();
    assert_eq!(shipped.matches("lives: 3,").count(), 1);
    let copy = dir.file("copy.ron", &shipped.replace("lives: 3,", "lives: 1,"));
    let with_copy = delve(&["generate", "--seed", "4", "--config", &copy]);
    ok(&with_copy);
    assert_eq!(stderr(&with_copy), "", "a file with profiles needs no note");
    let without = delve(&["generate", "--seed", "4"]);
    ok(&without);
    assert_eq!(
        stdout(&with_copy),
        stdout(&without),
        "the progression is kept"
    );
    assert!(
        readme().contains("copy of [`data/default.ron`](data/default.ron)"),
        "the README shows how to keep the progression"
    );
}

#[test]
fn batch_jobs_are_lowered_to_the_cores_and_said() {
    // Issue 23, item 11: --jobs up to 1024 ran that many runs at once (32
    // of a large config aborted on memory). The threads are lowered to the
    // cores (and to the memory), with a note; the results never change.
    let many = delve(&[
        "simulate", "--runs", "3", "--jobs", "1024", "--turns", "20", "--seed", "5",
    ]);
    ok(&many);
    assert_contains(&stderr(&many), "--jobs 1024 lowered to ");
    let one = delve(&[
        "simulate", "--runs", "3", "--jobs", "1", "--turns", "20", "--seed", "5",
    ]);
    ok(&one);
    assert_eq!(stderr(&one), "");
    assert_eq!(stdout(&many), stdout(&one));
}
