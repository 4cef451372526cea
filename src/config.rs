//! Every tunable of the generator, read from RON.
//!
//! Parsing has two stages, as in ripgrep's flag handling: serde turns the text
//! into a [`Config`] (fields left out take their defaults, unknown fields are
//! refused), then [`Config::validate`] checks what the values mean together.
//! Both stages report `file:line:column: field: problem`, because a person
//! editing a config file needs to know where to look, not just what is wrong.
//!
//! This module and the save module are the only ones that touch the file
//! system; everything else receives a validated `Config`.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::sim::{KindProblem, MonsterKind};

/// Smallest level that still holds a couple of rooms and corridors.
pub const MIN_WIDTH: u16 = 30;
pub const MIN_HEIGHT: u16 = 15;
/// Largest level side. A stored level is two bytes a cell (8 MB at
/// 2000x2000); generating one needs about 30 bytes a cell of search buffers
/// for a moment, so 2000x2000 peaks near 120 MB a core.
pub const MAX_SIDE: u16 = 2000;
pub const MAX_LEVELS: u16 = 1000;
/// Cells of all levels together: a whole stack is kept in memory, and its
/// ASCII drawing is about a byte a cell.
pub const MAX_TOTAL_CELLS: u64 = 64_000_000;
/// Bounds on placement effort, so a config cannot ask for hours of retries.
pub const MAX_ATTEMPTS_PER_ROOM: u16 = 10_000;
pub const MAX_GIVE_UP_STREAK: u32 = 100_000;
/// Bound on each corridor cost, so path sums stay far from overflow.
pub const MAX_COST: u16 = 10_000;
/// Rooms are numbered with `u16` in the level graph.
pub const MAX_ROOMS: u16 = 4096;
/// 003: a room has up to eight doors.
pub const MAX_DOORS: u8 = 8;
/// Bounds on the `Grid` style's geometry and on extra loops.
pub const MAX_GRID_SPACING: u16 = 64;
pub const MAX_GRID_SEGMENT: u16 = 64;
pub const MAX_LOOPS: u16 = 1000;
/// 002: a room is at least 3 cells wide and 2 tall.
pub const MIN_ROOM_WIDTH: u16 = 3;
pub const MIN_ROOM_HEIGHT: u16 = 2;

/// An inclusive range of whole numbers, written `(min: 5, max: 40)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub min: u16,
    pub max: u16,
}

impl Range {
    pub const fn new(min: u16, max: u16) -> Self {
        Range { min, max }
    }
}

/// The whole configuration of a run. See `data/default.ron` for what each
/// field does; the defaults here and that file must agree (a test checks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub width: u16,
    pub height: u16,
    pub levels: u16,
    pub rooms: RoomConfig,
    pub hardness: HardnessConfig,
    pub tunnel: TunnelConfig,
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
    pub extra_loops: LoopConfig,
    pub dead_ends: DeadEndPolicy,
    pub simulation: SimulationConfig,
    pub generation_retries: u16,
}

/// How the rooms of a level are joined.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// What happens to corridors that lead nowhere.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeadEndPolicy {
    Keep,
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

