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
use crate::level::{Level, Tile};
use crate::sim::world::doors::{Doors, Mover, Walker};
use crate::sim::world::part::WalkedPart;
use crate::sim::world::ways::Ways;

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
        self.downhill_by(level, from, |from, to| can_step(level, from, to, tunneller))
    }

    /// [`DistanceMap::downhill`] with the moves `goes(from, to)` allows: a
    /// tunneller's under the door rules of rules 3.
    pub fn downhill_by(
        &self,
        level: &Level,
        from: Pos,
        goes: impl Fn(Pos, Pos) -> bool,
    ) -> Option<Pos> {
        let mut best = (self.at(from), None);
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(from.x) + dx, i32::from(from.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let to = Pos::new(x as u16, y as u16);
            if goes(from, to) && self.at(to) < best.0 {
                best = (self.at(to), Some(to));
            }
        }
        best.1
    }
}

/// Walking distances to the player, computed only as far as they are
/// asked for: a breadth-first search that stops where the question is
/// answered and resumes for the next. Every answer is the one
/// [`DistanceMap::walking`] gives; most turns need only the cells near the
/// player (the nearest frontier, a monster in sight), so most of the level
/// is never searched.
///
/// The search walks as one [`Walker`] does. Under rules 1 and 2 every
/// walker walks alike. From rules 3 a walk is a monster's (doors it opens
/// count as a step, doors it does not as rock) or the player's: a secret
/// door is rock, and a closed door costs two steps to walk into (one to
/// open it, one to step in), so a cell is then at the cost of the
/// player's cheapest walk to it rather than its step count. Either way a
/// cell's distance is final once it is reached: entering a cell costs the
/// same from every side.
#[derive(Clone, Debug)]
pub struct LazyWalk {
    width: usize,
    walker: Walker,
    dist: Vec<u32>,
    /// Cells in the order they were reached (nondecreasing distance).
    queue: Vec<u32>,
    /// The next cell of `queue` to expand.
    head: usize,
    /// Closed doors reached at two steps, in order of distance, joining
    /// `queue` once every cell a step nearer is in it (the player's walk
    /// under rules 3 only).
    later: Vec<u32>,
    /// The next cell of `later` to join `queue`.
    later_head: usize,
    /// Cells cleared and expanded since this search was made: the work it
    /// did, counted (see [`crate::sim::Run::work`]).
    effort: u64,
    /// The cells this walk can reach at all, kept across resets while the
    /// level stays as it was, so a cell out of reach is known to be
    /// without searching the whole level.
    part: WalkedPart,
    /// Whether `part` is this search's (see [`LazyWalk::know_part`]).
    part_known: bool,
    /// What each cell is to the walker, kept across resets and read again
    /// only where the level changed.
    ways: Ways,
}

impl Default for LazyWalk {
    fn default() -> Self {
        LazyWalk {
            width: 0,
            walker: Walker::DOORWAYS,
            dist: Vec::new(),
            queue: Vec::new(),
            head: 0,
            later: Vec::new(),
            later_head: 0,
            effort: 0,
            part: WalkedPart::default(),
            part_known: false,
            ways: Ways::default(),
        }
    }
}

impl LazyWalk {
    /// Cells cleared and expanded since this search was made.
    pub fn effort(&self) -> u64 {
        self.effort
    }

    /// Who this search walks as.
    pub fn walker(&self) -> Walker {
        self.walker
    }

    /// A search from `to`, reusing this one's buffers; doors are doorways
    /// (rules 1 and 2).
    pub fn reset(&mut self, level: &Level, to: Pos) {
        self.reset_as(level, to, Walker::DOORWAYS);
    }

    /// A search from `to` walked as `walker`, reusing this one's buffers.
    pub fn reset_as(&mut self, level: &Level, to: Pos, walker: Walker) {
        let width = usize::from(level.width());
        let cells = width * usize::from(level.height());
        if self.width == width && self.dist.len() == cells {
            // Every cell given a distance is in `queue` or `later`: clear
            // those, not the whole level.
            for &c in self.queue.iter().chain(&self.later) {
                self.dist[c as usize] = DistanceMap::UNREACHABLE;
            }
        } else {
            self.dist.clear();
            self.dist.resize(cells, DistanceMap::UNREACHABLE);
        }
        self.width = width;
        self.walker = walker;
        self.queue.clear();
        self.head = 0;
        self.later.clear();
        self.later_head = 0;
        self.part_known = false;
        self.effort += cells as u64 / 8 + self.ways.refresh(level, walker) / 8;
        let start = level.index(to);
        self.dist[start] = 0;
        self.queue.push(start as u32);
    }

