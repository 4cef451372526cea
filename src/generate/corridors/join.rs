//! The order rooms are joined in, and the room distances it and the
//! styles that fall back to nearer rooms compare.

use crate::geom::Shape;

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
