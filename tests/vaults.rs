//! Vaults: the shipped file, every vault found in its level exactly as
//! drawn, levels with random vault sets keeping every promise, and the
//! vault file's located errors.

use std::path::Path;

use delve::config::{CorridorStyle, Range};
use delve::sim::MonsterKind;
use delve::vault::{Orientation, Vault, VaultCell, VaultDraft, build, shipped};
use delve::{Config, Generator, Level, Pos, Shape, Tile};
use proptest::prelude::*;

use crate::check;
use crate::common::{TempDir, delve, ok, refused, stdout};
use crate::properties::STYLES;

fn shipped_glyphs() -> Vec<char> {
    MonsterKind::defaults().iter().map(|k| k.glyph).collect()
}

#[test]
fn shipped_vaults_use_shipped_monsters_and_each_appears_by_default() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/vaults.ron");
    let glyphs = shipped_glyphs();
    let vaults = delve::vault_file::load_vaults(&path, &|c| glyphs.contains(&c)).unwrap();
    assert_eq!(vaults, shipped(), "the built-in list is the file's");
    assert!(vaults.len() >= 12, "{} vaults", vaults.len());
    let config = Config::default();
    for v in &vaults {
        assert!(
            v.fits(config.width, config.height),
            "{} does not fit",
            v.name
        );
        assert!(
            (1..=config.levels).any(|d| v.allows_depth(d)),
            "{} is at no depth of the default stack",
            v.name
        );
    }
    let sides: Vec<(u16, u16)> = vaults
        .iter()
        .map(|v| (v.drawing().width(), v.drawing().height()))
        .collect();
    assert!(sides.iter().any(|&(w, h)| w <= 5 && h <= 5), "no closet");
    assert!(
        sides.iter().any(|&(w, h)| w >= 30 && h >= 20),
        "no 30x20 hall"
    );
    let monsters = |v: &Vault| {
        v.drawing()
            .cells()
            .any(|(_, _, c)| matches!(c, VaultCell::Monster(_)))
    };
    assert!(vaults.iter().any(monsters) && !vaults.iter().all(monsters));
}

/// Every vault of `level` stands exactly as its drawing, turned and
/// flipped as it allows: floor, doors, its own corridor, immutable rock,
/// stairs only where it marks them, corridors joined only at its edge
/// doors.
pub fn vaults_as_drawn(level: &Level, vaults: &[Vault]) {
    let hard = level.hardness_grid();
    for (i, room) in level.rooms().iter().enumerate() {
        let Shape::Vault(v) = room.shape else {
            continue;
        };
        let vault = &vaults[usize::from(v.vault)];
        let o = Orientation {
            quarter_turns: v.quarter_turns,
            mirrored: v.mirrored,
        };
        assert!(
            vault.orientations().contains(&o),
            "{}: {o:?} not allowed",
            vault.name
        );
        let d = vault.drawing().oriented(o);
        assert_eq!((d.width(), d.height()), (v.bounds.width, v.bounds.height));
        let edge_doors: Vec<Pos> = d
            .entrances()
            .map(|(x, y)| Pos::new(v.bounds.x + x, v.bounds.y + y))
            .collect();
        for (x, y, cell) in d.cells() {
            let p = Pos::new(v.bounds.x + x, v.bounds.y + y);
            let (t, h) = (level.tile(p), hard[level.index(p)]);
            let fine = match cell {
                VaultCell::Floor | VaultCell::Monster(_) => t == Tile::Floor,
                VaultCell::StairSpot => {
                    matches!(t, Tile::Floor | Tile::UpStairs | Tile::DownStairs)
                }
                // An edge door no corridor could reach is the vault's wall
                // (generator revision 2).
                VaultCell::Door => {
                    t == Tile::Door || (edge_doors.contains(&p) && t == Tile::Rock && h == 255)
                }
                VaultCell::Corridor => t == Tile::Corridor,
                VaultCell::Rock => t == Tile::Rock && h == 255,
                VaultCell::Open => matches!(t, Tile::Rock | Tile::Corridor) && h != 255,
            };
            assert!(
                fine,
                "{} at {p:?}: drawn {cell:?}, found {t:?} ({h})",
                vault.name
            );
        }
        for s in level.stairs().iter().filter(|s| usize::from(s.room) == i) {
            let (x, y) = (s.pos.x - v.bounds.x, s.pos.y - v.bounds.y);
            assert_eq!(d.cell(x, y), VaultCell::StairSpot, "{} stairs", vault.name);
        }
        for door in &room.doors {
            assert!(
                edge_doors.contains(&door.pos),
                "{} joined off a door",
                vault.name
            );
        }
        assert!(
            edge_doors.iter().any(|&p| level.tile(p) == Tile::Door),
            "{}: every door walled up",
            vault.name
        );
    }
}

