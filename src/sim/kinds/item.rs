//! Item kinds (data, from `data/items.ron`) and items (state).
//!
//! Seven classes in the classic convention of glyphs: `)` weapons (damage
//! dice), `[` armour (protection), `!` potions and `?` scrolls (an effect
//! each, used up when quaffed or read), and from rules 4 `/` wands (an
//! aimed effect, a charge a zap), `}` launchers (a sling, a bow) and `{`
//! missiles (darts and javelins thrown by hand, stones and arrows shot).
//! Kinds say where they are found (`depths`) and how rare they are;
//! [`table`](crate::sim::kinds::table) draws them.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::geom::Pos;
use crate::ron_diag::{ConfigError, parse};
use crate::sim::kinds::effect::Effect;
use crate::sim::kinds::effect::MAX_EFFECT_TURNS;
use crate::sim::kinds::monster::Colour;
use crate::sim::kinds::table::{
    Depths, KindProblem, check_description, check_kinds, check_name, check_placed,
};

/// How many colours a potion may have (`appearance::POTIONS`).
pub const POTION_LOOKS: usize = 24;
/// How many woods and metals a wand may be made of (`appearance::WANDS`).
pub const WAND_LOOKS: usize = 20;

/// What a potion does when quaffed.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// A timed effect on the drinker (rules 4): haste, or one of the
    /// harmful ones that make an unknown potion a risk.
    Lasting {
        /// What it does while it lasts.
        effect: Effect,
        /// How strong (poison's hit points a turn; unused by most).
        power: u16,
        /// How many of the drinker's turns it lasts.
        turns: u16,
    },
    /// Ends every harmful timed effect on the drinker (rules 4).
    Cure,
}

/// What a scroll does when read.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ScrollEffect {
    /// The whole level's layout becomes known.
    MagicMapping,
    /// The reader lands on a random free floor cell of the level.
    Teleportation,
    /// The player learns what one unknown kind in the pack is (rules 4):
    /// the one with the most items, the first letter on a tie.
    Identify,
    /// Every monster on the level wakes and knows where the reader is.
    Aggravate,
    /// Monsters of the depth appear around the reader (at most this many).
    Summon(u8),
    /// Adds charges (this roll) to the wand in the pack with the fewest.
    Recharging(Dice),
}

/// What a wand does to what its bolt meets (rules 4).
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum WandEffect {
    /// Damages the first monster in the line (always hits).
    Striking(Dice),
    /// Slows the first monster in the line for this many turns.
    Slowing(u16),
    /// Sends the first monster in the line elsewhere on the level.
    TeleportOther,
    /// Turns up to this many cells of rock in the line into corridor.
    Digging(u8),
}

/// What a launcher shoots and a missile is shot by (rules 4).
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ammo {
    /// Sling stones.
    Stone,
    /// Arrows.
    Arrow,
}

impl Ammo {
    /// What the ammunition is called in "You have no bow for arrows.".
    pub fn name(self) -> &'static str {
        match self {
            Ammo::Stone => "stones",
            Ammo::Arrow => "arrows",
        }
    }

    /// What shoots it.
    pub fn launcher(self) -> &'static str {
        match self {
            Ammo::Stone => "sling",
            Ammo::Arrow => "bow",
        }
    }
}

/// The kind of thing an item is, and what it does.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Zapped at a target (rules 4): one charge a zap, `charges` rolled
    /// when it is picked up (a second wand of a kind adds its charges to
    /// the first, as DCSS's do).
    Wand {
        /// What its bolt does.
        effect: WandEffect,
        /// The charges a wand found holds.
        charges: Dice,
    },
    /// Readied beside the weapon (rules 4): shoots its `ammo`, adding
    /// `damage` to the missile's and reaching `range` cells.
    Launcher {
        /// What it shoots.
        ammo: Ammo,
        /// Added to each missile's damage roll.
        damage: Dice,
        /// How far it shoots, in cells.
        range: u8,
    },
    /// Fired with `f` (rules 4): thrown by hand when `ammo` is `None`,
    /// shot from a readied launcher of its ammo otherwise. It lands where
    /// it stops, to be picked up again, unless it breaks.
    Missile {
        /// Rolled for a hit.
        damage: Dice,
        /// What launcher shoots it; `None` for missiles thrown by hand.
        ammo: Option<Ammo>,
        /// How far it is thrown by hand, in cells (a launcher's range
        /// counts when shot).
        range: u8,
        /// Percent chance it breaks when it hits.
        breaks: u8,
        /// How many lie together where one is found.
        found: Dice,
    },
}

