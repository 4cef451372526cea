//! Doors that matter (rules revision 3): closed doors block sight and are
//! opened by walking into them, `c` closes them, some are secret until
//! searched for, and secret doors never cut a staircase off. Generation's
//! promise over random configs, the rules on hand-drawn levels, the
//! viewer's keys, and a forged save refused.

use delve::config::Revisions;
use delve::sim::{Action, Doors, Event, MonsterKind, Outcome, Run, Trait, Unclosable};
use delve::view::{App, Key, Keymap};
use delve::{Config, Dungeon, Level, Pos, StairDirection, Tile, generate_level};
use proptest::prelude::*;

use crate::common::{monster_kind, rect_room};
use crate::properties::{profiled_config, small_config};

/// A stack's config with the rules of `rules`.
fn with_rules(config: &Config, rules: u16) -> Config {
    Config {
        revisions: Revisions {
            rules,
            ..config.revisions
        },
        ..config.clone()
    }
}

/// Every secret door's cell, row by row.
fn secret_doors(level: &Level) -> Vec<usize> {
    (0..level.tiles().len())
        .filter(|&c| level.tiles()[c] == Tile::SecretDoor)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// The promise, over random configs with random profiles and any share
    /// of secret doors: every level keeps every promise of the generator,
    /// secret doors included (`check::level`: from any staircase every
    /// other, and the start of a first level without an up staircase, is
    /// reached without passing a secret door), as the loader's own check
    /// agrees; a level hides at most its share of its doors; and hiding
    /// changes nothing but which doors are secret.
    #[test]
    fn secret_doors_never_cut_a_staircase_off(
        config in profiled_config(),
        share in prop_oneof![Just(1.0f64), 0.05f64..=1.0],
        profile_shares in prop::collection::vec(prop::option::of(0.0f64..=1.0), 3),
        seed in any::<u64>(),
    ) {
        let mut config = Config { secret_doors: share, ..config };
        for (p, s) in config.profiles.iter_mut().zip(profile_shares) {
            p.secret_doors = s;
        }
        prop_assume!(config.validate().is_ok());
        let Ok(dungeon) = Dungeon::generate_all(config.clone(), seed) else {
            return Ok(()); // a crowded random config may not generate
        };
        let plain = with_rules(&config, 2);
        for d in 1..=config.levels {
            let level = dungeon.generated(d).unwrap();
            crate::check::level(level, &config);
            prop_assert_eq!(level.stranded_by_secret_doors(), None);
            let doors = level.tiles().iter().filter(|t| t.is_door()).count();
            let share = config.secret_doors_at(d);
            prop_assert!(secret_doors(level).len() as f64 <= (share * doors as f64).round());
            // The same level under rules 2 (which hide nothing), door for
            // door: only doors turned secret differ.
            let open = generate_level(&plain, seed, d).unwrap();
            for (c, (&a, &b)) in level.tiles().iter().zip(open.tiles()).enumerate() {
                prop_assert!(a == b || (a == Tile::SecretDoor && b == Tile::Door), "cell {}", c);
            }
            prop_assert_eq!(level.rooms(), open.rooms());
            prop_assert_eq!(level.stairs(), open.stairs());
        }
    }

    /// A share of 0 leaves generation byte for byte as it was: the level
    /// of rules 3 is the level of rules 2, for any config.
    #[test]
    fn no_share_no_change(config in small_config(), seed in any::<u64>(), depth in 1u16..=4) {
        prop_assume!(depth <= config.levels);
        let config = Config { secret_doors: 0.0, ..config };
        let Ok(level) = generate_level(&config, seed, depth) else {
            return Ok(());
        };
        prop_assert!(secret_doors(&level).is_empty());
        prop_assert_eq!(&level, &generate_level(&with_rules(&config, 2), seed, depth).unwrap());
    }

    /// A level loads only if it keeps the promise: with random doors of a
    /// generated level hidden by hand, a save of it loads exactly when a
    /// flood from its up staircase over walkable cells but secret doors
    /// reaches its down staircase, and otherwise is refused in words.
    #[test]
    fn a_forged_secret_door_that_strands_a_staircase_is_refused(
        seed in any::<u64>(),
        hide in prop::collection::vec(any::<bool>(), 64),
    ) {
        let config = Config::from_ron(
            "(width: 70, height: 30, levels: 2, rooms: (count: (max: 10)), vaults: (count: (max: 0)))",
            "t",
        )
        .unwrap();
        let level = generate_level(&config, seed, 1).unwrap();
        let w = usize::from(level.width());
        let mut doors = 0;
        let rows: Vec<String> = (0..level.height())
            .map(|y| {
                level
                    .revealed_row_string(y)
                    .chars()
                    .map(|c| {
                        if c != '+' {
                            return c;
                        }
                        doors += 1;
                        if hide[(doors - 1) % hide.len()] { 'S' } else { '+' }
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let forged = Level::from_rows(1, &rows, level.rooms().to_vec());
        // The promise, by a flood of the test's own.
        let tiles = forged.tiles();
        let up = forged.stairs_going(StairDirection::Up).next().unwrap().pos;
        let down = forged.stairs_going(StairDirection::Down).next().unwrap().pos;
        let mut reached = vec![false; tiles.len()];
        let mut stack = vec![forged.index(up)];
        reached[forged.index(up)] = true;
        while let Some(c) = stack.pop() {
            for n in [c - w, c + 1, c + w, c - 1] {
                if !reached[n] && tiles[n].is_walkable() && tiles[n] != Tile::SecretDoor {
                    reached[n] = true;
                    stack.push(n);
                }
            }
        }
        let keeps = reached[forged.index(down)];
        prop_assert_eq!(forged.stranded_by_secret_doors().is_none(), keeps);
        let run = Run::on_level(config, MonsterKind::defaults(), forged, up, &[]);
        let loaded = delve::save::decode(&delve::save::encode(&run, 0), "forged.sav");
        match loaded {
            Ok(_) => prop_assert!(keeps),
            Err(e) => {
                prop_assert!(!keeps, "{}", e);
                let words = e.to_string();
                prop_assert!(words.contains("only through a secret door"), "{}", words);
            }
        }
    }
}

/// Two rooms and a corridor, a closed door between the west room and the
/// corridor, and a secret door into the east room: the player stands in
/// the west room, next to the door.
fn doors_level() -> Level {
    Level::from_rows(
        1,
        &[
            "                    ",
            " ....+#####S.....   ",
            " ....       .....   ",
            " ....       .....   ",
            "                    ",
        ],
        vec![rect_room(1, 1, 4, 3), rect_room(12, 1, 5, 3)],
    )
}

/// A config whose run on a hand-drawn level goes on: two levels deep and
/// won only at the bottom (a one-level run, or a Stomp run without
/// monsters, is won before its first move).
fn config_of(stomp: bool) -> Config {
    let mut config = Config {
        levels: 2,
        ..Config::default()
    };
    if stomp {
        config.simulation = delve::config::SimulationConfig::stomp();
    }
    config.simulation.goal = delve::config::Goal::ReachBottom;
    config
}

fn door_run(monsters: &[(u16, Pos)], kinds: Vec<delve::sim::MonsterKind>) -> Run {
    let config = config_of(false);
    assert!(config.revisions.rules >= 3);
    Run::on_level(config, kinds, doors_level(), Pos::new(4, 1), monsters)
}

#[test]
fn walking_into_a_closed_door_opens_it_and_takes_a_turn() {
    let mut run = door_run(&[], MonsterKind::defaults());
    let door = Pos::new(5, 1);
    assert!(!run.sees(Pos::new(7, 1)), "a closed door blocks sight");
    assert!(run.sees(door), "the door itself is seen, as a wall is");
    let events = run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    assert!(events.contains(&Event::Opened {
        at: door,
        by_player: true
    }));
    assert_eq!(run.turn(), 1, "opening takes the turn");
    assert_eq!(run.player().pos, Pos::new(4, 1), "the mover stays put");
    assert_eq!(run.current().level.tile(door), Tile::OpenDoor);
    assert!(
        run.sees(Pos::new(7, 1)),
        "an open door does not block sight"
    );
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    assert_eq!(run.player().pos, door, "then the doorway is walked through");
    // The secret door is rock to the player: walking into it is refused
    // and takes no time, and sight stops there.
    for _ in 0..5 {
        run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    }
    assert_eq!(run.player().pos, Pos::new(10, 1));
    let before = run.turn();
    assert_eq!(
        run.step(Action::Move { dx: 1, dy: 0 }).unwrap(),
        [Event::Blocked]
    );
    assert_eq!(run.turn(), before);
    assert!(!run.sees(Pos::new(13, 1)));
}

#[test]
fn close_closes_an_adjacent_open_door_and_refuses_otherwise() {
    let mut run = door_run(&[], MonsterKind::defaults());
    let door = Pos::new(5, 1);
    // Nothing to close: refused, no turn.
    assert_eq!(run.closable(1, 0), Err(Unclosable::NoDoor));
    assert_eq!(run.open_doors_around(), vec![]);
    assert_eq!(
        run.step(Action::Close { dx: 1, dy: 0 }).unwrap(),
        [Event::Blocked]
    );
    assert_eq!(run.turn(), 0);
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap(); // opens it
    assert_eq!(run.open_doors_around(), vec![(1, 0)]);
    let events = run.step(Action::Close { dx: 1, dy: 0 }).unwrap();
    assert_eq!(events, [Event::Closed { at: door }]);
    assert_eq!(run.turn(), 2);
    assert_eq!(run.current().level.tile(door), Tile::Door);
    assert!(
        !run.sees(Pos::new(7, 1)),
        "closed again, it blocks sight again"
    );
    assert!(run.log().last().unwrap().contains("close the door"));
    // A monster in the doorway blocks closing.
    let kobold = monster_kind("kobold", 10, &[Trait::OpensDoors]);
    let mut run = door_run(&[(0, Pos::new(7, 1))], vec![kobold]);
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    let mut blocked = false;
    for _ in 0..20 {
        if run.current().monster_at(door).is_some() {
            assert_eq!(run.closable(1, 0), Err(Unclosable::Monster));
            assert_eq!(
                run.step(Action::Close { dx: 1, dy: 0 }).unwrap(),
                [Event::Blocked]
            );
            blocked = true;
            break;
        }
        run.step(Action::Wait).unwrap();
    }
    assert!(blocked, "the kobold came into the doorway");
}

/// A telepathic monster behind the closed door, which always knows where
/// the player is: one that opens doors comes through; an animal never
/// gets past it.
#[test]
fn a_monster_that_cannot_open_doors_is_stopped_by_one() {
    let door = Pos::new(5, 1);
    for (opens, traits) in [
        (
            true,
            vec![Trait::Telepathic, Trait::Smart, Trait::OpensDoors],
        ),
        (false, vec![Trait::Telepathic, Trait::Smart]),
        (false, vec![Trait::Telepathic]),
    ] {
        let beast = monster_kind("wolf", 12, &traits);
        // Stomp: a monster reaching the player dies and costs a life.
        let mut config = config_of(true);
        config.simulation.lives = 9;
        let mut run = Run::on_level(
            config,
            vec![beast],
            doors_level(),
            Pos::new(1, 3),
            &[(0, Pos::new(8, 1))],
        );
        for _ in 0..60 {
            run.step(Action::Wait).unwrap();
        }
        let passed = run.player().lives < 9;
        assert_eq!(passed, opens, "{traits:?}");
        let tile = run.current().level.tile(door);
        assert_eq!(tile == Tile::OpenDoor, opens, "{traits:?}");
        if !opens {
            let m = &run.current().monsters[0];
            assert!(m.pos.x > 5, "the animal stays beyond the door: {:?}", m.pos);
        }
    }
}

/// Monsters know secret doors: one that opens doors passes a secret door
/// (opening it), where the player could not.
#[test]
fn a_monster_that_opens_doors_passes_a_secret_one() {
    let orc = monster_kind(
        "orc",
        10,
        &[Trait::Telepathic, Trait::Smart, Trait::OpensDoors],
    );
    let mut config = config_of(true);
    config.simulation.lives = 9;
    let mut run = Run::on_level(
        config,
        vec![orc],
        doors_level(),
        Pos::new(8, 1),
        &[(0, Pos::new(14, 2))],
    );
    for _ in 0..30 {
        run.step(Action::Wait).unwrap();
    }
    assert_eq!(run.current().level.tile(Pos::new(11, 1)), Tile::OpenDoor);
    assert!(run.player().lives < 9, "it came through");
}

/// A level for counting finds: a long corridor between two walls of secret
/// doors, so every cell of the corridor has three above and three below.
fn searching_level(length: usize) -> Level {
    let wall = format!(" {} ", "S".repeat(length));
    let corridor = format!(" {} ", "#".repeat(length));
    let edge = " ".repeat(length + 2);
    Level::from_rows(1, &[&edge, &wall, &corridor, &wall, &edge], vec![])
}

/// Searching finds each secret door next to the player with the
/// configured chance a turn, and walking past with the smaller passive
/// chance: over thousands of (door, turn) trials from the run's own
/// stream the rate found is within 0.05 of the chance (more than six
/// standard deviations), for three chances each.
#[test]
fn searching_finds_at_the_configured_chance() {
    for chance in [0.1, 0.3, 0.6] {
        let length = 900;
        let mut config = config_of(true);
        config.simulation.search_chance = chance;
        config.simulation.passive_search_chance = 0.0;
        let mut run = Run::on_level(config, vec![], searching_level(length), Pos::new(2, 2), &[]);
        let (mut trials, mut found) = (0u32, 0u32);
        // Search 4 turns on every third cell (each door beside one spot).
        for x in (2..length as u16).step_by(3) {
            while run.player().pos.x < x {
                run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
            }
            for _ in 0..4 {
                let here = run.player().pos;
                let hidden = (-1i32..=1)
                    .flat_map(|dx| [-1i32, 1].map(move |dy| (dx, dy)))
                    .filter(|&(dx, dy)| {
                        let p = Pos::new(
                            (i32::from(here.x) + dx) as u16,
                            (i32::from(here.y) + dy) as u16,
                        );
                        run.current().level.tile(p) == Tile::SecretDoor
                    })
                    .count() as u32;
                let events = run.step(Action::Search).unwrap();
                trials += hidden;
                found += events
                    .iter()
                    .filter(|e| matches!(e, Event::Found { .. }))
                    .count() as u32;
            }
            assert_eq!(run.searched_at(run.player().pos), 4);
        }
        let rate = f64::from(found) / f64::from(trials);
        assert!(trials > 2000, "{trials}");
        assert!(
            (rate - chance).abs() < 0.05,
            "chance {chance}: found {found} of {trials} ({rate:.3})"
        );
        assert!(run.log().iter().any(|l| l == "You find a hidden door."));
    }
    // Walking past: each move tries every secret door beside the cell it
    // ends on, once.
    let passive = 0.2;
    let length = 2400;
    let mut config = config_of(true);
    config.simulation.passive_search_chance = passive;
    let mut run = Run::on_level(config, vec![], searching_level(length), Pos::new(1, 2), &[]);
    let (mut trials, mut found) = (0u32, 0u32);
    for _ in 1..length {
        let to = run.player().pos.x + 1;
        let hidden = (to - 1..=to + 1)
            .flat_map(|x| [1u16, 3].map(move |y| Pos::new(x, y)))
            .filter(|&p| run.current().level.tile(p) == Tile::SecretDoor)
            .count() as u32;
        let events = run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
        assert_eq!(run.player().pos.x, to);
        trials += hidden;
        found += events
            .iter()
            .filter(|e| matches!(e, Event::Found { .. }))
            .count() as u32;
    }
    let rate = f64::from(found) / f64::from(trials);
    assert!(trials > 4000, "{trials}");
    assert!(
        (rate - passive).abs() < 0.05,
        "found {found} of {trials} ({rate:.3})"
    );
}

/// Under rules 2 a door is an open doorway, as it always was: seen
/// through and walked through, never closed.
#[test]
fn rules_2_keep_doorways() {
    let config = Config {
        revisions: Revisions {
            generator: 2,
            rules: 2,
        },
        ..config_of(false)
    };
    let level = Level::from_rows(
        1,
        &[
            "                ",
            " ....+######... ",
            " ....      .... ",
            "                ",
        ],
        vec![rect_room(1, 1, 4, 2), rect_room(12, 1, 3, 2)],
    );
    let mut run = Run::on_level(config, MonsterKind::defaults(), level, Pos::new(4, 1), &[]);
    assert_eq!(run.doors(), Doors::Doorways);
    assert!(run.sees(Pos::new(8, 1)));
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    assert_eq!(run.player().pos, Pos::new(5, 1));
    assert_eq!(run.current().level.tile(Pos::new(5, 1)), Tile::Door);
    assert_eq!(run.closable(-1, 0), Err(Unclosable::NoDoor));
}

/// A run that searches, closes and opens replays from its journal to the
/// same state, digest for digest.
#[test]
fn a_journal_replays_searching_and_closing() {
    use delve::journal::{Checkpoint, Start, decode, encode};
    use delve::sim::replay::Replay;
    use delve::sim::{ItemKind, autopilot};
    let config = Config::from_ron(
        "(width: 80, height: 40, levels: 2, secret_doors: 0.5, corridors: DeadEnd, rooms: (count: (max: 14)))",
        "t",
    )
    .unwrap();
    let kinds = MonsterKind::defaults();
    let mut run = Run::new(config.clone(), kinds.clone(), 11).unwrap();
    let start_digest = run.digest();
    let (mut searched, mut closed, mut opened) = (0, 0, 0);
    for turn in 0..1500 {
        if run.outcome() != Outcome::Playing {
            break;
        }
        let action = match turn % 7 {
            0 => Action::Search,
            3 => match run.open_doors_around().first() {
                Some(&(dx, dy)) => Action::Close { dx, dy },
                None => autopilot(&mut run),
            },
            _ => autopilot(&mut run),
        };
        let events = run.step(action).unwrap();
        searched += usize::from(action == Action::Search);
        closed += events
            .iter()
            .filter(|e| matches!(e, Event::Closed { .. }))
            .count();
        opened += events
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Opened {
                        by_player: true,
                        ..
                    }
                )
            })
            .count();
    }
    assert!(
        searched > 100 && closed > 0 && opened > 0,
        "{searched} {closed} {opened}"
    );
    let recording = run.recording().unwrap().clone();
    let end = Checkpoint {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    };
    let start = Start {
        seed: 11,
        config,
        kinds,
        items: ItemKind::defaults(),
        vaults: run.vaults().to_vec(),
    };
    let journal = decode(&encode(&start, start_digest, &recording, end), "j").unwrap();
    let mut replay = Replay::new(
        journal.start.config,
        journal.start.kinds,
        journal.start.seed,
        journal.recording,
    )
    .unwrap();
    replay.finish().unwrap();
    assert_eq!(replay.run().digest(), run.digest());
    assert_eq!(replay.run(), &run);
}

/// The viewer's count prefix: digits then a command repeat it; a search
/// counted on the spot searched; a count cancelled; a count stops when a
/// monster comes into view.
#[test]
fn a_count_repeats_search_and_wait_until_interrupted() {
    let config = config_of(true);
    let run = Run::on_level(config.clone(), vec![], doors_level(), Pos::new(9, 1), &[]);
    let mut app = App::new(run, Keymap::default(), "count".into());
    let press = |app: &mut App, keys: &str| {
        for k in Key::typed(keys) {
            app.press(k).unwrap();
            app.finish(10_000).unwrap();
        }
    };
    press(&mut app, "5s");
    assert_eq!(app.run().turn(), 5);
    assert_eq!(app.run().searched_at(Pos::new(9, 1)), 5);
    press(&mut app, "12.");
    assert_eq!(app.run().turn(), 17);
    press(&mut app, "s");
    assert_eq!(app.run().turn(), 18);
    assert!(
        app.messages().iter().any(|m| m.contains("find nothing")),
        "{:?}",
        app.messages()
    );
    // A count then Esc: cancelled, nothing done.
    press(&mut app, "40");
    assert_eq!(app.count(), Some(40));
    app.press(Key::Esc).unwrap();
    assert_eq!(app.count(), None);
    assert_eq!(app.run().turn(), 18);
    // 3h walks three cells west.
    press(&mut app, "3h");
    assert_eq!(app.run().player().pos, Pos::new(6, 1));
    assert_eq!(app.run().turn(), 21);
    // A monster coming into view stops a counted wait: a kobold walking
    // in from the east room through the open secret door.
    let kobold = monster_kind(
        "kobold",
        10,
        &[Trait::Telepathic, Trait::Smart, Trait::OpensDoors],
    );
    let run = Run::on_level(
        config,
        vec![kobold],
        doors_level(),
        Pos::new(2, 2),
        &[(0, Pos::new(15, 3))],
    );
    let mut app = App::new(run, Keymap::default(), "count".into());
    press(&mut app, "200.");
    assert!(
        app.run().turn() < 200,
        "stopped early at {}",
        app.run().turn()
    );
    assert!(!app.busy());
}

/// `c` in the viewer: with no open door beside the player it says so and
/// no turn passes; with one it closes it; with two it asks which way.
#[test]
fn the_close_key_closes_or_asks_which_way() {
    let level = Level::from_rows(
        1,
        &[
            "         ",
            " ...'... ",
            " ...'... ",
            " ....... ",
            "         ",
        ],
        vec![rect_room(1, 1, 7, 3)],
    );
    let run = Run::on_level(config_of(false), vec![], level, Pos::new(1, 3), &[]);
    let mut app = App::new(run, Keymap::default(), "close".into());
    app.press(Key::Char('c')).unwrap();
    assert!(app.messages().iter().any(|m| m.contains("no open door")));
    assert_eq!(app.run().turn(), 0);
    app.press(Key::Char('l')).unwrap();
    app.press(Key::Char('u')).unwrap(); // beside both doors
    assert_eq!(app.run().player().pos, Pos::new(3, 2));
    app.press(Key::Char('c')).unwrap();
    assert_eq!(app.mode(), delve::view::Mode::CloseWhich);
    app.press(Key::Char('u')).unwrap(); // north-east
    assert_eq!(app.mode(), delve::view::Mode::Map);
    assert_eq!(app.run().current().level.tile(Pos::new(4, 1)), Tile::Door);
    assert_eq!(app.run().turn(), 3);
    app.press(Key::Char('c')).unwrap(); // one left: closed at once
    assert_eq!(app.run().current().level.tile(Pos::new(4, 2)), Tile::Door);
    assert_eq!(app.run().turn(), 4);
}

/// Door tiles where no door can be are refused on load, in words: an open
/// or secret door in a run of rules 2 (which never open, close or hide
/// one), and under rules 3 the player standing on a closed door (a mover
/// opens one and stays) or a secret door cutting the stairs off (above).
#[test]
fn a_forged_door_state_is_refused_on_load() {
    let rows = |door: char| {
        let blank = " ".repeat(30);
        let row = format!(" <..{door}....>{}", " ".repeat(20));
        let mut rows = vec![blank.clone(), row];
        rows.resize(15, blank);
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let mut west = rect_room(1, 1, 3, 1);
        west.doors.push(delve::Door {
            pos: Pos::new(4, 1),
        });
        Level::from_rows(1, &rows, vec![west, rect_room(5, 1, 5, 1)])
    };
    let load = |run: &Run| {
        delve::save::decode(&delve::save::encode(run, 0), "forged.sav")
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let mut config = Config::from_ron(
        "(width: 30, height: 15, levels: 2, rooms: (count: (min: 2, max: 2)), vaults: (count: (max: 0)))",
        "t",
    )
    .unwrap();
    let good = Run::on_level(
        config.clone(),
        MonsterKind::defaults(),
        rows('+'),
        Pos::new(2, 1),
        &[],
    );
    assert_eq!(load(&good), Ok(()), "the honest level loads");
    let open = Run::on_level(
        config.clone(),
        MonsterKind::defaults(),
        rows('\''),
        Pos::new(2, 1),
        &[],
    );
    assert_eq!(load(&open), Ok(()), "an open door under rules 3");
    config.revisions.rules = 2;
    let run = Run::on_level(
        config.clone(),
        MonsterKind::defaults(),
        rows('\''),
        Pos::new(2, 1),
        &[],
    );
    let e = load(&run).unwrap_err();
    assert!(
        e.contains("an open door at 4,1, which rules 2 do not have"),
        "{e}"
    );
    // This secret door also cuts the stairs off, which is found first.
    let run = Run::on_level(
        config.clone(),
        MonsterKind::defaults(),
        rows('S'),
        Pos::new(2, 1),
        &[],
    );
    let e = load(&run).unwrap_err();
    assert!(e.contains("only through a secret door"), "{e}");
    config.revisions.rules = 3;
    let on_door = Run::on_level(
        config.clone(),
        MonsterKind::defaults(),
        rows('+'),
        Pos::new(4, 1),
        &[],
    );
    let e = load(&on_door).unwrap_err();
    assert!(
        e.contains("the player stands outside the open floor"),
        "{e}"
    );
}
