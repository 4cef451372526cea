//! The simulation: a persistent multi-level run.
//!
//! A pure state machine: [`Run::step`] takes an [`Action`] and returns the
//! [`Event`]s it caused. No IO, no clock; the only randomness is the run's
//! own PCG stream (saved with the run) and per-level streams derived from
//! the seed for monster placement, so a level's monsters do not depend on
//! the order levels are visited in.
//!
//! Layered from the bottom: the words (`vocabulary.rs`) and units
//! (`units.rs`); the kinds of things (`kinds/`) and what can be known of a
//! level (`world/`); the run's state (`state/`); the rules that change it
//! (`rules/`) and the turn that applies them (`turn.rs`), with making a
//! run (`start.rs`); then what plays, records and tells a run: `agent/`,
//! [`record`], [`replay`], [`morgue`], [`batch`]. Each imports only from
//! below it; ARCHITECTURE.md draws the tree. The items a user needs are
//! re-exported here.

pub(crate) mod agent;
pub mod batch;
pub mod kinds;
pub mod morgue;
pub mod record;
pub mod replay;
pub(crate) mod rules;
mod start;
pub(crate) mod state;
mod turn;
pub(crate) mod units;
pub(crate) mod vocabulary;
pub(crate) mod world;

pub use agent::Plan;
pub use agent::autopilot::{autopilot, decide, explore_step, fetch_step};
pub use agent::travel::travel_step;
pub use batch::play_headless;
pub use kinds::ability::{Ability, Missile};
pub use kinds::item::{
    Ammo, Item, ItemClass, ItemKind, PotionEffect, ScrollEffect, WandEffect, items_from_ron,
};
pub use kinds::monster::{Colour, Monster, MonsterKind, Trait, monsters_from_ron};
pub use kinds::place::vault_monsters;
pub use kinds::table::{KindProblem, MAX_KINDS};
pub use record::Recording;
pub use replay::{Cursor, Replay, ReplayError};
pub use rules::danger::Danger;
pub use rules::odds::HitOdds;
#[cfg(feature = "save")]
pub(crate) use state::RunState;
pub use state::combat_state::{CombatState, Floor, Hero, MAX_STACK, Pack, PackLine, slot_letter};
#[cfg(feature = "save")]
pub(crate) use state::compat::{
    ItemKindV7, MonsterKindV7, RunStateV6, RunStateV7, StompSimulation,
};
pub use state::doors::Unclosable;
pub use state::names::ItemNames;
pub use state::tactics::{Alert, Effect, Effects, MAX_EFFECT_TURNS, Mind, Tactics, Timed};
pub use state::{LevelState, Player, Run, Searched};
pub use units::MAX_TURNS;
pub use vocabulary::{Action, Event, Outcome, PACK_SLOTS};
pub use world::distance::{DIRECTIONS, DistanceMap, LazyWalk, can_step};
pub use world::doors::{Doors, Mover, Walker, Way};
pub use world::fov::{visible_cells, visible_cells_with};
