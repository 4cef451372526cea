//! `delve saves`: list the saves.

use std::path::Path;

use delve::journal::check::Allowance;
use delve::journal::journal_path;
use delve::journal::recover::{Past, journal_past, replay_journal};
use delve::save::SaveDir;

use super::{CliError, format_time, write_output};

pub fn run(dir: &Path) -> Result<(), CliError> {
    let saves = SaveDir::existing(dir)?;
    // One row a run: the save's summary (or its backup's, when only the
    // backup is there), its size, and what is wrong, if anything.
    let mut rows = vec![
        [
            "name",
            "depth",
            "turn",
            "seed",
            "outcome",
            "saved (UTC)",
            "size",
            "status",
        ]
        .map(String::from),
    ];
    let mut runs: Vec<[String; 8]> = Vec::new();
    for listing in saves.list()? {
        let (shown, status) = match (&listing.save, &listing.backup) {
            (Some(save), backup) => {
                let name = &listing.name;
                let status = match (&save.status, backup) {
                    // A save of a newer delve's revision has a sound header
                    // and checksum, but this build refuses to load it.
                    (Ok(s), _) => match newer(&saves.file(name)) {
                        Some(why) => why,
                        None => match ahead(&saves, name, s.turn) {
                            Some(further) => {
                                format!("ok, but --load uses the journal's run, {further}")
                            }
                            None => "ok".to_string(),
                        },
                    },
                    (Err(e), Some(b)) if b.status.is_ok() => {
                        let turn = b.status.as_ref().map_or(0, |s| s.turn);
                        match further(&saves, name, &saves.backup(name)) {
                            Some(further) => format!(
                                "{}; the backup (turn {turn}) is intact, but --load uses the journal's run, {further}",
                                e.problem()
                            ),
                            None => format!("{}; the backup (turn {turn}) is intact", e.problem()),
                        }
                    }
                    (Err(e), _) => match rebuilds(&saves, name) {
                        Some(rebuilt) => format!(
                            "{}; {}--load rebuilds the run from {name}.journal, {rebuilt}",
                            e.problem(),
                            if backup.is_some() {
                                "the backup is not intact either; "
                            } else {
                                ""
                            }
                        ),
                        None => e.problem(),
                    },
                };
                (save, status)
            }
            (None, Some(backup)) => {
                let status = match &backup.status {
                    Ok(b) => match further(&saves, &listing.name, &saves.backup(&listing.name)) {
                        Some(further) => format!(
                            "only the backup ({}.sav.bak, turn {}) is there; --load uses the journal's run, {further}",
                            listing.name, b.turn
                        ),
                        None => format!("only the backup ({}.sav.bak) is there", listing.name),
                    },
                    Err(e) => format!(
                        "only the backup is there, and it is not intact: {}",
                        e.problem()
                    ),
                };
                (backup, status)
            }
            (None, None) => continue,
        };
        let columns = match &shown.status {
            Ok(s) => [
                s.depth.to_string(),
                s.turn.to_string(),
                s.seed.to_string(),
                s.outcome.name().to_string(),
                format_time(s.saved_at),
            ],
            Err(_) => ["-", "-", "-", "-", "-"].map(String::from),
        };
        let [depth, turn, seed, outcome, saved] = columns;
        runs.push([
            listing.name.clone(),
            depth,
            turn,
            seed,
            outcome,
            saved,
            shown.size.to_string(),
            status,
        ]);
    }
    // Runs that have only their journal, which `--load` rebuilds: the seed
    // and the turn of its last checkpoint, read the cheap way too.
    for lone in delve::journal::lone::list(&saves)? {
        let name = &lone.name;
        let (turn, seed, status) = match &lone.status {
            Ok(s) => (
                s.turn.to_string(),
                s.seed.to_string(),
                format!(
                    "only the journal ({name}.journal): {}; --load {name} rebuilds the run from it",
                    journal_status(s)
                ),
            ),
            Err(e) => (
                "-".into(),
                "-".into(),
                format!(
                    "only the journal ({name}.journal) is there, and it cannot be used: {}",
                    e.problem()
                ),
            ),
        };
        let dash = || "-".to_string();
        runs.push([
            name.clone(),
            dash(),
            turn,
            seed,
            dash(),
            dash(),
            lone.size.to_string(),
            status,
        ]);
    }
    runs.sort_by(|a, b| a[0].cmp(&b[0]));
    rows.extend(runs);
    // Columns as wide as their widest entry; numbers to the right.
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..8).map(width).collect();
    let right = [false, true, true, true, false, false, true, false];
    let mut text = String::new();
    for row in &rows {
        let mut cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                if i == 7 {
                    cell.clone()
                } else if right[i] {
                    format!("{cell:>w$}", w = widths[i])
                } else {
                    format!("{cell:<w$}", w = widths[i])
                }
            })
            .collect();
        let status = cells.pop().unwrap_or_default();
        text.push_str(&format!("{}  {status}\n", cells.join(" ")));
    }
    write_output(None, text.as_bytes())
}

