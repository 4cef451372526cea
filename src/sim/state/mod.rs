//! The state of a run: [`Run`], what a save holds of it (`RunState`),
//! the player and the levels visited, and the questions anyone may ask of
//! them. It knows no rules: the rules (`rules/`) and the turn (`turn.rs`)
//! change it; what a loaded run must satisfy is `validate.rs`'s, and what
//! keeps old saves and digests readable is [`compat`]'s.

pub mod combat_state;
pub mod compat;
pub mod doors;
pub mod names;
pub mod tactics;
mod validate;

use rand_pcg::Pcg64;
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::geom::Pos;
use crate::level::Level;
use crate::sim::kinds::item::ItemKind;
use crate::sim::kinds::monster::{Monster, MonsterKind};
use crate::sim::kinds::place::monsters_wanted;
use crate::sim::record::Recording;
use crate::sim::state::combat_state::{CombatState, Floor, experience_level, max_hp};
use crate::sim::state::names::ItemNames;
use crate::sim::state::tactics::Tactics;
use crate::sim::vocabulary::Outcome;
use crate::sim::world::distance::{DistanceMap, LazyWalk};
use crate::sim::world::doors::{Doors, Mover, Walker};
use crate::sim::world::sight::Sight;
use crate::streams::{Stage, stage_rng};
use crate::vault::Vault;

/// How many log lines a run keeps.
pub(crate) const LOG_LINES: usize = 200;

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

    /// Index in `monsters` of the monster on `p`, if any.
    pub fn monster_at(&self, p: Pos) -> Option<usize> {
        self.monsters.iter().position(|m| m.pos == p)
    }
}

/// A run: the whole state of one game. What a save holds is the config
/// and `RunState`; the rest is derived and rebuilt on load.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Run {
    pub(in crate::sim) config: Config,
    pub(in crate::sim) state: RunState,
    /// Every action of the run since its start, which a replay of the
    /// start plays again to this state (see [`Recording`]). Saved after the
    /// state (save format 3 on); not compared or digested, since it is the
    /// history of the state rather than part of it. `None` for a run from
    /// a save made before runs were recorded, or built on a hand-made level.
    pub(in crate::sim) recording: Option<Recording>,
    /// The vaults the run's levels are given (save format 5 on), kept with
    /// the run because the vaults file may change after it started: a level
    /// not visited yet must come out as it would have. Empty for runs from
    /// before vaults.
    pub(in crate::sim) vaults: Vec<Vault>,
    #[serde(skip)]
    pub(in crate::sim) sight: Sight,
    /// Lines logged since this value was made (not saved): lets a viewer
    /// tell which lines of the capped log are new.
    #[serde(skip)]
    pub(in crate::sim) said: u64,
    /// Levels generated but not visited yet, by depth (see
    /// [`Run::prove_stack`]). Not saved, compared or digested: a level is a
    /// function of (config, seed, depth), so one taken from here is the
    /// level that would be generated on arrival.
    /// Shared, so that a copy of the run (a replay keeps one at every
    /// checkpoint that agrees) does not copy every level not visited yet.
    #[serde(skip)]
    pub(in crate::sim) made: Vec<Option<std::sync::Arc<Level>>>,
    /// Whether the player's action this step was a melee attack (not
    /// saved): under rules 4 its time is the weapon's.
    #[serde(skip)]
    pub(in crate::sim) attacked: bool,
}

/// The saved state of a run besides its config: the one list of the fields
/// a save holds after the config, in the order it holds them. Equality, the
/// digest and every save format read this struct, so a new field is added
/// here alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RunState {
    pub(in crate::sim) kinds: Vec<MonsterKind>,
    pub(in crate::sim) seed: u64,
    pub(in crate::sim) rng: Pcg64,
    pub(in crate::sim) levels: Vec<Option<LevelState>>,
    pub(in crate::sim) player: Player,
    pub(in crate::sim) turn: u64,
    pub(in crate::sim) killed: u32,
    pub(in crate::sim) log: Vec<String>,
    pub(in crate::sim) outcome: Outcome,
    /// The Combat game's state; `None` for a Stomp run.
    pub(in crate::sim) combat: Option<CombatState>,
    /// Where the player has searched and for how many turns (save format
    /// 7 on), sorted by depth and cell: the memory that lets the agents
    /// search a spot a bounded number of times, so a continued run
    /// searches on exactly as one never stopped. Empty for older runs.
    pub(in crate::sim) searched: Vec<Searched>,
    /// What rules 4 add to a Combat run (save format 8 on): timed
    /// effects, identified kinds and their looks, monsters' minds. `None`
    /// under earlier rules and under Stomp, so those runs save and digest
    /// as they did.
    pub(in crate::sim) tactics: Option<Tactics>,
}

/// Turns spent searching on one cell (`Action::Search`, any rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Searched {
    /// The level, 1 at the top.
    pub depth: u16,
    /// The cell searched from.
    pub pos: Pos,
    /// Turns spent searching there, at least 1 (at most 65535 counted).
    pub turns: u16,
}

