//! The saves directory as a user meets it: whatever sits there that delve
//! did not make (links, FIFOs, devices, huge files) is refused before it is
//! read or written through; no run replaces another unless asked; the
//! backup is always an earlier turn than the save; and `delve saves` lists
//! what is there in columns that fit.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use delve::save::{self, HEADER_LEN, SaveDir, SaveError};

use crate::common::{DELVE, TempDir, damage, delve_in, ok, stderr, stdout};
use crate::save::{forge, played, save_turns, small_config, small_save, uncompressed_save};

/// Runs delve with a deadline and a memory cap: a command that hangs (on
/// a FIFO) or reads without end (/dev/zero) fails the test instead of
/// stalling it or the machine.
fn delve_within(dir: &Path, args: &[&str], seconds: u64) -> Output {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4000000; exec \"$0\" \"$@\"")
        .arg(DELVE)
        .arg("--saves-dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(seconds) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("delve {args:?} did not finish within {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// The turn a save file holds, from a full decode.
fn turn_of(path: &Path) -> u64 {
    save::read_and_decode(path)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
        .turn()
}

// Item 2: links.

/// A scratch directory holding a saves directory and, beside it, a file
/// that delve must never write: (scratch, saves, victim).
fn saves_beside_a_victim(name: &str) -> (TempDir, PathBuf, PathBuf) {
    let dir = TempDir::new(name);
    let saves = dir.join("saves");
    std::fs::create_dir(&saves).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    (dir, saves, victim)
}

fn untouched(victim: &Path) {
    assert_eq!(std::fs::read_to_string(victim).unwrap(), "precious");
}

#[test]
fn a_linked_lock_file_is_refused_and_its_target_kept() {
    let (_dir, saves, victim) = saves_beside_a_victim("lock-link");
    symlink("../victim.txt", saves.join(".mine.lock")).unwrap();
    let new_run = || {
        delve_within(
            &saves,
            &["simulate", "--seed", "1", "--turns", "5", "--save", "mine"],
            60,
        )
    };
    let out = new_run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));
    untouched(&victim);
    // A hard link to someone else's file is no lock file of ours either.
    std::fs::remove_file(saves.join(".mine.lock")).unwrap();
    std::fs::hard_link(&victim, saves.join(".mine.lock")).unwrap();
    let out = new_run();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("hard link"), "{}", stderr(&out));
    untouched(&victim);
    // Once the odd file is gone, the name works.
    std::fs::remove_file(saves.join(".mine.lock")).unwrap();
    ok(&new_run());
}

