//! Runs that could get stuck or run for hours: a stack with a level that
//! cannot be made is refused before the run starts (or when its save is
//! loaded), and the work a level may take is bounded.

use std::path::Path;

use crate::common::{TempDir, delve, ok, refused};

/// `delve generate` refuses this stack (depth 3 of seed 2 cannot be made),
/// so a run must not start on it either. Generator revision 2 keeps its
/// levels what they were: from revision 3 its Grid levels hold vaults, and
/// seed 2's first level is the one that fails.
const STUCK: &str = "(width: 120, height: 40, levels: 3, corridors: Grid, generation_retries: 1, \
                     rooms: (count: (min: 6, max: 6)), revisions: (generator: 2))";

#[test]
fn a_new_run_whose_stack_cannot_be_made_is_refused_before_it_starts() {
    let dir = TempDir::new("stuck-new");
    let cfg = dir.file("flaky.ron", STUCK);
    let saves = dir.join("saves").display().to_string();
    let out = delve(&[
        "simulate",
        "--seed",
        "2",
        "--config",
        &cfg,
        "--turns",
        "5000",
        "--save",
        "flaky",
        "--saves-dir",
        &saves,
    ]);
    let err = refused(&out);
    assert!(err.contains("depth 3"), "{err}");
    assert!(
        !Path::new(&saves).join("flaky.sav").exists(),
        "a run that cannot be finished was saved"
    );
    // The same config with a seed whose levels can all be made plays.
    let out = delve(&["simulate", "--seed", "1", "--config", &cfg, "--turns", "50"]);
    ok(&out);
}

/// A save made before runs proved their stack (its config cannot make depth
/// 3) is refused when loaded, not when the player reaches depth 3.
#[test]
fn a_save_whose_stack_cannot_be_made_is_refused_when_loaded() {
    let dir = TempDir::new("stuck-load");
    let saves = dir.join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stuck-at-depth-3.sav");
    std::fs::copy(&fixture, saves.join("stuck.sav")).unwrap();
    let saves = saves.display().to_string();
    let out = delve(&[
        "simulate",
        "--load",
        "stuck",
        "--turns",
        "5000",
        "--saves-dir",
        &saves,
    ]);
    let err = refused(&out);
    assert!(
        err.contains("stuck.sav") && err.contains("depth 3"),
        "{err}"
    );
    assert!(err.contains("cannot be continued"), "{err}");
    // `verify` says the same, since it promises exit 0 only for a save
    // that would load.
    let err = refused(&delve(&["verify", "stuck", "--saves-dir", &saves]));
    assert!(err.contains("depth 3"), "{err}");
    // The save is left as it was.
    assert_eq!(
        std::fs::read(Path::new(&saves).join("stuck.sav")).unwrap(),
        std::fs::read(&fixture).unwrap()
    );
}

/// Placing up to 400 overlapping rooms and joining them with DeadEnd
/// corridors fails every attempt at depth 1 of seed 6700, and 65535
/// attempts took about 36 minutes; with 10000 tries a room and a give-up
/// streak of 100000, one attempt took 0.4 s. The work budget of the level
/// ends both with an error that names it.
#[test]
fn a_level_that_would_take_hours_stops_at_its_work_budget() {
    let dir = TempDir::new("budget");
    // Generator 3 threw away every DeadEnd attempt whose stubs left rooms
    // apart, and here nearly all do: thousands of attempts. (Revision 4
    // joins the pieces and makes this level in a few.)
    let heavy = "(rooms: (count: (max: 400), max_floor_share: 1.0), corridors: DeadEnd, \
                 rooms_may_overlap: true, generation_retries: 65535, \
                 revisions: (generator: 3))";
    let heavier = "(rooms: (count: (max: 400), max_floor_share: 1.0, attempts_per_room: 10000, \
                   give_up_streak: 100000), corridors: DeadEnd, rooms_may_overlap: true, \
                   generation_retries: 65535)";
    for (name, config) in [("heavy.ron", heavy), ("heavier.ron", heavier)] {
        let cfg = dir.file(name, config);
        let err = refused(&delve(&[
            "generate", "--seed", "6700", "--depth", "1", "--config", &cfg,
        ]));
        assert!(
            err.contains("depth 1") && err.contains("work budget"),
            "{name}: {err}"
        );
        // It says what to change.
        assert!(
            err.contains("generation_retries") || err.contains("rooms."),
            "{name}: {err}"
        );
    }
}

