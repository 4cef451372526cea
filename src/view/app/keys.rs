//! A key press: [`App::press`] and a step for each kind of key (an
//! activity's stop, the terminal's keys, the unread messages, each prompt)
//! and for each screen's commands (the map's, look mode's cursor, the
//! lists' scrolling). Apart from the state it changes, as the one place
//! that says which key does what on which screen.

use super::App;
use super::Mode;
use super::inventory::ItemVerb;
use super::saving::Request;
use super::travel::Activity;
use crate::generate::GenerateError;
use crate::geom::Pos;
use crate::level::StairDirection;
use crate::sim::{Action, Event, Way};
use crate::view::keymap::{Command, Key};
use crate::view::lines::message_pages;

impl App {
    /// A key press: a replay's controls first, then in turn a stop to the
    /// activity under way, the terminal's keys, the unread messages, the
    /// prompts, and last the command of the screen up.
    pub fn press(&mut self, key: Key) -> Result<(), GenerateError> {
        if self.replay.is_some() && !self.press_replay(key) {
            return Ok(());
        }
        let command = self.keymap.command(key);
        if self.activity.is_some() {
            self.press_during_activity(command);
            return Ok(());
        }
        if let Some(request) = terminal_request(command) {
            // About the terminal, not the game: the same on every screen and
            // at any size, and the screen comes back as it was.
            self.terminal_request = Some(request);
            return Ok(());
        }
        if self.more() && !self.press_more(key, command) {
            return Ok(());
        }
        match self.mode {
            Mode::ConfirmQuit => self.press_confirm_quit(key),
            Mode::Choose { verb } => return self.press_choose(verb, key),
            Mode::CloseWhich => return self.press_close_which(command),
            Mode::Aim { aim, cursor } => return self.press_aim(aim, cursor, key, command),
            Mode::Ended => self.press_ended(key, command),
            _ => return self.press_command(key, command),
        }
        Ok(())
    }

    /// Any key stops the activity under way; the key itself is not acted
    /// on, so a player pressing to stop cannot walk into something by
    /// accident. Ctrl-C still asks about quitting, and Ctrl-Z and Ctrl-R
    /// still suspend and redraw.
    fn press_during_activity(&mut self, command: Option<Command>) {
        self.clear_messages();
        self.stop(Some("You stop.".into()));
        if command == Some(Command::Interrupt) {
            self.mode = Mode::ConfirmQuit;
        }
        self.terminal_request = terminal_request(command).or(self.terminal_request);
    }

    /// A key while the top line waits at [`MORE`](crate::view::lines::MORE):
    /// Space or Enter shows the next page, Esc skips them all. Returns
    /// whether the key goes on to its usual handling: only saving and
    /// quitting do (nothing happens in the game), and the history, which
    /// shows every message at once.
    fn press_more(&mut self, key: Key, command: Option<Command>) -> bool {
        match key {
            Key::Char(' ') | Key::Enter => {
                self.page += 1;
                false
            }
            Key::Esc => {
                self.page = message_pages(&self.messages, usize::from(self.view.0)).len();
                false
            }
            _ => matches!(
                command,
                Some(Command::Interrupt | Command::History | Command::Save | Command::SaveQuit)
            ),
        }
    }

    /// A key at the quit prompt: save and quit, quit, or go back.
    fn press_confirm_quit(&mut self, key: Key) {
        match key {
            Key::Char('y' | 'Y') => self.request_save(true),
            Key::Char('n' | 'N') => self.quit = true,
            _ => self.mode = self.resting_mode(),
        }
    }

    /// A key on the summary of an ended run. Only deliberate keys leave
    /// it, so keys typed ahead during the last moves cannot dismiss it
    /// unread.
    fn press_ended(&mut self, key: Key, command: Option<Command>) {
        match (key, command) {
            (_, Some(Command::Interrupt)) => self.mode = Mode::ConfirmQuit,
            (Key::Enter | Key::Esc | Key::Char(' '), _)
            | (_, Some(Command::SaveQuit | Command::Cancel)) => self.request_save(true),
            _ => {}
        }
    }

