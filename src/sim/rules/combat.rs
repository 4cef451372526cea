//! Combat's rules: attacks both ways, losing a life and waking by the
//! stairs, regeneration and the end of stoneskin, experience and the hit
//! points it brings. The numbers come from `odds.rs` and the hero's
//! formulas in `state/combat_state.rs`; this file moves the state. The
//! turn calls it only under Combat.

use crate::geom::Pos;
use crate::sim::rules::odds::{HitOdds, Strike, attack, regenerate};
use crate::sim::state::Run;
use crate::sim::vocabulary::{Event, Outcome};
use crate::sim::world::distance::DIRECTIONS;
use crate::words::wound_word;

impl Run {
    fn odds(&self) -> HitOdds {
        HitOdds::of(&self.config.simulation.combat)
    }

    /// The player's odds with `with` (a weapon, launcher or missile kind):
    /// under rules 4 its accuracy moves the chance to hit, never above 100.
    pub(in crate::sim) fn player_odds(&self, with: Option<u16>) -> HitOdds {
        let mut odds = self.odds();
        if self.tactics().is_some()
            && let (Some(k), Some(c)) = (with, self.combat())
        {
            let hit = i16::from(odds.hit_chance) + i16::from(c.kind(k).accuracy);
            odds.hit_chance = hit.clamp(1, 100) as u8;
        }
        odds
    }

    /// The percent chance the player's attack with `with` (a weapon,
    /// launcher or missile; `None` for bare hands) hits a foe of `armour`.
    pub fn hit_chance(&self, with: Option<u16>, armour: u16) -> u8 {
        self.player_odds(with).chance(armour)
    }

    /// The experience the next level needs, `None` at the last level.
    pub fn next_level_xp(&self) -> Option<u32> {
        let c = &self.config.simulation.combat;
        let level = self.experience_level();
        (level < c.max_level).then(|| {
            let need = u64::from(c.first_level_xp.max(1)) << (level - 1).min(40);
            need.min(u64::from(u32::MAX)) as u32
        })
    }

    /// The player attacks the monster at index `m` instead of moving.
    pub(in crate::sim) fn player_attacks(&mut self, m: usize, events: &mut Vec<Event>) {
        let monster = self.current().monsters[m].clone();
        let kind = self.state.kinds[usize::from(monster.kind)].clone();
        let dice = self
            .combat()
            .expect("a Combat run")
            .weapon_dice(self.config.simulation.combat.unarmed);
        let odds = self.player_odds(self.combat().expect("a Combat run").hero.weapon);
        // A sneak attack (rules 4): a monster that has not noticed the
        // player is hit for sure, for double damage.
        let sneak = self.unaware(m);
        let strike = match sneak {
            true => Strike::Hit((dice.roll(&mut self.state.rng).clamp(1, 30_000) * 2) as u16),
            false => attack(&mut self.state.rng, &odds, kind.armour, &dice),
        };
        self.attacked = true;
        let strike = match strike {
            Strike::Hit(damage) => Strike::Hit(self.weakened(damage)),
            miss => miss,
        };
        if self.state.tactics.is_some() {
            self.alarm(m, "");
        }
        if sneak {
            self.say(format!("You catch the {} unawares.", kind.name));
        }
        match strike {
            Strike::Miss => {
                self.say(format!("You miss the {}.", kind.name));
                events.push(Event::Attacked {
                    by_player: true,
                    kind: kind.name,
                    damage: None,
                });
            }
            Strike::Hit(damage) => self.player_hurts(m, damage, "You hit", events),
        }
    }

    /// Monster `m` takes `damage` from the player (`hit` says how: "You
    /// hit", "The dart hits"): its hit points fall, and at none it dies,
    /// earning its experience.
    pub(in crate::sim) fn player_hurts(
        &mut self,
        m: usize,
        damage: u16,
        hit: &str,
        events: &mut Vec<Event>,
    ) {
        let monster = self.current().monsters[m].clone();
        let kind = self.state.kinds[usize::from(monster.kind)].clone();
        let id = monster.id as usize;
        let floor = self.floor_mut();
        let hp = floor.monster_hp[id].saturating_sub(damage);
        floor.monster_hp[id] = hp;
        let max = floor.monster_max_hp[id];
        events.push(Event::Attacked {
            by_player: true,
            kind: kind.name.clone(),
            damage: Some(damage),
        });
        if hp == 0 {
            self.current_mut().monsters.remove(m);
            self.state.killed += 1;
            let level_before = self.experience_level();
            let max_before = self.max_hp();
            let state = self.expect_combat_mut();
            state.kills[usize::from(monster.kind)] += 1;
            state.hero.xp = state.hero.xp.saturating_add(u32::from(max));
            self.say(format!("{hit} the {} for {damage}; it dies.", kind.name));
            events.push(Event::Killed { kind: kind.name });
            let level = self.experience_level();
            if level > level_before {
                let gain = self.max_hp().saturating_sub(max_before);
                let hero = &mut self.expect_combat_mut().hero;
                hero.hp = hero.hp.saturating_add(gain);
                self.say(format!("You reach experience level {level}."));
            }
        } else {
            self.say(format!(
                "{hit} the {} for {damage} ({}).",
                kind.name,
                wound_word(hp, max)
            ));
        }
    }

