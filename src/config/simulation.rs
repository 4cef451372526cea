//! The rules of play, which only the simulation reads. Kept in the
//! config (not in `sim`) so one file sets up a whole run, generator and
//! game alike, and one run's digest covers both.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;

/// What wins a run.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Goal {
    /// Every monster of every level dead (001).
    KillAll,
    /// Standing on the deepest level.
    ReachBottom,
}

/// Which game a run plays.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Rules {
    /// 001's game: stepping onto a monster kills it, a monster stepping
    /// onto the player dies and costs a life.
    Stomp,
    /// Hit points, attacks against armour, items, monsters by depth.
    Combat,
}

/// The numbers of the Combat rules.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CombatConfig {
    /// Hit points the player starts with (1 to 1000).
    pub player_hp: u16,
    /// Maximum hit points gained with each experience level (0 to 100).
    pub hp_per_level: u16,
    /// Experience for level 2; each level after needs twice as much.
    pub first_level_xp: u32,
    /// The highest experience level (1 to 50).
    pub max_level: u16,
    /// What the player's attacks roll without a weapon.
    pub unarmed: Dice,
    /// Percent chance to hit a defender without armour (1 to 100).
    pub hit_chance: u8,
    /// Percentage points each point of armour takes off (0 to 100).
    pub armour_step: u8,
    /// The chance to hit never falls below this (0 to `hit_chance`).
    pub min_hit: u8,
    /// The player regains a hit point every this many turns (0: never).
    pub regen_every: u16,
    /// Items placed on each level (0 to 1000).
    pub items_per_level: u16,
    /// The autopilot drinks healing below this percent of its hit points
    /// and fights only what it expects to outlast.
    pub cautious_below: u8,
}

impl Default for CombatConfig {
    fn default() -> Self {
        CombatConfig {
            player_hp: 20,
            hp_per_level: 6,
            first_level_xp: 20,
            max_level: 20,
            unarmed: Dice::new(1, 3, 0),
            hit_chance: 80,
            armour_step: 5,
            min_hit: 15,
            regen_every: 10,
            items_per_level: 14,
            cautious_below: 40,
        }
    }
}

/// The rules of play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimulationConfig {
    /// Which game: Combat (the default) or 001's Stomp.
    pub rules: Rules,
    /// Lives the player starts with (1 to 99); a monster stepping onto the player costs one.
    pub lives: u8,
    /// How far the player sees, in cells (1 to 40).
    pub sight_radius: u8,
    /// How far, in orthogonal steps, a monster notices a player it can see (1 to 40).
    pub perception_radius: u8,
    /// Player speed, 5 to 20: an actor of speed s moves every 1000/s ticks.
    pub player_speed: u8,
    /// Monsters placed on depth 1.
    pub monsters_first_level: u16,
    /// Monsters added for each level further down.
    pub monsters_per_depth: u16,
    /// Most monsters on any one level (at most 1000).
    pub monsters_max: u16,
    /// Hardness a tunnelling monster takes off the rock it pushes into each move (at least 1).
    pub dig_per_turn: u8,
    /// The autopilot keeps away from monsters at this many lives or fewer.
    pub cautious_at_lives: u8,
    /// What wins the run.
    pub goal: Goal,
    /// The Combat game's numbers; Stomp ignores them.
    pub combat: CombatConfig,
    /// The chance, 0 to 1, that a turn spent searching (`s`) finds each
    /// secret door next to the player (rules 3; save format 7 on).
    pub search_chance: f64,
    /// The chance, 0 to 1, that ending a move next to a secret door finds
    /// it unsearched (rules 3; save format 7 on).
    pub passive_search_chance: f64,
}

impl Default for SimulationConfig {
    fn default() -> Self {
        SimulationConfig {
            rules: Rules::Combat,
            goal: Goal::ReachBottom,
            ..SimulationConfig::stomp()
        }
    }
}

impl SimulationConfig {
    /// 001's Stomp game with the defaults it has always had.
    pub fn stomp() -> Self {
        SimulationConfig {
            rules: Rules::Stomp,
            lives: 3,
            sight_radius: 8,
            perception_radius: 6,
            player_speed: 10,
            monsters_first_level: 3,
            monsters_per_depth: 1,
            monsters_max: 20,
            dig_per_turn: 85,
            cautious_at_lives: 1,
            goal: Goal::KillAll,
            combat: CombatConfig::default(),
            search_chance: SimulationConfig::SEARCH_CHANCE,
            passive_search_chance: SimulationConfig::PASSIVE_SEARCH_CHANCE,
        }
    }

    /// The default of `search_chance`: a door next to the player is found
    /// in 3 turns of searching on average, and in 10 with a chance of 97%.
    pub const SEARCH_CHANCE: f64 = 0.3;
    /// The default of `passive_search_chance`: walking by, a door is found
    /// about once in 20 moves ending beside it.
    pub const PASSIVE_SEARCH_CHANCE: f64 = 0.05;

    /// Whether hit points, items and attacks are in play.
    pub fn is_combat(&self) -> bool {
        self.rules == Rules::Combat
    }
}
