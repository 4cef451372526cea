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
//!    From generator revision 7 the same search runs on blocks of 3x3
//!    cells (4x4 from revision 9), each passage then dug as the cheapest
//!    way within the blocks the plan crosses (`coarse_join.rs`): a ninth
//!    of the cells searched (a sixteenth).
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

mod coarse_join;

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
    /// Per piece of open ground: its region's number, 0 for one filled back.
    kept: Vec<u32>,
    /// Per cell: the joining search's cost and tag (see [`Node`]).
    nodes: Vec<Node>,
    /// Per cell: its price to dig into, or [`NEVER`].
    steps: Vec<u16>,
    queue: BucketQueue,
    prices: Vec<u32>,
    /// (cost, cell, neighbour) where two regions' searches meet, found
    /// and not yet taken, cheapest first.
    meetings: BinaryHeap<Reverse<(u32, u32, u32)>>,
    sets: Sets,
    /// The open pieces, then the chambers.
    pieces: crate::pieces::Pieces,
    /// From generator revision 7, the join planned on blocks.
    coarse: coarse_join::CoarseScratch,
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
    // (A piece of open ground takes a cell and the rock beside it, so a
    // level has fewer than `cells / 2 + h` of them.)
    s.pieces.reserve(cells, w);
    s.kept.clear();
    s.kept.reserve(cells / 2 + h);
    s.meetings.clear();
    if config.revisions.generator < 7 {
        // Revision 6's search; revision 7's plan keeps lists of its own.
        s.meetings.reserve(2 * cells);
        s.queue.reserve(2 * cells);
    }
    s.open.clear();
    // Vaults and the cell round them stay rock (each cell off the border
    // draws all the same, so a vault moves nothing else).
    if config.revisions.generator >= 6 {
        fill_by_quarters(&mut s.open, fenced, w, h, cave.open_share, rng);
    } else {
        // Until generator revision 6, one Bernoulli for the level, drawn
        // as `random_bool` does, a cell at a time.
        let fill = Bernoulli::new(cave.open_share).map_err(|_| Rejected::TooFewRooms(0))?;
        for y in 0..h {
            let inside_row = y > 0 && y + 1 < h;
            for x in 0..w {
                let inside = inside_row && x > 0 && x + 1 < w;
                s.open
                    .push(inside && rng.sample(fill) && !fenced[y * w + x]);
            }
        }
    }
    for _ in 0..cave.passes {
        smooth(
            (&s.open, fenced),
            &mut s.next,
            &mut s.columns,
            w,
            cave.birth,
            cave.survival,
        );
        std::mem::swap(&mut s.open, &mut s.next);
    }
    let regions = find_regions(s, w, u32::from(cave.smallest_region));
    if regions == 0 {
        return Err(Rejected::TooFewRooms(0));
    }
    // Chambers are read off the automaton's ground, before passages are dug.
    mark_chambers(s, w);
    // Without a branch a cell: whether a cell is open is as good as
    // random to a branch predictor.
    for (((tile, hardness), &open), &chamber) in tiles
        .iter_mut()
        .zip(hardness.iter_mut())
        .zip(&s.open)
        .zip(&s.next)
    {
        let ground = [Tile::Corridor, Tile::Floor][usize::from(chamber)];
        *tile = [*tile, ground][usize::from(open)];
        *hardness &= u8::from(open).wrapping_sub(1);
    }
    if config.revisions.generator >= 7 {
        rock_costs(config, &mut s.prices);
        let Scratch {
            region,
            prices,
            sets,
            coarse,
            ..
        } = s;
        let mut cave = coarse_join::Cave {
            w,
            region,
            tiles,
            hardness,
            fenced,
            prices,
            sets,
            budget,
        };
        match coarse_join::side(config.revisions.generator) {
            3 => coarse_join::join::<3>(coarse, &mut cave, regions)?,
            _ => coarse_join::join::<4>(coarse, &mut cave, regions)?,
        }
    } else {
        join_regions(s, config, w, regions, (tiles, hardness), fenced);
    }
    let chambers = label_areas(s, w, vaults);
    kinds.chambers = true;
    Ok(chambers)
}

