//! The autopilot under the Combat rules: it plays the whole game by what
//! the player knows (cells seen, monsters in sight, items seen).
//!
//! In order of priority:
//! 1. Low on hit points with danger near: drink the best healing potion.
//! 2. A monster adjacent: fight it when the fight is likely won (the
//!    expected damage taken while killing it is well below the hit points
//!    left); otherwise read teleportation, drink healing when below half,
//!    or drink stoneskin or vigour, and fight as a last resort.
//!    Under rules 4, zap a known wand at a monster that would be a
//!    dangerous fight (an unknown one at any monster, to learn it), and
//!    fire missiles at monsters in sight not yet next to the player.
//! 3. Drink potions of vigour when nothing is near; then equip a better
//!    weapon or armour from the pack (under rules 4 judging accuracy,
//!    delay and noise, not the bigger number alone).
//! 4. Pick up what lies here (not gear worse than what is worn); under
//!    rules 4, with nothing in sight and hit points to spare, drink
//!    unknown potions and read unknown scrolls to learn them.
//! 5. Read magic mapping on a level not yet explored.
//! 6. Hurt with nothing in sight: rest.
//! 7. Hunt a monster in sight when healthy, by a walk that keeps it in
//!    sight (see `agent/hunt.rs`); hurt with monsters in sight, wait for
//!    them, regenerating.
//! 8. Walk to an item seen and wanted.
//! 9. Explore the nearest frontier; then take the stairs (down under
//!    ReachBottom; under KillAll as the Stomp autopilot does).
//!
//! Ties are broken by cell index or slot order, so it is deterministic.

use crate::config::CombatConfig;
use crate::geom::Pos;

use crate::sim::agent::explore::{
    Plan, explore_then_stairs, first_step, frontier_of, nearest, step_to,
};
use crate::sim::agent::hunt::hunt_step;
use crate::sim::kinds::item::{
    ItemClass, ItemKind, PotionEffect, ScrollEffect, WandEffect, stacks,
};
use crate::sim::rules::odds::{HitOdds, expected_damage};
use crate::sim::state::Run;
use crate::sim::state::combat_state::CombatState;
use crate::sim::state::tactics::Alert;
use crate::sim::vocabulary::Action;
use crate::sim::world::distance::LazyWalk;

/// How a carried or floor item rates for the autopilot: higher is better
/// gear; `None` for items that are not gear. Under rules 4 it judges the
/// trade-offs: a weapon by its damage times its chance to hit over the
/// time an attack takes, armour by protection less what its weight costs
/// in time and noise; before, the bigger number.
fn gear_value(run: &Run, kind: &ItemKind) -> Option<(u8, u32)> {
    let rules4 = run.tactics().is_some();
    let hit = i64::from(run.config().simulation.combat.hit_chance);
    match kind.class {
        ItemClass::Weapon { damage } if rules4 => {
            let chance = (hit + i64::from(kind.accuracy)).clamp(5, 100);
            let value = i64::from(damage.mean_x2()) * chance * 10 / i64::from(kind.delay);
            Some((0, value.max(0) as u32))
        }
        ItemClass::Weapon { damage } => Some((0, damage.mean_x2())),
        ItemClass::Armour { protection } if rules4 => {
            let cost = (i64::from(kind.delay) - 10) * 40 + i64::from(kind.noise) * 5;
            Some((1, (i64::from(protection) * 100 - cost).max(1) as u32))
        }
        ItemClass::Armour { protection } => Some((1, u32::from(protection))),
        // Any launcher beats none; one for ammunition carried, any other.
        ItemClass::Launcher { .. } if rules4 => Some((2, 1)),
        _ => None,
    }
}

/// Whether gear of `kind` beats what is wielded or worn in its place.
fn better_than_worn(run: &Run, kind: &ItemKind) -> bool {
    let Some(combat) = run.combat() else {
        return false;
    };
    let worn = |k: Option<u16>| {
        k.and_then(|k| gear_value(run, combat.kind(k)))
            .map_or(0, |v| v.1)
    };
    match gear_value(run, kind) {
        Some((0, v)) => v > worn(combat.hero.weapon),
        Some((1, v)) => v > worn(combat.hero.armour),
        Some((_, v)) => v > worn(run.tactics().and_then(|t| t.launcher)),
        None => false,
    }
}

/// Whether the autopilot takes an item of this kind: anything but gear no
/// better than what is worn.
fn wanted(run: &Run, kind: u16) -> bool {
    run.combat().is_some_and(|combat| {
        let k = combat.kind(kind);
        gear_value(run, k).is_none() || better_than_worn(run, k)
    })
}

