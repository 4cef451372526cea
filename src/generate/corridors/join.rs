//! The order rooms are joined in, and the room distances it and the
//! styles that fall back to nearer rooms compare.

use crate::geom::Shape;

/// The order rooms are joined in: room 0 first, then always the room
/// nearest (by centre) to any room already taken, ties to the lower index.
/// This is Prim's order over the room centres. Joining in placement order
/// instead would make the early corridors cross the whole level (room 1 is
/// anywhere relative to room 0) and cost the search most of its time, for
/// corridors that 002's nearest-room rule means to be local anyway. Its
/// buffers are kept from level to level.
#[derive(Default)]
pub(super) struct Prim {
    /// The rooms not yet taken, their doubled centres, and each one's
    /// distance to the nearest taken room: side by side, so the scan after
    /// each take runs over the untaken rooms alone, without a branch for
    /// the taken ones.
    untaken: Vec<usize>,
    xs: Vec<i64>,
    ys: Vec<i64>,
    best: Vec<i64>,
    /// Each untaken room's nearest taken room (ties to the lower index).
    near: Vec<usize>,
}

impl Prim {
    /// The join order of rooms with doubled centres `centres`, into
    /// `order`. After each take, every untaken room's distance to the taken
    /// ones is brought up to date and the least (distance, room) is taken
    /// next; a taken room leaves the lists (by swapping in the last, which
    /// the tie-break by index makes harmless). Still every pair once, but
    /// half the pairs of [`Prim::order_by_pairs`] and a tighter loop.
    ///
    /// `nearest[r]` is then the room nearest `r` among those taken before
    /// it (ties to the lower index; `usize::MAX` for room 0): the room the
    /// Tunnel joins `r` to first, known here for the price of a compare a
    /// pair.
    pub(super) fn order(
        &mut self,
        centres: &[(i64, i64)],
        order: &mut Vec<usize>,
        nearest: &mut Vec<usize>,
    ) {
        let n = centres.len();
        order.clear();
        nearest.clear();
        nearest.resize(n, usize::MAX);
        if n == 0 {
            return;
        }
        let Prim {
            untaken,
            xs,
            ys,
            best,
            near,
        } = self;
        untaken.clear();
        untaken.extend(1..n);
        xs.clear();
        xs.extend(centres[1..].iter().map(|c| c.0));
        ys.clear();
        ys.extend(centres[1..].iter().map(|c| c.1));
        best.clear();
        best.resize(n - 1, i64::MAX);
        near.clear();
        near.resize(n - 1, usize::MAX);
        let mut next = 0;
        loop {
            order.push(next);
            if untaken.is_empty() {
                break;
            }
            let (nx, ny) = centres[next];
            let mut pick = (i64::MAX, usize::MAX, 0);
            for i in 0..untaken.len() {
                let d = (xs[i] - nx).pow(2) + (ys[i] - ny).pow(2);
                // Rooms are taken in any order of index, so a tie goes to
                // `next` only if its index is lower.
                if (d, next) < (best[i], near[i]) {
                    best[i] = d;
                    near[i] = next;
                }
                let b = best[i];
                if (b, untaken[i]) < (pick.0, pick.1) {
                    pick = (b, untaken[i], i);
                }
            }
            let i = pick.2;
            next = untaken.swap_remove(i);
            nearest[next] = near.swap_remove(i);
            xs.swap_remove(i);
            ys.swap_remove(i);
            best.swap_remove(i);
        }
    }

