//! The generator's promises, one function a rule, named for the rule as
//! ARCHITECTURE.md ("Invariants") and the guide state it; `level` checks
//! a level against all of them. Property tests run it over many seeds
//! and configs.

use delve::config::LevelKind;
use delve::{Config, Level, Pos, Shape, StairDirection, Tile};

/// Asserts every promise the generator makes about one level. `config`
/// is the whole stack's: the level is held to its own depth's settings,
/// its profiles applied. The rules every level keeps, then those of its
/// kind.
pub fn level(level: &Level, config: &Config) {
    let cells = Cells::of(level);
    let own = config.at_depth(level.depth());
    every_level(level, config, &cells);
    match own.kind {
        LevelKind::Rooms => rooms_and_corridors(level, &own, &cells),
        LevelKind::Cave => cave(&cells),
        LevelKind::Labyrinth => labyrinth(&cells),
    }
}

/// The rules of every kind of level: its size and border, areas that are
/// floor and apart, doors that lead somewhere, the stairs its depth
/// needs, one connected piece, and a graph that agrees with the tiles.
pub fn every_level(level: &Level, config: &Config, cells: &Cells) {
    size_is_the_configured_one(level, config);
    border_is_solid(cells);
    hardness_fits_the_tile(cells);
    rooms_lie_inside_the_border(cells);
    rooms_never_overlap(cells);
    room_cells_are_floor(cells);
    areas_are_separate_pieces(cells);
    outside_rooms_only_rock_corridors_and_doors(cells);
    every_door_tile_is_a_rooms_door(cells);
    every_door_leads_somewhere(cells);
    stairs_as_many_as_the_depth_needs(level, config);
    stairs_stand_on_their_rooms_floor(cells);
    stairs_in_different_rooms(level);
    one_connected_piece(cells);
    graph_agrees_with_flood_fill(level);
    secret_doors_never_cut_a_staircase_off(level, config);
}

/// The rules of rooms and corridors: rooms as configured and apart,
/// entered only through doors, each door joining its room to a corridor.
pub fn rooms_and_corridors(level: &Level, own: &Config, cells: &Cells) {
    rooms_are_as_many_and_as_large_as_configured(level, own);
    rooms_keep_their_gap(cells);
    corridors_stay_out_of_room_rings(cells);
    doors_at_most_max_per_room(level, own);
    doors_join_their_room_to_a_corridor(cells);
}

/// The rules of caves: every area is a chamber wider than a passage.
pub fn cave(cells: &Cells) {
    chambers_are_wider_than_passages(cells);
}

/// The rules of labyrinths: corridors one cell wide, areas apart.
pub fn labyrinth(cells: &Cells) {
    maze_corridors_are_one_cell_wide(cells);
    rooms_keep_their_gap(cells);
}

/// No two areas' floors meet orthogonally: each area is a piece of floor
/// of its own (else a region's floor would run into another's).
pub fn areas_are_separate_pieces(cells: &Cells) {
    for (c, around) in cells.interior_with_neighbours() {
        let me = cells.room_of[c];
        // The orthogonal neighbours: up, left, right, down.
        for n in [around[1], around[3], around[4], around[6]] {
            let other = cells.room_of[n];
            if me != 0 && other != 0 {
                let (x, y) = cells.at(c);
                assert_eq!(me, other, "areas {me} and {other} meet at {x},{y}");
            }
        }
    }
}

/// Every cell of a cave's chambers lies in a 3x3 block of floor: chambers
/// are wider than a passage, and narrower ground is passage. Only the
/// automaton's ground is floor, so this holds cell by cell.
pub fn chambers_are_wider_than_passages(cells: &Cells) {
    let floor = |c: usize| cells.room_of[c] != 0;
    let w = cells.width;
    for (c, _) in cells.interior_with_neighbours() {
        if !floor(c) || cells.in_vault(c) {
            continue;
        }
        let (x, y) = cells.at(c);
        let in_block = (y.saturating_sub(1).max(1)..=y + 1).any(|cy| {
            (x.saturating_sub(1).max(1)..=x + 1).any(|cx| {
                cx + 1 < w
                    && cy + 1 < cells.height
                    && (cy - 1..=cy + 1).all(|by| (cx - 1..=cx + 1).all(|bx| floor(by * w + bx)))
            })
        });
        assert!(
            in_block,
            "chamber floor at {x},{y} is in no 3x3 block of floor"
        );
    }
}

