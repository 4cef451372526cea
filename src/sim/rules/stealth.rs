//! Stealth (rules 4): monsters start asleep, wandering or awake; the
//! player's actions make noise that may wake them, a monster that can see
//! the player may notice, and a blow against one that has not noticed the
//! player lands hard. Under earlier rules every monster is awake and
//! nothing here is asked, so their games are as they were.
//!
//! The numbers, chosen so that creeping past a sleeping ogre in light
//! armour usually works and fighting next to one usually does not:
//! - Noise is a radius in cells (Chebyshev, through walls: sound carries):
//!   waiting and searching 0; a step 1 plus the armour's noise; using an
//!   item 1; opening a door 4, closing one 3; an attack 8 plus the
//!   armour's noise.
//! - A sleeping monster `d` cells off hears a noise of `n >= d` with a
//!   chance of 15% a point of `n + 1 - d` (at most 90%); a wandering one
//!   with twice that. Either wakes, knowing where the noise came from.
//! - On its turn a monster that has not noticed the player, sees the
//!   player (the same symmetric sight as the player's) and stands within
//!   the perception radius `R` (Manhattan `d`), notices with a chance of
//!   0.6% a point of `R + 1 - d` asleep (at most 4% a turn next to the
//!   player), 12% a point wandering.
//! - An attack on a monster that has not noticed the player always hits
//!   and deals double damage; it then knows.

use rand::RngExt;

use crate::geom::Pos;
use crate::sim::kinds::item::{ItemClass, ItemKind};
use crate::sim::kinds::monster::Monster;
use crate::sim::state::Run;
use crate::sim::state::tactics::{Alert, Mind};
use crate::sim::vocabulary::Action;
use crate::sim::world::doors::Way;

/// How loud an attack is, before the armour's noise.
const ATTACK_NOISE: u16 = 8;
/// How loud opening a door is.
const OPEN_NOISE: u16 = 4;
/// How loud closing a door is.
const CLOSE_NOISE: u16 = 3;

/// How much louder worn armour makes a step or a blow, in cells: a third
/// of the kind's `noise` (`data/items.ron`: leather and elven chain 0,
/// ring and chain mail 1 and 2, splint and plate 2 and 3).
pub(in crate::sim) fn armour_noise(kind: &ItemKind) -> u16 {
    match kind.class {
        ItemClass::Armour { .. } => u16::from(kind.noise) / 3,
        _ => 0,
    }
}

impl Run {
    /// A monster's mind (rules 4), by the monster's id on the player's
    /// level; `None` under earlier rules.
    pub fn mind(&self, m: &Monster) -> Option<&Mind> {
        let slot = usize::from(self.state.player.depth) - 1;
        self.state
            .tactics
            .as_ref()?
            .minds
            .get(slot)?
            .get(m.id as usize)
    }

    /// How aware monster `m` is of the player: awake under rules before 4.
    pub fn alert_of(&self, m: &Monster) -> Alert {
        self.mind(m).map_or(Alert::Awake, |mind| mind.alert)
    }

    /// The mind of monster `i` of the player's level, to change it.
    pub(in crate::sim) fn mind_mut(&mut self, i: usize) -> Option<&mut Mind> {
        let slot = usize::from(self.state.player.depth) - 1;
        let id = self.current().monsters[i].id as usize;
        self.state
            .tactics
            .as_mut()?
            .minds
            .get_mut(slot)?
            .get_mut(id)
    }

    /// Monster `i` notices the player: awake, and knowing where the
    /// player stands; the player is told when the monster is in sight.
    pub(in crate::sim) fn alarm(&mut self, i: usize, why: &str) {
        let player = self.state.player.pos;
        let Some(mind) = self.mind_mut(i) else {
            return;
        };
        if mind.alert == Alert::Awake {
            return;
        }
        let was = mind.alert;
        mind.alert = Alert::Awake;
        let m = &self.current().monsters[i];
        let (pos, kind) = (m.pos, usize::from(m.kind));
        self.current_mut().monsters[i].memory = Some(player);
        if self.sees(pos) {
            let name = self.state.kinds[kind].name.clone();
            let line = match was {
                Alert::Asleep => format!("The {name} wakes up{why}."),
                _ => format!("The {name} notices you{why}."),
            };
            self.say(line);
        }
    }

    /// The noise `action` would make now, before it is played: an attack
    /// or a door is read off the cell moved into.
    pub(in crate::sim) fn noise_of(&self, action: Action) -> u16 {
        let armour = self
            .combat()
            .and_then(|c| c.hero.armour.map(|k| armour_noise(c.kind(k))))
            .unwrap_or(0);
        match action {
            Action::Wait | Action::Search | Action::Descend | Action::Ascend => 0,
            Action::Move { dx, dy } => {
                let here = self.state.player.pos;
                let (x, y) = (
                    i32::from(here.x) + i32::from(dx),
                    i32::from(here.y) + i32::from(dy),
                );
                let level = &self.current().level;
                if !level.in_bounds(x, y) {
                    return 0;
                }
                let to = Pos::new(x as u16, y as u16);
                if self.current().monster_at(to).is_some() {
                    ATTACK_NOISE + armour
                } else if self.player_walker().step(level, here, to) == Way::Door {
                    OPEN_NOISE
                } else {
                    1 + armour
                }
            }
            Action::Close { .. } => CLOSE_NOISE,
            _ => 1,
        }
    }

    /// The player made `noise`: each monster that has not noticed the
    /// player and stands within it may hear and wake (the chances in the
    /// file's comment). Draws only for monsters in earshot that are not
    /// awake, so a run without any draws nothing here.
    pub(in crate::sim) fn player_makes_noise(&mut self, noise: u16) {
        if noise == 0 || self.state.tactics.is_none() {
            return;
        }
        let here = self.state.player.pos;
        for i in 0..self.current().monsters.len() {
            let m = &self.current().monsters[i];
            let d = m.pos.chebyshev(here);
            let alert = self.alert_of(m);
            if alert == Alert::Awake || d > noise {
                continue;
            }
            let per_point = if alert == Alert::Asleep { 15 } else { 30 };
            let chance = (u32::from(noise + 1 - d) * per_point).min(90);
            if self.state.rng.random_range(0..100u32) < chance {
                self.alarm(i, "");
            }
        }
    }

    /// On monster `i`'s turn, whether it has noticed the player (rules 4;
    /// always under earlier rules): one that has not may notice now, if it
    /// sees the player within its perception radius.
    pub(in crate::sim) fn monster_notices(&mut self, i: usize) -> bool {
        let m = &self.current().monsters[i];
        let alert = self.alert_of(m);
        if alert == Alert::Awake {
            return true;
        }
        let radius = u32::from(self.config.simulation.perception_radius);
        let d = m.pos.manhattan(self.state.player.pos);
        if d > radius || !self.visible(m.pos) {
            return false;
        }
        let points = radius + 1 - d;
        let noticed = match alert {
            Alert::Asleep => self.state.rng.random_range(0..1000u32) < 6 * points,
            _ => self.state.rng.random_range(0..100u32) < 12 * points,
        };
        if noticed {
            self.alarm(i, "");
        }
        noticed
    }

    /// Whether monster `i` has not noticed the player (rules 4): an
    /// attack on it is a sneak attack.
    pub(in crate::sim) fn unaware(&self, i: usize) -> bool {
        self.alert_of(&self.current().monsters[i]) != Alert::Awake
    }
}
