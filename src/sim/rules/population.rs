//! What a level starts with: Stomp's monsters (kinds drawn alike),
//! Combat's (kinds drawn by depth and rarity, hit points rolled) and
//! items, and the monsters its vaults draw. Each from the level's own
//! streams, so a level's population does not depend on the order levels
//! are visited in.

use rand::RngExt;

use crate::config::Config;
use crate::level::Level;
use crate::sim::kinds::item::{Item, ItemClass, ItemKind};
use crate::sim::kinds::monster::{Monster, MonsterKind};
use crate::sim::kinds::place::{
    each_free_room_cell, free_room_cells, monsters_wanted, vault_monsters,
};
use crate::sim::kinds::table::Table;
use crate::sim::rules::abilities::pack;
use crate::sim::state::tactics::{Alert, Mind};
use crate::streams::{Stage, stage_rng};
use crate::vault::Vault;

/// A Stomp level's monsters: kinds drawn uniformly, in rooms other than
/// the arrival room, on free floor, from the level's own stream.
pub(in crate::sim) fn populate(
    config: &Config,
    kinds: &[MonsterKind],
    seed: u64,
    level: &Level,
) -> Vec<Monster> {
    let wanted = monsters_wanted(config, level.depth());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Monsters);
    let mut monsters: Vec<Monster> = Vec::with_capacity(wanted);
    if kinds.is_empty() {
        return monsters;
    }
    // Each monster's kind is drawn right after its cell.
    each_free_room_cell(level, wanted, &mut rng, |pos, rng| {
        monsters.push(Monster {
            id: monsters.len() as u32,
            kind: rng.random_range(0..kinds.len() as u32) as u16,
            pos,
            next: 0,
            memory: None,
        });
    });
    monsters
}

/// A level's monsters under Combat: a number growing with depth, kinds
/// drawn by depth and rarity, hit points rolled, all from the level's own
/// monster stream; in rooms other than the arrival room, on free floor.
pub(in crate::sim) fn populate_by_depth(
    config: &Config,
    kinds: &[MonsterKind],
    seed: u64,
    level: &Level,
) -> (Vec<Monster>, Vec<u16>) {
    let wanted = monsters_wanted(config, level.depth());
    let table = Table::for_depth(kinds, level.depth());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Monsters);
    let mut monsters = Vec::with_capacity(wanted);
    let mut hp = Vec::with_capacity(wanted);
    let cells = free_room_cells(level, wanted, &mut rng);
    for p in cells {
        let Some(kind) = table.draw(&mut rng) else {
            break;
        };
        let roll = kinds[usize::from(kind)].hp.roll(&mut rng).clamp(1, 10_000) as u16;
        monsters.push(Monster {
            id: monsters.len() as u32,
            kind,
            pos: p,
            next: 0,
            memory: None,
        });
        hp.push(roll);
    }
    (monsters, hp)
}

/// Rules 4's population beyond the monsters drawn: each monster of a kind
/// that comes in packs brings its kin (`rules/abilities/pack.rs`), and
/// each group, kin and all, sleeps, wanders or is awake together, from the
/// level's `Minds` stream: asleep 45%, wandering 30%, awake 25%. Most of a
/// level is thus found unaware, so stealth and the order of fights are the
/// player's to choose, and a quarter still comes hunting. The minds, by
/// monster id, of the monsters in `monsters`.
pub(in crate::sim) fn packs_and_minds(
    kinds: &[MonsterKind],
    seed: u64,
    level: &Level,
    monsters: &mut Vec<Monster>,
    hp: &mut Vec<u16>,
) -> Vec<Mind> {
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Minds);
    let group = pack::gather(kinds, level, monsters, hp, &mut rng);
    let mut alerts: Vec<Alert> = Vec::with_capacity(group.len());
    for (i, &leader) in group.iter().enumerate() {
        let alert = if leader < i {
            alerts[leader]
        } else {
            match rng.random_range(0..100u32) {
                0..45 => Alert::Asleep,
                45..75 => Alert::Wandering,
                _ => Alert::Awake,
            }
        };
        alerts.push(alert);
    }
    alerts
        .into_iter()
        .map(|alert| Mind {
            alert,
            ..Mind::awake()
        })
        .collect()
}

/// A level's items: `items_per_level` kinds drawn by depth and rarity on
/// room floor outside the arrival room, from the level's own item stream
/// (so the monsters drawn never shift them).
pub(in crate::sim) fn place_items(
    config: &Config,
    kinds: &[ItemKind],
    seed: u64,
    level: &Level,
) -> Vec<Item> {
    let wanted = usize::from(config.simulation.combat.items_per_level);
    // Rules before 4 place only the kinds they know, so their runs draw
    // from the table they always did.
    let rules4 = config.revisions.rules >= 4;
    let table =
        Table::for_depth_where(kinds, level.depth(), |k| rules4 || k.class.before_rules_4());
    let mut rng = stage_rng(seed, level.depth(), 0, Stage::Items);
    let cells = free_room_cells(level, wanted, &mut rng);
    let mut items = Vec::with_capacity(cells.len());
    for pos in cells {
        let Some(kind) = table.draw(&mut rng) else {
            break;
        };
        // Missiles lie in bundles (rules 4 place them).
        let found = match kinds[usize::from(kind)].class {
            ItemClass::Missile { found, .. } => found.roll(&mut rng).clamp(1, 99),
            _ => 1,
        };
        for _ in 0..found {
            items.push(Item { kind, pos });
        }
    }
    items
}

/// Adds the monsters drawn in the level's vaults to `monsters`, each on
/// its cell (unless a monster stands there already): the kinds added, in
/// order, so Combat can give each its hit points.
pub(in crate::sim) fn add_vault_monsters(
    vaults: &[Vault],
    kinds: &[MonsterKind],
    level: &Level,
    monsters: &mut Vec<Monster>,
) -> Vec<usize> {
    let mut added = Vec::new();
    for (glyph, pos) in vault_monsters(vaults, level) {
        let Some(kind) = kinds.iter().position(|k| k.glyph == glyph) else {
            continue;
        };
        if monsters.iter().any(|m| m.pos == pos) {
            continue;
        }
        monsters.push(Monster {
            id: monsters.len() as u32,
            kind: kind as u16,
            pos,
            next: 0,
            memory: None,
        });
        added.push(kind);
    }
    added
}
