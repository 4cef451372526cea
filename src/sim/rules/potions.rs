//! What a potion does to the one who drinks it. Rules 1 to 3 know
//! healing, vigour and stoneskin (kept on the hero's old field); rules 4
//! put stoneskin on the one list of timed effects and add the lasting
//! potions (haste, and the harmful ones that make an unknown potion a
//! risk: poison, confusion, slowness, weakness) and cure.

use crate::sim::kinds::effect::Effect;
use crate::sim::kinds::item::PotionEffect;
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;

impl Run {
    /// Drinks a potion of `effect`.
    pub(in crate::sim) fn drink(&mut self, effect: PotionEffect, _events: &mut [Event]) {
        match effect {
            PotionEffect::Healing(dice) => {
                let heal = dice.roll(&mut self.state.rng);
                let max = self.max_hp();
                let hero = &mut self.expect_combat_mut().hero;
                hero.hp = (u32::from(hero.hp) + heal).min(u32::from(max)) as u16;
                self.say("You feel better.".into());
            }
            PotionEffect::Vigour(n) => {
                let hero = &mut self.expect_combat_mut().hero;
                hero.vigour = hero.vigour.saturating_add(n);
                hero.hp = hero.hp.saturating_add(n);
                self.say("You feel vigorous.".into());
            }
            PotionEffect::Stoneskin { armour, turns } if self.tactics().is_some() => {
                self.hero_gets(Effect::Stoneskin, armour, turns);
                self.say("Your skin turns to stone.".into());
            }
            PotionEffect::Stoneskin { armour, turns } => {
                let until = self.state.turn + u64::from(turns);
                let hero = &mut self.expect_combat_mut().hero;
                hero.stoneskin = armour;
                hero.stoneskin_until = until;
                self.say("Your skin turns to stone.".into());
            }
            PotionEffect::Lasting {
                effect,
                power,
                turns,
            } => {
                self.hero_gets(effect, power, turns);
                self.say(feels(effect).into());
            }
            PotionEffect::Cure => {
                let turn = self.state.turn;
                let cured = self.state.tactics.as_mut().map_or(0, |t| {
                    let before = t.effects.0.len();
                    t.effects
                        .0
                        .retain(|e| !e.effect.is_harmful() || turn >= e.until);
                    before - t.effects.0.len()
                });
                self.say(
                    match cured {
                        0 => "You feel healthy.",
                        _ => "You feel much better.",
                    }
                    .into(),
                );
            }
        }
    }
}

/// What the drinker feels as an effect begins.
fn feels(effect: Effect) -> &'static str {
    match effect {
        Effect::Stoneskin => "Your skin turns to stone.",
        Effect::Haste => "You feel yourself speed up.",
        Effect::Slow => "You feel yourself slow down.",
        Effect::Poison => "You feel very sick.",
        Effect::Confusion => "You feel somewhat confused.",
        Effect::Weakness => "You feel weak.",
        Effect::Drained => "You feel your life draining away.",
        Effect::Recharging | Effect::Frightened | Effect::Wary => "You feel odd.",
    }
}
