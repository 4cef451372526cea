//! The parts a level is laid out from: what stands on a cell, rock
//! hardness, rooms and their doors, stairs. A leaf, so the level, its graph
//! and the generator can all use them without importing each other.

use serde::{Deserialize, Serialize};

use crate::geom::{Pos, Shape};

/// What stands on a cell.
///
/// Saved types only ever gain variants at the end: the discriminant is the
/// on-disk value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Tile {
    /// Solid rock; its hardness says how hard it is to dig.
    Rock = 0,
    /// Room floor.
    Floor = 1,
    /// A carved passage outside rooms, or rock a tunneller has dug.
    Corridor = 2,
    /// A way into a room, in the rock ring around it. Under rules 1 and 2
    /// an open doorway; from rules 3 a closed door, which blocks sight and
    /// is opened by walking into it.
    Door = 3,
    /// Leads to the level above, or out of the dungeon from depth 1.
    UpStairs = 4,
    /// Leads to the level below.
    DownStairs = 5,
    /// A door someone opened (rules 3): walked through and seen through
    /// like a doorway, and closed again with `c`.
    OpenDoor = 6,
    /// A door hidden in the wall (rules 3): until it is found it looks
    /// like rock and stops the player and sight as rock does; found, it
    /// becomes a closed [`Tile::Door`].
    SecretDoor = 7,
}

impl Tile {
    /// Every tile, in the order of their values.
    pub const ALL: [Tile; 8] = [
        Tile::Rock,
        Tile::Floor,
        Tile::Corridor,
        Tile::Door,
        Tile::UpStairs,
        Tile::DownStairs,
        Tile::OpenDoor,
        Tile::SecretDoor,
    ];

    /// Whether the cell is part of the level's open network: everything
    /// but rock, doors of every state included. Connectivity (the
    /// generator's proof, the graph, a loaded level's checks) is about this;
    /// who may step or see through a door at a given moment is the
    /// simulation's business (`sim::world::doors`).
    pub const fn is_walkable(self) -> bool {
        !matches!(self, Tile::Rock)
    }

    /// Whether the cell is a door in any state: closed, open or secret.
    pub const fn is_door(self) -> bool {
        matches!(self, Tile::Door | Tile::OpenDoor | Tile::SecretDoor)
    }

    /// What the tile is, in words, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Tile::Rock => "rock",
            Tile::Floor => "floor",
            Tile::Corridor => "corridor",
            Tile::Door => "door",
            Tile::UpStairs => "up staircase",
            Tile::DownStairs => "down staircase",
            Tile::OpenDoor => "open door",
            Tile::SecretDoor => "secret door",
        }
    }

    /// The character of 002's drawing: space rock, `.` floor, `#` corridor,
    /// `+` door, `<` and `>` stairs; an open door `'` (DCSS's and NetHack's
    /// sign), and a secret door as what it looks like, rock.
    pub const fn glyph(self) -> char {
        match self {
            Tile::Rock => ' ',
            Tile::Floor => '.',
            Tile::Corridor => '#',
            Tile::Door => '+',
            Tile::UpStairs => '<',
            Tile::DownStairs => '>',
            Tile::OpenDoor => '\'',
            Tile::SecretDoor => ' ',
        }
    }
}

/// Rock hardness: 0 for open cells, 1..=254 for rock that can be dug,
/// 255 for the immutable border. Hardness drives corridor routing during
/// generation and the time a tunnelling monster needs to dig.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Hardness(pub u8);

impl Hardness {
    /// Floor, corridors, doors and stairs.
    pub const OPEN: Hardness = Hardness(0);
    /// The softest rock that is still rock.
    pub const SOFTEST: Hardness = Hardness(1);
    /// The hardest rock that can still be dug.
    pub const HARDEST: Hardness = Hardness(254);
    /// The level's border, which nothing digs through.
    pub const IMMUTABLE: Hardness = Hardness(255);

    /// Whether this is the border's hardness, 255.
    pub const fn is_immutable(self) -> bool {
        self.0 == 255
    }
}

/// A doorway: a cell of the rock ring around a room where a corridor meets
/// the room. Doors are orthogonally adjacent to exactly one room's floor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    /// The door's cell, in the ring just outside the room's floor.
    pub pos: Pos,
}

/// A room: its outline and the doors in its ring, in the order corridors
/// opened them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Room {
    /// The floor cells, in level coordinates.
    pub shape: Shape,
    /// The doors corridors have opened, at most `rooms.max_doors`.
    pub doors: Vec<Door>,
}

impl Room {
    /// Whether `p` is floor of this room.
    pub fn contains(&self, p: Pos) -> bool {
        self.shape.contains(p)
    }
}

/// Which way a staircase leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StairDirection {
    /// Toward depth 1, or out of the dungeon from depth 1.
    Up,
    /// Toward the deepest level.
    Down,
}

