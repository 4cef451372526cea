//! What keeps old saves and digests as they were: the config as a
//! digest sees it, a Stomp run's state as save format 2 held it, the
//! constructors the save module builds old formats' runs with, and the
//! digest itself. Nothing else in `sim` names a save format, so a new
//! field of the config or the state is taught to old files here alone.

use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::dice::Dice;
use crate::sim::kinds::ability::Ability;
use crate::sim::kinds::item::ItemClass;
#[cfg(feature = "save")]
use crate::sim::kinds::item::ItemKind;
use crate::sim::kinds::monster::{Colour, MonsterKind, Trait};
use crate::sim::kinds::table::Depths;
use crate::sim::state::combat_state::{CombatState, Floor, Hero};
use crate::sim::state::tactics::Tactics;
use crate::sim::state::{LevelState, Player, Run, RunState, Searched};
use crate::sim::units::{DIGEST_CELL_WORK, DIGEST_MONSTER_WORK, DIGEST_WORK};
use crate::sim::vocabulary::Outcome;

use crate::config::profile::{
    Band, CavePatch, HardnessPatch, LabyrinthPatch, LoopPatch, MonsterPatch, Profile, RangePatch,
    RoomLoopPatch, RoomPatch, StairsPatch, TunnelPatch, VaultPatch,
};
use crate::config::{
    CaveConfig, CombatConfig, Config, CorridorStyle, DeadEndPolicy, Goal, HardnessConfig,
    LabyrinthConfig, LevelKind, LoopConfig, Range, Revisions, RoomConfig, RoomLoopConfig, Rules,
    SimulationConfig, StairsConfig, TunnelConfig, VaultConfig,
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
    simulation: DigestSimulation<'a>,
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
    /// Left out when none, as for runs from before vaults.
    #[serde(skip_serializing_if = "no_vaults")]
    vaults: &'a VaultConfig,
    /// Left out when there are none, as for runs from before profiles.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    profiles: Vec<DigestProfile<'a>>,
    /// Left out at the first revisions, as for runs from before them.
    #[serde(skip_serializing_if = "Revisions::is_first")]
    revisions: Revisions,
    /// Left out for rooms and corridors, as for runs from before kinds of
    /// level; the kinds' settings likewise while they are the defaults.
    #[serde(skip_serializing_if = "is_rooms")]
    kind: LevelKind,
    #[serde(skip_serializing_if = "is_default_cave")]
    cave: &'a CaveConfig,
    #[serde(skip_serializing_if = "is_default_labyrinth")]
    labyrinth: &'a LabyrinthConfig,
    /// Left out at 0, as for runs from before secret doors.
    #[serde(skip_serializing_if = "is_zero")]
    secret_doors: f64,
}

/// A profile as a digest sees it: save format 6's fields in their order,
/// then each added since, left out while unset, so a run with profiles
/// digests as it did before kinds of level and secret doors.
#[derive(Serialize)]
pub(crate) struct DigestProfile<'a> {
    depths: &'a Band,
    rooms: &'a RoomPatch,
    hardness: &'a HardnessPatch,
    tunnel: &'a TunnelPatch,
    stairs: &'a StairsPatch,
    corridors: &'a Option<CorridorStyle>,
    grid_spacing: &'a Option<u16>,
    grid_segment: &'a RangePatch,
    rooms_may_overlap: &'a Option<bool>,
    extra_loops: &'a LoopPatch,
    room_loops: &'a RoomLoopPatch,
    dead_ends: &'a Option<DeadEndPolicy>,
    vaults: &'a VaultPatch,
    simulation: &'a MonsterPatch,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<LevelKind>,
    #[serde(skip_serializing_if = "is_unset_cave")]
    cave: &'a CavePatch,
    #[serde(skip_serializing_if = "is_unset_labyrinth")]
    labyrinth: &'a LabyrinthPatch,
    #[serde(skip_serializing_if = "Option::is_none")]
    secret_doors: Option<f64>,
}

