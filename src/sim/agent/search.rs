//! Searching for secret doors (rules 3), for the agents that play for the
//! player once nothing better is left: at the dead ends they know of, and
//! along the walls of a room they stand in that has no exit they know of
//! (a teleport may leave them in a room whose only door is hidden). When
//! the way on cannot be reached at all (a teleport into a part of the
//! level that only secret doors join to the rest), along the walls of
//! every room they can reach: every door is beside some room's floor.
//!
//! Bounded, so an agent never searches forever: a spot is searched for at
//! most [`SEARCH_TURNS`] turns (shut in, a second round of
//! [`LONG_SEARCH_TURNS`]), counted in the run's saved state (the turns
//! searched on each cell), so a continued run searches on exactly as one
//! never stopped, and a spot searched that long is left for good. A wall
//! cell counts as searched once a cell beside it has been searched that
//! long (a search covers the eight cells around the searcher).
//!
//! Like the rest of the agents it goes by what the player knows: a secret
//! door is rock to it until found, and a dead end is one as seen. Dead
//! ends count on rooms levels only: a cave's and a maze's end blind by
//! nature, and on those it searches only when shut in.

use crate::config::LevelKind;
use crate::geom::Pos;
use crate::level::{Level, Tile};
use crate::sim::state::Run;
use crate::sim::world::distance::{DIRECTIONS, LazyWalk};
use crate::sim::world::doors::{Doors, Walker, Way};

/// Turns an agent searches one spot before it gives the spot up: at the
/// default `search_chance` (0.3) a door there is found with a chance of 97%.
pub(super) const SEARCH_TURNS: u16 = 10;
/// Shut in with every spot searched that long, an agent goes round again
/// searching each up to this many turns (a door then escapes it with a
/// chance of 2 in 100,000 at the default chance), and then gives up.
pub(super) const LONG_SEARCH_TURNS: u16 = 30;

/// The nearest spot worth searching for secret doors on the player's
/// level, if one is left: the player's own cell first. `wide` when the way
/// on cannot be reached: then every wall that could hide a door is worth
/// searching, not only those of a dead end or of a room without a known
/// exit. `None` under rules 1 and 2, which have no secret doors.
pub(super) fn search_spot(run: &Run, map: &mut LazyWalk, wide: bool) -> Option<Pos> {
    if run.doors() != Doors::Doors {
        return None;
    }
    let limits: &[u16] = if wide {
        &[SEARCH_TURNS, LONG_SEARCH_TURNS]
    } else {
        &[SEARCH_TURNS]
    };
    limits
        .iter()
        .find_map(|&limit| spot_within(run, map, wide, limit))
}

/// [`search_spot`] among spots searched for fewer than `limit` turns.
fn spot_within(run: &Run, map: &mut LazyWalk, wide: bool, limit: u16) -> Option<Pos> {
    let here = run.player().pos;
    let level = &run.current().level;
    // Shut in, a wall between two places the player can walk to hides
    // nothing worth finding: which cells the walk reaches, read once (the
    // walk is expanded to its end; rare, as being shut in is).
    let reached: Vec<bool> = if wide {
        (0..level.tiles().len())
            .map(|i| map.reaches(level, i))
            .collect()
    } else {
        Vec::new()
    };
    let mut spots = Spots::of(run, wide, limit);
    spots.reached = &reached;
    if spots.worth(here) {
        return Some(here);
    }
    if wide {
        let (_, spot) = map.nearest(level, |i| spots.worth(level.pos(i)))?;
        return Some(level.pos(spot));
    }
    // Not shut in, a spot is a dead end (a corridor cell) or a cell of the
    // room the player stands in: those few are weighed, and the walk goes
    // only as far as the nearest, instead of weighing every cell it
    // reaches (all of them, on a level with nothing left to search).
    let corridors: &[u32] = if spots.dead_ends_hint {
        map.cells_of(Tile::Corridor)
    } else {
        &[]
    };
    // Shut in a room (rare: a teleport's doing), its cells as the room
    // knows them, read off the whole level.
    let room = spots.shut_in.map(|r| &level.rooms()[r]);
    let room_cells = room.into_iter().flat_map(|room| {
        (0..level.tiles().len())
            .map(|i| level.pos(i))
            .filter(|&p| room.contains(p))
    });
    let candidates: Vec<Pos> = corridors
        .iter()
        .map(|&i| level.pos(i as usize))
        .chain(room_cells)
        .filter(|&p| spots.worth(p))
        .collect();
    map.nearest_among(level, candidates)
}

/// What the player knows that decides where searching is worth it.
struct Spots<'a> {
    run: &'a Run,
    level: &'a Level,
    walker: Walker,
    /// The room the player stands in, when it has no exit the player
    /// knows of.
    shut_in: Option<usize>,
    /// Every room's walls are worth searching: the way on is not reached.
    wide: bool,
    /// Whether a dead end hints at a door: on rooms and corridors, where a
    /// corridor runs to a door; a cave's passages and a maze's corridors
    /// end blind by nature (a labyrinth has hundreds of dead ends), and the
    /// player sees which kind of level they are on.
    dead_ends_hint: bool,
    /// The turns a spot is searched for before it counts as searched.
    limit: u16,
    /// When `wide`: per cell, whether the player's walk reaches it.
    reached: &'a [bool],
}

