//! Draining (wraiths, vampires): a bite that hits may take `amount` of the
//! player's maximum hit points, a timed effect on the hero
//! (`Effect::Drained`, its power the points taken, which add up bite by
//! bite). They come back [`DRAIN_TURNS`] turns after the last drain; no
//! drain takes the maximum below half of what it would be.

use rand::RngExt;

use crate::sim::kinds::ability::DRAIN_TURNS;
use crate::sim::state::Run;
use crate::sim::state::tactics::{Effect, Timed};

impl Run {
    /// Monster `i`'s bite drains the player with `chance` percent.
    pub(in crate::sim) fn bite_drains(&mut self, i: usize, chance: u8, amount: u16) {
        if self.state.rng.random_range(0..100u32) >= u32::from(chance) {
            return;
        }
        let turn = self.state.turn;
        let full = self.undrained_max_hp();
        let Some(tactics) = self.state.tactics.as_mut() else {
            return;
        };
        let before = tactics
            .effects
            .get(Effect::Drained, turn)
            .map_or(0, |t| t.power);
        let power = before.saturating_add(amount).min(full / 2);
        tactics.effects.remove(Effect::Drained);
        tactics.effects.0.push(Timed {
            effect: Effect::Drained,
            power,
            until: turn + u64::from(DRAIN_TURNS),
        });
        tactics.effects.0.sort_by_key(|t| t.effect);
        let max = self.max_hp();
        let hero = &mut self.expect_combat_mut().hero;
        hero.hp = hero.hp.min(max).max(1);
        let kind = usize::from(self.current().monsters[i].kind);
        let name = self.state.kinds[kind].name.clone();
        self.say(format!(
            "The {name} drains your life ({max} hit points at most)."
        ));
    }
}
