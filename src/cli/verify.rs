//! `delve verify`: check a save and say what it holds or what is wrong.

use std::path::{Path, PathBuf};

use delve::journal::check::{Allowance, Expected, Parting, check_save};
use delve::journal::lone;
use delve::journal::recover::{Past, journal_past, replay_journal};
use delve::journal::session::start_of;
use delve::journal::{journal_path, read_file};
use delve::save::{SaveDir, SaveError};
use delve::sim::Run;

use super::{CliError, check_recording, format_time, prove_loaded, write_output};

#[derive(clap::Args)]
pub struct VerifyArgs {
    #[arg(value_name = "NAME|FILE")]
    save: String,
}

pub fn run(args: VerifyArgs, dir: &Path) -> Result<(), CliError> {
    let save = args.save.as_str();
    // A path (something there, or anything that cannot be a save name) is
    // checked as given; a name is looked up in the saves directory.
    let given = Path::new(save);
    let path = if std::fs::symlink_metadata(given).is_ok() || SaveDir::check_name(save).is_err() {
        // A journal given by its path is replayed, as `--load` would.
        if given.extension().is_some_and(|e| e == "journal") {
            return verify_journal(given, None);
        }
        given.to_path_buf()
    } else {
        let saves = SaveDir::existing(dir)?;
        let path = saves.file(save);
        if std::fs::symlink_metadata(&path).is_err() {
            // Name what is there instead of a bare "no such file": nothing,
            // or only the backup (which is what a load would use).
            let backup = saves.backup(save);
            if std::fs::symlink_metadata(&backup).is_ok() {
                // Which one loading uses: the backup, or the journal's run
                // when it takes the backup's run further.
                let further = delve::save::read_and_decode(&backup)
                    .ok()
                    .and_then(|(run, b)| further_than_backup(saves.path(), save, &run, &b));
                return Err(CliError::Usage(match further {
                    Some(further) => format!(
                        "{} is missing; its backup {} is there, {further} (`delve verify {}` checks the backup)",
                        path.display(),
                        backup.display(),
                        backup.display()
                    ),
                    None => format!(
                        "{} is missing; its backup {} is there (`delve verify {}` checks it; loading {save} would use it)",
                        path.display(),
                        backup.display(),
                        backup.display()
                    ),
                }));
            }
            // Only the journal: `--load` rebuilds the run from it, so it
            // is checked the same way.
            if lone::is_lone(&saves, save) {
                return verify_journal(&journal_path(saves.path(), save), Some(save));
            }
            return Err(SaveError::Missing {
                name: save.into(),
                dir: saves.path().display().to_string(),
            }
            .into());
        }
        path
    };
    let (mut run, summary) = match delve::save::read_and_decode(&path) {
        Ok(loaded) => loaded,
        Err(error) if error.is_damage() => {
            // Say whether the backup would stand in, as loading would use it.
            let backup = PathBuf::from(format!("{}.bak", path.display()));
            let is_save = path.extension().is_some_and(|e| e == "sav");
            return Err(match delve::save::read_and_decode(&backup) {
                Ok((backup_run, b)) if is_save => {
                    let further = path
                        .file_name()
                        .and_then(|f| f.to_str())
                        .and_then(|f| f.strip_suffix(".sav"))
                        .zip(path.parent())
                        .and_then(|(name, dir)| further_than_backup(dir, name, &backup_run, &b));
                    let note = match further {
                        Some(further) => format!(
                            "delve: its backup {} is intact, {further} (play asks first)",
                            backup.display()
                        ),
                        None => format!(
                            "delve: its backup {} is intact (depth {}, turn {}); loading the save uses it instead (play asks first)",
                            backup.display(),
                            b.depth,
                            b.turn
                        ),
                    };
                    CliError::DamagedWithBackup { error, note }
                }
                // No usable backup: whether the journal rebuilds the run,
                // as loading would try next.
                _ if is_save => match rebuilt_from_journal(&path) {
                    Some(note) => CliError::DamagedWithBackup { error, note },
                    None => error.into(),
                },
                _ => error.into(),
            });
        }
        Err(error) => return Err(error.into()),
    };
    // One allowance for every replay of the run this check makes: its
    // start, the journal ahead of it and the check of its journal.
    let mut allowance = Allowance::default();
    let recording = check_recording(&mut run, &path, &mut allowance)?;
    prove_loaded(&mut run, &path)?;
    let mut text = format!(
        "{}: ok, would load\nformat: {}\nwritten by: delve {}\nsaved: {} UTC\nseed: {}\ndepth: {}\nturn: {}\noutcome: {}\nrevisions: generator {}, rules {}\nlevels stored: {}\ndigest: {:016x}\n",
        path.display(),
        summary.format,
        summary.program,
        format_time(summary.saved_at),
        summary.seed,
        summary.depth,
        summary.turn,
        summary.outcome.name(),
        run.config().revisions.generator,
        run.config().revisions.rules,
        run.visited().count(),
        run.digest()
    );
    if let Some((words, _)) = recording {
        text.push_str(&format!("recording: {words}\n"));
    }
    if let Some(line) = secret_doors_line(&run) {
        text.push_str(&line);
    }
    // A save named in the saves directory: whether its journal agrees.
    if let Some(name) = path
        .file_name()
        .and_then(|f| f.to_str())
        .and_then(|f| f.strip_suffix(".sav"))
        && let Some(dir) = path.parent()
    {
        for line in verify_lines(dir, name, &run, &mut allowance) {
            text.push_str(&line);
            text.push('\n');
        }
    }
    write_output(None, text.as_bytes())
}

