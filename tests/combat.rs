//! The Combat rules on hand-built levels, items through the viewer's keys,
//! the morgue file and scores, and the promises Combat runs keep over
//! random seeds.

use delve::config::{Goal, SimulationConfig};
use delve::dice::Dice;
use delve::geom::Rect;
use delve::sim::Pack;
use delve::sim::batch::run_batch;
use delve::sim::{Action, Event, ItemKind, MonsterKind, Outcome, Run, Trait, autopilot};
use delve::sim::{Item, ItemClass, PotionEffect, WandEffect};
use delve::view::{App, Key, Keymap, Mode};
use delve::{Config, Level, Pos, Room, Shape, Tile};
use proptest::prelude::*;

/// A monster that always hits for exactly `damage`, or never hits.
fn brute(name: &str, hp: u16, damage: u16) -> MonsterKind {
    MonsterKind {
        name: name.into(),
        glyph: name.chars().next().unwrap(),
        hp: Dice::new(0, 0, hp),
        damage: Dice::new(0, 0, damage),
        ..MonsterKind::default()
    }
}

/// Combat rules where every attack hits (or, with `certain` false, misses),
/// without regeneration unless asked.
fn combat_config(hit: u8) -> Config {
    // Two levels, the player on the first: nothing wins the run while a
    // test plays on the hand-built level.
    let mut config = Config {
        levels: 2,
        ..Config::default()
    };
    assert_eq!(config.simulation.goal, Goal::ReachBottom);
    let c = &mut config.simulation.combat;
    c.hit_chance = hit.max(1);
    c.min_hit = hit;
    c.armour_step = 0;
    c.regen_every = 0;
    c.player_hp = 20;
    c.unarmed = Dice::new(0, 0, 3);
    config
}

/// One open room, 12x5, in solid rock, with an up staircase at (1, 1).
fn room_level() -> Level {
    let mut level = Level::from_rows(
        1,
        &[
            "                ",
            " <...........   ",
            " ............   ",
            " ............   ",
            " ............   ",
            " ............   ",
            "                ",
        ],
        vec![Room {
            shape: Shape::Rect(Rect {
                x: 1,
                y: 1,
                width: 12,
                height: 5,
            }),
            doors: vec![],
        }],
    );
    assert_eq!(level.tile(Pos::new(1, 1)), Tile::UpStairs);
    let _ = &mut level;
    level
}

/// A run on the room level with the player at (2, 3) and one monster of
/// `kind` right of it, at (3, 3).
fn facing(config: Config, kind: MonsterKind) -> Run {
    Run::on_level(
        config,
        vec![kind],
        room_level(),
        Pos::new(2, 3),
        &[(0, Pos::new(3, 3))],
    )
}

const RIGHT: Action = Action::Move { dx: 1, dy: 0 };

fn kind_named(run: &Run, name: &str) -> u16 {
    run.combat()
        .unwrap()
        .items
        .iter()
        .position(|k| k.name == name)
        .unwrap_or_else(|| panic!("no item kind {name}")) as u16
}

#[test]
fn a_hit_takes_hit_points_and_a_kill_counts() {
    let mut run = facing(combat_config(100), brute("kobold", 5, 0));
    let events = run.step(RIGHT).unwrap();
    assert!(
        events.contains(&Event::Attacked {
            by_player: true,
            kind: "kobold".into(),
            damage: Some(3)
        }),
        "{events:?}"
    );
    // The player attacks in place of moving.
    assert_eq!(run.player().pos, Pos::new(2, 3));
    let m = &run.current().monsters[0];
    assert_eq!(run.monster_hp(m), Some((2, 5)));
    let events = run.step(RIGHT).unwrap();
    assert!(
        events.contains(&Event::Killed {
            kind: "kobold".into()
        }),
        "{events:?} {:?}",
        run.log()
    );
    assert!(run.current().monsters.is_empty());
    assert_eq!(run.killed(), 1);
    assert_eq!(run.combat().unwrap().kills, vec![1]);
    assert_eq!(run.combat().unwrap().hero.xp, 5);
}

#[test]
fn a_miss_does_nothing_but_take_the_turn() {
    let mut run = facing(combat_config(0), brute("kobold", 5, 4));
    let events = run.step(RIGHT).unwrap();
    assert!(
        events.contains(&Event::Attacked {
            by_player: true,
            kind: "kobold".into(),
            damage: None
        }),
        "{events:?}"
    );
    assert!(events.contains(&Event::Attacked {
        by_player: false,
        kind: "kobold".into(),
        damage: None
    }));
    assert_eq!(run.turn(), 1);
    assert_eq!(run.hp(), 20);
    assert_eq!(run.monster_hp(&run.current().monsters[0]), Some((5, 5)));
}

