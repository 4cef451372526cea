//! The viewer of `delve replay`: an [`App`] whose keys go first to the
//! replay's controls ([`ReplayControl`]), letting through only what looks,
//! and whose top line follows the recording as it plays. Apart, as a
//! replay never acts for the player.

use super::App;
use super::Mode;
use crate::sim::Run;
use crate::sim::record::Recording;
use crate::view::keymap::{Command, Key, Keymap};
use crate::view::replay::{ReplayControl, Reply};

impl App {
    /// A viewer playing `recording` back on `run`, the recorded run at its
    /// start: `delve replay`. It never asks for a save.
    pub fn replaying(run: Run, recording: Recording, keymap: Keymap, name: String) -> App {
        let control = ReplayControl::new(&run, recording);
        let mut app = App::new(run, keymap, name);
        app.replay = Some(control);
        app.mode = Mode::Map;
        app
    }

    /// The replay's controls, if this viewer is a replay.
    pub fn replay(&self) -> Option<&ReplayControl> {
        self.replay.as_ref()
    }

    /// A tick of a replay: the recording plays on at its speed.
    pub(super) fn tick_replay(&mut self) {
        let control = self.replay.as_mut().expect("a replay");
        let turn = self.run.turn();
        control.tick(&mut self.run);
        if self.run.turn() != turn {
            self.replayed(false);
        }
    }

    /// A key in a replay: the replay's controls first; then only what looks
    /// (overview, look, history, help) and what is about the terminal go on
    /// to the usual handling (returns true), never an action.
    pub(super) fn press_replay(&mut self, key: Key) -> bool {
        let command = self.keymap.command(key);
        if matches!(self.mode, Mode::Map) {
            let control = self.replay.as_mut().expect("a replay");
            let turn = (self.run.player().depth, self.run.turn());
            match control.press(key, &mut self.run) {
                Reply::Quit => {
                    self.quit = true;
                    return false;
                }
                Reply::Done => {
                    if (self.run.player().depth, self.run.turn()) != turn {
                        self.replayed(true);
                    }
                    if let Some(why) = self.replay.as_ref().and_then(|c| c.stopped()) {
                        let why = why.to_string();
                        if self.messages.last() != Some(&why) {
                            self.note(why);
                        }
                    }
                    return false;
                }
                Reply::Other => {}
            }
        }
        match command {
            // Ctrl-C leaves a replay: there is nothing to save.
            Some(Command::Interrupt) => {
                self.quit = true;
                false
            }
            Some(
                Command::Overview
                | Command::Look
                | Command::History
                | Command::Help
                | Command::Cancel
                | Command::Suspend
                | Command::Redraw,
            ) => true,
            // Inside look, history and help, keys move the cursor or scroll.
            Some(Command::Move { .. }) => !matches!(self.mode, Mode::Map),
            _ => false,
        }
    }

    /// After a replay moved the run: its new log lines, the camera, the
    /// monsters in view. `by_key` when a key moved it (a step, a go-to, the
    /// next level): the top line then says what the last action said, and
    /// nothing older. While it plays on, a line stays until it is two
    /// seconds old at the replay's speed, so it can be read but is not
    /// taken for news hundreds of turns later.
    fn replayed(&mut self, by_key: bool) {
        let new = self.take_said();
        let log = self.run.log();
        let lines = &log[log.len() - new..];
        let fresh = match (by_key, self.replay.as_ref()) {
            (true, Some(control)) => Some(control.last_said(&self.run)),
            _ => (!lines.is_empty()).then_some(lines),
        };
        // At speed many lines pass in a tick: the top line shows the last.
        let fresh = fresh.map(|f| f[f.len().saturating_sub(2)..].to_vec());
        self.history.extend(lines.iter().cloned());
        self.trim_history();
        let turn = self.run.turn();
        if let Some(fresh) = fresh {
            self.page = 0;
            self.messages = fresh;
            self.said_turn = turn;
        } else {
            let speed = self.replay.as_ref().map_or(1, |c| u64::from(c.speed()));
            if turn.saturating_sub(self.said_turn) > 2 * speed {
                self.clear_messages();
            }
        }
        let depth = self.run.player().depth;
        if self.in_view.0 != depth {
            self.camera = None;
        }
        self.follow();
        self.in_view = (depth, self.monsters_in_view());
    }
}
