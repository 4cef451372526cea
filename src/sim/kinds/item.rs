//! Item kinds (data, from `data/items.ron`) and items (state).
//!
//! Four classes in the classic convention of glyphs: `)` weapons (damage
//! dice), `[` armour (protection), `!` potions and `?` scrolls (an effect
//! each, used up when quaffed or read). Kinds say where they are found
//! (`depths`) and how rare they are; [`table`](crate::sim::kinds::table) draws them.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::geom::Pos;
use crate::ron_diag::{ConfigError, parse};
use crate::sim::kinds::monster::Colour;
use crate::sim::kinds::table::{
    Depths, KindProblem, check_description, check_kinds, check_name, check_placed,
};

/// What a potion does when quaffed.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PotionEffect {
    /// Restores this many hit points, up to the maximum.
    Healing(Dice),
    /// Raises the maximum hit points for good by this much, and heals as
    /// much.
    Vigour(u16),
    /// Makes the player hard to hit: this much armour for `turns` turns.
    Stoneskin {
        /// Armour points added while it lasts.
        armour: u16,
        /// How long it lasts, so it helps a fight, not a run.
        turns: u16,
    },
}

/// What a scroll does when read.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScrollEffect {
    /// The whole level's layout becomes known.
    MagicMapping,
    /// The reader lands on a random free floor cell of the level.
    Teleportation,
}

/// The kind of thing an item is, and what it does.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ItemClass {
    /// Wielded: the player's attacks roll `damage`.
    Weapon {
        /// Rolled for each of the player's hits.
        damage: Dice,
    },
    /// Worn: lowers the chance to be hit.
    Armour {
        /// Armour points, each lowering a monster's chance to hit.
        protection: u16,
    },
    /// Quaffed once, then gone.
    Potion(PotionEffect),
    /// Read once, then gone.
    Scroll(ScrollEffect),
}

impl ItemClass {
    /// The glyph the classic convention gives the class.
    pub fn glyph(&self) -> char {
        match self {
            ItemClass::Weapon { .. } => ')',
            ItemClass::Armour { .. } => '[',
            ItemClass::Potion(_) => '!',
            ItemClass::Scroll(_) => '?',
        }
    }

    /// A potion's effect; `None` for anything else (it cannot be drunk).
    pub fn potion(self) -> Option<PotionEffect> {
        match self {
            ItemClass::Potion(effect) => Some(effect),
            _ => None,
        }
    }

    /// A scroll's effect; `None` for anything else (it cannot be read).
    pub fn scroll(self) -> Option<ScrollEffect> {
        match self {
            ItemClass::Scroll(effect) => Some(effect),
            _ => None,
        }
    }

    /// The class's name, as an inventory heads it.
    pub fn noun(&self) -> &'static str {
        match self {
            ItemClass::Weapon { .. } => "weapon",
            ItemClass::Armour { .. } => "armour",
            ItemClass::Potion(_) => "potion",
            ItemClass::Scroll(_) => "scroll",
        }
    }
}

/// A kind of item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemKind {
    /// As messages, look mode and the morgue name it.
    pub name: String,
    /// Checked against the class's classic glyph on load.
    pub glyph: char,
    /// How the viewer draws it.
    pub colour: Colour,
    /// What it is and what using it does.
    pub class: ItemClass,
    /// Where it may be placed, so deep finds are better.
    pub depths: Depths,
    /// 1 (common) to 1000: drawn with weight 1000 / rarity among the kinds
    /// found at a depth.
    pub rarity: u16,
    /// One line for look mode and the inventory.
    pub description: String,
}

impl crate::sim::kinds::table::Placed for ItemKind {
    fn depths(&self) -> Depths {
        self.depths
    }
    fn rarity(&self) -> u16 {
        self.rarity
    }
}

/// The shipped list, `data/items.ron`, built into the program so a run
/// needs no files.
const DEFAULT_ITEMS: &str = include_str!("../../../data/items.ron");

impl ItemKind {
    /// The kinds shipped in `data/items.ron` (a test proves they parse and
    /// pass [`ItemKind::check_list`]).
    pub fn defaults() -> Vec<ItemKind> {
        ron::from_str(DEFAULT_ITEMS).expect("data/items.ron parses (tested)")
    }

