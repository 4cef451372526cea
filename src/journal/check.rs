//! Replaying a recording headless and comparing it with what it should
//! give: the checkpoints of a journal file on the way, and a save's state
//! at the end. What `delve replay --check`, `delve verify` and the
//! journal fallback of `--load` share.

use crate::sim::Run;
use crate::sim::record::{Cursor, Recording, ReplayError};

use super::{Checkpoint, Start};

/// What a replay is expected to reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expected {
    /// After this many actions...
    pub actions: u64,
    /// ...the run is at this turn...
    pub turn: u64,
    /// ...with this digest.
    pub digest: u64,
}

impl From<Checkpoint> for Expected {
    fn from(c: Checkpoint) -> Self {
        Expected {
            actions: c.actions,
            turn: c.turn,
            digest: c.digest,
        }
    }
}

/// Where a replay first parted from what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parting {
    /// At an expected point, the turn or the digest differs. The state
    /// first differs after `agreed_turn` (the last point that agreed, 0 if
    /// none) and at or before `turn`.
    Differs {
        /// The turn of the last point that agreed (0 if none).
        agreed_turn: u64,
        /// The turn of the point that differs: the state differs by then.
        turn: u64,
        /// What the journal or the save holds there.
        expected: Expected,
        /// The turn the replay reached after the same actions.
        got_turn: u64,
        /// The replay's digest there.
        got_digest: u64,
    },
    /// The simulation refused a recorded action (or the run ended with
    /// actions left): the state differed by then, at the latest.
    Refused {
        /// The turn of the last point that agreed (0 if none).
        agreed_turn: u64,
        /// The turn the refusal came at.
        turn: u64,
        /// The action and why it was refused, for the user.
        what: String,
    },
}

impl Parting {
    /// The first turn at which the replay is known to differ.
    pub fn turn(&self) -> u64 {
        match self {
            Parting::Differs { turn, .. } | Parting::Refused { turn, .. } => *turn,
        }
    }
}

impl std::fmt::Display for Parting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Parting::Differs {
                agreed_turn,
                turn,
                expected,
                got_turn,
                got_digest,
            } => {
                write!(
                    f,
                    "after {} actions the replay is at turn {got_turn} with digest {got_digest:016x}, where the record says turn {} with digest {:016x}: the runs first differ at turn {turn} at the latest",
                    expected.actions, expected.turn, expected.digest
                )?;
                if *agreed_turn > 0 {
                    write!(f, " (they agreed at turn {agreed_turn})")?;
                }
                Ok(())
            }
            Parting::Refused {
                agreed_turn, what, ..
            } => {
                write!(f, "{what}")?;
                if *agreed_turn > 0 {
                    write!(f, " (the runs agreed at turn {agreed_turn})")?;
                }
                Ok(())
            }
        }
    }
}

/// The end of a checked replay.
#[derive(Debug)]
pub struct Checked {
    /// The run after every action that could be replayed.
    pub run: Run,
    /// Actions replayed.
    pub actions: u64,
    /// Expected points met on the way.
    pub agreed: usize,
    /// Where the replay parted from what was expected, if it did.
    pub parting: Option<Parting>,
}

/// Replays `recording` on `run` (the recorded run at its start), comparing
/// the turn and the digest at every point of `expected` (sorted by actions;
/// points past the recording are ignored). Stops at the first parting,
/// since what follows is a different run. `progress` hears the actions
/// replayed from time to time.
pub fn check(
    mut run: Run,
    recording: &Recording,
    expected: &[Expected],
    progress: &mut dyn FnMut(u64),
) -> Checked {
    let mut cursor = Cursor::default();
    let mut agreed = 0;
    let mut agreed_turn = 0;
    let mut points = expected
        .iter()
        .filter(|e| e.actions <= recording.len())
        .peekable();
    loop {
        while let Some(point) = points.next_if(|e| e.actions == cursor.position()) {
            let (turn, digest) = (run.turn(), run.digest());
            if (turn, digest) != (point.turn, point.digest) {
                let parting = Parting::Differs {
                    agreed_turn,
                    turn: turn.min(point.turn),
                    expected: *point,
                    got_turn: turn,
                    got_digest: digest,
                };
                return Checked {
                    run,
                    actions: cursor.position(),
                    agreed,
                    parting: Some(parting),
                };
            }
            agreed += 1;
            agreed_turn = turn;
        }
        if cursor.position().is_multiple_of(4096) {
            progress(cursor.position());
        }
        match cursor.step(recording, &mut run) {
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => {
                let what = match e {
                    ReplayError::Generate(e) => {
                        format!("a level of the run cannot be generated: {e}")
                    }
                    other => other.to_string(),
                };
                let turn = run.turn();
                return Checked {
                    run,
                    actions: cursor.position(),
                    agreed,
                    parting: Some(Parting::Refused {
                        agreed_turn,
                        turn,
                        what,
                    }),
                };
            }
        }
    }
    progress(cursor.position());
    Checked {
        run,
        actions: cursor.position(),
        agreed,
        parting: None,
    }
}

