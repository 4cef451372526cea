//! The `Straight` corridor style (000's connectRoomCenters): each room is
//! joined to the one placed before it by walking from a door toward the
//! other room, one step at a time, along x while that brings it closer and
//! then along y, so an unobstructed corridor is an L.
//!
//! 000 walks through anything; delve's corridors never pass through rooms
//! or their rings. So the walk is a unit-cost A* whose frontier is a stack:
//! while nothing is in the way, the step that keeps the estimate (x first,
//! then y) is always the one taken next and the search *is* 000's walk;
//! where a room stands in the way, the same search steps around it. Doors
//! come from the same candidates and limits as every style.
//!
//! 000 also draws straight over earlier hallways, which on a grid of
//! one-cell corridors makes stretches two cells wide. Here every corridor
//! and door already standing belongs to the rooms joined so far (each room
//! joins an earlier one), so a walk that reaches one, or steps beside one,
//! has joined its room to the previous one and stops there.
//!
//! A level's vaults (generator revision 3; rooms 0 to k-1, placed first)
//! are not this style's to join: the walks join the ordinary rooms, in
//! their own placement order, and a last leg joins each vault afterwards
//! (`generate/vault_legs.rs`), as a walk toward a room cannot aim at a
//! vault's few doors.

use crate::config::Config;
use crate::grid_search::{Stamps, orthogonal, xy};
use crate::level::Tile;

use super::join::{centre2, dist2};
use super::site::{Rules, Site};
use super::{NO_PARENT, Unjoined};

/// The Straight style's scratch buffers, reused from level to level.
#[derive(Default)]
pub(super) struct Straight {
    /// Per cell: the search that reached it (or made it a goal).
    seen: Stamps,
    /// Per cell: the cell the search reached it from.
    parent: Vec<u32>,
    /// The two frontier stacks of the search.
    stack_now: Vec<u32>,
    stack_later: Vec<u32>,
    /// A walk's door ends and their keys, kept from walk to walk.
    walk: WalkBuffers,
    /// The earlier rooms a room falls back to, nearest first.
    earlier: Vec<usize>,
}

#[derive(Default)]
struct WalkBuffers {
    sources: Vec<u32>,
    goals: Vec<u32>,
    starts: Vec<(i32, u32)>,
    goal_at: Vec<(i32, i32)>,
}

impl Straight {
    /// Joins room i to room i-1 for every ordinary room i but the first
    /// (placement order). A pair no walk can join falls back to the nearest
    /// earlier ordinary rooms, as the Tunnel does.
    pub(super) fn carve(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
    ) -> Result<(), Unjoined> {
        let n = site.width * site.height;
        self.seen.fit(n);
        self.parent.resize(n, 0);
        let rooms = site.shapes.len();
        // Rooms 0 to first - 1 are the vaults.
        let first = site.entrances.len();
        for room in first + 1..rooms {
            if self.walk(cfg, rules, site, room, room - 1) {
                continue;
            }
            if !site.budget.spend(room) {
                return Err(Unjoined);
            }
            let mut earlier = std::mem::take(&mut self.earlier);
            earlier.clear();
            earlier.extend(first..room - 1);
            // Keys are unique (the index breaks ties), so the unstable
            // sort, which needs no buffer, orders them as a stable one.
            let c = centre2(&site.shapes[room]);
            earlier.sort_unstable_by_key(|&j| (dist2(c, centre2(&site.shapes[j])), j));
            let joined = earlier
                .iter()
                .take(3)
                .any(|&j| self.walk(cfg, rules, site, room, j));
            self.earlier = earlier;
            if !joined {
                return Err(Unjoined);
            }
        }
        Ok(())
    }

    /// Walks from a door of `from` to a door of `to` and opens the corridor;
    /// false if no walk gets there.
    fn walk(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        from: usize,
        to: usize,
    ) -> bool {
        let mut buffers = std::mem::take(&mut self.walk);
        let joined = self.walk_with(cfg, rules, site, (from, to), &mut buffers);
        self.walk = buffers;
        joined
    }

