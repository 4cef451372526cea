//! Issue 26's run of real decisions (rules 4): unknown items and their
//! looks, timed effects, monsters' minds, and what a loaded run of them
//! must satisfy.

use delve::Config;
use delve::config::Revisions;
use delve::sim::{ItemClass, MonsterKind, Run};

/// A small Combat stack under this build's rules.
pub fn small() -> Config {
    Config {
        width: 60,
        height: 30,
        levels: 3,
        ..Config::default()
    }
}

#[test]
fn a_run_under_rules_4_keeps_what_they_add_and_a_forged_copy_is_refused() {
    let run = Run::new(small(), MonsterKind::defaults(), 7).unwrap();
    assert!(run.config().revisions.rules >= 4);
    let tactics = run.tactics().expect("rules 4 keep tactics");
    let items = &run.combat().unwrap().items;
    for (kind, &known) in items.iter().zip(&tactics.known) {
        let unknown = matches!(
            kind.class,
            ItemClass::Potion(_) | ItemClass::Scroll(_) | ItemClass::Wand { .. }
        );
        assert_eq!(known, !unknown, "{}", kind.name);
    }
    assert_eq!(
        tactics.minds[0].len(),
        run.combat().unwrap().floors[0].monster_hp.len()
    );
    run.validate().unwrap();

    let forge = |f: &dyn Fn(&mut Run)| {
        let mut forged = run.clone();
        f(&mut forged);
        forged.validate().unwrap_err()
    };
    let e = forge(&|r| {
        r.tactics_mut().unwrap().known.pop();
    });
    assert!(e.contains("item kinds"), "{e}");
    let e = forge(&|r| {
        let potions: Vec<usize> = r
            .combat()
            .unwrap()
            .items
            .iter()
            .enumerate()
            .filter(|(_, k)| matches!(k.class, ItemClass::Potion(_)))
            .map(|(i, _)| i)
            .collect();
        let t = r.tactics_mut().unwrap();
        t.appearances[potions[1]] = t.appearances[potions[0]];
    });
    assert!(e.contains("looks"), "{e}");
    let e = forge(&|r| {
        r.tactics_mut().unwrap().minds[0].pop();
    });
    assert!(e.contains("minds"), "{e}");
    let e = forge(&|r| {
        let t = r.tactics_mut().unwrap();
        t.effects.add(delve::sim::Effect::Haste, 0, 0, 60_000);
    });
    assert!(e.contains("timed effects"), "{e}");
}

#[test]
fn runs_under_earlier_rules_keep_none_of_it() {
    let mut config = small();
    config.revisions = Revisions {
        generator: 3,
        rules: 3,
    };
    let run = Run::new(config, MonsterKind::defaults(), 7).unwrap();
    assert!(run.tactics().is_none());
    run.validate().unwrap();
}

/// A teleport never lands where only a secret door leads out (rules 4):
/// the player would be shut in until they thought to search.
#[test]
fn teleportation_never_strands_the_player_behind_a_secret_door() {
    use delve::sim::{Action, Pack};
    use delve::{Level, Pos};
    let level = Level::from_rows(
        1,
        &[
            "                  ",
            " <.....   .....   ",
            " ......S#'.....   ",
            " ......   .....   ",
            "                  ",
        ],
        vec![
            crate::common::rect_room(1, 1, 6, 3),
            crate::common::rect_room(10, 1, 5, 3),
        ],
    );
    let mut run = Run::on_level(small(), Vec::new(), level, Pos::new(3, 2), &[]);
    let teleport = run
        .combat()
        .unwrap()
        .items
        .iter()
        .position(|k| k.name == "scroll of teleportation")
        .unwrap() as u16;
    for _ in 0..40 {
        run.combat_mut().unwrap().hero.pack = Pack::of(&[teleport]);
        run.step(Action::Read { slot: 0 }).unwrap();
        assert!(run.player().pos.x < 7, "stranded at {:?}", run.player().pos);
    }
}
