//! A generated level: a compact grid of tiles and rock hardness, the rooms
//! with their doors, the stairs, and the level graph derived from the grid.
//!
//! The grid is two flat byte arrays (tile kind and hardness), two bytes a
//! cell, so a 150x150 level is 45 KB and copying or saving one is cheap.

use serde::{Deserialize, Serialize};

use crate::geom::{Dir, Pos, Rect, RegionBox, Shape};
use crate::graph::LevelGraph;
use crate::grid_search::{Bfs, Moves};

pub use crate::layout::{Door, Hardness, Room, StairDirection, Stairs, Tile};

use crate::layout::{is_area_floor, mark_areas};

/// One level of the dungeon.
///
/// Serialised without its graph, which is derived from the grid and read
/// again on load: a saved level cannot carry a graph that disagrees with it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "LevelData")]
pub struct Level {
    pub(crate) depth: u16,
    pub(crate) width: u16,
    pub(crate) height: u16,
    pub(crate) tiles: Vec<Tile>,
    pub(crate) hardness: Vec<u8>,
    pub(crate) rooms: Vec<Room>,
    pub(crate) stairs: Vec<Stairs>,
    pub(crate) graph: LevelGraph,
    /// Each cell's area (index into `rooms` + 1; 0 for none), derived from
    /// the tiles and the areas like the graph: an irregular area's cells
    /// are known only by a flood of the tiles, so it is read once.
    pub(crate) area_of: Vec<u16>,
    /// How many generation attempts were thrown away before this one
    /// (rooms too few, or verification failed). Diagnostic only.
    pub(crate) rejected_attempts: u32,
}

/// A level as stored: everything but the derived graph.
#[derive(Deserialize)]
struct LevelData {
    depth: u16,
    width: u16,
    height: u16,
    tiles: Vec<Tile>,
    hardness: Vec<u8>,
    rooms: Vec<Room>,
    stairs: Vec<Stairs>,
    rejected_attempts: u32,
}

#[derive(Serialize)]
struct LevelRef<'a> {
    depth: u16,
    width: u16,
    height: u16,
    tiles: &'a [Tile],
    /// Each cell's hardness minus the previous cell's (wrapping): the field
    /// is smooth, so the differences are small and compress several times
    /// better than the raw values.
    hardness: Vec<u8>,
    rooms: &'a [Room],
    stairs: &'a [Stairs],
    rejected_attempts: u32,
}

fn deltas(values: &[u8]) -> Vec<u8> {
    let mut prev = 0u8;
    values
        .iter()
        .map(|&v| {
            let d = v.wrapping_sub(prev);
            prev = v;
            d
        })
        .collect()
}

fn undo_deltas(mut values: Vec<u8>) -> Vec<u8> {
    let mut prev = 0u8;
    for v in &mut values {
        *v = v.wrapping_add(prev);
        prev = *v;
    }
    values
}

impl Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LevelRef {
            depth: self.depth,
            width: self.width,
            height: self.height,
            tiles: &self.tiles,
            hardness: deltas(&self.hardness),
            rooms: &self.rooms,
            stairs: &self.stairs,
            rejected_attempts: self.rejected_attempts,
        }
        .serialize(s)
    }
}

impl TryFrom<LevelData> for Level {
    type Error = String;

    /// Checks everything later code relies on before the level exists: a
    /// level read from a file may be damaged or forged, and whatever loads
    /// must be playable. These are the generator's promises that play
    /// keeps (play only opens rock into corridor, from open cells).
    fn try_from(d: LevelData) -> Result<Level, String> {
        let hardness = undo_deltas(d.hardness);
        check_level(d.width, d.height, &d.tiles, &hardness, &d.rooms, &d.stairs)
            .map_err(|what| format!("level {}: {what}", d.depth))?;
        let level = Level::assemble(
            d.depth,
            d.width,
            d.height,
            d.tiles,
            hardness,
            d.rooms,
            d.stairs,
            d.rejected_attempts,
        );
        // Checked on the level itself, as the generator and `delve verify`
        // check it: a forged secret door that cuts a staircase off would
        // strand the player with nothing to find.
        if let Some(what) = level.stranded_by_secret_doors() {
            return Err(format!("level {}: {what}", level.depth));
        }
        Ok(level)
    }
}

