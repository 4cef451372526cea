//! Breath (dragons, drakes): fire along the same line of fire as a ranged
//! attack (`ranged.rs`), which never misses; armour does not turn flame.
//! Then the monster must recharge for `recharge` of the run's turns
//! before it breathes again, a timed effect on its mind
//! (`Effect::Recharging`), so a player who counts can close in between
//! breaths.

use crate::dice::Dice;
use crate::sim::state::Run;
use crate::sim::state::tactics::Effect;
use crate::sim::vocabulary::Event;

impl Run {
    /// Monster `i` breathes, if it can: true if it did.
    pub(in crate::sim) fn breathe(
        &mut self,
        i: usize,
        (range, damage, recharge): (u8, Dice, u16),
        events: &mut Vec<Event>,
    ) -> bool {
        let turn = self.state.turn;
        let recharging = self
            .mind_mut(i)
            .is_some_and(|m| m.effects.has(Effect::Recharging, turn));
        if recharging || !self.in_line_of_fire(i, range) {
            return false;
        }
        if let Some(mind) = self.mind_mut(i) {
            mind.effects.add(Effect::Recharging, 0, turn, recharge);
        }
        let kind = usize::from(self.current().monsters[i].kind);
        let name = self.state.kinds[kind].name.clone();
        let hurt = damage
            .roll(&mut self.state.rng)
            .clamp(1, u32::from(u16::MAX)) as u16;
        self.say(format!("The {name} breathes fire at you for {hurt}."));
        events.push(Event::Attacked {
            by_player: false,
            kind: name.clone(),
            damage: Some(hurt),
        });
        self.hero_hurt(hurt, &name, events);
        true
    }
}