impl ItemClass {
    /// The glyph the classic convention gives the class.
    pub fn glyph(&self) -> char {
        match self {
            ItemClass::Weapon { .. } => ')',
            ItemClass::Armour { .. } => '[',
            ItemClass::Potion(_) => '!',
            ItemClass::Scroll(_) => '?',
            ItemClass::Wand { .. } => '/',
            ItemClass::Launcher { .. } => '}',
            ItemClass::Missile { .. } => '{',
        }
    }

    /// Whether rules before 4 know the class and its effect: only those
    /// kinds are placed in a run under them, so a run of the first rules
    /// draws its items from the same table as before the later kinds.
    pub fn before_rules_4(&self) -> bool {
        match self {
            ItemClass::Weapon { .. } | ItemClass::Armour { .. } => true,
            ItemClass::Potion(p) => matches!(
                p,
                PotionEffect::Healing(_) | PotionEffect::Vigour(_) | PotionEffect::Stoneskin { .. }
            ),
            ItemClass::Scroll(s) => {
                matches!(s, ScrollEffect::MagicMapping | ScrollEffect::Teleportation)
            }
            _ => false,
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
            ItemClass::Wand { .. } => "wand",
            ItemClass::Launcher { .. } => "launcher",
            ItemClass::Missile { .. } => "missile",
        }
    }

    /// How many looks the class has when it comes unknown (rules 4): as
    /// many as `sim::kinds::appearance` lists (24 colours of potion, 20
    /// woods and metals of wand, 65,536 scroll labels), so a run can deal
    /// each kind its own; `None` for classes known on sight.
    pub fn looks(&self) -> Option<usize> {
        match self {
            ItemClass::Potion(_) => Some(POTION_LOOKS),
            ItemClass::Scroll(_) => Some(1 << 16),
            ItemClass::Wand { .. } => Some(WAND_LOOKS),
            _ => None,
        }
    }

