//! delve's integration tests, one binary split by concern.

mod check;
mod cli;
mod combat;
mod common;
mod decisions;
mod doors;
mod journal;
mod kinds;
mod layers;
mod limits;
mod messages;
mod monsters;
mod play;
mod properties;
mod render;
mod revisions;
mod save;
mod saves_dir;
mod sim;
mod stack;
mod stats;
mod vaults;
mod view;
mod warm;
