//! Generator revision 2: every door on a vault's edge leads somewhere.
//!
//! A corridor style joins each vault to the level through one of its edge
//! doors or a few; the others were laid as drawn all the same, and opened
//! onto solid rock (286 of them in 40 shipped stacks). After the style,
//! its loops and the shortcuts (before pruning), each edge door whose porch (the
//! cell just outside it) is still rock is joined to the nearest open cell
//! by a corridor priced as the Tunnel prices its own: rock by hardness,
//! old corridor near the softest rock, turns extra. The corridor ends on a
//! corridor, at an existing door, or as a new door of another room where
//! [`Rules::usable_door`] allows one. It runs only through
//! [`Rules::free`] cells, never beside another corridor in a 2x2 block (a
//! slab), and the door itself must be one the rules would open (a door
//! candidate, the vault not full of doors, no door beside it). So each
//! such door makes a loop, which the design wants.
//!
//! A door no corridor can reach this way is part of a wider doorway when
//! it stands beside a door of the same edge that leads somewhere (a `++`
//! drawing, whose second door the rules never open; a corner door beside
//! an edge door leads through it); any other becomes the
//! vault's wall, rock as hard as the vault's own. A vault always keeps a
//! door: the style joined it through one.
//!
//! Draws no random numbers; vaults and doors are taken in order.
//!
//! Generator revision 3's last legs (`vault_legs.rs`) route with the same
//! search, from all of a vault's doors at once and never to a vault not
//! yet joined, before this stage joins the doors they leave.

use crate::config::Config;
use crate::grid_search::{BucketQueue, step as offset};
use crate::level::Tile;

use super::corridors::site::{completes_slab, porch, rock_costs};
use super::corridors::{Rules, Site};

/// The stage's buffers, kept from level to level.
#[derive(Default)]
pub(super) struct Scratch {
    /// Per search state (cell * 2 + axis of arrival): the cheapest cost
    /// found in the current search, `UNSEEN` if not reached.
    cost: Vec<u32>,
    /// Per search state: how it was reached (`came_by`).
    came: Vec<u8>,
    /// The states the last search gave a cost, put back when the next starts.
    touched: Vec<u32>,
    queue: BucketQueue,
    rock_cost: Vec<u32>,
    /// The doors a route may leave by, and each one's porch.
    starts: Vec<(u32, u32)>,
    /// The route found, goal first, and its cells in order, for the slab check.
    path: Vec<u32>,
    sorted: Vec<u32>,
    /// Each edge door of the vault in hand: what became of it.
    fate: Vec<Fate>,
    /// Revision 3's legs (`vault_legs.rs`), which route with this stage's
    /// searches: per vault, whether it is still apart from the level.
    pub(super) apart: Vec<bool>,
    /// Per cell, whether stepping into it would complete a 2x2 block of
    /// open cells, as `search_number * 2 + answer` for the search that
    /// asked: the grid does not change during a search, and a rock cell
    /// is asked from each state beside it, so each is worked out once.
    slabs: Vec<u32>,
    search_number: u32,
}

/// What became of the vault doors no corridor had reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Outcome {
    /// Joined by a corridor of their own.
    pub joined: usize,
    /// Kept as part of a wider doorway, beside a door that leads somewhere.
    pub beside: usize,
    /// Drawn as the vault's wall.
    pub walled: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Leads somewhere: a corridor reached it, before this stage or in it.
    Open,
    /// Beside a door that leads somewhere.
    Beside,
    /// Not reached (yet).
    Shut,
}

/// No state of the current search.
const UNSEEN: u32 = u32::MAX;
/// A `came` of the search's first state.
const FROM_PORCH: u8 = u8::MAX;
/// The most search steps one door's route may take, a cell of the level's
/// width and height: the nearest corridor is nearly always within a few
/// dozen cells, so only a door walled in by hard rock and rooms gets near.
const STEPS_PER_SIDE: usize = 64;
/// The ring of buckets the search's queue makes room for at once, so
/// that levels whose routes' windows differ do not grow it one by one.
const RING_RESERVED: usize = 4096;
/// Path costs stay below this, so sums never wrap.
const COST_LIMIT: u32 = u32::MAX / 4;

