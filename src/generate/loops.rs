//! What happens after a corridor style has joined the rooms, whatever the
//! style: deliberate extra loops, and pruning dead ends.
//!
//! Extra loops follow the idea of Brogue's addLoops: a level whose rooms
//! hang on a tree of corridors makes a player walk all the way round to
//! reach a room that is just beyond a wall. Where two open cells are close
//! in space (a straight line of at most `max_length` rock cells between
//! them) but far apart by walking (at least `ratio` times the shortcut's
//! length), a short corridor, or a door into a room, is opened. Candidates
//! are tried in a random order from the level's own `Loops` stream, each
//! judged against the level as it is by then, so two shortcuts never
//! duplicate each other's effect.
//!
//! Pruning removes corridor cells with at most one open neighbour until
//! none is left, and then doors with no corridor: it can only cut away
//! what leads nowhere, so connectivity is untouched. Removed cells get
//! back the hardness the rock had before anything was carved.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::{Config, CorridorStyle};
use crate::geom::{Dir, Pos};
use crate::grid_search::{Bfs, RowOf, Visit, orthogonal, step as offset};
use crate::level::Tile;

use super::budget::Budget;
use super::corridors::{CORRIDOR_BIT, Rules, Site};

/// A possible shortcut: `len` cells to open going `dir` from corridor cell
/// `from`, ending next to `to`, an open cell.
#[derive(Clone, Copy)]
struct Shortcut {
    from: u32,
    to: u32,
    dir: Dir,
    len: u8,
}

/// The lists [`add`] fills, kept from level to level.
#[derive(Default)]
pub(super) struct Scratch {
    found: Vec<Shortcut>,
    cells: Vec<usize>,
    /// Per cell, what a line of rock looking for a shortcut meets there
    /// (see [`Rules::corridor_and_closed`]).
    meets: Vec<u8>,
    /// Per cell, how many steps north (and south) to the nearest cell
    /// that is not free rock, at most 255 (see [`vertical_runs`]).
    north: Vec<u8>,
    south: Vec<u8>,
    /// Generator revision 8's sampled levels: the corridor cells a
    /// shortcut may start from, in row order, and a bit a line (four a
    /// cell) for the lines whose shortcut was refused.
    corridor: Vec<u32>,
    refused: Vec<u64>,
}

/// Whether `add` samples its shortcuts ([`add_sampled`]) rather than list
/// them all: from generator revision 8, on every style but the Tunnel's.
fn sampled(cfg: &Config) -> bool {
    cfg.revisions.generator >= 8 && cfg.corridors != CorridorStyle::Tunnel
}

/// How many lines [`add_sampled`] may look along for each shortcut asked
/// for. A DeadEnd, Grid or Straight level of the default size has about
/// one shortcut in eleven of its lines, and a DeadEnd level judges five
/// in six of them good: some 140 looks make ten; this many leaves a
/// sparse level room to find its few.
const SAMPLES_PER_LOOP: usize = 64;

/// Adds up to `extra_loops.count` shortcuts.
pub(super) fn add(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    bfs: &mut Bfs,
    scratch: &mut Scratch,
    rng: &mut Pcg64,
) {
    let l = &cfg.extra_loops;
    // The ratio in sixteenths: integer arithmetic decides the world.
    // Rounded up, so any ratio above 1 asks for a walk longer than the
    // shortcut.
    let ratio16 = (l.ratio * 16.0).ceil() as u64;
    if sampled(cfg) {
        add_sampled(rules, cfg, site, bfs, scratch, ratio16, rng);
        return;
    }
    if !list(rules, cfg, site, scratch) {
        return;
    }
    let Scratch { found, cells, .. } = scratch;
    // Shuffle (Fisher-Yates), then judge in that order. A judgement is a
    // breadth-first search that stops as soon as the walk is known to be
    // long enough, so it stays within a few dozen steps of the shortcut.
    for i in (1..found.len()).rev() {
        let j = rng.random_range(0..=i as u32) as usize;
        found.swap(i, j);
    }
    let wanted = usize::from(l.count);
    let mut made = 0;
    for &s in found.iter() {
        if made == wanted {
            break;
        }
        match judge(rules, cfg, site, bfs, cells, s, ratio16) {
            Judged::Made => made += 1,
            Judged::Refused => {}
            Judged::Overspent => return,
        }
    }
}

