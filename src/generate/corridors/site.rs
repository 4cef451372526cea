//! The level under construction, and the rules every corridor style and
//! extra loops obey: where a corridor may run and where a door may open.
//!
//! Rooms are sealed by their ring: every cell within one cell of a room's
//! floor (diagonals included) is closed to corridors, except the door
//! candidates of the room. So a corridor never runs along a room wall,
//! never touches a floor cell diagonally, and enters a room only through a
//! door. Styles differ in how they choose paths, never in what a level may
//! contain: each draws through [`Rules::free`] cells and opens cells only
//! with [`Rules::open`], and doors only where [`Rules::door_ends`] or
//! [`Rules::usable_door`] allow.

use crate::config::Config;
use crate::geom::{Dir, Pos, Shape};
use crate::grid_search::{orthogonal, step};
use crate::level::{Door, Tile};

use super::super::budget::Budget;

/// Ring mark of a cell next to two or more rooms: never a door.
const SHARED: u16 = u16::MAX;

/// A bit of [`Rules::corridor_and_closed`]: the cell is a corridor.
pub(crate) const CORRIDOR_BIT: u8 = 1;
/// A bit of [`Rules::corridor_and_closed`]: no corridor may pass the cell.
pub(crate) const CLOSED_BIT: u8 = 2;

/// What carving needs to know about the level under construction.
pub(crate) struct Site<'a> {
    pub width: usize,
    pub height: usize,
    pub tiles: &'a mut [Tile],
    pub hardness: &'a mut [u8],
    pub room_id: &'a [u16],
    pub shapes: &'a [Shape],
    /// The doors on each vault's edge (vaults are rooms 0 to k-1): a
    /// vault's only door candidates.
    pub entrances: &'a [Vec<u32>],
    pub doors: &'a mut [Vec<Door>],
    /// The level's work budget: every search step and growth step spends
    /// from it, and a stage that overspends gives up.
    pub budget: &'a Budget,
}

/// The rings and door candidates of a level's rooms, and the rules read off
/// them. Buffers are reused from level to level.
#[derive(Default)]
pub(crate) struct Rules {
    /// 0 = not in a ring, room index + 1, or `SHARED`.
    ring: Vec<u16>,
    /// Door candidates of every room, as cell indices, room after room:
    /// one list, so a level with more candidates than the last grows one
    /// buffer, not one of each room.
    candidates: Vec<u32>,
    /// Where each room's candidates start in `candidates`, and (last) where
    /// the last room's end.
    starts: Vec<u32>,
}

impl Rules {
    /// Marks the rings and lists the door candidates of the site's rooms.
    pub(crate) fn prepare(&mut self, site: &Site<'_>) {
        let n = site.width * site.height;
        self.ring.clear();
        self.ring.resize(n, 0);
        self.mark_rings(site);
        self.door_candidates(site);
    }

    /// Rings: every non-room cell within one cell of a room.
    fn mark_rings(&mut self, site: &Site<'_>) {
        let w = site.width;
        let mark = |ring: &mut [u16], c: usize, id: u16| {
            ring[c] = match ring[c] {
                0 => id,
                prev if prev == id => id,
                _ => SHARED,
            };
        };
        for (i, shape) in site.shapes.iter().enumerate() {
            let id = i as u16 + 1;
            let b = shape.bounds();
            let (x0, x1) = (usize::from(b.x) - 1, usize::from(b.right()) + 1);
            let (y0, y1) = (usize::from(b.y) - 1, usize::from(b.bottom()) + 1);
            let inside = |x: usize, y: usize| x > 0 && y > 0 && x + 1 < w && y + 1 < site.height;
            match shape {
                // A rectangle's ring is its dilated box minus the box: walk
                // the outline only.
                Shape::Rect(_) => {
                    for x in x0..=x1 {
                        for y in [y0, y1] {
                            if inside(x, y) {
                                mark(&mut self.ring, y * w + x, id);
                            }
                        }
                    }
                    for y in y0 + 1..y1 {
                        for x in [x0, x1] {
                            if inside(x, y) {
                                mark(&mut self.ring, y * w + x, id);
                            }
                        }
                    }
                }
                Shape::Circle { .. } | Shape::Merged(_) | Shape::Vault(_) | Shape::Region(_) => {
                    for y in y0..=y1 {
                        for x in x0..=x1 {
                            let c = y * w + x;
                            if inside(x, y)
                                && site.room_id[c] == 0
                                && touches(site.room_id, w, x, y, id)
                            {
                                mark(&mut self.ring, c, id);
                            }
                        }
                    }
                }
            }
        }
        // The cell outside each vault door (its porch) is where a corridor
        // comes to the door, so it stays open unless another room's ring
        // claims it too.
        for (i, doors) in site.entrances.iter().enumerate() {
            let id = i as u16 + 1;
            for &d in doors {
                if let Some(p) = porch(site, d as usize)
                    && self.ring[p] == id
                {
                    self.ring[p] = 0;
                }
            }
        }
    }

