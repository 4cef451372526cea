//! The viewer's state: a run plus everything about looking at it (the
//! mode, the camera, the messages, a travel in progress).
//!
//! `App` takes keys and returns nothing but its new state; it never touches
//! the terminal or the disk. Saving is a [`Request`] the shell carries out
//! and reports back with [`App::saved`], so every path, including a failed
//! save, can be driven by a test typing keys.

use super::look::door_in_seen_wall;
use crate::generate::GenerateError;
use crate::geom::Pos;
use crate::level::{StairDirection, Tile};
use crate::sim::{
    Action, Event, Outcome, Plan, Run, can_step, decide, explore_step, fetch_step, travel_step,
};
use crate::words::{article, capitalised};

use super::keymap::{Command, Key, Keymap};
use super::lines::{message_pages, newest_that_fit};
use super::replay::{ReplayControl, Reply};
use crate::sim::record::Recording;

/// What the screen shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The map around the player.
    Map,
    /// The whole level scaled to the screen.
    Overview,
    /// A cursor that describes what is under it.
    Look {
        /// The level cell described, moved by the move keys.
        cursor: Pos,
    },
    /// The message log; `scroll` lines up from the newest.
    History {
        /// Lines scrolled back from the newest, moved by the move keys.
        scroll: usize,
    },
    /// The help screen, built from the keymap.
    Help {
        /// Lines scrolled down from the top, moved by the move keys.
        scroll: usize,
    },
    /// The pack, listed.
    Inventory,
    /// Asking which pack item to use.
    Choose {
        /// What the chosen letter will be used for.
        verb: ItemVerb,
    },
    /// Ctrl-C: save before quitting?
    ConfirmQuit,
    /// The run is won or lost: its summary.
    Ended,
}

/// What a pack letter is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemVerb {
    /// Wield a weapon or wear armour.
    Wield,
    /// Drink a potion.
    Quaff,
    /// Read a scroll.
    Read,
    /// Drop anything.
    Drop,
}

impl ItemVerb {
    /// The prompt's question.
    pub fn question(self) -> &'static str {
        match self {
            ItemVerb::Wield => "Wield or wear which item?",
            ItemVerb::Quaff => "Drink which potion?",
            ItemVerb::Read => "Read which scroll?",
            ItemVerb::Drop => "Drop which item?",
        }
    }

    fn action(self, slot: u8) -> Action {
        match self {
            ItemVerb::Wield => Action::Wield { slot },
            ItemVerb::Quaff => Action::Quaff { slot },
            ItemVerb::Read => Action::Read { slot },
            ItemVerb::Drop => Action::Drop { slot },
        }
    }

    fn refusal(self) -> &'static str {
        match self {
            ItemVerb::Wield => "You cannot wield or wear that.",
            ItemVerb::Quaff => "You cannot drink that.",
            ItemVerb::Read => "You cannot read that.",
            ItemVerb::Drop => "You have no such item.",
        }
    }
}

/// Something that takes several turns, one a tick, until it arrives or is
/// interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Toward the nearest known staircase going this way (or exploring
    /// toward one).
    Travel(StairDirection),
    /// The autopilot, while it explores.
    Explore,
}

/// Work the shell must do for the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Save because the player asked; success and failure are both said.
    Save,
    /// A save the player did not ask for (on arriving at a level): said
    /// only if it fails.
    Autosave,
    /// Save, and quit if the save succeeds (or, after [`App::terminate`],
    /// whether or not it does).
    SaveAndQuit,
    /// Give the terminal back to the shell and stop the process (Ctrl-Z);
    /// on resuming, take the terminal again and draw everything.
    Suspend,
    /// Draw the whole screen again, not only what changed (Ctrl-R).
    Redraw,
}

impl Request {
    /// Whether the request is a save (the shell answers with
    /// [`App::saved`]), rather than something done to the terminal.
    pub fn is_save(self) -> bool {
        matches!(
            self,
            Request::Save | Request::Autosave | Request::SaveAndQuit
        )
    }
}