/// Every shortcut of the level as it stands into `scratch.found`, by
/// corridor cell in row order and then `Dir::ALL`'s order; false if the
/// level's budget ran out first.
fn list(rules: &Rules, cfg: &Config, site: &Site<'_>, scratch: &mut Scratch) -> bool {
    let w = site.width;
    let max_len = usize::from(cfg.extra_loops.max_length);
    let Scratch {
        found,
        meets,
        north,
        south,
        ..
    } = scratch;
    found.clear();
    // What each cell is to a line, read once: the scan below asks it of
    // up to nine cells in each direction from every corridor cell, and
    // nothing changes until the shortcuts are judged.
    rules.corridor_and_closed(site, meets);
    vertical_runs(meets, w, north, south);
    // One step in each of `Dir::ALL`'s directions, as a cell offset.
    let steps = Dir::ALL.map(|d| d.dy() as isize * w as isize + d.dx() as isize);
    let tiles: &[Tile] = site.tiles;
    // A line is at most max_length + 1 cells (17 at most). Where it ends
    // is read without walking it, which mispredicted at nearly every end:
    // north and south from the run tables, east and west from a mask of
    // the 32 cells beside the corridor cell.
    let span = max_len + 1;
    let meets: &[u8] = meets;
    let (north, south): (&[u8], &[u8]) = (north, south);
    // Corridor is sparse: blocks of 32 cells without any are passed over
    // in one comparison, and a block's corridor cells are taken from a
    // mask of them.
    const BLOCK: usize = 32;
    for (block, chunk) in tiles.chunks(BLOCK).enumerate() {
        let mut corridor = corridor_mask(chunk);
        while corridor != 0 {
            let from = block * BLOCK + corridor.trailing_zeros() as usize;
            corridor &= corridor - 1;
            // Four lines of at most max_length + 1 cells.
            if !site.budget.spend(4 * span) {
                return false;
            }
            // The free rock before each line's first cell that is not, in
            // `Dir::ALL`'s order, worked out side by side: a `match` on the
            // direction in the loop below was a jump through a table,
            // mispredicted at every corridor cell. Along a corridor the
            // next cell is not free rock: no mask needed.
            let rocks = [
                usize::from(north[from]) - 1,
                if meets[from + 1] != 0 {
                    0
                } else {
                    rock_east(meets, from)
                },
                usize::from(south[from]) - 1,
                if meets[from - 1] != 0 {
                    0
                } else {
                    rock_west(meets, from)
                },
            ];
            for ((dir, step), rock) in Dir::ALL.into_iter().zip(steps).zip(rocks) {
                if rock >= span {
                    continue; // free rock all the way: too long
                }
                let c = from.wrapping_add_signed(step * (rock as isize + 1));
                let meets = meets[c];
                if meets & CORRIDOR_BIT != 0 {
                    // Each pair once, from its lower end.
                    if rock > 0 && from < c {
                        found.push(Shortcut {
                            from: from as u32,
                            to: c as u32,
                            dir,
                            len: rock as u8,
                        });
                    }
                    continue;
                }
                // Closed: a ring cell that may become a door, with the
                // room's floor straight beyond it.
                if let Some(r) = rules.ring_room(c) {
                    let beyond = c.wrapping_add_signed(step);
                    if tiles[c] == Tile::Rock
                        && site.room_id[beyond] == r as u16 + 1
                        && rules.usable_door(cfg, site, r, c)
                    {
                        found.push(Shortcut {
                            from: from as u32,
                            to: beyond as u32,
                            dir,
                            len: rock as u8 + 1,
                        });
                    }
                }
            }
        }
    }
    true
}

/// What became of a shortcut judged.
enum Judged {
    Made,
    Refused,
    /// The level's budget ran out: stop adding.
    Overspent,
}

