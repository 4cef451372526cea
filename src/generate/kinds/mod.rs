//! The kinds of level other than rooms and corridors, each a file: a kind
//! lays out the ground (tiles and hardness, the noise already in it) and
//! returns its areas; stairs, the graph and verification are the finish
//! every kind shares (`generate/mod.rs`). Rooms and corridors, the first
//! kind, is the pipeline of `generate/mod.rs` itself.
//!
//! Adding a kind: a file here, its scratch in [`Kinds`], its config
//! section (`config/kinds.rs`), and one line where `Generator::attempt`
//! dispatches on the kind.

pub(super) mod cave;
pub(super) mod labyrinth;

use crate::geom::{Pos, Rect, RegionBox, RegionKind, Shape};
use crate::level::Room;

/// How a kind lays out a level: into `tiles` (all rock on entry) and
/// `hardness` (the noise, border 255), drawing from its own stream, within
/// the level's budget; it returns its areas.
pub(super) type Lay = fn(
    &mut Kinds,
    &crate::config::Config,
    &mut [crate::level::Tile],
    &mut [u8],
    &mut rand_pcg::Pcg64,
    &super::budget::Budget,
) -> Result<Vec<Room>, super::Rejected>;

/// Every kind's buffers, kept from level to level.
#[derive(Default)]
pub(super) struct Kinds {
    pub(super) cave: cave::Scratch,
    pub(super) labyrinth: labyrinth::Scratch,
}

/// An irregular area of `kind` whose floor spans `(x0, y0)` to `(x1, y1)`
/// inclusive, found from the cell `anchor` (an index into a grid `w` wide).
pub(super) fn region_room(
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    anchor: usize,
    w: usize,
    kind: RegionKind,
) -> Room {
    Room {
        shape: Shape::Region(RegionBox {
            bounds: Rect {
                x: x0 as u16,
                y: y0 as u16,
                width: (x1 - x0 + 1) as u16,
                height: (y1 - y0 + 1) as u16,
            },
            anchor: Pos::new((anchor % w) as u16, (anchor / w) as u16),
            kind,
        }),
        doors: Vec::new(),
    }
}