/// When NAME.journal takes the run of `file` (NAME's save, or its backup
/// when the save is damaged or missing) further, as `--load` judges it
/// (the same run, replayed and checked; so such a row costs a decode and
/// a replay, where the others read headers only): where it takes it, in a
/// few words. `None` when `--load` uses the file.
fn further(saves: &SaveDir, name: &str, file: &Path) -> Option<String> {
    let journal = journal_path(saves.path(), name);
    std::fs::symlink_metadata(&journal).ok()?;
    let (loaded, _) = delve::save::read_and_decode(file).ok()?;
    match journal_past(&journal, &loaded, &mut Allowance::default(), &mut |_| {}) {
        Past::Further(rebuilt) => Some(format!(
            "rebuilt from {name}.journal to turn {}",
            rebuilt.run.turn()
        )),
        Past::NotFurther(_) => None,
    }
}

/// [`further`] for an intact save at `turn`, asked only when the
/// journal's headers say it holds more actions than that (a crash between
/// its append and the save), so an ordinary row stays a header read.
fn ahead(saves: &SaveDir, name: &str, turn: u64) -> Option<String> {
    let journal = delve::journal::read_summary(&journal_path(saves.path(), name)).ok()?;
    if journal.actions <= turn {
        return None;
    }
    further(saves, name, &saves.file(name))
}

/// For a run whose save and backup are unusable or missing: where its
/// journal rebuilds it, as `--load` would (replayed and checked), in a
/// few words; `None` without a journal that rebuilds anything.
fn rebuilds(saves: &SaveDir, name: &str) -> Option<String> {
    let journal = journal_path(saves.path(), name);
    std::fs::symlink_metadata(&journal).ok()?;
    let rebuilt = replay_journal(&journal, &mut Allowance::default(), &mut |_| {}).ok()?;
    Some(format!("to turn {}", rebuilt.run.turn()))
}

/// A lone journal's actions, and whether its turn is that of its last
/// checkpoint with more actions after it, or what was cut off.
fn journal_status(s: &delve::journal::Summary) -> String {
    let mut text = if s.actions_at_turn == s.actions {
        delve::words::count(s.actions, "action", "actions")
    } else {
        format!(
            "{} actions, {} of them after the turn shown",
            s.actions,
            s.actions - s.actions_at_turn
        )
    };
    if let Some(cut) = &s.cut {
        text.push_str(&format!(" ({cut})"));
    }
    text
}

/// Why a save whose header and checksum are sound will not load here:
/// a newer delve's revision of the generator or the rules.
fn newer(path: &Path) -> Option<String> {
    match delve::save::read_and_decode(path) {
        Err(e @ delve::save::SaveError::NewerRevision { .. }) => Some(e.problem()),
        _ => None,
    }
}
