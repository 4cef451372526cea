//! The `Tunnel` corridor style, 002's method: take the rooms in order and
//! join each to the nearest room already joined (Euclidean distance between
//! centres), carving the cheapest path through rock. The order is Prim's
//! over room centres (see [`Prim`]), so each corridor is as local as
//! 002's rule intends.
//!
//! The path search is A* over (cell, arrival direction) states, so that a
//! change of direction can carry a penalty exactly. A step into rock costs
//! `step_cost + hardness_weight * hardness`; a step along an existing
//! corridor costs `open_cost`, close to the softest rock, so later corridors
//! often follow earlier ones for a while and then leave them, which is where
//! loops come from (002: "you need to weight empty space close to the
//! hardness of the softest rock").
//!
//! Where corridors and doors may go is [`site`](super::site)'s to say; the
//! search prices only the cells it calls free, and enters rings only at the
//! door ends it gives. Each room is joined to one already joined, so the
//! joined rooms stay one piece (003's merging room sets, kept as a list);
//! a room no path can reach rejects the attempt.

mod room_loops;

use crate::config::Config;
use crate::geom::Dir;
use crate::grid_search::{BucketQueue, RowOf, step as offset, xy};
use crate::level::Tile;

use super::Unjoined;
use super::join::{Nearest, Prim, centre2, dist2};
use super::site::{Rules, Site};

/// The Tunnel's scratch buffers, reused from level to level.
#[derive(Default)]
pub(super) struct Tunnel {
    /// Per cell: the cost of a corridor step into it, 0 where corridors may
    /// not go (rooms, rings, border). One lookup decides both questions.
    step: Vec<u16>,
    /// Per search state (cell * 2 + axis of arrival): the cheapest cost
    /// found so far in the current search, `UNSEEN` if not reached. Four
    /// bytes a state, so the table of a 150x150 level stays in a core's
    /// cache: the search is bound by memory, not arithmetic.
    cost: Vec<u32>,
    /// Per search state: how it was reached, valid where `cost` is set:
    /// the step's direction (`Dir` as 0 to 3) shifted left once, or'd with
    /// the axis of the state it came from; `FROM_SOURCE` for a source.
    came: Vec<u8>,
    /// The states the current search gave a cost, put back to `UNSEEN` when
    /// the next one starts.
    touched: Vec<u32>,
    /// Per cell, a bit (cell `c` is bit `c % 64` of word `c / 64`): a goal
    /// of the current search. Asked at every state taken; a bit a cell
    /// keeps a 1000x1000 level's table (125 KB) in a core's cache, where a
    /// byte a cell (1 MB) did not.
    goal: Vec<u64>,
    goal_cells: Vec<u32>,
    /// The search's queue: shared with the simulation's tunnelling map,
    /// since a ring of buckets is already the fastest queue for small
    /// integer costs.
    queue: BucketQueue,
    starts: Vec<(u32, u32)>,
    /// Per source of the current search: its estimate's steps, and the
    /// turn it owes on each axis.
    source_estimates: Vec<(u32, [u32; 2])>,
    /// The door ends a join starts from and goes to.
    sources: Vec<u32>,
    goals: Vec<u32>,
    path: Vec<u32>,
    rock_cost: Vec<u32>,
    /// Which cells corridors may pass through fixes which door ends can
    /// reach which for the whole level (corridors only lower step costs),
    /// so once one search has failed for want of any way through, the
    /// connected regions of passable cells answer that question for every
    /// later search before it starts (see [`Regions`]).
    regions: Regions,
    /// Room loops' own scratch.
    loops: room_loops::Scratch,
    /// The lists of `carve`: each room's doubled centre, the join order
    /// (Prim's, from every pair or, past `INDEXED_ABOVE` rooms, from an
    /// index), the rooms joined so far, the nearest of them to try, and
    /// the index of joined rooms on levels of many.
    centres: Vec<(i64, i64)>,
    prim: Prim,
    prim_index: super::prim::PrimIndex,
    order: Vec<usize>,
    joined: Vec<usize>,
    nearest: Vec<usize>,
    /// Each room's nearest room earlier in Prim's order, from
    /// [`Prim::order`] or, on levels with an index, `PrimIndex::order`.
    first: Vec<usize>,
    index: Option<Nearest>,
    /// Tests move the dry check (see [`DRY_CHECK_CELLS`]) to make every
    /// search stop at it.
    #[cfg(test)]
    dry_check_at: Option<usize>,
}

/// No state of the current search.
const UNSEEN: u32 = u32::MAX;
/// A `came` of a source state: the search started there.
const FROM_SOURCE: u8 = 0x7f;
/// Or'd into a state's `came` once the search has taken it.
const CLOSED: u8 = 0x80;

impl Tunnel {
    /// Each room in Prim's order joined to the nearest joined room by the
    /// cheapest path.
    pub(super) fn carve(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
    ) -> Result<(), Unjoined> {
        self.prepare(cfg, rules, site);
        // The lists are lent to the tree and put back, joined or not.
        let mut order = std::mem::take(&mut self.order);
        let mut joined = std::mem::take(&mut self.joined);
        let mut first = std::mem::take(&mut self.first);
        let mut index = self.index.take();
        let lists = (&mut order, &mut joined, &mut first);
        let tree = self.tree(cfg, rules, site, lists, &mut index);
        (self.order, self.joined, self.first, self.index) = (order, joined, first, index);
        tree?;
        // Then the loops 002 asks for: corridors between rooms near in
        // space but far apart by walking (see `room_loops`).
        self.room_loops(cfg, rules, site, &cfg.room_loops);
        Ok(())
    }