/// A staircase on room floor.
///
/// Links are positional: the k-th down staircase of depth d leads to the
/// k-th up staircase of depth d+1 and back. That keeps every level a
/// function of (seed, depth, config) alone: a level never needs to see its
/// neighbours to know where its stairs go. `room` indexes [`Level::rooms`](crate::level::Level::rooms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stairs {
    /// The staircase's cell, on its room's floor.
    pub pos: Pos,
    /// Whether it leads up or down.
    pub direction: StairDirection,
    /// Index of the room it stands in.
    pub room: u16,
}

/// Whether a tile is an area's floor: plain floor, or stairs standing on it.
pub(crate) const fn is_area_floor(tile: Tile) -> bool {
    matches!(tile, Tile::Floor | Tile::UpStairs | Tile::DownStairs)
}

/// Marks (or, with `set` false, unmarks) each area's floor in `area_of`
/// with its index + 1: the one reading of which cells an area holds,
/// shared by the level's map of areas and the graph. Part by part for
/// rooms, without walking a merged room's whole bounding box, a rectangle
/// a row at a time; a vault's box holds rock, corridor and doors of its
/// own, so only its floor is marked; a region is the floor reached from
/// its anchor inside its box. Unmarking clears exactly what marking set,
/// so a buffer can be reused level after level.
pub(crate) fn mark_areas(area_of: &mut [u16], w: usize, tiles: &[Tile], rooms: &[Room], set: bool) {
    FLOOD.with_borrow_mut(|stack| mark_areas_with(area_of, w, tiles, rooms, set, stack));
}

thread_local! {
    /// The stack of a region's flood, kept per thread so marking a level's
    /// areas allocates nothing once warm.
    static FLOOD: std::cell::RefCell<Vec<Pos>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn mark_areas_with(
    area_of: &mut [u16],
    w: usize,
    tiles: &[Tile],
    rooms: &[Room],
    set: bool,
    stack: &mut Vec<Pos>,
) {
    let at = |p: Pos| usize::from(p.y) * w + usize::from(p.x);
    stack.clear();
    if rooms.iter().any(|r| matches!(r.shape, Shape::Region(_))) {
        // At the level's size at once, so it grows once per size.
        stack.reserve(tiles.len());
    }
    for (i, room) in rooms.iter().enumerate() {
        let id = if set { i as u16 + 1 } else { 0 };
        if let Shape::Region(region) = room.shape {
            let b = region.bounds;
            if !set {
                for p in Shape::Rect(b).cells() {
                    if usize::from(area_of[at(p)]) == i + 1 {
                        area_of[at(p)] = 0;
                    }
                }
                continue;
            }
            let anchor = region.anchor;
            if !b.contains(anchor) || !is_area_floor(tiles[at(anchor)]) || area_of[at(anchor)] != 0
            {
                continue;
            }
            // A scanline flood: each seed taken fills the run of free
            // floor through it, and leaves a seed for each run of free
            // floor beside that run above and below. The same cells as a
            // flood a cell at a time, a row's run at a time: a cave's
            // chambers are a quarter of its cells.
            let (left, right) = (usize::from(b.x), usize::from(b.right()));
            let (top, bottom) = (usize::from(b.y), usize::from(b.bottom()));
            let free = |area_of: &[u16], c: usize| is_area_floor(tiles[c]) && area_of[c] == 0;
            stack.push(anchor);
            while let Some(p) = stack.pop() {
                let (x, y) = (usize::from(p.x), usize::from(p.y));
                let row = y * w;
                if !free(area_of, row + x) {
                    continue;
                }
                let (mut x0, mut x1) = (x, x);
                while x0 > left && free(area_of, row + x0 - 1) {
                    x0 -= 1;
                }
                while x1 < right && free(area_of, row + x1 + 1) {
                    x1 += 1;
                }
                area_of[row + x0..=row + x1].fill(id);
                for beside in [y.wrapping_sub(1), y + 1] {
                    if !(top..=bottom).contains(&beside) {
                        continue;
                    }
                    let mut in_run = false;
                    for bx in x0..=x1 {
                        let now = free(area_of, beside * w + bx);
                        if now && !in_run {
                            stack.push(Pos::new(bx as u16, beside as u16));
                        }
                        in_run = now;
                    }
                }
            }
            continue;
        }
        let vault = matches!(room.shape, Shape::Vault(_));
        for part in room.shape.plain_parts() {
            if let Shape::Rect(r) = part {
                for y in usize::from(r.y)..usize::from(r.y) + usize::from(r.height) {
                    let row = y * w + usize::from(r.x);
                    area_of[row..row + usize::from(r.width)].fill(id);
                }
                continue;
            }
            for p in part.cells() {
                let c = at(p);
                if !vault || is_area_floor(tiles[c]) {
                    area_of[c] = id;
                }
            }
        }
    }
}