/// Whether the pack has a letter for an item of this kind (or, under
/// rules that stack, a stack it joins).
fn room_for(run: &Run, kind: u16) -> bool {
    run.combat().is_some_and(|combat| {
        let keep_letters = run.config().revisions.rules >= 2;
        let stacks = keep_letters && stacks(combat.kind(kind).class);
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

/// The Combat autopilot's choice: the first of the priorities in this
/// file's comment that has something to do.
pub(super) fn decide_combat(run: &Run, map: &mut LazyWalk) -> (Action, Plan) {
    let s = Situation::of(run);
    let (action, plan) = s
        .heal_in_danger()
        .or_else(|| s.fight_or_get_away())
        .or_else(|| s.zap_at_danger())
        .or_else(|| s.shoot())
        .or_else(|| s.drink_vigour())
        .or_else(|| s.better_gear())
        .or_else(|| pick_up_here(run).map(|action| (action, Plan::Loot)))
        .or_else(|| s.try_unknown())
        .or_else(|| s.map_the_level(map))
        .or_else(|| s.rest_alone())
        .or_else(|| s.hunt_or_wait())
        .or_else(|| walk_to_item(run, map).map(|action| (action, Plan::Loot)))
        .unwrap_or_else(|| explore_then_stairs(run, map));
    s.around_sleepers(action, plan)
}

/// A monster in sight as the autopilot weighs it.
struct Seen {
    pos: Pos,
    /// Slowed by a wand (rules 4).
    slowed: bool,
    /// Asleep (rules 4): it threatens nothing until woken, and a fight
    /// with it can be chosen or left.
    asleep: bool,
    /// Expected damage it deals a player turn.
    threat: f64,
    /// Player turns to kill it.
    turns_to_kill: f64,
}

/// What the Combat autopilot knows when it chooses: the player's state,
/// the monsters in sight and the pack's useful potions.
struct Situation<'a> {
    run: &'a Run,
    here: Pos,
    combat: &'a CombatState,
    cfg: &'a CombatConfig,
    hp: u32,
    max: u32,
    seen: Vec<Seen>,
    /// Monsters in sight on a cell next to the player that a step reaches.
    adjacent: Vec<usize>,
    /// The threat of monsters within two cells.
    near_threat: f64,
    /// The pack's best healing potion.
    healing: Option<(u8, u32)>,
}

impl<'a> Situation<'a> {
    fn of(run: &'a Run) -> Situation<'a> {
        let here = run.player().pos;
        let combat = run.combat().expect("a Combat run");
        let cfg = &run.config().simulation.combat;
        let odds = HitOdds::of(cfg);
        let armour = run.hero_armour();
        let weapon = combat.weapon_dice(cfg.unarmed);
        let player_speed = f64::from(run.config().simulation.player_speed);
        let state = run.current();
        let level = &state.level;
        let seen: Vec<Seen> = state
            .monsters
            .iter()
            .filter(|m| run.sees(m.pos))
            .map(|m| {
                let kind = &run.kinds()[usize::from(m.kind)];
                let hp_left = run.monster_hp(m).map_or(1, |(h, _)| h);
                let per_turn = expected_damage(&odds, armour, &kind.damage) * f64::from(kind.speed)
                    / player_speed;
                let mine = expected_damage(&odds, kind.armour, &weapon);
                let slowed = run.tactics().is_some_and(|t| {
                    let slot = usize::from(run.player().depth) - 1;
                    t.minds[slot].get(m.id as usize).is_some_and(|mind| {
                        mind.effects
                            .has(crate::sim::kinds::effect::Effect::Slow, run.turn())
                    })
                });
                let asleep = run.alert_of(m) == Alert::Asleep;
                // Rules 4 weigh abilities and a sneak attack's first blow.
                let turns_to_kill = match run.danger(m).filter(|_| run.tactics().is_some()) {
                    Some(d) => d.turns_to_kill_it,
                    None => f64::from(hp_left) / mine.max(0.1),
                };
                Seen {
                    pos: m.pos,
                    slowed,
                    asleep,
                    threat: if asleep { 0.0 } else { per_turn },
                    turns_to_kill,
                }
            })
            .collect();
        let adjacent = (0..seen.len())
            .filter(|&i| {
                seen[i].pos.chebyshev(here) == 1
                    && run.player_walker().steps(level, here, seen[i].pos)
            })
            .collect();
        let near_threat = seen
            .iter()
            .filter(|s| s.pos.chebyshev(here) <= 2)
            .map(|s| s.threat)
            .sum();
        let mut situation = Situation {
            run,
            here,
            combat,
            cfg,
            hp: u32::from(run.hp()),
            max: u32::from(run.max_hp()).max(1),
            seen,
            adjacent,
            near_threat,
            healing: None,
        };
        situation.healing = situation.slot_of(&|c| match c {
            ItemClass::Potion(PotionEffect::Healing(d)) => Some(d.mean_x2()),
            _ => None,
        });
        situation
    }

    /// The pack slot whose item `want` values most (the first on ties),
    /// of the kinds the player knows (under rules 4 an unknown potion is
    /// no healing to count on).
    fn slot_of(&self, want: &dyn Fn(&ItemClass) -> Option<u32>) -> Option<(u8, u32)> {
        let names = self.run.item_names()?;
        self.combat
            .hero
            .pack
            .lines()
            .filter(|(_, l)| names.known(l.kind))
            .filter_map(|(i, l)| want(&self.combat.kind(l.kind).class).map(|v| (i as u8, v)))
            .max_by_key(|&(i, v)| (v, std::cmp::Reverse(i)))
    }

    /// The first pack letter of a kind not known yet whose class `of`
    /// accepts (a potion, a scroll, a wand).
    fn unknown(&self, of: &dyn Fn(&ItemClass) -> bool) -> Option<u8> {
        let names = self.run.item_names()?;
        self.combat
            .hero
            .pack
            .lines()
            .find(|(_, l)| !names.known(l.kind) && of(&self.combat.kind(l.kind).class))
            .map(|(i, _)| i as u8)
    }

    /// Whether a fight with `target` is likely lost: the damage expected
    /// while killing it is most of the hit points left.
    fn dangerous(&self, target: &Seen) -> bool {
        self.near_threat.max(target.threat) * target.turns_to_kill.max(1.0)
            >= f64::from(self.hp) * 0.7
    }

    /// Zaps: a known wand at a monster in sight that would be a dangerous
    /// fight (teleport it away when next to the player, slow it, or strike
    /// it); an unknown wand at any monster in sight, to learn it.
    fn zap_at_danger(&self) -> Option<(Action, Plan)> {
        self.run.tactics()?;
        let level = &self.run.current().level;
        let target = self.seen.iter().filter(|s| !s.asleep).min_by(|a, b| {
            a.pos
                .chebyshev(self.here)
                .cmp(&b.pos.chebyshev(self.here))
                .then(level.index(a.pos).cmp(&level.index(b.pos)))
        })?;
        let reaches = self.run.first_in_line(target.pos, 12) == Some(target.pos);
        if !reaches {
            return None;
        }
        let zap = |slot: u8| {
            (
                Action::Zap {
                    slot,
                    x: target.pos.x,
                    y: target.pos.y,
                },
                Plan::Fight,
            )
        };
        if let Some(slot) = self.unknown(&|c| matches!(c, ItemClass::Wand { .. })) {
            return Some(zap(slot));
        }
        if !self.dangerous(target) {
            return None;
        }
        let adjacent = target.pos.chebyshev(self.here) == 1;
        let wand = |want: &dyn Fn(&WandEffect) -> bool| {
            self.slot_of(&|c| match c {
                ItemClass::Wand { effect, .. } if want(effect) => Some(1),
                _ => None,
            })
        };
        let pick = match adjacent {
            true => wand(&|e| matches!(e, WandEffect::TeleportOther)),
            false => None,
        }
        .or_else(|| wand(&|e| matches!(e, WandEffect::Striking(_))))
        .or_else(|| match target.slowed {
            false => wand(&|e| matches!(e, WandEffect::Slowing(_))),
            true => None,
        });
        pick.map(|(slot, _)| zap(slot))
    }

    /// Fires at the nearest monster in sight that is not next to the
    /// player, when the quiver holds something and the shot would meet it.
    fn shoot(&self) -> Option<(Action, Plan)> {
        let slot = self.run.quiver()?;
        let range = self.run.missile_range(slot)?;
        let level = &self.run.current().level;
        let target = self
            .seen
            .iter()
            .filter(|s| !s.asleep && s.pos.chebyshev(self.here) > 1)
            .filter(|s| self.run.first_in_line(s.pos, range) == Some(s.pos))
            .min_by(|a, b| {
                a.pos
                    .chebyshev(self.here)
                    .cmp(&b.pos.chebyshev(self.here))
                    .then(level.index(a.pos).cmp(&level.index(b.pos)))
            })?;
        Some((
            Action::Fire {
                slot,
                x: target.pos.x,
                y: target.pos.y,
            },
            Plan::Fight,
        ))
    }

    /// With nothing in sight and hit points to spare, drinks an unknown
    /// potion or reads an unknown scroll to learn it: the risk (poison,
    /// confusion, a summons) is smallest now, and what is learnt decides
    /// later fights (DCSS players identify by use the same way).
    fn try_unknown(&self) -> Option<(Action, Plan)> {
        if self.seen.iter().any(|s| !s.asleep) || self.hp * 100 < self.max * 70 {
            return None;
        }
        if let Some(slot) = self.unknown(&|c| matches!(c, ItemClass::Potion(_))) {
            return Some((Action::Quaff { slot }, Plan::Heal));
        }
        let slot = self.unknown(&|c| matches!(c, ItemClass::Scroll(_)))?;
        Some((Action::Read { slot }, Plan::Read))
    }

    /// A scroll of `effect` in the pack.
    fn scroll(&self, effect: ScrollEffect) -> Option<(u8, u32)> {
        self.slot_of(&|c| match c {
            ItemClass::Scroll(e) if *e == effect => Some(1),
            _ => None,
        })
    }

    /// Priority 1: Drink healing when low and in danger (or very low).
    fn heal_in_danger(&self) -> Option<(Action, Plan)> {
        let low = self.hp * 100 < self.max * u32::from(self.cfg.cautious_below);
        let (slot, _) = self.healing?;
        ((low && self.awake_in_sight()) || self.hp * 100 < self.max * 20)
            .then_some((Action::Quaff { slot }, Plan::Heal))
    }

    /// Priority 2: With a monster adjacent: fight the quickest to kill when the
    /// fight is likely won; else read teleportation, drink healing when below
    /// half, or stoneskin or vigour; and fight as a last resort.
    fn fight_or_get_away(&self) -> Option<(Action, Plan)> {
        let level = &self.run.current().level;
        let target = self
            .adjacent
            .iter()
            .map(|&i| &self.seen[i])
            .filter(|s| !s.asleep || self.beatable(s))
            .min_by(|a, b| {
                a.turns_to_kill
                    .total_cmp(&b.turns_to_kill)
                    .then(level.index(a.pos).cmp(&level.index(b.pos)))
            })?;
        let fight = (step_to(self.here, target.pos), Plan::Fight);
        let expected_loss = self.near_threat * target.turns_to_kill.max(1.0);
        if expected_loss < f64::from(self.hp) * 0.7 {
            return Some(fight);
        }
        if let Some((slot, _)) = self.scroll(ScrollEffect::Teleportation) {
            return Some((Action::Read { slot }, Plan::Flee));
        }
        if let Some((slot, _)) = self.healing
            && self.hp * 2 < self.max
        {
            return Some((Action::Quaff { slot }, Plan::Heal));
        }
        if let Some((slot, _)) = self.slot_of(&|c| match c {
            ItemClass::Potion(PotionEffect::Stoneskin { .. }) => Some(1),
            ItemClass::Potion(PotionEffect::Vigour(_)) => Some(2),
            _ => None,
        }) && self.combat.hero.stoneskin == 0
            && !self
                .run
                .hero_has(crate::sim::kinds::effect::Effect::Stoneskin)
        {
            return Some((Action::Quaff { slot }, Plan::Heal));
        }
        // Losing, with nothing known to help: an unknown potion is a gamble
        // worth taking (healing is the commonest kind).
        if self.hp * 3 < self.max
            && let Some(slot) = self.unknown(&|c| matches!(c, ItemClass::Potion(_)))
        {
            return Some((Action::Quaff { slot }, Plan::Heal));
        }
        Some(fight)
    }

    /// Whether a sleeping monster is worth waking with a sneak attack: the
    /// fight that follows, at its full threat, is likely won. One that is
    /// not is crept past (rules 4).
    fn beatable(&self, s: &Seen) -> bool {
        let Some(m) = self.run.current().monsters.iter().find(|m| m.pos == s.pos) else {
            return false;
        };
        let kind = &self.run.kinds()[usize::from(m.kind)];
        let odds = HitOdds::of(self.cfg);
        let threat = expected_damage(&odds, self.combat.armour(self.run.turn()), &kind.damage)
            * f64::from(kind.speed)
            / f64::from(self.run.config().simulation.player_speed);
        threat * (s.turns_to_kill - 1.0).max(0.0) < f64::from(self.hp) * 0.5
    }

    /// A walk that would step into a sleeping monster it chose to leave
    /// asleep (walks go through monsters: a step into one is a blow)
    /// sidesteps instead, to a free cell beside both the player and the
    /// sleeper, the one nearest the cell beyond it; with none, the blow is
    /// struck after all (a sneak attack), as a sleeper in a corridor
    /// cannot be passed.
    fn around_sleepers(&self, action: Action, plan: Plan) -> (Action, Plan) {
        let Action::Move { dx, dy } = action else {
            return (action, plan);
        };
        if matches!(plan, Plan::Fight | Plan::Hunt) {
            return (action, plan);
        }
        let state = self.run.current();
        let level = &state.level;
        let at = |p: Pos, dx: i32, dy: i32| {
            let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
            level.in_bounds(x, y).then(|| Pos::new(x as u16, y as u16))
        };
        let Some(to) = at(self.here, i32::from(dx), i32::from(dy)) else {
            return (action, plan);
        };
        if !self.seen.iter().any(|s| s.pos == to && s.asleep) {
            return (action, plan);
        }
        let beyond = at(to, i32::from(dx), i32::from(dy)).unwrap_or(to);
        let walker = self.run.player_walker();
        let side = crate::sim::world::distance::DIRECTIONS
            .iter()
            .filter_map(|&(x, y)| at(self.here, x, y))
            .filter(|&n| {
                n != to
                    && n.chebyshev(to) == 1
                    && walker.steps(level, self.here, n)
                    && state.monster_at(n).is_none()
            })
            .min_by_key(|&n| (n.chebyshev(beyond), level.index(n)));
        match side {
            Some(n) => (step_to(self.here, n), Plan::Explore),
            None => (action, plan),
        }
    }

    /// Whether an awake monster is in sight: what the autopilot rests
    /// from, heals for and waits on (a sleeping one does none of that).
    fn awake_in_sight(&self) -> bool {
        self.seen.iter().any(|s| !s.asleep)
    }

    /// Priority 3, first: potions of vigour are for good: drink them when
    /// nothing is near.
    fn drink_vigour(&self) -> Option<(Action, Plan)> {
        if self.near_threat != 0.0 {
            return None;
        }
        let (slot, _) = self.slot_of(&|c| match c {
            ItemClass::Potion(PotionEffect::Vigour(n)) => Some(u32::from(*n)),
            _ => None,
        })?;
        Some((Action::Quaff { slot }, Plan::Heal))
    }

    /// Priority 3, then: better gear from the pack.
    fn better_gear(&self) -> Option<(Action, Plan)> {
        let (slot, _) = self
            .combat
            .hero
            .pack
            .lines()
            .find(|(_, l)| better_than_worn(self.run, self.combat.kind(l.kind)))?;
        Some((Action::Wield { slot: slot as u8 }, Plan::Equip))
    }

    /// Priority 5: Magic mapping on a level with something left to see.
    fn map_the_level(&self, map: &mut LazyWalk) -> Option<(Action, Plan)> {
        if self.awake_in_sight() {
            return None;
        }
        let (slot, _) = self.scroll(ScrollEffect::MagicMapping)?;
        frontier_of(self.run, map)?;
        Some((Action::Read { slot }, Plan::Read))
    }

    /// Priority 6: Rest when hurt and alone.
    fn rest_alone(&self) -> Option<(Action, Plan)> {
        (!self.awake_in_sight() && self.cfg.regen_every > 0 && self.hp * 100 < self.max * 70)
            .then_some((Action::Wait, Plan::Rest))
    }

    /// Priority 7: Hunt what it sees when healthy, keeping it in sight (what
    /// cannot be reached so is left to exploring); hurt, with monsters about,
    /// let them come, regenerating until healthy enough to hunt or explore.
    fn hunt_or_wait(&self) -> Option<(Action, Plan)> {
        if self.hp * 100 >= self.max * 60 {
            let radius = self.run.config().simulation.sight_radius;
            let level = &self.run.current().level;
            let walker = self.run.player_walker();
            // A sleeping monster it cannot beat is left asleep: exploring
            // walks on past it.
            let (step, _) = hunt_step(
                level,
                walker,
                self.here,
                radius,
                self.seen
                    .iter()
                    .filter(|s| !s.asleep || self.beatable(s))
                    .map(|s| s.pos),
            )?;
            return Some((step, Plan::Hunt));
        }
        (self.awake_in_sight() && self.cfg.regen_every > 0).then_some((Action::Wait, Plan::Rest))
    }
}
