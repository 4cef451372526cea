//! Save files: exact round trips, transparent continuing, a loader that no
//! input can crash, and saves that survive kills and failed writes.

use std::path::Path;
use std::process::Command;

use delve::Config;
use delve::config::{CorridorStyle, DeadEndPolicy, LoopConfig};
use delve::save::{self, FORMAT_VERSION, HEADER_LEN, SaveDir, SaveError, SaveLock};
use delve::sim::{MonsterKind, Run, Trait, autopilot};
use proptest::prelude::*;

use crate::common::{DELVE, TempDir, damage, delve_in, ok, stderr, stdout};

pub fn small_config() -> Config {
    Config::from_ron("(width: 40, height: 20, levels: 2)", "t").unwrap()
}

pub fn played(config: Config, seed: u64, turns: u64) -> Run {
    let mut run = Run::new(config, MonsterKind::defaults(), seed).unwrap();
    while run.turn() < turns && run.outcome() == delve::sim::Outcome::Playing {
        let a = autopilot(&mut run);
        run.step(a).unwrap();
    }
    run
}

/// Saves under `name` in `saves`, with its `lock`, the run of `seed`
/// played to each of `turns` in order (saved at times 1, 2, ...): the last
/// is the save, the one before it the backup. Returns the runs saved.
///
/// The caller holds the lock as long as it needs it: a lock given up and
/// taken again can fail here, where other tests start processes that get a
/// copy of the lock's file descriptor until they exec (flock locks the
/// open file, not the descriptor).
pub fn save_turns(
    saves: &SaveDir,
    lock: &SaveLock,
    name: &str,
    seed: u64,
    turns: &[u64],
) -> Vec<Run> {
    (1..)
        .zip(turns)
        .map(|(at, &turn)| {
            let run = played(small_config(), seed, turn);
            saves.save(name, &run, at, lock).unwrap();
            run
        })
        .collect()
}

pub fn small_save() -> Vec<u8> {
    save::encode(&played(small_config(), 3, 60), 1_700_000_000)
}