/// The checks of a stored level, cheapest first, one a promise; each pass
/// costs about the level's cell count, so a forged level cannot make
/// loading slow.
fn check_level(
    w: u16,
    h: u16,
    tiles: &[Tile],
    hardness: &[u8],
    rooms: &[Room],
    stairs: &[Stairs],
) -> Result<(), String> {
    if w < 3 || h < 3 {
        return Err(format!("{w}x{h} is too small"));
    }
    let (wu, hu) = (usize::from(w), usize::from(h));
    let cells = wu * hu;
    if tiles.len() != cells || hardness.len() != cells {
        return Err(format!(
            "{} tiles and {} hardness values for {w}x{h}",
            tiles.len(),
            hardness.len()
        ));
    }
    let stored = Stored {
        w,
        h,
        tiles,
        hardness,
        rooms,
        stairs,
    };
    let in_vault = stored.vault_boxes()?;
    stored.check_grid(&in_vault)?;
    let owner = stored.room_owners()?;
    stored.check_doors(&in_vault, &owner)?;
    stored.check_stairs(&owner)?;
    stored.check_one_piece()
}

/// A stored level's parts, its sizes checked against each other.
struct Stored<'a> {
    w: u16,
    h: u16,
    tiles: &'a [Tile],
    hardness: &'a [u8],
    rooms: &'a [Room],
    stairs: &'a [Stairs],
}

