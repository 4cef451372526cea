//! A run's recording: every action that moved it, in order (the replay
//! that plays them again is [`replay`](crate::sim::replay)).
//!
//! The simulation is a pure function of (config, monster kinds, seed,
//! actions), so these four are the whole run: replaying the actions on a
//! new run of the same three gives the same state, digest for digest, on
//! every machine. An action the simulation refused (`Event::Blocked`: no
//! time passed, nothing changed) is not recorded, so replaying never meets
//! a refusal; one that does means the recording does not belong to these
//! rules.
//!
//! Consecutive equal actions are kept as one run (`(action, times)`), so
//! recording a turn is a comparison and an increment or a push, and a long
//! wait or a straight corridor costs one entry.

use serde::{Deserialize, Serialize};

use crate::sim::vocabulary::Action;

/// The actions of a run, run-length encoded, and the digest of the run
/// they start from. Saved as its runs (checked on load: see
/// [`Recording::from_runs`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Saved", into = "Saved")]
pub struct Recording {
    /// Consecutive equal actions merged: `(action, times)`, times >= 1.
    runs: Vec<(Action, u32)>,
    /// Actions in all, the sum of the times.
    len: u64,
    /// The digest of the run before its first action (0 if unknown): a
    /// journal rebuilt from a save needs it for its start block.
    start_digest: u64,
}

/// How a recording is saved: the runs (the length follows from them).
#[derive(Serialize, Deserialize)]
struct Saved {
    start_digest: u64,
    runs: Vec<(Action, u32)>,
}

impl TryFrom<Saved> for Recording {
    type Error = String;
    fn try_from(saved: Saved) -> Result<Recording, String> {
        let mut recording = Recording::from_runs(saved.runs)?;
        recording.start_digest = saved.start_digest;
        Ok(recording)
    }
}

impl From<Recording> for Saved {
    fn from(r: Recording) -> Saved {
        Saved {
            start_digest: r.start_digest,
            runs: r.runs,
        }
    }
}

/// Whether an action is one the simulation could have been given: a move
/// is one step in one of eight directions, a pack slot one of the pack's
/// letters. Recordings read from files are checked, so a forged one cannot
/// ask the simulation for more.
pub fn well_formed(action: &Action) -> bool {
    match *action {
        Action::Move { dx, dy } | Action::Close { dx, dy } => {
            (-1..=1).contains(&dx) && (-1..=1).contains(&dy) && (dx, dy) != (0, 0)
        }
        Action::Drop { slot }
        | Action::Wield { slot }
        | Action::Quaff { slot }
        | Action::Read { slot }
        | Action::Fire { slot, .. }
        | Action::Zap { slot, .. } => usize::from(slot) < crate::sim::vocabulary::PACK_SLOTS,
        Action::Wait | Action::Descend | Action::Ascend | Action::PickUp | Action::Search => true,
    }
}

impl Recording {
    /// An empty recording: what a run that has taken no action yet holds.
    pub fn new() -> Recording {
        Recording::default()
    }

    /// An empty recording of a run whose digest at its start is
    /// `start_digest`.
    pub fn starting(start_digest: u64) -> Recording {
        Recording {
            start_digest,
            ..Recording::default()
        }
    }

    /// The digest of the run before its first action (0 if unknown).
    pub fn start_digest(&self) -> u64 {
        self.start_digest
    }

    pub(crate) fn set_start_digest(&mut self, digest: u64) {
        self.start_digest = digest;
    }

    /// A recording from its runs; refuses a run of zero actions, which no
    /// recording makes (so two encodings of one recording are equal), an
    /// action that is not [`well_formed`], and more actions than a run can
    /// take.
    pub fn from_runs(runs: Vec<(Action, u32)>) -> Result<Recording, String> {
        let mut recording = Recording::new();
        for (action, times) in runs {
            if times == 0 {
                return Err(format!("a run of zero \"{action}\" actions"));
            }
            if !well_formed(&action) {
                return Err(format!("an impossible action \"{action}\""));
            }
            if recording.len + u64::from(times) > crate::sim::units::MAX_TURNS {
                return Err(format!(
                    "more than the {} actions a run can take",
                    crate::sim::units::MAX_TURNS
                ));
            }
            recording.push_times(action, times);
        }
        Ok(recording)
    }

    /// Records one action.
    #[inline]
    pub fn push(&mut self, action: Action) {
        self.push_times(action, 1);
    }