/// Rewrites a header field and fixes the header checksum, as a forger would.
pub fn forge(bytes: &mut [u8], at: usize, value: &[u8]) {
    bytes[at..at + value.len()].copy_from_slice(value);
    let crc = crc32fast::hash(&bytes[..HEADER_LEN - 4]);
    bytes[HEADER_LEN - 4..HEADER_LEN].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn round_trip_is_exact() {
    let run = played(Config::default(), 9, 500);
    let bytes = save::encode(&run, 42);
    let (loaded, summary) = save::decode(&bytes, "x").unwrap();
    assert_eq!(loaded.digest(), run.digest());
    assert!(loaded == run);
    assert_eq!(
        (summary.seed, summary.turn, summary.saved_at),
        (9, run.turn(), 42)
    );
    assert_eq!(
        save::encode(&loaded, 42),
        bytes,
        "save -> load -> save changed the bytes"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Playing a, saving, loading and playing b more equals playing a + b.
    #[test]
    fn continuing_is_transparent(seed in any::<u64>(), a in 1u64..300, b in 1u64..300) {
        let config = Config::from_ron("(width: 80, height: 30, levels: 3)", "t").unwrap();
        let whole = played(config.clone(), seed, a + b);
        let first = played(config, seed, a);
        let (mut run, _) = save::decode(&save::encode(&first, 0), "x").unwrap();
        while run.turn() < a + b && run.outcome() == delve::sim::Outcome::Playing {
            let act = autopilot(&mut run);
            run.step(act).unwrap();
        }
        prop_assert_eq!(run.digest(), whole.digest());
    }

    /// Random bytes, with and without a valid-looking header, never crash
    /// the loader.
    #[test]
    fn random_input_is_refused_not_a_crash(body in proptest::collection::vec(any::<u8>(), 0..4096), with_magic in any::<bool>()) {
        let mut bytes = body;
        if with_magic && bytes.len() >= 8 {
            bytes[..8].copy_from_slice(save::MAGIC);
        }
        prop_assert!(save::decode(&bytes, "x").is_err());
    }

    /// A body that passes every checksum but holds garbage is refused by
    /// the decoder or the validator, within the decoder's byte limit.
    #[test]
    fn garbage_behind_valid_checksums_is_refused(raw in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let mut bytes = small_save();
        let body = zstd::bulk::compress(&raw, 1).unwrap();
        bytes.truncate(HEADER_LEN);
        bytes.extend_from_slice(&body);
        let mut fields = Vec::new();
        fields.extend_from_slice(&(body.len() as u64).to_le_bytes());
        fields.extend_from_slice(&(raw.len() as u64).to_le_bytes());
        fields.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
        forge(&mut bytes, 12, &fields);
        let e = save::decode(&bytes, "x").unwrap_err().to_string();
        // In words, not bincode's Debug text ("UnexpectedEnd { additional: 1 }").
        prop_assert!(!e.contains('{') && !e.contains("Unexpected"), "{}", e);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// The loader's checks accept every run play can make: random configs
    /// in every corridor style and layout option, saved after some turns
    /// on one or more levels, load back equal.
    #[test]
    fn every_played_run_loads(
        config in crate::properties::small_config(),
        layout in crate::properties::layout(),
        seed in any::<u64>(),
        turns in 0u64..600,
    ) {
        let config = crate::properties::with_layout(config, layout);
        prop_assume!(config.validate().is_ok());
        let Ok(mut run) = Run::new(config, MonsterKind::defaults(), seed) else {
            return Ok(()); // a crowded random config may not generate
        };
        while run.turn() < turns && run.outcome() == delve::sim::Outcome::Playing {
            let a = autopilot(&mut run);
            if run.step(a).is_err() {
                return Ok(()); // nor may a deeper level
            }
        }
        let (loaded, _) = save::decode(&save::encode(&run, 0), "x")
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(loaded == run);
    }
}

#[test]
fn every_truncation_and_bit_flip_is_refused() {
    let bytes = small_save();
    save::decode(&bytes, "x").unwrap();
    for len in 0..bytes.len() {
        let e = save::decode(&bytes[..len], "x").unwrap_err();
        assert!(e.is_damage(), "{len}: {e}");
    }
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            assert!(
                save::decode(&b, "x").is_err(),
                "flip of byte {i} bit {bit} still loads"
            );
        }
    }
}

#[test]
fn odd_files_are_refused_with_names() {
    let bytes = small_save();
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(b"extra");
    assert!(
        save::decode(&trailing, "x")
            .unwrap_err()
            .to_string()
            .contains("after the end")
    );
    assert!(matches!(
        save::decode(&[], "x"),
        Err(SaveError::NotASave(_))
    ));
    assert!(matches!(
        save::decode(&[0; 4096], "x"),
        Err(SaveError::NotASave(_))
    ));

    let mut future = bytes.clone();
    forge(&mut future, 8, &(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(
        save::decode(&future, "x"),
        Err(SaveError::NewerFormat { .. })
    ));

    let mut huge = bytes.clone();
    forge(&mut huge, 20, &u64::MAX.to_le_bytes());
    let e = save::decode(&huge, "x").unwrap_err().to_string();
    assert!(e.contains("more than the"), "{e}");
}

#[test]
fn a_decompression_bomb_is_refused() {
    // 64 MB of zeros compresses to a few KB; the header claims 100 bytes.
    let bomb = zstd::bulk::compress(&vec![0u8; 64 << 20], 1).unwrap();
    let mut bytes = small_save();
    bytes.truncate(HEADER_LEN);
    bytes.extend_from_slice(&bomb);
    let mut fields = Vec::new();
    fields.extend_from_slice(&(bomb.len() as u64).to_le_bytes());
    fields.extend_from_slice(&100u64.to_le_bytes());
    fields.extend_from_slice(&crc32fast::hash(&bomb).to_le_bytes());
    forge(&mut bytes, 12, &fields);
    assert!(
        save::decode(&bytes, "x")
            .unwrap_err()
            .to_string()
            .contains("decompress")
    );
}

#[test]
fn every_shipped_format_still_loads() {
    // tests/fixtures/format-N.sav: a small save of each released format,
    // with the digest it must load to.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut found = 0;
    for version in 1..=FORMAT_VERSION {
        let file = dir.join(format!("format-{version}.sav"));
        let (run, summary) = save::read_and_decode(&file).unwrap_or_else(|e| panic!("{e}"));
        let want = std::fs::read_to_string(dir.join(format!("format-{version}.digest"))).unwrap();
        assert_eq!(format!("{:016x}", run.digest()), want.trim());
        assert_eq!(summary.format, version);
        found += 1;
    }
    assert_eq!(found, usize::from(FORMAT_VERSION));
}

#[test]
fn every_shipped_fixture_regenerates_its_stored_start() {
    // A recording is only worth keeping if its start can be made again:
    // every shipped save with a recording, and the shipped journal, must
    // regenerate the start state whose digest they store.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut checked = 0;
    for version in 1..=FORMAT_VERSION {
        let file = dir.join(format!("format-{version}.sav"));
        let (run, _) = save::read_and_decode(&file).unwrap();
        let Some(recording) = run.recording() else {
            continue;
        };
        let start = delve::journal::check::start_run(&delve::journal::session::start_of(&run))
            .unwrap_or_else(|e| panic!("format {version}: {e}"));
        assert_eq!(
            format!("{:016x}", start.digest()),
            format!("{:016x}", recording.start_digest()),
            "format {version}: the start does not regenerate"
        );
        checked += 1;
    }
    let journal = delve::journal::read_file(&dir.join("recorded.journal")).unwrap();
    let start = delve::journal::check::start_run(&journal.start).unwrap();
    assert_eq!(
        start.digest(),
        journal.checkpoints[0].digest,
        "recorded.journal"
    );
    assert!(checked >= 3, "formats 3 on keep recordings");
}

#[test]
fn a_format_3_run_is_a_stomp_run_with_its_recording() {
    // Format 3 (before Combat) kept the run's actions: the run loads as
    // the Stomp run it was, and its recording replays to its state.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (run, _) = save::read_and_decode(&dir.join("format-3.sav")).unwrap();
    assert_eq!(run.config().simulation.rules, delve::config::Rules::Stomp);
    assert!(run.combat().is_none());
    let recording = run.recording().expect("format 3 keeps the actions").clone();
    assert_eq!(recording.len(), run.turn());
    let start = delve::journal::session::start_of(&run);
    let mut replay = delve::sim::replay::Replay::from_run(
        delve::journal::check::start_run(&start).unwrap(),
        recording,
    );
    while replay.step().unwrap().is_some() {}
    assert_eq!(replay.run().digest(), run.digest());
}

#[test]
fn a_format_1_run_keeps_format_1_generation() {
    // Format 1 knew only the Tunnel style; its runs get the layout options
    // that reproduce it, so levels not yet visited come out as before.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format-1.sav");
    let (run, _) = save::read_and_decode(&file).unwrap();
    let c = run.config();
    assert_eq!(c.corridors, CorridorStyle::Tunnel);
    assert!(!c.rooms_may_overlap);
    assert_eq!(c.extra_loops, LoopConfig::NONE);
    assert_eq!(c.room_loops.count, 0);
    assert_eq!(c.dead_ends, DeadEndPolicy::Keep);
    // The layout defaults but for loops, which format 3 turned on.
    let d = Config::default();
    assert_eq!(
        (c.corridors, c.rooms_may_overlap, c.dead_ends),
        (d.corridors, d.rooms_may_overlap, d.dead_ends)
    );
}

#[test]
fn older_runs_keep_their_generation() {
    // Format 5 added the Tunnel's room loops, vaults and profiles, on by
    // default; a run from an older format gets none of them, so levels it
    // has not visited yet come out as they would have.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for version in 1..5 {
        let (run, _) = save::read_and_decode(&dir.join(format!("format-{version}.sav"))).unwrap();
        let c = run.config();
        assert_eq!(c.room_loops.count, 0, "format {version}");
        assert_eq!(c.vaults.count.max, 0, "format {version}");
        assert!(
            c.profiles.is_empty() && run.vaults().is_empty(),
            "format {version}"
        );
    }
    assert!(Config::default().room_loops.count > 0);
    let (run, _) = save::read_and_decode(&dir.join("format-5.sav")).unwrap();
    assert!(run.config().room_loops.count > 0 && run.config().vaults.count.max > 0);
    assert!(!run.config().profiles.is_empty());
    assert_eq!(run.vaults(), delve::vault::shipped());
    // It was saved with a vault on the level it is on.
    let level = &run.current().level;
    assert!(
        level
            .rooms()
            .iter()
            .any(|r| matches!(r.shape, delve::Shape::Vault(_)))
    );
}

#[test]
fn runs_from_before_revisions_keep_the_first_ones() {
    // Format 6 records which generator made a run's levels and which rules
    // it plays by; every older run was made and played by the first, and
    // keeps them, so its levels and replays come out as they were.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for version in 1..6 {
        let (run, _) = save::read_and_decode(&dir.join(format!("format-{version}.sav"))).unwrap();
        assert_eq!(
            run.config().revisions,
            delve::config::Revisions::FIRST,
            "format {version}"
        );
    }
    // Format 6 was written by generator 2 and rules 2, which it keeps
    // (rules 3 came with format 7).
    let (run, _) = save::read_and_decode(&dir.join("format-6.sav")).unwrap();
    assert_eq!(
        run.config().revisions,
        delve::config::Revisions {
            generator: 2,
            rules: 2
        }
    );
    // Format 7 came with rules 3, and format 8 with rules 4.
    let (run, _) = save::read_and_decode(&dir.join("format-7.sav")).unwrap();
    assert_eq!(
        run.config().revisions,
        delve::config::Revisions {
            generator: 3,
            rules: 3
        }
    );
    // Format 8 was written by generator 3 (generator 4 came without a new
    // format: a config that names its revisions carries it).
    let (run, _) = save::read_and_decode(&dir.join("format-8.sav")).unwrap();
    assert_eq!(
        run.config().revisions,
        delve::config::Revisions {
            generator: 3,
            rules: 4
        }
    );
    assert_eq!(
        Config::default().revisions,
        delve::config::Revisions::CURRENT
    );
}