/// Joins or walls up every vault edge door whose porch is still rock.
/// Spends from the site's budget; the caller asks it whether the stage
/// finished.
pub(super) fn join(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    scratch: &mut Scratch,
) -> Outcome {
    let mut outcome = Outcome::default();
    if site.entrances.is_empty() {
        return outcome;
    }
    scratch.price(cfg);
    // The lists outlive the site's borrow.
    let entrances = site.entrances;
    for (vault, doors) in entrances.iter().enumerate() {
        let mut fate = std::mem::take(&mut scratch.fate);
        fate.clear();
        fate.extend(doors.iter().map(|&door| {
            if leads_out(site, door as usize) {
                Fate::Open
            } else {
                Fate::Shut
            }
        }));
        for (&door, fate) in doors.iter().zip(fate.iter_mut()) {
            if *fate == Fate::Shut
                && scratch
                    .route(rules, cfg, site, vault, std::slice::from_ref(&door), &[])
                    .is_some()
            {
                *fate = Fate::Open;
                outcome.joined += 1;
            }
        }
        if site.budget.overspent() {
            scratch.fate = fate;
            return outcome;
        }
        settle(site, doors, &mut fate, &mut outcome);
        scratch.fate = fate;
    }
    outcome
}

/// After pruning: an edge door whose corridor was a dead end (a DeadEnd
/// stub that met nothing) lost it, and joins its doorway or becomes the
/// vault's wall as a door no corridor could reach does. Opens nothing, so
/// pruning still only closes cells; every vault keeps the door that joins
/// it to the level, since pruning never cuts a way through.
pub(super) fn shut_pruned(site: &mut Site<'_>, scratch: &mut Scratch) -> Outcome {
    let mut outcome = Outcome::default();
    let entrances = site.entrances;
    for doors in entrances {
        let mut fate = std::mem::take(&mut scratch.fate);
        fate.clear();
        fate.extend(doors.iter().map(|&door| {
            if leads_out(site, door as usize) {
                Fate::Open
            } else {
                Fate::Shut
            }
        }));
        settle(site, doors, &mut fate, &mut outcome);
        scratch.fate = fate;
    }
    outcome
}

/// The doors of one vault not joined: a door beside one that leads
/// somewhere is part of its doorway (a doorway grows door by door); any
/// other becomes the vault's wall, rock as hard as the vault's own.
fn settle(site: &mut Site<'_>, doors: &[u32], fate: &mut [Fate], outcome: &mut Outcome) {
    let w = site.width;
    let side_by_side = |a: u32, b: u32| a.abs_diff(b) == 1 || a.abs_diff(b) as usize == w;
    while let Some(i) = (0..doors.len()).find(|&i| {
        fate[i] == Fate::Shut
            && (0..doors.len()).any(|j| fate[j] != Fate::Shut && side_by_side(doors[i], doors[j]))
    }) {
        fate[i] = Fate::Beside;
        outcome.beside += 1;
    }
    for (&door, _) in doors
        .iter()
        .zip(fate.iter())
        .filter(|(_, f)| **f == Fate::Shut)
    {
        site.tiles[door as usize] = Tile::Rock;
        site.hardness[door as usize] = 255;
        outcome.walled += 1;
    }
}

/// The farthest (in steps from a porch) [`nearest_goal`] looks for a goal.
const NEAREST_WITHIN: i32 = 32;
/// A route from at most this many porches is aimed: a vault's door, a
/// vault's last leg from all its doors, and a DeadEnd piece's leg from a
/// small piece's door candidates. A larger piece's leg (dozens of them)
/// keeps the Dijkstra: a ring scan round every porch cost more than the
/// search it saved (DeadEnd levels ran 1.5% more instructions when every
/// route was aimed).
const AIMED_STARTS: usize = 8;

