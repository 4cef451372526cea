//! Cave levels: organic caverns grown by a cellular automaton.
//!
//! 1. Random fill: each cell off the border starts open with chance
//!    `cave.open_share`.
//! 2. Smoothing passes, Brogue's `designCavern` and Angband's caverns'
//!    rule: a rock cell with at least `birth` open neighbours of its eight
//!    opens, an open cell with fewer than `survival` closes (cells off the
//!    level count as rock).
//! 3. Open regions (orthogonal pieces) smaller than `smallest_region` are
//!    filled back with rock.
//! 4. The rest are joined into one piece by passages dug through rock as
//!    the Tunnel prices it (hardness, `tunnel.*`): one search from every
//!    region at once finds, for each rock cell, the cheapest way to the
//!    nearest region; where two regions' searches meet is a candidate
//!    passage, and Kruskal's rule over the candidates, cheapest first,
//!    with a union-find of the regions, keeps the passages that join a
//!    region to another not yet joined (a minimum spanning tree of the
//!    regions under the Tunnel's prices).
//! 5. Open ground a 3x3 block of open cells covers is chamber floor; each
//!    orthogonal piece of it is an area of the level (a node of its
//!    graph), and every other open cell is passage (corridor), an edge.
//!
//! Draws only from its own stream; the result depends on (config, hardness,
//! stream) alone.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rand::RngExt;
use rand::distr::Bernoulli;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::{RegionKind, Shape};
use crate::grid_search::{BucketQueue, orthogonal};
use crate::level::{Room, Tile};
use crate::sets::Sets;

use super::super::Rejected;
use super::super::WorkStage;
use super::super::budget::Budget;
use super::super::corridors::site::rock_costs;
use super::region_room;

/// A cave: chambers, with no doors of their own.
pub(crate) const KIND: super::Kind = super::Kind {
    lay: Some(lay),
    areas: super::Areas {
        fits: |s| matches!(s, Shape::Region(r) if r.kind == RegionKind::Chamber),
        max_doors: |_| 0,
        what: "a chamber",
        counted: false,
    },
};

/// Not reached by the search.
const UNSEEN: u32 = u32::MAX;
/// Never dug by the search.
const BLOCKED: u32 = u32::MAX;

/// The cave's buffers, kept from level to level.
#[derive(Default)]
pub(in crate::generate) struct Scratch {
    open: Vec<bool>,
    next: Vec<bool>,
    /// One row's column sums of three cells, for smoothing.
    columns: Vec<u8>,
    /// Chambers: cells with open ground either side, then again each
    /// cell with a block's centre above, on or below it.
    across: Vec<bool>,
    /// Chambers: the centres of 3x3 blocks of open ground.
    centre: Vec<bool>,
    /// Per cell: its region (index + 1), 0 for rock.
    region: Vec<u32>,
    sizes: Vec<u32>,
    stack: Vec<u32>,
    /// Per cell: the joining search's state.
    nodes: Vec<Node>,
    queue: BucketQueue,
    prices: Vec<u32>,
    /// (cost, cell, neighbour) where two regions' searches meet, found
    /// and not yet taken, cheapest first.
    meetings: BinaryHeap<Reverse<(u32, u32, u32)>>,
    sets: Sets,
    /// Each chamber's extent and first cell, as found.
    found: Vec<((usize, usize, usize, usize), usize)>,
}

