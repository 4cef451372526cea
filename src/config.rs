//! Every tunable of the generator, read from RON.
//!
//! Parsing has two stages, as in ripgrep's flag handling: serde turns the text
//! into a [`Config`] (fields left out take their defaults, unknown fields are
//! refused), then [`Config::validate`] checks what the values mean together.
//! Both stages report `file:line:column: field: problem`, because a person
//! editing a config file needs to know where to look, not just what is wrong.
//!
//! A leaf: it imports nothing of delve's but the RON diagnostics
//! ([`crate::ron_diag`]) and the dice notation, so every other module may
//! depend on it. Besides [`Config::load`] nothing here touches the file
//! system; everything else receives a validated `Config`. Its child
//! [`profile`] holds the bands of depths that change settings.

pub mod profile;

use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::dice::Dice;
pub use crate::ron_diag::{ConfigError, Location};
use crate::ron_diag::{FieldIndex, parse, read_text};

use self::profile::Profile;

/// Smallest level that still holds a couple of rooms and corridors.
pub const MIN_WIDTH: u16 = 30;
/// Shortest level, for the same reason as [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 15;
/// Largest level side. A stored level is two bytes a cell (8 MB at
/// 2000x2000); generating one needs about 30 bytes a cell of search buffers
/// for a moment, so 2000x2000 peaks near 120 MB a core.
pub const MAX_SIDE: u16 = 2000;
/// Most levels in a stack; [`MAX_TOTAL_CELLS`] usually binds first.
pub const MAX_LEVELS: u16 = 1000;
/// Cells of all levels together: a whole stack is kept in memory, and its
/// ASCII drawing is about a byte a cell.
pub const MAX_TOTAL_CELLS: u64 = 64_000_000;
/// Bounds on placement effort, so a config cannot ask for hours of retries.
pub const MAX_ATTEMPTS_PER_ROOM: u16 = 10_000;
/// Bound on `rooms.give_up_streak`, failed placements in a row.
pub const MAX_GIVE_UP_STREAK: u32 = 100_000;
/// Bound on each corridor cost, so path sums stay far from overflow.
pub const MAX_COST: u16 = 10_000;
/// Rooms are numbered with `u16` in the level graph.
pub const MAX_ROOMS: u16 = 4096;
/// The most vaults a level may ask for.
pub const MAX_VAULTS: u16 = 16;
/// 003: a room has up to eight doors.
pub const MAX_DOORS: u8 = 8;
/// Bounds on the `Grid` style's geometry and on extra loops.
pub const MAX_GRID_SPACING: u16 = 64;
/// Bound on `grid_segment`, cells a `Grid` corridor runs before turning.
pub const MAX_GRID_SEGMENT: u16 = 64;
/// Bound on `extra_loops.count`, loops added to a level.
pub const MAX_LOOPS: u16 = 1000;
/// 002: a room is at least 3 cells wide and 2 tall.
pub const MIN_ROOM_WIDTH: u16 = 3;
/// Shortest room (002); see [`MIN_ROOM_WIDTH`].
pub const MIN_ROOM_HEIGHT: u16 = 2;

/// An inclusive range of whole numbers, written `(min: 5, max: 40)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// Smallest allowed value, included.
    pub min: u16,
    /// Largest allowed value, included; validation requires `min <= max`.
    pub max: u16,
}

impl Range {
    /// A range from `min` to `max`, both included; not checked until validation.
    pub const fn new(min: u16, max: u16) -> Self {
        Range { min, max }
    }
}

/// The whole configuration of a run. See `data/default.ron` for what each
/// field does; the defaults here and that file must agree (a test checks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Cells across, rock border included (30 to 2000).
    pub width: u16,
    /// Cells down, rock border included (15 to 2000).
    pub height: u16,
    /// Levels in the stack, 1 to 1000; depth 1 is the top.
    pub levels: u16,
    /// Size, shape and number of rooms, and how hard placement tries.
    pub rooms: RoomConfig,
    /// The noise that gives rock its hardness veins.
    pub hardness: HardnessConfig,
    /// Costs of the `Tunnel` style's cheapest-path corridors.
    pub tunnel: TunnelConfig,
    /// Staircases between neighbouring levels.
    pub stairs: StairsConfig,
    /// How rooms are joined (one of the four styles of the seeds).
    pub corridors: CorridorStyle,
    /// `Grid`: cells between grid lines (003: 6).
    pub grid_spacing: u16,
    /// `Grid`: cells a corridor runs before it may turn (003: 3 to 6).
    #[serde(with = "grid_segment_field")]
    pub grid_segment: Range,
    /// Whether overlapping room placements merge into one room (000).
    pub rooms_may_overlap: bool,
    /// Shortcuts added after the corridors, to make cycles.
    pub extra_loops: LoopConfig,
    /// What to do with corridors that lead nowhere.
    pub dead_ends: DeadEndPolicy,
    /// The rules of play, read only by the simulation.
    pub simulation: SimulationConfig,
    /// Attempts at a level, each from a fresh sub-seed, before giving up (at least 1).
    pub generation_retries: u16,
    /// The Tunnel's loops (002): corridors between rooms near in space but
    /// far apart by walking.
    pub room_loops: RoomLoopConfig,
    /// How many vaults (set pieces from the vaults file) a level tries to
    /// place before its ordinary rooms; each counts as one of its rooms.
    pub vaults: VaultConfig,
    /// Bands of depths with settings of their own, applied over the rest
    /// in the order written (see [`profile`]). A file that leaves them out
    /// has none, rather than the shipped progression of `data/default.ron`:
    /// a profile overrides the top level, so inherited ones would undo the
    /// file's own settings at depth. [`Config::default`] has none either;
    /// [`Config::shipped`] is the file.
    pub profiles: Vec<Profile>,
    /// Which revision of the generator and of the rules the run is made
    /// and played by (save format 6 on). A file may leave it out and gets
    /// this build's; a run keeps the one it began with.
    pub revisions: Revisions,
}

/// The generator revision this build makes by default: 2 joins every
/// door of a vault to the level (or walls it up), where 1 left doors that
/// no corridor reached opening onto rock.
pub const GENERATOR_REVISION: u16 = 2;
/// The rules revision this build plays by default: 2 keeps an item's pack
/// letter while it is carried and stacks identical potions and scrolls,
/// where 1 closed the letters up and gave every item a letter of its own.
pub const RULES_REVISION: u16 = 2;

