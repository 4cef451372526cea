//! Level generation: seed and config in, a verified [`Level`] out.
//!
//! The pipeline of one attempt:
//! 1. hardness field (smooth noise, immutable border),
//! 2. rooms by random placement,
//! 3. corridors by weighted A* between nearest rooms, with doors,
//! 4. stairs far apart by path,
//! 5. the level graph read off the grid,
//! 6. verification.
//!
//! An attempt that places too few rooms or fails verification is thrown away
//! and the next attempt (a fresh sub-seed) is made, up to
//! `generation_retries`. No IO, no clock, no global state: the result depends
//! on (config, seed, depth) alone.

mod corridors;
mod dead_end;
mod grid;
mod hardness;
mod loops;
mod rooms;
pub(crate) mod seed;
mod stairs;
mod straight;
pub(crate) mod verify;

use crate::config::{Config, DeadEndPolicy};
use crate::level::{Door, Level, Room, Tile};

use self::corridors::{Carver, Site};
use self::seed::{Stage, stage_rng};

/// Why no level could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// Most attempts could not place the minimum number of rooms.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {too_few} placed fewer than \
         {wanted} rooms (at best {best}) in the {width}x{height} level and {crowded} had rooms \
         too close for corridors to join; lower rooms.count.min, shrink rooms.width, \
         rooms.height or rooms.circle_radius, or enlarge the level"
    )]
    TooFewRooms {
        depth: u16,
        attempts: u32,
        too_few: u32,
        crowded: u32,
        best: usize,
        wanted: u16,
        width: u16,
        height: u16,
    },
    /// Most attempts placed their rooms but could not join them all.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {crowded} had rooms too close for \
         corridors to join them all and {too_few} placed too few rooms; lower \
         rooms.max_floor_share or rooms.count, raise rooms.max_doors, or enlarge the level"
    )]
    Crowded {
        depth: u16,
        attempts: u32,
        crowded: u32,
        too_few: u32,
    },
    /// Most attempts placed their rooms but a corridor style other than the
    /// Tunnel could not join them all: its own advice, since crowding is
    /// rarely what stops it.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {crowded} placed their rooms but \
         {style:?} corridors could not join them all; {advice}"
    )]
    Unjoinable {
        depth: u16,
        attempts: u32,
        crowded: u32,
        style: crate::config::CorridorStyle,
        advice: &'static str,
    },
    /// A level failed its final verification: a generator bug, not a config
    /// problem, since carving only succeeds on a connected layout.
    #[error(
        "depth {depth}: no level passed verification in {attempts} attempts (last problem: {reason})"
    )]
    Unverified {
        depth: u16,
        attempts: u32,
        reason: String,
    },
    #[error("depth {depth} is outside the dungeon (1..={levels})")]
    NoSuchDepth { depth: u16, levels: u16 },
}

/// Reusable buffers, so generating many levels on one thread allocates
/// almost nothing after the first.
#[derive(Default)]
pub struct Generator {
    room_id: Vec<u16>,
    acc: Vec<u32>,
    carver: Carver,
    distance: Vec<u32>,
    queue: Vec<u32>,
    /// The hardness field before carving, for pruning to restore.
    pristine: Vec<u8>,
}

/// Generates one level with fresh buffers.
pub fn generate_level(config: &Config, seed: u64, depth: u16) -> Result<Level, GenerateError> {
    Generator::default().level(config, seed, depth)
}

/// Hardness and rooms of a level's first attempt, ready for the corridor
/// stage: lets a benchmark time the corridor styles alone.
#[doc(hidden)]
#[derive(Clone)]
pub struct Groundwork {
    ground: Ground,
    room_id: Vec<u16>,
    seed: u64,
    depth: u16,
}

/// Stage one of an attempt: the hardness field with the rooms cut into it.
#[derive(Clone)]
struct Ground {
    tiles: Vec<Tile>,
    hardness: Vec<u8>,
    shapes: Vec<crate::geom::Shape>,
}

