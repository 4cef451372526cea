//! What a run of real decisions keeps (rules 4 on, Combat only): the
//! hero's timed effects, which item kinds the hero has identified and how
//! the unknown ones look in this run, the readied launcher, and each
//! monster's state of mind. One struct, saved as the last field of the
//! run's state (save format 8), so a run under earlier rules holds `None`
//! and saves, loads and digests exactly as it did.

use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::sim::kinds::appearance;
use crate::sim::kinds::item::ItemKind;

/// Most timed effects a hero or a monster carries at once: one of each
/// kind of [`Effect`], with room for kinds appended later.
pub const MAX_EFFECTS: usize = 32;
/// The longest any timed effect may still last: what bounds a loaded
/// run's effects (the item file keeps every duration within it).
pub const MAX_EFFECT_TURNS: u64 = 10_000;

/// Something that lasts a while and then wears off.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Effect {
    /// `power` more armour.
    Stoneskin,
    /// Acts twice as often.
    Haste,
    /// Acts half as often.
    Slow,
    /// Loses `power` hit points a turn (at least one left by it alone is
    /// not promised: poison kills).
    Poison,
    /// Moves stumble in a random direction a third of the time.
    Confusion,
    /// Deals half damage.
    Weakness,
    /// `power` fewer maximum hit points (a monster's draining bite),
    /// back when it wears off.
    Drained,
    /// A monster's breath or call is spent until it wears off.
    Recharging,
    /// A monster runs from the player until it wears off (hurt from afar,
    /// by a kind that flees).
    Frightened,
    /// A monster keeps out of the player's line of fire until it wears
    /// off, waiting round a corner (hurt from afar, by a kind that takes
    /// cover).
    Wary,
}

impl Effect {
    /// How the character sheet and the status line name it.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Stoneskin => "stoneskin",
            Effect::Haste => "hasted",
            Effect::Slow => "slowed",
            Effect::Poison => "poisoned",
            Effect::Confusion => "confused",
            Effect::Weakness => "weakened",
            Effect::Drained => "drained",
            Effect::Recharging => "recharging",
            Effect::Frightened => "frightened",
            Effect::Wary => "wary",
        }
    }

    /// Whether the one who has it would rather not.
    pub fn is_harmful(self) -> bool {
        matches!(
            self,
            Effect::Slow | Effect::Poison | Effect::Confusion | Effect::Weakness | Effect::Drained
        )
    }
}

/// One timed effect: what, how strong, and the turn it wears off at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timed {
    /// What it does.
    pub effect: Effect,
    /// How strong (armour for stoneskin, hit points a turn for poison;
    /// unused by the others).
    pub power: u16,
    /// The run's turn it wears off at: it holds while `turn < until`.
    pub until: u64,
}

/// A list of timed effects, at most one of each kind (a second dose
/// lengthens and strengthens the first, as NetHack's and DCSS's do).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effects(pub Vec<Timed>);

impl Effects {
    /// The effect `e` while it lasts at `turn`.
    pub fn get(&self, e: Effect, turn: u64) -> Option<Timed> {
        self.0
            .iter()
            .copied()
            .find(|t| t.effect == e && turn < t.until)
    }

    /// Whether `e` holds at `turn`.
    pub fn has(&self, e: Effect, turn: u64) -> bool {
        self.get(e, turn).is_some()
    }

    /// Adds `turns` of `e` at `power`: an effect already running lasts
    /// the longer of the two and keeps the greater power.
    pub fn add(&mut self, e: Effect, power: u16, turn: u64, turns: u16) {
        let until = turn + u64::from(turns);
        match self.0.iter_mut().find(|t| t.effect == e) {
            Some(t) if turn < t.until => {
                t.until = t.until.max(until);
                t.power = t.power.max(power);
            }
            Some(t) => {
                *t = Timed {
                    effect: e,
                    power,
                    until,
                }
            }
            None => {
                self.0.push(Timed {
                    effect: e,
                    power,
                    until,
                });
                self.0.sort_by_key(|t| t.effect);
            }
        }
    }

    /// Ends `e` now.
    pub fn remove(&mut self, e: Effect) {
        self.0.retain(|t| t.effect != e);
    }