/// Which revision of the generator made a run's levels and which revision
/// of the rules it plays by. A level is a function of (config, seed,
/// depth) and a run of its actions: when either changes on purpose, old
/// runs would regenerate into other levels and replay into other games.
/// So a run records the revisions it began with, and this build keeps
/// every older revision it still knows how to make, so an old save's
/// levels not visited yet, and a replay of an old recording, come out as
/// they were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Revisions {
    /// The generator's revision, 1 to [`GENERATOR_REVISION`].
    pub generator: u16,
    /// The rules' revision, 1 to [`RULES_REVISION`].
    pub rules: u16,
}

impl Revisions {
    /// What this build makes and plays by default.
    pub const CURRENT: Revisions = Revisions {
        generator: GENERATOR_REVISION,
        rules: RULES_REVISION,
    };
    /// What every run saved before revisions were recorded (save format 5
    /// and older, journals of those formats) was made and played by.
    pub const FIRST: Revisions = Revisions {
        generator: 1,
        rules: 1,
    };

    /// Whether these are the first revisions, which a digest leaves out so
    /// runs from before revisions digest as they did.
    pub fn is_first(&self) -> bool {
        *self == Revisions::FIRST
    }

    /// The first revision newer than this build makes, if any: which one
    /// ("generator" or "rules"), the revision, and the newest this build
    /// makes. A run of a newer revision is a newer delve's, named as such
    /// rather than as a broken file.
    pub fn newer_than_this_build(&self) -> Option<(&'static str, u16, u16)> {
        if self.generator > GENERATOR_REVISION {
            Some(("generator", self.generator, GENERATOR_REVISION))
        } else if self.rules > RULES_REVISION {
            Some(("rules", self.rules, RULES_REVISION))
        } else {
            None
        }
    }

    /// Refuses a revision this build cannot make: 0, which never existed,
    /// or a newer delve's, whose levels or rules this build does not know.
    fn check(&self) -> Result<(), Problem> {
        for (value, newest, what) in [
            (self.generator, GENERATOR_REVISION, "generator"),
            (self.rules, RULES_REVISION, "rules"),
        ] {
            check(
                (1..=newest).contains(&value),
                &format!("revisions.{what}"),
                || {
                    format!(
                        "this delve makes {what} revisions 1 to {newest}, got {value}{}",
                        if value > newest {
                            " (a newer delve's)"
                        } else {
                            ""
                        }
                    )
                },
            )?;
        }
        Ok(())
    }
}

impl Default for Revisions {
    fn default() -> Self {
        Revisions::CURRENT
    }
}

/// Vaults a level tries to place, among those whose depths hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VaultConfig {
    /// Drawn uniformly from the range for each level; either bound may be
    /// left out of a file and keeps its default.
    #[serde(with = "vault_count_field")]
    pub count: Range,
}

/// `vaults.count` may give only one bound, like the room ranges.
mod vault_count_field {
    use serde::{Deserializer, Serializer};

    use super::{Range, VaultConfig};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        super::partial_range::serialize(r, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        super::partial_range::deserialize(d, VaultConfig::default().count)
    }
}

impl Default for VaultConfig {
    fn default() -> Self {
        VaultConfig {
            count: Range::new(0, 2),
        }
    }
}

impl VaultConfig {
    /// None: what every run before save format 5 had.
    pub const NONE: VaultConfig = VaultConfig {
        count: Range { min: 0, max: 0 },
    };
}

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

/// The value noise that sets each rock cell's hardness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HardnessConfig {
    /// Size in cells of the largest veins of hard and soft rock (1 to 1024).
    pub feature_size: u16,
    /// Layers of finer detail added to the veins (1 to 8).
    pub octaves: u8,
    /// Weight of each finer layer relative to the one before, 0 to 1.
    pub persistence: f64,
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

/// Staircases between neighbouring levels, each in a room of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StairsConfig {
    /// Down staircases on each level but the deepest, and up on each but the first (1 to 8).
    pub per_level: u8,
    /// Whether depth 1 has an up staircase that leaves the dungeon.
    pub exit_on_first_level: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            width: 150,
            height: 150,
            levels: 10,
            rooms: RoomConfig::default(),
            hardness: HardnessConfig::default(),
            tunnel: TunnelConfig::default(),
            stairs: StairsConfig::default(),
            corridors: CorridorStyle::Tunnel,
            grid_spacing: 6,
            grid_segment: Range::new(3, 6),
            rooms_may_overlap: false,
            extra_loops: LoopConfig::default(),
            dead_ends: DeadEndPolicy::Keep,
            simulation: SimulationConfig::default(),
            generation_retries: 32,
            room_loops: RoomLoopConfig::default(),
            vaults: VaultConfig::default(),
            profiles: Vec::new(),
            revisions: Revisions::CURRENT,
        }
    }
}

impl Config {
    /// The config `delve` uses when given none: `data/default.ron`, built
    /// in. It is [`Config::default`] with the shipped progression of
    /// profiles (a test checks the file against both).
    pub fn shipped() -> Config {
        Config::from_ron(include_str!("../data/default.ron"), "data/default.ron")
            .expect("data/default.ron is a valid config (a test checks)")
    }

    /// The config of the level at `depth`: this one with its profiles for
    /// the depth applied, and no profiles of its own.
    pub fn at_depth(&self, depth: u16) -> Config {
        profile::at_depth(self, &self.profiles, depth)
    }

    /// A copy without the profiles, made without copying them. Every
    /// field is named, so a new one cannot be forgotten.
    fn without_profiles(&self) -> Config {
        let Config {
            width,
            height,
            levels,
            rooms,
            hardness,
            tunnel,
            stairs,
            corridors,
            grid_spacing,
            grid_segment,
            rooms_may_overlap,
            extra_loops,
            dead_ends,
            simulation,
            generation_retries,
            room_loops,
            vaults,
            profiles: _,
            revisions,
        } = self;
        Config {
            width: *width,
            height: *height,
            levels: *levels,
            rooms: rooms.clone(),
            hardness: hardness.clone(),
            tunnel: tunnel.clone(),
            stairs: stairs.clone(),
            corridors: *corridors,
            grid_spacing: *grid_spacing,
            grid_segment: *grid_segment,
            rooms_may_overlap: *rooms_may_overlap,
            extra_loops: extra_loops.clone(),
            dead_ends: *dead_ends,
            simulation: simulation.clone(),
            generation_retries: *generation_retries,
            room_loops: room_loops.clone(),
            vaults: *vaults,
            profiles: Vec::new(),
            revisions: *revisions,
        }
    }
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

#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct PartialRange {
    min: Option<u16>,
    max: Option<u16>,
}