impl<'a> Spots<'a> {
    fn of(run: &'a Run, wide: bool, limit: u16) -> Spots<'a> {
        let level = &run.current().level;
        let walker = run.player_walker();
        let mut spots = Spots {
            run,
            level,
            walker,
            shut_in: None,
            wide,
            dead_ends_hint: run.config().at_depth(run.player().depth).kind == LevelKind::Rooms,
            limit,
            reached: &[],
        };
        let here = run.player().pos;
        spots.shut_in = level
            .room_at(here)
            .filter(|&r| level.tile(here).is_walkable() && !spots.exit_known(r));
        spots
    }

    /// Whether the player has seen `p` and it looks passable to them: not
    /// rock, nor a secret door (which looks like rock).
    fn looks_open(&self, p: Pos) -> bool {
        self.run.current().has_seen(p) && self.walker.way(self.level.tile(p)) != Way::Wall
    }

    /// Whether room `r` has an exit the player knows of: a seen cell that
    /// looks passable next to its floor, outside it.
    fn exit_known(&self, r: usize) -> bool {
        let room = &self.level.rooms()[r];
        room.shape.cells().any(|p| {
            room.contains(p)
                && self
                    .neighbours(p, 4)
                    .any(|n| !room.contains(n) && self.looks_open(n))
        })
    }

    /// The first `count` neighbours of `p` in [`DIRECTIONS`] order (4: the
    /// orthogonal ones, 8: all). The player's cells are never on the
    /// border, so every neighbour is on the level.
    fn neighbours(&self, p: Pos, count: usize) -> impl Iterator<Item = Pos> {
        DIRECTIONS[..count].iter().map(move |&(dx, dy)| {
            Pos::new((i32::from(p.x) + dx) as u16, (i32::from(p.y) + dy) as u16)
        })
    }

    /// Whether searching on `p` is worth a turn: it has been searched for
    /// fewer than `limit` turns, and it is a dead end the player
    /// knows of or, in a room with no known exit, a floor cell beside a
    /// stretch of its wall not searched yet.
    fn worth(&self, p: Pos) -> bool {
        if self.level.is_border(p) || !self.looks_open(p) {
            return false;
        }
        // The cell's shape first: the count of turns searched is a search
        // of its own, and few cells are spots.
        (self.dead_end(p) || self.beside_unsearched_wall(p) || self.beside_any_unsearched_wall(p))
            && self.run.searched_at(p) < self.limit
    }

    /// A corridor cell with at most one neighbour that looks passable, on
    /// a level where that hints at a door.
    fn dead_end(&self, p: Pos) -> bool {
        self.dead_ends_hint
            && self.level.tile(p) == Tile::Corridor
            && self
                .neighbours(p, 4)
                .filter(|&n| self.looks_open(n))
                .nth(1)
                .is_none()
    }

    /// In the room the player is shut in: a floor cell next to a wall cell
    /// where a door could be (beside the room's floor, looking like rock)
    /// that no cell around it has been searched from for long enough.
    fn beside_unsearched_wall(&self, p: Pos) -> bool {
        let Some(r) = self.shut_in else {
            return false;
        };
        let room = &self.level.rooms()[r];
        if !room.contains(p) {
            return false;
        }
        self.neighbours(p, 8).any(|w| {
            !room.contains(w)
                && !self.level.is_border(w)
                && self.walker.way(self.level.tile(w)) == Way::Wall
                && self.neighbours(w, 4).any(|f| room.contains(f))
                && !self.searched_around(w)
        })
    }

    /// Whether a cell next to wall cell `w` has been searched from for
    /// long enough to count `w` as searched.
    fn searched_around(&self, w: Pos) -> bool {
        self.neighbours(w, 8)
            .any(|s| !self.level.is_border(s) && self.run.searched_at(s) >= self.limit)
    }

    /// When the way on is not reached (`wide`): a cell next to a wall
    /// cell where a door could be, not searched yet: one that looks like
    /// rock, off the border, with a passable cell on one side and, across
    /// it, what is not known to be rock (unseen, or passable but out of
    /// reach). Every door is such a cell, seen from the side it is reached
    /// from; so is much plain wall, hence only when shut in.
    fn beside_any_unsearched_wall(&self, p: Pos) -> bool {
        if !self.wide {
            return false;
        }
        self.neighbours(p, 8).any(|w| {
            !self.level.is_border(w)
                && self.walker.way(self.level.tile(w)) == Way::Wall
                && DIRECTIONS[..4].iter().any(|&(dx, dy)| {
                    let side = |k: i32| {
                        Pos::new(
                            (i32::from(w.x) + k * dx) as u16,
                            (i32::from(w.y) + k * dy) as u16,
                        )
                    };
                    let across = side(-1);
                    let beyond = !self.run.current().has_seen(across)
                        || (self.walker.way(self.level.tile(across)) != Way::Wall
                            && !self.reached[self.level.index(across)]);
                    self.looks_open(side(1)) && beyond
                })
                && !self.searched_around(w)
        })
    }
}
