//! One turn of a run, and the one place that asks which rules a run
//! plays by: the player's action, then every monster whose move comes
//! before the player's next, each handed to Stomp's or Combat's rules
//! (`rules/`) where the two differ. Taking the stairs and winning are the
//! same under both; entering a level populates it by the run's rules.
//!
//! The rules of seeds 001 and 002:
//! - Actors act in order of their next-move tick (speed s moves every
//!   1000/s ticks); at equal ticks the player goes first, then monsters by
//!   index.
//! - Under Stomp the player stepping onto a monster kills it, and a monster
//!   stepping onto the player dies and costs a life; under Combat both
//!   attack instead.
//! - Only the player's level moves; the others keep their state until the
//!   player returns.

use crate::config::{Goal, LevelKind};
use crate::generate::{GenerateError, Generator};
use crate::geom::Pos;
use crate::level::{StairDirection, Tile};
use crate::sim::rules::population;
use crate::sim::state::combat_state::Floor;
use crate::sim::state::tactics::{Alert, Mind};
use crate::sim::state::{LevelState, Run};
use crate::sim::units::{MAX_TURNS, MONSTER_TURN_WORK, STEP_WORK, level_work};
use crate::sim::vocabulary::{Action, Event, Outcome};
use crate::sim::world::doors::{Doors, Way};

impl Run {
    /// Plays one player action and the monster moves it lets happen.
    pub fn step(&mut self, action: Action) -> Result<Vec<Event>, GenerateError> {
        let mut events = Vec::new();
        if self.state.outcome != Outcome::Playing || self.state.turn >= MAX_TURNS {
            events.push(Event::Blocked);
            return Ok(events);
        }
        self.attacked = false;
        // Read before the action changes what it acts on (an attack, a door).
        let noise = match self.state.tactics {
            Some(_) => self.noise_of(action),
            None => 0,
        };
        if !self.act(action, &mut events)? {
            events.push(Event::Blocked);
            return Ok(events);
        }
        self.state.turn += 1;
        self.sight.work += STEP_WORK;
        if let Some(recording) = &mut self.recording {
            recording.push(action);
        }
        // A level that waited while the player was away does not get to
        // catch up on the moves it missed.
        let now = self.state.player.next;
        self.state.player.next = now + self.player_interval(self.attacked);
        if self.state.combat.is_some() {
            self.combat_turn_passes();
            self.effects_pass(&mut events);
        }
        if self.state.tactics.is_some() {
            self.poison_tick(&mut events);
            self.player_makes_noise(noise);
        }
        self.refresh();
        self.check_won(&mut events);

        // Monsters whose next move comes before the player's, earliest
        // first, ties by index.
        while self.state.outcome == Outcome::Playing {
            self.sight.work += 1 + self.current().monsters.len() as u64;
            let next = self
                .current()
                .monsters
                .iter()
                .enumerate()
                .filter(|(_, m)| m.next < self.state.player.next)
                .min_by_key(|(i, m)| (m.next, *i))
                .map(|(i, _)| i);
            let Some(i) = next else { break };
            self.sight.work += MONSTER_TURN_WORK;
            let ticks = self.monster_interval(i);
            self.current_mut().monsters[i].next += ticks;
            self.monster_turn(i, &mut events);
        }
        self.check_won(&mut events);
        Ok(events)
    }

