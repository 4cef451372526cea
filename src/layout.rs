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
