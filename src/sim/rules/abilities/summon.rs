//! Summoning (necromancers, liches): a monster awake with the player in
//! sight may call `count` monsters of a kind (its own, for kin) to the
//! cells beside it, with `chance` percent of its turns, then recharges
//! (`Effect::Recharging`) for `recharge` of the run's turns. The called
//! come awake and knowing where the player is. A level hands out at most
//! [`monsters_most`] monster ids, summoned ones included, so no caster can
//! fill a level or a save without bound.

use rand::RngExt;

use crate::geom::Pos;
use crate::sim::kinds::monster::Monster;
use crate::sim::kinds::place::{monsters_most, vault_monsters};
use crate::sim::state::Run;
use crate::sim::state::tactics::{Effect, Mind};
use crate::sim::world::distance::DIRECTIONS;

impl Run {
    /// Monster `i` calls monsters of `kind` to it, if it can and chooses
    /// to: true if any came.
    pub(in crate::sim) fn summon(
        &mut self,
        i: usize,
        kind: &str,
        (chance, count, recharge): (u8, u8, u16),
    ) -> bool {
        let turn = self.state.turn;
        let me = self.current().monsters[i].clone();
        let recharging = self
            .mind_mut(i)
            .is_some_and(|m| m.effects.has(Effect::Recharging, turn));
        if recharging
            || !self.sees(me.pos)
            || self.state.rng.random_range(0..100u32) >= u32::from(chance)
        {
            return false;
        }
        let Some(called) = self.state.kinds.iter().position(|k| k.name == kind) else {
            return false;
        };
        let depth = self.state.player.depth;
        let level = &self.current().level;
        let most = monsters_most(&self.config, depth) + vault_monsters(&self.vaults, level).len();
        let player = self.state.player.pos;
        let mut cells: Vec<Pos> = Vec::new();
        for (dx, dy) in DIRECTIONS {
            let (x, y) = (i32::from(me.pos.x) + dx, i32::from(me.pos.y) + dy);
            if !level.in_bounds(x, y) {
                continue;
            }
            let p = Pos::new(x as u16, y as u16);
            if p != player
                && self.player_walker().steps(level, me.pos, p)
                && self.current().monster_at(p).is_none()
            {
                cells.push(p);
            }
        }
        let mut came = 0u32;
        for p in cells.into_iter().take(usize::from(count)) {
            let ids = self.floor().map_or(0, |f| f.monster_hp.len());
            if ids >= most {
                break;
            }
            let hp = self.state.kinds[called]
                .hp
                .roll(&mut self.state.rng)
                .clamp(1, 10_000) as u16;
            let floor = self.floor_mut();
            floor.monster_hp.push(hp);
            floor.monster_max_hp.push(hp);
            let slot = usize::from(depth) - 1;
            if let Some(t) = self.state.tactics.as_mut() {
                t.minds[slot].push(Mind::awake());
            }
            self.current_mut().monsters.push(Monster {
                id: ids as u32,
                kind: called as u16,
                pos: p,
                next: me.next,
                memory: Some(player),
            });
            came += 1;
        }
        if came == 0 {
            return false;
        }
        if let Some(mind) = self.mind_mut(i) {
            mind.effects.add(Effect::Recharging, 0, turn, recharge);
        }
        let name = self.state.kinds[usize::from(me.kind)].name.clone();
        let what = crate::words::count(came, kind, &crate::words::plural_name(kind));
        self.say(format!("The {name} calls {what} to its side."));
        true
    }
}