    /// The tree of corridors: each room in Prim's order joined to the
    /// nearest joined room it can reach.
    fn tree(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        (order, joined, first): (&mut Vec<usize>, &mut Vec<usize>, &mut Vec<usize>),
        index: &mut Option<Nearest>,
    ) -> Result<(), Unjoined> {
        let rooms = site.shapes.len();
        self.centres.clear();
        self.centres.extend(site.shapes.iter().map(centre2));
        joined.clear();
        // Prim's order is charged as every pair of rooms, sixteen to a unit,
        // as when it looked at every pair: the same charge keeps every
        // level's work, and so which levels fit the budget, as it was.
        if !site.budget.spend(rooms * rooms / 16) {
            return Err(Unjoined);
        }
        // Levels of hundreds of rooms find the nearest joined rooms in an
        // index of squares; small ones just look at every joined room.
        let mut index = if rooms > INDEXED_ABOVE {
            let index = index.get_or_insert_with(Nearest::default);
            index.reset(site.width, site.height);
            Some(index)
        } else {
            None
        };
        // Prim's order also gives each room's nearest joined room, the one
        // it tries first.
        if rooms > INDEXED_ABOVE {
            self.prim_index
                .order(&self.centres, site.width, site.height, order, first);
        } else {
            self.prim.order(&self.centres, order, first);
        }
        for &room in order.iter() {
            if joined.is_empty() {
                joined.push(room);
                if let Some(index) = &mut index {
                    index.insert(room, self.centres[room]);
                }
                continue;
            }
            if !site.budget.spend(joined.len()) {
                return Err(Unjoined);
            }
            // The nearest joined room first (ties to the lower index), as
            // Prim's order found it; most rooms join it.
            if self.join(cfg, rules, site, room, first[room]) {
                joined.push(room);
                if let Some(index) = &mut index {
                    index.insert(room, self.centres[room]);
                }
                continue;
            }
            // Then the next nearest joined rooms in order. Only the four
            // nearest are ever tried, so only they are put in order (keys
            // are unique: the first four of all joined rooms sorted).
            let c = self.centres[room];
            let mut nearest = std::mem::take(&mut self.nearest);
            match &index {
                Some(index) => index.nearest(c, &self.centres, NEAREST_TRIED, &mut nearest),
                None => {
                    // One pass keeping the four least keys in order, each
                    // key worked out once (a selection and a sort worked
                    // it out at every comparison).
                    let mut least = [(i64::MAX, usize::MAX); NEAREST_TRIED];
                    for &j in joined.iter() {
                        let key = (dist2(c, self.centres[j]), j);
                        if key < least[NEAREST_TRIED - 1] {
                            let at = least.partition_point(|&k| k < key);
                            least.copy_within(at..NEAREST_TRIED - 1, at + 1);
                            least[at] = key;
                        }
                    }
                    nearest.clear();
                    nearest.extend(least.iter().take(joined.len()).map(|&(_, j)| j));
                }
            }
            // The nearest room is the goal, as in 002. If a room's ring
            // leaves no way through, the next nearest is tried.
            debug_assert_eq!(nearest.first(), Some(&first[room]));
            let target = nearest
                .iter()
                .copied()
                .skip(1)
                .find(|&t| self.join(cfg, rules, site, room, t));
            self.nearest = nearest;
            if target.is_none() {
                // A room no search can reach dooms the attempt: stop now
                // rather than flood the level with more failing searches.
                return Err(Unjoined);
            }
            joined.push(room);
            if let Some(index) = &mut index {
                index.insert(room, self.centres[room]);
            }
        }
        // Every room joined one already joined: the level is one piece.
        debug_assert_eq!(joined.len(), rooms);
        Ok(())
    }

    /// The cost tables of this level: rock by hardness, and every cell's
    /// step cost. Every room cell and ring cell is closed, and so is the
    /// border (hardness 255).
    fn prepare(&mut self, cfg: &Config, rules: &Rules, site: &Site<'_>) {
        let n = site.width * site.height;
        super::site::rock_costs(cfg, &mut self.rock_cost);
        // Each search puts back what it touched when the next one starts,
        // so these buffers are filled once, for the largest level yet.
        if self.cost.len() < 2 * n {
            self.cost = vec![UNSEEN; 2 * n];
            self.came = vec![FROM_SOURCE; 2 * n];
            self.goal = vec![0; n.div_ceil(64)];
            self.touched.clear();
            self.goal_cells.clear();
        }
        self.step.clear();
        self.step_costs(cfg, rules, site);
        self.regions.forget();
    }