    /// A wand's effect; `None` for anything else (it cannot be zapped).
    pub fn wand(self) -> Option<WandEffect> {
        match self {
            ItemClass::Wand { effect, .. } => Some(effect),
            _ => None,
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
    /// Percentage points added to the chance to hit with a weapon, a
    /// launcher or a missile (rules 4; -50 to 50): a dagger is quick and
    /// sure, a great sword heavy and wild.
    #[serde(default)]
    pub accuracy: i8,
    /// Tenths of a turn an action takes (rules 4; 5 to 30, 10 by
    /// default): a weapon's for its attacks, armour's for every action,
    /// so plate protects more but slows.
    #[serde(default = "ten")]
    pub delay: u8,
    /// How much noise armour makes (rules 4; 0 to 20): monsters asleep
    /// hear a noisy wearer from further off.
    #[serde(default)]
    pub noise: u8,
}

fn ten() -> u8 {
    10
}

impl ItemKind {
    /// A kind with the trade-offs' defaults (no accuracy, a turn an
    /// action, silent): what every kind was before rules 4, and the base
    /// an older save's kinds are read into.
    pub fn plain() -> ItemKind {
        ItemKind {
            name: String::new(),
            glyph: ')',
            colour: Colour::Grey,
            class: ItemClass::Weapon {
                damage: Dice::new(0, 0, 1),
            },
            depths: Depths { min: 1, max: 1 },
            rarity: 1,
            description: String::new(),
            accuracy: 0,
            delay: ten(),
            noise: 0,
        }
    }
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
        check_looks(kinds)?;
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
                    ItemClass::Potion(PotionEffect::Lasting { power, turns, .. }) => {
                        power > 100 || turns == 0 || u64::from(turns) > MAX_EFFECT_TURNS
                    }
                    ItemClass::Potion(PotionEffect::Cure) => false,
                    ItemClass::Scroll(ScrollEffect::Summon(n)) => n == 0 || n > 8,
                    ItemClass::Scroll(ScrollEffect::Recharging(d)) => d.max() == 0 || d.max() > 99,
                    ItemClass::Scroll(_) => false,
                    ItemClass::Wand { effect, charges } => {
                        charges.max() == 0
                            || charges.max() > 99
                            || match effect {
                                WandEffect::Striking(d) => d.max() == 0,
                                WandEffect::Slowing(t) => t == 0 || u64::from(t) > MAX_EFFECT_TURNS,
                                WandEffect::TeleportOther => false,
                                WandEffect::Digging(n) => n == 0 || n > 50,
                            }
                    }
                    ItemClass::Launcher { range, .. } => range == 0 || range > 20,
                    ItemClass::Missile {
                        damage,
                        range,
                        breaks,
                        found,
                        ..
                    } => {
                        damage.max() == 0
                            || range == 0
                            || range > 20
                            || breaks > 100
                            || found.max() == 0
                            || found.max() > 99
                    }
                };
                if useless {
                    return Err((
                    "class",
                    "the effect must do something, within bounds (damage above 0; protection, armour and vigour 1 to 100, 100 and 1000; turns 1 to 10,000; power at most 100; charges, recharging and missiles found 1 to 99; summons 1 to 8; digging 1 to 50 cells; ranges 1 to 20; breaking 0 to 100 percent)".into(),
                ));
                }
                if !(-50..=50).contains(&k.accuracy) {
                    return Err((
                        "accuracy",
                        format!("must be from -50 to 50, got {}", k.accuracy),
                    ));
                }
                if !(5..=30).contains(&k.delay) {
                    return Err((
                        "delay",
                        format!("must be from 5 to 30 tenths of a turn, got {}", k.delay),
                    ));
                }
                if k.noise > 20 {
                    return Err(("noise", format!("must be at most 20, got {}", k.noise)));
                }
                Ok(())
            },
        )
    }
}

/// The kinds of each class that comes unknown, within what a run can tell
/// apart (24 potions: the colours there are).
fn check_looks(kinds: &[ItemKind]) -> Result<(), KindProblem> {
    for class in [
        ItemClass::Potion(PotionEffect::Cure),
        ItemClass::Scroll(ScrollEffect::Identify),
        ItemClass::Wand {
            effect: WandEffect::TeleportOther,
            charges: Dice::new(0, 0, 1),
        },
    ] {
        let of_class = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| std::mem::discriminant(&k.class) == std::mem::discriminant(&class));
        let most = class.looks().unwrap_or(usize::MAX);
        if let Some((i, _)) = of_class.clone().nth(most) {
            return Err(KindProblem {
                index: Some(i),
                field: "class",
                message: format!(
                    "more than {most} kinds of {}: each needs a look of its own",
                    class.noun()
                ),
            });
        }
    }
    Ok(())
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
/// Under rules 4 missiles stack too (a quiver of darts), and a wand's
/// line counts its charges.
pub(crate) fn stacks(class: ItemClass) -> bool {
    matches!(
        class,
        ItemClass::Potion(_)
            | ItemClass::Scroll(_)
            | ItemClass::Missile { .. }
            | ItemClass::Wand { .. }
    )
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
        // A misspelt field inside a class (or an effect) is refused, as one
        // of the kind's own fields is, not read as nothing.
        for (from, to, field) in [
            (
                "Weapon(damage: \"1+1d4\"",
                "Weapon(damage: \"1+1d4\", dmg: 3",
                "dmg",
            ),
            (
                "Armour(protection: 2",
                "Armour(protection: 2, protecton: 9",
                "protecton",
            ),
            (
                "Lasting(effect: Haste",
                "Lasting(effect: Haste, turn: 3",
                "turn",
            ),
        ] {
            assert!(text.contains(from), "{from}");
            let bad = text.replacen(from, to, 1);
            let e = items_from_ron(&bad, "items.ron").unwrap_err().to_string();
            assert!(e.starts_with("items.ron:"), "{e}");
            assert!(e.contains(field), "{e}");
        }
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
