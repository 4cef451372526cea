//! Searches over flat grids (and other index-numbered graphs), shared by
//! generation, the level graph, level loading and the simulation: the
//! neighbours of a cell, the breadth-first search, the bucket queue behind
//! every Dijkstra-like search, and per-cell stamps a new search invalidates
//! at once.
//!
//! Cells are indices into a row-major grid `width` wide. Everything here is
//! pure and IO-free, and knows nothing of tiles or levels: callers say which
//! steps are allowed. The searches step to neighbours without bounds checks,
//! relying on the invariant that the border of a level is never walkable
//! (nor otherwise admitted), so every cell a search expands is off it.

use crate::geom::Dir;

/// The eight king moves as (dx, dy), orthogonal ones first (north, east,
/// south, west), then the diagonals clockwise from north-east. Searches
/// and step choices take them in this order, which is what makes their
/// ties deterministic.
pub const KING_MOVES: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Which neighbours a search steps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moves {
    /// North, east, south, west.
    Orthogonal,
    /// [`KING_MOVES`], in that order.
    King,
}

/// The neighbour of cell `c` in direction `d`. `c` must be off the border.
#[inline]
pub fn step(c: usize, d: Dir, width: usize) -> usize {
    match d {
        Dir::North => c - width,
        Dir::South => c + width,
        Dir::East => c + 1,
        Dir::West => c - 1,
    }
}

/// The four orthogonal neighbours of `c` (north, east, south, west), which
/// must be off the border.
#[inline]
pub fn orthogonal(c: usize, width: usize) -> [usize; 4] {
    [c - width, c + 1, c + width, c - 1]
}

/// The neighbours of `c` (off the border) that `moves` allows, in order.
#[inline]
pub fn neighbours(c: usize, width: usize, moves: Moves) -> impl Iterator<Item = usize> {
    let count = match moves {
        Moves::Orthogonal => 4,
        Moves::King => 8,
    };
    KING_MOVES[..count]
        .iter()
        .map(move |&(dx, dy)| (c as isize + dy as isize * width as isize + dx as isize) as usize)
}

/// The king move (dx, dy) from cell `from` to its neighbour `to`, without
/// dividing: in a grid at least three wide, a row apart is a difference of
/// more than one.
#[inline]
pub fn king_move(from: usize, to: usize, width: usize) -> (i32, i32) {
    let delta = to as isize - from as isize;
    let dy = delta.signum() * isize::from(delta.abs() > 1);
    ((delta - dy * width as isize) as i32, dy as i32)
}

/// Eight flags as the bits of a byte, flag i at bit i: as eight bytes of
/// 0 or 1, one multiply gathers byte i's low bit onto bit 56 + i. (A
/// fold of shifted flags is a variable shift a cell, which SSE2 cannot
/// do many at a time.)
#[inline(always)]
pub fn mask8(flags: [bool; 8]) -> u8 {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    (u64::from_le_bytes(flags.map(u8::from)).wrapping_mul(GATHER) >> 56) as u8
}

/// `flag` of up to 32 cells as the bits of a word, cell i at bit i: eight
/// cells to a multiply ([`mask8`]), a short last group one at a time.
#[inline(always)]
pub fn mask32<T: Copy>(cells: &[T], flag: impl Fn(T) -> bool) -> u32 {
    debug_assert!(cells.len() <= 32);
    let mut eights = cells.chunks_exact(8);
    let mut bits = 0u32;
    for (k, eight) in (&mut eights).enumerate() {
        let eight: &[T; 8] = eight.try_into().expect("eight cells");
        bits |= u32::from(mask8(eight.map(&flag))) << (8 * k);
    }
    let done = cells.len() / 8 * 8;
    for (i, &c) in eights.remainder().iter().enumerate() {
        bits |= u32::from(flag(c)) << (done + i);
    }
    bits
}

