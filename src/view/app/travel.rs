//! Travel and auto-explore: an [`Activity`] started by a key and carried
//! on a step a tick until it arrives or something stops it, and the stairs
//! command that takes a staircase or travels to one. Apart from the keys,
//! as the shell's clock drives it.

use super::App;
use crate::generate::GenerateError;
use crate::level::{StairDirection, Tile};
use crate::sim::{Action, Event, Outcome, Plan, decide, explore_step, fetch_step, travel_step};
use crate::view::keymap::Command;

/// Something that takes several turns, one a tick, until it arrives or is
/// interrupted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Toward the nearest known staircase going this way (or exploring
    /// toward one).
    Travel(StairDirection),
    /// The autopilot, while it explores.
    Explore,
    /// A command typed with a count (`5s`, `20.`): `action` again, `left`
    /// times more counting this one, until something interrupts it.
    Repeat {
        /// The action repeated: a move, a wait or a search.
        action: Action,
        /// Times left, this one included.
        left: u32,
        /// Times done before this one.
        done: u32,
    },
    /// Resting (`Z`): waiting until hit points are full, or something
    /// comes into view or attacks, or [`MAX_REST`] turns have passed.
    Rest {
        /// Turns rested before this one.
        done: u32,
    },
}

/// The most turns one `Z` rests: far more than healing takes at any
/// setting a config allows, so it ends a rest that cannot heal (a config
/// with no regeneration) rather than any that can.
pub const MAX_REST: u32 = 5000;

impl App {
    /// What is being done over several ticks, if anything.
    pub fn activity(&self) -> Option<Activity> {
        self.activity
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
            Activity::Repeat { action, left, done } => {
                self.activity = (left > 1).then_some(Activity::Repeat {
                    action,
                    left: left - 1,
                    done: done + 1,
                });
                Some(action)
            }
            Activity::Rest { done } => self.rest_action(done),
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
        if let Activity::Repeat { action, done, .. } = activity {
            self.stop_repeat(&events);
            if action == Action::Search {
                self.said_search(&events, done + 1);
            }
        }
        if let Activity::Rest { done } = activity {
            self.stop_repeat(&events);
            if self.activity.is_some() {
                self.activity = Some(Activity::Rest { done: done + 1 });
            }
        }
        // A door found is news: auto-explore stops to let the player see
        // it (the next `o` goes on, through it if it leads anywhere new).
        if activity == Activity::Explore && events.iter().any(|e| matches!(e, Event::Found { .. }))
        {
            self.stop(None);
        }
        if self.activity.is_none() {
            return Ok(()); // stopped (a monster came into view), or done
        }
        self.stop_if_done(activity, depth, lives);
        Ok(())
    }

    /// A counted command stops when something attacks the player or a
    /// search finds a door, as well as when a monster comes into view.
    fn stop_repeat(&mut self, events: &[Event]) {
        let attacked = events.iter().any(|e| {
            matches!(
                e,
                Event::Attacked {
                    by_player: false,
                    ..
                } | Event::Hit { .. }
                    | Event::Slain { .. }
            )
        });
        let found = events.iter().any(|e| matches!(e, Event::Found { .. }));
        if self.activity.is_some() && (attacked || found) {
            self.stop(None);
        }
    }

    /// Resting's next turn, a wait; `None`, with the activity stopped and
    /// why said, once hit points are full or the rest has gone on
    /// [`MAX_REST`] turns.
    fn rest_action(&mut self, done: u32) -> Option<Action> {
        let turns = |n: u32| {
            if n == 1 {
                "1 turn".to_string()
            } else {
                format!("{n} turns")
            }
        };
        if self.hurt().is_none() {
            self.stop(Some(format!(
                "You rest for {} and feel rested.",
                turns(done)
            )));
            return None;
        }
        if done >= MAX_REST {
            self.stop(Some(format!("You rest for {} and stop.", turns(done))));
            return None;
        }
        Some(Action::Wait)
    }

    /// `Z`: rest, unless there is nothing to rest off or a monster is in
    /// view (the player decides then, as DCSS and NetHack ask).
    pub(super) fn rest_command(&mut self) -> Result<(), GenerateError> {
        let Some((hp, max)) = self.hurt_or_whole() else {
            self.note("There is nothing to rest off under these rules.".into());
            return Ok(());
        };
        if hp >= max {
            self.note("You are already at full health.".into());
            return Ok(());
        }
        if let Some(&id) = self.monsters_in_view().first() {
            let name = self.monster_name(id);
            self.note(format!("Not with {name} in view."));
            return Ok(());
        }
        self.start(Activity::Rest { done: 0 })
    }

    /// The hero's hit points and their most, under the Combat rules.
    fn hurt_or_whole(&self) -> Option<(u16, u16)> {
        let combat = self.run.combat()?;
        Some((combat.hero.hp, self.run.max_hp()))
    }

    /// The hero's hit points and their most while below it.
    fn hurt(&self) -> Option<(u16, u16)> {
        self.hurt_or_whole().filter(|(hp, max)| hp < max)
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
        // The autopilot's own choice while it explores, fetches an
        // item it sees (DCSS's auto-explore picks items up too) or
        // rests, hurt and alone, before exploring on (DCSS's
        // `explore_auto_rest`); anything else it would do (equip, drink,
        // take the stairs) is the player's to decide, so fetch what it
        // would take and step toward the nearest unexplored cell
        // instead: the level is explored only when neither is left.
        let (action, plan) = decide(&mut self.run);
        let action = match plan {
            Plan::Explore | Plan::Loot | Plan::Search | Plan::Rest => Some(action),
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

    pub(super) fn start(&mut self, activity: Activity) -> Result<(), GenerateError> {
        self.activity = Some(activity);
        // The first step is taken at once, so a press always does something;
        // with a monster in view that one step is all a press does.
        self.tick()
    }

    pub(super) fn stop(&mut self, reason: Option<String>) {
        self.activity = None;
        if let Some(reason) = reason {
            self.note(reason);
        }
    }

    fn on_stairs(&self, direction: StairDirection) -> bool {
        let level = &self.run.current().level;
        level.tile(self.run.player().pos) == stairs_tile(direction)
    }

    /// The stairs going `direction`: taken when the player stands on them,
    /// travelled to otherwise.
    pub(super) fn stairs_command(
        &mut self,
        direction: StairDirection,
    ) -> Result<(), GenerateError> {
        let (tile, action) = match direction {
            StairDirection::Down => (Tile::DownStairs, Action::Descend),
            StairDirection::Up => (Tile::UpStairs, Action::Ascend),
        };
        let here = self.run.player().pos;
        if self.run.current().level.tile(here) != tile {
            return self.start(Activity::Travel(direction));
        }
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
        Ok(())
    }
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