/// `grid_segment` may give only one bound, like the room ranges; the other
/// keeps its default. Written out in full, as `RoomFields` is.
pub(crate) mod grid_segment_field {
    use serde::{Deserializer, Serializer};

    use super::Range;

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        super::partial_range::serialize(r, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        super::partial_range::deserialize(d, Range::new(3, 6))
    }
}

/// A range field of which a file may give one bound, the other keeping
/// `default`; always written out in full (binary formats have no implicit
/// `Some`).
mod partial_range {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{PartialRange, Range};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        PartialRange {
            min: Some(r.min),
            max: Some(r.max),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D, default: Range) -> Result<Range, D::Error> {
        Ok(PartialRange::deserialize(d)?.or(default))
    }
}

impl PartialRange {
    fn or(self, default: Range) -> Range {
        Range {
            min: self.min.unwrap_or(default.min),
            max: self.max.unwrap_or(default.max),
        }
    }
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

impl Default for HardnessConfig {
    fn default() -> Self {
        HardnessConfig {
            feature_size: 8,
            octaves: 2,
            persistence: 0.5,
        }
    }
}

impl Default for TunnelConfig {
    fn default() -> Self {
        TunnelConfig {
            step_cost: 40,
            soft_below: 140,
            hardness_weight: 1.5,
            turn_penalty: 8,
            open_cost: 41,
        }
    }
}

/// What wins a run.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Goal {
    /// Every monster of every level dead (001).
    KillAll,
    /// Standing on the deepest level.
    ReachBottom,
}

/// Which game a run plays.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rules {
    /// 001's game: stepping onto a monster kills it, a monster stepping
    /// onto the player dies and costs a life.
    Stomp,
    /// Hit points, attacks against armour, items, monsters by depth.
    Combat,
}

/// The numbers of the Combat rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CombatConfig {
    /// Hit points the player starts with (1 to 1000).
    pub player_hp: u16,
    /// Maximum hit points gained with each experience level (0 to 100).
    pub hp_per_level: u16,
    /// Experience for level 2; each level after needs twice as much.
    pub first_level_xp: u32,
    /// The highest experience level (1 to 50).
    pub max_level: u16,
    /// What the player's attacks roll without a weapon.
    pub unarmed: Dice,
    /// Percent chance to hit a defender without armour (1 to 100).
    pub hit_chance: u8,
    /// Percentage points each point of armour takes off (0 to 100).
    pub armour_step: u8,
    /// The chance to hit never falls below this (0 to `hit_chance`).
    pub min_hit: u8,
    /// The player regains a hit point every this many turns (0: never).
    pub regen_every: u16,
    /// Items placed on each level (0 to 1000).
    pub items_per_level: u16,
    /// The autopilot drinks healing below this percent of its hit points
    /// and fights only what it expects to outlast.
    pub cautious_below: u8,
}

impl Default for CombatConfig {
    fn default() -> Self {
        CombatConfig {
            player_hp: 20,
            hp_per_level: 6,
            first_level_xp: 20,
            max_level: 20,
            unarmed: Dice::new(1, 3, 0),
            hit_chance: 80,
            armour_step: 5,
            min_hit: 15,
            regen_every: 10,
            items_per_level: 6,
            cautious_below: 40,
        }
    }
}

/// The rules of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimulationConfig {
    /// Which game: Combat (the default) or 001's Stomp.
    pub rules: Rules,
    /// Lives the player starts with (1 to 99); a monster stepping onto the player costs one.
    pub lives: u8,
    /// How far the player sees, in cells (1 to 40).
    pub sight_radius: u8,
    /// How far, in orthogonal steps, a monster notices a player it can see (1 to 40).
    pub perception_radius: u8,
    /// Player speed, 5 to 20: an actor of speed s moves every 1000/s ticks.
    pub player_speed: u8,
    /// Monsters placed on depth 1.
    pub monsters_first_level: u16,
    /// Monsters added for each level further down.
    pub monsters_per_depth: u16,
    /// Most monsters on any one level (at most 1000).
    pub monsters_max: u16,
    /// Hardness a tunnelling monster takes off the rock it pushes into each move (at least 1).
    pub dig_per_turn: u8,
    /// The autopilot keeps away from monsters at this many lives or fewer.
    pub cautious_at_lives: u8,
    /// What wins the run.
    pub goal: Goal,
    /// The Combat game's numbers; Stomp ignores them.
    pub combat: CombatConfig,
}

impl Default for SimulationConfig {
    fn default() -> Self {
        SimulationConfig {
            rules: Rules::Combat,
            goal: Goal::ReachBottom,
            ..SimulationConfig::stomp()
        }
    }
}

impl SimulationConfig {
    /// 001's Stomp game with the defaults it has always had.
    pub fn stomp() -> Self {
        SimulationConfig {
            rules: Rules::Stomp,
            lives: 3,
            sight_radius: 8,
            perception_radius: 6,
            player_speed: 10,
            monsters_first_level: 3,
            monsters_per_depth: 1,
            monsters_max: 20,
            dig_per_turn: 85,
            cautious_at_lives: 1,
            goal: Goal::KillAll,
            combat: CombatConfig::default(),
        }
    }

    /// Whether hit points, items and attacks are in play.
    pub fn is_combat(&self) -> bool {
        self.rules == Rules::Combat
    }
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
    /// Reads, parses and validates a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::load_telling(path).map(|(config, _)| config)
    }

    /// [`Config::load`], and whether the file writes `profiles` at all: a
    /// file that leaves them out has none, which a reader who changed one
    /// setting of the shipped file may not expect (`profiles: []` is
    /// written on purpose).
    pub fn load_telling(path: &Path) -> Result<(Config, bool), ConfigError> {
        let (text, origin) = read_text(path)?;
        Config::from_ron_telling(&text, &origin)
    }

    /// Parses and validates RON text; `origin` names it in errors.
    pub fn from_ron(text: &str, origin: &str) -> Result<Config, ConfigError> {
        Config::from_ron_telling(text, origin).map(|(config, _)| config)
    }

    fn from_ron_telling(text: &str, origin: &str) -> Result<(Config, bool), ConfigError> {
        let (mut config, fields) =
            parse(text, origin, check_config).map_err(stack_field_in_profile)?;
        // Each game has its own goal unless the file names one: Stomp's is
        // 001's (kill every monster), Combat's is the bottom of the stack.
        if !fields.is_written("simulation.goal") && config.simulation.rules == Rules::Stomp {
            config.simulation.goal = Goal::KillAll;
        }
        Ok((config, fields.is_written("profiles")))
    }

    /// The config as RON, every field written out.
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        ron::ser::to_string_pretty(self, pretty).expect("a Config always serialises")
    }
}

