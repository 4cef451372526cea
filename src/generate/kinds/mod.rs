//! The kinds of level other than rooms and corridors, each a file: a kind
//! lays out the ground (tiles and hardness, the noise already in it) and
//! returns its areas; stairs, the graph and verification are the finish
//! every kind shares (`generate/mod.rs`). Rooms and corridors, the first
//! kind, is the pipeline of `generate/mod.rs` itself.
//!
//! Adding a kind: a file here that lays the level out and says what its
//! areas may be (a [`Kind`]), and in this file its `mod` line, its entry
//! in [`of`] and its scratch in [`Kinds`]; then its config section
//! (`config/kinds.rs` and the config's and profiles' field) and the save
//! format's note. Every kind draws from one stream, `Stage::Kind` (a level
//! has one kind), and the finish, the load checks and the simulation work
//! from its areas and tiles.

pub(super) mod cave;
pub(super) mod labyrinth;

use crate::config::{Config, LevelKind};
use crate::geom::{Pos, Rect, RegionBox, RegionKind, Shape};
use crate::grid_search::{BucketQueue, orthogonal};
use crate::level::{Door, Room, Tile};

use super::budget::Budget;
use super::corridors::site::{completes_slab, rock_costs};
use super::{Rejected, WorkStage};

/// How a kind lays out a level: into `tiles` (all rock on entry) and
/// `hardness` (the noise, border 255), drawing from its own stream, within
/// the level's budget; it returns its areas, in a list with room for
/// `usize` more (the vaults, which go first).
pub(super) type Lay = fn(
    &mut Kinds,
    &crate::config::Config,
    &mut [crate::level::Tile],
    &mut [u8],
    &mut rand_pcg::Pcg64,
    &super::budget::Budget,
    usize,
) -> Result<Vec<Room>, super::Rejected>;

/// A kind of level: how it lays a level out (none for rooms and
/// corridors, the pipeline of `generate/mod.rs`) and what its areas may be.
pub(crate) struct Kind {
    pub(super) lay: Option<Lay>,
    /// What the kind's areas may be, checked when a saved level loads.
    pub(crate) areas: Areas,
}

/// What a kind's areas (other than vaults, which every kind may hold) may
/// be: so a loaded level of a kind holds only what that kind makes.
pub(crate) struct Areas {
    /// Whether an area of this shape is one the kind makes.
    pub(crate) fits: fn(&Shape) -> bool,
    /// The most doors an area may have under this config.
    pub(crate) max_doors: fn(&Config) -> u8,
    /// What the kind's areas are called, for an error: "a room".
    pub(crate) what: &'static str,
    /// Rooms and corridors: the count of areas is the config's
    /// `rooms.count`, and a vault's doors count against `max_doors` as a
    /// room's do. Other kinds count their own areas and leave a vault's
    /// doors to the vault.
    pub(crate) counted: bool,
}

/// Rooms and corridors: rooms of every shape but a region's, as many as
/// the config asks, each with its doors (a vault's counted too).
const ROOMS: Kind = Kind {
    lay: None,
    areas: Areas {
        fits: |s| !matches!(s, Shape::Region(_)),
        max_doors: |c| c.rooms.max_doors,
        what: "a room",
        counted: true,
    },
};

/// Each kind of level, one line a kind.
pub(crate) fn of(kind: LevelKind) -> &'static Kind {
    match kind {
        LevelKind::Rooms => &ROOMS,
        LevelKind::Cave => &cave::KIND,
        LevelKind::Labyrinth => &labyrinth::KIND,
    }
}

