//! The Combat rules applied to a run: attacks both ways, losing a life and
//! waking on the stairs, regeneration and experience, items on the floor,
//! the pack and what each item does. The numbers come from
//! [`combat`](super::combat); this file moves the state.

use rand::RngExt;

use super::combat::{HitOdds, Strike, attack, experience_level, max_hp, regenerate};
use super::game::{CombatState, Floor, article, slot_letter};
use super::item::{Item, ItemClass, PotionEffect, ScrollEffect};
use super::morgue::Morgue;
use super::place::free_room_cells;
use super::table::Table;
use super::{Action, DIRECTIONS, Event, Monster, Outcome, Run, can_step};
use crate::config::Config;
use crate::geom::Pos;
use crate::level::{Level, StairDirection, Tile};
use crate::streams::{Stage, stage_rng};

impl Run {
    /// The Combat game's state; `None` for a Stomp run.
    pub fn combat(&self) -> Option<&CombatState> {
        self.state.combat.as_ref()
    }

    fn odds(&self) -> HitOdds {
        HitOdds::of(&self.config.simulation.combat)
    }

    /// The player's experience level (1 under Stomp).
    pub fn experience_level(&self) -> u16 {
        let c = &self.config.simulation.combat;
        self.state.combat.as_ref().map_or(1, |s| {
            experience_level(s.hero.xp, c.first_level_xp, c.max_level)
        })
    }

    /// The player's maximum hit points (0 under Stomp).
    pub fn max_hp(&self) -> u16 {
        let c = &self.config.simulation.combat;
        self.state.combat.as_ref().map_or(0, |s| {
            max_hp(
                c.player_hp,
                c.hp_per_level,
                self.experience_level(),
                s.hero.vigour,
            )
        })
    }

    /// The player's hit points (0 under Stomp).
    pub fn hp(&self) -> u16 {
        self.state.combat.as_ref().map_or(0, |s| s.hero.hp)
    }

    /// A monster's hit points and maximum, by its id on the current level.
    pub fn monster_hp(&self, m: &Monster) -> Option<(u16, u16)> {
        let floor = self.floor()?;
        let i = m.id as usize;
        Some((*floor.monster_hp.get(i)?, *floor.monster_max_hp.get(i)?))
    }

    /// The Combat state of the player's level.
    pub fn floor(&self) -> Option<&Floor> {
        let slot = usize::from(self.state.player.depth) - 1;
        self.state.combat.as_ref().map(|s| &s.floors[slot])
    }

    fn floor_mut(&mut self) -> &mut Floor {
        let slot = usize::from(self.state.player.depth) - 1;
        &mut self.state.combat.as_mut().expect("a Combat run").floors[slot]
    }

    fn state_mut(&mut self) -> &mut CombatState {
        self.state.combat.as_mut().expect("a Combat run")
    }