    /// Drops what has worn off by `turn`, returning what did (for the
    /// "You feel less confused." messages).
    pub fn expire(&mut self, turn: u64) -> Vec<Effect> {
        let gone = self
            .0
            .iter()
            .filter(|t| turn >= t.until)
            .map(|t| t.effect)
            .collect();
        self.0.retain(|t| turn < t.until);
        gone
    }

    /// Whether the list is what play makes: sorted by effect, one of
    /// each, at most [`MAX_EFFECTS`], none lasting more than `longest`
    /// turns past `turn`.
    pub fn is_valid(&self, turn: u64, longest: u64) -> bool {
        self.0.len() <= MAX_EFFECTS
            && self.0.windows(2).all(|w| w[0].effect < w[1].effect)
            && self
                .0
                .iter()
                .all(|t| t.until <= turn.saturating_add(longest))
    }
}

/// How aware a monster is of the player.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Alert {
    /// Does not move until woken by noise or by noticing the player.
    Asleep,
    /// Roams, not hunting the player until it notices them.
    Wandering,
    /// Hunts the player as its traits let it.
    Awake,
}

/// A monster's state beyond its place and hit points (rules 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mind {
    /// Whether it has noticed the player.
    pub alert: Alert,
    /// What lasts on it (slowed by a wand, poisoned).
    pub effects: Effects,
}

impl Mind {
    /// A monster that hunts from the start, as every monster did before
    /// rules 4.
    pub fn awake() -> Mind {
        Mind {
            alert: Alert::Awake,
            effects: Effects::default(),
        }
    }
}

/// The state rules 4 add to a Combat run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tactics {
    /// The hero's timed effects (stoneskin among them: rules 4 keep no
    /// field for it).
    pub effects: Effects,
    /// Per item kind: whether the hero knows what it is. Weapons and
    /// armour are known on sight.
    pub known: Vec<bool>,
    /// Per item kind: which of its class's appearances it wears in this
    /// run (drawn from the seed), 0 for classes known on sight.
    pub appearances: Vec<u16>,
    /// Per level slot, each monster's mind by monster id (as
    /// `Floor::monster_hp`); empty for a level not visited.
    pub minds: Vec<Vec<Mind>>,
}

impl Tactics {
    /// A new run's: no effects, nothing identified but what is known on
    /// sight, looks dealt from `rng` (the run's `Stage::Appearances`
    /// stream), no level visited.
    pub fn new(items: &[ItemKind], rng: &mut Pcg64, levels: u16) -> Tactics {
        Tactics {
            effects: Effects::default(),
            known: items
                .iter()
                .map(|k| !appearance::comes_unknown(&k.class))
                .collect(),
            appearances: appearance::deal(items, rng),
            minds: vec![Vec::new(); usize::from(levels)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_dose_lengthens_and_strengthens_the_first() {
        let mut e = Effects::default();
        e.add(Effect::Poison, 2, 10, 5);
        e.add(Effect::Haste, 0, 10, 20);
        assert_eq!(e.get(Effect::Poison, 14).map(|t| t.power), Some(2));
        assert!(!e.has(Effect::Poison, 15));
        e.add(Effect::Poison, 1, 12, 10);
        assert_eq!(
            e.get(Effect::Poison, 12),
            Some(Timed {
                effect: Effect::Poison,
                power: 2,
                until: 22
            })
        );
        // Kept in order of effect, one of each.
        assert!(e.is_valid(12, 100));
        assert_eq!(e.expire(22), vec![Effect::Poison]);
        assert!(e.has(Effect::Haste, 22));
        e.remove(Effect::Haste);
        assert_eq!(e, Effects::default());
        // What play never makes is refused on load.
        let forged = Effects(vec![
            Timed {
                effect: Effect::Slow,
                power: 0,
                until: 5,
            },
            Timed {
                effect: Effect::Haste,
                power: 0,
                until: 5,
            },
        ]);
        assert!(!forged.is_valid(0, 100));
        let long = Effects(vec![Timed {
            effect: Effect::Slow,
            power: 0,
            until: 500,
        }]);
        assert!(!long.is_valid(0, 100));
        assert!(Effect::Poison.is_harmful() && !Effect::Haste.is_harmful());
        assert_eq!(Effect::Confusion.name(), "confused");
    }
}