    /// The monster at index `i` attacks the player.
    pub(in crate::sim) fn monster_attacks(&mut self, i: usize, events: &mut Vec<Event>) {
        let monster = self.current().monsters[i].clone();
        let kind = self.state.kinds[usize::from(monster.kind)].clone();
        let armour = self.hero_armour();
        let odds = self.odds();
        match attack(&mut self.state.rng, &odds, armour, &kind.damage) {
            Strike::Miss => {
                self.say(format!("The {} misses you.", kind.name));
                events.push(Event::Attacked {
                    by_player: false,
                    kind: kind.name,
                    damage: None,
                });
            }
            Strike::Hit(damage) => {
                let hero = &mut self.expect_combat_mut().hero;
                hero.hp = hero.hp.saturating_sub(damage);
                let hp = hero.hp;
                events.push(Event::Attacked {
                    by_player: false,
                    kind: kind.name.clone(),
                    damage: Some(damage),
                });
                if hp > 0 {
                    self.say(format!("The {} hits you for {damage}.", kind.name));
                    if self.state.tactics.is_some() {
                        self.bite_lands(i);
                    }
                } else {
                    self.say(format!("The {} hits you for {damage}.", kind.name));
                    self.lose_life(&kind.name, events);
                }
            }
        }
    }

    /// The player takes `damage` from something other than a bite (a
    /// shot, a breath, poison), `cause` naming it should it take a life.
    pub(in crate::sim) fn hero_hurt(&mut self, damage: u16, cause: &str, events: &mut Vec<Event>) {
        let hero = &mut self.expect_combat_mut().hero;
        hero.hp = hero.hp.saturating_sub(damage);
        if hero.hp == 0 {
            self.lose_life(cause, events);
        }
    }

    /// At 0 hit points: a life goes; with lives left the player wakes on
    /// the level's up staircase (or nearest free cell to it) with full
    /// hit points.
    pub(in crate::sim) fn lose_life(&mut self, cause: &str, events: &mut Vec<Event>) {
        self.state.player.lives = self.state.player.lives.saturating_sub(1);
        let lives = self.state.player.lives;
        events.push(Event::Slain {
            kind: cause.to_string(),
            lives,
        });
        if lives == 0 {
            self.expect_combat_mut().cause = Some(cause.to_string());
            self.state.outcome = Outcome::Lost;
            self.say(format!("The {cause} kills you."));
            self.say("You die.".into());
            events.push(Event::Lost);
            return;
        }
        let max = self.max_hp();
        self.expect_combat_mut().hero.hp = max;
        let stairs = self.current().level.start();
        let wake = self.free_cell_near(stairs);
        self.state.player.pos = wake;
        let left = self.lives_in_words(lives);
        self.say(format!(
            "The {cause} strikes you down; you wake by the stairs ({left} left)."
        ));
        events.push(Event::Moved { to: wake });
        self.refresh();
    }

    /// The walkable cell nearest `from` (breadth-first, king moves) that no
    /// monster stands on: `from` itself when free.
    fn free_cell_near(&self, from: Pos) -> Pos {
        let state = self.current();
        let level = &state.level;
        let walker = self.player_walker();
        let mut seen = vec![false; level.tiles().len()];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[level.index(from)] = true;
        while let Some(p) = queue.pop_front() {
            if state.monster_at(p).is_none() {
                return p;
            }
            for (dx, dy) in DIRECTIONS {
                let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
                if !level.in_bounds(x, y) {
                    continue;
                }
                let n = Pos::new(x as u16, y as u16);
                if !seen[level.index(n)] && walker.steps(level, p, n) {
                    seen[level.index(n)] = true;
                    queue.push_back(n);
                }
            }
        }
        from
    }

    /// Regeneration and the end of stoneskin, once a player turn.
    pub(in crate::sim) fn combat_turn_passes(&mut self) {
        let every = self.config.simulation.combat.regen_every;
        let max = self.max_hp();
        let turn = self.state.turn;
        let state = self.expect_combat_mut();
        state.hero.hp = regenerate(state.hero.hp, max, turn, every);
        if state.hero.stoneskin > 0 && turn >= state.hero.stoneskin_until {
            state.hero.stoneskin = 0;
            state.hero.stoneskin_until = 0;
            self.say("Your skin softens again.".into());
        }
    }
}
