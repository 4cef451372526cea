//! What the player sees now and how far each cell walks to the player:
//! data derived from a level's state after every move, rebuilt on load and
//! never saved, so a reloaded run sees exactly what a live one did.

use std::cell::Cell;

use crate::config::SimulationConfig;
use crate::geom::Pos;
use crate::level::Level;
use crate::sim::world::distance::{DistanceMap, LazyWalk};
use crate::sim::world::doors::{Doors, Mover, Walker};
use crate::sim::world::fov::visible_cells_with;

/// What the run derives and keeps between moves, never saved: the
/// player's sight, the distance maps monsters and autopilots read, what is
/// known to be explored, and the run's work meter (every step, sight,
/// search and level made counts there; see `Run::work`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Sight {
    /// Cells visible from the player now (within the larger of the sight
    /// and perception radii), a bit a cell.
    pub(in crate::sim) visible: Vec<u64>,
    /// Walking distances from the player, searched as far as asked.
    pub(in crate::sim) walking: LazyWalk,
    /// Whether `walking` is from the player's current cell.
    pub(in crate::sim) walking_fresh: bool,
    /// Under rules 3, monsters' walking distances to the player, for those
    /// that open doors and those that do not (the player's own walk knows
    /// fewer doors); each searched as far as asked, and whether it is from
    /// the player's current cell.
    pub(in crate::sim) monster_walks: [(LazyWalk, bool); 2],
    /// A depth known to have no frontier left (every cell the player can
    /// reach is seen). Seeing more never adds a frontier then; only digging
    /// can, which clears it.
    pub(in crate::sim) explored: Cell<Option<u16>>,
    /// Tunnelling distances to the player, for smart tunnellers: searched
    /// on first use after a move.
    pub(in crate::sim) tunnelling: Option<DistanceMap>,
    /// Work done since the run was made or loaded, but for the walking
    /// search's own (see `Run::work`).
    pub(in crate::sim) work: u64,
}

impl Sight {
    /// Looks from `origin` on `level`: what is visible now, and every cell
    /// within the sight radius marked in `seen` (the level's fog of war).
    /// The distance maps are dropped, to be rebuilt on first use.
    pub(in crate::sim) fn look(
        &mut self,
        level: &Level,
        doors: Doors,
        seen: &mut [u64],
        origin: Pos,
        sim: &SimulationConfig,
    ) {
        let radius = u16::from(sim.sight_radius.max(sim.perception_radius));
        let sight_r = i32::from(sim.sight_radius);
        let cells = usize::from(level.width()) * usize::from(level.height());
        let side = 2 * u64::from(radius) + 1;
        self.work += 2 * ((cells as u64).div_ceil(64) + side * side);
        let mut visible = std::mem::take(&mut self.visible);
        visible.clear();
        visible.resize(cells.div_ceil(64), 0);
        let mut newly_seen = Vec::new();
        visible_cells_with(level, doors, origin, radius, |p| {
            let i = level.index(p);
            visible[i / 64] |= 1 << (i % 64);
            let (dx, dy) = (
                i32::from(p.x) - i32::from(origin.x),
                i32::from(p.y) - i32::from(origin.y),
            );
            if dx * dx + dy * dy <= sight_r * sight_r + sight_r {
                newly_seen.push(p);
            }
        });
        for p in newly_seen {
            let i = level.index(p);
            seen[i / 64] |= 1 << (i % 64);
        }
        self.visible = visible;
        self.walking_fresh = false;
        for (_, fresh) in &mut self.monster_walks {
            *fresh = false;
        }
        self.tunnelling = None;
    }

    /// Whether a cell of `level` is in the field of view (any radius up to
    /// the perception radius).
    pub(in crate::sim) fn visible(&self, level: &Level, p: Pos) -> bool {
        let i = level.index(p);
        self.visible
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Whether the player at `origin` sees `p`: in view and within the
    /// sight radius `r`.
    pub(in crate::sim) fn sees(&self, level: &Level, origin: Pos, p: Pos, r: u8) -> bool {
        let r = i32::from(r);
        let (dx, dy) = (
            i32::from(p.x) - i32::from(origin.x),
            i32::from(p.y) - i32::from(origin.y),
        );
        dx * dx + dy * dy <= r * r + r && self.visible(level, p)
    }

    /// The walking distances, walked as the player (`walker`), taken out
    /// while they are used and reset to `origin` if the player moved since
    /// they were searched.
    pub(in crate::sim) fn take_walk(
        &mut self,
        level: &Level,
        origin: Pos,
        walker: Walker,
    ) -> LazyWalk {
        let mut walk = std::mem::take(&mut self.walking);
        if !self.walking_fresh || walk.walker() != walker {
            walk.reset_as(level, origin, walker);
            walk.know_part();
            self.walking_fresh = true;
        }
        walk
    }

    /// A monster's walking distances to the player at `origin` under the
    /// door rules of rules 3, by whether it opens doors: taken out while
    /// used (give it back with [`Sight::put_monster_walk`]).
    pub(in crate::sim) fn take_monster_walk(
        &mut self,
        level: &Level,
        origin: Pos,
        opens: bool,
    ) -> LazyWalk {
        let (walk, fresh) = &mut self.monster_walks[usize::from(opens)];
        let mut walk = std::mem::take(walk);
        if !*fresh {
            let mover = if opens { Mover::Opener } else { Mover::Shut };
            walk.reset_as(
                level,
                origin,
                Walker {
                    doors: Doors::Doors,
                    mover,
                },
            );
            *fresh = true;
        }
        walk
    }

    /// Gives back what [`Sight::take_monster_walk`] took.
    pub(in crate::sim) fn put_monster_walk(&mut self, walk: LazyWalk, opens: bool) {
        self.monster_walks[usize::from(opens)].0 = walk;
    }

    /// The work of every walking search since this value was made.
    pub(in crate::sim) fn walk_effort(&self) -> u64 {
        self.walking.effort()
            + self
                .monster_walks
                .iter()
                .map(|(w, _)| w.effort())
                .sum::<u64>()
    }

    /// The tunnelling distances to `origin` on `level`, searched on first
    /// use after a move.
    pub(in crate::sim) fn tunnelling(
        &mut self,
        level: &Level,
        origin: Pos,
        dig: u8,
    ) -> &DistanceMap {
        if self.tunnelling.is_none() {
            self.work += 12 * u64::from(level.width()) * u64::from(level.height());
            self.tunnelling = Some(DistanceMap::tunnelling(level, origin, dig));
        }
        self.tunnelling.as_ref().expect("just computed")
    }
}