/// Appends `first + i` to `to` for each bit `i` set in `bits`, lowest
/// first: a block's cells taken from its mask ([`mask32`]) without a
/// branch on each cell.
#[inline(always)]
pub fn push_bits(mut bits: u32, first: u32, to: &mut Vec<u32>) {
    while bits != 0 {
        to.push(first + bits.trailing_zeros());
        bits &= bits - 1;
    }
}

/// A cell's coordinates, with one 32-bit division.
#[inline]
pub fn xy(c: usize, width: usize) -> (i32, i32) {
    let y = c as u32 / width as u32;
    ((c as u32 - y * width as u32) as i32, y as i32)
}

/// A cell's row (and column) by a multiply and a shift rather than a
/// division, for loops that would otherwise pay a division at every cell
/// they take (the Tunnel's search, the extra loops' walks, a DeadEnd
/// level's lines of sight, the level graph, a Grid corridor's lines). The
/// default is for a value set before its first use (it puts every cell in
/// row 0).
#[derive(Clone, Copy, Default)]
pub(crate) struct RowOf {
    multiplier: u64,
    width: usize,
}

impl RowOf {
    pub(crate) fn new(width: usize) -> RowOf {
        RowOf {
            multiplier: (1u64 << 42).div_ceil(width as u64),
            width,
        }
    }

    /// `c / width`: exact while `c * width` stays below 2^42 (a level is at
    /// most 2000 cells a side, so `c * width` below 2^33).
    #[inline(always)]
    pub(crate) fn of(self, c: usize) -> usize {
        ((c as u64 * self.multiplier) >> 42) as usize
    }

    /// `(c % width, c / width)`: the cell's column and row.
    #[inline(always)]
    pub(crate) fn xy(self, c: usize) -> (usize, usize) {
        let y = self.of(c);
        (c - y * self.width, y)
    }
}

/// What a breadth-first search does with a cell it takes from its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Step on to its neighbours.
    Expand,
    /// Go no farther from it (a cell the caller only wanted reached).
    Skip,
    /// End the search here.
    Stop,
}

/// A breadth-first search with reusable buffers: step counts in a flat
/// array, the queue in another. A new search clears only the cells the
/// last one reached when they are few (the whole table in one pass when
/// they are many), so searching a few cells of a large grid costs a few
/// cells, and one `Bfs` serves every search of a thread.
#[derive(Clone, Debug, Default)]
pub struct Bfs {
    dist: Vec<u32>,
    queue: Vec<u32>,
    /// [`Bfs::distance_map`]'s queue: written at its end whether or not a
    /// cell is reached, so it is kept at full size, and `slab_used` says
    /// how much of it is the last search's.
    slab: Vec<u32>,
    slab_used: usize,
}

impl Bfs {
    /// Not reached by the last search.
    pub const UNREACHED: u32 = u32::MAX;

    /// A search sized for `cells` cells up front.
    pub fn with_cells(cells: usize) -> Bfs {
        Bfs {
            dist: vec![Self::UNREACHED; cells],
            queue: Vec::with_capacity(cells.min(4096)),
            slab: Vec::new(),
            slab_used: 0,
        }
    }

    /// Searches from `sources` over `cells` cells. A cell taken from the
    /// queue is first shown to `visit` (with its step count); if it says
    /// [`Visit::Expand`], each of its `moves` not reached yet is reached in
    /// one more step when `may_enter(from, to)` allows. Returns how many
    /// cells were reached, sources included.
    pub fn run<S, M, I, E, V>(
        &mut self,
        cells: usize,
        sources: S,
        mut moves: M,
        mut may_enter: E,
        mut visit: V,
    ) -> usize
    where
        S: IntoIterator<Item = usize>,
        M: FnMut(usize) -> I,
        I: IntoIterator<Item = usize>,
        E: FnMut(usize, usize) -> bool,
        V: FnMut(usize, u32) -> Visit,
    {
        self.clear(cells);
        for s in sources {
            if self.dist[s] == Self::UNREACHED {
                self.dist[s] = 0;
                self.queue.push(s as u32);
            }
        }
        let mut head = 0;
        while let Some(&c) = self.queue.get(head) {
            head += 1;
            let c = c as usize;
            let d = self.dist[c];
            match visit(c, d) {
                Visit::Expand => {}
                Visit::Skip => continue,
                Visit::Stop => break,
            }
            for n in moves(c) {
                if self.dist[n] == Self::UNREACHED && may_enter(c, n) {
                    self.dist[n] = d + 1;
                    self.queue.push(n as u32);
                }
            }
        }
        self.queue.len()
    }