/// The budget never binds on ordinary configs, with room to spare: the
/// levels of every corridor style, with rooms overlapping or not, at the
/// default size, 002's 80x21 and with extra loops and pruning, take at most
/// a tenth of it; so does 40 rooms of Grid corridors on 500x500 failing
/// all 32 attempts (README's example of a style giving up), which must
/// still fail for what it is, not for the budget.
#[test]
fn ordinary_levels_stay_far_within_their_budget() {
    use delve::config::CorridorStyle;
    use delve::generate::budget;
    use delve::{Config, GenerateError, Generator};

    let mut generator = Generator::default();
    let styles = CorridorStyle::ALL;
    let sizes = [
        ("()", 3),
        ("(width: 80, height: 21, levels: 3)", 20),
        ("(width: 100, height: 40, levels: 1)", 20),
        (
            "(levels: 3, extra_loops: (count: 5, ratio: 3.0, max_length: 10), dead_ends: Prune)",
            3,
        ),
    ];
    for (text, seeds) in sizes {
        for style in styles {
            for overlap in [false, true] {
                let mut config = Config::from_ron(text, "test").unwrap();
                config.corridors = style;
                config.rooms_may_overlap = overlap;
                let limit = budget::total_for(config.width, config.height) / 10;
                for seed in 0..seeds {
                    for depth in 1..=config.levels {
                        generator
                            .level(&config, delve::vault::shipped(), seed, depth)
                            .unwrap();
                        assert!(
                            generator.work_spent() <= limit,
                            "{text} {style:?} overlap {overlap} seed {seed} depth {depth}: {} of {}",
                            generator.work_spent(),
                            limit * 10
                        );
                    }
                }
            }
        }
    }
    let sparse = Config::from_ron(
        "(width: 500, height: 500, levels: 1, corridors: Grid)",
        "test",
    )
    .unwrap();
    let e = generator
        .level(&sparse, delve::vault::shipped(), 1, 1)
        .unwrap_err();
    assert!(matches!(e, GenerateError::Unjoinable { .. }), "{e}");
    assert!(generator.work_spent() <= budget::total_for(500, 500) / 4);
}

