//! What delve says about bad input and lost output: errors point where the
//! problem is, give the allowed range, and never echo a huge value whole.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::common::{DELVE, TempDir, delve, ok, refused, stderr};

#[test]
fn an_unclosed_config_is_blamed_on_the_end_of_the_file() {
    let dir = TempDir::new("unclosed");
    for (contents, at) in [
        ("(width: 80, height: 21", ":1:23:"),
        ("(width: 80, height: 21,", ":1:24:"),
        ("(\n  width: 80,\n  height: 21\n", ":3:13:"),
        ("(width: 80, rooms: (count: (min: 3", ":1:35:"),
    ] {
        let cfg = dir.file("unclosed.ron", contents);
        let err = refused(&delve(&["generate", "--config", &cfg]));
        assert!(err.contains(&format!("{cfg}{at}")), "{contents:?}: {err}");
        assert!(err.contains("ends before"), "{contents:?}: {err}");
        assert!(!err.contains("found `2`"), "{contents:?}: {err}");
    }
    // The bracket left open is named.
    let cfg = dir.file("unclosed.ron", "(width: 80, rooms: (count: (min: 3");
    let err = stderr(&delve(&["generate", "--config", &cfg]));
    assert!(err.contains("1:28"), "{err}");
    // A missing comma in the middle still points at what follows.
    let cfg = dir.file("comma.ron", "(width: 80 height: 21)");
    let err = stderr(&delve(&["generate", "--config", &cfg]));
    assert!(err.contains(&format!("{cfg}:1:12:")), "{err}");
    assert!(err.contains("found `h`"), "{err}");
}

#[test]
fn numbers_too_big_for_their_type_give_the_allowed_range() {
    let dir = TempDir::new("bounds");
    for (contents, want) in [
        (
            "(width: -80)",
            "1:9: width: must be from 30 to 2000, got -80",
        ),
        (
            "(levels: 1000000)",
            "1:10: levels: must be from 1 to 1000, got 1000000",
        ),
        (
            "(rooms: (count: (min: -3)))",
            "rooms.count.min: must be at least 1, got -3",
        ),
        (
            "(rooms: (attempts_per_room: 0x1FFFF))",
            "rooms.attempts_per_room: must be from 1 to 10000, got 0x1FFFF",
        ),
        (
            "(simulation: (lives: 300))",
            "simulation.lives: must be from 1 to 99, got 300",
        ),
        (
            "(generation_retries: 70000)",
            "generation_retries: must be at most 65535, got 70000",
        ),
        (
            "(rooms: (give_up_streak: 99999999999))",
            "rooms.give_up_streak: must be from 1 to 100000, got 99999999999",
        ),
    ] {
        let cfg = dir.file("bounds.ron", contents);
        let err = refused(&delve(&["generate", "--config", &cfg]));
        assert!(err.contains(want), "{contents}: {err}");
        assert!(!err.contains("out of bounds"), "{contents}: {err}");
    }
    // Monster files too.
    let monsters = dir.file(
        "m.ron",
        "[\n (name: \"orc\", glyph: 'o', colour: Red, speed: 300),\n]",
    );
    let err = refused(&delve(&[
        "simulate",
        "--seed",
        "1",
        "--monsters",
        &monsters,
    ]));
    assert!(
        err.contains(&format!("{monsters}:2:"))
            && err.contains("[0].speed: must be from 5 to 20, got 300"),
        "{err}"
    );
}

#[test]
fn huge_values_are_cut_in_errors() {
    let dir = TempDir::new("huge");
    let huge = "x".repeat(200_000);
    // An unknown field, an unknown variant and a duplicate monster name.
    let cases = [
        (
            "generate",
            "--config",
            format!("(width: 80, {huge}: 3)"),
            "unknown field",
        ),
        (
            "generate",
            "--config",
            format!("(corridors: {huge})"),
            "corridors",
        ),
        (
            "simulate",
            "--monsters",
            format!(
                "[(name: \"{huge}\", glyph: 'a', colour: Red, speed: 10), (name: \"{huge}\", glyph: 'b', colour: Red, speed: 10)]"
            ),
            "already the name",
        ),
    ];
    for (command, flag, contents, want) in cases {
        let file = dir.file("huge.ron", &contents);
        let err = refused(&delve(&[command, "--seed", "1", flag, &file]));
        assert!(err.len() < 1000, "{} bytes: {}", err.len(), &err[..300]);
        assert!(err.contains(want) && err.contains("xxxx"), "{err}");
        assert!(err.contains("200000 characters"), "{err}");
    }
}

