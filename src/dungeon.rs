//! The stack of levels of one run, and the stairs that link them.
//!
//! Levels are generated lazily, on first visit, or all at once on every core;
//! since a level is a function of (config, seed, depth), both give identical
//! levels. Stairs are linked by position in link order: the k-th down
//! staircase of depth d and the k-th up staircase of depth d+1 lead to each
//! other. Depth 1's up staircase, if the config asks for one, leaves the
//! dungeon.

use std::sync::atomic::{AtomicUsize, Ordering};

use petgraph::graph::{NodeIndex, UnGraph};
use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::generate::{GenerateError, Generator};
use crate::geom::Pos;
use crate::level::{Level, StairDirection};
use crate::vault::{Vault, shipped};

thread_local! {
    /// Each thread's generator, warm from its last level.
    static GENERATOR: std::cell::RefCell<Generator> = std::cell::RefCell::default();
}

/// Runs `f` with this thread's warm generator (a fresh one should the
/// thread's be in use further up the stack).
fn with_generator<R>(f: impl FnOnce(&mut Generator) -> R) -> R {
    GENERATOR.with(|cell| match cell.try_borrow_mut() {
        Ok(mut generator) => f(&mut generator),
        Err(_) => f(&mut Generator::default()),
    })
}

/// Where a staircase leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Destination {
    /// The level the staircase leads to, 1 at the top.
    pub depth: u16,
    /// The cell the player arrives on: the linked staircase on that level.
    pub pos: Pos,
    /// Index into the destination level's stairs.
    pub stairs: usize,
}

/// A run's dungeon: config, vaults, seed and the levels generated so far.
#[derive(Clone, Debug)]
pub struct Dungeon {
    config: Config,
    vaults: Vec<Vault>,
    seed: u64,
    levels: Vec<Option<Level>>,
}

impl Dungeon {
    /// A dungeon with no level generated yet, with the vaults delve ships.
    pub fn new(config: Config, seed: u64) -> Dungeon {
        Dungeon::with_vaults(config, shipped().to_vec(), seed)
    }

    /// A dungeon with no level generated yet, placing vaults from `vaults`
    /// (a vaults file's, or none).
    pub fn with_vaults(config: Config, vaults: Vec<Vault>, seed: u64) -> Dungeon {
        let levels = vec![None; usize::from(config.levels)];
        Dungeon {
            config,
            vaults,
            seed,
            levels,
        }
    }

    /// A dungeon with every level generated, in parallel, with the vaults
    /// delve ships.
    pub fn generate_all(config: Config, seed: u64) -> Result<Dungeon, GenerateError> {
        let mut dungeon = Dungeon::new(config, seed);
        let depths: Vec<u16> = (1..=dungeon.config.levels).collect();
        dungeon.generate_depths(&depths)?;
        Ok(dungeon)
    }

    /// The vaults levels are given.
    pub fn vaults(&self) -> &[Vault] {
        &self.vaults
    }

    /// The config every level is generated from.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The run's seed; each level's own seed is derived from it and the depth.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Levels in the stack, generated or not.
    pub fn depth_count(&self) -> u16 {
        self.config.levels
    }

    /// The levels, by depth (index 0 is depth 1), those not generated as
    /// `None`.
    pub fn into_levels(self) -> Vec<Option<Level>> {
        self.levels
    }

    /// The level at `depth` if it has been generated.
    pub fn generated(&self, depth: u16) -> Option<&Level> {
        self.levels
            .get(usize::from(depth).checked_sub(1)?)?
            .as_ref()
    }

    /// The level at `depth`, generating it on first visit.
    pub fn level(&mut self, depth: u16) -> Result<&Level, GenerateError> {
        let slot = self.slot(depth)?;
        if self.levels[slot].is_none() {
            let level = with_generator(|g| g.level(&self.config, &self.vaults, self.seed, depth))?;
            self.levels[slot] = Some(level);
        }
        Ok(self.levels[slot].as_ref().expect("just generated"))
    }

    fn slot(&self, depth: u16) -> Result<usize, GenerateError> {
        if depth == 0 || depth > self.config.levels {
            return Err(GenerateError::NoSuchDepth {
                depth,
                levels: self.config.levels,
            });
        }
        Ok(usize::from(depth) - 1)
    }