    /// Orthogonal step counts from `from` over the cells `open` admits
    /// (none if `from` itself is not open), left in the search: a level's
    /// distance map, which both proves a level connected and measures its
    /// walks. Returns how many cells it reached.
    pub fn distance_map(
        &mut self,
        width: usize,
        cells: usize,
        from: usize,
        open: impl Fn(usize) -> bool,
    ) -> usize {
        if !open(from) {
            self.clear(cells);
            return 0;
        }
        // Each cell's count starts as unreached where `open` admits it and
        // as `BLOCKED` where not, in one pass over the grid, so a step
        // asks one table, not two, whether its cell is still to reach.
        self.queue.clear();
        self.slab_used = 0;
        self.dist.clear();
        self.dist
            .extend((0..cells).map(|c| if open(c) { Self::UNREACHED } else { BLOCKED }));
        // Whether a neighbour is reached is as good as random to the
        // branch predictor, so nothing branches on it: every neighbour is
        // written at the queue's end, and the end moves on only for one
        // reached. The same cells in the same order as `flood`'s queue.
        if self.slab.len() < cells + 4 {
            self.slab.resize(cells + 4, 0);
            // The other searches of this `Bfs` (floods of the same grid)
            // may queue as many cells: room for them now, once, rather
            // than growing step by step over the levels to come.
            self.queue.reserve(cells);
        }
        let (dist, queue) = (&mut self.dist[..], &mut self.slab[..]);
        dist[from] = 0;
        queue[0] = from as u32;
        let (mut head, mut tail) = (0, 1);
        while head < tail {
            let c = queue[head] as usize;
            head += 1;
            let d = dist[c] + 1;
            for n in orthogonal(c, width) {
                let old = dist[n];
                let reached = old == Self::UNREACHED;
                // d where reached (old is UNREACHED then), old otherwise.
                dist[n] = old.min(d | u32::from(!reached).wrapping_neg());
                queue[tail] = n as u32;
                tail += usize::from(reached);
            }
        }
        // The cells never admitted, unreached as any other (`BLOCKED` is
        // `UNREACHED` but its lowest bit).
        for d in dist.iter_mut() {
            *d |= u32::from(*d == BLOCKED);
        }
        self.slab_used = tail;
        tail
    }
    /// A full search of a grid from `sources` over `moves`, entering the
    /// cells `may_enter(from, to)` allows. Returns how many cells it reached.
    pub fn flood(
        &mut self,
        width: usize,
        cells: usize,
        sources: impl IntoIterator<Item = usize>,
        moves: Moves,
        may_enter: impl FnMut(usize, usize) -> bool,
    ) -> usize {
        // The same neighbours in the same order either way; a fixed array
        // of four unrolls where the general iterator does not.
        match moves {
            Moves::Orthogonal => self.run(
                cells,
                sources,
                |c| orthogonal(c, width),
                may_enter,
                |_, _| Visit::Expand,
            ),
            Moves::King => self.run(
                cells,
                sources,
                |c| neighbours(c, width, moves),
                may_enter,
                |_, _| Visit::Expand,
            ),
        }
    }

    /// Steps from the nearest source of the last search, or
    /// [`Bfs::UNREACHED`].
    #[inline]
    pub fn dist(&self, c: usize) -> u32 {
        self.dist[c]
    }

