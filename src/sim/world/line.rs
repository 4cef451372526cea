//! Lines of fire (rules 4): the cells a missile or a wand's bolt passes,
//! by the sight rules of the field of view. A bolt goes where the player
//! can see: it stops at the first cell that blocks sight (rock, a closed
//! door), and of the digital lines from the shooter to the target it takes
//! the first that reaches the target clear, so a monster the player sees
//! round a corner's edge can be shot (Brogue's bolts choose among lines
//! the same way). Pure: no state, only the level and the door rules.

use crate::geom::Pos;
use crate::level::Level;
use crate::sim::world::doors::Doors;

/// The cells of one digital line from `from` through `to` and on, `len`
/// cells long (`from` not included), with rounding offset `bias` in
/// `-major..major`; it stops early at the level's edge.
pub fn ray(from: Pos, to: Pos, bias: i32, len: u16, level: &Level) -> Vec<Pos> {
    let (dx, dy) = (
        i32::from(to.x) - i32::from(from.x),
        i32::from(to.y) - i32::from(from.y),
    );
    let major = dx.abs().max(dy.abs());
    let mut cells = Vec::with_capacity(usize::from(len));
    if major == 0 {
        return cells;
    }
    // The minor coordinate rounds (2·i·minor + major + bias) / (2·major):
    // with bias in -major..major, step `major` lands on `to` exactly.
    let along = |i: i32, d: i32| {
        let n = 2 * i * d.abs() + major + bias;
        d.signum() * n.div_euclid(2 * major)
    };
    for i in 1..=i32::from(len) {
        let (x, y) = if dx.abs() >= dy.abs() {
            (
                i32::from(from.x) + dx.signum() * i,
                i32::from(from.y) + along(i, dy),
            )
        } else {
            (
                i32::from(from.x) + along(i, dx),
                i32::from(from.y) + dy.signum() * i,
            )
        };
        if !level.in_bounds(x, y) {
            break;
        }
        cells.push(Pos::new(x as u16, y as u16));
    }
    cells
}

/// The path of a shot from `from` toward `to`, at most `range` cells: the
/// cells it passes, up to and including the first that blocks sight
/// (which it does not enter: it is left out) or the last in range. Of the
/// lines through `to`, the first whose cells up to `to` are all clear.
pub fn line_of_fire(level: &Level, doors: Doors, from: Pos, to: Pos, range: u16) -> Vec<Pos> {
    let major = i32::from(from.x.abs_diff(to.x).max(from.y.abs_diff(to.y)));
    if major == 0 {
        return Vec::new();
    }
    let clear = |p: &Pos| !doors.blocks_sight(level.tile(*p));
    // Biases nearest the middle first: 0, -1, 1, -2, 2, ...
    let biases = (0..2 * major).map(|k| if k % 2 == 0 { -(k / 2) } else { k / 2 + 1 });
    let chosen = biases
        .take(64)
        .map(|bias| (bias, ray(from, to, bias, major as u16, level)))
        .find(|(_, cells)| cells.last() == Some(&to) && cells.iter().all(clear))
        .map_or(0, |(bias, _)| bias);
    let mut cells = ray(from, to, chosen, range, level);
    if let Some(stop) = cells.iter().position(|p| !clear(p)) {
        cells.truncate(stop);
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(rows: &[&str]) -> Level {
        Level::from_rows(1, rows, Vec::new())
    }

    #[test]
    fn a_line_reaches_its_target_and_goes_on_to_its_range() {
        let l = level(&[
            "          ",
            " ........ ",
            " ........ ",
            " ........ ",
            "          ",
        ]);
        let from = Pos::new(1, 1);
        let cells = line_of_fire(&l, Doors::Doors, from, Pos::new(3, 2), 20);
        assert!(cells.contains(&Pos::new(3, 2)), "{cells:?}");
        // It stops before the wall on the right or below.
        assert!(cells.iter().all(|p| l.tile(*p).is_walkable()));
        assert_eq!(cells.len(), 4, "{cells:?}");
        // Steps are king moves.
        let mut at = from;
        for &p in &cells {
            assert!(at.x.abs_diff(p.x) <= 1 && at.y.abs_diff(p.y) <= 1);
            at = p;
        }
        assert!(line_of_fire(&l, Doors::Doors, from, from, 5).is_empty());
        assert_eq!(
            line_of_fire(&l, Doors::Doors, from, Pos::new(8, 1), 3).len(),
            3
        );
    }

    #[test]
    fn a_line_bends_round_a_corner_the_eye_sees_past() {
        // Rock at (2,1) is on the plain line from (1,1) to (4,2); the
        // shot takes the line that drops a row first.
        let l = level(&["      ", " . .. ", " .... ", "      "]);
        let cells = line_of_fire(&l, Doors::Doors, Pos::new(1, 1), Pos::new(4, 2), 3);
        assert_eq!(cells.last(), Some(&Pos::new(4, 2)), "{cells:?}");
        assert!(!cells.contains(&Pos::new(2, 1)));
    }
}
