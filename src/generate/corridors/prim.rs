//! Prim's order over room centres for levels of hundreds of rooms: the
//! same order as the plain version in [`join`](super::join) (room 0 first,
//! then always the room nearest any room taken, ties to the lower index),
//! without looking at every pair of rooms.
//!
//! Each taken room keeps one entry in a heap: its nearest room not yet
//! taken, found in a grid of coarse squares. The smallest entry, by
//! (distance, room), is the next room of Prim's order; an entry whose room
//! was taken since is looked up again when it surfaces. A room's nearest
//! untaken room only changes when that room is taken, so every entry still
//! pointing at an untaken room is current, and the smallest of them is
//! exactly the pick of the plain version, ties included.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::join::dist2;

/// The buffers of [`PrimIndex::order`], kept from level to level.
#[derive(Default)]
pub(super) struct PrimIndex {
    columns: usize,
    rows: usize,
    /// Per square, where its rooms start in `rooms` (one more entry at the
    /// end): the rooms filed by square, each square's in index order.
    start: Vec<u32>,
    /// Filing's cursor per square (kept, so filing allocates nothing).
    fill: Vec<u32>,
    /// The rooms filed by square, each with its centre: a square's rooms
    /// not taken yet first (`left` of them), so a search reads those and
    /// nothing else, from one table.
    filed: Vec<Filed>,
    /// Per room: where it is in `filed`.
    slot: Vec<u32>,
    /// Per square: how many of its rooms are not taken yet.
    left: Vec<u32>,
    /// The squares with rooms left, a bit each: by row (`words_x` words a
    /// row of squares, bit x) and by column (`words_y` words a column, bit
    /// y). A search reads a ring's sides off these, so it passes over
    /// emptied squares 64 at a time: late in the order most squares near
    /// a taken room are empty, and looking at each was most of the index's
    /// time on a 1000x1000 level.
    by_row: Vec<u64>,
    by_column: Vec<u64>,
    words_x: usize,
    words_y: usize,
    square_of: Vec<u32>,
    taken: Vec<bool>,
    /// (distance, untaken room, taken room it is nearest to).
    heap: BinaryHeap<Reverse<(i64, u32, u32)>>,
}

impl PrimIndex {
    /// A square's side in doubled coordinates (32 cells).
    const SIDE: i64 = 64;

    /// Prim's order of the rooms with doubled centres `centres` (each
    /// inside a `width` x `height` level) into `out`, and each room's
    /// nearest room taken before it into `nearest`, as the plain version
    /// gives them.
    ///
    /// A room is taken when the least entry is its own: (distance, room,
    /// taken room `t` it is nearest to). Any other taken room as near to
    /// it has an entry of the same distance and room by then (its nearest
    /// untaken room can be no nearer, or that entry would have come out
    /// first), so `t`, the least of them, is the nearest taken room, ties
    /// to the lower index.
    pub(super) fn order(
        &mut self,
        centres: &[(i64, i64)],
        width: usize,
        height: usize,
        out: &mut Vec<usize>,
        nearest: &mut Vec<usize>,
    ) {
        out.clear();
        let n = centres.len();
        nearest.clear();
        nearest.resize(n, usize::MAX);
        if n == 0 {
            return;
        }
        self.file(centres, width, height);
        self.heap.clear();
        self.take(0, out);
        if let Some((d, r)) = self.nearest_untaken(centres, 0, 0) {
            self.heap.push(Reverse((d, r, 0)));
        }
        while out.len() < n {
            let Some(Reverse((d, r, t))) = self.heap.pop() else {
                // Unreachable: a taken room with an untaken one left
                // always has an entry.
                break;
            };
            if !self.taken[r as usize] {
                self.take(r as usize, out);
                nearest[r as usize] = t as usize;
                if let Some((d, s)) = self.nearest_untaken(centres, r as usize, 0) {
                    self.heap.push(Reverse((d, s, r)));
                }
            }
            // `t`'s nearest room is taken now (by this pick or an earlier
            // one): look again, no nearer than it was.
            if let Some((d, s)) = self.nearest_untaken(centres, t as usize, d) {
                self.heap.push(Reverse((d, s, t)));
            }
        }
    }

