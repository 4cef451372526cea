//! How monsters answer being hurt or targeted from afar (rules 4): the
//! firing and zapping code calls [`Run::monster_hurt_from_afar`], which
//! wakes the monster and tells it where the player is; then its kind
//! decides. A kind that flees runs (frightened for a while); one that can
//! hurt from afar itself (a ranged attack or a breath) stands and answers
//! in kind; a smart one takes cover, stepping out of the line of fire and
//! waiting round the corner for the player to come; any other closes in.

use crate::geom::Pos;
use crate::sim::kinds::ability::Ability;
use crate::sim::kinds::monster::Trait;
use crate::sim::state::Run;
use crate::sim::state::tactics::Effect;
use crate::sim::world::distance::DIRECTIONS;

/// Turns a monster hurt from afar stays frightened (a kind that flees).
const FRIGHT_TURNS: u16 = 20;
/// Turns a monster hurt from afar keeps to cover (a smart kind).
const COVER_TURNS: u16 = 12;

impl Run {
    /// The player hurt or targeted monster `index` (of the player's level)
    /// from afar: it wakes, learns where the player is, and answers as its
    /// kind does (see the file's comment). Nothing under rules before 4,
    /// or for an index with no monster.
    pub fn monster_hurt_from_afar(&mut self, index: usize) {
        if self.state.tactics.is_none() || index >= self.current().monsters.len() {
            return;
        }
        self.alarm(index, "");
        let player = self.state.player.pos;
        self.current_mut().monsters[index].memory = Some(player);
        let kind = &self.state.kinds[usize::from(self.current().monsters[index].kind)];
        let flees = kind.ability("Flee").is_some();
        let shoots = kind
            .abilities
            .iter()
            .any(|a| matches!(a, Ability::Ranged { .. } | Ability::Breath { .. }));
        let smart = kind.has(Trait::Smart);
        let turn = self.state.turn;
        let Some(mind) = self.mind_mut(index) else {
            return;
        };
        if flees {
            mind.effects.add(Effect::Frightened, 0, turn, FRIGHT_TURNS);
        } else if !shoots && smart {
            mind.effects.add(Effect::Wary, 0, turn, COVER_TURNS);
        }
    }

    /// Where monster `i` goes this turn if it keeps to cover: out of the
    /// player's sight, to the neighbour nearest the player that the player
    /// does not see (`Some(None)`, staying, once hidden). `None` when it is
    /// not wary, or no neighbour hides it (it closes in then).
    pub(in crate::sim) fn cover_step(&mut self, i: usize) -> Option<Option<Pos>> {
        let m = self.current().monsters[i].clone();
        let turn = self.state.turn;
        if !self
            .mind(&m)
            .is_some_and(|mind| mind.effects.has(Effect::Wary, turn))
        {
            return None;
        }
        if !self.sees(m.pos) {
            return Some(None);
        }
        let player = self.state.player.pos;
        let opens = self.state.kinds[usize::from(m.kind)].opens_doors();
        let level = &self.current().level;
        let walker = crate::sim::world::doors::Walker {
            doors: self.doors(),
            mover: if opens {
                crate::sim::world::doors::Mover::Opener
            } else {
                crate::sim::world::doors::Mover::Shut
            },
        };
        DIRECTIONS
            .iter()
            .filter_map(|&(dx, dy)| {
                let (x, y) = (i32::from(m.pos.x) + dx, i32::from(m.pos.y) + dy);
                level.in_bounds(x, y).then(|| Pos::new(x as u16, y as u16))
            })
            .filter(|&p| {
                walker.steps(level, m.pos, p)
                    && !self.sees(p)
                    && self.current().monster_at(p).is_none()
            })
            .min_by_key(|&p| (p.manhattan(player), level.index(p)))
            .map(Some)
    }
}