    /// Checks a list as the rules and the viewer need it: at least one
    /// kind; names present, printable, distinct; the classic glyph for the
    /// class; depths from 1 with min <= max; rarity 1 to 1000; a one-line
    /// description; effects that do something.
    pub fn check_list(kinds: &[ItemKind]) -> Result<(), KindProblem> {
        check_kinds(
            kinds,
            "item",
            |k| &k.name,
            check_name,
            |_, k| {
                if k.glyph != k.class.glyph() {
                    return Err((
                        "glyph",
                        format!(
                            "a {} is drawn as {:?}, got {:?}",
                            k.class.noun(),
                            k.class.glyph(),
                            k.glyph
                        ),
                    ));
                }
                check_placed(k)?;
                check_description(&k.description).map_err(|m| ("description", m))?;
                let useless = match k.class {
                    ItemClass::Weapon { damage } => damage.max() == 0,
                    ItemClass::Armour { protection } => protection == 0 || protection > 100,
                    ItemClass::Potion(PotionEffect::Healing(d)) => d.max() == 0,
                    ItemClass::Potion(PotionEffect::Vigour(n)) => n == 0 || n > 1000,
                    ItemClass::Potion(PotionEffect::Stoneskin { armour, turns }) => {
                        armour == 0 || armour > 100 || turns == 0
                    }
                    ItemClass::Scroll(_) => false,
                };
                if useless {
                    return Err((
                    "class",
                    "the effect must do something (damage above 0; protection, armour and vigour 1 to 100, 100 and 1000; turns above 0)".into(),
                ));
                }
                Ok(())
            },
        )
    }
}

/// Parses and validates an item list; errors name the entry and field,
/// e.g. `items.ron:12:9: [3].glyph: a weapon is drawn as ')', got '!'`.
pub fn items_from_ron(text: &str, origin: &str) -> Result<Vec<ItemKind>, ConfigError> {
    let (kinds, _) = parse(text, origin, |kinds: &Vec<ItemKind>, fields, origin| {
        ItemKind::check_list(kinds)
            .map_err(|p| crate::sim::kinds::monster::located(p, fields, origin))
    })?;
    Ok(kinds)
}

/// An item lying on a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    /// Index into the run's item kinds.
    pub kind: u16,
    /// Always an open floor cell (checked on load).
    pub pos: Pos,
}

/// Whether items of a class share a pack letter under the second rules:
/// potions and scrolls, which are alike; weapons and armour each keep a
/// letter of their own.
pub(crate) fn stacks(class: ItemClass) -> bool {
    matches!(class, ItemClass::Potion(_) | ItemClass::Scroll(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_items_parse_and_pass_the_checks() {
        let kinds = ItemKind::defaults();
        assert!(kinds.len() >= 15, "{} kinds", kinds.len());
        ItemKind::check_list(&kinds).unwrap();
        for glyph in [')', '[', '!', '?'] {
            assert!(kinds.iter().any(|k| k.glyph == glyph), "no {glyph}");
        }
        let has = |f: &dyn Fn(&ItemClass) -> bool| kinds.iter().any(|k| f(&k.class));
        assert!(has(&|c| matches!(
            c,
            ItemClass::Potion(PotionEffect::Healing(_))
        )));
        assert!(has(&|c| matches!(
            c,
            ItemClass::Scroll(ScrollEffect::MagicMapping)
        )));
        assert!(has(&|c| matches!(
            c,
            ItemClass::Scroll(ScrollEffect::Teleportation)
        )));
        // Something to find on every level of the default stack.
        for depth in 1..=10 {
            assert!(kinds.iter().any(|k| k.depths.contains(depth)), "{depth}");
        }
    }

    #[test]
    fn errors_in_the_file_are_located() {
        let text = include_str!("../../../data/items.ron");
        assert_eq!(
            items_from_ron(text, "items.ron").unwrap(),
            ItemKind::defaults()
        );
        let bad = text.replacen("glyph: ')'", "glyph: '!'", 1);
        let e = items_from_ron(&bad, "items.ron").unwrap_err().to_string();
        assert!(e.starts_with("items.ron:"), "{e}");
        assert!(e.contains("[0].glyph: a weapon is drawn as ')'"), "{e}");
        let bad = text.replacen("\"1+1d4\"", "\"1+1x4\"", 1);
        let e = items_from_ron(&bad, "items.ron").unwrap_err().to_string();
        assert!(e.starts_with("items.ron:"), "{e}");
        assert!(e.contains("not part of a dice expression"), "{e}");
    }

    #[test]
    fn checks_name_the_field() {
        let mut kinds = ItemKind::defaults();
        kinds[0].glyph = '!';
        let p = ItemKind::check_list(&kinds).unwrap_err();
        assert_eq!((p.index, p.field), (Some(0), "glyph"));
        let mut kinds = ItemKind::defaults();
        kinds[1].depths = Depths { min: 5, max: 2 };
        let p = ItemKind::check_list(&kinds).unwrap_err();
        assert_eq!((p.index, p.field), (Some(1), "depths"));
        let mut kinds = ItemKind::defaults();
        kinds[2].rarity = 0;
        assert_eq!(ItemKind::check_list(&kinds).unwrap_err().field, "rarity");
        let mut kinds = ItemKind::defaults();
        kinds[3].name = kinds[0].name.clone();
        assert_eq!(ItemKind::check_list(&kinds).unwrap_err().field, "name");
        let mut kinds = ItemKind::defaults();
        kinds[0].description = "two\nlines".into();
        assert_eq!(
            ItemKind::check_list(&kinds).unwrap_err().field,
            "description"
        );
        assert_eq!(ItemKind::check_list(&[]).unwrap_err().index, None);
    }
}
