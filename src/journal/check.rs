//! Replaying a recording headless and comparing it with what it should
//! give: the checkpoints of a journal file on the way, and a save's state
//! at the end. What `delve replay --check`, `delve verify` and the
//! journal fallback of `--load` share.

use crate::sim::Run;
use crate::sim::record::Recording;
use crate::sim::replay::{Cursor, ReplayError};

use super::block::Checkpoint;
use super::encoding::Journal;
use super::error::JournalError;
use super::start::Start;

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
    /// The replay was stopped at `turn` because checking further would take
    /// more work than a command may do for a file ([`REPLAY_WORK`], shared
    /// by its replays: see [`Allowance`]); at turn 0 with every action
    /// left when making the run's levels alone would. Not a difference:
    /// what follows is not known to be wrong, only not checked.
    TooMuchWork {
        /// The turn of the last point that agreed (0 if none).
        agreed_turn: u64,
        /// The turn the replay stopped at.
        turn: u64,
        /// Actions the recording holds past it.
        left: u64,
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
            Parting::Differs { turn, .. }
            | Parting::Refused { turn, .. }
            | Parting::TooMuchWork { turn, .. } => *turn,
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
            Parting::TooMuchWork {
                agreed_turn,
                turn,
                left,
            } => {
                let why = format!(
                    "checking further would take more work than a check may do ({REPLAY_WORK} units, about two seconds; big levels, many monsters and digests of big levels cost more)"
                );
                if *left == 0 {
                    write!(
                        f,
                        "the replay reached turn {turn}, but comparing it with the record was not done because {why}"
                    )?;
                } else {
                    write!(
                        f,
                        "the replay was stopped at turn {turn} with {} left, because {why}",
                        crate::words::count(*left, "action", "actions")
                    )?;
                }
                if *agreed_turn > 0 {
                    write!(f, " (it agreed with the record at turn {agreed_turn})")?;
                }
                write!(
                    f,
                    "; what follows is not known to be wrong, only not checked"
                )
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
    /// The last expected point the replay met and agreed with, if any.
    pub last_agreed: Option<Expected>,
    /// The run at [`Checked::last_agreed`], kept when the replay parted
    /// after it: everything up to there is the recorded run, and a rebuild
    /// keeps it rather than nothing.
    pub before_parting: Option<Box<Run>>,
    /// Where the replay parted from what was expected, if it did.
    pub parting: Option<Parting>,
}

/// The most work ([`Run::work`]) a command does replaying and checking one
/// file's run before it stops: about two seconds on one core, whatever the
/// file's config asks of each turn (measured at 2.3 to 3.4 ns a unit, from
/// a few monsters a level to a thousand), so no save or journal, however
/// crafted, keeps `verify`, `--load`, `replay --check` or `saves` longer.
/// Making the run's levels and taking digests count too (their units are
/// set from their own timings, see `sim`), and every replay a command
/// makes of one file spends from one [`Allowance`]. A default run's turn
/// costs some 2,000 to 8,000 units, so this is 75,000 to 300,000 turns of
/// one; a whole game is some 16,000.
pub const REPLAY_WORK: u64 = 600_000_000;

/// What is left of the work ([`REPLAY_WORK`] to begin with) one command
/// may do replaying one file's run. A command makes one and hands it to
/// every replay and check it makes of that file (a save's start check,
/// the journal ahead of it, the check of its journal; a rebuild and the
/// check after it), so together they stay within the bound rather than
/// each taking its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    left: u64,
}

impl Default for Allowance {
    fn default() -> Self {
        Allowance { left: REPLAY_WORK }
    }
}

impl Allowance {
    /// Units still to spend.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// Spends `units` (all that is left, at most).
    pub fn spend(&mut self, units: u64) {
        self.left = self.left.saturating_sub(units);
    }
}