impl<'a> DigestProfile<'a> {
    fn of(p: &'a Profile) -> DigestProfile<'a> {
        // Destructured, so a field added to profiles is a compile error
        // here until the digest is taught it.
        let Profile {
            depths,
            rooms,
            hardness,
            tunnel,
            stairs,
            corridors,
            grid_spacing,
            grid_segment,
            rooms_may_overlap,
            extra_loops,
            room_loops,
            dead_ends,
            vaults,
            simulation,
            kind,
            cave,
            labyrinth,
            secret_doors,
        } = p;
        DigestProfile {
            depths,
            rooms,
            hardness,
            tunnel,
            stairs,
            corridors,
            grid_spacing,
            grid_segment,
            rooms_may_overlap,
            extra_loops,
            room_loops,
            dead_ends,
            vaults,
            simulation,
            kind: *kind,
            cave,
            labyrinth,
            secret_doors: *secret_doors,
        }
    }
}

fn is_rooms(k: &LevelKind) -> bool {
    *k == LevelKind::Rooms
}
fn is_default_cave(c: &&CaveConfig) -> bool {
    **c == CaveConfig::default()
}
fn is_default_labyrinth(c: &&LabyrinthConfig) -> bool {
    **c == LabyrinthConfig::default()
}
fn is_unset_cave(c: &&CavePatch) -> bool {
    **c == CavePatch::default()
}
fn is_unset_labyrinth(c: &&LabyrinthPatch) -> bool {
    **c == LabyrinthPatch::default()
}

/// The simulation settings as they were before Combat, field by field:
/// what save formats 2 and 3 hold, and what a digest hashes of every run.
/// One list of these fields, so that the saves and the digest cannot drift
/// apart.
#[derive(Clone, Copy, Serialize, Deserialize)]
pub(crate) struct StompSimulation {
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
}

impl StompSimulation {
    fn of(s: &SimulationConfig) -> StompSimulation {
        StompSimulation {
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
        }
    }
}

/// A run saved before Combat is a Stomp run, with Combat's numbers at
/// their defaults (unused by Stomp).
impl From<StompSimulation> for SimulationConfig {
    fn from(s: StompSimulation) -> Self {
        SimulationConfig {
            rules: Rules::Stomp,
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
            combat: CombatConfig::default(),
            search_chance: SimulationConfig::SEARCH_CHANCE,
            passive_search_chance: SimulationConfig::PASSIVE_SEARCH_CHANCE,
        }
    }
}

/// The rules as a digest sees them: save format 2's fields in their order,
/// then the game and its numbers only for a Combat run, so a Stomp run's
/// digest is what it was before delve learnt Combat.
#[derive(Serialize)]
pub(crate) struct DigestSimulation<'a> {
    #[serde(flatten)]
    stomp: StompSimulation,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<Rules>,
    #[serde(skip_serializing_if = "Option::is_none")]
    combat: Option<&'a CombatConfig>,
    /// Left out at its default, as for runs from before searching.
    #[serde(skip_serializing_if = "Option::is_none")]
    search_chance: Option<f64>,
    /// Left out at its default, as for runs from before searching.
    #[serde(skip_serializing_if = "Option::is_none")]
    passive_search_chance: Option<f64>,
}

impl<'a> DigestSimulation<'a> {
    fn of(s: &'a SimulationConfig) -> DigestSimulation<'a> {
        let combat = s.is_combat();
        let unless = |v: f64, default: f64| (v != default).then_some(v);
        DigestSimulation {
            stomp: StompSimulation::of(s),
            rules: combat.then_some(s.rules),
            combat: combat.then_some(&s.combat),
            search_chance: unless(s.search_chance, SimulationConfig::SEARCH_CHANCE),
            passive_search_chance: unless(
                s.passive_search_chance,
                SimulationConfig::PASSIVE_SEARCH_CHANCE,
            ),
        }
    }
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
fn no_vaults(v: &&VaultConfig) -> bool {
    v.count.max == 0
}
fn no_room_loops(l: &&RoomLoopConfig) -> bool {
    l.count == 0
}
fn is_zero(v: &f64) -> bool {
    *v == 0.0
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
            simulation: DigestSimulation::of(&c.simulation),
            generation_retries: c.generation_retries,
            corridors: c.corridors,
            grid_spacing: c.grid_spacing,
            grid_segment: c.grid_segment,
            rooms_may_overlap: c.rooms_may_overlap,
            extra_loops: &c.extra_loops,
            dead_ends: c.dead_ends,
            room_loops: &c.room_loops,
            vaults: &c.vaults,
            profiles: c.profiles.iter().map(DigestProfile::of).collect(),
            revisions: c.revisions,
            kind: c.kind,
            cave: &c.cave,
            labyrinth: &c.labyrinth,
            secret_doors: c.secret_doors,
        }
    }
}