/// A profile that sets `width`, `height` or `levels` is told why it may
/// not, rather than given the list of the fields it may set.
fn stack_field_in_profile(error: ConfigError) -> ConfigError {
    match error {
        ConfigError::Syntax {
            location,
            field: Some(field),
            message,
        } if message.starts_with("unknown field") => {
            let message = match profile::entry_of(&field) {
                Some((_, name @ ("width" | "height" | "levels"))) => format!(
                    "`{name}` is not a profile's to set: width, height and levels belong to the \
                     whole stack (set them at the top of the file)"
                ),
                _ => message,
            };
            ConfigError::Syntax {
                location,
                field: Some(field),
                message,
            }
        }
        other => other,
    }
}

/// [`Config::validate`], with the problem located where the file wrote it.
fn check_config(config: &Config, fields: &FieldIndex, origin: &str) -> Result<(), ConfigError> {
    config.validate().map_err(|problem| {
        let (line, column) = locate(&problem, fields);
        ConfigError::Invalid {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field: problem.field,
            message: problem.message,
        }
    })
}

/// Where the file writes the field a problem is about: the field itself, or
/// the one sharing the blame when only that is written, or else the
/// field's nearest written parent. A field of a profile
/// (`profiles[1].rooms.count.max`) is looked for inside that entry of the
/// list alone, since every entry's keys have the same paths.
fn locate(problem: &Problem, fields: &FieldIndex) -> (usize, usize) {
    let written = |path: &str| match profile::entry_of(path) {
        Some((entry, field)) => {
            fields.written_in_entry("profiles", entry, &format!("profiles.{field}"))
        }
        None => fields.is_written(path).then(|| fields.locate(path)),
    };
    let nearest = |path: &str| match profile::entry_of(path) {
        Some((entry, field)) => fields
            .locate_in_entry("profiles", entry, &format!("profiles.{field}"))
            .unwrap_or_else(|| fields.locate("profiles")),
        None => fields.locate(path),
    };
    written(&problem.field)
        .or_else(|| problem.instead.as_deref().and_then(written))
        .unwrap_or_else(|| nearest(&problem.field))
}

impl Config {
    /// Checks the meaning of the values. The first problem found is
    /// returned with the dotted path of the field it is about. The top
    /// level is checked as it stands, then each profile's band, and then
    /// the config of every stretch of depths the same profiles apply to,
    /// as a whole; a problem there names the profile and the depths
    /// (`profiles[1].rooms.count.max`, `at depths 4-6: ...`).
    pub fn validate(&self) -> Result<(), Problem> {
        self.revisions.check()?;
        self.validate_level()?;
        profile::check(self)
    }

    /// The checks of one level's settings: [`Config::validate`] without
    /// the profiles.
    /// A level's settings, section by section, in the order errors are
    /// reported (the first problem found is the one named).
    fn validate_level(&self) -> Result<(), Problem> {
        self.check_size()?;
        self.check_rooms()?;
        self.check_hardness()?;
        self.check_tunnel()?;
        self.check_stairs()?;
        self.check_corridor_layout()?;
        self.check_loops()?;
        self.check_vaults()?;
        self.check_simulation()?;
        self.check_combat()?;
        self.check_retries()?;
        self.check_rooms_fit()?;
        Ok(())
    }

    /// The level's size and the stack's, within what a run may hold.
    fn check_size(&self) -> Result<(), Problem> {
        let c = self;
        within(c.width, MIN_WIDTH..=MAX_SIDE, "width")?;
        within(c.height, MIN_HEIGHT..=MAX_SIDE, "height")?;
        within(c.levels, 1..=MAX_LEVELS, "levels")?;
        let total = u64::from(c.width) * u64::from(c.height) * u64::from(c.levels);
        check(total <= MAX_TOTAL_CELLS, "levels", || {
            format!(
                "{} levels of {}x{} are {total} cells, more than the {MAX_TOTAL_CELLS} a run may hold; \
                 use fewer or smaller levels",
                c.levels, c.width, c.height
            )
        })?;
        Ok(())
    }

    /// The rooms' counts, sizes, shapes and placement effort.
    fn check_rooms(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        check_range(r.count, "rooms.count", 1, MAX_ROOMS)?;
        // Rooms stay off the border, so the inner area bounds their size.
        check_range(r.width, "rooms.width", MIN_ROOM_WIDTH, c.width - 2)?;
        check_range(r.height, "rooms.height", MIN_ROOM_HEIGHT, c.height - 2)?;
        check_fraction(r.circle_share, "rooms.circle_share")?;
        if r.circle_share > 0.0 {
            let inner = (c.width.min(c.height) - 3) / 2;
            check_range(r.circle_radius, "rooms.circle_radius", 1, inner)?;
        }
        within(
            r.attempts_per_room,
            1..=MAX_ATTEMPTS_PER_ROOM,
            "rooms.attempts_per_room",
        )?;
        within(
            r.give_up_streak,
            1..=MAX_GIVE_UP_STREAK,
            "rooms.give_up_streak",
        )?;
        check(
            r.max_floor_share.is_finite() && r.max_floor_share > 0.0 && r.max_floor_share <= 1.0,
            "rooms.max_floor_share",
            || {
                format!(
                    "must be a number above 0 and at most 1, got {}",
                    r.max_floor_share
                )
            },
        )?;
        within(r.max_doors, 1..=MAX_DOORS, "rooms.max_doors")?;
        Ok(())
    }

    /// The hardness field's noise.
    fn check_hardness(&self) -> Result<(), Problem> {
        let c = self;
        let h = &c.hardness;
        within_unit(h.feature_size, 1..=1024, " cells", "hardness.feature_size")?;
        within(h.octaves, 1..=8, "hardness.octaves")?;
        check_fraction(h.persistence, "hardness.persistence")?;
        Ok(())
    }

