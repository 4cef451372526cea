//! Labyrinth levels: a maze of one-cell corridors on the lattice of odd
//! cells, as Angband's labyrinth levels are.
//!
//! 1. Halls: `labyrinth.halls` small rooms (3 or 5 cells a side) set on
//!    the lattice, never touching each other or the lattice's edge, so the
//!    rest of the lattice stays one piece.
//! 2. The maze: a randomised depth-first walk over the other lattice cells
//!    opens the wall between each cell and the next (a perfect maze: one
//!    way between any two cells).
//! 3. Loops: each wall still standing between two maze cells is knocked
//!    through with chance `labyrinth.loops`.
//! 4. Doors: each hall gets one to three doors onto the maze.
//! 5. Landings: the maze's dead ends (or, in a maze with too few, cells of
//!    it drawn at random) become one-cell areas, floor, where stairs and
//!    what lies about may stand. The halls and the landings are the
//!    level's areas; the maze is corridor.
//!
//! Draws only from its own stream.

use rand::RngExt;
use rand::distr::Bernoulli;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::{Rect, RegionKind, Shape};
use crate::level::{Door, Room, Tile};

use super::super::budget::Budget;
use super::super::{Rejected, WorkStage};
use super::region_room;

/// The most landings a labyrinth has: enough for stairs far apart and for
/// what lies about, few enough that the maze stays a maze.
const MAX_LANDINGS: usize = 48;

/// A labyrinth: halls (rectangles) with one to three doors, and landings.
pub(crate) const KIND: super::Kind = super::Kind {
    lay: Some(lay),
    areas: super::Areas {
        fits: |s| {
            matches!(s, Shape::Rect(_))
                || matches!(s, Shape::Region(r) if r.kind == RegionKind::Landing)
        },
        max_doors: hall_doors,
        what: "a hall or a landing",
        counted: false,
    },
};

/// The most doors a hall gets: the config's `rooms.max_doors`, one to
/// three.
fn hall_doors(config: &Config) -> u8 {
    config.rooms.max_doors.clamp(1, 3)
}
/// The fewest landings a labyrinth has, its dead ends or not.
const MIN_LANDINGS: usize = 12;
/// A hall is two or three lattice cells a side.
const HALL_SIDES: (u32, u32) = (2, 3);
/// What `Scratch::hall` holds for a lattice cell a vault takes.
const VAULT: u16 = u16::MAX;
/// Places tried for each hall.
const HALL_TRIES: u32 = 40;

/// The labyrinth's buffers, kept from level to level.
#[derive(Default)]
pub(in crate::generate) struct Scratch {
    /// Per lattice cell: 0 maze, else the hall's index + 1.
    hall: Vec<u16>,
    /// Per cell of the lattice with a margin round it: reached by the walk.
    visited: Vec<bool>,
    /// Per cell of the lattice with a margin: a hall or a vault.
    near: Vec<bool>,
    /// Per cell of the lattice with a margin: the walk may enter it.
    free: Vec<bool>,
    /// Per cell of the lattice with a margin: whether the wall right of
    /// it is open, then (from `padded` on) the wall below it. Kept as the
    /// walls open, so the passes after the walk read whole rows of them
    /// rather than the level's cells two apart.
    open_walls: Vec<bool>,
    /// A lattice row's flags, before they are listed.
    flags: Vec<bool>,
    /// The walk: (lattice cell with a margin, level cell).
    walk: Vec<(u32, u32)>,
    dead_ends: Vec<u32>,
    /// The walls the loops may knock through, in order: the lattice cell
    /// (with a margin) left of or above each, times two, plus one for a
    /// wall below it.
    walls: Vec<u32>,
    /// Each hall's lattice cells: (column, row, columns, rows).
    halls: Vec<(usize, usize, usize, usize)>,
    exits: Vec<(usize, usize)>,
    landings: Vec<usize>,
}

