//! Issue 26's monster half (rules 4): each ability seeded on a hand-built
//! level, stealth (sleeping, noticing, sneak attacks), answering a blow
//! from afar, packs at population, look mode's words, located errors in
//! the monster file, and random monster data that never panics a run and
//! saves and loads exactly.

use delve::config::Goal;
use delve::dice::Dice;
use delve::sim::Action;
use delve::sim::{
    Ability, Alert, Effect, Missile, MonsterKind, Run, Trait, autopilot, monsters_from_ron,
};
use delve::view::{App, Keymap};
use delve::{Config, Level, Pos};
use proptest::prelude::*;

use crate::common::rect_room;

/// A monster that always hits for exactly `damage` (with the config
/// below), with `abilities`.
fn kind(name: &str, hp: u16, damage: u16, abilities: Vec<Ability>) -> MonsterKind {
    MonsterKind {
        name: name.into(),
        glyph: name.chars().next().unwrap(),
        hp: Dice::new(0, 0, hp),
        damage: Dice::new(0, 0, damage),
        abilities,
        ..MonsterKind::default()
    }
}

/// Combat under this build's rules (4), where every attack hits, no
/// regeneration, 40 hit points and fists that hit for 3.
fn config() -> Config {
    let mut config = Config {
        levels: 2,
        ..Config::default()
    };
    assert_eq!(config.simulation.goal, Goal::ReachBottom);
    assert!(config.revisions.rules >= 4);
    let c = &mut config.simulation.combat;
    c.hit_chance = 100;
    c.min_hit = 100;
    c.armour_step = 0;
    c.regen_every = 0;
    c.player_hp = 40;
    c.unarmed = Dice::new(0, 0, 3);
    config
}

/// One open room, 30x7, with the up staircase at (1, 1); with `wall`, a
/// pillar of rock from (10, 1) down to (10, 6) splits it but for the
/// bottom row.
fn hall(wall: bool) -> Level {
    let mut rows: Vec<String> = vec![" ".repeat(33)];
    for y in 1..=7 {
        let mut row: String = " ".to_string();
        for x in 1..=30 {
            row.push(match (x, y) {
                (1, 1) => '<',
                (10, 1..=6) if wall => ' ',
                _ => '.',
            });
        }
        row.push_str("  ");
        rows.push(row);
    }
    rows.push(" ".repeat(33));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Level::from_rows(1, &rows, vec![rect_room(1, 1, 30, 7)])
}

/// A run on the hall with the player at `player` and one monster of
/// `kind` at `at`, awake.
fn facing(kind: MonsterKind, player: Pos, at: Pos, wall: bool) -> Run {
    Run::on_level(config(), vec![kind], hall(wall), player, &[(0, at)])
}

fn set_alert(run: &mut Run, id: usize, alert: Alert) {
    run.tactics_mut().unwrap().minds[0][id].alert = alert;
}

fn said(run: &Run, what: &str) -> bool {
    run.log().iter().any(|l| l.contains(what))
}

#[test]
fn an_archer_shoots_along_a_line_of_fire_and_not_round_a_wall() {
    let archer = kind(
        "archer",
        10,
        1,
        vec![Ability::Ranged {
            missile: Missile::Arrow,
            range: 7,
            damage: Dice::new(0, 0, 4),
            chance: 100,
        }],
    );
    let mut run = facing(archer.clone(), Pos::new(4, 3), Pos::new(9, 3), false);
    run.step(Action::Wait).unwrap();
    assert!(
        said(&run, "The archer shoots an arrow; it hits you for 4."),
        "{:?}",
        run.log()
    );
    assert_eq!(run.hp(), 36);
    // It keeps its distance and shoots again rather than walking up.
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 32);
    assert_eq!(run.current().monsters[0].pos, Pos::new(9, 3));

    // Behind the pillar the player is out of its line of fire: it walks.
    let mut run = facing(archer, Pos::new(8, 3), Pos::new(12, 3), true);
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 40, "{:?}", run.log());
    assert!(!said(&run, "shoots"));
}