    /// Door candidates: ring cells of one room, orthogonally next to its
    /// floor, off the border, with a way out into free rock. A vault's are
    /// its edge doors whose porch is free.
    fn door_candidates(&mut self, site: &Site<'_>) {
        let w = site.width;
        self.candidates.clear();
        self.starts.clear();
        for (i, shape) in site.shapes.iter().enumerate() {
            let id = i as u16 + 1;
            self.starts.push(self.candidates.len() as u32);
            let list = &mut self.candidates;
            if let Some(doors) = site.entrances.get(i) {
                let ring = &self.ring;
                list.extend(doors.iter().copied().filter(|&d| {
                    porch(site, d as usize).is_some_and(|p| {
                        ring[p] == 0 && site.room_id[p] == 0 && site.hardness[p] != 255
                    })
                }));
                continue;
            }
            let b = shape.bounds();
            let (x0, x1) = (usize::from(b.x) - 1, usize::from(b.right()) + 1);
            let (y0, y1) = (usize::from(b.y) - 1, usize::from(b.bottom()) + 1);
            let ring = &self.ring;
            // A rectangle's floor is its box: only the sides of its ring
            // touch it (not the corners, nor the floor, which is no ring),
            // so only they are looked at, in the scan's order.
            let sides = (x0 + 1..x1)
                .map(|x| (x, y0))
                .chain((y0 + 1..y1).flat_map(|y| [(x0, y), (x1, y)]))
                .chain((x0 + 1..x1).map(|x| (x, y1)));
            let whole = (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| (x, y)));
            if let Shape::Rect(_) = shape {
                for (x, y) in sides {
                    if is_candidate(site, ring, id, x, y) {
                        list.push((y * w + x) as u32);
                    }
                }
            } else {
                for (x, y) in whole {
                    if is_candidate(site, ring, id, x, y) {
                        list.push((y * w + x) as u32);
                    }
                }
            }
        }
        self.starts.push(self.candidates.len() as u32);
    }

    /// The door candidates of `room`.
    pub(crate) fn candidates(&self, room: usize) -> &[u32] {
        &self.candidates[self.starts[room] as usize..self.starts[room + 1] as usize]
    }

    /// Whether the cell is in some room's ring (or where rings meet).
    pub(crate) fn in_ring(&self, c: usize) -> bool {
        self.ring[c] != 0
    }

    /// Whether a corridor may run through the cell: rock or corridor that
    /// is not a room, a ring or the border.
    pub(crate) fn free(&self, site: &Site<'_>, c: usize) -> bool {
        self.ring[c] == 0 && site.room_id[c] == 0 && site.hardness[c] != 255
    }

    /// Per cell into `out`: [`CORRIDOR_BIT`] if it is a corridor,
    /// [`CLOSED_BIT`] if no corridor may pass it (not [`Rules::free`]).
    /// One pass the compiler does many cells at a time, for scans that ask
    /// both of many cells.
    pub(crate) fn corridor_and_closed(&self, site: &Site<'_>, out: &mut Vec<u8>) {
        out.clear();
        out.resize(site.tiles.len(), 0);
        let cells = out
            .iter_mut()
            .zip(site.tiles.iter())
            .zip(self.ring.iter().zip(site.room_id))
            .zip(site.hardness.iter());
        for (((out, &tile), (&ring, &room)), &hardness) in cells {
            let free = (ring == 0) & (room == 0) & (hardness != 255);
            *out = u8::from(tile == Tile::Corridor) * CORRIDOR_BIT + u8::from(!free) * CLOSED_BIT;
        }
    }

    /// The room whose ring the cell is in (`None` outside rings or where
    /// rings meet).
    pub(crate) fn ring_room(&self, c: usize) -> Option<usize> {
        match self.ring[c] {
            0 | SHARED => None,
            id => Some(usize::from(id) - 1),
        }
    }

    /// The cells where a corridor may meet a room: its door candidates, or
    /// only its doors once it has `max_doors`. No new door right beside an
    /// existing one: a corridor arriving there uses that door instead of
    /// opening a wall of doors. Written into `out` (emptied first), a
    /// buffer the caller keeps from search to search.
    pub(crate) fn door_ends(&self, cfg: &Config, site: &Site<'_>, room: usize, out: &mut Vec<u32>) {
        site.budget.spend(self.candidates(room).len());
        out.clear();
        if site.doors[room].len() >= usize::from(cfg.rooms.max_doors) {
            out.extend(
                site.doors[room]
                    .iter()
                    .map(|d| (usize::from(d.pos.y) * site.width + usize::from(d.pos.x)) as u32),
            );
        } else {
            out.extend(
                self.candidates(room)
                    .iter()
                    .copied()
                    .filter(|&c| self.door_allowed(site, c as usize)),
            );
        }
    }

    /// Whether a door candidate may be a door now: it is one already, or
    /// no door stands beside it. (Room fullness is the caller's question.)
    pub(super) fn door_allowed(&self, site: &Site<'_>, c: usize) -> bool {
        site.tiles[c] == Tile::Door
            || orthogonal(c, site.width)
                .iter()
                .all(|&n| site.tiles[n] != Tile::Door)
    }

    /// Whether a corridor may end at ring cell `c` of room `r` as a door.
    pub(crate) fn usable_door(&self, cfg: &Config, site: &Site<'_>, r: usize, c: usize) -> bool {
        if site.tiles[c] == Tile::Door {
            return true;
        }
        site.doors[r].len() < usize::from(cfg.rooms.max_doors)
            && self.candidates(r).contains(&(c as u32))
            && self.door_allowed(site, c)
    }

    /// The way out of door candidate `c`: the side a corridor leaves it
    /// by. From generator revision 4 a vault's edge door in the vault's own
    /// ring leaves by its porch; before, and for any other room (or a door
    /// where rings meet, which no corridor takes), by the side away from
    /// the first floor cell beside it ([`outward`]), which for a vault's
    /// door with its wall on both sides could be along the wall.
    pub(crate) fn way_out(&self, cfg: &Config, site: &Site<'_>, c: usize) -> Dir {
        if cfg.revisions.generator >= 4
            && self.ring_room(c).is_some_and(|r| r < site.entrances.len())
            && let Some(p) = porch(site, c)
        {
            return Dir::ALL
                .into_iter()
                .find(|&d| step(c, d, site.width) == p)
                .unwrap_or(Dir::North);
        }
        outward(site, c)
    }

    /// Opens one cell of a corridor: a ring cell becomes its room's door,
    /// any other cell corridor, which later corridors may run along.
    pub(crate) fn open(&self, site: &mut Site<'_>, c: usize) {
        match self.ring[c] {
            0 => site.tiles[c] = Tile::Corridor,
            id => {
                if site.tiles[c] != Tile::Door {
                    site.tiles[c] = Tile::Door;
                    let pos = Pos::new((c % site.width) as u16, (c / site.width) as u16);
                    site.doors[usize::from(id) - 1].push(Door { pos });
                }
            }
        }
        site.hardness[c] = 0;
    }
}