/// Lays a labyrinth into `tiles` (all rock) and `hardness` (the noise) and
/// returns its halls and landings.
pub(in crate::generate) fn lay(
    kinds: &mut super::Kinds,
    config: &Config,
    tiles: &mut [Tile],
    hardness: &mut [u8],
    rng: &mut Pcg64,
    budget: &Budget,
    vaults: usize,
) -> Result<Vec<Room>, Rejected> {
    let super::Kinds {
        labyrinth: s,
        fenced,
        ..
    } = kinds;
    let w = usize::from(config.width);
    let h = usize::from(config.height);
    // Lattice cell (i, j) is the level's cell (2i + 1, 2j + 1).
    let (lw, lh) = ((w - 1) / 2, (h - 1) / 2);
    let lattice = lw * lh;
    if !budget.spend(w * h * 6) {
        return Err(Rejected::OverBudget(WorkStage::PlacingRooms));
    }
    // Each list at its largest size at once (see the cave's).
    s.walk.reserve(lattice);
    s.dead_ends.reserve(lattice + 1);
    s.walls.reserve(2 * lattice + 2);
    s.landings.reserve(MAX_LANDINGS);
    s.halls.reserve(16);
    s.exits.reserve(12);
    let cell = |l: usize| (2 * (l % lw) + 1) + (2 * (l / lw) + 1) * w;
    let open = |c: usize, tiles: &mut [Tile], hardness: &mut [u8], tile: Tile| {
        tiles[c] = tile;
        hardness[c] = 0;
    };

    // 1. Halls, as rectangles of lattice cells, kept off the vaults (a
    // lattice cell in a vault or beside one is no part of the maze).
    s.hall.clear();
    s.hall.resize(lattice, 0);
    // Row by row, so no division finds a lattice cell's place.
    for (j, row) in s.hall.chunks_exact_mut(lw).enumerate() {
        let level_row = &fenced[(2 * j + 1) * w..];
        for (i, hall) in row.iter_mut().enumerate() {
            if level_row[2 * i + 1] {
                *hall = VAULT;
            }
        }
    }
    let maze = &config.labyrinth;
    let wanted = rng.random_range(u32::from(maze.halls.min)..=u32::from(maze.halls.max));
    s.halls.clear();
    for _ in 0..wanted {
        for _ in 0..HALL_TRIES {
            let cw = rng.random_range(HALL_SIDES.0..=HALL_SIDES.1) as usize;
            let ch = rng.random_range(HALL_SIDES.0..=HALL_SIDES.1) as usize;
            // At least one lattice cell from the edge, and from each other.
            if lw < cw + 2 || lh < ch + 2 {
                break;
            }
            let i0 = rng.random_range(1..=(lw - cw - 1) as u32) as usize;
            let j0 = rng.random_range(1..=(lh - ch - 1) as u32) as usize;
            let clear =
                (j0 - 1..=j0 + ch).all(|j| (i0 - 1..=i0 + cw).all(|i| s.hall[j * lw + i] == 0));
            if !clear {
                continue;
            }
            let id = s.halls.len() as u16 + 1;
            for j in j0..j0 + ch {
                for i in i0..i0 + cw {
                    s.hall[j * lw + i] = id;
                }
            }
            s.halls.push((i0, j0, cw, ch));
            break;
        }
    }

    // 2. The maze, a depth-first walk from the first maze cell. The walk
    // and the passes after it work on the lattice with a cell of margin
    // all round (`pw` wide), so a lattice cell's neighbours need no bounds
    // tests and no division finds its place: the margin is taken, as a
    // hall or a vault is, and next to no hall.
    let pw = lw + 2;
    let padded = pw * (lh + 2);
    let pad = |l: usize| (l / lw + 1) * pw + l % lw + 1;
    s.visited.clear();
    s.visited.resize(padded, false);
    // Per padded cell: a hall or a vault (the margin is neither).
    s.near.clear();
    s.near.resize(padded, false);
    // Per padded cell: the walk may still enter it.
    s.free.clear();
    s.free.resize(padded, false);
    s.open_walls.clear();
    s.open_walls.resize(2 * padded, false);
    for j in 0..lh {
        let (row, prow) = (&s.hall[j * lw..(j + 1) * lw], (j + 1) * pw + 1);
        for (i, &hall) in row.iter().enumerate() {
            s.near[prow + i] = hall != 0;
            s.free[prow + i] = hall == 0;
        }
    }
    let Some(first) = (0..lattice).find(|&l| s.hall[l] == 0) else {
        return Err(Rejected::TooFewRooms(0));
    };
    let first_p = pad(first);
    s.visited[first_p] = true;
    s.free[first_p] = false;
    open(cell(first), tiles, hardness, Tile::Corridor);
    // (padded lattice cell, level cell)
    s.walk.clear();
    s.walk.push((first_p as u32, cell(first) as u32));
    // The four neighbours in the walk's order: left, right, up, down, as
    // (padded step, level step).
    let steps = [
        (-1isize, -2isize),
        (1, 2),
        (-(pw as isize), -2 * w as isize),
        (pw as isize, 2 * w as isize),
    ];
    // For each set of free ways (a bit a way, in the walk's order) and
    // each choice among them: the way, and its padded step, so the next
    // cell waits on one table rather than a list written and read back.
    let mut nth_way = [0u8; 64];
    let mut nth_step = [0isize; 64];
    for mask in 0..16usize {
        let ways = (0..4).filter(|&k| mask >> k & 1 == 1);
        for (r, k) in ways.enumerate() {
            nth_way[mask * 4 + r] = k as u8;
            nth_step[mask * 4 + r] = steps[k].0;
        }
    }
    while let Some(&(p, c)) = s.walk.last() {
        let (p, c) = (p as usize, c as usize);
        // Written out, not `steps.map(..)`: whether the compiler inlined
        // the map's closure came and went with unrelated code elsewhere
        // (5% of a labyrinth's instructions when it did not).
        let free = [
            s.free[p.wrapping_add_signed(steps[0].0)],
            s.free[p.wrapping_add_signed(steps[1].0)],
            s.free[p.wrapping_add_signed(steps[2].0)],
            s.free[p.wrapping_add_signed(steps[3].0)],
        ];
        let n = usize::from(free[0])
            + usize::from(free[1])
            + usize::from(free[2])
            + usize::from(free[3]);
        if n == 0 {
            s.walk.pop();
            continue;
        }
        let mask = usize::from(free[0])
            | usize::from(free[1]) << 1
            | usize::from(free[2]) << 2
            | usize::from(free[3]) << 3;
        let at = mask * 4 + rng.random_range(0..n as u32) as usize;
        let m = p.wrapping_add_signed(nth_step[at]);
        let k = usize::from(nth_way[at]);
        let dc = steps[k].1;
        let mc = c.wrapping_add_signed(dc);
        s.visited[m] = true;
        s.free[m] = false;
        // The wall is right of or below the cell left of or above it.
        s.open_walls[if k & 1 == 0 { m } else { p } + (k >> 1) * padded] = true;
        open(
            c.wrapping_add_signed(dc / 2),
            tiles,
            hardness,
            Tile::Corridor,
        );
        open(mc, tiles, hardness, Tile::Corridor);
        s.walk.push((m as u32, mc as u32));
    }

    // 3. Loops: walls between two maze cells, right and down of each,
    // each knocked through with chance `labyrinth.loops`. A wall is
    // another cell's than every other wall, so which walls may be knocked
    // through is known before any is: they are listed first without a
    // branch a wall (whether one may be is as good as random to a branch
    // predictor), then drawn for in the same order. Halls, vaults and the
    // margin are never visited, so a visited pair is two maze cells.
    if maze.loops > 0.0 {
        let knock = Bernoulli::new(maze.loops).map_err(|_| Rejected::TooFewRooms(0))?;
        s.walls.clear();
        s.flags.clear();
        s.flags.resize(2 * lw, false);
        for j in 0..lh {
            let p0 = (j + 1) * pw + 1;
            let (visited, right, below) = (
                &s.visited[p0..p0 + lw + 1],
                &s.open_walls[p0..p0 + lw],
                &s.visited[p0 + pw..p0 + pw + lw],
            );
            let down = &s.open_walls[padded + p0..padded + p0 + lw];
            // A cell's wall right, then its wall below: the order the
            // walls are drawn in.
            for (i, pair) in s.flags.chunks_exact_mut(2).enumerate() {
                pair[0] = visited[i] & visited[i + 1] & !right[i];
                pair[1] = visited[i] & below[i] & !down[i];
            }
            list(&s.flags, &mut s.walls, 2 * p0 as u32);
        }
        // The walls as the tiles give them (nothing but the walk has
        // opened a cell yet), in the order the old listing took them: a
        // lattice cell's wall right, then its wall below.
        #[cfg(any(test, debug_assertions))]
        {
            let mut want = Vec::new();
            for j in 0..lh {
                for i in 0..lw {
                    let (p, c) = ((j + 1) * pw + 1 + i, (2 * j + 1) * w + 1 + 2 * i);
                    for (dp, wall, below) in [(1, c + 1, 0), (pw, c + w, 1)] {
                        if s.visited[p] && s.visited[p + dp] && tiles[wall] == Tile::Rock {
                            want.push((p as u32) << 1 | below);
                        }
                    }
                }
            }
            assert_eq!(s.walls, want, "the loops' walls are the tiles'");
        }
        for &wall in &s.walls {
            if rng.sample(knock) {
                let (p, below) = ((wall >> 1) as usize, (wall & 1) as usize);
                s.open_walls[p + below * padded] = true;
                let (i, j) = (p % pw - 1, p / pw - 1);
                let c = (2 * j + 1) * w + 2 * i + 1;
                open(
                    c + if below == 1 { w } else { 1 },
                    tiles,
                    hardness,
                    Tile::Corridor,
                );
            }
        }
    }

    // 4. Landings: dead ends of the maze (one way out), a random choice of
    // them, else maze cells at random; none beside a hall's door (halls
    // get theirs next, on the maze's edge cells, which are never dead ends
    // of it: a hall keeps a cell of maze all round).
    let next_to_hall =
        |near: &[bool], p: usize| near[p - 1] | near[p + 1] | near[p - pw] | near[p + pw];
    // Flagged a row at a time and listed as the loops' walls are.
    s.dead_ends.clear();
    s.flags.clear();
    s.flags.resize(lw, false);
    let mut free = 0;
    for j in 0..lh {
        let p0 = (j + 1) * pw + 1;
        fn row(v: &[bool], from: usize, lw: usize) -> &[bool] {
            &v[from..from + lw]
        }
        let (visited, left, right, up, down) = (
            row(&s.visited, p0, lw),
            row(&s.near, p0 - 1, lw),
            row(&s.near, p0 + 1, lw),
            row(&s.near, p0 - pw, lw),
            row(&s.near, p0 + pw, lw),
        );
        let walls = &s.open_walls;
        let (wall_right, wall_left, wall_down, wall_up) = (
            row(walls, p0, lw),
            row(walls, p0 - 1, lw),
            row(walls, padded + p0, lw),
            row(walls, padded + p0 - pw, lw),
        );
        let mut landings = 0u32;
        for (i, flag) in s.flags.iter_mut().enumerate() {
            let landing = visited[i] & !(left[i] | right[i] | up[i] | down[i]);
            landings += u32::from(landing);
            let ways = u8::from(wall_right[i])
                + u8::from(wall_left[i])
                + u8::from(wall_down[i])
                + u8::from(wall_up[i]);
            *flag = landing & (ways == 1);
        }
        free += landings as usize;
        list(&s.flags, &mut s.dead_ends, (j * lw) as u32);
    }
    // Nothing but the walk and the loops has opened a cell yet: the dead
    // ends are the tiles' too.
    #[cfg(any(test, debug_assertions))]
    {
        let want: Vec<u32> = (0..lattice)
            .filter(|&l| {
                let (p, c) = (pad(l), cell(l));
                let ways = [c - 1, c + 1, c - w, c + w]
                    .iter()
                    .filter(|&&n| tiles[n] != Tile::Rock)
                    .count();
                s.visited[p] & !next_to_hall(&s.near, p) & (ways == 1)
            })
            .map(|l| l as u32)
            .collect();
        assert_eq!(s.dead_ends, want, "the dead ends are the tiles'");
    }
    s.landings.clear();
    while s.landings.len() < MAX_LANDINGS && !s.dead_ends.is_empty() {
        let k = rng.random_range(0..s.dead_ends.len() as u32) as usize;
        s.landings.push(s.dead_ends.swap_remove(k) as usize);
    }
    let mut tries = 0;
    while s.landings.len() < MIN_LANDINGS.min(free) && tries < 100 * MIN_LANDINGS {
        tries += 1;
        let l = rng.random_range(0..lattice as u32) as usize;
        let p = pad(l);
        if s.visited[p] && !next_to_hall(&s.near, p) && !s.landings.contains(&l) {
            s.landings.push(l);
        }
    }
    // In the order of their cells, so the areas' order says nothing of
    // the draw.
    s.landings.sort_unstable();

    // 5. Halls: floor, and one to three doors onto the maze.
    let max_doors = usize::from(hall_doors(config));
    let mut rooms = Vec::with_capacity(vaults + s.halls.len() + s.landings.len());
    for &(i0, j0, cw, ch) in &s.halls {
        let (x, y) = (2 * i0 + 1, 2 * j0 + 1);
        let (width, height) = (2 * cw - 1, 2 * ch - 1);
        for row in y..y + height {
            for c in row * w + x..row * w + x + width {
                open(c, tiles, hardness, Tile::Floor);
            }
        }
        hall_exits(&mut s.exits, i0, j0, cw, ch, lw);
        let count = (rng.random_range(1..=max_doors as u32) as usize).min(s.exits.len());
        let mut doors: Vec<Door> = Vec::with_capacity(count);
        for _ in 0..count {
            let k = rng.random_range(0..s.exits.len() as u32) as usize;
            let (inner, outer) = s.exits.swap_remove(k);
            let door = (cell(inner) + cell(outer)) / 2;
            open(door, tiles, hardness, Tile::Door);
            doors.push(Door {
                pos: crate::geom::Pos::new((door % w) as u16, (door / w) as u16),
            });
        }
        rooms.push(Room {
            shape: Shape::Rect(Rect {
                x: x as u16,
                y: y as u16,
                width: width as u16,
                height: height as u16,
            }),
            doors,
        });
    }

    for &l in &s.landings {
        let c = cell(l);
        open(c, tiles, hardness, Tile::Floor);
        let (x, y) = (c % w, c / w);
        rooms.push(region_room((x, y, x, y), c, w, RegionKind::Landing));
    }
    Ok(rooms)
}