    /// Every cell's step count from the last search.
    pub fn distances(&self) -> &[u32] {
        &self.dist
    }

    /// The step counts of the last search, keeping no buffer.
    pub fn into_distances(self) -> Vec<u32> {
        self.dist
    }

    fn clear(&mut self, cells: usize) {
        let reached = self.queue.len() + self.slab_used;
        // Past a sixteenth of the grid, putting back each reached cell
        // scatters stores over the whole table, most of them cache misses
        // (a level's flood followed by a short search): filling the whole
        // table in one pass costs less.
        if self.dist.len() == cells && reached < cells / 16 {
            // Only the cells the last search reached hold a count.
            for &c in self.queue.iter().chain(&self.slab[..self.slab_used]) {
                self.dist[c as usize] = Self::UNREACHED;
            }
        } else {
            self.dist.clear();
            self.dist.resize(cells, Self::UNREACHED);
        }
        self.queue.clear();
        self.slab_used = 0;
    }
}

/// In [`Bfs::distance_map`]'s table while it runs: a cell `open` does not
/// admit.
const BLOCKED: u32 = Bfs::UNREACHED - 1;

/// A monotone priority queue over small integer keys (Dial's algorithm):
/// a ring of buckets, with a bitmap to skip empty ones. Keys pushed are never
/// below the last key popped, nor more than the ring's length above it.
/// Values with equal keys come out last in, first out.
///
/// Each bucket is a singly linked stack threaded through one shared pool of
/// entries, so a push is one append and a pop one unlink, with no per-bucket
/// vector to grow or clear; a reset empties only the buckets in use.
#[derive(Clone, Debug, Default)]
pub struct BucketQueue {
    /// Per bucket: the index in `entries` of its top value, or `EMPTY`.
    heads: Vec<u32>,
    /// (value, index of the entry below it in its bucket).
    entries: Vec<(u32, u32)>,
    occupied: Vec<u64>,
    len: usize,
    cursor: u32,
}

const EMPTY: u32 = u32::MAX;

impl BucketQueue {
    /// Empties the queue for keys from `lowest` up to `lowest + ring_len`
    /// (`ring_len` a power of two).
    pub fn reset(&mut self, ring_len: usize, lowest: u32) {
        let ring_len = ring_len.max(64);
        if self.heads.len() != ring_len {
            self.heads.clear();
            self.heads.resize(ring_len, EMPTY);
            self.occupied.clear();
            self.occupied.resize(ring_len / 64, 0);
        } else if self.len > 0 {
            // Only the buckets still holding values need emptying.
            for (w, word) in self.occupied.iter_mut().enumerate() {
                let mut bits = std::mem::take(word);
                while bits != 0 {
                    self.heads[w * 64 + bits.trailing_zeros() as usize] = EMPTY;
                    bits &= bits - 1;
                }
            }
        }
        self.entries.clear();
        self.len = 0;
        self.cursor = lowest;
    }

    /// Makes room for rings of up to `ring_len` buckets without growing
    /// again, for a caller whose windows vary from search to search.
    pub fn reserve_ring(&mut self, ring_len: usize) {
        self.heads
            .reserve(ring_len.saturating_sub(self.heads.len()));
        self.occupied
            .reserve((ring_len / 64).saturating_sub(self.occupied.len()));
    }

    /// Makes room for `values` queued at once without growing again.
    pub fn reserve(&mut self, values: usize) {
        self.entries
            .reserve(values.saturating_sub(self.entries.len()));
    }

    /// Queues `value` under `key`, which must be inside the window; panics otherwise.
    #[inline(always)]
    pub fn push(&mut self, key: u32, value: u32) {
        let ring = self.heads.len();
        assert!(
            (key.wrapping_sub(self.cursor) as usize) < ring,
            "key {key} outside the window at {} of {ring}",
            self.cursor,
        );
        let i = key as usize & (ring - 1);
        let below = std::mem::replace(&mut self.heads[i], self.entries.len() as u32);
        self.entries.push((value, below));
        self.occupied[i / 64] |= 1 << (i % 64);
        self.len += 1;
    }

