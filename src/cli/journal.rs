//! What `simulate` and `play` share about NAME.journal: whether it is
//! there, the run rebuilt from it when the save and its backup are
//! unusable, and opening it to keep in step with a run that plays.
//! `delve replay` is in `replay`; each command's own use of the journal is
//! in its file.

use delve::journal::check::Allowance;
use delve::journal::journal_path;
use delve::journal::recover::{RecoverError, Recovered, Source, read_run};
use delve::journal::session::Session;
use delve::save::{SaveDir, SaveError};
use delve::sim::Run;

use super::CliError;

/// Whether NAME has a journal file (of any kind: what it is is checked
/// when it is read).
pub fn has_journal(saves: &SaveDir, name: &str) -> bool {
    std::fs::symlink_metadata(journal_path(saves.path(), name)).is_ok()
}

/// The run rebuilt from NAME's journal, after `save_error` made the save
/// and its backup unusable. Reads only.
pub fn rebuild(
    saves: &SaveDir,
    name: &str,
    save_error: &SaveError,
    allowance: &mut Allowance,
) -> Result<Recovered, CliError> {
    match read_run(saves, name, allowance, &mut |_| {}) {
        Ok(recovered) if recovered.source == Source::Journal => Ok(recovered),
        // The files changed under us: load what is there.
        Ok(recovered) => Ok(recovered),
        Err(RecoverError::AllDamaged(problems)) => Err(CliError::NotLoaded(format!(
            "{save_error}; nothing could be loaded: {}",
            problems.join("; ")
        ))),
        Err(e) => Err(e.into()),
    }
}

/// NAME's run as `--load` takes it when NAME has a journal: the save,
/// else the further of the backup and the journal's run (the journal's
/// only when it is the backup's run gone further, checked), else the
/// journal's run. Reads only; `NotLoaded` when every file is damaged.
pub fn recover(
    saves: &SaveDir,
    name: &str,
    allowance: &mut Allowance,
) -> Result<Recovered, CliError> {
    read_run(saves, name, allowance, &mut |_| {}).map_err(|e| match e {
        RecoverError::AllDamaged(problems) => {
            CliError::NotLoaded(format!("nothing could be loaded: {}", problems.join("; ")))
        }
        e => e.into(),
    })
}

/// NAME's journal for a run about to play, with what was done to the file
/// said on stderr; `None` for a run that keeps no journal.
pub fn open_session(saves: &SaveDir, name: &str, run: &Run) -> Result<Option<Session>, CliError> {
    match Session::open(saves.path(), name, run)? {
        Some((session, note)) => {
            if let Some(note) = note {
                eprintln!("delve: warning: {note}");
            }
            Ok(Some(session))
        }
        None => {
            eprintln!(
                "delve: note: this run has no recording (it was saved before delve recorded runs, or its recording does not replay on this delve), so it keeps no journal"
            );
            Ok(None)
        }
    }
}
