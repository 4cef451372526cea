//! Blinking (imps, liches): a monster awake with the player in sight and
//! not beside it vanishes with `chance` percent of its turns and
//! reappears on a cell up to `range` cells off that it sees: the one
//! nearest the player when it hunts, the farthest when it flees. It never
//! lands on another monster, on a door or in rock.

use rand::RngExt;

use crate::geom::Pos;
use crate::level::Tile;
use crate::sim::kinds::ability::Ability;
use crate::sim::state::Run;
use crate::sim::world::fov::visible_cells_with;

impl Run {
    /// Monster `i` blinks, if it can and chooses to: true if it did.
    pub(in crate::sim) fn blink(&mut self, i: usize, chance: u8, range: u8) -> bool {
        let m = self.current().monsters[i].clone();
        let player = self.state.player.pos;
        if m.pos.chebyshev(player) < 2
            || !self.sees(m.pos)
            || self.state.rng.random_range(0..100u32) >= u32::from(chance)
        {
            return false;
        }
        let below = self.state.kinds[usize::from(m.kind)]
            .abilities
            .iter()
            .find_map(|a| match a {
                Ability::Flee { below } => Some(*below),
                _ => None,
            });
        let away = self.fleeing(i, below);
        let side = 2 * u64::from(range) + 1;
        self.sight.work += side * side;
        let state = self.current();
        let level = &state.level;
        let mut best: Option<((u16, usize), Pos)> = None;
        visible_cells_with(level, self.doors(), m.pos, u16::from(range), |p| {
            if p == player
                || p == m.pos
                || !matches!(level.tile(p), Tile::Floor | Tile::Corridor | Tile::OpenDoor)
                || state.monster_at(p).is_some()
            {
                return;
            }
            let d = p.chebyshev(player);
            let key = match away {
                true => (u16::MAX - d, level.index(p)),
                false => (d, level.index(p)),
            };
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, p));
            }
        });
        let Some((_, to)) = best else {
            return false;
        };
        let seen = self.sees(m.pos);
        self.current_mut().monsters[i].pos = to;
        let name = self.state.kinds[usize::from(m.kind)].name.clone();
        if seen || self.sees(to) {
            self.say(format!("The {name} blinks."));
        }
        true
    }
}
