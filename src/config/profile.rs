//! Profiles: a band of depths gets its own generation settings.
//!
//! A config's `profiles` is a list of entries, each a band of depths and
//! any of the top level's generation fields, written the same way and just
//! as partial:
//!
//! ```ron
//! profiles: [
//!     (depths: (min: 4, max: 6), corridors: Grid, rooms: (count: (max: 30))),
//!     (depths: (min: 7), corridors: DeadEnd, room_loops: (count: 0)),
//! ],
//! ```
//!
//! The level at depth d takes the top-level config with every profile whose
//! band holds d applied over it, in the order written. A field left out
//! keeps the value it had, down to one bound of a range: `rooms: (count:
//! (max: 30))` changes `count.max` alone. Width, height and the number of
//! levels belong to the stack and are not in a profile.
//!
//! A band may reach past the stack's `levels` (and `(min: 7)` has no end):
//! one file may serve stacks of different heights (`--levels` changes the
//! height and nothing else), so a band is a statement about depths, not
//! about one stack. Every band is still checked as if the stack reached it,
//! so a file that is valid for 3 levels is valid for 10.
//!
//! Stairs stay linked across a change of `stairs.per_level`: a level has as
//! many staircases down as its own settings say, and as many up as the
//! level above has down ([`Config::stair_counts`]).
//!
//! A child of `config`, since a [`Config`] holds its profiles and checks
//! them.

use serde::{Deserialize, Serialize};

use super::{Config, CorridorStyle, DeadEndPolicy, LevelKind, MAX_LEVELS, Problem, Range};

/// The most profiles a config may have: every distinct stretch of depths
/// is checked whenever a config is validated (before each level is
/// generated, too), so their number is bounded like every other effort.
pub const MAX_PROFILES: usize = 256;

/// One band of depths and the settings it changes.
///
/// Every field is serialised, set or not: binary formats (saves, journals)
/// store no field names, so a field left out when writing would shift
/// every field after it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Profile {
    /// The depths the profile applies to (every depth if left out).
    pub depths: Band,
    /// Changes to `rooms`.
    pub rooms: RoomPatch,
    /// Changes to `hardness`.
    pub hardness: HardnessPatch,
    /// Changes to `tunnel`.
    pub tunnel: TunnelPatch,
    /// Changes to `stairs`.
    pub stairs: StairsPatch,
    /// The corridor style of the band.
    pub corridors: Option<CorridorStyle>,
    /// `grid_spacing` of the band.
    pub grid_spacing: Option<u16>,
    /// Changes to `grid_segment`.
    pub grid_segment: RangePatch,
    /// `rooms_may_overlap` of the band.
    pub rooms_may_overlap: Option<bool>,
    /// Changes to `extra_loops`.
    pub extra_loops: LoopPatch,
    /// Changes to `room_loops`.
    pub room_loops: RoomLoopPatch,
    /// `dead_ends` of the band.
    pub dead_ends: Option<DeadEndPolicy>,
    /// Changes to `vaults`.
    pub vaults: VaultPatch,
    /// Changes to the per-level monster counts of `simulation`.
    pub simulation: MonsterPatch,
    /// The kind of level of the band.
    pub kind: Option<LevelKind>,
    /// Changes to `cave`.
    pub cave: CavePatch,
    /// Changes to `labyrinth`.
    pub labyrinth: LabyrinthPatch,
    /// `secret_doors` of the band (save format 7 on).
    pub secret_doors: Option<f64>,
}

/// A band of depths, both ends included. Either end may be left out: the
/// band then starts at the top, or has no end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Band {
    /// The shallowest depth of the band (at least 1).
    pub min: u16,
    /// The deepest depth of the band; 65535 (the most a depth can be) if
    /// left out.
    pub max: u16,
}

impl Default for Band {
    /// Every depth: a profile that leaves out `depths` applies throughout.
    fn default() -> Self {
        Band {
            min: 1,
            max: u16::MAX,
        }
    }
}

