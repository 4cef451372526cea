//! Generator revision 7's join of a cave's regions: planned on blocks of
//! `SIDE` x `SIDE` cells (3x3 under revisions 7 and 8, 4x4 from 9), dug
//! cell by cell.
//!
//! Revision 6's one search from every region at once settled about 18,000
//! of a 150x150 cave's 22,500 cells, at some 34 ns each: the last join
//! needs the search to reach the most isolated region, and by then it has
//! covered the rock. Here the same search (every region at once, Kruskal's
//! rule over where the regions' searches meet) runs on blocks, a ninth of
//! the cells (a sixteenth from revision 9), each block priced by the cheapest rock in it that may be
//! dug. Each meeting it takes names a way of blocks from one region to
//! another; the passage is the cheapest way through rock (as the Tunnel
//! prices it) within those blocks, found by a search kept to them, or
//! anywhere if those blocks hold none (a vault's fence across them, say).
//! A passage may cross the open ground of a third region without digging
//! it, which joins that region too.
//!
//! Every rock cell a way through rock could cross lies in a block the plan
//! may cross, so the plan leaves a cave in one piece whenever revision 6's
//! search would. Where a cave cannot be one piece (a region walled in by
//! vaults and the border), it may leave more pieces apart than revision 6
//! did: a region whose only block another, walled-in region owns is
//! joined only through that region. Such an attempt is refused either
//! way.
//!
//! Costs are `u32`: a step costs at most 14,064 (`validate`), so a cost
//! overflows only past a passage of some 305,000 cells of the hardest
//! rock, far beyond any level's cheapest way.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid_search::{BucketQueue, orthogonal};
use crate::level::Tile;
use crate::sets::Sets;

use super::super::super::Rejected;
use super::super::super::WorkStage;
use super::super::super::budget::Budget;
use super::{CAME_SHIFT, Node, REGION, SETTLED, UNSEEN, back};

/// A block's side in cells, `SIDE` in the functions below: 3 in
/// generator revisions 7 and 8; 4 from revision 9, with a little over
/// half as many blocks to search and passages about 1% longer (see
/// `docs/performance.md`).
pub(super) const fn side(generator: u16) -> usize {
    if generator >= 9 { 4 } else { 3 }
}
/// In a fine search's tag: the cell is a source (the way back ends here).
const SOURCE: u32 = 4;

/// The blocks, their search, and the fine searches that dig each passage,
/// kept from level to level.
#[derive(Default)]
pub(in crate::generate) struct CoarseScratch {
    /// Per block (with a ring of blocks round the level that is never
    /// crossed, so every block searched has four neighbours): the
    /// cheapest price of its rock cells that may be dug ([`UNSEEN`] if
    /// none), and the first region with a cell in it (0 if none).
    price: Vec<u32>,
    owner: Vec<u32>,
    /// Per block: the coarse search's cost and tag (region, way in,
    /// settled), as [`Node`] is for cells.
    nodes: Vec<Node>,
    queue: BucketQueue,
    /// (cost, block, block) where two regions' searches meet, cheapest
    /// first.
    meetings: BinaryHeap<Reverse<(u32, u32, u32)>>,
    /// Per cell: the last dig whose search was kept to its block (digs
    /// are numbered on from level to level, `mark` the last).
    allowed: Vec<u32>,
    mark: u32,
    /// The blocks of the way of the meeting being dug.
    way: Vec<u32>,
    /// (block, region) for each region after the first with cells in a
    /// block: joined to the block's first before the search.
    shared: Vec<(u32, u32)>,
    /// Per cell: a fine search's cost and tag (way in, or [`SOURCE`]).
    fine: Vec<Node>,
    fine_queue: BucketQueue,
    /// The cells the last fine search reached, to forget before the next.
    reached: Vec<u32>,
}

/// What the join reads and digs.
pub(super) struct Cave<'a> {
    pub(super) w: usize,
    /// Per cell: its region (from 1), 0 for rock; a passage dug takes the
    /// region it was dug from.
    pub(super) region: &'a mut [u32],
    pub(super) tiles: &'a mut [Tile],
    pub(super) hardness: &'a mut [u8],
    pub(super) fenced: &'a [bool],
    /// Price of a step into rock by hardness.
    pub(super) prices: &'a [u32],
    pub(super) sets: &'a mut Sets,
    pub(super) budget: &'a Budget,
}

