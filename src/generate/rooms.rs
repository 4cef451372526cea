//! Room placement by random attempts (002, 003).
//!
//! Each room gets a random shape and size, then up to `attempts_per_room`
//! random positions (003's "shreds that room and tries again somewhere
//! else, up to 100 times"). Placement stops when the maximum count is reached
//! or `give_up_streak` attempts in a row have failed (002's termination rule),
//! or, once the minimum count is met, room floor covers `max_floor_share` of
//! the level (002 names an open-share rule as another termination criterion).
//! A placement is legal when no cell of the room comes within one cell of
//! another room, diagonals included, and the room stays off the border.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::{Merged, Pos, Rect, Shape};

use super::budget::Budget;

/// Marks on cells around a vault's box while rooms are placed: no room comes
/// within a cell of them, so a room's ring never covers the cell outside a
/// vault's door, where corridors reach it.
const MARGIN: u16 = u16::MAX;

/// Places rooms after the level's `vaults` (rooms 1 to k, their boxes
/// already marked in `room_id`) and marks their cells in `room_id` (0 = no
/// room, otherwise room index + 1). Leaves every shape in `shapes`
/// (cleared first; kept by the caller from level to level), vaults first,
/// in placement order. Each try spends from `budget` for the rooms and
/// cells it looks at; placement stops when it is overspent (the caller
/// asks the budget).
pub(crate) fn place(
    cfg: &Config,
    rng: &mut Pcg64,
    room_id: &mut [u16],
    vaults: &[Shape],
    budget: &Budget,
    shapes: &mut Vec<Shape>,
    scratch: &mut Scratch,
) {
    let (w, h) = (usize::from(cfg.width), usize::from(cfg.height));
    mark_margins(room_id, vaults, w, MARGIN);
    if cfg.rooms_may_overlap {
        place_overlapping(cfg, rng, room_id, vaults, budget, shapes, scratch);
    } else {
        place_apart(cfg, rng, room_id, vaults, budget, shapes, &mut scratch.near);
    }
    mark_margins(room_id, vaults, w, 0);
    debug_assert!(room_id.len() == w * h);
}

/// Placement's buffers, kept from level to level: the index of placed
/// rooms of levels of many, and, with `rooms_may_overlap`, the slots, the
/// rooms a placement touches, and the new ids.
#[derive(Default)]
pub(crate) struct Scratch {
    near: Option<NearIndex>,
    slots: Vec<Option<Shape>>,
    touched: Vec<(u16, bool)>,
    new_id: Vec<u16>,
}

/// Sets the ring of cells around each vault's box to `mark`.
fn mark_margins(room_id: &mut [u16], vaults: &[Shape], w: usize, mark: u16) {
    for v in vaults {
        let b = v.bounds();
        let (x0, x1) = (usize::from(b.x) - 1, usize::from(b.right()) + 1);
        let (y0, y1) = (usize::from(b.y) - 1, usize::from(b.bottom()) + 1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let c = &mut room_id[y * w + x];
                if (y == y0 || y == y1 || x == x0 || x == x1) && (*c == 0 || *c == MARGIN) {
                    *c = mark;
                }
            }
        }
    }
}

fn place_apart(
    cfg: &Config,
    rng: &mut Pcg64,
    room_id: &mut [u16],
    vaults: &[Shape],
    budget: &Budget,
    shapes: &mut Vec<Shape>,
    near: &mut Option<NearIndex>,
) {
    let (w, h) = (usize::from(cfg.width), usize::from(cfg.height));
    let rc = &cfg.rooms;
    let target = usize::from(rc.count.max);
    shapes.clear();
    shapes.reserve(target);
    shapes.extend_from_slice(vaults);
    // Past a few hundred rooms, "is any room near" asks an index of the
    // rooms near the candidate instead of every room placed.
    let mut index = (target > INDEXED_ABOVE).then(|| {
        let index = near.get_or_insert_with(NearIndex::default);
        index.reset(w, h);
        index
    });
    if let Some(index) = &mut index {
        for v in vaults {
            index.insert(v);
        }
    }
    let mut streak = 0u32;
    // Past the minimum count, stop once rooms cover this much of the level:
    // packed rooms seal each other off, and a level needs rock for corridors.
    let floor_cap = (rc.max_floor_share * ((w - 2) * (h - 2)) as f64) as usize;
    let mut floor: usize = vaults.iter().map(Shape::area).sum();
    'rooms: while shapes.len() < target
        && (shapes.len() < usize::from(rc.count.min) || floor < floor_cap)
    {
        let size = random_size(cfg, rng);
        for _ in 0..rc.attempts_per_room {
            let shape = random_position(cfg, size, rng);
            // A unit is about one cell or room looked at closely; the boxes
            // of placed rooms are only glanced at, eight to a unit.
            if !budget.spend(1 + shapes.len() / 8) {
                break 'rooms;
            }
            if fits(&shape, shapes, index.as_deref(), room_id, w, h, budget) {
                if let Some(index) = &mut index {
                    index.insert(&shape);
                }
                let id = shapes.len() as u16 + 1;
                mark(&shape, room_id, w, id);
                floor += shape.area();
                shapes.push(shape);
                streak = 0;
                continue 'rooms;
            }
            streak += 1;
            if streak >= rc.give_up_streak {
                break 'rooms;
            }
        }
    }
}

