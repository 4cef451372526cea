//! The Combat game's state: what a run under the Combat rules holds beyond
//! 001's Stomp game (hit points, experience, equipment, the pack, items on
//! the levels, monsters' hit points, kills by kind). A Stomp run has none of
//! it, so its saves and digests are what they always were.
//!
//! Monsters' hit points are kept by monster id (ids are unique on a level
//! and never reused), so removing a dead monster never shifts another's.

use serde::{Deserialize, Serialize};

use super::item::{Item, ItemClass, ItemKind};
use crate::dice::Dice;

/// How many items the pack holds (one a letter, a to z).
pub const PACK_SLOTS: usize = 26;

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
    /// Carried items by kind, in pack order (slot a first).
    pub pack: Vec<u16>,
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
                pack: Vec::new(),
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

    /// "a dagger (1+1d4)" and the like, for the inventory and the morgue.
    pub fn describe(&self, kind: u16) -> String {
        let k = self.kind(kind);
        match k.class {
            ItemClass::Weapon { damage } => format!("{} ({damage})", article(&k.name)),
            ItemClass::Armour { protection } => format!("{} [{protection}]", article(&k.name)),
            _ => article(&k.name),
        }
    }
}

/// "a dagger", "an orc", "a potion of healing": the name with its article.
pub fn article(name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
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
}