/// The run a start begins: the new run of its config, kinds, item kinds
/// and seed.
pub fn start_run(start: &Start) -> Result<Run, crate::generate::GenerateError> {
    Run::with_items(
        start.config.clone(),
        start.kinds.clone(),
        start.items.clone(),
        start.vaults.clone(),
        start.seed,
    )
}

/// How a journal file stands against the recording it should hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JournalFit {
    /// It holds the same actions.
    Same,
    /// It holds the first `n` of them (the turns since its last append were
    /// not written yet, or the save is newer).
    Shorter(u64),
    /// It holds them and `n` more (turns after the save, kept at a level
    /// change).
    Longer(u64),
    /// Its actions part from the recording, or its start is another run's.
    Other,
}

/// How `journal` (start and actions) fits `recording` of the run begun by
/// `start`.
pub fn fit(journal: &super::Journal, start: &Start, recording: &Recording) -> JournalFit {
    if journal.start != *start {
        return JournalFit::Other;
    }
    let theirs = &journal.recording;
    if theirs.len() == recording.len() && theirs.is_prefix_of(recording) {
        JournalFit::Same
    } else if theirs.is_prefix_of(recording) {
        JournalFit::Shorter(recording.len() - theirs.len())
    } else if recording.is_prefix_of(theirs) {
        JournalFit::Longer(theirs.len() - recording.len())
    } else {
        JournalFit::Other
    }
}

/// The points a replay of `recording` should meet: the journal's
/// checkpoints on the part it shares with the recording (none if it does
/// not fit), then `end` (the save's state, after the whole recording).
pub fn expected_points(
    journal: Option<&super::Journal>,
    start: &Start,
    recording: &Recording,
    end: Expected,
) -> Vec<Expected> {
    let mut points: Vec<Expected> = match journal {
        Some(j) if fit(j, start, recording) != JournalFit::Other => j
            .checkpoints
            .iter()
            .filter(|c| c.actions < recording.len())
            .map(|&c| c.into())
            .collect(),
        _ => Vec::new(),
    };
    points.push(end);
    points
}

/// The verdict of checking a save's recording: replayed from the start,
/// against the journal file's checkpoints (where it fits) and the save.
#[derive(Debug)]
pub struct Verdict {
    /// What was found, a line each, for the terminal.
    pub lines: Vec<String>,
    /// Where the replay parted from the journal or the save, if it did.
    pub parting: Option<Parting>,
    /// Actions replayed...
    pub actions: u64,
    /// ...and the turn they reached.
    pub turn: u64,
}

/// Replays `recording` (the save's, its run at the start begun by
/// `start`) and compares it with the journal file's checkpoints, where the
/// file fits the recording, and at the end with the save's state (`end`).
/// `journal` is the file as read (or why it could not be), and `journal_name`
/// how to call it.
pub fn check_save(
    start: &Start,
    recording: &Recording,
    end: Expected,
    journal: Result<&super::Journal, &super::JournalError>,
    journal_name: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<Verdict, crate::generate::GenerateError> {
    let mut lines = Vec::new();
    let file = journal.ok();
    match journal {
        Err(e) => lines.push(format!("{e}: checking the save's own recording")),
        Ok(j) => {
            if let Some(cut) = &j.cut {
                lines.push(format!("{journal_name}: {cut}"));
            }
            lines.push(match fit(j, start, recording) {
                JournalFit::Same => format!(
                    "{journal_name}: holds the save's {} actions",
                    recording.len()
                ),
                JournalFit::Shorter(n) => format!(
                    "{journal_name}: holds the save's first {} actions ({n} more are in the save only)",
                    j.recording.len()
                ),
                JournalFit::Longer(n) => format!(
                    "{journal_name}: holds the save's {} actions and {n} more, played after the save",
                    recording.len()
                ),
                JournalFit::Other => format!(
                    "{journal_name}: holds another run, or actions the save does not have: its checkpoints are not used"
                ),
            });
        }
    }
    let points = expected_points(file, start, recording, end);
    let checked = check(start_run(start)?, recording, &points, progress);
    let used = points.len() - 1;
    match &checked.parting {
        None => {
            if used > 0 {
                lines.push(format!(
                    "the replay agrees with the journal's {used} checkpoints on the way"
                ));
            }
            lines.push(format!(
                "the replay reaches turn {} with digest {:016x}, as the save holds",
                checked.run.turn(),
                checked.run.digest()
            ));
        }
        Some(parting) => lines.push(format!(
            "the replay differs, first at turn {}: {parting}",
            parting.turn()
        )),
    }
    Ok(Verdict {
        lines,
        actions: checked.actions,
        turn: checked.run.turn(),
        parting: checked.parting,
    })
}
