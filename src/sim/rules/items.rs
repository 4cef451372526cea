//! Items under Combat: picking up, dropping, wielding and wearing, and
//! what each potion and scroll does. The turn calls it only under Combat.

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::kinds::item::{Item, ItemClass, PotionEffect, ScrollEffect, stacks};
use crate::sim::state::Run;
use crate::sim::state::combat_state::slot_letter;
use crate::sim::vocabulary::{Action, Event};
use crate::sim::world::distance::DIRECTIONS;

impl Run {
    /// Pick up, drop, wield, quaff, read, under Combat only (the turn
    /// checks). False (no time passes) when the action is not possible:
    /// nothing there, a full pack, the wrong kind of item.
    pub(in crate::sim) fn use_item(&mut self, action: Action, events: &mut Vec<Event>) -> bool {
        // Rules 2 keep a letter's item while it is carried and stack
        // potions and scrolls; rules 1 closed the letters up and gave each
        // item one, as runs made under them still do.
        let keep_letters = self.config.revisions.rules >= 2;
        let here = self.state.player.pos;
        let pack_item = |run: &Run, slot: u8| -> Option<u16> {
            let line = run.combat()?.hero.pack.get(usize::from(slot))?;
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
                let state = self.combat().expect("a Combat run");
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
                let state = self.expect_combat_mut();
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
                let state = self.expect_combat_mut();
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
                let state = self.expect_combat_mut();
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
        let state = self.expect_combat_mut();
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
            PotionEffect::Stoneskin { armour, turns } => {
                let until = self.state.turn + u64::from(turns);
                let hero = &mut self.expect_combat_mut().hero;
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

    /// Marks every open cell of the level, and the rock beside it, seen.
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
            if state.level.area_of(p) == Some(r)
                && state.level.tile(p) == Tile::Floor
                && state.monster_at(p).is_none()
                && p != self.state.player.pos
            {
                return Some(p);
            }
        }
        None
    }

    /// Says what lies on the player's cell, if anything: the top item, and
    /// whether there is more.
    pub(in crate::sim) fn see_items_here(&mut self) {
        let here = self.items_here();
        if let Some(&top) = here.first() {
            let name = self.combat().expect("a Combat run").describe(top);
            let more = if here.len() > 1 { " (and more)" } else { "" };
            self.say(format!("You see here {name}{more}."));
        }
    }
}
