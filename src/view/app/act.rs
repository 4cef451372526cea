//! One action played on the run, and what it brought: the lines the run
//! said, a new level's camera and autosave, the monsters that came into
//! view, the run's end. Apart, as every key that acts and every tick of an
//! activity ends here.

use super::App;
use super::Mode;
use super::saving::Request;
use crate::generate::GenerateError;
use crate::sim::{Action, Event, Outcome};
use crate::words::{article, capitalised};

/// How the run's log begins the line about the items on the cell the
/// player steps onto.
const SEE_HERE: &str = "You see here ";

impl App {
    /// Plays one action and collects what it brought: the lines the run
    /// said, a new level's camera and autosave, the monsters come into
    /// view, the run's end.
    pub(super) fn act(&mut self, action: Action) -> Result<Vec<Event>, GenerateError> {
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
        // The run does not log the player opening a door (travel and
        // auto-explore open door after door); a door walked into by hand
        // is said, before whatever it shows comes into view.
        if self.activity.is_none()
            && events.iter().any(|e| {
                matches!(
                    e,
                    Event::Opened {
                        by_player: true,
                        ..
                    }
                )
            })
        {
            self.note("You open the door.".into());
        }
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
    pub(super) fn take_said(&mut self) -> usize {
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
    pub(super) fn monster_name(&self, id: u32) -> String {
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
}

/// "a rat", "a rat and an orc", "a rat, an orc and a kobold".
fn listed(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