impl Band {
    /// Whether the band holds `depth`.
    pub fn contains(self, depth: u16) -> bool {
        (self.min..=self.max).contains(&depth)
    }
}

/// How errors name a band: `depths 4-6`, `depth 3`, `depths 7 and deeper`.
impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "depth {}", self.min)
        } else if self.max == u16::MAX && self.min <= 1 {
            write!(f, "every depth")
        } else if self.max == u16::MAX {
            write!(f, "depths {} and deeper", self.min)
        } else {
            write!(f, "depths {}-{}", self.min, self.max)
        }
    }
}

/// A range with either bound left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RangePatch {
    /// The new lower bound, if set.
    pub min: Option<u16>,
    /// The new upper bound, if set.
    pub max: Option<u16>,
}

impl RangePatch {
    fn apply(&self, r: &mut Range) {
        set(&mut r.min, self.min);
        set(&mut r.max, self.max);
    }

    /// Whether the patch sets `path`: `""` (either bound), `min` or `max`.
    fn sets(&self, path: &str) -> bool {
        match path {
            "min" => self.min.is_some(),
            "max" => self.max.is_some(),
            _ => self.min.is_some() || self.max.is_some(),
        }
    }
}

fn set<T: Copy>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
}

/// The first name of a dotted path and the rest (`""` for none).
fn split(path: &str) -> (&str, &str) {
    path.split_once('.').unwrap_or((path, ""))
}

/// Declares a patch struct: every field optional, applied over the
/// config's struct of the same fields.
macro_rules! patch {
    ($(#[$m:meta])* $name:ident for $target:ty { $($field:ident: $t:ty),* $(,)? } ranges { $($range:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct $name {
            $(
                #[doc = concat!("`", stringify!($field), "` of the band, if the profile sets it.")]
                pub $field: Option<$t>,
            )*
            $(
                #[doc = concat!("Changes to the range `", stringify!($range), "`.")]
                pub $range: RangePatch,
            )*
        }

        impl $name {
            fn apply(&self, c: &mut $target) {
                $( set(&mut c.$field, self.$field); )*
                $( self.$range.apply(&mut c.$range); )*
            }

            /// Whether the patch sets the field at `path` (`""`: any).
            #[allow(unused_variables)]
            fn sets(&self, path: &str) -> bool {
                let (head, rest) = split(path);
                match head {
                    "" => *self != $name::default(),
                    $( stringify!($field) => self.$field.is_some(), )*
                    $( stringify!($range) => self.$range.sets(rest), )*
                    _ => false,
                }
            }
        }
    };
}

patch! {
    /// `rooms` in a profile.
    RoomPatch for crate::config::RoomConfig {
        circle_share: f64,
        attempts_per_room: u16,
        give_up_streak: u32,
        max_floor_share: f64,
        max_doors: u8,
    } ranges { count, width, height, circle_radius }
}

patch! {
    /// `hardness` in a profile.
    HardnessPatch for crate::config::HardnessConfig {
        feature_size: u16,
        octaves: u8,
        persistence: f64,
    } ranges {}
}

patch! {
    /// `tunnel` in a profile.
    TunnelPatch for crate::config::TunnelConfig {
        step_cost: u16,
        soft_below: u16,
        hardness_weight: f64,
        turn_penalty: u16,
        open_cost: u16,
    } ranges {}
}

patch! {
    /// `stairs` in a profile. `per_level` is the band's staircases down;
    /// the first level below a change has as many up as the level above
    /// has down.
    StairsPatch for crate::config::StairsConfig {
        per_level: u8,
        exit_on_first_level: bool,
    } ranges {}
}

patch! {
    /// `extra_loops` in a profile.
    LoopPatch for crate::config::LoopConfig {
        count: u16,
        ratio: f64,
        max_length: u16,
    } ranges {}
}

