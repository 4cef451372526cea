//! What a scroll does when read. Rules 1 to 3 know magic mapping and
//! teleportation; rules 4 add identify, aggravate monsters, summon
//! monsters and recharging.

use crate::dice::Dice;
use crate::geom::Pos;
use crate::sim::kinds::item::{ItemClass, ScrollEffect};
use crate::sim::kinds::monster::Monster;
use crate::sim::kinds::place::{monsters_most, vault_monsters};
use crate::sim::kinds::table::Table;
use crate::sim::state::Run;
use crate::sim::state::tactics::{Alert, Mind};
use crate::sim::vocabulary::Event;
use crate::sim::world::distance::DIRECTIONS;

impl Run {
    /// Reads a scroll of `effect`.
    pub(in crate::sim) fn read(&mut self, effect: ScrollEffect, events: &mut Vec<Event>) {
        match effect {
            ScrollEffect::MagicMapping => {
                self.map_level();
                self.say("A map of the level forms in your mind.".into());
            }
            ScrollEffect::Teleportation => {
                if let Some(to) = self.random_free_floor() {
                    self.state.player.pos = to;
                    events.push(Event::Moved { to });
                }
                self.say("You are somewhere else.".into());
            }
            ScrollEffect::Identify => self.identify_one(),
            ScrollEffect::Aggravate => {
                self.aggravate();
                self.say("You hear a high-pitched humming noise.".into());
            }
            ScrollEffect::Summon(n) => {
                let came = self.summon_around_reader(n);
                self.say(
                    match came {
                        0 => "You hear a faint rustle, and nothing comes.",
                        1 => "A monster appears beside you!",
                        _ => "Monsters appear around you!",
                    }
                    .into(),
                );
            }
            ScrollEffect::Recharging(dice) => self.recharge(dice),
        }
    }

    /// Identifies the unknown kind in the pack with the most items (the
    /// first letter on a tie), or says there is nothing to learn.
    fn identify_one(&mut self) {
        let names = self.item_names().expect("a Combat run");
        let pick = self
            .combat()
            .expect("a Combat run")
            .hero
            .pack
            .lines()
            .filter(|(_, l)| !names.known(l.kind))
            .max_by_key(|&(letter, l)| (l.count, std::cmp::Reverse(letter)))
            .map(|(_, l)| l.kind);
        match pick {
            Some(kind) => {
                self.say("This is a scroll of identify.".into());
                self.identify(kind);
            }
            None => self.say("You feel you know your pack already.".into()),
        }
    }

    /// Every monster on the level wakes and knows where the reader is.
    pub(in crate::sim) fn aggravate(&mut self) {
        let here = self.state.player.pos;
        let slot = usize::from(self.state.player.depth) - 1;
        if let Some(t) = &mut self.state.tactics {
            for mind in &mut t.minds[slot] {
                mind.alert = Alert::Awake;
            }
        }
        for m in &mut self.current_mut().monsters {
            m.memory = Some(here);
        }
    }

    /// Up to `n` monsters of the depth on free cells next to the player,
    /// awake, hit points rolled from the play stream; how many came.
    fn summon_around_reader(&mut self, n: u8) -> usize {
        let here = self.state.player.pos;
        let depth = self.state.player.depth;
        let table = Table::for_depth(&self.state.kinds, depth);
        // The ids a level may hand out, as a loaded run is checked against.
        let level = &self.current().level;
        let most = monsters_most(&self.config, depth) + vault_monsters(&self.vaults, level).len();
        let mut came = 0;
        for (dx, dy) in DIRECTIONS {
            if came == usize::from(n) || self.floor().is_none_or(|f| f.monster_hp.len() >= most) {
                break;
            }
            let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
            let level = &self.current().level;
            if !level.in_bounds(x, y) {
                continue;
            }
            let p = Pos::new(x as u16, y as u16);
            if !self.player_walker().steps(level, here, p) || self.current().monster_at(p).is_some()
            {
                continue;
            }
            let Some(kind) = table.draw(&mut self.state.rng) else {
                break;
            };
            let hp = self.state.kinds[usize::from(kind)]
                .hp
                .roll(&mut self.state.rng)
                .clamp(1, 10_000) as u16;
            let next = self.state.player.next;
            let floor = self.floor_mut();
            let id = floor.monster_hp.len() as u32;
            floor.monster_hp.push(hp);
            floor.monster_max_hp.push(hp);
            if let Some(t) = &mut self.state.tactics {
                t.minds[usize::from(depth) - 1].push(Mind::awake());
            }
            self.current_mut().monsters.push(Monster {
                id,
                kind,
                pos: p,
                next,
                memory: Some(here),
            });
            came += 1;
        }
        came
    }

    /// Adds a roll of `dice` charges to the wand in the pack with the
    /// fewest (the first letter on a tie), up to a line's most.
    fn recharge(&mut self, dice: Dice) {
        let combat = self.combat().expect("a Combat run");
        let pick = combat
            .hero
            .pack
            .lines()
            .filter(|(_, l)| matches!(combat.kind(l.kind).class, ItemClass::Wand { .. }))
            .min_by_key(|&(letter, l)| (l.count, letter))
            .map(|(letter, l)| (letter, l.kind));
        let Some((letter, kind)) = pick else {
            self.say("You feel a faint tingle, and it fades.".into());
            return;
        };
        let n = dice.roll(&mut self.state.rng).clamp(1, 99) as u16;
        self.expect_combat_mut().hero.pack.add_many(kind, letter, n);
        let name = self.item_names().expect("a Combat run").name(kind);
        self.say(format!("Your {name} glows blue for a moment."));
    }
}
