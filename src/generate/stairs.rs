//! Stairs: up and down staircases in different rooms, far apart by path.
//!
//! One anchor room holds the first up staircase (or, on a level with no up
//! stairs, is where the player would start). A breadth-first distance map
//! from its centre ranks the other rooms; down stairs go to the farthest
//! rooms, further up stairs to the nearest, so a level has to be crossed.
//! A vault holds stairs only on the cells its drawing marks for them (`<`
//! or `>`); one without such cells holds none.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::geom::Pos;
use crate::level::{Room, StairDirection, Stairs, Tile};

/// How many of each kind a level needs.
pub(crate) struct StairCounts {
    pub up: usize,
    pub down: usize,
}

/// Where stairs may go in each room: rooms 0 to k-1 are the level's
/// vaults, with the cells their drawings mark for stairs; every other room
/// takes stairs anywhere on its floor.
pub(crate) struct StairPlaces<'a> {
    pub vault_spots: &'a [Vec<Pos>],
}

impl StairPlaces<'_> {
    fn eligible(&self, room: usize) -> bool {
        self.vault_spots.get(room).is_none_or(|s| !s.is_empty())
    }

    /// A walkable cell of the room to measure it by: its centre, or a
    /// vault's first stair place (or first floor cell).
    pub fn reference(&self, width: usize, tiles: &[Tile], rooms: &[Room], room: usize) -> Pos {
        match self.vault_spots.get(room) {
            None => rooms[room].shape.center(),
            Some(spots) => spots.first().copied().unwrap_or_else(|| {
                rooms[room]
                    .shape
                    .cells()
                    .find(|p| tiles[usize::from(p.y) * width + usize::from(p.x)] == Tile::Floor)
                    .unwrap_or_else(|| rooms[room].shape.center())
            }),
        }
    }
}

/// The room that holds the first up staircase: a random one that may hold
/// stairs, or room 0 (where a player without arrival stairs starts) when
/// there are none. `None` if no room may hold stairs.
pub(crate) fn anchor(
    rooms: usize,
    counts: &StairCounts,
    places: &StairPlaces<'_>,
    rng: &mut Pcg64,
) -> Option<usize> {
    if counts.up > 0 {
        // With every room eligible this is the draw levels without vaults
        // always made.
        let eligible: Vec<usize> = (0..rooms).filter(|&r| places.eligible(r)).collect();
        if eligible.is_empty() {
            return None;
        }
        Some(eligible[rng.random_range(0..eligible.len() as u32) as usize])
    } else {
        Some(0)
    }
}

/// Places the stairs and returns them, up stairs first, each kind in link
/// order. `distance` is the step count from the anchor room's reference
/// cell. `None` when too few rooms may hold stairs.
#[allow(clippy::too_many_arguments)]
pub(crate) fn place(
    width: usize,
    tiles: &mut [Tile],
    rooms: &[Room],
    counts: &StairCounts,
    places: &StairPlaces<'_>,
    anchor: usize,
    distance: &[u32],
    rng: &mut Pcg64,
) -> Option<Vec<Stairs>> {
    let at = |p: Pos| distance[usize::from(p.y) * width + usize::from(p.x)];

    // Other rooms by path distance from the anchor, nearest first; ties go
    // to the earlier room.
    let mut others: Vec<usize> = (0..rooms.len())
        .filter(|&r| r != anchor && places.eligible(r))
        .collect();
    if others.len() + 1 < counts.up + counts.down {
        return None;
    }
    others.sort_by_key(|&r| (at(places.reference(width, tiles, rooms, r)), r));
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
            let pos = match places.vault_spots.get(r) {
                Some(spots) => spots[rng.random_range(0..spots.len() as u32) as usize],
                None => floor_cell(width, tiles, &rooms[r], rng),
            };
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
    Some(stairs)
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