    /// A key on a screen that is not a prompt: saving and quitting work on
    /// all of them, the rest is the screen's own.
    fn press_command(&mut self, key: Key, command: Option<Command>) -> Result<(), GenerateError> {
        // While the screen is too small to show the map, only saving and
        // quitting work: nothing should happen that the player cannot see.
        if self.too_small()
            && !matches!(
                command,
                Some(Command::Save | Command::SaveQuit | Command::Interrupt)
            )
        {
            return Ok(());
        }
        self.clear_messages();
        if command.is_none() && self.mode == Mode::Map && self.type_count(key) {
            return Ok(());
        }
        // A count is for the command typed after it, whatever it is.
        let count = self.count.take();
        let Some(command) = command else {
            self.unknown_key(key);
            return Ok(());
        };
        match command {
            Command::Interrupt => self.mode = Mode::ConfirmQuit,
            Command::Save => self.request_save(false),
            Command::SaveQuit => self.request_save(true),
            Command::Cancel if count.is_some() => self.note("Count cancelled.".into()),
            _ => return self.screen_command(command, count.unwrap_or(1)),
        }
        Ok(())
    }

    /// A key bound to nothing: on the map, says so and where the keys are
    /// listed.
    fn unknown_key(&mut self, key: Key) {
        if self.mode == Mode::Map {
            let help = self.keymap.key_for(Command::Help);
            self.page = 0;
            self.messages = vec![match help {
                Some(h) => format!("Unknown key {key}; {h} lists the keys."),
                None => format!("Unknown key {key}."),
            }];
        }
    }

    /// A command on the screen up: the map's acts in the game (`count`
    /// times, for those that repeat), the other screens' move a cursor,
    /// scroll or close.
    fn screen_command(&mut self, command: Command, count: u32) -> Result<(), GenerateError> {
        match self.mode {
            Mode::Map => return self.map_command(command, count),
            Mode::Overview => {
                if matches!(command, Command::Overview | Command::Cancel) {
                    self.mode = Mode::Map;
                }
            }
            Mode::Inventory => {
                if matches!(command, Command::Inventory | Command::Cancel) {
                    self.mode = Mode::Map;
                }
            }
            Mode::Character => {
                if matches!(command, Command::Character | Command::Cancel) {
                    self.mode = Mode::Map;
                }
            }
            Mode::Look { cursor } => self.look_command(cursor, command),
            Mode::History { scroll } => {
                let most = self.history.len().saturating_sub(usize::from(self.view.1));
                self.mode = scrolled(command, scroll, most, Command::History, |s| Mode::History {
                    scroll: s,
                });
            }
            Mode::Help { scroll } => {
                let most = self
                    .keymap
                    .help()
                    .len()
                    .saturating_sub(usize::from(self.view.1));
                self.mode = scrolled(command, scroll, most, Command::Help, |s| Mode::Help {
                    scroll: s,
                });
            }
            Mode::ConfirmQuit
            | Mode::Ended
            | Mode::Choose { .. }
            | Mode::CloseWhich
            | Mode::Aim { .. } => {
                unreachable!("handled by press")
            }
        }
        Ok(())
    }

    /// A command in look mode: the move keys move the cursor (the camera
    /// following it), and looking again or cancelling goes back to the map.
    fn look_command(&mut self, cursor: Pos, command: Command) {
        match command {
            Command::Move { dx, dy } => {
                let level = &self.run.current().level;
                let x =
                    (i32::from(cursor.x) + i32::from(dx)).clamp(0, i32::from(level.width()) - 1);
                let y =
                    (i32::from(cursor.y) + i32::from(dy)).clamp(0, i32::from(level.height()) - 1);
                let cursor = Pos::new(x as u16, y as u16);
                self.mode = Mode::Look { cursor };
                self.follow();
            }
            Command::Look | Command::Cancel => {
                self.mode = Mode::Map;
                // Back to the view from before looking around.
                self.camera = self.look_return.take();
                self.follow();
            }
            _ => {}
        }
    }