/// Every kind's buffers, kept from level to level.
#[derive(Default)]
pub(super) struct Kinds {
    pub(super) cave: cave::Scratch,
    pub(super) labyrinth: labyrinth::Scratch,
    /// Per cell: inside a vault's box, or a cell from it. The kind lays
    /// nothing here; only a vault's door corridors cross the margin.
    fenced: Vec<bool>,
    /// Per cell: inside a vault's box.
    in_box: Vec<bool>,
    /// Per cell: the porch of a vault door (the cell outside it), which its
    /// way opens if nothing has yet.
    porch: Vec<bool>,
    /// The search from a vault door's porch to open ground.
    queue: BucketQueue,
    /// The rock cells of the way a search found, for the slab check.
    way: Vec<u32>,
    cost: Vec<u32>,
    came: Vec<u32>,
    reached: Vec<u32>,
    prices: Vec<u32>,
    /// Each vault's doors, as joined, until the level takes them.
    pub(super) vault_doors: Vec<Vec<Door>>,
    /// Set by a cave laid: its chambers are the pieces it labelled last
    /// (see [`cave::Scratch::area_map`]).
    pub(super) chambers: bool,
}

impl Kinds {
    /// Marks the vaults' boxes and the cell round each, which the kind
    /// keeps clear.
    pub(super) fn fence(&mut self, w: usize, h: usize, boxes: impl Iterator<Item = Shape>) {
        for grid in [&mut self.fenced, &mut self.in_box] {
            grid.clear();
            grid.resize(w * h, false);
        }
        for shape in boxes {
            let b = shape.bounds();
            let (x0, y0) = (usize::from(b.x), usize::from(b.y));
            let (x1, y1) = (usize::from(b.right()), usize::from(b.bottom()));
            for y in y0.saturating_sub(1)..=(y1 + 1).min(h - 1) {
                for x in x0.saturating_sub(1)..=(x1 + 1).min(w - 1) {
                    self.fenced[y * w + x] = true;
                    self.in_box[y * w + x] = (x0..=x1).contains(&x) && (y0..=y1).contains(&y);
                }
            }
        }
    }

    /// Joins every door on a vault's edge (`entrances`, rock until now) to
    /// the nearest open ground outside every vault, by the cheapest way
    /// through rock as the Tunnel prices it, and makes it a door. Returns
    /// each vault's doors. The way ends at the first open cell it comes
    /// beside, so it never runs along a corridor. A way that would close a
    /// 2x2 block of corridor (a slab: with the corridor laid, a door's
    /// porch, which that door's way opens, or itself) gives way to the
    /// cheapest that takes no such cell. A door with no way out
    /// (rock all round, which a level in one piece never leaves) fails the
    /// attempt. Each vault's doors are left in `vault_doors`.
    pub(super) fn join_vault_doors(
        &mut self,
        config: &crate::config::Config,
        w: usize,
        (tiles, hardness): (&mut [Tile], &mut [u8]),
        entrances: &[Vec<u32>],
        budget: &Budget,
    ) -> Result<(), Rejected> {
        self.vault_doors.clear();
        if entrances.is_empty() {
            return Ok(());
        }
        let cells = tiles.len();
        rock_costs(config, &mut self.prices);
        let highest = self.prices[..255].iter().copied().max().unwrap_or(1);
        self.cost.clear();
        self.cost.resize(cells, UNSEEN);
        self.came.clear();
        self.came.resize(cells, 0);
        // (The last level's cells, which `cost` has forgotten already.)
        self.reached.clear();
        // Every door's porch, open or to be: a way that ends beside one
        // door's porch must not close a block with it.
        self.porch.clear();
        self.porch.resize(cells, false);
        for &door in entrances.iter().flatten() {
            if let Some(p) = self.porch_of(door as usize, w) {
                self.porch[p] = true;
            }
        }
        for list in entrances {
            let mut joined = Vec::with_capacity(list.len());
            for &door in list {
                let door = door as usize;
                let Some(porch) = self.porch_of(door, w) else {
                    continue;
                };
                let mut end = self.search(w, tiles, hardness, porch, highest, budget, false)?;
                if self.makes_slab(w, tiles, porch, end) {
                    end = self.search(w, tiles, hardness, porch, highest, budget, true)?;
                }
                let mut c = end;
                while c != porch {
                    c = self.came[c] as usize;
                    if tiles[c] == Tile::Rock {
                        tiles[c] = Tile::Corridor;
                        hardness[c] = 0;
                    }
                }
                tiles[door] = Tile::Door;
                hardness[door] = 0;
                joined.push(Door {
                    pos: Pos::new((door % w) as u16, (door / w) as u16),
                });
            }
            self.vault_doors.push(joined);
        }
        Ok(())
    }

