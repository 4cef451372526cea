//! Packs (jackals, wolves, orcs, gnolls, orc archers): when a level is
//! first populated, each monster drawn of a kind that comes in packs
//! brings `min` to `max` monsters of its kind in all, standing on the
//! free floor of its own area nearest it (at most 3 cells off). The
//! number of kin and their hit points come from the level's `Minds`
//! stream, never the monsters' own, so the monsters drawn before packs
//! existed stay where they were. Which monsters came together is kept
//! only while the level is made: the group sleeps or wakes as one.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::geom::Pos;
use crate::level::{Level, Tile};
use crate::sim::kinds::ability::Ability;
use crate::sim::kinds::monster::{Monster, MonsterKind};
use crate::sim::world::distance::DIRECTIONS;

/// Adds the kin of every monster in `monsters` whose kind comes in packs
/// (their hit points to `hp`), numbered on from the last id; returns, for
/// every monster, the index of the monster whose group it is in (a
/// monster alone, or a leader, is its own).
pub(in crate::sim) fn gather(
    kinds: &[MonsterKind],
    level: &Level,
    monsters: &mut Vec<Monster>,
    hp: &mut Vec<u16>,
    rng: &mut Pcg64,
) -> Vec<usize> {
    let drawn = monsters.len();
    let mut group: Vec<usize> = (0..drawn).collect();
    for leader in 0..drawn {
        let kind = usize::from(monsters[leader].kind);
        let Some((min, max)) = kinds[kind].abilities.iter().find_map(|a| match a {
            Ability::Pack { min, max } => Some((*min, *max)),
            _ => None,
        }) else {
            continue;
        };
        let size = rng.random_range(min..=max);
        let from = monsters[leader].pos;
        for p in kin_cells(level, from, monsters, usize::from(size) - 1) {
            let roll = kinds[kind].hp.roll(rng).clamp(1, 10_000) as u16;
            monsters.push(Monster {
                id: monsters.len() as u32,
                kind: kind as u16,
                pos: p,
                next: 0,
                memory: None,
            });
            hp.push(roll);
            group.push(leader);
        }
    }
    group
}

/// Up to `wanted` free floor cells of `from`'s area within 3 cells of it,
/// nearest first (breadth-first by king moves over that floor, in
/// [`DIRECTIONS`] order).
fn kin_cells(level: &Level, from: Pos, monsters: &[Monster], wanted: usize) -> Vec<Pos> {
    let area = level.area_of(from);
    let mut out = Vec::new();
    let mut seen = vec![from];
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        if out.len() == wanted {
            break;
        }
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let n = Pos::new(x as u16, y as u16);
            if seen.contains(&n)
                || n.chebyshev(from) > 3
                || level.tile(n) != Tile::Floor
                || level.area_of(n) != area
            {
                continue;
            }
            seen.push(n);
            queue.push_back(n);
            if out.len() < wanted && !monsters.iter().any(|m| m.pos == n) {
                out.push(n);
            }
        }
    }
    out
}
