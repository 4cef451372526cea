//! Ranged attacks (orc archers, stone giants, necromancers): a monster
//! awake, 2 to `range` cells from the player along a line of fire, shoots
//! with `chance` percent of its turns instead of stepping closer. The line
//! of fire is the player's own sight, which is symmetric shadowcasting
//! (`world/fov.rs`): the monster can shoot exactly when the player can see
//! it, so a player in view of an archer knows it can be shot, and a corner
//! or a closed door is cover both ways. A shot rolls to hit against the
//! player's armour as a bite does.

use rand::RngExt;

use crate::dice::Dice;
use crate::sim::kinds::ability::Missile;
use crate::sim::rules::odds::{HitOdds, Strike, attack};
use crate::sim::state::Run;
use crate::sim::vocabulary::Event;

impl Run {
    /// Whether monster `i` stands 2 to `range` cells from the player on a
    /// line of fire.
    pub(in crate::sim) fn in_line_of_fire(&self, i: usize, range: u8) -> bool {
        let pos = self.current().monsters[i].pos;
        let d = pos.chebyshev(self.state.player.pos);
        (2..=u16::from(range)).contains(&d) && self.sees(pos)
    }

    /// Monster `i` shoots, if it can and chooses to: true if it did.
    pub(in crate::sim) fn shoot(
        &mut self,
        i: usize,
        missile: Missile,
        (range, damage, chance): (u8, Dice, u8),
        events: &mut Vec<Event>,
    ) -> bool {
        if !self.in_line_of_fire(i, range)
            || self.state.rng.random_range(0..100u32) >= u32::from(chance)
        {
            return false;
        }
        let kind = usize::from(self.current().monsters[i].kind);
        let name = self.state.kinds[kind].name.clone();
        let armour = self.hero_armour();
        let odds = HitOdds::of(&self.config.simulation.combat);
        match attack(&mut self.state.rng, &odds, armour, &damage) {
            Strike::Miss => {
                self.say(format!("The {name} {}; it misses.", missile.shot()));
                events.push(Event::Attacked {
                    by_player: false,
                    kind: name,
                    damage: None,
                });
            }
            Strike::Hit(hurt) => {
                self.say(format!(
                    "The {name} {}; it hits you for {hurt}.",
                    missile.shot()
                ));
                events.push(Event::Attacked {
                    by_player: false,
                    kind: name.clone(),
                    damage: Some(hurt),
                });
                self.hero_hurt(hurt, &name, events);
            }
        }
        true
    }
}
