//! Field of view by symmetric shadowcasting (Albert Ford's formulation):
//! a cell is visible from another exactly when the other is visible from
//! it, so "the player sees the monster" and "the monster sees the player"
//! are one question. Slopes are exact fractions of integers, so the result
//! is the same on every machine.

use crate::geom::Pos;
use crate::level::Level;
use crate::sim::world::doors::Doors;

/// A slope `num / den` with `den > 0`.
#[derive(Clone, Copy)]
struct Slope {
    num: i32,
    den: i32,
}

impl Slope {
    /// The slope through the left edge of cell `col` at `depth`.
    fn left_edge(col: i32, depth: i32) -> Slope {
        Slope {
            num: 2 * col - 1,
            den: 2 * depth,
        }
    }
}

/// Calls `reveal` for every cell within `radius` (a "radius + ½" disc)
/// visible from `origin`, the origin included. Rock blocks sight; cells
/// outside the level are treated as rock. Doors are doorways, as under
/// rules 1 and 2 (see [`visible_cells_with`]).
pub fn visible_cells(level: &Level, origin: Pos, radius: u16, reveal: impl FnMut(Pos)) {
    visible_cells_with(level, Doors::Doorways, origin, radius, reveal);
}

/// [`visible_cells`] under a run's door rules: from rules 3 closed and
/// secret doors block sight as rock does. Sight stays symmetric, as a
/// cell either blocks or not whichever side it is seen from.
pub fn visible_cells_with(
    level: &Level,
    doors: Doors,
    origin: Pos,
    radius: u16,
    mut reveal: impl FnMut(Pos),
) {
    reveal(origin);
    for quadrant in 0..4 {
        let q = Quadrant {
            level,
            doors,
            origin,
            quadrant,
            radius: i32::from(radius),
        };
        q.scan(
            1,
            Slope { num: -1, den: 1 },
            Slope { num: 1, den: 1 },
            &mut reveal,
        );
    }
}

/// What stays fixed while one quadrant is scanned.
struct Quadrant<'a> {
    level: &'a Level,
    doors: Doors,
    origin: Pos,
    quadrant: u8,
    radius: i32,
}

impl Quadrant<'_> {
    /// The cell at (depth, column) of this quadrant, `None` outside the level.
    fn cell(&self, depth: i32, col: i32) -> Option<Pos> {
        let (ox, oy) = (i32::from(self.origin.x), i32::from(self.origin.y));
        let (x, y) = match self.quadrant {
            0 => (ox + col, oy - depth),
            1 => (ox + depth, oy + col),
            2 => (ox + col, oy + depth),
            _ => (ox - depth, oy + col),
        };
        self.level
            .in_bounds(x, y)
            .then(|| Pos::new(x as u16, y as u16))
    }

    /// Scans the row at `depth` between two slopes, recursing into the
    /// next row for each run of open cells.
    fn scan(&self, depth: i32, mut start: Slope, end: Slope, reveal: &mut impl FnMut(Pos)) {
        if depth > self.radius {
            return;
        }
        let r = self.radius;
        // Columns from round-half-up(depth * start) to round-half-down(depth * end).
        let min_col = (2 * depth * start.num + start.den).div_euclid(2 * start.den);
        let max_col = -((-(2 * depth * end.num - end.den)).div_euclid(2 * end.den));
        let blocked =
            |c: Option<Pos>| c.is_none_or(|p| self.doors.blocks_sight(self.level.tile(p)));
        let mut prev: Option<bool> = None; // was the previous cell rock?
        for col in min_col..=max_col {
            let here = self.cell(depth, col);
            let wall = blocked(here);
            let in_disc = col * col + depth * depth <= r * r + r;
            // Symmetric: a floor cell counts only if its centre lies inside
            // the sector; walls are shown whenever the sector touches them.
            let symmetric =
                col * start.den >= depth * start.num && col * end.den <= depth * end.num;
            if let Some(p) = here
                && in_disc
                && (wall || symmetric)
            {
                reveal(p);
            }
            if prev == Some(true) && !wall {
                start = Slope::left_edge(col, depth);
            }
            if prev == Some(false) && wall {
                self.scan(depth + 1, start, Slope::left_edge(col, depth), reveal);
            }
            prev = Some(wall);
        }
        if prev == Some(false) {
            self.scan(depth + 1, start, end, reveal);
        }
    }
}

/// Whether `from` sees `to` within `radius`, for tests.
#[cfg(test)]
pub(crate) fn sees(level: &Level, from: Pos, to: Pos, radius: u16) -> bool {
    sees_with(level, Doors::Doorways, from, to, radius)
}

