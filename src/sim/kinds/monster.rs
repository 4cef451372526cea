//! Monster kinds (data, from `data/monsters.ron`) and monsters (state).

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::geom::Pos;
use crate::ron_diag::{ConfigError, FieldIndex, Location, parse};
use crate::sim::kinds::ability::{Ability, check_abilities};
use crate::sim::kinds::table::{
    Depths, KindProblem, Placed, check_description, check_kinds, check_placed,
};

/// A behaviour a kind of monster may have.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Trait {
    /// Follows the distance map's gradient, and remembers where it last saw
    /// the player.
    Smart,
    /// Always knows where the player is.
    Telepathic,
    /// Digs through rock.
    Tunneling,
    /// Moves at random half the time.
    Erratic,
    /// Opens doors (rules 3): walks into a closed door, or a secret one
    /// (monsters know them), to open it. Monsters without it (animals,
    /// by the shipped data) are stopped by any door that is not open.
    OpensDoors,
}

/// A display colour. The viewer maps these to terminal colours; the glyph,
/// not the colour, carries meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Colour {
    /// Bright red in the viewer.
    Red,
    /// Bright green in the viewer.
    Green,
    /// Bright yellow in the viewer.
    Yellow,
    /// Bright blue in the viewer.
    Blue,
    /// Bright magenta in the viewer.
    Magenta,
    /// Bright cyan in the viewer.
    Cyan,
    /// White in the viewer.
    White,
    /// Light grey in the viewer, apart from the dark grey of remembered cells.
    Grey,
}

/// A kind of monster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterKind {
    /// Shown in messages; present, printable and distinct among the kinds.
    pub name: String,
    /// The map character: one column wide, printable, distinct, and not one the map uses.
    pub glyph: char,
    /// Colour of the glyph in the viewer.
    pub colour: Colour,
    /// 5 to 20: a monster of speed s moves every 1000/s ticks.
    pub speed: u8,
    /// Behaviours beyond walking toward the player; may be left out of the file.
    #[serde(default)]
    pub traits: Vec<Trait>,
    /// Hit points, rolled when a monster is placed (Combat rules).
    #[serde(default = "one")]
    pub hp: Dice,
    /// What its attacks roll (Combat rules).
    #[serde(default = "one")]
    pub damage: Dice,
    /// Each point takes `armour_step` percent off the chance to hit it.
    #[serde(default)]
    pub armour: u16,
    /// Where it is found (Combat rules; Stomp draws every kind alike).
    #[serde(default = "everywhere")]
    pub depths: Depths,
    /// 1 (common) to 1000.
    #[serde(default = "common")]
    pub rarity: u16,
    /// One line for look mode.
    #[serde(default)]
    pub description: String,
    /// What it can do beyond walking and biting (rules 4; earlier rules
    /// ignore them); may be left out of the file. Saved last, so a save
    /// of format 8 on holds it and older formats convert without.
    #[serde(default)]
    pub abilities: Vec<Ability>,
}

fn one() -> Dice {
    Dice::new(0, 0, 1)
}

fn everywhere() -> Depths {
    Depths {
        min: 1,
        max: u16::MAX,
    }
}

fn common() -> u16 {
    1
}

/// A plain Stomp-era kind, for building lists by hand
/// (`MonsterKind { name: .., ..MonsterKind::default() }`).
impl Default for MonsterKind {
    fn default() -> Self {
        MonsterKind {
            name: "monster".into(),
            glyph: 'm',
            colour: Colour::Red,
            speed: 10,
            traits: Vec::new(),
            hp: one(),
            damage: one(),
            armour: 0,
            depths: everywhere(),
            rarity: common(),
            description: String::new(),
            abilities: Vec::new(),
        }
    }
}

impl Placed for MonsterKind {
    fn depths(&self) -> Depths {
        self.depths
    }
    fn rarity(&self) -> u16 {
        self.rarity
    }
}

/// The shipped list, `data/monsters.ron`, built into the program.
const DEFAULT_MONSTERS: &str = include_str!("../../../data/monsters.ron");

impl MonsterKind {
    /// Whether the kind has the trait `t`.
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// The kind's ability named `name` (see [`Ability::name`]), if it has it.
    pub fn ability(&self, name: &str) -> Option<&Ability> {
        self.abilities.iter().find(|a| a.name() == name)
    }

    /// Whether monsters of this kind open doors (rules 3).
    pub fn opens_doors(&self) -> bool {
        self.has(Trait::OpensDoors)
    }

