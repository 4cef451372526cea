//! Travel: the player's way to a staircase over the cells they know, for
//! the viewer's travel command. Among the agents, beside `explore_step`,
//! which it falls back on: both are rules of play, not of the screen.

use crate::geom::Pos;
use crate::grid_search::{Bfs, BucketQueue, Moves, Visit, neighbours};
use crate::level::{StairDirection, Tile};

use crate::sim::agent::autopilot::{explore_step, search_way_out};
use crate::sim::state::{LevelState, Run};
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::WalkerSteps;
use crate::sim::world::distance::{DIRECTIONS, can_step};
use crate::sim::world::doors::{Doors, Walker, Way};

/// The next step of travel toward the nearest known staircase going
/// `direction`, walking only cells the player has seen; exploring when
/// none is known or none can be reached through known cells. `None`
/// when on such stairs already or when nothing is left to try. Under
/// rules 3 the walk goes through closed doors, each costing a turn more
/// (the step into it opens it), and never through a secret one.
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
    if !targets.is_empty() && run.doors() == Doors::Doors {
        if let Some(step) = door_travel_step(state, run.player_walker(), here, targets) {
            return Some(step);
        }
    } else if !targets.is_empty() {
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
    explore_step(run)
        .filter(|&a| a != Action::Wait)
        .or_else(|| search_way_out(run))
}

/// Travel's step under rules 3: Dial's search from the stairs over the
/// cells the player has seen, each step costing what walking into its
/// cell costs the player (2 for a closed door: open, then step), until it
/// settles the player's cell; then the first neighbour (in [`DIRECTIONS`]
/// order) that is that much closer. `None` when no known way leads there.
fn door_travel_step(
    state: &LevelState,
    walker: Walker,
    here: Pos,
    targets: Vec<usize>,
) -> Option<Action> {
    let level = &state.level;
    let (w, cells) = (usize::from(level.width()), level.tiles().len());
    let start = level.index(here);
    let cost = |c: usize| match walker.way(level.tiles()[c]) {
        Way::Door => 2,
        _ => 1,
    };
    let mut dist = vec![u32::MAX; cells];
    let mut queue = BucketQueue::default();
    queue.reset(4, 0);
    for t in targets {
        dist[t] = 0;
        queue.push(0, t as u32);
    }
    while let Some((d, c)) = queue.pop() {
        let c = c as usize;
        if d != dist[c] {
            continue; // settled earlier at a lower cost
        }
        if c == start {
            break;
        }
        // A walker on a neighbour gets here by walking into `c`.
        let near = level.pos(c);
        let nd = d + cost(c);
        for far in neighbours(c, w, Moves::King) {
            let from = level.pos(far);
            if nd < dist[far]
                && state.has_seen(from)
                && (far == start || walker.way(level.tiles()[far]) != Way::Wall)
                && walker.goes(level, from, near)
            {
                dist[far] = nd;
                queue.push(nd, far as u32);
            }
        }
    }
    let d = dist[start];
    if d == u32::MAX {
        return None;
    }
    DIRECTIONS.iter().find_map(|&(dx, dy)| {
        let n = Pos::new(
            (i32::from(here.x) + dx) as u16,
            (i32::from(here.y) + dy) as u16,
        );
        let c = level.index(n);
        (dist[c] != u32::MAX && dist[c] + cost(c) == d && walker.goes(level, here, n)).then_some(
            Action::Move {
                dx: dx as i8,
                dy: dy as i8,
            },
        )
    })
}
