//! The autopilot under the Combat rules: it plays the whole game by what
//! the player knows (cells seen, monsters in sight, items seen).
//!
//! In order of priority:
//! 1. Low on hit points with danger near: drink the best healing potion.
//! 2. A monster adjacent: fight it when the fight is likely won (the
//!    expected damage taken while killing it is well below the hit points
//!    left); otherwise read teleportation, or drink healing, or step away
//!    from it when a step gains distance, and fight as a last resort.
//! 3. Drink potions of vigour when nothing is near; equip a better weapon
//!    or armour from the pack.
//! 4. Pick up what lies here (not gear worse than what is worn).
//! 5. Read magic mapping on a level not yet explored.
//! 6. Hurt with nothing in sight: rest.
//! 7. Hunt a monster in sight when healthy, by a walk that keeps it in
//!    sight (see [`super::hunt`]); hurt with monsters in sight, wait for
//!    them, regenerating.
//! 8. Walk to an item seen and wanted.
//! 9. Explore the nearest frontier; then take the stairs (down under
//!    ReachBottom; under KillAll as the Stomp autopilot does).
//!
//! Ties are broken by cell index or slot order, so it is deterministic.

use crate::geom::Pos;

use super::combat::{HitOdds, expected_damage};
use super::explore::{Plan, explore_then_stairs, first_step, frontier_of, nearest, step_to};
use super::hunt::hunt_step;
use super::item::{ItemClass, PotionEffect, ScrollEffect};
use super::{Action, LazyWalk, Run, can_step};

/// How a carried or floor item rates for the autopilot: higher is better
/// gear; `None` for items that are not gear.
fn gear_value(class: &ItemClass) -> Option<(u8, u32)> {
    match class {
        ItemClass::Weapon { damage } => Some((0, damage.mean_x2())),
        ItemClass::Armour { protection } => Some((1, u32::from(*protection))),
        _ => None,
    }
}

/// Whether gear of `class` beats what is wielded or worn in its place.
fn better_than_worn(run: &Run, class: &ItemClass) -> bool {
    let Some(combat) = run.combat() else {
        return false;
    };
    let worn = |k: Option<u16>| {
        k.and_then(|k| gear_value(&combat.kind(k).class))
            .map_or(0, |v| v.1)
    };
    match gear_value(class) {
        Some((0, v)) => v > worn(combat.hero.weapon),
        Some((_, v)) => v > worn(combat.hero.armour),
        None => false,
    }
}

/// Whether the autopilot takes an item of this kind: anything but gear no
/// better than what is worn.
fn wanted(run: &Run, kind: u16) -> bool {
    run.combat().is_some_and(|combat| {
        let class = &combat.kind(kind).class;
        gear_value(class).is_none() || better_than_worn(run, class)
    })
}

/// Whether the pack has a letter for an item of this kind (or, under
/// rules that stack, a stack it joins).
fn room_for(run: &Run, kind: u16) -> bool {
    run.combat().is_some_and(|combat| {
        let keep_letters = run.config().revisions.rules >= 2;
        let stacks = keep_letters && super::fight::stacks(combat.kind(kind).class);
        combat
            .hero
            .pack
            .room_for(kind, stacks, keep_letters)
            .is_some()
    })
}

/// Picking up the top item here, if it is wanted and the pack has room.
fn pick_up_here(run: &Run) -> Option<Action> {
    let &top = run.items_here().first()?;
    (wanted(run, top) && room_for(run, top)).then_some(Action::PickUp)
}

/// The first step toward the nearest item seen and wanted that the pack
/// has room for, if one can be walked to.
fn walk_to_item(run: &Run, map: &mut LazyWalk) -> Option<Action> {
    let here = run.player().pos;
    let state = run.current();
    let level = &state.level;
    let item = nearest(
        map,
        level,
        run.floor()?
            .items
            .iter()
            .filter(|i| state.has_seen(i.pos) && wanted(run, i.kind) && room_for(run, i.kind))
            .map(|i| i.pos)
            .filter(|&p| p != here),
    )?;
    Some(first_step(map, level, here, item))
}

/// What auto-explore fetches whatever the autopilot would rather do first
/// (wield, rest, drink): the item here if wanted, else a step toward the
/// nearest one seen and wanted. `None` when nothing is left worth taking,
/// and always under the Stomp rules, which have no items.
pub(super) fn fetch(run: &Run, map: &mut LazyWalk) -> Option<Action> {
    pick_up_here(run).or_else(|| walk_to_item(run, map))
}