/// Opens shortcut `s` if it is still possible (no earlier one took its
/// cells or its room's last door), lies beside no open cell, and saves a
/// walk at least `ratio16` sixteenths of its length. A judgement is a
/// breadth-first search that stops as soon as the walk is known to be
/// long enough, so it stays within a few dozen steps of the shortcut.
fn judge(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    bfs: &mut Bfs,
    cells: &mut Vec<usize>,
    s: Shortcut,
    ratio16: u64,
) -> Judged {
    let w = site.width;
    if !site.budget.spend(4 * usize::from(s.len)) {
        return Judged::Overspent;
    }
    // Still possible? An earlier shortcut may have used its cells.
    cells.clear();
    cells.extend((1..=usize::from(s.len)).map(|k| {
        let mut c = s.from as usize;
        for _ in 0..k {
            c = offset(c, s.dir, w);
        }
        c
    }));
    let last = *cells.last().expect("a shortcut opens a cell");
    // Never beside an open cell: a shortcut parallel to a corridor (or
    // to an earlier shortcut) would widen it into a slab, not make a
    // loop.
    let sides = match s.dir {
        Dir::North | Dir::South => [Dir::East, Dir::West],
        Dir::East | Dir::West => [Dir::North, Dir::South],
    };
    if cells.iter().any(|&c| {
        sides
            .iter()
            .any(|&d| site.tiles[offset(c, d, w)].is_walkable())
    }) {
        return Judged::Refused;
    }
    let door = rules.ring_room(last);
    let still = cells.iter().all(|&c| site.tiles[c] == Tile::Rock)
        && match door {
            Some(r) => rules.usable_door(cfg, site, r, last),
            None => cells.iter().all(|&c| rules.free(site, c)),
        };
    if !still {
        return Judged::Refused;
    }
    // Walks at least this long justify the shortcut: walk * 16 >=
    // ratio16 * straight.
    let straight = u64::from(s.len) + 1;
    let needed = (ratio16 * straight).div_ceil(16).min(u64::from(u32::MAX)) as u32;
    let walk = walk_shorter_than(
        bfs,
        w,
        site.tiles,
        s.from as usize,
        s.to as usize,
        needed,
        site.budget,
    );
    if site.budget.overspent() {
        return Judged::Overspent;
    }
    if walk {
        return Judged::Refused;
    }
    for &c in cells.iter() {
        rules.open(site, c);
    }
    Judged::Made
}

/// Generator revision 8's shortcuts on a DeadEnd, Grid or Straight level.
/// Their corridors are dense, with far more possible shortcuts than a
/// level asks for (on a default-sized level about 850 in a DeadEnd maze,
/// 340 on a Grid level, 450 on a Straight one, for 10). Listing every one
/// (a look four ways from each of 1,000 to 2,500 corridor cells) and then
/// shuffling them took a tenth of such a level's instructions, to judge a
/// dozen. So a corridor cell and a direction are drawn at random instead,
/// and the line that way judged at once if it is a shortcut (from its
/// lower end, as a listed pair would be, so each shortcut is one draw
/// among all of them): the same chance for every shortcut as the shuffled
/// list gave, drawn with replacement. A Tunnel level has barely more
/// shortcuts than it asks for (about 30), which draws would mostly miss,
/// so it lists them still.
fn add_sampled(
    rules: &Rules,
    cfg: &Config,
    site: &mut Site<'_>,
    bfs: &mut Bfs,
    scratch: &mut Scratch,
    ratio16: u64,
    rng: &mut Pcg64,
) {
    let l = &cfg.extra_loops;
    let span = usize::from(l.max_length) + 1;
    let Scratch {
        cells,
        corridor,
        refused,
        ..
    } = scratch;
    corridor.clear();
    // Room for every cell at once, rather than doubling up to a maze's
    // thousands level after level.
    corridor.reserve(site.tiles.len());
    const BLOCK: usize = 32;
    for (block, chunk) in site.tiles.chunks(BLOCK).enumerate() {
        crate::grid_search::push_bits(corridor_mask(chunk), (block * BLOCK) as u32, corridor);
    }
    // Four lines from each corridor cell, in `Dir::ALL`'s order.
    let Ok(lines) = u32::try_from(corridor.len() * 4) else {
        return;
    };
    if lines == 0 {
        return;
    }
    // A refused shortcut stays refused: cells opened never close, walks
    // only get shorter and rooms only fill their doors. So a line drawn
    // again after its shortcut was refused is passed over, not judged
    // again: on a level that can take few of the shortcuts asked for,
    // the same ones came up draw after draw.
    refused.clear();
    // Room for four lines a cell of the level at once, as for the list.
    refused.reserve((4 * site.tiles.len()).div_ceil(64));
    refused.resize((lines as usize).div_ceil(64), 0);
    let wanted = usize::from(l.count);
    let mut made = 0;
    for _ in 0..wanted * SAMPLES_PER_LOOP {
        if made == wanted {
            break;
        }
        if !site.budget.spend(span) {
            return;
        }
        let line = rng.random_range(0..lines) as usize;
        let (word, bit) = (line / 64, 1u64 << (line % 64));
        if refused[word] & bit != 0 {
            continue;
        }
        let (from, dir) = (corridor[line / 4] as usize, Dir::ALL[line % 4]);
        let Some(s) = shortcut_from(rules, cfg, site, from, dir, span) else {
            continue;
        };
        match judge(rules, cfg, site, bfs, cells, s, ratio16) {
            Judged::Made => made += 1,
            Judged::Refused => refused[word] |= bit,
            Judged::Overspent => return,
        }
    }
}