/// A labyrinth's corridors are one cell wide: no 2x2 block of corridor.
pub fn maze_corridors_are_one_cell_wide(cells: &Cells) {
    let w = cells.width;
    let corridor = |c: usize| cells.tiles()[c] == Tile::Corridor;
    for (c, _) in cells.interior_with_neighbours() {
        if corridor(c) && corridor(c + 1) && corridor(c + w) && corridor(c + w + 1) {
            let (x, y) = cells.at(c);
            panic!("a 2x2 block of corridor at {x},{y}");
        }
    }
}

/// A level's cells with, for each, the room whose floor it is (1-based; 0
/// for none): what the rules about rooms are checked against. A vault owns
/// its whole box (`owner`), but only the floor in it is the room's
/// (`room_of`): its own rock, corridor and doors are drawn, and checked
/// against the drawing by the vault tests.
pub struct Cells<'a> {
    pub level: &'a Level,
    pub width: usize,
    pub height: usize,
    pub room_of: Vec<u16>,
    pub owner: Vec<u16>,
}

impl<'a> Cells<'a> {
    pub fn of(level: &'a Level) -> Cells<'a> {
        let (width, height) = (usize::from(level.width()), usize::from(level.height()));
        let mut room_of = vec![0u16; width * height];
        let mut owner = vec![0u16; width * height];
        for (i, room) in level.rooms().iter().enumerate() {
            if let Shape::Region(r) = room.shape {
                // The floor reached from the anchor inside the box, found
                // here, not asked of the level.
                let floor = |c: usize| {
                    matches!(
                        level.tiles()[c],
                        Tile::Floor | Tile::UpStairs | Tile::DownStairs
                    )
                };
                let mut todo = vec![r.anchor];
                while let Some(p) = todo.pop() {
                    let c = usize::from(p.y) * width + usize::from(p.x);
                    if !r.bounds.contains(p) || !floor(c) || owner[c] != 0 {
                        continue;
                    }
                    owner[c] = i as u16 + 1;
                    room_of[c] = i as u16 + 1;
                    todo.extend([
                        Pos::new(p.x - 1, p.y),
                        Pos::new(p.x + 1, p.y),
                        Pos::new(p.x, p.y - 1),
                        Pos::new(p.x, p.y + 1),
                    ]);
                }
                continue;
            }
            let vault = matches!(room.shape, Shape::Vault(_));
            for p in room.shape.cells() {
                let c = usize::from(p.y) * width + usize::from(p.x);
                // Overlap is for `rooms_never_overlap` to report; the
                // first room keeps the cell.
                if c < owner.len() && owner[c] == 0 {
                    owner[c] = i as u16 + 1;
                    let floor = matches!(
                        level.tiles()[c],
                        Tile::Floor | Tile::UpStairs | Tile::DownStairs
                    );
                    if !vault || floor {
                        room_of[c] = i as u16 + 1;
                    }
                }
            }
        }
        Cells {
            level,
            width,
            height,
            room_of,
            owner,
        }
    }

    /// Whether the cell is in a vault's box.
    fn in_vault(&self, c: usize) -> bool {
        let o = self.owner[c];
        o != 0
            && matches!(
                self.level.rooms()[usize::from(o) - 1].shape,
                Shape::Vault(_)
            )
    }

    fn index(&self, p: Pos) -> usize {
        usize::from(p.y) * self.width + usize::from(p.x)
    }

    /// The cells of room `i`: its shape's, or a region's floor as found.
    pub fn room_cells(&self, i: usize) -> Vec<Pos> {
        let shape = self.level.rooms()[i].shape;
        match shape {
            Shape::Region(r) => Shape::Rect(r.bounds)
                .cells()
                .filter(|&p| usize::from(self.room_of[self.index(p)]) == i + 1)
                .collect(),
            _ => shape.cells().collect(),
        }
    }

    fn tiles(&self) -> &'a [Tile] {
        self.level.tiles()
    }

