//! The corridor stage: join every room of a level in the configured style.
//!
//! [`site`] owns every rule about where corridors and doors may go (rings,
//! free cells, door candidates, opening a cell); each style has a file of
//! its own and its own scratch buffers, and uses `site`, never another
//! style: `tunnel` (002, the default), `straight` (000), `grid` (003),
//! `dead_end` (004). [`join`] holds the Prim join order the Tunnel follows
//! and the room distances the styles' fallbacks compare. A new style is a
//! new file and one line in [`Carver::carve`].

mod dead_end;
mod grid;
mod join;
mod prim;
pub(crate) mod site;
mod straight;
mod tunnel;

use rand_pcg::Pcg64;

use crate::config::{Config, CorridorStyle};

pub(crate) use self::site::{CORRIDOR_BIT, Rules, Site};

/// `parent` of a search's first cell.
const NO_PARENT: u32 = u32::MAX;
/// `owner` of a cell no corridor of the current style owns.
const NO_OWNER: u32 = u32::MAX;

/// Reusable buffers for carving, one per generating thread: the site's
/// rules, and each style's own scratch.
#[derive(Default)]
pub(crate) struct Carver {
    pub(crate) rules: Rules,
    tunnel: tunnel::Tunnel,
    straight: straight::Straight,
    grid: grid::Grid,
    dead_end: dead_end::DeadEnd,
}

/// Why carving failed: some room could not be joined to the others (or the
/// work budget ran out, which the caller tells by asking the budget).
#[derive(Debug)]
pub(crate) struct Unjoined;

impl Carver {
    /// Joins every room of the site in the configured style. `rng` is the
    /// corridor stage's own stream (the Tunnel and Straight styles draw
    /// nothing).
    pub(crate) fn carve(
        &mut self,
        cfg: &Config,
        site: &mut Site<'_>,
        rng: &mut Pcg64,
    ) -> Result<(), Unjoined> {
        // Rings, door candidates and step costs look at every room's
        // dilated bounding box a few times.
        let boxes: usize = site
            .shapes
            .iter()
            .map(|s| {
                let b = s.bounds();
                (usize::from(b.width) + 2) * (usize::from(b.height) + 2)
            })
            .sum();
        if !site.budget.spend(boxes) {
            return Err(Unjoined);
        }
        self.rules.prepare(site);
        let rules = &self.rules;
        match cfg.corridors {
            CorridorStyle::Tunnel => self.tunnel.carve(cfg, rules, site),
            CorridorStyle::Straight => self.straight.carve(cfg, rules, site),
            CorridorStyle::Grid => self.grid.carve(cfg, rules, site, rng),
            CorridorStyle::DeadEnd => self.dead_end.carve(cfg, rules, site, rng),
        }
    }
}