/// The shortcut the line from corridor cell `from` going `dir` makes, as
/// the listing in [`add`] would find it: fewer than `span` cells of free
/// rock, then a corridor (after at least one, and only from the pair's
/// lower end) or a ring cell that may become a door with its room's floor
/// straight beyond.
fn shortcut_from(
    rules: &Rules,
    cfg: &Config,
    site: &Site<'_>,
    from: usize,
    dir: Dir,
    span: usize,
) -> Option<Shortcut> {
    let w = site.width;
    let mut c = from;
    for rock in 0..span {
        c = offset(c, dir, w);
        if site.tiles[c] == Tile::Corridor {
            return (rock > 0 && from < c).then_some(Shortcut {
                from: from as u32,
                to: c as u32,
                dir,
                len: rock as u8,
            });
        }
        if !rules.free(site, c) {
            let r = rules.ring_room(c)?;
            let beyond = offset(c, dir, w);
            return (site.tiles[c] == Tile::Rock
                && site.room_id[beyond] == r as u16 + 1
                && rules.usable_door(cfg, site, r, c))
            .then_some(Shortcut {
                from: from as u32,
                to: beyond as u32,
                dir,
                len: rock as u8 + 1,
            });
        }
    }
    None
}

/// Bit i for each corridor cell `chunk[i]` (at most 32 cells). A whole
/// block is folded as one fixed array, which the compiler unrolls without
/// a loop's test a cell; a fold over a slice of any length cost about a
/// fiftieth of a default level's instructions more.
fn corridor_mask(chunk: &[Tile]) -> u32 {
    #[inline(always)]
    fn fold<'a>(cells: impl Iterator<Item = &'a Tile>) -> u32 {
        cells.enumerate().fold(0, |bits, (i, &t)| {
            bits | u32::from(t == Tile::Corridor) << i
        })
    }
    match <&[Tile; 32]>::try_from(chunk) {
        Ok(block) => fold(block.iter()),
        Err(_) => fold(chunk.iter()),
    }
}

/// Per cell of a `width`-wide grid whose cells are `meets` (0 = free
/// rock): the steps north to the nearest cell that is not free rock into
/// `north`, and south into `south`, saturating at 255. Row by row, each
/// from the row beside it, so a whole row is done many cells at a time.
/// The border rows, which no line starts from, say 1.
fn vertical_runs(meets: &[u8], width: usize, north: &mut Vec<u8>, south: &mut Vec<u8>) {
    let n = meets.len();
    for (runs, down) in [(&mut *north, false), (&mut *south, true)] {
        runs.clear();
        runs.resize(n, 1);
        if n < 2 * width {
            continue;
        }
        let rows = n / width;
        for k in 1..rows - 1 {
            // North runs grow downward from the top, south runs upward.
            let (y, next) = if down {
                (rows - 1 - k, rows - k)
            } else {
                (k, k - 1)
            };
            let (a, b) = runs.split_at_mut(y.max(next) * width);
            let (here, there) = if down {
                (&mut a[y * width..(y + 1) * width], &b[..width])
            } else {
                (&mut b[..width], &a[next * width..(next + 1) * width])
            };
            let beside = &meets[next * width..(next + 1) * width];
            let (here, beside, there) = (&mut here[..width], &beside[..width], &there[..width]);
            for x in 0..width {
                // Branch-free, so the compiler does many cells at once.
                let free = 0u8.wrapping_sub(u8::from(beside[x] == 0));
                here[x] = (there[x].saturating_add(1) & free) | (!free & 1);
            }
        }
    }
}