/// The direction from a door candidate away from its room's floor (a
/// candidate touches the floor of its own room only).
pub(crate) fn outward(site: &Site<'_>, c: usize) -> Dir {
    Dir::ALL
        .into_iter()
        .find(|&d| site.room_id[step(c, d.opposite(), site.width)] != 0)
        .unwrap_or(Dir::North)
}

/// The cell just outside a vault's edge door: the neighbour that is not
/// part of the vault's box (`None` if the door is not on an edge, or the
/// level's border is there).
pub(crate) fn porch(site: &Site<'_>, door: usize) -> Option<usize> {
    let w = site.width;
    let (x, y) = (door % w, door / w);
    let r = site.room_id;
    // The vault's own cells are marked with its id; entrances and `?`
    // cells are not, so the porch is the orthogonal neighbour outside the
    // box: the one whose opposite neighbour is the vault's. An entrance or
    // `?` cell beside the door on the same edge is unmarked too but inside
    // the box: never a porch (taking it opened a door's neighbour to
    // corridors, and the door's corridor became another door).
    let sides = [
        (x.checked_sub(1).map(|nx| y * w + nx), x + 1 < w, door + 1),
        ((x + 1 < w).then_some(door + 1), x > 0, door.wrapping_sub(1)),
        (
            y.checked_sub(1).map(|ny| ny * w + x),
            y + 1 < site.height,
            door + w,
        ),
        (
            (y + 1 < site.height).then_some(door + w),
            y > 0,
            door.wrapping_sub(w),
        ),
    ];
    sides.into_iter().find_map(|(out, has_in, inside)| {
        let out = out?;
        let (ox, oy) = (out % w, out / w);
        let off_border = ox > 0 && oy > 0 && ox + 1 < w && oy + 1 < site.height;
        let outside = |vault: u16| {
            let p = crate::geom::Pos::new(ox as u16, oy as u16);
            !site.shapes[usize::from(vault) - 1].bounds().contains(p)
        };
        (has_in && r[inside] != 0 && r[out] == 0 && off_border && outside(r[inside])).then_some(out)
    })
}

