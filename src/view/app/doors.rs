//! The door commands (rules 3): searching for secret doors (`s`, a count
//! first searching longer) and closing an open door (`c`), with the prompt
//! that asks which way when more than one is open beside the player.
//! Opening needs no command: walking into a closed door opens it.

use super::App;
use super::Mode;
use super::travel::Activity;
use crate::generate::GenerateError;
use crate::sim::{Action, Event, Unclosable};
use crate::view::keymap::Command;

impl App {
    /// `s`: a turn of searching, or `count` turns as an activity (stopped
    /// like travel when a monster comes into view, something attacks, or
    /// a door is found).
    pub(super) fn search_command(&mut self, count: u32) -> Result<(), GenerateError> {
        if count > 1 {
            return self.start(Activity::Repeat {
                action: Action::Search,
                left: count,
                done: 0,
            });
        }
        let events = self.act(Action::Search)?;
        self.said_search(&events, 1);
        Ok(())
    }

    /// After the last turn of a search: says it found nothing, when it did
    /// not (a found door says so itself).
    pub(super) fn said_search(&mut self, events: &[Event], turns: u32) {
        let found = events.iter().any(|e| matches!(e, Event::Found { .. }));
        if !found && events != [Event::Blocked] && self.activity.is_none() {
            let turns = crate::words::count(turns, "turn", "turns");
            self.note(format!("You search for {turns} and find nothing."));
        }
    }

    /// `c`: closes the one open door beside the player, asks which way
    /// when there are more, and says why when there is none to close.
    pub(super) fn close_command(&mut self) -> Result<(), GenerateError> {
        let around = self.run.open_doors_around();
        match around[..] {
            [] => self.note("There is no open door next to you.".into()),
            [(dx, dy)] => self.close_toward(dx, dy)?,
            _ => self.mode = Mode::CloseWhich,
        }
        Ok(())
    }

    /// A command at the "close which door?" prompt: a direction closes the
    /// door that way; anything else cancels.
    pub(super) fn press_close_which(
        &mut self,
        command: Option<Command>,
    ) -> Result<(), GenerateError> {
        self.clear_messages();
        self.mode = Mode::Map;
        if let Some(Command::Move { dx, dy }) = command {
            self.close_toward(dx, dy)?;
        }
        Ok(())
    }

    /// Closes the door one step away in `(dx, dy)`, or says why not (no
    /// turn passes then).
    fn close_toward(&mut self, dx: i8, dy: i8) -> Result<(), GenerateError> {
        match self.run.closable(dx, dy) {
            Ok(_) => {
                self.act(Action::Close { dx, dy })?;
            }
            Err(why) => self.note(Unclosable::words(why).into()),
        }
        Ok(())
    }
}