#[test]
fn armour_lowers_the_chance_to_be_hit() {
    // 80% against no armour, 5 points off a point of armour: plate (9)
    // leaves 35%. Count hits over many turns of a monster that cannot die.
    let hits_with = |armour: Option<&str>| {
        let mut config = combat_config(80);
        config.simulation.combat.armour_step = 5;
        config.simulation.combat.min_hit = 5;
        config.simulation.combat.player_hp = 1000;
        config.simulation.lives = 99;
        let mut run = facing(config, brute("golem", 10_000, 1));
        if let Some(name) = armour {
            let kind = kind_named(&run, name);
            run.combat_mut().unwrap().hero.armour = Some(kind);
        }
        // Heavy armour slows the wearer (rules 4), so the golem gets more
        // attacks in: count hits per attack, scaled to 2000 attacks.
        let (mut hits, mut attacks) = (0, 0);
        for _ in 0..2000 {
            let events = run.step(Action::Wait).unwrap();
            for e in &events {
                if let Event::Attacked {
                    by_player: false,
                    damage,
                    ..
                } = e
                {
                    attacks += 1;
                    hits += usize::from(damage.is_some());
                }
            }
            // Keep the player alive and in place.
            run.combat_mut().unwrap().hero.hp = 1000;
        }
        hits * 2000 / attacks
    };
    let bare = hits_with(None);
    let plated = hits_with(Some("plate armour"));
    assert!((1450..1750).contains(&bare), "{bare} hits of 2000 at 80%");
    assert!((550..850).contains(&plated), "{plated} hits of 2000 at 35%");
}

#[test]
fn the_player_regenerates_slowly_up_to_the_maximum() {
    let mut config = combat_config(100);
    config.simulation.combat.regen_every = 5;
    let mut run = Run::on_level(
        config,
        vec![brute("rat", 1, 1)],
        room_level(),
        Pos::new(2, 3),
        &[],
    );
    run.combat_mut().unwrap().hero.hp = 17;
    for _ in 0..4 {
        run.step(Action::Wait).unwrap();
    }
    assert_eq!(run.hp(), 17);
    run.step(Action::Wait).unwrap(); // turn 5
    assert_eq!(run.hp(), 18);
    for _ in 0..30 {
        run.step(Action::Wait).unwrap();
    }
    assert_eq!(run.hp(), 20, "never above the maximum");
}

#[test]
fn at_zero_hit_points_a_life_goes_and_the_player_wakes_on_the_stairs() {
    let mut run = Run::on_level(
        combat_config(100),
        vec![brute("ogre", 50, 25)],
        room_level(),
        Pos::new(8, 3),
        &[(0, Pos::new(9, 3))],
    );
    let events = run.step(Action::Wait).unwrap();
    assert!(
        events.contains(&Event::Slain {
            kind: "ogre".into(),
            lives: 2
        }),
        "{events:?}"
    );
    assert_eq!(run.player().lives, 2);
    assert_eq!(run.hp(), run.max_hp());
    assert_eq!(run.player().pos, Pos::new(1, 1), "on the up staircase");
    assert_eq!(run.outcome(), Outcome::Playing);
}

#[test]
fn the_last_life_loses_the_run_and_names_the_cause() {
    let mut config = combat_config(100);
    config.simulation.lives = 1;
    let mut run = Run::on_level(
        config,
        vec![brute("ogre", 50, 25)],
        room_level(),
        Pos::new(8, 3),
        &[(0, Pos::new(9, 3))],
    );
    let events = run.step(Action::Wait).unwrap();
    assert!(events.contains(&Event::Lost), "{events:?}");
    assert_eq!(run.outcome(), Outcome::Lost);
    assert_eq!(run.combat().unwrap().cause.as_deref(), Some("ogre"));
    // The morgue file of a lost run holds the cause and the final map.
    let morgue = run
        .morgue("hero", "2026-11-23 14:00 UTC", run.known_map())
        .to_text();
    assert!(morgue.contains("Killed by an ogre on depth 1"), "{morgue}");
    assert!(morgue.contains("<..."), "{morgue}");
    assert!(morgue.contains('@'), "{morgue}");
    assert!(morgue.contains("The ogre kills you."), "{morgue}");
}

/// A run on the room level with one item of each named kind in the pack.
fn with_pack(names: &[&str]) -> Run {
    let mut run = Run::on_level(
        combat_config(100),
        vec![brute("rat", 1, 1)],
        room_level(),
        Pos::new(5, 3),
        &[],
    );
    let kinds: Vec<u16> = names.iter().map(|n| kind_named(&run, n)).collect();
    run.combat_mut().unwrap().hero.pack = Pack::of(&kinds);
    run
}