/// Issue 23, item 15: long lists were parsed in quadratic time before their
/// caps were checked (100,000 profiles on one line took minutes to refuse,
/// 20,000 vaults seconds), and the monster and item lists had no cap at all
/// (50,000 items were read, name against name, and accepted). Each data
/// file refuses a list past its cap, at the first entry too many. No clock
/// here: the times before and after are measured by hand.
#[test]
fn long_lists_are_refused_at_their_cap_with_a_located_error() {
    let dir = TempDir::new("long-lists");
    let run = |flag: &str, file: &str| {
        let mut args = vec!["simulate", "--seed", "1", "--turns", "1"];
        args.extend([flag, file]);
        refused(&delve(&args))
    };
    // One line, so a column counted from the start of the line for each
    // key walks the whole list again.
    let profile = "(depths: (min: 1, max: 2), rooms: (count: (max: 20)), corridors: Tunnel), ";
    let text = format!("(profiles: [{}])", profile.repeat(100_000));
    let file = dir.file("profiles.ron", &text);
    let err = run("--config", &file);
    assert!(
        err.starts_with(&format!(
            "delve: {file}:1:2: profiles: must have at most 256 entries, got 100000"
        )),
        "{err}"
    );

    let vault = |i: usize| {
        format!(r#"(name: "v{i}", depths: (min: 1, max: 10), map: ["x+x", "x.x", "xxx"]), "#)
    };
    let text = format!("[{}]", (0..20_000).map(vault).collect::<String>());
    let at = text.find("(name: \"v1000\"").unwrap() + 2;
    let file = dir.file("vaults.ron", &text);
    let err = run("--vaults", &file);
    assert!(
        err.starts_with(&format!(
            "delve: {file}:1:{at}: [1000].name: vault \"v1000\": a vault file holds at most 1000 \
             vaults"
        )),
        "{err}"
    );

    // Items may share a glyph: 50,000 of them (5 MB), each fine by itself.
    let item = |i: usize| {
        format!(
            "(name: \"k{i}\", glyph: ')', colour: Cyan, class: Weapon(damage: \"1d4\"),\n\
             depths: (min: 1, max: 4), rarity: 2, description: \"A knife.\"),\n"
        )
    };
    let text = format!("[\n{}]", (0..50_000).map(item).collect::<String>());
    let file = dir.file("items.ron", &text);
    let err = run("--items", &file);
    assert!(
        err.starts_with(&format!(
            "delve: {file}:2002:2: [1000].name: a list holds at most 1000 kinds of item"
        )),
        "{err}"
    );

    // Monsters each need a glyph of their own: 1,001 letters one column wide.
    let glyphs: Vec<char> = ('\u{100}'..)
        .filter(|&c| c.is_alphabetic() && unicode_width::UnicodeWidthChar::width(c) == Some(1))
        .take(1001)
        .collect();
    let monster = |(i, glyph): (usize, &char)| {
        format!(
            "(name: \"m{i}\", glyph: '{glyph}', colour: Red, speed: 10, hp: \"1d4\", \
             damage: \"1d3\", depths: (min: 1, max: 3), rarity: 1),\n"
        )
    };
    let text = format!(
        "[\n{}]",
        glyphs.iter().enumerate().map(monster).collect::<String>()
    );
    let file = dir.file("monsters.ron", &text);
    let err = run("--monsters", &file);
    assert!(
        err.starts_with(&format!(
            "delve: {file}:1002:2: [1000].name: a list holds at most 1000 kinds of monster"
        )),
        "{err}"
    );
}

/// Issue 23, items 15 and 16: every data file is read through one reader
/// with a size cap, so a file of any size is refused at once rather than
/// read whole and parsed.
#[test]
fn a_data_file_past_the_size_cap_is_refused_before_it_is_parsed() {
    let dir = TempDir::new("huge-file");
    // A valid file, made huge by a comment.
    let comment = format!("// {}\n", "-".repeat(1000));
    let text = format!("{}(levels: 1)", comment.repeat(9 * 1024));
    let file = dir.file("huge.ron", &text);
    for flag in ["--config", "--vaults", "--monsters", "--items"] {
        let err = refused(&delve(&[
            "simulate", "--seed", "1", "--turns", "1", flag, &file,
        ]));
        assert!(
            err.starts_with(&format!(
                "delve: {file}: the file is {} bytes; a data file may be at most 8388608 (8 MiB)",
                text.len()
            )),
            "{flag}: {err}"
        );
    }
    let err = delve::view::Keymap::load(std::path::Path::new(&file))
        .expect_err("refused")
        .to_string();
    assert!(err.contains("may be at most 8388608 (8 MiB)"), "{err}");
}

/// Issue 23, item 15, for the keymap: each key was looked for among all
/// those bound before it, so a command with 20,000 keys took quadratic
/// time and was then accepted. A command has a handful of keys at most.
#[test]
fn a_keymap_command_with_too_many_keys_is_refused_at_the_command() {
    let keys: Vec<String> = ('\u{4e00}'..)
        .take(20_000)
        .map(|c| format!("\"{c}\""))
        .collect();
    let text = format!("(\n  wait: [\".\"],\n  north: [{}])", keys.join(", "));
    let err = delve::view::Keymap::from_ron(&text, "keymap.ron")
        .expect_err("refused")
        .to_string();
    assert!(
        err.starts_with("keymap.ron:3:3: north: at most 16 keys a command, got 20000"),
        "{err}"
    );
}

/// Issue 23, item 15: the index of where each field is written copied each
/// key's whole path, so a file nested millions deep, or with a key of
/// megabytes holding many others, took gigabytes and aborted (out of
/// memory) before ron could refuse it. Both are refused at their first key.
#[test]
fn deep_or_long_keyed_files_are_refused_at_their_first_key() {
    let dir = TempDir::new("deep-files");
    let long = "x".repeat(4_000_000);
    let cases = [
        (
            format!("{}1", "(a:".repeat(2_700_000)),
            "deep.ron:1:2: a: unknown field \"a\"",
        ),
        (
            format!("({long}: ({}))", "a: [(b: 1)], ".repeat(300_000)),
            "long.ron:1:2: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx… (4000000 characters): unknown field",
        ),
    ];
    for (text, want) in cases {
        let name = want.split(':').next().unwrap();
        let file = dir.file(name, &text);
        let err = refused(&delve(&["generate", "--seed", "1", "--config", &file]));
        assert!(
            err.starts_with(&format!("delve: {}", file.replace(name, want))),
            "{err}"
        );
    }
}
