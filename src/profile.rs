//! Profiles: a band of depths gets its own generation settings.
//!
//! A config's `profiles` is a list of entries, each a band of depths and
//! any of the top level's generation fields, written the same way and just
//! as partial:
//!
//! ```ron
//! profiles: [
//!     (depths: (min: 4, max: 6), corridors: Grid, rooms: (count: (max: 30))),
//!     (depths: (min: 7, max: 10), corridors: DeadEnd, room_loops: (count: 0)),
//! ],
//! ```
//!
//! The level at depth d takes the top-level config with every profile whose
//! band holds d applied over it, in the order written. A field left out
//! keeps the value it had, down to one bound of a range: `rooms: (count:
//! (max: 30))` changes `count.max` alone. Width, height and the number of
//! levels belong to the stack and are not in a profile.

use serde::{Deserialize, Serialize};

use crate::config::{Config, CorridorStyle, DeadEndPolicy, Range};

/// One band of depths and the settings it changes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Profile {
    /// The depths the profile applies to (every depth if left out).
    pub depths: Band,
    #[serde(skip_serializing_if = "RoomPatch::is_empty")]
    /// Changes to `rooms`.
    pub rooms: RoomPatch,
    #[serde(skip_serializing_if = "HardnessPatch::is_empty")]
    /// Changes to `hardness`.
    pub hardness: HardnessPatch,
    #[serde(skip_serializing_if = "TunnelPatch::is_empty")]
    /// Changes to `tunnel`.
    pub tunnel: TunnelPatch,
    #[serde(skip_serializing_if = "StairsPatch::is_empty")]
    /// Changes to `stairs`.
    pub stairs: StairsPatch,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The corridor style of the band.
    pub corridors: Option<CorridorStyle>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `grid_spacing` of the band.
    pub grid_spacing: Option<u16>,
    #[serde(skip_serializing_if = "RangePatch::is_empty")]
    /// Changes to `grid_segment`.
    pub grid_segment: RangePatch,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `rooms_may_overlap` of the band.
    pub rooms_may_overlap: Option<bool>,
    #[serde(skip_serializing_if = "LoopPatch::is_empty")]
    /// Changes to `extra_loops`.
    pub extra_loops: LoopPatch,
    #[serde(skip_serializing_if = "RoomLoopPatch::is_empty")]
    /// Changes to `room_loops`.
    pub room_loops: RoomLoopPatch,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// `dead_ends` of the band.
    pub dead_ends: Option<DeadEndPolicy>,
    #[serde(skip_serializing_if = "VaultPatch::is_empty")]
    /// Changes to `vaults`.
    pub vaults: VaultPatch,
    #[serde(skip_serializing_if = "MonsterPatch::is_empty")]
    /// Changes to the per-level monster counts of `simulation`.
    pub simulation: MonsterPatch,
}

/// A band of depths, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    /// The shallowest depth of the band.
    pub min: u16,
    /// The deepest depth of the band.
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

/// How errors name a band: `depths 4-6`.
impl std::fmt::Display for Band {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.min == self.max {
            write!(f, "depth {}", self.min)
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
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<u16>,
    /// The new upper bound, if set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u16>,
}

impl RangePatch {
    fn is_empty(&self) -> bool {
        *self == RangePatch::default()
    }

    fn apply(&self, r: &mut Range) {
        set(&mut r.min, self.min);
        set(&mut r.max, self.max);
    }
}

fn set<T: Copy>(field: &mut T, value: Option<T>) {
    if let Some(v) = value {
        *field = v;
    }
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
                #[serde(skip_serializing_if = "Option::is_none")]
                pub $field: Option<$t>,
            )*
            $(
                #[doc = concat!("Changes to the range `", stringify!($range), "`.")]
                #[serde(skip_serializing_if = "RangePatch::is_empty")]
                pub $range: RangePatch,
            )*
        }

        impl $name {
            fn is_empty(&self) -> bool {
                *self == $name::default()
            }

            fn apply(&self, c: &mut $target) {
                $( set(&mut c.$field, self.$field); )*
                $( self.$range.apply(&mut c.$range); )*
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
    /// `stairs` in a profile.
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
    /// `simulation` in a profile: only the per-level monster counts, since
    /// the other rules belong to the whole run.
    MonsterPatch for crate::config::SimulationConfig {
        monsters_first_level: u16,
        monsters_per_depth: u16,
        monsters_max: u16,
    } ranges {}
}

impl Profile {
    /// `base` with this profile's fields written over it.
    pub fn apply(&self, base: &Config) -> Config {
        let mut c = base.clone();
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
        c
    }
}

/// The config of the level at `depth`: `base` with every profile whose band
/// holds the depth applied in order.
pub fn at_depth(base: &Config, profiles: &[Profile], depth: u16) -> Config {
    profiles
        .iter()
        .filter(|p| p.depths.contains(depth))
        .fold(base.clone(), |c, p| p.apply(&c))
}

/// The distinct stretches of depths in `1..=levels` that the same
/// profiles apply to, each with the indices of those profiles: every
/// stretch's config is validated once, and an error names the band of the
/// last profile that applies.
pub fn stretches(profiles: &[Profile], levels: u16) -> Vec<(Band, Vec<usize>)> {
    let applying = |d: u16| -> Vec<usize> {
        (0..profiles.len())
            .filter(|&i| profiles[i].depths.contains(d))
            .collect()
    };
    let mut out: Vec<(Band, Vec<usize>)> = Vec::new();
    for d in 1..=levels {
        let set = applying(d);
        match out.last_mut() {
            Some((band, last)) if *last == set => band.max = d,
            _ => out.push((Band { min: d, max: d }, set)),
        }
    }
    out
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
    }
}