/// Lays a cave into `tiles` (all rock on entry) and `hardness` (the noise,
/// border 255), and returns its chambers as areas.
pub(in crate::generate) fn lay(
    kinds: &mut super::Kinds,
    config: &Config,
    tiles: &mut [Tile],
    hardness: &mut [u8],
    rng: &mut Pcg64,
    budget: &Budget,
    vaults: usize,
) -> Result<Vec<Room>, Rejected> {
    let super::Kinds {
        cave: s, fenced, ..
    } = kinds;
    let (w, h) = (usize::from(config.width), usize::from(config.height));
    let cells = w * h;
    let cave = &config.cave;
    // Fill, passes, regions, the search and the chambers each walk the grid
    // a few times.
    if !budget.spend(cells * (usize::from(cave.passes) + 12)) {
        return Err(Rejected::OverBudget(WorkStage::PlacingRooms));
    }
    // Each list at its largest size at once, so a warm generator's lists
    // grow once per size of level rather than level by level.
    s.stack.reserve(cells);
    s.sizes.reserve(cells / 2);
    s.meetings.reserve(2 * cells);
    s.found.reserve(cells / 9 + 1);
    s.queue.reserve(2 * cells);
    s.open.clear();
    // Vaults and the cell round them stay rock (each cell off the border
    // draws all the same, so a vault moves nothing else). One Bernoulli
    // for the level draws as `random_bool` does, a cell at a time.
    let fill = Bernoulli::new(cave.open_share).map_err(|_| Rejected::TooFewRooms(0))?;
    for y in 0..h {
        let inside_row = y > 0 && y + 1 < h;
        for x in 0..w {
            let inside = inside_row && x > 0 && x + 1 < w;
            s.open
                .push(inside && rng.sample(fill) && !fenced[y * w + x]);
        }
    }
    for _ in 0..cave.passes {
        smooth(
            &s.open,
            &mut s.next,
            &mut s.columns,
            w,
            cave.birth,
            cave.survival,
        );
        std::mem::swap(&mut s.open, &mut s.next);
        for (open, &fence) in s.open.iter_mut().zip(fenced.iter()) {
            *open &= !fence;
        }
    }
    let regions = find_regions(s, w, u32::from(cave.smallest_region));
    if regions == 0 {
        return Err(Rejected::TooFewRooms(0));
    }
    // Chambers are read off the automaton's ground, before passages are dug.
    mark_chambers(s, w);
    for c in 0..cells {
        if s.open[c] {
            tiles[c] = if s.next[c] {
                Tile::Floor
            } else {
                Tile::Corridor
            };
            hardness[c] = 0;
        }
    }
    join_regions(s, config, w, regions, (tiles, hardness), fenced);
    Ok(label_areas(s, w, tiles, fenced, vaults))
}

/// Marks in `s.next` the open cells a 3x3 block of open cells covers:
/// which 3x3 blocks are all open (three across, then three of those
/// down), then every cell such a block covers (spread down, then across),
/// each step one straight run over the grid. The border is never open,
/// so a run that wraps from one row's end to the next row's start only
/// ever meets rock there.
fn mark_chambers(s: &mut Scratch, w: usize) {
    let cells = s.open.len();
    let (open, across, centre, next) = (&s.open, &mut s.across, &mut s.centre, &mut s.next);
    for grid in [&mut *across, &mut *centre, &mut *next] {
        grid.clear();
        grid.resize(cells, false);
    }
    for (((out, &a), &b), &c) in across[1..cells - 1]
        .iter_mut()
        .zip(&open[..cells - 2])
        .zip(&open[1..cells - 1])
        .zip(&open[2..])
    {
        *out = a & b & c;
    }
    for (((out, &a), &b), &c) in centre[w..cells - w]
        .iter_mut()
        .zip(&across[..cells - 2 * w])
        .zip(&across[w..cells - w])
        .zip(&across[2 * w..])
    {
        *out = a & b & c;
    }
    // `across` again, now each cell with a block's centre above, on or
    // below it.
    across.fill(false);
    for (((out, &a), &b), &c) in across[w..cells - w]
        .iter_mut()
        .zip(&centre[..cells - 2 * w])
        .zip(&centre[w..cells - w])
        .zip(&centre[2 * w..])
    {
        *out = a | b | c;
    }
    for (((out, &a), &b), &c) in next[1..cells - 1]
        .iter_mut()
        .zip(&across[..cells - 2])
        .zip(&across[1..cells - 1])
        .zip(&across[2..])
    {
        *out = a | b | c;
    }
}

/// One smoothing pass from `open` into `next`, a row at a time: first
/// each column's three cells summed (`columns`), then three columns a
/// cell, in straight runs over slices the compiler can vectorise. The
/// border stays rock.
fn smooth(
    open: &[bool],
    next: &mut Vec<bool>,
    columns: &mut Vec<u8>,
    w: usize,
    birth: u8,
    survival: u8,
) {
    next.clear();
    next.resize(open.len(), false);
    columns.clear();
    columns.resize(w, 0);
    for (rows, out) in open
        .windows(3 * w)
        .step_by(w)
        .zip(next[w..].chunks_exact_mut(w))
    {
        let (up, rest) = rows.split_at(w);
        let (mid, down) = rest.split_at(w);
        for (((sum, &a), &b), &c) in columns.iter_mut().zip(up).zip(mid).zip(down) {
            *sum = u8::from(a) + u8::from(b) + u8::from(c);
        }
        for ((cell, three), &here) in out[1..w - 1]
            .iter_mut()
            .zip(columns.windows(3))
            .zip(&mid[1..w - 1])
        {
            let around = three[0] + three[1] + three[2] - u8::from(here);
            *cell = if here {
                around >= survival
            } else {
                around >= birth
            };
        }
    }
}

