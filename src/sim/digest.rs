//! What a run's digest hashes of the config.

use serde::Serialize;

use crate::config::{
    Config, CorridorStyle, DeadEndPolicy, HardnessConfig, LoopConfig, Range, RoomConfig,
    RoomLoopConfig, SimulationConfig, StairsConfig, TunnelConfig,
};

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
        serialize_with = "crate::config::grid_segment_field::serialize"
    )]
    grid_segment: Range,
    #[serde(skip_serializing_if = "is_false")]
    rooms_may_overlap: bool,
    #[serde(skip_serializing_if = "no_loops")]
    extra_loops: &'a LoopConfig,
    #[serde(skip_serializing_if = "is_keep")]
    dead_ends: DeadEndPolicy,
    /// Left out when off, so runs from before it digest as they did.
    #[serde(skip_serializing_if = "no_room_loops")]
    room_loops: &'a RoomLoopConfig,
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
    **l == LoopConfig::NONE
}
fn no_room_loops(l: &&RoomLoopConfig) -> bool {
    l.count == 0
}
fn is_keep(p: &DeadEndPolicy) -> bool {
    *p == DeadEndPolicy::Keep
}

impl<'a> DigestConfig<'a> {
    pub(crate) fn of(config: &'a Config) -> DigestConfig<'a> {
        let c = config;
        DigestConfig {
            width: c.width,
            height: c.height,
            levels: c.levels,
            rooms: &c.rooms,
            hardness: &c.hardness,
            tunnel: &c.tunnel,
            stairs: &c.stairs,
            simulation: &c.simulation,
            generation_retries: c.generation_retries,
            corridors: c.corridors,
            grid_spacing: c.grid_spacing,
            grid_segment: c.grid_segment,
            rooms_may_overlap: c.rooms_may_overlap,
            extra_loops: &c.extra_loops,
            dead_ends: c.dead_ends,
            room_loops: &c.room_loops,
        }
    }
}