impl Stored<'_> {
    fn width(&self) -> usize {
        usize::from(self.w)
    }

    fn at(&self, p: Pos) -> usize {
        usize::from(p.y) * self.width() + usize::from(p.x)
    }

    fn inside(&self, p: Pos) -> bool {
        p.x > 0 && p.y > 0 && p.x < self.w - 1 && p.y < self.h - 1
    }

    /// Which cells lie in a vault's box.
    fn vault_boxes(&self) -> Result<Vec<bool>, String> {
        let (w, h, rooms, cells) = (self.w, self.h, self.rooms, self.tiles.len());
        let at = |p: Pos| self.at(p);
        // Vaults own their boxes: their rock may be immutable, and door cells
        // there are drawn rather than opened by corridors.
        let mut in_vault = vec![false; cells];
        for (i, room) in rooms.iter().enumerate() {
            if let Shape::Vault(v) = room.shape {
                if !shape_fits(Shape::Rect(v.bounds), w, h) {
                    return Err(format!("room {i} lies outside the level"));
                }
                for p in Shape::Rect(v.bounds).cells() {
                    in_vault[at(p)] = true;
                }
            }
        }
        Ok(in_vault)
    }

    fn check_grid(&self, in_vault: &[bool]) -> Result<(), String> {
        let (wu, hu) = (self.width(), usize::from(self.h));
        let (tiles, hardness) = (self.tiles, self.hardness);
        // The grid: immutable rock (255) on the border, which every neighbour
        // walk relies on instead of bounds checks; rock inside from 1 to 254,
        // or 255 in a vault; open cells 0.
        for (c, (&tile, &hard)) in tiles.iter().zip(hardness).enumerate() {
            let (x, y) = (c % wu, c / wu);
            let border = x == 0 || y == 0 || x + 1 == wu || y + 1 == hu;
            let fine = match (border, tile) {
                (true, Tile::Rock) => hard == 255,
                (true, _) => return Err(format!("open cell on the border at {x},{y}")),
                (false, Tile::Rock) => (1..=254).contains(&hard) || (hard == 255 && in_vault[c]),
                (false, _) => hard == 0,
            };
            if !fine {
                return Err(format!(
                    "the {} at {x},{y} has hardness {hard}",
                    tile.name()
                ));
            }
        }
        Ok(())
    }

    /// Each cell's room (its index + 1, 0 for none), once the rooms are
    /// checked.
    fn room_owners(&self) -> Result<Vec<u16>, String> {
        let (w, h, wu, rooms, tiles, cells) = (
            self.w,
            self.h,
            self.width(),
            self.rooms,
            self.tiles,
            self.tiles.len(),
        );
        let at = |p: Pos| self.at(p);
        // Rooms: inside the level, apart from each other, all floor (stairs
        // stand on floor); floor only in rooms. `owner` is room index + 1.
        if rooms.len() >= usize::from(u16::MAX) {
            return Err(format!("{} rooms", rooms.len()));
        }
        let mut owner = vec![0u16; cells];
        for (i, room) in rooms.iter().enumerate() {
            let fits = match room.shape {
                Shape::Merged(m) => {
                    (2..=crate::geom::MAX_PARTS).contains(&usize::from(m.len))
                        && m.parts().iter().all(|p| shape_fits(p.shape(), w, h))
                }
                Shape::Vault(v) => shape_fits(Shape::Rect(v.bounds), w, h),
                Shape::Region(r) => {
                    shape_fits(Shape::Rect(r.bounds), w, h) && r.bounds.contains(r.anchor)
                }
                shape => shape_fits(shape, w, h),
            };
            if !fits {
                return Err(format!("room {i} lies outside the level"));
            }
            let me = i as u16 + 1;
            // A vault owns its whole box; its floor is whatever the tiles say,
            // but it has some.
            if let Shape::Vault(v) = room.shape {
                let mut floor = false;
                for p in Shape::Rect(v.bounds).cells() {
                    let c = at(p);
                    if owner[c] != 0 {
                        return Err(format!("rooms {} and {i} overlap at {p}", owner[c] - 1));
                    }
                    owner[c] = me;
                    floor |= matches!(tiles[c], Tile::Floor | Tile::UpStairs | Tile::DownStairs);
                }
                if !floor {
                    return Err(format!("vault room {i} has no floor"));
                }
                continue;
            }
            if let Shape::Region(r) = room.shape {
                self.claim_region(i, r, &mut owner)?;
                continue;
            }
            for part in room.shape.plain_parts() {
                for p in part.cells() {
                    let c = at(p);
                    if owner[c] != 0 && owner[c] != me {
                        return Err(format!("rooms {} and {i} overlap at {p}", owner[c] - 1));
                    }
                    owner[c] = me;
                    if !matches!(tiles[c], Tile::Floor | Tile::UpStairs | Tile::DownStairs) {
                        return Err(format!("room {i} has {} at {p}", tiles[c].name()));
                    }
                }
            }
        }
        if let Some(c) = (0..cells).find(|&c| {
            owner[c] == 0 && matches!(tiles[c], Tile::Floor | Tile::UpStairs | Tile::DownStairs)
        }) {
            return Err(format!(
                "{} outside every room at {}",
                tiles[c].name(),
                Pos::new((c % wu) as u16, (c / wu) as u16)
            ));
        }
        Ok(owner)
    }

    /// Claims a region's floor for area `i`: the floor reached from its
    /// anchor, which must fill its box's extent exactly and meet no other
    /// area's floor (else the two would be one piece of floor).
    fn claim_region(&self, i: usize, r: RegionBox, owner: &mut [u16]) -> Result<(), String> {
        let me = i as u16 + 1;
        let anchor = self.at(r.anchor);
        if !is_area_floor(self.tiles[anchor]) {
            return Err(format!("area {i}'s anchor at {} is no floor", r.anchor));
        }
        if owner[anchor] != 0 {
            return Err(format!(
                "areas {} and {i} overlap at {}",
                owner[anchor] - 1,
                r.anchor
            ));
        }
        owner[anchor] = me;
        let (mut lo, mut hi) = (r.anchor, r.anchor);
        let mut stack = vec![r.anchor];
        while let Some(p) = stack.pop() {
            (lo.x, lo.y, hi.x, hi.y) = (lo.x.min(p.x), lo.y.min(p.y), hi.x.max(p.x), hi.y.max(p.y));
            // Floor is never on the border (checked first), so every
            // neighbour is on the level.
            for d in Dir::ALL {
                let n = Pos::new(
                    (i32::from(p.x) + d.dx()) as u16,
                    (i32::from(p.y) + d.dy()) as u16,
                );
                let c = self.at(n);
                if !is_area_floor(self.tiles[c]) || owner[c] == me {
                    continue;
                }
                if owner[c] != 0 {
                    return Err(format!("areas {} and {i} meet at {n}", owner[c] - 1));
                }
                owner[c] = me;
                stack.push(n);
            }
        }
        let extent = Rect {
            x: lo.x,
            y: lo.y,
            width: hi.x - lo.x + 1,
            height: hi.y - lo.y + 1,
        };
        if extent != r.bounds {
            return Err(format!(
                "area {i}'s floor spans {}x{} at {}, not its box",
                extent.width,
                extent.height,
                Pos::new(extent.x, extent.y)
            ));
        }
        Ok(())
    }

    fn check_doors(&self, in_vault: &[bool], owner: &[u16]) -> Result<(), String> {
        let (wu, rooms, tiles, cells) = (self.width(), self.rooms, self.tiles, self.tiles.len());
        let at = |p: Pos| self.at(p);
        let inside = |p: Pos| self.inside(p);
        // Doors: door tiles (closed, open or secret) in their room's wall,
        // each listed once, and every door tile listed.
        let mut listed = vec![false; cells];
        let mut doors = 0usize;
        for (i, room) in rooms.iter().enumerate() {
            for door in &room.doors {
                let p = door.pos;
                if !inside(p) || !tiles[at(p)].is_door() {
                    return Err(format!("room {i} has a door at {p}, which is no door cell"));
                }
                let c = at(p);
                if listed[c] {
                    return Err(format!("the door at {p} is listed twice"));
                }
                listed[c] = true;
                doors += usize::from(!in_vault[c]);
                if ![c - wu, c + 1, c + wu, c - 1]
                    .iter()
                    .any(|&n| usize::from(owner[n]) == i + 1)
                {
                    return Err(format!("room {i}'s door at {p} is not in its wall"));
                }
            }
        }
        let unlisted_ok = |c: usize| in_vault[c];
        if (0..cells)
            .filter(|&c| tiles[c].is_door() && !unlisted_ok(c))
            .count()
            != doors
        {
            return Err("a door cell belongs to no room".into());
        }
        Ok(())
    }

    fn check_stairs(&self, owner: &[u16]) -> Result<(), String> {
        let (rooms, stairs, tiles) = (self.rooms, self.stairs, self.tiles);
        let at = |p: Pos| self.at(p);
        let inside = |p: Pos| self.inside(p);
        // Stairs: on their own tile, in their own room, one staircase a room,
        // and every stairs tile a staircase (taking stairs looks it up).
        let mut stair_rooms = vec![false; rooms.len()];
        for s in stairs {
            let want = match s.direction {
                StairDirection::Up => Tile::UpStairs,
                StairDirection::Down => Tile::DownStairs,
            };
            let room = usize::from(s.room);
            if !inside(s.pos) || tiles[at(s.pos)] != want || room >= rooms.len() {
                return Err(format!(
                    "the stairs at {} are not on a {} of a room",
                    s.pos,
                    want.name()
                ));
            }
            if usize::from(owner[at(s.pos)]) != room + 1 || stair_rooms[room] {
                return Err(format!(
                    "the stairs at {} are not in room {room}, or share it with other stairs",
                    s.pos
                ));
            }
            stair_rooms[room] = true;
        }
        let stairs_tiles = tiles
            .iter()
            .filter(|t| matches!(t, Tile::UpStairs | Tile::DownStairs))
            .count();
        if stairs_tiles != stairs.len() {
            return Err(format!(
                "{stairs_tiles} stairs tiles for {} staircases",
                stairs.len()
            ));
        }
        Ok(())
    }

    fn check_one_piece(&self) -> Result<(), String> {
        let (wu, tiles, cells) = (self.width(), self.tiles, self.tiles.len());
        // One connected piece (orthogonal steps), as generated: play only
        // opens rock next to open cells, so it stays one piece.
        let first = (0..cells).find(|&c| tiles[c].is_walkable());
        let count = Bfs::default().flood(wu, cells, first, Moves::Orthogonal, |_, n| {
            tiles[n].is_walkable()
        });
        if count != tiles.iter().filter(|t| t.is_walkable()).count() {
            return Err("the level is in more than one piece".into());
        }
        Ok(())
    }
}