    /// The player attacks the monster at index `m` instead of moving.
    pub(super) fn player_attacks(&mut self, m: usize, events: &mut Vec<Event>) {
        let monster = self.current().monsters[m].clone();
        let kind = self.state.kinds[usize::from(monster.kind)].clone();
        let dice = self
            .state
            .combat
            .as_ref()
            .expect("a Combat run")
            .weapon_dice(self.config.simulation.combat.unarmed);
        let odds = self.odds();
        let strike = attack(&mut self.state.rng, &odds, kind.armour, &dice);
        let id = monster.id as usize;
        match strike {
            Strike::Miss => {
                self.say(format!("You miss the {}.", kind.name));
                events.push(Event::Attacked {
                    by_player: true,
                    kind: kind.name,
                    damage: None,
                });
            }
            Strike::Hit(damage) => {
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
                    let state = self.state_mut();
                    state.kills[usize::from(monster.kind)] += 1;
                    state.hero.xp = state.hero.xp.saturating_add(u32::from(max));
                    self.say(format!("You hit the {} for {damage}; it dies.", kind.name));
                    events.push(Event::Killed { kind: kind.name });
                    let level = self.experience_level();
                    if level > level_before {
                        let gain = self.max_hp().saturating_sub(max_before);
                        let hero = &mut self.state_mut().hero;
                        hero.hp = hero.hp.saturating_add(gain);
                        self.say(format!("You reach experience level {level}."));
                    }
                } else {
                    self.say(format!(
                        "You hit the {} for {damage} ({}).",
                        kind.name,
                        wound_word(hp, max)
                    ));
                }
            }
        }
    }

    /// The monster at index `i` attacks the player.
    pub(super) fn monster_attacks(&mut self, i: usize, events: &mut Vec<Event>) {
        let monster = self.current().monsters[i].clone();
        let kind = self.state.kinds[usize::from(monster.kind)].clone();
        let armour = self
            .state
            .combat
            .as_ref()
            .expect("a Combat run")
            .armour(self.state.turn);
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
                let hero = &mut self.state_mut().hero;
                hero.hp = hero.hp.saturating_sub(damage);
                let hp = hero.hp;
                events.push(Event::Attacked {
                    by_player: false,
                    kind: kind.name.clone(),
                    damage: Some(damage),
                });
                if hp > 0 {
                    self.say(format!("The {} hits you for {damage}.", kind.name));
                } else {
                    self.say(format!("The {} hits you for {damage}.", kind.name));
                    self.lose_life(&kind.name, events);
                }
            }
        }
    }

    /// At 0 hit points: a life goes; with lives left the player wakes on
    /// the level's up staircase (or nearest free cell to it) with full
    /// hit points.
    fn lose_life(&mut self, cause: &str, events: &mut Vec<Event>) {
        self.state.player.lives = self.state.player.lives.saturating_sub(1);
        let lives = self.state.player.lives;
        events.push(Event::Slain {
            kind: cause.to_string(),
            lives,
        });
        if lives == 0 {
            self.state_mut().cause = Some(cause.to_string());
            self.state.outcome = Outcome::Lost;
            self.say(format!("The {cause} kills you."));
            self.say("You die.".into());
            events.push(Event::Lost);
            return;
        }
        let max = self.max_hp();
        self.state_mut().hero.hp = max;
        let level = &self.current().level;
        let stairs = level
            .stairs_going(StairDirection::Up)
            .next()
            .map(|s| s.pos)
            .unwrap_or_else(|| level.room_cell(0));
        let wake = self.free_cell_near(stairs);
        self.state.player.pos = wake;
        // Rules 2 count lives in English; rules 1 said "1 lives left",
        // and a replay of a run made under them must say it again.
        let left = match self.config.revisions.rules {
            1 => format!("{lives} lives"),
            _ => crate::words::count(lives, "life", "lives"),
        };
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
                if !seen[level.index(n)] && can_step(level, p, n, false) {
                    seen[level.index(n)] = true;
                    queue.push_back(n);
                }
            }
        }
        from
    }

    /// Regeneration and the end of stoneskin, once a player turn.
    pub(super) fn combat_turn_passes(&mut self) {
        let every = self.config.simulation.combat.regen_every;
        let max = self.max_hp();
        let turn = self.state.turn;
        let Some(state) = self.state.combat.as_mut() else {
            return;
        };
        state.hero.hp = regenerate(state.hero.hp, max, turn, every);
        if state.hero.stoneskin > 0 && turn >= state.hero.stoneskin_until {
            state.hero.stoneskin = 0;
            state.hero.stoneskin_until = 0;
            self.say("Your skin softens again.".into());
        }
    }

    /// Items on the player's cell, top first.
    pub fn items_here(&self) -> Vec<u16> {
        let here = self.state.player.pos;
        self.floor().map_or_else(Vec::new, |f| {
            f.items
                .iter()
                .rev()
                .filter(|i| i.pos == here)
                .map(|i| i.kind)
                .collect()
        })
    }

    /// Pick up, drop, wield, quaff, read. False (no time passes) when the
    /// action is not possible: no Combat, nothing there, a full pack, the
    /// wrong kind of item.
    pub(super) fn use_item(&mut self, action: Action, events: &mut Vec<Event>) -> bool {
        if self.state.combat.is_none() {
            return false;
        }
        // Rules 2 keep a letter's item while it is carried and stack
        // potions and scrolls; rules 1 closed the letters up and gave each
        // item one, as runs made under them still do.
        let keep_letters = self.config.revisions.rules >= 2;
        let here = self.state.player.pos;
        let pack_item = |run: &Run, slot: u8| -> Option<u16> {
            let line = run
                .state
                .combat
                .as_ref()?
                .hero
                .pack
                .get(usize::from(slot))?;
            Some(line.kind)
        };
        match action {
            Action::PickUp => {
                let Some(at) = self
                    .floor()
                    .and_then(|f| f.items.iter().rposition(|i| i.pos == here))
                else {
                    return false;
                };
                let kind = self.floor().expect("found above").items[at].kind;
                let state = self.state.combat.as_ref().expect("checked");
                let stacks = keep_letters && stacks(state.kind(kind).class);
                // A full pack refuses: the refusal changes nothing (it is
                // not recorded), so it writes nothing to the log either;
                // the viewer says why.
                if state
                    .hero
                    .pack
                    .room_for(kind, stacks, keep_letters)
                    .is_none()
                {
                    return false;
                }
                self.floor_mut().items.remove(at);
                let state = self.state_mut();
                let letter = state
                    .hero
                    .pack
                    .add(kind, stacks, keep_letters)
                    .expect("room was found above");
                let name = state.describe(kind);
                let count = state.hero.pack.get(letter).map_or(1, |l| l.count);
                let line = format!(
                    "{} - {}.",
                    slot_letter(letter),
                    state.describe_count(kind, count)
                );
                self.say(line);
                events.push(Event::PickedUp { name });
                true
            }
            Action::Drop { slot } => {
                let state = self.state_mut();
                let Some(kind) = state.hero.pack.take_one(usize::from(slot), keep_letters) else {
                    return false;
                };
                let name = state.describe(kind);
                self.floor_mut().items.push(Item { kind, pos: here });
                self.say(format!("You drop {name}."));
                events.push(Event::Dropped { name });
                true
            }
            Action::Wield { slot } => {
                let Some(kind) = pack_item(self, slot) else {
                    return false;
                };
                let state = self.state_mut();
                let class = state.kind(kind).class;
                let name = state.describe(kind);
                let (worn, verb) = match class {
                    ItemClass::Weapon { .. } => (&mut state.hero.weapon, "wield"),
                    ItemClass::Armour { .. } => (&mut state.hero.armour, "put on"),
                    _ => return false,
                };
                let old = worn.replace(kind);
                state.hero.pack.take_one(usize::from(slot), keep_letters);
                if let Some(old) = old {
                    if keep_letters {
                        // What was worn takes the letter of what replaced it.
                        state.hero.pack.put_at(usize::from(slot), old);
                    } else {
                        state.hero.pack.add(old, false, false);
                    }
                }
                self.say(format!("You {verb} {name}."));
                events.push(Event::Equipped { name });
                true
            }
            Action::Quaff { slot } => {
                let Some((effect, name)) =
                    self.use_up(slot, keep_letters, "drink", ItemClass::potion)
                else {
                    return false;
                };
                self.drink(effect);
                events.push(Event::Used { name });
                true
            }
            Action::Read { slot } => {
                let Some((effect, name)) =
                    self.use_up(slot, keep_letters, "read", ItemClass::scroll)
                else {
                    return false;
                };
                self.read(effect, events);
                events.push(Event::Used { name });
                true
            }
            _ => false,
        }
    }

    /// Marks every open cell of the level, and the rock beside it, seen.
    /// Takes one item out of pack slot `slot` when `effect_of` finds an
    /// effect in its class (a potion to drink, a scroll to read), saying
    /// "You VERB NAME.": its effect and name. `None`, and nothing used, for
    /// an empty slot or another class.
    fn use_up<E>(
        &mut self,
        slot: u8,
        keep_letters: bool,
        verb: &str,
        effect_of: impl Fn(ItemClass) -> Option<E>,
    ) -> Option<(E, String)> {
        let state = self.state.combat.as_mut()?;
        let kind = state.hero.pack.get(usize::from(slot))?.kind;
        let effect = effect_of(state.kind(kind).class)?;
        let name = state.describe(kind);
        state.hero.pack.take_one(usize::from(slot), keep_letters);
        self.say(format!("You {verb} {name}."));
        Some((effect, name))
    }

    /// What a potion does to the player.
    fn drink(&mut self, effect: PotionEffect) {
        match effect {
            PotionEffect::Healing(dice) => {
                let heal = dice.roll(&mut self.state.rng);
                let max = self.max_hp();
                let hero = &mut self.state_mut().hero;
                hero.hp = (u32::from(hero.hp) + heal).min(u32::from(max)) as u16;
                self.say("You feel better.".into());
            }
            PotionEffect::Vigour(n) => {
                let hero = &mut self.state_mut().hero;
                hero.vigour = hero.vigour.saturating_add(n);
                hero.hp = hero.hp.saturating_add(n);
                self.say("You feel vigorous.".into());
            }
            PotionEffect::Stoneskin { armour, turns } => {
                let until = self.state.turn + u64::from(turns);
                let hero = &mut self.state_mut().hero;
                hero.stoneskin = armour;
                hero.stoneskin_until = until;
                self.say("Your skin turns to stone.".into());
            }
        }
    }

    /// What a scroll does: a map of the level, or a jump elsewhere on it.
    fn read(&mut self, effect: ScrollEffect, events: &mut Vec<Event>) {
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
        }
    }

    fn map_level(&mut self) {
        let state = self.current_mut();
        let level = &state.level;
        let w = usize::from(level.width());
        let mut mark = Vec::new();
        for (i, t) in level.tiles().iter().enumerate() {
            if t.is_walkable() {
                mark.push(i);
                for (dx, dy) in DIRECTIONS {
                    mark.push((i as isize + dy as isize * w as isize + dx as isize) as usize);
                }
            }
        }
        for i in mark {
            state.seen[i / 64] |= 1 << (i % 64);
        }
    }

    /// A random floor cell of a room with no monster on it, from the play
    /// stream: at most a thousand tries, so it always ends.
    fn random_free_floor(&mut self) -> Option<Pos> {
        let rooms = self.current().level.rooms().len();
        for _ in 0..1000 {
            let r = self.state.rng.random_range(0..rooms as u32) as usize;
            let b = self.current().level.rooms()[r].shape.bounds();
            let p = Pos::new(
                self.state.rng.random_range(b.x..=b.right()),
                self.state.rng.random_range(b.y..=b.bottom()),
            );
            let state = self.current();
            if state.level.rooms()[r].contains(p)
                && state.level.tile(p) == Tile::Floor
                && state.monster_at(p).is_none()
                && p != self.state.player.pos
            {
                return Some(p);
            }
        }
        None
    }

    /// The player's level as the player knows it, one string a row: seen
    /// cells as 002 draws them, items seen, monsters in sight, the player.
    /// Rows and columns outside what was seen are left out.
    pub fn known_map(&self) -> Vec<String> {
        let state = self.current();
        let level = &state.level;
        let (w, h) = (level.width(), level.height());
        let seen = |p: Pos| state.has_seen(p) || p == self.state.player.pos;
        let cols: Vec<u16> = (0..w)
            .filter(|&x| (0..h).any(|y| seen(Pos::new(x, y))))
            .collect();
        let (Some(&x0), Some(&x1)) = (cols.first(), cols.last()) else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for y in 0..h {
            if !(0..w).any(|x| seen(Pos::new(x, y))) {
                continue;
            }
            let row: String = (x0..=x1)
                .map(|x| {
                    let p = Pos::new(x, y);
                    if p == self.state.player.pos {
                        return '@';
                    }
                    if !state.has_seen(p) {
                        return ' ';
                    }
                    if self.sees(p)
                        && let Some(m) = state.monster_at(p)
                    {
                        return self.state.kinds[usize::from(state.monsters[m].kind)].glyph;
                    }
                    if let (Some(c), Some(f)) = (&self.state.combat, self.floor())
                        && let Some(item) = f.items.iter().rev().find(|i| i.pos == p)
                    {
                        return c.kind(item.kind).glyph;
                    }
                    level.tile(p).glyph()
                })
                .collect();
            rows.push(row);
        }
        rows
    }

    /// What a finished (or stopped) run tells in its morgue file.
    pub fn morgue(&self, name: &str, date: &str, map: Vec<String>) -> Morgue {
        let state = self.state.combat.as_ref();
        let describe = |k: Option<u16>, none: &str| match (state, k) {
            (Some(s), Some(k)) => s.describe(k),
            _ => none.to_string(),
        };
        Morgue {
            name: name.to_string(),
            seed: self.state.seed,
            outcome: self.state.outcome,
            turns: self.state.turn,
            depth: self.state.player.depth,
            deepest: self.visited().max().unwrap_or(1),
            levels: self.config.levels,
            hp: self.hp(),
            max_hp: self.max_hp(),
            experience_level: self.experience_level(),
            experience: state.map_or(0, |s| s.hero.xp),
            lives: self.state.player.lives,
            weapon: describe(state.and_then(|s| s.hero.weapon), "bare hands"),
            armour: describe(state.and_then(|s| s.hero.armour), "nothing"),
            inventory: state.map_or_else(Vec::new, |s| {
                s.hero
                    .pack
                    .lines()
                    .map(|(i, l)| {
                        format!("{} - {}", slot_letter(i), s.describe_count(l.kind, l.count))
                    })
                    .collect()
            }),
            kills: match state {
                Some(s) => self
                    .state
                    .kinds
                    .iter()
                    .zip(&s.kills)
                    .map(|(k, &n)| (k.name.clone(), n))
                    .collect(),
                None => vec![("monsters".to_string(), self.state.killed)],
            },
            cause: state.and_then(|s| s.cause.clone()),
            messages: self
                .state
                .log
                .iter()
                .rev()
                .take(12)
                .rev()
                .cloned()
                .collect(),
            map,
            date: date.to_string(),
        }
    }
}