/// Appends `first + i` to `to` for each flag `i` set, in order: a mask of
/// 32 flags at a time, lowest bit first, rather than a branch a flag.
fn list(flags: &[bool], to: &mut Vec<u32>, first: u32) {
    for (k, chunk) in flags.chunks(32).enumerate() {
        let bits = crate::grid_search::mask32(chunk, |flag| flag);
        crate::grid_search::push_bits(bits, first + 32 * k as u32, to);
    }
}

/// The (hall, maze) lattice cell pairs across a hall's wall, where a door
/// may stand, into `exits`: above, below, left and right of the hall.
fn hall_exits(
    exits: &mut Vec<(usize, usize)>,
    i0: usize,
    j0: usize,
    cw: usize,
    ch: usize,
    lw: usize,
) {
    exits.clear();
    for i in i0..i0 + cw {
        exits.push((j0 * lw + i, (j0 - 1) * lw + i));
        exits.push(((j0 + ch - 1) * lw + i, (j0 + ch) * lw + i));
    }
    for j in j0..j0 + ch {
        exits.push((j * lw + i0, j * lw + i0 - 1));
        exits.push((j * lw + i0 + cw - 1, j * lw + i0 + cw));
    }
}

#[cfg(test)]
mod tests {
    use crate::config::{Config, LabyrinthConfig, LevelKind};
    use crate::generate::Generator;

    /// The loops' walls and the dead ends, flagged a lattice row at a time
    /// from the walls the walk opened, are those the tiles give (`lay`
    /// asserts both under test), on labyrinths whose rows take one mask and
    /// several, every wall a loop and few, with halls and vaults.
    #[test]
    fn walls_and_dead_ends_from_the_walk_are_the_tiles() {
        let shipped = crate::vault::shipped();
        let mut generator = Generator::default();
        let mut levels = 0;
        for (width, height) in [(150, 150), (81, 22), (67, 41), (41, 15)] {
            for loops in [0.05, 1.0] {
                let config = Config {
                    kind: LevelKind::Labyrinth,
                    width,
                    height,
                    labyrinth: LabyrinthConfig {
                        loops,
                        ..Config::default().labyrinth
                    },
                    ..Config::default()
                };
                config.validate().expect("a valid config");
                for vaults in [&[][..], shipped] {
                    for seed in 5200..5204 {
                        if generator.level(&config, vaults, seed, 2).is_ok() {
                            levels += 1;
                        }
                    }
                }
            }
        }
        assert!(levels >= 48, "only {levels} labyrinths made");
    }
}