    fn step_costs(&mut self, cfg: &Config, rules: &Rules, site: &Site<'_>) {
        let w = site.width;
        let table: [u16; 256] = std::array::from_fn(|h| {
            if h == 255 {
                0
            } else {
                self.rock_cost[h].min(u32::from(u16::MAX)) as u16
            }
        });
        // Rock's cost is a line in its hardness above `soft_below`; where
        // 16-bit fixed point gives every entry of the table exactly (the
        // shipped costs, and weights in 256ths whose sums fit 16 bits), it
        // is worked out eight
        // cells at a time, not looked up a cell at a time.
        match RockLine::of(cfg, &table) {
            Some(line) => self
                .step
                .extend(site.hardness.iter().map(|&h| line.cost(h))),
            None => self
                .step
                .extend(site.hardness.iter().map(|&h| table[usize::from(h)])),
        }
        for shape in site.shapes {
            let b = shape.bounds();
            for y in usize::from(b.y) - 1..=usize::from(b.bottom()) + 1 {
                let row = y * w + usize::from(b.x) - 1..=y * w + usize::from(b.right()) + 1;
                match shape {
                    crate::geom::Shape::Rect(_) => self.step[row].fill(0),
                    crate::geom::Shape::Circle { .. }
                    | crate::geom::Shape::Merged(_)
                    | crate::geom::Shape::Vault(_)
                    | crate::geom::Shape::Region(_) => {
                        for c in row {
                            if rules.in_ring(c) || site.room_id[c] != 0 {
                                self.step[c] = 0;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Carves the cheapest corridor from `from` to `to`; false if none exists.
    fn join(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        from: usize,
        to: usize,
    ) -> bool {
        let (mut sources, mut goals) = (
            std::mem::take(&mut self.sources),
            std::mem::take(&mut self.goals),
        );
        rules.door_ends(cfg, site, from, &mut sources);
        rules.door_ends(cfg, site, to, &mut goals);
        // Try doors on the walls facing the target first; only if none of
        // them leads anywhere, any door of the room.
        let found = if sources.is_empty() || goals.is_empty() {
            None
        } else {
            self.search(cfg, rules, site, &sources, &goals, to, true)
                .or_else(|| self.search(cfg, rules, site, &sources, &goals, to, false))
        };
        (self.sources, self.goals) = (sources, goals);
        let Some(goal_state) = found else {
            return false;
        };

        // Walk back from the goal and open the path.
        self.trace_path(goal_state, site.width);
        let path = std::mem::take(&mut self.path);
        for &c in &path {
            let c = c as usize;
            rules.open(site, c);
            // Later corridors may run along this one, at the open cost.
            if !rules.in_ring(c) {
                // Passable already: no closed cell opens, so the regions
                // of passable cells stand (see `Regions`).
                debug_assert_ne!(self.step[c], 0);
                self.step[c] = cfg.tunnel.open_cost;
            }
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
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &Site<'_>,
        sources: &[u32],
        goals: &[u32],
        to: usize,
        facing_only: bool,
    ) -> Option<u32> {
        // The estimate counts steps to the target's door ends: to the
        // nearest of four boxes, each holding the door ends on one side of
        // the ring (see [`Estimate`]); until generator revision 5, to the
        // ring. Each kind of estimate has a search of its own, so the
        // ring's pays nothing for the four lanes.
        let b = site.shapes[to].bounds();
        let ring = Box4 {
            x0: i32::from(b.x) - 1,
            y0: i32::from(b.y) - 1,
            x1: i32::from(b.right()) + 1,
            y1: i32::from(b.bottom()) + 1,
        };
        let w = site.width;
        if cfg.revisions.generator >= 5 {
            let sides = Estimate::by_sides(ring, goals.iter().map(|&g| xy(g as usize, w)));
            self.search_by(cfg, rules, site, sources, goals, ring, sides, facing_only)
        } else {
            let est = Estimate::ring(ring);
            self.search_by(cfg, rules, site, sources, goals, ring, est, facing_only)
        }
    }

    /// [`Tunnel::search`] with the estimate `est`.
    #[allow(clippy::too_many_arguments)]
    fn search_by<const LANES: usize>(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &Site<'_>,
        sources: &[u32],
        goals: &[u32],
        ring: Box4,
        est: Estimate<LANES>,
        facing_only: bool,
    ) -> Option<u32> {
        let t = &cfg.tunnel;
        let w = site.width;
        if let Some(work) = self.regions.apart(w, sources.iter().copied(), goals) {
            // No path exists, so the search would only have searched every
            // cell it could reach: charge about that, and skip it.
            site.budget.spend(work);
            return None;
        }
        let open_cost = u32::from(t.open_cost);
        let turn = u32::from(t.turn_penalty);
        let min_step = open_cost.min(self.rock_cost[1]);
        // Forget the last search: only the states and goals it touched.
        for &state in &self.touched {
            self.cost[state as usize] = UNSEEN;
        }
        self.touched.clear();
        for &g in &self.goal_cells {
            self.goal[g as usize / 64] = 0;
        }
        self.goal_cells.clear();
        for &g in goals {
            self.goal[g as usize / 64] |= 1 << (g % 64);
            self.goal_cells.push(g);
        }
        // Heuristic: orthogonal steps to the target's door ends (as `est`
        // counts them) at the cheapest step cost, plus one turn when the
        // target's ring lies off the current axis. Consistent, so the
        // first goal popped is the cheapest.
        // A source's estimate: its steps, and the turn owed on each axis.
        let source_estimate = |c: usize| -> (u32, [u32; 2]) {
            let (x, y) = xy(c, w);
            let owed = |off: bool| if off { turn } else { 0 };
            let steps = est.steps(est.dx(x), est.dy(y)) * min_step;
            (steps, [owed(ring.off_y(y)), owed(ring.off_x(x))])
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
        // Each source's estimate, worked out once: its steps and the turn
        // it owes on each axis.
        let mut estimates = std::mem::take(&mut self.source_estimates);
        estimates.clear();
        estimates.extend(sources.iter().map(|&s| source_estimate(s as usize)));
        // On the better of its axes.
        let near = |(steps, owed): (u32, [u32; 2])| steps + owed[0].min(owed[1]);
        let nearest = estimates.iter().map(|&e| near(e)).min().unwrap_or(0);
        let slack = if facing_only {
            source_slack(cfg) * min_step
        } else {
            u32::MAX - nearest
        };
        self.starts.clear();
        for (&s, &(steps, owed)) in sources.iter().zip(&estimates) {
            if near((steps, owed)) > nearest + slack {
                continue;
            }
            let c = s as usize;
            // Leave the room straight away from the floor.
            let out = rules.way_out(cfg, site, c);
            let axis = axis_of(out);
            let state = c * 2 + axis;
            let g = end_cost(c);
            if self.cost[state] == UNSEEN {
                self.touched.push(state as u32);
            }
            self.cost[state] = g;
            self.came[state] = FROM_SOURCE;
            self.starts.push((g + steps + owed[axis], state as u32));
        }
        self.source_estimates = estimates;

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
        let buckets = (window as usize).next_power_of_two();
        // Clearing the ring costs a look at each bucket.
        if !site
            .budget
            .spend(buckets / 16 + goals.len() + sources.len())
        {
            return None;
        }
        self.queue.reset(buckets, lowest);
        for &(f, state) in &self.starts {
            self.queue.push(f, state);
        }

        // Steps are counted here and spent at the end, to keep the loop tight.
        let allowed = site.budget.left();
        // A search with no way through takes every state it can reach
        // before it gives up: most of the level, where a search that finds
        // its goal takes a few dozen. Until the level's regions are known,
        // a search that has taken more states than labelling them would
        // cost stops once to label them and asks whether its sources and
        // goals share one; the answer is the search's own, sooner.
        let check_at = if self.regions.ready {
            usize::MAX
        } else {
            (w * site.height / DRY_CHECK_CELLS).max(DRY_CHECK_LEAST)
        };
        #[cfg(test)]
        let check_at = match self.dry_check_at {
            Some(at) if !self.regions.ready => at,
            _ => check_at,
        };
        let mut limit = allowed.min(check_at);
        let mut steps = 0usize;
        // The tables as plain slices: they are disjoint, so writing one
        // never makes the compiler reload another.
        let (cost, came, touched, queue) = (
            &mut self.cost[..],
            &mut self.came[..],
            &mut self.touched,
            &mut self.queue,
        );
        let (step_cost, goals_bits) = (&self.step[..], &self.goal[..]);
        let goal = |c: usize| goals_bits[c / 64] >> (c % 64) & 1 != 0;
        let rows = RowOf::new(w);
        // The steps to the nearest box from the lanes of x and of y.
        let to_goals = |dx: [i16; LANES], dy: [i16; LANES]| est.steps(dx, dy) * min_step;
        // The turn a state still owes: a horizontal one if the ring is off
        // its row, a vertical one if it is off its column.
        let owed = |off: bool| if off { turn } else { 0 };
        let found = loop {
            let Some((_, state)) = queue.pop() else {
                break None;
            };
            steps += 1;
            if steps > limit {
                if steps > allowed {
                    break None;
                }
                limit = allowed;
                self.regions.label(&self.step, w, site.height);
                let started = self.starts.iter().map(|&(_, state)| state >> 1);
                if let Some(work) = self.regions.apart(w, started, goals) {
                    site.budget.spend(work.saturating_sub(steps));
                    break None;
                }
            }
            let state = state as usize;
            // A state is taken once, at its cheapest push: under a
            // consistent estimate that push comes out first, and any
            // other push of the state is a costlier one superseded.
            let code = came[state];
            if code & CLOSED != 0 {
                continue;
            }
            came[state] = code | CLOSED;
            let (c, axis) = (state >> 1, state & 1);
            let g = cost[state];
            if goal(c) {
                break Some(state as u32);
            }
            let (x, y) = rows.xy(c);
            let (xi, yi) = (x as i32, y as i32);
            let (dx, dy) = (est.dx(xi), est.dy(yi));
            let (off_x, off_y) = (ring.off_x(xi), ring.off_y(yi));
            // The direction it came by, whose reverse it may not step.
            let back = match code {
                FROM_SOURCE => usize::MAX,
                code => usize::from(code >> 1) ^ 2,
            };
            // One neighbour: its direction's index, cell, axis, and its
            // estimate (evaluated only if it is pushed).
            macro_rules! visit {
                ($d:expr, $nc:expr, $n_axis:expr, $estimate:expr) => {{
                    let (d, nc, n_axis): (usize, usize, usize) = ($d, $nc, $n_axis);
                    'visit: {
                        if d == back {
                            break 'visit;
                        }
                        let step = match u32::from(step_cost[nc]) {
                            // Only sources are ring cells at this point: a source
                            // may not step straight into a goal, so every door
                            // touches a corridor cell.
                            0 if goal(nc) && !rules.in_ring(c) => end_cost(nc),
                            0 => break 'visit,
                            step => step,
                        };
                        let ng = g + step + if n_axis != axis { turn } else { 0 };
                        if ng > COST_LIMIT {
                            // Absurdly long and costly; treat it as no way through
                            // rather than let the sums wrap.
                            break 'visit;
                        }
                        let ns = nc * 2 + n_axis;
                        let seen = cost[ns];
                        // An unseen state's cost is above any path's (COST_LIMIT).
                        if ng < seen {
                            if seen == UNSEEN {
                                touched.push(ns as u32);
                            }
                            cost[ns] = ng;
                            came[ns] = (d as u8) << 1 | axis as u8;
                            queue.push(ng + $estimate, ns as u32);
                        }
                    }
                }};
            }
            // North, east, south, west: the order ties are broken in.
            visit!(
                0,
                c - w,
                VERTICAL,
                to_goals(dx, est.dy(yi - 1)) + owed(off_x)
            );
            visit!(
                1,
                c + 1,
                HORIZONTAL,
                to_goals(est.dx(xi + 1), dy) + owed(off_y)
            );
            visit!(
                2,
                c + w,
                VERTICAL,
                to_goals(dx, est.dy(yi + 1)) + owed(off_x)
            );
            visit!(
                3,
                c - 1,
                HORIZONTAL,
                to_goals(est.dx(xi - 1), dy) + owed(off_y)
            );
        };
        site.budget.spend(steps);
        if found.is_none() && steps <= allowed && !self.regions.ready {
            // The queue ran dry: no way through from these sources. Such a
            // search visits every state it can reach, and the searches
            // that follow (the same join from any door, or the next
            // target) are often as hopeless, so learn the regions now.
            // Once: no cell's step cost changes to or from 0 within a
            // level (a corridor cell's cost becomes `open_cost`), so the
            // labels stand.
            self.regions.label(&self.step, w, site.height);
        }
        found
    }

    /// The cells of the last search's path to `goal_state`, goal first,
    /// into `self.path`.
    fn trace_path(&mut self, goal_state: u32, width: usize) {
        self.path.clear();
        let mut s = goal_state as usize;
        loop {
            let c = s >> 1;
            self.path.push(c as u32);
            match self.came[s] & !CLOSED {
                FROM_SOURCE => break,
                code => {
                    let back = Dir::ALL[usize::from(code >> 1)].opposite();
                    s = offset(c, back, width) * 2 + usize::from(code & 1);
                }
            }
        }
    }
}

/// The connected regions of cells a corridor may pass through (orthogonal
/// steps between cells of nonzero step cost), labelled once a level needs
/// them: a search whose door ends touch no common region cannot succeed.
/// Regions over-approximate what a search reaches (it also may not step
/// straight back), so they only ever rule out searches that would fail.
#[derive(Default)]
struct Regions {
    /// Per cell: its region + 1, or 0 where corridors may not pass.
    label: Vec<u32>,
    /// Cells in each region (index = label - 1).
    size: Vec<u32>,
    ready: bool,
    /// Labelling's runs and pieces.
    pieces: crate::pieces::Pieces,
    /// The regions touching the current search's sources.
    near_sources: Vec<u32>,
}

impl Regions {
    /// A new level: its cells have not been labelled.
    fn forget(&mut self) {
        self.ready = false;
    }

    /// Labels the passable cells of a `width` x `height` grid whose step
    /// costs are `step` (0 = closed; the border is always closed).
    ///
    /// By runs of passable cells ([`crate::pieces`]), numbered in the
    /// order of their first cells as a flood from each unlabelled cell in
    /// turn numbers them: a 1000x1000 level has about 20 runs a row, and a
    /// flood of its million cells took milliseconds.
    fn label(&mut self, step: &[u16], width: usize, height: usize) {
        let n = width * height;
        self.pieces.reserve(n, width);
        self.pieces.label_by(n, width, |start, len| {
            crate::grid_search::mask32(&step[start..start + len], |cost| cost != 0)
        });
        self.size.clear();
        self.size
            .extend(self.pieces.pieces().iter().map(|piece| piece.cells));
        // Every cell, in order: 0 between the runs, a run's region + 1 on it.
        self.label.clear();
        self.label.reserve(n);
        for run in self.pieces.runs() {
            self.label.resize(run.start as usize, 0);
            self.label.resize(run.end as usize, run.piece + 1);
        }
        self.label.resize(n, 0);
        self.ready = true;
    }

    /// If the regions are known and no region touches both a source and a
    /// goal (door ends, on rings, which corridors leave by one step), the
    /// work a search would have spent finding that out: the cells of the
    /// regions its sources touch. `None` when a search may succeed.
    fn apart(
        &mut self,
        width: usize,
        sources: impl IntoIterator<Item = u32>,
        goals: &[u32],
    ) -> Option<usize> {
        if !self.ready {
            return None;
        }
        let around = |c: u32| {
            let c = c as usize;
            [c - width, c + 1, c + width, c - 1]
        };
        self.near_sources.clear();
        let mut count = 0;
        for s in sources {
            count += 1;
            if goals.contains(&s) {
                return None;
            }
            for m in around(s) {
                let id = self.label[m];
                if id != 0 && !self.near_sources.contains(&id) {
                    self.near_sources.push(id);
                }
            }
        }
        let meet = goals
            .iter()
            .flat_map(|&g| around(g))
            .any(|m| self.label[m] != 0 && self.near_sources.contains(&self.label[m]));
        (!meet).then(|| {
            self.near_sources
                .iter()
                .map(|&id| 2 * self.size[id as usize - 1] as usize)
                .sum::<usize>()
                + count
        })
    }
}

/// A step's cost into rock as a line in its hardness, in 16-bit fixed
/// point: `base + ((h - soft) * slope + 128) / 256` above `soft`, `base`
/// below it and 0 at 255 (the border).
#[derive(Clone, Copy)]
struct RockLine {
    base: u16,
    soft: u8,
    slope: u16,
}

impl RockLine {
    /// The line that gives every entry of `table` exactly, with every sum
    /// below 2^16, if there is one.
    fn of(cfg: &Config, table: &[u16; 256]) -> Option<RockLine> {
        let t = &cfg.tunnel;
        let slope = t.hardness_weight * 256.0;
        if slope.fract() != 0.0 || !(0.0..65536.0).contains(&slope) {
            return None;
        }
        let line = RockLine {
            base: t.step_cost,
            soft: u8::try_from(t.soft_below).ok()?,
            slope: slope as u16,
        };
        // The greatest excess (at 255) times the slope, and the cost it
        // makes, stay below 2^16.
        let most = u32::from(255 - line.soft) * u32::from(line.slope) + 128;
        let fits = most < 1 << 16 && u32::from(line.base) + (most >> 8) < 1 << 16;
        (fits && (0..=255u8).all(|h| line.cost(h) == table[usize::from(h)])).then_some(line)
    }

    #[inline(always)]
    fn cost(self, h: u8) -> u16 {
        let excess = u16::from(h.saturating_sub(self.soft));
        let cost = self.base + ((excess * self.slope + 128) >> 8);
        // No branch: all ones below the border's 255, none at it.
        cost & 0u16.wrapping_sub(u16::from(h != 255))
    }
}

/// A box of cells, corners included.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Box4 {
    x0: i32,
    y0: i32,
    x1: i32,
    y1: i32,
}

impl Box4 {
    fn off_x(self, x: i32) -> bool {
        x < self.x0 || x > self.x1
    }

    fn off_y(self, y: i32) -> bool {
        y < self.y0 || y > self.y1
    }
}

/// Where the search's estimate counts steps to: four boxes, as four lanes
/// so the nearest is found without a branch. Each goal lies in one of
/// them, so the steps to the nearest box never overstate the steps to the
/// nearest goal, and a step changes them by at most one: the estimate
/// stays consistent.
///
/// Until generator revision 5 the estimate had one lane, the target's ring, a box much
/// larger than where a corridor may end when the target is round, has few
/// door ends left or has used up its doors. With an estimate that low, a
/// search gave a cost below the true one to every cell between source and
/// target, and took them all: a search of the default level took 106
/// states on average (72 without vaults and loops). By sides, the
/// estimate is nearly the steps to the nearest door end, and a search
/// takes 51 (28).
///
/// The lanes are 16-bit: a level is at most 2000 cells a side, so every
/// coordinate and every sum of two distances fits, and SSE2 has 16-bit
/// minimum and maximum (its 32-bit ones need SSE4.1), which the search
/// works out for every state it pushes.
#[derive(Clone, Copy, Debug)]
struct Estimate<const LANES: usize> {
    x0: [i16; LANES],
    x1: [i16; LANES],
    y0: [i16; LANES],
    y1: [i16; LANES],
}

impl Estimate<1> {
    /// One lane, the ring: generator revisions 1 to 4.
    fn ring(ring: Box4) -> Estimate<1> {
        Estimate {
            x0: [lane(ring.x0)],
            x1: [lane(ring.x1)],
            y0: [lane(ring.y0)],
            y1: [lane(ring.y1)],
        }
    }
}

impl Estimate<4> {
    /// A lane for each side of `ring` (north, east, south, west): the box
    /// around the goals that side holds, each goal put on the side its
    /// offset from the ring's centre points to most (in proportion to the
    /// ring's width and height, so a long room's corners go to the sides
    /// they stand on). A side with no goals repeats a lane that has some;
    /// with no goals at all, every lane is the ring.
    fn by_sides(ring: Box4, goals: impl Iterator<Item = (i32, i32)>) -> Estimate<4> {
        const EMPTY: Box4 = Box4 {
            x0: i32::MAX,
            y0: i32::MAX,
            x1: i32::MIN,
            y1: i32::MIN,
        };
        let mut sides = [EMPTY; 4];
        let (w, h) = (ring.x1 - ring.x0, ring.y1 - ring.y0);
        for (x, y) in goals {
            let (dx, dy) = (2 * x - (ring.x0 + ring.x1), 2 * y - (ring.y0 + ring.y1));
            let side = if dy.abs() * w >= dx.abs() * h {
                if dy < 0 { 0 } else { 2 }
            } else if dx > 0 {
                1
            } else {
                3
            };
            let b = &mut sides[side];
            *b = Box4 {
                x0: b.x0.min(x),
                y0: b.y0.min(y),
                x1: b.x1.max(x),
                y1: b.y1.max(y),
            };
        }
        let any = sides.iter().copied().find(|&b| b != EMPTY).unwrap_or(ring);
        for b in &mut sides {
            if *b == EMPTY {
                *b = any;
            }
        }
        Estimate {
            x0: sides.map(|b| lane(b.x0)),
            x1: sides.map(|b| lane(b.x1)),
            y0: sides.map(|b| lane(b.y0)),
            y1: sides.map(|b| lane(b.y1)),
        }
    }
}

impl<const LANES: usize> Estimate<LANES> {
    /// Steps in x from column `x` (at most one outside the level) into
    /// each box.
    #[inline(always)]
    fn dx(&self, x: i32) -> [i16; LANES] {
        let x = x as i16;
        std::array::from_fn(|k| (self.x0[k] - x).max(x - self.x1[k]).max(0))
    }

    /// Steps in y from row `y` into each box.
    #[inline(always)]
    fn dy(&self, y: i32) -> [i16; LANES] {
        let y = y as i16;
        std::array::from_fn(|k| (self.y0[k] - y).max(y - self.y1[k]).max(0))
    }

    /// Steps to the nearest box.
    #[inline(always)]
    fn steps(&self, dx: [i16; LANES], dy: [i16; LANES]) -> u32 {
        let d: [i16; LANES] = std::array::from_fn(|k| dx[k] + dy[k]);
        d.into_iter().min().unwrap_or(0) as u32
    }
}

/// A box's edge as a lane of [`Estimate`]. Edges are cells of the level or
/// one beside it, so within 16 bits (`MAX_SIDE` is 2000).
fn lane(v: i32) -> i16 {
    debug_assert!((-2..=i32::from(crate::config::MAX_SIDE) + 1).contains(&v));
    v as i16
}

/// How many steps farther from the target than the nearest door a door
/// may be and still start the first search of a join: 4 until generator
/// revision 4, 1 from it. The doors between are nearly all on the room's
/// wall facing away, whose corridors would walk around the room; the
/// states they started were a seventh of the search's work.
fn source_slack(cfg: &Config) -> u32 {
    if cfg.revisions.generator >= 4 { 1 } else { 4 }
}

/// A search that has taken more states than a level's cells over this,
/// and at least [`DRY_CHECK_LEAST`], labels the level's regions (see
/// [`Tunnel::search_by`]): labelling a cell costs about what the search
/// spends on a sixteenth of a state. On small levels (80x21) searches that
/// find their goal often take a few hundred states, and labelling for
/// them cost more than it saved: hence the floor.
const DRY_CHECK_CELLS: usize = 16;
const DRY_CHECK_LEAST: usize = 512;

/// How many of the nearest joined rooms a room tries to join before the
/// attempt gives up on it.
const NEAREST_TRIED: usize = 4;

/// Room counts above which the nearest joined rooms are found with an
/// index ([`Nearest`]).
const INDEXED_ABOVE: usize = 128;

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

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    use proptest::prelude::*;

    use super::*;
    use crate::generate::budget::Budget;
    use crate::generate::{hardness, rooms};
    use crate::streams::{Stage, stage_rng};

    /// A level's ground before corridors: hardness, rooms placed and cut
    /// in, as the generator lays it out.
    struct TestGround {
        hard: Vec<u8>,
        room_id: Vec<u16>,
        shapes: Vec<crate::geom::Shape>,
        tiles: Vec<Tile>,
    }

    impl TestGround {
        fn new(cfg: &Config, seed: u64, w: usize, h: usize, budget: &Budget) -> TestGround {
            let mut hard = vec![0u8; w * h];
            let rng = &mut stage_rng(seed, 1, 0, Stage::Hardness);
            hardness::fill(
                &mut hard,
                &mut hardness::Scratch::default(),
                w,
                h,
                &cfg.hardness,
                cfg.revisions.generator,
                rng,
            );
            let mut room_id = vec![0; w * h];
            let mut shapes = Vec::new();
            let rng = &mut stage_rng(seed, 1, 0, Stage::Rooms);
            let scratch = &mut rooms::Scratch::default();
            rooms::place(cfg, rng, &mut room_id, &[], budget, &mut shapes, scratch);
            let mut tiles = vec![Tile::Rock; w * h];
            for (c, &id) in room_id.iter().enumerate() {
                if id != 0 {
                    tiles[c] = Tile::Floor;
                    hard[c] = 0;
                }
            }
            TestGround {
                hard,
                room_id,
                shapes,
                tiles,
            }
        }

        /// The ground as a site of `w` x `h` cells with no vault, each room
        /// with the door list in `doors` (made empty, one a room).
        fn site<'a>(
            &'a mut self,
            (w, h): (usize, usize),
            doors: &'a mut Vec<Vec<crate::level::Door>>,
            budget: &'a Budget,
        ) -> Site<'a> {
            *doors = vec![Vec::new(); self.shapes.len()];
            Site {
                width: w,
                height: h,
                tiles: &mut self.tiles,
                hardness: &mut self.hard,
                room_id: &self.room_id,
                shapes: &self.shapes,
                entrances: &[],
                doors,
                budget,
            }
        }
    }

    /// Plain Dijkstra over the same (cell, axis) states and the same rules,
    /// with a binary heap: the reference the bucket-queue A* must match.
    fn reference(
        tunnel: &Tunnel,
        rules: &Rules,
        cfg: &Config,
        site: &Site<'_>,
        sources: &[u32],
        goals: &[u32],
    ) -> Option<u32> {
        let w = site.width;
        let t = &cfg.tunnel;
        let (open, turn) = (u32::from(t.open_cost), u32::from(t.turn_penalty));
        let end_cost = |c: usize| match site.tiles[c] {
            Tile::Rock => tunnel.rock_cost[usize::from(site.hardness[c])],
            _ => open,
        };
        let mut best = vec![u32::MAX; 2 * site.tiles.len()];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            let c = s as usize;
            let out = rules.way_out(cfg, site, c);
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
                let step = match u32::from(tunnel.step[nc]) {
                    0 if goals.contains(&(nc as u32)) && !rules.in_ring(c) => end_cost(nc),
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
            revision in 4u16..=5,
            keep in any::<u64>(),
        ) {
            let mut cfg = Config::from_ron("(width: 70, height: 40, rooms: (count: (min: 2, max: 8)))", "t").unwrap();
            // Revision 4's estimate (the ring) and 5's (the goals by side).
            cfg.revisions.generator = revision;
            cfg.tunnel.step_cost = step;
            cfg.tunnel.open_cost = open;
            cfg.tunnel.turn_penalty = turn;
            cfg.tunnel.soft_below = soft;
            cfg.tunnel.hardness_weight = weight;
            let (w, h) = (70usize, 40usize);
            let budget = Budget::new(u64::MAX);
            let mut ground = TestGround::new(&cfg, seed, w, h, &budget);
            prop_assume!(ground.shapes.len() >= 2);
            let mut doors = Vec::new();
            let site = ground.site((w, h), &mut doors, &budget);
            let mut rules = Rules::default();
            rules.prepare(&site);
            let mut tunnel = Tunnel::default();
            tunnel.prepare(&cfg, &rules, &site);
            // Sometimes a wall down the middle, so that some searches run
            // dry.
            if keep % 5 == 1 {
                for y in 0..h {
                    tunnel.step[y * w + w / 2] = 0;
                }
            }
            for (from, to) in [(1, 0), (0, 1)] {
                let sources = rules.candidates(from).to_vec();
                // Sometimes only some door ends are goals, as when a room
                // has all its doors: the estimate's boxes shrink to them.
                let all = rules.candidates(to);
                let goals: Vec<u32> = if keep % 3 == 0 {
                    all.to_vec()
                } else {
                    let kept: Vec<u32> = all
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| keep >> (i % 64) & 1 == 1)
                        .map(|(_, &g)| g)
                        .collect();
                    if kept.is_empty() { all.iter().take(1).copied().collect() } else { kept }
                };
                let want = reference(&tunnel, &rules, &cfg, &site, &sources, &goals);
                // As a level's first searches run, and as they run when
                // every search stops to label the regions after its
                // first state (the dry check).
                for least in [None, Some(0)] {
                    tunnel.regions.forget();
                    tunnel.dry_check_at = least;
                    let got = tunnel
                        .search(&cfg, &rules, &site, &sources, &goals, to, false)
                        .map(|state| tunnel.cost[state as usize]);
                    prop_assert_eq!(got, want);
                    // A search that found nothing has labelled them.
                    if least.is_some() || want.is_none() {
                        prop_assert!(tunnel.regions.ready);
                    }
                }
                // Regions only ever rule out a search that finds nothing.
                tunnel.regions.label(&tunnel.step, w, h);
                if tunnel.regions.apart(w, sources.iter().copied(), &goals).is_some() {
                    prop_assert_eq!(want, None);
                }
                tunnel.regions.forget();
            }
        }
    }

    proptest! {
        /// The steps the estimate counts never exceed the steps to the
        /// nearest goal, and a step changes them by at most one: what the
        /// search's first goal being the cheapest rests on.
        #[test]
        fn estimate_by_sides_is_a_consistent_lower_bound(
            (x0, y0, rw, rh) in (0i32..30, 0i32..30, 2i32..20, 2i32..20),
            picks in prop::collection::vec((any::<bool>(), 0i32..40, 0i32..4), 1..30),
            probes in prop::collection::vec((-10i32..70, -10i32..70), 1..40),
        ) {
            let ring = Box4 { x0, y0, x1: x0 + rw, y1: y0 + rh };
            // Goals on the ring's edge, as door ends are.
            let goals: Vec<(i32, i32)> = picks
                .iter()
                .map(|&(along_x, t, side)| {
                    if along_x {
                        (x0 + t % (rw + 1), if side % 2 == 0 { y0 } else { y0 + rh })
                    } else {
                        (if side % 2 == 0 { x0 } else { x0 + rw }, y0 + t % (rh + 1))
                    }
                })
                .collect();
            let est = Estimate::by_sides(ring, goals.iter().copied());
            let steps = |x: i32, y: i32| est.steps(est.dx(x), est.dy(y));
            for &(x, y) in &probes {
                let nearest = goals
                    .iter()
                    .map(|&(gx, gy)| (gx - x).unsigned_abs() + (gy - y).unsigned_abs())
                    .min()
                    .unwrap();
                prop_assert!(steps(x, y) <= nearest);
                for (nx, ny) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    prop_assert!(steps(x, y) <= steps(nx, ny) + 1);
                }
            }
            for &(gx, gy) in &goals {
                prop_assert_eq!(steps(gx, gy), 0);
            }
        }
    }

    /// Rock's costs as a line: taken for the shipped costs and any weight
    /// in 256ths whose sums fit 16 bits, each cost the table's; refused
    /// otherwise, so the table answers.
    #[test]
    fn rock_line_is_the_table_or_is_not_used() {
        let table_of = |cfg: &Config| -> [u16; 256] {
            let mut rock = Vec::new();
            super::super::site::rock_costs(cfg, &mut rock);
            std::array::from_fn(|h| if h == 255 { 0 } else { rock[h] as u16 })
        };
        let with = |step_cost, soft_below, hardness_weight| {
            let mut cfg = Config::default();
            cfg.tunnel.step_cost = step_cost;
            cfg.tunnel.soft_below = soft_below;
            cfg.tunnel.hardness_weight = hardness_weight;
            cfg
        };
        for (cfg, taken) in [
            (Config::default(), true),
            (with(40, 170, 0.0), true),
            (with(40, 0, 1.0), true),
            (with(10_000, 254, 16.0), true),
            // 255 * 4096 needs more than 16 bits.
            (with(1, 0, 16.0), false),
            (with(40, 170, 0.3), false),
            (with(40, 0, 1.0 / 3.0), false),
        ] {
            let table = table_of(&cfg);
            let line = RockLine::of(&cfg, &table);
            assert_eq!(line.is_some(), taken, "{:?}", cfg.tunnel);
            if let Some(line) = line {
                for h in 0..=255u8 {
                    assert_eq!(line.cost(h), table[usize::from(h)], "hardness {h}");
                }
            }
        }
    }

    /// `corridor_and_closed`, the one pass scans read, says of every cell
    /// what `free` and the tile say, on a level with corridors carved.
    #[test]
    fn corridor_and_closed_bits_agree_with_the_rules() {
        use super::super::site::{CLOSED_BIT, CORRIDOR_BIT};
        let cfg = Config::from_ron(
            "(width: 70, height: 40, rooms: (count: (min: 4, max: 8)))",
            "t",
        )
        .unwrap();
        let (w, h) = (70usize, 40usize);
        let mut checked = 0;
        for seed in 0..8 {
            let budget = Budget::new(u64::MAX);
            let mut ground = TestGround::new(&cfg, seed, w, h, &budget);
            let mut doors = Vec::new();
            let mut site = ground.site((w, h), &mut doors, &budget);
            let mut rules = Rules::default();
            rules.prepare(&site);
            if Tunnel::default().carve(&cfg, &rules, &mut site).is_err() {
                continue;
            }
            let mut bits = Vec::new();
            rules.corridor_and_closed(&site, &mut bits);
            assert_eq!(bits.len(), w * h);
            for (c, &b) in bits.iter().enumerate() {
                assert_eq!(
                    b & CORRIDOR_BIT != 0,
                    site.tiles[c] == Tile::Corridor,
                    "cell {c}"
                );
                assert_eq!(b & CLOSED_BIT != 0, !rules.free(&site, c), "cell {c}");
            }
            checked += usize::from(site.tiles.contains(&Tile::Corridor));
        }
        assert!(checked > 0, "no level carved a corridor to check");
    }

    /// A room's door candidates are exactly its ring cells off the border
    /// beside its floor and beside free rock, in row order, whatever the
    /// shape (rectangles look only at their ring's sides; circles and
    /// merged rooms at their whole box).
    #[test]
    fn door_candidates_are_the_ring_cells_between_floor_and_rock() {
        let mut checked = [0usize; 2];
        for (ron, seeds) in [
            (
                "(width: 70, height: 40, rooms: (count: (min: 6, max: 12)))",
                0..8,
            ),
            (
                "(width: 60, height: 30, rooms: (count: (min: 4, max: 14), circle_share: 0.6))",
                0..8,
            ),
            (
                "(width: 60, height: 30, rooms_may_overlap: true, rooms: (count: (min: 4, max: 14)))",
                0..8,
            ),
        ] {
            let cfg = Config::from_ron(ron, "t").unwrap();
            let (w, h) = (usize::from(cfg.width), usize::from(cfg.height));
            for seed in seeds {
                let budget = Budget::new(u64::MAX);
                let mut ground = TestGround::new(&cfg, seed, w, h, &budget);
                let mut doors = Vec::new();
                let site = ground.site((w, h), &mut doors, &budget);
                let mut rules = Rules::default();
                rules.prepare(&site);
                let TestGround {
                    hard,
                    room_id,
                    shapes,
                    ..
                } = &ground;
                for (r, shape) in shapes.iter().enumerate() {
                    let id = r as u16 + 1;
                    let want: Vec<u32> = (w..w * h - w)
                        .filter(|&c| {
                            let (x, y) = (c % w, c / w);
                            let near = [c - w, c + 1, c + w, c - 1];
                            x > 0
                                && x + 1 < w
                                && y + 1 < h
                                && rules.ring_room(c) == Some(r)
                                && near.iter().any(|&o| room_id[o] == id)
                                && near.iter().any(|&o| {
                                    !rules.in_ring(o) && room_id[o] == 0 && hard[o] != 255
                                })
                        })
                        .map(|c| c as u32)
                        .collect();
                    assert_eq!(
                        rules.candidates(r),
                        want,
                        "seed {seed}, room {r}: {shape:?}"
                    );
                    checked[usize::from(!matches!(shape, crate::geom::Shape::Rect(_)))] += 1;
                }
            }
        }
        assert!(
            checked.iter().all(|&n| n > 10),
            "rooms of each kind: {checked:?}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Labelling by runs gives every cell the region a flood gives it,
        /// the regions numbered in the order of their first cells and
        /// sized by their cells: on grids from nearly all closed to nearly
        /// all open, some wider than one block of 32 cells, with the border
        /// closed as a level's is.
        #[test]
        fn regions_by_runs_are_the_flooded_regions(
            (w, h) in (3usize..80, 3usize..40),
            open in 0u32..=100,
            seed in any::<u64>(),
        ) {
            let mut rng = <rand_pcg::Pcg64 as rand::SeedableRng>::seed_from_u64(seed);
            let step: Vec<u16> = (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    let border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
                    u16::from(!border && rng.random_range(0..100) < open)
                })
                .collect();
            let mut regions = Regions::default();
            // Twice, as a warm generator labels one level after another.
            for _ in 0..2 {
                regions.label(&step, w, h);
                let mut want = vec![0u32; w * h];
                let mut sizes = Vec::new();
                for start in 0..w * h {
                    if step[start] == 0 || want[start] != 0 {
                        continue;
                    }
                    sizes.push(0u32);
                    let id = sizes.len() as u32;
                    want[start] = id;
                    let mut stack = vec![start];
                    while let Some(c) = stack.pop() {
                        sizes[id as usize - 1] += 1;
                        for m in [c - w, c + 1, c + w, c - 1] {
                            if step[m] != 0 && want[m] == 0 {
                                want[m] = id;
                                stack.push(m);
                            }
                        }
                    }
                }
                prop_assert_eq!(&regions.label, &want);
                prop_assert_eq!(&regions.size, &sizes);
            }
        }
    }

    /// A wall of unbreakable rock splits a grid: door ends on either side
    /// are apart, on the same side they are not, and nothing is decided
    /// before the regions are labelled.
    #[test]
    fn regions_rule_out_ends_split_by_a_wall() {
        let (w, h) = (9usize, 7usize);
        let mut step = vec![5u16; w * h];
        for (c, cost) in step.iter_mut().enumerate() {
            let (x, y) = (c % w, c / w);
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 || x == 4 {
                *cost = 0;
            }
        }
        // Ends are cells corridors may not pass (as ring cells are).
        let (left, right, right2) = (2 * w + 2, 2 * w + 6, 4 * w + 6);
        for end in [left, right, right2] {
            step[end] = 0;
        }
        let mut regions = Regions::default();
        assert_eq!(regions.apart(w, [left as u32], &[right as u32]), None);
        regions.label(&step, w, h);
        let work = regions.apart(w, [left as u32], &[right as u32]);
        // The left region: 3 columns of 5 rows, less the end itself.
        assert_eq!(work, Some(2 * 14 + 1));
        assert_eq!(regions.apart(w, [right as u32], &[right2 as u32]), None);
        assert_eq!(regions.apart(w, [left as u32], &[left as u32]), None);
        regions.forget();
        assert_eq!(regions.apart(w, [left as u32], &[right as u32]), None);
    }
}