#[test]
fn layout_options_round_trip() {
    let config = Config::from_ron(
        "(width: 50, height: 24, levels: 2, corridors: DeadEnd, rooms_may_overlap: true, \
         extra_loops: (count: 3, ratio: 2.5, max_length: 6), dead_ends: Prune, grid_spacing: 7, \
         grid_segment: (min: 2, max: 9))",
        "t",
    )
    .unwrap();
    let run = played(config.clone(), 5, 50);
    let (loaded, summary) = save::decode(&save::encode(&run, 1), "x").unwrap();
    assert_eq!(summary.format, FORMAT_VERSION);
    assert_eq!(loaded.config(), &config);
    assert_eq!(loaded, run);
    assert_eq!(loaded.digest(), run.digest());
    // A non-default layout is part of the state: it changes the digest.
    let plain = played(small_config(), 5, 50);
    assert_ne!(plain.digest(), run.digest());
}

#[test]
fn a_backup_is_kept_and_used_when_the_save_is_damaged() {
    let dir = TempDir::new("backup");
    let saves = SaveDir::open(dir.path()).unwrap();
    let lock = saves.lock("r").unwrap();
    let first = save_turns(&saves, &lock, "r", 1, &[20, 40]).swap_remove(0);
    assert_eq!(
        save::read_and_decode(&saves.backup("r"))
            .unwrap()
            .0
            .digest(),
        first.digest()
    );
    // Damage the save: it is set aside, and the backup loads with a warning.
    damage(&saves.file("r"));
    let (run, _, warning) = saves.load("r").unwrap();
    assert_eq!(run.digest(), first.digest());
    let warning = warning.expect("a warning");
    assert!(
        warning.contains("damaged") && warning.contains("backup"),
        "{warning}"
    );
    assert!(
        dir.join("r.sav.damaged-1").exists(),
        "the damaged file is kept"
    );
}