/// Placement with `rooms_may_overlap` (000): a placement that overlaps a
/// room or stands beside it (sharing an edge) merges with it into one room;
/// one that would touch a room only at a corner is refused, since a room
/// must be one piece by orthogonal steps and distinct rooms keep the gap.
/// The same draws as [`place`]: the same sizes and positions are tried.
fn place_overlapping(
    cfg: &Config,
    rng: &mut Pcg64,
    room_id: &mut [u16],
    vaults: &[Shape],
    budget: &Budget,
    shapes: &mut Vec<Shape>,
    scratch: &mut Scratch,
) {
    let (w, h) = (usize::from(cfg.width), usize::from(cfg.height));
    let rc = &cfg.rooms;
    let target = usize::from(rc.count.max);
    let Scratch {
        slots,
        touched,
        new_id,
        ..
    } = scratch;
    // Slots in placement order; a slot merged into another is emptied, and
    // the survivors are renumbered at the end. Vaults never merge.
    slots.clear();
    slots.reserve(target);
    slots.extend(vaults.iter().copied().map(Some));
    let mut live = vaults.len();
    let mut streak = 0u32;
    let floor_cap = (rc.max_floor_share * ((w - 2) * (h - 2)) as f64) as usize;
    let mut floor: usize = vaults.iter().map(Shape::area).sum();
    'rooms: while live < target && (live < usize::from(rc.count.min) || floor < floor_cap) {
        let size = random_size(cfg, rng);
        for _ in 0..rc.attempts_per_room {
            let shape = random_position(cfg, size, rng);
            // A merged room's box is worked out from its parts: a unit each.
            if !budget.spend(1 + slots.len()) {
                break 'rooms;
            }
            if let Some(merged) = merge_with(&shape, slots, room_id, w, touched, budget) {
                // The lowest slot keeps the room; the others are emptied.
                let id = touched.first().map_or(slots.len() as u16 + 1, |t| t.0);
                let into = usize::from(id) - 1;
                for &(other, _) in touched.iter().skip(1) {
                    let old = slots[usize::from(other) - 1].take().expect("live room");
                    for p in old.cells() {
                        room_id[usize::from(p.y) * w + usize::from(p.x)] = id;
                    }
                    live -= 1;
                }
                for p in shape.cells() {
                    let c = &mut room_id[usize::from(p.y) * w + usize::from(p.x)];
                    if *c == 0 {
                        floor += 1;
                    }
                    *c = id;
                }
                if into == slots.len() {
                    slots.push(Some(merged));
                    live += 1;
                } else {
                    slots[into] = Some(merged);
                }
                streak = 0;
                continue 'rooms;
            }
            streak += 1;
            if streak >= rc.give_up_streak {
                break 'rooms;
            }
        }
    }
    // Renumber: survivors keep their order.
    new_id.clear();
    new_id.resize(slots.len() + 1, 0);
    shapes.clear();
    shapes.reserve(live);
    for (i, slot) in slots.drain(..).enumerate() {
        if let Some(shape) = slot {
            shapes.push(shape);
            new_id[i + 1] = shapes.len() as u16;
        }
    }
    if shapes.len() + 1 != new_id.len() {
        for id in room_id.iter_mut().filter(|id| **id != MARGIN) {
            *id = new_id[usize::from(*id)];
        }
    }
}