patch! {
    /// `room_loops` in a profile.
    RoomLoopPatch for crate::config::RoomLoopConfig {
        count: u16,
        ratio: f64,
        reach: u16,
    } ranges {}
}

patch! {
    /// `vaults` in a profile.
    VaultPatch for crate::config::VaultConfig {
    } ranges { count }
}

patch! {
    /// `cave` in a profile.
    CavePatch for crate::config::CaveConfig {
        open_share: f64,
        passes: u8,
        birth: u8,
        survival: u8,
        smallest_region: u16,
    } ranges {}
}

patch! {
    /// `labyrinth` in a profile.
    LabyrinthPatch for crate::config::LabyrinthConfig {
        loops: f64,
        known: bool,
    } ranges { halls }
}

patch! {
    /// `simulation` in a profile: only the per-level monster counts, since
    /// the other rules belong to the whole run.
    MonsterPatch for crate::config::SimulationConfig {
        monsters_first_level: u16,
        monsters_per_depth: u16,
        monsters_max: u16,
    } ranges {}
}

impl Profile {
    /// Writes this profile's fields over `c`.
    pub fn apply_to(&self, c: &mut Config) {
        self.rooms.apply(&mut c.rooms);
        self.hardness.apply(&mut c.hardness);
        self.tunnel.apply(&mut c.tunnel);
        self.stairs.apply(&mut c.stairs);
        set(&mut c.corridors, self.corridors);
        set(&mut c.grid_spacing, self.grid_spacing);
        self.grid_segment.apply(&mut c.grid_segment);
        set(&mut c.rooms_may_overlap, self.rooms_may_overlap);
        self.extra_loops.apply(&mut c.extra_loops);
        self.room_loops.apply(&mut c.room_loops);
        set(&mut c.dead_ends, self.dead_ends);
        self.vaults.apply(&mut c.vaults);
        self.simulation.apply(&mut c.simulation);
        set(&mut c.kind, self.kind);
        self.cave.apply(&mut c.cave);
        self.labyrinth.apply(&mut c.labyrinth);
        set(&mut c.secret_doors, self.secret_doors);
    }

    /// Whether the profile sets the config field at the dotted `path`
    /// (`rooms.count.max`; `rooms.count` if it sets either bound): which
    /// profile an error blames.
    pub fn sets(&self, path: &str) -> bool {
        let (head, rest) = split(path);
        match head {
            "rooms" => self.rooms.sets(rest),
            "hardness" => self.hardness.sets(rest),
            "tunnel" => self.tunnel.sets(rest),
            "stairs" => self.stairs.sets(rest),
            "corridors" => self.corridors.is_some(),
            "grid_spacing" => self.grid_spacing.is_some(),
            "grid_segment" => self.grid_segment.sets(rest),
            "rooms_may_overlap" => self.rooms_may_overlap.is_some(),
            "extra_loops" => self.extra_loops.sets(rest),
            "room_loops" => self.room_loops.sets(rest),
            "dead_ends" => self.dead_ends.is_some(),
            "vaults" => self.vaults.sets(rest),
            "simulation" => self.simulation.sets(rest),
            "kind" => self.kind.is_some(),
            "cave" => self.cave.sets(rest),
            "labyrinth" => self.labyrinth.sets(rest),
            "secret_doors" => self.secret_doors.is_some(),
            _ => false,
        }
    }
}

/// The config of the level at `depth`: `base` with every profile whose band
/// holds the depth applied in order. It has no profiles of its own (they
/// are in it already), and `base`'s are not copied to make it.
pub fn at_depth(base: &Config, profiles: &[Profile], depth: u16) -> Config {
    let mut c = base.without_profiles();
    for p in profiles.iter().filter(|p| p.depths.contains(depth)) {
        p.apply_to(&mut c);
    }
    c
}