    fn on_border(&self, c: usize) -> bool {
        let (x, y) = (c % self.width, c / self.width);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// The interior cells and their eight neighbours, as indices.
    fn interior_with_neighbours(&self) -> impl Iterator<Item = (usize, [usize; 8])> + '_ {
        let w = self.width;
        (1..self.height - 1).flat_map(move |y| {
            (1..w - 1).map(move |x| {
                let c = y * w + x;
                let n = [
                    c - w - 1,
                    c - w,
                    c - w + 1,
                    c - 1,
                    c + 1,
                    c + w - 1,
                    c + w,
                    c + w + 1,
                ];
                (c, n)
            })
        })
    }

    fn at(&self, c: usize) -> (usize, usize) {
        (c % self.width, c / self.width)
    }
}

/// The level has the size the config asks for.
pub fn size_is_the_configured_one(level: &Level, config: &Config) {
    assert_eq!(
        (level.width(), level.height()),
        (config.width, config.height)
    );
    assert_eq!(
        level.tiles().len(),
        usize::from(config.width) * usize::from(config.height)
    );
}

/// The border is immutable rock (hardness 255): never carved, never walkable.
pub fn border_is_solid(cells: &Cells) {
    let hard = cells.level.hardness_grid();
    for (c, &tile) in cells.tiles().iter().enumerate() {
        if cells.on_border(c) {
            let (x, y) = cells.at(c);
            assert_eq!(tile, Tile::Rock, "border cell {x},{y} is open");
            assert_eq!(hard[c], 255, "border cell {x},{y} is not immutable");
        }
    }
}

/// Inside the border, rock has hardness 1..=254 and open cells 0.
pub fn hardness_fits_the_tile(cells: &Cells) {
    let hard = cells.level.hardness_grid();
    for (c, &tile) in cells.tiles().iter().enumerate() {
        if cells.on_border(c) {
            continue;
        }
        let (x, y) = cells.at(c);
        if tile == Tile::Rock {
            // A vault's own rock is immutable: no tunneller digs it.
            assert!(
                (1..=254).contains(&hard[c]) || (hard[c] == 255 && cells.in_vault(c)),
                "rock {x},{y} hardness {}",
                hard[c]
            );
        } else {
            assert_eq!(hard[c], 0, "open cell {x},{y} has hardness");
        }
    }
}

/// The room count is within the config's range, every room is at least
/// 3x2, and rectangles have the configured sizes.
pub fn rooms_are_as_many_and_as_large_as_configured(level: &Level, config: &Config) {
    let rooms = level.rooms();
    let rc = &config.rooms;
    assert!(
        (usize::from(rc.count.min)..=usize::from(rc.count.max)).contains(&rooms.len()),
        "{} rooms, expected {:?}",
        rooms.len(),
        rc.count
    );
    for (i, room) in rooms.iter().enumerate() {
        let b = room.shape.bounds();
        assert!(b.width >= 3 && b.height >= 2, "room {i} too small: {b:?}");
        if let Shape::Rect(r) = room.shape {
            assert!(
                (rc.width.min..=rc.width.max).contains(&r.width),
                "room {i}: {r:?}"
            );
            assert!(
                (rc.height.min..=rc.height.max).contains(&r.height),
                "room {i}: {r:?}"
            );
        }
    }
}

/// No room cell lies on or past the border.
pub fn rooms_lie_inside_the_border(cells: &Cells) {
    for i in 0..cells.level.rooms().len() {
        for p in cells.room_cells(i) {
            assert!(
                p.x > 0
                    && p.y > 0
                    && usize::from(p.x) + 1 < cells.width
                    && usize::from(p.y) + 1 < cells.height,
                "room {i} cell {p:?} is not inside the border"
            );
        }
    }
}

/// No cell is the floor of two rooms.
pub fn rooms_never_overlap(cells: &Cells) {
    for i in 0..cells.level.rooms().len() {
        for p in cells.room_cells(i) {
            let owner = cells.owner[cells.index(p)];
            assert_eq!(
                usize::from(owner),
                i + 1,
                "rooms overlap at {p:?}: room {i} and room {}",
                owner - 1
            );
        }
    }
}