#[test]
fn a_dragon_breathes_then_must_recharge() {
    let dragon = kind(
        "dragon",
        100,
        1,
        vec![Ability::Breath {
            range: 6,
            damage: Dice::new(0, 0, 7),
            recharge: 5,
        }],
    );
    let mut run = facing(dragon, Pos::new(4, 3), Pos::new(9, 3), false);
    run.step(Action::Wait).unwrap();
    assert!(said(&run, "The dragon breathes fire at you for 7."));
    assert_eq!(run.hp(), 33);
    let m = run.current().monsters[0].clone();
    assert!(
        run.mind(&m)
            .unwrap()
            .effects
            .has(Effect::Recharging, run.turn())
    );
    // Recharging, it closes in instead of breathing.
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 33);
    assert_eq!(run.current().monsters[0].pos, Pos::new(8, 3));
}

#[test]
fn a_poisonous_bite_poisons_and_the_poison_hurts_each_turn() {
    let spider = kind(
        "spider",
        10,
        1,
        vec![Ability::Poison {
            chance: 100,
            damage: 2,
            turns: 3,
        }],
    );
    let mut run = facing(spider, Pos::new(4, 3), Pos::new(5, 3), false);
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 39);
    assert!(said(&run, "The spider's bite poisons you."));
    let poison = run
        .tactics()
        .unwrap()
        .effects
        .get(Effect::Poison, run.turn());
    assert_eq!(poison.map(|t| t.power), Some(2));
    // A turn: the poison's 2 and another bite.
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 36);
    // Walk away from the spider's reach is not needed: kill it, and the
    // poison still runs its course, then stops.
    let before = run.hp();
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    assert!(run.hp() < before);
    for _ in 0..10 {
        run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    }
    let still = run.hp();
    run.step(Action::Wait).unwrap();
    assert!(run.current().monsters.is_empty());
    assert_eq!(run.hp(), still, "the poison has worn off");
}

#[test]
fn a_draining_bite_takes_maximum_hit_points_but_never_half() {
    let wraith = kind(
        "wraith",
        10,
        1,
        vec![Ability::Drain {
            chance: 100,
            amount: 3,
        }],
    );
    let mut run = facing(wraith, Pos::new(4, 3), Pos::new(5, 3), false);
    assert_eq!(run.max_hp(), 40);
    run.step(Action::Wait).unwrap();
    assert_eq!(run.max_hp(), 37);
    assert!(said(&run, "drains your life"));
    for _ in 0..20 {
        run.step(Action::Wait).unwrap();
    }
    assert_eq!(run.max_hp(), 20, "a drain stops at half");
    assert!(run.hp() <= run.max_hp());
}

