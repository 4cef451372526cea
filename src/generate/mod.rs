//! Level generation: seed and config in, a verified [`Level`] out.
//!
//! The pipeline of one attempt:
//! 1. hardness field (smooth noise, immutable border),
//! 2. vaults, then rooms, by random placement,
//! 3. corridors by weighted A* between nearest rooms, with doors (from
//!    generator revision 4 a leg to each piece a DeadEnd level's stubs
//!    left apart, in `piece_legs.rs`; from generator revision 3 a last leg
//!    to each vault of a Grid or Straight
//!    level, in `vault_legs.rs`; then loops, from generator revision 2 a
//!    corridor to every vault door none reached, in `vault_doors.rs`, and
//!    pruning),
//! 4. stairs far apart by path,
//! 5. the level graph read off the grid,
//! 6. verification (every staircase the depth needs included).
//!
//! An attempt that places too few rooms, has too few rooms that may hold its
//! stairs, or fails verification is thrown away and the next attempt (a
//! fresh sub-seed) is made, up to
//! `generation_retries`, and within the level's work budget (see
//! [`budget`]). No IO, no clock, no global state: the result depends on
//! (config, vaults, seed, depth) alone.
//!
//! This file is the pipeline; each stage has a file of its own beside it,
//! and `error.rs` holds why no level could be made ([`GenerateError`]) and
//! what advice each failure carries.

pub mod budget;
mod corridors;
mod error;
mod hardness;
mod kinds;
mod loops;
mod piece_legs;
mod rooms;
mod secret_doors;
mod stairs;
mod vault_doors;
mod vault_legs;
mod vault_place;
pub(crate) mod verify;

use crate::config::{Config, DeadEndPolicy};
use crate::geom::{Rect, Shape, VaultBox};
use crate::grid_search::Bfs;
use crate::level::{Door, Level, Room, Tile};
use crate::vault::{Vault, VaultCell};

pub use self::error::{GenerateError, Overrun, WorkStage};
/// What each kind of level's areas may be, for the save loader's checks.
pub(crate) use self::kinds::of as kind_of;

use self::budget::Budget;
use self::corridors::{Carver, Site};
use self::error::{failure_advice, validated};
use crate::streams::{Stage, stage_rng};

/// Reusable buffers, so a warm generator asks the allocator for nothing
/// but the storage of the level it returns (`tests/alloc.rs` counts).
#[derive(Default)]
pub struct Generator {
    room_id: Vec<u16>,
    hardness: hardness::Scratch,
    carver: Carver,
    /// The breadth-first search of extra loops and verification.
    bfs: Bfs,
    /// The hardness field before carving, for pruning to restore.
    pristine: Vec<u8>,
    /// The work budget the last level spent.
    work_spent: u64,
    /// The lists an attempt makes and drops, kept with their capacity.
    lists: Lists,
    /// The buffers of the kinds of level other than rooms.
    kinds: kinds::Kinds,
    /// The last config that passed validation: the same config again
    /// (the common case, level after level) is not checked again, since
    /// checking a config with profiles lists its stretches of depths.
    valid: Option<Config>,
}

/// What an attempt lists on its way and drops once the level is made.
#[derive(Default)]
struct Lists {
    vaults: vault_place::Scratch,
    vault_shapes: Vec<Shape>,
    rooms: rooms::Scratch,
    /// Every room's shape, vaults first, lent to the attempt's `Ground`.
    shapes: Vec<Shape>,
    /// Each laid vault's entrances and stair places: the first `laid`
    /// lists are this level's, the rest only keep their capacity.
    entrances: Vec<Vec<u32>>,
    stair_spots: Vec<Vec<crate::geom::Pos>>,
    laid: usize,
    /// Each room's doors while the corridors are carved (each list becomes
    /// its room's in the level).
    doors: Vec<Vec<Door>>,
    /// The tiles and hardness of an attempt thrown away, for the next.
    spare_tiles: Vec<Tile>,
    spare_hardness: Vec<u8>,
    stairs: stairs::Scratch,
    loops: loops::Scratch,
    vault_doors: vault_doors::Scratch,
    pieces: piece_legs::Scratch,
    secret_doors: secret_doors::Scratch,
}

/// Generates one level with fresh buffers and the vaults delve ships
/// ([`crate::vault::shipped`]), as `delve generate` does by default.
pub fn generate_level(config: &Config, seed: u64, depth: u16) -> Result<Level, GenerateError> {
    Generator::default().level(config, crate::vault::shipped(), seed, depth)
}