/// A monster kind as a Stomp run's digest sees it: the fields kinds had
/// before Combat gave them hit points.
#[derive(Serialize)]
struct StompKind<'a> {
    name: &'a str,
    glyph: char,
    colour: Colour,
    speed: u8,
    traits: &'a [Trait],
}

/// A Stomp run's state as save format 2 held it, field by field: its
/// digest is what it was before delve learnt Combat.
#[derive(Serialize)]
pub(crate) struct StompView<'a> {
    config: DigestConfig<'a>,
    kinds: Vec<StompKind<'a>>,
    seed: u64,
    rng: &'a Pcg64,
    levels: &'a [Option<LevelState>],
    player: &'a Player,
    turn: u64,
    killed: u32,
    log: &'a [String],
    outcome: Outcome,
    /// Left out when empty, as for runs from before searching.
    #[serde(skip_serializing_if = "<[Searched]>::is_empty")]
    searched: &'a [Searched],
}

/// An item kind as a digest sees it: the trade-offs format 8 added are
/// left out at their defaults, so the kinds of a run from before digest as
/// they did.
#[derive(Serialize)]
struct ItemKindDigest<'a> {
    name: &'a str,
    glyph: char,
    colour: Colour,
    class: &'a ItemClass,
    depths: Depths,
    rarity: u16,
    description: &'a str,
    #[serde(skip_serializing_if = "is_zero_i8")]
    accuracy: i8,
    #[serde(skip_serializing_if = "is_ten")]
    delay: u8,
    #[serde(skip_serializing_if = "is_zero_u8")]
    noise: u8,
}

fn is_zero_i8(n: &i8) -> bool {
    *n == 0
}

fn is_ten(n: &u8) -> bool {
    *n == 10
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// The Combat state as a digest sees it: its fields in order, the item
/// kinds as [`ItemKindDigest`].
#[derive(Serialize)]
struct CombatDigest<'a> {
    items: Vec<ItemKindDigest<'a>>,
    hero: &'a Hero,
    floors: &'a [Floor],
    kills: &'a [u32],
    cause: &'a Option<String>,
}

impl<'a> CombatDigest<'a> {
    fn of(c: &'a CombatState) -> CombatDigest<'a> {
        CombatDigest {
            items: c
                .items
                .iter()
                .map(|k| ItemKindDigest {
                    name: &k.name,
                    glyph: k.glyph,
                    colour: k.colour,
                    class: &k.class,
                    depths: k.depths,
                    rarity: k.rarity,
                    description: &k.description,
                    accuracy: k.accuracy,
                    delay: k.delay,
                    noise: k.noise,
                })
                .collect(),
            hero: &c.hero,
            floors: &c.floors,
            kills: &c.kills,
            cause: &c.cause,
        }
    }
}

/// A monster kind as a Combat run's digest sees it: its fields in their
/// order, the abilities (format 8) left out while it has none, so a run
/// whose kinds have none digests as it did before abilities.
#[derive(Serialize)]
struct DigestKind<'a> {
    name: &'a str,
    glyph: char,
    colour: Colour,
    speed: u8,
    traits: &'a [Trait],
    hp: Dice,
    damage: Dice,
    armour: u16,
    depths: Depths,
    rarity: u16,
    description: &'a str,
    #[serde(skip_serializing_if = "<[Ability]>::is_empty")]
    abilities: &'a [Ability],
}