/// One setting at `depth`: the last applying profile's, else `base`.
pub(super) fn setting<T>(
    profiles: &[Profile],
    depth: u16,
    base: T,
    get: impl Fn(&Profile) -> Option<T>,
) -> T {
    profiles
        .iter()
        .rev()
        .filter(|p| p.depths.contains(depth))
        .find_map(get)
        .unwrap_or(base)
}

/// The distinct stretches of depths in `1..=last` that the same
/// profiles apply to, each with the indices of those profiles: every
/// stretch's config is validated once. The set of profiles can change only
/// where a band starts or just after one ends, so only those depths are
/// looked at: the work grows with the profiles, not the depths.
pub fn stretches(profiles: &[Profile], last: u16) -> Vec<(Band, Vec<usize>)> {
    let applying = |d: u16| -> Vec<usize> {
        (0..profiles.len())
            .filter(|&i| profiles[i].depths.contains(d))
            .collect()
    };
    let mut starts: Vec<u16> = profiles
        .iter()
        .flat_map(|p| [p.depths.min, p.depths.max.saturating_add(1)])
        .chain([1])
        .filter(|d| (1..=last).contains(d))
        .collect();
    starts.sort_unstable();
    starts.dedup();
    let mut out: Vec<(Band, Vec<usize>)> = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(last, |next| next - 1);
        let set = applying(start);
        match out.last_mut() {
            Some((band, prev)) if *prev == set => band.max = end,
            _ => out.push((
                Band {
                    min: start,
                    max: end,
                },
                set,
            )),
        }
    }
    out
}

/// `profiles[3].rooms.count.max` as (3, `rooms.count.max`): the entry and
/// field a problem's path names, if it is inside a profile.
pub(super) fn entry_of(path: &str) -> Option<(usize, &str)> {
    let rest = path.strip_prefix("profiles[")?;
    let (index, field) = rest.split_once(']')?;
    Some((
        index.parse().ok()?,
        field.strip_prefix('.').unwrap_or(field),
    ))
}

/// The checks of a config's profiles, after its top level passed its own:
/// the bands, then the config of every stretch of depths as a whole, then
/// the rooms each level needs for its stairs where `stairs.per_level`
/// changes. A problem names the profile entry and the field at fault
/// (`profiles[1].rooms.count.max`) and says where (`at depths 4-6: ...`).
pub(super) fn check(config: &Config) -> Result<(), Problem> {
    let profiles = &config.profiles;
    if profiles.is_empty() {
        return Ok(());
    }
    if profiles.len() > MAX_PROFILES {
        return Err(Problem::new(
            "profiles",
            format!(
                "must have at most {MAX_PROFILES} entries, got {}",
                profiles.len()
            ),
        ));
    }
    for (i, p) in profiles.iter().enumerate() {
        let band = p.depths;
        let field = |f: &str| format!("profiles[{i}].depths{f}");
        if band.min == 0 {
            return Err(Problem::new(
                &field(".min"),
                "must be at least 1, got 0 (depth 1 is the top)".into(),
            ));
        }
        if band.min > MAX_LEVELS {
            return Err(Problem::new(
                &field(".min"),
                format!(
                    "must be at most {MAX_LEVELS}, got {} (no stack is deeper)",
                    band.min
                ),
            ));
        }
        if band.min > band.max {
            return Err(Problem::new(
                &field(""),
                format!(
                    "is empty: min {} is greater than max {}",
                    band.min, band.max
                ),
            ));
        }
    }
    // Bands past the stack are checked too, as if it reached them.
    let last = profiles
        .iter()
        .map(|p| p.depths.max.min(MAX_LEVELS))
        .fold(config.levels, u16::max);
    let all = stretches(profiles, last);
    for (band, applying) in &all {
        if applying.is_empty() {
            continue;
        }
        at_depth(config, profiles, band.min)
            .validate_level()
            .map_err(|problem| blame(problem, where_(config, *band), applying, profiles))?;
    }
    check_stair_rooms(config, &all)
}