/// Hardness and rooms of a level's first attempt, ready for the corridor
/// stage: lets a benchmark time the corridor styles alone.
#[doc(hidden)]
#[derive(Clone)]
pub struct Groundwork {
    ground: Ground,
    room_id: Vec<u16>,
    entrances: Vec<Vec<u32>>,
    /// The hardness before carving, for pruning: the generator's own is
    /// the last level's, not this one's.
    pristine: Vec<u8>,
    seed: u64,
    depth: u16,
}

/// Stage one of an attempt: the hardness field with the rooms cut into it.
/// Beside it, in the generator's `Lists`, for each vault (rooms 0 to k-1)
/// the cells of its doors on its edge (`entrances`: the only places
/// corridors may join it; they stay rock, out of the room, until a
/// corridor opens one, and the rest become doors as drawn once the
/// corridors are done) and the cells its drawing marks for stairs.
#[derive(Clone)]
struct Ground {
    tiles: Vec<Tile>,
    hardness: Vec<u8>,
    shapes: Vec<Shape>,
}

impl Generator {
    /// The hardness and rooms of attempt 0 of a level (`None` if it placed
    /// too few rooms).
    #[doc(hidden)]
    pub fn groundwork(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        seed: u64,
        depth: u16,
    ) -> Option<Groundwork> {
        validated(config).ok()?;
        let config = &config.at_depth(depth);
        let budget = Budget::for_level(config.width, config.height);
        let ground = self.ground(config, vaults, seed, depth, 0, &budget).ok()?;
        // `ground` keeps the pristine field only for a pruning config.
        let pristine = if config.dead_ends == DeadEndPolicy::Prune {
            self.pristine.clone()
        } else {
            Vec::new()
        };
        Some(Groundwork {
            entrances: self.lists.entrances[..self.lists.laid].to_vec(),
            pristine,
            ground,
            room_id: self.room_id.clone(),
            seed,
            depth,
        })
    }

    /// The corridor stage of attempt 0 on `work`: rings and door
    /// candidates, the configured style, extra loops and pruning. Returns
    /// whether every room was joined.
    #[doc(hidden)]
    pub fn corridor_stage(&mut self, config: &Config, work: &mut Groundwork) -> bool {
        // The work was laid out for a config of the same size.
        let cells = usize::from(config.width) * usize::from(config.height);
        if validated(config).is_err() || work.ground.tiles.len() != cells {
            return false;
        }
        let config = &config.at_depth(work.depth);
        // Pruning restores the work's own field, which it has only if it
        // was laid out for a pruning config.
        if config.dead_ends == DeadEndPolicy::Prune && work.pristine.len() != cells {
            return false;
        }
        let budget = Budget::for_level(config.width, config.height);
        let joined = join_rooms(
            &mut self.carver,
            &mut self.bfs,
            (
                &mut self.lists.loops,
                &mut self.lists.vault_doors,
                &mut self.lists.pieces,
            ),
            &mut self.lists.doors,
            &work.pristine,
            config,
            &mut work.ground,
            &work.room_id,
            &work.entrances,
            (work.seed, work.depth, 0),
            &budget,
        )
        .is_ok();
        self.lists.doors.clear();
        joined
    }

