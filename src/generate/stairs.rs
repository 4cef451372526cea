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

use crate::geom::{Pos, RegionBox, Shape};
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
    // A kind of level may lay out no area at all (a cave all passage).
    if rooms == 0 {
        return None;
    }
    if counts.up > 0 {
        // With every room eligible this is the draw levels without vaults
        // always made.
        // Counted, then walked to, rather than listed: no list per level.
        let mut eligible = (0..rooms).filter(|&r| places.eligible(r));
        let count = eligible.clone().count();
        if count == 0 {
            return None;
        }
        eligible.nth(rng.random_range(0..count as u32) as usize)
    } else {
        Some(0)
    }
}

/// The room lists of [`place`], kept from level to level so placing the
/// stairs allocates only the level's list of them.
#[derive(Default)]
pub(crate) struct Scratch {
    others: Vec<usize>,
    down: Vec<usize>,
    up: Vec<usize>,
    /// An irregular area's cells, found from its anchor, and which of its
    /// box's cells were reached.
    region: Vec<Pos>,
    seen: Vec<bool>,
    /// The others with their sort keys, each key read once.
    keyed: Vec<(u32, usize)>,
}

/// Places the stairs and returns them, up stairs first, each kind in link
/// order. `distance` is the step count from the anchor room's reference
/// cell. `None` when too few rooms may hold stairs: then the attempt is
/// thrown away, since a level short of its way down (or up) would cut the
/// stack apart.
#[allow(clippy::too_many_arguments)]
pub(crate) fn place(
    scratch: &mut Scratch,
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
    let Scratch {
        others,
        down,
        up,
        region,
        seen,
        keyed,
    } = scratch;
    others.clear();
    others.extend((0..rooms.len()).filter(|&r| r != anchor && places.eligible(r)));
    // The anchor holds the first up staircase, or, on a level with none,
    // is where the player starts and holds no stairs at all: every other
    // staircase needs a room of its own among the others.
    if others.len() < rooms_beyond_anchor(counts) {
        return None;
    }
    // Unique keys: the unstable sort (no buffer) orders as a stable one.
    // A key is read once a room, not twice a comparison.
    keyed.clear();
    keyed.extend(
        others
            .iter()
            .map(|&r| (at(places.reference(width, tiles, rooms, r)), r)),
    );
    keyed.sort_unstable();
    others.clear();
    others.extend(keyed.iter().map(|&(_, r)| r));
    down.clear();
    down.extend(others.iter().rev().take(counts.down).copied());
    up.clear();
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
    for (rooms_for, direction) in [(&*up, StairDirection::Up), (&*down, StairDirection::Down)] {
        for &r in rooms_for {
            let pos = match places.vault_spots.get(r) {
                Some(spots) => spots[rng.random_range(0..spots.len() as u32) as usize],
                None => match rooms[r].shape {
                    // An irregular area may be wide: the anchor's first up
                    // staircase stands on the cell the walks are measured
                    // from, every other staircase on its area's cell
                    // farthest from it.
                    Shape::Region(area) if r == anchor && direction == StairDirection::Up => {
                        if tiles[usize::from(area.anchor.y) * width + usize::from(area.anchor.x)]
                            == Tile::Floor
                        {
                            area.anchor
                        } else {
                            region_cell(width, tiles, area, (region, seen), distance)
                        }
                    }
                    Shape::Region(area) => {
                        region_cell(width, tiles, area, (region, seen), distance)
                    }
                    _ => floor_cell(width, tiles, &rooms[r], rng),
                },
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

/// The staircases that need a room other than the anchor: all but the
/// first up staircase, which the anchor holds.
fn rooms_beyond_anchor(counts: &StairCounts) -> usize {
    counts.up.saturating_sub(1) + counts.down
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

/// The floor cell of an irregular area farthest by walk (`distance`)
/// from where the stairs are measured from, the first in row order of
/// those as far: its box may hold other areas' floor, so its own is found
/// from its anchor.
fn region_cell(
    width: usize,
    tiles: &[Tile],
    region: RegionBox,
    (cells, seen): (&mut Vec<Pos>, &mut Vec<bool>),
    distance: &[u32],
) -> Pos {
    let b = region.bounds;
    let at = |p: Pos| usize::from(p.y) * width + usize::from(p.x);
    seen.clear();
    // At the level's size at once, so a warm generator grows it once.
    seen.reserve(tiles.len());
    cells.reserve(tiles.len());
    seen.resize(usize::from(b.width) * usize::from(b.height), false);
    let local = |p: Pos| usize::from(p.y - b.y) * usize::from(b.width) + usize::from(p.x - b.x);
    cells.clear();
    cells.push(region.anchor);
    seen[local(region.anchor)] = true;
    let mut next = 0;
    while let Some(&p) = cells.get(next) {
        next += 1;
        for (dx, dy) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
            let n = Pos::new((i32::from(p.x) + dx) as u16, (i32::from(p.y) + dy) as u16);
            if b.contains(n) && !seen[local(n)] && crate::layout::is_area_floor(tiles[at(n)]) {
                seen[local(n)] = true;
                cells.push(n);
            }
        }
    }
    // Stairs stand on plain floor; a region holds one staircase at most,
    // so its floor is all plain when its stairs are placed.
    cells
        .iter()
        .filter(|&&p| tiles[at(p)] == Tile::Floor)
        .min_by_key(|&&p| (std::cmp::Reverse(distance[at(p)]), p.y, p.x))
        .copied()
        .unwrap_or(region.anchor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Rect, Shape};
    use crate::streams::{Stage, stage_rng};

    const W: usize = 30;

    /// A 30x10 level of three 3x2 rooms along one row, the floor laid.
    fn three_rooms() -> (Vec<Tile>, Vec<Room>) {
        let mut tiles = vec![Tile::Rock; W * 10];
        let rooms: Vec<Room> = [2u16, 12, 22]
            .iter()
            .map(|&x| Room {
                shape: Shape::Rect(Rect {
                    x,
                    y: 4,
                    width: 3,
                    height: 2,
                }),
                doors: Vec::new(),
            })
            .collect();
        for room in &rooms {
            for p in room.shape.cells() {
                tiles[usize::from(p.y) * W + usize::from(p.x)] = Tile::Floor;
            }
        }
        (tiles, rooms)
    }

    /// Stairs placed with rooms 0 to `vault_spots.len() - 1` as vaults.
    fn placed(vault_spots: &[Vec<Pos>], up: usize, down: usize) -> Option<Vec<Stairs>> {
        let (mut tiles, rooms) = three_rooms();
        let counts = StairCounts { up, down };
        let places = StairPlaces { vault_spots };
        let mut rng = stage_rng(1, 1, 0, Stage::Stairs);
        let anchor = anchor(rooms.len(), &counts, &places, &mut rng)?;
        // Distance grows to the right: enough to rank the rooms.
        let distance: Vec<u32> = (0..tiles.len()).map(|c| (c % W) as u32).collect();
        place(
            &mut Scratch::default(),
            W,
            &mut tiles,
            &rooms,
            &counts,
            &places,
            anchor,
            &distance,
            &mut rng,
        )
    }

    fn going(stairs: &[Stairs], direction: StairDirection) -> usize {
        stairs.iter().filter(|s| s.direction == direction).count()
    }

    /// The bug of proptest regression `cc 420e9a4d`: a first level without
    /// an exit needs its down staircases outside the arrival room (room 0),
    /// and a vault without stair cells holds none. With only those two
    /// rooms able to be used, no room is left for the way down: the
    /// attempt must fail, not return a level without it.
    #[test]
    fn no_room_for_the_way_down_fails_the_attempt() {
        let hall = vec![Pos::new(3, 4)];
        let (_, rooms) = three_rooms();
        // Room 0 a vault with a stair cell, room 1 a closet with none, and
        // room 2 a closet too: nothing but the arrival room may hold stairs.
        let spots = [hall.clone(), Vec::new(), Vec::new()];
        assert_eq!(rooms.len(), spots.len());
        assert!(placed(&spots, 0, 1).is_none());
        assert!(placed(&spots, 0, 2).is_none());
        // One ordinary room left: it takes the way down, the farthest.
        let stairs = placed(&[hall.clone(), Vec::new()], 0, 1).unwrap();
        assert_eq!(going(&stairs, StairDirection::Up), 0);
        assert_eq!(going(&stairs, StairDirection::Down), 1);
        assert_eq!(stairs[0].room, 2);
        // But two down staircases need two such rooms.
        assert!(placed(&[hall, Vec::new()], 0, 2).is_none());
    }

    /// With up stairs the arrival room holds the first of them, so it
    /// counts among the rooms; every count asked for is placed exactly.
    #[test]
    fn every_staircase_gets_a_room_of_its_own_or_the_attempt_fails() {
        for (up, down) in [(0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 1), (3, 0)] {
            let stairs = placed(&[], up, down).unwrap();
            assert_eq!(
                (
                    going(&stairs, StairDirection::Up),
                    going(&stairs, StairDirection::Down)
                ),
                (up, down)
            );
            let mut rooms: Vec<u16> = stairs.iter().map(|s| s.room).collect();
            rooms.sort_unstable();
            rooms.dedup();
            assert_eq!(rooms.len(), up + down);
        }
        for (up, down) in [(0, 3), (1, 3), (2, 2), (4, 0)] {
            assert!(placed(&[], up, down).is_none(), "{up} up, {down} down");
        }
    }
}
