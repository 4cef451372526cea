//! The Combat game's state: what a run under the Combat rules holds beyond
//! 001's Stomp game (hit points, experience, equipment, the pack, items on
//! the levels, monsters' hit points, kills by kind). A Stomp run has none of
//! it, so its saves and digests are what they always were.
//!
//! Monsters' hit points are kept by monster id (ids are unique on a level
//! and never reused), so removing a dead monster never shifts another's.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::sim::kinds::item::{Item, ItemClass, ItemKind};
use crate::sim::vocabulary::PACK_SLOTS;
use crate::words::article;

/// Most potions or scrolls of one kind a letter holds.
pub const MAX_STACK: u16 = 99;

/// One letter of the pack: which kind of item, and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackLine {
    /// The item kind (an index into the run's item kinds).
    pub kind: u16,
    /// How many, 1 to [`MAX_STACK`] (always 1 under the first rules).
    pub count: u16,
}

/// The items carried, by letter (index 0 is `a`): a letter may be empty,
/// and under the second rules a letter keeps its item for as long as it is
/// carried, so `r h` reads the same scroll after a potion is drunk.
///
/// Saved as format 5 saved a pack, a list of kinds, letter by letter,
/// with two marks that a list of kinds never holds: `EMPTY_MARK` for an
/// empty letter, and `COUNT_MARK` `+ n` after a line of `n` items. So a
/// pack of one item a letter with no gaps, all a pack under the first
/// rules can be, saves and digests exactly as before, and a format-5
/// pack reads as one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<u16>", into = "Vec<u16>")]
pub struct Pack {
    /// A line a letter, no empty letter last.
    letters: Vec<Option<PackLine>>,
}

/// In a saved pack, an empty letter.
pub const EMPTY_MARK: u16 = 0xFFFF;
/// In a saved pack, `COUNT_MARK + n` after a line: it holds `n` items.
pub const COUNT_MARK: u16 = 0xF000;

impl From<Pack> for Vec<u16> {
    fn from(pack: Pack) -> Vec<u16> {
        let mut out = Vec::with_capacity(pack.letters.len());
        for letter in pack.letters {
            match letter {
                None => out.push(EMPTY_MARK),
                Some(line) => {
                    out.push(line.kind);
                    if line.count > 1 {
                        out.push(COUNT_MARK + line.count);
                    }
                }
            }
        }
        out
    }
}

impl TryFrom<Vec<u16>> for Pack {
    type Error = String;
    fn try_from(saved: Vec<u16>) -> Result<Pack, String> {
        let mut letters: Vec<Option<PackLine>> = Vec::new();
        for value in saved {
            if value == EMPTY_MARK {
                letters.push(None);
            } else if value >= COUNT_MARK {
                let count = value - COUNT_MARK;
                match letters.last_mut() {
                    Some(Some(line)) if line.count == 1 && (2..=MAX_STACK).contains(&count) => {
                        line.count = count;
                    }
                    _ => return Err(format!("a pack with a misplaced count mark {value:#x}")),
                }
            } else {
                letters.push(Some(PackLine {
                    kind: value,
                    count: 1,
                }));
            }
            if letters.len() > PACK_SLOTS {
                return Err(format!("a pack of more than {PACK_SLOTS} letters"));
            }
        }
        if letters.last().is_some_and(Option::is_none) {
            return Err("a pack whose last letter is empty".into());
        }
        Ok(Pack { letters })
    }
}

impl Pack {
    /// A pack of one item a letter, `a` first: what a pack under the first
    /// rules always is, and a hand-made pack for tests and tools.
    pub fn of(kinds: &[u16]) -> Pack {
        Pack {
            letters: kinds
                .iter()
                .take(PACK_SLOTS)
                .map(|&kind| Some(PackLine { kind, count: 1 }))
                .collect(),
        }
    }

    /// The line at `letter` (0 is `a`), if it holds anything.
    pub fn get(&self, letter: usize) -> Option<PackLine> {
        self.letters.get(letter).copied().flatten()
    }

