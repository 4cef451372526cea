//! Generator revision 4: a `DeadEnd` level whose stubs stop growing with
//! rooms still apart is joined by legs, not thrown away.
//!
//! The DeadEnd style grows corridor stubs from the rooms' doors until they
//! meet (004). On a crowded or hard level every stub can stop, blocked, with
//! the rooms still in two or more pieces; until revision 4 the whole attempt
//! (noise, rooms, corridors) was thrown away and made again from the next
//! sub-seed, nearly one attempt in two on the default config. Now each
//! piece apart from the first is given a leg: from the door candidates of
//! its rooms, the cheapest corridor to the nearest cell of another piece,
//! priced and ruled as `vault_doors.rs` prices and rules the corridors it
//! gives vault doors (rock by hardness, turns extra, no 2x2 slab, a door
//! only where the rules allow one). A piece no leg can join still rejects
//! the attempt, so a level is never made in two pieces.
//!
//! The pieces are the level's walkable cells as they stand, found by a
//! flood fill, so the stage does not depend on how the style kept its
//! books; they are merged as legs join them (and as a leg passes beside a
//! third piece). Pieces are taken in the order of their first cell, row by
//! row; each leg joins the piece of the lowest such cell not yet joined to
//! the first. Draws no random numbers.

use super::corridors::site::{completes_slab, outward, porch};
use super::corridors::{Rules, Site};
use super::vault_doors::{self, Ends};
use crate::config::{Config, CorridorStyle};
use crate::grid_search::{orthogonal, step as offset};
use crate::level::Tile;
use crate::sets::Sets;

/// Some piece of the level could not be joined to the rest.
#[derive(Debug)]
pub(super) struct PiecesApart;

/// Whether a level of `config` joins its pieces with this stage when its
/// corridor style leaves some apart: a `DeadEnd` level from generator
/// revision 4.
pub(super) fn needed(config: &Config) -> bool {
    config.revisions.generator >= 4 && config.corridors == CorridorStyle::DeadEnd
}

/// The stage's buffers, kept from level to level.
#[derive(Default)]
pub(super) struct Scratch {
    /// Per cell: the piece it was found in (1 and up), 0 if not walkable.
    piece: Vec<u32>,
    /// Pieces joined so far.
    sets: Sets,
    /// The flood fill's cells to visit.
    stack: Vec<u32>,
    /// One room's door candidates.
    ends: Vec<u32>,
    /// The doors a leg may leave by, and the cell outside each.
    starts: Vec<(u32, u32)>,
    /// Per room: whether the leg in hand may leave by a new door of it.
    leaves: Vec<bool>,
}

/// Joins every piece of the site's walkable cells into one, by legs routed
/// with the searches (and buffers) of `vault_doors`. Spends from the site's
/// budget; the caller asks it whether the stage finished.
pub(super) fn join(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    scratch: &mut Scratch,
    doors: &mut vault_doors::Scratch,
) -> Result<(), PiecesApart> {
    let pieces = scratch.find_pieces(site);
    if pieces <= 1 {
        return Ok(());
    }
    doors.price(cfg);
    let mut starts = std::mem::take(&mut scratch.starts);
    let joined = scratch.join_pieces(rules, cfg, site, doors, pieces, &mut starts);
    scratch.starts = starts;
    joined
}

impl Scratch {
    /// Labels each walkable cell with its piece; how many pieces there are.
    fn find_pieces(&mut self, site: &Site<'_>) -> u32 {
        let w = site.width;
        let cells = site.tiles.len();
        site.budget.spend(cells / 8);
        self.piece.clear();
        self.piece.resize(cells, 0);
        // Sized once for the largest level seen, so a warm generator's
        // legs allocate nothing: the flood holds at most every cell, and a
        // piece's doors number a few hundred at most on any usual level.
        self.stack.reserve(cells);
        self.ends.reserve(256);
        self.starts.reserve(1024);
        let mut pieces = 0;
        for first in 0..cells {
            if self.piece[first] != 0 || !site.tiles[first].is_walkable() {
                continue;
            }
            pieces += 1;
            self.piece[first] = pieces;
            self.stack.clear();
            self.stack.push(first as u32);
            while let Some(c) = self.stack.pop() {
                // Walkable cells never lie on the border (it is immutable
                // rock), so every neighbour is on the level.
                for m in orthogonal(c as usize, w) {
                    if self.piece[m] == 0 && site.tiles[m].is_walkable() {
                        self.piece[m] = pieces;
                        self.stack.push(m as u32);
                    }
                }
            }
        }
        self.sets.reset(pieces as usize + 1);
        pieces
    }

