//! Corridors by 002's method: take the rooms in order and join each to the
//! nearest room already joined (Euclidean distance between centres), carving
//! the cheapest path through rock. The order is Prim's over room centres
//! (see [`join_order`]), so each corridor is as local as 002's rule intends.
//!
//! The path search is A* over (cell, arrival direction) states, so that a
//! change of direction can carry a penalty exactly. A step into rock costs
//! `step_cost + hardness_weight * hardness`; a step along an existing
//! corridor costs `open_cost`, close to the softest rock, so later corridors
//! often follow earlier ones for a while and then leave them, which is where
//! loops come from (002: "you need to weight empty space close to the
//! hardness of the softest rock").
//!
//! Rooms are sealed by their ring: every cell within one cell of a room's
//! floor (diagonals included) is closed to corridors, except the door
//! candidates of the two rooms being joined. So a corridor never runs along a
//! room wall, never touches a floor cell diagonally, and enters a room only
//! through a door. A union-find tracks which rooms are joined, as 003's
//! merging room sets do; a room no path can reach leaves the sets apart and
//! the attempt is rejected.

use petgraph::unionfind::UnionFind;
use rand_pcg::Pcg64;

use crate::config::{Config, CorridorStyle};
use crate::geom::{Dir, Pos, Shape};
use crate::level::{Door, Tile};

use super::budget::Budget;

/// Ring mark of a cell next to two or more rooms: never a door.
const SHARED: u16 = u16::MAX;
pub(super) const NO_PARENT: u32 = u32::MAX;
/// `owner` of a cell no corridor of the current style owns.
pub(super) const NO_OWNER: u32 = u32::MAX;

/// Reusable buffers for carving; one per generating thread.
#[derive(Default)]
pub(crate) struct Carver {
    /// 0 = not in a ring, room index + 1, or `SHARED`.
    ring: Vec<u16>,
    /// Door candidates of each room, as cell indices.
    pub(super) candidates: Vec<Vec<u32>>,
    /// Per cell: the cost of a corridor step into it, 0 where corridors may
    /// not go (rooms, rings, border). One lookup decides both questions.
    step: Vec<u16>,
    /// Per search state (cell * 2 + axis of arrival).
    states: Vec<State>,
    /// Per cell: `search` when the cell is a goal of the current search.
    goal: Vec<u32>,
    search: u32,
    queue: BucketQueue,
    starts: Vec<(u32, u32)>,
    path: Vec<u32>,
    rock_cost: Vec<u32>,
    /// Per cell, for the other styles' searches and growth: the search or
    /// attempt that last touched the cell, the cell it was reached from,
    /// and which corridor (style-specific number) owns it.
    pub(super) seen: Vec<u32>,
    pub(super) parent: Vec<u32>,
    pub(super) owner: Vec<u32>,
    pub(super) epoch: u32,
    /// The two frontier stacks of the Straight style's search.
    pub(super) stack_now: Vec<u32>,
    pub(super) stack_later: Vec<u32>,
}

/// Search bookkeeping of one (cell, axis) state, kept together so a visit
/// touches one cache line: `[SEARCH, COST, PARENT]`. SEARCH is the search
/// that last reached the state; the other two are stale unless it is the
/// current one. A plain array rather than a struct so a fresh table can be
/// allocated zeroed, leaving untouched pages unmapped.
type State = [u32; 3];
const SEARCH: usize = 0;
const COST: usize = 1;
const PARENT: usize = 2;

/// What carving needs to know about the level under construction.
pub(crate) struct Site<'a> {
    pub width: usize,
    pub height: usize,
    pub tiles: &'a mut [Tile],
    pub hardness: &'a mut [u8],
    pub room_id: &'a [u16],
    pub shapes: &'a [Shape],
    pub doors: &'a mut [Vec<Door>],
    /// The level's work budget: every search step and growth step spends
    /// from it, and a stage that overspends gives up.
    pub budget: &'a Budget,
}

/// Why carving failed: some room could not be joined to the others (or the
/// work budget ran out, which the caller tells by asking the budget).
#[derive(Debug)]
pub(crate) struct Unjoined;

