//! Generates one level from a seed and prints it as text.
//!
//! `cargo run --example generate -- 42` (the seed defaults to 1). Needs none
//! of delve's optional features.

use delve::{Config, export, generate_level};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 1,
    };
    // A small level, so it fits a terminal; every other tunable keeps its
    // default. Validate a config you build in code before using it.
    let config = Config {
        width: 80,
        height: 30,
        levels: 1,
        ..Config::default()
    };
    config.validate()?;
    let level = generate_level(&config, seed, 1)?;
    print!("{}", export::ascii(&level));
    println!(
        "{} rooms, {} stairs",
        level.rooms().len(),
        level.stairs().len()
    );
    Ok(())
}