/// Labels the open pieces into `s.region` (fills back those smaller than
/// `smallest`) and returns how many are left.
fn find_regions(s: &mut Scratch, w: usize, smallest: u32) -> u32 {
    let cells = s.open.len();
    s.region.clear();
    s.region.resize(cells, 0);
    s.sizes.clear();
    for start in 0..cells {
        if !s.open[start] || s.region[start] != 0 {
            continue;
        }
        let id = s.sizes.len() as u32 + 1;
        s.region[start] = id;
        s.stack.clear();
        s.stack.push(start as u32);
        let mut size = 0u32;
        while let Some(c) = s.stack.pop() {
            size += 1;
            for n in orthogonal(c as usize, w) {
                if s.open[n] && s.region[n] == 0 {
                    s.region[n] = id;
                    s.stack.push(n as u32);
                }
            }
        }
        s.sizes.push(size);
    }
    // Renumber the kept regions 1..=k in order; fill back the rest.
    // (In place: each size becomes the region's new number.)
    let mut kept = 0u32;
    for size in &mut s.sizes {
        *size = if *size >= smallest {
            kept += 1;
            kept
        } else {
            0
        };
    }
    for c in 0..cells {
        if s.region[c] != 0 {
            s.region[c] = s.sizes[s.region[c] as usize - 1];
            s.open[c] = s.region[c] != 0;
        }
    }
    kept
}

/// One cell of the joining search: its cost from the nearest region, the
/// cell it was reached from (itself for a region's), its region (with
/// [`SETTLED`] once its cost is final) and its price to dig into (or
/// [`BLOCKED`]), side by side so a neighbour is one read.
#[derive(Clone, Copy, Default)]
pub(in crate::generate) struct Node {
    cost: u32,
    came: u32,
    region: u32,
    step: u32,
}

/// In [`Node::region`]: the search has settled the cell.
const SETTLED: u32 = 1 << 31;