/// Bits of the 32 cells from `start` that are not free rock (bit i for
/// cell `start + i`), or `None` if the grid ends first. Eight cells at a
/// time: a byte's high bit says whether it is nonzero, and one multiply
/// gathers the eight high bits into a byte.
fn closed_mask(meets: &[u8], start: usize) -> Option<u32> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Byte i's bit (at 8i after the shift) lands on bit 56 + i.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    let window: &[u8; 32] = meets.get(start..start + 32)?.try_into().ok()?;
    let mut bits = 0u32;
    for (k, eight) in window.chunks_exact(8).enumerate() {
        let v = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        let nonzero = (((v & LOW7) + LOW7) | v) & HIGH;
        bits |= (((nonzero >> 7).wrapping_mul(GATHER) >> 56) as u32) << (8 * k);
    }
    Some(bits)
}

/// The free rock east of `from` before a cell that is not (32 or more if
/// none is that close).
fn rock_east(meets: &[u8], from: usize) -> usize {
    match closed_mask(meets, from + 1) {
        Some(bits) => bits.trailing_zeros() as usize,
        None => meets[from + 1..]
            .iter()
            .position(|&m| m != 0)
            .unwrap_or(usize::MAX),
    }
}

/// The free rock west of `from` before a cell that is not.
fn rock_west(meets: &[u8], from: usize) -> usize {
    match from
        .checked_sub(32)
        .and_then(|start| closed_mask(meets, start))
    {
        Some(bits) => bits.leading_zeros() as usize,
        None => meets[..from]
            .iter()
            .rev()
            .position(|&m| m != 0)
            .unwrap_or(usize::MAX),
    }
}

/// Whether `to` is fewer than `limit` orthogonal steps from `from` over
/// walkable cells. Searches no farther than that, nor past the budget (the
/// caller asks it whether the answer stands).
fn walk_shorter_than(
    bfs: &mut Bfs,
    width: usize,
    tiles: &[Tile],
    from: usize,
    to: usize,
    limit: u32,
    budget: &Budget,
) -> bool {
    // Every cell taken from the queue is a step of work.
    let allowed = budget.left();
    let (mut taken, mut found) = (0usize, false);
    let (to_x, to_y) = ((to % width) as u32, (to / width) as u32);
    let rows = RowOf::new(width);
    bfs.run(
        tiles.len(),
        [from],
        |c| orthogonal(c, width),
        |_, n| tiles[n].is_walkable(),
        |c, d| {
            taken += 1;
            if taken - 1 > allowed {
                return Visit::Stop;
            }
            if c == to {
                found = true;
                return Visit::Stop;
            }
            // No walk through `c` is shorter than its steps so far plus
            // its straight-line distance to `to`: past the limit, `c` is
            // not worth expanding. Every cell of a walk shorter than the
            // limit still is, with its true step count, so the answer is
            // the plain breadth-first search's; it only looks at less.
            let (x, y) = rows.xy(c);
            let (x, y) = (x as u32, y as u32);
            if d + x.abs_diff(to_x) + y.abs_diff(to_y) >= limit {
                Visit::Skip
            } else {
                Visit::Expand
            }
        },
    );
    budget.spend(taken);
    found
}