    /// Every line that holds something, with its letter, `a` first.
    pub fn lines(&self) -> impl Iterator<Item = (usize, PackLine)> + '_ {
        self.letters
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.map(|l| (i, l)))
    }

    /// Whether nothing is carried.
    pub fn is_empty(&self) -> bool {
        self.letters.is_empty()
    }

    /// Items carried, a stack counting each of its items.
    pub fn items(&self) -> u32 {
        self.lines().map(|(_, l)| u32::from(l.count)).sum()
    }

    /// The letter `kind` would go to: the stack of its kind when `stacks`
    /// and there is one with room, else the first empty letter (under the
    /// first rules, `keep_letters` false, the one after the last); `None`
    /// when the pack has no room for it.
    pub fn room_for(&self, kind: u16, stacks: bool, keep_letters: bool) -> Option<usize> {
        if stacks
            && let Some((letter, _)) = self
                .lines()
                .find(|(_, l)| l.kind == kind && l.count < MAX_STACK)
        {
            return Some(letter);
        }
        let free = match keep_letters {
            true => self.letters.iter().position(Option::is_none),
            false => None,
        };
        let letter = free.unwrap_or(self.letters.len());
        (letter < PACK_SLOTS).then_some(letter)
    }

    /// Puts one `kind` in the pack where [`Pack::room_for`] says, and
    /// returns its letter; `None`, and nothing changed, without room.
    pub fn add(&mut self, kind: u16, stacks: bool, keep_letters: bool) -> Option<usize> {
        let letter = self.room_for(kind, stacks, keep_letters)?;
        match self.letters.get_mut(letter) {
            Some(Some(line)) => line.count += 1,
            Some(slot) => *slot = Some(PackLine { kind, count: 1 }),
            None => self.letters.push(Some(PackLine { kind, count: 1 })),
        }
        Some(letter)
    }

    /// Puts `count` of `kind` at `letter`, as [`Pack::room_for`] chose
    /// it: onto its line there, or into the empty letter; at most
    /// [`MAX_STACK`] a line.
    pub fn add_many(&mut self, kind: u16, letter: usize, count: u16) {
        if letter >= PACK_SLOTS {
            return;
        }
        if self.letters.len() <= letter {
            self.letters.resize(letter + 1, None);
        }
        match &mut self.letters[letter] {
            Some(line) if line.kind == kind => {
                line.count = line.count.saturating_add(count).min(MAX_STACK);
            }
            Some(_) => {}
            slot => {
                *slot = Some(PackLine {
                    kind,
                    count: count.clamp(1, MAX_STACK),
                })
            }
        }
    }

    /// Takes one item out of `letter` and returns its kind. The letter is
    /// left empty when that was the last; under the first rules
    /// (`keep_letters` false) the letters after it close up, as they did.
    pub fn take_one(&mut self, letter: usize, keep_letters: bool) -> Option<u16> {
        let line = self.letters.get_mut(letter)?.as_mut()?;
        let kind = line.kind;
        if line.count > 1 {
            line.count -= 1;
            return Some(kind);
        }
        if keep_letters {
            self.letters[letter] = None;
            while self.letters.last().is_some_and(Option::is_none) {
                self.letters.pop();
            }
        } else {
            self.letters.remove(letter);
        }
        Some(kind)
    }

    /// Puts one `kind` at `letter`, which must be empty or past the last:
    /// where the gear taken off goes when its replacement leaves the
    /// letter under the second rules.
    pub fn put_at(&mut self, letter: usize, kind: u16) {
        if letter >= PACK_SLOTS {
            return;
        }
        if self.letters.len() <= letter {
            self.letters.resize(letter + 1, None);
        }
        if self.letters[letter].is_none() {
            self.letters[letter] = Some(PackLine { kind, count: 1 });
        }
    }
}

/// The player's side of the Combat game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hero {
    /// Hit points now; at 0 a life is lost.
    pub hp: u16,
    /// Experience: the hit points of the monsters killed.
    pub xp: u32,
    /// Maximum hit points added by potions of vigour.
    pub vigour: u16,
    /// The wielded weapon's kind, if any (bare hands otherwise).
    pub weapon: Option<u16>,
    /// The worn armour's kind, if any.
    pub armour: Option<u16>,
    /// Carried items by letter.
    pub pack: Pack,
    /// Extra armour from a potion of stoneskin, and the turn it wears off.
    pub stoneskin: u16,
    /// Turn the stoneskin armour wears off at.
    pub stoneskin_until: u64,
}

