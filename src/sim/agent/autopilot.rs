//! The autopilot: the player's actions chosen by rule, for `delve simulate`
//! and the viewer's auto-explore. It goes by what the player knows (the
//! cells seen so far, the monsters in sight), except that on a fully
//! explored level it senses the monsters left, so a KillAll run can end.
//!
//! In order of priority:
//! 1. Stomp a monster on an adjacent cell.
//! 2. With few lives left, step away from monsters in sight that are close.
//! 3. Walk toward a monster in sight, by a walk that keeps it in sight
//!    (see `agent/hunt.rs`); one that cannot be reached so is left alone.
//! 4. Walk toward the nearest frontier: a seen open cell next to an unseen
//!    cell.
//! 5. With the level explored: under the KillAll goal, hunt the monsters
//!    left on it (the one thing it senses without seeing); under rules 3,
//!    search the dead ends it knows (on rooms levels), and the walls of a
//!    room with no known exit, for secret doors (`agent/search.rs`, a
//!    bounded number of turns a spot); then take the stairs toward levels
//!    that may still hold monsters, deeper first (or simply down, under
//!    ReachBottom).
//! 6. Otherwise wait.
//!
//! Ties are broken by cell index, so the autopilot is deterministic.

use crate::geom::Pos;
use crate::sim::agent::explore::{
    Plan, explore_then_stairs, first_step, frontier_of, search_step, step_to,
};
use crate::sim::agent::hunt::hunt_step;
use crate::sim::state::Run;
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::{DIRECTIONS, LazyWalk};

/// The autopilot's next action.
pub fn autopilot(run: &mut Run) -> Action {
    decide(run).0
}

/// The autopilot's next action and the rule that chose it.
pub fn decide(run: &mut Run) -> (Action, Plan) {
    let mut map = run.take_walk();
    let decision = if run.combat().is_some() {
        crate::sim::agent::autopilot_combat::decide_combat(run, &mut map)
    } else {
        decide_stomp(run, &mut map)
    };
    run.put_walk(map);
    decision
}

fn decide_stomp(run: &Run, map: &mut LazyWalk) -> (Action, Plan) {
    let here = run.player().pos;
    let state = run.current();
    let level = &state.level;
    let walker = run.player_walker();

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
        if in_sight.contains(&to) && walker.steps(level, here, to) {
            return (step_to(here, to), Plan::Stomp);
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
                if walker.steps(level, here, to) && safety(to) > best.0 {
                    best = (safety(to), to);
                }
            }
            let action = if best.1 == here {
                Action::Wait
            } else {
                step_to(here, best.1)
            };
            return (action, Plan::Flee);
        }
    }

    // 3. Hunt what it sees, keeping it in sight.
    let radius = run.config().simulation.sight_radius;
    if let Some((step, _)) = hunt_step(level, walker, here, radius, in_sight.iter().copied()) {
        return (step, Plan::Hunt);
    }

    // 4. Explore; 5. the level explored, sense what is left or take the
    // stairs; 6. wait.
    explore_then_stairs(run, map)
}

/// What the viewer's auto-explore fetches before exploring on: picking up
/// the item here, or a step toward the nearest item seen, when the
/// autopilot would take it (Combat only). The autopilot itself fetches
/// items only once nothing ranks above (wielding, resting); a player who
/// explores wants them fetched now, and a level is not done while they lie
/// there.
pub fn fetch_step(run: &mut Run) -> Option<Action> {
    let mut map = run.take_walk();
    let step = crate::sim::agent::autopilot_combat::fetch(run, &mut map);
    run.put_walk(map);
    step
}

/// The first step toward the nearest unexplored part of the level, if any
/// is left; with none, under rules 3, a search for secret doors at a dead
/// end or in a room with no known exit (searching, or a step toward the
/// spot): what the viewer's auto-explore does once the autopilot would do
/// something else, and its travel when no staircase is known yet.
pub fn explore_step(run: &mut Run) -> Option<Action> {
    let here = run.player().pos;
    let mut map = run.take_walk();
    let state = run.current();
    let step = frontier_of(run, &mut map)
        .map(|f| first_step(&mut map, &state.level, here, f))
        .or_else(|| search_step(run, &mut map, false));
    run.put_walk(map);
    step
}

/// What travel does when no known way leads to the stairs it wants and
/// nothing is left to explore: under rules 3, search the walls of every
/// room it can reach for the secret door that must lead out (searching,
/// or a step toward the spot); `None` when none is left to search, or
/// under rules 1 and 2.
pub fn search_way_out(run: &mut Run) -> Option<Action> {
    let mut map = run.take_walk();
    let step = search_step(run, &mut map, true);
    run.put_walk(map);
    step
}