impl Searched {
    /// The order `RunState::searched` keeps: by depth, then row, then column.
    pub(in crate::sim) fn key(&self) -> (u16, u16, u16) {
        (self.depth, self.pos.y, self.pos.x)
    }
}

impl RunState {
    /// The state of a run that has not started yet, with the Combat
    /// game's state when the config's rules are Combat (its item kinds
    /// are used only then).
    pub(in crate::sim) fn new(
        config: &Config,
        (kinds, items): (Vec<MonsterKind>, Vec<ItemKind>),
        seed: u64,
        levels: Vec<Option<LevelState>>,
        player: Player,
    ) -> RunState {
        let combat = config.simulation.is_combat().then(|| {
            CombatState::new(
                items,
                config.simulation.combat.player_hp,
                config.levels,
                kinds.len(),
            )
        });
        let tactics = combat
            .as_ref()
            .filter(|_| config.revisions.rules >= 4)
            .map(|c| {
                let mut rng = stage_rng(seed, 0, 0, Stage::Appearances);
                Tactics::new(&c.items, &mut rng, config.levels)
            });
        RunState {
            combat,
            tactics,
            kinds,
            seed,
            rng: stage_rng(seed, 0, 0, Stage::Play),
            levels,
            player,
            turn: 0,
            killed: 0,
            log: Vec::new(),
            outcome: Outcome::Playing,
            searched: Vec::new(),
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

    pub(in crate::sim) fn current_mut(&mut self) -> &mut LevelState {
        self.state.levels[usize::from(self.state.player.depth) - 1]
            .as_mut()
            .expect("the player's level is always generated")
    }

    /// Whether the player sees `p` now.
    pub fn sees(&self, p: Pos) -> bool {
        let r = self.config.simulation.sight_radius;
        self.sight
            .sees(&self.current().level, self.state.player.pos, p, r)
    }

    /// Whether a cell is in the player's current field of view (any radius
    /// up to the perception radius).
    pub(in crate::sim) fn visible(&self, p: Pos) -> bool {
        self.sight.visible(&self.current().level, p)
    }

    /// How the run's doors behave: doorways under rules 1 and 2, doors
    /// that open, close and hide from rules 3.
    pub fn doors(&self) -> Doors {
        Doors::of(self.config.revisions.rules)
    }

    /// The player under the run's door rules: how the player's moves and
    /// walks are judged (see `world::doors`).
    pub fn player_walker(&self) -> Walker {
        Walker {
            doors: self.doors(),
            mover: Mover::Player,
        }
    }

    /// Walking distances to the player on the current level, as the player
    /// walks them, taken out of the run while they are used (give them
    /// back with [`Run::put_walk`], so the search done so far is kept for
    /// the turn).
    pub fn take_walk(&mut self) -> LazyWalk {
        let walker = self.player_walker();
        let depth = usize::from(self.state.player.depth) - 1;
        let level = &self.state.levels[depth]
            .as_ref()
            .expect("the player's level is always generated")
            .level;
        self.sight.take_walk(level, self.state.player.pos, walker)
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
        self.sight.work + self.sight.walk_effort()
    }

    /// The depth known to be explored, if any (see `Sight`).
    pub(in crate::sim) fn explored(&self) -> &std::cell::Cell<Option<u16>> {
        &self.sight.explored
    }

    /// The tunnelling distances to the player, searched on first use after
    /// a move.
    pub(in crate::sim) fn tunnelling_map(&mut self) -> &DistanceMap {
        let dig = self.config.simulation.dig_per_turn;
        let depth = usize::from(self.state.player.depth) - 1;
        let level = &self.state.levels[depth]
            .as_ref()
            .expect("the player's level is always generated")
            .level;
        self.sight.tunnelling(level, self.state.player.pos, dig)
    }

    /// Recomputes what the player sees (and remembers it) and drops the
    /// distance maps, which are rebuilt on first use after a player move.
    pub(in crate::sim) fn refresh(&mut self) {
        let origin = self.state.player.pos;
        let depth = usize::from(self.state.player.depth) - 1;
        let state = self.state.levels[depth]
            .as_mut()
            .expect("the player's level is always generated");
        let doors = Doors::of(self.config.revisions.rules);
        self.sight.look(
            &state.level,
            doors,
            &mut state.seen,
            origin,
            &self.config.simulation,
        );
    }

    /// A run from its saved parts, for the save module. Derived data is
    /// rebuilt by [`Run::after_load`].
    pub(crate) fn from_saved(
        config: Config,
        state: RunState,
        recording: Option<Recording>,
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
            attacked: false,
        }
    }

    /// Every action since the run's start, if the run has been recorded
    /// from its start (see the field).
    pub fn recording(&self) -> Option<&Recording> {
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

    /// "2 lives", "1 life": rules 2 count lives in English; rules 1 said
    /// "1 lives", and a replay of a run made under them must say it again.
    pub(in crate::sim) fn lives_in_words(&self, lives: u8) -> String {
        match self.config.revisions.rules {
            1 => format!("{lives} lives"),
            _ => crate::words::count(lives, "life", "lives"),
        }
    }

    /// Logs a line, keeping the last [`LOG_LINES`].
    pub(in crate::sim) fn say(&mut self, line: String) {
        self.said += 1;
        if self.state.log.len() == LOG_LINES {
            self.state.log.remove(0);
        }
        self.state.log.push(line);
    }

    /// Turns the player has spent searching on `p` of the current level.
    pub fn searched_at(&self, p: Pos) -> u16 {
        let key = (self.state.player.depth, p.y, p.x);
        self.state
            .searched
            .binary_search_by_key(&key, Searched::key)
            .map_or(0, |i| self.state.searched[i].turns)
    }

    /// Counts a turn of searching on `p` of the current level.
    pub(in crate::sim) fn count_search(&mut self, p: Pos) {
        let depth = self.state.player.depth;
        let key = (depth, p.y, p.x);
        match self
            .state
            .searched
            .binary_search_by_key(&key, Searched::key)
        {
            Ok(i) => {
                let turns = &mut self.state.searched[i].turns;
                *turns = turns.saturating_add(1);
            }
            Err(i) => self.state.searched.insert(
                i,
                Searched {
                    depth,
                    pos: p,
                    turns: 1,
                },
            ),
        }
    }

    /// The vaults the run's levels are given.
    pub fn vaults(&self) -> &[Vault] {
        &self.vaults
    }

    /// The Combat game's state; `None` for a Stomp run.
    pub fn combat(&self) -> Option<&CombatState> {
        self.state.combat.as_ref()
    }

    /// The player's experience level (1 under Stomp).
    pub fn experience_level(&self) -> u16 {
        let c = &self.config.simulation.combat;
        self.combat().map_or(1, |s| {
            experience_level(s.hero.xp, c.first_level_xp, c.max_level)
        })
    }

    /// The player's maximum hit points (0 under Stomp): what experience
    /// and vigour give, less what a draining bite took (rules 4).
    pub fn max_hp(&self) -> u16 {
        let full = self.undrained_max_hp();
        let turn = self.state.turn;
        let drained = self
            .state
            .tactics
            .as_ref()
            .and_then(|t| t.effects.get(tactics::Effect::Drained, turn))
            .map_or(0, |t| t.power);
        full.saturating_sub(drained.min(full / 2))
    }

    /// The player's maximum hit points before any drain.
    pub fn undrained_max_hp(&self) -> u16 {
        let c = &self.config.simulation.combat;
        self.combat().map_or(0, |s| {
            max_hp(
                c.player_hp,
                c.hp_per_level,
                self.experience_level(),
                s.hero.vigour,
            )
        })
    }

    /// The player's hit points (0 under Stomp).
    pub fn hp(&self) -> u16 {
        self.combat().map_or(0, |s| s.hero.hp)
    }

    /// A monster's hit points and maximum, by its id on the current level.
    pub fn monster_hp(&self, m: &Monster) -> Option<(u16, u16)> {
        let floor = self.floor()?;
        let i = m.id as usize;
        Some((*floor.monster_hp.get(i)?, *floor.monster_max_hp.get(i)?))
    }

    /// Items on the player's cell, top first.
    pub fn items_here(&self) -> Vec<u16> {
        let here = self.state.player.pos;
        self.floor().map_or_else(Vec::new, |f| {
            f.items
                .iter()
                .rev()
                .filter(|i| i.pos == here)
                .map(|i| i.kind)
                .collect()
        })
    }

    /// The Combat state of the player's level.
    pub fn floor(&self) -> Option<&Floor> {
        let slot = usize::from(self.state.player.depth) - 1;
        self.combat().map(|s| &s.floors[slot])
    }

    /// The Combat state of the player's level, for the Combat rules.
    pub(in crate::sim) fn floor_mut(&mut self) -> &mut Floor {
        let slot = usize::from(self.state.player.depth) - 1;
        &mut self.expect_combat_mut().floors[slot]
    }

    /// The Combat game's state, for the Combat rules, which the turn calls
    /// only under Combat: a panic here is a rule called under Stomp.
    pub(in crate::sim) fn expect_combat_mut(&mut self) -> &mut CombatState {
        self.state.combat.as_mut().expect("a Combat run")
    }

    /// Mutable access for tests and tools that build situations by hand
    /// (items on the floor, a pack, hit points); `None` for a Stomp run.
    pub fn combat_mut(&mut self) -> Option<&mut CombatState> {
        self.state.combat.as_mut()
    }

    /// The item kinds as the player knows them (under rules 4, unknown
    /// ones by their looks); `None` for a Stomp run.
    pub fn item_names(&self) -> Option<ItemNames<'_>> {
        self.combat()
            .map(|c| ItemNames::new(c, self.state.tactics.as_ref()))
    }

    /// What rules 4 keep (timed effects, what is identified, monsters'
    /// minds); `None` under earlier rules and under Stomp.
    pub fn tactics(&self) -> Option<&Tactics> {
        self.state.tactics.as_ref()
    }

    /// Mutable access for tests and tools that build situations by hand.
    pub fn tactics_mut(&mut self) -> Option<&mut Tactics> {
        self.state.tactics.as_mut()
    }
}