    /// Moves the doors waiting in `later` at distance `limit` or less into
    /// the queue, behind the cells already there (which are no farther).
    #[inline]
    fn admit_upto(&mut self, limit: u32) {
        while let Some(&c) = self.later.get(self.later_head) {
            if self.dist[c as usize] > limit {
                break;
            }
            self.queue.push(c);
            self.later_head += 1;
        }
    }

    /// The distance of the next cell to expand, once every door waiting
    /// that is as near has joined the queue; `None` when the search is
    /// complete.
    #[inline]
    fn next_distance(&mut self) -> Option<u32> {
        let limit = match self.queue.get(self.head) {
            // Every cell a step nearer than the head has been expanded,
            // so whatever waits at one step past it may join.
            Some(&c) => self.dist[c as usize] + 1,
            None => {
                let &c = self.later.get(self.later_head)?;
                self.dist[c as usize]
            }
        };
        self.admit_upto(limit);
        self.queue.get(self.head).map(|&c| self.dist[c as usize])
    }

    /// Expands one cell; false when the search is complete.
    ///
    /// A neighbour is read off the walker's table of ways ([`Ways::step`]
    /// is [`Walker::step`] by index, and under rules 1 and 2 the same as
    /// asking `can_step` whether a walker there may step here).
    fn expand(&mut self, level: &Level) -> bool {
        if self.walker.doors == Doors::Doors {
            return self.expand_doors(level);
        }
        let Some(&c) = self.queue.get(self.head) else {
            return false;
        };
        self.head += 1;
        self.effort += 8;
        let c = c as usize;
        let d = self.dist[c] + 1;
        let (mut moves, _) = self.ways.moves(c);
        while moves != 0 {
            let k = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let n = (c as isize + self.ways.offset(k)) as usize;
            if self.dist[n] == DistanceMap::UNREACHABLE {
                self.dist[n] = d;
                self.queue.push(n as u32);
            }
        }
        true
    }

    /// [`LazyWalk::expand`] under rules 3: a neighbour is reached if the
    /// walker gets there from it (a step or a door opened), at one step,
    /// or two for a closed door on the player's walk.
    #[inline]
    fn expand_doors(&mut self, _level: &Level) -> bool {
        if self.next_distance().is_none() {
            return false;
        }
        let c = self.queue[self.head] as usize;
        self.head += 1;
        self.effort += 8;
        let d = self.dist[c];
        let doors_cost_two = self.walker.mover == Mover::Player;
        let (mut moves, doors) = self.ways.moves(c);
        while moves != 0 {
            let k = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let n = (c as isize + self.ways.offset(k)) as usize;
            if self.dist[n] != DistanceMap::UNREACHABLE {
                continue;
            }
            if doors_cost_two && doors & (1 << k) != 0 {
                self.dist[n] = d + 2;
                self.later.push(n as u32);
            } else {
                self.dist[n] = d + 1;
                self.queue.push(n as u32);
            }
        }
        true
    }

    /// Expands every cell closer than `d`, so every cell at distance `d` or
    /// less has its final value and is in the queue.
    fn settle_below(&mut self, level: &Level, d: u32) {
        if self.walker.doors == Doors::Doors {
            while let Some(next) = self.next_distance() {
                if next >= d {
                    break;
                }
                self.expand(level);
            }
            self.admit_upto(d);
            return;
        }
        while let Some(&c) = self.queue.get(self.head) {
            if self.dist[c as usize] >= d {
                break;
            }
            self.expand(level);
        }
    }

    /// Learns which cells this search can reach at all, flooding the level
    /// only if it changed (or the start left the part known before) since
    /// the last time: afterwards a cell out of reach is answered at once
    /// instead of by searching everything. For walks asked about far or
    /// unreachable cells turn after turn, as the autopilot's are.
    pub(crate) fn know_part(&mut self) {
        let flooded = self.part.refresh(&self.ways, self.start());
        self.effort += flooded * 8;
        self.part_known = true;
    }