    /// Generates the missing levels among `depths`, spread over the
    /// machine's cores. Results land in their depth's slot, so thread timing
    /// cannot change anything. On failure the error of the shallowest
    /// failing depth is returned, and levels past it may be left
    /// ungenerated (none is started once a failure is known).
    pub fn generate_depths(&mut self, depths: &[u16]) -> Result<(), GenerateError> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.generate_depths_on(depths, cores)
    }

    /// [`Dungeon::generate_depths`] on the calling thread alone when
    /// `threads` is 1 (or there is one level to make), else on rayon's pool
    /// of one worker a core. A caller that already keeps every core busy,
    /// such as a batch of runs, passes 1: more threads would only take turns
    /// on the same cores.
    ///
    /// Every thread generates with its own [`Generator`], kept for the
    /// thread's life: the pool's workers outlive a stack, so the next stack
    /// finds their buffers warm and allocates almost nothing, and levels are
    /// handed out one at a time as workers finish.
    pub fn generate_depths_on(
        &mut self,
        depths: &[u16],
        threads: usize,
    ) -> Result<(), GenerateError> {
        let mut todo: Vec<u16> = Vec::with_capacity(depths.len());
        for &d in depths {
            let slot = self.slot(d)?;
            if self.levels[slot].is_none() && !todo.contains(&d) {
                todo.push(d);
            }
        }
        todo.sort_unstable();
        let (made, failure) = self.make_levels(&todo, threads, |level| level);
        for (&d, level) in todo.iter().zip(made) {
            self.levels[usize::from(d) - 1] = Some(level);
        }
        failure.map_or(Ok(()), Err)
    }

    /// Makes the levels at `depths` on every core and hands each to `keep`
    /// as it is made, storing nothing: what `keep` returns, in the order of
    /// `depths`. A caller that needs only something drawn from each level
    /// (`delve generate`'s text) holds that rather than the whole stack,
    /// and each worker's next level reuses the memory its last one freed,
    /// where holding a hundred levels took a fresh page for every 4 KiB of
    /// them. Fails with the error of the first depth in `depths` that
    /// fails (the shallowest, when they are in order, as `delve generate`
    /// passes them).
    pub fn map_levels<T: Send>(
        &self,
        depths: &[u16],
        keep: impl Fn(Level) -> T + Sync,
    ) -> Result<Vec<T>, GenerateError> {
        for &d in depths {
            self.slot(d)?;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.make_levels(depths, cores, keep) {
            (kept, None) => Ok(kept),
            (_, Some(failure)) => Err(failure),
        }
    }

    /// Makes the levels at `depths` (each in range) on `threads` threads,
    /// as [`Dungeon::generate_depths_on`] describes, passing each through
    /// `keep`: what it returned for the depths before the first failure,
    /// and that failure.
    fn make_levels<T: Send>(
        &self,
        depths: &[u16],
        threads: usize,
        keep: impl Fn(Level) -> T + Sync,
    ) -> (Vec<T>, Option<GenerateError>) {
        use rayon::prelude::*;

        let (config, vaults, seed) = (&self.config, &self.vaults[..], self.seed);
        let mut kept = Vec::with_capacity(depths.len());
        if threads.min(depths.len()) <= 1 {
            let failure = with_generator(|generator| {
                for &d in depths {
                    match generator.level(config, vaults, seed, d) {
                        Ok(level) => kept.push(keep(level)),
                        Err(e) => return Some(e),
                    }
                }
                None
            });
            return (kept, failure);
        }
        // Past a failing depth nothing is needed: the shallowest failure is
        // the one reported, so a depth after a known failure is skipped.
        let failed = AtomicUsize::new(usize::MAX);
        let results: Vec<Option<Result<T, GenerateError>>> = depths
            .par_iter()
            .enumerate()
            .with_max_len(1)
            .map(|(i, &d)| {
                if i > failed.load(Ordering::Relaxed) {
                    return None;
                }
                let level = with_generator(|g| g.level(config, vaults, seed, d));
                if level.is_err() {
                    failed.fetch_min(i, Ordering::Relaxed);
                }
                Some(level.map(&keep))
            })
            .collect();
        for result in results {
            match result {
                Some(Ok(made)) => kept.push(made),
                Some(Err(e)) => return (kept, Some(e)),
                None => break,
            }
        }
        (kept, None)
    }

    /// Where the `index`-th staircase of the level at `depth` leads: `None`
    /// for depth 1's exit. Needs both levels generated (see
    /// [`Dungeon::level`]); returns `None` if the other one is not.
    pub fn destination(&self, depth: u16, index: usize) -> Option<Destination> {
        let level = self.generated(depth)?;
        let stairs = level.stairs().get(index)?;
        let (to_depth, to_dir) = match stairs.direction {
            StairDirection::Down => (depth + 1, StairDirection::Up),
            StairDirection::Up => (
                depth.checked_sub(1).filter(|&d| d >= 1)?,
                StairDirection::Down,
            ),
        };
        let k = level.stairs()[..index]
            .iter()
            .filter(|s| s.direction == stairs.direction)
            .count();
        let other = self.generated(to_depth)?;
        let (i, s) = other
            .stairs()
            .iter()
            .enumerate()
            .filter(|(_, s)| s.direction == to_dir)
            .nth(k)?;
        Some(Destination {
            depth: to_depth,
            pos: s.pos,
            stairs: i,
        })
    }

    /// The stack graph over the generated levels: a node per (depth, room),
    /// an edge per pair of rooms a corridor links, and an edge per linked
    /// pair of stairs.
    pub fn stack_graph(&self) -> UnGraph<(u16, u16), StackEdge> {
        let mut graph = UnGraph::new_undirected();
        let mut first_node = vec![0usize; self.levels.len() + 1];
        for (i, level) in self.levels.iter().enumerate() {
            first_node[i] = graph.node_count();
            if let Some(level) = level {
                for r in 0..level.rooms().len() {
                    graph.add_node((level.depth(), r as u16));
                }
            }
        }
        for (i, level) in self.levels.iter().enumerate() {
            let Some(level) = level else { continue };
            let base = first_node[i];
            for r in 0..level.rooms().len() as u16 {
                for other in level.graph().linked_rooms(r) {
                    if other >= r {
                        graph.add_edge(
                            NodeIndex::new(base + usize::from(r)),
                            NodeIndex::new(base + usize::from(other)),
                            StackEdge::Corridor,
                        );
                    }
                }
            }
            for (k, s) in level.stairs().iter().enumerate() {
                if s.direction != StairDirection::Down {
                    continue;
                }
                if let (Some(dest), Some(below)) = (
                    self.destination(level.depth(), k),
                    self.generated(level.depth() + 1),
                ) {
                    let to_room = below.stairs()[dest.stairs].room;
                    graph.add_edge(
                        NodeIndex::new(base + usize::from(s.room)),
                        NodeIndex::new(first_node[i + 1] + usize::from(to_room)),
                        StackEdge::Stairs,
                    );
                }
            }
        }
        graph
    }
}

/// An edge of the stack graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StackEdge {
    /// Two rooms of one level that corridors join without crossing another room.
    Corridor,
    /// A staircase and the one it leads to, between neighbouring levels.
    Stairs,
}
