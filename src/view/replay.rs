//! The controls of `delve replay`: keys in, a run moved along its
//! recording. No IO and no clock: the shell calls [`ReplayControl::tick`]
//! every [`TICK_MS`] milliseconds or so, and the control plays as many
//! turns as the speed owes by then.
//!
//! Going back (`g` to an earlier turn) starts from the latest copy of the
//! run kept on the way forward (one every [`SNAPSHOT_EVERY`] actions), so it
//! costs at most that many steps, not a replay from turn 0.

use crate::sim::Run;
use crate::sim::record::Recording;
use crate::sim::replay::{Cursor, ReplayError};

use super::keymap::Key;

/// The speeds `+` and `-` step through, in turns a second.
pub const SPEEDS: [u32; 10] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
/// The speed a replay starts at: 20 turns a second.
const START_SPEED: usize = 4;
/// Actions between the copies of the run kept for going back.
pub const SNAPSHOT_EVERY: u64 = 2000;
/// How long a tick stands for, in milliseconds.
pub const TICK_MS: u32 = 12;
/// The longest turn number the goto prompt takes.
const ENTRY_DIGITS: usize = 13;

/// What a key did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The key was a replay control; the run may have moved.
    Done,
    /// `Q`: leave the replay.
    Quit,
    /// Not a replay control: the viewer may use it (look, overview, help).
    Other,
}

/// Where a replay stands and how it moves.
#[derive(Debug)]
pub struct ReplayControl {
    recording: Recording,
    cursor: Cursor,
    /// Copies of the run after `.0` actions (the first at 0), for going back.
    snapshots: Vec<(u64, Run)>,
    /// Index into [`SPEEDS`].
    speed: usize,
    paused: bool,
    /// Thousandths of a turn owed to the next tick.
    credit: u32,
    /// The goto prompt's digits, while it is open.
    entry: Option<String>,
    /// Why the replay cannot go on (the recording does not fit these rules).
    stopped: Option<String>,
    /// `run.said()` before the last action played, so what that action
    /// alone said can be told apart (see [`ReplayControl::last_said`]).
    said_before_last: u64,
}

impl ReplayControl {
    /// Controls for replaying `recording` on `run`, which must be the
    /// recorded run at its start. Starts playing at 20 turns a second.
    pub fn new(run: &Run, recording: Recording) -> ReplayControl {
        ReplayControl {
            recording,
            cursor: Cursor::default(),
            snapshots: vec![(0, run.clone())],
            speed: START_SPEED,
            paused: false,
            credit: 0,
            entry: None,
            stopped: None,
            said_before_last: run.said(),
        }
    }

    /// Turns a second.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// Whether play is paused (space), for the status line.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether every recorded action has been played.
    pub fn at_end(&self) -> bool {
        self.cursor.position() == self.recording.len()
    }

    /// Actions played, and in the recording.
    pub fn progress(&self) -> (u64, u64) {
        (self.cursor.position(), self.recording.len())
    }

    /// The goto prompt's digits, while it is open.
    pub fn entry(&self) -> Option<&str> {
        self.entry.as_deref()
    }

    /// Why the replay stopped early, if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The log lines the last action played said (none after a go-to that
    /// played nothing): what a step or a jump should show, not what some
    /// action long before said.
    pub fn last_said<'r>(&self, run: &'r Run) -> &'r [String] {
        let log = run.log();
        let new = run.said().saturating_sub(self.said_before_last);
        let new = usize::try_from(new).unwrap_or(usize::MAX).min(log.len());
        &log[log.len() - new..]
    }

    /// Whether ticks move the run: playing, not at the end, not stopped.
    pub fn running(&self) -> bool {
        !self.paused && !self.at_end() && self.stopped.is_none() && self.entry.is_none()
    }

    /// A key. The run must be the one these controls have been moving.
    pub fn press(&mut self, key: Key, run: &mut Run) -> Reply {
        if let Some(entry) = &mut self.entry {
            match key {
                Key::Char(c) if c.is_ascii_digit() && entry.len() < ENTRY_DIGITS => entry.push(c),
                Key::Backspace => {
                    entry.pop();
                }
                Key::Enter => {
                    let target = entry.parse::<u64>().ok();
                    self.entry = None;
                    if let Some(turn) = target {
                        self.goto(turn, run);
                    }
                }
                Key::Esc | Key::Char('g') => self.entry = None,
                Key::Char('Q') => return Reply::Quit,
                _ => {}
            }
            return Reply::Done;
        }
        match key {
            Key::Char(' ') => {
                self.paused = !self.paused;
                self.credit = 0;
            }
            Key::Char('+') | Key::Char('=') => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Key::Char('-') => self.speed = self.speed.saturating_sub(1),
            Key::Char('.') => {
                self.paused = true;
                self.advance(1, run);
            }
            Key::Char('g') => {
                self.paused = true;
                self.entry = Some(String::new());
            }
            Key::Char('>') => {
                self.paused = true;
                let depth = run.player().depth;
                while run.player().depth == depth && self.advance(1, run) == 1 {}
            }
            Key::Char('Q') => return Reply::Quit,
            _ => return Reply::Other,
        }
        Reply::Done
    }

    /// A tick of the clock: plays the turns the speed owes.
    pub fn tick(&mut self, run: &mut Run) {
        if !self.running() {
            return;
        }
        self.credit += self.speed() * TICK_MS;
        let owed = self.credit / 1000;
        self.credit %= 1000;
        self.advance(u64::from(owed), run);
    }

    /// Plays up to `n` actions; returns how many were played. Stops at the
    /// end, or for good when the recording does not fit (saying why).
    fn advance(&mut self, n: u64, run: &mut Run) -> u64 {
        let mut played = 0;
        while played < n && self.stopped.is_none() {
            let said = run.said();
            match self.cursor.step(&self.recording, run) {
                Ok(Some(_)) => {
                    played += 1;
                    self.said_before_last = said;
                }
                Ok(None) => break,
                Err(e) => {
                    self.stopped = Some(stopped_why(&e));
                    break;
                }
            }
            let at = self.cursor.position();
            if at.is_multiple_of(SNAPSHOT_EVERY)
                && self.snapshots.last().is_none_or(|(p, _)| *p < at)
            {
                self.snapshots.push((at, run.clone()));
            }
        }
        played
    }

    /// Goes to the first point where the run's turn is `turn` (or the end,
    /// if the recording stops before), back or forward.
    fn goto(&mut self, turn: u64, run: &mut Run) {
        if turn < run.turn() {
            // The latest copy at or before the turn (the first is turn 0).
            let (at, snapshot) = self
                .snapshots
                .iter()
                .rev()
                .find(|(_, r)| r.turn() <= turn)
                .unwrap_or(&self.snapshots[0]);
            *run = snapshot.clone();
            self.cursor = Cursor::at(&self.recording, *at);
            self.stopped = None;
            self.said_before_last = run.said();
        }
        while run.turn() < turn && self.advance(1, run) == 1 {}
    }
}

