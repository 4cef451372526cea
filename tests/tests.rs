//! delve's integration tests, one binary split by concern.

mod check;
mod cli;
mod play;
mod properties;
mod save;
mod sim;
mod stack;
mod view;
