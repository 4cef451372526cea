//! Monster kinds (data, from `data/monsters.ron`) and monsters (state).

use serde::{Deserialize, Serialize};

use crate::geom::Pos;

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
}

/// A display colour. The viewer maps these to terminal colours; the glyph,
/// not the colour, carries meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    White,
    Grey,
}

/// A kind of monster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MonsterKind {
    pub name: String,
    pub glyph: char,
    pub colour: Colour,
    /// 5 to 20: a monster of speed s moves every 1000/s ticks.
    pub speed: u8,
    #[serde(default)]
    pub traits: Vec<Trait>,
}

impl MonsterKind {
    pub fn has(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }

    /// The kinds shipped in `data/monsters.ron` (a test keeps the two equal).
    pub fn defaults() -> Vec<MonsterKind> {
        use Trait::*;
        let kind = |name: &str, glyph, colour, speed, traits: &[Trait]| MonsterKind {
            name: name.into(),
            glyph,
            colour,
            speed,
            traits: traits.to_vec(),
        };
        vec![
            kind("rat", 'r', Colour::Yellow, 12, &[Erratic]),
            kind("kobold", 'k', Colour::Green, 10, &[]),
            kind("orc", 'o', Colour::Red, 9, &[Smart]),
            kind("wraith", 'W', Colour::Grey, 8, &[Telepathic]),
            kind("umber hulk", 'U', Colour::Magenta, 7, &[Tunneling, Smart]),
            kind("bat", 'b', Colour::Cyan, 18, &[Erratic, Telepathic]),
        ]
    }
}

/// One monster on a level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Monster {
    /// Unique on its level, for following a monster from turn to turn.
    pub id: u32,
    /// Index into the run's monster kinds.
    pub kind: u16,
    pub pos: Pos,
    /// Tick of its next move.
    pub next: u64,
    /// Where a smart monster last saw the player.
    pub memory: Option<Pos>,
}
