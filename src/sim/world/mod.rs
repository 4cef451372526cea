//! What the player and the monsters can know of a level: field of view,
//! distance maps (walking and tunnelling), and the sight kept with a run.
//! Reads levels; knows no run.

pub mod distance;
pub mod doors;
pub mod fov;
pub mod line;
pub(crate) mod part;
pub(crate) mod sight;
pub(crate) mod ways;