impl Carver {
    /// Joins every room of the site in the configured style. `rng` is the
    /// corridor stage's own stream (the Tunnel style draws nothing).
    pub(crate) fn carve(
        &mut self,
        cfg: &Config,
        site: &mut Site<'_>,
        rng: &mut Pcg64,
    ) -> Result<(), Unjoined> {
        let n = site.width * site.height;
        // Rings, door candidates and step costs look at every room's
        // dilated bounding box a few times.
        let boxes: usize = site
            .shapes
            .iter()
            .map(|s| {
                let b = s.bounds();
                (usize::from(b.width) + 2) * (usize::from(b.height) + 2)
            })
            .sum();
        if !site.budget.spend(boxes) {
            return Err(Unjoined);
        }
        self.prepare(cfg, site, n);
        if self.seen.len() != n || self.epoch > u32::MAX - 1_000_000 {
            self.seen = vec![0; n];
            self.parent = vec![0; n];
            self.epoch = 0;
        }
        if matches!(cfg.corridors, CorridorStyle::Grid | CorridorStyle::DeadEnd) {
            self.owner.clear();
            self.owner.resize(n, NO_OWNER);
        }
        match cfg.corridors {
            CorridorStyle::Tunnel => self.tunnel(cfg, site),
            CorridorStyle::Straight => super::straight::carve(self, cfg, site),
            CorridorStyle::Grid => super::grid::carve(self, cfg, site, rng),
            CorridorStyle::DeadEnd => super::dead_end::carve(self, cfg, site, rng),
        }
    }

    /// The Tunnel style (002): each room in Prim's order joined to the
    /// nearest joined room by the cheapest path.
    fn tunnel(&mut self, cfg: &Config, site: &mut Site<'_>) -> Result<(), Unjoined> {
        let rooms = site.shapes.len();
        let mut sets = UnionFind::<usize>::new(rooms);
        let centres: Vec<(i64, i64)> = site.shapes.iter().map(centre2).collect();
        let mut joined: Vec<usize> = Vec::with_capacity(rooms);
        let mut order: Vec<usize> = Vec::with_capacity(rooms);
        // Prim's order glances at every pair of rooms, sixteen to a unit.
        if !site.budget.spend(rooms * rooms / 16) {
            return Err(Unjoined);
        }
        for room in join_order(&centres) {
            if joined.is_empty() {
                joined.push(room);
                continue;
            }
            // Nearest joined rooms first; ties go to the earlier room.
            order.clear();
            order.extend(joined.iter().copied());
            if !site.budget.spend(order.len()) {
                return Err(Unjoined);
            }
            let c = centres[room];
            order.sort_by_key(|&j| (dist2(c, centres[j]), j));
            // The nearest room is the goal, as in 002. If a room's ring
            // leaves no way through, the next nearest is tried.
            let target = order
                .iter()
                .take(4)
                .copied()
                .find(|&t| self.join(cfg, site, room, t));
            match target {
                Some(t) => {
                    sets.union(room, t);
                    joined.push(room);
                }
                // A room no search can reach dooms the attempt: stop now
                // rather than flood the level with more failing searches.
                None => return Err(Unjoined),
            }
        }
        debug_assert!((1..rooms).all(|r| sets.equiv(0, r)));
        Ok(())
    }

