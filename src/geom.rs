//! Cell coordinates, the four orthogonal directions and room shapes.
//!
//! Coordinates are `u16`: levels are at most a few thousand cells a side, and
//! small positions keep levels, saves and search buffers compact.

use serde::{Deserialize, Serialize};

/// A cell of a level. `x` grows to the right, `y` grows downwards, as on a
/// terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column, 0 at the left edge of the level.
    pub x: u16,
    /// Row, 0 at the top edge of the level.
    pub y: u16,
}

impl Pos {
    /// The cell at column `x`, row `y`; not checked against any level.
    pub const fn new(x: u16, y: u16) -> Self {
        Pos { x, y }
    }

    /// Chebyshev distance: the number of king moves between two cells.
    pub fn chebyshev(self, other: Pos) -> u16 {
        self.x.abs_diff(other.x).max(self.y.abs_diff(other.y))
    }

    /// Manhattan distance: the number of orthogonal steps between two cells.
    pub fn manhattan(self, other: Pos) -> u32 {
        u32::from(self.x.abs_diff(other.x)) + u32::from(self.y.abs_diff(other.y))
    }
}

/// `x,y`, as messages about a level name its cells.
impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One of the four orthogonal directions. Corridors are carved and
/// connectivity is judged by orthogonal steps only, so a diagonal squeeze
/// between two rock corners never counts as a passage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Towards row 0.
    North = 0,
    /// Towards larger `x`.
    East = 1,
    /// Towards larger `y`.
    South = 2,
    /// Towards column 0.
    West = 3,
}

impl Dir {
    /// In clockwise order from north, so an index plus one turns right;
    /// [`Dir::from_index`] relies on it.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The step in `x`: -1, 0 or 1.
    pub const fn dx(self) -> i32 {
        match self {
            Dir::East => 1,
            Dir::West => -1,
            Dir::North | Dir::South => 0,
        }
    }

    /// The step in `y`: -1, 0 or 1 (south is +1, as rows grow downwards).
    pub const fn dy(self) -> i32 {
        match self {
            Dir::South => 1,
            Dir::North => -1,
            Dir::East | Dir::West => 0,
        }
    }

    /// The reverse direction, as used to walk back along a step.
    pub const fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }

    /// The direction at `i` modulo 4 in [`Dir::ALL`], so turns are index arithmetic.
    pub const fn from_index(i: usize) -> Dir {
        Dir::ALL[i & 3]
    }

    /// A quarter turn anticlockwise (north to west).
    pub const fn left(self) -> Dir {
        Dir::from_index(self as usize + 3)
    }

    /// A quarter turn clockwise (north to east).
    pub const fn right(self) -> Dir {
        Dir::from_index(self as usize + 1)
    }
}

/// An axis-aligned rectangle of cells, inclusive of `x..x+width` and
/// `y..y+height`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    /// Left column.
    pub x: u16,
    /// Top row.
    pub y: u16,
    /// Cells across, at least 1.
    pub width: u16,
    /// Cells down, at least 1.
    pub height: u16,
}

impl Rect {
    /// The last column inside, so `x..=right()`; `width` must be at least 1.
    pub fn right(&self) -> u16 {
        self.x + self.width - 1
    }

    /// The last row inside, so `y..=bottom()`; `height` must be at least 1.
    pub fn bottom(&self) -> u16 {
        self.y + self.height - 1
    }

    /// Whether the cell lies inside, edges included.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= self.x && p.x <= self.right() && p.y >= self.y && p.y <= self.bottom()
    }

    /// Whether the rectangles come within `gap` cells of each other
    /// (Chebyshev), i.e. whether their `gap`-dilations overlap.
    pub fn within(&self, other: &Rect, gap: u16) -> bool {
        u32::from(self.x) <= u32::from(other.right()) + u32::from(gap)
            && u32::from(other.x) <= u32::from(self.right()) + u32::from(gap)
            && u32::from(self.y) <= u32::from(other.bottom()) + u32::from(gap)
            && u32::from(other.y) <= u32::from(self.bottom()) + u32::from(gap)
    }
}