#[test]
fn links_at_the_save_its_backup_and_temporary_files_are_never_written_through() {
    let (_dir, saves_dir, victim) = saves_beside_a_victim("save-links");
    let saves = SaveDir::open(&saves_dir).unwrap();
    let lock = saves.lock("t").unwrap();
    // A link planted where this process writes its temporary file.
    let tmp = saves_dir.join(format!(".t.sav.tmp.{}", std::process::id()));
    symlink(&victim, &tmp).unwrap();
    save_turns(&saves, &lock, "t", 1, &[10, 20]);
    untouched(&victim);
    assert_eq!(turn_of(&saves.file("t")), 20);
    assert_eq!(turn_of(&saves.backup("t")), 10);
    // A link where the backup goes is refused, as a link anywhere is
    // (issue 23, item 8: it was silently replaced): nothing is written,
    // and the link, its target and the save stay as they were.
    std::fs::remove_file(saves.backup("t")).unwrap();
    symlink(&victim, saves.backup("t")).unwrap();
    let run = delve::sim::Run::new(
        delve::Config {
            width: 40,
            height: 20,
            levels: 2,
            ..delve::Config::default()
        },
        delve::sim::MonsterKind::defaults(),
        1,
    )
    .unwrap();
    let before = std::fs::read(saves.file("t")).unwrap();
    match saves.save("t", &run, 0, &lock) {
        Err(SaveError::NotRegular { kind, .. }) => assert_eq!(kind, "a symbolic link"),
        other => panic!("{other:?}"),
    }
    assert!(
        std::fs::symlink_metadata(saves.backup("t"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(std::fs::read(saves.file("t")).unwrap(), before);
    untouched(&victim);
    drop(lock);
    // A link in place of the save itself is refused by every command.
    symlink(&victim, saves.file("l")).unwrap();
    for args in [
        &["verify", "l"][..],
        &["simulate", "--load", "l", "--turns", "1"],
        &["simulate", "--load", "l", "--turns", "1", "--save", "l"],
        &[
            "simulate",
            "--seed",
            "1",
            "--turns",
            "1",
            "--save",
            "l",
            "--replace",
        ],
    ] {
        let out = delve_within(&saves_dir, args, 60);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("symbolic link"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    untouched(&victim);
}

/// A link, directory or FIFO at a path a session would write is refused
/// before the session locks the name or touches its journal: the backup's
/// link was found only at the first save, after `--replace` had already
/// replaced another run's journal (and left a lock behind).
#[test]
fn a_link_at_the_backup_is_refused_before_the_journal_is_touched() {
    let (_dir, saves_dir, victim) = saves_beside_a_victim("bak-first");
    let made = delve_within(
        &saves_dir,
        &[
            "simulate", "--seed", "3", "--turns", "20", "--save", "other",
        ],
        60,
    );
    ok(&made);
    let journal = saves_dir.join("other.journal");
    let before = std::fs::read(&journal).unwrap();
    // The lock file stays after a session; no later one may write its pid.
    let lock = saves_dir.join(".other.lock");
    let lock_before = std::fs::read(&lock).ok();
    std::fs::remove_file(saves_dir.join("other.sav")).unwrap();
    symlink(&victim, saves_dir.join("other.sav.bak")).unwrap();
    for args in [
        &[
            "simulate",
            "--seed",
            "4",
            "--turns",
            "5",
            "--save",
            "other",
            "--replace",
        ][..],
        &[
            "simulate", "--load", "other", "--turns", "5", "--save", "other",
        ],
    ] {
        let out = delve_within(&saves_dir, args, 60);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("other.sav.bak: refused: a symbolic link"),
            "{}",
            stderr(&out)
        );
        assert_eq!(std::fs::read(&journal).unwrap(), before, "{args:?}");
        assert_eq!(std::fs::read(&lock).ok(), lock_before, "{args:?}");
    }
    // A directory there is refused the same way, not offered to continue.
    std::fs::remove_file(saves_dir.join("other.sav.bak")).unwrap();
    std::fs::create_dir(saves_dir.join("other.sav.bak")).unwrap();
    let out = delve_within(
        &saves_dir,
        &["simulate", "--seed", "4", "--turns", "5", "--save", "other"],
        60,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("refused: a directory"),
        "{}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("--load"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&journal).unwrap(), before);
    untouched(&victim);
}

// Items 3 and 4: huge files, devices and FIFOs.

#[test]
fn devices_huge_files_and_fifos_are_refused_before_reading() {
    let dir = TempDir::new("odd-files");
    symlink("/dev/zero", dir.join("zero.sav")).unwrap();
    // 3 GB, sparse: costs nothing on disk, everything to read.
    std::fs::File::create(dir.join("big.sav"))
        .unwrap()
        .set_len(3 << 30)
        .unwrap();
    let fifo = dir.join("pipe.sav");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let out = delve_within(dir.path(), &["saves"], 20);
    ok(&out);
    let listing = stdout(&out);
    let row = |name| row_of(&listing, name);
    assert!(row("zero").contains("symbolic link"), "{listing}");
    assert!(row("big").contains("too large"), "{listing}");
    assert!(row("pipe").contains("FIFO"), "{listing}");
    // Named, each is refused at once: not a file of ours is bad input (2),
    // a file too large to be a save is a damaged save (1).
    for (name, code, says) in [
        ("zero", 2, "symbolic link"),
        ("pipe", 2, "FIFO"),
        ("big", 1, "too large"),
    ] {
        for args in [
            &["verify", name][..],
            &["simulate", "--load", name, "--turns", "1"],
        ] {
            let out = delve_within(dir.path(), args, 20);
            assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
            assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        }
    }
    // A path given to verify gets the same checks.
    let out = delve_within(dir.path(), &["verify", "/dev/zero"], 20);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let out = delve_within(dir.path(), &["verify", &fifo.display().to_string()], 20);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

// Item 5: versions.

#[test]
fn only_the_formats_that_exist_are_read() {
    let dir = TempDir::new("version-0");
    let mut bytes = small_save();
    forge(&mut bytes, 8, &0u16.to_le_bytes());
    let e = save::decode(&bytes, "x").unwrap_err();
    assert!(e.is_damage() && e.to_string().contains("format 0"), "{e}");
    std::fs::write(dir.join("v0.sav"), &bytes).unwrap();
    let out = delve_within(dir.path(), &["verify", "v0"], 20);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("format 0"), "{}", stderr(&out));
    let out = delve_within(dir.path(), &["saves"], 20);
    assert!(stdout(&out).contains("format 0"), "{}", stdout(&out));
}

// Item 6: a new run never replaces another unless asked.

#[test]
fn a_new_run_never_replaces_another_unless_asked() {
    let dir = TempDir::new("replace");
    let sim = |args: &[&str]| delve_in(dir.path(), &[&["simulate"][..], args].concat());
    let seed_of = |name: &str| {
        save::read_and_decode(&dir.join(name))
            .unwrap_or_else(|e| panic!("{e}"))
            .0
            .seed()
    };
    ok(&sim(&["--seed", "4", "--turns", "100", "--save", "mine"]));
    let out = sim(&["--seed", "5", "--turns", "100", "--save", "mine"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("a save named mine already exists") && err.contains("--replace"),
        "{err}"
    );
    assert_eq!(seed_of("mine.sav"), 4);
    assert!(!dir.join("mine.sav.bak").exists());
    // Continuing it is fine, under its own name or a new one.
    ok(&sim(&["--load", "mine", "--turns", "50", "--save", "mine"]));
    ok(&sim(&[
        "--load", "mine", "--turns", "50", "--save", "other",
    ]));
    assert_eq!(seed_of("other.sav"), 4);
    // A name that holds another save stays taken.
    let out = sim(&["--load", "mine", "--turns", "50", "--save", "other"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // --replace says so.
    ok(&sim(&[
        "--seed",
        "5",
        "--turns",
        "100",
        "--save",
        "mine",
        "--replace",
    ]));
    assert_eq!(seed_of("mine.sav"), 5);
    // A lone backup is a save too.
    std::fs::rename(dir.join("other.sav"), dir.join("other.sav.bak")).unwrap();
    let out = sim(&["--seed", "6", "--turns", "10", "--save", "other"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // The rule lives in the library, for `play` as for `simulate`.
    let saves = SaveDir::open(dir.path()).unwrap();
    assert!(matches!(
        saves.lock_new("other", false),
        Err(SaveError::Taken { .. })
    ));
    assert!(saves.lock_new("fresh", false).is_ok());
}

// Item 7: the backup is always an earlier turn.

#[test]
fn the_backup_is_an_earlier_turn_at_every_step_of_a_save() {
    let dir = TempDir::new("save-steps");
    let saves = SaveDir::open(dir.path()).unwrap();
    let lock = saves.lock("h").unwrap();
    save_turns(&saves, &lock, "h", 2, &[20, 40]);
    let backup_before = std::fs::read(saves.backup("h")).unwrap();
    let mut steps = Vec::new();
    saves
        .save_observed("h", &played(small_config(), 2, 60), 3, &lock, &mut |step| {
            // At every moment: the save is complete, and the backup is as
            // it was or an earlier turn than the save.
            let now = turn_of(&saves.file("h"));
            let backup = std::fs::read(saves.backup("h")).unwrap();
            let backup_turn = turn_of(&saves.backup("h"));
            assert!(
                backup == backup_before || backup_turn < now,
                "after {step}: backup turn {backup_turn}, save turn {now}"
            );
            steps.push(step.to_string());
        })
        .unwrap();
    assert!(steps.len() >= 3, "{steps:?}");
    assert_eq!(turn_of(&saves.file("h")), 60);
    assert_eq!(turn_of(&saves.backup("h")), 40);
}

#[test]
fn saving_the_turn_a_save_holds_writes_nothing() {
    let dir = TempDir::new("turns-0");
    let sim = |args: &[&str]| delve_in(dir.path(), &[&["simulate"][..], args].concat());
    ok(&sim(&["--seed", "1", "--turns", "20", "--save", "a"]));
    ok(&sim(&["--load", "a", "--turns", "30", "--save", "a"]));
    let save_before = std::fs::read(dir.join("a.sav")).unwrap();
    let backup_before = std::fs::read(dir.join("a.sav.bak")).unwrap();
    assert_eq!(turn_of(&dir.join("a.sav.bak")), 20);
    ok(&sim(&["--load", "a", "--turns", "0", "--save", "a"]));
    assert!(std::fs::read(dir.join("a.sav")).unwrap() == save_before);
    assert!(
        std::fs::read(dir.join("a.sav.bak")).unwrap() == backup_before,
        "the backup must stay an earlier turn, not turn {}",
        turn_of(&dir.join("a.sav.bak"))
    );
}

// Item 10: --turns.

#[test]
fn turns_beyond_the_end_of_time_are_refused() {
    let dir = TempDir::new("turns-max");
    ok(&delve_in(
        dir.path(),
        &["simulate", "--seed", "1", "--turns", "50", "--save", "a"],
    ));
    let before = std::fs::read(dir.join("a.sav")).unwrap();
    let out = delve_in(
        dir.path(),
        &[
            "simulate",
            "--load",
            "a",
            "--save",
            "a",
            "--turns",
            "18446744073709551615",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--turns"), "{}", stderr(&out));
    assert!(std::fs::read(dir.join("a.sav")).unwrap() == before);
}

// Item 16: the listing and verify.

/// The row of the save `name` in a `delve saves` listing.
fn row_of(listing: &str, name: &str) -> String {
    listing
        .lines()
        .find(|l| l.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("no row for {name}:\n{listing}"))
        .to_string()
}

/// Whether every row of a table starts (left-aligned) or ends
/// (right-aligned) each column where the header does.
fn assert_aligned(table: &str) {
    let mut lines = table.lines();
    let header: Vec<char> = lines.next().expect("a header").chars().collect();
    let rows: Vec<Vec<char>> = lines.map(|l| l.chars().collect()).collect();
    let at = |row: &Vec<char>, i: usize| row.get(i).copied().unwrap_or(' ');
    for (column, right) in [
        ("name", false),
        ("depth", true),
        ("turn", true),
        ("seed", true),
        ("outcome", false),
        ("size", true),
    ] {
        let text: String = header.iter().collect();
        let start = text.find(column).expect("column in header");
        let start = text[..start].chars().count();
        let end = start + column.chars().count();
        for row in &rows {
            let line: String = row.iter().collect();
            if right {
                assert!(
                    at(row, end - 1) != ' ' && at(row, end) == ' ',
                    "{column} not right-aligned in {line:?}\n{table}"
                );
            } else {
                assert!(
                    at(row, start) != ' ' && (start == 0 || at(row, start - 1) == ' '),
                    "{column} not left-aligned in {line:?}\n{table}"
                );
            }
        }
    }
}

#[test]
fn the_listing_fits_its_content_and_names_only_the_problem() {
    let dir = TempDir::new("listing");
    let sim = |args: &[&str]| delve_in(dir.path(), &[&["simulate"][..], args].concat());
    // A default name: seed- and 20 digits.
    ok(&sim(&[
        "--seed",
        "18446744073709551615",
        "--turns",
        "5",
        "--save",
        "seed-18446744073709551615",
    ]));
    ok(&sim(&["--seed", "3", "--turns", "20", "--save", "b"]));
    ok(&sim(&["--load", "b", "--turns", "20", "--save", "b"]));
    // A damaged save whose backup is fine.
    damage(&dir.join("b.sav"));
    // A run that has only its backup.
    ok(&sim(&["--seed", "4", "--turns", "10", "--save", "c"]));
    ok(&sim(&["--load", "c", "--turns", "10", "--save", "c"]));
    std::fs::remove_file(dir.join("c.sav")).unwrap();
    let out = delve_in(dir.path(), &["saves"]);
    ok(&out);
    let table = stdout(&out);
    assert_aligned(&table);
    let row = |name| row_of(&table, name);
    let damaged = row("b");
    assert!(
        damaged.contains("checksum") && !damaged.contains(&*dir.path().to_string_lossy()),
        "the status says the problem, not the path: {damaged}"
    );
    assert!(
        damaged.contains("backup") && damaged.contains("turn 20"),
        "{damaged}"
    );
    let lone = row("c");
    assert!(
        lone.contains("only the backup") && lone.contains(" 10 "),
        "{lone}"
    );
    // verify says the good backup is there.
    let out = delve_in(dir.path(), &["verify", "b"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("checksum") && err.contains("b.sav.bak") && err.contains("turn 20"),
        "{err}"
    );
}

#[test]
fn a_missing_saves_directory_is_named_not_listed_empty() {
    let dir = TempDir::new("no-dir");
    let missing = dir.join("nonexistent");
    for args in [&["saves"][..], &["verify", "x"]] {
        let out = delve_in(&missing, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("does not exist"),
            "{args:?}: {}",
            stderr(&out)
        );
        assert!(!missing.exists(), "{args:?} made the directory");
    }
    // A file where the directory should be.
    std::fs::write(&missing, "x").unwrap();
    let out = delve_in(&missing, &["saves"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("not a directory"), "{}", stderr(&out));
}

#[test]
fn saves_checks_headers_and_checksums_and_verify_decodes() {
    // A body behind correct lengths and checksums that does not decode:
    // `saves` reads only the header and checks the checksum, so it lists
    // the save as intact; `verify` decodes it and finds the problem.
    let dir = TempDir::new("shallow");
    let bytes = small_save();
    let mut raw = zstd::bulk::decompress(&bytes[HEADER_LEN..], 1 << 20).unwrap();
    raw.truncate(raw.len() / 2);
    std::fs::write(dir.join("half.sav"), uncompressed_save(&bytes, &raw)).unwrap();
    let out = delve_in(dir.path(), &["saves"]);
    ok(&out);
    let listing = stdout(&out);
    let row = row_of(&listing, "half");
    assert!(row.ends_with(" ok"), "{row}");
    let out = delve_in(dir.path(), &["verify", "half"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot decode"), "{}", stderr(&out));
}