    /// Files every room in its square.
    fn file(&mut self, centres: &[(i64, i64)], width: usize, height: usize) {
        self.columns = 2 * width / Self::SIDE as usize + 1;
        self.rows = 2 * height / Self::SIDE as usize + 1;
        let squares = self.columns * self.rows;
        self.square_of.clear();
        for &c in centres {
            let (x, y) = self.square(c);
            self.square_of.push((y * self.columns + x) as u32);
        }
        // Counting sort by square: rooms of a square stay in index order.
        self.left.clear();
        self.left.resize(squares, 0);
        for &s in &self.square_of {
            self.left[s as usize] += 1;
        }
        self.start.clear();
        let mut at = 0u32;
        for &count in &self.left {
            self.start.push(at);
            at += count;
        }
        self.start.push(at);
        self.filed.clear();
        self.filed.resize(centres.len(), Filed::default());
        self.slot.clear();
        self.slot.resize(centres.len(), 0);
        // Where each square's next room goes: a kept copy of the starts.
        self.fill.clone_from(&self.start);
        for (room, (&s, &(x, y))) in self.square_of.iter().zip(centres).enumerate() {
            let at = self.fill[s as usize];
            self.filed[at as usize] = Filed {
                x,
                y,
                room: room as u32,
            };
            self.slot[room] = at;
            self.fill[s as usize] += 1;
        }
        self.taken.clear();
        self.taken.resize(centres.len(), false);
        self.words_x = self.columns.div_ceil(64);
        self.words_y = self.rows.div_ceil(64);
        self.by_row.clear();
        self.by_row.resize(self.rows * self.words_x, 0);
        self.by_column.clear();
        self.by_column.resize(self.columns * self.words_y, 0);
        for s in 0..squares {
            if self.left[s] > 0 {
                self.flip_bits(s);
            }
        }
    }

    /// Flips square `s`'s bit by row and by column: set when it is filed
    /// with rooms, cleared when its last room is taken.
    fn flip_bits(&mut self, s: usize) {
        let (x, y) = (s % self.columns, s / self.columns);
        self.by_row[y * self.words_x + x / 64] ^= 1 << (x % 64);
        self.by_column[x * self.words_y + y / 64] ^= 1 << (y % 64);
    }

    fn square(&self, c: (i64, i64)) -> (usize, usize) {
        let at = |v: i64, n: usize| ((v.max(0) / Self::SIDE) as usize).min(n - 1);
        (at(c.0, self.columns), at(c.1, self.rows))
    }

    fn take(&mut self, room: usize, out: &mut Vec<usize>) {
        self.taken[room] = true;
        let s = self.square_of[room] as usize;
        // Out of its square's rooms left: swapped with the last of them.
        let (at, last) = (self.slot[room], self.start[s] + self.left[s] - 1);
        self.filed.swap(at as usize, last as usize);
        let moved = self.filed[at as usize].room;
        self.slot[moved as usize] = at;
        self.slot[room] = last;
        self.left[s] -= 1;
        if self.left[s] == 0 {
            self.flip_bits(s);
        }
        out.push(room);
    }

    /// Brings `best` (distance, room) up to date with the untaken rooms of
    /// square `s`, nearer `p` or as near with a lower index.
    #[inline(always)]
    fn nearest_in(&self, p: (i64, i64), s: usize, best: &mut Option<(i64, u32)>) {
        let first = self.start[s] as usize;
        for f in &self.filed[first..first + self.left[s] as usize] {
            let d = dist2(p, (f.x, f.y));
            if best.is_none_or(|b| (d, f.room) < b) {
                *best = Some((d, f.room));
            }
        }
    }

