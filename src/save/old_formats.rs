//! The formats this build no longer writes but still loads: each a mirror
//! of what its runs held, decoded as written and converted into today's
//! `Run`. The journal reads its format-3 to 6 starts with the same mirrors.

/// Format 7 (issues 25 and the start of 26), read by this build: format 8
/// added what rules 4 keep (timed effects, identified kinds and their
/// looks, monsters' minds) last in the run's state. A format-7 run plays
/// by rules 3 or earlier, which keep none of it, so it converts with
/// `None` there and its digest is unchanged.
pub(crate) mod v7 {
    use serde::Deserialize;

    use crate::config::Config;
    use crate::sim::RunStateV7;
    use crate::sim::record::Recording;
    use crate::vault::Vault;

    /// A format-7 run: today's config, its state as format 7 had it, then
    /// the recording and vaults as today.
    #[derive(Deserialize)]
    pub(in crate::save) struct Run {
        config: Config,
        state: RunStateV7,
        recording: Option<Recording>,
        vaults: Vec<Vault>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config, r.state.into(), r.recording, r.vaults)
        }
    }
}

/// Format 6 (issues 15 to 24), read by this build: format 7 added the
/// kind of level, the cave's and labyrinth's settings and secret doors
/// (`kind`, `cave`, `labyrinth` and `secret_doors` last in `Config` and in
/// each profile), `Shape::Region` for the areas of caves and labyrinths,
/// searching
/// (`search_chance` and `passive_search_chance` last in the simulation
/// settings) and where the player searched (last in the run's state). A
/// format-6 run's levels are all rooms and corridors, as they were made;
/// it has no secret doors and has searched nowhere; its
/// settings for searching are the defaults, which its rules (1 or 2)
/// never read. Its digest, which leaves all of these out while unset or
/// at their defaults, is unchanged.
pub(crate) mod v6 {
    use serde::Deserialize;

    use crate::config::profile::{
        Band, HardnessPatch, LoopPatch, MonsterPatch, RangePatch, RoomLoopPatch, RoomPatch,
        StairsPatch, TunnelPatch, VaultPatch,
    };
    use crate::config::{
        self, CombatConfig, CorridorStyle, DeadEndPolicy, Goal, Revisions, RoomLoopConfig, Rules,
        VaultConfig,
    };
    use crate::sim::RunStateV6;
    use crate::sim::record::Recording;
    use crate::vault::Vault;

    use super::v2::{Layout, Stack};

    /// Format 4 to 6's simulation settings: today's without searching.
    #[derive(Deserialize)]
    pub(crate) struct SimulationConfig {
        rules: Rules,
        lives: u8,
        sight_radius: u8,
        perception_radius: u8,
        player_speed: u8,
        monsters_first_level: u16,
        monsters_per_depth: u16,
        monsters_max: u16,
        dig_per_turn: u8,
        cautious_at_lives: u8,
        goal: Goal,
        combat: CombatConfig,
    }

    impl From<SimulationConfig> for config::SimulationConfig {
        fn from(s: SimulationConfig) -> Self {
            config::SimulationConfig {
                rules: s.rules,
                lives: s.lives,
                sight_radius: s.sight_radius,
                perception_radius: s.perception_radius,
                player_speed: s.player_speed,
                monsters_first_level: s.monsters_first_level,
                monsters_per_depth: s.monsters_per_depth,
                monsters_max: s.monsters_max,
                dig_per_turn: s.dig_per_turn,
                cautious_at_lives: s.cautious_at_lives,
                goal: s.goal,
                combat: s.combat,
                ..config::SimulationConfig::default()
            }
        }
    }

    /// Format 5 and 6's profile: today's without `secret_doors`.
    #[derive(Deserialize)]
    pub(crate) struct Profile {
        depths: Band,
        rooms: RoomPatch,
        hardness: HardnessPatch,
        tunnel: TunnelPatch,
        stairs: StairsPatch,
        corridors: Option<CorridorStyle>,
        grid_spacing: Option<u16>,
        grid_segment: RangePatch,
        rooms_may_overlap: Option<bool>,
        extra_loops: LoopPatch,
        room_loops: RoomLoopPatch,
        dead_ends: Option<DeadEndPolicy>,
        vaults: VaultPatch,
        simulation: MonsterPatch,
    }

    impl From<Profile> for config::profile::Profile {
        fn from(p: Profile) -> Self {
            config::profile::Profile {
                depths: p.depths,
                rooms: p.rooms,
                hardness: p.hardness,
                tunnel: p.tunnel,
                stairs: p.stairs,
                corridors: p.corridors,
                grid_spacing: p.grid_spacing,
                grid_segment: p.grid_segment,
                rooms_may_overlap: p.rooms_may_overlap,
                extra_loops: p.extra_loops,
                room_loops: p.room_loops,
                dead_ends: p.dead_ends,
                vaults: p.vaults,
                simulation: p.simulation,
                ..config::profile::Profile::default()
            }
        }
    }