/// Rows the screen keeps for text: one message line above the map, two
/// status lines below.
pub const TEXT_ROWS: u16 = 3;
/// The smallest screen the viewer draws: 002's 80x21 map plus the text rows.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// How the run's log begins the line about the items on the cell the
/// player steps onto.
const SEE_HERE: &str = "You see here ";

/// How many lines the history screen keeps.
const HISTORY_LINES: usize = 1000;

/// The viewer's state.
pub struct App {
    run: Run,
    keymap: Keymap,
    save_name: String,
    mode: Mode,
    activity: Option<Activity>,
    /// The top line: what the last key press brought.
    messages: Vec<String>,
    /// The page of `messages` on the top line, when they need more than
    /// one (see [`App::more`]).
    page: usize,
    /// The messages of the command that ended the run, for its summary.
    last_words: Vec<String>,
    /// In a replay, the turn the top line's messages were said at.
    said_turn: u64,
    /// Every message of the session after the run's own log so far: what
    /// the history screen shows.
    history: Vec<String>,
    /// `run.said()` when messages were last collected.
    said: u64,
    /// Top-left level cell of the map view, and the depth it is for.
    camera: Option<(u16, (i32, i32))>,
    /// The camera from before look mode, to go back to.
    look_return: Option<(u16, (i32, i32))>,
    /// The turn of the last save this session knows of (the loaded one
    /// counts): saving again at the same turn would write the same run and
    /// make the backup a copy of it.
    saved_turn: Option<u64>,
    /// How the last save went, for the closing screen.
    last_save: Option<Result<String, String>>,
    /// The map view's size in cells.
    view: (u16, u16),
    /// The depth and the ids of the monsters in view after the last step
    /// (ids are per level).
    in_view: (u16, Vec<u32>),
    /// A save asked for.
    request: Option<Request>,
    /// A suspend or redraw asked for; taken after any save.
    terminal_request: Option<Request>,
    /// The request the shell took and has not reported on yet.
    in_flight: Option<Request>,
    /// Told to stop by a signal: quit after the save, even a failed one.
    terminating: bool,
    quit: bool,
    /// The controls of a replay, when this viewer plays a recording back
    /// (`delve replay`): keys move along the recording, never the player.
    replay: Option<ReplayControl>,
}

impl App {
    /// A viewer on `run`, saving under `save_name`, for an 80x24 screen
    /// until told otherwise.
    pub fn new(run: Run, keymap: Keymap, save_name: String) -> App {
        let mut app = App {
            said: run.said(),
            history: run.log().to_vec(),
            messages: if run.turn() == 0 {
                run.log().last().cloned().into_iter().collect()
            } else {
                vec![format!(
                    "Welcome back to depth {}, turn {}.",
                    run.player().depth,
                    run.turn()
                )]
            },
            page: 0,
            last_words: Vec::new(),
            said_turn: run.turn(),
            run,
            keymap,
            save_name,
            mode: Mode::Map,
            activity: None,
            camera: None,
            look_return: None,
            saved_turn: None,
            last_save: None,
            view: (MIN_SIZE.0, MIN_SIZE.1 - TEXT_ROWS),
            in_view: (0, Vec::new()),
            request: None,
            terminal_request: None,
            in_flight: None,
            terminating: false,
            quit: false,
            replay: None,
        };
        if app.run.turn() != 0 {
            let welcome = app.messages.clone();
            app.history.extend(welcome);
        }
        app.in_view = (app.run.player().depth, app.monsters_in_view());
        app.follow();
        if app.run.outcome() != Outcome::Playing {
            app.mode = Mode::Ended;
        }
        app
    }

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

    /// The run being played.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The keys in use, for the help screen and hints.
    pub fn keymap(&self) -> &Keymap {
        &self.keymap
    }

    /// The name the run is saved under.
    pub fn save_name(&self) -> &str {
        &self.save_name
    }

    /// What the screen shows now.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// What is being done over several ticks, if anything.
    pub fn activity(&self) -> Option<Activity> {
        self.activity
    }

