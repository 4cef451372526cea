//! A run back from whatever is left of it: `NAME.sav`, else
//! `NAME.sav.bak`, else `NAME.journal` replayed. Reading only: nothing here
//! renames, deletes or writes a file (the caller does, once the player
//! agrees where asking is the rule).

use std::path::Path;

use crate::save::{self, SaveDir, SaveError, Summary};
use crate::sim::Run;

use super::check::{Expected, check, start_run};
use super::{Cut, JournalError, read_file};

/// Where a recovered run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// NAME.sav: nothing was passed over.
    Save,
    /// NAME.sav.bak: the save was damaged or missing.
    Backup,
    /// NAME.journal replayed: the save and its backup were both unusable.
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
            Ok((run, summary)) => {
                if source == Source::Backup {
                    notes.push(loading(&path, &summary));
                }
                return Ok(Recovered { run, source, notes });
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

fn loading(path: &Path, summary: &Summary) -> String {
    format!(
        "loading the backup {} (turn {}, depth {})",
        path.display(),
        summary.turn,
        summary.depth
    )
}