/// The outline of a room. Circles are discs of cells whose squared distance
/// from the centre is at most `r² + r`: the usual "radius + ½" disc that looks
/// round on a grid instead of growing a one-cell nub on each side.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Shape {
    /// A rectangular room.
    Rect(Rect),
    /// A round room, `2 * radius + 1` cells across.
    Circle {
        /// The middle cell.
        center: Pos,
        /// Cells from the middle to the edge along an axis.
        radius: u16,
    },
    /// Placements that overlapped or stood side by side, merged into one
    /// irregular room (000, with `rooms_may_overlap`).
    Merged(Merged),
    /// A vault: a set piece from the vaults file. The shape is its whole
    /// box, which the vault owns (its rock and corridors included); which of
    /// its cells are floor is read from the level's tiles.
    Vault(VaultBox),
    /// An area of irregular outline that is not a room: a cave's chamber.
    /// Like a vault's, the shape is a box and the level's tiles say the
    /// rest: the area is the floor reached from `anchor` by orthogonal
    /// steps over floor (stairs included), all of it inside `bounds`, which
    /// is exactly its extent. [`crate::Level::area_of`] answers which area
    /// a cell is in.
    Region(RegionBox),
}

/// Where an irregular area lies: its box and one floor cell of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegionBox {
    /// The smallest rectangle holding the area's floor.
    pub bounds: Rect,
    /// A floor cell of the area, from which its floor is found.
    pub anchor: Pos,
    /// What the area is, for the exports and the player's eyes.
    pub kind: RegionKind,
}

/// What kind of place an irregular area is.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionKind {
    /// A cave's open chamber, wider than a passage.
    Chamber,
    /// A labyrinth's cell set aside for stairs and what lies about.
    Landing,
}

impl RegionKind {
    /// The word the exports use for it.
    pub const fn name(self) -> &'static str {
        match self {
            RegionKind::Chamber => "chamber",
            RegionKind::Landing => "landing",
        }
    }
}

/// Where a vault stands, and which vault of the run's list it is, laid down
/// how: enough to find its drawing again (for its monsters, the JSON
/// export and the tests) without keeping a copy in every level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VaultBox {
    /// The drawing's box in the level.
    pub bounds: Rect,
    /// Index into the run's vault list.
    pub vault: u16,
    /// Quarter turns clockwise (0 to 3) before the flip.
    pub quarter_turns: u8,
    /// Whether the drawing was flipped left to right after turning.
    pub mirrored: bool,
}

/// The most placements one merged room is made of. A fixed array keeps
/// [`Shape`] `Copy`; a placement that would merge more is refused.
pub const MAX_PARTS: usize = 8;

/// One placement inside a merged room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Part {
    /// A rectangle of the merged room.
    Rect(Rect),
    /// A disc of the merged room, drawn as [`Shape::Circle`].
    Circle {
        /// The middle cell.
        center: Pos,
        /// Cells from the middle to the edge along an axis.
        radius: u16,
    },
}

impl Part {
    /// The part as a shape of its own, to reuse [`Shape`]'s geometry.
    pub fn shape(self) -> Shape {
        match self {
            Part::Rect(r) => Shape::Rect(r),
            Part::Circle { center, radius } => Shape::Circle { center, radius },
        }
    }
}

/// A room made of 2 to [`MAX_PARTS`] placements, orthogonally connected.
/// Entries past `len` repeat the first part and mean nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Merged {
    /// The placements; only the first `len` count.
    pub parts: [Part; MAX_PARTS],
    /// How many of `parts` are real, 2 to [`MAX_PARTS`].
    pub len: u8,
}

impl Merged {
    /// The parts in placement order.
    pub fn parts(&self) -> &[Part] {
        &self.parts[..usize::from(self.len).min(MAX_PARTS)]
    }

    /// Merges plain shapes and merged rooms; `None` past [`MAX_PARTS`].
    pub fn of(shapes: &[Shape]) -> Option<Merged> {
        Merged::of_shapes(shapes.iter().copied())
    }

