//! Secret doors (rules revision 3): a share of a level's doors hidden in
//! the wall, run once the stairs are placed and before the level is
//! assembled and verified.
//!
//! The promise: from any staircase every other staircase of the level
//! (and, on a level without an up staircase, the player's start) is
//! reachable without passing a secret door, so secret doors only ever
//! add shortcuts and side rooms, and no run is stranded behind one.
//!
//! It holds by construction, in one pass and no search a door: the
//! breadth-first distances the stairs stage already took from its anchor
//! room give, from each staircase and the start, a shortest walk back to
//! the anchor (downhill, one orthogonal step at a time). Those walks join
//! every place that must stay joined through the anchor, and doors on
//! them are never hidden; any set of the other doors may be. The doors to
//! hide are then drawn from the rest, from this stage's own stream, and a
//! single flood over the finished level checks the promise
//! ([`check`]), as a loaded level is checked (`Level::stranded_by_secret_doors`).
//!
//! A share of 0, or rules before revision 3, leaves the level untouched
//! and draws nothing, so such levels are what they always were.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::Config;
use crate::geom::Pos;
use crate::grid_search::{Bfs, orthogonal};
use crate::level::{Room, StairDirection, Stairs, Tile};

/// What the stage keeps from level to level, so a warm generator asks the
/// allocator for nothing here.
#[derive(Default)]
pub(super) struct Scratch {
    /// Door cells on the walks between the stairs: never hidden.
    kept: Vec<u32>,
    /// Door cells that may be hidden, in index order.
    candidates: Vec<u32>,
    /// The staircases' cells and the start's: the places to keep joined.
    anchors: Vec<u32>,
}

/// Whether the level at this config hides any doors: rules 3 or newer
/// and a share above 0.
pub(super) fn wanted(config: &Config) -> bool {
    config.revisions.rules >= 3 && config.secret_doors > 0.0
}

/// The cell a run starts on, on a level without an up staircase: its
/// first room's ([`crate::level::Level::start`], before the level exists).
fn start(width: usize, tiles: &[Tile], rooms: &[Room]) -> Option<u32> {
    let shape = rooms.first()?.shape;
    let at = |p: Pos| usize::from(p.y) * width + usize::from(p.x);
    let p = crate::level::room_cell(shape, |p| tiles[at(p)]);
    tiles[at(p)].is_walkable().then_some(at(p) as u32)
}

/// The places the promise keeps joined: every staircase, and the start
/// on a level without an up staircase.
fn list_anchors(
    anchors: &mut Vec<u32>,
    width: usize,
    tiles: &[Tile],
    rooms: &[Room],
    stairs: &[Stairs],
) {
    anchors.clear();
    anchors.extend(
        stairs
            .iter()
            .map(|s| (usize::from(s.pos.y) * width + usize::from(s.pos.x)) as u32),
    );
    if !stairs.iter().any(|s| s.direction == StairDirection::Up) {
        anchors.extend(start(width, tiles, rooms));
    }
}

/// Hides `round(share x doors)` of the level's doors (fewer when fewer may
/// be hidden) as secret doors, none on the walks that join the stairs.
/// `dist` is the orthogonal breadth-first distance map over walkable cells
/// from one cell of the level (the stairs stage's); room 0 of `rooms`
/// holds the start of a level without up stairs.
#[allow(clippy::too_many_arguments)]
pub(super) fn hide(
    share: f64,
    width: usize,
    tiles: &mut [Tile],
    rooms: &[Room],
    stairs: &[Stairs],
    dist: &[u32],
    rng: &mut Pcg64,
    scratch: &mut Scratch,
) {
    let Scratch {
        kept,
        candidates,
        anchors,
    } = scratch;
    list_anchors(anchors, width, tiles, rooms, stairs);
    kept.clear();
    for &a in anchors.iter() {
        let mut c = a as usize;
        if dist[c] == Bfs::UNREACHED {
            // Not joined to the rest at all: verification refuses the
            // level whatever is hidden.
            continue;
        }
        while dist[c] > 0 {
            if tiles[c].is_door() {
                kept.push(c as u32);
            }
            c = orthogonal(c, width)
                .into_iter()
                .find(|&n| dist[n] == dist[c] - 1)
                .expect("a cell at distance d has a neighbour at d - 1");
        }
        if tiles[c].is_door() {
            kept.push(c as u32);
        }
    }
    kept.sort_unstable();
    candidates.clear();
    let mut doors = 0usize;
    for (c, &t) in tiles.iter().enumerate() {
        if t == Tile::Door {
            doors += 1;
            if kept.binary_search(&(c as u32)).is_err() {
                candidates.push(c as u32);
            }
        }
    }
    // Exactly rounded: the share is the config's, the count an integer.
    let wanted = ((share * doors as f64).round() as usize).min(candidates.len());
    // A partial Fisher-Yates shuffle: the first `wanted` candidates after
    // it are a uniform draw, in an order fixed by the stream.
    for i in 0..wanted {
        let j = rng.random_range(i as u32..candidates.len() as u32) as usize;
        candidates.swap(i, j);
        tiles[candidates[i] as usize] = Tile::SecretDoor;
    }
}

/// The promise checked on the finished level: one flood from the first
/// anchor over walkable cells but secret doors, which must reach every
/// other. `Err` names the place cut off.
pub(super) fn check(
    width: usize,
    tiles: &[Tile],
    rooms: &[Room],
    stairs: &[Stairs],
    bfs: &mut Bfs,
    scratch: &mut Scratch,
) -> Result<(), String> {
    let anchors = &mut scratch.anchors;
    list_anchors(anchors, width, tiles, rooms, stairs);
    let Some(&first) = anchors.first() else {
        return Ok(());
    };
    // One flood of the whole level, without a branch on whether a cell
    // is reached (see `Bfs::distance_map`): on a maze of secret doors the
    // branches of a flood that stopped at the last anchor were as good as
    // random, and cost more than the cells past it. What it reaches of
    // the anchors is what a flood stopped at the last would. (An anchor
    // is a staircase, or the start where there are none: walkable and
    // never hidden, so the flood starts.)
    anchors.sort_unstable();
    anchors.dedup();
    bfs.distance_map(width, tiles.len(), first as usize, |n| {
        tiles[n].is_walkable() && tiles[n] != Tile::SecretDoor
    });
    match anchors
        .iter()
        .find(|&&a| bfs.dist(a as usize) == Bfs::UNREACHED)
    {
        Some(&cut) => Err(format!(
            "the cell at {},{} is reached from the stairs only through a secret door",
            cut as usize % width,
            cut as usize / width
        )),
        None => Ok(()),
    }
}
