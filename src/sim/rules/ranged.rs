//! Shooting and zapping (rules 4): `f` fires a missile (thrown by hand, or
//! shot from the readied launcher of its ammunition), `z` zaps a wand.
//! Both travel a line of fire (`world/line.rs`) toward a target cell and
//! meet the first monster on it; a monster hurt or touched from afar
//! answers (`Run::monster_hurt_from_afar`, `rules/answer.rs`).

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::kinds::effect::Effect;
use crate::sim::kinds::item::{Item, ItemClass, WandEffect};
use crate::sim::rules::odds::{Strike, attack};
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;
use crate::sim::world::line::{line_of_fire, ray};

/// How far a wand's bolt reaches, in cells.
pub const WAND_RANGE: u16 = 12;

impl Run {
    /// The target cell of a shot or a zap, if it is one: on the level and
    /// not the player's own cell.
    fn aim(&self, x: u16, y: u16) -> Option<Pos> {
        let level = &self.current().level;
        let to = Pos::new(x, y);
        (x < level.width() && y < level.height() && to != self.state.player.pos).then_some(to)
    }

    /// The index of the first monster on `path`, and how far along.
    fn first_monster(&self, path: &[Pos]) -> Option<(usize, usize)> {
        path.iter()
            .enumerate()
            .find_map(|(n, &p)| self.current().monster_at(p).map(|m| (m, n)))
    }

    /// What a missile in pack `slot` may be fired with: its kind, and the
    /// readied launcher's kind when it is ammunition. `None` when the
    /// letter holds no missile, or ammunition without its launcher.
    pub fn can_fire(&self, slot: u8) -> Option<(u16, Option<u16>)> {
        let tactics = self.tactics()?;
        let combat = self.combat()?;
        let kind = combat.hero.pack.get(usize::from(slot))?.kind;
        let ItemClass::Missile { ammo, .. } = combat.kind(kind).class else {
            return None;
        };
        match ammo {
            None => Some((kind, None)),
            Some(ammo) => {
                let launcher = tactics.launcher?;
                match combat.kind(launcher).class {
                    ItemClass::Launcher { ammo: shoots, .. } if shoots == ammo => {
                        Some((kind, Some(launcher)))
                    }
                    _ => None,
                }
            }
        }
    }

    /// The pack letter `f` fires from: ammunition for the readied launcher
    /// first, then anything thrown by hand, the first letter of each.
    pub fn quiver(&self) -> Option<u8> {
        let combat = self.combat()?;
        let lines: Vec<(usize, u16)> = combat.hero.pack.lines().map(|(i, l)| (i, l.kind)).collect();
        let fires = |shot: bool| {
            lines.iter().find(|&&(i, k)| {
                matches!(combat.kind(k).class, ItemClass::Missile { ammo, .. } if ammo.is_some() == shot)
                    && self.can_fire(i as u8).is_some()
            })
        };
        fires(true).or_else(|| fires(false)).map(|&(i, _)| i as u8)
    }

    /// How far a missile from pack `slot` flies: its launcher's range when
    /// shot, its own when thrown.
    pub fn missile_range(&self, slot: u8) -> Option<u16> {
        let (kind, launcher) = self.can_fire(slot)?;
        let combat = self.combat()?;
        let range = match launcher.map(|l| combat.kind(l).class) {
            Some(ItemClass::Launcher { range, .. }) => range,
            _ => match combat.kind(kind).class {
                ItemClass::Missile { range, .. } => range,
                _ => return None,
            },
        };
        Some(u16::from(range))
    }

    /// The monster a shot from the player toward `to` would meet first,
    /// within `range`: its position.
    pub fn first_in_line(&self, to: Pos, range: u16) -> Option<Pos> {
        let here = self.state.player.pos;
        let path = line_of_fire(&self.current().level, self.doors(), here, to, range);
        self.first_monster(&path).map(|(_, n)| path[n])
    }

    /// Fires one missile from pack `slot` at the cell (`x`, `y`). False,
    /// and no time passes, when it cannot be fired or aimed.
    pub(in crate::sim) fn fire(
        &mut self,
        slot: u8,
        x: u16,
        y: u16,
        events: &mut Vec<Event>,
    ) -> bool {
        let (Some((kind, launcher)), Some(to)) = (self.can_fire(slot), self.aim(x, y)) else {
            return false;
        };
        let combat = self.combat().expect("a Combat run");
        let ItemClass::Missile {
            damage,
            range,
            breaks,
            ..
        } = combat.kind(kind).class
        else {
            return false;
        };
        let (bonus, range, launcher_accuracy) = match launcher.map(|l| combat.kind(l)) {
            Some(l) => match l.class {
                ItemClass::Launcher { damage, range, .. } => (Some(damage), range, l.accuracy),
                _ => (None, range, 0),
            },
            None => (None, range, 0),
        };
        let name = combat.kind(kind).name.clone();
        let here = self.state.player.pos;
        let path = line_of_fire(
            &self.current().level,
            self.doors(),
            here,
            to,
            u16::from(range),
        );
        self.expect_combat_mut()
            .hero
            .pack
            .take_one(usize::from(slot), true);
        let verb = if launcher.is_some() { "shoot" } else { "throw" };
        let mut lands = path.last().copied().unwrap_or(here);
        let mut broke = false;
        match self.first_monster(&path) {
            Some((m, n)) => {
                lands = path[n];
                let monster_kind = usize::from(self.current().monsters[m].kind);
                let armour = self.state.kinds[monster_kind].armour;
                let mut odds = self.player_odds(Some(kind));
                odds.hit_chance =
                    (i16::from(odds.hit_chance) + i16::from(launcher_accuracy)).clamp(1, 100) as u8;
                let monster_name = self.state.kinds[monster_kind].name.clone();
                match attack(&mut self.state.rng, &odds, armour, &damage) {
                    Strike::Miss => {
                        self.say(format!(
                            "You {verb} the {name}; it misses the {monster_name}."
                        ));
                        events.push(Event::Attacked {
                            by_player: true,
                            kind: monster_name,
                            damage: None,
                        });
                        self.monster_hurt_from_afar(m);
                    }
                    Strike::Hit(d) => {
                        let extra = bonus.map_or(0, |b| b.roll(&mut self.state.rng)) as u16;
                        let total = self.weakened(d.saturating_add(extra));
                        broke = self.state.rng.random_range(0..100u8) < breaks;
                        self.monster_hurt_from_afar(m);
                        self.player_hurts(m, total, &format!("The {name} hits"), events);
                    }
                }
            }
            None => self.say(format!("You {verb} the {name}.")),
        }
        if broke {
            self.say(format!("The {name} breaks."));
        } else {
            self.drop_missile(kind, &path, lands);
        }
        true
    }