/// What the run's stored levels hide (rules 3): the secret doors not
/// found yet, and that each level keeps its promise (every staircase
/// reached from every other without one), which loading checked and is
/// checked again here, so a save that says so has been proved to.
fn secret_doors_line(run: &Run) -> Option<String> {
    if run.config().revisions.rules < 3 {
        return None;
    }
    let mut hidden = 0;
    for depth in run.visited() {
        let level = &run.level_state(depth)?.level;
        if let Some(what) = level.stranded_by_secret_doors() {
            return Some(format!("secret doors: depth {depth}: {what}\n"));
        }
        hidden += level
            .tiles()
            .iter()
            .filter(|&&t| t == delve::Tile::SecretDoor)
            .count();
    }
    Some(format!(
        "secret doors: {hidden} not found yet on the levels stored; every staircase reaches every other without them\n"
    ))
}

/// When NAME.journal in `dir` takes `backup`'s run further than the backup
/// (as `--load` judges it: the same run, replayed and checked), the words
/// saying so and that loading uses it, with the turns of both; `None`
/// when loading would use the backup (what is wrong with the journal, if
/// anything, is said on stderr).
fn further_than_backup(
    dir: &Path,
    name: &str,
    backup: &Run,
    summary: &delve::save::Summary,
) -> Option<String> {
    let journal = journal_path(dir, name);
    match journal_past(&journal, backup, &mut Allowance::default(), &mut |_| {}) {
        Past::Further(rebuilt) => {
            let checked = rebuilt.checked_words();
            let mut run = rebuilt.run;
            // Its levels made, as loading does, or it is not what loads.
            if let Err(e) = prove_loaded(&mut run, &journal) {
                eprintln!("delve: {e}");
                return None;
            }
            Some(format!(
                "at depth {}, turn {}; but {} rebuilds the same run further, to depth {}, turn {} \
                 ({}{}): loading {name} uses the journal's run, and the backup is kept",
                summary.depth,
                summary.turn,
                journal.display(),
                run.player().depth,
                run.turn(),
                checked,
                rebuilt
                    .cut
                    .map_or_else(String::new, |cut| format!("; {cut}"))
            ))
        }
        Past::NotFurther(why) => {
            if let Some(why) = why {
                eprintln!("delve: {why}");
            }
            None
        }
    }
}

