//! The simulation: a persistent multi-level run.
//!
//! A pure state machine: [`Run::step`] takes an [`Action`] and returns the
//! [`Event`]s it caused. No IO, no clock; the only randomness is the run's
//! own PCG stream (saved with the run) and per-level streams derived from
//! the seed for monster placement, so a level's monsters do not depend on
//! the order levels are visited in.
//!
//! Rules (seeds 001 and 002):
//! - Actors act in order of their next-move tick (speed s moves every
//!   1000/s ticks); at equal ticks the player goes first, then monsters by
//!   index.
//! - The player stepping onto a monster kills it; a monster stepping onto
//!   the player dies and costs a life.
//! - Telepathic monsters always know where the player is; others when the
//!   player is within their perception radius (orthogonal steps) and in
//!   line of sight. Smart monsters follow the distance map downhill and
//!   remember where they last saw the player; others step straight toward
//!   what they know; erratic ones move at random half the time; the rest
//!   wander.
//! - Tunnellers wear rock down by `dig_per_turn` a move and move in when it
//!   opens.
//! - Only the player's level moves; the others keep their state until the
//!   player returns.

mod autopilot;
mod autopilot_combat;
pub mod batch;
pub mod combat;
mod digest;
mod distance;
mod explore;
mod fight;
mod fov;
pub mod game;
mod hunt;
pub mod item;
mod monster;
pub mod morgue;
mod place;
pub mod record;
pub mod table;
mod travel;

pub use autopilot::{autopilot, decide, explore_step, fetch_step, play_headless};
#[cfg(feature = "save")]
pub(crate) use digest::StompSimulation;
pub use distance::{DIRECTIONS, DistanceMap, LazyWalk, can_step};
pub use explore::Plan;
pub use fight::{monster_name, wound_word};
pub use fov::visible_cells;
pub use game::{CombatState, slot_letter};
pub use item::{ItemKind, items_from_ron};
pub use monster::{Colour, Monster, MonsterKind, Trait, monsters_from_ron};
pub use table::{KindProblem, MAX_KINDS};
pub use travel::travel_step;

use rand::RngExt;
use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::config::{Config, Goal};
use crate::dungeon::Dungeon;
use crate::generate::{GenerateError, Generator};
use crate::geom::Pos;
use crate::level::{Level, StairDirection, Tile};
use crate::streams::{Stage, stage_rng};
use crate::vault::Vault;

/// Units of [`Run::work`] a step costs before sight and monsters: with
/// the units below, a unit is some 2 ns of this machine's time in every
/// kind of turn measured (few or a thousand monsters on a level).
const STEP_WORK: u64 = 64;
/// Units of [`Run::work`] a monster's move costs, besides looking at every
/// monster of the level to choose it.
const MONSTER_TURN_WORK: u64 = 200;

/// Units of [`Run::work`] making a level costs besides its cells and the
/// generator's own work: buffers, stairs, monsters placed. Some 0.3 ms.
const LEVEL_WORK: u64 = 100_000;
/// Units of [`Run::work`] making a level costs a cell of its area: a level
/// of 2,000 by 2,000 took 0.16 to 0.27 s to make here, 40 to 70 ns a cell,
/// with default rooms or rooms scaled to its area.
const LEVEL_CELL_WORK: u64 = 20;
/// Units of [`Run::work`] a unit of the generator's own budget
/// ([`crate::generate::budget`]) costs on top: what a config that asks for
/// many rooms, attempts or loops adds to a level's time (some 5 ns a unit
/// measured), which its area does not tell.
const LEVEL_SPENT_WORK: u64 = 2;
/// Units of [`Run::work`] a digest ([`Run::digest`]) costs a cell of each
/// level visited: the state is written out as JSON and hashed, 40 to 65 ns
/// a cell measured on levels of 500 to 2,000 cells a side (a digest of one
/// 2,000 by 2,000 level took 0.2 to 0.26 s), and a kept copy of the run
/// costs a hundredth of that.
const DIGEST_CELL_WORK: u64 = 24;
/// Units of [`Run::work`] a digest costs a monster of a visited level (its
/// place, kind, timer, memory and hit points written out).
const DIGEST_MONSTER_WORK: u64 = 100;
/// Units of [`Run::work`] a digest costs besides: the config, the kinds,
/// the log, the pack.
const DIGEST_WORK: u64 = 50_000;

/// The work ([`Run::work`] units) making a level of `cells` costs, its
/// generator having spent `spent` of its own budget.
fn level_work(cells: u64, spent: u64) -> u64 {
    LEVEL_WORK + cells * LEVEL_CELL_WORK + spent * LEVEL_SPENT_WORK
}

/// How many log lines a run keeps.
const LOG_LINES: usize = 200;

/// The last turn a run can reach: a run at this turn takes no more steps.
/// Every action a run records takes one turn, so this is also the most
/// actions a recording, a save or a journal can hold, and a file claiming
/// more is refused before anything is replayed. A whole game of delve
/// takes 15,000 to 20,000 turns; the work a replay does is bounded apart
/// from this (`journal::check::REPLAY_WORK`), as a turn's cost depends on
/// the config.
pub const MAX_TURNS: u64 = 500_000;