    /// Lays a fired missile down where it stopped, or on the nearest cell
    /// back along its path (or the player's own) that an item may lie on.
    fn drop_missile(&mut self, kind: u16, path: &[Pos], lands: Pos) {
        let here = self.state.player.pos;
        let level = &self.current().level;
        let lies = |p: Pos| self.stands_on(level, p);
        let upto = path.iter().position(|&p| p == lands).map_or(0, |n| n + 1);
        let pos = path[..upto]
            .iter()
            .rev()
            .copied()
            .find(|&p| lies(p))
            .unwrap_or(here);
        self.floor_mut().items.push(Item { kind, pos });
    }

    /// Zaps the wand in pack `slot` at the cell (`x`, `y`): one charge
    /// used (the wand crumbles with its last), the wand's kind learnt, and
    /// its bolt on the first monster in the line (or, digging, through
    /// the rock in it). False, and no time passes, for no wand or no aim.
    pub(in crate::sim) fn zap(
        &mut self,
        slot: u8,
        x: u16,
        y: u16,
        events: &mut Vec<Event>,
    ) -> bool {
        let Some(to) = self.aim(x, y) else {
            return false;
        };
        if self.tactics().is_none() {
            return false;
        }
        let Some(line) = self
            .combat()
            .and_then(|c| c.hero.pack.get(usize::from(slot)))
        else {
            return false;
        };
        let kind = line.kind;
        let Some(effect) = self.combat().expect("a Combat run").kind(kind).class.wand() else {
            return false;
        };
        let name = self.item_names().expect("a Combat run").name(kind);
        self.say(format!("You zap the {name}."));
        self.expect_combat_mut()
            .hero
            .pack
            .take_one(usize::from(slot), true);
        let here = self.state.player.pos;
        match effect {
            WandEffect::Digging(cells) => self.dig_line(here, to, cells, events),
            _ => {
                let path = line_of_fire(&self.current().level, self.doors(), here, to, WAND_RANGE);
                match self.first_monster(&path) {
                    Some((m, _)) => self.bolt(m, effect, events),
                    None => self.say("The bolt flies off and fades.".into()),
                }
            }
        }
        self.identify(kind);
        if line.count == 1 {
            self.say("The wand crumbles to dust.".into());
        }
        true
    }

    /// A wand's bolt meets monster `m`.
    fn bolt(&mut self, m: usize, effect: WandEffect, events: &mut Vec<Event>) {
        let kind = usize::from(self.current().monsters[m].kind);
        let monster_name = self.state.kinds[kind].name.clone();
        let id = self.current().monsters[m].id as usize;
        let slot = usize::from(self.state.player.depth) - 1;
        let turn = self.state.turn;
        self.monster_hurt_from_afar(m);
        match effect {
            WandEffect::Striking(dice) => {
                let damage = dice.roll(&mut self.state.rng).clamp(1, 10_000) as u16;
                self.player_hurts(m, damage, "The bolt hits", events);
            }
            WandEffect::Slowing(turns) => {
                if let Some(mind) = self
                    .state
                    .tactics
                    .as_mut()
                    .and_then(|t| t.minds[slot].get_mut(id))
                {
                    mind.effects.add(Effect::Slow, 0, turn, turns);
                }
                self.say(format!("The {monster_name} slows down."));
            }
            WandEffect::TeleportOther => {
                if let Some(to) = self.random_free_floor() {
                    self.current_mut().monsters[m].pos = to;
                    self.current_mut().monsters[m].memory = None;
                }
                self.say(format!("The {monster_name} vanishes!"));
            }
            WandEffect::Digging(_) => {}
        }
    }

    /// A digging bolt: up to `cells` cells of rock in the line from `from`
    /// through `to` become corridor (never the level's border, hardness
    /// 255); it stops at the first cell that is not rock after digging.
    fn dig_line(&mut self, from: Pos, to: Pos, cells: u8, events: &mut Vec<Event>) {
        let level = &self.current().level;
        let reach = u16::from(cells) + from.x.abs_diff(to.x).max(from.y.abs_diff(to.y));
        let line = ray(from, to, 0, reach.min(WAND_RANGE + u16::from(cells)), level);
        let mut dug = 0;
        for p in line {
            if dug == cells {
                break;
            }
            let tile = self.current().level.tile(p);
            if tile != Tile::Rock {
                if dug > 0 {
                    break;
                }
                continue;
            }
            if !self.current_mut().level.dig(p, u8::MAX) {
                break;
            }
            events.push(Event::Dug { at: p });
            dug += 1;
        }
        self.say(match dug {
            0 => "The bolt meets nothing it can dig.".into(),
            n => format!("The rock crumbles: {n} cells dug."),
        });
        if dug > 0 {
            self.sight.explored.set(None);
            self.refresh();
        }
    }
}