/// `delve verify` of a journal: the run rebuilt from it as `--load` does
/// when there is no usable save (replayed and checked against its
/// checkpoints, then its levels made), and what it holds; or what is
/// wrong. `name` is the run's name when the journal is all it has.
fn verify_journal(path: &Path, name: Option<&str>) -> Result<(), CliError> {
    let rebuilt = replay_journal(path, &mut Allowance::default(), &mut |_| {})?;
    let checked = rebuilt.checked_words();
    let parted = rebuilt.parted.clone();
    let mut run = rebuilt.run;
    prove_loaded(&mut run, path)?;
    let what = match name {
        Some(name) => format!(
            "would load: {name} has no save or backup, and --load {name} rebuilds the run from this journal"
        ),
        None => "replays to its last intact block".to_string(),
    };
    let mut text = format!(
        "{}: ok, {what}\nseed: {}\ndepth: {}\nturn: {}\noutcome: {}\nactions replayed: {}\nchecked: {checked}\nlevels stored: {}\ndigest: {:016x}\n",
        path.display(),
        run.seed(),
        run.player().depth,
        run.turn(),
        run.outcome().name(),
        rebuilt.actions,
        run.visited().count(),
        run.digest()
    );
    if let Some(cut) = &rebuilt.cut {
        text.push_str(&format!("journal: {cut}\n"));
    }
    if let Some(parted) = &parted {
        text.push_str(&format!("journal: {parted}\n"));
    }
    write_output(None, text.as_bytes())
}

/// The journal lines `delve verify NAME` adds: whether the journal file is
/// there, intact, this run's, and replays to the save's state.
fn verify_lines(dir: &Path, name: &str, run: &Run, allowance: &mut Allowance) -> Vec<String> {
    let path = journal_path(dir, name);
    if std::fs::symlink_metadata(&path).is_err() {
        return vec![format!("journal: {} is missing", path.display())];
    }
    let Some(recording) = run.recording() else {
        return vec![
            "journal: the save has no recording (it was saved before delve recorded runs, or its \
             recording does not replay on this delve)"
                .into(),
        ];
    };
    let journal = read_file(&path);
    let end = Expected {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    };
    match check_save(
        &start_of(run),
        recording,
        end,
        journal.as_ref(),
        &path.display().to_string(),
        allowance,
        &mut |_| {},
    ) {
        Ok(verdict) => {
            let mut lines: Vec<String> = verdict
                .lines
                .iter()
                .map(|l| format!("journal: {l}"))
                .collect();
            // A journal ahead of the save (a crash between its append and
            // the save): loading takes its run when it rebuilds.
            if let Ok(j) = &journal
                && j.recording.len() > recording.len()
            {
                lines.push(match journal_past(&path, run, allowance, &mut |_| {}) {
                    Past::Further(rebuilt) => format!(
                        "journal: loading {name} uses the journal's run, at depth {}, turn {} ({}), and keeps the save",
                        rebuilt.run.player().depth,
                        rebuilt.run.turn(),
                        rebuilt.checked_words()
                    ),
                    Past::NotFurther(why) => format!(
                        "journal: loading {name} uses the save{}",
                        why.map_or_else(String::new, |w| format!(": {w}"))
                    ),
                });
            }
            lines.push(format!(
                "journal: {}",
                match &verdict.parting {
                    None => "agrees".to_string(),
                    Some(Parting::TooMuchWork { turn, .. }) => {
                        format!(
                            "checked to turn {turn}, where the replay was stopped for the work: not known to disagree"
                        )
                    }
                    Some(_) => "DISAGREES".to_string(),
                }
            ));
            lines
        }
        Err(e) => vec![format!("journal: the run's start cannot be generated: {e}")],
    }
}

/// For a damaged save with no usable backup: when NAME.journal beside it
/// rebuilds the run (as loading does next, replayed and checked), the
/// words saying so and to which turn; `None` otherwise.
fn rebuilt_from_journal(save: &Path) -> Option<String> {
    let name = save.file_name()?.to_str()?.strip_suffix(".sav")?;
    let journal = journal_path(save.parent()?, name);
    std::fs::symlink_metadata(&journal).ok()?;
    match replay_journal(&journal, &mut Allowance::default(), &mut |_| {}) {
        Ok(rebuilt) => Some(format!(
            "delve: no usable backup, but {} rebuilds the run to depth {}, turn {} ({}): loading {name} uses it (play asks first)",
            journal.display(),
            rebuilt.run.player().depth,
            rebuilt.run.turn(),
            rebuilt.checked_words()
        )),
        Err(e) => Some(format!(
            "delve: no usable backup, and {} cannot rebuild the run: {e}",
            journal.display()
        )),
    }
}
