//! Keeping a run's journal file as it plays: what `play` and `simulate`
//! call after each step and at each save. The run records its actions in
//! memory; this appends them to `NAME.journal` and syncs them at every
//! level change and save (with a checkpoint), and every [`FLUSH_ACTIONS`]
//! actions otherwise.

use std::path::Path;

use crate::sim::Run;
use crate::sim::record::Recording;

use super::{Checkpoint, FLUSH_ACTIONS, JournalError, JournalWriter, Start, journal_path};

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
    }
}

/// The checkpoint a run is at now. Costs a digest (a walk over the whole
/// run), so it is taken at saves and level changes only.
pub fn checkpoint(run: &Run, recording: &Recording) -> Checkpoint {
    Checkpoint {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    }
}

impl Session {
    /// A journal for a new run (at its start), at `dir/NAME.journal`,
    /// replacing any journal of that name (the caller has taken the name
    /// for this run).
    pub fn begin(dir: &Path, name: &str, run: &Run) -> Result<Session, JournalError> {
        let writer = JournalWriter::create(&journal_path(dir, name), &start_of(run), run.digest())?;
        Ok(Session {
            writer,
            depth: run.player().depth,
        })
    }

    /// The journal of a loaded run whose recording is `recording` and whose
    /// start was `start` (with digest `start_digest`): kept and appended to
    /// if it holds the start of this recording, rebuilt from it otherwise.
    /// The note says what was done to the file, when it was not simply
    /// continued.
    pub fn resume(
        dir: &Path,
        name: &str,
        run: &Run,
        start_digest: u64,
        recording: &Recording,
    ) -> Result<(Session, Option<String>), JournalError> {
        let (writer, note) = JournalWriter::resume(
            &journal_path(dir, name),
            &start_of(run),
            start_digest,
            recording,
            checkpoint(run, recording),
        )?;
        Ok((
            Session {
                writer,
                depth: run.player().depth,
            },
            note,
        ))
    }

    /// After a step: appends at a level change, or when enough actions
    /// have piled up.
    pub fn stepped(&mut self, run: &Run, recording: &Recording) -> Result<(), JournalError> {
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
    pub fn saved(&mut self, run: &Run, recording: &Recording) -> Result<(), JournalError> {
        self.depth = run.player().depth;
        if recording.len() == self.writer.written() {
            return Ok(());
        }
        self.writer.append(recording, checkpoint(run, recording))
    }

    pub fn path(&self) -> &Path {
        self.writer.path()
    }
}