    fn prepare(&mut self, cfg: &Config, site: &Site<'_>, n: usize) {
        let t = &cfg.tunnel;
        self.rock_cost.clear();
        self.rock_cost.extend((0..256u16).map(|h| {
            let excess = h.saturating_sub(t.soft_below);
            u32::from(t.step_cost) + (f64::from(excess) * t.hardness_weight).round() as u32
        }));
        self.ring.clear();
        self.ring.resize(n, 0);
        // Search marks keep counting up across levels, so these buffers
        // never need clearing: a stale mark never equals a new one.
        if self.states.len() < 2 * n || self.search > u32::MAX - 1_000_000 {
            self.states = vec![[0; 3]; 2 * n];
            self.goal = vec![0; n];
            self.search = 0;
        }
        let w = site.width;

        // Mark rings: every non-room cell within one cell of a room.
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
                Shape::Circle { .. } | Shape::Merged(_) => {
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

        // Corridor step costs, for the Tunnel's search alone (the other
        // styles only ask `free`). Every room cell and ring cell is closed,
        // and so is the border (hardness 255).
        self.step.clear();
        if cfg.corridors == CorridorStyle::Tunnel {
            self.step_costs(site);
        }
        self.door_candidates(site);
    }

    fn step_costs(&mut self, site: &Site<'_>) {
        let w = site.width;
        let table: Vec<u16> = (0..256)
            .map(|h| {
                if h == 255 {
                    0
                } else {
                    self.rock_cost[h].min(u32::from(u16::MAX)) as u16
                }
            })
            .collect();
        self.step
            .extend(site.hardness.iter().map(|&h| table[usize::from(h)]));
        for shape in site.shapes {
            let b = shape.bounds();
            for y in usize::from(b.y) - 1..=usize::from(b.bottom()) + 1 {
                let row = y * w + usize::from(b.x) - 1..=y * w + usize::from(b.right()) + 1;
                match shape {
                    Shape::Rect(_) => self.step[row].fill(0),
                    Shape::Circle { .. } | Shape::Merged(_) => {
                        for c in row {
                            if self.ring[c] != 0 || site.room_id[c] != 0 {
                                self.step[c] = 0;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Door candidates: ring cells of one room, orthogonally next to its
    /// floor, off the border, with a way out into free rock.
    fn door_candidates(&mut self, site: &Site<'_>) {
        let w = site.width;
        self.candidates.resize_with(site.shapes.len(), Vec::new);
        for (i, shape) in site.shapes.iter().enumerate() {
            let id = i as u16 + 1;
            let list = &mut self.candidates[i];
            list.clear();
            let b = shape.bounds();
            for y in usize::from(b.y) - 1..=usize::from(b.bottom()) + 1 {
                for x in usize::from(b.x) - 1..=usize::from(b.right()) + 1 {
                    let c = y * w + x;
                    if self.ring[c] != id || x == 0 || y == 0 || x + 1 == w || y + 1 == site.height
                    {
                        continue;
                    }
                    let orth = [c - w, c + 1, c + w, c - 1];
                    let floor = orth.iter().any(|&o| site.room_id[o] == id);
                    // Off the border: only the border has hardness 255.
                    let outside = orth.iter().any(|&o| {
                        self.ring[o] == 0 && site.room_id[o] == 0 && site.hardness[o] != 255
                    });
                    if floor && outside {
                        list.push(c as u32);
                    }
                }
            }
        }
    }

    /// The cells where a corridor may meet a room: its door candidates, or
    /// only its doors once it has `max_doors`. No new door right beside an
    /// existing one: a corridor arriving there uses that door instead of
    /// opening a wall of doors.
    pub(super) fn door_ends(&self, cfg: &Config, site: &Site<'_>, room: usize) -> Vec<u32> {
        site.budget.spend(self.candidates[room].len());
        if site.doors[room].len() >= usize::from(cfg.rooms.max_doors) {
            site.doors[room]
                .iter()
                .map(|d| (usize::from(d.pos.y) * site.width + usize::from(d.pos.x)) as u32)
                .collect()
        } else {
            self.candidates[room]
                .iter()
                .copied()
                .filter(|&c| self.door_allowed(site, c as usize))
                .collect()
        }
    }

    /// Whether a door candidate may be a door now: it is one already, or
    /// no door stands beside it. (Room fullness is the caller's question.)
    pub(super) fn door_allowed(&self, site: &Site<'_>, c: usize) -> bool {
        let w = site.width;
        site.tiles[c] == Tile::Door
            || [c - w, c + 1, c + w, c - 1]
                .iter()
                .all(|&n| site.tiles[n] != Tile::Door)
    }

    /// Opens one cell of a corridor: a ring cell becomes its room's door,
    /// any other cell corridor, which later corridors may run along.
    pub(super) fn open(&mut self, cfg: &Config, site: &mut Site<'_>, c: usize) {
        match self.ring[c] {
            0 => {
                site.tiles[c] = Tile::Corridor;
                if let Some(step) = self.step.get_mut(c) {
                    *step = cfg.tunnel.open_cost;
                }
            }
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

    /// Whether a corridor may run through the cell: rock or corridor that
    /// is not a room, a ring or the border.
    /// (The same cells the Tunnel's step table prices above zero.)
    pub(super) fn free(&self, site: &Site<'_>, c: usize) -> bool {
        self.ring[c] == 0 && site.room_id[c] == 0 && site.hardness[c] != 255
    }

    /// The room whose ring the cell is in (`None` outside rings or where
    /// rings meet).
    pub(super) fn ring_room(&self, c: usize) -> Option<usize> {
        match self.ring[c] {
            0 | SHARED => None,
            id => Some(usize::from(id) - 1),
        }
    }

    /// Carves the cheapest corridor from `from` to `to`; false if none exists.
    fn join(&mut self, cfg: &Config, site: &mut Site<'_>, from: usize, to: usize) -> bool {
        let sources = self.door_ends(cfg, site, from);
        let goals = self.door_ends(cfg, site, to);
        if sources.is_empty() || goals.is_empty() {
            return false;
        }
        // Try doors on the walls facing the target first; only if none of
        // them leads anywhere, any door of the room.
        let Some(goal_state) = self
            .search(cfg, site, &sources, &goals, to, true)
            .or_else(|| self.search(cfg, site, &sources, &goals, to, false))
        else {
            return false;
        };

        // Walk back from the goal and open the path.
        self.path.clear();
        let mut s = goal_state;
        while s != NO_PARENT {
            self.path.push(s >> 1);
            s = self.states[s as usize][PARENT];
        }
        let path = std::mem::take(&mut self.path);
        for &c in &path {
            self.open(cfg, site, c as usize);
        }
        self.path = path;
        true
    }

    /// A* from any source to any goal; returns the goal state reached.
    ///
    /// States are (cell, axis of arrival): a turn is a change of axis, and
    /// stepping straight back to the previous cell is never allowed, so two
    /// states a cell price turns exactly. The queue is a ring of buckets
    /// keyed by f = g + h (Dial's algorithm): costs are small integers and
    /// f never decreases under a consistent heuristic, so push and pop are
    /// O(1) and the order among equal keys is fixed (last in, first out).
    fn search(
        &mut self,
        cfg: &Config,
        site: &Site<'_>,
        sources: &[u32],
        goals: &[u32],
        to: usize,
        facing_only: bool,
    ) -> Option<u32> {
        let t = &cfg.tunnel;
        let w = site.width;
        let open_cost = u32::from(t.open_cost);
        let turn = u32::from(t.turn_penalty);
        let min_step = open_cost.min(self.rock_cost[1]);
        self.search += 1;
        let mark = self.search;
        for &g in goals {
            self.goal[g as usize] = mark;
        }
        // Heuristic: orthogonal steps to the target's ring at the cheapest
        // step cost, plus one turn when the target lies off the current
        // axis. Consistent, so the first goal popped is the cheapest.
        let b = site.shapes[to].bounds();
        let (bx0, by0) = (i32::from(b.x) - 1, i32::from(b.y) - 1);
        let (bx1, by1) = (i32::from(b.right()) + 1, i32::from(b.bottom()) + 1);
        let h = |x: i32, y: i32, axis: usize| -> u32 {
            let dx = (bx0 - x).max(x - bx1).max(0);
            let dy = (by0 - y).max(y - by1).max(0);
            let off_axis = if axis == HORIZONTAL { dy > 0 } else { dx > 0 };
            (dx + dy) as u32 * min_step + if off_axis { turn } else { 0 }
        };
        // Sources and goals are ring cells, closed to passing corridors;
        // entering one costs like rock, or like open space if already a door.
        let rock = &self.rock_cost;
        let end_cost = |c: usize| -> u32 {
            match site.tiles[c] {
                Tile::Rock => rock[usize::from(site.hardness[c])],
                _ => open_cost,
            }
        };

        // Doors face the room they lead to: a source more than a few steps
        // farther from the target than the nearest one would only start a
        // corridor that walks around its own room.
        let nearest = sources
            .iter()
            .map(|&s| {
                let (x, y) = xy(s as usize, w);
                h(x, y, HORIZONTAL).min(h(x, y, VERTICAL))
            })
            .min()
            .unwrap_or(0);
        let slack = if facing_only {
            SOURCE_SLACK * min_step
        } else {
            u32::MAX - nearest
        };
        self.starts.clear();
        for &s in sources {
            let c = s as usize;
            let (x, y) = xy(c, w);
            if h(x, y, HORIZONTAL).min(h(x, y, VERTICAL)) > nearest + slack {
                continue;
            }
            // Leave the room straight away from the floor.
            let out = Dir::ALL
                .into_iter()
                .find(|&d| site.room_id[offset(c, d.opposite(), w)] != 0)
                .unwrap_or(Dir::North);
            let state = c * 2 + axis_of(out);
            let g = end_cost(c);
            self.states[state] = [mark, g, NO_PARENT];
            self.starts.push((g + h(x, y, axis_of(out)), state as u32));
        }

        // The ring of buckets must span every key outstanding at once: the
        // spread of the starting keys, plus the most one step can add to f
        // (a step, a turn, and the heuristic's turn term switching on).
        let lowest = self.starts.iter().map(|s| s.0).min().unwrap_or(0);
        let highest = self.starts.iter().map(|s| s.0).max().unwrap_or(0);
        let max_step = self.rock_cost[254].max(open_cost);
        let window = u64::from(highest - lowest)
            + u64::from(max_step)
            + u64::from(min_step)
            + 2 * u64::from(turn)
            + 1;
        let ring = (window as usize).next_power_of_two();
        // Clearing the ring costs a look at each bucket.
        if !site.budget.spend(ring / 16 + goals.len() + sources.len()) {
            return None;
        }
        self.queue.reset(ring, lowest);
        for &(f, state) in &self.starts {
            self.queue.push(f, state);
        }

        // Steps are counted here and spent at the end, to keep the loop tight.
        let allowed = site.budget.left();
        let mut steps = 0usize;
        let found = loop {
            let Some((f, state)) = self.queue.pop() else {
                break None;
            };
            steps += 1;
            if steps > allowed {
                break None;
            }
            let state = state as usize;
            let (c, axis) = (state >> 1, state & 1);
            let g = self.states[state][COST];
            let (x, y) = xy(c, w);
            if g + h(x, y, axis) != f {
                continue; // superseded by a cheaper push
            }
            if self.goal[c] == mark {
                break Some(state as u32);
            }
            let came_from = match self.states[state][PARENT] {
                NO_PARENT => usize::MAX,
                p => p as usize >> 1,
            };
            // Only sources are ring cells at this point: a source may not step
            // straight into a goal, so every door touches a corridor cell.
            let at_source = self.ring[c] != 0;
            for nd in Dir::ALL {
                let nc = offset(c, nd, w);
                if nc == came_from {
                    continue;
                }
                let step = match u32::from(self.step[nc]) {
                    0 if self.goal[nc] == mark && !at_source => end_cost(nc),
                    0 => continue,
                    step => step,
                };
                let n_axis = axis_of(nd);
                let ng = g + step + if n_axis != axis { turn } else { 0 };
                if ng > COST_LIMIT {
                    // Absurdly long and costly; treat it as no way through
                    // rather than let the sums wrap.
                    continue;
                }
                let ns = nc * 2 + n_axis;
                let seen = &mut self.states[ns];
                if seen[SEARCH] != mark || ng < seen[COST] {
                    *seen = [mark, ng, state as u32];
                    let nf = ng + h(x + nd.dx(), y + nd.dy(), n_axis);
                    self.queue.push(nf, ns as u32);
                }
            }
        };
        site.budget.spend(steps);
        found
    }
}

/// A monotone priority queue over small integer keys (Dial's algorithm):
/// a ring of buckets, with a bitmap to skip empty ones. Keys pushed are never
/// below the last key popped, nor more than the ring's length above it.
#[derive(Default)]
struct BucketQueue {
    buckets: Vec<Vec<u32>>,
    occupied: Vec<u64>,
    len: usize,
    cursor: u32,
}

impl BucketQueue {
    /// Empties the queue for keys from `lowest` up to `lowest + ring_len`.
    fn reset(&mut self, ring_len: usize, lowest: u32) {
        let ring_len = ring_len.max(64);
        if self.buckets.len() != ring_len {
            self.buckets.resize_with(ring_len, Vec::new);
            self.occupied = vec![0; ring_len / 64];
        }
        for b in &mut self.buckets {
            b.clear();
        }
        self.occupied.fill(0);
        self.len = 0;
        self.cursor = lowest;
    }

    fn push(&mut self, key: u32, value: u32) {
        assert!(
            key >= self.cursor && ((key - self.cursor) as usize) < self.buckets.len(),
            "key {key} outside the window at {} of {}",
            self.cursor,
            self.buckets.len()
        );
        let i = key as usize & (self.buckets.len() - 1);
        self.buckets[i].push(value);
        self.occupied[i / 64] |= 1 << (i % 64);
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u32, u32)> {
        if self.len == 0 {
            return None;
        }
        let mask = self.buckets.len() - 1;
        loop {
            let i = self.cursor as usize & mask;
            if let Some(v) = self.buckets[i].pop() {
                if self.buckets[i].is_empty() {
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
                self.len -= 1;
                return Some((self.cursor, v));
            }
            // Jump to the next occupied bucket, wrapping around the ring.
            let words = self.occupied.len();
            let (w0, b0) = (i / 64, i % 64);
            let mut skip = 0usize;
            let first = self.occupied[w0] & (!0u64 << b0);
            if first != 0 {
                skip = first.trailing_zeros() as usize - b0;
            } else {
                skip += 64 - b0;
                for k in 1..=words {
                    let word = self.occupied[(w0 + k) % words];
                    if word != 0 {
                        skip += word.trailing_zeros() as usize;
                        break;
                    }
                    skip += 64;
                }
            }
            self.cursor += skip as u32;
        }
    }
}

const SOURCE_SLACK: u32 = 4;

/// Path costs stay below this, so `g + step + turn + h` never overflows:
/// each of those terms is at most a few hundred thousand (the config caps
/// costs) and the level at most 2000 cells a side.
const COST_LIMIT: u32 = u32::MAX / 4;
const HORIZONTAL: usize = 0;
const VERTICAL: usize = 1;

pub(super) fn axis_of(d: Dir) -> usize {
    match d {
        Dir::East | Dir::West => HORIZONTAL,
        Dir::North | Dir::South => VERTICAL,
    }
}

/// A cell's coordinates, with one 32-bit division.
pub(super) fn xy(c: usize, w: usize) -> (i32, i32) {
    let y = c as u32 / w as u32;
    ((c as u32 - y * w as u32) as i32, y as i32)
}

/// The neighbour index of an interior cell; callers only step from cells
/// that are off the border.
pub(super) fn offset(c: usize, d: Dir, w: usize) -> usize {
    match d {
        Dir::North => c - w,
        Dir::South => c + w,
        Dir::East => c + 1,
        Dir::West => c - 1,
    }
}

fn touches(room_id: &[u16], w: usize, x: usize, y: usize, id: u16) -> bool {
    (y - 1..=y + 1).any(|ny| (x - 1..=x + 1).any(|nx| room_id[ny * w + nx] == id))
}

/// The order rooms are joined in: room 0 first, then always the room
/// nearest (by centre) to any room already taken, ties to the lower index.
/// This is Prim's order over the room centres. Joining in placement order
/// instead would make the early corridors cross the whole level (room 1 is
/// anywhere relative to room 0) and cost the search most of its time, for
/// corridors that 002's nearest-room rule means to be local anyway.
pub(super) fn join_order(centres: &[(i64, i64)]) -> Vec<usize> {
    let n = centres.len();
    let mut order = Vec::with_capacity(n);
    let mut best = vec![(i64::MAX, usize::MAX); n];
    let mut taken = vec![false; n];
    let mut next = 0;
    for _ in 0..n {
        taken[next] = true;
        order.push(next);
        let mut pick = (i64::MAX, usize::MAX);
        for r in 0..n {
            if taken[r] {
                continue;
            }
            let d = dist2(centres[next], centres[r]);
            if d < best[r].0 {
                best[r] = (d, next);
            }
            if (best[r].0, r) < (pick.0, pick.1) {
                pick = (best[r].0, r);
            }
        }
        next = pick.1;
    }
    order
}

/// Twice the centre of the bounding box, so centres stay integral.
pub(super) fn centre2(s: &Shape) -> (i64, i64) {
    let b = s.bounds();
    (
        2 * i64::from(b.x) + i64::from(b.width) - 1,
        2 * i64::from(b.y) + i64::from(b.height) - 1,
    )
}

pub(super) fn dist2(a: (i64, i64), b: (i64, i64)) -> i64 {
    (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2)
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use proptest::prelude::*;

    use super::*;
    use crate::generate::seed::{Stage, stage_rng};
    use crate::generate::{hardness, rooms};

    /// Plain Dijkstra over the same (cell, axis) states and the same rules,
    /// with a binary heap: the reference the bucket-queue A* must match.
    fn reference(
        carver: &Carver,
        cfg: &Config,
        site: &Site<'_>,
        sources: &[u32],
        goals: &[u32],
    ) -> Option<u32> {
        let w = site.width;
        let t = &cfg.tunnel;
        let (open, turn) = (u32::from(t.open_cost), u32::from(t.turn_penalty));
        let end_cost = |c: usize| match site.tiles[c] {
            Tile::Rock => carver.rock_cost[usize::from(site.hardness[c])],
            _ => open,
        };
        let mut best = vec![u32::MAX; 2 * site.tiles.len()];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            let c = s as usize;
            let out = Dir::ALL
                .into_iter()
                .find(|&d| site.room_id[offset(c, d.opposite(), w)] != 0)
                .unwrap_or(Dir::North);
            let state = c * 2 + axis_of(out);
            best[state] = best[state].min(end_cost(c));
            heap.push(Reverse((end_cost(c), state)));
        }
        while let Some(Reverse((g, state))) = heap.pop() {
            if g > best[state] {
                continue;
            }
            let (c, axis) = (state >> 1, state & 1);
            if goals.contains(&(c as u32)) {
                return Some(g);
            }
            for nd in Dir::ALL {
                let nc = offset(c, nd, w);
                let step = match u32::from(carver.step[nc]) {
                    0 if goals.contains(&(nc as u32)) && carver.ring[c] == 0 => end_cost(nc),
                    0 => continue,
                    s => s,
                };
                let ng = g + step + if axis_of(nd) != axis { turn } else { 0 };
                let ns = nc * 2 + axis_of(nd);
                if ng < best[ns] {
                    best[ns] = ng;
                    heap.push(Reverse((ng, ns)));
                }
            }
        }
        None
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// The A* finds a path exactly when one exists, and its cost is the
        /// cheapest, whatever the costs (the extremes once broke the queue).
        #[test]
        fn search_cost_equals_dijkstra(
            seed in any::<u64>(),
            step in prop_oneof![Just(1u16), Just(100), 1u16..=200, Just(10_000)],
            open in prop_oneof![Just(1u16), Just(100), 1u16..=200, Just(10_000)],
            turn in prop_oneof![Just(0u16), 0u16..=200, Just(10_000)],
            soft in 0u16..=254,
            weight in prop_oneof![Just(0.0f64), 0.0f64..=16.0],
        ) {
            let mut cfg = Config::from_ron("(width: 70, height: 40, rooms: (count: (min: 2, max: 8)))", "t").unwrap();
            cfg.tunnel.step_cost = step;
            cfg.tunnel.open_cost = open;
            cfg.tunnel.turn_penalty = turn;
            cfg.tunnel.soft_below = soft;
            cfg.tunnel.hardness_weight = weight;
            let (w, h) = (70usize, 40usize);
            let mut hard = vec![0u8; w * h];
            hardness::fill(&mut hard, &mut Vec::new(), w, h, &cfg.hardness, &mut stage_rng(seed, 1, 0, Stage::Hardness));
            let mut room_id = Vec::new();
            let budget = Budget::new(u64::MAX);
            let shapes = rooms::place(&cfg, &mut stage_rng(seed, 1, 0, Stage::Rooms), &mut room_id, &budget);
            prop_assume!(shapes.len() >= 2);
            let mut tiles = vec![Tile::Rock; w * h];
            for (c, &id) in room_id.iter().enumerate() {
                if id != 0 {
                    tiles[c] = Tile::Floor;
                    hard[c] = 0;
                }
            }
            let mut doors = vec![Vec::new(); shapes.len()];
            let site = Site { width: w, height: h, tiles: &mut tiles, hardness: &mut hard, room_id: &room_id, shapes: &shapes, doors: &mut doors, budget: &budget };
            let mut carver = Carver::default();
            carver.prepare(&cfg, &site, w * h);
            for (from, to) in [(1, 0), (0, 1)] {
                let sources = carver.candidates[from].clone();
                let goals = carver.candidates[to].clone();
                let got = carver
                    .search(&cfg, &site, &sources, &goals, to, false)
                    .map(|state| carver.states[state as usize][COST]);
                let want = reference(&carver, &cfg, &site, &sources, &goals);
                prop_assert_eq!(got, want);
            }
        }
    }
}