impl Default for LoopConfig {
    fn default() -> Self {
        LoopConfig {
            count: 0,
            ratio: 5.0,
            max_length: 4,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "RoomFields", into = "RoomFields")]
pub struct RoomConfig {
    pub count: Range,
    pub width: Range,
    pub height: Range,
    pub circle_share: f64,
    pub circle_radius: Range,
    pub attempts_per_room: u16,
    pub give_up_streak: u32,
    pub max_floor_share: f64,
    pub max_doors: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HardnessConfig {
    pub feature_size: u16,
    pub octaves: u8,
    pub persistence: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TunnelConfig {
    pub step_cost: u16,
    pub soft_below: u16,
    pub hardness_weight: f64,
    pub turn_penalty: u16,
    pub open_cost: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StairsConfig {
    pub per_level: u8,
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
mod grid_segment_field {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{PartialRange, Range};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        PartialRange {
            min: Some(r.min),
            max: Some(r.max),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        Ok(PartialRange::deserialize(d)?.or(Range::new(3, 6)))
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
pub enum Goal {
    /// Every monster of every level dead (001).
    KillAll,
    /// Standing on the deepest level.
    ReachBottom,
}

/// The rules of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimulationConfig {
    pub lives: u8,
    pub sight_radius: u8,
    pub perception_radius: u8,
    pub player_speed: u8,
    pub monsters_first_level: u16,
    pub monsters_per_depth: u16,
    pub monsters_max: u16,
    pub dig_per_turn: u8,
    pub cautious_at_lives: u8,
    pub goal: Goal,
}

impl Default for SimulationConfig {
    fn default() -> Self {
        SimulationConfig {
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
        }
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

/// Where a configuration came from and where in it a problem sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub origin: String,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.origin, self.line, self.column)
    }
}

/// A configuration that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// The text is not RON, or does not have the shape of a config.
    #[error("{location}: {}{}", field_prefix(field), cut_long_values(message))]
    Syntax {
        location: Location,
        field: Option<String>,
        message: String,
    },
    /// The text parsed but a value makes no sense.
    #[error("{location}: {}: {}", cut_long_values(field), cut_long_values(message))]
    Invalid {
        location: Location,
        field: String,
        message: String,
    },
}

fn field_prefix(field: &Option<String>) -> String {
    field
        .as_ref()
        .map(|f| format!("{}: ", cut_long_values(f)))
        .unwrap_or_default()
}

/// Characters of a long value an error keeps.
const KEPT_CHARS: usize = 32;
/// A quoted value longer than this is cut in errors.
const LONG_QUOTED: usize = 48;
/// A word (a run without spaces) longer than this is cut in errors.
const LONG_WORD: usize = 64;

/// An error message with each long value in it cut short: a value in quotes
/// or backticks, or any long word (an unknown field's name, a number), keeps
/// its first characters and says how long it was. A file can hold a value
/// of any size, and echoing 200 KB of it buries the message.
fn cut_long_values(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(1024));
    let mut i = 0;
    let cut = |out: &mut String, value: &[char]| {
        if value.len() > LONG_QUOTED {
            out.extend(&value[..KEPT_CHARS]);
            out.push('…');
        } else {
            out.extend(value);
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '`' {
            // Up to the closing quote (escapes skipped), or the end.
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let value = &chars[i + 1..j.min(chars.len())];
            out.push(c);
            cut(&mut out, value);
            if j < chars.len() {
                out.push(c);
            }
            if value.len() > LONG_QUOTED {
                out.push_str(&format!(" ({} characters)", value.len()));
            }
            i = j + 1;
        } else if !c.is_whitespace() {
            let mut j = i;
            while j < chars.len() && !chars[j].is_whitespace() && chars[j] != '"' && chars[j] != '`'
            {
                j += 1;
            }
            let word = &chars[i..j];
            if word.len() > LONG_WORD {
                out.extend(&word[..KEPT_CHARS]);
                out.push_str(&format!("… ({} characters)", word.len()));
            } else {
                out.extend(word);
            }
            i = j;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

impl ConfigError {
    /// The dotted field path the error is about, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Read { .. } => None,
            ConfigError::Syntax { field, .. } => field.as_deref(),
            ConfigError::Invalid { field, .. } => Some(field),
        }
    }
}

impl Config {
    /// Reads, parses and validates a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let (text, origin) = read_text(path)?;
        Config::from_ron(&text, &origin)
    }

    /// Parses and validates RON text; `origin` names it in errors.
    pub fn from_ron(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let (config, _) = parse(text, origin, check_config)?;
        Ok(config)
    }

    /// The config as RON, every field written out.
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        ron::ser::to_string_pretty(self, pretty).expect("a Config always serialises")
    }
}

/// [`Config::validate`], with the problem located where the file wrote it.
fn check_config(config: &Config, fields: &FieldIndex, origin: &str) -> Result<(), ConfigError> {
    config.validate().map_err(|problem| {
        let blamed = match &problem.instead {
            Some(other) if !fields.is_written(&problem.field) && fields.is_written(other) => other,
            _ => &problem.field,
        };
        let (line, column) = fields.locate(blamed);
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

impl Config {
    /// Checks the meaning of the values. The first problem found is
    /// returned with the dotted path of the field it is about.
    pub fn validate(&self) -> Result<(), Problem> {
        let c = self;
        let r = &c.rooms;
        check((MIN_WIDTH..=MAX_SIDE).contains(&c.width), "width", || {
            format!("must be from {MIN_WIDTH} to {MAX_SIDE}, got {}", c.width)
        })?;
        check(
            (MIN_HEIGHT..=MAX_SIDE).contains(&c.height),
            "height",
            || format!("must be from {MIN_HEIGHT} to {MAX_SIDE}, got {}", c.height),
        )?;
        check((1..=MAX_LEVELS).contains(&c.levels), "levels", || {
            format!("must be from 1 to {MAX_LEVELS}, got {}", c.levels)
        })?;
        let total = u64::from(c.width) * u64::from(c.height) * u64::from(c.levels);
        check(total <= MAX_TOTAL_CELLS, "levels", || {
            format!(
                "{} levels of {}x{} are {total} cells, more than the {MAX_TOTAL_CELLS} a run may hold; \
                 use fewer or smaller levels",
                c.levels, c.width, c.height
            )
        })?;
        check_range(r.count, "rooms.count", 1, MAX_ROOMS)?;
        // Rooms stay off the border, so the inner area bounds their size.
        check_range(r.width, "rooms.width", MIN_ROOM_WIDTH, c.width - 2)?;
        check_range(r.height, "rooms.height", MIN_ROOM_HEIGHT, c.height - 2)?;
        check_fraction(r.circle_share, "rooms.circle_share")?;
        if r.circle_share > 0.0 {
            let inner = (c.width.min(c.height) - 3) / 2;
            check_range(r.circle_radius, "rooms.circle_radius", 1, inner)?;
        }
        check(
            (1..=MAX_ATTEMPTS_PER_ROOM).contains(&r.attempts_per_room),
            "rooms.attempts_per_room",
            || {
                format!(
                    "must be from 1 to {MAX_ATTEMPTS_PER_ROOM}, got {}",
                    r.attempts_per_room
                )
            },
        )?;
        check(
            (1..=MAX_GIVE_UP_STREAK).contains(&r.give_up_streak),
            "rooms.give_up_streak",
            || {
                format!(
                    "must be from 1 to {MAX_GIVE_UP_STREAK}, got {}",
                    r.give_up_streak
                )
            },
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
        check(
            (1..=MAX_DOORS).contains(&r.max_doors),
            "rooms.max_doors",
            || format!("must be from 1 to {MAX_DOORS}, got {}", r.max_doors),
        )?;

        let h = &c.hardness;
        check(
            (1..=1024).contains(&h.feature_size),
            "hardness.feature_size",
            || format!("must be from 1 to 1024 cells, got {}", h.feature_size),
        )?;
        check((1..=8).contains(&h.octaves), "hardness.octaves", || {
            format!("must be from 1 to 8, got {}", h.octaves)
        })?;
        check_fraction(h.persistence, "hardness.persistence")?;

        let t = &c.tunnel;
        check(
            (1..=MAX_COST).contains(&t.step_cost),
            "tunnel.step_cost",
            || {
                format!(
                    "must be from 1 to {MAX_COST}, got {} (every step has a cost)",
                    t.step_cost
                )
            },
        )?;
        check(t.turn_penalty <= MAX_COST, "tunnel.turn_penalty", || {
            format!("must be from 0 to {MAX_COST}, got {}", t.turn_penalty)
        })?;
        check(t.soft_below <= 254, "tunnel.soft_below", || {
            format!("must be from 0 to 254, got {}", t.soft_below)
        })?;
        check(
            t.hardness_weight.is_finite() && (0.0..=16.0).contains(&t.hardness_weight),
            "tunnel.hardness_weight",
            || format!("must be a number from 0 to 16, got {}", t.hardness_weight),
        )?;
        check(
            (1..=MAX_COST).contains(&t.open_cost),
            "tunnel.open_cost",
            || format!("must be from 1 to {MAX_COST}, got {}", t.open_cost),
        )?;

        let s = &c.stairs;
        check((1..=8).contains(&s.per_level), "stairs.per_level", || {
            format!("must be from 1 to 8, got {}", s.per_level)
        })?;
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
        check(
            (3..=MAX_GRID_SPACING).contains(&c.grid_spacing),
            "grid_spacing",
            || {
                format!(
                    "must be from 3 to {MAX_GRID_SPACING} cells, got {}",
                    c.grid_spacing
                )
            },
        )?;
        check_range(c.grid_segment, "grid_segment", 1, MAX_GRID_SEGMENT)?;
        // Grid and DeadEnd join rooms only through corridors that leave
        // doors: with one door a room, at most one corridor may end at a
        // room, and the rest would all have to meet other corridors.
        if matches!(c.corridors, CorridorStyle::Grid | CorridorStyle::DeadEnd) && r.max_doors < 2 {
            return Err(Problem {
                field: "rooms.max_doors".into(),
                message: format!(
                    "must be at least 2 with corridors: {:?} (it is {}): that style joins rooms by \
                     corridors growing out of doors, which one door a room cannot do; raise \
                     rooms.max_doors or use Tunnel or Straight",
                    c.corridors, r.max_doors
                ),
                instead: None,
            });
        }
        let l = &c.extra_loops;
        check(l.count <= MAX_LOOPS, "extra_loops.count", || {
            format!("must be from 0 to {MAX_LOOPS}, got {}", l.count)
        })?;
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
        check(
            (1..=16).contains(&l.max_length),
            "extra_loops.max_length",
            || format!("must be from 1 to 16, got {}", l.max_length),
        )?;
        let sim = &c.simulation;
        check((1..=99).contains(&sim.lives), "simulation.lives", || {
            format!("must be from 1 to 99, got {}", sim.lives)
        })?;
        check(
            (1..=40).contains(&sim.sight_radius),
            "simulation.sight_radius",
            || format!("must be from 1 to 40, got {}", sim.sight_radius),
        )?;
        check(
            (1..=40).contains(&sim.perception_radius),
            "simulation.perception_radius",
            || format!("must be from 1 to 40, got {}", sim.perception_radius),
        )?;
        check(
            (5..=20).contains(&sim.player_speed),
            "simulation.player_speed",
            || format!("must be from 5 to 20, got {}", sim.player_speed),
        )?;
        check(sim.monsters_max <= 1000, "simulation.monsters_max", || {
            format!("must be at most 1000, got {}", sim.monsters_max)
        })?;
        check(sim.dig_per_turn >= 1, "simulation.dig_per_turn", || {
            "must be at least 1, or tunnellers never get through".into()
        })?;
        check(c.generation_retries >= 1, "generation_retries", || {
            "must be at least 1".into()
        })?;

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

/// The config as a run's digest sees it: the fields of save format 1 in
/// their order, then each field added since, left out while it holds the
/// value that reproduces format 1's generator. So a run's digest does not
/// change because delve learnt new options, a format-1 save loads to the
/// digest it was made with, and two configs still digest alike only when
/// they are equal.
#[derive(Serialize)]
pub(crate) struct DigestConfig<'a> {
    width: u16,
    height: u16,
    levels: u16,
    rooms: &'a RoomConfig,
    hardness: &'a HardnessConfig,
    tunnel: &'a TunnelConfig,
    stairs: &'a StairsConfig,
    simulation: &'a SimulationConfig,
    generation_retries: u16,
    #[serde(skip_serializing_if = "is_tunnel")]
    corridors: CorridorStyle,
    #[serde(skip_serializing_if = "is_six")]
    grid_spacing: u16,
    #[serde(
        skip_serializing_if = "is_three_to_six",
        serialize_with = "grid_segment_field::serialize"
    )]
    grid_segment: Range,
    #[serde(skip_serializing_if = "is_false")]
    rooms_may_overlap: bool,
    #[serde(skip_serializing_if = "no_loops")]
    extra_loops: &'a LoopConfig,
    #[serde(skip_serializing_if = "is_keep")]
    dead_ends: DeadEndPolicy,
}

fn is_tunnel(s: &CorridorStyle) -> bool {
    *s == CorridorStyle::Tunnel
}
fn is_six(v: &u16) -> bool {
    *v == 6
}
fn is_three_to_six(r: &Range) -> bool {
    *r == Range::new(3, 6)
}
fn is_false(b: &bool) -> bool {
    !*b
}
fn no_loops(l: &&LoopConfig) -> bool {
    **l == LoopConfig::default()
}
fn is_keep(p: &DeadEndPolicy) -> bool {
    *p == DeadEndPolicy::Keep
}

impl Config {
    pub(crate) fn digest_view(&self) -> DigestConfig<'_> {
        DigestConfig {
            width: self.width,
            height: self.height,
            levels: self.levels,
            rooms: &self.rooms,
            hardness: &self.hardness,
            tunnel: &self.tunnel,
            stairs: &self.stairs,
            simulation: &self.simulation,
            generation_retries: self.generation_retries,
            corridors: self.corridors,
            grid_spacing: self.grid_spacing,
            grid_segment: self.grid_segment,
            rooms_may_overlap: self.rooms_may_overlap,
            extra_loops: &self.extra_loops,
            dead_ends: self.dead_ends,
        }
    }

    /// How many staircases lead up and down from the level at `depth`: the
    /// k-th down staircase of a depth and the k-th up staircase of the next
    /// lead to each other, so neighbours have matching counts. Depth 1 has
    /// an up staircase (out of the dungeon) only with
    /// `exit_on_first_level`; the deepest level has none down.
    pub fn stair_counts(&self, depth: u16) -> (usize, usize) {
        let per = usize::from(self.stairs.per_level);
        let up = if depth > 1 {
            per
        } else {
            usize::from(self.stairs.exit_on_first_level)
        };
        let down = if depth < self.levels { per } else { 0 };
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

/// Reads a UTF-8 text file, naming it in errors.
fn read_text(path: &Path) -> Result<(String, String), ConfigError> {
    let origin = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| ConfigError::Read {
        path: origin.clone(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_col_of_byte(e.as_bytes(), e.utf8_error().valid_up_to());
        ConfigError::Syntax {
            location: Location {
                origin: origin.clone(),
                line,
                column,
            },
            field: None,
            message: "the file is not valid UTF-8".into(),
        }
    })?;
    Ok((text, origin))
}

/// How a file's values are checked once parsed: errors located with the
/// file's index, named by its origin.
type Check<T> = fn(&T, &FieldIndex, &str) -> Result<(), ConfigError>;

/// Parses RON into `T` and checks it, keeping an index of where each field
/// was written.
fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
    check: Check<T>,
) -> Result<(T, FieldIndex), ConfigError> {
    // Editors on Windows often start files with a byte-order mark;
    // it is not content, and columns are counted without it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fields = FieldIndex::scan(text);
    let value = read_ron::<T>(text).map_err(|e| match e.code {
        ron::error::Error::IntegerOutOfBounds => out_of_bounds(&e, text, origin, &fields, check)
            .unwrap_or_else(|| syntax_error(e, text, origin, &fields)),
        _ => syntax_error(e, text, origin, &fields),
    })?;
    check(&value, &fields, origin)?;
    Ok((value, fields))
}

fn read_ron<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
}

/// A number too large (or too negative) for its field's type: ron says only
/// "integer is out of bounds". This finds the type's range by trying its
/// bounds in the number's place, then puts the nearer bound there and runs
/// the file's own checks, so the error gives the range the field allows
/// (`width: must be from 30 to 2000, got -80`) exactly as for a number that
/// fits the type; when the checks allow the type's whole range, it gives
/// that. `None` if the number cannot be found in the text.
fn out_of_bounds<T: serde::de::DeserializeOwned>(
    e: &ron::error::SpannedError,
    text: &str,
    origin: &str,
    fields: &FieldIndex,
    check: Check<T>,
) -> Option<ConfigError> {
    let digits = fields.offset(e.span.start.line, e.span.start.col);
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '+';
    let start = text[..digits.min(text.len())]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| part(c))
        .last()
        .map_or(digits, |(i, _)| i);
    let end = text[start..]
        .char_indices()
        .find(|&(i, c)| i > 0 && !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(text.len(), |(i, _)| start + i);
    let literal = &text[start..end];
    if literal.is_empty() {
        return None;
    }
    let with = |value: &str| format!("{}{value}{}", &text[..start], &text[end..]);
    // Whether a value in the number's place fits the type: parsing fails, if
    // at all, somewhere else.
    let fits = |value: &str| match read_ron::<T>(&with(value)) {
        Err(e) if e.code == ron::error::Error::IntegerOutOfBounds => {
            let at = fields.offset(e.span.start.line, e.span.start.col);
            !(start..=start + value.len()).contains(&at)
        }
        _ => true,
    };
    let max = [
        "127",
        "255",
        "32767",
        "65535",
        "2147483647",
        "4294967295",
        "9223372036854775807",
        "18446744073709551615",
    ]
    .into_iter()
    .take_while(|v| fits(v))
    .last()?;
    let min = if fits("-1") {
        format!("-{}", max.parse::<u128>().ok()? + 1)
    } else {
        "0".to_string()
    };
    let nearer = if literal.starts_with('-') {
        min.as_str()
    } else {
        max
    };
    let (line, column) = fields.line_col(start);
    let key = fields
        .enclosing(line, column)
        .map(|k| (k.0.clone(), k.1, k.2));
    // The file's checks, with the bound in the number's place, on the same
    // key (a list repeats its keys, so the key's place tells them apart).
    let substituted = with(nearer);
    let sub_fields = FieldIndex::scan(&substituted);
    let checked = read_ron::<T>(&substituted)
        .ok()
        .map(|value| check(&value, &sub_fields, origin));
    let location = Location {
        origin: origin.into(),
        line,
        column,
    };
    if let (
        Some(Err(ConfigError::Invalid {
            location: at,
            field,
            message,
        })),
        Some((_, key_line, key_column)),
    ) = (checked, &key)
        && (at.line, at.column) == (*key_line, *key_column)
    {
        let got = format!("got {nearer}");
        let message = match message.find(&got) {
            Some(i) if !message[i + got.len()..].starts_with(|c: char| c.is_ascii_digit()) => {
                format!(
                    "{}got {literal}{}",
                    &message[..i],
                    &message[i + got.len()..]
                )
            }
            _ => format!("{message} (got {literal})"),
        };
        return Some(ConfigError::Invalid {
            location,
            field,
            message,
        });
    }
    // The type's bound on the side the number went past: the other may be
    // narrower than the type's, and the checks did not say.
    let message = if literal.starts_with('-') {
        format!("must be at least {min}, got {literal}")
    } else {
        format!("must be at most {max}, got {literal}")
    };
    Some(match key {
        Some((field, ..)) => ConfigError::Invalid {
            location,
            field,
            message,
        },
        None => ConfigError::Syntax {
            location,
            field: None,
            message,
        },
    })
}

/// Parses RON text into `T`, with errors located like config errors; the
/// returned index finds where fields were written, for later checks.
pub(crate) fn parse_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
) -> Result<(T, FieldIndex), ConfigError> {
    parse(text, origin, |_, _, _| Ok(()))
}

/// Reads, parses and checks a keymap (`data/keymap.ron`).
pub fn load_keymap(path: &Path) -> Result<crate::view::Keymap, ConfigError> {
    let (text, origin) = read_text(path)?;
    crate::view::Keymap::from_ron(&text, &origin)
}

/// Reads, parses and validates a monster list (`data/monsters.ron`).
pub fn load_monsters(path: &Path) -> Result<Vec<MonsterKind>, ConfigError> {
    let (text, origin) = read_text(path)?;
    monsters_from_ron(&text, &origin)
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
    let invalid = |i: usize, field: &str, message: String| {
        let (line, column) = fields.locate_nth(field, i);
        ConfigError::Invalid {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field: format!("[{i}].{field}"),
            message,
        }
    };
    match MonsterKind::check_list(kinds) {
        Ok(()) => {}
        Err(KindProblem {
            index: Some(i),
            field,
            message,
        }) => return Err(invalid(i, field, message)),
        Err(KindProblem { field, message, .. }) => {
            return Err(ConfigError::Invalid {
                location: Location {
                    origin: origin.into(),
                    line: 1,
                    column: 1,
                },
                field: field.into(),
                message,
            });
        }
    }
    Ok(())
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub field: String,
    pub message: String,
    /// Another field that shares the blame; errors point at it when the
    /// file writes it and not `field`.
    pub instead: Option<String>,
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

fn check_range(r: Range, field: &str, lo: u16, hi: u16) -> Result<(), Problem> {
    check(r.min <= r.max, field, || {
        format!("is empty: min {} is greater than max {}", r.min, r.max)
    })?;
    check(r.min >= lo, &format!("{field}.min"), || {
        format!("must be at least {lo}, got {}", r.min)
    })?;
    check(r.max <= hi, &format!("{field}.max"), || {
        format!("must be at most {hi} for this level size, got {}", r.max)
    })
}

fn check_fraction(v: f64, field: &str) -> Result<(), Problem> {
    check(v.is_finite() && (0.0..=1.0).contains(&v), field, || {
        format!("must be a number from 0 to 1, got {v}")
    })
}

fn syntax_error(
    e: ron::error::SpannedError,
    text: &str,
    origin: &str,
    fields: &FieldIndex,
) -> ConfigError {
    use ron::error::Error as E;
    let _ = text;
    // ron's span runs from the value it was reading to where it stopped; a
    // missing comma or bracket is where it stopped, not the value before.
    let stopped = (e.span.end.line.max(1), e.span.end.col.max(1));
    let ended = match e.code {
        E::Eof => true,
        E::ExpectedComma
        | E::ExpectedMapColon
        | E::ExpectedArrayEnd
        | E::ExpectedMapEnd
        | E::ExpectedStructLikeEnd
        | E::ExpectedOptionEnd
        | E::ExpectedAttributeEnd => fields.blank_from(stopped.0, stopped.1),
        _ => false,
    };
    if ended {
        // The file stops before what it opened is closed: point at its end,
        // and at the bracket left open.
        let (line, column) = fields.end_of_content();
        let (field, message) = match &fields.unclosed {
            Some((bracket, at, path)) => {
                let (l, c) = fields.line_col(*at);
                let close = match bracket {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                (
                    (!path.is_empty()).then(|| path.clone()),
                    format!(
                        "the file ends before the `{bracket}` at {l}:{c} is closed with `{close}`"
                    ),
                )
            }
            None => (
                None,
                "the file ends before the value is complete".to_string(),
            ),
        };
        return ConfigError::Syntax {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field,
            message,
        };
    }
    let start = e.span.start;
    let (line, column) = match e.code {
        E::ExpectedComma => stopped,
        _ => (start.line.max(1), start.col.max(1)),
    };
    let location = Location {
        origin: origin.into(),
        line,
        column,
    };
    let enclosing = fields.enclosing(line, column);
    let (field, message) = match &e.code {
        E::NoSuchStructField {
            expected, found, ..
        } => {
            let parent = enclosing.map(|p| p.0.clone()).unwrap_or_default();
            let parent = parent_of(&parent, fields, line, column, found);
            let path = join(&parent, found);
            let message = format!(
                "unknown field \"{found}\", expected one of {}",
                expected
                    .iter()
                    .map(|s| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            (Some(path), message)
        }
        E::DuplicateStructField { field, .. } => (
            enclosing.map(|p| p.0.clone()),
            format!("field \"{field}\" appears twice"),
        ),
        E::ExpectedComma => {
            let found = fields.char_at(line, column);
            let message = match found {
                Some('.') => "this field takes a whole number, found a decimal point".to_string(),
                Some(c) if !c.is_whitespace() => {
                    format!("expected `,` or a closing bracket, found `{c}`")
                }
                _ => "expected `,` or a closing bracket".to_string(),
            };
            (enclosing.map(|p| p.0.clone()), message)
        }
        other => (
            enclosing.map(|p| p.0.clone()),
            lowercase_first(&without_type_names(&other.to_string())),
        ),
    };
    ConfigError::Syntax {
        location,
        field,
        message,
    }
}

/// For an unknown field, the index holds the unknown key itself as the
/// innermost field at the error; its parent is the struct it sits in.
fn parent_of(
    innermost: &str,
    fields: &FieldIndex,
    line: usize,
    column: usize,
    found: &str,
) -> String {
    match fields.key_at(line, column) {
        Some(path) if path.rsplit('.').next() == Some(found) => path
            .rsplit_once('.')
            .map(|(p, _)| p.to_string())
            .unwrap_or_default(),
        _ => innermost.to_string(),
    }
}

/// The index of the first byte at or after `i` that is neither whitespace
/// nor inside a comment.
fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            match bytes[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(end) => i += 2 + end + 2,
                None => return bytes.len(),
            }
        } else {
            return i;
        }
    }
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// Drops the Rust type names serde and ron put in messages (" for struct
/// `RoomConfig`", " in `Range`"): they mean nothing to someone editing RON.
fn without_type_names(message: &str) -> String {
    let mut out = message.to_string();
    for marker in [" for struct `", " in enum `", " in `"] {
        while let Some(start) = out.find(marker) {
            let rest = &out[start + marker.len()..];
            match rest.find('`') {
                Some(end) => out.replace_range(start..start + marker.len() + end + 1, ""),
                None => break,
            }
        }
    }
    out
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

fn line_col_of_byte(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

/// Where each `key:` of a RON struct stands in the text, with its dotted
/// path (`rooms.count.min`), so errors found after parsing can point at the
/// line that set the value. A small scanner rather than a second parser: it
/// only needs to follow brackets, strings and comments.
#[derive(Debug, Default)]
pub(crate) struct FieldIndex {
    /// (path, line, column of the key, byte offset where its value ends)
    keys: Vec<(String, usize, usize, usize)>,
    /// Byte offset of the start of each line. Columns count characters, as
    /// ron's do, so the text is kept to convert between the two.
    line_starts: Vec<usize>,
    text: String,
    /// The innermost bracket never closed: the bracket, its byte offset, and
    /// the path of the field whose value it opens ("" for none).
    unclosed: Option<(char, usize, String)>,
}

impl FieldIndex {
    fn scan(text: &str) -> FieldIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut index = FieldIndex {
            keys: Vec::new(),
            line_starts,
            text: text.to_string(),
            unclosed: None,
        };
        // Stack of open brackets; for each, the path of the key whose value
        // it opened (or the parent path for brackets not opened by a key),
        // and where it stands.
        let mut stack: Vec<(String, Option<usize>, usize)> = Vec::new();
        let mut pending: Option<usize> = None; // key index whose value is next
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'/' if bytes.get(i + 1) == Some(&b'*') => {
                    let mut depth = 0usize;
                    while i < bytes.len() {
                        if bytes[i..].starts_with(b"/*") {
                            depth += 1;
                            i += 2;
                        } else if bytes[i..].starts_with(b"*/") {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        } else {
                            i += 1;
                        }
                    }
                    continue;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                // A character ('(' is a glyph, not a bracket).
                b'\'' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'[' | b'{' => {
                    let parent = stack.last().map(|s| s.0.clone()).unwrap_or_default();
                    let (path, owner) = match pending.take() {
                        Some(k) => (index.keys[k].0.clone(), Some(k)),
                        None => (parent, None),
                    };
                    stack.push((path, owner, i));
                }
                b')' | b']' | b'}' => {
                    // A struct's last value ends at its closing bracket.
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                    if let Some((_, Some(k), _)) = stack.pop() {
                        index.keys[k].3 = i + 1;
                    }
                }
                b',' => {
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let j = skip_blank(bytes, i);
                    // `key:` but not `key::`, and only directly inside a struct.
                    if bytes.get(j) == Some(&b':')
                        && bytes.get(j + 1) != Some(&b':')
                        && !stack.is_empty()
                    {
                        if let Some(k) = pending.take() {
                            index.keys[k].3 = start;
                        }
                        let parent = stack.last().map(|s| s.0.clone()).unwrap_or_default();
                        let path = join(&parent, &text[start..i]);
                        let (line, column) = index.line_col(start);
                        index.keys.push((path, line, column, usize::MAX));
                        pending = Some(index.keys.len() - 1);
                        i = j + 1;
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        index.unclosed = stack.pop().map(|(path, owner, at)| {
            (
                char::from(bytes[at]),
                at,
                owner.map_or(String::new(), |_| path),
            )
        });
        index
    }

    /// Where the text ends, not counting trailing whitespace: just past its
    /// last character.
    fn end_of_content(&self) -> (usize, usize) {
        self.line_col(self.text.trim_end().len())
    }

    /// Whether nothing but whitespace and comments follows a (line,
    /// character column) position.
    fn blank_from(&self, line: usize, column: usize) -> bool {
        let at = self.offset(line, column).min(self.text.len());
        skip_blank(self.text.as_bytes(), at) >= self.text.len()
    }

    fn line_col(&self, offset: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.text[start..offset].chars().count() + 1)
    }

    /// The byte offset of a (line, character column) position.
    fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return usize::MAX;
        };
        let rest = &self.text[start..];
        match rest.char_indices().nth(column.saturating_sub(1)) {
            Some((i, _)) => start + i,
            None => start + rest.len(),
        }
    }

    /// Where the `n`-th occurrence of a key is written (list entries share
    /// their field paths).
    fn locate_nth(&self, path: &str, n: usize) -> (usize, usize) {
        self.keys
            .iter()
            .filter(|k| k.0 == path)
            .nth(n)
            .map_or((1, 1), |k| (k.1, k.2))
    }

    pub(crate) fn is_written(&self, path: &str) -> bool {
        self.keys.iter().any(|k| k.0 == path)
    }

    /// The character at a (line, character column) position.
    fn char_at(&self, line: usize, column: usize) -> Option<char> {
        self.text.get(self.offset(line, column)..)?.chars().next()
    }

    /// Where the field is set; for a field left to its default, where its
    /// nearest written ancestor is; failing that, the start of the file.
    pub(crate) fn locate(&self, path: &str) -> (usize, usize) {
        let mut p = path;
        loop {
            if let Some(k) = self.keys.iter().rev().find(|k| k.0 == p) {
                return (k.1, k.2);
            }
            match p.rsplit_once('.') {
                Some((parent, _)) => p = parent,
                None => return (1, 1),
            }
        }
    }

    /// The innermost field whose key or value spans the position.
    fn enclosing(&self, line: usize, column: usize) -> Option<&(String, usize, usize, usize)> {
        let at = self.offset(line, column);
        self.keys
            .iter()
            .filter(|k| {
                let start = self.offset(k.1, k.2);
                start <= at && at < k.3
            })
            .max_by_key(|k| self.offset(k.1, k.2))
    }

    /// The field whose key starts exactly at the position.
    fn key_at(&self, line: usize, column: usize) -> Option<&str> {
        self.keys
            .iter()
            .find(|k| k.1 == line && k.2 == column)
            .map(|k| k.0.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> ConfigError {
        Config::from_ron(text, "mine.ron").unwrap_err()
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
    fn data_monsters_ron_matches_the_built_in_kinds() {
        let text = include_str!("../data/monsters.ron");
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

    #[test]
    fn data_default_ron_matches_the_built_in_defaults() {
        let text = include_str!("../data/default.ron");
        let parsed = Config::from_ron(text, "data/default.ron").unwrap();
        assert_eq!(parsed, Config::default());
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