/// What a placement becomes among the rooms placed so far: itself, a
/// merged room (`touched` lists the rooms it absorbs, lowest first), or
/// `None` when it may not stand there.
fn merge_with(
    shape: &Shape,
    slots: &[Option<Shape>],
    room_id: &[u16],
    w: usize,
    touched: &mut Vec<(u16, bool)>,
    budget: &Budget,
) -> Option<Shape> {
    touched.clear();
    let b = shape.bounds();
    if !slots
        .iter()
        .flatten()
        .any(|p| p.bounds().within(&b, reach(p)))
    {
        return Some(*shape);
    }
    // A close look at each cell of the box and its neighbours.
    budget.spend(usize::from(b.width) * usize::from(b.height));
    // For each room within one cell: whether it overlaps or shares an edge
    // (a merge) or only meets a corner (refused).
    for p in shape.cells() {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        for (dx, dy) in [
            (0i32, 0i32),
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
            (1, 1),
        ] {
            let c = (y as i32 + dy) as usize * w + (x as i32 + dx) as usize;
            let id = room_id[c];
            if id == 0 {
                continue;
            }
            let edge = dx == 0 || dy == 0;
            match touched.iter_mut().find(|t| t.0 == id) {
                Some(t) => t.1 |= edge,
                None => touched.push((id, edge)),
            }
        }
    }
    if touched.is_empty() {
        return Some(*shape);
    }
    // A corner only, a vault or the margin round a vault: refused.
    let vault =
        |id: u16| id == MARGIN || matches!(slots[usize::from(id) - 1], Some(Shape::Vault(_)));
    if touched.iter().any(|t| !t.1 || vault(t.0)) {
        return None;
    }
    touched.sort_unstable();
    let parts = touched
        .iter()
        .map(|t| slots[usize::from(t.0) - 1].expect("live room"))
        .chain([*shape]);
    Merged::of_shapes(parts).map(Shape::Merged)
}

/// A room's size, drawn once per room; only its position is retried.
#[derive(Clone, Copy)]
enum Size {
    Rect { width: u16, height: u16 },
    Circle { radius: u16 },
}

fn random_size(cfg: &Config, rng: &mut Pcg64) -> Size {
    let rc = &cfg.rooms;
    if rc.circle_share > 0.0 && rng.random_bool(rc.circle_share) {
        Size::Circle {
            radius: rng.random_range(rc.circle_radius.min..=rc.circle_radius.max),
        }
    } else {
        Size::Rect {
            width: rng.random_range(rc.width.min..=rc.width.max),
            height: rng.random_range(rc.height.min..=rc.height.max),
        }
    }
}

fn random_position(cfg: &Config, size: Size, rng: &mut Pcg64) -> Shape {
    // Cells 1..=side-2 are inside the border.
    let (w, h) = (cfg.width, cfg.height);
    match size {
        Size::Rect { width, height } => Shape::Rect(Rect {
            x: rng.random_range(1..=w - 1 - width),
            y: rng.random_range(1..=h - 1 - height),
            width,
            height,
        }),
        Size::Circle { radius } => Shape::Circle {
            center: Pos::new(
                rng.random_range(1 + radius..=w - 2 - radius),
                rng.random_range(1 + radius..=h - 2 - radius),
            ),
            radius,
        },
    }
}

/// Whether `shape` keeps a one-cell gap (Chebyshev) to every placed room.
fn fits(
    shape: &Shape,
    placed: &[Shape],
    index: Option<&NearIndex>,
    room_id: &[u16],
    w: usize,
    h: usize,
    budget: &Budget,
) -> bool {
    let b = shape.bounds();
    // Cheap rejection first: most candidates are far from every room.
    let near_any = match index {
        Some(index) => index.any_near(&b),
        None => placed.iter().any(|p| p.bounds().within(&b, reach(p))),
    };
    if !near_any {
        return true;
    }
    let x0 = usize::from(b.x).saturating_sub(1);
    let y0 = usize::from(b.y).saturating_sub(1);
    let x1 = (usize::from(b.right()) + 1).min(w - 1);
    let y1 = (usize::from(b.bottom()) + 1).min(h - 1);
    // The rows looked at are spent, a glance at a cell being an eighth of
    // a unit (the scan stops at the first clash).
    let row = (x1 - x0 + 1) / 8 + 1;
    for y in y0..=y1 {
        budget.spend(row);
        for x in x0..=x1 {
            if room_id[y * w + x] != 0 && near(shape, x, y) {
                return false;
            }
        }
    }
    true
}