    /// The Tunnel's prices.
    fn check_tunnel(&self) -> Result<(), Problem> {
        let c = self;
        let t = &c.tunnel;
        within(t.step_cost, 1..=MAX_COST, "tunnel.step_cost")
            .map_err(|p| p.because("every step has a cost"))?;
        within(t.turn_penalty, 0..=MAX_COST, "tunnel.turn_penalty")?;
        within(t.soft_below, 0..=254, "tunnel.soft_below")?;
        check(
            t.hardness_weight.is_finite() && (0.0..=16.0).contains(&t.hardness_weight),
            "tunnel.hardness_weight",
            || format!("must be a number from 0 to 16, got {}", t.hardness_weight),
        )?;
        within(t.open_cost, 1..=MAX_COST, "tunnel.open_cost")?;
        Ok(())
    }

    /// Staircases, and the rooms they need.
    fn check_stairs(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        let s = &c.stairs;
        within(s.per_level, 1..=8, "stairs.per_level")?;
        // Every staircase of a level stands in a room of its own.
        let stair_rooms = c.stair_rooms_needed();
        if r.count.min < stair_rooms {
            return Err(Problem {
                field: "rooms.count.min".into(),
                message: format!(
                    "must be at least {stair_rooms} (it is {}): with {} staircase(s) each way \
                     and {} level(s), the busiest level needs {stair_rooms} rooms, since each \
                     staircase stands in a room of its own; raise rooms.count.min or lower \
                     stairs.per_level",
                    r.count.min, s.per_level, c.levels
                ),
                instead: Some("stairs.per_level".into()),
            });
        }
        Ok(())
    }

    /// The grid styles' spacing and what the door-grown styles need.
    fn check_corridor_layout(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        within_unit(
            c.grid_spacing,
            3..=MAX_GRID_SPACING,
            " cells",
            "grid_spacing",
        )?;
        check_range(c.grid_segment, "grid_segment", 1, MAX_GRID_SEGMENT)?;
        // Grid and DeadEnd join rooms only through corridors that leave
        // doors: with one door a room, at most one corridor may end at a
        // room, and the rest would all have to meet other corridors.
        if matches!(c.corridors, CorridorStyle::Grid | CorridorStyle::DeadEnd) && r.max_doors < 2 {
            return Err(Problem {
                field: "rooms.max_doors".into(),
                message: format!(
                    "must be at least 2 with corridors: {} (it is {}): that style joins rooms by \
                     corridors growing out of doors, which one door a room cannot do; raise \
                     rooms.max_doors or use Tunnel or Straight",
                    c.corridors.name(),
                    r.max_doors
                ),
                instead: None,
            });
        }
        Ok(())
    }

    /// Extra loops and room loops.
    fn check_loops(&self) -> Result<(), Problem> {
        let c = self;
        let l = &c.extra_loops;
        within(l.count, 0..=MAX_LOOPS, "extra_loops.count")?;
        check(
            l.ratio.is_finite() && l.ratio > 1.0 && l.ratio <= 1000.0,
            "extra_loops.ratio",
            || {
                format!(
                    "must be a number above 1 and at most 1000, got {} (a shortcut must save \
                     walking to be worth making)",
                    l.ratio
                )
            },
        )?;
        within(l.max_length, 1..=16, "extra_loops.max_length")?;
        let rl = &c.room_loops;
        within(rl.count, 0..=MAX_LOOPS, "room_loops.count")?;
        check(
            rl.ratio.is_finite() && rl.ratio > 1.0 && rl.ratio <= 1000.0,
            "room_loops.ratio",
            || {
                format!(
                    "must be a number above 1 and at most 1000, got {} (a loop must save walking \
                     to be worth making)",
                    rl.ratio
                )
            },
        )?;
        within(rl.reach, 1..=MAX_SIDE, "room_loops.reach")?;
        Ok(())
    }

    /// How many vaults a level may hold.
    fn check_vaults(&self) -> Result<(), Problem> {
        let c = self;
        // A vault is one of the level's rooms.
        check_range(
            c.vaults.count,
            "vaults.count",
            0,
            MAX_VAULTS.min(c.rooms.count.max),
        )?;
        Ok(())
    }

    /// The rules shared by both games.
    fn check_simulation(&self) -> Result<(), Problem> {
        let c = self;
        let sim = &c.simulation;
        within(sim.lives, 1..=99, "simulation.lives")?;
        within(sim.sight_radius, 1..=40, "simulation.sight_radius")?;
        within(
            sim.perception_radius,
            1..=40,
            "simulation.perception_radius",
        )?;
        within(sim.player_speed, 5..=20, "simulation.player_speed")?;
        check(sim.monsters_max <= 1000, "simulation.monsters_max", || {
            format!("must be at most 1000, got {}", sim.monsters_max)
        })?;
        check(sim.dig_per_turn >= 1, "simulation.dig_per_turn", || {
            "must be at least 1, or tunnellers never get through".into()
        })?;
        Ok(())
    }

    /// The Combat rules' numbers.
    fn check_combat(&self) -> Result<(), Problem> {
        let c = self;
        let sim = &c.simulation;
        let cb = &sim.combat;
        check(
            (1..=1000).contains(&cb.player_hp),
            "simulation.combat.player_hp",
            || format!("must be from 1 to 1000, got {}", cb.player_hp),
        )?;
        check(
            cb.hp_per_level <= 100,
            "simulation.combat.hp_per_level",
            || format!("must be at most 100, got {}", cb.hp_per_level),
        )?;
        check(
            (1..=1_000_000).contains(&cb.first_level_xp),
            "simulation.combat.first_level_xp",
            || format!("must be from 1 to 1000000, got {}", cb.first_level_xp),
        )?;
        check(
            (1..=50).contains(&cb.max_level),
            "simulation.combat.max_level",
            || format!("must be from 1 to 50, got {}", cb.max_level),
        )?;
        check(cb.unarmed.max() >= 1, "simulation.combat.unarmed", || {
            "must roll at least 1".into()
        })?;
        check(
            (1..=100).contains(&cb.hit_chance),
            "simulation.combat.hit_chance",
            || format!("must be from 1 to 100, got {}", cb.hit_chance),
        )?;
        check(
            cb.armour_step <= 100,
            "simulation.combat.armour_step",
            || format!("must be at most 100, got {}", cb.armour_step),
        )?;
        check(
            cb.min_hit <= cb.hit_chance,
            "simulation.combat.min_hit",
            || {
                format!(
                    "must be at most hit_chance ({}), got {}",
                    cb.hit_chance, cb.min_hit
                )
            },
        )?;
        check(
            cb.items_per_level <= 1000,
            "simulation.combat.items_per_level",
            || format!("must be at most 1000, got {}", cb.items_per_level),
        )?;
        check(
            cb.cautious_below <= 100,
            "simulation.combat.cautious_below",
            || format!("must be at most 100, got {}", cb.cautious_below),
        )?;
        Ok(())
    }

