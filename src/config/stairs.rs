//! Staircases: the section, and how many a depth has. The counts live
//! here rather than with the generator because a depth's staircases up
//! are the depth above's down, read across the profiles of both, and
//! the checks need the same count as the generator.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::config::profile;

/// Staircases between neighbouring levels, each in a room of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StairsConfig {
    /// Down staircases on each level but the deepest, and up on each but the first (1 to 8).
    pub per_level: u8,
    /// Whether depth 1 has an up staircase that leaves the dungeon.
    pub exit_on_first_level: bool,
}

impl Default for StairsConfig {
    fn default() -> Self {
        StairsConfig {
            per_level: 1,
            exit_on_first_level: true,
        }
    }
}

impl Config {
    /// How many staircases lead up and down from the level at `depth`: the
    /// k-th down staircase of a depth and the k-th up staircase of the next
    /// lead to each other, so neighbours have matching counts. Depth 1 has
    /// an up staircase (out of the dungeon) only with
    /// `exit_on_first_level`; the deepest level has none down.
    ///
    /// With profiles, a depth has as many staircases down as its own
    /// `stairs.per_level`, and as many up as the depth above has down.
    pub fn stair_counts(&self, depth: u16) -> (usize, usize) {
        let per = |d: u16| {
            usize::from(profile::setting(
                &self.profiles,
                d,
                self.stairs.per_level,
                |p| p.stairs.per_level,
            ))
        };
        let up = if depth > 1 {
            per(depth - 1)
        } else {
            usize::from(profile::setting(
                &self.profiles,
                1,
                self.stairs.exit_on_first_level,
                |p| p.stairs.exit_on_first_level,
            ))
        };
        let down = if depth < self.levels { per(depth) } else { 0 };
        (up, down)
    }

    /// The rooms the busiest level needs for its stairs. Each staircase has
    /// a room of its own, and the level's arrival room (its first up
    /// staircase, or where the player starts on a first level without an
    /// exit) never holds a down staircase.
    pub fn stair_rooms_needed(&self) -> u16 {
        let per = u16::from(self.stairs.per_level);
        match self.levels {
            1 => 1,
            2 => per + 1,
            _ => (2 * per).max(per + 1),
        }
    }
}
