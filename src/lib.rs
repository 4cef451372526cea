//! delve: a multi-level dungeon generator and simulator.
//!
//! The library is a pure core plus thin edges. [`generate`] turns a
//! [`Config`] and a seed into [`Level`]s, [`dungeon`] stacks them and links
//! their stairs, [`LevelGraph`] reads the rooms-and-corridors graph off a grid,
//! [`export`] draws levels as text. None of these touch files, the clock or
//! the terminal.
//!
//! # Quick start
//!
//! ```
//! use delve::{Config, export, generate_level};
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let config = Config {
//!         width: 80,
//!         height: 30,
//!         levels: 1,
//!         ..Config::default()
//!     };
//!     // A config built in code is checked before use, as a loaded one is.
//!     config.validate()?;
//!     let level = generate_level(&config, 42, 1)?;
//!     print!("{}", export::ascii(&level));
//!     Ok(())
//! }
//! ```
//!
//! The outer layers are Cargo features, all on by default: `save` (save
//! files), `render` (PNG pictures), `tui` (the terminal viewer) and `cli`
//! (the `delve` command). With `default-features = false` the library
//! builds the core alone.

#![warn(missing_docs)]

pub mod config;
pub mod data_file;
pub mod dice;
pub mod dungeon;
pub mod export;
pub mod generate;
pub mod geom;
pub(crate) mod graph;
pub(crate) mod grid_search;
#[cfg(feature = "save")]
pub mod journal;
pub(crate) mod layout;
pub mod level;
pub(crate) mod pieces;
pub use config::profile;
#[cfg(feature = "render")]
pub mod render;
pub(crate) mod ron_diag;
#[cfg(feature = "save")]
pub mod save;
pub(crate) mod sets;
pub mod sim;
pub mod stats;
pub(crate) mod streams;
pub mod vault;
pub mod vault_file;
#[cfg(feature = "tui")]
pub mod view;
pub mod words;

pub use config::{Config, ConfigError};
pub use dungeon::{Destination, Dungeon};
pub use generate::{GenerateError, Generator, generate_level};
pub use geom::{Pos, Rect, Shape};
pub use graph::{Corridor, LevelGraph, Node};
pub use level::{Door, Hardness, Level, Room, StairDirection, Stairs, Tile};
