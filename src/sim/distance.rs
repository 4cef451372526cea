//! Distance maps (002's roadmap): how far every cell is from the player,
//! for walkers and for tunnellers, computed once per player move and shared
//! by every monster on the level.
//!
//! Both maps hold the cost for an actor standing on a cell to reach the
//! player, so a monster goes "downhill". The walking map counts king moves
//! over open cells; the tunnelling map also crosses rock, orthogonally only,
//! at the moves digging it takes: `ceil(hardness / dig_per_turn)` (002
//! prices it `1 + hardness / 85` for its fixed 85 a move).

use serde::{Deserialize, Serialize};

use crate::geom::Pos;
use crate::grid_search::{Bfs, BucketQueue, Moves, king_move, orthogonal};
use crate::level::Level;

/// The eight king moves, orthogonal ones first.
pub use crate::grid_search::KING_MOVES as DIRECTIONS;

/// Whether an actor may step from `from` to the adjacent cell `to`.
///
/// Diagonal steps need both orthogonal cells open: nobody squeezes between
/// two rock corners, so movement follows the same orthogonal connectivity
/// the generator proves. Tunnellers may also step into rock, orthogonally
/// only (so what they dig stays orthogonally joined), never into the
/// immutable border.
pub fn can_step(level: &Level, from: Pos, to: Pos, tunneller: bool) -> bool {
    let dx = i32::from(to.x) - i32::from(from.x);
    let dy = i32::from(to.y) - i32::from(from.y);
    if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
        return false;
    }
    if level.is_border(to) {
        return false;
    }
    let open = level.tile(to).is_walkable();
    if dx != 0 && dy != 0 {
        let a = Pos::new(to.x, from.y);
        let b = Pos::new(from.x, to.y);
        return open && level.tile(a).is_walkable() && level.tile(b).is_walkable();
    }
    open || tunneller
}

/// [`can_step`] for a walker by cell index, as a king-move search asks it:
/// may a walker on `from` step to its neighbour `to`? Open cells are never
/// on the border, so every neighbour of one exists. The position of `to`
/// is remembered while a search asks about its neighbours in turn, so a
/// search divides once a cell, not once a question.
pub(crate) struct WalkerSteps<'a> {
    level: &'a Level,
    width: usize,
    to: (usize, Pos),
}

impl<'a> WalkerSteps<'a> {
    pub(crate) fn new(level: &'a Level) -> WalkerSteps<'a> {
        WalkerSteps {
            level,
            width: usize::from(level.width()),
            to: (usize::MAX, Pos::new(0, 0)),
        }
    }

    pub(crate) fn may_step(&mut self, from: usize, to: usize) -> bool {
        if !self.level.tiles()[from].is_walkable() {
            return false;
        }
        if self.to.0 != to {
            self.to = (to, self.level.pos(to));
        }
        let at = self.to.1;
        let (dx, dy) = king_move(to, from, self.width);
        let from = Pos::new((i32::from(at.x) + dx) as u16, (i32::from(at.y) + dy) as u16);
        can_step(self.level, from, at, false)
    }
}

/// Step costs to the player for every cell; `UNREACHABLE` where none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DistanceMap {
    width: u16,
    height: u16,
    dist: Vec<u32>,
}

impl DistanceMap {
    /// The value of a cell from which the player cannot be reached.
    pub const UNREACHABLE: u32 = u32::MAX;

    /// Breadth-first over open cells by king moves.
    pub fn walking(level: &Level, to: Pos) -> DistanceMap {
        let w = usize::from(level.width());
        let tiles = level.tiles();
        let mut bfs = Bfs::with_cells(tiles.len());
        let mut walker = WalkerSteps::new(level);
        bfs.flood(
            w,
            tiles.len(),
            [level.index(to)],
            Moves::King,
            |here, there| walker.may_step(there, here),
        );
        DistanceMap {
            width: level.width(),
            height: level.height(),
            dist: bfs.into_distances(),
        }
    }