    /// The kinds shipped in `data/monsters.ron` (a test proves they parse
    /// and pass [`MonsterKind::check_list`]).
    pub fn defaults() -> Vec<MonsterKind> {
        ron::from_str(DEFAULT_MONSTERS).expect("data/monsters.ron parses (tested)")
    }

    /// The six kinds of 001's Stomp game as delve has always shipped them:
    /// a Stomp run without a monster file plays with these, so it is the
    /// game it always was (the humanoids open doors, which only rules 3
    /// have).
    pub fn stomp() -> Vec<MonsterKind> {
        use Trait::*;
        let kind = |name: &str, glyph, colour, speed, traits: &[Trait]| MonsterKind {
            name: name.into(),
            glyph,
            colour,
            speed,
            traits: traits.to_vec(),
            ..MonsterKind::default()
        };
        vec![
            kind("rat", 'r', Colour::Yellow, 12, &[Erratic]),
            kind("kobold", 'k', Colour::Green, 10, &[OpensDoors]),
            kind("orc", 'o', Colour::Red, 9, &[Smart, OpensDoors]),
            kind("wraith", 'W', Colour::Grey, 8, &[Telepathic, OpensDoors]),
            kind(
                "umber hulk",
                'U',
                Colour::Magenta,
                7,
                &[Tunneling, Smart, OpensDoors],
            ),
            kind("bat", 'b', Colour::Cyan, 18, &[Erratic, Telepathic]),
        ]
    }
}

impl MonsterKind {
    /// Checks a list of kinds as the viewer and the rules need it: at least
    /// one kind; names present, printable and distinct; glyphs one column
    /// wide, printable, distinct and not taken by the map; speeds 5 to 20.
    /// The monster file and save loading share it.
    pub fn check_list(kinds: &[MonsterKind]) -> Result<(), KindProblem> {
        let name_rule = |name: &str| {
            if name.trim().is_empty() {
                return Err("must not be empty".to_string());
            }
            if name.chars().any(char::is_control) {
                return Err("must not contain control characters".into());
            }
            Ok(())
        };
        check_kinds(
            kinds,
            "monster",
            |k| &k.name,
            name_rule,
            |earlier, k| {
                if k.glyph.is_whitespace()
                    || k.glyph.is_control()
                    || " .#+<>@░▒▓█".contains(k.glyph)
                {
                    return Err((
                        "glyph",
                        format!(
                            "{:?} is taken by the map or the player; pick another character",
                            k.glyph
                        ),
                    ));
                }
                if unicode_width::UnicodeWidthChar::width(k.glyph) != Some(1) {
                    return Err((
                        "glyph",
                        format!(
                            "{:?} does not take exactly one column on a terminal; pick another character",
                            k.glyph
                        ),
                    ));
                }
                // Colour is never the only difference between two kinds.
                if let Some(j) = earlier.iter().position(|o| o.glyph == k.glyph) {
                    return Err((
                        "glyph",
                        format!(
                            "{:?} is already the glyph of entry {j} ({}); each kind needs its own",
                            k.glyph, earlier[j].name
                        ),
                    ));
                }
                if !(5..=20).contains(&k.speed) {
                    return Err(("speed", format!("must be from 5 to 20, got {}", k.speed)));
                }
                if k.glyph.is_ascii_punctuation() && ")[!?/{}".contains(k.glyph) {
                    return Err((
                        "glyph",
                        format!("{:?} is taken by items; pick another character", k.glyph),
                    ));
                }
                if k.hp.max() == 0 || k.hp.max() > 10_000 {
                    return Err((
                        "hp",
                        format!("must roll from 1 to 10000, got {} at most", k.hp.max()),
                    ));
                }
                if k.armour > 100 {
                    return Err(("armour", format!("must be from 0 to 100, got {}", k.armour)));
                }
                check_placed(k)?;
                if !k.description.is_empty() {
                    check_description(&k.description).map_err(|m| ("description", m))?;
                }
                Ok(())
            },
        )?;
        MonsterKind::check_every_ability(kinds).map_err(|p| KindProblem {
            index: Some(p.kind),
            field: "abilities",
            message: format!("[{}]{}: {}", p.ability, p.dotted(), p.message),
        })
    }

    /// Each kind's abilities within their bounds (`kinds/ability.rs`),
    /// summons naming kinds of the list; the first problem, by kind and
    /// ability.
    pub(crate) fn check_every_ability(kinds: &[MonsterKind]) -> Result<(), AbilityProblem> {
        let names: Vec<&str> = kinds.iter().map(|k| k.name.as_str()).collect();
        for (i, k) in kinds.iter().enumerate() {
            check_abilities(&k.abilities, &names).map_err(|(ability, field, message)| {
                AbilityProblem {
                    kind: i,
                    ability,
                    field,
                    message,
                }
            })?;
        }
        Ok(())
    }
}

