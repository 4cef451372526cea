//! The viewer's state: a run plus everything about looking at it (the
//! mode, the camera, the messages, a travel in progress).
//!
//! `App` takes keys and returns nothing but its new state; it never touches
//! the terminal or the disk. Saving is a [`Request`] the shell carries out
//! and reports back with [`App::saved`], so every path, including a failed
//! save, can be driven by a test typing keys.
//!
//! This file holds the state itself ([`App`], [`Mode`]) and what reads it
//! plainly; each concern that changes it has a file of its own beside it:
//! `keys` (a key press, a step for each kind of key and screen),
//! `count` (digits typed before a command), `doors` (searching, closing
//! and its prompt), `inventory` (the pack's commands and prompt), `travel`
//! (travel, auto-explore and a counted command, a step a tick), `act` (one action played and what it
//! brought), `messages` (the top line and the history), `saving` (the
//! shell's requests and how a save went), `camera` (the map view
//! following the player or the look cursor) and `replaying` (the viewer
//! of `delve replay`).

mod act;
mod aim;
mod camera;
mod count;
mod doors;
mod inventory;
mod keys;
mod messages;
mod replaying;
mod saving;
mod travel;

pub use self::aim::{Aim, quiver, targets};
pub use self::count::MAX_COUNT;
pub use self::inventory::ItemVerb;
pub use self::saving::Request;
pub use self::travel::Activity;

use super::keymap::Keymap;
use super::look::door_in_seen_wall;
use super::replay::ReplayControl;
use crate::geom::Pos;
use crate::sim::{Outcome, Run};

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
    /// Asking which way to close a door, with more than one open beside
    /// the player.
    CloseWhich,
    /// Aiming a missile or a wand (rules 4).
    Aim {
        /// What is aimed.
        aim: Aim,
        /// The cell aimed at.
        cursor: Pos,
    },
    /// The character sheet.
    Character,
    /// Ctrl-C: save before quitting?
    ConfirmQuit,
    /// The run is won or lost: its summary.
    Ended,
}

/// Rows the screen keeps for text: one message line above the map, two
/// status lines below.
pub const TEXT_ROWS: u16 = 3;
/// The smallest screen the viewer draws: 002's 80x21 map plus the text rows.
pub const MIN_SIZE: (u16, u16) = (80, 24);

/// The viewer's state.
pub struct App {
    run: Run,
    keymap: Keymap,
    save_name: String,
    mode: Mode,
    activity: Option<Activity>,
    /// The count typed before a command (digits the keymap leaves free).
    count: Option<u32>,
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
            count: None,
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

    /// Whether an activity is under way: the shell should call
    /// [`App::tick`] while no key is pressed.
    pub fn busy(&self) -> bool {
        self.activity.is_some() || self.replay.as_ref().is_some_and(|c| c.running())
    }

    /// Whether the shell should restore the terminal and leave.
    pub fn should_quit(&self) -> bool {
        self.quit
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

    /// Whether the map shows `p`: a cell seen, or a doorway told by the
    /// walls beside it (see `look::door_in_seen_wall`).
    pub fn knows(&self, p: Pos) -> bool {
        let state = self.run.current();
        state.has_seen(p) || door_in_seen_wall(state, p)
    }

    /// What the look cursor (or any cell) shows, as the player knows it
    /// ([`super::look::describe`]).
    pub fn describe(&self, p: Pos) -> String {
        super::look::describe(&self.run, p)
    }
}
