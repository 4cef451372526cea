//! Placing vaults, before the ordinary rooms: how many, which, which way
//! round and where.
//!
//! A level tries a number of vaults drawn from the config's range. Each is
//! chosen by weight among the vaults whose depths hold the level and that
//! fit it, laid down in one of its allowed orientations, and given up to
//! `ATTEMPTS` random positions. A vault owns its whole box (its rock
//! included): its cells are marked as a room in `room_id`, and ordinary
//! rooms placed afterwards go round it (see `rooms::place`). The box keeps
//! two cells of rock from the border and from other vaults, so the cell
//! outside each of its doors stays open to corridors.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Range;
use crate::vault::{Orientation, Vault, VaultCell};

use super::budget::Budget;

/// Positions tried for one vault before it is given up.
pub(crate) const ATTEMPTS: u32 = 100;

/// A vault laid down in a level. Its drawing is read through the
/// orientation (`Drawing::oriented_cell`), never copied turned.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlacedVault {
    /// Index into the vault list.
    pub vault: usize,
    pub orientation: Orientation,
    /// The drawing's width and height as laid down.
    pub width: u16,
    pub height: u16,
    /// Top-left cell of the drawing in the level.
    pub x: u16,
    pub y: u16,
}

impl PlacedVault {
    /// The drawing's cells as laid down, row by row: (x, y, cell).
    pub fn cells<'a>(
        &self,
        vaults: &'a [Vault],
    ) -> impl Iterator<Item = (u16, u16, VaultCell)> + use<'a> {
        let (drawing, o, w) = (vaults[self.vault].drawing(), self.orientation, self.width);
        (0..self.height)
            .flat_map(move |y| (0..w).map(move |x| (x, y)))
            .map(move |(x, y)| (x, y, drawing.oriented_cell(o, x, y)))
    }
}

/// What placing vaults keeps from level to level: the vaults that may be
/// chosen, a vault's orientations, and the vaults placed.
#[derive(Default)]
pub(crate) struct Scratch {
    eligible: Vec<usize>,
    fitting: Vec<Orientation>,
    /// The vaults the last call placed.
    pub placed: Vec<PlacedVault>,
}