/// What a visited level holds in the Combat game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Floor {
    /// Items lying on the level; several may share a cell (the last one
    /// placed or dropped is on top).
    pub items: Vec<Item>,
    /// Hit points of each monster, by monster id.
    pub monster_hp: Vec<u16>,
    /// Maximum hit points of each monster, by id (for look mode and
    /// experience).
    pub monster_max_hp: Vec<u16>,
}

/// The Combat game's part of a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CombatState {
    /// The run's item kinds (a run carries its data, as it does its
    /// monster kinds).
    pub items: Vec<ItemKind>,
    /// The player's hit points, gear and pack.
    pub hero: Hero,
    /// One per level slot; a level not visited yet has an empty one.
    pub floors: Vec<Floor>,
    /// Monsters killed, by kind.
    pub kills: Vec<u32>,
    /// The kind of monster that took the last life, once the run is lost.
    pub cause: Option<String>,
}

impl CombatState {
    /// A fresh run's state: full `hp`, an empty pack, and
    /// one empty floor per level, filled when it is visited.
    pub fn new(items: Vec<ItemKind>, hp: u16, levels: u16, monster_kinds: usize) -> CombatState {
        CombatState {
            items,
            hero: Hero {
                hp,
                xp: 0,
                vigour: 0,
                weapon: None,
                armour: None,
                pack: Pack::default(),
                stoneskin: 0,
                stoneskin_until: 0,
            },
            floors: vec![Floor::default(); usize::from(levels)],
            kills: vec![0; monster_kinds],
            cause: None,
        }
    }

    /// Kinds are saved as indices; this is their meaning.
    /// Validation on load keeps every index in range.
    pub fn kind(&self, kind: u16) -> &ItemKind {
        &self.items[usize::from(kind)]
    }

    /// The dice the hero's attacks roll: the weapon's, or `unarmed`.
    pub fn weapon_dice(&self, unarmed: Dice) -> Dice {
        match self.hero.weapon.map(|k| self.kind(k).class) {
            Some(ItemClass::Weapon { damage }) => damage,
            _ => unarmed,
        }
    }

    /// The hero's armour now: what is worn plus stoneskin until it wears off.
    pub fn armour(&self, turn: u64) -> u16 {
        let worn = match self.hero.armour.map(|k| self.kind(k).class) {
            Some(ItemClass::Armour { protection }) => protection,
            _ => 0,
        };
        let skin = if turn < self.hero.stoneskin_until {
            self.hero.stoneskin
        } else {
            0
        };
        worn.saturating_add(skin)
    }

    /// [`CombatState::describe`] for a pack line of `count` items: "3
    /// potions of healing", or as one item for a count of 1.
    pub fn describe_count(&self, kind: u16, count: u16) -> String {
        if count <= 1 {
            return self.describe(kind);
        }
        format!(
            "{count} {}",
            crate::words::plural_name(&self.kind(kind).name)
        )
    }

    /// "a dagger (1+1d4)" and the like, for the inventory and the morgue.
    pub fn describe(&self, kind: u16) -> String {
        let k = self.kind(kind);
        match k.class {
            ItemClass::Weapon { damage } => format!("{} ({damage})", article(&k.name)),
            ItemClass::Armour { protection } => format!("{} [{protection}]", article(&k.name)),
            ItemClass::Launcher { damage, range, .. } => {
                format!("{} (+{damage}, range {range})", article(&k.name))
            }
            ItemClass::Missile { damage, .. } => format!("{} ({damage})", article(&k.name)),
            _ => article(&k.name),
        }
    }
}

/// The experience level reached with `xp` points: level 1 below `first`,
/// then one more level each time the experience doubles, up to `cap`.
pub fn experience_level(xp: u32, first: u32, cap: u16) -> u16 {
    let mut level = 1u16;
    let mut need = u64::from(first.max(1));
    while u64::from(xp) >= need && level < cap {
        level += 1;
        need *= 2;
    }
    level
}

/// The player's maximum hit points at an experience level, plus what
/// potions of vigour added.
pub fn max_hp(base: u16, per_level: u16, level: u16, bonus: u16) -> u16 {
    base.saturating_add(per_level.saturating_mul(level.saturating_sub(1)))
        .saturating_add(bonus)
}