fn stopped_why(e: &ReplayError) -> String {
    format!("The replay cannot go on: {e}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::sim::{Action, Event, MonsterKind, autopilot};

    /// A run at its start and the autopilot's first `turns` turns of it.
    fn recorded(turns: u64) -> (Run, Run, Recording) {
        let config = Config {
            levels: 3,
            simulation: crate::config::SimulationConfig::stomp(),
            ..Config::default()
        };
        // The first run from seed 11 on that is still going at `turns`
        // (a run that ends early blocks every action).
        for seed in 11..60 {
            let start = Run::new(config.clone(), MonsterKind::defaults(), seed).unwrap();
            let mut run = start.clone();
            let mut recording = Recording::new();
            while run.turn() < turns && run.outcome() == crate::sim::Outcome::Playing {
                let mut action = autopilot(&mut run);
                if run.step(action).unwrap() == [Event::Blocked] {
                    action = Action::Wait;
                    run.step(action).unwrap();
                }
                recording.push(action);
            }
            if run.turn() == turns {
                return (start, run, recording);
            }
        }
        panic!("no run from seeds 11 to 59 lasts {turns} turns")
    }

    fn keys(control: &mut ReplayControl, run: &mut Run, text: &str) {
        for c in text.chars() {
            let key = match c {
                '\n' => Key::Enter,
                '\x1b' => Key::Esc,
                c => Key::Char(c),
            };
            assert_ne!(control.press(key, run), Reply::Other, "{key:?}");
        }
    }

    #[test]
    fn ticks_play_at_the_speed() {
        let (start, _, recording) = recorded(300);
        let mut run = start.clone();
        let mut c = ReplayControl::new(&run, recording);
        assert_eq!(c.speed(), 20);
        // A second of ticks at 20 turns a second: 20 turns, give or take
        // the rounding of the last tick.
        for _ in 0..1000 / TICK_MS {
            c.tick(&mut run);
        }
        assert!((19..=20).contains(&run.turn()), "{}", run.turn());
        keys(&mut c, &mut run, " ");
        assert!(c.paused());
        let turn = run.turn();
        c.tick(&mut run);
        assert_eq!(run.turn(), turn);
        keys(&mut c, &mut run, "..");
        assert_eq!(run.turn(), turn + 2);
        keys(&mut c, &mut run, "++++++++++++");
        assert_eq!(c.speed(), 1000);
        keys(&mut c, &mut run, "-----------");
        assert_eq!(c.speed(), 1);
    }

    #[test]
    fn goto_goes_back_and_forth_to_the_same_states() {
        let (start, end, recording) = recorded(2500);
        let mut run = start.clone();
        let mut c = ReplayControl::new(&run, recording);
        keys(&mut c, &mut run, "g2500\n");
        assert_eq!(run.turn(), 2500);
        assert_eq!(run.digest(), end.digest());
        assert!(c.at_end());
        let mut reference = start.clone();
        let mut cursor = Cursor::default();
        while reference.turn() < 2100 {
            cursor.step(&c.recording, &mut reference).unwrap();
        }
        // Back past the copy kept at 2000 actions.
        keys(&mut c, &mut run, "g2100\n");
        assert_eq!(run.digest(), reference.digest());
        keys(&mut c, &mut run, "g5\n");
        assert_eq!(run.turn(), 5);
        // A goto past the end stops at the end; Esc closes the prompt.
        keys(&mut c, &mut run, "g99999\n");
        assert_eq!(run.digest(), end.digest());
        keys(&mut c, &mut run, "g12\x1b");
        assert_eq!(c.entry(), None);
        assert_eq!(run.turn(), 2500);
    }

    #[test]
    fn next_level_stops_at_the_arrival() {
        let (start, _, recording) = recorded(3000);
        let mut run = start.clone();
        let mut c = ReplayControl::new(&run, recording);
        keys(&mut c, &mut run, ">");
        if c.at_end() {
            assert_eq!(run.player().depth, 1, "the recording never leaves depth 1");
        } else {
            assert_eq!(run.player().depth, 2);
        }
        assert!(c.paused());
        assert_eq!(c.press(Key::Char('Q'), &mut run), Reply::Quit);
        assert_eq!(c.press(Key::Char('o'), &mut run), Reply::Other);
    }
}