    /// The cells of `level` whose tile is `tile`, in index order, from the
    /// walker's table (listed again only when the level changed). The walk
    /// must have been reset on `level` as it is.
    pub fn cells_of(&mut self, tile: Tile) -> &[u32] {
        self.ways.cells_of(tile)
    }

    /// The cell this search started from.
    pub fn start(&self) -> usize {
        self.queue.first().map_or(0, |&c| c as usize)
    }

    /// Whether cell `i` may be reachable: false only when it is known not
    /// to be (see [`LazyWalk::know_part`]), which costs no search.
    pub fn may_reach(&self, i: usize) -> bool {
        !(self.part_known && self.part.holds(i) == Some(false))
    }

    /// Whether the walk reaches cell `i` at all: read off the part when it
    /// is known, else searched.
    pub fn reaches(&mut self, level: &Level, i: usize) -> bool {
        if self.part_known {
            return self.may_reach(i);
        }
        self.at(level, level.pos(i)) != DistanceMap::UNREACHABLE
    }

    /// The distance of `p` ([`DistanceMap::UNREACHABLE`] where none).
    pub fn at(&mut self, level: &Level, p: Pos) -> u32 {
        let i = level.index(p);
        if !self.may_reach(i) {
            return DistanceMap::UNREACHABLE;
        }
        while self.dist[i] == DistanceMap::UNREACHABLE && self.expand(level) {}
        self.dist[i]
    }

    /// Whether this search's walker gets from `from` toward `to`: a step,
    /// or under rules 3 a door it opens.
    fn goes(&self, level: &Level, from: Pos, to: Pos) -> bool {
        match self.walker.doors {
            Doors::Doorways => can_step(level, from, to, false),
            Doors::Doors => self.walker.goes(level, from, to),
        }
    }

    /// As [`DistanceMap::downhill`] for walkers: under rules 3 the
    /// neighbour may be a door to open.
    pub fn downhill(&mut self, level: &Level, from: Pos) -> Option<Pos> {
        let d = self.at(level, from);
        if d == DistanceMap::UNREACHABLE {
            return None;
        }
        // Every neighbour closer than `from` now has its final value; the
        // rest are at least as far, as in the full map.
        self.settle_below(level, d);
        let mut best = (d, None);
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(from.x) + dx, i32::from(from.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let to = Pos::new(x as u16, y as u16);
            let at = self.dist[level.index(to)];
            if at < best.0 && self.goes(level, from, to) {
                best = (at, Some(to));
            }
        }
        best.1
    }

    /// The nearest of `targets` this walk reaches, ties by the lowest
    /// index (the start itself, at distance 0, when it is one).
    ///
    /// Searched only as far as the nearest target, not to the farthest
    /// (each target's distance asked in turn would search that far), and a
    /// target out of reach costs nothing once the walk knows its part of
    /// the level: the answer asking each target's distance would give, for
    /// less work.
    pub fn nearest_among(
        &mut self,
        level: &Level,
        targets: impl IntoIterator<Item = Pos>,
    ) -> Option<Pos> {
        let start = self.start();
        let mut cells: Vec<usize> = targets
            .into_iter()
            .map(|p| level.index(p))
            .filter(|&i| self.may_reach(i))
            .collect();
        if cells.contains(&start) {
            return Some(level.pos(start));
        }
        cells.sort_unstable();
        cells.dedup();
        if cells.is_empty() {
            return None;
        }
        self.nearest(level, |i| cells.binary_search(&i).is_ok())
            .map(|(_, i)| level.pos(i))
    }