    /// Stage one of an attempt: hardness, then rooms placed and cut into it
    /// (their ids left in `self.room_id`, the vaults' entrances and stair
    /// places in `self.lists`). `Err` holds how many rooms were placed when
    /// too few were.
    fn ground(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        seed: u64,
        depth: u16,
        attempt: u32,
        budget: &Budget,
    ) -> Result<Ground, Rejected> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let mut hardness = self.fresh_hardness(config, (seed, depth, attempt));
        let lists = &mut self.lists;
        if config.dead_ends == DeadEndPolicy::Prune {
            self.pristine.clone_from(&hardness);
        }
        let mut rng = stage_rng(seed, depth, attempt, Stage::Rooms);
        self.room_id.clear();
        self.room_id.resize(w * h, 0);
        // Vaults first (they draw nothing from the stream when there are
        // none to place), then the ordinary rooms round them. The styles
        // that search their way to a door (Tunnel) or grow until they meet
        // one (DeadEnd) join vaults as rooms; Grid corridors wander along
        // their lines and Straight ones walk straight, and neither can aim
        // at a vault's few doors, so their levels place vaults only from
        // generator revision 3, which gives each vault a last leg of its
        // own (`vault_legs.rs`).
        let wanted = vault_legs::wanted(config);
        vault_place::place(
            &mut lists.vaults,
            vaults,
            wanted,
            depth,
            (config.width, config.height),
            &mut rng,
            &mut self.room_id,
            1,
            budget,
        );
        let placed = &lists.vaults.placed;
        lists.vault_shapes.clear();
        lists.vault_shapes.extend(placed.iter().map(vault_box));
        let mut shapes = std::mem::take(&mut lists.shapes);
        rooms::place(
            config,
            &mut rng,
            &mut self.room_id,
            &lists.vault_shapes,
            budget,
            &mut shapes,
            &mut lists.rooms,
        );
        let placed_too_few = if budget.overspent() {
            Some(Rejected::OverBudget(WorkStage::PlacingRooms))
        } else if shapes.len() < usize::from(config.rooms.count.min) {
            Some(Rejected::TooFewRooms(shapes.len()))
        } else {
            None
        };
        if let Some(rejected) = placed_too_few {
            lists.shapes = shapes;
            lists.spare_hardness = hardness;
            return Err(rejected);
        }
        let mut tiles = std::mem::take(&mut lists.spare_tiles);
        // Floor where a room is, rock elsewhere; a room's cells lose their
        // hardness. Chosen a cell at a time without a branch, which the
        // compiler does many cells at once (a branch a cell was 3% of a
        // default level).
        tiles.clear();
        tiles.extend(
            self.room_id
                .iter()
                .map(|&id| if id != 0 { Tile::Floor } else { Tile::Rock }),
        );
        for (h, &id) in hardness.iter_mut().zip(&self.room_id) {
            *h = if id != 0 { 0 } else { *h };
        }
        lay_vaults(
            lists,
            vaults,
            w,
            (&mut tiles, &mut hardness, &mut self.room_id),
        );
        Ok(Ground {
            tiles,
            hardness,
            shapes,
        })
    }

    /// The attempt's hardness field, in the grid an attempt thrown away
    /// left (a level made takes its grids with it).
    fn fresh_hardness(
        &mut self,
        config: &Config,
        (seed, depth, attempt): (u64, u16, u32),
    ) -> Vec<u8> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let mut hardness = std::mem::take(&mut self.lists.spare_hardness);
        hardness.clear();
        hardness.resize(w * h, 0);
        let mut rng = stage_rng(seed, depth, attempt, Stage::Hardness);
        hardness::fill(
            &mut hardness,
            &mut self.hardness,
            w,
            h,
            &config.hardness,
            config.revisions.generator,
            &mut rng,
        );
        hardness
    }

    /// Takes back the buffers of an attempt thrown away.
    fn give_back(&mut self, ground: Ground) {
        let lists = &mut self.lists;
        // The door lists stay in `lists.doors`, for the next attempt.
        (lists.spare_tiles, lists.spare_hardness, lists.shapes) =
            (ground.tiles, ground.hardness, ground.shapes);
    }
}

/// Lays every vault the attempt placed (`lists.vaults.placed`), listing
/// each one's entrances and stair places in `lists`.
fn lay_vaults(
    lists: &mut Lists,
    vaults: &[Vault],
    w: usize,
    grids: (&mut [Tile], &mut [u8], &mut [u16]),
) {
    let (tiles, hardness, room_id) = grids;
    let placed = &lists.vaults.placed;
    lists.laid = placed.len();
    if lists.entrances.len() < placed.len() {
        lists.entrances.resize_with(placed.len(), Vec::new);
        lists.stair_spots.resize_with(placed.len(), Vec::new);
    }
    for (i, p) in placed.iter().enumerate() {
        lay_vault(
            p,
            vaults,
            w,
            (&mut *tiles, &mut *hardness, &mut *room_id),
            &mut lists.entrances[i],
            &mut lists.stair_spots[i],
        );
    }
}

/// A placed vault as a room's shape: its box, which vault, how laid.
fn vault_box(p: &vault_place::PlacedVault) -> Shape {
    Shape::Vault(VaultBox {
        bounds: Rect {
            x: p.x,
            y: p.y,
            width: p.width,
            height: p.height,
        },
        vault: p.vault as u16,
        quarter_turns: p.orientation.quarter_turns,
        mirrored: p.orientation.mirrored,
    })
}

