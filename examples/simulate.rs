//! Plays a headless run with the autopilot and prints its summary, as
//! `delve simulate` does.
//!
//! `cargo run --example simulate -- 7` (the seed defaults to 1).

use delve::Config;
use delve::sim::{MonsterKind, Run, play_headless};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seed = match std::env::args().nth(1) {
        Some(arg) => arg.parse()?,
        None => 1,
    };
    let config = Config {
        width: 80,
        height: 40,
        levels: 3,
        ..Config::default()
    };
    config.validate()?;
    let mut run = Run::new(config, MonsterKind::defaults(), seed)?;
    play_headless(&mut run, 2_000)?;
    println!("turns:   {}", run.turn());
    println!("depth:   {}", run.player().depth);
    println!("lives:   {}", run.player().lives);
    println!("killed:  {}", run.killed());
    println!("outcome: {:?}", run.outcome());
    println!("digest:  {:016x}", run.digest());
    Ok(())
}