    /// The messages of the latest command, for the message line; cleared on the next command.
    pub fn messages(&self) -> &[String] {
        &self.messages
    }

    /// Every message of the command that ended the run in this session
    /// (the player's last blow, the one that killed), for the summary;
    /// empty for a run loaded already ended.
    pub fn last_words(&self) -> &[String] {
        &self.last_words
    }

    /// The top line's text and whether [`MORE`](super::lines::MORE) follows it: the messages
    /// page by page while they are read, or, while something moves on its
    /// own (an activity, a replay), the newest that fit.
    pub fn top_line(&self, width: u16) -> (String, bool) {
        let pages = message_pages(&self.messages, usize::from(width));
        if self.busy() || self.replay.is_some() {
            let hint = match self.keymap.key_for(Command::History) {
                Some(k) => format!(" ({k} for more)"),
                None => String::new(),
            };
            let line = newest_that_fit(&self.messages, usize::from(width), &hint);
            return (line, false);
        }
        let page = self.page.min(pages.len() - 1);
        (
            pages[page].clone(),
            page + 1 < pages.len() && self.mode == Mode::Map,
        )
    }

    /// Whether the top line waits at [`MORE`](super::lines::MORE): the last command said more
    /// than the line holds and the rest is unread. Until it is read
    /// (Space or Enter a page, Esc all), keys that act in the game do
    /// nothing, so a move typed ahead is not made with a blow unseen;
    /// saving, quitting and the history still work.
    pub fn more(&self) -> bool {
        !self.too_small() && self.top_line(self.view.0).1
    }

    /// Top-left level cell of the map view, if it has been placed for the
    /// current depth.
    pub fn camera(&self) -> Option<(i32, i32)> {
        self.camera
            .filter(|(depth, _)| *depth == self.run.player().depth)
            .map(|(_, c)| c)
    }

    /// Whether an activity is under way: the shell should call
    /// [`App::tick`] while no key is pressed.
    pub fn busy(&self) -> bool {
        self.activity.is_some() || self.replay.as_ref().is_some_and(|c| c.running())
    }

    /// Whether the shell should restore the terminal and leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The shell's work, if any is pending: a save first, then a suspend
    /// or redraw. Call until `None`.
    pub fn take_request(&mut self) -> Option<Request> {
        self.in_flight = self.request.take();
        self.in_flight.or_else(|| self.terminal_request.take())
    }

    /// A line for the top line from outside, such as a warning about how
    /// the run was loaded.
    pub fn warn(&mut self, line: String) {
        self.note(line);
        // It answers nothing the player did this turn (how the run was
        // loaded, why Ctrl-Z did nothing), so it must not wait behind
        // --more--: it goes first on the top line, the rest after it.
        if let Some(line) = self.messages.pop() {
            self.messages.insert(0, line);
        }
        self.page = 0;
    }

    /// How a requested save went: `Ok` with where it went, or what failed.
    /// A failed save keeps the game open, whatever was asked.
    pub fn saved(&mut self, result: Result<String, String>) {
        let request = self.in_flight.take();
        if result.is_ok() {
            self.saved_turn = Some(self.run.turn());
        }
        self.last_save = Some(result.clone());
        match result {
            Ok(_) if request == Some(Request::Autosave) => {}
            Ok(path) => {
                self.note(format!("Saved to {path}."));
                if request == Some(Request::SaveAndQuit) {
                    self.quit = true;
                }
            }
            Err(e) if self.terminating => {
                // Staying open would defy the signal (a shutdown, a closed
                // terminal); the shell says on leaving what the save holds.
                self.note(format!("Could not save: {e}."));
                self.quit = true;
            }
            Err(e) => {
                self.note(format!("Could not save: {e}. The game stays open."));
                if self.mode == Mode::ConfirmQuit {
                    self.mode = self.resting_mode();
                }
            }
        }
    }

    /// Tells the app the run as it stands is what the save file holds (it
    /// was just loaded from it), so saving before a move would change
    /// nothing.
    pub fn mark_saved(&mut self) {
        self.saved_turn = Some(self.run.turn());
    }

