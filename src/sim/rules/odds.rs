//! The Combat rules as pure functions: the chance to hit against armour, an
//! attack, regeneration and experience. The run applies them; keeping them
//! here, apart from the state, lets tests check each rule with numbers.
//!
//! - An attack first rolls to hit: a percentage that starts at the
//!   config's `hit_chance` and loses `armour_step` points for every point
//!   of the defender's armour, never below `min_hit`. A hit then rolls the
//!   attacker's damage dice. Armour lowers the chance, never the damage, so
//!   even a well-armoured player meets a dragon's full bite now and then.
//! - The player regains one hit point every `regen_every` turns.
//! - Killing a monster earns experience equal to its hit points; each
//!   experience level doubles the experience needed for the next and adds
//!   to the player's maximum hit points.

use rand::{Rng, RngExt};

use crate::dice::Dice;

/// The numbers an attack is judged by (from the config's combat section).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitOdds {
    /// Percent chance to hit a defender without armour.
    pub hit_chance: u8,
    /// Percentage points each point of armour takes off.
    pub armour_step: u8,
    /// The chance never falls below this percentage.
    pub min_hit: u8,
}

impl HitOdds {
    /// The odds a config's combat section sets: the one place they are
    /// read from it, for the rules and the autopilot alike.
    pub fn of(combat: &crate::config::CombatConfig) -> HitOdds {
        HitOdds {
            hit_chance: combat.hit_chance,
            armour_step: combat.armour_step,
            min_hit: combat.min_hit,
        }
    }

    /// The percent chance to hit a defender with `armour`.
    pub fn chance(&self, armour: u16) -> u8 {
        let lowered = u32::from(self.hit_chance)
            .saturating_sub(u32::from(self.armour_step) * u32::from(armour));
        lowered.max(u32::from(self.min_hit)).min(100) as u8
    }
}

/// What one attack did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strike {
    /// No damage: armour's whole effect is more of these.
    Miss,
    /// A hit for this much damage (at least 1).
    Hit(u16),
}

/// One attack: a draw for the hit, then (on a hit) the damage dice. A hit
/// always does at least one point, so a fight always ends.
pub fn attack<R: Rng + ?Sized>(rng: &mut R, odds: &HitOdds, armour: u16, damage: &Dice) -> Strike {
    let chance = u32::from(odds.chance(armour));
    if rng.random_range(0..100u32) >= chance {
        return Strike::Miss;
    }
    Strike::Hit(damage.roll(rng).clamp(1, u32::from(u16::MAX)) as u16)
}

/// Hit points after a turn's regeneration: one point every `every` turns
/// (0 turns it off), never above `max`.
pub fn regenerate(hp: u16, max: u16, turn: u64, every: u16) -> u16 {
    if every == 0 || hp >= max || !turn.is_multiple_of(u64::from(every)) {
        return hp.min(max);
    }
    hp + 1
}

/// Expected damage a turn: the chance to hit times the mean roll. The
/// autopilot weighs fights with it; it never decides an outcome.
pub fn expected_damage(odds: &HitOdds, armour: u16, damage: &Dice) -> f64 {
    f64::from(odds.chance(armour)) / 100.0 * damage.mean().max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};

    const ODDS: HitOdds = HitOdds {
        hit_chance: 80,
        armour_step: 5,
        min_hit: 20,
    };

    #[test]
    fn armour_lowers_the_chance_to_a_floor() {
        assert_eq!(ODDS.chance(0), 80);
        assert_eq!(ODDS.chance(4), 60);
        assert_eq!(ODDS.chance(12), 20);
        assert_eq!(ODDS.chance(1000), 20);
    }

    #[test]
    fn attacks_hit_about_as_often_as_the_chance_says() {
        let mut rng = stage_rng(3, 1, 0, Stage::Play);
        let dice = Dice::new(1, 6, 0);
        for armour in [0u16, 4, 12] {
            let hits = (0..10_000)
                .filter(|_| matches!(attack(&mut rng, &ODDS, armour, &dice), Strike::Hit(_)))
                .count();
            let want = f64::from(ODDS.chance(armour)) * 100.0;
            assert!(
                (hits as f64 - want).abs() < 300.0,
                "armour {armour}: {hits} hits, about {want} expected"
            );
        }
    }

    #[test]
    fn a_hit_does_at_least_one_point() {
        let mut rng = stage_rng(4, 1, 0, Stage::Play);
        let odds = HitOdds {
            hit_chance: 100,
            armour_step: 0,
            min_hit: 100,
        };
        for _ in 0..100 {
            assert_eq!(
                attack(&mut rng, &odds, 0, &Dice::new(0, 0, 0)),
                Strike::Hit(1)
            );
            match attack(&mut rng, &odds, 0, &Dice::new(2, 4, 1)) {
                Strike::Hit(d) => assert!((3..=9).contains(&d)),
                Strike::Miss => panic!("a certain hit missed"),
            }
        }
        let never = HitOdds {
            hit_chance: 0,
            armour_step: 0,
            min_hit: 0,
        };
        assert_eq!(
            attack(&mut rng, &never, 0, &Dice::new(1, 6, 0)),
            Strike::Miss
        );
    }

    #[test]
    fn regeneration_is_slow_and_capped() {
        assert_eq!(regenerate(5, 10, 20, 10), 6);
        assert_eq!(regenerate(5, 10, 21, 10), 5);
        assert_eq!(regenerate(10, 10, 20, 10), 10);
        assert_eq!(regenerate(12, 10, 21, 10), 10);
        assert_eq!(regenerate(5, 10, 20, 0), 5);
    }
}