/// Lays a placed vault's drawing into the level, cell by cell, and lists
/// its entrances and stair places (into `entrances` and `spots`, cleared
/// first). Its own rock is immutable (255), so neither corridors nor
/// tunnellers go through it; `?` cells and entrances leave the room (to
/// the generator, and to the corridors that may open them).
fn lay_vault(
    placed: &vault_place::PlacedVault,
    vaults: &[Vault],
    w: usize,
    (tiles, hardness, room_id): (&mut [Tile], &mut [u8], &mut [u16]),
    entrances: &mut Vec<u32>,
    spots: &mut Vec<crate::geom::Pos>,
) {
    entrances.clear();
    spots.clear();
    for (x, y, cell) in placed.cells(vaults) {
        let c =
            (usize::from(placed.y) + usize::from(y)) * w + usize::from(placed.x) + usize::from(x);
        let edge = x == 0 || y == 0 || x + 1 == placed.width || y + 1 == placed.height;
        let (tile, hard) = match cell {
            VaultCell::StairSpot => {
                spots.push(crate::geom::Pos::new(placed.x + x, placed.y + y));
                (Tile::Floor, 0)
            }
            VaultCell::Floor | VaultCell::Monster(_) => (Tile::Floor, 0),
            VaultCell::Door if edge => {
                entrances.push(c as u32);
                room_id[c] = 0;
                (Tile::Rock, hardness[c].clamp(1, 254))
            }
            VaultCell::Door => (Tile::Door, 0),
            VaultCell::Corridor => (Tile::Corridor, 0),
            VaultCell::Rock => (Tile::Rock, 255),
            VaultCell::Open => {
                room_id[c] = 0;
                (Tile::Rock, hardness[c].clamp(1, 254))
            }
        };
        tiles[c] = tile;
        hardness[c] = hard;
    }
}

/// The corridor stage of one attempt: the configured style, then extra
/// loops and dead-end pruning, each from its own random stream. (A free
/// function over the generator's buffers, since the site borrows another.)
/// Leaves each room's doors in `doors`. `at` is (seed, depth, attempt).
#[allow(clippy::too_many_arguments)]
fn join_rooms(
    carver: &mut Carver,
    bfs: &mut Bfs,
    (loops_scratch, doors_scratch, pieces_scratch): (
        &mut loops::Scratch,
        &mut vault_doors::Scratch,
        &mut piece_legs::Scratch,
    ),
    doors: &mut Vec<Vec<Door>>,
    pristine: &[u8],
    config: &Config,
    ground: &mut Ground,
    room_id: &[u16],
    entrances: &[Vec<u32>],
    (seed, depth, attempt): (u64, u16, u32),
    budget: &Budget,
) -> Result<(), Rejected> {
    // Each room's doors, at most `max_doors` (the level keeps these lists,
    // so they are allocated once, at their full size; an attempt thrown
    // away leaves its lists, empty, to the next).
    let max_doors = usize::from(config.rooms.max_doors);
    let rooms = ground.shapes.len();
    doors.truncate(rooms);
    for list in doors.iter_mut() {
        list.clear();
    }
    doors.resize_with(rooms, || Vec::with_capacity(max_doors));
    let mut site = Site {
        width: usize::from(config.width),
        height: usize::from(config.height),
        tiles: &mut ground.tiles,
        hardness: &mut ground.hardness,
        room_id,
        shapes: &ground.shapes,
        entrances,
        doors,
        budget,
    };
    let mut rng = stage_rng(seed, depth, attempt, Stage::Corridors);
    let joined = carver.carve(config, &mut site, &mut rng);
    if budget.overspent() {
        return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
    }
    // Generator revision 4: a DeadEnd level whose stubs stopped with rooms
    // apart joins its pieces by legs (none, and the attempt is thrown away).
    if joined.is_err() {
        if !piece_legs::needed(config) {
            return Err(Rejected::Unjoined);
        }
        let legs = piece_legs::join(
            &carver.rules,
            config,
            &mut site,
            pieces_scratch,
            doors_scratch,
        );
        if budget.overspent() {
            return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
        }
        legs.map_err(|_| Rejected::Unjoined)?;
    }
    // Generator revision 3: a Grid or Straight level's vaults, which the
    // style left alone, each joined by a last leg (none, and the attempt
    // is thrown away).
    if vault_legs::needed(config) {
        let legs = vault_legs::join(&carver.rules, config, &mut site, doors_scratch);
        if budget.overspent() {
            return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
        }
        legs.map_err(|_| Rejected::Unjoined)?;
    }
    if config.extra_loops.count > 0 {
        let mut rng = stage_rng(seed, depth, attempt, Stage::Loops);
        loops::add(
            &carver.rules,
            config,
            &mut site,
            bfs,
            loops_scratch,
            &mut rng,
        );
        if budget.overspent() {
            return Err(Rejected::OverBudget(WorkStage::AddingLoops));
        }
    }
    // Generator revision 2 joins every vault door no corridor reached, or
    // walls it up (revision 1 left them opening onto rock). Before pruning,
    // so pruning only ever closes cells of the level it would otherwise be:
    // a door's corridor ends on the network and is never a dead end.
    if config.revisions.generator >= 2 {
        vault_doors::join(&carver.rules, config, &mut site, doors_scratch);
        if budget.overspent() {
            return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
        }
    }
    if config.dead_ends == DeadEndPolicy::Prune {
        loops::prune(&mut site, pristine);
        if config.revisions.generator >= 2 {
            vault_doors::shut_pruned(&mut site, doors_scratch);
        }
    }
    // Every door of a vault's edge is there as drawn, joined or not, but
    // for those walled up (immutable rock, as the vault's own).
    for &c in entrances.iter().flatten() {
        if site.hardness[c as usize] != 255 {
            site.tiles[c as usize] = Tile::Door;
            site.hardness[c as usize] = 0;
        }
    }
    Ok(())
}