#[test]
fn closed_standard_output_is_a_failure() {
    // `>&-` closes standard output; the output cannot be written.
    let out = Command::new("sh")
        .args(["-c", "\"$0\" generate --seed 1 --levels 1 >&-", DELVE])
        .output()
        .unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("standard output"), "{err}");
    // Redirected to /dev/null on purpose is fine.
    let out = Command::new("sh")
        .args([
            "-c",
            "\"$0\" generate --seed 1 --levels 1 >/dev/null",
            DELVE,
        ])
        .output()
        .unwrap();
    ok(&out);
}

#[test]
fn a_reader_that_stops_early_is_not_a_failure() {
    // `delve generate | head -c 10`: the reader leaves after ten bytes.
    let mut child = Command::new(DELVE)
        .args(["generate", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdout.take().unwrap();
    let mut first = [0u8; 10];
    pipe.read_exact(&mut first).unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first, b"level 1\n  ");
    ok(&out);
}

/// A list's entries share their field names: an error found while parsing
/// one (an unknown or missing field, a bad value) names the entry, as the
/// checks after parsing do (`[1].speed`), in every file that is a list.
#[test]
fn parse_errors_inside_list_entries_name_the_entry() {
    let monster = |i: usize, rest: &str| {
        format!(
            "(name: \"m{i}\", glyph: '{}', colour: Red{rest})",
            (b'a' + i as u8) as char
        )
    };
    let monsters = |second: &str| {
        format!(
            "[\n {},\n {},\n]",
            monster(0, ", speed: 10"),
            monster(1, second)
        )
    };
    for (second, want) in [
        (", sped: 10", "[1].sped: unknown field \"sped\""),
        ("", "[1].speed: missing field \"speed\""),
        (
            ", speed: 10, traits: [Smrt]",
            "[1].traits: unexpected variant",
        ),
        (
            ", speed: 10, depths: (min: 1, max: -2)",
            "[1].depths.max: must be at least 0, got -2",
        ),
    ] {
        let err = delve::sim::monsters_from_ron(&monsters(second), "m.ron")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("m.ron:3:") && err.contains(want),
            "{second}: {err}"
        );
    }
    let dagger = "(name: \"dagger\", glyph: ')', colour: Cyan, class: Weapon(damage: \"1d4\"), depths: (min: 1, max: 4), rarity: 2, description: \"A knife.\")";
    for (second, want) in [
        (
            "(name: \"sword\", glyph: ')', colour: Cyan, class: Weapon(dmg: \"1d6\"), depths: (min: 1, max: 4), rarity: 2, description: \"A sword.\")",
            "i.ron:1:",
        ),
        (
            "(name: \"sword\", glyph: ')', colour: Cyan, class: Weapon(damage: \"1d6\"), depths: (min: 1, max: 4), weight: 2, description: \"A sword.\")",
            "[1].weight: unknown field \"weight\"",
        ),
    ] {
        let err = delve::sim::items_from_ron(&format!("[{dagger}, {second}]"), "i.ron")
            .unwrap_err()
            .to_string();
        assert!(err.contains(want) && err.contains("[1]."), "{err}");
    }
    let vault = |rest: &str| {
        format!("(name: \"v\", {rest}weight: 1, map: [\"xx+xx\", \"x...x\", \"xxxxx\"])")
    };
    let first = vault("depths: (min: 1, max: 3), ");
    for (second, want) in [
        (
            vault("depth: (min: 1, max: 3), "),
            "[1].depth: unknown field \"depth\"",
        ),
        (vault(""), "[1].depths: missing field \"depths\""),
        (
            "(name: \"w\", depths: (min: 1, max: 3), map: [\"xx+xx\", 5])".to_string(),
            "[1].map: expected",
        ),
    ] {
        let err =
            delve::vault_file::vaults_from_ron(&format!("[{first},\n {second}]"), "v.ron", &|_| {
                false
            })
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("v.ron:2:") && err.contains(want), "{err}");
    }
}

/// Issue 23, item 17, for the other names a data file gives: monster and
/// item names that would steer a terminal are refused at the name, like a
/// vault's, and the refusal does not echo them.
#[test]
fn control_characters_in_monster_and_item_names_are_refused() {
    let dir = TempDir::new("names");
    let monsters = dir.file(
        "monsters.ron",
        "[(name: \"rat\\u{1b}[2J\", glyph: 'r', colour: Red, speed: 10)]",
    );
    let items = dir.file(
        "items.ron",
        "[(name: \"knife\\u{7}\", glyph: ')', colour: Cyan, class: Weapon(damage: \"1d4\"),\n  \
         depths: (min: 1, max: 4), rarity: 2, description: \"A knife.\")]",
    );
    for (flag, file) in [("--monsters", &monsters), ("--items", &items)] {
        let err = refused(&delve(&["simulate", "--seed", "1", flag, file]));
        assert!(
            err.starts_with(&format!(
                "delve: {file}:1:3: [0].name: must not contain control characters"
            )),
            "{err}"
        );
        assert!(!err.chars().any(|c| c.is_control() && c != '\n'), "{err:?}");
    }
}
