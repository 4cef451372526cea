//! Lone journals: a `NAME.journal` with neither `NAME.sav` nor
//! `NAME.sav.bak` beside it (a new run left before its first save, or one
//! whose save files were removed). `--load NAME` rebuilds the run from it,
//! so it is a run like a save: `delve saves` lists it, `delve verify NAME`
//! replays it, and a new run is not saved under its name unless the
//! journal is that run's own, as for a save or a lone backup.

use std::fs;
use std::path::Path;

use crate::save::{SaveDir, SaveError};
use crate::sim::Run;

use super::error::JournalError;
use super::file::{journal_path, read_file, read_summary};
use super::session::start_of;
use super::summary::Summary;

/// One lone journal of a saves directory.
#[derive(Debug)]
pub struct LoneJournal {
    /// The run's name, without `.journal`.
    pub name: String,
    /// Bytes on disk.
    pub size: u64,
    /// The journal read the cheap way ([`summarise`](crate::journal::summarise)), or why it
    /// cannot be used.
    pub status: Result<Summary, JournalError>,
}

fn present(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Whether NAME has a lone journal: something is at `NAME.journal` (what
/// it is is checked when it is read) and neither the save nor its backup
/// is there.
pub fn is_lone(saves: &SaveDir, name: &str) -> bool {
    present(&journal_path(saves.path(), name)) && !saves.has(name)
}

/// The lone journals of the directory, sorted by name, each read the cheap
/// way. Only names a save could have count: `NAME.journal.ahead-N` (a
/// journal kept aside) and temporary files are not runs of their own.
pub fn list(saves: &SaveDir) -> Result<Vec<LoneJournal>, SaveError> {
    let dir = saves.path();
    let entries = fs::read_dir(dir).map_err(|source| SaveError::Io {
        path: dir.display().to_string(),
        source,
    })?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| {
            let file = entry.file_name().to_string_lossy().to_string();
            let name = file.strip_suffix(".journal")?;
            (SaveDir::check_name(name).is_ok() && !saves.has(name)).then(|| name.to_string())
        })
        .collect();
    names.sort();
    Ok(names
        .into_iter()
        .filter_map(|name| {
            let path = journal_path(dir, &name);
            let size = fs::symlink_metadata(&path).ok()?.len();
            Some(LoneJournal {
                status: read_summary(&path),
                size,
                name,
            })
        })
        .collect())
}

/// Refuses to let `run`, a new run or one loaded from another name, take
/// the name NAME when NAME holds a lone journal of another run: the same
/// [`SaveError::Taken`] a save or a lone backup there gives
/// ([`SaveDir::lock_new`]), saying what the journal holds. The journal is
/// this run's own when it begins as the run does and holds nothing the
/// run has not played (so a run restarted from the same seed and files
/// after it was left unsaved may take its name back). A journal that
/// cannot be read is another's: it is never replaced unasked.
pub fn refuse_other_run(saves: &SaveDir, name: &str, run: &Run) -> Result<(), SaveError> {
    let path = journal_path(saves.path(), name);
    if !present(&path) || saves.has(name) {
        return Ok(());
    }
    let holds = match read_file(&path) {
        Ok(journal) => {
            let own = journal.start == start_of(run)
                && run
                    .recording()
                    .is_some_and(|r| journal.recording.is_prefix_of(r));
            if own {
                return Ok(());
            }
            format!("only its journal: {}", journal.summary().describe())
        }
        Err(e) => format!("only its journal, which cannot be read: {}", e.problem()),
    };
    Err(SaveError::Taken {
        name: name.into(),
        dir: saves.path().display().to_string(),
        holds,
    })
}