    /// The cell outside vault door `door`, if any.
    fn porch_of(&self, door: usize, w: usize) -> Option<usize> {
        orthogonal(door, w).into_iter().find(|&n| !self.in_box[n])
    }

    /// Whether the way the last search found, from `porch` to `end`, would
    /// close a slab with the corridor laid, a porch or its own cells.
    fn makes_slab(&mut self, w: usize, tiles: &[Tile], porch: usize, end: usize) -> bool {
        self.way.clear();
        let mut c = end;
        while c != porch {
            c = self.came[c] as usize;
            self.way.push(c as u32);
        }
        let (way, porches) = (&self.way, &self.porch);
        let open = |m: usize| tiles[m] == Tile::Corridor || porches[m] || way.contains(&(m as u32));
        way.iter()
            .map(|&c| c as usize)
            .any(|c| tiles[c] == Tile::Rock && completes_slab(w, c, open))
    }

    /// The cheapest way from `porch` to open ground outside the vaults:
    /// the open cell reached (the way back is in `came`). With
    /// `avoid_slabs`, the cheapest that takes no rock cell closing a slab
    /// with the corridor laid, a porch or the way's last two cells.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        w: usize,
        tiles: &[Tile],
        hardness: &[u8],
        porch: usize,
        highest: u32,
        budget: &Budget,
        avoid_slabs: bool,
    ) -> Result<usize, Rejected> {
        // Forget the last search's cells only.
        for &c in &self.reached {
            self.cost[c as usize] = UNSEEN;
        }
        self.reached.clear();
        self.queue
            .reset((highest as usize + 1).next_power_of_two(), 0);
        self.cost[porch] = 0;
        self.reached.push(porch as u32);
        self.queue.push(0, porch as u32);
        while let Some((cost, c)) = self.queue.pop() {
            let c = c as usize;
            if cost > self.cost[c] {
                continue;
            }
            if tiles[c] != Tile::Rock {
                if !budget.spend(self.reached.len()) {
                    return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
                }
                return Ok(c);
            }
            // The way's last two cells, which it would open with `n`.
            let before = if c == porch { c } else { self.came[c] as usize };
            for n in orthogonal(c, w) {
                if self.in_box[n] || hardness[n] == 255 && tiles[n] == Tile::Rock {
                    continue;
                }
                let open =
                    |m: usize| tiles[m] == Tile::Corridor || self.porch[m] || m == c || m == before;
                if avoid_slabs && tiles[n] == Tile::Rock && completes_slab(w, n, open) {
                    continue;
                }
                // Open ground costs nothing to step onto: the way stops at
                // the first open cell beside it.
                let price = if tiles[n] == Tile::Rock {
                    self.prices[usize::from(hardness[n])]
                } else {
                    0
                };
                if cost + price < self.cost[n] {
                    if self.cost[n] == UNSEEN {
                        self.reached.push(n as u32);
                    }
                    self.cost[n] = cost + price;
                    self.came[n] = c as u32;
                    self.queue.push(cost + price, n as u32);
                }
            }
        }
        Err(Rejected::Unjoined)
    }
}

/// Not reached by a search.
const UNSEEN: u32 = u32::MAX;

/// An irregular area of `kind` whose floor spans `(x0, y0)` to `(x1, y1)`
/// inclusive, found from the cell `anchor` (an index into a grid `w` wide).
pub(super) fn region_room(
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    anchor: usize,
    w: usize,
    kind: RegionKind,
) -> Room {
    Room {
        shape: Shape::Region(RegionBox {
            bounds: Rect {
                x: x0 as u16,
                y: y0 as u16,
                width: (x1 - x0 + 1) as u16,
                height: (y1 - y0 + 1) as u16,
            },
            anchor: Pos::new((anchor % w) as u16, (anchor / w) as u16),
            kind,
        }),
        doors: Vec::new(),
    }
}