/// The price of a corridor step into rock of each hardness (0 to 255), as
/// the Tunnel's search pays it: `step_cost`, plus `hardness_weight` a point
/// of hardness above `soft_below`, into `out` (emptied first). Computed once
/// a level, with one exactly rounded product a hardness.
pub(crate) fn rock_costs(cfg: &Config, out: &mut Vec<u32>) {
    let t = &cfg.tunnel;
    out.clear();
    out.extend((0..256u16).map(|h| {
        let excess = h.saturating_sub(t.soft_below);
        u32::from(t.step_cost) + (f64::from(excess) * t.hardness_weight).round() as u32
    }));
}

/// Whether cell (`x`, `y`) is a door candidate of room `id`: in its ring
/// alone, off the border, beside its floor and beside free rock. Inlined
/// into the scans of [`Rules::door_candidates`], which ask it of every
/// cell of a ring.
#[inline(always)]
fn is_candidate(site: &Site<'_>, ring: &[u16], id: u16, x: usize, y: usize) -> bool {
    let w = site.width;
    let c = y * w + x;
    if ring[c] != id || x == 0 || y == 0 || x + 1 == w || y + 1 == site.height {
        return false;
    }
    let orth = orthogonal(c, w);
    let floor = orth.iter().any(|&o| site.room_id[o] == id);
    // Off the border: only the border has hardness 255.
    let outside = orth
        .iter()
        .any(|&o| ring[o] == 0 && site.room_id[o] == 0 && site.hardness[o] != 255);
    floor && outside
}

/// Whether opening cell `c` (off the border) would complete a 2x2 block of
/// open cells, where `open` says which other cells are or will be open: a
/// slab, not a corridor.
pub(crate) fn completes_slab(width: usize, c: usize, open: impl Fn(usize) -> bool) -> bool {
    [c - width - 1, c - width, c - 1, c]
        .into_iter()
        .any(|top_left| {
            [
                top_left,
                top_left + 1,
                top_left + width,
                top_left + width + 1,
            ]
            .into_iter()
            .all(|m| m == c || open(m))
        })
}

fn touches(room_id: &[u16], w: usize, x: usize, y: usize, id: u16) -> bool {
    (y - 1..=y + 1).any(|ny| (x - 1..=x + 1).any(|nx| room_id[ny * w + nx] == id))
}