/// How a problem names the stretch it is in: `depths 4-6`, `depths 7 and
/// deeper` for one that runs to the deepest stack possible, and a word on
/// depths this stack does not have.
fn where_(config: &Config, band: Band) -> String {
    let shown = if band.max >= MAX_LEVELS && band.min < band.max {
        Band {
            max: u16::MAX,
            ..band
        }
    } else {
        band
    };
    if band.min > config.levels {
        format!(
            "{shown} (deeper than this stack's {} levels, but checked for stacks that reach them)",
            config.levels
        )
    } else {
        shown.to_string()
    }
}

/// Where `stairs.per_level` changes from one level to the next, the lower
/// level has the upper's count of staircases up and its own down: it must
/// have a room for each (every stretch's own check counted its own count
/// both ways).
fn check_stair_rooms(config: &Config, stretches: &[(Band, Vec<usize>)]) -> Result<(), Problem> {
    let profiles = &config.profiles;
    let per = |d: u16| setting(profiles, d, config.stairs.per_level, |p| p.stairs.per_level);
    // Within a stretch nothing changes.
    for d in stretches.iter().map(|s| s.0.min).filter(|&d| d > 1) {
        let (up, own) = (per(d - 1), per(d));
        if up == own {
            continue;
        }
        // The deepest level has no stairs down; depths past the stack are
        // checked as if it went on.
        let down = if d == config.levels { 0 } else { own };
        let needed = u16::from(up) + u16::from(down);
        let min = setting(profiles, d, config.rooms.count.min, |p| p.rooms.count.min);
        if min >= needed {
            continue;
        }
        // The count of rooms at fault is the one at this depth, from the
        // top level if no profile here sets it; the change of staircases
        // shares the blame.
        let applying = |d: u16| {
            (0..profiles.len())
                .rev()
                .filter(move |&i| profiles[i].depths.contains(d))
        };
        let field = match applying(d).find(|&i| profiles[i].sets("rooms.count.min")) {
            Some(i) => format!("profiles[{i}].rooms.count.min"),
            None => "rooms.count.min".into(),
        };
        let instead = applying(d)
            .chain(applying(d - 1))
            .find(|&i| profiles[i].sets("stairs.per_level"))
            .map_or("stairs.per_level".into(), |i| {
                format!("profiles[{i}].stairs.per_level")
            });
        return Err(Problem {
            field,
            message: format!(
                "at {}: must be at least {needed} (it is {min}): depth {d} has {up} staircase(s) \
                 up, as many as depth {} has down, and {down} down, each in a room of its own; \
                 raise rooms.count.min or make stairs.per_level agree",
                where_(config, Band { min: d, max: d }),
                d - 1
            ),
            instead: Some(instead),
        });
    }
    Ok(())
}