    /// Records `times` repetitions of an action.
    pub fn push_times(&mut self, action: Action, mut times: u32) {
        self.len += u64::from(times);
        if let Some((last, n)) = self.runs.last_mut()
            && *last == action
        {
            let room = u32::MAX - *n;
            let added = room.min(times);
            *n += added;
            times -= added;
        }
        if times > 0 {
            self.runs.push((action, times));
        }
    }

    /// How many actions are recorded.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no action is recorded (a run at its start).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The runs of equal actions, in order.
    pub fn runs(&self) -> &[(Action, u32)] {
        &self.runs
    }

    /// Every action, in order.
    pub fn actions(&self) -> impl Iterator<Item = Action> + '_ {
        self.runs
            .iter()
            .flat_map(|&(action, times)| std::iter::repeat_n(action, times as usize))
    }

    /// Whether `self` is `other` or its beginning.
    pub fn is_prefix_of(&self, other: &Recording) -> bool {
        if self.len > other.len {
            return false;
        }
        let Some((last, head)) = self.runs.split_last() else {
            return true;
        };
        other.runs.len() >= self.runs.len()
            && other.runs[..head.len()] == *head
            && other.runs[head.len()].0 == last.0
            && other.runs[head.len()].1 >= last.1
    }

    /// The runs from action `from` on (the first one shortened if `from`
    /// falls inside it): what a journal that holds the first `from`
    /// actions still lacks.
    pub fn runs_from(&self, from: u64) -> Vec<(Action, u32)> {
        let mut skip = from;
        let mut out = Vec::new();
        for &(action, times) in &self.runs {
            if skip >= u64::from(times) {
                skip -= u64::from(times);
                continue;
            }
            out.push((action, times - skip as u32));
            skip = 0;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(dx: i8, dy: i8) -> Action {
        Action::Move { dx, dy }
    }

    /// Issue 23, item 13 (no debug text reaches a user): a damaged
    /// recording's action is named in words, not as `Move { dx: 2, dy: 0 }`.
    #[test]
    fn a_bad_recording_names_its_action_in_words() {
        let said = |runs| Recording::from_runs(runs).unwrap_err();
        assert_eq!(
            said(vec![(mv(2, 0), 1)]),
            "an impossible action \"move 2,0\""
        );
        assert_eq!(
            said(vec![(Action::Quaff { slot: 1 }, 0)]),
            "a run of zero \"quaff slot b\" actions"
        );
        assert_eq!(
            said(vec![(Action::Read { slot: 200 }, 1)]),
            "an impossible action \"read slot 200\""
        );
    }

    #[test]
    fn equal_actions_merge_into_runs() {
        let mut r = Recording::new();
        for a in [
            Action::Wait,
            Action::Wait,
            mv(1, 0),
            mv(1, 0),
            mv(1, 0),
            Action::Wait,
        ] {
            r.push(a);
        }
        assert_eq!(r.len(), 6);
        assert_eq!(
            r.runs(),
            &[(Action::Wait, 2), (mv(1, 0), 3), (Action::Wait, 1)]
        );
        assert_eq!(r.actions().count(), 6);
        assert_eq!(r.runs_from(3), vec![(mv(1, 0), 2), (Action::Wait, 1)]);
        assert_eq!(r.runs_from(6), vec![]);
    }

    #[test]
    fn a_run_longer_than_a_counter_splits() {
        let mut r = Recording::new();
        r.push_times(Action::Wait, u32::MAX);
        r.push_times(Action::Wait, 5);
        assert_eq!(r.runs(), &[(Action::Wait, u32::MAX), (Action::Wait, 5)]);
        assert_eq!(r.len(), u64::from(u32::MAX) + 5);
    }

    #[test]
    fn prefixes() {
        let mut long = Recording::new();
        for a in [Action::Wait, mv(0, 1), mv(0, 1), Action::Descend] {
            long.push(a);
        }
        let mut short = Recording::new();
        assert!(short.is_prefix_of(&long));
        short.push(Action::Wait);
        short.push(mv(0, 1));
        assert!(short.is_prefix_of(&long));
        assert!(!long.is_prefix_of(&short));
        short.push(Action::Ascend);
        assert!(!short.is_prefix_of(&long));
        assert!(long.is_prefix_of(&long));
    }

    #[test]
    fn zero_runs_are_refused() {
        assert!(Recording::from_runs(vec![(Action::Wait, 0)]).is_err());
        let r = Recording::from_runs(vec![(Action::Wait, 2), (Action::Wait, 3)]).unwrap();
        assert_eq!(r.runs(), &[(Action::Wait, 5)]);
    }
}