#[test]
fn potions_heal_strengthen_and_harden() {
    let mut run = with_pack(&[
        "potion of healing",
        "potion of vigour",
        "potion of stoneskin",
    ]);
    run.combat_mut().unwrap().hero.hp = 3;
    run.step(Action::Quaff { slot: 0 }).unwrap();
    let healed = run.hp();
    // 6+2d6: 8 to 18, capped at 20.
    assert!((11..=20).contains(&healed), "{healed}");
    assert_eq!(run.combat().unwrap().hero.pack.items(), 2);
    let max = run.max_hp();
    run.step(Action::Quaff { slot: 1 }).unwrap();
    assert_eq!(run.max_hp(), max + 6);
    assert_eq!(run.hp(), healed + 6);
    let armour = run.hero_armour();
    run.step(Action::Quaff { slot: 2 }).unwrap();
    assert_eq!(run.hero_armour(), armour + 6);
    for _ in 0..80 {
        run.step(Action::Wait).unwrap();
    }
    assert_eq!(
        run.combat().unwrap().armour(run.turn()),
        armour,
        "wears off"
    );
    // A scroll is not for drinking: no time passes.
    let mut run = with_pack(&["scroll of teleportation"]);
    assert_eq!(
        run.step(Action::Quaff { slot: 0 }).unwrap(),
        vec![Event::Blocked]
    );
    assert_eq!(run.turn(), 0);
}

#[test]
fn scrolls_map_the_level_and_teleport() {
    let mut run = with_pack(&["scroll of magic mapping", "scroll of teleportation"]);
    let unseen = (0..run.current().level.tiles().len())
        .map(|i| run.current().level.pos(i))
        .filter(|&p| run.current().level.tile(p).is_walkable() && !run.current().has_seen(p))
        .count();
    run.step(Action::Read { slot: 0 }).unwrap();
    let unseen_after = (0..run.current().level.tiles().len())
        .map(|i| run.current().level.pos(i))
        .filter(|&p| run.current().level.tile(p).is_walkable() && !run.current().has_seen(p))
        .count();
    assert_eq!(unseen_after, 0, "{unseen} open cells were unseen before");
    let before = run.player().pos;
    let events = run.step(Action::Read { slot: 1 }).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::Moved { .. })),
        "{events:?}"
    );
    assert_ne!(run.player().pos, before);
    assert_eq!(run.current().level.tile(run.player().pos), Tile::Floor);
    assert!(run.combat().unwrap().hero.pack.is_empty());
}

#[test]
fn wielding_changes_the_damage_and_swaps_the_old_weapon_back() {
    let mut run = with_pack(&["dagger", "war hammer", "chain mail"]);
    run.step(Action::Wield { slot: 0 }).unwrap();
    let dagger = kind_named(&run, "dagger");
    assert_eq!(run.combat().unwrap().hero.weapon, Some(dagger));
    // Wielding the hammer (b) puts the dagger back in the pack...
    run.step(Action::Wield { slot: 1 }).unwrap();
    let state = run.combat().unwrap();
    assert_eq!(state.kind(state.hero.weapon.unwrap()).name, "war hammer");
    // ...at the letter the hammer left (b), the mail keeping its own (c).
    assert_eq!(state.hero.pack.get(1).map(|l| l.kind), Some(dagger));
    let slot = state
        .hero
        .pack
        .lines()
        .find(|(_, l)| state.kind(l.kind).name == "chain mail")
        .map(|(i, _)| i);
    assert_eq!(slot, Some(2));
    run.step(Action::Wield {
        slot: slot.unwrap() as u8,
    })
    .unwrap();
    assert_eq!(run.hero_armour(), 6);
}