/// Places vaults in a `width` x `height` level at `depth` into
/// `scratch.placed`; marks each one's box in `room_id` with `first_id`,
/// `first_id + 1`, ... (the ids of the rooms they count as). Every try
/// spends from `budget`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn place(
    scratch: &mut Scratch,
    vaults: &[Vault],
    wanted: Range,
    depth: u16,
    (width, height): (u16, u16),
    rng: &mut Pcg64,
    room_id: &mut [u16],
    first_id: u16,
    budget: &Budget,
) {
    let w = usize::from(width);
    let Scratch {
        eligible,
        fitting,
        placed,
    } = scratch;
    placed.clear();
    eligible.clear();
    eligible.extend(
        (0..vaults.len())
            .filter(|&i| vaults[i].allows_depth(depth) && vaults[i].fits(width, height)),
    );
    let total: u32 = eligible.iter().map(|&i| u32::from(vaults[i].weight)).sum();
    if total == 0 || wanted.max == 0 {
        return;
    }
    let count = rng.random_range(wanted.min..=wanted.max);
    for _ in 0..count {
        // By weight.
        let mut pick = rng.random_range(0..total);
        let &vault = eligible
            .iter()
            .find(|&&i| {
                let wt = u32::from(vaults[i].weight);
                if pick < wt {
                    true
                } else {
                    pick -= wt;
                    false
                }
            })
            .expect("the weights sum to total");
        vaults[vault].orientations_into(fitting);
        fitting.retain(|&o| {
            let (dw, dh) = vaults[vault].drawing().oriented_size(o);
            dw + 6 <= width && dh + 6 <= height
        });
        let orientation = fitting[rng.random_range(0..fitting.len())];
        let (ow, oh) = vaults[vault].drawing().oriented_size(orientation);
        let (dw, dh) = (usize::from(ow), usize::from(oh));
        for _ in 0..ATTEMPTS {
            // Two cells of rock between the box and the border, so the
            // cell outside a door on the edge (its porch) has a way on: x
            // from 3 to width - 3 - dw. Vaults keep two cells apart, so no
            // porch is in another vault's ring.
            let x = rng.random_range(3..=usize::from(width) - 3 - dw);
            let y = rng.random_range(3..=usize::from(height) - 3 - dh);
            if !budget.spend((dw + 4) * (dh + 4)) {
                return;
            }
            let clear = (y - 2..=y + dh + 1).all(|cy| {
                room_id[cy * w + x - 2..=cy * w + x + dw + 1]
                    .iter()
                    .all(|&id| id == 0)
            });
            if !clear {
                continue;
            }
            let id = first_id + placed.len() as u16;
            for cy in y..y + dh {
                room_id[cy * w + x..cy * w + x + dw].fill(id);
            }
            placed.push(PlacedVault {
                vault,
                orientation,
                width: ow,
                height: oh,
                x: x as u16,
                y: y as u16,
            });
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};
    use crate::vault::{VaultDraft, build};
    use proptest::prelude::*;

    fn shipped() -> Vec<Vault> {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/vaults.ron"))
            .unwrap();
        let drafts: Vec<VaultDraft> = ron::from_str(&text).unwrap();
        build(&drafts, &|c| "rkoWUb".contains(c)).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Vaults stay off the border, keep the gap from each other, and
        /// are marked exactly over their boxes; the same seed places the same.
        #[test]
        fn vaults_keep_apart_and_inside(
            seed in any::<u64>(),
            depth in 1u16..=10,
            side in 30u16..=120,
            max in 0u16..=6,
        ) {
            let vaults = shipped();
            let (w, h) = (side, side / 2 + 15);
            let budget = Budget::new(u64::MAX);
            let run = |room_id: &mut Vec<u16>| {
                room_id.clear();
                room_id.resize(usize::from(w) * usize::from(h), 0);
                let mut rng = stage_rng(seed, depth, 0, Stage::Rooms);
                let mut scratch = Scratch::default();
                place(
                    &mut scratch,
                    &vaults,
                    Range::new(0, max),
                    depth,
                    (w, h),
                    &mut rng,
                    room_id,
                    1,
                    &budget,
                );
                scratch.placed
            };
            let mut room_id = Vec::new();
            let placed = run(&mut room_id);
            let mut again = Vec::new();
            prop_assert_eq!(&run(&mut again), &placed);
            prop_assert!(placed.len() <= usize::from(max));
            let wu = usize::from(w);
            for (i, p) in placed.iter().enumerate() {
                let v = &vaults[p.vault];
                prop_assert!(v.allows_depth(depth));
                let drawing = v.drawing().oriented(p.orientation);
                prop_assert_eq!((drawing.width(), drawing.height()), (p.width, p.height));
                // Read through the orientation, the cells are the turned drawing's.
                prop_assert!(p.cells(&vaults).eq(drawing.cells()));
                let (x, y) = (usize::from(p.x), usize::from(p.y));
                let (dw, dh) = (usize::from(p.width), usize::from(p.height));
                prop_assert!(x >= 3 && y >= 3 && x + dw + 3 <= wu && y + dh + 3 <= usize::from(h));
                for cy in y - 2..=y + dh + 1 {
                    for cx in x - 2..=x + dw + 1 {
                        let inside = (y..y + dh).contains(&cy) && (x..x + dw).contains(&cx);
                        let id = room_id[cy * wu + cx];
                        prop_assert_eq!(id, if inside { i as u16 + 1 } else { 0 });
                    }
                }
            }
        }
    }

    #[test]
    fn a_level_too_small_for_every_vault_gets_none() {
        let vaults: Vec<Vault> = shipped()
            .into_iter()
            .filter(|v| v.drawing().width() > 24)
            .collect();
        let mut room_id = vec![0; 30 * 15];
        let mut rng = stage_rng(1, 1, 0, Stage::Rooms);
        let budget = Budget::new(u64::MAX);
        let mut scratch = Scratch::default();
        place(
            &mut scratch,
            &vaults,
            Range::new(2, 2),
            8,
            (30, 15),
            &mut rng,
            &mut room_id,
            1,
            &budget,
        );
        assert!(scratch.placed.is_empty());
    }
}