pub(super) fn decide_combat(run: &Run, map: &mut LazyWalk) -> (Action, Plan) {
    let here = run.player().pos;
    let combat = run.combat().expect("a Combat run");
    let cfg = &run.config().simulation.combat;
    let odds = HitOdds::of(cfg);
    let hp = u32::from(run.hp());
    let max = u32::from(run.max_hp()).max(1);
    let cautious = u32::from(cfg.cautious_below);
    let turn = run.turn();
    let armour = combat.armour(turn);
    let weapon = combat.weapon_dice(cfg.unarmed);
    let player_speed = f64::from(run.config().simulation.player_speed);
    let state = run.current();
    let level = &state.level;
    let pack = &combat.hero.pack;

    // Monsters in sight: position, index, expected damage they deal a
    // player turn, player turns to kill them.
    struct Seen {
        pos: Pos,
        threat: f64,
        turns_to_kill: f64,
    }
    let seen: Vec<Seen> = state
        .monsters
        .iter()
        .filter(|m| run.sees(m.pos))
        .map(|m| {
            let kind = &run.kinds()[usize::from(m.kind)];
            let hp_left = run.monster_hp(m).map_or(1, |(h, _)| h);
            let per_turn =
                expected_damage(&odds, armour, &kind.damage) * f64::from(kind.speed) / player_speed;
            let mine = expected_damage(&odds, kind.armour, &weapon);
            Seen {
                pos: m.pos,
                threat: per_turn,
                turns_to_kill: f64::from(hp_left) / mine.max(0.1),
            }
        })
        .collect();
    let adjacent: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.pos.chebyshev(here) == 1 && can_step(level, here, s.pos, false))
        .collect();
    let near_threat: f64 = seen
        .iter()
        .filter(|s| s.pos.chebyshev(here) <= 2)
        .map(|s| s.threat)
        .sum();

    let slot_of = |want: &dyn Fn(&ItemClass) -> Option<u32>| -> Option<(u8, u32)> {
        pack.lines()
            .filter_map(|(i, l)| want(&combat.kind(l.kind).class).map(|v| (i as u8, v)))
            .max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))
    };
    let healing = slot_of(&|c| match c {
        ItemClass::Potion(PotionEffect::Healing(d)) => Some(d.mean_x2()),
        _ => None,
    });
    let scroll = |effect: ScrollEffect| {
        slot_of(&|c| match c {
            ItemClass::Scroll(e) if *e == effect => Some(1),
            _ => None,
        })
    };

    // 1. Drink healing when low and in danger (or very low).
    let low = hp * 100 < max * cautious;
    if let Some((slot, _)) = healing
        && ((low && !seen.is_empty()) || hp * 100 < max * 20)
    {
        return (Action::Quaff { slot }, Plan::Heal);
    }

    // 2. Fight or get away.
    if let Some(target) = adjacent
        .iter()
        .min_by(|a, b| {
            a.turns_to_kill
                .total_cmp(&b.turns_to_kill)
                .then(level.index(a.pos).cmp(&level.index(b.pos)))
        })
        .copied()
    {
        let expected_loss = near_threat * target.turns_to_kill.max(1.0);
        if expected_loss < f64::from(hp) * 0.7 {
            return (step_to(here, target.pos), Plan::Fight);
        }
        if let Some((slot, _)) = scroll(ScrollEffect::Teleportation) {
            return (Action::Read { slot }, Plan::Flee);
        }
        if let Some((slot, _)) = healing
            && hp * 2 < max
        {
            return (Action::Quaff { slot }, Plan::Heal);
        }
        if let Some((slot, _)) = slot_of(&|c| match c {
            ItemClass::Potion(PotionEffect::Stoneskin { .. }) => Some(1),
            ItemClass::Potion(PotionEffect::Vigour(_)) => Some(2),
            _ => None,
        }) && combat.hero.stoneskin == 0
        {
            return (Action::Quaff { slot }, Plan::Heal);
        }
        return (step_to(here, target.pos), Plan::Fight);
    }

    // 3. Potions of vigour are for good: drink them when nothing is near.
    if near_threat == 0.0
        && let Some((slot, _)) = slot_of(&|c| match c {
            ItemClass::Potion(PotionEffect::Vigour(n)) => Some(u32::from(*n)),
            _ => None,
        })
    {
        return (Action::Quaff { slot }, Plan::Heal);
    }

    // 3. Better gear from the pack.
    if let Some((slot, _)) = pack
        .lines()
        .find(|(_, l)| better_than_worn(run, &combat.kind(l.kind).class))
    {
        return (Action::Wield { slot: slot as u8 }, Plan::Equip);
    }

    // 4. Pick up what is worth having.
    if let Some(action) = pick_up_here(run) {
        return (action, Plan::Loot);
    }

    // 5. Magic mapping on a level with something left to see.
    if seen.is_empty()
        && let Some((slot, _)) = scroll(ScrollEffect::MagicMapping)
        && frontier_of(run, map).is_some()
    {
        return (Action::Read { slot }, Plan::Read);
    }

    // 6. Rest when hurt and alone.
    if seen.is_empty() && cfg.regen_every > 0 && hp * 100 < max * 70 {
        return (Action::Wait, Plan::Rest);
    }

    // 7. Hunt what it sees when healthy, keeping it in sight; what cannot
    // be reached so is left to exploring.
    if hp * 100 >= max * 60 {
        let radius = run.config().simulation.sight_radius;
        if let Some((step, _)) = hunt_step(level, here, radius, seen.iter().map(|s| s.pos)) {
            return (step, Plan::Hunt);
        }
    } else if !seen.is_empty() && cfg.regen_every > 0 {
        // Hurt, with monsters about: let them come, regenerating (until
        // healthy enough to hunt or explore again).
        return (Action::Wait, Plan::Rest);
    }

    // 8. Items seen and wanted.
    if let Some(action) = walk_to_item(run, map) {
        return (action, Plan::Loot);
    }

    // 9. Explore, then the stairs.
    explore_then_stairs(run, map)
}