/// How hurt a monster looks, for messages and look mode.
pub fn wound_word(hp: u16, max: u16) -> &'static str {
    let share = u32::from(hp) * 100 / u32::from(max.max(1));
    match share {
        100.. => "unhurt",
        75..=99 => "lightly wounded",
        50..=74 => "wounded",
        25..=49 => "badly wounded",
        _ => "almost dead",
    }
}

/// A level's monsters under Combat: a number growing with depth, kinds
/// drawn by depth and rarity, hit points rolled, all from the level's own
/// monster stream; in rooms other than the arrival room, on free floor.
pub(super) fn populate_by_depth(
    config: &Config,
    kinds: &[super::MonsterKind],
    seed: u64,
    level: &Level,
) -> (Vec<Monster>, Vec<u16>) {
    let wanted = super::monsters_wanted(config, level.depth());
    let table = Table::for_depth(kinds, level.depth());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Monsters);
    let mut monsters = Vec::with_capacity(wanted);
    let mut hp = Vec::with_capacity(wanted);
    let cells = free_room_cells(level, wanted, &mut rng);
    for p in cells {
        let Some(kind) = table.draw(&mut rng) else {
            break;
        };
        let roll = kinds[usize::from(kind)].hp.roll(&mut rng).clamp(1, 10_000) as u16;
        monsters.push(Monster {
            id: monsters.len() as u32,
            kind,
            pos: p,
            next: 0,
            memory: None,
        });
        hp.push(roll);
    }
    (monsters, hp)
}