impl Generator {
    /// The hardness and rooms of attempt 0 of a level (`None` if it placed
    /// too few rooms).
    #[doc(hidden)]
    pub fn groundwork(&mut self, config: &Config, seed: u64, depth: u16) -> Option<Groundwork> {
        let ground = self.ground(config, seed, depth, 0).ok()?;
        Some(Groundwork {
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
        join_rooms(
            &mut self.carver,
            &mut self.queue,
            &self.pristine,
            config,
            &mut work.ground,
            &work.room_id,
            (work.seed, work.depth, 0),
        )
        .is_ok()
    }

    /// Stage one of an attempt: hardness, then rooms placed and cut into it
    /// (their ids left in `self.room_id`). `Err` holds how many rooms were
    /// placed when too few were.
    fn ground(
        &mut self,
        config: &Config,
        seed: u64,
        depth: u16,
        attempt: u32,
    ) -> Result<Ground, usize> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let mut hardness = vec![0u8; w * h];
        let mut rng = stage_rng(seed, depth, attempt, Stage::Hardness);
        hardness::fill(
            &mut hardness,
            &mut self.acc,
            w,
            h,
            &config.hardness,
            &mut rng,
        );
        if config.dead_ends == DeadEndPolicy::Prune {
            self.pristine.clone_from(&hardness);
        }
        let mut rng = stage_rng(seed, depth, attempt, Stage::Rooms);
        let shapes = rooms::place(config, &mut rng, &mut self.room_id);
        if shapes.len() < usize::from(config.rooms.count.min) {
            return Err(shapes.len());
        }
        let mut tiles = vec![Tile::Rock; w * h];
        for (c, &id) in self.room_id.iter().enumerate() {
            if id != 0 {
                tiles[c] = Tile::Floor;
                hardness[c] = 0;
            }
        }
        Ok(Ground {
            tiles,
            hardness,
            shapes,
        })
    }
}

/// The corridor stage of one attempt: the configured style, then extra
/// loops and dead-end pruning, each from its own random stream. (A free
/// function over the generator's buffers, since the site borrows another.)
/// Returns each room's doors. `at` is (seed, depth, attempt).
fn join_rooms(
    carver: &mut Carver,
    queue: &mut Vec<u32>,
    pristine: &[u8],
    config: &Config,
    ground: &mut Ground,
    room_id: &[u16],
    (seed, depth, attempt): (u64, u16, u32),
) -> Result<Vec<Vec<Door>>, corridors::Unjoined> {
    let mut doors: Vec<Vec<Door>> = vec![Vec::new(); ground.shapes.len()];
    let mut site = Site {
        width: usize::from(config.width),
        height: usize::from(config.height),
        tiles: &mut ground.tiles,
        hardness: &mut ground.hardness,
        room_id,
        shapes: &ground.shapes,
        doors: &mut doors,
    };
    let mut rng = stage_rng(seed, depth, attempt, Stage::Corridors);
    carver.carve(config, &mut site, &mut rng)?;
    if config.extra_loops.count > 0 {
        let mut rng = stage_rng(seed, depth, attempt, Stage::Loops);
        loops::add(carver, config, &mut site, queue, &mut rng);
    }
    if config.dead_ends == DeadEndPolicy::Prune {
        loops::prune(&mut site, pristine);
    }
    Ok(doors)
}

enum Rejected {
    TooFewRooms(usize),
    Unjoined,
    Flaw(String),
}

impl Generator {
    /// Generates the level at `depth` (1-based) of the run `seed`.
    pub fn level(
        &mut self,
        config: &Config,
        seed: u64,
        depth: u16,
    ) -> Result<Level, GenerateError> {
        if depth == 0 || depth > config.levels {
            return Err(GenerateError::NoSuchDepth {
                depth,
                levels: config.levels,
            });
        }
        let attempts = u32::from(config.generation_retries);
        let (mut too_few, mut crowded, mut best) = (0u32, 0u32, 0usize);
        let mut flaw = None;
        for attempt in 0..attempts {
            match self.attempt(config, seed, depth, attempt) {
                Ok(mut level) => {
                    level.rejected_attempts = attempt;
                    return Ok(level);
                }
                Err(Rejected::TooFewRooms(placed)) => {
                    too_few += 1;
                    best = best.max(placed);
                }
                Err(Rejected::Unjoined) => crowded += 1,
                Err(Rejected::Flaw(reason)) => flaw = Some(reason),
            }
        }
        // A verification failure is a generator bug; say so rather than
        // blame the config.
        if let Some(reason) = flaw {
            return Err(GenerateError::Unverified {
                depth,
                attempts,
                reason,
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
            use crate::config::CorridorStyle;
            let advice = match config.corridors {
                CorridorStyle::Tunnel => "",
                CorridorStyle::Grid => {
                    "Grid corridors wander along grid lines and give up when they hit a wall, \
                     so sparse levels defeat them: raise rooms.count, grid_spacing or \
                     grid_segment, or use corridors: Tunnel"
                }
                CorridorStyle::DeadEnd => {
                    "one room cut off fails a DeadEnd level: lower rooms.count or \
                     rooms.max_floor_share, raise rooms.max_doors, or use corridors: Tunnel"
                }
                CorridorStyle::Straight => {
                    "Straight walks cannot get past crowded rooms: lower rooms.max_floor_share \
                     or rooms.count, or use corridors: Tunnel"
                }
            };
            if advice.is_empty() {
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

    fn attempt(
        &mut self,
        config: &Config,
        seed: u64,
        depth: u16,
        attempt: u32,
    ) -> Result<Level, Rejected> {
        let (w, h) = (usize::from(config.width), usize::from(config.height));
        let mut ground = self
            .ground(config, seed, depth, attempt)
            .map_err(Rejected::TooFewRooms)?;
        let doors = join_rooms(
            &mut self.carver,
            &mut self.queue,
            &self.pristine,
            config,
            &mut ground,
            &self.room_id,
            (seed, depth, attempt),
        )
        .map_err(|_| Rejected::Unjoined)?;
        let Ground {
            mut tiles,
            hardness,
            shapes,
        } = ground;

        let rooms: Vec<Room> = shapes
            .into_iter()
            .zip(doors)
            .map(|(shape, doors)| Room { shape, doors })
            .collect();

        let (up, down) = config.stair_counts(depth);
        let counts = stairs::StairCounts { up, down };
        // One breadth-first search from the anchor room both proves the
        // level connected and ranks the rooms for the stairs.
        let mut rng = stage_rng(seed, depth, attempt, Stage::Stairs);
        let anchor = stairs::anchor(rooms.len(), &counts, &mut rng);
        let centre = rooms[anchor].shape.center();
        let from = usize::from(centre.y) * w + usize::from(centre.x);
        let reached = verify::distance_map(w, &tiles, from, &mut self.distance, &mut self.queue);
        // Stairs change neither what is walkable nor the graph, so the
        // finished level is what gets verified.
        let stairs = stairs::place(
            w,
            &mut tiles,
            &rooms,
            &counts,
            anchor,
            &self.distance,
            &mut rng,
        );
        let level = Level::assemble(
            depth,
            config.width,
            config.height,
            tiles,
            hardness,
            rooms,
            stairs,
            0,
        );
        verify::check(
            w,
            h,
            level.tiles(),
            level.hardness_grid(),
            level.graph(),
            reached,
        )
        .map_err(|flaw| Rejected::Flaw(format!("{flaw:?}")))?;
        Ok(level)
    }
}