/// What is wrong with one ability of one kind.
pub(crate) struct AbilityProblem {
    /// The kind's entry.
    kind: usize,
    /// The ability's place in the kind's list.
    ability: usize,
    /// Its field at fault, or "" for the ability as a whole.
    field: &'static str,
    message: String,
}

impl AbilityProblem {
    /// `.range` for a field, nothing for the ability as a whole.
    fn dotted(&self) -> String {
        match self.field {
            "" => String::new(),
            f => format!(".{f}"),
        }
    }
}

/// One monster on a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Unique on its level, for following a monster from turn to turn.
    pub id: u32,
    /// Index into the run's monster kinds.
    pub kind: u16,
    /// The cell it stands on.
    pub pos: Pos,
    /// Tick of its next move.
    pub next: u64,
    /// Where a smart monster last saw the player.
    pub memory: Option<Pos>,
}

/// Parses and validates a monster list; errors name the entry, e.g.
/// `monsters.ron:7:39: [2].speed: must be from 5 to 20, got 30`.
pub fn monsters_from_ron(text: &str, origin: &str) -> Result<Vec<MonsterKind>, ConfigError> {
    let (kinds, _) = parse(text, origin, |kinds: &Vec<MonsterKind>, fields, origin| {
        check_monsters(kinds, fields, origin)
    })?;
    Ok(kinds)
}

/// The checks of a monster list, located in the file.
fn check_monsters(
    kinds: &[MonsterKind],
    fields: &FieldIndex,
    origin: &str,
) -> Result<(), ConfigError> {
    // Abilities first, so a problem in one is pointed at inside it rather
    // than at the kind's `abilities` key.
    if let Err(p) = MonsterKind::check_every_ability(kinds) {
        let path = match p.field {
            "" => "abilities".to_string(),
            f => format!("abilities.{f}"),
        };
        let (line, column) = fields
            .locate_in_nested_entry(("", p.kind), ("abilities", p.ability), &path)
            .unwrap_or((1, 1));
        return Err(ConfigError::Invalid {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field: format!("[{}].abilities[{}]{}", p.kind, p.ability, p.dotted()),
            message: p.message,
        });
    }
    MonsterKind::check_list(kinds).map_err(|p| located(p, fields, origin))
}

/// A problem with one entry of a data list (monsters, items), located
/// where the file wrote the entry's field.
pub(crate) fn located(problem: KindProblem, fields: &FieldIndex, origin: &str) -> ConfigError {
    let KindProblem {
        index,
        field,
        message,
    } = problem;
    let (field, (line, column)) = match index {
        Some(i) => (format!("[{i}].{field}"), fields.locate_nth(field, i)),
        None => (field.to_string(), (1, 1)),
    };
    ConfigError::Invalid {
        location: Location {
            origin: origin.into(),
            line,
            column,
        },
        field,
        message,
    }
}

#[cfg(test)]
mod monster_file {
    use super::*;

    #[test]
    fn data_monsters_ron_matches_the_built_in_kinds() {
        let text = include_str!("../../../data/monsters.ron");
        assert_eq!(
            monsters_from_ron(text, "data/monsters.ron").unwrap(),
            MonsterKind::defaults()
        );
    }

    #[test]
    fn monster_errors_name_the_entry() {
        let text = "[\n (name: \"a\", glyph: 'a', colour: Red, speed: 10),\n (name: \"b\", glyph: 'b', colour: Red, speed: 30),\n]";
        let e = monsters_from_ron(text, "m.ron").unwrap_err().to_string();
        assert!(
            e.starts_with("m.ron:3:39: [1].speed: must be from 5 to 20, got 30"),
            "{e}"
        );
        let e = monsters_from_ron(
            "[(name: \"a\", glyph: '#', colour: Red, speed: 10)]",
            "m.ron",
        )
        .unwrap_err();
        assert_eq!(e.field(), Some("[0].glyph"));
        let e = monsters_from_ron(
            "[(name: \"a\", glyph: 'a', colour: Pink, speed: 10)]",
            "m.ron",
        )
        .unwrap_err();
        assert!(e.to_string().contains("Pink"), "{e}");
        assert!(monsters_from_ron("[]", "m.ron").is_err());
    }
}