/// What a kind lays out: the ground, the areas (vaults first) and how
/// many of them are vaults, whose drawings say where stairs may stand.
struct Laid {
    tiles: Vec<Tile>,
    hardness: Vec<u8>,
    rooms: Vec<Room>,
    vaults: usize,
    /// A cave's: its chambers' cells are the pieces it labelled, so the
    /// map of areas is drawn from them rather than flooded again.
    chambers: bool,
}

enum Rejected {
    TooFewRooms(usize),
    Unjoined,
    /// The rooms were placed and joined, but too few may hold stairs.
    TooFewStairRooms,
    Flaw(String),
    OverBudget(WorkStage),
}

impl Generator {
    /// Generates the level at `depth` (1-based) of the run `seed`, placing
    /// vaults from `vaults` (those whose depths hold it; none if empty).
    pub fn level(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        seed: u64,
        depth: u16,
    ) -> Result<Level, GenerateError> {
        // A level refused before any work (an invalid config, a depth
        // outside the stack) took none: not the last level's.
        self.work_spent = 0;
        if self.valid.as_ref() != Some(config) {
            validated(config)?;
            match &mut self.valid {
                Some(valid) => valid.clone_from(config),
                None => self.valid = Some(config.clone()),
            }
        }
        if depth == 0 || depth > config.levels {
            return Err(GenerateError::NoSuchDepth {
                depth,
                levels: config.levels,
            });
        }
        // The level's own settings, its profiles applied, once for all its
        // attempts; its stairs match its neighbours', so they are counted
        // on the whole stack's config.
        let stair_counts = config.stair_counts(depth);
        let config = &config.at_depth(depth);
        let attempts = u32::from(config.generation_retries);
        let budget = Budget::for_level(config.width, config.height);
        let cells = usize::from(config.width) * usize::from(config.height);
        let attempt_work = cells * budget::ATTEMPT_WORK_PER_CELL as usize;
        let (mut too_few, mut crowded, mut best) = (0u32, 0u32, 0usize);
        let mut short_of_stairs = 0u32;
        let mut flaw = None;
        for attempt in 0..attempts {
            let spent_failing = budget.spent();
            // Whatever else it does, an attempt fills and verifies a whole
            // level.
            let outcome = if budget.spend(attempt_work) {
                self.attempt(config, vaults, stair_counts, seed, depth, attempt, &budget)
            } else {
                Err(Rejected::OverBudget(WorkStage::Attempt))
            };
            match outcome {
                Ok(mut level) => {
                    level.rejected_attempts = attempt;
                    self.work_spent = budget.spent();
                    return Ok(level);
                }
                Err(Rejected::TooFewRooms(placed)) => {
                    too_few += 1;
                    best = best.max(placed);
                }
                Err(Rejected::Unjoined) => crowded += 1,
                Err(Rejected::TooFewStairRooms) => short_of_stairs += 1,
                Err(Rejected::Flaw(reason)) => flaw = Some(reason),
                Err(Rejected::OverBudget(stage)) => {
                    self.work_spent = budget.spent();
                    return Err(GenerateError::OverBudget(Overrun {
                        depth,
                        width: config.width,
                        height: config.height,
                        budget: budget.total(),
                        attempt: attempt + 1,
                        retries: attempts,
                        stage,
                        // Too few rooms for the stairs is too few rooms.
                        too_few: too_few + short_of_stairs,
                        crowded,
                        spent_failing,
                        failure_advice: failure_advice(
                            config,
                            too_few + short_of_stairs >= crowded,
                        ),
                        style: config.corridors,
                    }));
                }
            }
        }
        self.work_spent = budget.spent();
        // A verification failure is a generator bug; say so rather than
        // blame the config.
        if let Some(reason) = flaw {
            return Err(GenerateError::Unverified {
                depth,
                attempts,
                reason,
            });
        }
        if short_of_stairs > too_few.max(crowded) {
            return Err(GenerateError::TooFewStairRooms {
                depth,
                attempts,
                short: short_of_stairs,
                up: stair_counts.0,
                down: stair_counts.1,
            });
        }
        Err(if too_few >= crowded {
            GenerateError::TooFewRooms {
                depth,
                attempts,
                too_few,
                crowded,
                best,
                wanted: config.rooms.count.min,
                width: config.width,
                height: config.height,
            }
        } else {
            let advice = failure_advice(config, false);
            if config.corridors == crate::config::CorridorStyle::Tunnel {
                GenerateError::Crowded {
                    depth,
                    attempts,
                    crowded,
                    too_few,
                }
            } else {
                GenerateError::Unjoinable {
                    depth,
                    attempts,
                    crowded,
                    style: config.corridors,
                    advice,
                }
            }
        })
    }

