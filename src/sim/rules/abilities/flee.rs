//! Fleeing (kobolds, goblins, imps): a monster whose kind flees runs from
//! the player once its hit points fall below `below` percent of its
//! maximum, and any monster frightened by a blow from afar
//! (`Effect::Frightened`, see `rules/answer.rs`) runs while it lasts. It
//! steps to the neighbour that walks farthest from the player (its own
//! walk, doors as it takes them); cornered, with no such step, it turns
//! and fights.

use crate::geom::Pos;
use crate::sim::state::Run;
use crate::sim::state::tactics::Effect;
use crate::sim::world::distance::{DIRECTIONS, DistanceMap};

impl Run {
    /// Whether monster `i` runs from the player now: below `below`
    /// percent of its hit points (a kind that flees), or frightened.
    pub(in crate::sim) fn fleeing(&self, i: usize, below: Option<u8>) -> bool {
        let m = &self.current().monsters[i];
        let turn = self.state.turn;
        if self
            .mind(m)
            .is_some_and(|mind| mind.effects.has(Effect::Frightened, turn))
        {
            return true;
        }
        let (Some(below), Some((hp, max))) = (below, self.monster_hp(m)) else {
            return false;
        };
        u32::from(hp) * 100 < u32::from(max) * u32::from(below)
    }

    /// The step of monster `i` away from the player, if it flees:
    /// `Some(step)` to take it, `None` when it does not flee or is
    /// cornered (and then acts as any other).
    pub(in crate::sim) fn flee_step(&mut self, i: usize, below: Option<u8>) -> Option<Option<Pos>> {
        if !self.fleeing(i, below) {
            return None;
        }
        let m = self.current().monsters[i].clone();
        let opens = self.state.kinds[usize::from(m.kind)].opens_doors();
        let origin = self.state.player.pos;
        let depth = usize::from(self.state.player.depth) - 1;
        let level = &self.state.levels[depth]
            .as_ref()
            .expect("the player's level is always generated")
            .level;
        let mut walk = self.sight.take_monster_walk(level, origin, opens);
        let here = walk.at(level, m.pos);
        let mut best: Option<(u32, Pos)> = None;
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(m.pos.x) + dx, i32::from(m.pos.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let to = Pos::new(x as u16, y as u16);
            let d = walk.at(level, to);
            if d == DistanceMap::UNREACHABLE || d <= here || to == origin {
                continue;
            }
            if best.is_none_or(|(b, _)| d > b) {
                best = Some((d, to));
            }
        }
        self.sight.put_monster_walk(walk, opens);
        let (_, to) = best?;
        // A cell another monster holds is no way out this turn.
        if self.current().monster_at(to).is_some() {
            return Some(None);
        }
        Some(Some(to))
    }
}