/// Joins the `regions` into one piece: passages through rock, priced as
/// the Tunnel prices its corridors, chosen as a minimum spanning tree.
fn join_regions(
    s: &mut Scratch,
    config: &Config,
    w: usize,
    regions: u32,
    (tiles, hardness): (&mut [Tile], &mut [u8]),
    fenced: &[bool],
) {
    if regions < 2 {
        return;
    }
    let cells = tiles.len();
    rock_costs(config, &mut s.prices);
    let highest = s.prices[..255].iter().copied().max().unwrap_or(1);
    // Each cell's price to dig into, looked up once: the border's hardness
    // is 255 and it is never dug; nor a vault, nor the cell round it.
    let prices = &s.prices;
    s.nodes.clear();
    s.nodes
        .extend(hardness.iter().zip(fenced).zip(&s.region).enumerate().map(
            |(c, ((&h, &fence), &region))| {
                if region != 0 {
                    Node {
                        cost: 0,
                        came: c as u32,
                        region,
                        step: prices[usize::from(h)],
                    }
                } else {
                    Node {
                        cost: UNSEEN,
                        came: 0,
                        region: 0,
                        step: if h == 255 || fence {
                            BLOCKED
                        } else {
                            prices[usize::from(h)]
                        },
                    }
                }
            },
        ));
    s.queue.reset((highest as usize + 1).next_power_of_two(), 0);
    // Only a region's cells beside rock start the search: a cell with its
    // own region all round finds nothing to reach or meet, so leaving it
    // out changes nothing (the queue keeps the others' order).
    let region = &s.region;
    for c in w..cells - w {
        if region[c] != 0
            && (region[c - w] == 0
                || region[c + 1] == 0
                || region[c + w] == 0
                || region[c - 1] == 0)
        {
            s.queue.push(0, c as u32);
        }
    }
    s.meetings.clear();
    s.sets.reset(regions as usize + 1);
    let mut joins = 1;
    let nodes = &mut s.nodes;
    // One search from every region at once; each rock cell takes the
    // region of the cell it was reached from. Kruskal's rule runs as the
    // search goes: a meeting is found when the second of its two cells is
    // settled, and once the search has settled every cell cheaper than
    // `cost`, every meeting cheaper than `cost` has been found, so those
    // are taken in order (the same order as sorting them all at the end),
    // and the search stops at the join that makes the cave one piece.
    while let Some((cost, c)) = s.queue.pop() {
        let c = c as usize;
        let here = nodes[c];
        if cost > here.cost {
            continue;
        }
        while let Some(&Reverse((sum, a, b))) = s.meetings.peek() {
            if sum >= cost {
                break;
            }
            s.meetings.pop();
            if take(nodes, &mut s.sets, a, b, tiles, hardness) {
                joins += 1;
                if joins == regions {
                    return;
                }
            }
        }
        let rc = here.region & !SETTLED;
        nodes[c].region = rc | SETTLED;
        for n in orthogonal(c, w) {
            let there = nodes[n];
            if there.region & SETTLED != 0 {
                if there.region != rc | SETTLED {
                    let sum = cost + there.cost;
                    s.meetings
                        .push(Reverse((sum, c.min(n) as u32, c.max(n) as u32)));
                }
                continue;
            }
            // A region's own cells cost 0 and are settled first.
            if there.step == BLOCKED {
                continue;
            }
            let next = cost + there.step;
            if next < there.cost {
                nodes[n] = Node {
                    cost: next,
                    came: c as u32,
                    region: rc,
                    step: there.step,
                };
                s.queue.push(next, n as u32);
            }
        }
    }
    while let Some(Reverse((_, a, b))) = s.meetings.pop() {
        if take(nodes, &mut s.sets, a, b, tiles, hardness) {
            joins += 1;
            if joins == regions {
                return;
            }
        }
    }
}

/// Takes the meeting of cells `a` and `b` when it joins two regions not
/// yet joined: digs both cells' ways back to their regions.
fn take(
    nodes: &[Node],
    sets: &mut Sets,
    a: u32,
    b: u32,
    tiles: &mut [Tile],
    hardness: &mut [u8],
) -> bool {
    let (ra, rb) = (
        nodes[a as usize].region & !SETTLED,
        nodes[b as usize].region & !SETTLED,
    );
    if !sets.union(ra as usize, rb as usize) {
        return false;
    }
    for end in [a, b] {
        let mut c = end as usize;
        while nodes[c].cost != 0 {
            tiles[c] = Tile::Corridor;
            hardness[c] = 0;
            c = nodes[c].came as usize;
        }
    }
    true
}

/// Each orthogonal piece of chamber floor as an area, in the order of its
/// first cell (a vault's floor, fenced, is no chamber's).
fn label_areas(
    s: &mut Scratch,
    w: usize,
    tiles: &[Tile],
    fenced: &[bool],
    vaults: usize,
) -> Vec<Room> {
    let cells = tiles.len();
    s.region.clear();
    s.region.resize(cells, 0);
    s.found.clear();
    for start in 0..cells {
        // A vault's floor is the vault's.
        if tiles[start] != Tile::Floor || s.region[start] != 0 || fenced[start] {
            continue;
        }
        s.region[start] = 1;
        s.stack.clear();
        s.stack.push(start as u32);
        let (mut x0, mut y0, mut x1, mut y1) = (w, usize::MAX, 0, 0);
        while let Some(c) = s.stack.pop() {
            let (x, y) = (c as usize % w, c as usize / w);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            for n in orthogonal(c as usize, w) {
                if tiles[n] == Tile::Floor && s.region[n] == 0 {
                    s.region[n] = 1;
                    s.stack.push(n as u32);
                }
            }
        }
        s.found.push(((x0, y0, x1, y1), start));
    }
    // The level's own list, made once at its size.
    let mut rooms = Vec::with_capacity(vaults + s.found.len());
    rooms.extend(
        s.found
            .iter()
            .map(|&(extent, anchor)| region_room(extent, anchor, w, RegionKind::Chamber)),
    );
    rooms
}
