//! What doors are to sight and to movers: the questions the door rules
//! (rules revision 3) ask of a level, pure and shared by the turn, the
//! monsters, sight and the agents. The rules that change doors (opening,
//! closing, searching) are `rules/doors.rs`'s.
//!
//! Under rules 1 and 2 a `Door` is an open doorway: it is seen through and
//! walked through like a corridor, and every answer here is the one delve
//! always gave. From rules 3:
//! - a closed door ([`Tile::Door`]) and a secret one ([`Tile::SecretDoor`])
//!   block sight as rock does; an open door ([`Tile::OpenDoor`]) does not;
//! - the player opens a closed door by walking into it (the turn passes,
//!   the player stays) and never passes a secret one until it is found;
//! - a monster that opens doors (the `OpensDoors` trait) opens closed and
//!   secret doors alike by walking into them (it knows the secret ones);
//!   one that does not is stopped by both, as by rock;
//! - a diagonal step needs both corners open ground, so a closed door at
//!   a corner blocks it as rock does.
//!
//! A closed or secret door is a cell nobody stands on: a mover opens it and
//! stays, and a door with anyone or anything in its doorway cannot be
//! closed, so the checks a loaded run passes can promise so.

use crate::geom::Pos;
use crate::level::{Level, Tile};

/// How a run's doors behave: which rules revision it plays by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doors {
    /// Rules 1 and 2: every door is an open doorway.
    Doorways,
    /// Rules 3: doors open and close, and some are secret.
    Doors,
}

impl Doors {
    /// The door rules of a rules revision.
    pub fn of(rules: u16) -> Doors {
        if rules >= 3 {
            Doors::Doors
        } else {
            Doors::Doorways
        }
    }

    /// Whether sight stops at `tile` (the tile itself is still seen, as a
    /// wall is).
    pub fn blocks_sight(self, tile: Tile) -> bool {
        match self {
            Doors::Doorways => !tile.is_walkable(),
            Doors::Doors => matches!(tile, Tile::Rock | Tile::Door | Tile::SecretDoor),
        }
    }
}

/// Who is moving, as the door rules see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mover {
    /// The player, and the agents that play for them: a secret door is
    /// rock until found.
    Player,
    /// A monster with the `OpensDoors` trait: it opens closed doors and
    /// the secret ones it knows.
    Opener,
    /// A monster without it: stopped by any door that is not open.
    Shut,
}

/// What a cell is to a mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Stepped onto.
    Open,
    /// Walked into to open it; the mover stays where it was.
    Door,
    /// Not passed: rock, or a door this mover does not open.
    Wall,
}

/// A mover under a run's door rules: what a search over a level walks by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Walker {
    /// The run's door rules.
    pub doors: Doors,
    /// Who walks.
    pub mover: Mover,
}

impl Walker {
    /// Anyone under rules 1 and 2, where doors are doorways.
    pub const DOORWAYS: Walker = Walker {
        doors: Doors::Doorways,
        mover: Mover::Player,
    };

    /// What `tile` is to this walker.
    pub fn way(self, tile: Tile) -> Way {
        match self.doors {
            Doors::Doorways if tile.is_walkable() => Way::Open,
            Doors::Doorways => Way::Wall,
            Doors::Doors => match (tile, self.mover) {
                (Tile::Rock, _) => Way::Wall,
                (Tile::Door, Mover::Shut) => Way::Wall,
                (Tile::Door, _) => Way::Door,
                (Tile::SecretDoor, Mover::Opener) => Way::Door,
                (Tile::SecretDoor, _) => Way::Wall,
                _ => Way::Open,
            },
        }
    }

    /// What the step from `from` to the adjacent `to` is to this walker:
    /// [`Way::Open`] a step, [`Way::Door`] a door opened, [`Way::Wall`] no
    /// move (not adjacent, the border, or a diagonal past a corner that is
    /// not open ground). Under [`Doors::Doorways`] a step exactly when
    /// `can_step` allows a walker one.
    pub fn step(self, level: &Level, from: Pos, to: Pos) -> Way {
        let dx = i32::from(to.x) - i32::from(from.x);
        let dy = i32::from(to.y) - i32::from(from.y);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) || level.is_border(to) {
            return Way::Wall;
        }
        let way = self.way(level.tile(to));
        if dx != 0 && dy != 0 && way != Way::Wall {
            let a = Pos::new(to.x, from.y);
            let b = Pos::new(from.x, to.y);
            if self.way(level.tile(a)) != Way::Open || self.way(level.tile(b)) != Way::Open {
                return Way::Wall;
            }
        }
        way
    }

    /// Whether this walker may step from `from` onto the adjacent `to`
    /// (not a door to open: a step).
    pub fn steps(self, level: &Level, from: Pos, to: Pos) -> bool {
        self.step(level, from, to) == Way::Open
    }

    /// Whether this walker gets from `from` toward `to` by walking into
    /// it: a step, or a door opened.
    pub fn goes(self, level: &Level, from: Pos, to: Pos) -> bool {
        self.step(level, from, to) != Way::Wall
    }
}
