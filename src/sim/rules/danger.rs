//! How dangerous a monster is to the player now (rules 4's look mode and
//! the autopilot share it): the turns each side needs to kill the other,
//! from the odds of `odds.rs` against the armour and weapon the player has
//! now, the monster's speed against the player's, and its ranged attack
//! or breath when it has one. Expectations only: it never decides a fight.

use crate::sim::kinds::ability::Ability;
use crate::sim::kinds::monster::Monster;
use crate::sim::rules::odds::{HitOdds, expected_damage};
use crate::sim::state::Run;
use crate::sim::state::tactics::Alert;

/// What a fight with one monster looks like from here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Danger {
    /// The player's turns it needs to bring the player's hit points to 0.
    pub turns_to_kill_you: f64,
    /// The player's turns the player needs to kill it (sneak attack
    /// counted for the first blow when it has not noticed the player).
    pub turns_to_kill_it: f64,
}

impl Danger {
    /// A word for it: whether the player should fight it, as look mode
    /// says.
    pub fn word(&self) -> &'static str {
        let ratio = self.turns_to_kill_you / self.turns_to_kill_it.max(0.01);
        if ratio >= 4.0 {
            "easy"
        } else if ratio >= 1.5 {
            "a fair fight"
        } else if ratio >= 0.75 {
            "dangerous"
        } else {
            "deadly"
        }
    }
}

impl Run {
    /// How dangerous monster `m` of the player's level is to the player
    /// now; `None` under Stomp.
    pub fn danger(&self, m: &Monster) -> Option<Danger> {
        let combat = self.combat()?;
        let cfg = &self.config.simulation.combat;
        let odds = HitOdds::of(cfg);
        let kind = &self.state.kinds[usize::from(m.kind)];
        let armour = self.hero_armour();
        let bite = expected_damage(&odds, armour, &kind.damage);
        // A monster that shoots or breathes as often as it bites does not
        // bite less for it; what it adds is counted as a share of turns.
        let extra: f64 = match self.state.tactics.is_some() {
            false => 0.0,
            true => kind
                .abilities
                .iter()
                .map(|a| match a {
                    Ability::Poison {
                        chance,
                        damage,
                        turns,
                    } => {
                        bite / kind.damage.mean().max(1.0) * f64::from(*chance) / 100.0
                            * f64::from(*damage)
                            * f64::from(*turns)
                            / 2.0
                    }
                    Ability::Breath {
                        damage, recharge, ..
                    } => damage.mean() / f64::from(*recharge).max(1.0) * 3.0,
                    _ => 0.0,
                })
                .sum(),
        };
        let speed = f64::from(kind.speed) / f64::from(self.config.simulation.player_speed);
        let per_turn = ((bite + extra) * speed).max(0.01);
        let mine = expected_damage(&odds, kind.armour, &combat.weapon_dice(cfg.unarmed)).max(0.1);
        let (hp, _) = self.monster_hp(m).unwrap_or((1, 1));
        let mut left = f64::from(hp);
        let mut turns = 0.0;
        if self.state.tactics.is_some() && self.alert_of(m) != Alert::Awake {
            // The first blow lands, doubled.
            let weapon = combat.weapon_dice(cfg.unarmed);
            left -= 2.0 * weapon.mean().max(1.0);
            turns += 1.0;
        }
        if left > 0.0 {
            turns += left / mine;
        }
        Some(Danger {
            turns_to_kill_you: f64::from(self.hp()) / per_turn,
            turns_to_kill_it: turns.max(1.0),
        })
    }
}