    /// Format 6's config: format 5's with the revisions.
    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
        room_loops: RoomLoopConfig,
        vaults: VaultConfig,
        profiles: Vec<Profile>,
        revisions: Revisions,
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config::Config {
                room_loops: c.room_loops,
                vaults: c.vaults,
                profiles: c.profiles.into_iter().map(Into::into).collect(),
                revisions: c.revisions,
                ..super::v2::config(c.stack, c.layout, c.simulation, c.generation_retries)
            }
        }
    }

    /// A format-6 run: its config and state as format 6 had them, then
    /// the recording and vaults as today.
    #[derive(Deserialize)]
    pub(in crate::save) struct Run {
        config: Config,
        state: RunStateV6,
        recording: Option<Recording>,
        vaults: Vec<Vault>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), r.recording, r.vaults)
        }
    }
}

/// Format 5 (issues 10 to 12), read by this build: format 6 added the
/// revisions of the generator and the rules to `Config` (last). A format-5
/// run was made and played by the first revisions, so it keeps them: its
/// levels not visited yet and a replay of its recording come out as they
/// did, and its digest (which leaves the first revisions out) is unchanged.
pub(crate) mod v5 {
    use serde::Deserialize;

    use crate::config::{self, Revisions, RoomLoopConfig, VaultConfig};
    use crate::sim::RunStateV6;
    use crate::sim::record::Recording;
    use crate::vault::Vault;

    use super::v2::{Layout, Stack};
    use super::v6::{Profile, SimulationConfig};

    /// Format 5's config: today's without the revisions.
    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
        room_loops: RoomLoopConfig,
        vaults: VaultConfig,
        profiles: Vec<Profile>,
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config::Config {
                room_loops: c.room_loops,
                vaults: c.vaults,
                profiles: c.profiles.into_iter().map(Into::into).collect(),
                revisions: Revisions::FIRST,
                ..super::v2::config(c.stack, c.layout, c.simulation, c.generation_retries)
            }
        }
    }

    /// A format-5 run: its config as format 5 had it, then the state as
    /// format 6 and the recording and vaults as today.
    #[derive(Deserialize)]
    pub(in crate::save) struct Run {
        config: Config,
        state: RunStateV6,
        recording: Option<Recording>,
        vaults: Vec<Vault>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), r.recording, r.vaults)
        }
    }
}

/// Format 4 (issue 13), read by this build: format 5 added the generator's
/// room loops to `Config` (last). A format-4 run gets none, so the levels
/// it has not visited yet come out as format 4 made them, and its digest
/// (which leaves room loops out while they are off) is unchanged.
pub(crate) mod v4 {
    use serde::Deserialize;

    use crate::config;
    use crate::sim::RunStateV6;
    use crate::sim::record::Recording;

    use super::v2::{Layout, Stack};
    use super::v6::SimulationConfig;

    /// Format 4's config: format 2's parts, today's rules.
    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            super::v2::config(c.stack, c.layout, c.simulation, c.generation_retries)
        }
    }

    /// A format-4 run: its config as format 4 had it, then the state as
    /// format 6 and the recording as today.
    #[derive(Deserialize)]
    pub(in crate::save) struct Run {
        config: Config,
        state: RunStateV6,
        recording: Option<Recording>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), r.recording, Vec::new())
        }
    }
}

/// Format 3 (issue 14), read by this build: format 4 added the Combat
/// game, so a format-3 body is format 2's (config, state) in their
/// pre-Combat shapes, then the run's recording. It loads as the Stomp run
/// it was, recording and all, so its journal still fits it.
pub(in crate::save) mod v3 {
    use serde::Deserialize;

    use crate::sim::record::Recording;

    use super::v2::{Config, RunState};

    #[derive(Deserialize)]
    pub(in crate::save) struct Run {
        config: Config,
        state: RunState,
        recording: Option<Recording>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), r.recording, Vec::new())
        }
    }
}

/// Format 1, read by this build and converted on load. Format 2 added
/// the generator's layout options to `Config` (corridor style, grid
/// geometry, overlapping rooms, extra loops, dead-end policy); a format-1
/// run gets the values that reproduce format 1's generator, so its levels
/// not yet visited come out as they would have.
pub(in crate::save) mod v1 {
    use serde::Deserialize;

    use crate::config::{self, CorridorStyle, DeadEndPolicy, LoopConfig, Range};

    use super::v2::{Layout, SimulationConfig, Stack};

    /// Format 2's config without the layout options.
    #[derive(Deserialize)]
    pub(in crate::save) struct Config {
        stack: Stack,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    /// A format-1 run: its own config, then the state as format 2.
    pub(in crate::save) type Run = super::v2::Run<Config>;

    /// The layout of format 1's generator: tunnelled corridors, no
    /// overlapping rooms, no extra loops, dead ends kept.
    fn format1_layout() -> Layout {
        Layout {
            corridors: CorridorStyle::Tunnel,
            grid_spacing: 6,
            grid_segment: Range::new(3, 6),
            rooms_may_overlap: false,
            extra_loops: LoopConfig::NONE,
            dead_ends: DeadEndPolicy::Keep,
        }
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            super::v2::config(
                c.stack,
                format1_layout(),
                c.simulation,
                c.generation_retries,
            )
        }
    }
}