    fn join_pieces(
        &mut self,
        rules: &Rules,
        cfg: &Config,
        site: &mut Site<'_>,
        doors: &mut vault_doors::Scratch,
        pieces: u32,
        starts: &mut Vec<(u32, u32)>,
    ) -> Result<(), PiecesApart> {
        let w = site.width;
        while let Some(apart) =
            (2..=pieces as usize).find(|&p| self.sets.find(p) != self.sets.find(1))
        {
            let own = self.sets.find(apart);
            self.list_starts(rules, cfg, site, own, starts);
            let ends = PieceEnds {
                own,
                width: w,
                room_id: site.room_id,
                piece: &self.piece,
                sets: &self.sets,
                leaves: &self.leaves,
            };
            if doors.route_from(rules, cfg, site, starts, &ends).is_none()
                || site.budget.overspent()
            {
                return Err(PiecesApart);
            }
            // The leg's cells (its door's too, one step inside the cell
            // outside it) join the piece, and so does every piece they
            // touch: the goal's, and any other the leg passed beside.
            let route = doors.last_route();
            let outside = *route.last().expect("a route holds its first cell") as usize;
            let door = starts
                .iter()
                .find(|&&(_, o)| o as usize == outside)
                .map(|&(d, _)| d as usize)
                .expect("a route leaves by one of its doors");
            let mut merged = false;
            for c in route.iter().map(|&c| c as usize).chain([door]) {
                self.piece[c] = own as u32;
                for m in orthogonal(c, w) {
                    if self.piece[m] != 0 {
                        merged |= self.sets.union(own, self.piece[m] as usize);
                    }
                }
            }
            // A leg ends on another piece, so it always merges two; were it
            // not to, the loop would route the same piece again.
            if !merged {
                return Err(PiecesApart);
            }
        }
        Ok(())
    }

    /// The door candidates a leg of the piece `own` may leave by: of its
    /// rooms, still rock, a door the rules allow, with free rock outside
    /// that a corridor may take without making a slab.
    fn list_starts(
        &mut self,
        rules: &Rules,
        cfg: &Config,
        site: &Site<'_>,
        own: usize,
        starts: &mut Vec<(u32, u32)>,
    ) {
        let w = site.width;
        starts.clear();
        self.leaves.clear();
        self.leaves.resize(site.shapes.len(), false);
        for room in 0..site.shapes.len() {
            rules.door_ends(cfg, site, room, &mut self.ends);
            for &door in &self.ends {
                let d = door as usize;
                // The cell outside: a vault's door has its own walls on
                // both sides, so only `porch` tells which side is out.
                let start = if room < site.entrances.len() {
                    match porch(site, d) {
                        Some(start) => start,
                        None => continue,
                    }
                } else {
                    offset(d, outward(site, d), w)
                };
                let inside = (2 * d).wrapping_sub(start);
                let piece = self.piece.get(inside).map_or(0, |&p| p as usize);
                if piece == 0
                    || self.sets.find(piece) != own
                    || site.tiles[d] != Tile::Rock
                    || !rules.usable_door(cfg, site, room, d)
                {
                    continue;
                }
                let fits = rules.free(site, start)
                    && site.tiles[start] == Tile::Rock
                    && !completes_slab(w, start, |m| vault_doors::open_or_drawn(rules, site, m));
                if fits {
                    starts.push((door, start as u32));
                    self.leaves[room] = true;
                }
            }
        }
    }
}

/// The ends of a leg from piece `own`: any walkable cell of another piece,
/// or a new door of a room whose floor is another piece's, but for the
/// rooms the leg may leave by (`leaves`). A vault whose chambers meet only
/// through its edge doors is in several pieces until those doors open; a
/// leg from one chamber to a new door of another would give the vault two
/// new doors at once, past `max_doors`, where each door's own check saw
/// room for one.
struct PieceEnds<'a> {
    own: usize,
    width: usize,
    room_id: &'a [u16],
    piece: &'a [u32],
    sets: &'a Sets,
    leaves: &'a [bool],
}

impl PieceEnds<'_> {
    fn other(&self, c: usize) -> bool {
        let piece = self.piece[c] as usize;
        piece != 0 && self.sets.find(piece) != self.own
    }
}

impl Ends for PieceEnds<'_> {
    fn own_door(&self, _: usize) -> bool {
        // The piece's own door candidates are never a goal (`new_door`),
        // and, in rings, never free to pass.
        false
    }
    fn corridor(&self, c: usize) -> bool {
        self.other(c)
    }
    fn door(&self, _: usize, c: usize) -> bool {
        self.other(c)
    }
    fn new_door(&self, room: usize, c: usize) -> bool {
        // The candidate touches its own room's floor only (a vault's door
        // touches its walls too, which are in no piece).
        !self.leaves.get(room).copied().unwrap_or(true)
            && orthogonal(c, self.width)
                .into_iter()
                .any(|m| self.room_id[m] != 0 && self.other(m))
    }
}