/// A floor cell of a room of `shape` ([`Level::room_cell`]), on tiles
/// read through `tile`: the generator asks it before the level is built.
pub(crate) fn room_cell(shape: Shape, tile: impl Fn(Pos) -> Tile) -> Pos {
    match shape {
        Shape::Vault(_) => shape
            .cells()
            .find(|&p| matches!(tile(p), Tile::Floor | Tile::UpStairs | Tile::DownStairs))
            .unwrap_or_else(|| shape.center()),
        _ => shape.center(),
    }
}

/// Whether a plain shape lies inside the level, off its border.
fn shape_fits(shape: Shape, w: u16, h: u16) -> bool {
    match shape {
        Shape::Rect(r) => {
            r.width > 0
                && r.height > 0
                && u32::from(r.x) + u32::from(r.width) < u32::from(w)
                && u32::from(r.y) + u32::from(r.height) < u32::from(h)
                && r.x > 0
                && r.y > 0
        }
        Shape::Circle { center, radius } => {
            center.x > radius
                && center.y > radius
                && u32::from(center.x) + u32::from(radius) < u32::from(w) - 1
                && u32::from(center.y) + u32::from(radius) < u32::from(h) - 1
        }
        Shape::Merged(_) | Shape::Vault(_) | Shape::Region(_) => false,
    }
}