    /// Prim's order as first written, every room looked at after every
    /// take: the reference [`Prim::order`] is checked against.
    #[cfg(test)]
    fn order_by_pairs(centres: &[(i64, i64)]) -> Vec<usize> {
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

/// Rooms' doubled centres ([`centre2`]) filed by coarse squares of the
/// level (32 cells a side), so the rooms nearest a point are found among
/// the squares around it instead of among every room filed: what keeps
/// the Tunnel's nearest-room rule from growing with the square of the room
/// count on levels of thousands of rooms.
#[derive(Default)]
pub(super) struct Nearest {
    columns: usize,
    rows: usize,
    squares: Vec<Vec<u32>>,
}

impl Nearest {
    /// A square's side in doubled coordinates.
    const SIDE: i64 = 64;

    /// An empty index for a level `width` x `height` cells.
    #[cfg(test)]
    pub(super) fn new(width: usize, height: usize) -> Nearest {
        let mut index = Nearest::default();
        index.reset(width, height);
        index
    }

    /// Empties the index for a level `width` x `height` cells, keeping
    /// its squares' lists.
    pub(super) fn reset(&mut self, width: usize, height: usize) {
        self.columns = 2 * width / Self::SIDE as usize + 1;
        self.rows = 2 * height / Self::SIDE as usize + 1;
        for square in &mut self.squares {
            square.clear();
        }
        // Room for a few rooms a square, so most squares never grow.
        self.squares
            .resize_with(self.columns * self.rows, || Vec::with_capacity(8));
    }

    fn square(&self, c: (i64, i64)) -> (usize, usize) {
        let at = |v: i64, n: usize| ((v.max(0) / Self::SIDE) as usize).min(n - 1);
        (at(c.0, self.columns), at(c.1, self.rows))
    }

    /// Files room `room`, whose doubled centre is `c`.
    pub(super) fn insert(&mut self, room: usize, c: (i64, i64)) {
        let (x, y) = self.square(c);
        self.squares[y * self.columns + x].push(room as u32);
    }

    /// The (up to) `k` filed rooms nearest to `c` into `out`, nearest first,
    /// ties to the lower index: exactly the first `k` of every filed room
    /// sorted by (distance, index).
    pub(super) fn nearest(
        &self,
        c: (i64, i64),
        centres: &[(i64, i64)],
        k: usize,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        let (cx, cy) = self.square(c);
        let key = |j: usize| (dist2(c, centres[j]), j);
        let widest = self.columns.max(self.rows);
        for ring in 0..=widest {
            // Every room in ring r >= 1 is at least (r - 1) squares away
            // along some axis; once that is farther than the k-th best,
            // nothing farther out can enter the list.
            if out.len() == k && ring >= 1 {
                let reach = (ring as i64 - 1) * Self::SIDE;
                if reach * reach > key(out[k - 1]).0 {
                    break;
                }
            }
            let (x0, x1) = (cx.saturating_sub(ring), (cx + ring).min(self.columns - 1));
            let (y0, y1) = (cy.saturating_sub(ring), (cy + ring).min(self.rows - 1));
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if x.abs_diff(cx).max(y.abs_diff(cy)) != ring {
                        continue;
                    }
                    for &j in &self.squares[y * self.columns + x] {
                        let j = j as usize;
                        if out.len() == k && key(j) >= key(out[k - 1]) {
                            continue;
                        }
                        let at = out.partition_point(|&o| key(o) < key(j));
                        out.insert(at, j);
                        out.truncate(k);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Prim's order over the untaken rooms alone is the order looking at
        /// every pair, ties included (centres on a coarse lattice share
        /// distances often), on fresh and on kept buffers.
        #[test]
        fn prim_is_prim_by_pairs(
            centres in prop::collection::vec((0i64..80, 0i64..60), 1..300),
            scale in 1i64..12,
        ) {
            let centres: Vec<(i64, i64)> =
                centres.iter().map(|&(x, y)| (x * scale, y * scale)).collect();
            let want = Prim::order_by_pairs(&centres);
            let mut prim = Prim::default();
            let (mut got, mut nearest) = (Vec::new(), Vec::new());
            prim.order(&centres, &mut got, &mut nearest);
            prop_assert_eq!(&got, &want);
            // Each room's nearest is the least (distance, index) among the
            // rooms before it.
            for (k, &r) in got.iter().enumerate() {
                let least = got[..k].iter().copied().min_by_key(|&j| (dist2(centres[r], centres[j]), j));
                prop_assert_eq!(nearest[r], least.unwrap_or(usize::MAX));
            }
            let half = &centres[..centres.len() / 2 + 1];
            prim.order(half, &mut got, &mut nearest);
            prop_assert_eq!(&got, &Prim::order_by_pairs(half));
            prop_assert_eq!(nearest.len(), half.len());
            prim.order(&centres, &mut got, &mut nearest);
            prop_assert_eq!(got, want);
        }

        /// The index's k nearest are the first k of all rooms sorted by
        /// (distance, index), ties and empty squares included.
        #[test]
        fn nearest_agrees_with_sorting_everything(
            centres in prop::collection::vec((0i64..400, 0i64..300), 1..300),
            probe in (0i64..400, 0i64..300),
            k in 1usize..6,
        ) {
            let mut index = Nearest::new(200, 150);
            for (j, &c) in centres.iter().enumerate() {
                index.insert(j, c);
            }
            let mut got = Vec::new();
            index.nearest(probe, &centres, k, &mut got);
            let mut all: Vec<usize> = (0..centres.len()).collect();
            all.sort_by_key(|&j| (dist2(probe, centres[j]), j));
            all.truncate(k);
            prop_assert_eq!(got, all);
        }
    }
}