/// [`sees`] under door rules, for tests.
#[cfg(test)]
pub(crate) fn sees_with(level: &Level, doors: Doors, from: Pos, to: Pos, radius: u16) -> bool {
    let mut found = false;
    visible_cells_with(level, doors, from, radius, |p| found |= p == to);
    found
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::config::Config;
    use crate::generate::generate_level;
    use crate::level::Tile;

    #[test]
    fn an_open_room_is_all_visible_and_rock_hides() {
        let level = Level::from_rows(
            1,
            &[
                "           ",
                " ...   ... ",
                " ...   ... ",
                " ...   ... ",
                "           ",
            ],
            vec![],
        );
        assert!(sees(&level, Pos::new(1, 1), Pos::new(3, 3), 8));
        assert!(
            sees(&level, Pos::new(1, 2), Pos::new(4, 2), 8),
            "the wall itself is seen"
        );
        assert!(!sees(&level, Pos::new(1, 2), Pos::new(8, 2), 8));
        assert!(
            !sees(&level, Pos::new(1, 1), Pos::new(3, 3), 1),
            "beyond the radius"
        );
    }

    #[test]
    fn a_closed_door_blocks_sight_and_an_open_one_does_not() {
        let rows = |door: char| {
            Level::from_rows(
                1,
                &[
                    "            ",
                    &format!(" ...{door}#####. "),
                    "            ",
                ],
                vec![],
            )
        };
        let (here, far) = (Pos::new(2, 1), Pos::new(8, 1));
        for (door, doors, seen) in [
            ('+', Doors::Doorways, true),
            ('+', Doors::Doors, false),
            ('\'', Doors::Doors, true),
            ('S', Doors::Doors, false),
        ] {
            let level = rows(door);
            assert_eq!(
                sees_with(&level, doors, here, far, 10),
                seen,
                "{door} {doors:?}"
            );
            assert_eq!(
                sees_with(&level, doors, far, here, 10),
                seen,
                "{door} {doors:?}"
            );
            // The door itself is seen either way, as a wall is.
            assert!(sees_with(&level, doors, here, Pos::new(4, 1), 10));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Symmetric under the door rules of rules 3 too, whatever state
        /// each door is in: closed, open or secret.
        #[test]
        fn sight_through_doors_is_symmetric(seed in any::<u64>(), states in proptest::collection::vec(0u8..3, 64), picks in proptest::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 20)) {
            let config = Config::from_ron("(width: 80, height: 21, levels: 1)", "t").unwrap();
            let mut level = generate_level(&config, seed, 1).unwrap();
            let doors: Vec<Pos> = (0..level.tiles().len()).filter(|&i| level.tiles()[i].is_door()).map(|i| level.pos(i)).collect();
            for (k, &p) in doors.iter().enumerate() {
                let tile = [Tile::Door, Tile::OpenDoor, Tile::SecretDoor][usize::from(states[k % states.len()])];
                prop_assert!(level.set_door(p, tile));
            }
            // Between cells sight passes (as between the walkable cells of
            // rules 1 and 2): a wall, a closed door among them, is shown
            // whenever sight touches it, from one side.
            let clear: Vec<Pos> = (0..level.tiles().len()).filter(|&i| !Doors::Doors.blocks_sight(level.tiles()[i])).map(|i| level.pos(i)).collect();
            for (a, b) in picks {
                let (a, b) = (clear[a.index(clear.len())], clear[b.index(clear.len())]);
                prop_assert_eq!(sees_with(&level, Doors::Doors, a, b, 10), sees_with(&level, Doors::Doors, b, a, 10), "{:?} {:?}", a, b);
            }
        }

        /// Symmetric: a sees b exactly when b sees a.
        #[test]
        fn sight_is_symmetric(seed in any::<u64>(), picks in proptest::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 20)) {
            let config = Config::from_ron("(width: 80, height: 21, levels: 1)", "t").unwrap();
            let level = generate_level(&config, seed, 1).unwrap();
            let open: Vec<Pos> = (0..level.tiles().len()).filter(|&i| level.tiles()[i].is_walkable()).map(|i| level.pos(i)).collect();
            for (a, b) in picks {
                let (a, b) = (open[a.index(open.len())], open[b.index(open.len())]);
                prop_assert_eq!(sees(&level, a, b, 10), sees(&level, b, a, 10), "{:?} {:?}", a, b);
            }
        }
    }
}