    /// A command on the map: a move, a wait, a search (each `count`
    /// times), the stairs, a door, an activity, the pack, or another
    /// screen.
    fn map_command(&mut self, command: Command, count: u32) -> Result<(), GenerateError> {
        self.clear_messages();
        match command {
            Command::Move { dx, dy } if count > 1 => self.start(Activity::Repeat {
                action: Action::Move { dx, dy },
                left: count,
                done: 0,
            })?,
            Command::Move { dx, dy } => {
                let from = self.run.player().pos;
                let events = self.act(Action::Move { dx, dy })?;
                if events == [Event::Blocked]
                    && let Some(why) = self.diagonal_refusal(from, dx, dy)
                {
                    self.note(why);
                }
            }
            Command::Wait if count > 1 => self.start(Activity::Repeat {
                action: Action::Wait,
                left: count,
                done: 0,
            })?,
            Command::Wait => {
                self.act(Action::Wait)?;
            }
            Command::Rest => self.rest_command()?,
            Command::Search => self.search_command(count)?,
            Command::Close => self.close_command()?,
            Command::Descend => self.stairs_command(StairDirection::Down)?,
            Command::Ascend => self.stairs_command(StairDirection::Up)?,
            Command::Explore => self.start(Activity::Explore)?,
            Command::PickUp => self.pick_up()?,
            Command::Inventory => self.open_inventory(),
            Command::Wield => self.choose_item(ItemVerb::Wield),
            Command::Quaff => self.choose_item(ItemVerb::Quaff),
            Command::Read => self.choose_item(ItemVerb::Read),
            Command::Drop => self.choose_item(ItemVerb::Drop),
            Command::Fire => self.fire_command(),
            Command::Zap if self.run.tactics().is_none() => {
                self.note("There are no wands under these rules.".into())
            }
            Command::Zap => self.choose_item(ItemVerb::Zap),
            Command::NextTarget => {}
            Command::Character if self.run.combat().is_none() => {
                self.note("There is no character sheet in this game.".into())
            }
            Command::Character => self.mode = Mode::Character,
            Command::Overview => self.mode = Mode::Overview,
            Command::Look => {
                self.look_return = self.camera;
                self.mode = Mode::Look {
                    cursor: self.run.player().pos,
                }
            }
            Command::History => self.mode = Mode::History { scroll: 0 },
            Command::Help => self.mode = Mode::Help { scroll: 0 },
            Command::Cancel => {}
            Command::Save
            | Command::SaveQuit
            | Command::Interrupt
            | Command::Suspend
            | Command::Redraw => {
                unreachable!("handled by press")
            }
        }
        Ok(())
    }

    /// Why a diagonal step from `from` was refused, when the cell stepped
    /// to is open: nobody squeezes between two wall corners, which in a
    /// room's doorway looks like a step that should work and does nothing.
    /// The refusal is the viewer's to explain, not the run's to log.
    fn diagonal_refusal(&self, from: Pos, dx: i8, dy: i8) -> Option<String> {
        if dx == 0 || dy == 0 {
            return None;
        }
        let level = &self.run.current().level;
        let (x, y) = (
            i32::from(from.x) + i32::from(dx),
            i32::from(from.y) + i32::from(dy),
        );
        if !level.in_bounds(x, y) {
            return None;
        }
        let to = Pos::new(x as u16, y as u16);
        let walker = self.run.player_walker();
        if walker.way(level.tile(to)) == Way::Wall || walker.goes(level, from, to) {
            return None;
        }
        let verb = if self.run.sees(to) && self.run.current().monster_at(to).is_some() {
            "attack"
        } else {
            "move"
        };
        let place = if level.tile(from).is_door() {
            "out of a doorway"
        } else if level.tile(to).is_door() {
            "into a doorway"
        } else {
            "past a corner"
        };
        Some(format!("You cannot {verb} diagonally {place}."))
    }
}

/// The request a key about the terminal makes (Ctrl-Z, Ctrl-R), if it is
/// one.
fn terminal_request(command: Option<Command>) -> Option<Request> {
    match command {
        Some(Command::Suspend) => Some(Request::Suspend),
        Some(Command::Redraw) => Some(Request::Redraw),
        _ => None,
    }
}

/// The next scroll position for a list screen (at most `most` lines up),
/// or the map when closed.
fn scrolled(
    command: Command,
    scroll: usize,
    most: usize,
    own: Command,
    mode: impl Fn(usize) -> Mode,
) -> Mode {
    let scroll = scroll.min(most);
    match command {
        Command::Move { dy: -1, dx: 0 } => mode((scroll + 1).min(most)),
        Command::Move { dy: 1, dx: 0 } => mode(scroll.saturating_sub(1)),
        Command::Move { dy: -1, .. } => mode((scroll + 10).min(most)),
        Command::Move { dy: 1, .. } => mode(scroll.saturating_sub(10)),
        c if c == own || c == Command::Cancel => Mode::Map,
        _ => mode(scroll),
    }
}