/// The item kinds of every class do what they say (a check over the data,
/// so a new kind cannot ship with an effect the rules ignore).
#[test]
fn every_shipped_item_kind_can_be_used() {
    for (i, kind) in ItemKind::defaults().iter().enumerate() {
        let mut run = with_pack(&[]);
        let k = i as u16;
        let pack = &mut run.combat_mut().unwrap().hero.pack;
        *pack = Pack::of(&[k]);
        // A wand's line counts its charges.
        if let ItemClass::Wand { .. } = kind.class {
            pack.add_many(k, 0, 2);
        }
        run.combat_mut().unwrap().hero.hp = 5;
        // A launcher readied for ammunition.
        if let ItemClass::Missile {
            ammo: Some(ammo), ..
        } = kind.class
        {
            let launcher = ItemKind::defaults()
                .iter()
                .position(|l| matches!(l.class, ItemClass::Launcher { ammo: a, .. } if a == ammo));
            run.tactics_mut().unwrap().launcher = launcher.map(|l| l as u16);
        }
        let here = run.player().pos;
        let action = match kind.class {
            ItemClass::Weapon { .. } | ItemClass::Armour { .. } | ItemClass::Launcher { .. } => {
                Action::Wield { slot: 0 }
            }
            ItemClass::Potion(_) => Action::Quaff { slot: 0 },
            ItemClass::Scroll(_) => Action::Read { slot: 0 },
            // Eight cells right is rock beyond the room's wall: to dig.
            ItemClass::Wand { .. } => Action::Zap {
                slot: 0,
                x: here.x + 8,
                y: here.y,
            },
            ItemClass::Missile { .. } => Action::Fire {
                slot: 0,
                x: here.x + 2,
                y: here.y,
            },
        };
        let events = run.step(action).unwrap();
        assert_ne!(events, vec![Event::Blocked], "{}", kind.name);
        let state = run.combat().unwrap();
        let tactics = run.tactics().unwrap();
        assert!(tactics.known[i], "{} is known once used", kind.name);
        match kind.class {
            ItemClass::Weapon { .. } => assert_eq!(state.hero.weapon, Some(k)),
            ItemClass::Armour { .. } => assert_eq!(state.hero.armour, Some(k)),
            ItemClass::Launcher { .. } => assert_eq!(tactics.launcher, Some(k)),
            ItemClass::Potion(PotionEffect::Healing(_) | PotionEffect::Vigour(_)) => {
                assert!(run.hp() > 5, "{}", kind.name)
            }
            ItemClass::Potion(PotionEffect::Stoneskin { armour, .. }) => {
                assert_eq!(run.hero_armour(), armour)
            }
            ItemClass::Potion(PotionEffect::Lasting { effect, .. }) => {
                assert!(run.hero_has(effect), "{}", kind.name)
            }
            ItemClass::Potion(PotionEffect::Cure) | ItemClass::Scroll(_) => {
                assert!(state.hero.pack.is_empty(), "{}", kind.name)
            }
            ItemClass::Wand { effect, .. } => {
                // A charge used of three.
                assert_eq!(state.hero.pack.get(0).map(|l| l.count), Some(2));
                if let WandEffect::Digging(_) = effect {
                    assert!(events.iter().any(|e| matches!(e, Event::Dug { .. })));
                }
            }
            ItemClass::Missile { .. } => {
                assert!(state.hero.pack.is_empty());
                assert_eq!(
                    state.floors[0].items.len(),
                    1,
                    "{} lies where it fell",
                    kind.name
                );
            }
        }
    }
}

/// Keys through the viewer: g picks up, i lists, w wields, q quaffs, r
/// reads, d drops.
#[test]
fn items_through_the_keys() {
    let mut run = with_pack(&[]);
    // Every kind known, as under the rules before 4.
    run.tactics_mut().unwrap().known.fill(true);
    let here = run.player().pos;
    let dagger = kind_named(&run, "dagger");
    let healing = kind_named(&run, "potion of healing");
    let mapping = kind_named(&run, "scroll of magic mapping");
    run.combat_mut().unwrap().floors[0].items = vec![
        Item {
            kind: mapping,
            pos: here,
        },
        Item {
            kind: healing,
            pos: here,
        },
        Item {
            kind: dagger,
            pos: here,
        },
    ];
    run.combat_mut().unwrap().hero.hp = 4;
    let mut app = App::new(run, Keymap::default(), "keys".into());
    app.resize(80, 24);
    let typed = |app: &mut App, text: &str| {
        for key in Key::typed(text) {
            app.press(key).unwrap();
        }
    };
    typed(&mut app, "g,g");
    let state = app.run().combat().unwrap();
    assert_eq!(state.hero.pack, Pack::of(&[dagger, healing, mapping]));
    assert_eq!(app.run().turn(), 3);
    typed(&mut app, "i");
    assert_eq!(app.mode(), Mode::Inventory);
    let screen = delve::view::screen::text(&delve::view::screen::frame(&app, 80, 24));
    assert!(screen.contains("a - a dagger (1+1d4)"), "{screen}");
    app.press(Key::Esc).unwrap();
    typed(&mut app, "wa");
    assert_eq!(app.run().combat().unwrap().hero.weapon, Some(dagger));
    // Every item keeps its letter: the potion is still b, the scroll c.
    typed(&mut app, "qb");
    assert!(app.run().hp() > 4);
    typed(&mut app, "rc");
    assert!(app.run().combat().unwrap().hero.pack.is_empty());
    // Nothing left to drop: the prompt is not even asked.
    typed(&mut app, "d");
    assert_eq!(app.mode(), Mode::Map);
    assert!(
        app.messages()
            .iter()
            .any(|m| m.contains("not carrying anything")),
        "{:?}",
        app.messages()
    );
    let screen = delve::view::screen::text(&delve::view::screen::frame(&app, 80, 24));
    assert!(screen.contains("HP "), "{screen}");
    assert!(screen.contains("Wielding a dagger"), "{screen}");
}

