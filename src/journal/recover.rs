//! A run back from whatever is left of it: `NAME.sav`, else the further
//! of `NAME.sav.bak` and `NAME.journal` replayed (the journal only when it
//! is the backup's own run, checked, gone further), else `NAME.journal`
//! alone. Reading only: nothing here renames, deletes or writes a file
//! (the caller does, once the player agrees where asking is the rule).

use std::path::Path;

use crate::save::{self, SaveDir, SaveError, Summary};
use crate::sim::Run;

use super::check::{Expected, JournalFit, check, fit, start_run};
use super::session::start_of;
use super::{Cut, JournalError, read_file};

/// Where a recovered run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// NAME.sav: nothing was passed over.
    Save,
    /// NAME.sav.bak: the save was damaged or missing.
    Backup,
    /// NAME.journal replayed: the save and its backup were both unusable,
    /// or the backup was intact but the journal rebuilt the same run
    /// further on ([`Recovered::backup`] then says how far the backup is).
    Journal,
}

/// A run read back, and why it did not come from the save, if it did not.
#[derive(Debug)]
pub struct Recovered {
    /// The run as read or rebuilt.
    pub run: Run,
    /// Which file it came from, so a caller can say what it loaded.
    pub source: Source,
    /// What was wrong with each file passed over, and what was loaded
    /// instead, one line each, in order.
    pub notes: Vec<String>,
    /// The intact backup passed over for the journal's run, which went
    /// further: its summary. `None` unless `source` is
    /// [`Source::Journal`] with an intact backup.
    pub backup: Option<Summary>,
}

/// Why nothing could be recovered.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    /// There is no save, backup or journal of that name.
    #[error(transparent)]
    Missing(SaveError),
    /// An error that is not damage (a newer format, a link, an IO error):
    /// the file is left to the user rather than passed over.
    #[error(transparent)]
    Save(SaveError),
    /// A journal that cannot be used at all (save and backup already
    /// passed over).
    #[error(transparent)]
    Journal(JournalError),
    /// Every file there is damaged.
    #[error("{}", .0.join("; "))]
    AllDamaged(Vec<String>),
}

impl RecoverError {
    /// Whether the user asked for something that is not there or not a
    /// usable file (exit 2) rather than a failure on the way (exit 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            RecoverError::Missing(e) | RecoverError::Save(e) => e.is_bad_input(),
            RecoverError::Journal(JournalError::NotRegular { .. }) => true,
            _ => false,
        }
    }
}

fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Reads NAME's run: the save, or if it is damaged or missing the backup,
/// or if that is too the journal, replayed to its last intact block (and
/// checked against its checkpoints on the way). `progress` hears the
/// actions replayed.
pub fn read_run(
    saves: &SaveDir,
    name: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<Recovered, RecoverError> {
    SaveDir::check_name(name).map_err(RecoverError::Save)?;
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    for (path, source) in [
        (saves.file(name), Source::Save),
        (saves.backup(name), Source::Backup),
    ] {
        if !present(&path) {
            notes.push(format!("{} is missing", path.display()));
            continue;
        }
        match save::read_and_decode(&path) {
            Ok((run, _)) if source == Source::Save => {
                return Ok(Recovered {
                    run,
                    source,
                    notes,
                    backup: None,
                });
            }
            Ok((run, summary)) => {
                let journal = super::journal_path(saves.path(), name);
                return Ok(match journal_past(&journal, &run, progress) {
                    Past::Further(rebuilt) => {
                        if let Some(cut) = &rebuilt.cut {
                            notes.push(format!("{}: {cut}", journal.display()));
                        }
                        notes.push(format!(
                            "{} is at turn {} but {} reaches turn {} ({} actions more, replayed and checked): loaded the journal's run",
                            path.display(),
                            summary.turn,
                            journal.display(),
                            rebuilt.run.turn(),
                            rebuilt
                                .actions
                                .saturating_sub(run.recording().map_or(0, |r| r.len())),
                        ));
                        Recovered {
                            run: rebuilt.run,
                            source: Source::Journal,
                            notes,
                            backup: Some(summary),
                        }
                    }
                    Past::NotFurther(why) => {
                        notes.extend(why);
                        notes.push(loading(&path, &summary));
                        Recovered {
                            run,
                            source,
                            notes,
                            backup: None,
                        }
                    }
                });
            }
            Err(e) if e.is_damage() => {
                problems.push(e.to_string());
                notes.push(e.to_string());
            }
            Err(e) => return Err(RecoverError::Save(e)),
        }
    }
    let journal_path = super::journal_path(saves.path(), name);
    if !present(&journal_path) {
        if problems.is_empty() {
            return Err(RecoverError::Missing(SaveError::Missing {
                name: name.into(),
                dir: saves.path().display().to_string(),
            }));
        }
        problems.push(format!("{} is missing", journal_path.display()));
        return Err(RecoverError::AllDamaged(problems));
    }
    let rebuilt = replay_journal(&journal_path, progress).map_err(|e| match e {
        RecoverError::AllDamaged(more) => {
            RecoverError::AllDamaged(problems.iter().cloned().chain(more).collect())
        }
        e => e,
    })?;
    if let Some(cut) = &rebuilt.cut {
        notes.push(format!("{}: {cut}", journal_path.display()));
    }
    notes.push(format!(
        "rebuilt the run from {} (turn {}, {} actions replayed)",
        journal_path.display(),
        rebuilt.run.turn(),
        rebuilt.actions
    ));
    Ok(Recovered {
        run: rebuilt.run,
        source: Source::Journal,
        notes,
        backup: None,
    })
}

/// A run rebuilt from a journal file alone.
#[derive(Debug)]
pub struct Rebuilt {
    /// The run at the end of the journal's intact blocks.
    pub run: Run,
    /// Actions replayed.
    pub actions: u64,
    /// What was cut off after the intact blocks, if anything.
    pub cut: Option<Cut>,
}

/// Replays the journal at `path` from its start to its last intact block,
/// checked against its checkpoints on the way: what `--load` does when the
/// save and its backup are unusable or absent, and what `delve verify`
/// does to a journal. A journal that is damaged beyond its start, whose
/// start cannot be generated or which parts from its own checkpoints is
/// [`RecoverError::AllDamaged`]; one that cannot be read at all (not a
/// plain file, a newer format, an IO error) is [`RecoverError::Journal`].
pub fn replay_journal(path: &Path, progress: &mut dyn FnMut(u64)) -> Result<Rebuilt, RecoverError> {
    let journal = match read_file(path) {
        Ok(journal) => journal,
        Err(e @ (JournalError::Damaged { .. } | JournalError::NotAJournal(_))) => {
            return Err(RecoverError::AllDamaged(vec![e.to_string()]));
        }
        Err(e) => return Err(RecoverError::Journal(e)),
    };
    let start = start_run(&journal.start).map_err(|e| {
        RecoverError::AllDamaged(vec![format!(
            "{}: its start cannot be generated: {e}",
            path.display()
        )])
    })?;
    let expected: Vec<Expected> = journal.checkpoints.iter().map(|&c| c.into()).collect();
    let checked = check(start, &journal.recording, &expected, progress);
    // A replay that parts from the journal's own checkpoints is not the
    // recorded run (other rules, or a forged file): not a run to continue.
    if let Some(parting) = &checked.parting {
        return Err(RecoverError::AllDamaged(vec![format!(
            "{}: does not replay as recorded: {parting}",
            path.display()
        )]));
    }
    Ok(Rebuilt {
        run: checked.run,
        actions: checked.actions,
        cut: journal.cut,
    })
}

/// How a journal stands against a run loaded from the backup.
#[derive(Debug)]
pub enum Past {
    /// The journal holds the backup's run (the same start, the backup's
    /// actions first) and more actions after them, and its replay agrees
    /// with its own checkpoints and passes through the backup's state: the
    /// run at the end of its intact blocks.
    Further(Box<Rebuilt>),
    /// The backup's run is as far as the journal can take it: no journal,
    /// one that holds no more than the backup, another run, or one whose
    /// further actions do not rebuild. What is worth saying about it, if
    /// anything (a journal that goes further but does not rebuild, one
    /// that cannot be read).
    NotFurther(Option<String>),
}

/// Whether the journal at `path` takes `backup`'s run further than the
/// backup does (see [`Past`]). Reads only. The work is what a journal
/// rebuild does anyway: the file decoded within [`super::MAX_FILE`], and
/// a replay only when it holds more actions than the backup, bounded by
/// its actions.
pub fn journal_past(path: &Path, backup: &Run, progress: &mut dyn FnMut(u64)) -> Past {
    let Some(recording) = backup.recording() else {
        // Saved before runs were recorded: nothing to tell the runs apart.
        return Past::NotFurther(None);
    };
    if !present(path) {
        return Past::NotFurther(None);
    }
    let journal = match read_file(path) {
        Ok(journal) => journal,
        Err(e) => {
            return Past::NotFurther(Some(format!("{e}; it is not used")));
        }
    };
    let more = match fit(&journal, &start_of(backup), recording) {
        JournalFit::Longer(more) => more,
        JournalFit::Other => {
            return Past::NotFurther(Some(format!(
                "{} holds another run, or actions the backup does not have: it is not used",
                path.display()
            )));
        }
        JournalFit::Same | JournalFit::Shorter(_) => return Past::NotFurther(None),
    };
    let unused = |why: String| {
        Past::NotFurther(Some(format!(
            "{} holds {more} actions past the backup, but {why}: it is not used",
            path.display()
        )))
    };
    let start = match start_run(&journal.start) {
        Ok(start) => start,
        Err(e) => return unused(format!("its start cannot be generated: {e}")),
    };
    // The journal's checkpoints and the backup's own state, in the order a
    // replay meets them: passing through the backup's state is what makes
    // the journal's run the backup's, continued.
    let mut expected: Vec<Expected> = journal.checkpoints.iter().map(|&c| c.into()).collect();
    expected.push(Expected {
        actions: recording.len(),
        turn: backup.turn(),
        digest: backup.digest(),
    });
    expected.sort_by_key(|e| e.actions);
    let checked = check(start, &journal.recording, &expected, progress);
    if let Some(parting) = &checked.parting {
        return unused(format!("it does not replay as recorded: {parting}"));
    }
    Past::Further(Box::new(Rebuilt {
        run: checked.run,
        actions: checked.actions,
        cut: journal.cut,
    }))
}

fn loading(path: &Path, summary: &Summary) -> String {
    format!(
        "loading the backup {} (turn {}, depth {})",
        path.display(),
        summary.turn,
        summary.depth
    )
}