/// The pack letter of a slot.
pub fn slot_letter(slot: usize) -> char {
    (b'a' + slot.min(25) as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armour_adds_stoneskin_until_it_wears_off() {
        let items = ItemKind::defaults();
        let mail = items.iter().position(|k| k.name == "chain mail").unwrap() as u16;
        let mut state = CombatState::new(items, 20, 10, 3);
        assert_eq!(state.armour(0), 0);
        state.hero.armour = Some(mail);
        assert_eq!(state.armour(0), 6);
        state.hero.stoneskin = 6;
        state.hero.stoneskin_until = 50;
        assert_eq!(state.armour(49), 12);
        assert_eq!(state.armour(50), 6);
        assert_eq!(state.describe(mail), "a chain mail [6]");
    }

    #[test]
    fn a_pack_saves_as_a_list_of_kinds_with_marks_for_gaps_and_stacks() {
        // One item a letter and no gaps: the list of kinds format 5 saved.
        let plain = Pack::of(&[3, 5, 1]);
        assert_eq!(Vec::<u16>::from(plain.clone()), vec![3, 5, 1]);
        assert_eq!(Pack::try_from(vec![3, 5, 1]), Ok(plain));
        // A gap at b and three of kind 5 at c.
        let mut pack = Pack::of(&[3, 4, 5]);
        pack.take_one(1, true);
        pack.add(5, true, true);
        pack.add(5, true, true);
        let saved = Vec::<u16>::from(pack.clone());
        assert_eq!(saved, vec![3, EMPTY_MARK, 5, COUNT_MARK + 3]);
        assert_eq!(Pack::try_from(saved), Ok(pack));
        // What no pack is: refused on load.
        for bad in [
            vec![COUNT_MARK + 2],
            vec![3, EMPTY_MARK, COUNT_MARK + 2],
            vec![3, COUNT_MARK + 1],
            vec![3, COUNT_MARK + 2, COUNT_MARK + 2],
            vec![3, COUNT_MARK + MAX_STACK + 1],
            vec![3, EMPTY_MARK],
            vec![1; PACK_SLOTS + 1],
        ] {
            assert!(Pack::try_from(bad.clone()).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn letters_close_up_under_the_first_rules_and_stay_under_the_second() {
        let mut first = Pack::of(&[1, 2, 3]);
        assert_eq!(first.take_one(0, false), Some(1));
        assert_eq!(first, Pack::of(&[2, 3]));
        assert_eq!(first.add(2, false, false), Some(2));
        let mut second = Pack::of(&[1, 2, 3]);
        assert_eq!(second.take_one(0, true), Some(1));
        assert_eq!(second.get(0), None);
        assert_eq!(second.get(1).map(|l| l.kind), Some(2));
        assert_eq!(second.add(7, false, true), Some(0));
        assert_eq!(second.add(2, true, true), Some(1));
        assert_eq!(second.get(1).map(|l| l.count), Some(2));
        // A full pack takes a stackable kind only onto its stack.
        let mut full = Pack::of(&[9; PACK_SLOTS]);
        assert_eq!(full.room_for(8, true, true), None);
        assert_eq!(full.add(9, true, true), Some(0));
        assert_eq!(full.items(), PACK_SLOTS as u32 + 1);
    }

    #[test]
    fn the_weapon_sets_the_dice() {
        let items = ItemKind::defaults();
        let dagger = items.iter().position(|k| k.name == "dagger").unwrap() as u16;
        let mut state = CombatState::new(items, 20, 10, 3);
        let fists = Dice::new(1, 3, 0);
        assert_eq!(state.weapon_dice(fists), fists);
        state.hero.weapon = Some(dagger);
        assert_eq!(state.weapon_dice(fists), Dice::new(1, 4, 1));
        assert_eq!(state.describe(dagger), "a dagger (1+1d4)");
        assert_eq!(article("orc"), "an orc");
        assert_eq!(slot_letter(0), 'a');
        assert_eq!(slot_letter(25), 'z');
    }

    #[test]
    fn experience_doubles_a_level() {
        assert_eq!(experience_level(0, 20, 20), 1);
        assert_eq!(experience_level(19, 20, 20), 1);
        assert_eq!(experience_level(20, 20, 20), 2);
        assert_eq!(experience_level(39, 20, 20), 2);
        assert_eq!(experience_level(40, 20, 20), 3);
        assert_eq!(experience_level(u32::MAX, 20, 20), 20);
        assert_eq!(max_hp(20, 5, 3, 4), 34);
        assert_eq!(max_hp(u16::MAX, 5, 3, 4), u16::MAX);
    }
}