/// Every room cell is floor or stairs (a vault's floor is what its
/// drawing makes it; it has some).
pub fn room_cells_are_floor(cells: &Cells) {
    for (i, room) in cells.level.rooms().iter().enumerate() {
        if let Shape::Vault(_) = room.shape {
            assert!(
                cells.room_of.contains(&(i as u16 + 1)),
                "vault room {i} has no floor"
            );
            continue;
        }
        if let Shape::Region(r) = room.shape {
            let t = cells.tiles()[cells.index(r.anchor)];
            assert!(
                matches!(t, Tile::Floor | Tile::UpStairs | Tile::DownStairs),
                "area {i}'s anchor {:?} is {t:?}",
                r.anchor
            );
            let found = cells.room_cells(i);
            let (x0, y0) = (
                found.iter().map(|p| p.x).min(),
                found.iter().map(|p| p.y).min(),
            );
            let (x1, y1) = (
                found.iter().map(|p| p.x).max(),
                found.iter().map(|p| p.y).max(),
            );
            assert_eq!(
                (x0, y0, x1, y1),
                (
                    Some(r.bounds.x),
                    Some(r.bounds.y),
                    Some(r.bounds.right()),
                    Some(r.bounds.bottom())
                ),
                "area {i}'s box is not its floor's extent"
            );
            continue;
        }
        for p in room.shape.cells() {
            let t = cells.tiles()[cells.index(p)];
            assert!(
                matches!(t, Tile::Floor | Tile::UpStairs | Tile::DownStairs),
                "room {i} cell {p:?} is {t:?}"
            );
        }
    }
}

/// Rooms never touch, not even diagonally: a cell of rock at least
/// between any two.
pub fn rooms_keep_their_gap(cells: &Cells) {
    for (c, around) in cells.interior_with_neighbours() {
        let me = cells.owner[c];
        for n in around {
            let other = cells.owner[n];
            if me != 0 && other != 0 {
                let (x, y) = cells.at(c);
                assert_eq!(me, other, "rooms {me} and {other} touch at {x},{y}");
            }
        }
    }
}

/// Corridors never enter a room's ring (the cells within one cell of its
/// floor, diagonals included): rooms are entered only through doors.
pub fn corridors_stay_out_of_room_rings(cells: &Cells) {
    for (c, around) in cells.interior_with_neighbours() {
        // A vault's own corridor is drawn inside it.
        if cells.tiles()[c] != Tile::Corridor || cells.in_vault(c) {
            continue;
        }
        for n in around {
            let other = cells.room_of[n];
            let (x, y) = cells.at(c);
            assert_eq!(other, 0, "corridor {x},{y} touches room {other}");
        }
    }
}

/// Outside rooms there is only rock, corridor and door (a generated door
/// closed, or secret).
pub fn outside_rooms_only_rock_corridors_and_doors(cells: &Cells) {
    for (c, &tile) in cells.tiles().iter().enumerate() {
        if cells.room_of[c] == 0 {
            let (x, y) = cells.at(c);
            assert!(
                matches!(
                    tile,
                    Tile::Rock | Tile::Corridor | Tile::Door | Tile::SecretDoor
                ),
                "{tile:?} outside any room at {x},{y}"
            );
        }
    }
}

/// At most `rooms.max_doors` doors a room.
pub fn doors_at_most_max_per_room(level: &Level, config: &Config) {
    for (i, room) in level.rooms().iter().enumerate() {
        assert!(
            room.doors.len() <= usize::from(config.rooms.max_doors),
            "room {i} has {} doors",
            room.doors.len()
        );
    }
}

/// A door is a door tile beside its own room's floor (and no other
/// room's) and beside a corridor: doors open only at door candidates.
pub fn doors_join_their_room_to_a_corridor(cells: &Cells) {
    let w = cells.width;
    let tiles = cells.tiles();
    for (i, room) in cells.level.rooms().iter().enumerate() {
        for d in &room.doors {
            let c = cells.index(d.pos);
            assert!(
                matches!(tiles[c], Tile::Door | Tile::SecretDoor),
                "door {:?} is no door tile",
                d.pos
            );
            assert!(!cells.on_border(c), "door {:?} on the border", d.pos);
            let orth = [c - w, c + 1, c + w, c - 1];
            // A vault's door may lead to its own corridor rather than floor.
            let mine = |o: usize| {
                usize::from(cells.room_of[o]) == i + 1
                    || (cells.in_vault(o) && usize::from(cells.owner[o]) == i + 1)
            };
            assert!(
                orth.iter().any(|&o| mine(o)),
                "door {:?} off its room",
                d.pos
            );
            assert!(
                orth.iter().any(|&o| tiles[o] == Tile::Corridor),
                "door {:?} has no corridor",
                d.pos
            );
            assert!(
                orth.iter()
                    .map(|&o| cells.room_of[o])
                    .all(|r| r == 0 || usize::from(r) == i + 1),
                "door {:?} opens onto two rooms",
                d.pos
            );
        }
    }
}

