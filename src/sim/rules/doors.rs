//! The rules that change doors (rules revision 3): opening one by walking
//! into it, closing one (`c`), and finding secret doors by searching (`s`)
//! or by walking past. What a door is to sight and to each mover is
//! `world/doors.rs`'s; which open doors may be closed is a question
//! anyone asks (`state/doors.rs`).
//!
//! Finding draws from the run's own stream, and only when a secret door
//! is next to the player: a run of earlier rules (which has none) never
//! draws, so it plays as it always did.

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;
use crate::sim::world::distance::DIRECTIONS;

impl Run {
    /// Changes the door at `to` on the player's level to `tile`, and keeps
    /// what is derived from the level in step: sight, the distance maps,
    /// and what is known to be explored (an opened or found door may lead
    /// somewhere new).
    fn set_door(&mut self, at: Pos, tile: Tile) {
        if self.current_mut().level.set_door(at, tile) {
            self.sight.explored.set(None);
            self.refresh();
        }
    }

    /// The player walks into the closed door at `to`: it opens, and the
    /// player stays where they were. Not logged, as a step is not: travel
    /// and auto-explore open door after door, and the viewer says so for a
    /// door the player walked into by hand.
    pub(in crate::sim) fn player_opens(&mut self, to: Pos, events: &mut Vec<Event>) {
        self.set_door(to, Tile::OpenDoor);
        events.push(Event::Opened {
            at: to,
            by_player: true,
        });
    }

    /// Closes the open door one step away in `(dx, dy)`; false, with
    /// nothing done, when there is none or its doorway is not empty (see
    /// [`Run::closable`]).
    pub(in crate::sim) fn close_door(&mut self, dx: i8, dy: i8, events: &mut Vec<Event>) -> bool {
        let Ok(at) = self.closable(dx, dy) else {
            return false;
        };
        self.set_door(at, Tile::Door);
        self.say("You close the door.".into());
        events.push(Event::Closed { at });
        true
    }

    /// A turn spent searching: each secret door next to the player is
    /// found with the chance `search_chance`, and the turn is counted on
    /// the player's cell (what lets the agents stop searching a spot).
    pub(in crate::sim) fn search(&mut self, events: &mut Vec<Event>) {
        let here = self.state.player.pos;
        self.count_search(here);
        let chance = self.config.simulation.search_chance;
        self.find_secret_doors(chance, events);
    }

    /// After a move: each secret door next to the cell the player stepped
    /// onto is found with the smaller chance `passive_search_chance`.
    pub(in crate::sim) fn notice_secret_doors(&mut self, events: &mut Vec<Event>) {
        let chance = self.config.simulation.passive_search_chance;
        self.find_secret_doors(chance, events);
    }

    /// Each secret door among the player's eight neighbours, in
    /// [`DIRECTIONS`] order, is found with `chance`: it becomes a closed
    /// door, and the player is told.
    fn find_secret_doors(&mut self, chance: f64, events: &mut Vec<Event>) {
        let here = self.state.player.pos;
        for (dx, dy) in DIRECTIONS {
            // The player never stands on the border, so every neighbour
            // is on the level.
            let at = Pos::new(
                (i32::from(here.x) + dx) as u16,
                (i32::from(here.y) + dy) as u16,
            );
            if self.current().level.tile(at) != Tile::SecretDoor {
                continue;
            }
            if self.state.rng.random_bool(chance) {
                self.set_door(at, Tile::Door);
                self.say("You find a hidden door.".into());
                events.push(Event::Found { at });
            }
        }
    }

    /// Monster `i`, which opens doors, walks into the closed or secret
    /// door at `to`: it opens, and the monster stays. The player is told
    /// when they see the door.
    pub(in crate::sim) fn monster_opens(&mut self, i: usize, to: Pos, events: &mut Vec<Event>) {
        let secret = self.current().level.tile(to) == Tile::SecretDoor;
        let seen = self.sees(to);
        self.set_door(to, Tile::OpenDoor);
        if seen {
            let kind = usize::from(self.current().monsters[i].kind);
            let name = self.state.kinds[kind].name.clone();
            let what = if secret {
                "a door hidden in the wall"
            } else {
                "a door"
            };
            self.say(format!("The {name} opens {what}."));
        }
        events.push(Event::Opened {
            at: to,
            by_player: false,
        });
    }
}
