//! Rooms: how many, how large, what shape, how hard placement tries.
//! Its own file for its mirror `RoomFields`, which lets a file give one
//! bound of each of its ranges and keep the other's default.

use serde::{Deserialize, Serialize};

use crate::config::range::{PartialRange, Range};

/// Rooms of a level: how many, how large, and how hard placement tries.
///
/// Either bound of a range may be left out of a file; it keeps its default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "RoomFields", into = "RoomFields")]
pub struct RoomConfig {
    /// Placement aims for `max`; a level with fewer than `min` is generated again.
    pub count: Range,
    /// Width of rectangular rooms in cells, at least 3 and inside the border.
    pub width: Range,
    /// Height of rectangular rooms in cells, at least 2 and inside the border.
    pub height: Range,
    /// Share of rooms that are circular, 0 to 1.
    pub circle_share: f64,
    /// Radius of circular rooms; a disc of radius r is 2r+1 cells across.
    pub circle_radius: Range,
    /// Random positions tried for one room before a new room is drawn (1 to 10000).
    pub attempts_per_room: u16,
    /// Failed placements in a row that end room placement (1 to 100000).
    pub give_up_streak: u32,
    /// Once `count.min` rooms stand, placement stops when floor covers this
    /// share of the level (above 0, at most 1).
    pub max_floor_share: f64,
    /// Doors a room may have, 1 to 8 (at least 2 for `Grid` and `DeadEnd`); a
    /// full room reuses its doors.
    pub max_doors: u8,
}

impl Default for RoomConfig {
    fn default() -> Self {
        RoomConfig {
            count: Range::new(5, 40),
            width: Range::new(4, 14),
            height: Range::new(3, 8),
            circle_share: 0.25,
            circle_radius: Range::new(2, 5),
            attempts_per_room: 100,
            give_up_streak: 500,
            max_floor_share: 0.3,
            max_doors: 8,
        }
    }
}

/// `RoomConfig` as written: each range may give only `min` or only `max`,
/// and the other bound keeps its default. Serde cannot default half a
/// struct from its parent's default, so this mirror does it.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RoomFields {
    count: PartialRange,
    width: PartialRange,
    height: PartialRange,
    circle_share: Option<f64>,
    circle_radius: PartialRange,
    attempts_per_room: Option<u16>,
    give_up_streak: Option<u32>,
    max_floor_share: Option<f64>,
    max_doors: Option<u8>,
}

/// Written out in full, so every format reads back what it wrote (binary
/// formats have no implicit `Some`).
impl From<RoomConfig> for RoomFields {
    fn from(c: RoomConfig) -> Self {
        let full = |r: Range| PartialRange {
            min: Some(r.min),
            max: Some(r.max),
        };
        RoomFields {
            count: full(c.count),
            width: full(c.width),
            height: full(c.height),
            circle_share: Some(c.circle_share),
            circle_radius: full(c.circle_radius),
            attempts_per_room: Some(c.attempts_per_room),
            give_up_streak: Some(c.give_up_streak),
            max_floor_share: Some(c.max_floor_share),
            max_doors: Some(c.max_doors),
        }
    }
}

impl From<RoomFields> for RoomConfig {
    fn from(f: RoomFields) -> Self {
        let d = RoomConfig::default();
        RoomConfig {
            count: f.count.or(d.count),
            width: f.width.or(d.width),
            height: f.height.or(d.height),
            circle_share: f.circle_share.unwrap_or(d.circle_share),
            circle_radius: f.circle_radius.or(d.circle_radius),
            attempts_per_room: f.attempts_per_room.unwrap_or(d.attempts_per_room),
            give_up_streak: f.give_up_streak.unwrap_or(d.give_up_streak),
            max_floor_share: f.max_floor_share.unwrap_or(d.max_floor_share),
            max_doors: f.max_doors.unwrap_or(d.max_doors),
        }
    }
}