#[test]
fn a_missing_save_is_named_and_a_lone_backup_is_used() {
    let dir = TempDir::new("missing");
    let out = delve_in(dir.path(), &["simulate", "--load", "ghost", "--turns", "1"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a name that is not there is bad input"
    );
    assert!(stderr(&out).contains("no save named ghost"));
    let saves = SaveDir::open(dir.path()).unwrap();
    let lock = saves.lock("b").unwrap();
    let run = save_turns(&saves, &lock, "b", 1, &[10]).swap_remove(0);
    std::fs::rename(saves.file("b"), saves.backup("b")).unwrap();
    let (loaded, _, warning) = saves.load("b").unwrap();
    assert_eq!(loaded.digest(), run.digest());
    assert!(warning.unwrap().contains("missing"));
}

#[test]
fn a_newer_format_is_refused_and_left_alone() {
    let dir = TempDir::new("newer");
    let mut bytes = small_save();
    forge(&mut bytes, 8, &(FORMAT_VERSION + 1).to_le_bytes());
    std::fs::write(dir.join("n.sav"), &bytes).unwrap();
    refused_on_load_and_left_alone(&dir, "n", &bytes, "newer");
}

/// A save of a newer delve's generator revision, sound in header and
/// checksum, is refused on load and named as such by `saves` (which
/// listed it as ok).
#[test]
fn a_newer_revision_is_refused_and_listed_as_such() {
    let dir = TempDir::new("newer-revision");
    // A run as a newer build would save it: `on_level` takes its config
    // as given, where every other way in checks it.
    let mut config = small_config();
    config.revisions.generator = delve::config::Revisions::CURRENT.generator + 1;
    let level = delve::Level::from_rows(
        1,
        &["        ", " ...... ", " ...... ", "        "],
        vec![crate::common::rect_room(1, 1, 6, 2)],
    );
    let newer = delve::sim::Run::on_level(config, vec![], level, delve::Pos::new(2, 1), &[]);
    let bytes = save::encode(&newer, 1_700_000_000);
    std::fs::write(dir.join("n.sav"), &bytes).unwrap();
    refused_on_load_and_left_alone(&dir, "n", &bytes, "newer delve");
    let out = delve_in(dir.path(), &["saves"]);
    ok(&out);
    let listing = stdout(&out);
    assert!(listing.contains("newer delve"), "{listing}");
    assert!(!listing.contains(" ok"), "{listing}");
}

/// Asserts that continuing the save `name` and verifying it both fail
/// (exit 1) saying `says`, and that its file is left as `bytes`.
fn refused_on_load_and_left_alone(dir: &TempDir, name: &str, bytes: &[u8], says: &str) {
    for args in [
        &["simulate", "--load", name, "--turns", "1"][..],
        &["verify", name],
    ] {
        let out = delve_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(
            std::fs::read(dir.join(&format!("{name}.sav"))).unwrap() == bytes,
            "{args:?} changed {name}.sav"
        );
    }
}

/// The names of the temporary files (`*.tmp.PID`) in a saves directory.
fn temporary_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".tmp."))
        .collect()
}