impl Level {
    /// Puts a level together from its grid and rooms, reading the graph off
    /// the grid: the one place a level is built, so its graph can never be
    /// anything but derived.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble(
        depth: u16,
        width: u16,
        height: u16,
        tiles: Vec<Tile>,
        hardness: Vec<u8>,
        rooms: Vec<Room>,
        stairs: Vec<Stairs>,
        rejected_attempts: u32,
    ) -> Level {
        let mut area_of = vec![0; usize::from(width) * usize::from(height)];
        mark_areas(&mut area_of, usize::from(width), &tiles, &rooms, true);
        Level::assemble_with_areas(
            depth,
            (width, height),
            tiles,
            hardness,
            rooms,
            stairs,
            area_of,
            rejected_attempts,
        )
    }

    /// [`Level::assemble`] with the map of areas already drawn, by a
    /// generator that found its areas' cells as it laid them: it must be
    /// the map [`mark_areas`] draws.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn assemble_with_areas(
        depth: u16,
        (width, height): (u16, u16),
        tiles: Vec<Tile>,
        hardness: Vec<u8>,
        rooms: Vec<Room>,
        stairs: Vec<Stairs>,
        area_of: Vec<u16>,
        rejected_attempts: u32,
    ) -> Level {
        debug_assert_eq!(area_of, {
            let mut marked = vec![0; area_of.len()];
            mark_areas(&mut marked, usize::from(width), &tiles, &rooms, true);
            marked
        });
        let graph = LevelGraph::from_areas(width, height, &tiles, &area_of, rooms.len());
        Level {
            depth,
            width,
            height,
            tiles,
            hardness,
            rooms,
            stairs,
            graph,
            area_of,
            rejected_attempts,
        }
    }

    /// The level's place in the stack, 1 at the top.
    pub fn depth(&self) -> u16 {
        self.depth
    }

    /// Cells across, rock border included.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Cells down, rock border included.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Rooms in placement order; [`Stairs::room`] and the graph's room nodes index this.
    pub fn rooms(&self) -> &[Room] {
        &self.rooms
    }

    /// Every staircase, up and down, in link order within each direction.
    pub fn stairs(&self) -> &[Stairs] {
        &self.stairs
    }

    /// The rooms-and-corridors graph, derived from the grid when the level is built.
    pub fn graph(&self) -> &LevelGraph {
        &self.graph
    }

    /// Attempts thrown away before this level was made (0 when the first one succeeded).
    pub fn rejected_attempts(&self) -> u32 {
        self.rejected_attempts
    }

    /// Stairs leading in one direction, in link order.
    pub fn stairs_going(&self, direction: StairDirection) -> impl Iterator<Item = &Stairs> {
        self.stairs.iter().filter(move |s| s.direction == direction)
    }

    /// Whether signed coordinates fall on the level, before converting them to a [`Pos`].
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < i32::from(self.width) && y < i32::from(self.height)
    }

    /// Index of `p` in [`Level::tiles`] and [`Level::hardness_grid`]: row-major.
    pub fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * usize::from(self.width) + usize::from(p.x)
    }

    /// The cell at a row-major index, the inverse of [`Level::index`].
    pub fn pos(&self, index: usize) -> Pos {
        let w = usize::from(self.width);
        Pos::new((index % w) as u16, (index / w) as u16)
    }

    /// What stands on `p`, which must be on the level.
    pub fn tile(&self, p: Pos) -> Tile {
        self.tiles[self.index(p)]
    }

    /// Hardness of `p` (0 for open cells), which must be on the level.
    pub fn hardness(&self, p: Pos) -> Hardness {
        Hardness(self.hardness[self.index(p)])
    }

    /// Every cell's tile, row-major (see [`Level::index`]).
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// Every cell's hardness value, row-major (see [`Level::index`]).
    pub fn hardness_grid(&self) -> &[u8] {
        &self.hardness
    }

    /// Whether `p` is in the outer ring of immutable rock.
    pub fn is_border(&self, p: Pos) -> bool {
        p.x == 0 || p.y == 0 || p.x == self.width - 1 || p.y == self.height - 1
    }

    /// The orthogonal neighbour of `p` in direction `d`, if inside the level.
    pub fn step(&self, p: Pos, d: Dir) -> Option<Pos> {
        let x = i32::from(p.x) + d.dx();
        let y = i32::from(p.y) + d.dy();
        self.in_bounds(x, y).then(|| Pos::new(x as u16, y as u16))
    }

    /// A floor cell of room `i` to start from or measure by: its centre,
    /// or for a vault (whose centre may be rock) its first floor cell.
    pub fn room_cell(&self, i: usize) -> Pos {
        room_cell(self.rooms[i].shape, |p| self.tile(p))
    }

    /// The index of the room whose outline holds `p` (a vault's whole
    /// box; a region's floor alone).
    pub fn room_at(&self, p: Pos) -> Option<usize> {
        self.area_of(p).or_else(|| {
            self.rooms
                .iter()
                .position(|r| matches!(r.shape, Shape::Vault(_)) && r.contains(p))
        })
    }

    /// The index of the area (room, vault or region) whose floor `p` is,
    /// stairs included; `None` off every area's floor.
    pub fn area_of(&self, p: Pos) -> Option<usize> {
        let id = *self.area_of.get(self.index(p))?;
        (id != 0).then(|| usize::from(id) - 1)
    }

    /// One row as 002 draws it: exactly `width` characters, a secret door
    /// drawn as the rock it looks like.
    pub fn row_string(&self, y: u16) -> String {
        let w = usize::from(self.width);
        let start = usize::from(y) * w;
        self.tiles[start..start + w]
            .iter()
            .map(|t| t.glyph())
            .collect()
    }

    /// One row as it truly is: [`Level::row_string`], but a secret door
    /// drawn `+`, the door it is (`delve generate --reveal`, JSON rows).
    pub fn revealed_row_string(&self, y: u16) -> String {
        let w = usize::from(self.width);
        let start = usize::from(y) * w;
        self.tiles[start..start + w]
            .iter()
            .map(|&t| match t {
                Tile::SecretDoor => Tile::Door.glyph(),
                t => t.glyph(),
            })
            .collect()
    }

    /// Where a run stands on arriving at this level other than by stairs
    /// (the first level's start, a life lost): its first up staircase, or,
    /// on a level without one, a floor cell of its first room.
    pub fn start(&self) -> Pos {
        self.stairs_going(StairDirection::Up)
            .next()
            .map(|s| s.pos)
            .unwrap_or_else(|| self.room_cell(0))
    }

    /// The cells the player must be able to walk between without finding
    /// a secret door: every staircase, and on a level without an up
    /// staircase the start ([`Level::start`]).
    fn anchors(&self) -> Vec<Pos> {
        let mut anchors: Vec<Pos> = self.stairs.iter().map(|s| s.pos).collect();
        if self.stairs_going(StairDirection::Up).next().is_none() && !self.rooms.is_empty() {
            let start = self.start();
            if self.tile(start).is_walkable() {
                anchors.push(start);
            }
        }
        anchors
    }

    /// The promise secret doors keep, checked: from any staircase every
    /// other (and the start, on a level without an up staircase) is
    /// reachable without passing a secret door, so secret doors only ever
    /// add shortcuts and side rooms. `None` when it holds; otherwise which
    /// place is cut off, in words. One flood over the level's cells.
    pub fn stranded_by_secret_doors(&self) -> Option<String> {
        if !self.tiles.contains(&Tile::SecretDoor) {
            return None;
        }
        let anchors = self.anchors();
        let first = *anchors.first()?;
        let w = usize::from(self.width);
        let tiles = &self.tiles;
        let mut bfs = Bfs::default();
        bfs.flood(
            w,
            tiles.len(),
            Some(self.index(first)),
            Moves::Orthogonal,
            |_, n| tiles[n].is_walkable() && tiles[n] != Tile::SecretDoor,
        );
        let cut = anchors
            .iter()
            .find(|&&p| bfs.dist(self.index(p)) == Bfs::UNREACHED)?;
        let what = match self.tile(*cut) {
            Tile::UpStairs => "the up staircase",
            Tile::DownStairs => "the down staircase",
            _ => "the start",
        };
        Some(format!(
            "{what} at {cut} is reached from {first} only through a secret door"
        ))
    }

    /// Number of walkable cells.
    pub fn open_cells(&self) -> usize {
        self.tiles.iter().filter(|t| t.is_walkable()).count()
    }
}