    /// [`Merged::of`] over the shapes `shapes` yields, filled in place: no
    /// list is made, so merging placement after placement allocates
    /// nothing.
    pub fn of_shapes(shapes: impl IntoIterator<Item = Shape>) -> Option<Merged> {
        let empty = Part::Rect(Rect {
            x: 0,
            y: 0,
            width: 0,
            height: 0,
        });
        let mut parts = [empty; MAX_PARTS];
        let mut len = 0;
        let mut push = |p: Part| {
            if let Some(slot) = parts.get_mut(len) {
                *slot = p;
            }
            // Counted past the end too, so too many parts are refused.
            len += 1;
        };
        for s in shapes {
            match s {
                Shape::Rect(r) => push(Part::Rect(r)),
                Shape::Circle { center, radius } => push(Part::Circle { center, radius }),
                Shape::Merged(m) => m.parts().iter().copied().for_each(&mut push),
                // Vaults never merge (rooms::merge_with refuses them), and
                // regions are never placed as rooms.
                Shape::Vault(_) | Shape::Region(_) => return None,
            }
        }
        if len == 0 || len > MAX_PARTS {
            return None;
        }
        let first = parts[0];
        parts[len..].fill(first);
        Some(Merged {
            parts,
            len: len as u8,
        })
    }

    /// The box round every part.
    #[inline(never)]
    fn bounds(&self) -> Rect {
        let mut it = self.parts().iter().map(|p| p.shape().bounds());
        let first = it.next().expect("a merged room has parts");
        let (mut x0, mut y0) = (first.x, first.y);
        let (mut x1, mut y1) = (first.right(), first.bottom());
        for b in it {
            x0 = x0.min(b.x);
            y0 = y0.min(b.y);
            x1 = x1.max(b.right());
            y1 = y1.max(b.bottom());
        }
        Rect {
            x: x0,
            y: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        }
    }
}

impl Shape {
    /// The smallest rectangle holding every cell of the shape. Inlined:
    /// the generator asks it thousands of times a level (room placement,
    /// every vault door's porch), nearly always of a rectangle or a vault.
    #[inline]
    pub fn bounds(&self) -> Rect {
        match *self {
            Shape::Rect(r) => r,
            Shape::Merged(m) => m.bounds(),
            Shape::Vault(v) => v.bounds,
            Shape::Region(r) => r.bounds,
            Shape::Circle { center, radius } => Rect {
                x: center.x - radius,
                y: center.y - radius,
                width: 2 * radius + 1,
                height: 2 * radius + 1,
            },
        }
    }

    /// Whether the cell belongs to the shape, by the disc rule above for circles.
    pub fn contains(&self, p: Pos) -> bool {
        match *self {
            Shape::Rect(r) => r.contains(p),
            Shape::Circle { center, radius } => {
                let dx = i32::from(p.x) - i32::from(center.x);
                let dy = i32::from(p.y) - i32::from(center.y);
                let r = i32::from(radius);
                dx * dx + dy * dy <= r * r + r
            }
            Shape::Merged(m) => m.parts().iter().any(|part| part.shape().contains(p)),
            Shape::Vault(v) => v.bounds.contains(p),
            Shape::Region(r) => r.bounds.contains(p),
        }
    }

    /// A cell inside the shape: the middle of the bounding box, for a
    /// merged room the middle of its first part, for a region its anchor.
    /// (For a vault it may be rock: [`crate::Level::room_cell`] gives a
    /// floor cell of any room.)
    pub fn center(&self) -> Pos {
        match self {
            Shape::Merged(m) => return m.parts[0].shape().center(),
            Shape::Region(r) => return r.anchor,
            _ => {}
        }
        let b = self.bounds();
        Pos::new(b.x + (b.width - 1) / 2, b.y + (b.height - 1) / 2)
    }

