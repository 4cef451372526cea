//! How monsters move, by trait: telepathic ones always know where the
//! player is, others when the player is within their perception radius
//! and in sight; smart ones follow the distance map downhill and remember
//! where they last saw the player, others step straight toward what they
//! know; erratic ones move at random half the time; the rest wander.
//! Tunnellers wear rock down by `dig_per_turn` a move and move in when it
//! opens. Under rules 3 a monster that opens doors walks into a closed or
//! secret door to open it and stays; one that does not goes round, or
//! waits (`world/doors.rs`). What a monster does on reaching the player
//! is the rules' own (`stomp.rs`, `combat.rs`), chosen by the turn.

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::kinds::monster::Trait;
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;
use crate::sim::world::distance::{DIRECTIONS, can_step};
use crate::sim::world::doors::{Doors, Mover, Walker, Way};

impl Run {
    /// Where monster `i` wants to step this move, if anywhere: its traits
    /// read against what it knows of the player, remembering the player's
    /// cell when it is smart and knows it.
    pub(in crate::sim) fn monster_target(&mut self, i: usize) -> Option<Pos> {
        let m = self.current().monsters[i].clone();
        let kind = self.state.kinds[usize::from(m.kind)].clone();
        let player = self.state.player.pos;
        let perceive = u32::from(self.config.simulation.perception_radius);
        let knows = kind.has(Trait::Telepathic)
            || (m.pos.manhattan(player) <= perceive && self.visible(m.pos));
        if knows && kind.has(Trait::Smart) {
            self.current_mut().monsters[i].memory = Some(player);
        }
        let tunneller = kind.has(Trait::Tunneling);
        let opens = kind.opens_doors();
        let doors = self.doors();
        if kind.has(Trait::Erratic) && self.state.rng.random_bool(0.5) {
            self.random_step(m.pos, opens)
        } else if knows && kind.has(Trait::Smart) {
            if tunneller {
                self.tunnelling_map();
                let map = self.sight.tunnelling.take().expect("just computed");
                let level = &self.current().level;
                let step = match doors {
                    Doors::Doorways => map.downhill(level, m.pos, true),
                    Doors::Doors => map.downhill_by(level, m.pos, |from, to| {
                        self.monster_goes(opens, true, from, to)
                    }),
                };
                self.sight.tunnelling = Some(map);
                step
            } else if doors == Doors::Doors {
                let origin = self.state.player.pos;
                let depth = usize::from(self.state.player.depth) - 1;
                let level = &self.state.levels[depth]
                    .as_ref()
                    .expect("the player's level is always generated")
                    .level;
                let mut walk = self.sight.take_monster_walk(level, origin, opens);
                let step = walk.downhill(level, m.pos);
                self.sight.put_monster_walk(walk, opens);
                step
            } else {
                let mut walk = self.take_walk();
                let step = walk.downhill(&self.current().level, m.pos);
                self.put_walk(walk);
                step
            }
        } else if knows {
            self.straight_step(m.pos, player, tunneller, opens)
        } else if let Some(memory) = self.current().monsters[i].memory {
            if memory == m.pos {
                self.current_mut().monsters[i].memory = None;
                self.random_step(m.pos, opens)
            } else {
                self.straight_step(m.pos, memory, tunneller, opens)
            }
        } else {
            self.random_step(m.pos, opens)
        }
    }

    /// Whether a monster gets from `from` toward the adjacent `to`: a step,
    /// a door it opens (rules 3), or for a tunneller rock it digs
    /// (orthogonally). Under rules 1 and 2 exactly `can_step`'s answer.
    fn monster_goes(&self, opens: bool, tunneller: bool, from: Pos, to: Pos) -> bool {
        let level = &self.current().level;
        match self.doors() {
            Doors::Doorways => can_step(level, from, to, tunneller),
            Doors::Doors => {
                let walker = Walker {
                    doors: Doors::Doors,
                    mover: if opens { Mover::Opener } else { Mover::Shut },
                };
                walker.goes(level, from, to)
                    || (tunneller
                        && (from.x == to.x || from.y == to.y)
                        && can_step(level, from, to, true)
                        && level.tile(to) == Tile::Rock)
            }
        }
    }

    /// Monster `i` steps onto `to`, a cell other than the player's: it
    /// waits behind another monster, digs into rock (moving in once it
    /// opens), or moves.
    pub(in crate::sim) fn monster_moves(&mut self, i: usize, to: Pos, events: &mut Vec<Event>) {
        if self.current().monster_at(to).is_some() {
            return; // the mover waits
        }
        if self.doors() == Doors::Doors {
            let kind = usize::from(self.current().monsters[i].kind);
            let opens = self.state.kinds[kind].opens_doors();
            let mover = if opens { Mover::Opener } else { Mover::Shut };
            let walker = Walker {
                doors: Doors::Doors,
                mover,
            };
            match walker.way(self.current().level.tile(to)) {
                Way::Door => {
                    self.monster_opens(i, to, events);
                    return;
                }
                // A door it cannot open (a tunneller's map may lead it
                // there): it waits.
                Way::Wall if self.current().level.tile(to) != Tile::Rock => return,
                _ => {}
            }
        }
        if self.current().level.tile(to) == Tile::Rock {
            let dig = self.config.simulation.dig_per_turn;
            if self.current_mut().level.dig(to, dig) {
                events.push(Event::Dug { at: to });
                self.sight.explored.set(None);
                self.current_mut().monsters[i].pos = to;
                // The level changed: what the player sees and the distance
                // maps must follow, so the derived data stays a function of
                // the state (a reloaded run must match a live one).
                self.refresh();
            }
            return;
        }
        self.current_mut().monsters[i].pos = to;
    }

    /// A random open neighbour (wanderers do not dig), or under rules 3 a
    /// door the monster opens.
    pub(in crate::sim) fn random_step(&mut self, from: Pos, opens: bool) -> Option<Pos> {
        let level = &self.current().level;
        let options: Vec<Pos> = DIRECTIONS
            .iter()
            .filter_map(|&(dx, dy)| {
                let (x, y) = (i32::from(from.x) + dx, i32::from(from.y) + dy);
                level.in_bounds(x, y).then(|| Pos::new(x as u16, y as u16))
            })
            .filter(|&to| self.monster_goes(opens, false, from, to))
            .collect();
        if options.is_empty() {
            return None;
        }
        let pick = self.state.rng.random_range(0..options.len() as u32) as usize;
        Some(options[pick])
    }

    /// The step straight toward `target`: the diagonal if possible, else
    /// one of its two components, else none.
    fn straight_step(&self, from: Pos, target: Pos, tunneller: bool, opens: bool) -> Option<Pos> {
        let dx = (i32::from(target.x) - i32::from(from.x)).signum();
        let dy = (i32::from(target.y) - i32::from(from.y)).signum();
        // The longer axis first, so the monster closes the larger gap.
        let x_first = (i32::from(target.x) - i32::from(from.x)).abs()
            >= (i32::from(target.y) - i32::from(from.y)).abs();
        let tries = if x_first {
            [(dx, dy), (dx, 0), (0, dy)]
        } else {
            [(dx, dy), (0, dy), (dx, 0)]
        };
        tries
            .into_iter()
            .filter(|&(x, y)| x != 0 || y != 0)
            .find_map(|(x, y)| {
                let to = Pos::new(
                    (i32::from(from.x) + x) as u16,
                    (i32::from(from.y) + y) as u16,
                );
                self.monster_goes(opens, tunneller, from, to).then_some(to)
            })
    }
}