    /// The lowest key and a value pushed with it.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<(u32, u32)> {
        if self.len == 0 {
            return None;
        }
        let mask = self.heads.len() - 1;
        loop {
            let i = self.cursor as usize & mask;
            let top = self.heads[i];
            if top != EMPTY {
                let (value, below) = self.entries[top as usize];
                self.heads[i] = below;
                if below == EMPTY {
                    self.occupied[i / 64] &= !(1 << (i % 64));
                }
                self.len -= 1;
                return Some((self.cursor, value));
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

/// Per-cell stamps that a new search invalidates in O(1): a cell belongs to
/// the current search when its stamp equals the search's mark. Saves
/// clearing a whole grid before each of many small searches.
#[derive(Clone, Debug, Default)]
pub struct Stamps {
    stamp: Vec<u32>,
    last: u32,
}

impl Stamps {
    /// Fits the stamps to a grid of `cells` cells, starting afresh when the
    /// size changed or the marks are close to running out.
    pub fn fit(&mut self, cells: usize) {
        if self.stamp.len() != cells || self.last > u32::MAX - 1_000_000 {
            self.stamp = vec![0; cells];
            self.last = 0;
        }
    }

    /// A mark no cell holds yet.
    #[inline]
    pub fn next_mark(&mut self) -> u32 {
        self.last += 1;
        self.last
    }

    /// The mark cell `c` last got; a cell holds the current search's mark only if visited in it.
    #[inline]
    pub fn get(&self, c: usize) -> u32 {
        self.stamp[c]
    }

    /// Marks cell `c`, usually with [`Stamps::next_mark`]'s latest mark.
    #[inline]
    pub fn set(&mut self, c: usize, mark: u32) {
        self.stamp[c] = mark;
    }
}

#[cfg(test)]
mod tests {
    /// The row by multiplying agrees with dividing on every width a level
    /// may have, and every smaller divisor (a Grid level's spacing, 3 to
    /// 64), at the first and last cell of every row of the tallest.
    #[test]
    fn row_by_multiply_is_exact() {
        use crate::config::MAX_SIDE;
        for w in 1..=usize::from(MAX_SIDE) {
            let rows = RowOf::new(w);
            for y in 0..usize::from(MAX_SIDE) {
                for c in [y * w, y * w + w - 1] {
                    assert_eq!(rows.xy(c), (c % w, c / w), "cell {c}, width {w}");
                }
            }
        }
    }

    use super::*;
    use proptest::prelude::*;

    /// A 6x5 grid: `#` blocks, the border is blocked.
    const ROWS: [&str; 5] = ["######", "#..#.#", "#.##.#", "#....#", "######"];

    fn open() -> Vec<bool> {
        ROWS.iter()
            .flat_map(|r| r.chars().map(|c| c == '.'))
            .collect()
    }

    #[test]
    fn bfs_counts_orthogonal_steps_and_clears_only_what_it_reached() {
        let open = open();
        let mut bfs = Bfs::default();
        let reached = bfs.flood(6, 30, [7], Moves::Orthogonal, |_, n| open[n]);
        assert_eq!(reached, 9);
        assert_eq!(bfs.dist(8), 1);
        assert_eq!(bfs.dist(10), 7); // round the bottom
        assert_eq!(bfs.dist(0), Bfs::UNREACHED);
        // A second, stopped search forgets the first one's counts.
        bfs.run(
            30,
            [10],
            |c| orthogonal(c, 6),
            |_, n| open[n],
            |c, _| if c == 16 { Visit::Stop } else { Visit::Expand },
        );
        assert_eq!(bfs.dist(10), 0);
        assert_eq!(bfs.dist(7), Bfs::UNREACHED);
    }

    proptest! {
        /// The gathered mask is the flags' bits, flag i at bit i, for any
        /// count up to 32.
        #[test]
        fn mask32_is_the_flags_bits(flags in prop::collection::vec(any::<bool>(), 0..=32)) {
            let want = flags
                .iter()
                .enumerate()
                .fold(0u32, |bits, (i, &f)| bits | u32::from(f) << i);
            prop_assert_eq!(mask32(&flags, |f| f), want);
        }
    }

    proptest! {
        /// The distance map's queue that never branches on a cell reaches
        /// what a plain flood reaches, at the same step counts, and the
        /// searches after it forget it as they forget a flood: on grids
        /// from nearly all rock (a search reaching under a sixteenth of
        /// the grid, which the next clears cell by cell) to nearly all open.
        #[test]
        fn distance_map_agrees_with_a_flood(
            (w, h, open) in (3usize..40, 3usize..40, 0.05f64..0.95).prop_flat_map(|(w, h, p)| {
                (Just(w), Just(h), prop::collection::vec(prop::bool::weighted(p), w * h))
            }),
            from in 0usize..1600,
            again in 0usize..1600,
        ) {
            let open: Vec<bool> = (0..w * h)
                .map(|c| {
                    let (x, y) = (c % w, c / w);
                    open[c] && x > 0 && y > 0 && x + 1 < w && y + 1 < h
                })
                .collect();
            let mut fast = Bfs::default();
            let mut plain = Bfs::default();
            for from in [from % (w * h), again % (w * h)] {
                let reached = fast.distance_map(w, w * h, from, |n| open[n]);
                let sources = open[from].then_some(from);
                let want = plain.flood(w, w * h, sources, Moves::Orthogonal, |_, n| open[n]);
                prop_assert_eq!(reached, want);
                prop_assert_eq!(fast.distances(), plain.distances());
            }
            // A flood after the distance map starts clean.
            let c = again % (w * h);
            fast.flood(w, w * h, open[c].then_some(c), Moves::Orthogonal, |_, n| open[n]);
            plain.flood(w, w * h, open[c].then_some(c), Moves::Orthogonal, |_, n| open[n]);
            prop_assert_eq!(fast.distances(), plain.distances());
        }
    }

    #[test]
    fn king_moves_reach_diagonals() {
        let open = open();
        let mut bfs = Bfs::with_cells(30);
        bfs.flood(6, 30, [13], Moves::King, |_, n| open[n]);
        assert_eq!(bfs.dist(20), 1);
        assert_eq!(neighbours(13, 6, Moves::King).count(), 8);
        for (n, &mv) in neighbours(13, 6, Moves::King).zip(&KING_MOVES) {
            assert_eq!(king_move(13, n, 6), mv);
        }
        assert_eq!(
            neighbours(13, 6, Moves::Orthogonal).collect::<Vec<_>>(),
            orthogonal(13, 6)
        );
    }

    #[test]
    fn bucket_queue_pops_in_key_order_across_the_ring() {
        let mut q = BucketQueue::default();
        q.reset(64, 100);
        for (k, v) in [(150, 1), (100, 2), (163, 3), (100, 4)] {
            q.push(k, v);
        }
        assert_eq!(q.pop(), Some((100, 4)));
        assert_eq!(q.pop(), Some((100, 2)));
        q.push(120, 5);
        assert_eq!(q.pop(), Some((120, 5)));
        assert_eq!(q.pop(), Some((150, 1)));
        q.push(200, 6);
        assert_eq!(q.pop(), Some((163, 3)));
        assert_eq!(q.pop(), Some((200, 6)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn stamps_forget_at_a_new_mark() {
        let mut s = Stamps::default();
        s.fit(4);
        let a = s.next_mark();
        s.set(2, a);
        let b = s.next_mark();
        assert_eq!(s.get(2), a);
        assert_ne!(s.get(2), b);
    }
}
