//! Monsters' abilities under rules 4, one file each, and this one list of
//! them: which moment of a monster's turn each ability answers. A new
//! ability is its data (a variant of `kinds::ability::Ability`, with its
//! bounds and words), a file here, and its line in each hook below it
//! answers. Under earlier rules the turn never calls these.

pub(in crate::sim) mod blink;
pub(in crate::sim) mod breath;
pub(in crate::sim) mod drain;
pub(in crate::sim) mod flee;
pub(in crate::sim) mod pack;
pub(in crate::sim) mod poison;
pub(in crate::sim) mod ranged;
pub(in crate::sim) mod regenerate;
pub(in crate::sim) mod summon;

use crate::geom::Pos;
use crate::sim::kinds::ability::Ability;
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;

impl Run {
    /// The abilities of monster `i`'s kind: cloned, as the rules change
    /// the run while they read them (an empty list allocates nothing).
    fn abilities_of(&self, i: usize) -> Vec<Ability> {
        let kind = usize::from(self.current().monsters[i].kind);
        self.state.kinds[kind].abilities.clone()
    }

    /// What works on monster `i` at the start of each of its turns,
    /// awake or not: regeneration.
    pub(in crate::sim) fn abilities_tick(&mut self, i: usize) {
        for a in self.abilities_of(i) {
            if let Ability::Regenerate { hp } = a {
                self.regenerate(i, hp);
            }
        }
    }

    /// Monster `i`, awake on its turn, may use an ability instead of
    /// moving, the first in its list that acts: true if one did.
    pub(in crate::sim) fn monster_uses_ability(
        &mut self,
        i: usize,
        events: &mut Vec<Event>,
    ) -> bool {
        for a in self.abilities_of(i) {
            let used = match a {
                Ability::Ranged {
                    missile,
                    range,
                    damage,
                    chance,
                } => self.shoot(i, missile, (range, damage, chance), events),
                Ability::Breath {
                    range,
                    damage,
                    recharge,
                } => self.breathe(i, (range, damage, recharge), events),
                Ability::Summon {
                    kind,
                    chance,
                    count,
                    recharge,
                } => self.summon(i, &kind, (chance, count, recharge)),
                Ability::Blink { chance, range } => self.blink(i, chance, range),
                Ability::Poison { .. }
                | Ability::Drain { .. }
                | Ability::Regenerate { .. }
                | Ability::Flee { .. }
                | Ability::Pack { .. } => false,
            };
            if used {
                return true;
            }
        }
        false
    }

    /// Monster `i`'s bite hit the player (who still stands): what rides
    /// on a bite.
    pub(in crate::sim) fn bite_lands(&mut self, i: usize) {
        for a in self.abilities_of(i) {
            match a {
                Ability::Poison {
                    chance,
                    damage,
                    turns,
                } => self.bite_poisons(i, chance, damage, turns),
                Ability::Drain { chance, amount } => self.bite_drains(i, chance, amount),
                _ => {}
            }
        }
    }

    /// Where monster `i` goes this turn instead of toward the player, when
    /// its abilities or its fright say so: `Some(None)` to stay put.
    pub(in crate::sim) fn ability_step(&mut self, i: usize) -> Option<Option<Pos>> {
        let below = self.abilities_of(i).iter().find_map(|a| match a {
            Ability::Flee { below } => Some(*below),
            _ => None,
        });
        self.flee_step(i, below)
    }
}