/// Format 2, read by this build and converted on load. Format 3 added
/// the recording (none here), format 4 the Combat game: the rules and
/// their numbers in the config; hit points, damage, depths, rarity and a
/// description in monster kinds; the run's Combat state. A format-2 run
/// is a Stomp run and goes on as one, with its monsters as they were.
/// The journal decodes its format-3 start blocks with these mirrors too.
pub(crate) mod v2 {
    use rand_pcg::Pcg64;
    use serde::Deserialize;

    use crate::config::{
        self, CorridorStyle, DeadEndPolicy, HardnessConfig, LoopConfig, Range, RoomConfig,
        StairsConfig, TunnelConfig,
    };
    use crate::sim::{Colour, LevelState, Outcome, Player, Trait};

    /// The simulation settings of format 2 and 3, the same fields a
    /// digest hashes; they load as Stomp rules.
    pub(super) use crate::sim::StompSimulation as SimulationConfig;

    #[derive(Deserialize)]
    pub(crate) struct MonsterKind {
        name: String,
        glyph: char,
        colour: Colour,
        speed: u8,
        traits: Vec<Trait>,
    }

    impl From<MonsterKind> for crate::sim::MonsterKind {
        fn from(k: MonsterKind) -> Self {
            crate::sim::MonsterKind {
                name: k.name,
                glyph: k.glyph,
                colour: k.colour,
                speed: k.speed,
                traits: k.traits,
                ..crate::sim::MonsterKind::default()
            }
        }
    }

    /// The state a run saved before Combat: no Combat state, kinds without
    /// its fields.
    #[derive(Deserialize)]
    pub(super) struct RunState {
        kinds: Vec<MonsterKind>,
        seed: u64,
        rng: Pcg64,
        levels: Vec<Option<LevelState>>,
        player: Player,
        turn: u64,
        killed: u32,
        log: Vec<String>,
        outcome: Outcome,
    }

    impl From<RunState> for crate::sim::RunState {
        fn from(s: RunState) -> Self {
            crate::sim::RunState::stomp(
                s.kinds.into_iter().map(Into::into).collect(),
                s.seed,
                s.rng,
                s.levels,
                s.player,
                (s.turn, s.killed),
                s.log,
                s.outcome,
            )
        }
    }

    /// The config's first fields, in every format: the stack's size and
    /// the generator's numbers. Nested structs add no bytes in bincode, so
    /// splitting the config here leaves the format as it was.
    #[derive(Deserialize)]
    pub(super) struct Stack {
        width: u16,
        height: u16,
        levels: u16,
        rooms: RoomConfig,
        hardness: HardnessConfig,
        tunnel: TunnelConfig,
        stairs: StairsConfig,
    }

    /// The generator's layout options, which format 2 added after the
    /// stack's fields.
    #[derive(Deserialize)]
    pub(super) struct Layout {
        pub(super) corridors: CorridorStyle,
        pub(super) grid_spacing: u16,
        #[serde(with = "crate::config::grid_segment_field")]
        pub(super) grid_segment: Range,
        pub(super) rooms_may_overlap: bool,
        pub(super) extra_loops: LoopConfig,
        pub(super) dead_ends: DeadEndPolicy,
    }

    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    /// A run of format 2, or of format 1 with its own config: the config,
    /// then the state before Combat.
    #[derive(Deserialize)]
    pub(in crate::save) struct Run<C = Config> {
        config: C,
        state: RunState,
    }

    /// Today's config from the parts formats 1 to 4 hold (formats 1 to 3
    /// with the pre-Combat rules, format 4 with today's).
    pub(super) fn config(
        stack: Stack,
        layout: Layout,
        simulation: impl Into<config::SimulationConfig>,
        generation_retries: u16,
    ) -> config::Config {
        config::Config {
            width: stack.width,
            height: stack.height,
            levels: stack.levels,
            rooms: stack.rooms,
            hardness: stack.hardness,
            tunnel: stack.tunnel,
            stairs: stack.stairs,
            corridors: layout.corridors,
            grid_spacing: layout.grid_spacing,
            grid_segment: layout.grid_segment,
            rooms_may_overlap: layout.rooms_may_overlap,
            extra_loops: layout.extra_loops,
            dead_ends: layout.dead_ends,
            simulation: simulation.into(),
            generation_retries,
            room_loops: config::RoomLoopConfig::NONE,
            vaults: config::VaultConfig::NONE,
            profiles: Vec::new(),
            revisions: config::Revisions::FIRST,
            ..config::Config::default()
        }
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config(c.stack, c.layout, c.simulation, c.generation_retries)
        }
    }

    impl<C: Into<config::Config>> From<Run<C>> for crate::sim::Run {
        fn from(r: Run<C>) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), None, Vec::new())
        }
    }
}