/// What a newcomer met: item prompts offer only the letters that fit,
/// say so when none does; the status line holds the weapon whole or not
/// at all at 80 columns; `f` with stones and no sling says why.
#[test]
fn prompts_offer_what_fits_and_the_status_line_never_cuts_a_word() {
    let mut run = with_pack(&["great sword", "sling stone", "potion of healing"]);
    run.tactics_mut().unwrap().known.fill(true);
    let mut app = App::new(run, Keymap::default(), "keys".into());
    app.resize(80, 24);
    let typed = |app: &mut App, text: &str| {
        for key in Key::typed(text) {
            app.press(key).unwrap();
        }
    };
    let status = |app: &App| {
        let screen = delve::view::screen::text(&delve::view::screen::frame(app, 80, 24));
        screen.lines().nth(22).unwrap().trim_end().to_string()
    };
    // Drinking offers the potion's letter only; reading has nothing.
    typed(&mut app, "q");
    let screen = delve::view::screen::text(&delve::view::screen::frame(&app, 80, 24));
    assert!(screen.contains("Drink which potion? [c]"), "{screen}");
    app.press(Key::Esc).unwrap();
    typed(&mut app, "r");
    assert_eq!(app.mode(), Mode::Map);
    assert!(
        app.messages().iter().any(|m| m == "You have no scrolls."),
        "{:?}",
        app.messages()
    );
    // Stones without a sling: nothing to fire, and why.
    typed(&mut app, "f");
    assert!(
        app.messages()
            .iter()
            .any(|m| m.contains("need a readied sling")),
        "{:?}",
        app.messages()
    );
    // A long weapon and a long game: the weapon shows whole (with or
    // without its dice) or not at all, never cut off.
    typed(&mut app, "wa");
    for _ in 0..1200 {
        typed(&mut app, ".");
    }
    let line = status(&app);
    assert!(
        line.starts_with("Depth 1/") && line.contains("Turn 12"),
        "{line}"
    );
    assert!(line.chars().count() <= 80, "{line}");
    assert!(
        line.ends_with("Wielding a great sword (4+3d6)")
            || line.ends_with("Wielding a great sword")
            || !line.contains("Wielding"),
        "{line}"
    );
}

#[test]
fn the_autopilot_plays_a_combat_run_to_its_end() {
    let config = Config {
        levels: 3,
        width: 80,
        height: 40,
        ..Config::default()
    };
    let mut run = Run::new(config, MonsterKind::defaults(), 3).unwrap();
    delve::sim::play_headless(&mut run, 20_000).unwrap();
    assert_ne!(run.outcome(), Outcome::Playing, "turn {}", run.turn());
    assert!(run.killed() > 0);
}

/// The autopilot's positions over `turns` more turns (or to the run's
/// end), one a turn: depth and cell.
fn positions(run: &mut Run, turns: u64) -> Vec<(u16, Pos)> {
    let mut seen = Vec::new();
    let stop = run.turn() + turns;
    while run.turn() < stop && run.outcome() == Outcome::Playing {
        let action = autopilot(run);
        run.step(action).unwrap();
        seen.push((run.player().depth, run.player().pos));
    }
    seen
}

/// The longest stretch of turns spent pacing between two cells (A, B, A,
/// B, ...), and the turn it ended: 0 when the walk never doubles back.
fn longest_pacing(walk: &[(u16, Pos)]) -> (usize, usize) {
    let (mut longest, mut at, mut run) = (0, 0, 0);
    for i in 2..walk.len() {
        if walk[i] == walk[i - 2] && walk[i] != walk[i - 1] {
            run += 1;
            if run > longest {
                (longest, at) = (run, i);
            }
        } else {
            run = 0;
        }
    }
    (longest, at)
}

/// A maze corner the shipped mazes make: a telepathic monster at the end
/// of a corridor, one diagonal squeeze from the player's corridor, never
/// able to step closer (nobody squeezes between rock corners). The only
/// walk to it is a long loop that leaves its sight at once; the unexplored
/// rest of the level lies the other way.
fn stuck_monster_level() -> Level {
    Level::from_rows(
        1,
        &[
            "                         ",
            " ################        ",
            " #              #        ",
            " #              #        ",
            " #              #        ",
            " ###############         ",
            "               #         ",
            "               #         ",
            "               #         ",
            "               #         ",
            "               #         ",
            "        ...............  ",
            "        ...............  ",
            "        .......>.......  ",
            "                         ",
        ],
        vec![],
    )
}

#[test]
fn the_autopilot_does_not_pace_between_a_stuck_monster_and_the_frontier() {
    let wraith = MonsterKind {
        traits: vec![Trait::Telepathic],
        ..brute("wraith", 10, 1)
    };
    // Seen from (14, 5), not from (13, 5); its shortest walk starts west.
    let mut run = Run::on_level(
        combat_config(100),
        vec![wraith],
        stuck_monster_level(),
        Pos::new(14, 5),
        &[(0, Pos::new(16, 4))],
    );
    assert!(run.sees(Pos::new(16, 4)));
    let walk = positions(&mut run, 300);
    let (pacing, at) = longest_pacing(&walk);
    assert!(
        pacing < 6,
        "paced {pacing} turns to turn {at}: {:?}",
        &walk[..20]
    );
    // It gets past the monster: down the corridor to the room.
    assert!(
        walk.iter().any(|&(_, p)| p.y >= 11),
        "never reached the room: {:?}",
        &walk[..20]
    );
}

