//! The autopilot: the player's actions chosen by rule, for `delve simulate`
//! and the viewer's auto-explore. It uses only what the player knows: the
//! cells seen so far and the monsters in sight.
//!
//! In order of priority:
//! 1. Stomp a monster on an adjacent cell.
//! 2. With few lives left, step away from monsters in sight that are close.
//! 3. Walk toward a monster in sight.
//! 4. Walk toward the nearest frontier: a seen open cell next to an unseen
//!    cell.
//! 5. With the level explored, walk to the down staircase and take it.
//! 6. Otherwise wait for monsters to come.
//!
//! Ties are broken by cell index, so the autopilot is deterministic.

use crate::geom::Pos;
use crate::level::Tile;

use super::{Action, DIRECTIONS, DistanceMap, Run, can_step};

/// The autopilot's next action.
pub fn autopilot(run: &mut Run) -> Action {
    let here = run.player().pos;
    let map = run.walking_map().clone();
    let state = run.current();
    let level = &state.level;

    let in_sight: Vec<Pos> = state
        .monsters
        .iter()
        .map(|m| m.pos)
        .filter(|&p| run.sees(p))
        .collect();

    // 1. Stomp.
    for &(dx, dy) in &DIRECTIONS {
        let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
        if !level.in_bounds(x, y) {
            continue;
        }
        let to = Pos::new(x as u16, y as u16);
        if in_sight.contains(&to) && can_step(level, here, to, false) {
            return step_to(here, to);
        }
    }

    // 2. Keep away when lives are low.
    if run.player().lives <= run.config().simulation.cautious_at_lives {
        let close: Vec<Pos> = in_sight
            .iter()
            .copied()
            .filter(|p| p.chebyshev(here) <= 3)
            .collect();
        if !close.is_empty() {
            let safety = |p: Pos| {
                close
                    .iter()
                    .map(|m| m.chebyshev(p))
                    .min()
                    .unwrap_or(u16::MAX)
            };
            let mut best = (safety(here), here);
            for &(dx, dy) in &DIRECTIONS {
                let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
                if !level.in_bounds(x, y) {
                    continue;
                }
                let to = Pos::new(x as u16, y as u16);
                if can_step(level, here, to, false) && safety(to) > best.0 {
                    best = (safety(to), to);
                }
            }
            return if best.1 == here {
                Action::Wait
            } else {
                step_to(here, best.1)
            };
        }
    }

    // 3. Hunt what it sees.
    if let Some(target) = in_sight
        .iter()
        .copied()
        .filter(|&p| map.at(p) != DistanceMap::UNREACHABLE)
        .min_by_key(|&p| (map.at(p), level.index(p)))
    {
        return first_step(&map, level, here, target);
    }

    // 4. Explore.
    let w = usize::from(level.width());
    let mut frontier: Option<(u32, usize)> = None;
    for (i, &tile) in level.tiles().iter().enumerate() {
        if !tile.is_walkable() {
            continue;
        }
        let p = level.pos(i);
        let d = map.at(p);
        if d == DistanceMap::UNREACHABLE || d == 0 || !state.has_seen(p) {
            continue;
        }
        if frontier.is_some_and(|(fd, _)| fd <= d) {
            continue;
        }
        let unseen_next = DIRECTIONS.iter().any(|&(dx, dy)| {
            let n = (i as isize + dy as isize * w as isize + dx as isize) as usize;
            !state.has_seen(level.pos(n))
        });
        if unseen_next {
            frontier = Some((d, i));
        }
    }
    if let Some((_, i)) = frontier {
        return first_step(&map, level, here, level.pos(i));
    }

    // 5. Down.
    if level.tile(here) == Tile::DownStairs {
        return Action::Descend;
    }
    if let Some(stairs) = level
        .stairs_going(crate::level::StairDirection::Down)
        .map(|s| s.pos)
        .filter(|&p| map.at(p) != DistanceMap::UNREACHABLE)
        .min_by_key(|&p| map.at(p))
    {
        return first_step(&map, level, here, stairs);
    }

    // 6. Wait.
    Action::Wait
}

fn step_to(from: Pos, to: Pos) -> Action {
    Action::Move {
        dx: (i32::from(to.x) - i32::from(from.x)) as i8,
        dy: (i32::from(to.y) - i32::from(from.y)) as i8,
    }
}

/// The first step of a shortest walk from `from` to `target`, read off a
/// map of distances to `from`: walk downhill from the target until one step
/// away.
fn first_step(map: &DistanceMap, level: &crate::level::Level, from: Pos, target: Pos) -> Action {
    let mut at = target;
    while map.at(at) > 1 {
        match map.downhill(level, at, false) {
            Some(next) => at = next,
            None => return Action::Wait,
        }
    }
    if at == from {
        Action::Wait
    } else {
        step_to(from, at)
    }
}
