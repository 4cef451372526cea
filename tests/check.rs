//! The generator's promises, as one function that checks a level against
//! them. Property tests run it over many seeds and configs.

use delve::{Config, Level, Pos, Shape, StairDirection, Tile};

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

/// Asserts every promise the generator makes about one level.
pub fn level(level: &Level, config: &Config) {
    let (w, h) = (usize::from(level.width()), usize::from(level.height()));
    assert_eq!(
        (level.width(), level.height()),
        (config.width, config.height)
    );
    let tiles = level.tiles();
    let hard = level.hardness_grid();
    let idx = |p: Pos| usize::from(p.y) * w + usize::from(p.x);

    // Border: immutable rock. Interior rock 1..=254, open cells 0.
    for y in 0..h {
        for x in 0..w {
            let c = y * w + x;
            let border = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
            if border {
                assert_eq!(tiles[c], Tile::Rock, "border cell {x},{y} is open");
                assert_eq!(hard[c], 255, "border cell {x},{y} is not immutable");
            } else if tiles[c] == Tile::Rock {
                assert!(
                    (1..=254).contains(&hard[c]),
                    "rock {x},{y} hardness {}",
                    hard[c]
                );
            } else {
                assert_eq!(hard[c], 0, "open cell {x},{y} has hardness");
            }
        }
    }

    // Rooms: count, size, off the border, apart.
    let rooms = level.rooms();
    let rc = &config.rooms;
    assert!(
        (usize::from(rc.count.min)..=usize::from(rc.count.max)).contains(&rooms.len()),
        "{} rooms, expected {:?}",
        rooms.len(),
        rc.count
    );
    let mut room_of = vec![0u16; w * h];
    for (i, room) in rooms.iter().enumerate() {
        let b = room.shape.bounds();
        assert!(b.width >= 3 && b.height >= 2, "room {i} too small: {b:?}");
        if let Shape::Rect(r) = room.shape {
            assert!((rc.width.min..=rc.width.max).contains(&r.width));
            assert!((rc.height.min..=rc.height.max).contains(&r.height));
        }
        for p in room.shape.cells() {
            assert!(p.x > 0 && p.y > 0 && usize::from(p.x) + 1 < w && usize::from(p.y) + 1 < h);
            assert_eq!(room_of[idx(p)], 0, "rooms overlap at {p:?}");
            room_of[idx(p)] = i as u16 + 1;
            let t = tiles[idx(p)];
            assert!(
                matches!(t, Tile::Floor | Tile::UpStairs | Tile::DownStairs),
                "room {i} cell {p:?} is {t:?}"
            );
        }
    }
    for y in 1..h - 1 {
        for x in 1..w - 1 {
            let c = y * w + x;
            let me = room_of[c];
            for ny in y - 1..=y + 1 {
                for nx in x - 1..=x + 1 {
                    let other = room_of[ny * w + nx];
                    if me != 0 && other != 0 {
                        assert_eq!(me, other, "rooms {me} and {other} touch at {x},{y}");
                    }
                    // Corridors never touch room floor, not even diagonally.
                    if tiles[c] == Tile::Corridor {
                        assert_eq!(other, 0, "corridor {x},{y} touches room {other}");
                    }
                }
            }
            if me == 0 {
                assert!(
                    matches!(tiles[c], Tile::Rock | Tile::Corridor | Tile::Door),
                    "{:?} outside any room at {x},{y}",
                    tiles[c]
                );
            }
        }
    }

    // Doors: at most max a room, each next to its room's floor and to a
    // corridor; every door tile is some room's door.
    let mut door_count = 0;
    for (i, room) in rooms.iter().enumerate() {
        assert!(
            room.doors.len() <= usize::from(rc.max_doors),
            "room {i} has {} doors",
            room.doors.len()
        );
        for d in &room.doors {
            let c = idx(d.pos);
            assert_eq!(tiles[c], Tile::Door);
            let orth = [c - w, c + 1, c + w, c - 1];
            assert!(
                orth.iter().any(|&o| usize::from(room_of[o]) == i + 1),
                "door {:?} off its room",
                d.pos
            );
            assert!(
                orth.iter().any(|&o| tiles[o] == Tile::Corridor),
                "door {:?} has no corridor",
                d.pos
            );
            let rooms_touched: Vec<u16> = orth
                .iter()
                .map(|&o| room_of[o])
                .filter(|&r| r != 0)
                .collect();
            assert!(
                rooms_touched.iter().all(|&r| usize::from(r) == i + 1),
                "door {:?} opens onto two rooms",
                d.pos
            );
        }
        door_count += room.doors.len();
    }
    assert_eq!(
        door_count,
        tiles.iter().filter(|&&t| t == Tile::Door).count(),
        "stray door tiles"
    );

    // Stairs: on room floor, counts, up and down in different rooms.
    let depth = level.depth();
    let per = usize::from(config.stairs.per_level);
    let ups: Vec<_> = level.stairs_going(StairDirection::Up).collect();
    let downs: Vec<_> = level.stairs_going(StairDirection::Down).collect();
    let want_up = if depth == 1 {
        usize::from(config.stairs.exit_on_first_level)
    } else {
        per
    };
    let want_down = if depth == config.levels { 0 } else { per };
    assert_eq!(
        (ups.len(), downs.len()),
        (want_up, want_down),
        "stair counts at depth {depth}"
    );
    for s in level.stairs() {
        assert!(
            rooms[usize::from(s.room)].contains(s.pos),
            "stairs {:?} not in room {}",
            s.pos,
            s.room
        );
        let want = match s.direction {
            StairDirection::Up => Tile::UpStairs,
            StairDirection::Down => Tile::DownStairs,
        };
        assert_eq!(tiles[idx(s.pos)], want);
    }
    let mut stair_rooms: Vec<u16> = level.stairs().iter().map(|s| s.room).collect();
    stair_rooms.sort_unstable();
    stair_rooms.dedup();
    assert_eq!(
        stair_rooms.len(),
        level.stairs().len(),
        "two staircases share a room"
    );

    // Connectivity: one flood-fill component, and the graph agrees.
    let labels = flood_labels(w, h, tiles);
    assert!(
        labels.iter().all(|&l| l == u32::MAX || l == 0),
        "level has several pieces"
    );
    let graph = level.graph();
    assert_eq!(graph.components(), 1, "graph has several pieces");
    let room_labels = graph.room_components();
    assert!(room_labels.iter().all(|&l| l == room_labels[0]));
}

/// Asserts that the graph's room connectivity matches a flood fill of
/// `tiles`, for any grid (connected or not).
pub fn graph_agrees_with_flood(width: u16, height: u16, tiles: &[Tile], rooms: &[delve::Room]) {
    let labels = flood_labels(usize::from(width), usize::from(height), tiles);
    let graph = delve::LevelGraph::build(width, height, tiles, rooms);
    let graph_labels = graph.room_components();
    let flood_of = |r: usize| {
        let p = rooms[r].shape.center();
        labels[usize::from(p.y) * usize::from(width) + usize::from(p.x)]
    };
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
