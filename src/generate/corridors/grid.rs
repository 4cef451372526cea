//! The `Grid` corridor style (003): corridors grow from room doors along
//! grid lines every `grid_spacing` cells.
//!
//! A corridor leaves its door straight out until it reaches a grid line
//! across its way, turns left or right onto it, and from then on runs along
//! grid lines: at a grid point, once it has run a segment of
//! `grid_segment` cells (003: 3 to 6), it turns left, right or goes straight
//! at random. It ends well when it meets a corridor of another set of
//! joined rooms (head on or from the side) or reaches a usable door cell of
//! a room of another set. It fails when it runs into the border, a room's
//! wall (its ring), itself, a corridor of its own set, or past its length
//! budget; a failed corridor is removed again, like 003's temporary
//! markers, so nothing of it stays. Sets of joined rooms merge in a
//! union-find as corridors meet, until every room is in one set; an attempt
//! whose rooms stay apart after its corridor budget is regenerated.
//!
//! Corridors are only ever drawn on free cells (off rooms, rings and the
//! border), so every guarantee of the Tunnel style holds here too.
//!
//! A level's vaults (generator revision 3; rooms 0 to k-1) are not this
//! style's to join: corridors start only from ordinary rooms, and one that
//! runs into a vault's wall fails as at any wall, since a corridor that
//! wanders along grid lines cannot aim at a vault's few doors. A last leg
//! joins each vault afterwards (`generate/vault_legs.rs`).

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::Dir;
use crate::grid_search::{RowOf, Stamps, step as offset};
use crate::level::Tile;

use super::site::{Rules, Site, outward};
use super::{NO_OWNER, Unjoined};
use crate::sets::Sets;

/// Corridors started per room before the attempt is given up.
const TRIES_PER_ROOM: usize = 60;

/// How a growing corridor ended.
enum End {
    /// It met something of another set: the room it joins, and a door cell
    /// to open at the far end, if it ends at a room.
    Joined {
        room: usize,
        door: Option<usize>,
    },
    Failed,
}

/// The Grid style's scratch buffers, reused from level to level.
#[derive(Default)]
pub(super) struct Grid {
    /// Per cell: the corridor growth that last reached it.
    seen: Stamps,
    /// Per cell: the room whose corridor it is, or `NO_OWNER`.
    owner: Vec<u32>,
    /// The sets of joined rooms, each set's size (at its representative),
    /// the rooms a corridor may start from, and the growing corridor.
    sets: Sets,
    size: Vec<usize>,
    pool: Vec<usize>,
    cells: Vec<u32>,
}

impl Grid {
    pub(super) fn carve(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        rng: &mut Pcg64,
    ) -> Result<(), Unjoined> {
        let n = site.width * site.height;
        self.seen.fit(n);
        self.owner.clear();
        self.owner.resize(n, NO_OWNER);
        let (mut sets, mut size, mut pool, mut cells) = (
            std::mem::take(&mut self.sets),
            std::mem::take(&mut self.size),
            std::mem::take(&mut self.pool),
            std::mem::take(&mut self.cells),
        );
        let lists = Lists {
            sets: &mut sets,
            size: &mut size,
            pool: &mut pool,
            cells: &mut cells,
        };
        let carved = carve(self, lists, cfg, rules, site, rng);
        (self.sets, self.size, self.pool, self.cells) = (sets, size, pool, cells);
        carved
    }
}

/// The lists of one level's carving, lent by the scratch.
struct Lists<'a> {
    sets: &'a mut Sets,
    size: &'a mut Vec<usize>,
    pool: &'a mut Vec<usize>,
    cells: &'a mut Vec<u32>,
}

fn carve(
    scratch: &mut Grid,
    lists: Lists<'_>,
    cfg: &Config,
    rules: &Rules,
    site: &mut Site<'_>,
    rng: &mut Pcg64,
) -> Result<(), Unjoined> {
    let rooms = site.shapes.len();
    // The vaults, rooms 0 to first - 1, stay out of the sets' merging.
    let first = site.entrances.len();
    let Lists {
        sets,
        size,
        pool,
        cells,
    } = lists;
    sets.reset(rooms);
    let mut apart = rooms - first;
    cells.clear();
    size.clear();
    size.resize(rooms, 1);
    let mut largest = first;
    for _ in 0..TRIES_PER_ROOM * rooms {
        if apart <= 1 {
            break;
        }
        // Corridors start from rooms outside the largest set: a corridor
        // from the largest set mostly meets its own set's corridors.
        // Listing the rooms (four to a unit), and the corridor's cells below.
        if !site.budget.spend(1 + rooms / 4) {
            return Err(Unjoined);
        }
        let big = sets.find(largest);
        pool.clear();
        pool.extend((first..rooms).filter(|&r| sets.find(r) != big));
        let room = pool[rng.random_range(0..pool.len() as u32) as usize];
        // A new door whose way out is still rock: a few random candidates
        // are tried, rather than listing them all every time.
        let Some(door) = start(rules, cfg, site, room, rng) else {
            continue;
        };
        let end = grow(scratch, cfg, rules, site, sets, room, door, cells, rng);
        site.budget.spend(cells.len());
        match end {
            End::Failed => {}
            End::Joined {
                room: other,
                door: far,
            } => {
                rules.open(site, door);
                for &c in cells.iter() {
                    rules.open(site, c as usize);
                    scratch.owner[c as usize] = room as u32;
                }
                if let Some(far) = far {
                    rules.open(site, far);
                }
                let (a, b) = (sets.find(room), sets.find(other));
                if sets.union(room, other) {
                    apart -= 1;
                    let joined = sets.find(room);
                    size[joined] = size[a] + size[b];
                    if size[joined] > size[sets.find(largest)] {
                        largest = joined;
                    }
                }
            }
        }
    }
    if apart <= 1 { Ok(()) } else { Err(Unjoined) }
}