    /// The untaken room nearest room `from`'s centre, ties to the lower
    /// index, and its squared distance, known to be at least `at_least`
    /// (untaken rooms only ever get fewer, so a room's nearest one only
    /// gets farther).
    fn nearest_untaken(
        &self,
        centres: &[(i64, i64)],
        from: usize,
        at_least: i64,
    ) -> Option<(i64, u32)> {
        let p = centres[from];
        let (sx, sy) = self.square(p);
        let (sx, sy) = (sx as i64, sy as i64);
        let (columns, rows) = (self.columns as i64, self.rows as i64);
        let widest = sx.max(columns - 1 - sx).max(sy).max(rows - 1 - sy);
        let mut best: Option<(i64, u32)> = None;
        // Ring k holds only rooms less than k + 1 sides away along x and
        // y; rings wholly nearer than `at_least` hold no untaken room.
        let mut first = 0;
        while first < widest && 2 * ((first + 1) * Self::SIDE).pow(2) < at_least {
            first += 1;
        }
        // How far inside its square `p` is: a room k squares away (k >= 1)
        // is at least (k - 1) sides and this much away along x or y.
        let inside = (p.0 - sx * Self::SIDE + 1)
            .min((sx + 1) * Self::SIDE - p.0)
            .min(p.1 - sy * Self::SIDE + 1)
            .min((sy + 1) * Self::SIDE - p.1);
        for k in first..=widest {
            // Once the best is nearer than ring k can be, the ring can
            // hold neither a nearer room nor a tie.
            if let Some((d, _)) = best {
                let gap = (k - 1) * Self::SIDE + inside;
                if k >= 1 && d < gap * gap {
                    break;
                }
            }
            let square = |x: usize, y: usize| y * self.columns + x;
            if k == 0 {
                self.nearest_in(p, square(sx as usize, sy as usize), &mut best);
                continue;
            }
            // Ring k's squares with rooms left, clipped to the grid: its top
            // and bottom rows, then the columns between. The best is the
            // least (distance, room) of all looked at, whatever the order.
            let (x0, x1) = ((sx - k).max(0) as usize, (sx + k).min(columns - 1) as usize);
            // Never empty: sy is inside the grid and k is at least 1.
            let (y0, y1) = (
                (sy - k + 1).max(0) as usize,
                (sy + k - 1).min(rows - 1) as usize,
            );
            for y in [sy - k, sy + k] {
                if (0..rows).contains(&y) {
                    let y = y as usize;
                    let row = &self.by_row[y * self.words_x..(y + 1) * self.words_x];
                    for_each_bit(row, x0, x1, |x| {
                        self.nearest_in(p, square(x, y), &mut best);
                    });
                }
            }
            for x in [sx - k, sx + k] {
                if (0..columns).contains(&x) {
                    let x = x as usize;
                    let column = &self.by_column[x * self.words_y..(x + 1) * self.words_y];
                    for_each_bit(column, y0, y1, |y| {
                        self.nearest_in(p, square(x, y), &mut best);
                    });
                }
            }
        }
        best
    }
}

/// A room filed in its square, with its (doubled) centre.
#[derive(Clone, Copy, Default)]
struct Filed {
    x: i64,
    y: i64,
    room: u32,
}

/// Calls `f` with each set bit of `words` (bit i of word i / 64 is i % 64)
/// from `lo` to `hi`, both included, lowest first.
#[inline(always)]
fn for_each_bit(words: &[u64], lo: usize, hi: usize, mut f: impl FnMut(usize)) {
    for (w, &word) in words.iter().enumerate().take(hi / 64 + 1).skip(lo / 64) {
        let base = w * 64;
        // The word's bits from lo and up to hi, whichever of them it holds.
        let from = lo.saturating_sub(base).min(63);
        let upto = (hi - base).min(63);
        let mut bits = word & (u64::MAX << from) & (u64::MAX >> (63 - upto));
        while bits != 0 {
            f(base + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    fn plain(centres: &[(i64, i64)]) -> (Vec<usize>, Vec<usize>) {
        let (mut out, mut nearest) = (Vec::new(), Vec::new());
        crate::generate::corridors::join::Prim::default().order(centres, &mut out, &mut nearest);
        (out, nearest)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// The same order as looking at every pair, ties included: centres
        /// crowded on a small level (many equal distances) and spread over
        /// a large one, reusing one index.
        #[test]
        fn same_order_as_every_pair(
            crowded in prop::collection::vec((0i64..40, 0i64..30), 1..120),
            spread in prop::collection::vec((0i64..1998, 0i64..1198), 1..400),
            // Wider than any level (sides of 2,000), so that a row and a
            // column of squares take two words of bits each.
            vast in prop::collection::vec((0i64..6000, 0i64..4500), 1..300),
        ) {
            let mut index = PrimIndex::default();
            let (mut out, mut nearest) = (Vec::new(), Vec::new());
            index.order(&crowded, 20, 15, &mut out, &mut nearest);
            prop_assert_eq!((out.clone(), nearest.clone()), plain(&crowded));
            index.order(&spread, 999, 599, &mut out, &mut nearest);
            prop_assert_eq!((out.clone(), nearest.clone()), plain(&spread));
            index.order(&vast, 3000, 2250, &mut out, &mut nearest);
            prop_assert_eq!((out, nearest), plain(&vast));
        }
    }

    #[test]
    fn one_room_and_none() {
        let mut index = PrimIndex::default();
        let (mut out, mut nearest) = (vec![7], vec![7]);
        index.order(&[], 10, 10, &mut out, &mut nearest);
        assert!(out.is_empty() && nearest.is_empty());
        index.order(&[(5, 5)], 10, 10, &mut out, &mut nearest);
        assert_eq!((out, nearest), (vec![0], vec![usize::MAX]));
    }
}