    /// Attempts at a level.
    fn check_retries(&self) -> Result<(), Problem> {
        let c = self;
        check(c.generation_retries >= 1, "generation_retries", || {
            "must be at least 1".into()
        })?;
        Ok(())
    }

    /// Whether the fewest rooms allowed can fit at all.
    fn check_rooms_fit(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        // Can the minimum number of rooms fit at all? Pack the smallest room
        // the config allows, with the one-cell gap rooms keep, in a grid over
        // the area inside the border. No placement can beat that packing.
        let (small_w, small_h) = smallest_room(self);
        let per_row = (u32::from(c.width) - 2 + 1) / (small_w + 1);
        let per_col = (u32::from(c.height) - 2 + 1) / (small_h + 1);
        let capacity = per_row * per_col;
        check(
            u32::from(r.count.min) <= capacity,
            "rooms.count.min",
            || {
                format!(
                    "{} rooms cannot fit: a {}x{} level holds at most {capacity} rooms of the \
                 smallest allowed size {small_w}x{small_h} with the one-cell gap rooms keep \
                 between them; lower rooms.count.min or enlarge the level",
                    r.count.min, c.width, c.height
                )
            },
        )?;
        Ok(())
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

/// The narrowest and shortest room the config can produce.
fn smallest_room(c: &Config) -> (u32, u32) {
    let r = &c.rooms;
    let (mut w, mut h) = (u32::from(r.width.min), u32::from(r.height.min));
    if r.circle_share > 0.0 {
        let d = 2 * u32::from(r.circle_radius.min) + 1;
        if d * d < w * h {
            (w, h) = (d, d);
        }
    }
    (w, h)
}

/// A validation failure before it is given a place in the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct Problem {
    /// Dotted path of the field at fault, such as `rooms.count.min`.
    pub field: String,
    /// What is wrong, worded for the person editing the file.
    pub message: String,
    /// Another field that shares the blame; errors point at it when the
    /// file writes it and not `field`.
    pub instead: Option<String>,
}

impl Problem {
    /// A problem with `field` alone to blame.
    pub(crate) fn new(field: &str, message: String) -> Problem {
        Problem {
            field: field.into(),
            message,
            instead: None,
        }
    }
}

fn check(ok: bool, field: &str, message: impl FnOnce() -> String) -> Result<(), Problem> {
    if ok {
        Ok(())
    } else {
        Err(Problem {
            field: field.into(),
            message: message(),
            instead: None,
        })
    }
}

/// The one shape of a bounds check: `must be from LO to HI, got V`.
fn within<T: PartialOrd + fmt::Display>(
    v: T,
    allowed: RangeInclusive<T>,
    field: &str,
) -> Result<(), Problem> {
    within_unit(v, allowed, "", field)
}

/// [`within`], with the unit the bounds are in (`" cells"`).
fn within_unit<T: PartialOrd + fmt::Display>(
    v: T,
    allowed: RangeInclusive<T>,
    unit: &str,
    field: &str,
) -> Result<(), Problem> {
    check(allowed.contains(&v), field, || {
        format!(
            "must be from {} to {}{unit}, got {v}",
            allowed.start(),
            allowed.end()
        )
    })
}

impl Problem {
    /// The problem with a reason added to its message.
    fn because(self, reason: &str) -> Problem {
        Problem {
            message: format!("{} ({reason})", self.message),
            ..self
        }
    }
}

fn check_range(r: Range, field: &str, lo: u16, hi: u16) -> Result<(), Problem> {
    check(r.min <= r.max, field, || {
        format!("is empty: min {} is greater than max {}", r.min, r.max)
    })?;
    // Field names are only spelled out for a problem: validating a good
    // config (as the generator does for every level) allocates nothing.
    if r.min < lo {
        return check(false, &format!("{field}.min"), || {
            format!("must be at least {lo}, got {}", r.min)
        });
    }
    if r.max > hi {
        return check(false, &format!("{field}.max"), || {
            format!("must be at most {hi} for this level size, got {}", r.max)
        });
    }
    Ok(())
}

fn check_fraction(v: f64, field: &str) -> Result<(), Problem> {
    check(v.is_finite() && (0.0..=1.0).contains(&v), field, || {
        format!("must be a number from 0 to 1, got {v}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ConfigError {
        Config::from_ron(text, "mine.ron").unwrap_err()
    }

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

    #[test]
    fn three_fields_are_a_complete_config() {
        let c = Config::from_ron("(width: 80, height: 21, levels: 3)", "x").unwrap();
        assert_eq!((c.width, c.height, c.levels), (80, 21, 3));
        assert_eq!(c.rooms, RoomConfig::default());
    }

    #[test]
    fn empty_struct_is_the_default() {
        assert_eq!(Config::from_ron("()", "x").unwrap(), Config::default());
    }

    #[test]
    fn defaults_validate() {
        Config::default().validate().unwrap();
    }

    #[test]
    fn round_trips_through_ron() {
        let c = Config::default();
        assert_eq!(Config::from_ron(&c.to_ron(), "x").unwrap(), c);
    }

    /// Every profile has the same keys: an error found while parsing one
    /// names its entry, as an error found by the checks does.
    #[test]
    fn parse_errors_inside_a_profile_name_its_entry() {
        let text = |second: &str| {
            format!(
                "(levels: 3,\n profiles: [\n  (depths: (min: 1, max: 1)),\n  (depths: (min: 2), {second}),\n ])"
            )
        };
        for (second, want) in [
            (
                "rooms: (count: (max: 12), wdith: 3)",
                "mine.ron:4:48: profiles[1].rooms.wdith: unknown field \"wdith\", expected one of",
            ),
            (
                "rooms: (count: (max: 12.5))",
                "mine.ron:4:45: profiles[1].rooms.count.max: this field takes a whole number",
            ),
            (
                "corridors: Tunel",
                "mine.ron:4:33: profiles[1].corridors: unexpected variant named `Tunel`",
            ),
            (
                "extra_loops: (ratio: 2.0, ratio: 3.0)",
                "mine.ron:4:48: profiles[1].extra_loops.ratio: field \"ratio\" appears twice",
            ),
            (
                "width: 100",
                "mine.ron:4:22: profiles[1].width: `width` is not a profile's to set: width, height \
                 and levels belong to the whole stack",
            ),
            (
                "rooms: (count: (max: 99999999999))",
                "mine.ron:4:43: profiles[1].rooms.count.max: at depths 2 and deeper: must be at most",
            ),
        ] {
            let e = err(&text(second)).to_string();
            assert!(e.starts_with(want) || e.contains(want), "{second}: {e}");
        }
        // Outside the list, paths are as they were.
        let e = err("(rooms: (wdith: 3), profiles: [(depths: (min: 1))])").to_string();
        assert!(
            e.starts_with("mine.ron:1:10: rooms.wdith: unknown field"),
            "{e}"
        );
        // An unclosed profile names its entry too.
        let e = err("(profiles: [(depths: (min: 1)), (rooms: (count: (min: 3)").to_string();
        assert!(
            e.contains("profiles[1].rooms: the file ends before the `(` at 1:41"),
            "{e}"
        );
    }

    #[test]
    fn unknown_field_names_file_line_column_and_path() {
        let e = err("(\n  rooms: (\n    max_rom: 3,\n  ),\n)");
        let s = e.to_string();
        assert!(
            s.starts_with("mine.ron:3:5: rooms.max_rom: unknown field \"max_rom\""),
            "{s}"
        );
        assert!(s.contains("\"count\""), "{s}");
        assert_eq!(e.field(), Some("rooms.max_rom"));
    }

    #[test]
    fn unknown_top_level_field() {
        let s = err("(widht: 80)").to_string();
        assert!(
            s.starts_with("mine.ron:1:2: widht: unknown field \"widht\""),
            "{s}"
        );
    }

    #[test]
    fn type_errors_name_the_field() {
        let e = err("(\n  width: \"wide\",\n)");
        assert_eq!(e.field(), Some("width"));
        assert!(e.to_string().starts_with("mine.ron:2:"), "{e}");
        let e = err("(rooms: (count: (min: -3, max: 4)))");
        assert_eq!(e.field(), Some("rooms.count.min"), "{e}");
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let e = err("(width: 80,\n height: 21");
        assert!(e.to_string().starts_with("mine.ron:2:"), "{e}");
    }

    #[test]
    fn validation_points_at_the_offending_line() {
        let e = err("(\n  width: 80,\n  height: 10,\n)");
        assert_eq!(
            e.to_string(),
            "mine.ron:3:3: height: must be from 15 to 2000, got 10"
        );
    }

    #[test]
    fn empty_range_refused() {
        let e = err("(rooms: (\n width: (min: 9, max: 4)))");
        assert_eq!(e.field(), Some("rooms.width"));
        assert!(e.to_string().starts_with("mine.ron:2:2:"), "{e}");
        assert!(e.to_string().contains("is empty"), "{e}");
    }

    #[test]
    fn nan_and_out_of_range_fractions_refused() {
        for v in ["NaN", "inf", "-0.5", "1.5"] {
            let e = err(&format!("(rooms: (circle_share: {v}))"));
            assert_eq!(e.field(), Some("rooms.circle_share"), "{v}: {e}");
        }
        let e = err("(tunnel: (hardness_weight: NaN))");
        assert_eq!(e.field(), Some("tunnel.hardness_weight"));
    }

    #[test]
    fn negative_numbers_refused() {
        let e = err("(levels: -1)");
        assert_eq!(e.field(), Some("levels"), "{e}");
    }

    #[test]
    fn room_minimum_that_cannot_fit_says_why() {
        let e = err("(width: 30, height: 15, rooms: (count: (min: 60, max: 60)))");
        let s = e.to_string();
        assert_eq!(e.field(), Some("rooms.count.min"));
        assert!(s.contains("cannot fit"), "{s}");
        assert!(s.contains("30x15"), "{s}");
    }

    #[test]
    fn default_field_error_points_at_nearest_written_parent() {
        // A field left to its default is located at its nearest written
        // ancestor, or at the start of the file.
        let idx = FieldIndex::scan("(\n  rooms: (circle_share: 0.1),\n)");
        assert_eq!(idx.locate("rooms.count.min"), (2, 3));
        assert_eq!(idx.locate("tunnel.open_cost"), (1, 1));
    }

    #[test]
    fn big_levels_accepted() {
        Config::from_ron("(width: 1000, height: 1000)", "x").unwrap();
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let e = err("(/* ü */ tunnel: (step_cost: 0))");
        assert!(
            e.to_string().starts_with("mine.ron:1:19: tunnel.step_cost"),
            "{e}"
        );
        let e = err("(/* éééééééééé */ rooms: (count: (min: 5, max: 40)), width: \"x\")");
        assert_eq!(e.field(), Some("width"), "{e}");
        let e = err("(/* éééééééééééééééééééé */ rooms: (count: (min: 1, max: 9), foo: 1))");
        assert_eq!(e.field(), Some("rooms.foo"), "{e}");
    }

    #[test]
    fn errors_after_a_closed_struct_blame_no_field_inside_it() {
        let e = err("(rooms: (max_doors: 3))  garbage");
        assert_eq!(e.field(), None, "{e}");
        let e = err("(rooms: (max_doors: 3)");
        assert_ne!(e.field(), Some("rooms.max_doors"), "{e}");
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let c = Config::from_ron("\u{feff}(width: 80, height: 21)", "x").unwrap();
        assert_eq!(c.width, 80);
        let e = err("\u{feff}(width: 10)");
        assert!(e.to_string().starts_with("mine.ron:1:2: width"), "{e}");
    }

    #[test]
    fn comment_between_key_and_colon() {
        let e = err("(width: 80, height /* short */ : 10)");
        assert!(e.to_string().starts_with("mine.ron:1:13: height"), "{e}");
    }

    #[test]
    fn overflowing_room_sizes_are_judged_correctly() {
        // 257x257 discs must not wrap round to look small.
        let text = "(width: 2000, height: 2000, levels: 1, rooms: (count: (min: 300, max: 300), \
                    width: (min: 30, max: 30), height: (min: 30, max: 30), circle_share: 0.5, \
                    circle_radius: (min: 128, max: 128)))";
        Config::from_ron(text, "x").unwrap();
    }

    #[test]
    fn effort_and_size_are_bounded() {
        assert_eq!(
            err("(rooms: (give_up_streak: 4294967295))").field(),
            Some("rooms.give_up_streak")
        );
        assert_eq!(
            err("(rooms: (attempts_per_room: 60000))").field(),
            Some("rooms.attempts_per_room")
        );
        assert_eq!(
            err("(width: 2000, height: 2000, levels: 1000)").field(),
            Some("levels")
        );
        assert_eq!(
            err("(tunnel: (turn_penalty: 65535))").field(),
            Some("tunnel.turn_penalty")
        );
    }

    #[test]
    fn a_range_may_give_one_bound() {
        let c = Config::from_ron("(rooms: (count: (max: 20), width: (min: 5)))", "x").unwrap();
        assert_eq!(c.rooms.count, Range::new(5, 20));
        assert_eq!(c.rooms.width, Range::new(5, 14));
        let e = err("(rooms: (count: (mix: 20)))");
        assert_eq!(e.field(), Some("rooms.count.mix"), "{e}");
    }

    #[test]
    fn decimals_in_whole_number_fields_say_so() {
        let e = err("(width: 80.5)");
        assert!(e.to_string().contains("whole number"), "{e}");
        assert_eq!(e.field(), Some("width"));
        let e = err("(width: 8O)");
        assert!(e.to_string().contains("found `O`"), "{e}");
    }

    #[test]
    fn messages_do_not_name_rust_types() {
        for text in ["(rooms: 3)", "[1, 2]", "(rooms: (count: 4))"] {
            let e = err(text).to_string();
            assert!(
                !e.contains("RoomConfig") && !e.contains("Range`") && !e.contains("`Config`"),
                "{e}"
            );
        }
    }

    #[test]
    fn layout_options_are_validated_and_located() {
        let e = err("(\n  corridors: Grid,\n  grid_spacing: 2,\n)");
        assert_eq!(
            e.to_string(),
            "mine.ron:3:3: grid_spacing: must be from 3 to 64 cells, got 2"
        );
        let e = err("(extra_loops: (count: 2, ratio: 1.0))");
        assert_eq!(e.field(), Some("extra_loops.ratio"), "{e}");
        assert!(e.to_string().starts_with("mine.ron:1:26:"), "{e}");
        assert_eq!(
            err("(extra_loops: (ratio: NaN))").field(),
            Some("extra_loops.ratio")
        );
        assert_eq!(
            err("(extra_loops: (max_length: 0))").field(),
            Some("extra_loops.max_length")
        );
        assert_eq!(
            err("(grid_segment: (min: 5, max: 2))").field(),
            Some("grid_segment")
        );
        let e = err("(corridors: Maze)");
        assert_eq!(e.field(), Some("corridors"), "{e}");
        assert!(e.to_string().contains("Straight"), "{e}");
        let e = err("(dead_ends: Trim)");
        assert_eq!(e.field(), Some("dead_ends"), "{e}");
        let e = err("(\n  corridors: Grid,\n  rooms: (max_doors: 1),\n)");
        assert_eq!(e.field(), Some("rooms.max_doors"), "{e}");
        assert!(e.to_string().starts_with("mine.ron:3:11:"), "{e}");
    }

    #[test]
    fn layout_options_parse_with_partial_ranges() {
        let c = Config::from_ron(
            "(corridors: DeadEnd, grid_segment: (max: 9), rooms_may_overlap: true, \
             extra_loops: (count: 3), dead_ends: Prune)",
            "x",
        )
        .unwrap();
        assert_eq!(c.corridors, CorridorStyle::DeadEnd);
        assert_eq!(c.grid_segment, Range::new(3, 9));
        assert!(c.rooms_may_overlap);
        assert_eq!(c.extra_loops.count, 3);
        assert_eq!(c.extra_loops.ratio, LoopConfig::default().ratio);
        assert_eq!(c.dead_ends, DeadEndPolicy::Prune);
        assert_eq!(Config::from_ron(&c.to_ron(), "x").unwrap(), c);
    }

    #[test]
    fn field_index_paths() {
        let idx = FieldIndex::scan("(a: 1, b: (c: (d: 2), e: [1, 2]), // f: 3\n g: \"h: i\")");
        let paths: Vec<&str> = idx.keys.iter().map(|k| k.0.as_str()).collect();
        assert_eq!(paths, ["a", "b", "b.c", "b.c.d", "b.e", "g"]);
    }
}

#[cfg(test)]
mod default_file {
    use super::*;

    #[test]
    fn data_default_ron_matches_the_built_in_defaults() {
        // Field for field the built-in defaults, but for the shipped
        // progression of profiles, which the built-in config lacks.
        let text = include_str!("../data/default.ron");
        let parsed = Config::from_ron(text, "data/default.ron").unwrap();
        assert!(parsed.profiles.len() >= 3, "{:?}", parsed.profiles);
        assert_eq!(
            Config {
                profiles: Vec::new(),
                ..parsed.clone()
            },
            Config::default()
        );
        assert_eq!(Config::shipped(), parsed);
    }

    #[test]
    fn the_shipped_progression_varies_the_style_with_depth() {
        let c = Config::shipped();
        let styles: Vec<CorridorStyle> = (1..=c.levels).map(|d| c.at_depth(d).corridors).collect();
        assert_eq!(styles[0], CorridorStyle::Tunnel);
        assert_eq!(styles[4], CorridorStyle::Grid);
        assert_eq!(styles[9], CorridorStyle::DeadEnd);
        // Deeper stacks stay mazes.
        assert_eq!(c.at_depth(40).corridors, CorridorStyle::DeadEnd);
    }

    #[test]
    fn data_default_ron_writes_every_field() {
        // Every field the serialiser knows appears in the shipped file.
        let text = include_str!("../data/default.ron");
        let fields = FieldIndex::scan(&Config::default().to_ron());
        let shipped = FieldIndex::scan(text);
        for (path, ..) in &fields.keys {
            assert!(
                shipped.keys.iter().any(|k| &k.0 == path),
                "data/default.ron lacks {path}"
            );
        }
    }
}