    /// Dijkstra over open cells and diggable rock, with a bucket queue:
    /// a step costs the moves it takes (1 into open space, the digging
    /// moves into rock), at most 254, so a ring of 256 buckets holds every
    /// pending cost.
    pub fn tunnelling(level: &Level, to: Pos, dig_per_turn: u8) -> DistanceMap {
        let mut map = DistanceMap::empty(level);
        let w = usize::from(level.width());
        let hard = level.hardness_grid();
        let tiles = level.tiles();
        let open = |c: usize| tiles[c].is_walkable();
        let dig = u32::from(dig_per_turn.max(1));
        // Moves to dig through rock of each hardness; the last dig opens it
        // and moves in.
        let moves: Vec<u32> = (0..256u32).map(|h| h.div_ceil(dig).max(1)).collect();
        let ring = (moves[254] + 1).next_power_of_two() as usize;
        let mut queue = BucketQueue::default();
        queue.reset(ring, 0);
        let start = level.index(to);
        map.dist[start] = 0;
        queue.push(0, start as u32);
        while let Some((cost, c)) = queue.pop() {
            let c = c as usize;
            if map.dist[c] != cost {
                continue; // settled earlier at a lower cost
            }
            // A mover at a neighbour reaches the player through `c`, paying
            // to enter `c`. Settled cells are never on the border (it is
            // never entered), so every neighbour exists.
            let nd = cost
                + if open(c) {
                    1
                } else {
                    moves[usize::from(hard[c])]
                };
            let mut relax = |n: usize, map: &mut DistanceMap| {
                if nd < map.dist[n] {
                    map.dist[n] = nd;
                    queue.push(nd, n as u32);
                }
            };
            for n in orthogonal(c, w) {
                if hard[n] != 255 {
                    relax(n, &mut map);
                }
            }
            // Diagonals only between open cells with open corners.
            if open(c) {
                for (dx, dy) in [(1isize, -1isize), (1, 1), (-1, 1), (-1, -1)] {
                    let w = w as isize;
                    let n = (c as isize + dy * w + dx) as usize;
                    let corner_a = (c as isize + dx) as usize;
                    let corner_b = (c as isize + dy * w) as usize;
                    if open(n) && open(corner_a) && open(corner_b) {
                        relax(n, &mut map);
                    }
                }
            }
        }
        map
    }

    fn empty(level: &Level) -> DistanceMap {
        DistanceMap {
            width: level.width(),
            height: level.height(),
            dist: vec![Self::UNREACHABLE; usize::from(level.width()) * usize::from(level.height())],
        }
    }

    /// Cost from `p` to the player; [`DistanceMap::UNREACHABLE`] if there is no way.
    pub fn at(&self, p: Pos) -> u32 {
        self.dist[usize::from(p.y) * usize::from(self.width) + usize::from(p.x)]
    }

    /// Cells across, as the level it was made for.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Cells down, as the level it was made for.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The neighbour of `from` an actor may step to that is cheapest to the
    /// player, if it is cheaper than `from` itself. Ties go to the first in
    /// [`DIRECTIONS`], so the choice is deterministic.
    pub fn downhill(&self, level: &Level, from: Pos, tunneller: bool) -> Option<Pos> {
        let mut best = (self.at(from), None);
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(from.x) + dx, i32::from(from.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let to = Pos::new(x as u16, y as u16);
            if can_step(level, from, to, tunneller) && self.at(to) < best.0 {
                best = (self.at(to), Some(to));
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::generate::generate_level;

    #[test]
    fn walking_map_counts_king_moves_without_cutting_corners() {
        let level = Level::from_rows(
            1,
            &["        ", " ...... ", " ..  .. ", " ...... ", "        "],
            vec![],
        );
        let map = DistanceMap::walking(&level, Pos::new(1, 1));
        // Along the top: the diagonal past the block's corner is refused,
        // so (4,1) -> (5,2) is not a move and the way is one step longer
        // than the king's distance.
        assert_eq!(map.at(Pos::new(6, 3)), 6);
        assert_eq!(map.at(Pos::new(2, 2)), 1);
        assert_eq!(map.at(Pos::new(5, 2)), 5);
        assert_eq!(map.at(Pos::new(3, 2)), DistanceMap::UNREACHABLE);
    }

    #[test]
    fn tunnelling_map_prices_rock() {
        let level = Level::from_rows(1, &["       ", " .   . ", "       "], vec![]);
        let map = DistanceMap::tunnelling(&level, Pos::new(1, 1), 85);
        // Three cells of hardness 127 (two digs each), then open floor (1).
        assert_eq!(map.at(Pos::new(5, 1)), 2 + 2 + 2 + 1);
        // Slow diggers pay more: 127 at 1 a move is 127 moves a cell.
        let slow = DistanceMap::tunnelling(&level, Pos::new(1, 1), 1);
        assert_eq!(slow.at(Pos::new(5, 1)), 3 * 127 + 1);
        assert_eq!(map.at(Pos::new(0, 0)), DistanceMap::UNREACHABLE);
    }

    #[test]
    fn downhill_reaches_the_player() {
        let config = Config::from_ron("(width: 80, height: 21, levels: 1)", "t").unwrap();
        let level = generate_level(&config, 3, 1).unwrap();
        let open: Vec<usize> = (0..level.tiles().len())
            .filter(|&i| level.tiles()[i].is_walkable())
            .collect();
        let (from, to) = (level.pos(open[0]), level.pos(open[open.len() - 1]));
        let map = DistanceMap::walking(&level, to);
        let mut at = from;
        let mut steps = 0;
        while at != to {
            at = map
                .downhill(&level, at, false)
                .expect("every open cell leads to the player");
            steps += 1;
        }
        assert_eq!(steps, map.at(from));
    }
}