#[test]
fn a_troll_regenerates_even_asleep() {
    let troll = kind("troll", 30, 1, vec![Ability::Regenerate { hp: 2 }]);
    let mut run = facing(troll, Pos::new(4, 3), Pos::new(20, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    run.combat_mut().unwrap().floors[0].monster_hp[0] = 5;
    run.step(Action::Wait).unwrap();
    let m = run.current().monsters[0].clone();
    assert_eq!(run.monster_hp(&m), Some((7, 30)));
    for _ in 0..20 {
        run.step(Action::Wait).unwrap();
    }
    let m = run.current().monsters[0].clone();
    assert_eq!(run.monster_hp(&m), Some((30, 30)));
}

#[test]
fn a_necromancer_summons_kin_within_the_levels_bound() {
    let necro = kind(
        "necromancer",
        10,
        1,
        vec![Ability::Summon {
            kind: "necromancer".into(),
            chance: 100,
            count: 2,
            recharge: 3,
        }],
    );
    let mut run = facing(necro, Pos::new(4, 3), Pos::new(9, 3), false);
    run.step(Action::Wait).unwrap();
    assert!(
        said(&run, "The necromancer calls 2 necromancers to its side."),
        "{:?}",
        run.log()
    );
    assert_eq!(run.current().monsters.len(), 3);
    assert_eq!(run.tactics().unwrap().minds[0].len(), 3);
    // Every caller calls, and calls again, but a level hands out at most
    // its bound of monster ids.
    for _ in 0..200 {
        run.step(Action::Wait).unwrap();
        if run.outcome() != delve::sim::Outcome::Playing {
            break;
        }
    }
    // The hall's depth 1 of a default config: 3 groups of up to 8, and 40
    // summoned.
    let ids = run.combat().unwrap().floors[0].monster_hp.len();
    assert!(ids <= 3 * 8 + 40, "{ids}");
    assert_eq!(run.tactics().unwrap().minds[0].len(), ids);
}

#[test]
fn a_kind_that_flees_runs_when_badly_hurt_and_fights_when_cornered() {
    let kobold = kind("kobold", 10, 1, vec![Ability::Flee { below: 50 }]);
    let mut run = facing(kobold.clone(), Pos::new(4, 3), Pos::new(5, 3), false);
    run.combat_mut().unwrap().floors[0].monster_hp[0] = 4;
    run.step(Action::Wait).unwrap();
    let m = run.current().monsters[0].clone();
    assert!(m.pos.chebyshev(Pos::new(4, 3)) >= 2, "it ran: {:?}", m.pos);
    assert_eq!(run.hp(), 40);
    // In the corner it turns and bites.
    let mut run = facing(kobold, Pos::new(29, 6), Pos::new(30, 7), false);
    run.combat_mut().unwrap().floors[0].monster_hp[0] = 4;
    run.step(Action::Wait).unwrap();
    assert_eq!(run.hp(), 39, "{:?}", run.log());
}

#[test]
fn an_imp_blinks_to_the_player_and_away_when_it_flees() {
    let imp = kind(
        "imp",
        10,
        1,
        vec![
            Ability::Flee { below: 50 },
            Ability::Blink {
                chance: 100,
                range: 6,
            },
        ],
    );
    let mut run = facing(imp.clone(), Pos::new(4, 3), Pos::new(9, 3), false);
    run.step(Action::Wait).unwrap();
    assert!(said(&run, "The imp blinks."));
    assert_eq!(run.current().monsters[0].pos.chebyshev(Pos::new(4, 3)), 1);
    let mut run = facing(imp, Pos::new(4, 3), Pos::new(6, 3), false);
    run.combat_mut().unwrap().floors[0].monster_hp[0] = 2;
    run.step(Action::Wait).unwrap();
    let d = run.current().monsters[0].pos.chebyshev(Pos::new(4, 3));
    assert!(d >= 6, "it blinked away, to {d} cells off");
}

#[test]
fn packs_arrive_together_and_sleep_or_wake_as_one() {
    let jackal = MonsterKind {
        depths: delve::sim::kinds::table::Depths { min: 1, max: 10 },
        ..kind("jackal", 3, 1, vec![Ability::Pack { min: 3, max: 3 }])
    };
    let config = Config {
        levels: 2,
        ..Config::default()
    };
    let mut packs = 0;
    for seed in 1..6 {
        let run = Run::new(config.clone(), vec![jackal.clone()], seed).unwrap();
        let state = run.current();
        let minds = &run.tactics().unwrap().minds[0];
        assert_eq!(minds.len(), state.monsters.len());
        for m in &state.monsters {
            // Each has two of its pack within 3 cells, as sleepy as it.
            let kin: Vec<_> = state
                .monsters
                .iter()
                .filter(|o| o.id != m.id && o.pos.chebyshev(m.pos) <= 3)
                .collect();
            assert!(kin.len() >= 2, "seed {seed}: {:?} stands alone", m.pos);
            assert!(
                kin.iter()
                    .any(|o| minds[o.id as usize].alert == minds[m.id as usize].alert)
            );
        }
        packs += state.monsters.len() / 3;
        run.validate().unwrap();
    }
    assert!(packs >= 10, "{packs}");
}

#[test]
fn a_sleeping_ogre_stays_asleep_while_a_quiet_player_walks_past_and_wakes_when_hit() {
    let ogre = kind("ogre", 40, 10, vec![]);
    // The player walks the top row from one end to the other; the ogre
    // sleeps in the bottom corner, seen all the way but out of reach of
    // its senses (more than 6 steps) and of a footstep's noise.
    let mut run = facing(ogre, Pos::new(2, 1), Pos::new(30, 7), false);
    set_alert(&mut run, 0, Alert::Asleep);
    for _ in 0..20 {
        run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    }
    let ogre = run.current().monsters[0].clone();
    assert_eq!(ogre.pos, Pos::new(30, 7), "it never moved");
    assert_eq!(run.alert_of(&ogre), Alert::Asleep);
    assert_eq!(run.hp(), 40);
    // Now a sneak attack: it lands for double (fists hit for 3), and the
    // ogre wakes.
    let mut run = {
        let ogre = kind("ogre", 40, 10, vec![]);
        facing(ogre, Pos::new(4, 3), Pos::new(5, 3), false)
    };
    set_alert(&mut run, 0, Alert::Asleep);
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    let ogre = run.current().monsters[0].clone();
    assert_eq!(run.monster_hp(&ogre), Some((34, 40)));
    assert!(said(&run, "You catch the ogre unawares."));
    assert_eq!(run.alert_of(&ogre), Alert::Awake);
    // Awake, it is hit for the plain 3.
    run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    let ogre = run.current().monsters[0].clone();
    assert_eq!(run.monster_hp(&ogre), Some((31, 40)));
}

#[test]
fn a_wandering_monster_roams_until_it_notices_the_player() {
    let rat = kind("rat", 5, 1, vec![]);
    // Far off, it wanders without coming at the player.
    let mut run = facing(rat, Pos::new(2, 1), Pos::new(28, 6), false);
    set_alert(&mut run, 0, Alert::Wandering);
    let mut moved = false;
    for _ in 0..10 {
        let before = run.current().monsters[0].pos;
        run.step(Action::Wait).unwrap();
        moved |= run.current().monsters[0].pos != before;
    }
    assert!(moved, "it roams");
    let rat = run.current().monsters[0].clone();
    assert_eq!(run.alert_of(&rat), Alert::Wandering);
    assert!(rat.pos.manhattan(Pos::new(2, 1)) > 6);
}

#[test]
fn monsters_answer_a_blow_from_afar_by_their_kind() {
    // A kind that flees is frightened and runs.
    let kobold = kind("kobold", 10, 1, vec![Ability::Flee { below: 10 }]);
    let mut run = facing(kobold, Pos::new(4, 3), Pos::new(9, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    run.monster_hurt_from_afar(0);
    let m = run.current().monsters[0].clone();
    assert_eq!(run.alert_of(&m), Alert::Awake);
    assert!(
        run.mind(&m)
            .unwrap()
            .effects
            .has(Effect::Frightened, run.turn())
    );
    run.step(Action::Wait).unwrap();
    assert!(run.current().monsters[0].pos.chebyshev(Pos::new(4, 3)) > 5);
    // A smart one takes cover behind the pillar and waits there.
    let orc = MonsterKind {
        traits: vec![Trait::Smart],
        ..kind("orc", 10, 1, vec![])
    };
    let mut run = facing(orc.clone(), Pos::new(4, 3), Pos::new(11, 3), true);
    run.monster_hurt_from_afar(0);
    run.step(Action::Wait).unwrap();
    run.step(Action::Wait).unwrap();
    let m = run.current().monsters[0].clone();
    assert!(!run.sees(m.pos), "it hides, at {:?}", m.pos);
    // Anything else closes in.
    let brute = kind("brute", 10, 1, vec![]);
    let mut run = facing(brute, Pos::new(4, 3), Pos::new(9, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    run.monster_hurt_from_afar(0);
    run.step(Action::Wait).unwrap();
    assert_eq!(run.current().monsters[0].pos, Pos::new(8, 3));
    // Out of range, or under earlier rules, nothing happens.
    run.monster_hurt_from_afar(5);
}

#[test]
fn look_says_what_a_monster_can_do_how_awake_it_is_and_how_dangerous() {
    let archer = kind(
        "archer",
        10,
        2,
        vec![
            Ability::Ranged {
                missile: Missile::Arrow,
                range: 7,
                damage: Dice::new(1, 8, 0),
                chance: 50,
            },
            Ability::Pack { min: 2, max: 3 },
        ],
    );
    let mut run = facing(archer, Pos::new(4, 3), Pos::new(9, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    let app = App::new(run, Keymap::default(), "look".into());
    let text = app.describe(Pos::new(9, 3));
    assert_eq!(
        text,
        "An archer (a), unhurt, asleep: hits for 2; shoots arrows (1d8, range 7), \
         comes in packs of 2 to 3; as fast as you. Easy: it needs about 20 turns to kill \
         you, you about 2 to kill it."
    );
    let ogre = kind("ogre", 60, 12, vec![]);
    let run = facing(ogre, Pos::new(4, 3), Pos::new(9, 3), false);
    let app = App::new(run, Keymap::default(), "look".into());
    let text = app.describe(Pos::new(9, 3));
    assert!(text.contains(", awake: hits for 12;"), "{text}");
    assert!(
        text.contains("Deadly: it needs about 3 turns to kill you, you about 20"),
        "{text}"
    );
}

#[test]
fn a_bad_ability_is_refused_where_it_is_written() {
    let text = "[\n (name: \"a\", glyph: 'a', colour: Red, speed: 10,\n  abilities: [Pack(min: 2, max: 3),\n    Ranged(missile: Arrow, range: 30, damage: \"1d6\", chance: 5)]),\n]";
    let e = monsters_from_ron(text, "m.ron").unwrap_err().to_string();
    assert!(
        e.starts_with("m.ron:4:28: [0].abilities[1].range: must be from 2 to 12, got 30"),
        "{e}"
    );
    let text = "[(name: \"a\", glyph: 'a', colour: Red, speed: 10, abilities: [Summon(kind: \"ghost\", chance: 5, count: 1, recharge: 9)])]";
    let e = monsters_from_ron(text, "m.ron").unwrap_err().to_string();
    assert!(
        e.contains("[0].abilities[0].kind: \"ghost\" is no kind of this list"),
        "{e}"
    );
    let text = "[(name: \"a\", glyph: 'a', colour: Red, speed: 10, abilities: [Flee(below: 9), Flee(below: 8)])]";
    let e = monsters_from_ron(text, "m.ron").unwrap_err().to_string();
    assert!(
        e.contains("[0].abilities[1]: Flee is already ability 0"),
        "{e}"
    );
    let text = "[(name: \"a\", glyph: 'a', colour: Red, speed: 10, abilities: [Fly(high: 9)])]";
    let e = monsters_from_ron(text, "m.ron").unwrap_err().to_string();
    assert!(e.starts_with("m.ron:1:"), "{e}");
    // A file without abilities loads as before.
    let text = "[(name: \"a\", glyph: 'a', colour: Red, speed: 10)]";
    assert!(
        monsters_from_ron(text, "m.ron").unwrap()[0]
            .abilities
            .is_empty()
    );
}

#[test]
fn most_shipped_kinds_have_an_ability_and_the_deep_ones_shoot_and_breathe() {
    let kinds = MonsterKind::defaults();
    let with = kinds.iter().filter(|k| !k.abilities.is_empty()).count();
    assert!(with >= 12, "{with}");
    let names: std::collections::BTreeSet<&str> = kinds
        .iter()
        .flat_map(|k| k.abilities.iter().map(|a| a.name()))
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    let has = |name: &str, ability: &str| {
        kinds
            .iter()
            .any(|k| k.name == name && k.ability(ability).is_some())
    };
    assert!(has("red dragon", "Breath") && has("orc archer", "Ranged"));
    assert!(has("necromancer", "Summon") && has("orc archer", "Pack"));
}

/// An ability with values drawn within its bounds.
fn ability() -> impl Strategy<Value = Ability> {
    // As a file writes them: a constant has no sides.
    let dice = (0u16..4, 1u16..10, 0u16..5).prop_map(|(c, s, b)| match c {
        0 => Dice::new(0, 0, b.max(1)),
        _ => Dice::new(c, s, b),
    });
    let missile = prop::sample::select(vec![
        Missile::Arrow,
        Missile::Spell,
        Missile::Boulder,
        Missile::Spit,
    ]);
    prop_oneof![
        (missile, 2u8..=12, dice.clone(), 1u8..=100).prop_map(
            |(missile, range, damage, chance)| {
                Ability::Ranged {
                    missile,
                    range,
                    damage,
                    chance,
                }
            }
        ),
        (2u8..=12, dice, 1u16..=40).prop_map(|(range, damage, recharge)| Ability::Breath {
            range,
            damage,
            recharge
        }),
        (1u8..=100, 1u16..=5, 1u16..=20).prop_map(|(chance, damage, turns)| Ability::Poison {
            chance,
            damage,
            turns
        }),
        (1u8..=100, 1u16..=10).prop_map(|(chance, amount)| Ability::Drain { chance, amount }),
        (1u16..=5).prop_map(|hp| Ability::Regenerate { hp }),
        (1u8..=100, 1u8..=4, 1u16..=30).prop_map(|(chance, count, recharge)| Ability::Summon {
            kind: "b".into(),
            chance,
            count,
            recharge
        }),
        (1u8..=90).prop_map(|below| Ability::Flee { below }),
        (2u8..=4).prop_map(|min| Ability::Pack { min, max: min + 1 }),
        (1u8..=100, 2u8..=12).prop_map(|(chance, range)| Ability::Blink { chance, range }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Any monster data within the bounds plays without a panic, keeps a
    /// run's promises, and saves and loads to exactly the same run.
    #[test]
    fn runs_with_random_monster_abilities_never_panic_and_save_exactly(
        seed in any::<u64>(),
        a in prop::collection::vec(ability(), 0..4),
        b in prop::collection::vec(ability(), 0..4),
    ) {
        let dedup = |list: Vec<Ability>| {
            let mut out: Vec<Ability> = Vec::new();
            for x in list {
                if !out.iter().any(|o| o.name() == x.name()) {
                    out.push(x);
                }
            }
            out
        };
        let kinds = vec![
            MonsterKind { depths: delve::sim::kinds::table::Depths { min: 1, max: 3 }, ..kind("a", 8, 2, dedup(a)) },
            MonsterKind { depths: delve::sim::kinds::table::Depths { min: 1, max: 3 }, speed: 14, ..kind("b", 5, 1, dedup(b)) },
        ];
        MonsterKind::check_list(&kinds).unwrap();
        let config = Config { width: 60, height: 30, levels: 3, ..Config::default() };
        let mut run = Run::new(config, kinds, seed).unwrap();
        for _ in 0..600 {
            let action = autopilot(&mut run);
            run.step(action).unwrap();
            if run.outcome() != delve::sim::Outcome::Playing {
                break;
            }
        }
        run.validate().unwrap();
        let bytes = delve::save::encode(&run, 0);
        let (loaded, _) = delve::save::decode(&bytes, "p").unwrap();
        prop_assert_eq!(loaded.digest(), run.digest());
        prop_assert_eq!(loaded.tactics(), run.tactics());
        prop_assert_eq!(loaded.combat(), run.combat());
        prop_assert_eq!(loaded.config(), run.config());
        prop_assert_eq!(loaded.kinds(), run.kinds());
        prop_assert_eq!(loaded.log(), run.log());
        prop_assert!(loaded == run);
    }
}

#[test]
fn a_fight_wakes_a_sleeper_nearby_but_not_one_far_off() {
    let brute = kind("brute", 200, 1, vec![]);
    let sleeper = kind("sleeper", 10, 1, vec![]);
    let mut run = Run::on_level(
        config(),
        vec![brute, sleeper],
        hall(false),
        Pos::new(4, 3),
        &[
            (0, Pos::new(5, 3)),
            (1, Pos::new(6, 5)),
            (1, Pos::new(28, 7)),
        ],
    );
    set_alert(&mut run, 1, Alert::Asleep);
    set_alert(&mut run, 2, Alert::Asleep);
    // Blows are loud (8 cells and more): within 2 cells a sleeper hears
    // each with 90%, so five of them wake it but one time in 100,000; 24
    // cells off nothing is heard.
    for _ in 0..5 {
        run.step(Action::Move { dx: 1, dy: 0 }).unwrap();
    }
    let monsters = run.current().monsters.clone();
    assert_eq!(run.alert_of(&monsters[1]), Alert::Awake);
    assert_eq!(run.alert_of(&monsters[2]), Alert::Asleep);
}

#[test]
fn the_autopilot_creeps_past_a_sleeper_it_cannot_beat_and_stabs_one_it_can() {
    use delve::sim::{Plan, decide};
    let ogre = kind("ogre", 300, 30, vec![]);
    let mut run = facing(ogre, Pos::new(4, 3), Pos::new(8, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    let (_, plan) = decide(&mut run);
    assert!(
        !matches!(plan, Plan::Hunt | Plan::Fight | Plan::Rest),
        "{plan:?}"
    );
    // Awake, the same ogre is a danger it answers (it does not walk on as
    // if nothing were there).
    set_alert(&mut run, 0, Alert::Awake);
    let (_, plan) = decide(&mut run);
    assert!(
        matches!(
            plan,
            Plan::Hunt | Plan::Fight | Plan::Rest | Plan::Flee | Plan::Heal
        ),
        "{plan:?}"
    );
    // Asleep in the way of its exploring, the ogre is stepped round, not
    // bumped into (a bump is a blow).
    let ogre = kind("ogre", 300, 30, vec![]);
    let mut run = facing(ogre, Pos::new(4, 3), Pos::new(5, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    let (action, plan) = decide(&mut run);
    assert_eq!(plan, Plan::Explore);
    assert!(
        matches!(action, Action::Move { dx: 1, dy: -1 | 1 }),
        "{action:?}"
    );
    let rat = kind("rat", 4, 1, vec![]);
    let mut run = facing(rat, Pos::new(4, 3), Pos::new(8, 3), false);
    set_alert(&mut run, 0, Alert::Asleep);
    let (action, plan) = decide(&mut run);
    assert_eq!(plan, Plan::Hunt);
    assert_eq!(action, Action::Move { dx: 1, dy: 0 });
}