/// Room counts above which placement keeps a [`NearIndex`].
const INDEXED_ABOVE: usize = 128;

/// Placed rooms' boxes filed by the coarse squares of the level (32 cells
/// a side) that their reach covers, so whether any room comes near a box
/// is asked of the few rooms filed where the box is: the same answer as
/// asking every room, in time that does not grow with the room count.
#[derive(Default)]
struct NearIndex {
    columns: usize,
    rows: usize,
    /// Per square: the boxes (and reaches) filed there.
    squares: Vec<Vec<(Rect, u16)>>,
}

impl NearIndex {
    const SHIFT: u32 = 5;

    /// Empties the index for a `w` x `h` level, keeping its squares' lists.
    fn reset(&mut self, w: usize, h: usize) {
        self.columns = (w >> Self::SHIFT) + 1;
        self.rows = (h >> Self::SHIFT) + 1;
        for square in &mut self.squares {
            square.clear();
        }
        // Room for the boxes a square usually meets (a box is filed in
        // every square its reach covers), so most squares never grow.
        self.squares
            .resize_with(self.columns * self.rows, || Vec::with_capacity(16));
    }

    /// The squares a box dilated by `gap` covers, as column and row ranges.
    fn span(
        &self,
        b: &Rect,
        gap: u16,
    ) -> (
        std::ops::RangeInclusive<usize>,
        std::ops::RangeInclusive<usize>,
    ) {
        let lo = |v: u16| usize::from(v.saturating_sub(gap)) >> Self::SHIFT;
        let hi =
            |v: u16, last: usize| ((usize::from(v) + usize::from(gap)) >> Self::SHIFT).min(last);
        (
            lo(b.x)..=hi(b.right(), self.columns - 1),
            lo(b.y)..=hi(b.bottom(), self.rows - 1),
        )
    }

    fn insert(&mut self, placed: &Shape) {
        let (b, gap) = (placed.bounds(), reach(placed));
        let (xs, ys) = self.span(&b, gap);
        for y in ys {
            for x in xs.clone() {
                self.squares[y * self.columns + x].push((b, gap));
            }
        }
    }

    /// Whether a filed box comes within its reach of `b`. A box that does
    /// overlaps `b` once dilated, so it is filed in a square `b` covers.
    fn any_near(&self, b: &Rect) -> bool {
        let (xs, ys) = self.span(b, 0);
        ys.into_iter().any(|y| {
            xs.clone().any(|x| {
                self.squares[y * self.columns + x]
                    .iter()
                    .any(|(p, gap)| p.within(b, *gap))
            })
        })
    }
}

/// How far from its box a placed shape's marks reach: a vault's margin
/// lies a cell outside it.
fn reach(placed: &Shape) -> u16 {
    if matches!(placed, Shape::Vault(_)) {
        2
    } else {
        1
    }
}

/// Whether cell (x, y) is within one cell (Chebyshev) of the shape.
fn near(shape: &Shape, x: usize, y: usize) -> bool {
    match shape {
        // The dilated bounding box is exactly the rectangle's neighbourhood.
        Shape::Rect(_) | Shape::Vault(_) => true,
        Shape::Circle { .. } | Shape::Merged(_) | Shape::Region(_) => (-1i32..=1).any(|dy| {
            (-1i32..=1).any(|dx| {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                nx >= 0 && ny >= 0 && shape.contains(Pos::new(nx as u16, ny as u16))
            })
        }),
    }
}
/// Marks `shape`'s cells with `id` in `room_id` (`w` wide), a row's run
/// at a time: each plain part's runs (a merged room's parts may overlap,
/// and together are its cells).
fn mark(shape: &Shape, room_id: &mut [u16], w: usize, id: u16) {
    for part in shape.plain_parts() {
        for (y, x0, x1) in part.runs() {
            let row = usize::from(y) * w;
            room_id[row + usize::from(x0)..=row + usize::from(x1)].fill(id);
        }
    }
}