#[test]
fn a_failed_write_leaves_the_previous_save_intact() {
    let dir = TempDir::new("failed");
    let out = delve_in(
        dir.path(),
        &["simulate", "--seed", "2", "--turns", "30", "--save", "f"],
    );
    ok(&out);
    let before = std::fs::read(dir.join("f.sav")).unwrap();
    // A non-empty directory where the backup goes: refused as something
    // delve did not make, before anything is written.
    std::fs::create_dir_all(dir.join("f.sav.bak/blocker")).unwrap();
    let out = delve_in(
        dir.path(),
        &["simulate", "--load", "f", "--turns", "30", "--save", "f"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("a directory"), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("f.sav")).unwrap(), before);
    ok(&delve_in(dir.path(), &["verify", "f"]));
    let leftovers = temporary_files(dir.path());
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
    // A saves directory that is a file cannot be written at all.
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    let out = delve_in(
        &file,
        &["simulate", "--seed", "2", "--turns", "5", "--save", "g"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not-a-dir"));
}

#[test]
fn a_read_only_directory_fails_clearly_and_keeps_the_save() {
    use std::os::unix::fs::PermissionsExt;
    let dir = TempDir::new("readonly");
    let out = delve_in(
        dir.path(),
        &["simulate", "--seed", "3", "--turns", "20", "--save", "ro"],
    );
    ok(&out);
    let before = std::fs::read(dir.join("ro.sav")).unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o555)).unwrap();
    // Root ignores permissions: run delve as nobody when we are root.
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n")
        .unwrap_or(false);
    let cmd = || {
        if root {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups", DELVE]);
            c
        } else {
            Command::new(DELVE)
        }
    };
    let out = cmd()
        .arg("--saves-dir")
        .arg(dir.path())
        .args(["simulate", "--load", "ro", "--turns", "20", "--save", "ro"])
        .output();
    // Reading a run needs no write (issue 23, item 10: it took a lock
    // file, and failed here): loading without --save plays on in memory.
    let read_only = cmd()
        .arg("--saves-dir")
        .arg(dir.path())
        .args(["simulate", "--load", "ro", "--turns", "5"])
        .output();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let Ok(out) = out else {
        eprintln!("setpriv unavailable; the injected-failure test covers this path");
        return;
    };
    if stderr(&out).starts_with("setpriv:") {
        // nobody cannot reach the binary from this checkout's location.
        eprintln!("cannot run delve as nobody here; the injected-failure test covers this path");
        return;
    }
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("Permission denied") && err.contains(&*dir.path().to_string_lossy()),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("ro.sav")).unwrap(), before);
    ok(&delve_in(dir.path(), &["verify", "ro"]));
    let read_only = read_only.unwrap();
    ok(&read_only);
    assert!(
        stdout(&read_only).starts_with("turns: 25\n"),
        "{}",
        stdout(&read_only)
    );
}

