//! Data files read from disk: the thin outer layer over the pure parsers.
//! [`crate::config::Config::load`] reads the config and
//! [`crate::view::Keymap::load`] the keymap; the monster list, whose kinds
//! belong to the simulation, is read here so `sim` stays free of IO.

use std::path::Path;

use crate::ron_diag::{ConfigError, read_text};
use crate::sim::{ItemKind, MonsterKind, items_from_ron, monsters_from_ron};

/// Reads, parses and validates a monster list (`data/monsters.ron`).
pub fn load_monsters(path: &Path) -> Result<Vec<MonsterKind>, ConfigError> {
    let (text, origin) = read_text(path)?;
    monsters_from_ron(&text, &origin)
}

/// Reads, parses and validates an item list (`data/items.ron`).
pub fn load_items(path: &Path) -> Result<Vec<ItemKind>, ConfigError> {
    let (text, origin) = read_text(path)?;
    items_from_ron(&text, &origin)
}