/// Removes dead-end corridors and the doors left leading nowhere.
/// `pristine` is the hardness field before carving.
pub(super) fn prune(site: &mut Site<'_>, pristine: &[u8]) {
    let w = site.width;
    let open_around = |tiles: &[Tile], c: usize, what: fn(Tile) -> bool| {
        orthogonal(c, w)
            .into_iter()
            .filter(|&n| what(tiles[n]))
            .count()
    };
    let is_open = |t: Tile| t.is_walkable();
    let is_corridor = |t: Tile| t == Tile::Corridor;
    let mut todo: Vec<usize> = (0..site.tiles.len())
        .filter(|&c| matches!(site.tiles[c], Tile::Corridor | Tile::Door))
        .collect();
    while let Some(c) = todo.pop() {
        // A vault's own corridor and inner doors stay as drawn.
        if site.room_id[c] != 0 {
            continue;
        }
        let dead = match site.tiles[c] {
            Tile::Corridor => open_around(site.tiles, c, is_open) <= 1,
            Tile::Door => open_around(site.tiles, c, is_corridor) == 0,
            _ => false,
        };
        if !dead {
            continue;
        }
        if site.tiles[c] == Tile::Door {
            let pos = Pos::new((c % w) as u16, (c / w) as u16);
            for doors in site.doors.iter_mut() {
                doors.retain(|d| d.pos != pos);
            }
        }
        site.tiles[c] = Tile::Rock;
        site.hardness[c] = pristine[c];
        for n in orthogonal(c, w) {
            if matches!(site.tiles[n], Tile::Corridor | Tile::Door) {
                todo.push(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid_search::Moves;
    use proptest::prelude::*;

    proptest! {
        /// A block's corridor mask has bit i exactly where cell i is
        /// corridor, for whole blocks of 32 (half the cases) and the short
        /// last block of a level.
        #[test]
        fn corridor_mask_marks_the_corridor_cells(
            tiles in prop_oneof![
                prop::collection::vec(0usize..Tile::ALL.len(), 32),
                prop::collection::vec(0usize..Tile::ALL.len(), 0..32),
            ],
        ) {
            let tiles: Vec<Tile> = tiles.into_iter().map(|t| Tile::ALL[t]).collect();
            let mask = corridor_mask(&tiles);
            for (i, &t) in tiles.iter().enumerate() {
                prop_assert_eq!(mask >> i & 1 == 1, t == Tile::Corridor, "cell {}", i);
            }
            // And no bit past the block's end.
            prop_assert_eq!(u64::from(mask) >> tiles.len(), 0);
        }

        /// Where a line of rock ends, read from the run tables and the
        /// masks, is where walking it cell by cell ends.
        #[test]
        fn line_ends_agree_with_a_walk(
            (w, h, cells) in (3usize..70, 3usize..40).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(any::<u8>(), w * h))
            }),
        ) {
            // Mostly free rock, the border closed; any nonzero byte (the
            // masks read bytes, high bit and all) ends a line.
            let meets: Vec<u8> = (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                    match cells[c] {
                        _ if border => 2,
                        0..170 => 0,
                        v @ 170..213 => v % 4,
                        v => v,
                    }
                })
                .collect();
            let (mut north, mut south) = (Vec::new(), Vec::new());
            vertical_runs(&meets, w, &mut north, &mut south);
            let walk = |from: usize, step: isize| {
                let mut c = from;
                for rock in 0.. {
                    c = c.wrapping_add_signed(step);
                    if meets[c] != 0 {
                        return rock;
                    }
                }
                unreachable!()
            };
            for y in 1..h - 1 {
                for x in 1..w - 1 {
                    let c = y * w + x;
                    prop_assert_eq!(usize::from(north[c]) - 1, walk(c, -(w as isize)).min(254));
                    prop_assert_eq!(usize::from(south[c]) - 1, walk(c, w as isize).min(254));
                    prop_assert_eq!(rock_east(&meets, c).min(32), walk(c, 1).min(32));
                    prop_assert_eq!(rock_west(&meets, c).min(32), walk(c, -1).min(32));
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        /// Generator revision 8 draws a line and judges the shortcut it
        /// makes: every shortcut the listing finds is the one its line
        /// makes, and no other line makes one, so each shortcut is one
        /// draw among all of them. On levels of placed rooms with corridor
        /// strewn over the rock between them, of every density.
        #[test]
        fn a_drawn_line_makes_the_shortcut_the_listing_finds(
            seed in any::<u64>(),
            (w, h) in (30usize..90, 16usize..50),
            density in 1u64..40,
            max_length in 1u16..12,
            circle_share in 0.0f64..1.0,
        ) {
            use crate::generate::budget::Budget;
            use crate::generate::{hardness, rooms};
            use crate::streams::{Stage, stage_rng};

            let mut cfg = Config {
                width: w as u16,
                height: h as u16,
                ..Config::default()
            };
            cfg.rooms.count.min = 2;
            // Round rooms give lines that meet a ring cell whose room lies
            // off to the side: rectangles' rings have none a door may be.
            cfg.rooms.circle_share = circle_share;
            cfg.extra_loops.max_length = max_length;
            // Rooms that cannot fit are a config error, refused before
            // any level is made.
            prop_assume!(cfg.validate().is_ok());
            let budget = Budget::for_level(cfg.width, cfg.height);
            let mut hard = vec![0u8; w * h];
            hardness::fill(
                &mut hard,
                &mut hardness::Scratch::default(),
                w,
                h,
                &cfg.hardness,
                cfg.revisions.generator,
                &mut stage_rng(seed, 1, 0, Stage::Hardness),
            );
            let (mut room_id, mut shapes) = (vec![0u16; w * h], Vec::new());
            rooms::place(
                &cfg,
                &mut stage_rng(seed, 1, 0, Stage::Rooms),
                &mut room_id,
                &[],
                &budget,
                &mut shapes,
                &mut rooms::Scratch::default(),
            );
            let mut tiles: Vec<Tile> = room_id
                .iter()
                .map(|&id| if id == 0 { Tile::Rock } else { Tile::Floor })
                .collect();
            let mut doors = vec![Vec::new(); shapes.len()];
            let mut site = Site {
                width: w,
                height: h,
                tiles: &mut tiles,
                hardness: &mut hard,
                room_id: &room_id,
                shapes: &shapes,
                entrances: &[],
                doors: &mut doors,
                budget: &budget,
            };
            let mut rules = Rules::default();
            rules.prepare(&site);
            // Corridor on a share of the free cells, and a door or two.
            let mut state = seed | 1;
            let mut draw = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state
            };
            for c in 0..w * h {
                if rules.free(&site, c) && draw() % 100 < density {
                    rules.open(&mut site, c);
                }
            }
            for r in 0..shapes.len() {
                if let Some(&c) = rules.candidates(r).first() && draw() % 2 == 0 {
                    rules.open(&mut site, c as usize);
                }
            }
            let mut scratch = Scratch::default();
            prop_assert!(list(&rules, &cfg, &site, &mut scratch));
            let span = usize::from(max_length) + 1;
            let mut listed = scratch.found.iter();
            for from in (0..w * h).filter(|&c| site.tiles[c] == Tile::Corridor) {
                for dir in Dir::ALL {
                    let drawn = shortcut_from(&rules, &cfg, &site, from, dir, span);
                    let key = |s: &Shortcut| (s.from, s.to, s.dir as u8, s.len);
                    let want = scratch.found.iter().find(|s| s.from as usize == from && s.dir == dir);
                    prop_assert_eq!(drawn.as_ref().map(key), want.map(key), "from {} going {:?}", from, dir);
                    if let Some(s) = drawn {
                        prop_assert_eq!(listed.next().map(key), Some(key(&s)));
                    }
                }
            }
            prop_assert!(listed.next().is_none());
        }
    }

    proptest! {
        /// The judgement's pruned search answers what a full breadth-first
        /// search says: whether the walk is shorter than the limit.
        #[test]
        fn walk_shorter_than_agrees_with_a_full_search(
            (w, h, open) in (3usize..24, 3usize..24).prop_flat_map(|(w, h)| {
                (Just(w), Just(h), prop::collection::vec(prop::bool::weighted(0.7), w * h))
            }),
            ends in (0usize..10_000, 0usize..10_000),
            limit in 0u32..60,
        ) {
            // Walkable inside, rock on the border (searches stay off it).
            let tiles: Vec<Tile> = (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    let inside = x > 0 && y > 0 && x + 1 < w && y + 1 < h;
                    if inside && open[c] { Tile::Corridor } else { Tile::Rock }
                })
                .collect();
            let walkable: Vec<usize> = (0..w * h).filter(|&c| tiles[c].is_walkable()).collect();
            prop_assume!(!walkable.is_empty());
            let (from, to) = (walkable[ends.0 % walkable.len()], walkable[ends.1 % walkable.len()]);
            // A shortcut's ends are two different cells.
            prop_assume!(from != to);
            let mut full = Bfs::default();
            full.flood(w, w * h, [from], Moves::Orthogonal, |_, n| tiles[n].is_walkable());
            let want = full.dist(to) < limit;
            let budget = Budget::new(u64::MAX);
            let got = walk_shorter_than(&mut Bfs::default(), w, &tiles, from, to, limit, &budget);
            prop_assert_eq!(got, want);
        }
    }
}