impl Level {
    /// A level drawn by hand in 002's glyphs, for tests and tools: space
    /// rock, `.` floor, `#` corridor, `+` door, `<` and `>` stairs; and
    /// `'` an open door, `S` a secret door (rules 3). Rock is
    /// of middling hardness (127), the border immutable. `rooms` outlines
    /// the rooms; each staircase belongs to the room holding it (or room 0).
    ///
    /// Rows must all be `width` long; the border must be rock.
    pub fn from_rows(depth: u16, rows: &[&str], rooms: Vec<Room>) -> Level {
        let height = rows.len() as u16;
        let width = rows.first().map_or(0, |r| r.chars().count()) as u16;
        let mut tiles = Vec::with_capacity(usize::from(width) * usize::from(height));
        let mut hardness = Vec::with_capacity(tiles.capacity());
        let mut stairs = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            assert_eq!(
                row.chars().count(),
                usize::from(width),
                "row {y} has the wrong width"
            );
            for (x, ch) in row.chars().enumerate() {
                let tile = match ch {
                    '.' => Tile::Floor,
                    '#' => Tile::Corridor,
                    '+' => Tile::Door,
                    '\'' => Tile::OpenDoor,
                    'S' => Tile::SecretDoor,
                    '<' => Tile::UpStairs,
                    '>' => Tile::DownStairs,
                    _ => Tile::Rock,
                };
                let border =
                    x == 0 || y == 0 || x + 1 == usize::from(width) || y + 1 == usize::from(height);
                assert!(
                    !border || tile == Tile::Rock,
                    "open cell on the border at {x},{y}"
                );
                let pos = Pos::new(x as u16, y as u16);
                if let Some(direction) = match tile {
                    Tile::UpStairs => Some(StairDirection::Up),
                    Tile::DownStairs => Some(StairDirection::Down),
                    _ => None,
                } {
                    let room = rooms.iter().position(|r| r.contains(pos)).unwrap_or(0) as u16;
                    stairs.push(Stairs {
                        pos,
                        direction,
                        room,
                    });
                }
                tiles.push(tile);
                hardness.push(if border {
                    255
                } else if tile == Tile::Rock {
                    127
                } else {
                    0
                });
            }
        }
        // Up stairs first, as the generator orders them.
        stairs.sort_by_key(|s| s.direction != StairDirection::Up);
        Level::assemble(depth, width, height, tiles, hardness, rooms, stairs, 0)
    }

    /// Wears the rock at `p` down by `amount`; when nothing is left it
    /// becomes corridor and the level graph is read again. Returns whether
    /// the cell opened. The border is never worn.
    pub(crate) fn dig(&mut self, p: Pos, amount: u8) -> bool {
        let i = self.index(p);
        if self.tiles[i] != Tile::Rock || self.hardness[i] == 255 {
            return false;
        }
        self.hardness[i] = self.hardness[i].saturating_sub(amount);
        if self.hardness[i] > 0 {
            return false;
        }
        self.tiles[i] = Tile::Corridor;
        self.graph = LevelGraph::from_areas(
            self.width,
            self.height,
            &self.tiles,
            &self.area_of,
            self.rooms.len(),
        );
        true
    }

    /// Turns the door at `p` into another state of door (opened, closed,
    /// found): the graph stays as it is, since a door of every state is
    /// part of the level's network. False, with nothing changed, if `p` or
    /// `tile` is not a door.
    pub(crate) fn set_door(&mut self, p: Pos, tile: Tile) -> bool {
        let i = self.index(p);
        if !self.tiles[i].is_door() || !tile.is_door() {
            return false;
        }
        self.tiles[i] = tile;
        true
    }

    /// The index in [`Level::stairs`] of the staircase at `p`.
    pub fn stairs_at(&self, p: Pos) -> Option<usize> {
        self.stairs.iter().position(|s| s.pos == p)
    }
}
