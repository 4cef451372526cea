//! Timed effects under rules 4: what they do to time (haste, slowness,
//! and the delay of weapons and armour), to armour (stoneskin), to moves
//! (confusion) and to hit points (poison), once a turn, and when they wear
//! off. The one list is the run's `Tactics::effects` for the hero and each
//! monster's `Mind::effects`.

use rand::RngExt;

use crate::sim::kinds::effect::Effect;
use crate::sim::state::Run;
use crate::sim::units::interval;
use crate::sim::vocabulary::Event;
use crate::sim::world::distance::DIRECTIONS;

impl Run {
    /// The hero's armour now: what is worn, plus stoneskin while it lasts
    /// (the old field under rules 1 to 3, the timed effect from 4).
    pub fn hero_armour(&self) -> u16 {
        let Some(combat) = self.combat() else {
            return 0;
        };
        let turn = self.state.turn;
        let skin = self
            .tactics()
            .and_then(|t| t.effects.get(Effect::Stoneskin, turn))
            .map_or(0, |t| t.power);
        combat.armour(turn).saturating_add(skin)
    }

    /// Whether the hero has `effect` now (never under rules 1 to 3).
    pub fn hero_has(&self, effect: Effect) -> bool {
        self.tactics()
            .is_some_and(|t| t.effects.has(effect, self.state.turn))
    }

    /// Gives the hero `turns` of `effect` at `power` (rules 4).
    pub(in crate::sim) fn hero_gets(&mut self, effect: Effect, power: u16, turns: u16) {
        let turn = self.state.turn;
        if let Some(t) = &mut self.state.tactics {
            t.effects.add(effect, power, turn, turns);
        }
    }

    /// Tenths of a turn the hero's worn armour, and for an attack the
    /// wielded weapon, make an action take (rules 4; 10 otherwise).
    fn hero_delay(&self, attacked: bool) -> u64 {
        let (Some(combat), Some(_)) = (self.combat(), self.tactics()) else {
            return 10;
        };
        let delay = |k: Option<u16>| k.map_or(10, |k| i64::from(combat.kind(k).delay));
        let armour = delay(combat.hero.armour);
        let weapon = if attacked {
            delay(combat.hero.weapon)
        } else {
            10
        };
        (10 + (armour - 10) + (weapon - 10)).clamp(5, 40) as u64
    }

    /// Ticks until the hero's next action after this one: the speed's
    /// interval, stretched by armour and weapon (rules 4), halved by haste
    /// and doubled by slowness.
    pub(in crate::sim) fn player_interval(&self, attacked: bool) -> u64 {
        let base = interval(self.config.simulation.player_speed);
        if self.tactics().is_none() {
            return base;
        }
        let mut ticks = base * self.hero_delay(attacked) / 10;
        if self.hero_has(Effect::Haste) {
            ticks /= 2;
        }
        if self.hero_has(Effect::Slow) {
            ticks *= 2;
        }
        ticks.max(1)
    }

    /// The hero's pace now, in percent of a plain turn: 100 unarmoured and
    /// unaffected, less in heavy armour or slowed, more hasted. `attack`
    /// asks of a melee attack with the wielded weapon.
    pub fn hero_pace(&self, attack: bool) -> u64 {
        let base = interval(self.config.simulation.player_speed);
        base * 100 / self.player_interval(attack)
    }

    /// The hero's timed effects now, each with the turns it has left.
    pub fn hero_effects(&self) -> Vec<(Effect, u64)> {
        let turn = self.state.turn;
        self.tactics().map_or_else(Vec::new, |t| {
            t.effects
                .0
                .iter()
                .filter(|e| turn < e.until)
                .map(|e| (e.effect, e.until - turn))
                .collect()
        })
    }

    /// Ticks until monster `i` on the player's level moves again: its
    /// speed's interval, doubled while slowed (rules 4).
    pub(in crate::sim) fn monster_interval(&self, i: usize) -> u64 {
        let m = &self.current().monsters[i];
        let base = interval(self.state.kinds[usize::from(m.kind)].speed);
        let slowed = self.tactics().is_some_and(|t| {
            let slot = usize::from(self.state.player.depth) - 1;
            t.minds[slot]
                .get(m.id as usize)
                .is_some_and(|mind| mind.effects.has(Effect::Slow, self.state.turn))
        });
        if slowed { base * 2 } else { base }
    }

    /// A confused hero's move goes astray a third of the time, in a
    /// direction drawn from the play stream (rules 4): the step to take
    /// instead, or `None` to take the one given. Asked only of a move that
    /// is possible, so a refused move draws nothing (a replay, which never
    /// sees refusals, draws the same).
    pub(in crate::sim) fn stumble(&mut self) -> Option<(i8, i8)> {
        if !self.hero_has(Effect::Confusion) || self.state.rng.random_range(0..3u32) != 0 {
            return None;
        }
        let (dx, dy) = DIRECTIONS[self.state.rng.random_range(0..DIRECTIONS.len())];
        Some((dx as i8, dy as i8))
    }

    /// What the hero's damage roll becomes: halved while weakened.
    pub(in crate::sim) fn weakened(&self, damage: u16) -> u16 {
        match self.hero_has(Effect::Weakness) {
            true => damage.div_ceil(2),
            false => damage,
        }
    }

    /// Once a player turn under rules 4: effects that wore off say so, on
    /// the hero, and end on the monsters of the player's level (poison's
    /// bite each turn is `rules/abilities/poison.rs`'s).
    pub(in crate::sim) fn effects_pass(&mut self, _events: &mut [Event]) {
        let turn = self.state.turn;
        let Some(tactics) = &mut self.state.tactics else {
            return;
        };
        let gone = tactics.effects.expire(turn);
        let slot = usize::from(self.state.player.depth) - 1;
        for mind in &mut tactics.minds[slot] {
            if !mind.effects.0.is_empty() {
                mind.effects.expire(turn);
            }
        }
        for effect in gone {
            let line = wears_off(effect);
            if !line.is_empty() {
                self.say(line.into());
            }
        }
    }
}

/// The message when an effect ends.
fn wears_off(effect: Effect) -> &'static str {
    match effect {
        Effect::Stoneskin => "Your skin softens again.",
        Effect::Haste => "You feel yourself slow down.",
        Effect::Slow => "You feel yourself speed up.",
        Effect::Poison => "You feel less sick.",
        Effect::Confusion => "You feel less confused.",
        Effect::Weakness => "Your strength returns.",
        Effect::Drained => "You feel your lost strength return.",
        Effect::Recharging | Effect::Frightened | Effect::Wary => "",
    }
}