/// A random door candidate of `room` that may open now, with rock on its
/// way out; `None` after a few misses (or when the room is full).
fn start(
    rules: &Rules,
    cfg: &Config,
    site: &Site<'_>,
    room: usize,
    rng: &mut Pcg64,
) -> Option<usize> {
    let candidates = rules.candidates(room);
    if candidates.is_empty() || site.doors[room].len() >= usize::from(cfg.rooms.max_doors) {
        return None;
    }
    for _ in 0..4 {
        let c = candidates[rng.random_range(0..candidates.len() as u32) as usize] as usize;
        if site.tiles[c] != Tile::Rock || !rules.door_allowed(site, c) {
            continue;
        }
        let out = offset(c, outward(site, c), site.width);
        if rules.free(site, out) && site.tiles[out] == Tile::Rock {
            return Some(c);
        }
    }
    None
}

/// Grows one corridor from `door` of `room`, recording its cells (not yet
/// opened) in `cells`. It never joins a vault.
#[allow(clippy::too_many_arguments)]
fn grow(
    scratch: &mut Grid,
    cfg: &Config,
    rules: &Rules,
    site: &Site<'_>,
    sets: &mut Sets,
    room: usize,
    door: usize,
    cells: &mut Vec<u32>,
    rng: &mut Pcg64,
) -> End {
    let (w, h) = (site.width, site.height);
    let spacing = usize::from(cfg.grid_spacing);
    let segment = || cfg.grid_segment.min..=cfg.grid_segment.max;
    let budget = w + h;
    let mark = scratch.seen.next_mark();
    cells.clear();
    let own = sets.find(room);
    // Rooms 0 to first - 1 are the vaults.
    let first = site.entrances.len();
    let mut cur = door;
    let mut dir = outward(site, door);
    let mut run = 0u16;
    let mut seg = rng.random_range(segment());
    // Rows and grid lines by multiplies: three divisions a cell grown were
    // a tenth of the style's time.
    let (rows, lines) = (RowOf::new(w), RowOf::new(spacing));
    let on_line = |v: usize| lines.xy(v).0 == 0;
    loop {
        if cells.len() >= budget {
            return End::Failed;
        }
        let n = offset(cur, dir, w);
        if !rules.free(site, n) {
            // A room's ring: a usable door of another set ends it well (a
            // vault's is a wall).
            return match rules.ring_room(n) {
                Some(r)
                    if !cells.is_empty()
                        && r >= first
                        && sets.find(r) != own
                        && rules.usable_door(cfg, site, r, n) =>
                {
                    End::Joined {
                        room: r,
                        door: Some(n),
                    }
                }
                _ => End::Failed,
            };
        }
        if scratch.seen.get(n) == mark {
            return End::Failed;
        }
        // Meeting anything open: the new cell itself, or ahead or beside it.
        let mut met = None;
        for m in [
            n,
            offset(n, dir, w),
            offset(n, dir.left(), w),
            offset(n, dir.right(), w),
        ] {
            met = match site.tiles[m] {
                Tile::Corridor => Some(corridor_room(scratch, m)),
                Tile::Door => rules.ring_room(m),
                _ => None,
            };
            if met.is_some() {
                break;
            }
        }
        cells.push(n as u32);
        scratch.seen.set(n, mark);
        if let Some(other) = met {
            return if sets.find(other) != own {
                End::Joined {
                    room: other,
                    door: None,
                }
            } else {
                End::Failed
            };
        }
        cur = n;
        run += 1;
        let (x, y) = rows.xy(cur);
        let (across, along) = match dir {
            Dir::East | Dir::West => (on_line(x), on_line(y)),
            Dir::North | Dir::South => (on_line(y), on_line(x)),
        };
        if !across || y == 0 || y + 1 == h {
            continue;
        }
        if !along {
            // Off the grid still (the way out of the door): onto the line.
            dir = if rng.random_bool(0.5) {
                dir.left()
            } else {
                dir.right()
            };
        } else if run >= seg {
            dir = match rng.random_range(0..3u8) {
                0 => dir.left(),
                1 => dir.right(),
                _ => dir,
            };
        } else {
            continue;
        }
        run = 0;
        seg = rng.random_range(segment());
    }
}

/// The room whose corridor a corridor cell is. Cells a style left unowned
/// (none, in this style) count as room 0's.
fn corridor_room(scratch: &Grid, c: usize) -> usize {
    match scratch.owner[c] {
        NO_OWNER => 0,
        r => r as usize,
    }
}
