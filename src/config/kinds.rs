//! Which kind of level a depth is, and the settings of the kinds that are
//! not rooms and corridors: caves and labyrinths. A section of its own as
//! each kind reads its own part alone.

use serde::{Deserialize, Serialize};

use crate::config::range::Range;

/// How a level is laid out. Every kind keeps the same promises (one
/// piece, stairs far apart, a graph that agrees with the tiles); what
/// differs is the ground.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LevelKind {
    /// Rooms joined by corridors through doors, in the configured style.
    #[default]
    Rooms,
    /// Organic caverns grown by a cellular automaton, chambers joined by
    /// passages.
    Cave,
    /// A maze of one-cell corridors on a lattice, with a few halls.
    Labyrinth,
}

impl LevelKind {
    /// The word the exports and `stats` use.
    pub const fn name(self) -> &'static str {
        match self {
            LevelKind::Rooms => "rooms",
            LevelKind::Cave => "cave",
            LevelKind::Labyrinth => "labyrinth",
        }
    }
}

/// A cave's cellular automaton: random fill, then smoothing passes, each
/// turning a cell open or rock by how many of its eight neighbours are open
/// (cells off the level count as rock), as Brogue's `designCavern` and
/// Angband's cavern levels grow theirs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CaveConfig {
    /// Share of cells that start open (above 0, below 1).
    pub open_share: f64,
    /// Smoothing passes (0 to 12).
    pub passes: u8,
    /// A rock cell with at least this many open neighbours opens (1 to 8).
    pub birth: u8,
    /// An open cell with at least this many open neighbours stays open (0 to 8).
    pub survival: u8,
    /// Open regions of fewer cells are filled back with rock (1 to 10000);
    /// the rest are joined into one piece.
    pub smallest_region: u16,
}

impl Default for CaveConfig {
    fn default() -> Self {
        CaveConfig {
            open_share: 0.45,
            passes: 4,
            birth: 5,
            survival: 4,
            smallest_region: 30,
        }
    }
}

/// A labyrinth: a maze of one-cell corridors on the lattice of odd
/// cells (Angband's labyrinth levels), with halls set into it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LabyrinthConfig {
    /// Share of the maze's remaining walls knocked through once it is a
    /// perfect maze, each making a loop (0 to 1).
    pub loops: f64,
    /// Small rooms set into the maze, entered through doors (0 to 16 each bound).
    #[serde(with = "halls_field")]
    pub halls: Range,
    /// Whether the player knows the maze on arrival (Angband's known
    /// labyrinths): the whole level is on the map from the first step.
    pub known: bool,
}

impl Default for LabyrinthConfig {
    fn default() -> Self {
        LabyrinthConfig {
            loops: 0.05,
            halls: Range::new(2, 5),
            known: false,
        }
    }
}

/// `labyrinth.halls` may give only one bound, like the room ranges.
mod halls_field {
    use serde::{Deserializer, Serializer};

    use super::LabyrinthConfig;
    use crate::config::range::{Range, partial_range};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        partial_range::serialize(r, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        partial_range::deserialize(d, LabyrinthConfig::default().halls)
    }
}