/// Generator revision 6's random fill: each cell off the border takes
/// the next quarter (16 bits) of a 64-bit draw and starts open if it is
/// below `share` of 2^16. A Bernoulli draw a cell cost a draw of the
/// 128-bit generator each, a tenth of the cave's time; a quarter of one
/// is a shift and a compare, and `share` is kept to within 2^-17.
///
/// The draws are made 64 at a time into a buffer of quarters: a draw's
/// quarters, lowest first, are the next four cells off the border in
/// reading order, so the cells are then straight compares over runs of
/// quarters, and the draws' chain of multiplies is not held up by the
/// cells.
fn fill_by_quarters(
    open: &mut Vec<bool>,
    fenced: &[bool],
    w: usize,
    h: usize,
    share: f64,
    rng: &mut Pcg64,
) {
    const WORDS: usize = 64;
    // `share` is in (0, 1) (`Config::validate`): at most 2^16, which a
    // quarter (below 2^16) is always under.
    let below = (share * 65536.0).round() as u32;
    open.resize(w * h, false);
    let mut words_left = ((w - 2) * (h - 2)).div_ceil(4);
    let mut quarters = [0u16; 4 * WORDS];
    let (mut at, mut held) = (0, 0);
    for y in 1..h - 1 {
        let (mut x, end) = (y * w + 1, y * w + w - 1);
        while x < end {
            if at == held {
                let words = words_left.min(WORDS);
                for four in quarters.as_chunks_mut::<4>().0[..words].iter_mut() {
                    let word = rng.random::<u64>();
                    *four = [0, 16, 32, 48].map(|shift| (word >> shift) as u16);
                }
                words_left -= words;
                (at, held) = (0, 4 * words);
            }
            let take = (held - at).min(end - x);
            for ((cell, &fence), &quarter) in open[x..x + take]
                .iter_mut()
                .zip(&fenced[x..x + take])
                .zip(&quarters[at..at + take])
            {
                // `&`, not `&&`: a branch on a coin toss is mispredicted
                // half the time.
                *cell = (u32::from(quarter) < below) & !fence;
            }
            (x, at) = (x + take, at + take);
        }
    }
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
/// border and the `fenced` cells stay rock.
fn smooth(
    (open, fenced): (&[bool], &[bool]),
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
    for ((rows, out), fenced) in open
        .windows(3 * w)
        .step_by(w)
        .zip(next[w..].chunks_exact_mut(w))
        .zip(fenced[w..].chunks_exact(w))
    {
        let (up, rest) = rows.split_at(w);
        let (mid, down) = rest.split_at(w);
        for (((sum, &a), &b), &c) in columns.iter_mut().zip(up).zip(mid).zip(down) {
            *sum = u8::from(a) + u8::from(b) + u8::from(c);
        }
        for (((((cell, &left), &centre), &right), &here), &fence) in out[1..w - 1]
            .iter_mut()
            .zip(&columns[..w - 2])
            .zip(&columns[1..w - 1])
            .zip(&columns[2..])
            .zip(&mid[1..w - 1])
            .zip(&fenced[1..w - 1])
        {
            let around = left + centre + right - u8::from(here);
            let open = if here {
                around >= survival
            } else {
                around >= birth
            };
            *cell = open & !fence;
        }
    }
}

/// Labels the open pieces into `s.region` (fills back those smaller than
/// `smallest`) and returns how many are left, numbered in the order of
/// their first cells.
fn find_regions(s: &mut Scratch, w: usize, smallest: u32) -> u32 {
    let Scratch {
        open,
        region,
        kept: numbers,
        pieces,
        ..
    } = s;
    pieces.label(open, w);
    region.clear();
    region.resize(open.len(), 0);
    // Each piece's number among those kept, 0 for one filled back.
    let mut kept = 0u32;
    numbers.clear();
    numbers.extend(pieces.pieces().iter().map(|piece| {
        if piece.cells >= smallest {
            kept += 1;
            kept
        } else {
            0
        }
    }));
    for run in pieces.runs() {
        let cells = run.start as usize..run.end as usize;
        match numbers[run.piece as usize] {
            0 => open[cells].fill(false),
            id => region[cells].fill(id),
        }
    }
    kept
}

/// One cell of the joining search: its cost from the nearest region and
/// a tag holding its region (reached from, for rock), the way it was
/// reached and whether it is settled. Eight bytes, so two neighbours of a
/// row share a cache line more often and the grid's nodes take half the
/// cache they took as four words.
#[derive(Clone, Copy, Default)]
pub(in crate::generate) struct Node {
    cost: u32,
    tag: u32,
}

/// In [`Node::tag`]: the search has settled the cell.
const SETTLED: u32 = 1 << 31;
/// In [`Node::tag`]: the cell's region (a cave has fewer than 2^28 cells).
const REGION: u32 = (1 << 28) - 1;
/// In [`Node::tag`], shifted: which of its neighbours (as
/// [`orthogonal`] lists them) the cell was, seen from the cell it was
/// reached from.
const CAME_SHIFT: u32 = 28;
/// A cell's step price never dug: the border (and any rock of hardness
/// 255), a vault and the cell round it.
const NEVER: u16 = u16::MAX;

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
    let Scratch {
        region,
        nodes,
        steps,
        queue,
        prices,
        meetings,
        sets,
        ..
    } = s;
    // Each cell's price to dig into, looked up once: the border's hardness
    // is 255 and it is never dug; nor a vault, nor the cell round it. A
    // price is at most 10,000 and 16 a point of hardness (`validate`).
    let price = |h: u8| prices[usize::from(h)].min(u32::from(NEVER) - 1) as u16;
    steps.clear();
    steps.extend(
        hardness
            .iter()
            .zip(fenced.iter())
            .map(|(&h, &fence)| if h == 255 || fence { NEVER } else { price(h) }),
    );
    nodes.clear();
    nodes.extend(region.iter().map(|&region| Node {
        cost: if region != 0 { 0 } else { UNSEEN },
        tag: region,
    }));
    queue.reset((highest as usize + 1).next_power_of_two(), 0);
    // Only a region's cells beside rock start the search: a cell with its
    // own region all round finds nothing to reach or meet, so leaving it
    // out changes nothing (the queue keeps the others' order).
    for c in w..cells - w {
        if region[c] != 0
            && (region[c - w] == 0
                || region[c + 1] == 0
                || region[c + w] == 0
                || region[c - 1] == 0)
        {
            queue.push(0, c as u32);
        }
    }
    meetings.clear();
    sets.reset(regions as usize + 1);
    let mut joins = 1;
    let (nodes, steps) = (&mut nodes[..], &steps[..]);
    // One search from every region at once; each rock cell takes the
    // region of the cell it was reached from. Kruskal's rule runs as the
    // search goes: a meeting is found when the second of its two cells is
    // settled, and once the search has settled every cell cheaper than
    // `cost`, every meeting cheaper than `cost` has been found, so those
    // are taken in order (the same order as sorting them all at the end),
    // and the search stops at the join that makes the cave one piece.
    while let Some((cost, c)) = queue.pop() {
        let c = c as usize;
        let here = nodes[c];
        if cost > here.cost {
            continue;
        }
        while let Some(&Reverse((sum, a, b))) = meetings.peek() {
            if sum >= cost {
                break;
            }
            meetings.pop();
            if take(nodes, w, sets, a, b, tiles, hardness) {
                joins += 1;
                if joins == regions {
                    return;
                }
            }
        }
        let rc = here.tag & REGION;
        nodes[c].tag = here.tag | SETTLED;
        for (k, n) in orthogonal(c, w).into_iter().enumerate() {
            let there = nodes[n];
            if there.tag & SETTLED != 0 {
                let rn = there.tag & REGION;
                // A meeting of two regions already joined would only be
                // refused when taken: leave it out of the heap.
                if rn != rc && sets.find(rc as usize) != sets.find(rn as usize) {
                    let sum = cost + there.cost;
                    meetings.push(Reverse((sum, c.min(n) as u32, c.max(n) as u32)));
                }
                continue;
            }
            // A region's own cells cost 0 and are settled first.
            let step = steps[n];
            if step == NEVER {
                continue;
            }
            let next = cost + u32::from(step);
            if next < there.cost {
                nodes[n] = Node {
                    cost: next,
                    tag: rc | (k as u32) << CAME_SHIFT,
                };
                queue.push(next, n as u32);
            }
        }
    }
    while let Some(Reverse((_, a, b))) = meetings.pop() {
        if take(nodes, w, sets, a, b, tiles, hardness) {
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
    w: usize,
    sets: &mut Sets,
    a: u32,
    b: u32,
    tiles: &mut [Tile],
    hardness: &mut [u8],
) -> bool {
    let (ra, rb) = (
        nodes[a as usize].tag & REGION,
        nodes[b as usize].tag & REGION,
    );
    if !sets.union(ra as usize, rb as usize) {
        return false;
    }
    for end in [a, b] {
        let mut c = end as usize;
        while nodes[c].cost != 0 {
            tiles[c] = Tile::Corridor;
            hardness[c] = 0;
            c = back(c, nodes[c].tag >> CAME_SHIFT, w);
        }
    }
    true
}

/// The cell (or block) a search reached `c` from, in a grid `w` wide:
/// the opposite of neighbour `k` of it (as [`orthogonal`] lists them).
fn back(c: usize, k: u32, w: usize) -> usize {
    match k & 3 {
        0 => c + w,
        1 => c - 1,
        2 => c - w,
        _ => c + 1,
    }
}

impl Scratch {
    /// The level's map of areas (each cell's area index + 1, 0 for none)
    /// for the cave laid last, now `rooms` with its `vaults` first: the
    /// chambers are the pieces [`label_areas`] found, so their cells are
    /// filled a run at a time where [`mark_areas`](crate::layout::mark_areas)
    /// would flood each again from its first cell. The same map: a
    /// chamber is a whole orthogonal piece of floor off the vaults' fence
    /// and stairs stand only on floor; no floor is laid or dug after it.
    pub(in crate::generate) fn area_map(
        &self,
        w: usize,
        tiles: &[Tile],
        rooms: &[Room],
        vaults: usize,
    ) -> Vec<u16> {
        let mut area_of = vec![0; tiles.len()];
        for run in self.pieces.runs() {
            let id = (vaults + run.piece as usize) as u16 + 1;
            area_of[run.start as usize..run.end as usize].fill(id);
        }
        crate::layout::mark_areas(&mut area_of, w, tiles, &rooms[..vaults], true);
        area_of
    }
}

/// Each orthogonal piece of chamber floor as an area, in the order of its
/// first cell (a vault's floor, fenced, is no chamber's).
fn label_areas(s: &mut Scratch, w: usize, vaults: usize) -> Vec<Room> {
    // Chamber floor is the chambers marked in `next`: a vault's floor is
    // fenced, where no ground opens, and passages dig only rock.
    let Scratch { pieces, next, .. } = s;
    pieces.label(next, w);
    // The level's own list, made once at its size.
    let mut rooms = Vec::with_capacity(vaults + s.pieces.pieces().len());
    rooms.extend(s.pieces.pieces().iter().map(|p| {
        let extent = (
            usize::from(p.x0),
            usize::from(p.y0),
            usize::from(p.x1),
            usize::from(p.y1),
        );
        region_room(extent, p.first as usize, w, RegionKind::Chamber)
    }));
    rooms
}

#[cfg(test)]
mod tests {
    use crate::config::{Config, LevelKind};
    use crate::generate::Generator;

    /// The fill, its draws made 64 at a time, gives each cell off the
    /// border the quarter a draw a cell at a time gave it (and leaves the
    /// generator where that left it), at widths whose rows end at every
    /// place in a draw's four quarters, on grids of fewer cells than one
    /// buffer of draws holds and of many buffers, with and without fences.
    #[test]
    fn the_fill_gives_each_cell_its_quarter_in_reading_order() {
        use rand::{RngExt, SeedableRng};
        for (w, h) in [
            (15, 15),
            (16, 15),
            (17, 16),
            (18, 20),
            (150, 150),
            (301, 152),
        ] {
            for fence_share in [0.0, 0.2] {
                let mut rng = rand_pcg::Pcg64::seed_from_u64(w as u64 * 1000 + h as u64);
                let fenced: Vec<bool> = (0..w * h).map(|_| rng.random_bool(fence_share)).collect();
                let share = 0.45;
                let below = (share * 65536.0f64).round() as u32;
                let mut want = vec![false; w * h];
                let mut reference = rand_pcg::Pcg64::seed_from_u64(7);
                let (mut word, mut left) = (0u64, 0);
                for y in 1..h - 1 {
                    for x in 1..w - 1 {
                        if left == 0 {
                            (word, left) = (reference.random::<u64>(), 4);
                        }
                        want[y * w + x] = (word as u16 as u32) < below && !fenced[y * w + x];
                        word >>= 16;
                        left -= 1;
                    }
                }
                let mut open = Vec::new();
                let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
                super::fill_by_quarters(&mut open, &fenced, w, h, share, &mut rng);
                assert_eq!(open, want, "{w}x{h}");
                assert_eq!(
                    rng.random::<u64>(),
                    reference.random::<u64>(),
                    "{w}x{h}: draws"
                );
            }
        }
    }

    /// A cave's map of areas, drawn from its labelled pieces, is the map
    /// flooding each area from its first cell draws, on caves with vaults
    /// and without, at three sizes (one whose rows end in a part block),
    /// and with smoothing that leaves chambers in many pieces.
    #[test]
    fn the_chambers_map_is_the_flooded_map() {
        let shipped = crate::vault::shipped();
        let configs = [
            Config {
                kind: LevelKind::Cave,
                ..Config::default()
            },
            Config {
                kind: LevelKind::Cave,
                width: 61,
                height: 31,
                cave: crate::config::CaveConfig {
                    open_share: 0.55,
                    passes: 2,
                    survival: 3,
                    smallest_region: 5,
                    ..Config::default().cave
                },
                ..Config::default()
            },
            // A width whose last block of a row is two cells wide.
            Config {
                kind: LevelKind::Cave,
                width: 62,
                height: 40,
                ..Config::default()
            },
        ];
        let mut generator = Generator::default();
        let (mut chambers, mut in_vaults) = (0, 0);
        for config in &configs {
            config.validate().expect("a valid config");
            for vaults in [&[][..], shipped] {
                for seed in 4100..4115 {
                    let level = generator.level(config, vaults, seed, 3).expect("a cave");
                    let mut flooded = vec![0; level.area_of.len()];
                    let w = usize::from(level.width());
                    crate::layout::mark_areas(&mut flooded, w, level.tiles(), level.rooms(), true);
                    assert_eq!(level.area_of, flooded, "seed {seed}");
                    chambers += level.rooms().len();
                    in_vaults += level
                        .rooms()
                        .iter()
                        .filter(|r| matches!(r.shape, crate::geom::Shape::Vault(_)))
                        .count();
                }
            }
        }
        assert!(chambers > 500, "only {chambers} areas");
        assert!(in_vaults > 5, "only {in_vaults} vaults");
    }
}