    /// The nearest cell other than the start for which `wanted` holds,
    /// ties by the lowest index, with its distance.
    pub fn nearest(
        &mut self,
        level: &Level,
        mut wanted: impl FnMut(usize) -> bool,
    ) -> Option<(u32, usize)> {
        let mut found: Option<(u32, usize)> = None;
        let mut i = 1;
        loop {
            while i >= self.queue.len() {
                if !self.expand(level) {
                    if self.walker.doors == Doors::Doors && i < self.queue.len() {
                        break; // the last doors joined the queue
                    }
                    return found;
                }
            }
            let c = self.queue[i] as usize;
            let d = self.dist[c];
            if found.is_some_and(|(fd, _)| d > fd) {
                return found;
            }
            // The whole layer at `d` is queued once every closer cell is
            // expanded.
            self.settle_below(level, d);
            if wanted(c) && found.is_none_or(|(_, fi)| c < fi) {
                found = Some((d, c));
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::generate::generate_level;
    use crate::sim::world::doors::Way;

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

    /// Under rules 3 the lazy walk, for the player and for monsters that
    /// open doors or not, gives every cell the cost of the cheapest walk,
    /// checked against a plain Dijkstra of the test's own over random
    /// door states (a closed door two steps into for the player, a secret
    /// one rock to it; both one step for an opening monster; both rock to
    /// the others); and `nearest` and `downhill` answer by those costs.
    #[test]
    fn the_lazy_walk_through_doors_answers_as_dijkstra() {
        use crate::level::Tile;
        let config = Config::from_ron("(width: 80, height: 40, levels: 1)", "t").unwrap();
        for seed in 0..6u64 {
            let mut level = generate_level(&config, seed, 1).unwrap();
            let doors: Vec<usize> = (0..level.tiles().len())
                .filter(|&i| level.tiles()[i].is_door())
                .collect();
            for (k, &i) in doors.iter().enumerate() {
                let tile = [Tile::Door, Tile::OpenDoor, Tile::SecretDoor][(k + seed as usize) % 3];
                assert!(level.set_door(level.pos(i), tile));
            }
            let open: Vec<usize> = (0..level.tiles().len())
                .filter(|&i| matches!(level.tiles()[i], Tile::Floor | Tile::Corridor))
                .collect();
            let to = level.pos(open[open.len() / 3]);
            for mover in [Mover::Player, Mover::Opener, Mover::Shut] {
                let walker = Walker {
                    doors: Doors::Doors,
                    mover,
                };
                let want = dijkstra(&level, to, walker);
                let mut lazy = LazyWalk::default();
                lazy.reset_as(&level, to, walker);
                for &i in open.iter().step_by(5).rev() {
                    assert_eq!(
                        lazy.at(&level, level.pos(i)),
                        want[i],
                        "{mover:?} seed {seed}"
                    );
                    if let Some(next) = lazy.downhill(&level, level.pos(i)) {
                        let n = level.index(next);
                        assert!(want[n] < want[i], "{mover:?}: downhill goes down");
                        assert!(walker.goes(&level, level.pos(i), next));
                    } else {
                        assert!(want[i] == 0 || want[i] == DistanceMap::UNREACHABLE);
                    }
                }
                let mut lazy = LazyWalk::default();
                lazy.reset_as(&level, to, walker);
                let wanted = |i: usize| i % 7 == 3 && level.tiles()[i] != Tile::Rock;
                let expected = (0..level.tiles().len())
                    .filter(|&i| wanted(i) && want[i] != 0 && want[i] != DistanceMap::UNREACHABLE)
                    .map(|i| (want[i], i))
                    .min();
                assert_eq!(
                    lazy.nearest(&level, wanted),
                    expected,
                    "{mover:?} seed {seed}"
                );
            }
        }
    }

    /// The walker's cost of walking out from `to` to every cell, by
    /// Dijkstra over [`Walker::step`] (entering a cell costs what the
    /// walker pays to get into it): the reference the lazy walk must agree
    /// with.
    fn dijkstra(level: &Level, to: Pos, walker: Walker) -> Vec<u32> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let cost = |c: usize| match walker.way(level.tiles()[c]) {
            Way::Door if walker.doors == Doors::Doors && walker.mover == Mover::Player => 2,
            _ => 1,
        };
        let mut want = vec![DistanceMap::UNREACHABLE; level.tiles().len()];
        let mut heap = BinaryHeap::from([Reverse((0u32, level.index(to)))]);
        want[level.index(to)] = 0;
        while let Some(Reverse((d, c))) = heap.pop() {
            if d > want[c] {
                continue;
            }
            let here = level.pos(c);
            for (dx, dy) in DIRECTIONS {
                let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
                if !level.in_bounds(x, y) {
                    continue;
                }
                let there = Pos::new(x as u16, y as u16);
                let n = level.index(there);
                if walker.step(level, here, there) != Way::Wall && d + cost(n) < want[n] {
                    want[n] = d + cost(n);
                    heap.push(Reverse((want[n], n)));
                }
            }
        }
        want
    }

    /// One walk kept across turns, as the run keeps the player's: its
    /// table of ways and its part are brought up to date, not rebuilt,
    /// while doors open, close and are found, rock is dug and the start
    /// moves; every distance, every "out of reach" and the nearest of a
    /// set of targets must still be what a fresh search gives.
    #[test]
    fn a_walk_kept_across_changes_answers_as_a_fresh_one() {
        use crate::level::Tile;
        use rand::{RngExt, SeedableRng};
        let config = Config::from_ron("(width: 60, height: 30, levels: 1)", "t").unwrap();
        for seed in 0..5u64 {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let mut level = generate_level(&config, seed, 1).unwrap();
            let doors: Vec<usize> = (0..level.tiles().len())
                .filter(|&i| level.tiles()[i].is_door())
                .collect();
            for walker in [
                Walker::DOORWAYS,
                Walker {
                    doors: Doors::Doors,
                    mover: Mover::Player,
                },
            ] {
                let mut kept = LazyWalk::default();
                for turn in 0..30 {
                    match rng.random_range(0..4) {
                        0 if !doors.is_empty() => {
                            let i = doors[rng.random_range(0..doors.len())];
                            let tile = [Tile::Door, Tile::OpenDoor, Tile::SecretDoor]
                                [rng.random_range(0..3)];
                            level.set_door(level.pos(i), tile);
                        }
                        1 => {
                            let i = rng.random_range(0..level.tiles().len());
                            level.dig(level.pos(i), 255);
                        }
                        _ => {}
                    }
                    let open: Vec<usize> = (0..level.tiles().len())
                        .filter(|&i| matches!(level.tiles()[i], Tile::Floor | Tile::Corridor))
                        .collect();
                    let to = level.pos(open[rng.random_range(0..open.len())]);
                    kept.reset_as(&level, to, walker);
                    if turn % 2 == 0 {
                        kept.know_part();
                    }
                    let want = dijkstra(&level, to, walker);
                    let targets: Vec<Pos> = (0..6)
                        .map(|_| level.pos(rng.random_range(0..level.tiles().len())))
                        .collect();
                    let nearest = targets
                        .iter()
                        .map(|&p| (want[level.index(p)], level.index(p), p))
                        .filter(|&(d, _, _)| d != DistanceMap::UNREACHABLE)
                        .min()
                        .map(|(_, _, p)| p);
                    assert_eq!(
                        kept.nearest_among(&level, targets.iter().copied()),
                        nearest,
                        "seed {seed} turn {turn}"
                    );
                    for i in (0..level.tiles().len()).rev() {
                        assert_eq!(
                            kept.at(&level, level.pos(i)),
                            want[i],
                            "{walker:?} seed {seed} turn {turn} cell {i}"
                        );
                        assert_eq!(kept.reaches(&level, i), want[i] != DistanceMap::UNREACHABLE);
                    }
                }
            }
        }
    }

    #[test]
    fn the_lazy_walk_answers_as_the_full_map() {
        let config = Config::from_ron("(width: 80, height: 30, levels: 1)", "t").unwrap();
        for seed in 0..4 {
            let level = generate_level(&config, seed, 1).unwrap();
            let open: Vec<usize> = (0..level.tiles().len())
                .filter(|&i| level.tiles()[i].is_walkable())
                .collect();
            let to = level.pos(open[open.len() / 2]);
            let full = DistanceMap::walking(&level, to);
            let mut lazy = LazyWalk::default();
            lazy.reset(&level, to);
            // Questions in an order that makes the search resume.
            for &i in open.iter().step_by(7).rev() {
                let p = level.pos(i);
                assert_eq!(lazy.downhill(&level, p), full.downhill(&level, p, false));
                assert_eq!(lazy.at(&level, p), full.at(p));
            }
            let mut lazy = LazyWalk::default();
            lazy.reset(&level, to);
            let want = |i: usize| i.is_multiple_of(13);
            let expected = (0..level.tiles().len())
                .filter(|&i| {
                    let d = full.dist[i];
                    want(i) && d != DistanceMap::UNREACHABLE && d != 0
                })
                .map(|i| (full.dist[i], i))
                .min();
            assert_eq!(lazy.nearest(&level, want), expected);
        }
    }
}