/// Every door tile is some room's door: no stray doors (a vault's doors
/// are drawn, joined by corridors or not).
pub fn every_door_tile_is_a_rooms_door(cells: &Cells) {
    let listed = |c: usize| !cells.in_vault(c);
    let doors: usize = cells
        .level
        .rooms()
        .iter()
        .flat_map(|r| &r.doors)
        .filter(|d| listed(cells.index(d.pos)))
        .count();
    assert_eq!(
        doors,
        (0..cells.tiles().len())
            .filter(|&c| cells.tiles()[c].is_door() && listed(c))
            .count(),
        "stray door tiles"
    );
}

/// Every door tile leads somewhere: the doorway it is part of (doors side
/// by side, as a vault may draw `+++`) has a room's floor or a vault's own
/// corridor on one side and, on another, a corridor or a room's floor. A
/// vault's doors count as well as listed ones: a drawn door that no
/// corridor reached, opening onto rock, breaks it.
pub fn every_door_leads_somewhere(cells: &Cells) {
    for (c, &tile) in cells.tiles().iter().enumerate() {
        if tile.is_door() {
            let (x, y) = cells.at(c);
            let w = cells.width;
            assert!(
                door_leads_somewhere(cells, c),
                "door {x},{y} at depth {} leads nowhere: {:?}",
                cells.level.depth(),
                [c - w, c + 1, c + w, c - 1].map(|o| cells.tiles()[o])
            );
        }
    }
}

/// Whether door tile `c` (off the border) is part of a doorway, its run
/// of side-by-side doors, with a room's floor or a vault's own corridor
/// on one side and a corridor or a room's floor on another.
pub fn door_leads_somewhere(cells: &Cells, c: usize) -> bool {
    let tiles = cells.tiles();
    let w = cells.width;
    let room = |o: usize| cells.room_of[o] != 0;
    let inside = |o: usize| room(o) || (tiles[o] == Tile::Corridor && cells.in_vault(o));
    let onward = |o: usize| room(o) || tiles[o] == Tile::Corridor;
    let (mut doorway, mut around) = (vec![c], Vec::new());
    let mut i = 0;
    while let Some(&d) = doorway.get(i) {
        i += 1;
        if cells.on_border(d) {
            return false;
        }
        for o in [d - w, d + 1, d + w, d - 1] {
            if tiles[o].is_door() {
                if !doorway.contains(&o) {
                    doorway.push(o);
                }
            } else if !around.contains(&o) {
                around.push(o);
            }
        }
    }
    around
        .iter()
        .any(|&a| inside(a) && around.iter().any(|&b| b != a && onward(b)))
}

/// `stairs.per_level` of the depth down, and as many up as the depth above
/// has down (the same count unless profiles change it); none down from the
/// bottom, and depth 1's way up only when its config has an exit there.
pub fn stairs_as_many_as_the_depth_needs(level: &Level, config: &Config) {
    let depth = level.depth();
    let per = |d: u16| usize::from(config.at_depth(d).stairs.per_level);
    let want_up = if depth == 1 {
        usize::from(config.at_depth(1).stairs.exit_on_first_level)
    } else {
        per(depth - 1)
    };
    let want_down = if depth == config.levels {
        0
    } else {
        per(depth)
    };
    assert_eq!(
        (
            level.stairs_going(StairDirection::Up).count(),
            level.stairs_going(StairDirection::Down).count()
        ),
        (want_up, want_down),
        "stair counts at depth {depth}"
    );
}

/// Stairs stand on their room's floor, as the tile of their direction.
pub fn stairs_stand_on_their_rooms_floor(cells: &Cells) {
    for s in cells.level.stairs() {
        assert!(
            usize::from(cells.room_of[cells.index(s.pos)]) == usize::from(s.room) + 1,
            "stairs {:?} not in room {}",
            s.pos,
            s.room
        );
        let want = match s.direction {
            StairDirection::Up => Tile::UpStairs,
            StairDirection::Down => Tile::DownStairs,
        };
        assert_eq!(
            cells.tiles()[cells.index(s.pos)],
            want,
            "stairs {:?}",
            s.pos
        );
    }
}