/// A level's items: `items_per_level` kinds drawn by depth and rarity on
/// room floor outside the arrival room, from the level's own item stream
/// (so the monsters drawn never shift them).
pub(super) fn place_items(
    config: &Config,
    kinds: &[super::item::ItemKind],
    seed: u64,
    level: &Level,
) -> Vec<Item> {
    let wanted = usize::from(config.simulation.combat.items_per_level);
    let table = Table::for_depth(kinds, level.depth());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Items);
    let cells = free_room_cells(level, wanted, &mut rng);
    let mut items = Vec::with_capacity(cells.len());
    for pos in cells {
        let Some(kind) = table.draw(&mut rng) else {
            break;
        };
        items.push(Item { kind, pos });
    }
    items
}

/// The article-led name of a monster kind, for look mode.
pub fn monster_name(name: &str) -> String {
    article(name)
}

impl Run {
    /// The Combat part of [`Run::validate`]: item kinds that pass their
    /// checks, one floor and one kill count per slot and kind, hit points
    /// within their maxima, every monster's hit points recorded, items on
    /// open floor and of known kinds, equipment of the right class, a pack
    /// within its slots.
    pub(super) fn validate_combat(&self) -> Result<(), String> {
        let Some(state) = &self.state.combat else {
            return Ok(());
        };
        super::ItemKind::check_list(&state.items).map_err(|p| match p.index {
            Some(i) => format!("item kind {i}: {}: {}", p.field, p.message),
            None => format!("item kinds: {}", p.message),
        })?;
        for (i, k) in self.state.kinds.iter().enumerate() {
            if k.hp.max() == 0 || k.hp.max() > 10_000 {
                return Err(format!("monster kind {i} rolls no usable hit points"));
            }
        }
        if state.floors.len() != self.state.levels.len()
            || state.kills.len() != self.state.kinds.len()
        {
            return Err("Combat state of the wrong size".into());
        }
        if u64::from(self.state.killed) != state.kills.iter().map(|&k| u64::from(k)).sum::<u64>() {
            return Err("kills by kind do not add up to the kills".into());
        }
        let hero = &state.hero;
        let known = |k: u16| usize::from(k) < state.items.len();
        // A pack of more than 26 letters, or with a misplaced mark, does
        // not decode; here its kinds, and stacks only where rules 2 make
        // them (potions and scrolls).
        if !hero.pack.lines().all(|(_, l)| known(l.kind)) {
            return Err("the pack holds unknown items".into());
        }
        let keep_letters = self.config.revisions.rules >= 2;
        if hero
            .pack
            .lines()
            .any(|(_, l)| l.count > 1 && !(keep_letters && stacks(state.kind(l.kind).class)))
            || (!keep_letters && hero.pack.lines().enumerate().any(|(n, (i, _))| n != i))
        {
            return Err("the pack holds a stack or a gap its rules do not make".into());
        }
        if !hero
            .weapon
            .is_none_or(|k| known(k) && matches!(state.kind(k).class, ItemClass::Weapon { .. }))
            || !hero
                .armour
                .is_none_or(|k| known(k) && matches!(state.kind(k).class, ItemClass::Armour { .. }))
        {
            return Err("the player wields or wears something that is no weapon or armour".into());
        }
        if hero.stoneskin > 100 {
            return Err("stoneskin armour above 100".into());
        }
        let alive = self.state.outcome != Outcome::Lost;
        if hero.hp > self.max_hp() || (alive && hero.hp == 0) {
            return Err(format!(
                "{} hit points of {} for a run that is {}",
                hero.hp,
                self.max_hp(),
                self.state.outcome
            ));
        }
        for (slot, (floor, level)) in state.floors.iter().zip(&self.state.levels).enumerate() {
            let depth = slot + 1;
            let Some(level_state) = level else {
                if !floor.items.is_empty() || !floor.monster_hp.is_empty() {
                    return Err(format!(
                        "depth {depth}: Combat state for a level not visited"
                    ));
                }
                continue;
            };
            let level = &level_state.level;
            if floor.monster_hp.len() != floor.monster_max_hp.len()
                || floor.monster_hp.len() > 1000
                || floor
                    .monster_hp
                    .iter()
                    .zip(&floor.monster_max_hp)
                    .any(|(&hp, &max)| hp > max || max > 10_000)
            {
                return Err(format!("depth {depth}: monster hit points out of range"));
            }
            for m in &level_state.monsters {
                if floor
                    .monster_hp
                    .get(m.id as usize)
                    .is_none_or(|&hp| hp == 0)
                {
                    return Err(format!("depth {depth}: monster {} has no hit points", m.id));
                }
            }
            if floor.items.len() > 100_000 {
                return Err(format!("depth {depth}: too many items"));
            }
            for item in &floor.items {
                let inside = item.pos.x < level.width() && item.pos.y < level.height();
                if !inside || !level.tile(item.pos).is_walkable() || !known(item.kind) {
                    return Err(format!(
                        "depth {depth}: an item off the floor or of no known kind"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Whether items of a class share a pack letter under the second rules:
/// potions and scrolls, which are alike; weapons and armour each keep a
/// letter of their own.
pub fn stacks(class: ItemClass) -> bool {
    matches!(class, ItemClass::Potion(_) | ItemClass::Scroll(_))
}