/// Replays `recording` on `run` (the recorded run at its start), comparing
/// the turn and the digest at every point of `expected` (sorted by actions;
/// points past the recording are ignored, and points at the same action
/// count cost one digest). Stops at the first parting, since what follows
/// is a different run, and when the work of its steps and digests would
/// pass what `allowance` has left (spending what it did). `progress`
/// hears the actions replayed from time to time.
pub fn check(
    run: Run,
    recording: &Recording,
    expected: &[Expected],
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Checked {
    let end = recording.len();
    check_between(run, recording, (0, end), expected, allowance, progress)
}

/// [`check`] of the actions of `recording` from `from` to `until` (`run`
/// is the recorded run after `from` actions): what a rebuild uses to look
/// again, closer, between the last point that agreed and the one that did
/// not. `until` is treated as the end.
pub(crate) fn check_between(
    run: Run,
    recording: &Recording,
    (from, until): (u64, u64),
    expected: &[Expected],
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Checked {
    let start_work = run.work();
    let budget = allowance.left();
    let (checked, digests) = replay(run, recording, (from, until), expected, budget, progress);
    allowance.spend(checked.run.work() - start_work + digests);
    checked
}

/// [`check_between`] within `budget` units: the end, and the work its
/// digests took (the rest is in the run's [`Run::work`]).
fn replay(
    mut run: Run,
    recording: &Recording,
    (from, until): (u64, u64),
    expected: &[Expected],
    budget: u64,
    progress: &mut dyn FnMut(u64),
) -> (Checked, u64) {
    let until = until.min(recording.len());
    let mut cursor = Cursor::at(recording, from);
    let start_work = run.work();
    let mut digests = 0u64;
    let mut agreed = 0;
    let mut last_agreed: Option<Expected> = None;
    let mut kept: Option<Box<Run>> = None;
    let mut points = expected
        .iter()
        .filter(|e| (from..=until).contains(&e.actions))
        .peekable();
    let mut parting: Option<Parting> = None;
    'replay: loop {
        let mut here: Option<(u64, u64)> = None;
        while let Some(point) = points.next_if(|e| e.actions == cursor.position()) {
            let agreed_turn = last_agreed.map_or(0, |p: Expected| p.turn);
            let (turn, digest) = match here {
                Some(here) => here,
                None => {
                    // A digest of big levels costs more than many turns:
                    // one that would pass the budget is not taken.
                    let cost = run.digest_work();
                    if run.work() - start_work + digests + cost > budget {
                        parting = Some(Parting::TooMuchWork {
                            agreed_turn,
                            turn: run.turn(),
                            left: recording.len() - cursor.position(),
                        });
                        break 'replay;
                    }
                    digests += cost;
                    *here.insert((run.turn(), run.digest()))
                }
            };
            if (turn, digest) != (point.turn, point.digest) {
                parting = Some(Parting::Differs {
                    agreed_turn,
                    turn: turn.min(point.turn),
                    expected: *point,
                    got_turn: turn,
                    got_digest: digest,
                });
                break 'replay;
            }
            agreed += 1;
            last_agreed = Some(*point);
        }
        // The run as it agreed, kept while actions follow: a later point
        // may part, an action be refused or the work run out, and a
        // rebuild keeps the run to here rather than nothing.
        if here.is_some() {
            kept = (cursor.position() < until).then(|| Box::new(run.clone()));
        }
        if cursor.position().is_multiple_of(4096) {
            progress(cursor.position());
        }
        if cursor.position() >= until {
            break;
        }
        if run.work() - start_work + digests > budget {
            parting = Some(Parting::TooMuchWork {
                agreed_turn: last_agreed.map_or(0, |p| p.turn),
                turn: run.turn(),
                left: recording.len() - cursor.position(),
            });
            break;
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
                parting = Some(Parting::Refused {
                    agreed_turn: last_agreed.map_or(0, |p| p.turn),
                    turn: run.turn(),
                    what,
                });
                break;
            }
        }
    }
    if parting.is_none() {
        progress(cursor.position());
        kept = None;
    }
    let checked = Checked {
        run,
        actions: cursor.position(),
        agreed,
        last_agreed,
        before_parting: kept,
        parting,
    };
    (checked, digests)
}

/// The most checkpoints of a file a replay compares, its start's and last
/// included. A comparison costs a digest of the whole run (some 2 ms for a
/// default run), so a journal of many small blocks, forged or saved every
/// turn, cannot make a replay cost thousands of them; an ordinary journal
/// has far fewer and all of them are compared.
pub const MAX_COMPARED: u64 = 128;