/// No two staircases share a room, so up and down are apart.
pub fn stairs_in_different_rooms(level: &Level) {
    let mut stair_rooms: Vec<u16> = level.stairs().iter().map(|s| s.room).collect();
    stair_rooms.sort_unstable();
    stair_rooms.dedup();
    assert_eq!(
        stair_rooms.len(),
        level.stairs().len(),
        "two staircases share a room"
    );
}

/// Every walkable cell is reachable from every other (orthogonal steps):
/// one flood-fill piece.
pub fn one_connected_piece(cells: &Cells) {
    let labels = flood_labels(cells.width, cells.height, cells.tiles());
    assert!(
        labels.iter().all(|&l| l == u32::MAX || l == 0),
        "depth {} has several pieces",
        cells.level.depth()
    );
}

/// The level's graph agrees with its cells: one component, and rooms
/// grouped as a flood fill of the cells groups them.
pub fn graph_agrees_with_flood_fill(level: &Level) {
    let graph = level.graph();
    assert_eq!(graph.components(), 1, "graph has several pieces");
    let room_labels = graph.room_components();
    assert!(
        room_labels.iter().all(|&l| l == room_labels[0]),
        "graph: rooms in several pieces"
    );
    rooms_grouped_as_the_flood_fill_finds(
        &room_labels,
        level.width(),
        level.tiles(),
        level.rooms(),
    );
}

/// Secret doors (rules 3, `secret_doors`) hide only doors off the way
/// between staircases: a flood from one staircase over walkable cells but
/// secret doors reaches every other staircase, and on a level without an
/// up staircase the start (room 0's cell); and a level whose config hides
/// none, or whose rules have no secret doors, has none. Checked here by
/// its own flood, apart from the generator's and the loader's.
pub fn secret_doors_never_cut_a_staircase_off(level: &Level, config: &Config) {
    let secret: Vec<usize> = (0..level.tiles().len())
        .filter(|&c| level.tiles()[c] == Tile::SecretDoor)
        .collect();
    if config.secret_doors_at(level.depth()) == 0.0 {
        assert!(
            secret.is_empty(),
            "depth {}: secret doors where none are hidden",
            level.depth()
        );
        return;
    }
    let open: Vec<Tile> = level
        .tiles()
        .iter()
        .map(|&t| if t == Tile::SecretDoor { Tile::Rock } else { t })
        .collect();
    let labels = flood_labels(
        usize::from(level.width()),
        usize::from(level.height()),
        &open,
    );
    let mut anchors: Vec<Pos> = level.stairs().iter().map(|s| s.pos).collect();
    if level.stairs_going(StairDirection::Up).next().is_none() {
        anchors.push(level.start());
    }
    let label = |p: Pos| labels[level.index(p)];
    for &a in &anchors {
        assert_eq!(
            label(a),
            label(anchors[0]),
            "depth {}: {a:?} is cut off from {:?} by secret doors {:?}",
            level.depth(),
            anchors[0],
            secret.iter().map(|&c| level.pos(c)).collect::<Vec<_>>()
        );
    }
    assert_eq!(level.stranded_by_secret_doors(), None);
}

/// Flood-fill labels over walkable cells, orthogonal steps; `u32::MAX` for rock.
pub fn flood_labels(width: usize, height: usize, tiles: &[Tile]) -> Vec<u32> {
    let mut label = vec![u32::MAX; tiles.len()];
    let mut next = 0;
    let mut stack = Vec::new();
    for start in 0..tiles.len() {
        if !tiles[start].is_walkable() || label[start] != u32::MAX {
            continue;
        }
        label[start] = next;
        stack.push(start);
        while let Some(c) = stack.pop() {
            let (x, y) = (c % width, c / width);
            let mut visit = |n: usize| {
                if tiles[n].is_walkable() && label[n] == u32::MAX {
                    label[n] = next;
                    stack.push(n);
                }
            };
            if x > 0 {
                visit(c - 1);
            }
            if x + 1 < width {
                visit(c + 1);
            }
            if y > 0 {
                visit(c - width);
            }
            if y + 1 < height {
                visit(c + width);
            }
        }
        next += 1;
    }
    label
}