impl Cave<'_> {
    /// Whether cell `c` is rock that is never dug: the border (hardness
    /// 255), a vault and the cell round it.
    fn never(&self, c: usize) -> bool {
        self.region[c] == 0 && (self.hardness[c] == 255 || self.fenced[c])
    }

    /// The set of the region of open cell `c`.
    fn set_of(&self, c: usize) -> usize {
        self.sets.find(self.region[c] as usize)
    }
}

/// Joins the cave's `regions` into one piece as the module says, or
/// leaves it in pieces where it cannot be one (the level's check then
/// refuses it).
pub(super) fn join<const SIDE: usize>(
    s: &mut CoarseScratch,
    cave: &mut Cave<'_>,
    regions: u32,
) -> Result<(), Rejected> {
    if regions < 2 {
        return Ok(());
    }
    let w = cave.w;
    let cells = cave.tiles.len();
    let h = cells / w;
    let (bw, bh) = (w.div_ceil(SIDE) + 2, h.div_ceil(SIDE) + 2);
    let blocks = bw * bh;
    let highest = cave.prices[..255].iter().copied().max().unwrap_or(1);
    let ring = (highest as usize + 1).next_power_of_two();
    // Each list at its largest at once, so a warm generator's lists grow
    // once per size of level, not level by level: a block is pushed at
    // most once a neighbour, and meets each neighbour once; a way crosses
    // a block once; each of a block's cells but its owner's first names
    // at most one other region.
    s.queue.reserve(4 * blocks);
    s.fine_queue.reserve(2 * cells);
    s.meetings.clear();
    s.meetings.reserve(4 * blocks);
    s.way.clear();
    s.way.reserve(2 * blocks);
    s.shared.clear();
    s.shared.reserve((SIDE * SIDE - 1) * blocks);
    price_blocks::<SIDE>(s, cave, bw, bh);
    cave.sets.reset(regions as usize + 1);
    // Every cell unreached: the last level's last search put back only
    // when the next starts, so here.
    for &c in &s.reached {
        s.fine[c as usize].cost = UNSEEN;
    }
    s.reached.clear();
    s.reached.reserve(cells);
    if s.fine.len() != cells {
        s.fine.clear();
        s.fine.resize(
            cells,
            Node {
                cost: UNSEEN,
                tag: 0,
            },
        );
    }
    if s.allowed.len() != cells {
        s.allowed.clear();
        s.allowed.resize(cells, 0);
        s.mark = 0;
    }
    let mut apart = regions;
    // Regions sharing a block first: they meet at no cost.
    for i in 0..s.shared.len() {
        let (block, other) = s.shared[i];
        let first = s.owner[block as usize];
        s.way.clear();
        s.way.push(block);
        apart -= dig::<SIDE>(s, cave, bw, ring, (first, other))?;
        if apart == 1 {
            return Ok(());
        }
    }
    s.nodes.clear();
    s.nodes.extend(
        s.owner
            .iter()
            .zip(&s.price)
            .map(|(&owner, &price)| match (owner, price) {
                (0, UNSEEN) => Node {
                    cost: 0,
                    tag: SETTLED,
                },
                (0, _) => Node {
                    cost: UNSEEN,
                    tag: 0,
                },
                (owner, _) => Node {
                    cost: 0,
                    tag: owner,
                },
            }),
    );
    s.queue.reset(ring, 0);
    for b in 0..blocks {
        if s.owner[b] != 0 {
            s.queue.push(0, b as u32);
        }
    }
    // As revision 6's search, on blocks: a meeting is found when the
    // second of its two blocks is settled, and taken once every block
    // cheaper than it is settled, so meetings are taken cheapest first.
    while let Some((cost, b)) = s.queue.pop() {
        let b = b as usize;
        let here = s.nodes[b];
        if cost > here.cost {
            continue;
        }
        while let Some(&Reverse((sum, a, m))) = s.meetings.peek() {
            if sum >= cost {
                break;
            }
            s.meetings.pop();
            apart -= take::<SIDE>(s, cave, bw, ring, a, m)?;
            if apart == 1 {
                return Ok(());
            }
        }
        let rb = here.tag & REGION;
        s.nodes[b].tag = here.tag | SETTLED;
        for (k, n) in orthogonal(b, bw).into_iter().enumerate() {
            let there = s.nodes[n];
            if there.tag & SETTLED != 0 {
                let rn = there.tag & REGION;
                if rn != rb && rn != 0 && cave.sets.find(rb as usize) != cave.sets.find(rn as usize)
                {
                    let sum = cost + there.cost;
                    s.meetings
                        .push(Reverse((sum, b.min(n) as u32, b.max(n) as u32)));
                }
                continue;
            }
            let next = cost + s.price[n];
            if next < there.cost {
                s.nodes[n] = Node {
                    cost: next,
                    tag: rb | (k as u32) << CAME_SHIFT,
                };
                s.queue.push(next, n as u32);
            }
        }
    }
    while let Some(Reverse((_, a, m))) = s.meetings.pop() {
        apart -= take::<SIDE>(s, cave, bw, ring, a, m)?;
        if apart == 1 {
            return Ok(());
        }
    }
    Ok(())
}