    fn walk_with(
        &mut self,
        cfg: &Config,
        rules: &Rules,
        site: &mut Site<'_>,
        (from, to): (usize, usize),
        buffers: &mut WalkBuffers,
    ) -> bool {
        let w = site.width;
        let WalkBuffers {
            sources,
            goals,
            starts,
            goal_at,
        } = buffers;
        rules.door_ends(cfg, site, from, sources);
        rules.door_ends(cfg, site, to, goals);
        if sources.is_empty() || goals.is_empty() {
            return false;
        }
        let xy = |c: u32| xy(c as usize, w);
        let manhattan = |a: (i32, i32), b: (i32, i32)| (a.0 - b.0).abs() + (a.1 - b.1).abs();
        // 000 starts from the room's centre; delve from the door nearest the
        // other room's centre, toward that room's door nearest to it.
        let target_centre = site.shapes[to].center();
        let tc = (i32::from(target_centre.x), i32::from(target_centre.y));
        // Keys computed once: the nearest door first, two more if it is shut in.
        starts.clear();
        starts.extend(sources.iter().map(|&s| (manhattan(xy(s), tc), s)));
        let nearest = (0..starts.len())
            .min_by_key(|&i| starts[i])
            .expect("sources is not empty");
        starts.swap(0, nearest);
        goal_at.clear();
        goal_at.extend(goals.iter().map(|&g| xy(g)));
        for k in 0..starts.len().min(3) {
            if !site.budget.spend(starts.len() + goals.len()) {
                return false;
            }
            if k == 1 {
                starts[1..].sort_unstable();
            }
            let source = starts[k].1;
            let at = xy(source);
            let target = goals[(0..goals.len())
                .min_by_key(|&i| (manhattan(goal_at[i], at), goals[i]))
                .expect("goals is not empty")];
            if let Some(end) = self.search(rules, site, source, target, goals) {
                let mut c = end;
                while c != NO_PARENT {
                    rules.open(site, c as usize);
                    c = self.parent[c as usize];
                }
                return true;
            }
        }
        false
    }

    /// Unit-cost A* from `source` toward `target` (Manhattan estimate), ending
    /// on any of `goals`, entered only from a free cell. The estimate changes
    /// by one a step, so f = steps + estimate grows by 0 or 2: two stacks hold
    /// the current f and the next. Popping the last pushed keeps the walk
    /// going straight; the preferred step (x toward the target, then y) is
    /// pushed last. Returns the goal reached; `self.parent` leads back.
    fn search(
        &mut self,
        rules: &Rules,
        site: &Site<'_>,
        source: u32,
        target: u32,
        goals: &[u32],
    ) -> Option<u32> {
        let w = site.width;
        let visit = self.seen.next_mark();
        let goal_mark = self.seen.next_mark();
        for &g in goals {
            self.seen.set(g as usize, goal_mark);
        }
        let (tx, ty) = xy(target as usize, w);
        let mut now = std::mem::take(&mut self.stack_now);
        let mut later = std::mem::take(&mut self.stack_later);
        now.clear();
        later.clear();
        now.push(source);
        self.seen.set(source as usize, visit);
        self.parent[source as usize] = NO_PARENT;
        // Steps are counted here and spent at the end, to keep the loop tight.
        let allowed = site.budget.left();
        let mut steps = 0usize;
        let found = 'search: loop {
            let Some(c) = now.pop() else {
                if later.is_empty() {
                    break None;
                }
                std::mem::swap(&mut now, &mut later);
                continue;
            };
            steps += 1;
            if steps > allowed {
                break None;
            }
            let c = c as usize;
            let (x, y) = xy(c, w);
            // Neighbours in the order N, E, S, W. The moves toward the target
            // keep f and are pushed last, y before x, so x is taken next; the
            // others raise f by 2 and wait on the other stack.
            let toward_x = match tx.cmp(&x) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => 3,
                std::cmp::Ordering::Equal => 4,
            };
            let toward_y = match ty.cmp(&y) {
                std::cmp::Ordering::Greater => 2,
                std::cmp::Ordering::Less => 0,
                std::cmp::Ordering::Equal => 4,
            };
            let neighbours = orthogonal(c, w);
            let at_source = c == source as usize;
            let mut order = [0usize, 1, 2, 3, toward_y, toward_x];
            // Skip the toward moves in the first pass by marking them past 3.
            for slot in order.iter_mut().take(4) {
                if *slot == toward_x || *slot == toward_y {
                    *slot = 4;
                }
            }
            for (k, &i) in order.iter().enumerate() {
                if i > 3 {
                    continue;
                }
                let n = neighbours[i];
                let seen = self.seen.get(n);
                if seen == visit {
                    continue;
                }
                if seen == goal_mark && !at_source {
                    self.parent[n] = c as u32;
                    break 'search Some(n as u32);
                }
                if !rules.free(site, n) {
                    continue;
                }
                self.seen.set(n, visit);
                self.parent[n] = c as u32;
                // The corridors and doors already standing all belong to the
                // rooms joined so far: reaching one, or stepping beside one,
                // joins them.
                let open =
                    |m: usize| m != c && matches!(site.tiles[m], Tile::Corridor | Tile::Door);
                if site.tiles[n] == Tile::Corridor
                    || open(n - w)
                    || open(n + 1)
                    || open(n + w)
                    || open(n - 1)
                {
                    break 'search Some(n as u32);
                }
                if k >= 4 {
                    now.push(n as u32);
                } else {
                    later.push(n as u32);
                }
            }
        };
        // The stacks trade places as f grows, so either may be the one a
        // later search fills most: each keeps room for the larger, which
        // after the first levels asks nothing.
        let room = now.capacity().max(later.capacity());
        for stack in [&mut now, &mut later] {
            stack.clear();
            stack.reserve(room);
        }
        self.stack_now = now;
        self.stack_later = later;
        site.budget.spend(steps);
        found
    }
}
