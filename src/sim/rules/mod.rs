//! The rules that change a run, one file each: monsters' moves by trait,
//! doors (opening, closing, finding), Stomp's, Combat's, the items', what
//! a level starts with, and the pure odds Combat rolls. Stomp and Combat never import each other; only the
//! turn (`turn.rs`) chooses between them.

pub(in crate::sim) mod abilities;
mod answer;
mod combat;
pub mod danger;
mod doors;
mod effects;
mod items;
mod monsters;
pub mod odds;
pub(crate) mod population;
mod potions;
mod ranged;
mod scrolls;
mod stealth;
mod stomp;