/// The shipped config's seeds whose runs paced between two cells of a
/// depth 8 maze from the turn given to their 50,000th (a monster stuck at
/// a corridor's corner seen from one cell and not the next): they play on.
#[test]
fn shipped_runs_that_paced_in_the_mazes_play_on() {
    for (seed, paced_from) in [(5060, 15_784), (5099, 12_055), (5165, 17_477)] {
        let mut run = Run::with_items(
            Config::shipped(),
            MonsterKind::defaults(),
            ItemKind::defaults(),
            delve::vault::shipped().to_vec(),
            seed,
        )
        .unwrap();
        let walk = positions(&mut run, paced_from + 2_000);
        let (pacing, at) = longest_pacing(&walk);
        assert!(
            pacing < 40,
            "seed {seed}: paced {pacing} turns to turn {at} at {:?}",
            walk[at]
        );
    }
}

#[test]
fn runs_do_not_depend_on_the_number_of_threads() {
    let config = Config {
        levels: 2,
        width: 60,
        height: 30,
        ..Config::default()
    };
    let play = |seed: u64| {
        let mut run = Run::new(config.clone(), MonsterKind::defaults(), seed).unwrap();
        let actions = delve::sim::batch::play_counting(&mut run, 1500).unwrap();
        delve::sim::batch::RunRecord::of(&run, actions)
    };
    let one = run_batch(40, 6, 1, play, || {});
    assert_eq!(run_batch(40, 6, 2, play, || {}), one);
    assert_eq!(run_batch(40, 6, 5, play, || {}), one);
    assert_eq!(one[0].seed, 40);
}

