//! Making a run: a new one from its seed (the stack proved first, then
//! depth 1 entered), its start made again for a replay, or one on a
//! hand-built level for tests and tools.

use crate::config::Config;
use crate::dungeon::Dungeon;
use crate::generate::{GenerateError, Generator};
use crate::geom::Pos;
use crate::level::Level;
use crate::sim::kinds::item::ItemKind;
use crate::sim::kinds::monster::{Monster, MonsterKind};
use crate::sim::record::Recording;
use crate::sim::state::tactics::Mind;
use crate::sim::state::{LevelState, Player, Run, RunState};
use crate::sim::units::level_work;
use crate::vault::Vault;

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
        let player = Player {
            depth: 1,
            pos: Pos::new(0, 0),
            lives: config.simulation.lives,
            next: 0,
        };
        let state = RunState::new(&config, (kinds, items), seed, levels, player);
        Run::from_saved(config, state, None, vaults)
    }

    /// The first step of a new run, once its stack is proved (or, for
    /// [`Run::start_again`], not): depth 1 entered and populated, the
    /// player on its arrival staircase, and the recording begun from the
    /// digest of that state.
    fn begin(&mut self) -> Result<(), GenerateError> {
        let run = self;
        run.enter(1)?;
        run.state.player.pos = run.current().level.start();
        run.say("You enter the dungeon.".to_string());
        run.refresh();
        // A one-level ReachBottom run, or a single level without monsters,
        // is won before the first move.
        run.check_won(&mut Vec::new());
        run.recording = Some(Recording::starting(run.digest()));
        Ok(())
    }

    /// The start of this run made again from its seed, config, kinds,
    /// item kinds and vaults: what its recording replays from. Only the
    /// first level is made (the start's state holds no other), so this
    /// costs one level, and a run whose deeper levels cannot be made still
    /// has a start to compare with.
    pub fn start_again(&self) -> Result<Run, GenerateError> {
        let items = self.combat().map_or_else(Vec::new, |c| c.items.clone());
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
        let hit_points: Vec<u16> = monsters
            .iter()
            .map(|&(kind, _)| {
                kinds
                    .get(usize::from(kind))
                    .map_or(1, |k| k.hp.max().clamp(1, 10_000) as u16)
            })
            .collect();
        let state = RunState::new(&config, (kinds, ItemKind::defaults()), 0, levels, player);
        let mut run = Run::from_saved(config, state, None, Vec::new());
        if let Some(state) = run.combat_mut() {
            let floor = &mut state.floors[usize::from(depth) - 1];
            floor.monster_hp.extend(&hit_points);
            floor.monster_max_hp.extend(&hit_points);
        }
        // Under rules 4, monsters placed by hand hunt from the start, as
        // every monster did before (a test or tool sets them otherwise).
        if let Some(tactics) = run.tactics_mut() {
            tactics.minds[usize::from(depth) - 1] = vec![Mind::awake(); monsters.len()];
        }
        run.refresh();
        run
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

    /// The depths neither visited nor made ahead yet, shallowest first
    /// (the cache of levels made ahead sized to the stack first).
    fn unmade_depths(&mut self) -> Vec<u16> {
        self.made.resize(usize::from(self.config.levels), None);
        (1..=self.config.levels)
            .filter(|&d| {
                let slot = usize::from(d) - 1;
                self.state.levels[slot].is_none() && self.made[slot].is_none()
            })
            .collect()
    }

    /// [`Run::prove_stack`] on at most `threads` threads.
    fn prove_stack_on(&mut self, threads: usize) -> Result<(), GenerateError> {
        let missing = self.unmade_depths();
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
    /// (`LEVEL_CELL_WORK` a cell), and otherwise once the levels made so
    /// far, counted in depth order with their generator's own work, have.
    /// Levels are made a few at a time (as many as there are cores), so at
    /// most that many are made past the limit; whether the stack is
    /// proved is the same for any number of cores. Its work is counted in
    /// [`Run::work`].
    pub fn prove_stack_within(&mut self, limit: u64) -> Result<bool, GenerateError> {
        use rayon::prelude::*;

        let missing = self.unmade_depths();
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
}