/// A problem of a stretch's config, put on the profile that causes it: the
/// last applying profile that sets the field at fault, else the last that
/// sets the field sharing the blame, else the last that applies.
fn blame(problem: Problem, band: String, applying: &[usize], profiles: &[Profile]) -> Problem {
    let setter = |path: &str| {
        applying
            .iter()
            .rev()
            .copied()
            .find(|&i| profiles[i].sets(path))
    };
    let i = setter(&problem.field)
        .or_else(|| problem.instead.as_deref().and_then(setter))
        .or_else(|| applying.last().copied())
        .expect("a stretch checked has a profile");
    let with = if applying.len() > 1 {
        let list: Vec<String> = applying.iter().map(|i| format!("[{i}]")).collect();
        format!(" (where profiles{} apply)", list.join(", "))
    } else {
        String::new()
    };
    Problem {
        field: format!("profiles[{i}].{}", problem.field),
        message: format!("at {band}{with}: {}", problem.message),
        instead: problem.instead.map(|f| format!("profiles[{i}].{f}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As the config reads them: `corridors: Grid` for `Some(Grid)`.
    fn read(text: &str) -> Result<Vec<Profile>, ron::error::SpannedError> {
        ron::Options::default()
            .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
            .from_str(text)
    }

    fn profiles(text: &str) -> Vec<Profile> {
        read(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn partial_fields_keep_the_rest() {
        let ps = profiles(
            "[(depths: (min: 4, max: 6), corridors: Grid, rooms: (count: (max: 30))),
              (depths: (min: 7, max: 10), corridors: DeadEnd, dead_ends: Prune)]",
        );
        let base = Config::default();
        let at = |d| at_depth(&base, &ps, d);
        assert_eq!(at(1), base);
        assert_eq!(at(3), base);
        let mid = at(5);
        assert_eq!(mid.corridors, CorridorStyle::Grid);
        assert_eq!(mid.rooms.count, Range::new(base.rooms.count.min, 30));
        assert_eq!(mid.rooms.width, base.rooms.width);
        let deep = at(10);
        assert_eq!(deep.corridors, CorridorStyle::DeadEnd);
        assert_eq!(deep.dead_ends, DeadEndPolicy::Prune);
        assert_eq!(deep.rooms.count, base.rooms.count);
    }

    #[test]
    fn overlapping_profiles_apply_in_order() {
        let ps = profiles(
            "[(depths: (min: 1, max: 10), tunnel: (turn_penalty: 20), rooms: (count: (min: 8)), room_loops: (count: 3)),
              (depths: (min: 5, max: 5), tunnel: (turn_penalty: 3)),
              (simulation: (monsters_max: 5))]",
        );
        let base = Config::default();
        assert_eq!(at_depth(&base, &ps, 4).tunnel.turn_penalty, 20);
        assert_eq!(at_depth(&base, &ps, 5).tunnel.turn_penalty, 3);
        assert_eq!(at_depth(&base, &ps, 5).rooms.count.min, 8);
        assert_eq!(at_depth(&base, &ps, 5).room_loops.count, 3);
        assert_eq!(
            at_depth(&base, &ps, 5).room_loops.reach,
            base.room_loops.reach
        );
        // No `depths`: every depth.
        assert_eq!(at_depth(&base, &ps, 900).simulation.monsters_max, 5);
        assert_eq!(
            stretches(&ps, 7),
            vec![
                (Band { min: 1, max: 4 }, vec![0, 2]),
                (Band { min: 5, max: 5 }, vec![0, 1, 2]),
                (Band { min: 6, max: 7 }, vec![0, 2]),
            ]
        );
    }

    #[test]
    fn width_and_unknown_fields_are_refused() {
        for text in [
            "[(depths: (min: 1, max: 2), width: 80)]",
            "[(depths: (min: 1, max: 2), levels: 3)]",
            "[(depths: (min: 1, max: 2), simulation: (lives: 3))]",
            "[(depths: (min: 1, max: 2), rooms: (count: (mid: 3)))]",
        ] {
            assert!(read(text).is_err(), "{text}");
        }
    }

    #[test]
    fn round_trips_and_names_bands() {
        let ps = profiles("[(depths: (min: 4, max: 6), corridors: Grid, grid_segment: (min: 2))]");
        let text = ron::to_string(&ps).unwrap();
        assert_eq!(profiles(&text), ps);
        assert_eq!(ps[0].depths.to_string(), "depths 4-6");
        assert_eq!(Band { min: 3, max: 3 }.to_string(), "depth 3");
        assert_eq!(
            profiles("[(depths: (min: 7))]")[0].depths.to_string(),
            "depths 7 and deeper"
        );
        assert_eq!(
            profiles("[(depths: (max: 2))]")[0].depths,
            Band { min: 1, max: 2 }
        );
        assert_eq!(Band::default().to_string(), "every depth");
    }

    /// Saves and journals hold the config in bincode, which has no field
    /// names: every field of a profile must be written, set or not.
    #[test]
    #[cfg(feature = "save")]
    fn a_config_with_profiles_round_trips_through_bincode() {
        let config = Config::from_ron(
            "(profiles: [(depths: (min: 2, max: 3), tunnel: (turn_penalty: 3)),
                         (corridors: Grid, rooms: (count: (max: 30)), simulation: (monsters_max: 9))])",
            "x",
        )
        .unwrap();
        let bytes = bincode::serde::encode_to_vec(&config, bincode::config::standard()).unwrap();
        let (back, used): (Config, usize) =
            bincode::serde::decode_from_slice(&bytes, bincode::config::standard()).unwrap();
        assert_eq!((back, used), (config, bytes.len()));
    }

    #[test]
    fn a_level_takes_its_own_staircases_down_and_the_ones_above_up() {
        let c = Config::from_ron(
            "(profiles: [(depths: (min: 3, max: 4), stairs: (per_level: 2), rooms: (count: (min: 5)))])",
            "x",
        )
        .unwrap();
        let counts: Vec<(usize, usize)> = (1..=c.levels).map(|d| c.stair_counts(d)).collect();
        assert_eq!(
            counts,
            [
                (1, 1),
                (1, 1),
                (1, 2),
                (2, 2),
                (2, 1),
                (1, 1),
                (1, 1),
                (1, 1),
                (1, 1),
                (1, 0)
            ]
        );
        // Each depth's own config knows only its own count both ways.
        assert_eq!(c.at_depth(4).stair_counts(4), (2, 2));
        assert!(c.at_depth(4).profiles.is_empty());
    }

    fn refused(text: &str) -> String {
        Config::from_ron(text, "mine.ron").unwrap_err().to_string()
    }

    #[test]
    fn a_bad_field_in_a_profile_names_its_entry_place_and_band() {
        // Entry 0 writes the same key: the error points into entry 1.
        let e = refused(
            "(\n  profiles: [\n    (depths: (min: 1, max: 3), rooms: (count: (max: 20))),\n    \
             (depths: (min: 4, max: 6),\n     rooms: (count: (max: 5000))),\n  ],\n)",
        );
        assert_eq!(
            e,
            "mine.ron:5:22: profiles[1].rooms.count.max: at depths 4-6: must be at most 4096 \
             for this level size, got 5000"
        );
        // A value that is fine alone but not with the top level: the band
        // that breaks and the field, in the profile that sets it.
        let e = refused(
            "(rooms: (count: (max: 10)),\n profiles: [(depths: (min: 2, max: 2), vaults: (count: (min: 12, max: 12)))])",
        );
        assert!(
            e.starts_with(
                "mine.ron:2:66: profiles[0].vaults.count.max: at depth 2: must be at most 10"
            ),
            "{e}"
        );
    }

    #[test]
    fn a_problem_of_a_combination_names_every_profile_there() {
        // Grid needs two doors a room; the top level allows one, the
        // second profile brings Grid, and where both apply the error says so.
        let e = refused(
            "(rooms: (max_doors: 1),\n profiles: [\n  (depths: (min: 2, max: 8), grid_spacing: 8),\n  \
             (depths: (min: 5), corridors: Grid),\n])",
        );
        assert!(
            e.starts_with(
                "mine.ron:4:3: profiles[1].rooms.max_doors: at depths 5-8 (where profiles[0], [1] \
                 apply): must be at least 2 with corridors: Grid"
            ),
            "{e}"
        );
    }

    #[test]
    fn bad_bands_are_refused_where_written() {
        assert_eq!(
            refused("(profiles: [(depths: (min: 0, max: 3))])"),
            "mine.ron:1:23: profiles[0].depths.min: must be at least 1, got 0 (depth 1 is the top)"
        );
        assert_eq!(
            refused("(profiles: [\n  (),\n  (depths: (min: 5, max: 3)),\n])"),
            "mine.ron:3:4: profiles[1].depths: is empty: min 5 is greater than max 3"
        );
        let e = refused("(profiles: [(depths: (min: 1001, max: 1002))])");
        assert!(
            e.contains("profiles[0].depths.min: must be at most 1000"),
            "{e}"
        );
        let e = refused(&format!("(profiles: [{}])", "(),".repeat(MAX_PROFILES + 1)));
        assert!(e.contains("profiles: must have at most 256 entries"), "{e}");
    }

    #[test]
    fn bands_past_the_stack_are_allowed_and_checked() {
        // A file for stacks of any height: a band below this stack is fine...
        let c = Config::from_ron(
            "(levels: 3, profiles: [(depths: (min: 7, max: 9), corridors: Grid)])",
            "x",
        )
        .unwrap();
        assert_eq!(c.at_depth(3).corridors, CorridorStyle::Tunnel);
        // ...but a broken one is refused, saying the stack does not reach it.
        let e = refused(
            "(levels: 3, profiles: [\n  (depths: (min: 7), rooms: (width: (min: 200))),\n])",
        );
        assert!(
            e.starts_with(
                "mine.ron:2:30: profiles[0].rooms.width: at depths 7 and deeper (deeper than this \
                 stack's 3 levels"
            ),
            "{e}"
        );
    }

    #[test]
    fn fewer_staircases_below_need_rooms_for_the_ones_from_above() {
        let e = refused(
            "(rooms: (count: (min: 3)),\n profiles: [\n  (depths: (max: 3), stairs: (per_level: 3), \
             rooms: (count: (min: 6))),\n])",
        );
        assert!(
            e.starts_with(
                "mine.ron:1:18: rooms.count.min: at depth 4: must be at least 4 (it is 3): depth 4 \
                 has 3 staircase(s) up"
            ),
            "{e}"
        );
        // Enough rooms below: fine.
        Config::from_ron(
            "(rooms: (count: (min: 4)), profiles: [(depths: (max: 3), stairs: (per_level: 3), \
             rooms: (count: (min: 6)))])",
            "x",
        )
        .unwrap();
    }

    proptest::proptest! {
        /// Stretches found from the bands' ends are the ones a walk over
        /// every depth finds.
        #[test]
        fn stretches_are_those_of_every_depth(
            bands in proptest::collection::vec((0u16..=12, 0u16..=12), 0..5),
            last in 1u16..=14,
        ) {
            let profiles: Vec<Profile> = bands
                .iter()
                .map(|&(min, span)| Profile {
                    depths: Band { min, max: min.saturating_add(span) },
                    ..Profile::default()
                })
                .collect();
            let mut walked: Vec<(Band, Vec<usize>)> = Vec::new();
            for d in 1..=last {
                let set: Vec<usize> =
                    (0..profiles.len()).filter(|&i| profiles[i].depths.contains(d)).collect();
                match walked.last_mut() {
                    Some((band, prev)) if *prev == set => band.max = d,
                    _ => walked.push((Band { min: d, max: d }, set)),
                }
            }
            proptest::prop_assert_eq!(stretches(&profiles, last), walked);
        }
    }

    #[test]
    fn sets_reads_paths_like_problems_name_them() {
        let p = &profiles(
            "[(rooms: (count: (max: 30)), corridors: Grid, simulation: (monsters_max: 4))]",
        )[0];
        for yes in [
            "rooms",
            "rooms.count",
            "rooms.count.max",
            "corridors",
            "simulation.monsters_max",
        ] {
            assert!(p.sets(yes), "{yes}");
        }
        for no in [
            "rooms.count.min",
            "rooms.width",
            "tunnel",
            "dead_ends",
            "simulation.lives",
            "width",
        ] {
            assert!(!p.sets(no), "{no}");
        }
        assert_eq!(
            entry_of("profiles[12].rooms.count"),
            Some((12, "rooms.count"))
        );
        assert_eq!(entry_of("rooms.count"), None);
    }
}
