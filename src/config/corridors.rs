//! How rooms are joined: the corridor styles, what becomes of dead ends,
//! the Tunnel's prices and the loops added afterwards. Together because
//! the generator's corridor stage reads them together, and the checks of
//! one (a style's need for doors) name the others.

use serde::{Deserialize, Serialize};

/// How the rooms of a level are joined.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum CorridorStyle {
    /// 002: cheapest paths over rock hardness with turn penalties.
    Tunnel,
    /// 003: corridors along grid lines, in segments, turning at grid points.
    Grid,
    /// 004: corridor stubs at the doors grow until they see another corridor.
    DeadEnd,
    /// 000: consecutive rooms joined by walking straight toward the next.
    Straight,
}

impl CorridorStyle {
    /// Every style, in the order tables and tests list them: tests, benches
    /// and tools iterate this, so a new style is covered where they are.
    pub const ALL: [CorridorStyle; 4] = [
        CorridorStyle::Tunnel,
        CorridorStyle::Grid,
        CorridorStyle::DeadEnd,
        CorridorStyle::Straight,
    ];

    /// The style as a config file writes it (`DeadEnd`), for messages
    /// and tables.
    pub fn name(self) -> &'static str {
        match self {
            CorridorStyle::Tunnel => "Tunnel",
            CorridorStyle::Grid => "Grid",
            CorridorStyle::DeadEnd => "DeadEnd",
            CorridorStyle::Straight => "Straight",
        }
    }
}

/// What happens to corridors that lead nowhere.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DeadEndPolicy {
    /// Corridors that lead nowhere stay as they are.
    Keep,
    /// Corridors that lead nowhere are cut back to their junction, doors included.
    Prune,
}

/// Deliberate cycles (Brogue's addLoops): a door or a short straight
/// corridor where two open cells are close in space but far apart by path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LoopConfig {
    /// Loops to add to each level at most (0: none).
    pub count: u16,
    /// A shortcut is made only where the walk between its ends is at least
    /// this many times longer than the shortcut itself.
    pub ratio: f64,
    /// Rock cells a shortcut may cut through, 1 to 16.
    pub max_length: u16,
}

/// The Tunnel's room loops: after the tree of corridors, up to `count`
/// corridors between rooms whose centres are at most `reach` apart
/// (Manhattan) and whose walk is at least `ratio` times that distance, the
/// pair that saves the most walking first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RoomLoopConfig {
    /// Corridors to add at most (0: none).
    pub count: u16,
    /// How many times longer than the distance a walk must be.
    pub ratio: f64,
    /// The farthest apart (Manhattan, centre to centre) two rooms may be.
    pub reach: u16,
}

impl Default for RoomLoopConfig {
    fn default() -> Self {
        RoomLoopConfig {
            count: 4,
            ratio: 2.0,
            reach: 45,
        }
    }
}

impl RoomLoopConfig {
    /// None: what every run before save format 3 had.
    pub const NONE: RoomLoopConfig = RoomLoopConfig {
        count: 0,
        ratio: 2.0,
        reach: 40,
    };
}

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            count: 10,
            ratio: 2.5,
            max_length: 8,
        }
    }
}

impl LoopConfig {
    /// None, as every run before save format 3 had by default (the ratio
    /// and length are the old defaults, which the run digest leaves out).
    pub const NONE: LoopConfig = LoopConfig {
        count: 0,
        ratio: 5.0,
        max_length: 4,
    };
}

/// Costs of the `Tunnel` style's paths; each whole-number cost is at most 10000.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TunnelConfig {
    /// Cost of a step into the softest rock (at least 1).
    pub step_cost: u16,
    /// Rock below this hardness (0 to 254) costs only `step_cost`; harder rock costs more.
    pub soft_below: u16,
    /// Extra cost per point of hardness above `soft_below` (0 to 16).
    pub hardness_weight: f64,
    /// Extra cost of each change of direction.
    pub turn_penalty: u16,
    /// Cost of a step along an existing corridor (at least 1); near
    /// `step_cost`, so corridors sometimes share.
    pub open_cost: u16,
}

impl Default for TunnelConfig {
    fn default() -> Self {
        TunnelConfig {
            step_cost: 40,
            soft_below: 170,
            hardness_weight: 1.5,
            turn_penalty: 8,
            open_cost: 41,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_corridor_style_is_listed_once() {
        // A new variant fails this match to compile: add it to ALL too.
        let position = |style: CorridorStyle| match style {
            CorridorStyle::Tunnel => 0,
            CorridorStyle::Grid => 1,
            CorridorStyle::DeadEnd => 2,
            CorridorStyle::Straight => 3,
        };
        for (i, style) in CorridorStyle::ALL.into_iter().enumerate() {
            assert_eq!(position(style), i, "{}", style.name());
        }
    }
}
