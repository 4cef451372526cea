//! Where a level's monsters and items start: distinct floor cells of
//! areas (rooms, chambers, landings) other than the arrival area, drawn from the level's own stream.
//! Stomp's monsters, Combat's monsters and the items all use this one
//! drawing, each from its own stream. Also how many monsters a level
//! starts with and which its vaults draw, which the state's checks read.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::{Pos, Shape};
use crate::level::{Level, StairDirection, Tile};
use crate::vault::{Orientation, Vault, VaultCell};

/// Draws up to `wanted` distinct floor cells of rooms other than the
/// arrival room from `rng`, calling `take(cell, rng)` for each new cell as
/// it is drawn, so a caller may draw from the same stream between cells
/// (Stomp draws each monster's kind so). At most a hundred tries a cell,
/// each a constant amount of work: cells taken are a bit each, not a
/// search through those placed.
pub(in crate::sim) fn each_free_room_cell(
    level: &Level,
    wanted: usize,
    rng: &mut Pcg64,
    mut take: impl FnMut(Pos, &mut Pcg64),
) {
    let arrival = level
        .stairs_going(StairDirection::Up)
        .next()
        .map_or(0, |s| usize::from(s.room));
    let rooms: Vec<usize> = (0..level.rooms().len()).filter(|&r| r != arrival).collect();
    if rooms.is_empty() {
        return;
    }
    let mut taken = vec![0u64; level.tiles().len().div_ceil(64)];
    let (mut placed, mut tries) = (0, 0);
    while placed < wanted && tries < wanted * 100 {
        tries += 1;
        let r = rooms[rng.random_range(0..rooms.len() as u32) as usize];
        let b = level.rooms()[r].shape.bounds();
        let p = Pos::new(
            rng.random_range(b.x..=b.right()),
            rng.random_range(b.y..=b.bottom()),
        );
        let i = level.index(p);
        if level.area_of(p) == Some(r)
            && level.tile(p) == Tile::Floor
            && taken[i / 64] & (1 << (i % 64)) == 0
        {
            taken[i / 64] |= 1 << (i % 64);
            placed += 1;
            take(p, rng);
        }
    }
}

/// Up to `wanted` such cells, all drawn before anything is put on them.
pub(in crate::sim) fn free_room_cells(level: &Level, wanted: usize, rng: &mut Pcg64) -> Vec<Pos> {
    let mut cells = Vec::with_capacity(wanted);
    each_free_room_cell(level, wanted, rng, |p, _| cells.push(p));
    cells
}

/// How many monsters a level is populated with: a number growing with
/// depth, up to the configured most.
pub(crate) fn monsters_wanted(config: &Config, depth: u16) -> usize {
    let sim = &config.at_depth(depth).simulation;
    (u32::from(sim.monsters_first_level) + u32::from(sim.monsters_per_depth) * u32::from(depth - 1))
        .min(u32::from(sim.monsters_max)) as usize
}

/// The most monster ids summoning may add to a level (rules 4), beyond
/// its population: a bound on what casters can make, and on a save.
pub(crate) const MAX_SUMMONED: usize = 40;

/// The most monster ids a level hands out: its population, which under
/// rules 4 (Combat) counts groups that packs may fill to
/// [`MAX_PACK`](crate::sim::kinds::ability::MAX_PACK) each, plus what
/// summoning may add; not counting its vaults' monsters.
pub(crate) fn monsters_most(config: &Config, depth: u16) -> usize {
    let wanted = monsters_wanted(config, depth);
    if config.revisions.rules >= 4 && config.simulation.is_combat() {
        wanted * usize::from(crate::sim::kinds::ability::MAX_PACK) + MAX_SUMMONED
    } else {
        wanted
    }
}

/// The monster letters of the vaults in `level`, with the cells they stand
/// on, in room order then row by row.
pub fn vault_monsters(vaults: &[Vault], level: &Level) -> Vec<(char, Pos)> {
    let mut out = Vec::new();
    for room in level.rooms() {
        let Shape::Vault(v) = room.shape else {
            continue;
        };
        let Some(vault) = vaults.get(usize::from(v.vault)) else {
            continue;
        };
        let drawing = vault.drawing().oriented(Orientation {
            quarter_turns: v.quarter_turns,
            mirrored: v.mirrored,
        });
        for (x, y, cell) in drawing.cells() {
            let pos = Pos::new(v.bounds.x + x, v.bounds.y + y);
            if let VaultCell::Monster(glyph) = cell
                && level.tile(pos) == Tile::Floor
            {
                out.push((glyph, pos));
            }
        }
    }
    out
}