    /// The player's part of a step. False if the action is not possible.
    fn act(&mut self, action: Action, events: &mut Vec<Event>) -> Result<bool, GenerateError> {
        let here = self.state.player.pos;
        match action {
            Action::Wait => Ok(true),
            Action::Move { dx, dy } => {
                let (x, y) = (
                    i32::from(here.x) + i32::from(dx),
                    i32::from(here.y) + i32::from(dy),
                );
                let level = &self.current().level;
                if !level.in_bounds(x, y) {
                    return Ok(false);
                }
                let mut to = Pos::new(x as u16, y as u16);
                // Under rules 1 and 2 exactly `can_step`'s answer.
                if self.player_walker().step(level, here, to) == Way::Wall {
                    return Ok(false);
                }
                // A confused hero may stumble elsewhere (rules 4), into a
                // wall as likely as not: a turn lost.
                if let Some((sx, sy)) = self.stumble() {
                    let (x, y) = (
                        i32::from(here.x) + i32::from(sx),
                        i32::from(here.y) + i32::from(sy),
                    );
                    let level = &self.current().level;
                    let astray = Pos::new(x as u16, y as u16);
                    if !level.in_bounds(x, y)
                        || self.player_walker().step(level, here, astray) == Way::Wall
                    {
                        self.say("You stumble against the wall.".into());
                        return Ok(true);
                    }
                    self.say("You stumble.".into());
                    to = astray;
                }
                let level = &self.current().level;
                match self.player_walker().step(level, here, to) {
                    Way::Wall => return Ok(false),
                    Way::Door => {
                        self.player_opens(to, events);
                        return Ok(true);
                    }
                    Way::Open => {}
                }
                if self.state.combat.is_some()
                    && let Some(m) = self.current().monster_at(to)
                {
                    self.player_attacks(m, events);
                    return Ok(true);
                }
                self.player_arrives(to, events);
                if self.state.combat.is_some() {
                    self.see_items_here();
                }
                if self.doors() == Doors::Doors {
                    self.notice_secret_doors(events);
                }
                Ok(true)
            }
            Action::Search => {
                self.search(events);
                Ok(true)
            }
            Action::Close { dx, dy } => Ok(self.close_door(dx, dy, events)),
            Action::PickUp
            | Action::Drop { .. }
            | Action::Wield { .. }
            | Action::Quaff { .. }
            | Action::Read { .. } => {
                Ok(self.state.combat.is_some() && self.use_item(action, events))
            }
            Action::Fire { slot, x, y } => Ok(self.fire(slot, x, y, events)),
            Action::Zap { slot, x, y } => Ok(self.zap(slot, x, y, events)),
            Action::Descend | Action::Ascend => self.take_stairs(action, events),
        }
    }

    /// Down or up the staircase the player stands on, to the staircase it
    /// links to. False if there is none to take.
    fn take_stairs(
        &mut self,
        action: Action,
        events: &mut Vec<Event>,
    ) -> Result<bool, GenerateError> {
        let here = self.state.player.pos;
        let want = if action == Action::Descend {
            Tile::DownStairs
        } else {
            Tile::UpStairs
        };
        let level = &self.current().level;
        if level.tile(here) != want {
            return Ok(false);
        }
        let index = level.stairs_at(here).expect("a stairs tile is a staircase");
        // Stairs link by position in link order, as in `Dungeon`.
        let direction = level.stairs()[index].direction;
        let k = level.stairs()[..index]
            .iter()
            .filter(|s| s.direction == direction)
            .count();
        let depth = self.state.player.depth;
        let to_depth = match action {
            Action::Descend => depth + 1,
            _ => depth - 1,
        };
        // Depth 1's up staircase leads out of the dungeon, which a
        // run never does; and a hand-built level may have stairs
        // past the configured depth. Neither is a move.
        if to_depth == 0 || to_depth > self.config.levels {
            return Ok(false);
        }
        self.enter(to_depth)?;
        let other = if action == Action::Descend {
            StairDirection::Up
        } else {
            StairDirection::Down
        };
        let arrival = self.state.levels[usize::from(to_depth) - 1]
            .as_ref()
            .expect("just entered")
            .level
            .stairs_going(other)
            .nth(k)
            .map(|s| s.pos)
            .expect("linked stairs exist on both levels");
        self.state.player.depth = to_depth;
        self.say(format!("You arrive on depth {to_depth}."));
        events.push(Event::Arrived { depth: to_depth });
        self.player_arrives(arrival, events);
        Ok(true)
    }

