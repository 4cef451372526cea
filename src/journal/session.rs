//! Keeping a run's journal file as it plays: what `play` and `simulate`
//! call after each step and at each save. The run records its actions in
//! memory; this appends them to `NAME.journal` and syncs them at every
//! level change and save (with a checkpoint), and every [`FLUSH_ACTIONS`]
//! actions otherwise.

use std::path::Path;

use crate::sim::Run;
use crate::sim::record::Recording;

use super::actions::FLUSH_ACTIONS;
use super::block::Checkpoint;
use super::check::{Allowance, JournalFit, Parting, check_between, fit, spaced, start_within};
use super::error::JournalError;
use super::file::{JournalWriter, journal_path, read_file};
use super::start::Start;

/// Before a loaded run goes on recording into NAME.journal in `dir`: when
/// the journal holds the run's actions (all of them or the first) but a
/// checkpoint of it before the run's last action disagrees with the
/// replay of the run's own recording, the journal is not the run's record
/// from there, and continuing it would leave a file that stops a rebuild
/// at that checkpoint. It is renamed aside as `NAME.journal.other-N`
/// (never deleted), and the words say so; the session opened next begins
/// a new journal from the run. Costs a replay to the journal's last
/// checkpoint before the run's end, within `allowance`: a replay stopped
/// for the work, or one the rules refuse (the run's own recording is then
/// at fault, which loading checks), leaves the journal as it is.
pub fn set_aside_if_it_parts(
    dir: &Path,
    name: &str,
    run: &Run,
    allowance: &mut Allowance,
) -> Result<Option<String>, JournalError> {
    let Some(recording) = run.recording() else {
        return Ok(None);
    };
    let path = journal_path(dir, name);
    let Ok(journal) = read_file(&path) else {
        return Ok(None);
    };
    let start = start_of(run);
    if !matches!(
        fit(&journal, &start, recording),
        JournalFit::Same | JournalFit::Shorter(_)
    ) {
        return Ok(None);
    }
    let before_end: Vec<Checkpoint> = journal
        .checkpoints
        .iter()
        .filter(|c| c.actions < recording.len())
        .copied()
        .collect();
    let points = spaced(&before_end);
    let Some(until) = points.last().map(|p| p.actions) else {
        return Ok(None);
    };
    let Ok(Some(begun)) = start_within(&start, allowance) else {
        return Ok(None);
    };
    let checked = check_between(
        begun,
        recording,
        (0, until),
        &points,
        allowance,
        &mut |_| {},
    );
    let Some(parting @ Parting::Differs { expected, .. }) = checked.parting else {
        return Ok(None);
    };
    let kept = super::file::keep_aside(&path, "other")?;
    Ok(Some(format!(
        "{}: its checkpoint after {} does not agree with the replay of the save's recording ({parting}); kept it as {} and began a new journal from the save",
        path.display(),
        crate::words::count(expected.actions, "action", "actions"),
        kept.display()
    )))
}

/// A journal file kept in step with a run.
#[derive(Debug)]
pub struct Session {
    writer: JournalWriter,
    /// The depth at the last append: a different one is a level change.
    depth: u16,
}

/// What a run began with, as a journal records it.
pub fn start_of(run: &Run) -> Start {
    Start {
        seed: run.seed(),
        config: run.config().clone(),
        kinds: run.kinds().to_vec(),
        items: run.combat().map(|c| c.items.clone()).unwrap_or_default(),
        vaults: run.vaults().to_vec(),
    }
}

/// The checkpoint a run is at now, after the actions of `recording`. Costs
/// a digest (a walk over the whole run), so it is taken at saves and level
/// changes only.
pub fn checkpoint(run: &Run, recording: &Recording) -> Checkpoint {
    Checkpoint {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    }
}

impl Session {
    /// NAME's journal for `run`: a new one for a run at its start (any
    /// journal of that name replaced: the caller has taken the name for
    /// this run), or for a loaded run the journal beside it, kept and
    /// appended to if it holds the start of the run's recording and
    /// rebuilt from the recording otherwise. `None` for a run without a
    /// recording (loaded from a save made before runs were recorded). The
    /// note says what was done to the file when it was not simply kept.
    pub fn open(
        dir: &Path,
        name: &str,
        run: &Run,
    ) -> Result<Option<(Session, Option<String>)>, JournalError> {
        let Some(recording) = run.recording() else {
            return Ok(None);
        };
        let path = journal_path(dir, name);
        let (writer, note) = if recording.is_empty() {
            let writer = JournalWriter::create(&path, &start_of(run), recording.start_digest())?;
            (writer, None)
        } else {
            JournalWriter::resume(
                &path,
                &start_of(run),
                recording.start_digest(),
                recording,
                checkpoint(run, recording),
            )?
        };
        Ok(Some((
            Session {
                writer,
                depth: run.player().depth,
            },
            note,
        )))
    }

    /// After a step: appends at a level change, or when enough actions
    /// have piled up.
    pub fn stepped(&mut self, run: &Run) -> Result<(), JournalError> {
        let Some(recording) = run.recording() else {
            return Ok(());
        };
        if run.player().depth != self.depth {
            self.depth = run.player().depth;
            if recording.len() > self.writer.written() {
                return self.writer.append(recording, checkpoint(run, recording));
            }
        }
        if recording.len() - self.writer.written() >= FLUSH_ACTIONS {
            return self.writer.append_unchecked(recording);
        }
        Ok(())
    }

    /// At a save: appends everything not written yet, with a checkpoint.
    pub fn saved(&mut self, run: &Run) -> Result<(), JournalError> {
        let Some(recording) = run.recording() else {
            return Ok(());
        };
        self.depth = run.player().depth;
        if recording.len() == self.writer.written() {
            return Ok(());
        }
        self.writer.append(recording, checkpoint(run, recording))
    }

    /// The journal file, to name in messages.
    pub fn path(&self) -> &Path {
        self.writer.path()
    }
}