/// Prices the blocks and finds their owners (and the regions sharing a
/// block with another) for a `bw` x `bh` grid of blocks, its ring
/// included.
fn price_blocks<const SIDE: usize>(s: &mut CoarseScratch, cave: &Cave<'_>, bw: usize, bh: usize) {
    let w = cave.w;
    let h = cave.tiles.len() / w;
    s.price.clear();
    s.price.resize(bw * bh, UNSEEN);
    s.owner.clear();
    s.owner.resize(bw * bh, 0);
    s.shared.clear();
    // `rock_costs` prices every hardness.
    let prices: &[u32; 256] = cave.prices[..256].try_into().expect("a price a hardness");
    for y in 0..h {
        let row = (y / SIDE + 1) * bw + 1;
        let cells = y * w..(y + 1) * w;
        let (region, hardness, fenced) = (
            &cave.region[cells.clone()],
            &cave.hardness[cells.clone()],
            &cave.fenced[cells],
        );
        let blocks = row..row + w.div_ceil(SIDE);
        let (price, owner) = (&mut s.price[blocks.clone()], &mut s.owner[blocks]);
        // The row's whole blocks `SIDE` cells at a time, so each block's
        // cells are worked out side by side without a loop or a branch;
        // then the part block at the row's end, if any.
        let (whole, _) = region.as_chunks::<SIDE>();
        for (b, cells) in whole.iter().enumerate() {
            let x = b * SIDE..b * SIDE + SIDE;
            let other = row_of_block(
                (&mut price[b], &mut owner[b]),
                cells,
                &hardness[x.clone()],
                &fenced[x],
                prices,
            );
            if other {
                share(&mut s.shared, row + b, cells, owner[b]);
            }
        }
        let b = whole.len();
        if b * SIDE < w {
            let x = b * SIDE..w;
            let other = row_of_block(
                (&mut price[b], &mut owner[b]),
                &region[x.clone()],
                &hardness[x.clone()],
                &fenced[x.clone()],
                prices,
            );
            if other {
                share(&mut s.shared, row + b, &region[x], owner[b]);
            }
        }
    }
    // Each (block, region) once, in the order of blocks.
    s.shared.sort_unstable();
    s.shared.dedup();
}

/// One row of a block's cells (`region`, `hardness`, `fenced`, `SIDE` or
/// fewer) into its price and owner: the price is the least of its cells',
/// open ground 0 (a region's block is where its search starts, never
/// stepped into) and rock never dug (the border, a vault and the cell
/// round it) [`UNSEEN`]; the owner is the first region met in the block.
/// Whether an open cell is there is as good as random to a branch
/// predictor, so nothing here branches on it. True if a region other than
/// the owner has a cell here.
#[inline(always)]
fn row_of_block(
    (price, owner): (&mut u32, &mut u32),
    region: &[u32],
    hardness: &[u8],
    fenced: &[bool],
    prices: &[u32; 256],
) -> bool {
    let mut least = *price;
    for ((&region, &hardness), &fenced) in region.iter().zip(hardness).zip(fenced) {
        let rock = if hardness == 255 || fenced {
            UNSEEN
        } else {
            prices[usize::from(hardness)]
        };
        least = least.min(if region != 0 { 0 } else { rock });
    }
    *price = least;
    let first = region
        .iter()
        .rev()
        .fold(0, |first, &r| if r != 0 { r } else { first });
    let o = if *owner != 0 { *owner } else { first };
    *owner = o;
    region
        .iter()
        .fold(false, |any, &r| any | ((r != 0) & (r != o)))
}

