//! Every tunable of the generator, read from RON.
//!
//! Parsing has two stages, as in ripgrep's flag handling: serde turns the text
//! into a [`Config`] (fields left out take their defaults, unknown fields are
//! refused), then [`Config::validate`] checks what the values mean together.
//! Both stages report `file:line:column: field: problem`, because a person
//! editing a config file needs to know where to look, not just what is wrong.
//!
//! A leaf: it imports nothing of delve's but the RON diagnostics
//! (`ron_diag`) and the dice notation, so every other module may
//! depend on it. Besides [`Config::load`] nothing here touches the file
//! system; everything else receives a validated `Config`. Its child
//! [`profile`] holds the bands of depths that change settings.
//!
//! The sections of a config live in children named for them (`rooms`,
//! `corridors`, `simulation`...); reading a file is `load`, its checks
//! `validate` (with `problem`'s shared helpers), the bounds `limits`.
//! Each is re-exported here, so every path stays `config::X`.

pub mod profile;

mod corridors;
mod hardness;
mod kinds;
mod limits;
mod load;
mod problem;
mod range;
mod revisions;
mod rooms;
mod simulation;
mod stairs;
mod validate;
mod vaults;

pub use crate::ron_diag::{ConfigError, Location, MAX_DATA_FILE_BYTES};

pub use self::corridors::{CorridorStyle, DeadEndPolicy, LoopConfig, RoomLoopConfig, TunnelConfig};
pub use self::hardness::HardnessConfig;
pub use self::kinds::{CaveConfig, LabyrinthConfig, LevelKind};
pub use self::limits::{
    MAX_ATTEMPTS_PER_ROOM, MAX_COST, MAX_DOORS, MAX_GIVE_UP_STREAK, MAX_GRID_SEGMENT,
    MAX_GRID_SPACING, MAX_LEVELS, MAX_LOOPS, MAX_ROOMS, MAX_SIDE, MAX_TOTAL_CELLS, MAX_VAULTS,
    MIN_HEIGHT, MIN_ROOM_HEIGHT, MIN_ROOM_WIDTH, MIN_WIDTH,
};
pub use self::problem::Problem;
pub use self::range::Range;
pub(crate) use self::range::grid_segment_field;
pub use self::revisions::{GENERATOR_REVISION, RULES_REVISION, Revisions};
pub use self::rooms::RoomConfig;
pub use self::simulation::{CombatConfig, Goal, Rules, SimulationConfig};
pub use self::stairs::StairsConfig;
pub use self::vaults::VaultConfig;

use serde::{Deserialize, Serialize};

use self::profile::Profile;

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
    /// How levels are laid out: rooms and corridors, caves or labyrinths.
    pub kind: LevelKind,
    /// The cellular automaton of `Cave` levels.
    pub cave: CaveConfig,
    /// The maze of `Labyrinth` levels.
    pub labyrinth: LabyrinthConfig,
    /// The share of a level's doors hidden as secret doors, 0 to 1 (save
    /// format 7 on). Secret doors belong to rules revision 3: a run of
    /// earlier rules has none, whatever this says. Only doors off the
    /// walks between the level's staircases are hidden, so a level keeps
    /// every staircase reachable without finding one.
    pub secret_doors: f64,
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
            kind: LevelKind::Rooms,
            cave: CaveConfig::default(),
            labyrinth: LabyrinthConfig::default(),
            secret_doors: 0.0,
        }
    }
}

impl Config {
    /// The config `delve` uses when given none: `data/default.ron`, built
    /// in. It is [`Config::default`] with the shipped progression of
    /// profiles (a test checks the file against both).
    pub fn shipped() -> Config {
        Config::from_ron(include_str!("../../data/default.ron"), "data/default.ron")
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
            kind,
            cave,
            labyrinth,
            secret_doors,
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
            kind: *kind,
            cave: cave.clone(),
            labyrinth: labyrinth.clone(),
            secret_doors: *secret_doors,
        }
    }

    /// The share of doors the level at `depth` hides, its profiles
    /// applied; 0 under rules before revision 3, which have no secret
    /// doors.
    pub fn secret_doors_at(&self, depth: u16) -> f64 {
        if self.revisions.rules < 3 {
            return 0.0;
        }
        profile::setting(&self.profiles, depth, self.secret_doors, |p| p.secret_doors)
    }
}

#[cfg(test)]
mod default_file {
    use super::*;
    use crate::ron_diag::FieldIndex;

    #[test]
    fn data_default_ron_matches_the_built_in_defaults() {
        // Field for field the built-in defaults, but for the shipped
        // progression of profiles, which the built-in config lacks.
        let text = include_str!("../../data/default.ron");
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
        let text = include_str!("../../data/default.ron");
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