/// Generator revision 9: the cell a route aims at, the goal nearest in
/// steps to one of the porches of `starts` (`(door, porch)`), looked for
/// ring by ring round each porch in turn up to [`NEAREST_WITHIN`] steps:
/// of the nearest, the first porch's, and round a porch, the first found
/// going clockwise from the north. A goal is a cell the search would end
/// on: a corridor, or a door or new door of a room `ends` allows.
fn nearest_goal(
    rules: &Rules,
    cfg: &Config,
    site: &Site<'_>,
    starts: &[(u32, u32)],
    ends: &impl Ends,
) -> Option<usize> {
    let (w, h) = (site.width as i32, site.height as i32);
    let is_goal = |c: usize| -> bool {
        if ends.own_door(c) {
            return false;
        }
        match site.tiles[c] {
            Tile::Corridor => rules.free(site, c) && ends.corridor(c),
            Tile::Door => rules.ring_room(c).is_some_and(|r| ends.door(r, c)),
            Tile::Rock if !rules.free(site, c) => rules
                .ring_room(c)
                .is_some_and(|r| ends.new_door(r, c) && rules.usable_door(cfg, site, r, c)),
            _ => false,
        }
    };
    let mut best: Option<(i32, usize)> = None;
    for &(_, porch) in starts {
        let (px, py) = (porch as i32 % w, porch as i32 / w);
        let within = best.map_or(NEAREST_WITHIN, |(d, _)| d - 1);
        let mut looked = 0usize;
        'rings: for d in 1..=within {
            for k in 0..4 * d {
                let (dx, dy) = on_ring(d, k);
                let (x, y) = (px + dx, py + dy);
                if x <= 0 || y <= 0 || x >= w - 1 || y >= h - 1 {
                    continue;
                }
                looked += 1;
                let c = (y * w + x) as usize;
                if is_goal(c) {
                    best = Some((d, c));
                    break 'rings;
                }
            }
        }
        site.budget.spend(looked / 8 + 1);
    }
    best.map(|(_, c)| c)
}

/// The `k`-th (0 to `4d - 1`) of the cells `d` steps from a cell, as an
/// offset: clockwise from the north, each once.
fn on_ring(d: i32, k: i32) -> (i32, i32) {
    let (side, i) = (k / d, k % d);
    match side {
        0 => (i, i - d),
        1 => (d - i, i),
        2 => (-i, d - i),
        _ => (i - d, -i),
    }
}

/// Whether a vault's edge door leads somewhere already: its porch is open.
fn leads_out(site: &Site<'_>, door: usize) -> bool {
    porch(site, door).is_some_and(|p| site.tiles[p].is_walkable())
}

/// Whether cell `c` is or will be open: a corridor or door, or a vault's
/// edge door (laid as a door once the corridors are done).
pub(super) fn open_or_drawn(rules: &Rules, site: &Site<'_>, c: usize) -> bool {
    match site.tiles[c] {
        Tile::Corridor | Tile::Door => true,
        Tile::Rock => {
            rules.in_ring(c)
                && site.room_id[c] == 0
                && site.entrances.iter().flatten().any(|&e| e as usize == c)
        }
        _ => false,
    }
}

/// A `came` code: the step `dir` taken from a state of axis `axis`.
fn came_by(dir: crate::geom::Dir, axis: usize) -> u8 {
    (dir as u8) << 1 | axis as u8
}

fn axis_of(d: crate::geom::Dir) -> usize {
    use crate::geom::Dir;
    match d {
        Dir::East | Dir::West => 0,
        Dir::North | Dir::South => 1,
    }
}

/// Where a route may end, beyond what every route's rules refuse: the
/// vault stages' routes end anywhere but at a vault still apart, revision
/// 4's legs anywhere but on their own piece of the level.
pub(super) trait Ends {
    /// Whether a step onto cell `c` is refused: it is one of the route's
    /// own doors.
    fn own_door(&self, c: usize) -> bool;
    /// Whether the route may end on the free corridor cell `c`.
    fn corridor(&self, c: usize) -> bool;
    /// Whether the route may end at door `c` of room `room`.
    fn door(&self, room: usize, c: usize) -> bool;
    /// Whether the route may end at a new door of room `room`, at its
    /// door candidate `c`.
    fn new_door(&self, room: usize, c: usize) -> bool;
}

/// The ends of a vault's route: anything open but a room `apart` marks,
/// or a new door of a room other than the vault and those.
struct VaultEnds<'a> {
    vault: usize,
    apart: &'a [bool],
    starts: &'a [(u32, u32)],
}

impl VaultEnds<'_> {
    fn refused(&self, room: usize) -> bool {
        self.apart.get(room).copied().unwrap_or(false)
    }
}