/// Each region of `region` (one row of block `b`'s cells) other than its
/// `owner`, as sharing the block.
fn share(shared: &mut Vec<(u32, u32)>, b: usize, region: &[u32], owner: u32) {
    for &r in region {
        if r != 0 && r != owner {
            shared.push((b as u32, r));
        }
    }
}

/// Takes the meeting of blocks `a` and `b` if it joins two sets not yet
/// joined: digs a passage along the blocks' ways back to their regions.
/// Returns how many sets it joined into one.
fn take<const SIDE: usize>(
    s: &mut CoarseScratch,
    cave: &mut Cave<'_>,
    bw: usize,
    ring: usize,
    a: u32,
    b: u32,
) -> Result<u32, Rejected> {
    let (ra, rb) = (
        s.nodes[a as usize].tag & REGION,
        s.nodes[b as usize].tag & REGION,
    );
    if cave.sets.find(ra as usize) == cave.sets.find(rb as usize) {
        return Ok(0);
    }
    s.way.clear();
    for end in [a, b] {
        let mut k = end as usize;
        s.way.push(k as u32);
        while s.nodes[k].cost != 0 {
            k = back(k, s.nodes[k].tag >> CAME_SHIFT, bw);
            s.way.push(k as u32);
        }
    }
    dig::<SIDE>(s, cave, bw, ring, (ra, rb))
}

/// Digs the cheapest passage from region `from`'s set to region `to`'s
/// within the blocks of `s.way` (anywhere, if they hold none), and joins
/// the sets of every region it reaches. Returns how many sets it joined
/// into one (0 if none could be dug).
fn dig<const SIDE: usize>(
    s: &mut CoarseScratch,
    cave: &mut Cave<'_>,
    bw: usize,
    ring: usize,
    (from, to): (u32, u32),
) -> Result<u32, Rejected> {
    if s.mark == u32::MAX {
        s.allowed.fill(0);
        s.mark = 0;
    }
    s.mark += 1;
    let end = match search::<SIDE, true>(s, cave, bw, ring, (from, to))? {
        Some(end) => end,
        None => match search::<SIDE, false>(s, cave, bw, ring, (from, to))? {
            Some(end) => end,
            None => return Ok(0),
        },
    };
    let w = cave.w;
    let mut joined = 0;
    let mut c = end;
    loop {
        if cave.region[c] == 0 {
            cave.tiles[c] = Tile::Corridor;
            cave.hardness[c] = 0;
            cave.region[c] = from;
        } else if cave.sets.union(from as usize, cave.region[c] as usize) {
            joined += 1;
        }
        let tag = s.fine[c].tag;
        if tag == SOURCE {
            break;
        }
        c = back(c, tag, w);
    }
    Ok(joined)
}

