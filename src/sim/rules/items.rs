//! Items under Combat: picking up, dropping, wielding and wearing, and
//! what each potion and scroll does. The turn calls it only under Combat.

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::kinds::item::{Item, ItemClass, stacks};
use crate::sim::state::Run;
use crate::sim::state::combat_state::{MAX_STACK, slot_letter};
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
                if self.state.tactics.is_some() {
                    return self.pick_up_kind(kind, events);
                }
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
                let Some(line) = self
                    .combat()
                    .and_then(|c| c.hero.pack.get(usize::from(slot)))
                else {
                    return false;
                };
                // A wand goes down with every charge of its line, which
                // the next one of its kind picked up takes back.
                let class = self.combat().expect("a Combat run").kind(line.kind).class;
                if let (ItemClass::Wand { .. }, Some(tactics)) = (class, &mut self.state.tactics) {
                    let spare = &mut tactics.spare_charges[usize::from(line.kind)];
                    *spare = spare.saturating_add(line.count).min(10_000);
                    let pack = &mut self.expect_combat_mut().hero.pack;
                    for _ in 1..line.count {
                        pack.take_one(usize::from(slot), keep_letters);
                    }
                }
                let state = self.expect_combat_mut();
                let Some(kind) = state.hero.pack.take_one(usize::from(slot), keep_letters) else {
                    return false;
                };
                let name = self.item_names().expect("a Combat run").describe(kind);
                self.floor_mut().items.push(Item { kind, pos: here });
                self.say(format!("You drop {name}."));
                events.push(Event::Dropped { name });
                true
            }
            Action::Wield { slot } => {
                let Some(kind) = pack_item(self, slot) else {
                    return false;
                };
                let Some(combat) = self.state.combat.as_mut() else {
                    return false;
                };
                let class = combat.kind(kind).class;
                let name = combat.describe(kind);
                let hero = &mut combat.hero;
                let (worn, verb) = match (class, self.state.tactics.as_mut()) {
                    (ItemClass::Weapon { .. }, _) => (&mut hero.weapon, "wield"),
                    (ItemClass::Armour { .. }, _) => (&mut hero.armour, "put on"),
                    (ItemClass::Launcher { .. }, Some(t)) => (&mut t.launcher, "ready"),
                    _ => return false,
                };
                let old = worn.replace(kind);
                let state = combat;
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
                let Some((effect, name, kind)) =
                    self.use_up(slot, keep_letters, "drink", ItemClass::potion)
                else {
                    return false;
                };
                self.drink(effect, events);
                self.identify(kind);
                events.push(Event::Used { name });
                true
            }
            Action::Read { slot } => {
                let Some((effect, name, kind)) =
                    self.use_up(slot, keep_letters, "read", ItemClass::scroll)
                else {
                    return false;
                };
                self.identify(kind);
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
    ) -> Option<(E, String, u16)> {
        let kind = self.combat()?.hero.pack.get(usize::from(slot))?.kind;
        let effect = effect_of(self.combat()?.kind(kind).class)?;
        let name = self.item_names()?.describe(kind);
        let state = self.expect_combat_mut();
        state.hero.pack.take_one(usize::from(slot), keep_letters);
        self.say(format!("You {verb} {name}."));
        Some((effect, name, kind))
    }

    /// The player learns what `kind` is (rules 4), by using it or by a
    /// scroll of identify: "It was a potion of poison." when it was not
    /// known.
    pub(in crate::sim) fn identify(&mut self, kind: u16) {
        let Some(tactics) = &mut self.state.tactics else {
            return;
        };
        let known = &mut tactics.known[usize::from(kind)];
        if *known {
            return;
        }
        *known = true;
        let name = self.item_names().expect("a Combat run").describe(kind);
        self.say(format!("It was {name}."));
    }

    /// Under rules 4, takes every item of `kind` on the player's cell
    /// that the pack has room for (a pile of darts is one pick-up), a
    /// wand with its charges: the spare charges of its kind if the player
    /// dropped one, else a roll of its `charges` from the play stream.
    fn pick_up_kind(&mut self, kind: u16, events: &mut Vec<Event>) -> bool {
        let here = self.state.player.pos;
        let state = self.combat().expect("a Combat run");
        let class = state.kind(kind).class;
        let Some(letter) = state.hero.pack.room_for(kind, stacks(class), true) else {
            return false;
        };
        let before = state.hero.pack.get(letter).map_or(0, |l| l.count);
        let room = MAX_STACK - before;
        let lying: Vec<usize> = self
            .floor()
            .expect("a Combat run")
            .items
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, i)| i.pos == here && i.kind == kind)
            .map(|(at, _)| at)
            .collect();
        let (take, count) = match class {
            ItemClass::Wand { charges, .. } => {
                let spare = &mut self.state.tactics.as_mut().expect("rules 4").spare_charges
                    [usize::from(kind)];
                let n = match std::mem::take(spare) {
                    0 => charges.roll(&mut self.state.rng).clamp(1, 99) as u16,
                    n => n,
                };
                (1, n.min(room))
            }
            ItemClass::Missile { .. } => {
                let n = lying.len().min(usize::from(room));
                (n, n as u16)
            }
            _ => (1, 1),
        };
        // `lying` is last first, so removing in its order never shifts an
        // index still to be removed.
        for &at in lying.iter().take(take) {
            self.floor_mut().items.remove(at);
        }
        let pack = &mut self.expect_combat_mut().hero.pack;
        pack.add_many(kind, letter, count.max(1));
        let names = self.item_names().expect("a Combat run");
        let total = self
            .combat()
            .and_then(|c| c.hero.pack.get(letter))
            .map_or(1, |l| l.count);
        let line = format!(
            "{} - {}.",
            slot_letter(letter),
            names.describe_count(kind, total)
        );
        let name = names.describe_count(kind, count.max(1));
        self.say(line);
        events.push(Event::PickedUp { name });
        true
    }

    /// Marks every open cell of the level, and the rock beside it, seen.
    pub(in crate::sim) fn map_level(&mut self) {
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
    ///
    /// Under rules 4 the cell is one the stairs reach without passing a
    /// secret door: a teleport never strands the player in a room whose
    /// every way out is hidden (a vault's, most often), where a player who
    /// does not think to search, and the autopilot, would stay for good.
    pub(in crate::sim) fn random_free_floor(&mut self) -> Option<Pos> {
        let rooms = self.current().level.rooms().len();
        let open = self.tactics().is_some().then(|| self.open_from_stairs());
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
                && open.as_ref().is_none_or(|open| open[state.level.index(p)])
            {
                return Some(p);
            }
        }
        None
    }

    /// Each cell of the player's level the stairs (or, with none, the
    /// start) reach through walkable cells and doors, never a secret one.
    fn open_from_stairs(&self) -> Vec<bool> {
        let level = &self.current().level;
        let mut open = vec![false; level.tiles().len()];
        let from = level.stairs().first().map_or(level.start(), |s| s.pos);
        let mut queue = std::collections::VecDeque::from([from]);
        open[level.index(from)] = true;
        while let Some(p) = queue.pop_front() {
            for (dx, dy) in DIRECTIONS {
                let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
                if !level.in_bounds(x, y) {
                    continue;
                }
                let n = Pos::new(x as u16, y as u16);
                let tile = level.tile(n);
                if !open[level.index(n)] && tile.is_walkable() && tile != Tile::SecretDoor {
                    open[level.index(n)] = true;
                    queue.push_back(n);
                }
            }
        }
        open
    }

    /// Says what lies on the player's cell, if anything: the top item, and
    /// whether there is more.
    pub(in crate::sim) fn see_items_here(&mut self) {
        let here = self.items_here();
        if let Some(&top) = here.first() {
            let name = self.item_names().expect("a Combat run").describe(top);
            let more = if here.len() > 1 { " (and more)" } else { "" };
            self.say(format!("You see here {name}{more}."));
        }
    }
}