    /// The work the last level generated (or refused) took, in the units of
    /// its budget ([`budget::total_for`]): for tests and measurements that
    /// check ordinary levels stay far within it.
    pub fn work_spent(&self) -> u64 {
        self.work_spent
    }

    /// One attempt at a level: its kind lays out the ground and the areas,
    /// then the finish every kind shares places the stairs, reads the
    /// graph and verifies the level.
    #[allow(clippy::too_many_arguments)]
    fn attempt(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        (up, down): (usize, usize),
        seed: u64,
        depth: u16,
        attempt: u32,
        budget: &Budget,
    ) -> Result<Level, Rejected> {
        let at = (seed, depth, attempt);
        // Each kind is an entry of `kinds::of`.
        let laid = match kinds::of(config.kind).lay {
            None => self.lay_rooms(config, vaults, at, budget)?,
            Some(lay) => self.lay_kind(config, vaults, at, budget, lay)?,
        };
        self.finish(config, laid, (up, down), at)
    }

    /// The rooms-and-corridors kind: hardness and rooms, then the corridor
    /// stage. The level's vaults are rooms 0 to `vaults - 1`.
    fn lay_rooms(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        (seed, depth, attempt): (u64, u16, u32),
        budget: &Budget,
    ) -> Result<Laid, Rejected> {
        let mut ground = self.ground(config, vaults, seed, depth, attempt, budget)?;
        let lists = &mut self.lists;
        let laid = lists.laid;
        let joined = join_rooms(
            &mut self.carver,
            &mut self.bfs,
            (&mut lists.loops, &mut lists.vault_doors, &mut lists.pieces),
            &mut lists.doors,
            &self.pristine,
            config,
            &mut ground,
            &self.room_id,
            &lists.entrances[..laid],
            (seed, depth, attempt),
            budget,
        );
        if let Err(rejected) = joined {
            self.give_back(ground);
            return Err(rejected);
        }
        let lists = &mut self.lists;
        let Ground {
            tiles,
            hardness,
            mut shapes,
        } = ground;
        // The level's own list; the shapes go back to the generator.
        let rooms: Vec<Room> = shapes
            .drain(..)
            .zip(lists.doors.drain(..))
            .map(|(shape, doors)| Room { shape, doors })
            .collect();
        lists.shapes = shapes;
        Ok(Laid {
            tiles,
            hardness,
            rooms,
            vaults: laid,
            chambers: false,
        })
    }

