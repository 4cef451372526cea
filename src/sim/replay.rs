//! The replay of a recording: a cursor that steps a run it is given
//! through the recorded actions, and a replay that owns its run. A
//! recording that does not belong to the rules is named where it parts
//! from them.

use crate::config::Config;
use crate::generate::GenerateError;
use crate::sim::kinds::monster::MonsterKind;
use crate::sim::record::Recording;
use crate::sim::state::Run;
use crate::sim::vocabulary::{Action, Event};

/// Why a replay stopped before the end of its recording.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// A level could not be generated (the recording's config cannot make
    /// its stack).
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The simulation refused a recorded action: the recording was not
    /// made by these rules (or from this start).
    #[error(
        "recorded action {index} ({action}) at turn {turn} is not possible in the replayed run: the recording does not match these rules"
    )]
    Refused {
        /// Which recorded action (0 is the first), to find it in the journal.
        index: u64,
        /// The replayed run's turn when it was refused.
        turn: u64,
        /// The action refused.
        action: Action,
    },
    /// The run ended (won, lost, or at the last turn) with actions left.
    #[error("the run ended at turn {turn} with {left} recorded actions left")]
    Ended {
        /// The turn the run ended at.
        turn: u64,
        /// Recorded actions not played.
        left: u64,
    },
}

/// A place in a recording: how far a replay has got. It steps a run it is
/// given, so a viewer can keep the run (and swap in an earlier copy of it
/// to go back).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The run of equal actions next, and how many of it are played.
    at: (usize, u32),
    /// Actions played.
    done: u64,
}

impl Cursor {
    /// The place after `done` actions of `recording` (its end if it holds
    /// fewer).
    pub fn at(recording: &Recording, done: u64) -> Cursor {
        let mut left = done.min(recording.len());
        let done = left;
        for (i, &(_, times)) in recording.runs().iter().enumerate() {
            if left < u64::from(times) {
                return Cursor {
                    at: (i, left as u32),
                    done,
                };
            }
            left -= u64::from(times);
        }
        Cursor {
            at: (recording.runs().len(), 0),
            done,
        }
    }

    /// Actions played so far.
    pub fn position(&self) -> u64 {
        self.done
    }

    /// The next action, without playing it.
    pub fn peek(&self, recording: &Recording) -> Option<Action> {
        recording.runs().get(self.at.0).map(|&(a, _)| a)
    }

    /// Plays the next action of `recording` on `run`, which must be the
    /// recorded run after [`Cursor::position`] actions: its events, or
    /// `None` at the end.
    pub fn step(
        &mut self,
        recording: &Recording,
        run: &mut Run,
    ) -> Result<Option<Vec<Event>>, ReplayError> {
        let Some(&(action, times)) = recording.runs().get(self.at.0) else {
            return Ok(None);
        };
        let turn = run.turn();
        let events = run.step(action)?;
        if events == [Event::Blocked] {
            return Err(
                if run.outcome() != crate::sim::vocabulary::Outcome::Playing {
                    ReplayError::Ended {
                        turn,
                        left: recording.len() - self.done,
                    }
                } else {
                    ReplayError::Refused {
                        index: self.done,
                        turn,
                        action,
                    }
                },
            );
        }
        self.done += 1;
        self.at.1 += 1;
        if self.at.1 == times {
            self.at = (self.at.0 + 1, 0);
        }
        Ok(Some(events))
    }
}

/// A recording being played back on a run it owns.
#[derive(Debug)]
pub struct Replay {
    run: Run,
    recording: Recording,
    cursor: Cursor,
}

impl Replay {
    /// A replay from the start: a new run of (config, kinds, seed), before
    /// its first action.
    pub fn new(
        config: Config,
        kinds: Vec<MonsterKind>,
        seed: u64,
        recording: Recording,
    ) -> Result<Replay, GenerateError> {
        Ok(Replay::from_run(Run::new(config, kinds, seed)?, recording))
    }

    /// A replay of `recording` on a run at its start.
    pub fn from_run(run: Run, recording: Recording) -> Replay {
        Replay {
            run,
            recording,
            cursor: Cursor::default(),
        }
    }

    /// The run as replayed so far, to compare or show.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The replayed run, to continue playing it or keep it.
    pub fn into_run(self) -> Run {
        self.run
    }

    /// The recording being played back.
    pub fn recording(&self) -> &Recording {
        &self.recording
    }

    /// Actions played so far.
    pub fn position(&self) -> u64 {
        self.cursor.done
    }

    /// Actions left to play.
    pub fn remaining(&self) -> u64 {
        self.recording.len() - self.cursor.done
    }

    /// Whether every recorded action has been played.
    pub fn at_end(&self) -> bool {
        self.remaining() == 0
    }

    /// Plays the next recorded action: its events, or `None` at the end.
    pub fn step(&mut self) -> Result<Option<Vec<Event>>, ReplayError> {
        self.cursor.step(&self.recording, &mut self.run)
    }

    /// Plays every action left.
    pub fn finish(&mut self) -> Result<(), ReplayError> {
        while self.step()?.is_some() {}
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(dx: i8, dy: i8) -> Action {
        Action::Move { dx, dy }
    }

    #[test]
    fn a_cursor_lands_inside_a_run() {
        let r = Recording::from_runs(vec![(Action::Wait, 2), (mv(1, 0), 3)]).unwrap();
        assert_eq!(Cursor::at(&r, 0).peek(&r), Some(Action::Wait));
        assert_eq!(Cursor::at(&r, 2).peek(&r), Some(mv(1, 0)));
        assert_eq!(Cursor::at(&r, 4).at, (1, 2));
        assert_eq!(Cursor::at(&r, 9).peek(&r), None);
        assert_eq!(Cursor::at(&r, 9).position(), 5);
    }
}
