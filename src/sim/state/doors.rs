//! The questions anyone may ask about doors: which open doors are next to
//! the player, and whether one may be closed. The rules that close it are
//! `rules/doors.rs`'s; the viewer asks these first, to say why a door
//! stays open or which way to close.

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::state::Run;
use crate::sim::world::distance::DIRECTIONS;

/// Why an open door cannot be closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unclosable {
    /// There is no open door there.
    NoDoor,
    /// A monster stands in the doorway.
    Monster,
    /// Something lies in the doorway.
    Items,
}

impl Unclosable {
    /// Why, in words, for the player.
    pub fn words(self) -> &'static str {
        match self {
            Unclosable::NoDoor => "There is no open door there.",
            Unclosable::Monster => "Something stands in the doorway.",
            Unclosable::Items => "Something lies in the doorway.",
        }
    }
}

impl Run {
    /// The cell of the open door one step from the player in `(dx, dy)`,
    /// if it may be closed: the doorway empty of monsters and items.
    pub fn closable(&self, dx: i8, dy: i8) -> Result<Pos, Unclosable> {
        let here = self.state.player.pos;
        let level = &self.current().level;
        let (x, y) = (
            i32::from(here.x) + i32::from(dx),
            i32::from(here.y) + i32::from(dy),
        );
        if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 || !level.in_bounds(x, y) {
            return Err(Unclosable::NoDoor);
        }
        let at = Pos::new(x as u16, y as u16);
        if level.tile(at) != Tile::OpenDoor {
            return Err(Unclosable::NoDoor);
        }
        if self.current().monster_at(at).is_some() {
            return Err(Unclosable::Monster);
        }
        if self
            .floor()
            .is_some_and(|f| f.items.iter().any(|i| i.pos == at))
        {
            return Err(Unclosable::Items);
        }
        Ok(at)
    }

    /// The directions from the player of the open doors next to them, in
    /// [`DIRECTIONS`] order, closable or not.
    pub fn open_doors_around(&self) -> Vec<(i8, i8)> {
        DIRECTIONS
            .iter()
            .map(|&(dx, dy)| (dx as i8, dy as i8))
            .filter(|&(dx, dy)| self.closable(dx, dy) != Err(Unclosable::NoDoor))
            .collect()
    }
}