#[test]
fn a_stomp_run_has_no_combat_state() {
    let config = Config {
        levels: 2,
        simulation: SimulationConfig::stomp(),
        ..Config::default()
    };
    assert_eq!(config.simulation.goal, Goal::KillAll);
    let run = Run::new(config, MonsterKind::stomp(), 1).unwrap();
    assert!(run.combat().is_none());
    assert_eq!(run.hp(), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// HP never above its maximum, never an item in rock, never two actors
    /// on a cell, and the same seed gives the same digest.
    #[test]
    fn combat_runs_keep_their_promises(seed in any::<u64>(), levels in 1u16..4) {
        let config = Config {
            levels,
            width: 60,
            height: 30,
            ..Config::default()
        };
        let Ok(mut run) = Run::new(config.clone(), MonsterKind::defaults(), seed) else {
            return Ok(());
        };
        let mut twin = Run::new(config, MonsterKind::defaults(), seed).unwrap();
        for _ in 0..600 {
            if run.outcome() != Outcome::Playing {
                break;
            }
            let action = autopilot(&mut run);
            run.step(action).unwrap();
            twin.step(action).unwrap();
            prop_assert!(run.hp() <= run.max_hp());
            let state = run.current();
            let level = &state.level;
            for item in &run.floor().unwrap().items {
                prop_assert!(level.tile(item.pos).is_walkable());
            }
            for (i, m) in state.monsters.iter().enumerate() {
                prop_assert!(m.pos != run.player().pos);
                prop_assert!(state.monsters[..i].iter().all(|o| o.pos != m.pos));
            }
            prop_assert!(run.validate().is_ok(), "{:?}", run.validate());
        }
        prop_assert_eq!(run.digest(), twin.digest());
    }
}

mod cli {
    use crate::common::{TempDir, delve, delve_in, ok, refused, stdout};

    const SMALL: &str = "(width: 60, height: 30, levels: 3)";

    #[test]
    fn a_bad_item_file_is_located_and_refused() {
        let dir = TempDir::new("items");
        let text = include_str!("../data/items.ron").replacen("rarity: 2", "rarity: 0", 1);
        let items = dir.file("items.ron", &text);
        let out = delve(&["simulate", "--seed", "1", "--items", &items]);
        let err = refused(&out);
        assert!(err.contains("items.ron:"), "{err}");
        assert!(
            err.contains("[0].rarity: must be from 1 to 1000, got 0"),
            "{err}"
        );
        let monsters = dir.file(
            "monsters.ron",
            "[(name: \"rat\", glyph: 'r', colour: Red, speed: 10, hp: \"2d\")]",
        );
        let err = refused(&delve(&["simulate", "--monsters", &monsters]));
        assert!(err.contains("monsters.ron:1:"), "{err}");
        assert!(err.contains("number of sides is missing"), "{err}");
    }

    #[test]
    fn runs_report_the_same_for_any_jobs_in_text_and_json() {
        let dir = TempDir::new("runs");
        let config = dir.file("small.ron", SMALL);
        let run = |jobs: &str, format: &str| {
            let out = delve(&[
                "simulate", "--config", &config, "--seed", "9", "--runs", "6", "--turns", "3000",
                "--jobs", jobs, "--format", format,
            ]);
            ok(&out);
            // Only the note that the config has no profiles.
            let err = String::from_utf8(out.stderr.clone()).unwrap();
            assert!(
                err.lines().all(|l| l.starts_with("delve: note: ")),
                "a pipe gets no progress bar: {err}"
            );
            stdout(&out)
        };
        let text = run("1", "text");
        assert_eq!(run("2", "text"), text);
        assert!(text.starts_with("runs: 6  won: "), "{text}");
        assert!(text.contains("deepest depth reached:"), "{text}");
        let json = run("2", "json");
        assert_eq!(run("1", "json"), json);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let runs = doc["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 6);
        for (i, r) in runs.iter().enumerate() {
            assert_eq!(r["seed"], 9 + i as u64);
            assert!(["won", "lost", "playing"].contains(&r["outcome"].as_str().unwrap()));
            for field in ["turns", "deepest", "kills", "cause", "digest"] {
                assert!(r.get(field).is_some(), "{field} missing in {r}");
            }
        }
        assert_eq!(doc["summary"]["runs"], 6);
    }

    #[test]
    fn finished_runs_leave_a_morgue_and_scores_rank_them() {
        let dir = TempDir::new("morgue");
        let saves = dir.join("saves");
        // One short level: ReachBottom is won at the start; a one-life run
        // against a stack of monsters is lost.
        let easy = dir.file("easy.ron", "(width: 60, height: 30, levels: 1)");
        let hard = dir.file(
            "hard.ron",
            "(width: 60, height: 30, levels: 3, simulation: (lives: 1, monsters_first_level: 20, \
             combat: (player_hp: 3, regen_every: 0)), revisions: (rules: 3))",
        );
        ok(&delve_in(
            &saves,
            &[
                "simulate", "--config", &easy, "--seed", "1", "--save", "easy",
            ],
        ));
        ok(&delve_in(
            &saves,
            &[
                "simulate", "--config", &hard, "--seed", "2", "--turns", "5000", "--save", "hard",
            ],
        ));
        let morgue = std::fs::read_to_string(saves.join("hard.morgue.txt")).unwrap();
        assert!(morgue.contains("Killed by "), "{morgue}");
        assert!(morgue.contains("The final level (depth 1)"), "{morgue}");
        assert!(morgue.contains('@'), "{morgue}");
        assert!(saves.join("easy.morgue.txt").exists());
        let scores = stdout(&delve_in(&saves, &["scores"]));
        let easy_at = scores.find("easy").unwrap();
        let hard_at = scores.find("hard").unwrap();
        assert!(easy_at < hard_at, "the won run ranks first:\n{scores}");
        assert!(scores.contains(" won "), "{scores}");
        assert!(scores.contains(" lost "), "{scores}");
    }

    /// Default save names run to 25 characters (`seed-` and a 20-digit
    /// seed): the columns after the name stay in line with the header's
    /// however long the names are.
    #[test]
    fn scores_columns_line_up_with_long_names() {
        let dir = TempDir::new("scores-names");
        let saves = dir.join("saves");
        let easy = dir.file("easy.ron", "(width: 60, height: 30, levels: 1)");
        let long = "seed-18446744073709551615";
        assert_eq!(long.len(), 25);
        for (name, seed) in [(long, "18446744073709551615"), ("short", "2")] {
            ok(&delve_in(
                &saves,
                &[
                    "simulate", "--config", &easy, "--seed", seed, "--save", name,
                ],
            ));
        }
        let scores = stdout(&delve_in(&saves, &["scores"]));
        let lines: Vec<&str> = scores.lines().collect();
        assert_eq!(lines.len(), 3, "{scores}");
        let column = |line: &str, word: &str| line.find(word).unwrap_or(usize::MAX);
        let depth_end = column(lines[0], "depth") + "depth".len();
        let outcome = column(lines[0], "outcome");
        for row in &lines[1..] {
            assert_eq!(column(row, " won "), outcome - 1, "{scores}");
            // The depth, right-aligned under its header.
            let before: String = row.chars().take(depth_end).collect();
            assert!(before.ends_with(" 1"), "{scores}");
        }
    }
}

/// Issue 23, item 21: letters shifted when an item was used (so `r h` then
/// read nothing, and `q` or `d` could take another item), and identical
/// potions took a letter each. Under the second rules an item keeps its
/// letter while carried, and identical potions and scrolls stack; under the
/// first, which old runs keep, letters close up as they did.
#[test]
fn pack_letters_stay_and_identical_potions_stack() {
    let mut run = with_pack(&[]);
    // Every kind known, as under the rules before 4.
    run.tactics_mut().unwrap().known.fill(true);
    let here = run.player().pos;
    let healing = kind_named(&run, "potion of healing");
    let mapping = kind_named(&run, "scroll of magic mapping");
    let dagger = kind_named(&run, "dagger");
    let drop_here = |run: &mut Run, kinds: &[u16]| {
        run.combat_mut().unwrap().floors[0].items =
            kinds.iter().map(|&kind| Item { kind, pos: here }).collect();
    };
    // Picked up top first: dagger, healing, mapping, healing, healing.
    drop_here(&mut run, &[healing, healing, mapping, healing, dagger]);
    for _ in 0..5 {
        assert_ne!(run.step(Action::PickUp).unwrap(), [Event::Blocked]);
    }
    let pack = &run.combat().unwrap().hero.pack;
    let lines: Vec<(usize, u16, u16)> = pack.lines().map(|(i, l)| (i, l.kind, l.count)).collect();
    assert_eq!(
        lines,
        vec![(0, dagger, 1), (1, healing, 3), (2, mapping, 1)]
    );
    assert!(
        run.log()
            .last()
            .unwrap()
            .starts_with("b - 3 potions of healing"),
        "{:?}",
        run.log()
    );
    // Drinking one leaves two at b; reading c leaves a and b as they were.
    run.combat_mut().unwrap().hero.hp = 3;
    run.step(Action::Quaff { slot: 1 }).unwrap();
    run.step(Action::Read { slot: 2 }).unwrap();
    let pack = &run.combat().unwrap().hero.pack;
    assert_eq!(pack.get(1).map(|l| (l.kind, l.count)), Some((healing, 2)));
    assert_eq!(pack.get(0).map(|l| l.kind), Some(dagger));
    // Wielding a leaves a empty: b is still the potions.
    run.step(Action::Wield { slot: 0 }).unwrap();
    let pack = &run.combat().unwrap().hero.pack;
    assert_eq!(pack.get(0), None);
    assert_eq!(pack.get(1).map(|l| (l.kind, l.count)), Some((healing, 2)));
    // A new item takes the first free letter.
    drop_here(&mut run, &[mapping]);
    run.step(Action::PickUp).unwrap();
    assert_eq!(
        run.combat().unwrap().hero.pack.get(0).map(|l| l.kind),
        Some(mapping)
    );

    // The first rules, as a run saved before them keeps: a letter each,
    // closing up.
    let mut old = Run::on_level(
        Config {
            revisions: delve::config::Revisions::FIRST,
            ..combat_config(100)
        },
        vec![brute("rat", 1, 1)],
        room_level(),
        Pos::new(5, 3),
        &[],
    );
    drop_here(&mut old, &[healing, healing, dagger]);
    for _ in 0..3 {
        old.step(Action::PickUp).unwrap();
    }
    assert_eq!(
        old.combat().unwrap().hero.pack,
        Pack::of(&[dagger, healing, healing])
    );
    old.step(Action::Wield { slot: 0 }).unwrap();
    assert_eq!(
        old.combat().unwrap().hero.pack,
        Pack::of(&[healing, healing])
    );
}

/// A full pack refuses a pickup and, the refusal being no step of the run,
/// writes nothing to its log (it did, so a journal could not replay it).
#[test]
fn a_full_pack_refuses_without_a_word_in_the_log() {
    let mut run = with_pack(&["dagger"; 26]);
    let here = run.player().pos;
    let mail = kind_named(&run, "chain mail");
    run.combat_mut().unwrap().floors[0].items = vec![Item {
        kind: mail,
        pos: here,
    }];
    let log = run.log().to_vec();
    assert_eq!(run.step(Action::PickUp).unwrap(), [Event::Blocked]);
    assert_eq!(run.log(), &log[..]);
}

/// Issue 23, item 24: "1 lives left" in the run's log. The second rules
/// count in English; the first keep their words, which replays of runs
/// made under them must say again.
#[test]
fn one_life_left_is_said_in_english() {
    for (revisions, want) in [
        (delve::config::Revisions::CURRENT, "(1 life left)"),
        (delve::config::Revisions::FIRST, "(1 lives left)"),
    ] {
        let mut config = combat_config(100);
        config.simulation.lives = 2;
        config.revisions = revisions;
        let mut run = Run::on_level(
            config,
            vec![brute("ogre", 50, 25)],
            room_level(),
            Pos::new(8, 3),
            &[(0, Pos::new(9, 3))],
        );
        run.step(Action::Wait).unwrap();
        assert_eq!(run.player().lives, 1);
        assert!(
            run.log().iter().any(|l| l.contains(want)),
            "{want}: {:?}",
            run.log()
        );
    }
}