/// Asserts that the room connectivity of a graph built over `tiles`
/// matches a flood fill of them, for any grid (connected or not).
pub fn graph_agrees_with_flood(width: u16, height: u16, tiles: &[Tile], rooms: &[delve::Room]) {
    let graph = delve::LevelGraph::build(width, height, tiles, rooms);
    rooms_grouped_as_the_flood_fill_finds(&graph.room_components(), width, tiles, rooms);
}

/// Asserts that two rooms share a graph label exactly when a flood fill
/// of `tiles` joins their floor.
fn rooms_grouped_as_the_flood_fill_finds(
    graph_labels: &[usize],
    width: u16,
    tiles: &[Tile],
    rooms: &[delve::Room],
) {
    let width = usize::from(width);
    let labels = flood_labels(width, tiles.len() / width, tiles);
    // Any floor cell stands for its room (a merged room's centre may be
    // rock); a room is one piece of floor.
    let flood_of = |r: usize| {
        let p = rooms[r]
            .shape
            .cells()
            .find(|p| {
                matches!(
                    tiles[usize::from(p.y) * width + usize::from(p.x)],
                    Tile::Floor | Tile::UpStairs | Tile::DownStairs
                )
            })
            .or_else(|| rooms[r].shape.cells().next())
            .expect("a room has floor");
        labels[usize::from(p.y) * width + usize::from(p.x)]
    };
    assert_eq!(graph_labels.len(), rooms.len(), "a graph label a room");
    for a in 0..rooms.len() {
        for b in a + 1..rooms.len() {
            assert_eq!(
                graph_labels[a] == graph_labels[b],
                flood_of(a) == flood_of(b),
                "rooms {a} and {b}: graph and flood fill disagree"
            );
        }
    }
}

/// A check's name, the check, and a level (rows, rooms) that breaks its rule.
type Case<'a> = (&'a str, fn(&Cells), &'a [&'a str], Vec<delve::Room>);

/// The checks can fail: each passes a hand-drawn level that keeps its
/// rule and fails one that breaks it.
#[test]
fn each_check_fails_a_level_that_breaks_its_rule() {
    use crate::common::rect_room;
    let fails = |rows: &[&str], rooms: Vec<delve::Room>, check: fn(&Cells)| {
        let level = Level::from_rows(1, rows, rooms);
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&Cells::of(&level))))
            .is_err()
    };
    let apart = || vec![rect_room(1, 1, 3, 3), rect_room(6, 1, 3, 3)];
    let kept: [&str; 5] = [
        "          ",
        " ...  ... ",
        " ...  ... ",
        " ...  ... ",
        "          ",
    ];
    let joined = [
        "          ",
        " ...  ... ",
        " ...++... ",
        " ...  ... ",
        "          ",
    ];
    let cases: [Case; 5] = [
        (
            "rooms_keep_their_gap",
            rooms_keep_their_gap,
            &kept,
            vec![rect_room(1, 1, 3, 3), rect_room(4, 1, 3, 3)],
        ),
        (
            "corridors_stay_out_of_room_rings",
            corridors_stay_out_of_room_rings,
            &[
                "          ",
                " ...  ... ",
                " ...  ... ",
                " ...  ... ",
                "    ##    ",
                "          ",
            ],
            apart(),
        ),
        ("one_connected_piece", one_connected_piece, &kept, apart()),
        (
            "every_door_leads_somewhere",
            every_door_leads_somewhere,
            &[
                "          ",
                " ...  ... ",
                " ...+ ... ",
                " ...  ... ",
                "          ",
            ],
            apart(),
        ),
        (
            "outside_rooms_only_rock_corridors_and_doors",
            outside_rooms_only_rock_corridors_and_doors,
            &kept,
            vec![rect_room(1, 1, 3, 3)],
        ),
    ];
    for (name, check, broken, rooms) in cases {
        assert!(
            !fails(&joined, apart(), check),
            "{name} fails a level that keeps it"
        );
        assert!(
            fails(broken, rooms, check),
            "{name} passes a level that breaks it"
        );
    }
}
