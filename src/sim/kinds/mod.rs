//! The kinds of things a run holds, as the data files write them: monster
//! kinds and monsters, item kinds and items, the tables that draw them by
//! depth and rarity, and where on a level they are placed. Below the
//! state: knows no run.

pub mod ability;
pub mod appearance;
pub mod effect;
pub mod item;
pub mod monster;
pub(crate) mod place;
pub mod table;