impl<'a> DigestKind<'a> {
    fn of(k: &'a MonsterKind) -> DigestKind<'a> {
        // Destructured, so a field added to kinds is a compile error here
        // until the digest is taught it.
        let MonsterKind {
            name,
            glyph,
            colour,
            speed,
            traits,
            hp,
            damage,
            armour,
            depths,
            rarity,
            description,
            abilities,
        } = k;
        DigestKind {
            name,
            glyph: *glyph,
            colour: *colour,
            speed: *speed,
            traits,
            hp: *hp,
            damage: *damage,
            armour: *armour,
            depths: *depths,
            rarity: *rarity,
            description,
            abilities,
        }
    }
}

/// A monster kind as save formats 4 to 7 (and their journals' starts)
/// hold it: today's without abilities, which format 8 added last. Its
/// runs play by rules 3 or earlier, which have none.
#[cfg(feature = "save")]
#[derive(Deserialize)]
pub(crate) struct MonsterKindV7 {
    name: String,
    glyph: char,
    colour: Colour,
    speed: u8,
    traits: Vec<Trait>,
    hp: Dice,
    damage: Dice,
    armour: u16,
    depths: Depths,
    rarity: u16,
    description: String,
}

#[cfg(feature = "save")]
impl From<MonsterKindV7> for MonsterKind {
    fn from(k: MonsterKindV7) -> MonsterKind {
        MonsterKind {
            name: k.name,
            glyph: k.glyph,
            colour: k.colour,
            speed: k.speed,
            traits: k.traits,
            hp: k.hp,
            damage: k.damage,
            armour: k.armour,
            depths: k.depths,
            rarity: k.rarity,
            description: k.description,
            abilities: Vec::new(),
        }
    }
}

/// A Combat run's state as a digest sees it: `RunState`'s fields in their
/// order, each field added since format 6 left out while it is empty, so a
/// run from before it digests as it did.
#[derive(Serialize)]
struct CombatView<'a> {
    config: DigestConfig<'a>,
    kinds: Vec<DigestKind<'a>>,
    seed: u64,
    rng: &'a Pcg64,
    levels: &'a [Option<LevelState>],
    player: &'a Player,
    turn: u64,
    killed: u32,
    log: &'a [String],
    outcome: Outcome,
    combat: Option<CombatDigest<'a>>,
    #[serde(skip_serializing_if = "<[Searched]>::is_empty")]
    searched: &'a [Searched],
    /// Left out under rules before 4, which have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    tactics: &'a Option<Tactics>,
}

impl<'a> CombatView<'a> {
    fn of(config: &'a Config, s: &'a RunState) -> CombatView<'a> {
        let RunState {
            kinds,
            seed,
            rng,
            levels,
            player,
            turn,
            killed,
            log,
            outcome,
            combat,
            searched,
            tactics,
        } = s;
        CombatView {
            config: DigestConfig::of(config),
            kinds: kinds.iter().map(DigestKind::of).collect(),
            seed: *seed,
            rng,
            levels,
            player,
            turn: *turn,
            killed: *killed,
            log,
            outcome: *outcome,
            combat: combat.as_ref().map(CombatDigest::of),
            searched,
            tactics,
        }
    }
}

/// An item kind as save formats 4 to 7 (and journals of them) hold it:
/// today's without the trade-offs rules 4 read (accuracy, delay, noise),
/// which take their defaults, as rules before 4 never read them.
#[cfg(feature = "save")]
#[derive(Deserialize)]
pub(crate) struct ItemKindV7 {
    name: String,
    glyph: char,
    colour: Colour,
    class: ItemClass,
    depths: Depths,
    rarity: u16,
    description: String,
}

#[cfg(feature = "save")]
impl From<ItemKindV7> for ItemKind {
    fn from(k: ItemKindV7) -> ItemKind {
        ItemKind {
            name: k.name,
            glyph: k.glyph,
            colour: k.colour,
            class: k.class,
            depths: k.depths,
            rarity: k.rarity,
            description: k.description,
            ..ItemKind::plain()
        }
    }
}

/// The Combat state as save formats 4 to 7 hold it: today's but for the
/// item kinds (`ItemKindV7`).
#[cfg(feature = "save")]
#[derive(Deserialize)]
pub(crate) struct CombatStateV7 {
    items: Vec<ItemKindV7>,
    hero: Hero,
    floors: Vec<Floor>,
    kills: Vec<u32>,
    cause: Option<String>,
}

#[cfg(feature = "save")]
impl From<CombatStateV7> for CombatState {
    fn from(c: CombatStateV7) -> CombatState {
        CombatState {
            items: c.items.into_iter().map(Into::into).collect(),
            hero: c.hero,
            floors: c.floors,
            kills: c.kills,
            cause: c.cause,
        }
    }
}

/// What save formats 4 to 6 (and journals of them) hold of a run's state:
/// today's without where the player searched, which format 7 added last.
#[cfg(feature = "save")]
#[derive(Deserialize)]
pub(crate) struct RunStateV6 {
    kinds: Vec<MonsterKindV7>,
    seed: u64,
    rng: Pcg64,
    levels: Vec<Option<LevelState>>,
    player: Player,
    turn: u64,
    killed: u32,
    log: Vec<String>,
    outcome: Outcome,
    combat: Option<CombatStateV7>,
}

#[cfg(feature = "save")]
impl From<RunStateV6> for RunState {
    /// As format 7's state, having searched nowhere.
    fn from(s: RunStateV6) -> RunState {
        RunStateV7 {
            kinds: s.kinds,
            seed: s.seed,
            rng: s.rng,
            levels: s.levels,
            player: s.player,
            turn: s.turn,
            killed: s.killed,
            log: s.log,
            outcome: s.outcome,
            combat: s.combat,
            searched: Vec::new(),
        }
        .into()
    }
}

