//! Travel: the player's way to a staircase over the cells they know, for
//! the viewer's travel command. Among the agents, beside `explore_step`,
//! which it falls back on: both are rules of play, not of the screen.

use crate::grid_search::{Bfs, Moves, Visit, neighbours};
use crate::level::{StairDirection, Tile};

use crate::sim::agent::autopilot::explore_step;
use crate::sim::state::Run;
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::WalkerSteps;
use crate::sim::world::distance::{DIRECTIONS, can_step};

/// The next step of travel toward the nearest known staircase going
/// `direction`, walking only cells the player has seen; exploring when
/// none is known or none can be reached through known cells. `None`
/// when on such stairs already or when nothing is left to try.
pub fn travel_step(run: &mut Run, direction: StairDirection) -> Option<Action> {
    let state = run.current();
    let level = &state.level;
    let here = run.player().pos;
    let stairs_tile = match direction {
        StairDirection::Up => Tile::UpStairs,
        StairDirection::Down => Tile::DownStairs,
    };
    if level.tile(here) == stairs_tile {
        return None;
    }
    let targets: Vec<usize> = level
        .stairs_going(direction)
        .map(|s| s.pos)
        .filter(|&p| state.has_seen(p))
        .map(|p| level.index(p))
        .collect();
    if !targets.is_empty() {
        // Breadth-first from the stairs over known cells, until it reaches
        // the player; the player then steps to any neighbour one step
        // closer.
        let (w, cells) = (usize::from(level.width()), level.tiles().len());
        let start = level.index(here);
        let mut bfs = Bfs::with_cells(cells);
        let mut walker = WalkerSteps::new(level);
        bfs.run(
            cells,
            targets,
            |c| neighbours(c, w, Moves::King),
            |near, far| walker.may_step(far, near) && state.has_seen(level.pos(far)),
            |c, _| {
                if c == start {
                    Visit::Stop
                } else {
                    Visit::Expand
                }
            },
        );
        let d = bfs.dist(start);
        if d != Bfs::UNREACHED {
            for &(dx, dy) in &DIRECTIONS {
                let (x, y) = (i32::from(here.x) + dx, i32::from(here.y) + dy);
                if !level.in_bounds(x, y) {
                    continue;
                }
                let n = crate::geom::Pos::new(x as u16, y as u16);
                if bfs.dist(level.index(n)) == d - 1 && can_step(level, here, n, false) {
                    return Some(Action::Move {
                        dx: dx as i8,
                        dy: dy as i8,
                    });
                }
            }
        }
    }
    explore_step(run).filter(|&a| a != Action::Wait)
}