    /// Every cell of the shape, row by row (a vault's or a region's whole
    /// box).
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        let b = self.bounds();
        // Rectangles, vaults and discs are one run of cells a row, so only
        // a merged room's cells are tested one by one.
        let merged = matches!(self, Shape::Merged(_));
        (b.y..=b.bottom())
            .flat_map(move |y| {
                let (x0, x1) = self.row_span(y, b);
                (x0..=x1).map(move |x| Pos::new(x, y))
            })
            .filter(move |&p| !merged || self.contains(p))
    }

    /// Each row of a plain shape (a rectangle, a disc, a vault's box) as
    /// its first and last cell: (row, first column, last column). A merged
    /// room's rows are those of its bounds; take its [`Shape::plain_parts`].
    pub(crate) fn runs(&self) -> impl Iterator<Item = (u16, u16, u16)> + '_ {
        let b = self.bounds();
        (b.y..=b.bottom()).map(move |y| {
            let (x0, x1) = self.row_span(y, b);
            (y, x0, x1)
        })
    }

    /// The first and last cell of row `y` (inside `b`, the bounds) that the
    /// shape may hold: exact for all but merged rooms, which get the whole
    /// row of their bounds.
    #[inline]
    fn row_span(&self, y: u16, b: Rect) -> (u16, u16) {
        match *self {
            Shape::Circle { center, radius } => {
                // dx² + dy² <= r² + r, the disc `contains` describes.
                let r = u32::from(radius);
                let dy = u32::from(y.abs_diff(center.y));
                let dx = (r * r + r - dy * dy).isqrt() as u16;
                (center.x - dx, center.x + dx)
            }
            _ => (b.x, b.right()),
        }
    }

    /// The plain shapes (rectangles and discs) this shape is made of: itself,
    /// or a merged room's parts. Together their cells are the shape's cells
    /// (parts may overlap), and walking them costs about the room's area,
    /// where [`Shape::cells`] walks a merged room's whole bounding box.
    pub fn plain_parts(&self) -> impl Iterator<Item = Shape> + '_ {
        let (single, merged) = match self {
            Shape::Merged(m) => (None, m.parts()),
            plain => (Some(*plain), &[][..]),
        };
        single.into_iter().chain(merged.iter().map(|p| p.shape()))
    }

    /// Cells in the shape; counted for circles and merged rooms, so not free for those.
    pub fn area(&self) -> usize {
        match *self {
            Shape::Rect(r)
            | Shape::Vault(VaultBox { bounds: r, .. })
            | Shape::Region(RegionBox { bounds: r, .. }) => {
                usize::from(r.width) * usize::from(r.height)
            }
            Shape::Circle { .. } | Shape::Merged(_) => self.cells().count(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A shape's cells, read a run a row, are exactly the cells of its
        /// bounds it contains, in the same order.
        #[test]
        fn cells_are_the_contained_cells_of_the_bounds(
            x in 0u16..300, y in 0u16..300, w in 1u16..40, h in 1u16..40, radius in 0u16..60,
        ) {
            let shapes = [
                Shape::Rect(Rect { x, y, width: w, height: h }),
                Shape::Circle { center: Pos::new(x + radius, y + radius), radius },
            ];
            for shape in shapes {
                let b = shape.bounds();
                let reference: Vec<Pos> = (b.y..=b.bottom())
                    .flat_map(|y| (b.x..=b.right()).map(move |x| Pos::new(x, y)))
                    .filter(|&p| shape.contains(p))
                    .collect();
                prop_assert_eq!(shape.cells().collect::<Vec<_>>(), reference);
            }
        }
    }

    #[test]
    fn circle_of_radius_one_is_a_full_square() {
        let c = Shape::Circle {
            center: Pos::new(5, 5),
            radius: 1,
        };
        assert_eq!(c.area(), 9);
        assert_eq!(c.bounds().width, 3);
    }

    #[test]
    fn circle_is_round() {
        let c = Shape::Circle {
            center: Pos::new(10, 10),
            radius: 4,
        };
        // The extreme points of each axis are inside, the bounding-box corners are not.
        assert!(c.contains(Pos::new(14, 10)));
        assert!(c.contains(Pos::new(10, 6)));
        assert!(!c.contains(Pos::new(14, 14)));
        assert!(!c.contains(Pos::new(6, 6)));
        assert!(c.contains(c.center()));
    }

    #[test]
    fn rect_within_gap() {
        let a = Rect {
            x: 2,
            y: 2,
            width: 3,
            height: 3,
        };
        let touching_diag = Rect {
            x: 5,
            y: 5,
            width: 2,
            height: 2,
        };
        let apart = Rect {
            x: 6,
            y: 2,
            width: 2,
            height: 2,
        };
        assert!(a.within(&touching_diag, 1));
        assert!(!a.within(&apart, 1));
        assert!(a.within(&apart, 2));
    }
}
