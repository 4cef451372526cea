//! `delve generate`: print a dungeon's levels.

use std::path::PathBuf;

use clap::ValueEnum;
use delve::dungeon::Dungeon;
use delve::export;

use super::args::StackArgs;
use super::{CliError, write_output, write_output_parts};

#[derive(clap::Args)]
pub struct GenerateArgs {
    #[command(flatten)]
    stack: StackArgs,
    /// Print only the level at this depth (1 is the top).
    #[arg(long, value_name = "D")]
    depth: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Ascii)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Draw secret doors as the doors they are (`+`) in ASCII, rather than
    /// as the rock they look like (JSON always lists them, in
    /// `secret_doors`).
    #[arg(long)]
    reveal: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Ascii,
    Json,
}

pub fn run(args: GenerateArgs) -> Result<(), CliError> {
    let config = args.stack.load_config()?;
    let vaults = args.stack.vaults.load_for(&config)?;
    let seed = args.stack.seed.or_random();
    let levels = config.levels;
    let shown: Vec<u16> = match args.depth {
        Some(d) if d == 0 || d > levels => {
            return Err(CliError::Usage(format!(
                "--depth {d}: the dungeon has depths 1 to {levels}"
            )));
        }
        Some(d) => vec![d],
        None => (1..=levels).collect(),
    };
    let mut dungeon = Dungeon::with_vaults(config, vaults, seed);
    match args.format {
        // A drawing needs its level alone: each is drawn as it is made and
        // only the text is kept.
        Format::Ascii => {
            let reveal = args.reveal;
            let drawn = dungeon.map_levels(&shown, |level| {
                if reveal {
                    export::ascii_revealed(&level)
                } else {
                    export::ascii(&level)
                }
            })?;
            write_output_parts(args.out.as_deref(), &drawn)
        }
        // Stair destinations need the shown levels' neighbours too.
        Format::Json => {
            let mut needed: Vec<u16> = shown
                .iter()
                .flat_map(|&d| [d.saturating_sub(1), d, d + 1])
                .filter(|&d| d >= 1 && d <= levels)
                .collect();
            needed.dedup();
            dungeon.generate_depths(&needed)?;
            write_output(
                args.out.as_deref(),
                export::json(&dungeon, &shown).as_bytes(),
            )
        }
    }
}