impl Ends for VaultEnds<'_> {
    fn own_door(&self, c: usize) -> bool {
        self.starts.iter().any(|&(door, _)| door as usize == c)
    }
    fn corridor(&self, _: usize) -> bool {
        true
    }
    fn door(&self, room: usize, _: usize) -> bool {
        !self.refused(room)
    }
    fn new_door(&self, room: usize, _: usize) -> bool {
        room != self.vault && !self.refused(room)
    }
}

impl Scratch {
    /// Prices rock for the level's routes, as its config does: once a
    /// level, before the first `route`.
    pub(super) fn price(&mut self, cfg: &Config) {
        rock_costs(cfg, &mut self.rock_cost);
    }

    /// Routes a corridor from the porch of one of `doors` (edge doors of
    /// `vault` still rock) to the nearest open cell and opens it with its
    /// door: of several doors, the one whose corridor is cheapest. The door
    /// taken, or `None`, opening nothing, if the rules allow no such
    /// corridor. The corridor never ends at a room `apart` marks (its
    /// doors and door candidates are no goal, so revision 3's legs never
    /// join a vault to a vault not yet joined itself); `&[]` marks none.
    pub(super) fn route(
        &mut self,
        rules: &Rules,
        cfg: &Config,
        site: &mut Site<'_>,
        vault: usize,
        doors: &[u32],
        apart: &[bool],
    ) -> Option<usize> {
        let w = site.width;
        // Each door must be one the rules would open: a candidate (its
        // porch free), the vault not full, no door beside it.
        let mut starts = std::mem::take(&mut self.starts);
        starts.clear();
        starts.extend(doors.iter().filter_map(|&door| {
            let d = door as usize;
            if site.tiles[d] != Tile::Rock || !rules.usable_door(cfg, site, vault, d) {
                return None;
            }
            let start = porch(site, d)?;
            let fits = rules.free(site, start)
                && !completes_slab(w, start, |m| open_or_drawn(rules, site, m));
            fits.then_some((door, start as u32))
        }));
        let ends = VaultEnds {
            vault,
            apart,
            starts: &starts,
        };
        let taken = self.route_from(rules, cfg, site, &starts, &ends);
        self.starts = starts;
        taken
    }

    /// `route` from the doors and porches of `starts`, to a goal `ends`
    /// allows. (Public to the generator for revision 4's legs between
    /// pieces of a DeadEnd level, `piece_legs.rs`, which read the route's
    /// cells from [`Scratch::last_route`].)
    pub(super) fn route_from(
        &mut self,
        rules: &Rules,
        cfg: &Config,
        site: &mut Site<'_>,
        starts: &[(u32, u32)],
        ends: &impl Ends,
    ) -> Option<usize> {
        let w = site.width;
        if starts.is_empty() {
            return None;
        }
        // From generator revision 9 a route from a few porches is first
        // aimed at the goal nearest one of them in steps
        // ([`nearest_goal`]); the search over every goal runs if that
        // finds none (or none is near).
        let aimed = if cfg.revisions.generator >= 9 && starts.len() <= AIMED_STARTS {
            nearest_goal(rules, cfg, site, starts, ends)
                .and_then(|target| self.search(rules, cfg, site, starts, ends, Some(target)))
        } else {
            None
        };
        let goal = match aimed {
            Some(goal) => goal,
            None => self.search(rules, cfg, site, starts, ends, None)?,
        };
        self.trace(goal, w);
        // The route ends (in `path`, goal first) on the porch it left from.
        let first = *self.path.last().expect("a route holds its porch");
        let door = starts.iter().find(|&&(_, p)| p == first)?.0 as usize;
        // The slab check of the search looked at each new cell against the
        // level; the route's own cells count too.
        self.sorted.clear();
        self.sorted.extend_from_slice(&self.path);
        self.sorted.sort_unstable();
        site.budget.spend(9 * self.path.len());
        let sorted = &self.sorted;
        let slab = self.path.iter().any(|&c| {
            let c = c as usize;
            site.tiles[c] == Tile::Rock
                && completes_slab(w, c, |m| {
                    sorted.binary_search(&(m as u32)).is_ok() || open_or_drawn(rules, site, m)
                })
        });
        if slab {
            return None;
        }
        rules.open(site, door);
        for &c in &self.path {
            rules.open(site, c as usize);
        }
        Some(door)
    }