    /// How the last save of this session went, if there was one.
    pub fn last_save(&self) -> Option<&Result<String, String>> {
        self.last_save.as_ref()
    }

    /// The process was told to stop (SIGTERM, SIGINT, SIGHUP): save and
    /// quit, whatever screen is up. Unlike `Q`, a failed save does not keep
    /// the game open.
    pub fn terminate(&mut self) {
        self.activity = None;
        self.terminating = true;
        self.request_save(true);
    }

    /// The terminal's size changed: the map view follows.
    pub fn resize(&mut self, width: u16, height: u16) {
        let view = (width, height.saturating_sub(TEXT_ROWS));
        if view != self.view {
            self.view = view;
            self.camera = None;
            self.follow();
        }
    }

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

    /// A key while the top line waits at [`MORE`](super::lines::MORE):
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

    /// A key at the item prompt: a pack letter is used as `verb` asks; any
    /// other key cancels.
    fn press_choose(&mut self, verb: ItemVerb, key: Key) -> Result<(), GenerateError> {
        self.clear_messages();
        self.mode = Mode::Map;
        if let Key::Char(c @ 'a'..='z') = key {
            let slot = c as u8 - b'a';
            let carried = self
                .run
                .combat()
                .is_some_and(|s| s.hero.pack.get(usize::from(slot)).is_some());
            if !carried {
                self.note("You have no such item.".into());
                return Ok(());
            }
            let events = self.act(verb.action(slot))?;
            if events == [Event::Blocked] {
                self.note(verb.refusal().into());
            }
        }
        Ok(())
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
        let Some(command) = command else {
            self.unknown_key(key);
            return Ok(());
        };
        match command {
            Command::Interrupt => self.mode = Mode::ConfirmQuit,
            Command::Save => self.request_save(false),
            Command::SaveQuit => self.request_save(true),
            _ => return self.screen_command(command),
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

    /// A command on the screen up: the map's acts in the game, the other
    /// screens' move a cursor, scroll or close.
    fn screen_command(&mut self, command: Command) -> Result<(), GenerateError> {
        match self.mode {
            Mode::Map => return self.map_command(command),
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
            Mode::ConfirmQuit | Mode::Ended | Mode::Choose { .. } => {
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
    /// The mode to go back to from a prompt.
    fn resting_mode(&self) -> Mode {
        if self.run.outcome() == Outcome::Playing {
            Mode::Map
        } else {
            Mode::Ended
        }
    }

    /// Whether the terminal is smaller than the viewer can draw in.
    pub fn too_small(&self) -> bool {
        self.view.0 < MIN_SIZE.0 || self.view.1 + TEXT_ROWS < MIN_SIZE.1
    }

    fn map_command(&mut self, command: Command) -> Result<(), GenerateError> {
        self.clear_messages();
        match command {
            Command::Move { dx, dy } => {
                let from = self.run.player().pos;
                if self.act(Action::Move { dx, dy })? == [Event::Blocked]
                    && let Some(why) = self.diagonal_refusal(from, dx, dy)
                {
                    self.note(why);
                }
            }
            Command::Wait => {
                self.act(Action::Wait)?;
            }
            Command::Descend | Command::Ascend => {
                let (direction, tile, action) = if command == Command::Descend {
                    (StairDirection::Down, Tile::DownStairs, Action::Descend)
                } else {
                    (StairDirection::Up, Tile::UpStairs, Action::Ascend)
                };
                let here = self.run.player().pos;
                if self.run.current().level.tile(here) == tile {
                    let events = self.act(action)?;
                    if events == [Event::Blocked] {
                        self.note(
                            if action == Action::Ascend && self.run.player().depth == 1 {
                                "This staircase leads out of the dungeon; your way is down.".into()
                            } else {
                                "These stairs lead nowhere.".into()
                            },
                        );
                    }
                } else {
                    self.start(Activity::Travel(direction))?;
                }
            }
            Command::Explore => self.start(Activity::Explore)?,
            Command::PickUp => {
                if self.run.combat().is_none() {
                    self.note("There is nothing to pick up in this game.".into());
                } else if self.run.items_here().is_empty() {
                    self.note("There is nothing here to pick up.".into());
                } else if self.act(Action::PickUp)? == [Event::Blocked] {
                    // The run neither records nor logs a refused pick-up:
                    // the pack is full and the item joins no stack.
                    self.note(format!(
                        "Your pack is full ({} letters); drop something first.",
                        crate::sim::game::PACK_SLOTS
                    ));
                }
            }
            Command::Inventory => {
                if self.run.combat().is_none() {
                    self.note("You carry nothing in this game.".into());
                } else {
                    self.mode = Mode::Inventory;
                }
            }
            Command::Wield | Command::Quaff | Command::Read | Command::Drop => {
                let verb = match command {
                    Command::Wield => ItemVerb::Wield,
                    Command::Quaff => ItemVerb::Quaff,
                    Command::Read => ItemVerb::Read,
                    _ => ItemVerb::Drop,
                };
                match self.run.combat() {
                    Some(s) if !s.hero.pack.is_empty() => self.mode = Mode::Choose { verb },
                    _ => self.note("You are not carrying anything.".into()),
                }
            }
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
        if !level.tile(to).is_walkable() || can_step(level, from, to, false) {
            return None;
        }
        let verb = if self.run.sees(to) && self.run.current().monster_at(to).is_some() {
            "attack"
        } else {
            "move"
        };
        let place = if level.tile(from) == Tile::Door {
            "out of a doorway"
        } else if level.tile(to) == Tile::Door {
            "into a doorway"
        } else {
            "past a corner"
        };
        Some(format!("You cannot {verb} diagonally {place}."))
    }

    /// One step of the activity under way, or of a replay playing on.
    pub fn tick(&mut self) -> Result<(), GenerateError> {
        if self.replay.is_some() {
            self.tick_replay();
            return Ok(());
        }
        let Some(activity) = self.activity else {
            return Ok(());
        };
        if self.too_small() {
            return Ok(()); // paused until the player can see again
        }
        let action = match activity {
            Activity::Travel(direction) => self.travel_action(direction),
            Activity::Explore => self.explore_action(),
        };
        let Some(action) = action else {
            return Ok(()); // stopped, and said why
        };
        let (depth, lives) = (self.run.player().depth, self.run.player().lives);
        let events = self.act(action)?;
        if events == [Event::Blocked] {
            self.stop(None);
            return Ok(());
        }
        if self.activity.is_none() {
            return Ok(()); // act() stopped it (a monster came into view)
        }
        self.stop_if_done(activity, depth, lives);
        Ok(())
    }

    /// A tick of a replay: the recording plays on at its speed.
    fn tick_replay(&mut self) {
        let control = self.replay.as_mut().expect("a replay");
        let turn = self.run.turn();
        control.tick(&mut self.run);
        if self.run.turn() != turn {
            self.replayed(false);
        }
    }

    /// Travel's next step toward a staircase going `direction`; `None`,
    /// with the activity stopped and why said, when there is none.
    fn travel_action(&mut self, direction: StairDirection) -> Option<Action> {
        if let Some(action) = travel_step(&mut self.run, direction) {
            return Some(action);
        }
        let known = {
            let state = self.run.current();
            state
                .level
                .stairs_going(direction)
                .any(|s| state.has_seen(s.pos))
        };
        let name = stairs_name(direction);
        let reason = if self.on_stairs(direction) {
            format!("You reach the {name}.")
        } else if known {
            format!("No known way leads to the {name}, and nothing is left to explore.")
        } else {
            format!("No {name} is known, and nothing is left to explore.")
        };
        self.stop(Some(reason));
        None
    }

    /// Auto-explore's next step; `None`, with the activity stopped and why
    /// said, when a monster is in view or the level is explored.
    fn explore_action(&mut self) -> Option<Action> {
        // Exploring is for when nothing is in view; with a monster
        // in sight the player decides (DCSS and Brogue refuse too).
        if let Some(&id) = self.monsters_in_view().first() {
            let name = self.monster_name(id);
            self.stop(Some(format!("Not with {name} in view.")));
            return None;
        }
        // The autopilot's own choice while it explores or fetches
        // an item it sees (DCSS's auto-explore picks items up too);
        // anything else it would do (rest, equip, take the stairs)
        // is the player's to decide, so fetch what it would take
        // and step toward the nearest unexplored cell instead: the
        // level is explored only when neither is left.
        let (action, plan) = decide(&mut self.run);
        let action = match plan {
            Plan::Explore | Plan::Loot => Some(action),
            _ => {
                let moves = |a: &Action| *a != Action::Wait;
                fetch_step(&mut self.run)
                    .filter(moves)
                    .or_else(|| explore_step(&mut self.run).filter(moves))
            }
        };
        if action.is_none() {
            let depth = self.run.player().depth;
            let hint = match self.keymap.key_for(Command::Descend) {
                Some(k) if depth < self.run.config().levels => {
                    format!("; {k} travels to the way down")
                }
                _ => String::new(),
            };
            self.stop(Some(format!("This level is explored{hint}.")));
        }
        action
    }

    /// After a step of `activity` taken at `depth` with `lives`: it ends
    /// on a new level, a life lost, the run's end, or travel's staircase
    /// reached (saying which key takes it).
    fn stop_if_done(&mut self, activity: Activity, depth: u16, lives: u8) {
        if self.run.player().depth != depth
            || self.run.player().lives != lives
            || self.run.outcome() != Outcome::Playing
        {
            self.stop(None);
        } else if let Activity::Travel(direction) = activity
            && self.on_stairs(direction)
        {
            let key = match direction {
                StairDirection::Down => self.keymap.key_for(Command::Descend),
                StairDirection::Up => self.keymap.key_for(Command::Ascend),
            };
            let hint = key.map_or(String::new(), |k| format!("; {k} takes it"));
            self.stop(Some(format!(
                "You reach the {}{hint}.",
                stairs_name(direction)
            )));
        }
    }
    /// Runs the activity under way to its end (at most `limit` steps), as
    /// the shell would with no key pressed.
    pub fn finish(&mut self, limit: usize) -> Result<(), GenerateError> {
        for _ in 0..limit {
            if !self.busy() {
                break;
            }
            self.tick()?;
        }
        Ok(())
    }

    fn start(&mut self, activity: Activity) -> Result<(), GenerateError> {
        self.activity = Some(activity);
        // The first step is taken at once, so a press always does something;
        // with a monster in view that one step is all a press does.
        self.tick()
    }

    fn stop(&mut self, reason: Option<String>) {
        self.activity = None;
        if let Some(reason) = reason {
            self.note(reason);
        }
    }

    fn on_stairs(&self, direction: StairDirection) -> bool {
        let level = &self.run.current().level;
        level.tile(self.run.player().pos) == stairs_tile(direction)
    }

    /// A key in a replay: the replay's controls first; then only what looks
    /// (overview, look, history, help) and what is about the terminal go on
    /// to the usual handling (returns true), never an action.
    fn press_replay(&mut self, key: Key) -> bool {
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

    /// Plays one action and collects what it brought: the lines the run
    /// said, a new level's camera and autosave, the monsters come into
    /// view, the run's end.
    fn act(&mut self, action: Action) -> Result<Vec<Event>, GenerateError> {
        let from = (self.run.player().depth, self.run.player().pos);
        let events = self.run.step(action)?;
        if (self.run.player().depth, self.run.player().pos) != from {
            // What lay where the player stood no longer lies here: left on
            // the top line through a travel, it sends `g` after nothing.
            self.messages.retain(|m| !m.starts_with(SEE_HERE));
        }
        let new = self.take_said();
        let log = self.run.log();
        let lines = &log[log.len() - new..];
        self.messages.extend(lines.iter().cloned());
        self.history.extend(lines.iter().cloned());
        self.trim_history();
        if events.iter().any(|e| matches!(e, Event::Arrived { .. })) {
            self.camera = None;
            // A new level is a natural checkpoint, as in DCSS.
            self.request.get_or_insert(Request::Autosave);
        }
        self.follow();
        self.watch_monsters();
        if self.run.outcome() != Outcome::Playing && self.mode != Mode::Ended {
            self.activity = None;
            self.mode = Mode::Ended;
            self.last_words = self.messages.clone();
            // The finished run is saved at once, so its record survives.
            self.request = Some(Request::Save);
        }
        Ok(events)
    }

    /// How many lines the run said since they were last taken (the newest
    /// of its log), marking them taken. A go-to back in a replay puts an
    /// earlier copy of the run in place, whose count of lines said is
    /// lower: nothing new then.
    fn take_said(&mut self) -> usize {
        let new = self.run.said().saturating_sub(self.said);
        let new = usize::try_from(new)
            .unwrap_or(usize::MAX)
            .min(self.run.log().len());
        self.said = self.run.said();
        new
    }

    /// A monster coming into view is announced, whatever the player is
    /// doing; it also stops travel, and with one already in view travel
    /// goes a step a press.
    fn watch_monsters(&mut self) {
        let depth = self.run.player().depth;
        let in_view = self.monsters_in_view();
        let newcomers: Vec<String> = in_view
            .iter()
            .filter(|id| self.in_view.0 != depth || !self.in_view.1.contains(id))
            .map(|&id| self.monster_name(id))
            .collect();
        if !newcomers.is_empty() {
            let verb = if newcomers.len() == 1 {
                "comes"
            } else {
                "come"
            };
            self.note(format!(
                "{} {verb} into view.",
                capitalised(&listed(&newcomers))
            ));
        }
        if !in_view.is_empty() && self.activity.is_some() {
            let reason = newcomers.is_empty().then(|| {
                format!(
                    "{} is in view.",
                    capitalised(&self.monster_name(in_view[0]))
                )
            });
            self.stop(reason);
        }
        self.in_view = (depth, in_view);
    }
    /// "a rat": a monster on the player's level, by id.
    fn monster_name(&self, id: u32) -> String {
        let state = self.run.current();
        match state.monsters.iter().find(|m| m.id == id) {
            Some(m) => article(&self.run.kinds()[usize::from(m.kind)].name),
            None => "a monster".into(),
        }
    }

    /// Ids of the monsters the player sees now.
    pub fn monsters_in_view(&self) -> Vec<u32> {
        self.run
            .current()
            .monsters
            .iter()
            .filter(|m| self.run.sees(m.pos))
            .map(|m| m.id)
            .collect()
    }

    /// Whether the map shows `p`: a cell seen, or a doorway told by the
    /// walls beside it (see [`door_in_seen_wall`]).
    pub fn knows(&self, p: Pos) -> bool {
        let state = self.run.current();
        state.has_seen(p) || door_in_seen_wall(state, p)
    }

    fn request_save(&mut self, quit: bool) {
        if self.saved_turn == Some(self.run.turn()) {
            // Nothing has happened since the last save.
            if quit {
                self.quit = true;
            } else {
                self.note(format!("Already saved at turn {}.", self.run.turn()));
            }
            return;
        }
        self.request = Some(if quit {
            Request::SaveAndQuit
        } else {
            Request::Save
        });
    }

    /// Starts a fresh top line, read from its first page.
    fn clear_messages(&mut self) {
        self.messages.clear();
        self.page = 0;
    }

    /// Adds a line of the viewer's own to the top line and the history.
    fn note(&mut self, line: String) {
        self.messages.push(line.clone());
        // A line said again and again ("A rat is in view." at every step of
        // a careful travel) is counted, not repeated.
        let repeats = self.history.last().and_then(|last| {
            if *last == line {
                Some(2)
            } else {
                let count = last.strip_prefix(line.as_str())?.strip_prefix(" (x")?;
                count.strip_suffix(')')?.parse::<u32>().ok().map(|n| n + 1)
            }
        });
        match repeats {
            Some(n) => *self.history.last_mut().expect("just read") = format!("{line} (x{n})"),
            None => self.history.push(line),
        }
        self.trim_history();
    }

    fn trim_history(&mut self) {
        if self.history.len() > HISTORY_LINES {
            let extra = self.history.len() - HISTORY_LINES;
            self.history.drain(..extra);
        }
    }

    /// The session's messages, oldest first.
    pub fn history(&self) -> &[String] {
        &self.history
    }

    /// Moves the camera so the focus (the player, or the look cursor)
    /// stays in view with a margin; the map scrolls only when it must.
    fn follow(&mut self) {
        let focus = match self.mode {
            Mode::Look { cursor } => cursor,
            _ => self.run.player().pos,
        };
        let level = &self.run.current().level;
        let previous = self.camera();
        // Everything in sight must be on screen: the margin is at least the
        // sight radius (beyond a quarter of the view), where the view allows.
        let sight = u16::from(self.run.config().simulation.sight_radius);
        let camera = follow_axis(
            level.width(),
            self.view.0,
            focus.x,
            sight,
            previous.map(|c| c.0),
        );
        let camera = (
            camera,
            follow_axis(
                level.height(),
                self.view.1,
                focus.y,
                sight,
                previous.map(|c| c.1),
            ),
        );
        self.camera = Some((self.run.player().depth, camera));
    }

    /// What the look cursor (or any cell) shows, as the player knows it
    /// ([`super::look::describe`]).
    pub fn describe(&self, p: Pos) -> String {
        super::look::describe(&self.run, p)
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

/// One axis of the camera: centred when the level fits, otherwise kept
/// still until the focus comes within a quarter of the view of an edge.
fn follow_axis(level: u16, view: u16, focus: u16, sight: u16, previous: Option<i32>) -> i32 {
    let (level, view, focus) = (i32::from(level), i32::from(view.max(1)), i32::from(focus));
    if level <= view {
        return -(view - level) / 2;
    }
    let margin = (view / 4).max(i32::from(sight)).min((view - 1) / 2).max(0);
    let mut camera = previous.unwrap_or(focus - view / 2);
    if focus - camera < margin {
        camera = focus - margin;
    }
    if camera + view - 1 - focus < margin {
        camera = focus - (view - 1 - margin);
    }
    if previous.is_none() {
        camera = focus - view / 2;
    }
    camera.clamp(0, level - view)
}

fn stairs_tile(direction: StairDirection) -> Tile {
    match direction {
        StairDirection::Down => Tile::DownStairs,
        StairDirection::Up => Tile::UpStairs,
    }
}

fn stairs_name(direction: StairDirection) -> &'static str {
    match direction {
        StairDirection::Down => "staircase down",
        StairDirection::Up => "staircase up",
    }
}

/// "a rat", "a rat and an orc", "a rat, an orc and a kobold".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camera_centres_small_levels_and_scrolls_large_ones_late() {
        assert_eq!(follow_axis(60, 80, 10, 0, None), -10);
        // First placement centres on the focus, clamped to the level.
        assert_eq!(follow_axis(150, 80, 75, 0, None), 35);
        assert_eq!(follow_axis(150, 80, 3, 0, None), 0);
        assert_eq!(follow_axis(150, 80, 149, 0, None), 70);
        // Inside the margin the camera stays put.
        assert_eq!(follow_axis(150, 80, 60, 0, Some(35)), 35);
        // Past it, it moves just enough.
        assert_eq!(follow_axis(150, 80, 95, 0, Some(35)), 36);
        assert_eq!(follow_axis(150, 80, 54, 0, Some(35)), 34);
        // The margin grows to the sight radius: on 21 rows with sight 8,
        // the focus stays 8 rows from either edge.
        assert_eq!(follow_axis(150, 21, 50, 8, Some(42)), 42);
        assert_eq!(follow_axis(150, 21, 49, 8, Some(42)), 41);
        assert_eq!(follow_axis(150, 21, 55, 8, Some(42)), 43);
    }
}