#[test]
fn a_refused_command_makes_nothing() {
    // Issue 23, item 9: a command refused for bad input made the saves
    // directory and a lock file before it checked its input.
    let dir = TempDir::new("refused-makes-nothing");
    let bad = dir.file("bad.ron", "(width: 10)");
    let saves = dir.join("saves");
    for args in [
        &["simulate", "--config", &bad, "--turns", "5", "--save", "x"][..],
        &["play", "--config", &bad, "--save", "x"],
        &[
            "simulate",
            "--seed",
            "1",
            "--turns",
            "999999999999",
            "--save",
            "x",
        ],
        &["simulate", "--load", "nothing", "--turns", "1"],
        &["play", "--load", "nothing"],
    ] {
        let out = delve_in(&saves, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!saves.exists(), "{args:?} made {}", saves.display());
    }
    // A name another run holds: refused, and no lock file is left.
    ok(&delve_in(
        &saves,
        &["simulate", "--seed", "1", "--turns", "5", "--save", "taken"],
    ));
    let before: Vec<_> = std::fs::read_dir(&saves)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    std::fs::remove_file(saves.join(".taken.lock")).unwrap();
    for args in [
        &["simulate", "--seed", "2", "--turns", "5", "--save", "taken"][..],
        &["play", "--seed", "2", "--save", "taken"],
    ] {
        let out = delve_in(&saves, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(!saves.join(".taken.lock").exists(), "{args:?} left a lock");
    }
    assert!(before.iter().any(|n| n == ".taken.lock"));
}

#[test]
fn one_process_per_save() {
    let dir = TempDir::new("lock");
    std::fs::create_dir_all(dir.path()).unwrap();
    let saves = SaveDir::open(dir.path()).unwrap();
    // This test holds the lock: delve must refuse, naming this process.
    let held = saves.lock("l").unwrap();
    let out = delve_in(
        dir.path(),
        &["simulate", "--seed", "1", "--turns", "5", "--save", "l"],
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("in use") && err.contains(&std::process::id().to_string()),
        "{err}"
    );
    assert!(matches!(saves.lock("l"), Err(SaveError::Locked { .. })));
    // Released on drop; a lock file left behind (a process that died
    // holding it, here with a dead pid in it) does not hold anything.
    drop(held);
    std::fs::write(dir.join(".l.lock"), "999999999").unwrap();
    // Another test of this process may fork (to run delve) while the lock
    // is held: the child holds a copy of the lock's descriptor until it
    // execs, so for that moment the lock is still this process's. Only
    // that refusal, a moment long, is tried again.
    let mut out = delve_in(
        dir.path(),
        &["simulate", "--seed", "1", "--turns", "5", "--save", "l"],
    );
    for _ in 0..20 {
        if out.status.success() || !stderr(&out).contains("in use") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
        out = delve_in(
            dir.path(),
            &["simulate", "--seed", "1", "--turns", "5", "--save", "l"],
        );
    }
    ok(&out);
    assert!(
        saves.lock("l").is_ok(),
        "the lock is released when delve exits"
    );
}

/// SIGKILL while delve saves, landed there on purpose: the test watches
/// for the child's temporary file (`.k.sav.tmp.PID`, made when its save
/// starts) and kills at once. Only a process killed mid-save leaves that
/// file (or the save's second name, `.k.sav.old.tmp.PID`) behind, so each
/// kill is known to have landed or not; the test needs three that did.
/// (Every later step of a save is checked in process by
/// `saves_dir::the_backup_is_an_earlier_turn_at_every_step_of_a_save`.)
#[test]
fn a_kill_while_saving_never_loses_the_save() {
    const LANDED: usize = 3;
    const TRIES: usize = 40;
    let dir = TempDir::new("kill");
    let continue_40 = ["simulate", "--load", "k", "--turns", "40", "--save", "k"];
    ok(&delve_in(
        dir.path(),
        &["simulate", "--seed", "5", "--turns", "10", "--save", "k"],
    ));
    // A backup from the start.
    ok(&delve_in(dir.path(), &continue_40));
    let (mut landed, mut tries) = (0, 0);
    while landed < LANDED {
        tries += 1;
        assert!(
            tries <= TRIES,
            "only {landed} of {TRIES} kills landed while saving"
        );
        let before = std::fs::read(dir.join("k.sav")).unwrap();
        let mut child = Command::new(DELVE)
            .arg("--saves-dir")
            .arg(dir.path())
            .args(continue_40)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        let tmp = dir.join(&format!(".k.sav.tmp.{pid}"));
        let second = dir.join(&format!(".k.sav.old.tmp.{pid}"));
        // No pause between looks: a save lasts a write, a sync and renames.
        while std::fs::symlink_metadata(&tmp).is_err() && child.try_wait().unwrap().is_none() {}
        let _ = child.kill(); // SIGKILL
        let status = child.wait().unwrap();
        let (tmp_left, second_left) = (tmp.exists(), second.exists());
        let try_ = format!("kill {tries} ({status})");
        let save = save::read_and_decode(&dir.join("k.sav"))
            .unwrap_or_else(|e| panic!("{try_}: k.sav itself is always complete: {e}"));
        // The backup is an earlier turn than the save, never the same one.
        let backup = save::read_and_decode(&dir.join("k.sav.bak"))
            .unwrap_or_else(|e| panic!("{try_}: the backup is always complete: {e}"));
        assert!(
            backup.0.turn() < save.0.turn(),
            "{try_}: backup at turn {}, save at turn {}",
            backup.0.turn(),
            save.0.turn()
        );
        if tmp_left {
            // Killed before the new save was renamed into place: the save
            // is the one before, to the byte.
            assert!(
                std::fs::read(dir.join("k.sav")).unwrap() == before,
                "{try_}: the save changed before the new one was in place"
            );
        }
        if tmp_left || second_left {
            assert!(!status.success(), "{try_}: finished, yet left its files");
            landed += 1;
        }
    }
    // The next run sweeps what the killed ones left, and saves.
    ok(&delve_in(dir.path(), &continue_40));
    let leftovers = temporary_files(dir.path());
    assert!(leftovers.is_empty(), "left behind: {leftovers:?}");
    eprintln!("{landed} of {tries} kills landed while saving");
}

#[test]
fn a_damaged_save_without_a_backup_stays_where_it_is() {
    let dir = TempDir::new("lone-damaged");
    let saves = SaveDir::open(dir.path()).unwrap();
    let lock = saves.lock("d").unwrap();
    save_turns(&saves, &lock, "d", 1, &[20]);
    drop(lock);
    let bytes = damage(&saves.file("d"));
    // Left in place, untouched; verify still finds it by name, and says
    // what is wrong.
    refused_on_load_and_left_alone(&dir, "d", &bytes, "damaged");
}

#[test]
fn verify_names_a_missing_save_and_a_lone_backup() {
    let dir = TempDir::new("verify-missing");
    let out = delve_in(dir.path(), &["verify", "ghost"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no save named ghost"));
    let saves = SaveDir::open(dir.path()).unwrap();
    let lock = saves.lock("b").unwrap();
    save_turns(&saves, &lock, "b", 1, &[5, 9]);
    std::fs::remove_file(saves.file("b")).unwrap();
    let out = delve_in(dir.path(), &["verify", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("b.sav is missing") && err.contains("b.sav.bak"),
        "{err}"
    );
}

/// A save whose body is `raw`, stored uncompressed (flags 0) with correct
/// lengths and checksums, as docs/save-format.md describes: what a forger
/// who read the format can write.
pub fn uncompressed_save(header_from: &[u8], raw: &[u8]) -> Vec<u8> {
    let mut bytes = header_from[..HEADER_LEN].to_vec();
    let mut fields = Vec::new();
    fields.extend_from_slice(&0u16.to_le_bytes()); // flags: not compressed
    fields.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    fields.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    fields.extend_from_slice(&crc32fast::hash(raw).to_le_bytes());
    forge(&mut bytes, 10, &fields);
    bytes.extend_from_slice(raw);
    bytes
}

/// Plays `turns` autopilot turns and draws a viewer frame; `Err` with the
/// panic's message if anything panics.
fn play_and_draw(run: Run, turns: u64) -> Result<(), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        let app = delve::view::App::new(run.clone(), delve::view::Keymap::default(), "x".into());
        let _ = delve::view::screen::frame(&app, 80, 24);
        let mut run = run;
        for _ in 0..turns {
            if run.outcome() != delve::sim::Outcome::Playing {
                break;
            }
            let a = autopilot(&mut run);
            if run.step(a).is_err() {
                break; // a level that cannot be generated is an error, not a crash
            }
        }
        let app = delve::view::App::new(run, delve::view::Keymap::default(), "x".into());
        let _ = delve::view::screen::frame(&app, 80, 24);
    }))
    .map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// A file that loads can be played: every single-byte edit of a real
/// save's body, behind correct lengths and checksums, either is refused
/// on load or plays a few hundred turns and draws without panicking.
#[test]
fn a_save_that_loads_can_be_played() {
    // Every monster a telepathic tunneller as well as its own kind, so the
    // tunnelling distance map (which walks the hardness grid) runs every
    // turn; both levels visited, so stairs are taken both ways.
    let mut kinds = MonsterKind::defaults();
    for k in &mut kinds {
        k.traits = vec![Trait::Smart, Trait::Telepathic, Trait::Tunneling];
    }
    let mut run = Run::new(small_config(), kinds, 3).unwrap();
    while run.visited().count() < 2 && run.turn() < 2000 {
        let a = autopilot(&mut run);
        run.step(a).unwrap();
    }
    assert_eq!(
        run.visited().count(),
        2,
        "the test save should hold both levels"
    );
    let bytes = save::encode(&run, 1);
    let raw = zstd::bulk::decompress(&bytes[HEADER_LEN..], save::MAX_BODY as usize).unwrap();
    // The unedited body loads through the uncompressed path.
    save::decode(&uncompressed_save(&bytes, &raw), "x").unwrap();
    let mut loaded = 0;
    let mut failures = Vec::new();
    // Every offset of the body, edited in its low bit or its whole byte.
    for at in 0..raw.len() {
        {
            let edit = if at % 2 == 0 { 0x01u8 } else { 0xff };
            let mut body = raw.clone();
            body[at] ^= edit;
            let Ok((run, _)) = save::decode(&uncompressed_save(&bytes, &body), "x") else {
                continue;
            };
            loaded += 1;
            if let Err(message) = play_and_draw(run, 300) {
                failures.push(format!("offset {at} ^ {edit:#04x}: {message}"));
            }
        }
    }
    assert!(loaded > 0, "no edit loaded: the test proves nothing");
    assert!(
        failures.is_empty(),
        "{} of {loaded} edited saves loaded and then panicked (of {} edits), e.g.:\n{}",
        failures.len(),
        raw.len(),
        failures[..failures.len().min(12)].join("\n")
    );
}

/// Issue 23, item 13 (no debug text reaches a user): a level read back
/// from a file that breaks a promise is refused naming its cells as
/// `x,y` and its tiles in words, never as Rust values (`Pos { x: 1, y: 1
/// }`, `DownStairs`).
#[test]
fn a_forged_level_is_refused_in_words() {
    let level = delve::generate_level(&Config::default(), 1, 1).unwrap();
    let doc = serde_json::to_value(&level).unwrap();
    let refusal = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut forged = doc.clone();
        change(&mut forged);
        serde_json::from_value::<delve::Level>(forged)
            .expect_err("refused")
            .to_string()
    };
    let room = doc["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| !r["doors"].as_array().unwrap().is_empty())
        .unwrap();
    let said =
        refusal(&|d| d["rooms"][room]["doors"][0]["pos"] = serde_json::json!({"x": 1, "y": 1}));
    assert!(
        said.starts_with(&format!(
            "level 1: room {room} has a door at 1,1, which is no door cell"
        )),
        "{said}"
    );
    let said = refusal(&|d| d["stairs"][0]["pos"] = serde_json::json!({"x": 1, "y": 1}));
    let way = match doc["stairs"][0]["direction"].as_str() {
        Some("Up") => "up",
        _ => "down",
    };
    assert!(
        said.starts_with(&format!(
            "level 1: the stairs at 1,1 are not on a {way} staircase of a room"
        )),
        "{said}"
    );
}