    /// Generates and populates `depth` on first visit; wakes its monsters.
    pub(in crate::sim) fn enter(&mut self, depth: u16) -> Result<(), GenerateError> {
        let slot = usize::from(depth) - 1;
        if self.state.levels[slot].is_none() {
            let level = match self.made.get_mut(slot).and_then(Option::take) {
                Some(level) => std::sync::Arc::unwrap_or_clone(level),
                None => {
                    let mut generator = Generator::default();
                    let level =
                        generator.level(&self.config, &self.vaults, self.state.seed, depth)?;
                    let cells = u64::from(level.width()) * u64::from(level.height());
                    self.sight.work += level_work(cells, generator.work_spent());
                    level
                }
            };
            let (config, kinds, seed) = (&self.config, &self.state.kinds, self.state.seed);
            let mut minds = Vec::new();
            let mut monsters = match &mut self.state.combat {
                Some(state) => {
                    let (mut monsters, mut hp) =
                        population::populate_by_depth(config, kinds, seed, &level);
                    if self.state.tactics.is_some() {
                        minds = population::packs_and_minds(
                            kinds,
                            seed,
                            &level,
                            &mut monsters,
                            &mut hp,
                        );
                    }
                    let items = population::place_items(config, &state.items, seed, &level);
                    state.floors[slot] = Floor {
                        items,
                        monster_max_hp: hp.clone(),
                        monster_hp: hp,
                    };
                    monsters
                }
                None => population::populate(config, kinds, seed, &level),
            };
            let added = population::add_vault_monsters(&self.vaults, kinds, &level, &mut monsters);
            // Under Combat, the vaults' monsters at full hit points.
            if let Some(state) = &mut self.state.combat {
                let floor = &mut state.floors[slot];
                for kind in added {
                    let hp = kinds[kind].hp.max().clamp(1, 10_000) as u16;
                    floor.monster_hp.push(hp);
                    floor.monster_max_hp.push(hp);
                }
            }
            // Under rules 4 each monster has a mind, by id; a vault's
            // monsters stand guard, awake.
            if let (Some(tactics), Some(state)) = (&mut self.state.tactics, &self.state.combat) {
                minds.resize(state.floors[slot].monster_hp.len(), Mind::awake());
                tactics.minds[slot] = minds;
            }
            let cells = usize::from(level.width()) * usize::from(level.height());
            let mut seen = vec![0u64; cells.div_ceil(64)];
            // A known labyrinth (Angband's) is on the map from the start.
            let at_depth = self.config.at_depth(depth);
            if at_depth.kind == LevelKind::Labyrinth && at_depth.labyrinth.known {
                for c in 0..cells {
                    seen[c / 64] |= 1 << (c % 64);
                }
            }
            self.state.levels[slot] = Some(LevelState {
                level,
                monsters,
                seen,
            });
        }
        // A level that waited while the player was away does not get to
        // catch up on the moves it missed.
        let now = self.state.player.next;
        for m in &mut self.state.levels[slot]
            .as_mut()
            .expect("just generated")
            .monsters
        {
            m.next = m.next.max(now);
        }
        Ok(())
    }

    /// Ends the run as won once its goal is reached.
    pub(in crate::sim) fn check_won(&mut self, events: &mut Vec<Event>) {
        if self.state.outcome != Outcome::Playing {
            return;
        }
        let won = match self.config.simulation.goal {
            Goal::ReachBottom => self.state.player.depth == self.config.levels,
            // Every level must have been visited: monsters never leave theirs.
            Goal::KillAll => self
                .state
                .levels
                .iter()
                .all(|l| l.as_ref().is_some_and(|s| s.monsters.is_empty())),
        };
        if won {
            self.state.outcome = Outcome::Won;
            self.say("You have won.".into());
            events.push(Event::Won);
        }
    }

    /// A monster's move: toward what it knows by its traits (`rules/monsters.rs`);
    /// onto the player, an attack under Combat and a life lost under Stomp.
    fn monster_turn(&mut self, i: usize, events: &mut Vec<Event>) {
        if self.state.tactics.is_some() && !self.monster_turn_by_mind(i, events) {
            return;
        }
        let Some(to) = self.monster_target(i) else {
            return;
        };
        if to == self.state.player.pos {
            if self.state.combat.is_some() {
                self.monster_attacks(i, events);
            } else {
                self.monster_hits_and_dies(i, events);
            }
            return;
        }
        self.monster_moves(i, to, events);
    }

    /// Rules 4's part of monster `i`'s turn, before it walks at the player
    /// as its traits say: regeneration; a monster that has not noticed the
    /// player sleeps, or wanders, unless it notices now; one that has may
    /// use an ability, run (fleeing) or keep to cover. False when that
    /// took its turn.
    fn monster_turn_by_mind(&mut self, i: usize, events: &mut Vec<Event>) -> bool {
        self.abilities_tick(i);
        if !self.monster_notices(i) {
            if self.alert_of(&self.current().monsters[i]) == Alert::Wandering {
                let m = &self.current().monsters[i];
                let opens = self.state.kinds[usize::from(m.kind)].opens_doors();
                if let Some(to) = self.random_step(m.pos, opens)
                    && to != self.state.player.pos
                {
                    self.monster_moves(i, to, events);
                }
            }
            return false;
        }
        if self.monster_uses_ability(i, events) {
            return false;
        }
        let step = match self.ability_step(i) {
            Some(step) => Some(step),
            None => self.cover_step(i),
        };
        match step {
            None => true,
            Some(None) => false,
            Some(Some(to)) => {
                if to == self.state.player.pos {
                    self.monster_attacks(i, events);
                } else {
                    self.monster_moves(i, to, events);
                }
                false
            }
        }
    }
}