fn vault_count(level: &Level) -> usize {
    level
        .rooms()
        .iter()
        .filter(|r| matches!(r.shape, Shape::Vault(_)))
        .count()
}

/// A random vault: a walled box of floor with doors on its edges, maybe
/// pillars, a monster, a stair place, an inner corridor.
fn random_vault() -> impl Strategy<Value = VaultDraft> {
    (
        (5usize..=16, 5usize..=12),
        prop::collection::vec((0u8..4, 0.0f64..1.0), 1..=4),
        (any::<bool>(), any::<bool>(), any::<bool>()),
        (any::<bool>(), any::<bool>(), 1u16..=5),
    )
        .prop_map(
            |((w, h), doors, (pillars, monster, stairs), (rotate, mirror, weight))| {
                let mut grid = vec![vec!['x'; w]; h];
                for row in grid.iter_mut().take(h - 1).skip(1) {
                    for c in row.iter_mut().take(w - 1).skip(1) {
                        *c = '.';
                    }
                }
                if pillars {
                    for y in (2..h - 2).step_by(2) {
                        for x in (2..w - 2).step_by(2) {
                            grid[y][x] = 'x';
                        }
                    }
                }
                if monster {
                    grid[1][1] = 'r';
                }
                if stairs {
                    grid[h - 2][w - 2] = '>';
                }
                for (side, at) in doors {
                    let along = |n: usize| 1 + ((n - 2) as f64 * at) as usize % (n - 2);
                    let (x, y) = match side {
                        0 => (along(w), 0),
                        1 => (along(w), h - 1),
                        2 => (0, along(h)),
                        _ => (w - 1, along(h)),
                    };
                    grid[y][x] = '+';
                }
                VaultDraft {
                    name: String::new(),
                    depths: Range::new(1, 10),
                    weight,
                    rotate,
                    mirror,
                    map: grid.into_iter().map(|r| r.into_iter().collect()).collect(),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Levels with random vault sets (and the shipped ones), in every
    /// corridor style, keep every promise of a level, and every vault is
    /// found exactly as drawn.
    #[test]
    fn random_vault_sets_keep_every_promise(
        seed in any::<u64>(),
        style in prop::sample::select(&STYLES[..]),
        drafts in prop::collection::vec(random_vault(), 1..=6),
        with_shipped in any::<bool>(),
        count in (0u16..=3, 0u16..=3).prop_map(|(a, b)| Range::new(a.min(b), a.max(b))),
    ) {
        let mut drafts = drafts;
        for (i, d) in drafts.iter_mut().enumerate() {
            d.name = format!("random {i}");
        }
        let mut vaults = build(&drafts, &|c| c == 'r').expect("drawn to be valid");
        if with_shipped {
            vaults.extend_from_slice(shipped());
        }
        let mut config = Config { levels: 3, corridors: style, ..Config::default() };
        config.vaults.count = count;
        let mut generator = Generator::default();
        for depth in 1..=config.levels {
            // DeadEnd corridors grow blindly and may never meet an awkward
            // vault's door (one door, facing a crowded side): such a level
            // is refused with the style's usual "cannot join" error, never
            // made broken. Every other style makes it (Grid and Straight,
            // which place vaults from generator revision 3, by a last leg
            // to each vault).
            let level = match generator.level(&config, &vaults, seed, depth) {
                Ok(level) => level,
                Err(delve::GenerateError::Unjoinable { .. }) if style == CorridorStyle::DeadEnd => {
                    continue;
                }
                Err(e) => panic!("{style:?} depth {depth}: {e}"),
            };
            check::level(&level, &config);
            vaults_as_drawn(&level, &vaults);
            prop_assert!(vault_count(&level) <= usize::from(count.max));
        }
    }
}

#[test]
fn default_levels_have_vaults_as_drawn() {
    let config = Config::default();
    let mut generator = Generator::default();
    let mut seen = 0;
    for seed in 0..8 {
        for depth in 1..=config.levels {
            let level = generator.level(&config, shipped(), seed, depth).unwrap();
            vaults_as_drawn(&level, shipped());
            seen += vault_count(&level);
        }
    }
    // (0, 2) a level: about one a level on average.
    assert!(seen >= 40, "{seen} vaults in 80 levels");
}

#[test]
fn no_vaults_asked_for_none_placed() {
    let mut config = Config::default();
    config.vaults.count = Range::new(0, 0);
    for style in STYLES {
        config.corridors = style;
        let level = Generator::default()
            .level(&config, shipped(), 3, 2)
            .unwrap();
        assert_eq!(vault_count(&level), 0);
    }
    // And an empty list places none whatever the count.
    let level = Generator::default()
        .level(&Config::default(), &[], 3, 2)
        .unwrap();
    assert_eq!(vault_count(&level), 0);
}

#[test]
fn json_export_names_the_vault() {
    let out = delve(&[
        "generate", "--seed", "2", "--depth", "1", "--format", "json",
    ]);
    ok(&out);
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rooms = doc["levels"][0]["rooms"].as_array().unwrap();
    let vault = rooms
        .iter()
        .find(|r| r["shape"] == "vault")
        .expect("seed 2 depth 1 has a vault");
    let name = vault["vault"].as_str().unwrap();
    assert!(shipped().iter().any(|v| v.name == name), "{name}");
    assert!(vault["width"].as_u64().unwrap() > 0 && !vault["doors"].as_array().unwrap().is_empty());
}

#[test]
fn a_bad_vault_file_is_refused_with_its_place() {
    let dir = TempDir::new("bad-vaults");
    let one = r#"(name: "a", depths: (min: 1, max: 9), map: ["xx+xx", "x...x", "xxxxx"])"#;
    let crypt = r#"[(name: "crypt", depths: (min: 1, max: 9), map: ["xx+xx", "x.Q.x", "xxxxx"])]"#;
    // Line 1, the column of the Q itself.
    let q = format!(
        "vaults.ron:1:{}: [0].map: vault \"crypt\", map row 2, column 3: 'Q' is not a known glyph or monster",
        crypt.find('Q').unwrap() + 1
    );
    let wide = "x".repeat(150);
    let huge = format!(
        "[\n  (name: \"huge\", depths: (min: 1, max: 9), rotate: true,\n   map: [\"{wide}\", \"+{}x\", \"{wide}\"])]",
        ".".repeat(148)
    );
    let cases: Vec<(String, &str)> = vec![
        (crypt.to_string(), &q),
        (
            r#"[(name: "shut", depths: (min: 1, max: 9), map: ["xxxxx", "x...x", "xxxxx"])]"#
                .into(),
            "vault \"shut\": the vault has no door",
        ),
        (
            r#"[(name: "split", depths: (min: 1, max: 9), map: ["x+x+x", "x.x.x", "xxxxx"])]"#
                .into(),
            "vault \"split\", map row 1, column 4: this floor is cut off",
        ),
        (
            format!("[{one}, {one}]"),
            "vault \"a\": the name is already that of entry 0",
        ),
        (
            r#"[(name: "z", depths: (min: 1, max: 9), map: ["xx+xx"], size: 3)]"#.into(),
            "size",
        ),
        (
            r#"[(name: "b", depths: (min: 1, max: 9), map: ["x.+xx", "x...x", "xxxxx"])]"#.into(),
            "map row 1, column 2: '.' on the edge of the map",
        ),
        (
            r#"[(name: "c", depths: (min: 1, max: 9), map: ["xx>xx", "x.+.x", "xxxxx"])]"#.into(),
            "map row 1, column 3: '>' on the edge of the map",
        ),
        (huge, "vaults.ron:3:"),
    ];
    for (text, expect) in &cases {
        let file = dir.file("vaults.ron", text);
        let out = delve(&[
            "generate", "--seed", "1", "--levels", "1", "--vaults", &file,
        ]);
        let err = refused(&out);
        assert!(err.contains("vaults.ron:"), "{err}");
        assert!(err.contains(expect), "expected {expect:?} in {err}");
    }
    let file = dir.file("vaults.ron", &cases[7].0);
    let err = refused(&delve(&[
        "generate", "--seed", "1", "--levels", "1", "--vaults", &file,
    ]));
    assert!(
        err.contains("larger than a 150x150 level can hold"),
        "{err}"
    );
    assert!(!err.contains("  "), "stray spaces: {err}");
    // A loaded run keeps its own vaults: --vaults is refused with --load.
    assert_eq!(
        delve(&["simulate", "--load", "x", "--vaults", &file])
            .status
            .code(),
        Some(2)
    );
    // Each command that generates reads --vaults.
    for command in ["stats", "render", "simulate"] {
        let mut args = vec![command, "--seed", "1", "--vaults", &file];
        let png = dir.join("x.png");
        let png = png.to_str().unwrap();
        if command == "render" {
            args.extend(["--out", png]);
        }
        let err = refused(&delve(&args));
        assert!(err.contains("larger than a 150x150"), "{command}: {err}");
    }
    // A good file is used.
    let file = dir.file("vaults.ron", &format!("[{one}]"));
    ok(&delve(&[
        "generate", "--seed", "1", "--levels", "1", "--vaults", &file,
    ]));
}

/// The small stack of the proptest regression `cc 420e9a4d`: 30x17, two
/// levels, DeadEnd corridors, up to two vaults, and at least two rooms.
fn two_small_levels() -> Config {
    Config::from_ron(
        "(width: 30, height: 17, levels: 2,
          rooms: (count: (min: 2, max: 5), width: (min: 3, max: 3), height: (min: 2, max: 2),
                  circle_share: 0.0, max_floor_share: 0.1, max_doors: 2),
          hardness: (feature_size: 1, octaves: 1, persistence: 0.5),
          tunnel: (step_cost: 40, soft_below: 0, hardness_weight: 0.0, turn_penalty: 0,
                   open_cost: 1),
          stairs: (per_level: 1, exit_on_first_level: false),
          corridors: DeadEnd, grid_spacing: 3, grid_segment: (min: 1, max: 1),
          extra_loops: (count: 0, ratio: 2.5, max_length: 8),
          room_loops: (count: 10, ratio: 2.0, reach: 40),
          vaults: (count: (min: 0, max: 2)))",
        "test",
    )
    .unwrap()
}

/// Regression: depth 1's first attempt of this seed placed two vaults and
/// no ordinary room; the arrival room (the cross hall) holds no stairs and
/// the closet has no stair cells, so no room could take the way down, yet
/// the level was accepted with none and depth 2 was cut off. Such an
/// attempt is now thrown away. (The attempt is generator 3's; generator 4
/// starts a vault's corridors the right way out of its doors and lays this
/// level otherwise.)
#[test]
fn a_level_whose_rooms_cannot_hold_its_way_down_is_retried() {
    let mut config = two_small_levels();
    config.revisions.generator = 3;
    let dungeon = delve::Dungeon::generate_all(config.clone(), 11854596247075037510).unwrap();
    for (depth, want) in [(1, (0, 1)), (2, (1, 0))] {
        let level = dungeon.generated(depth).unwrap();
        let going = |d| level.stairs_going(d).count();
        assert_eq!(
            (
                going(delve::StairDirection::Up),
                going(delve::StairDirection::Down)
            ),
            want,
            "depth {depth}"
        );
        check::level(level, &config);
    }
    // The attempt that went wrong is the one now refused.
    assert!(dungeon.generated(1).unwrap().rejected_attempts() >= 1);
    crate::stack::check_links(&dungeon);
    crate::stack::check_reachable(&dungeon);
}

/// A level whose rooms can never hold all its stairs is refused with an
/// error that says so, never returned short of a staircase: depth 2 of
/// three needs one up and one down, in two rooms, but every attempt has
/// one ordinary room and a closet without stair cells.
#[test]
fn too_few_rooms_for_the_stairs_is_refused_with_its_reason() {
    let closet: Vec<Vault> = shipped()
        .iter()
        .filter(|v| v.name == "closet")
        .cloned()
        .collect();
    assert_eq!(closet.len(), 1);
    let mut config = Config::from_ron(
        "(width: 40, height: 20, levels: 3,
          rooms: (count: (min: 2, max: 2), width: (min: 3, max: 4), height: (min: 2, max: 3)),
          stairs: (per_level: 1, exit_on_first_level: false),
          vaults: (count: (min: 1, max: 1)))",
        "test",
    )
    .unwrap();
    config.corridors = CorridorStyle::Tunnel;
    let mut generator = Generator::default();
    match generator.level(&config, &closet, 5, 2) {
        Err(e @ delve::GenerateError::TooFewStairRooms { .. }) => {
            let text = e.to_string();
            assert!(text.contains("1 up and 1 down"), "{text}");
            assert!(e.is_bad_input());
        }
        other => panic!("expected TooFewStairRooms, got {other:?}"),
    }
    // The top level of the same layout needs only its way down, which the
    // ordinary room takes (the closet, room 0, is where the player starts).
    let level = generator.level(&config, &closet, 5, 1).unwrap();
    check::level(&level, &config);
}

/// Regression, found by `random_vault_sets_keep_every_promise`: with
/// `DeadEnd` corridors, a vault whose edge doors stand side by side
/// (`+++`) took the next door for the first one's porch, so a stub ran
/// from one door into its neighbour, which was then laid as a door: the
/// first door led nowhere.
#[test]
fn dead_end_side_by_side_vault_doors_each_lead_to_a_corridor() {
    let draft = VaultDraft {
        name: "three doors".into(),
        depths: Range::new(1, 10),
        weight: 1,
        rotate: false,
        mirror: false,
        map: ["xxxxxx", "x....x", "x....x", "x....x", "x+++xx"]
            .iter()
            .map(|r| r.to_string())
            .collect(),
    };
    let vaults = build(&[draft], &|c| c == 'r').expect("drawn to be valid");
    let mut config = Config {
        levels: 3,
        corridors: CorridorStyle::DeadEnd,
        ..Config::default()
    };
    config.vaults.count = Range::new(0, 1);
    let mut generator = Generator::default();
    for depth in 1..=config.levels {
        let level = generator
            .level(&config, &vaults, 3_130_131_792_779_066_662, depth)
            .expect("generates");
        check::level(&level, &config);
    }
}

/// Runs each command that generates levels on `vaults` with a config that
/// places one vault a level, and returns what each said (all refused).
fn refused_by_every_command(dir: &TempDir, vaults: &str) -> Vec<String> {
    let config = dir.file(
        "one.ron",
        "(levels: 2, profiles: [(depths: (min: 1), vaults: (count: (min: 1, max: 1)))])",
    );
    let png = dir.join("x.png").display().to_string();
    let mut said = Vec::new();
    for command in ["generate", "stats", "render", "simulate"] {
        let mut args = vec![
            command, "--seed", "1", "--config", &config, "--vaults", vaults,
        ];
        if command == "render" {
            args.extend(["--out", &png]);
        }
        let err = refused(&delve(&args));
        // Words, never a Rust value's debug form.
        assert!(!err.contains(" { ") && !err.contains("Some("), "{err}");
        said.push(err);
    }
    said
}

/// Issue 23, item 13: a vault with no floor passed the file's checks and
/// then made every level fail with exit 1 and `GraphDisagrees {
/// components: 2 }`; it is refused when the file is read, at its map.
#[test]
fn a_vault_without_floor_is_refused_when_read() {
    let dir = TempDir::new("no-floor");
    let text = r#"[(name: "empty", depths: (min: 1, max: 10), map: ["x+x", "x#x", "xxx"])]"#;
    let file = dir.file("vaults.ron", text);
    let at = text.find("map").unwrap() + 1;
    for err in refused_by_every_command(&dir, &file) {
        assert!(
            err.starts_with(&format!(
                "delve: {file}:1:{at}: [0].map: vault \"empty\": the vault has no floor"
            )),
            "{err}"
        );
    }
}

/// Issue 23, item 14: an edge door that opens onto an inner door can never
/// be reached (a corridor never opens a door beside another door), and
/// generation failed with advice about rooms; the file is refused at the
/// door, naming the vault and the cell.
#[test]
fn an_edge_door_onto_an_inner_door_is_refused_at_the_door() {
    let dir = TempDir::new("door-on-door");
    let text = r#"[(name: "doors", depths: (min: 1, max: 10), map: ["x+x", "x+x", "x.x", "xxx"])]"#;
    let file = dir.file("vaults.ron", text);
    // The first row's `+`: its quote, then one character on.
    let at = text.find("\"x+x\"").unwrap() + 3;
    for err in refused_by_every_command(&dir, &file) {
        assert!(
            err.starts_with(&format!(
                "delve: {file}:1:{at}: [0].map: vault \"doors\", map row 1, column 2: this door \
                 on the edge opens onto the inner door at row 2, column 2"
            )),
            "{err}"
        );
    }
    // A door with `?` behind it has no cell a corridor could come from.
    let text = r#"[(name: "q", depths: (min: 1, max: 10), map: ["x++xx", "x?..x", "xxxxx"])]"#;
    let file = dir.file("q.ron", text);
    let err = refused(&delve(&["generate", "--seed", "1", "--vaults", &file]));
    assert!(
        err.contains("vault \"q\", map row 1, column 2: no corridor can come to this door"),
        "{err}"
    );
}

/// Issue 23, item 17: control characters in a vault's name (a terminal's
/// escape sequences) were accepted and printed raw; they are refused at
/// the name, and the name is shown escaped.
#[test]
fn control_characters_in_a_vault_name_are_refused() {
    let dir = TempDir::new("vault-name");
    let text = "[\n  (name: \"red\\u{1b}[31malert\", depths: (min: 1, max: 10),\n   map: [\"x+x\", \"x.x\", \"xxx\"])]";
    let file = dir.file("vaults.ron", text);
    let err = refused(&delve(&["generate", "--seed", "1", "--vaults", &file]));
    assert!(
        err.starts_with(&format!(
            "delve: {file}:2:4: [0].name: vault \"red\\u{{1b}}[31malert\": must not contain \
             control characters"
        )),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'), "raw escape: {err:?}");
}

/// Issue 23, item 16: a vault file that is not UTF-8 is located like any
/// other data file's bad bytes.
#[test]
fn a_vault_file_that_is_not_utf8_names_line_and_column() {
    let dir = TempDir::new("vault-utf8");
    let path = dir.join("vaults.ron");
    std::fs::write(
        &path,
        b"[\n  (name: \"caf\xe9\", depths: (min: 1, max: 10), map: [\"x+x\", \"x.x\", \"xxx\"])]",
    )
    .unwrap();
    let file = path.display().to_string();
    let err = refused(&delve(&["generate", "--seed", "1", "--vaults", &file]));
    assert!(
        err.starts_with(&format!("delve: {file}:2:14: the file is not valid UTF-8")),
        "{err}"
    );
}

/// A drawing of random glyphs, its edge only rock, `?` and doors: most are
/// refused, and those that pass are what the file's checks let through.
fn random_drawing() -> impl Strategy<Value = VaultDraft> {
    (3usize..=7, 3usize..=7)
        .prop_flat_map(|(w, h)| {
            (
                Just((w, h)),
                prop::collection::vec(
                    prop::sample::select(&['.', '.', '.', '.', '+', '#', '#', 'x', '?', '>'][..]),
                    w * h,
                ),
                prop::collection::vec(
                    prop::sample::select(&['x', 'x', 'x', 'x', '+', '?'][..]),
                    w * h,
                ),
            )
        })
        .prop_map(|((w, h), inside, edge)| {
            let rows = (0..h)
                .map(|y| {
                    (0..w)
                        .map(|x| {
                            let on_edge = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                            if on_edge {
                                edge[y * w + x]
                            } else {
                                inside[y * w + x]
                            }
                        })
                        .collect()
                })
                .collect();
            VaultDraft {
                name: "random".into(),
                depths: Range::new(1, 10),
                weight: 1,
                rotate: true,
                mirror: true,
                map: rows,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Issue 23, items 13 and 14: whatever drawing the file's checks let
    /// through, a level that places it passes its own verification, and
    /// Tunnel levels, which can reach any door, are made, and so are Grid
    /// and Straight levels, whose vaults a last leg at the Tunnel's prices
    /// joins (generator revision 3). (A vault of doors and corridors alone
    /// once failed every level.)
    #[test]
    fn any_drawing_the_checks_accept_makes_levels(
        draft in random_drawing(),
        seed in any::<u64>(),
        style in prop::sample::select(&STYLES[..]),
    ) {
        let Ok(vaults) = build(std::slice::from_ref(&draft), &|_| false) else {
            return Ok(());
        };
        let mut config = Config { width: 60, height: 30, levels: 2, corridors: style, ..Config::default() };
        config.rooms.count = Range::new(3, 8);
        config.vaults.count = Range::new(1, 1);
        for depth in 1..=config.levels {
            match Generator::default().level(&config, &vaults, seed, depth) {
                Ok(level) => {
                    check::level(&level, &config);
                    vaults_as_drawn(&level, &vaults);
                    prop_assert_eq!(vault_count(&level), 1);
                }
                Err(delve::GenerateError::Unjoinable { .. }) if style == CorridorStyle::DeadEnd => {}
                Err(e) => prop_assert!(false, "{:?} depth {}: {}", draft.map, depth, e),
            }
        }
    }
}

/// Generator revision 3 on a Grid or Straight level whose every room is a
/// vault: the style has no ordinary room to join, the first vault is where
/// the level begins, and a last leg joins the other vault to it.
#[test]
fn a_grid_or_straight_level_of_vaults_alone_is_one_piece() {
    let drafts: Vec<VaultDraft> = [
        (
            "up",
            ["xxx+xxx", "x.....x", "+..<..x", "x.....x", "xxxxxxx"],
        ),
        (
            "down",
            ["xxxxxxx", "x.....x", "x..>..+", "x.....x", "xxx+xxx"],
        ),
    ]
    .into_iter()
    .map(|(name, map)| VaultDraft {
        name: name.into(),
        depths: Range::new(1, 10),
        weight: 1,
        rotate: true,
        mirror: true,
        map: map.iter().map(|r| r.to_string()).collect(),
    })
    .collect();
    let vaults = build(&drafts, &|_| false).expect("drawn to be valid");
    let mut made = 0;
    for corridors in [CorridorStyle::Grid, CorridorStyle::Straight] {
        let mut config = Config::from_ron(
            "(width: 60, height: 30, levels: 3,
              rooms: (count: (min: 2, max: 2)),
              stairs: (per_level: 1, exit_on_first_level: false),
              vaults: (count: (min: 2, max: 2)))",
            "test",
        )
        .unwrap();
        config.corridors = corridors;
        let mut generator = Generator::default();
        for seed in 0..6 {
            for depth in 1..=config.levels {
                let level = generator.level(&config, &vaults, seed, depth).unwrap();
                check::level(&level, &config);
                vaults_as_drawn(&level, &vaults);
                if vault_count(&level) == 2 {
                    made += 1;
                }
            }
        }
    }
    // Both vaults and nothing else, on most levels (a vault that finds no
    // place leaves its room to an ordinary one).
    assert!(made >= 18, "{made} levels of two vaults in 36");
}
