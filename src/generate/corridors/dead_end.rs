//! The `DeadEnd` corridor style (004): every room starts corridor stubs at
//! its doors, and the open ends grow until they find each other.
//!
//! Repeatedly, going backward through the list of open ends as 004 does,
//! each end: is dropped if something has joined it from the side; else
//! looks ahead and to both sides in straight lines (up to [`LOOK`] cells)
//! for another corridor and, seeing one, runs straight to it; else grows
//! one cell into free rock, forward first, then left, then right. An end
//! that can do none of these stays a dead end. While rooms are still in
//! several sets, an end joins only corridors of another set (else it would
//! close a loop and stop searching); once all are joined, any other
//! corridor will do. When no open ends remain and rooms are still apart,
//! generator revisions 1 to 3 throw the attempt away and make the level
//! again from the next sub-seed (004's "verify the map and regenerate
//! it"); from revision 4 the pieces left apart are joined by legs
//! (`piece_legs.rs`, after this style).
//!
//! Corridors grow only through free cells (off rooms, rings and the
//! border), so the Tunnel style's guarantees hold.

mod lines;

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::Dir;
use crate::grid_search::step as offset;
use crate::level::Tile;

use super::site::{CLOSED_BIT, Rules, Site};
use super::{NO_OWNER, Unjoined};
use crate::sets::Sets;

/// How far an open end looks for another corridor, in cells.
const LOOK: usize = 32;
/// Most stubs a room starts (fewer if it may have fewer doors).
const MAX_STUBS: u8 = 3;

struct Stub {
    room: usize,
    end: usize,
    dir: Dir,
}

/// The DeadEnd style's scratch buffers, reused from level to level.
#[derive(Default)]
pub(super) struct DeadEnd {
    /// Per cell: the stub whose corridor it is, or `NO_OWNER`.
    owner: Vec<u32>,
    /// The lists of one level's carving.
    lists: Lists,
    /// What stops each look, by bits.
    lines: lines::Lines,
    /// Each cell's corridor and closed bits, read into `lines`.
    classes: Vec<u8>,
}

/// The sets of joined rooms, the stubs, the stubs still growing and a
/// room's door ends.
#[derive(Default)]
struct Lists {
    sets: Sets,
    stubs: Vec<Stub>,
    open: Vec<usize>,
    ends: Vec<u32>,
}

impl DeadEnd {
    pub(super) fn carve(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        rng: &mut Pcg64,
    ) -> Result<(), Unjoined> {
        self.owner.clear();
        self.owner.resize(site.width * site.height, NO_OWNER);
        rules.corridor_and_closed(site, &mut self.classes);
        self.lines
            .read(site.width, site.height, site.tiles, &self.classes);
        carve(
            &mut self.owner,
            &mut self.lists,
            &mut self.lines,
            &self.classes,
            cfg,
            rules,
            site,
            rng,
        )
    }
}