/// The cheapest way from region `from`'s set to region `to`'s through
/// rock, open ground costing nothing (kept to the blocks marked for this
/// dig if `KEPT`): the cell of `to`'s set it ends on, its way back in
/// `s.fine`.
fn search<const SIDE: usize, const KEPT: bool>(
    s: &mut CoarseScratch,
    cave: &Cave<'_>,
    bw: usize,
    ring: usize,
    (from, to): (u32, u32),
) -> Result<Option<usize>, Rejected> {
    let w = cave.w;
    let cells = cave.tiles.len();
    let h = cells / w;
    for &c in &s.reached {
        s.fine[c as usize].cost = UNSEEN;
    }
    s.reached.clear();
    s.fine_queue.reset(ring, 0);
    let (from_set, to_set) = (cave.sets.find(from as usize), cave.sets.find(to as usize));
    let mark = s.mark;
    // The sources: `from`'s set's open cells in the way's blocks, or all
    // of them.
    let seed = |s: &mut CoarseScratch, c: usize| {
        if cave.region[c] != 0 && cave.set_of(c) == from_set {
            s.fine[c] = Node {
                cost: 0,
                tag: SOURCE,
            };
            s.reached.push(c as u32);
            s.fine_queue.push(0, c as u32);
        }
    };
    if KEPT {
        // The way's cells are marked as they are read, so a step asks
        // one table whether it stays inside.
        for i in 0..s.way.len() {
            let block = s.way[i] as usize;
            let (by, bx) = (block / bw - 1, block % bw - 1);
            for y in by * SIDE..(by * SIDE + SIDE).min(h) {
                for x in bx * SIDE..(bx * SIDE + SIDE).min(w) {
                    s.allowed[y * w + x] = mark;
                    seed(s, y * w + x);
                }
            }
        }
    } else {
        // The whole level is read to seed the search: paid for here.
        if !cave.budget.spend(cells) {
            return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
        }
        for c in 0..cells {
            seed(s, c);
        }
    }
    let allowed = &s.allowed;
    let mut found = None;
    while let Some((cost, c)) = s.fine_queue.pop() {
        let c = c as usize;
        if cost > s.fine[c].cost {
            continue;
        }
        if cave.region[c] != 0 && cave.set_of(c) == to_set {
            found = Some(c);
            break;
        }
        for (k, n) in orthogonal(c, w).into_iter().enumerate() {
            if cave.never(n) || (KEPT && allowed[n] != mark) {
                continue;
            }
            let step = if cave.region[n] != 0 {
                0
            } else {
                cave.prices[usize::from(cave.hardness[n])]
            };
            let next = cost + step;
            if next < s.fine[n].cost {
                if s.fine[n].cost == UNSEEN {
                    s.reached.push(n as u32);
                }
                s.fine[n] = Node {
                    cost: next,
                    tag: k as u32,
                };
                s.fine_queue.push(next, n as u32);
            }
        }
    }
    if !cave.budget.spend(s.reached.len()) {
        return Err(Rejected::OverBudget(WorkStage::JoiningRooms));
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rand::{RngExt, SeedableRng};

    use super::super::{Scratch, find_regions, join_regions};
    use super::*;
    use crate::config::Config;
    use crate::generate::corridors::site::rock_costs;

    /// A random cave's ground for the join: open cells off the border and
    /// the fence, fenced cells at `fence_share`, rock of any hardness but
    /// the border's 255; open cells of hardness 0.
    fn random_ground(
        seed: u64,
        (w, h): (usize, usize),
        open_share: f64,
        fence_share: f64,
    ) -> (Vec<bool>, Vec<bool>, Vec<u8>) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let cells = w * h;
        let inside = |c: usize| (1..w - 1).contains(&(c % w)) && (1..h - 1).contains(&(c / w));
        let fenced: Vec<bool> = (0..cells).map(|_| rng.random_bool(fence_share)).collect();
        let open: Vec<bool> = (0..cells)
            .map(|c| inside(c) && !fenced[c] && rng.random_bool(open_share))
            .collect();
        let hardness = (0..cells)
            .map(|c| match (inside(c), open[c]) {
                (false, _) => 255,
                (true, true) => 0,
                (true, false) => rng.random_range(0..=254u8),
            })
            .collect();
        (open, fenced, hardness)
    }

    /// Revision 7's join of `ground` in `scratch` (warm or not): the tiles.
    fn join7(
        scratch: &mut Scratch,
        w: usize,
        (open, fenced, hardness): &(Vec<bool>, Vec<bool>, Vec<u8>),
    ) -> Vec<Tile> {
        scratch.open = open.clone();
        let regions = find_regions(scratch, w, 1);
        let mut tiles: Vec<Tile> = open
            .iter()
            .map(|&o| if o { Tile::Floor } else { Tile::Rock })
            .collect();
        let mut hardness = hardness.clone();
        rock_costs(&Config::default(), &mut scratch.prices);
        let budget = Budget::new(1 << 40);
        let Scratch {
            region,
            prices,
            sets,
            coarse,
            ..
        } = scratch;
        let mut cave = Cave {
            w,
            region,
            tiles: &mut tiles,
            hardness: &mut hardness,
            fenced,
            prices,
            sets,
            budget: &budget,
        };
        assert!(
            join::<3>(coarse, &mut cave, regions).is_ok(),
            "within budget"
        );
        tiles
    }

    /// Whose search was kept to a way's blocks is told by a mark that runs
    /// on from level to level; when it reaches its end the table is
    /// cleared and it starts again. A scratch warmed on a grid of the same
    /// size, its mark a few digs from the end, joins as a fresh one does.
    #[test]
    fn a_warm_join_is_a_fresh_one_where_its_marks_wrap() {
        for seed in 0..40 {
            let (w, h) = (30 + seed as usize % 7, 20 + seed as usize % 5);
            let ground = random_ground(seed, (w, h), 0.3, 0.05);
            let want = join7(&mut Scratch::default(), w, &ground);
            let mut warm = Scratch::default();
            join7(&mut warm, w, &random_ground(seed + 1000, (w, h), 0.3, 0.05));
            warm.coarse.mark = u32::MAX - (seed as u32 % 4);
            assert_eq!(join7(&mut warm, w, &ground), want, "seed {seed}");
            // And again after the wrap, the table cleared.
            assert!(warm.coarse.mark < 1000, "the mark wrapped");
            assert_eq!(join7(&mut warm, w, &ground), want, "seed {seed}, again");
        }
    }

    /// The passages revision 7 digs on random fenced grids, pinned: fences
    /// this dense put a vault's fence across many a way's blocks, so the
    /// search over the whole level runs as well as the kept ones, which
    /// the levels of the revision tests rarely make it do. (The hash was
    /// taken at 61e53f6, whose join a reviewer compared with this one's
    /// on 100,000 grids.)
    #[test]
    fn the_passages_dug_on_fenced_grids_are_as_pinned() {
        let mut scratch = Scratch::default();
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for seed in 0..300u64 {
            let (w, h) = (5 + (seed * 7 % 60) as usize, 5 + (seed * 3 % 35) as usize);
            let fence = [0.0, 0.1, 0.25][seed as usize % 3];
            let ground = random_ground(seed, (w, h), 0.25, fence);
            for tile in join7(&mut scratch, w, &ground) {
                hash = (hash ^ u64::from(tile == Tile::Corridor)).wrapping_mul(0x100_0000_01b3);
            }
        }
        assert_eq!(hash, 12_640_511_155_106_047_005, "the passages dug changed");
    }

    /// How many orthogonal pieces the open cells of `tiles` make.
    fn pieces(tiles: &[Tile], w: usize) -> usize {
        let open: Vec<bool> = tiles.iter().map(|&t| t != Tile::Rock).collect();
        let mut pieces = crate::pieces::Pieces::default();
        pieces.label(&open, w);
        pieces.pieces().len()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// On random open ground, hardness and fences: the plan on blocks
        /// of 3x3 cells (revisions 7 and 8) or 4x4 (from 9) leaves the
        /// cave in one piece exactly when revision 6's search cell by cell
        /// does, and digs only rock that may be dug, keeping every open
        /// cell as it was.
        #[test]
        fn joins_whatever_the_search_cell_by_cell_joins(
            w in 5usize..70,
            h in 5usize..40,
            open_share in 0.05f64..0.6,
            fence_share in 0.0f64..0.3,
            seed in any::<u64>(),
            side4 in any::<bool>(),
        ) {
            let cells = w * h;
            let (open, fenced, hardness) = random_ground(seed, (w, h), open_share, fence_share);
            let before: Vec<Tile> = open.iter().map(|&o| if o { Tile::Floor } else { Tile::Rock }).collect();
            let config = Config::default();
            let (mut six, mut seven) = (Scratch::default(), Scratch::default());
            for s in [&mut six, &mut seven] {
                s.open = open.clone();
            }
            let regions = find_regions(&mut six, w, 1);
            prop_assert_eq!(find_regions(&mut seven, w, 1), regions);
            let (mut tiles6, mut hardness6) = (before.clone(), hardness.clone());
            join_regions(&mut six, &config, w, regions, (&mut tiles6, &mut hardness6), &fenced);
            let (mut tiles7, mut hardness7) = (before.clone(), hardness.clone());
            rock_costs(&config, &mut seven.prices);
            let budget = Budget::new(1 << 40);
            let Scratch { region, prices, sets, coarse, .. } = &mut seven;
            let mut cave = Cave {
                w,
                region,
                tiles: &mut tiles7,
                hardness: &mut hardness7,
                fenced: &fenced,
                prices,
                sets,
                budget: &budget,
            };
            let joined = if side4 {
                join::<4>(coarse, &mut cave, regions)
            } else {
                join::<3>(coarse, &mut cave, regions)
            };
            prop_assert!(joined.is_ok());
            for c in 0..cells {
                if tiles7[c] != before[c] {
                    prop_assert!(before[c] == Tile::Rock && tiles7[c] == Tile::Corridor);
                    prop_assert!(!fenced[c] && hardness[c] < 255, "dug {c}, never to be dug");
                    prop_assert_eq!(hardness7[c], 0);
                } else {
                    prop_assert_eq!(hardness7[c], hardness[c]);
                }
            }
            if regions > 0 {
                prop_assert_eq!(pieces(&tiles7, w) == 1, pieces(&tiles6, w) == 1);
            }
        }
    }
}
