//! Hunting a monster in sight: the first step of the shortest walk to it
//! over cells from which it stays in sight. Both autopilots (Stomp's and
//! Combat's) hunt with this.
//!
//! Why not the shortest walk over the whole level: the autopilot keeps no
//! memory from turn to turn (its choice is a function of the run's saved
//! state, so a continued run plays on exactly as one never stopped). In a
//! maze the shortest walk to a monster seen through a gap often turns away
//! from it first; one step later it is out of sight, nothing calls for the
//! hunt, exploring walks back to where it is seen, and the autopilot paces
//! between the two cells until the run's turns run out (shipped config,
//! seeds 5060, 5099 and 5165: a monster stuck at a corridor's corner, which
//! never squeezes diagonally toward the player). Walking only over cells
//! that see the quarry, every hunting step keeps it in sight and shortens
//! the hunt, so a hunt once started goes on until the monster is reached or
//! moves; a monster that cannot be reached so is left to exploring.
//!
//! Sight is symmetric (see [`fov`](crate::sim::world::fov)): the cells that see a monster
//! are the cells the monster sees, one field of view from it, so the work
//! is bounded by the sight disc, (2r+1)^2 cells a monster in sight.

use crate::geom::Pos;
use crate::level::Level;

use crate::sim::agent::explore::step_to;
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::DIRECTIONS;
use crate::sim::world::doors::{Walker, Way};
use crate::sim::world::fov::visible_cells_with;

/// The first step toward the nearest of `targets` (monsters the player at
/// `here` sees within `radius`) by a walk that keeps it in sight at every
/// step, with that target; `None` when no target can be reached so.
/// Nearest by the length of such a walk, ties by cell index. The walk is
/// the player's (`walker`): under rules 3 it keeps to open ground, as a
/// closed door hides what is behind it.
pub(super) fn hunt_step(
    level: &Level,
    walker: Walker,
    here: Pos,
    radius: u8,
    targets: impl IntoIterator<Item = Pos>,
) -> Option<(Action, Pos)> {
    let mut search = InSight::new(radius, walker);
    targets
        .into_iter()
        .filter_map(|target| {
            let (steps, step) = search.walk(level, here, target)?;
            Some(((steps, level.index(target)), step, target))
        })
        .min_by_key(|&(key, _, _)| key)
        .map(|(_, step, target)| (step_to(here, step), target))
}

/// A breadth-first search in the window around one target, over the cells
/// that see it; buffers kept from one target to the next.
struct InSight {
    radius: i32,
    walker: Walker,
    side: usize,
    /// A cell of the window sees the target.
    sees: Vec<bool>,
    /// Steps from a cell of the window to the target; `u32::MAX` unreached.
    dist: Vec<u32>,
    queue: Vec<usize>,
}

impl InSight {
    fn new(radius: u8, walker: Walker) -> InSight {
        let radius = i32::from(radius);
        let side = (2 * radius + 1) as usize;
        InSight {
            radius,
            walker,
            side,
            sees: vec![false; side * side],
            dist: vec![u32::MAX; side * side],
            queue: Vec::with_capacity(side * side),
        }
    }

    /// The window cell of `p`, if `p` lies in the window around `target`.
    fn cell(&self, target: Pos, x: i32, y: i32) -> Option<usize> {
        let (wx, wy) = (
            x - i32::from(target.x) + self.radius,
            y - i32::from(target.y) + self.radius,
        );
        let side = self.side as i32;
        ((0..side).contains(&wx) && (0..side).contains(&wy)).then(|| (wy * side + wx) as usize)
    }

    /// Steps from `here` to `target` over cells that see the target, and
    /// the first cell of that walk (the lowest in [`DIRECTIONS`] order
    /// among the equally good ones); `None` when there is no such walk.
    fn walk(&mut self, level: &Level, here: Pos, target: Pos) -> Option<(u32, Pos)> {
        self.sees.fill(false);
        self.dist.fill(u32::MAX);
        self.queue.clear();
        let radius = u16::try_from(self.radius).unwrap_or(u16::MAX);
        let walker = self.walker;
        visible_cells_with(level, walker.doors, target, radius, |p| {
            if walker.way(level.tile(p)) == Way::Open
                && let Some(c) = self.cell(target, i32::from(p.x), i32::from(p.y))
            {
                self.sees[c] = true;
            }
        });
        let start = self.cell(target, i32::from(here.x), i32::from(here.y))?;
        if !self.sees[start] {
            return None;
        }
        // Outward from the target until the player is reached: `dist` is
        // then the steps a walker needs from each cell to the target.
        let origin = self.cell(target, i32::from(target.x), i32::from(target.y))?;
        self.dist[origin] = 0;
        self.queue.push(origin);
        let mut head = 0;
        while head < self.queue.len() && self.dist[start] == u32::MAX {
            let c = self.queue[head];
            head += 1;
            let at = self.pos(target, c);
            for &(dx, dy) in &DIRECTIONS {
                let (x, y) = (i32::from(at.x) + dx, i32::from(at.y) + dy);
                let Some(n) = self.cell(target, x, y) else {
                    continue;
                };
                // `sees` holds only open cells of the level, so `x`, `y`
                // are in bounds when it is set.
                if !self.sees[n] || self.dist[n] != u32::MAX {
                    continue;
                }
                if walker.steps(level, Pos::new(x as u16, y as u16), at) {
                    self.dist[n] = self.dist[c] + 1;
                    self.queue.push(n);
                }
            }
        }
        let steps = self.dist[start];
        if steps == u32::MAX || steps == 0 {
            return None;
        }
        DIRECTIONS.iter().find_map(|&(dx, dy)| {
            let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
            let n = self.cell(target, x, y)?;
            let to = Pos::new(x as u16, y as u16);
            (self.dist[n] == steps - 1 && self.walker.steps(level, here, to)).then_some((steps, to))
        })
    }