/// The checkpoints of `checkpoints` (sorted by actions, as a journal holds
/// them) a replay compares: all of them when there are at most
/// [`MAX_COMPARED`]; otherwise the first, the last, and between them each
/// that is at least a gap past the one taken before it, the gap rounded up
/// so that no more than [`MAX_COMPARED`] are taken in all (rounded down,
/// a journal of 255 actions and a checkpoint at each had all 256
/// compared). The others are passed over (their actions are replayed all
/// the same).
pub fn spaced(checkpoints: &[Checkpoint]) -> Vec<Expected> {
    let (Some(first), Some(last)) = (checkpoints.first(), checkpoints.last()) else {
        return Vec::new();
    };
    if checkpoints.len() as u64 <= MAX_COMPARED {
        return checkpoints.iter().map(|&c| c.into()).collect();
    }
    // Each point taken after the first is at least `gap` past the one
    // before, so at most `span / gap` of them, at most MAX_COMPARED - 2,
    // follow the first; the last makes one more.
    let span = last.actions - first.actions;
    let gap = span.div_ceil(MAX_COMPARED - 2).max(1);
    let mut out: Vec<Expected> = Vec::new();
    for (i, c) in checkpoints.iter().enumerate() {
        let is_last = i + 1 == checkpoints.len();
        let far = out
            .last()
            .is_none_or(|p| c.actions >= p.actions.saturating_add(gap));
        if far || is_last {
            out.push((*c).into());
        }
    }
    out
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

/// [`start_run`] for a replay of a file: its levels made within what
/// `allowance` has left, and spent from it. `None` when making them would
/// take more (at once when their area alone would, see
/// [`Run::prove_stack_within`]): the allowance is then spent, since any
/// other replay of the run would need the same levels.
pub fn start_within(
    start: &Start,
    allowance: &mut Allowance,
) -> Result<Option<Run>, crate::generate::GenerateError> {
    let run = Run::with_items_within(
        start.config.clone(),
        (
            start.kinds.clone(),
            start.items.clone(),
            start.vaults.clone(),
        ),
        start.seed,
        allowance.left(),
    )?;
    match run {
        Some(run) => {
            allowance.spend(run.work());
            Ok(Some(run))
        }
        None => {
            allowance.spend(allowance.left());
            Ok(None)
        }
    }
}

/// Where a replay stands when its start could not be made within the work
/// left: stopped at turn 0, with every action of `recording` left.
pub fn unstarted(recording: &Recording) -> Parting {
    Parting::TooMuchWork {
        agreed_turn: 0,
        turn: 0,
        left: recording.len(),
    }
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
pub fn fit(journal: &Journal, start: &Start, recording: &Recording) -> JournalFit {
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
/// not fit), [`spaced`], then `end` (the save's state, after the whole
/// recording). A journal checkpoint at the save's own last action is kept
/// beside `end`: both are compared, at the cost of one digest, so a
/// journal that agrees with everything but its last block is found out.
/// Also returns how many of the journal's checkpoints that part holds.
pub fn expected_points(
    journal: Option<&Journal>,
    start: &Start,
    recording: &Recording,
    end: Expected,
) -> (Vec<Expected>, usize) {
    let shared: Vec<Checkpoint> = match journal {
        Some(j) if fit(j, start, recording) != JournalFit::Other => j
            .checkpoints
            .iter()
            .filter(|c| c.actions <= recording.len())
            .copied()
            .collect(),
        _ => Vec::new(),
    };
    let mut points = spaced(&shared);
    points.push(end);
    (points, shared.len())
}

/// How many checkpoints of how many a replay compared, in words: "its 3
/// checkpoints", "128 of its 4000 checkpoints (spread over its actions,
/// and the last)".
pub fn compared_words(compared: usize, of: usize) -> String {
    if compared == of {
        format!(
            "its {}",
            crate::words::count(of as u64, "checkpoint", "checkpoints")
        )
    } else {
        format!("{compared} of its {of} checkpoints (spread over its actions, and the last)")
    }
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
    journal: Result<&Journal, &JournalError>,
    journal_name: &str,
    allowance: &mut Allowance,
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
                    "{journal_name}: holds the save's {}",
                    crate::words::count(recording.len(), "action", "actions")
                ),
                JournalFit::Shorter(n) => format!(
                    "{journal_name}: holds the save's first {} ({n} more {} in the save only)",
                    crate::words::count(j.recording.len(), "action", "actions"),
                    crate::words::noun(n, "is", "are")
                ),
                JournalFit::Longer(n) => format!(
                    "{journal_name}: holds the save's {} and {n} more, played after the save",
                    crate::words::count(recording.len(), "action", "actions")
                ),
                JournalFit::Other => format!(
                    "{journal_name}: holds another run, or actions the save does not have: its checkpoints are not used"
                ),
            });
        }
    }
    let (points, shared) = expected_points(file, start, recording, end);
    let Some(run) = start_within(start, allowance)? else {
        let parting = unstarted(recording);
        lines.push(format!("the replay was not checked: {parting}"));
        return Ok(Verdict {
            lines,
            actions: 0,
            turn: 0,
            parting: Some(parting),
        });
    };
    let checked = check(run, recording, &points, allowance, progress);
    let compared = points.len() - 1;
    match &checked.parting {
        None => {
            if compared > 0 {
                lines.push(format!(
                    "the replay agrees with the journal at {} on the way",
                    compared_words(compared, shared)
                ));
            }
            lines.push(format!(
                "the replay reaches turn {} with digest {:016x}, as the save holds",
                checked.run.turn(),
                checked.run.digest()
            ));
        }
        Some(parting @ Parting::TooMuchWork { .. }) => {
            lines.push(format!("the replay agrees as far as it went: {parting}"))
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

/// What loading found of a run's recording ([`check_start`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartCheck {
    /// No recording, or one whose start regenerates as stored.
    Agrees,
    /// The stored start digest was not the start this build makes, but the
    /// actions replay from that start to the run's state: the stored digest
    /// was stale (a digest that changed after it was written) and is
    /// corrected. The words say so.
    Corrected(String),
    /// The recording does not replay from the start this build makes: it
    /// is dropped, and the run goes on without one. The words say why.
    Dropped(String),
}

/// Checks that a loaded run's recording starts where this build starts
/// the run: the start made again from its seed, config and kinds
/// ([`Run::start_again`], one level) must have the digest the recording
/// stores, or a journal continued from it would disagree from turn 0 and
/// never rebuild the run. When it differs, the actions are replayed from
/// the start made here to the run's state (bounded by
/// [`crate::sim::MAX_TURNS`]): reaching it corrects the stored digest,
/// anything else drops the recording. A start that cannot be made is the
/// error.
pub fn check_start(
    run: &mut Run,
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Result<StartCheck, crate::generate::GenerateError> {
    let Some(recording) = run.recording() else {
        return Ok(StartCheck::Agrees);
    };
    let start = run.start_again()?;
    // Its one level, made here, is work of the check.
    allowance.spend(start.work());
    let (stored, made) = (recording.start_digest(), start.digest());
    if stored == made {
        return Ok(StartCheck::Agrees);
    }
    let end = Expected {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    };
    let checked = check(start, recording, &[end], allowance, progress);
    if checked.parting.is_none() {
        run.correct_start_digest(made);
        return Ok(StartCheck::Corrected(format!(
            "its recording stores the start digest {stored:016x}, where this delve makes the run's start with digest {made:016x}; its {} replay from that start to the saved state, so the stored digest was stale and is corrected",
            crate::words::count(recording_len(run), "action", "actions")
        )));
    }
    run.forget_recording();
    if let Some(parting @ Parting::TooMuchWork { .. }) = &checked.parting {
        return Ok(StartCheck::Dropped(format!(
            "its recording stores the start digest {stored:016x}, where this delve makes {made:016x}, and whether its actions reach the saved state from there could not be checked ({parting}): the run goes on without a recording, so it keeps no journal and cannot be replayed"
        )));
    }
    Ok(StartCheck::Dropped(format!(
        "its recording does not replay on this delve (its start is stored with digest {stored:016x}, this delve makes {made:016x}, and its actions do not reach the saved state): the run goes on without a recording, so it keeps no journal and cannot be replayed"
    )))
}

fn recording_len(run: &Run) -> u64 {
    run.recording().map_or(0, Recording::len)
}
