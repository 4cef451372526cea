//! Poison (centipedes, spiders, wyverns): a bite that hits may poison the
//! player, a timed effect on the hero (`Effect::Poison`, its power the hit
//! points lost a turn); a second dose lasts the longer and keeps the
//! stronger. Each of the player's turns while it lasts takes its toll, and
//! it can kill.

use rand::RngExt;

use crate::sim::state::Run;
use crate::sim::state::tactics::Effect;
use crate::sim::vocabulary::Event;

impl Run {
    /// Monster `i`'s bite poisons the player with `chance` percent.
    pub(in crate::sim) fn bite_poisons(&mut self, i: usize, chance: u8, damage: u16, turns: u16) {
        if self.state.rng.random_range(0..100u32) >= u32::from(chance) {
            return;
        }
        let turn = self.state.turn;
        let Some(tactics) = self.state.tactics.as_mut() else {
            return;
        };
        let fresh = !tactics.effects.has(Effect::Poison, turn);
        tactics.effects.add(Effect::Poison, damage, turn, turns);
        let kind = usize::from(self.current().monsters[i].kind);
        let name = &self.state.kinds[kind].name;
        let line = match fresh {
            true => format!("The {name}'s bite poisons you."),
            false => format!("The {name}'s bite poisons you further."),
        };
        self.say(line);
    }

    /// A turn of poison, if the player is poisoned: its power in hit
    /// points, which may take a life (the cause is the poison).
    pub(in crate::sim) fn poison_tick(&mut self, events: &mut Vec<Event>) {
        let turn = self.state.turn;
        let Some(poison) = self
            .state
            .tactics
            .as_ref()
            .and_then(|t| t.effects.get(Effect::Poison, turn))
        else {
            return;
        };
        if self.hp() <= poison.power {
            self.say("The poison is too much for you.".into());
        }
        self.hero_hurt(poison.power, "poison", events);
    }
}