/// What the player does with a turn.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A king move: `dx`, `dy` in -1..=1, not both 0.
    Move {
        /// Column step, -1 to 1.
        dx: i8,
        /// Row step, -1 to 1.
        dy: i8,
    },
    /// Let a turn pass in place, so monsters move.
    Wait,
    /// Take the down staircase the player stands on.
    Descend,
    /// Take the up staircase the player stands on.
    Ascend,
    /// Pick up the top item on the player's cell (Combat).
    PickUp,
    /// Drop the item in a pack slot (0 is slot a).
    Drop {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Wield a weapon or put on armour from the pack.
    Wield {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Drink a potion from the pack.
    Quaff {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Read a scroll from the pack.
    Read {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
}

/// An action in words (`move 1,-1`, `quaff slot b`), for messages about
/// recordings and journals.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Slots are letters on screen; one past z (only in a damaged file)
        // is shown as its number.
        let slot = |s: u8| match s {
            0..26 => char::from(b'a' + s).to_string(),
            _ => s.to_string(),
        };
        match *self {
            Action::Move { dx, dy } => write!(f, "move {dx},{dy}"),
            Action::Wait => f.write_str("wait"),
            Action::Descend => f.write_str("descend"),
            Action::Ascend => f.write_str("ascend"),
            Action::PickUp => f.write_str("pick up"),
            Action::Drop { slot: s } => write!(f, "drop slot {}", slot(s)),
            Action::Wield { slot: s } => write!(f, "wield slot {}", slot(s)),
            Action::Quaff { slot: s } => write!(f, "quaff slot {}", slot(s)),
            Action::Read { slot: s } => write!(f, "read slot {}", slot(s)),
        }
    }
}

/// Something that happened during a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The action was not possible (rock, no stairs here); no time passed.
    Blocked,
    /// The player stood on a new cell (after a move, stairs or a kill).
    Moved {
        /// The cell now stood on.
        to: Pos,
    },
    /// The player stepped onto a monster.
    Killed {
        /// Name of the monster's kind.
        kind: String,
    },
    /// A monster stepped onto the player; it died and took a life.
    Hit {
        /// Name of the monster's kind.
        kind: String,
        /// Lives left after the hit.
        lives: u8,
    },
    /// A tunneller opened rock.
    Dug {
        /// The cell that became corridor.
        at: Pos,
    },
    /// The player took stairs to another level.
    Arrived {
        /// The level arrived on, 1 at the top.
        depth: u16,
    },
    /// The run's goal was reached; nothing happens after this.
    Won,
    /// The last life was lost; nothing happens after this.
    Lost,
    /// An attack (Combat): the player's on a monster of `kind`, or one of
    /// its on the player; `damage` is `None` for a miss.
    Attacked {
        /// Whose attack, so messages say who hit whom.
        by_player: bool,
        /// Name of the monster's kind.
        kind: String,
        /// Hit points taken, or `None` for a miss.
        damage: Option<u16>,
    },
    /// A monster of `kind` brought the player to 0 hit points (Combat).
    Slain {
        /// Name of the monster's kind, the cause of death.
        kind: String,
        /// Lives left; 0 ends the run.
        lives: u8,
    },
    /// The top item of the player's cell went into the pack.
    PickedUp {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A pack item was put down on the player's cell.
    Dropped {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A weapon wielded or armour worn; the old one goes to the pack.
    Equipped {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A potion drunk or a scroll read.
    Used {
        /// The item kind's name, for the message.
        name: String,
    },
}

/// Where a run stands.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Still going: actions are played.
    Playing,
    /// The goal was reached; the run takes no more actions.
    Won,
    /// Every life was lost; the run takes no more actions.
    Lost,
}

impl Outcome {
    /// `playing`, `won` or `lost`: the one word every message, table and
    /// JSON field uses for an outcome.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The level the player is on, 1 at the top.
    pub depth: u16,
    /// The cell the player stands on.
    pub pos: Pos,
    /// Lives left; at 0 the run is lost.
    pub lives: u8,
    /// Tick of the player's next action.
    pub next: u64,
}

/// A visited level and what lives on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelState {
    /// The level as generated, with any rock tunnellers have dug since.
    pub level: Level,
    /// Monsters still alive here; a killed one is removed.
    pub monsters: Vec<Monster>,
    /// Cells the player has seen, a bit a cell (fog of war).
    pub seen: Vec<u64>,
}

impl LevelState {
    /// Whether the player has ever seen `p` (fog of war); `p` must be on the level.
    pub fn has_seen(&self, p: Pos) -> bool {
        let i = self.level.index(p);
        self.seen[i / 64] & (1 << (i % 64)) != 0
    }

    fn mark_seen(&mut self, p: Pos) {
        let i = self.level.index(p);
        self.seen[i / 64] |= 1 << (i % 64);
    }

    /// Index in `monsters` of the monster on `p`, if any.
    pub fn monster_at(&self, p: Pos) -> Option<usize> {
        self.monsters.iter().position(|m| m.pos == p)
    }
}

/// Derived per-move data: recomputed from the state, never saved.
#[derive(Clone, Debug, Default)]
struct Sight {
    /// Cells visible from the player now (within the larger of the sight
    /// and perception radii), a bit a cell.
    visible: Vec<u64>,
    /// Walking distances from the player, searched as far as asked.
    walking: LazyWalk,
    /// Whether `walking` is from the player's current cell.
    walking_fresh: bool,
    /// A depth known to have no frontier left (every cell the player can
    /// reach is seen). Seeing more never adds a frontier then; only digging
    /// can, which clears it.
    explored: std::cell::Cell<Option<u16>>,
    tunnelling: Option<DistanceMap>,
    /// Work done since the run was made or loaded, but for the walking
    /// search's own (see [`Run::work`]).
    work: u64,
}

/// A run: the whole state of one game. What a save holds is the config
/// and `RunState`; the rest is derived and rebuilt on load.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    config: Config,
    state: RunState,
    /// Every action of the run since its start, which a replay of the
    /// start plays again to this state (see [`record`]). Saved after the
    /// state (save format 3 on); not compared or digested, since it is the
    /// history of the state rather than part of it. `None` for a run from
    /// a save made before runs were recorded, or built on a hand-made level.
    recording: Option<record::Recording>,
    /// The vaults the run's levels are given (save format 5 on), kept with
    /// the run because the vaults file may change after it started: a level
    /// not visited yet must come out as it would have. Empty for runs from
    /// before vaults.
    vaults: Vec<Vault>,
    #[serde(skip)]
    sight: Sight,
    /// Lines logged since this value was made (not saved): lets a viewer
    /// tell which lines of the capped log are new.
    #[serde(skip)]
    said: u64,
    /// Levels generated but not visited yet, by depth (see
    /// [`Run::prove_stack`]). Not saved, compared or digested: a level is a
    /// function of (config, seed, depth), so one taken from here is the
    /// level that would be generated on arrival.
    /// Shared, so that a copy of the run (a replay keeps one at every
    /// checkpoint that agrees) does not copy every level not visited yet.
    #[serde(skip)]
    made: Vec<Option<std::sync::Arc<Level>>>,
}

/// The saved state of a run besides its config: the one list of the fields
/// a save holds after the config, in the order it holds them. Equality, the
/// digest and every save format read this struct, so a new field is added
/// here alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunState {
    kinds: Vec<MonsterKind>,
    seed: u64,
    rng: Pcg64,
    levels: Vec<Option<LevelState>>,
    player: Player,
    turn: u64,
    killed: u32,
    log: Vec<String>,
    outcome: Outcome,
    /// The Combat game's state; `None` for a Stomp run.
    combat: Option<CombatState>,
}

impl RunState {
    /// The state of a run that has not started yet.
    fn new(
        kinds: Vec<MonsterKind>,
        seed: u64,
        levels: Vec<Option<LevelState>>,
        player: Player,
        combat: Option<CombatState>,
    ) -> RunState {
        RunState {
            combat,
            kinds,
            seed,
            rng: stage_rng(seed, 0, 0, Stage::Play),
            levels,
            player,
            turn: 0,
            killed: 0,
            log: Vec::new(),
            outcome: Outcome::Playing,
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
        }
    }
}

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        // The derived data is a function of the saved state.
        self.config == other.config && self.state == other.state && self.vaults == other.vaults
    }
}

impl Run {
    /// A new run: every level of the stack generated (so a run never meets
    /// a level that cannot be made halfway down; see [`Run::prove_stack`]),
    /// depth 1 populated, the player on its arrival staircase (or in the
    /// first room's centre).
    pub fn new(config: Config, kinds: Vec<MonsterKind>, seed: u64) -> Result<Run, GenerateError> {
        Run::with_items(
            config,
            kinds,
            ItemKind::defaults(),
            crate::vault::shipped().to_vec(),
            seed,
        )
    }

