//! Walking toward things: the nearest frontier of the explored part of a
//! level, the first step of a shortest walk, a target's distance. Both
//! autopilots (Stomp's and Combat's) choose their moves with these.

use crate::config::Goal;
use crate::geom::Pos;
use crate::level::{Level, StairDirection, Tile};

use crate::sim::agent::search::search_spot;
use crate::sim::state::{LevelState, Run};
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::{DIRECTIONS, LazyWalk};
use crate::sim::world::doors::Doors;

/// Why the autopilot chose its action: the viewer's auto-explore keeps
/// going only while the reason is one a player would delegate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Stepping onto a monster next to the player.
    Stomp,
    /// Stepping away from monsters within 3 cells, as lives are low.
    Flee,
    /// Heading for the nearest monster in sight, keeping it in sight.
    Hunt,
    /// Heading for the nearest seen open cell next to an unseen one.
    Explore,
    /// Hunting monsters it senses but does not see (explored level, KillAll).
    Sense,
    /// Heading for, or taking, the stairs.
    Stairs,
    /// Nothing left to do: waiting.
    Idle,
    /// Attacking an adjacent monster (Combat).
    Fight,
    /// Drinking a potion.
    Heal,
    /// Waiting to regain hit points.
    Rest,
    /// Picking up or walking to an item.
    Loot,
    /// Wielding or wearing better gear.
    Equip,
    /// Reading a scroll.
    Read,
    /// Searching for secret doors at a dead end or along the walls of a
    /// room with no known exit, or walking to such a spot (rules 3).
    Search,
}

/// The nearest of `targets` that can be walked to (ties by index).
pub(super) fn nearest(
    map: &mut LazyWalk,
    level: &Level,
    targets: impl IntoIterator<Item = Pos>,
) -> Option<Pos> {
    map.nearest_among(level, targets)
}

/// What both autopilots do once nothing nearer calls: explore the nearest
/// frontier; on an explored level, under KillAll, hunt the monsters it
/// senses; under rules 3 search the dead ends it knows (and the walls of a
/// room with no known exit) for secret doors, a bounded number of turns
/// each, and every wall it reaches when monsters it must kill, or the
/// stairs it must take, are out of reach; then take the stairs toward
/// levels that may still hold monsters, deeper first (or simply down,
/// under ReachBottom); else wait.
pub(super) fn explore_then_stairs(run: &Run, map: &mut LazyWalk) -> (Action, Plan) {
    let here = run.player().pos;
    let state = run.current();
    let level = &state.level;
    if let Some(frontier) = frontier_of(run, map) {
        return (first_step(map, level, here, frontier), Plan::Explore);
    }
    let goal = run.config().simulation.goal;
    if goal == Goal::KillAll
        && let Some(target) = nearest(map, level, state.monsters.iter().map(|m| m.pos))
    {
        return (first_step(map, level, here, target), Plan::Sense);
    }
    if let Some(action) = search_step(run, map, false) {
        return (action, Plan::Search);
    }
    // Under KillAll, monsters left here that no walk reaches are shut in
    // behind secret doors (an animal never opens one): search every wall.
    if goal == Goal::KillAll
        && !state.monsters.is_empty()
        && let Some(action) = search_step(run, map, true)
    {
        return (action, Plan::Search);
    }
    let depth = run.player().depth;
    let levels = run.config().levels;
    let pending = |d: u16| run.level_state(d).is_none_or(|s| !s.monsters.is_empty());
    let deeper = depth < levels && (goal == Goal::ReachBottom || (depth + 1..=levels).any(pending));
    let shallower = goal == Goal::KillAll
        && (1..depth).any(|d| run.level_state(d).is_some_and(|s| !s.monsters.is_empty()));
    let (direction, tile, action) = if deeper {
        (StairDirection::Down, Tile::DownStairs, Action::Descend)
    } else if shallower {
        (StairDirection::Up, Tile::UpStairs, Action::Ascend)
    } else {
        // Nothing left to do.
        return (Action::Wait, Plan::Idle);
    };
    if level.tile(here) == tile {
        return (action, Plan::Stairs);
    }
    match nearest(map, level, level.stairs_going(direction).map(|s| s.pos)) {
        Some(stairs) => (first_step(map, level, here, stairs), Plan::Stairs),
        // The way on is out of reach: only secret doors lead out of where
        // the player is (a teleport brought them), so search every wall.
        None => match search_step(run, map, true) {
            Some(action) => (action, Plan::Search),
            None => (Action::Wait, Plan::Idle),
        },
    }
}

/// The nearest frontier of the player's level, remembering a level found
/// explored so the next turns need not search it again.
pub(super) fn frontier_of(run: &Run, map: &mut LazyWalk) -> Option<Pos> {
    let depth = run.player().depth;
    if run.explored().get() == Some(depth) {
        return None;
    }
    let found = nearest_frontier(run.current(), map);
    if found.is_none() {
        run.explored().set(Some(depth));
    }
    found
}

/// The nearest frontier cell: a seen open cell next to an unseen cell,
/// ties by index.
fn nearest_frontier(state: &LevelState, map: &mut LazyWalk) -> Option<Pos> {
    let level = &state.level;
    let w = usize::from(level.width());
    map.nearest(level, |i| {
        state.has_seen(level.pos(i))
            && DIRECTIONS.iter().any(|&(dx, dy)| {
                let n = (i as isize + dy as isize * w as isize + dx as isize) as usize;
                !state.has_seen(level.pos(n))
            })
    })
    .map(|(_, i)| level.pos(i))
}

pub(super) fn step_to(from: Pos, to: Pos) -> Action {
    Action::Move {
        dx: (i32::from(to.x) - i32::from(from.x)) as i8,
        dy: (i32::from(to.y) - i32::from(from.y)) as i8,
    }
}

/// Searching for secret doors (rules 3): a turn of searching on the
/// player's cell when it is the spot worth searching
/// ([`search_spot`](crate::sim::agent::search)), else the first step
/// toward the nearest one; `None` when none is left.
pub(super) fn search_step(run: &Run, map: &mut LazyWalk, wide: bool) -> Option<Action> {
    let here = run.player().pos;
    let spot = search_spot(run, map, wide)?;
    Some(if spot == here {
        Action::Search
    } else {
        first_step(map, &run.current().level, here, spot)
    })
}

/// The first step of a shortest walk from `from` to `target`, read off a
/// map of distances to `from`: walk downhill from the target until one step
/// away. Under rules 3 the step may be into a closed door, which opens it.
pub(super) fn first_step(map: &mut LazyWalk, level: &Level, from: Pos, target: Pos) -> Action {
    if map.walker().doors == Doors::Doors {
        // A closed door next to `from` is two steps away (opening it is
        // one), so the walk stops where the next cell is `from` itself.
        let mut at = target;
        if at == from {
            return Action::Wait;
        }
        loop {
            match map.downhill(level, at) {
                Some(next) if next == from => return step_to(from, at),
                Some(next) => at = next,
                None => return Action::Wait,
            }
        }
    }
    let mut at = target;
    while map.at(level, at) > 1 {
        match map.downhill(level, at) {
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