#[allow(clippy::too_many_arguments)]
fn carve(
    owner: &mut [u32],
    lists: &mut Lists,
    lines: &mut lines::Lines,
    classes: &[u8],
    cfg: &Config,
    rules: &Rules,
    site: &mut Site<'_>,
    rng: &mut Pcg64,
) -> Result<(), Unjoined> {
    let w = site.width;
    let rooms = site.shapes.len();
    // `Rules::free`, read from the one byte a cell of `classes`: rings,
    // rooms and hardness do not change while corridors are carved.
    let free = |c: usize| classes[c] & CLOSED_BIT == 0;
    let Lists {
        sets,
        stubs,
        open,
        ends,
    } = lists;
    sets.reset(rooms);
    let mut apart = rooms;
    stubs.clear();
    // A room's door ends where a stub may start, one buffer for every try.
    for room in 0..rooms {
        let wanted = rng.random_range(1..=MAX_STUBS.min(cfg.rooms.max_doors));
        for _ in 0..wanted {
            rules.door_ends(cfg, site, room, ends);
            ends.retain(|&c| {
                site.tiles[c as usize] == Tile::Rock && {
                    let o = offset(c as usize, rules.way_out(cfg, site, c as usize), w);
                    free(o) && site.tiles[o] == Tile::Rock
                }
            });
            if ends.is_empty() {
                break;
            }
            let door = ends[rng.random_range(0..ends.len() as u32) as usize] as usize;
            let dir = rules.way_out(cfg, site, door);
            let end = offset(door, dir, w);
            open_cell(rules, site, lines, door);
            open_cell(rules, site, lines, end);
            owner[end] = stubs.len() as u32;
            stubs.push(Stub { room, end, dir });
            apart -= touch(rules, owner, site, stubs, sets, end);
        }
    }
    if rooms > 1 && stubs.is_empty() {
        return Err(Unjoined);
    }

    open.clear();
    open.extend(0..stubs.len());
    // Every growth step opens a rock cell, so this bound is never the
    // reason growth stops on a sane level; it caps a pathological one.
    let mut budget = site.width * site.height / 2;
    while !open.is_empty() && budget > 0 {
        for i in (0..open.len()).rev() {
            // An end's turn looks at a few cells around it and along its
            // lines of sight (spent below).
            if !site.budget.spend(8) {
                return Err(Unjoined);
            }
            let s = open[i];
            let Stub { room, end, dir } = stubs[s];
            // Joined from the side by another corridor.
            let open_sides = Dir::ALL
                .into_iter()
                .filter(|&d| matches!(site.tiles[offset(end, d, w)], Tile::Corridor | Tile::Door))
                .count();
            if open_sides >= 2 {
                open.swap_remove(i);
                continue;
            }
            let own = sets.find(room);
            let all_joined = apart <= 1;
            // Look ahead and to both sides.
            let mut joined = None;
            let joinable = |m: usize, sets: &Sets| -> Option<usize> {
                let r = match site.tiles[m] {
                    Tile::Corridor => match owner[m] {
                        NO_OWNER => return None,
                        o if o as usize == s => return None,
                        o => stubs[o as usize].room,
                    },
                    Tile::Door => rules.ring_room(m)?,
                    _ => return None,
                };
                (all_joined || sets.find(r) != own).then_some(r)
            };
            let mut looked = 0;
            // The line of sight that found a join: its direction and how
            // many cells from the end it opens (always a straight run, so
            // counted rather than listed).
            let mut line = (dir, 0);
            for d in [dir, dir.left(), dir.right()] {
                line = (d, 0);
                // Every cell before the first where something happens is
                // free rock with nothing beside it, which the loop below
                // would pass: passed without looking.
                let skip = lines.first_event(end, d, LOOK).map_or(LOOK, |k| k - 1);
                let mut c = end;
                for _ in 0..skip {
                    c = offset(c, d, w);
                }
                line.1 = skip;
                looked += skip;
                for _ in skip..LOOK {
                    looked += 1;
                    let prev = c;
                    c = offset(c, d, w);
                    if !free(c) {
                        break;
                    }
                    if site.tiles[c] == Tile::Corridor {
                        joined = joinable(c, sets);
                        break;
                    }
                    // A corridor or door beside the line: run up to it
                    // rather than alongside it.
                    let beside = [d.left(), d.right()]
                        .into_iter()
                        .map(|e| offset(c, e, w))
                        .find(|&m| m != prev && site.tiles[m].is_walkable());
                    if let Some(m) = beside {
                        if let Some(r) = joinable(m, sets) {
                            line.1 += 1;
                            joined = Some(r);
                        }
                        break;
                    }
                    line.1 += 1;
                }
                if joined.is_some() {
                    break;
                }
            }
            site.budget.spend(looked);
            if let Some(r) = joined {
                let (d, len) = line;
                let mut c = end;
                for _ in 0..len {
                    c = offset(c, d, w);
                    open_cell(rules, site, lines, c);
                    owner[c] = s as u32;
                }
                if sets.union(room, r) {
                    apart -= 1;
                }
                let mut c = end;
                for _ in 0..len {
                    c = offset(c, d, w);
                    apart -= touch(rules, owner, site, stubs, sets, c);
                }
                open.swap_remove(i);
                continue;
            }
            // Grow one cell into rock: forward, then left, then right. A
            // cell beside anything open but the end itself is skipped, so
            // corridors never run side by side or double back into blobs
            // (what they could join there, the look finds).
            let next = [dir, dir.left(), dir.right()].into_iter().find(|&d| {
                let n = offset(end, d, w);
                free(n)
                    && site.tiles[n] == Tile::Rock
                    && Dir::ALL.into_iter().all(|e| {
                        let m = offset(n, e, w);
                        m == end || !site.tiles[m].is_walkable()
                    })
            });
            match next {
                Some(d) => {
                    let n = offset(end, d, w);
                    open_cell(rules, site, lines, n);
                    owner[n] = s as u32;
                    stubs[s].end = n;
                    stubs[s].dir = d;
                    budget = budget.saturating_sub(1);
                    apart -= touch(rules, owner, site, stubs, sets, n);
                }
                None => {
                    open.swap_remove(i);
                }
            }
        }
    }
    if apart <= 1 { Ok(()) } else { Err(Unjoined) }
}

/// Records in the sets every room the new cell `c` now reaches directly
/// (corridors of other stubs, doors beside it); returns how many sets merged.
fn touch(
    rules: &Rules,
    owner: &[u32],
    site: &Site<'_>,
    stubs: &[Stub],
    sets: &mut Sets,
    c: usize,
) -> usize {
    let me = stubs[owner[c] as usize].room;
    let mut merged = 0;
    for d in Dir::ALL {
        let m = offset(c, d, site.width);
        let other = match site.tiles[m] {
            Tile::Corridor => match owner[m] {
                NO_OWNER => continue,
                o => stubs[o as usize].room,
            },
            Tile::Door => match rules.ring_room(m) {
                Some(r) => r,
                None => continue,
            },
            _ => continue,
        };
        if sets.union(me, other) {
            merged += 1;
        }
    }
    merged
}

/// Opens cell `c` of a corridor and tells the looks.
fn open_cell(rules: &Rules, site: &mut Site<'_>, lines: &mut lines::Lines, c: usize) {
    rules.open(site, c);
    lines.mark(c, site.tiles[c]);
}
