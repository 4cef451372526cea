//! Stairs: up and down staircases in different rooms, far apart by path.
//!
//! One anchor room holds the first up staircase (or, on a level with no up
//! stairs, is where the player would start). A breadth-first distance map
//! from its centre ranks the other rooms; down stairs go to the farthest
//! rooms, further up stairs to the nearest, so a level has to be crossed.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::geom::Pos;
use crate::level::{Room, StairDirection, Stairs, Tile};

/// How many of each kind a level needs.
pub(crate) struct StairCounts {
    pub up: usize,
    pub down: usize,
}

/// The room that holds the first up staircase: a random one, or room 0
/// (where a player without arrival stairs starts) when there are none.
pub(crate) fn anchor(rooms: usize, counts: &StairCounts, rng: &mut Pcg64) -> usize {
    if counts.up > 0 {
        rng.random_range(0..rooms as u32) as usize
    } else {
        0
    }
}

/// Places the stairs and returns them, up stairs first, each kind in link
/// order. `distance` is the step count from the anchor room's centre.
pub(crate) fn place(
    width: usize,
    tiles: &mut [Tile],
    rooms: &[Room],
    counts: &StairCounts,
    anchor: usize,
    distance: &[u32],
    rng: &mut Pcg64,
) -> Vec<Stairs> {
    let at = |p: Pos| distance[usize::from(p.y) * width + usize::from(p.x)];

    // Other rooms by path distance from the anchor, nearest first; ties go
    // to the earlier room.
    let mut others: Vec<usize> = (0..rooms.len()).filter(|&r| r != anchor).collect();
    others.sort_by_key(|&r| (at(rooms[r].shape.center()), r));
    let down: Vec<usize> = others.iter().rev().take(counts.down).copied().collect();
    let mut up: Vec<usize> = Vec::with_capacity(counts.up);
    if counts.up > 0 {
        up.push(anchor);
        up.extend(
            others
                .iter()
                .filter(|r| !down.contains(r))
                .take(counts.up - 1),
        );
    }

    let mut stairs = Vec::with_capacity(up.len() + down.len());
    for (rooms_for, direction) in [(&up, StairDirection::Up), (&down, StairDirection::Down)] {
        for &r in rooms_for {
            let pos = floor_cell(width, tiles, &rooms[r], rng);
            tiles[usize::from(pos.y) * width + usize::from(pos.x)] = match direction {
                StairDirection::Up => Tile::UpStairs,
                StairDirection::Down => Tile::DownStairs,
            };
            stairs.push(Stairs {
                pos,
                direction,
                room: r as u16,
            });
        }
    }
    stairs
}

/// A random plain floor cell of the room.
fn floor_cell(width: usize, tiles: &[Tile], room: &Room, rng: &mut Pcg64) -> Pos {
    let b = room.shape.bounds();
    // Rejection sampling: a disc fills about 3/4 of its box, and a room holds
    // at most a few stairs, so this ends fast.
    for _ in 0..1000 {
        let p = Pos::new(
            rng.random_range(b.x..=b.right()),
            rng.random_range(b.y..=b.bottom()),
        );
        if room.shape.contains(p)
            && tiles[usize::from(p.y) * width + usize::from(p.x)] == Tile::Floor
        {
            return p;
        }
    }
    // Unreachable in practice; fall back to the first free cell in order.
    room.shape
        .cells()
        .find(|p| tiles[usize::from(p.y) * width + usize::from(p.x)] == Tile::Floor)
        .unwrap_or_else(|| room.shape.center())
}