/// What save format 7 (and journals of it) holds of a run's state:
/// today's without what rules 4 add, which format 8 added last. A
/// format-7 run plays by rules 3 or earlier, which keep none of it.
#[cfg(feature = "save")]
#[derive(Deserialize)]
pub(crate) struct RunStateV7 {
    kinds: Vec<MonsterKindV7>,
    seed: u64,
    rng: Pcg64,
    levels: Vec<Option<LevelState>>,
    player: Player,
    turn: u64,
    killed: u32,
    log: Vec<String>,
    outcome: Outcome,
    combat: Option<CombatStateV7>,
    searched: Vec<Searched>,
}

#[cfg(feature = "save")]
impl From<RunStateV7> for RunState {
    fn from(s: RunStateV7) -> RunState {
        RunState {
            kinds: s.kinds.into_iter().map(Into::into).collect(),
            seed: s.seed,
            rng: s.rng,
            levels: s.levels,
            player: s.player,
            turn: s.turn,
            killed: s.killed,
            log: s.log,
            outcome: s.outcome,
            combat: s.combat.map(Into::into),
            searched: s.searched,
            tactics: None,
        }
    }
}

impl<'a> StompView<'a> {
    pub(crate) fn of(config: &'a Config, s: &'a RunState) -> StompView<'a> {
        StompView {
            config: DigestConfig::of(config),
            kinds: s
                .kinds
                .iter()
                .map(|k| StompKind {
                    name: &k.name,
                    glyph: k.glyph,
                    colour: k.colour,
                    speed: k.speed,
                    traits: &k.traits,
                })
                .collect(),
            seed: s.seed,
            rng: &s.rng,
            levels: &s.levels,
            player: &s.player,
            turn: s.turn,
            killed: s.killed,
            log: &s.log,
            outcome: s.outcome,
            searched: &s.searched,
        }
    }
}

impl RunState {
    /// A Stomp run's state from the fields of a save made before Combat.
    #[cfg(feature = "save")]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn stomp(
        kinds: Vec<MonsterKind>,
        seed: u64,
        rng: Pcg64,
        levels: Vec<Option<LevelState>>,
        player: Player,
        (turn, killed): (u64, u32),
        log: Vec<String>,
        outcome: Outcome,
    ) -> RunState {
        RunState {
            kinds,
            seed,
            rng,
            levels,
            player,
            turn,
            killed,
            log,
            outcome,
            combat: None,
            searched: Vec::new(),
            tactics: None,
        }
    }
}

impl Run {
    /// What a digest of the run ([`Run::digest`]) costs in units of
    /// [`Run::work`], told before it is taken: the levels visited, cell by
    /// cell, and their monsters. A replay that compares digests counts it
    /// against its bound, since a digest of many big levels takes longer
    /// than thousands of turns.
    pub fn digest_work(&self) -> u64 {
        self.state
            .levels
            .iter()
            .flatten()
            .map(|l| {
                let cells = u64::from(l.level.width()) * u64::from(l.level.height());
                cells * DIGEST_CELL_WORK + l.monsters.len() as u64 * DIGEST_MONSTER_WORK
            })
            .sum::<u64>()
            + DIGEST_WORK
    }

    /// A stable hash of the complete state: two runs have the same digest
    /// exactly when their states are equal (up to hash collisions).
    pub fn digest(&self) -> u64 {
        // The run as it serialises, but with the config's digest view (see
        // `DigestConfig`): fields in the same order, so the bytes hashed are
        // the run's JSON.
        let mut bytes = match self.combat() {
            Some(_) => serde_json::to_vec(&CombatView::of(&self.config, &self.state)),
            // A Stomp run digests as it did before Combat: its kinds without
            // the Combat fields, and no Combat state.
            None => serde_json::to_vec(&StompView::of(&self.config, &self.state)),
        }
        .expect("a run always serialises");
        // The vaults shape the levels not made yet; a run from before
        // vaults has none and digests as it did.
        if !self.vaults.is_empty() {
            bytes.extend(serde_json::to_vec(&self.vaults).expect("vaults always serialise"));
        }
        // FNV-1a, 64 bits: simple, stable across machines and Rust versions.
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        })
    }
}