    /// Over (cell, axis of arrival) from the porches of `starts` (door,
    /// porch), with the Tunnel's prices, to the first open cell or usable
    /// door of another room that `ends` allows: the cheapest, by Dijkstra's
    /// rule, with no `target`; with one, by A* with the steps to `target`
    /// (at the cheapest step) as its estimate, which ends at whichever goal
    /// it meets first on its way there. Revision 8's search over every
    /// goal took some 350 states a route of the default level, spread
    /// round the porch in a diamond until it touched the nearest; aimed,
    /// a few dozen. The goal state reached.
    fn search(
        &mut self,
        rules: &Rules,
        cfg: &Config,
        site: &Site<'_>,
        starts: &[(u32, u32)],
        ends: &impl Ends,
        target: Option<usize>,
    ) -> Option<u32> {
        use crate::geom::Dir;
        let (w, h) = (site.width, site.height);
        let n = w * h;
        if self.slabs.len() != n || self.search_number >= u32::MAX / 2 - 1 {
            // Kept, not made anew: levels of other sizes reuse the table.
            self.slabs.clear();
            self.slabs.resize(n, 0);
            self.search_number = 0;
        }
        self.search_number += 1;
        let number = self.search_number;
        if self.cost.len() < 2 * n {
            self.cost = vec![UNSEEN; 2 * n];
            self.came = vec![FROM_PORCH; 2 * n];
            self.touched.clear();
            // Room for the states of a search well beyond the usual few
            // hundred, so the lists rarely grow again.
            let room = (n / 4).max(1024);
            self.touched.reserve(room);
            self.queue.reserve(room);
            // An aimed search's ring spans how far apart its porches'
            // estimates start (revision 9): with the shipped prices a
            // vault's doors start at most a few thousand apart (a config
            // with dearer steps grows the ring once, at its first level).
            self.queue.reserve_ring(RING_RESERVED);
            self.path.reserve(256);
            self.sorted.reserve(256);
        }
        for &s in &self.touched {
            self.cost[s as usize] = UNSEEN;
        }
        self.touched.clear();
        let t = &cfg.tunnel;
        let (open_cost, turn) = (u32::from(t.open_cost), u32::from(t.turn_penalty));
        let rock = &self.rock_cost;
        // The dearest step: into the hardest rock, which is 255 where a
        // vault's door was walled up and is still another vault's door
        // candidate (the table rises with hardness). Until this build the
        // window was sized by 254's price; where that left the ring a
        // bucket short, such a step would have overrun it. For the
        // shipped prices the ring is the same size either way.
        let max_step = rock[255].max(open_cost);
        // The estimate: steps to the target at the cheapest step, none
        // without one. A step changes it by at most the cheapest step, so
        // it stays consistent, and a key pushed is at most a step, a turn
        // and a cheapest step above the key popped.
        let min_step = rock.iter().copied().min().unwrap_or(0).min(open_cost);
        let rows = crate::grid_search::RowOf::new(w);
        let aim = target.map(|t| {
            let (x, y) = rows.xy(t);
            (x as i32, y as i32)
        });
        let estimate = |c: usize| -> u32 {
            match aim {
                Some((tx, ty)) => {
                    let (x, y) = rows.xy(c);
                    (x as i32).abs_diff(tx) + (y as i32).abs_diff(ty)
                }
                None => 0,
            }
            .saturating_mul(min_step)
        };
        // Leave each door straight away from the vault.
        let first_cost =
            |&(_, start): &(u32, u32)| rock[usize::from(site.hardness[start as usize])];
        let first_key = |s: &(u32, u32)| first_cost(s) + estimate(s.1 as usize);
        let lowest = starts.iter().map(first_key).min()?;
        let highest = starts.iter().map(first_key).max()?;
        // The ring spans every key outstanding at once. Without a target,
        // a step and a turn (the first keys are all within a step of the
        // lowest), as before revision 9; aimed, also the spread of the
        // first keys and what the estimate may add in a step.
        let window = match aim {
            None => u64::from(max_step) + u64::from(turn) + 1,
            Some(_) => {
                u64::from(highest - lowest)
                    + u64::from(max_step)
                    + u64::from(turn)
                    + u64::from(min_step)
                    + 1
            }
        };
        let ring = window.next_power_of_two() as usize;
        if !site.budget.spend(ring / 16) {
            return None;
        }
        self.queue.reset(ring, lowest);
        for &(door, start) in starts {
            let (door, start) = (door as usize, start as usize);
            let out = Dir::ALL
                .into_iter()
                .find(|&d| offset(door, d, w) == start)
                .unwrap_or(Dir::North);
            let state = start * 2 + axis_of(out);
            let g = rock[usize::from(site.hardness[start])];
            self.cost[state] = g;
            self.came[state] = FROM_PORCH;
            self.touched.push(state as u32);
            self.queue.push(g + estimate(start), state as u32);
        }
        let allowed = site.budget.left().min(STEPS_PER_SIDE * (w + h));
        let mut steps = 0usize;
        let found = loop {
            let Some((key, state)) = self.queue.pop() else {
                break None;
            };
            steps += 1;
            if steps > allowed {
                break None;
            }
            let state = state as usize;
            let (c, axis) = (state >> 1, state & 1);
            let g = self.cost[state];
            if g + estimate(c) != key {
                continue; // superseded by a cheaper push
            }
            if site.tiles[c] != Tile::Rock || !rules.free(site, c) {
                // Open cells and other rooms' doors are pushed only as goals.
                break Some(state as u32);
            }
            for nd in Dir::ALL {
                let nc = offset(c, nd, w);
                if ends.own_door(nc) {
                    continue;
                }
                let step = match site.tiles[nc] {
                    Tile::Corridor if rules.free(site, nc) => {
                        if !ends.corridor(nc) {
                            continue;
                        }
                        open_cost
                    }
                    Tile::Door => match rules.ring_room(nc) {
                        Some(r) if ends.door(r, nc) => open_cost,
                        _ => continue,
                    },
                    Tile::Rock if rules.free(site, nc) => {
                        let known = self.slabs[nc];
                        let slab = if known >> 1 == number {
                            known & 1 != 0
                        } else {
                            let slab = completes_slab(w, nc, |m| open_or_drawn(rules, site, m));
                            self.slabs[nc] = number << 1 | u32::from(slab);
                            slab
                        };
                        if slab {
                            continue;
                        }
                        rock[usize::from(site.hardness[nc])]
                    }
                    // A new door of another room, where its rules allow.
                    Tile::Rock => match rules.ring_room(nc) {
                        Some(r) if ends.new_door(r, nc) && rules.usable_door(cfg, site, r, nc) => {
                            rock[usize::from(site.hardness[nc])]
                        }
                        _ => continue,
                    },
                    _ => continue,
                };
                let n_axis = axis_of(nd);
                let ng = g + step + if n_axis != axis { turn } else { 0 };
                if ng > COST_LIMIT {
                    continue;
                }
                let ns = nc * 2 + n_axis;
                let seen = self.cost[ns];
                if ng < seen {
                    if seen == UNSEEN {
                        self.touched.push(ns as u32);
                    }
                    self.cost[ns] = ng;
                    self.came[ns] = came_by(nd, axis);
                    self.queue.push(ng + estimate(nc), ns as u32);
                }
            }
        };
        site.budget.spend(steps);
        found
    }