    /// The level cell of window cell `c`.
    fn pos(&self, target: Pos, c: usize) -> Pos {
        let (wx, wy) = ((c % self.side) as i32, (c / self.side) as i32);
        Pos::new(
            (i32::from(target.x) + wx - self.radius) as u16,
            (i32::from(target.y) + wy - self.radius) as u16,
        )
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::config::Config;
    use crate::generate::generate_level;
    use crate::sim::world::distance::can_step;
    use crate::sim::world::fov::{sees, visible_cells};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// A hunt keeps its quarry in sight: following the steps from a
        /// cell that sees a target reaches it in the steps counted, every
        /// cell on the way seeing it; and no step is offered when a walk
        /// over such cells does not exist (the search is exact in both
        /// directions, checked against a search from the player's side).
        #[test]
        fn a_hunt_keeps_its_quarry_in_sight(
            seed in any::<u64>(),
            maze in any::<bool>(),
            picks in proptest::collection::vec(any::<prop::sample::Index>(), 12),
        ) {
            let style = if maze { "corridors: DeadEnd, " } else { "" };
            let ron = format!("(width: 60, height: 30, levels: 1, {style}rooms: (width: (min: 3, max: 8), height: (min: 2, max: 5)))");
            let config = Config::from_ron(&ron, "t").unwrap();
            let level = generate_level(&config, seed, 1).unwrap();
            let open: Vec<Pos> = (0..level.tiles().len())
                .filter(|&i| level.tiles()[i].is_walkable())
                .map(|i| level.pos(i))
                .collect();
            let radius = 8u8;
            for pick in picks {
                let target = open[pick.index(open.len())];
                // Every open cell that sees the target.
                let mut watchers = Vec::new();
                visible_cells(&level, target, u16::from(radius), |p| {
                    if p != target && level.tile(p).is_walkable() {
                        watchers.push(p);
                    }
                });
                for &from in &watchers {
                    let answer = InSight::new(radius, Walker::DOORWAYS).walk(&level, from, target);
                    // Breadth-first from `from` over the watchers.
                    let mut dist = std::collections::BTreeMap::from([(from, 0u32)]);
                    let mut queue = std::collections::VecDeque::from([from]);
                    let mut found = None;
                    while let Some(at) = queue.pop_front() {
                        if at == target {
                            found = Some(dist[&at]);
                            break;
                        }
                        for &(dx, dy) in &DIRECTIONS {
                            let n = Pos::new((i32::from(at.x) + dx) as u16, (i32::from(at.y) + dy) as u16);
                            if (n == target || watchers.contains(&n))
                                && !dist.contains_key(&n)
                                && can_step(&level, at, n, false)
                            {
                                dist.insert(n, dist[&at] + 1);
                                queue.push_back(n);
                            }
                        }
                    }
                    prop_assert_eq!(answer.map(|(s, _)| s), found, "from {:?} to {:?}", from, target);
                    if let Some((steps, _)) = answer {
                        let mut at = from;
                        for left in (0..steps).rev() {
                            let (s, next) = InSight::new(radius, Walker::DOORWAYS).walk(&level, at, target).expect("a walk");
                            prop_assert_eq!(s, left + 1);
                            at = next;
                            prop_assert!(at == target || sees(&level, at, target, u16::from(radius)));
                        }
                        prop_assert_eq!(at, target);
                    }
                }
            }
        }
    }

    #[test]
    fn a_monster_seen_through_a_corner_gap_is_left_for_one_in_reach() {
        // From (5, 4) the player sees `a` at (7, 3), across a diagonal gap
        // no walker squeezes through (its only walk is the loop round the
        // top), and `b` at (6, 6), three steps off.
        let level = Level::from_rows(
            1,
            &[
                "          ",
                " #######  ",
                " #     #  ",
                " #     #  ",
                " ######   ",
                "      #   ",
                "      #   ",
                "          ",
            ],
            vec![],
        );
        let (here, a, b) = (Pos::new(5, 4), Pos::new(7, 3), Pos::new(6, 6));
        assert!(sees(&level, here, a, 8) && sees(&level, here, b, 8));
        assert_eq!(hunt_step(&level, Walker::DOORWAYS, here, 8, [a]), None);
        assert_eq!(
            hunt_step(&level, Walker::DOORWAYS, here, 8, [a, b]),
            Some((Action::Move { dx: 1, dy: 0 }, b))
        );
        // Beside the loop's far end, `a` is hunted down the corridor.
        assert_eq!(
            hunt_step(&level, Walker::DOORWAYS, Pos::new(7, 1), 8, [a]),
            Some((Action::Move { dx: 0, dy: 1 }, a))
        );
        assert_eq!(hunt_step(&level, Walker::DOORWAYS, here, 8, []), None);
    }
}