    /// A kind of level other than rooms: the hardness field, the vaults
    /// (placed as on rooms levels, from the rooms' stream), then the kind's
    /// own ground and areas from its own stream, kept a cell clear of every
    /// vault, and last a corridor from each vault door to the nearest open
    /// ground.
    #[allow(clippy::too_many_arguments)]
    fn lay_kind(
        &mut self,
        config: &Config,
        vaults: &[Vault],
        (seed, depth, attempt): (u64, u16, u32),
        budget: &Budget,
        lay: kinds::Lay,
    ) -> Result<Laid, Rejected> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let mut hardness = self.fresh_hardness(config, (seed, depth, attempt));
        let lists = &mut self.lists;
        let mut tiles = std::mem::take(&mut lists.spare_tiles);
        tiles.clear();
        tiles.resize(w * h, Tile::Rock);
        self.room_id.clear();
        self.room_id.resize(w * h, 0);
        let mut rng = stage_rng(seed, depth, attempt, Stage::Rooms);
        vault_place::place(
            &mut lists.vaults,
            vaults,
            config.vaults.count,
            depth,
            (config.width, config.height),
            &mut rng,
            &mut self.room_id,
            1,
            budget,
        );
        lay_vaults(
            lists,
            vaults,
            w,
            (&mut tiles, &mut hardness, &mut self.room_id),
        );
        // The vaults' boxes, which the kind keeps a cell clear of.
        self.kinds
            .fence(w, h, lists.vaults.placed.iter().map(vault_box));
        let mut rng = stage_rng(seed, depth, attempt, Stage::Kind);
        self.kinds.chambers = false;
        let laid_out = lay(
            &mut self.kinds,
            config,
            &mut tiles,
            &mut hardness,
            &mut rng,
            budget,
            lists.laid,
        )
        .and_then(|rooms| {
            self.kinds.join_vault_doors(
                config,
                w,
                (&mut tiles, &mut hardness),
                &lists.entrances[..lists.laid],
                budget,
            )?;
            Ok(rooms)
        });
        match laid_out {
            Ok(mut rooms) => {
                // The vaults first, in the room the kind left for them.
                let doors = self.kinds.vault_doors.drain(..);
                let vault_rooms = lists.vaults.placed.iter().zip(doors);
                rooms.splice(
                    0..0,
                    vault_rooms.map(|(p, doors)| Room {
                        shape: vault_box(p),
                        doors,
                    }),
                );
                Ok(Laid {
                    tiles,
                    hardness,
                    rooms,
                    vaults: lists.laid,
                    chambers: std::mem::take(&mut self.kinds.chambers),
                })
            }
            Err(rejected) => {
                (lists.spare_tiles, lists.spare_hardness) = (tiles, hardness);
                Err(rejected)
            }
        }
    }

    /// The finish every kind shares: stairs far apart by walk, the level
    /// assembled (its graph read off the grid) and verified.
    fn finish(
        &mut self,
        config: &Config,
        laid: Laid,
        (up, down): (usize, usize),
        (seed, depth, attempt): (u64, u16, u32),
    ) -> Result<Level, Rejected> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let lists = &mut self.lists;
        let Laid {
            mut tiles,
            hardness,
            rooms,
            vaults: laid,
            chambers,
        } = laid;
        let counts = stairs::StairCounts { up, down };
        // One breadth-first search from the anchor room both proves the
        // level connected and ranks the rooms for the stairs.
        let mut rng = stage_rng(seed, depth, attempt, Stage::Stairs);
        let places = stairs::StairPlaces {
            vault_spots: &lists.stair_spots[..laid],
        };
        let placed = 'stairs: {
            let Some(anchor) = stairs::anchor(rooms.len(), &counts, &places, &mut rng) else {
                break 'stairs None;
            };
            let centre = places.reference(w, &tiles, &rooms, anchor);
            let from = usize::from(centre.y) * w + usize::from(centre.x);
            let reached = verify::distance_map(w, &tiles, from, &mut self.bfs);
            // Stairs change neither what is walkable nor the graph, so the
            // finished level is what gets verified.
            stairs::place(
                &mut lists.stairs,
                w,
                &mut tiles,
                &rooms,
                &counts,
                &places,
                anchor,
                self.bfs.distances(),
                &mut rng,
            )
            .map(|stairs| (stairs, reached))
        };
        let Some((stairs, reached)) = placed else {
            // The next attempt reuses the grids and the door lists.
            lists.doors.extend(rooms.into_iter().map(|room| room.doors));
            (lists.spare_tiles, lists.spare_hardness) = (tiles, hardness);
            return Err(Rejected::TooFewStairRooms);
        };
        // Rules 3: a share of the doors hidden, none on the stairs' walks.
        let secret = secret_doors::wanted(config);
        if secret {
            let mut rng = stage_rng(seed, depth, attempt, Stage::SecretDoors);
            secret_doors::hide(
                config.secret_doors,
                w,
                &mut tiles,
                &rooms,
                &stairs,
                self.bfs.distances(),
                &mut rng,
                &mut lists.secret_doors,
            );
        }
        let level = if chambers {
            let area_of = self.kinds.cave.area_map(w, &tiles, &rooms, laid);
            let size = (config.width, config.height);
            Level::assemble_with_areas(depth, size, tiles, hardness, rooms, stairs, area_of, 0)
        } else {
            Level::assemble(
                depth,
                config.width,
                config.height,
                tiles,
                hardness,
                rooms,
                stairs,
                0,
            )
        };
        verify::check(
            w,
            h,
            level.tiles(),
            level.hardness_grid(),
            level.graph(),
            reached,
        )
        .and_then(|()| verify::check_stairs(w, level.tiles(), level.stairs(), (up, down)))
        .map_err(|flaw| Rejected::Flaw(flaw.to_string()))?;
        if secret {
            secret_doors::check(
                w,
                level.tiles(),
                level.rooms(),
                level.stairs(),
                &mut self.bfs,
                &mut self.lists.secret_doors,
            )
            .map_err(Rejected::Flaw)?;
        }
        Ok(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Range, RoomConfig};

    /// A config built in code skips the file's validation; the generator
    /// refuses it with a typed error instead of panicking (rooms wider than
    /// the level once underflowed in room placement).
    #[test]
    fn a_config_built_in_code_is_validated() {
        let wide_rooms = Config {
            width: 60,
            height: 40,
            rooms: RoomConfig {
                width: Range::new(70, 80),
                ..RoomConfig::default()
            },
            ..Config::default()
        };
        let no_doors = Config {
            rooms: RoomConfig {
                max_doors: 0,
                ..RoomConfig::default()
            },
            ..Config::default()
        };
        let no_retries = Config {
            generation_retries: 0,
            ..Config::default()
        };
        for (config, field) in [
            (wide_rooms, "rooms.width.max"),
            (no_doors, "rooms.max_doors"),
            (no_retries, "generation_retries"),
        ] {
            match generate_level(&config, 7, 1) {
                Err(GenerateError::InvalidConfig { field: got, .. }) => assert_eq!(got, field),
                other => panic!("{field}: expected InvalidConfig, got {other:?}"),
            }
            let mut generator = Generator::default();
            assert!(
                generator.groundwork(&config, &[], 7, 1).is_none(),
                "{field}"
            );
        }
    }

    /// A refused level reports no work, as from a fresh generator, not the
    /// work of the level made before it.
    #[test]
    fn a_refused_level_spent_no_work() {
        let config = Config {
            width: 60,
            height: 30,
            ..Config::default()
        };
        let mut generator = Generator::default();
        generator.level(&config, &[], 1, 1).unwrap();
        assert!(generator.work_spent() > 0);
        let bad = Config {
            generation_retries: 0,
            ..config.clone()
        };
        assert!(generator.level(&bad, &[], 1, 1).is_err());
        assert_eq!(generator.work_spent(), 0);
        assert!(generator.level(&config, &[], 1, 99).is_err());
        assert_eq!(generator.work_spent(), 0);
    }

    /// The corridor stage of a groundwork prunes back to that groundwork's
    /// own field, not the field of whatever level the generator laid out
    /// last (it restored the last one's hardness on pruned cells).
    #[test]
    fn a_groundwork_prunes_to_its_own_field() {
        let config = Config {
            width: 80,
            height: 40,
            corridors: crate::config::CorridorStyle::DeadEnd,
            dead_ends: DeadEndPolicy::Prune,
            ..Config::default()
        };
        let keep = Config {
            dead_ends: DeadEndPolicy::Keep,
            ..config.clone()
        };
        let mut pruned = 0;
        let mut warm = Generator::default();
        for seed in 1..=6 {
            let mut alone = Generator::default();
            let Some(mut work) = alone.groundwork(&config, &[], seed, 1) else {
                continue;
            };
            let (mut after, mut kept) = (work.clone(), work.clone());
            let joined = alone.corridor_stage(&config, &mut work);
            let _ = warm.groundwork(&config, &[], seed + 100, 1);
            assert_eq!(warm.corridor_stage(&config, &mut after), joined);
            // (Not assert_eq: the grids are thousands of cells.)
            assert!(work.ground.tiles == after.ground.tiles, "seed {seed}");
            assert!(work.ground.hardness == after.ground.hardness, "seed {seed}");
            // Pruning took place: corridors kept without it are rock here.
            alone.corridor_stage(&keep, &mut kept);
            pruned += (0..kept.ground.tiles.len())
                .filter(|&c| kept.ground.tiles[c] == Tile::Corridor)
                .filter(|&c| work.ground.tiles[c] == Tile::Rock)
                .count();
        }
        assert!(pruned > 0);
        // Laid out without pruning, it cannot be pruned.
        let mut work = warm.groundwork(&keep, &[], 1, 1).unwrap();
        assert!(!warm.corridor_stage(&config, &mut work));
    }
}