    /// The cells of the last route opened, its goal first and the cell
    /// outside its door last.
    pub(super) fn last_route(&self) -> &[u32] {
        &self.path
    }

    /// The cells of the last search's route to `goal_state`, goal first,
    /// into `self.path`.
    fn trace(&mut self, goal_state: u32, width: usize) {
        self.path.clear();
        let mut s = goal_state as usize;
        loop {
            let c = s >> 1;
            self.path.push(c as u32);
            match self.came[s] {
                FROM_PORCH => break,
                code => {
                    let back = crate::geom::Dir::ALL[usize::from(code >> 1)].opposite();
                    s = offset(c, back, width) * 2 + usize::from(code & 1);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The aimed route's target is the nearest goal only if each ring
    /// holds every cell at its distance, once.
    #[test]
    fn each_ring_is_every_cell_at_its_distance_once() {
        for d in 1..=NEAREST_WITHIN {
            let mut cells: Vec<(i32, i32)> = (0..4 * d).map(|k| on_ring(d, k)).collect();
            assert!(
                cells.iter().all(|&(x, y)| x.abs() + y.abs() == d),
                "ring {d}"
            );
            assert_eq!(cells[0], (0, -d), "ring {d} starts north");
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len() as i32, 4 * d, "ring {d}");
        }
    }
}