    /// A new run with its own item kinds (used only under Combat) and
    /// vaults (a vaults file's, or none).
    pub fn with_items(
        config: Config,
        kinds: Vec<MonsterKind>,
        items: Vec<ItemKind>,
        vaults: Vec<Vault>,
        seed: u64,
    ) -> Result<Run, GenerateError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Run::with_items_on(config, (kinds, items, vaults), seed, cores)
    }

    /// [`Run::with_items`] with the stack generated on at most `threads`
    /// threads. A batch that plays whole runs on every core passes 1, so
    /// that `--jobs J` is J threads: runs' stacks then neither fight each
    /// other for the cores nor borrow an idle one under `--jobs 1`. The run
    /// is the same for any count.
    pub fn with_items_on(
        config: Config,
        (kinds, items, vaults): (Vec<MonsterKind>, Vec<ItemKind>, Vec<Vault>),
        seed: u64,
        threads: usize,
    ) -> Result<Run, GenerateError> {
        let mut run = Run::unstarted(config, (kinds, items, vaults), seed);
        run.prove_stack_on(threads)?;
        run.begin()?;
        Ok(run)
    }

    /// [`Run::with_items`] for a replay of a file, whose config no one
    /// vouches for: the stack proved within `limit` units of [`Run::work`]
    /// ([`Run::prove_stack_within`], counted in the run's work), `None`
    /// when making it would take more. The run is [`Run::with_items`]'s.
    pub fn with_items_within(
        config: Config,
        (kinds, items, vaults): (Vec<MonsterKind>, Vec<ItemKind>, Vec<Vault>),
        seed: u64,
        limit: u64,
    ) -> Result<Option<Run>, GenerateError> {
        let mut run = Run::unstarted(config, (kinds, items, vaults), seed);
        if !run.prove_stack_within(limit)? {
            return Ok(None);
        }
        run.begin()?;
        Ok(Some(run))
    }

    /// A new run before its stack is proved and it begins.
    fn unstarted(
        config: Config,
        (kinds, items, vaults): (Vec<MonsterKind>, Vec<ItemKind>, Vec<Vault>),
        seed: u64,
    ) -> Run {
        let levels = vec![None; usize::from(config.levels)];
        let combat = config.simulation.is_combat().then(|| {
            CombatState::new(
                items,
                config.simulation.combat.player_hp,
                config.levels,
                kinds.len(),
            )
        });
        let player = Player {
            depth: 1,
            pos: Pos::new(0, 0),
            lives: config.simulation.lives,
            next: 0,
        };
        Run::from_saved(
            config,
            RunState::new(kinds, seed, levels, player, combat),
            None,
            vaults,
        )
    }

    /// The first step of a new run, once its stack is proved (or, for
    /// [`Run::start_again`], not): depth 1 entered and populated, the
    /// player on its arrival staircase, and the recording begun from the
    /// digest of that state.
    fn begin(&mut self) -> Result<(), GenerateError> {
        let run = self;
        run.enter(1)?;
        let level = &run.current().level;
        let start = level
            .stairs_going(StairDirection::Up)
            .next()
            .map(|s| s.pos)
            .unwrap_or_else(|| level.room_cell(0));
        run.state.player.pos = start;
        run.say("You enter the dungeon.".to_string());
        run.refresh();
        // A one-level ReachBottom run, or a single level without monsters,
        // is won before the first move.
        run.check_won(&mut Vec::new());
        run.recording = Some(record::Recording::starting(run.digest()));
        Ok(())
    }

    /// The start of this run made again from its seed, config, kinds,
    /// item kinds and vaults: what its recording replays from. Only the
    /// first level is made (the start's state holds no other), so this
    /// costs one level, and a run whose deeper levels cannot be made still
    /// has a start to compare with.
    pub fn start_again(&self) -> Result<Run, GenerateError> {
        let items = self
            .state
            .combat
            .as_ref()
            .map_or_else(Vec::new, |c| c.items.clone());
        let mut run = Run::unstarted(
            self.config.clone(),
            (self.state.kinds.clone(), items, self.vaults.clone()),
            self.state.seed,
        );
        run.begin()?;
        Ok(run)
    }

    /// A run on one hand-built level, for tests and tools: monsters given
    /// as (kind index, position).
    pub fn on_level(
        mut config: Config,
        kinds: Vec<MonsterKind>,
        level: Level,
        player: Pos,
        monsters: &[(u16, Pos)],
    ) -> Run {
        // The stack must reach the level's depth.
        config.levels = config.levels.max(level.depth());
        let mut levels = vec![None; usize::from(config.levels)];
        let depth = level.depth();
        let cells = usize::from(level.width()) * usize::from(level.height());
        levels[usize::from(depth) - 1] = Some(LevelState {
            monsters: monsters
                .iter()
                .enumerate()
                .map(|(id, &(kind, pos))| Monster {
                    id: id as u32,
                    kind,
                    pos,
                    next: 0,
                    memory: None,
                })
                .collect(),
            seen: vec![0; cells.div_ceil(64)],
            level,
        });
        let player = Player {
            depth,
            pos: player,
            lives: config.simulation.lives,
            next: 0,
        };
        let mut combat = config.simulation.is_combat().then(|| {
            CombatState::new(
                ItemKind::defaults(),
                config.simulation.combat.player_hp,
                config.levels,
                kinds.len(),
            )
        });
        if let Some(state) = &mut combat {
            let floor = &mut state.floors[usize::from(depth) - 1];
            for &(kind, _) in monsters {
                let hp = kinds
                    .get(usize::from(kind))
                    .map_or(1, |k| k.hp.max().clamp(1, 10_000) as u16);
                floor.monster_hp.push(hp);
                floor.monster_max_hp.push(hp);
            }
        }
        let mut run = Run::from_saved(
            config,
            RunState::new(kinds, 0, levels, player, combat),
            None,
            Vec::new(),
        );
        run.refresh();
        run
    }

    /// Mutable access for tests and tools that build situations by hand
    /// (items on the floor, a pack, hit points). Play never needs it.
    pub fn combat_mut(&mut self) -> Option<&mut CombatState> {
        self.state.combat.as_mut()
    }

    /// Generates every level the player has not visited yet, on all cores,
    /// and keeps them for the player's arrival. A run whose stack has a
    /// level that cannot be made must be refused before it starts, since the
    /// config travels with the run and could not be changed afterwards: so
    /// [`Run::new`] calls this, and callers should for a run loaded from a
    /// save made before runs proved their stack. Levels already made are not
    /// made again. On failure, the error of the shallowest level that cannot
    /// be made.
    pub fn prove_stack(&mut self) -> Result<(), GenerateError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.prove_stack_on(cores)
    }

    /// [`Run::prove_stack`] on at most `threads` threads.
    fn prove_stack_on(&mut self, threads: usize) -> Result<(), GenerateError> {
        let levels = usize::from(self.config.levels);
        self.made.resize(levels, None);
        let missing: Vec<u16> = (1..=self.config.levels)
            .filter(|&d| {
                let slot = usize::from(d) - 1;
                self.state.levels[slot].is_none() && self.made[slot].is_none()
            })
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let mut dungeon =
            Dungeon::with_vaults(self.config.clone(), self.vaults.clone(), self.state.seed);
        dungeon.generate_depths_on(&missing, threads)?;
        for (slot, level) in dungeon.into_levels().into_iter().enumerate() {
            if let Some(level) = level {
                self.made[slot] = Some(std::sync::Arc::new(level));
            }
        }
        Ok(())
    }

    /// [`Run::prove_stack`] within `limit` units of [`Run::work`]: what a
    /// replay of a file does, so that a journal whose config asks for huge
    /// levels cannot keep it making them for minutes. False, with the
    /// stack not proved, when making the levels would take more than
    /// `limit`: at once, before any is made, when their area alone would
    /// ([`LEVEL_CELL_WORK`] a cell), and otherwise once the levels made so
    /// far, counted in depth order with their generator's own work, have.
    /// Levels are made a few at a time (as many as there are cores), so at
    /// most that many are made past the limit; whether the stack is
    /// proved is the same for any number of cores. Its work is counted in
    /// [`Run::work`].
    pub fn prove_stack_within(&mut self, limit: u64) -> Result<bool, GenerateError> {
        use rayon::prelude::*;

        let levels = usize::from(self.config.levels);
        self.made.resize(levels, None);
        let missing: Vec<u16> = (1..=self.config.levels)
            .filter(|&d| {
                let slot = usize::from(d) - 1;
                self.state.levels[slot].is_none() && self.made[slot].is_none()
            })
            .collect();
        let cells = u64::from(self.config.width) * u64::from(self.config.height);
        let least = (missing.len() as u64).saturating_mul(level_work(cells, 0));
        if least > limit {
            return Ok(false);
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut spent = 0u64;
        for chunk in missing.chunks(cores) {
            let (config, vaults, seed) = (&self.config, &self.vaults[..], self.state.seed);
            let made: Vec<(Result<Level, GenerateError>, u64)> = chunk
                .par_iter()
                .with_max_len(1)
                .map(|&d| {
                    let mut generator = Generator::default();
                    let level = generator.level(config, vaults, seed, d);
                    (level, generator.work_spent())
                })
                .collect();
            // In depth order, so the shallowest level that cannot be made,
            // or the depth at which the work passes the limit, is the same
            // whatever the chunks.
            for (&d, (level, level_spent)) in chunk.iter().zip(made) {
                let level = level?;
                let work = level_work(cells, level_spent);
                self.sight.work += work;
                spent += work;
                self.made[usize::from(d) - 1] = Some(std::sync::Arc::new(level));
                if spent > limit {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

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

    /// The config the run was started with; it travels with the save.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The monster kinds of this run, indexed by [`Monster::kind`].
    pub fn kinds(&self) -> &[MonsterKind] {
        &self.state.kinds
    }

    /// The seed every level and the run's own randomness come from.
    pub fn seed(&self) -> u64 {
        self.state.seed
    }

    /// Where the player is and how many lives are left.
    pub fn player(&self) -> &Player {
        &self.state.player
    }

    /// Player actions played so far; blocked actions do not count.
    pub fn turn(&self) -> u64 {
        self.state.turn
    }

    /// Monsters the player has crushed; those lost on hitting the player do not count.
    pub fn killed(&self) -> u32 {
        self.state.killed
    }

    /// Whether the run goes on, was won or was lost.
    pub fn outcome(&self) -> Outcome {
        self.state.outcome
    }

    /// The latest messages, oldest first; only the last 200 lines are kept.
    pub fn log(&self) -> &[String] {
        &self.state.log
    }

    /// How many lines were logged since this run was made or loaded. The
    /// log keeps only its last lines, so its length alone cannot say how
    /// many lines a step added; the difference of two counts can.
    pub fn said(&self) -> u64 {
        self.said
    }

    /// Monsters left on the player's level, and in the whole dungeon.
    /// Levels not visited yet are counted at the population they are
    /// generated with (placement may fall short only when a level has
    /// almost no floor outside its arrival room).
    pub fn monsters_left(&self) -> (u32, u32) {
        let here = self.current().monsters.len() as u32;
        let total = (1..=self.config.levels)
            .map(|d| match self.level_state(d) {
                Some(state) => state.monsters.len() as u32,
                None => monsters_wanted(&self.config, d) as u32,
            })
            .sum();
        (here, total)
    }

    /// The state of a level, if the player has been there.
    pub fn level_state(&self, depth: u16) -> Option<&LevelState> {
        self.state
            .levels
            .get(usize::from(depth).checked_sub(1)?)?
            .as_ref()
    }

    /// Depths the player has visited.
    pub fn visited(&self) -> impl Iterator<Item = u16> + '_ {
        self.state
            .levels
            .iter()
            .enumerate()
            .filter(|(_, l)| l.is_some())
            .map(|(i, _)| i as u16 + 1)
    }

    /// The player's level.
    pub fn current(&self) -> &LevelState {
        self.state.levels[usize::from(self.state.player.depth) - 1]
            .as_ref()
            .expect("the player's level is always generated")
    }

    fn current_mut(&mut self) -> &mut LevelState {
        self.state.levels[usize::from(self.state.player.depth) - 1]
            .as_mut()
            .expect("the player's level is always generated")
    }

    /// Whether the player sees `p` now.
    pub fn sees(&self, p: Pos) -> bool {
        let level = &self.current().level;
        let i = level.index(p);
        let r = i32::from(self.config.simulation.sight_radius);
        let (dx, dy) = (
            i32::from(p.x) - i32::from(self.state.player.pos.x),
            i32::from(p.y) - i32::from(self.state.player.pos.y),
        );
        dx * dx + dy * dy <= r * r + r
            && self
                .sight
                .visible
                .get(i / 64)
                .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Walking distances to the player on the current level, taken out of
    /// the run while they are used (give them back with
    /// [`Run::put_walk`], so the search done so far is kept for the turn).
    pub fn take_walk(&mut self) -> LazyWalk {
        let mut walk = std::mem::take(&mut self.sight.walking);
        if !self.sight.walking_fresh {
            walk.reset(&self.current().level, self.state.player.pos);
            self.sight.walking_fresh = true;
        }
        walk
    }

    /// Gives back what [`Run::take_walk`] took.
    pub fn put_walk(&mut self, walk: LazyWalk) {
        self.sight.walking = walk;
    }

    /// A count of the simulation's work since this value was made or
    /// loaded: a unit a step, a monster looked at when the next one to move
    /// is chosen, a cell cleared or searched for sight and distances, a
    /// level made on arrival or by [`Run::prove_stack_within`] (its cells
    /// and its generator's own work; [`Run::prove_stack`], unbounded, is
    /// not counted). It is
    /// a function of the run and its actions alone, never of the clock, so
    /// a replay bounded by it stops at the same action on every machine:
    /// what lets any file, whatever its config asks of each turn, be
    /// replayed within a bounded time (see `journal::check`).
    pub fn work(&self) -> u64 {
        self.sight.work + self.sight.walking.effort()
    }

    /// The depth known to be explored, if any (see [`Sight`]).
    pub(super) fn explored(&self) -> &std::cell::Cell<Option<u16>> {
        &self.sight.explored
    }

    fn tunnelling_map(&mut self) -> &DistanceMap {
        if self.sight.tunnelling.is_none() {
            let dig = self.config.simulation.dig_per_turn;
            let level = &self.current().level;
            self.sight.work += 12 * u64::from(level.width()) * u64::from(level.height());
            let map = DistanceMap::tunnelling(&self.current().level, self.state.player.pos, dig);
            self.sight.tunnelling = Some(map);
        }
        self.sight.tunnelling.as_ref().expect("just computed")
    }

    /// Recomputes what the player sees (and remembers it) and drops the
    /// distance maps, which are rebuilt on first use after a player move.
    fn refresh(&mut self) {
        let sim = &self.config.simulation;
        let radius = u16::from(sim.sight_radius.max(sim.perception_radius));
        let sight_r = i32::from(sim.sight_radius);
        let origin = self.state.player.pos;
        let depth = usize::from(self.state.player.depth) - 1;
        let state = self.state.levels[depth]
            .as_mut()
            .expect("the player's level is always generated");
        let cells = usize::from(state.level.width()) * usize::from(state.level.height());
        let side = 2 * u64::from(radius) + 1;
        self.sight.work += 2 * ((cells as u64).div_ceil(64) + side * side);
        let mut visible = std::mem::take(&mut self.sight.visible);
        visible.clear();
        visible.resize(cells.div_ceil(64), 0);
        let mut newly_seen = Vec::new();
        visible_cells(&state.level, origin, radius, |p| {
            let i = state.level.index(p);
            visible[i / 64] |= 1 << (i % 64);
            let (dx, dy) = (
                i32::from(p.x) - i32::from(origin.x),
                i32::from(p.y) - i32::from(origin.y),
            );
            if dx * dx + dy * dy <= sight_r * sight_r + sight_r {
                newly_seen.push(p);
            }
        });
        for p in newly_seen {
            state.mark_seen(p);
        }
        self.sight.visible = visible;
        self.sight.walking_fresh = false;
        self.sight.tunnelling = None;
    }

    /// A run from its saved parts, for the save module. Derived data is
    /// rebuilt by [`Run::after_load`].
    pub(crate) fn from_saved(
        config: Config,
        state: RunState,
        recording: Option<record::Recording>,
        vaults: Vec<Vault>,
    ) -> Run {
        Run {
            config,
            state,
            recording,
            vaults,
            sight: Sight::default(),
            said: 0,
            made: Vec::new(),
        }
    }

    /// Every action since the run's start, if the run has been recorded
    /// from its start (see the field).
    pub fn recording(&self) -> Option<&record::Recording> {
        self.recording.as_ref()
    }

    /// Sets the digest the recording says its start has: for a recording
    /// whose actions were replayed from the start this build makes to the
    /// run's state, so the stored digest was the one that was wrong.
    pub fn correct_start_digest(&mut self, digest: u64) {
        if let Some(recording) = &mut self.recording {
            recording.set_start_digest(digest);
        }
    }

    /// Lets go of a recording that does not replay on this build: the run
    /// goes on without one, as runs saved before recordings do, rather
    /// than keep a history that would rebuild another game.
    pub fn forget_recording(&mut self) {
        self.recording = None;
    }

    /// Rebuilds derived data after loading a saved run.
    pub fn after_load(&mut self) {
        self.refresh();
    }

    /// Checks a run read from outside (a save file) before it is used, so
    /// that a run that passes can be played without a panic or a runaway
    /// loop: everything the rules index by is in range, every level keeps
    /// the generator's promises for its depth (stair counts, so linked
    /// stairs exist on both sides), and every counter is what play could
    /// have made (tick counters, turns, kills, lives, the log). Returns
    /// what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        self.config
            .validate()
            .map_err(|p| format!("config: {}: {}", p.field, p.message))?;
        MonsterKind::check_list(&self.state.kinds).map_err(|p| match p.index {
            Some(i) => format!("monster kind {i}: {}: {}", p.field, p.message),
            None => format!("monster kinds: {}", p.message),
        })?;
        Vault::check_list(&self.vaults)?;
        if self.state.levels.len() != usize::from(self.config.levels) {
            return Err(format!(
                "{} level slots for {} levels",
                self.state.levels.len(),
                self.config.levels
            ));
        }
        let p = &self.state.player;
        if p.depth == 0 || p.depth > self.config.levels {
            return Err(format!(
                "the player is on depth {}, outside the stack",
                p.depth
            ));
        }
        // Ticks: the player moves every `interval` ticks from tick 0, so its
        // next tick is fixed by the turn; turns stop at MAX_TURNS, so no
        // counter can overflow.
        if self.state.turn > MAX_TURNS {
            return Err(format!(
                "turn {} is past the last turn {}",
                self.state.turn,
                crate::words::number(MAX_TURNS)
            ));
        }
        let player_interval = interval(self.config.simulation.player_speed);
        if p.next != self.state.turn * player_interval {
            return Err(format!(
                "the player's next tick {} does not follow from turn {}",
                p.next, self.state.turn
            ));
        }
        // Every action the run carried out took one turn, and it recorded
        // each of them.
        if let Some(recording) = &self.recording
            && recording.len() != self.state.turn
        {
            return Err(format!(
                "a recording of {} actions for a run at turn {}",
                recording.len(),
                self.state.turn
            ));
        }
        let lives = self.config.simulation.lives;
        if p.lives > lives || (p.lives == 0) != (self.state.outcome == Outcome::Lost) {
            return Err(format!(
                "{} lives of {lives} for a run that is {}",
                p.lives, self.state.outcome
            ));
        }
        if self.state.log.len() > LOG_LINES
            || self
                .state
                .log
                .iter()
                .any(|l| l.chars().any(char::is_control))
        {
            return Err("the message log is too long or holds control characters".into());
        }
        // Monsters are only ever made when a level is first visited, so the
        // kills and the survivors together are at most what was placed.
        let mut placed = 0u64;
        let mut alive = 0u64;
        let slowest = interval(5);
        for (i, state) in self.state.levels.iter().enumerate() {
            let Some(state) = state else { continue };
            let depth = i as u16 + 1;
            let level = &state.level;
            let at = |what: String| format!("depth {depth}: {what}");
            if level.depth() != depth
                || level.width() != self.config.width
                || level.height() != self.config.height
            {
                return Err(format!(
                    "level slot {depth} holds a {}x{} level of depth {}",
                    level.width(),
                    level.height(),
                    level.depth()
                ));
            }
            self.check_layout(level).map_err(at)?;
            let cells = usize::from(level.width()) * usize::from(level.height());
            if state.seen.len() != cells.div_ceil(64) {
                return Err(at("fog of war of the wrong size".into()));
            }
            // The level's share, and one for each monster its vaults draw.
            let wanted =
                monsters_wanted(&self.config, depth) + vault_monsters(&self.vaults, level).len();
            placed += wanted as u64;
            alive += state.monsters.len() as u64;
            if state.monsters.len() > wanted {
                return Err(at(format!(
                    "{} monsters where at most {wanted} are placed",
                    state.monsters.len()
                )));
            }
            let current = depth == p.depth && self.state.outcome == Outcome::Playing;
            for (k, m) in state.monsters.iter().enumerate() {
                let inside = m.pos.x < level.width() && m.pos.y < level.height();
                if !inside
                    || !level.tile(m.pos).is_walkable()
                    || usize::from(m.kind) >= self.state.kinds.len()
                    || m.id as usize >= wanted
                {
                    return Err(at(format!(
                        "monster {k} is off the floor, of no known kind or numbered {}",
                        m.id
                    )));
                }
                if let Some(memory) = m.memory
                    && (memory.x >= level.width()
                        || memory.y >= level.height()
                        || !level.tile(memory).is_walkable())
                {
                    return Err(at(format!("monster {k} remembers a cell off the floor")));
                }
                // No monster is more than one move ahead of the player; on
                // the player's level none is behind either (each step lets
                // them catch up), so a step's monster loop stays short.
                let ahead = m.next > p.next.saturating_add(slowest);
                let behind = current && m.next < p.next;
                if ahead || behind {
                    return Err(at(format!(
                        "monster {k}'s next tick {} is out of step with the player's {}",
                        m.next, p.next
                    )));
                }
                if state.monsters[..k]
                    .iter()
                    .any(|o| o.pos == m.pos || o.id == m.id)
                {
                    return Err(at("two monsters share a cell or an id".into()));
                }
            }
        }
        if u64::from(self.state.killed) + alive > placed {
            return Err(format!(
                "{} monsters killed and {alive} alive, but only {placed} were ever placed",
                self.state.killed
            ));
        }
        let Some(state) = self.level_state(p.depth) else {
            return Err(format!(
                "the player is on depth {}, which is not stored",
                p.depth
            ));
        };
        let level = &state.level;
        if p.pos.x >= level.width() || p.pos.y >= level.height() || !level.tile(p.pos).is_walkable()
        {
            return Err("the player stands outside the open floor".into());
        }
        if state.monster_at(p.pos).is_some() {
            return Err("a monster stands on the player".into());
        }
        if self.config.simulation.is_combat() != self.state.combat.is_some() {
            return Err("the rules and the run's Combat state disagree".into());
        }
        self.validate_combat()
    }

    /// A level's rooms, doors and stairs as the config makes them at its
    /// depth: so many rooms, so many doors a room at most, and exactly the
    /// stairs each way that link it to its neighbours (the k-th down
    /// staircase leads to the k-th up staircase below).
    fn check_layout(&self, level: &Level) -> Result<(), String> {
        let rooms = &self.config.at_depth(level.depth()).rooms;
        let count = level.rooms().len();
        if count < usize::from(rooms.count.min) || count > usize::from(rooms.count.max) {
            return Err(format!(
                "{count} rooms, where the config makes {} to {}",
                rooms.count.min, rooms.count.max
            ));
        }
        if let Some(i) = level
            .rooms()
            .iter()
            .position(|r| r.doors.len() > usize::from(rooms.max_doors))
        {
            return Err(format!("room {i} has more than {} doors", rooms.max_doors));
        }
        // A vault room must be one of the run's vaults, laid down in a way
        // it allows, filling its box.
        for (i, room) in level.rooms().iter().enumerate() {
            let crate::geom::Shape::Vault(v) = room.shape else {
                continue;
            };
            let Some(vault) = self.vaults.get(usize::from(v.vault)) else {
                return Err(format!(
                    "room {i} is vault {}, which the run has not",
                    v.vault
                ));
            };
            let allowed = v.quarter_turns < 4
                && (v.quarter_turns == 0 || vault.rotate)
                && (!v.mirrored || vault.mirror);
            let d = vault.drawing().oriented(crate::vault::Orientation {
                quarter_turns: v.quarter_turns,
                mirrored: v.mirrored,
            });
            if !allowed || (d.width(), d.height()) != (v.bounds.width, v.bounds.height) {
                return Err(format!(
                    "room {i} is vault {:?} laid down in a way it does not allow or does not fit",
                    vault.name
                ));
            }
        }
        let (up, down) = self.config.stair_counts(level.depth());
        let have = (
            level.stairs_going(StairDirection::Up).count(),
            level.stairs_going(StairDirection::Down).count(),
        );
        if have != (up, down) {
            return Err(format!(
                "{} up and {} down stairs, where the config makes {up} and {down}",
                have.0, have.1
            ));
        }
        Ok(())
    }

    fn say(&mut self, line: String) {
        self.said += 1;
        if self.state.log.len() == LOG_LINES {
            self.state.log.remove(0);
        }
        self.state.log.push(line);
    }

    /// Generates and populates `depth` on first visit; wakes its monsters.
    fn enter(&mut self, depth: u16) -> Result<(), GenerateError> {
        let slot = usize::from(depth) - 1;
        if self.state.levels[slot].is_none() {
            let level = match self.made.get_mut(slot).and_then(Option::take) {
                Some(level) => std::sync::Arc::unwrap_or_clone(level),
                None => {
                    let mut generator = Generator::default();
                    let level =
                        generator.level(&self.config, &self.vaults, self.state.seed, depth)?;
                    let cells = u64::from(level.width()) * u64::from(level.height());
                    self.sight.work += level_work(cells, generator.work_spent());
                    level
                }
            };
            let monsters = if let Some(state) = &mut self.state.combat {
                let (monsters, hp) = fight::populate_by_depth(
                    &self.config,
                    &self.state.kinds,
                    self.state.seed,
                    &level,
                );
                let items = fight::place_items(&self.config, &state.items, self.state.seed, &level);
                state.floors[slot] = game::Floor {
                    items,
                    monster_max_hp: hp.clone(),
                    monster_hp: hp,
                };
                monsters
            } else {
                populate(&self.config, &self.state.kinds, self.state.seed, &level)
            };
            let mut monsters = monsters;
            self.add_vault_monsters(slot, &level, &mut monsters);
            let cells = usize::from(level.width()) * usize::from(level.height());
            self.state.levels[slot] = Some(LevelState {
                level,
                monsters,
                seen: vec![0; cells.div_ceil(64)],
            });
        }
        // A level that waited while the player was away does not get to
        // catch up on the moves it missed.
        let now = self.state.player.next;
        for m in &mut self.state.levels[slot]
            .as_mut()
            .expect("just generated")
            .monsters
        {
            m.next = m.next.max(now);
        }
        Ok(())
    }

    /// The monsters drawn in the level's vaults, each on its cell (unless a
    /// monster stands there already), with full hit points under Combat.
    fn add_vault_monsters(&mut self, slot: usize, level: &Level, monsters: &mut Vec<Monster>) {
        for (glyph, pos) in vault_monsters(&self.vaults, level) {
            let Some(kind) = self.state.kinds.iter().position(|k| k.glyph == glyph) else {
                continue;
            };
            if monsters.iter().any(|m| m.pos == pos) {
                continue;
            }
            monsters.push(Monster {
                id: monsters.len() as u32,
                kind: kind as u16,
                pos,
                next: 0,
                memory: None,
            });
            if let Some(state) = &mut self.state.combat {
                let hp = self.state.kinds[kind].hp.max().clamp(1, 10_000) as u16;
                let floor = &mut state.floors[slot];
                floor.monster_hp.push(hp);
                floor.monster_max_hp.push(hp);
            }
        }
    }

    /// The vaults the run's levels are given.
    pub fn vaults(&self) -> &[Vault] {
        &self.vaults
    }

    /// Plays one player action and the monster moves it lets happen.
    pub fn step(&mut self, action: Action) -> Result<Vec<Event>, GenerateError> {
        let mut events = Vec::new();
        if self.state.outcome != Outcome::Playing || self.state.turn >= MAX_TURNS {
            events.push(Event::Blocked);
            return Ok(events);
        }
        if !self.act(action, &mut events)? {
            events.push(Event::Blocked);
            return Ok(events);
        }
        self.state.turn += 1;
        self.sight.work += STEP_WORK;
        if let Some(recording) = &mut self.recording {
            recording.push(action);
        }
        let now = self.state.player.next;
        self.state.player.next = now + interval(self.config.simulation.player_speed);
        if self.state.combat.is_some() {
            self.combat_turn_passes();
        }
        self.refresh();
        self.check_won(&mut events);

        // Monsters whose next move comes before the player's, earliest
        // first, ties by index.
        while self.state.outcome == Outcome::Playing {
            self.sight.work += 1 + self.current().monsters.len() as u64;
            let next = self
                .current()
                .monsters
                .iter()
                .enumerate()
                .filter(|(_, m)| m.next < self.state.player.next)
                .min_by_key(|(i, m)| (m.next, *i))
                .map(|(i, _)| i);
            let Some(i) = next else { break };
            self.sight.work += MONSTER_TURN_WORK;
            let speed = self.state.kinds[usize::from(self.current().monsters[i].kind)].speed;
            self.current_mut().monsters[i].next += interval(speed);
            self.monster_turn(i, &mut events);
        }
        self.check_won(&mut events);
        Ok(events)
    }

    /// The player's part of a step. False if the action is not possible.
    fn act(&mut self, action: Action, events: &mut Vec<Event>) -> Result<bool, GenerateError> {
        let here = self.state.player.pos;
        match action {
            Action::Wait => Ok(true),
            Action::Move { dx, dy } => {
                let (x, y) = (
                    i32::from(here.x) + i32::from(dx),
                    i32::from(here.y) + i32::from(dy),
                );
                let level = &self.current().level;
                if !level.in_bounds(x, y) {
                    return Ok(false);
                }
                let to = Pos::new(x as u16, y as u16);
                if !can_step(level, here, to, false) {
                    return Ok(false);
                }
                if self.state.combat.is_some()
                    && let Some(m) = self.current().monster_at(to)
                {
                    self.player_attacks(m, events);
                    return Ok(true);
                }
                self.player_arrives(to, events);
                if self.state.combat.is_some() {
                    let here = self.items_here();
                    if let Some(&top) = here.first() {
                        let name = self.state.combat.as_ref().expect("checked").describe(top);
                        let more = if here.len() > 1 { " (and more)" } else { "" };
                        self.say(format!("You see here {name}{more}."));
                    }
                }
                Ok(true)
            }
            Action::PickUp
            | Action::Drop { .. }
            | Action::Wield { .. }
            | Action::Quaff { .. }
            | Action::Read { .. } => Ok(self.use_item(action, events)),
            Action::Descend | Action::Ascend => {
                let want = if action == Action::Descend {
                    Tile::DownStairs
                } else {
                    Tile::UpStairs
                };
                let level = &self.current().level;
                if level.tile(here) != want {
                    return Ok(false);
                }
                let index = level.stairs_at(here).expect("a stairs tile is a staircase");
                // Stairs link by position in link order, as in `Dungeon`.
                let direction = level.stairs()[index].direction;
                let k = level.stairs()[..index]
                    .iter()
                    .filter(|s| s.direction == direction)
                    .count();
                let depth = self.state.player.depth;
                let to_depth = match action {
                    Action::Descend => depth + 1,
                    _ => depth - 1,
                };
                // Depth 1's up staircase leads out of the dungeon, which a
                // run never does; and a hand-built level may have stairs
                // past the configured depth. Neither is a move.
                if to_depth == 0 || to_depth > self.config.levels {
                    return Ok(false);
                }
                self.enter(to_depth)?;
                let other = if action == Action::Descend {
                    StairDirection::Up
                } else {
                    StairDirection::Down
                };
                let arrival = self.state.levels[usize::from(to_depth) - 1]
                    .as_ref()
                    .expect("just entered")
                    .level
                    .stairs_going(other)
                    .nth(k)
                    .map(|s| s.pos)
                    .expect("linked stairs exist on both levels");
                self.state.player.depth = to_depth;
                self.say(format!("You arrive on depth {to_depth}."));
                events.push(Event::Arrived { depth: to_depth });
                self.player_arrives(arrival, events);
                Ok(true)
            }
        }
    }

    /// The player moves onto `to`, stomping whatever stands there.
    fn player_arrives(&mut self, to: Pos, events: &mut Vec<Event>) {
        if let Some(m) = self.current().monster_at(to) {
            let monster = self.current_mut().monsters.remove(m);
            let name = self.state.kinds[usize::from(monster.kind)].name.clone();
            self.state.killed += 1;
            self.say(format!("You crush the {name}."));
            events.push(Event::Killed { kind: name });
        }
        self.state.player.pos = to;
        events.push(Event::Moved { to });
    }

    fn check_won(&mut self, events: &mut Vec<Event>) {
        if self.state.outcome != Outcome::Playing {
            return;
        }
        let won = match self.config.simulation.goal {
            Goal::ReachBottom => self.state.player.depth == self.config.levels,
            // Every level must have been visited: monsters never leave theirs.
            Goal::KillAll => self
                .state
                .levels
                .iter()
                .all(|l| l.as_ref().is_some_and(|s| s.monsters.is_empty())),
        };
        if won {
            self.state.outcome = Outcome::Won;
            self.say("You have won.".into());
            events.push(Event::Won);
        }
    }

    fn monster_turn(&mut self, i: usize, events: &mut Vec<Event>) {
        let m = self.current().monsters[i].clone();
        let kind = self.state.kinds[usize::from(m.kind)].clone();
        let player = self.state.player.pos;
        let perceive = u32::from(self.config.simulation.perception_radius);
        let knows = kind.has(Trait::Telepathic)
            || (m.pos.manhattan(player) <= perceive && self.visible(m.pos));
        if knows && kind.has(Trait::Smart) {
            self.current_mut().monsters[i].memory = Some(player);
        }
        let tunneller = kind.has(Trait::Tunneling);
        let target = if kind.has(Trait::Erratic) && self.state.rng.random_bool(0.5) {
            self.random_step(m.pos)
        } else if knows && kind.has(Trait::Smart) {
            if tunneller {
                self.tunnelling_map();
                let map = self.sight.tunnelling.take().expect("just computed");
                let step = map.downhill(&self.current().level, m.pos, true);
                self.sight.tunnelling = Some(map);
                step
            } else {
                let mut walk = self.take_walk();
                let step = walk.downhill(&self.current().level, m.pos);
                self.put_walk(walk);
                step
            }
        } else if knows {
            self.straight_step(m.pos, player, tunneller)
        } else if let Some(memory) = self.current().monsters[i].memory {
            if memory == m.pos {
                self.current_mut().monsters[i].memory = None;
                self.random_step(m.pos)
            } else {
                self.straight_step(m.pos, memory, tunneller)
            }
        } else {
            self.random_step(m.pos)
        };
        let Some(to) = target else { return };

        if to == player && self.state.combat.is_some() {
            self.monster_attacks(i, events);
            return;
        }
        if to == player {
            self.current_mut().monsters.remove(i);
            self.state.player.lives = self.state.player.lives.saturating_sub(1);
            let lives = self.state.player.lives;
            // As in `fight`: rules 1's words are kept for their replays.
            let left = match self.config.revisions.rules {
                1 => format!("{lives} lives"),
                _ => crate::words::count(lives, "life", "lives"),
            };
            self.say(format!("The {} hits you and dies; {left} left.", kind.name));
            events.push(Event::Hit {
                kind: kind.name.clone(),
                lives,
            });
            if lives == 0 {
                self.state.outcome = Outcome::Lost;
                self.say("You die.".into());
                events.push(Event::Lost);
            }
            return;
        }
        if self.current().monster_at(to).is_some() {
            return; // the mover waits
        }
        if self.current().level.tile(to) == Tile::Rock {
            let dig = self.config.simulation.dig_per_turn;
            if self.current_mut().level.dig(to, dig) {
                events.push(Event::Dug { at: to });
                self.sight.explored.set(None);
                self.current_mut().monsters[i].pos = to;
                // The level changed: what the player sees and the distance
                // maps must follow, so the derived data stays a function of
                // the state (a reloaded run must match a live one).
                self.refresh();
            }
            return;
        }
        self.current_mut().monsters[i].pos = to;
    }

    /// Whether a cell is in the player's current field of view (any radius
    /// up to the perception radius).
    fn visible(&self, p: Pos) -> bool {
        let i = self.current().level.index(p);
        self.sight
            .visible
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// A random open neighbour (wanderers do not dig).
    fn random_step(&mut self, from: Pos) -> Option<Pos> {
        let level = &self.current().level;
        let options: Vec<Pos> = DIRECTIONS
            .iter()
            .filter_map(|&(dx, dy)| {
                let (x, y) = (i32::from(from.x) + dx, i32::from(from.y) + dy);
                level.in_bounds(x, y).then(|| Pos::new(x as u16, y as u16))
            })
            .filter(|&to| can_step(level, from, to, false))
            .collect();
        if options.is_empty() {
            return None;
        }
        let pick = self.state.rng.random_range(0..options.len() as u32) as usize;
        Some(options[pick])
    }

    /// The step straight toward `target`: the diagonal if possible, else
    /// one of its two components, else none.
    fn straight_step(&self, from: Pos, target: Pos, tunneller: bool) -> Option<Pos> {
        let level = &self.current().level;
        let dx = (i32::from(target.x) - i32::from(from.x)).signum();
        let dy = (i32::from(target.y) - i32::from(from.y)).signum();
        // The longer axis first, so the monster closes the larger gap.
        let x_first = (i32::from(target.x) - i32::from(from.x)).abs()
            >= (i32::from(target.y) - i32::from(from.y)).abs();
        let tries = if x_first {
            [(dx, dy), (dx, 0), (0, dy)]
        } else {
            [(dx, dy), (0, dy), (dx, 0)]
        };
        tries
            .into_iter()
            .filter(|&(x, y)| x != 0 || y != 0)
            .find_map(|(x, y)| {
                let to = Pos::new(
                    (i32::from(from.x) + x) as u16,
                    (i32::from(from.y) + y) as u16,
                );
                can_step(level, from, to, tunneller).then_some(to)
            })
    }

    /// A stable hash of the complete state: two runs have the same digest
    /// exactly when their states are equal (up to hash collisions).
    pub fn digest(&self) -> u64 {
        // The run as it serialises, but with the config's digest view (see
        // `DigestConfig`): fields in the same order, so the bytes hashed are
        // the run's JSON.
        #[derive(Serialize)]
        struct View<'a> {
            config: digest::DigestConfig<'a>,
            // Flattened, a struct's fields are written into the outer
            // object exactly as if they were listed here.
            #[serde(flatten)]
            state: &'a RunState,
        }
        let mut bytes = match &self.state.combat {
            Some(_) => serde_json::to_vec(&View {
                config: digest::DigestConfig::of(&self.config),
                state: &self.state,
            }),
            // A Stomp run digests as it did before Combat: its kinds without
            // the Combat fields, and no Combat state.
            None => serde_json::to_vec(&digest::StompView::of(&self.config, &self.state)),
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

/// Ticks between moves at a speed.
fn interval(speed: u8) -> u64 {
    1000 / u64::from(speed.max(1))
}

/// How many monsters a level is populated with: a number growing with
/// depth, up to the configured most.
fn monsters_wanted(config: &Config, depth: u16) -> usize {
    let sim = &config.at_depth(depth).simulation;
    (u32::from(sim.monsters_first_level) + u32::from(sim.monsters_per_depth) * u32::from(depth - 1))
        .min(u32::from(sim.monsters_max)) as usize
}

/// The monster letters of the vaults in `level`, with the cells they stand
/// on, in room order then row by row.
pub fn vault_monsters(vaults: &[Vault], level: &Level) -> Vec<(char, Pos)> {
    let mut out = Vec::new();
    for room in level.rooms() {
        let crate::geom::Shape::Vault(v) = room.shape else {
            continue;
        };
        let Some(vault) = vaults.get(usize::from(v.vault)) else {
            continue;
        };
        let drawing = vault.drawing().oriented(crate::vault::Orientation {
            quarter_turns: v.quarter_turns,
            mirrored: v.mirrored,
        });
        for (x, y, cell) in drawing.cells() {
            let pos = Pos::new(v.bounds.x + x, v.bounds.y + y);
            if let crate::vault::VaultCell::Monster(glyph) = cell
                && level.tile(pos) == Tile::Floor
            {
                out.push((glyph, pos));
            }
        }
    }
    out
}

/// A Stomp level's monsters: kinds drawn uniformly, in rooms other than
/// the arrival room, on free floor, from the level's own stream.
fn populate(config: &Config, kinds: &[MonsterKind], seed: u64, level: &Level) -> Vec<Monster> {
    let wanted = monsters_wanted(config, level.depth());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Monsters);
    let mut monsters: Vec<Monster> = Vec::with_capacity(wanted);
    if kinds.is_empty() {
        return monsters;
    }
    // Each monster's kind is drawn right after its cell.
    place::each_free_room_cell(level, wanted, &mut rng, |pos, rng| {
        monsters.push(Monster {
            id: monsters.len() as u32,
            kind: rng.random_range(0..kinds.len() as u32) as u16,
            pos,
            next: 0,
            memory: None,
        });
    });
    monsters
}
