//! `delve stats`: measure levels.

use clap::ValueEnum;

use delve::stats::{self, LevelStats};

use super::args::StackArgs;
use super::{CliError, write_output};

#[derive(clap::Args)]
#[command(mut_arg("seed", |a| a.help(
    "Run seed (the first of the samples); without it a random seed is chosen and printed to stderr"
)))]
pub struct StatsArgs {
    #[command(flatten)]
    stack: StackArgs,
    /// Measure K stacks from consecutive seeds and report the mean, min and
    /// max of each metric over all their levels.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    format: StatsFormat,
}

#[derive(Clone, Copy, ValueEnum)]
enum StatsFormat {
    Table,
    Json,
}

pub fn run(args: StatsArgs) -> Result<(), CliError> {
    let config = args.stack.load_config()?;
    let vaults = args.stack.vaults.load_for(&config)?;
    let seed = args.stack.seed.or_random();
    let samples = args.samples.unwrap_or(1);
    // Levels are generated one at a time on this thread, so each time is
    // one level's; the clock is read here, never in the library.
    let mut generator = delve::Generator::default();
    // One untimed level first: the generator's reusable buffers are
    // allocated and touched once, so no level's time includes that.
    generator.level(&config, &vaults, seed, 1)?;
    let mut measured = Vec::new();
    let mut times_us = Vec::new();
    for k in 0..samples {
        for depth in 1..=config.levels {
            let start = std::time::Instant::now();
            let level = generator.level(&config, &vaults, seed.wrapping_add(k), depth)?;
            times_us.push(start.elapsed().as_micros() as u64);
            let own = config.at_depth(depth);
            measured.push(
                LevelStats::of(&level)
                    .with_style(own.corridors)
                    .with_kind(own.kind),
            );
        }
    }
    let text = match (args.samples, args.format) {
        (None, StatsFormat::Table) => stats::level_table(&measured, &times_us),
        (None, StatsFormat::Json) => stats::level_json(seed, &measured, &times_us),
        (Some(_), StatsFormat::Table) => {
            let mut t = format!(
                "{} level(s) of {samples} stack(s), seeds {seed} to {}\n\n",
                measured.len(),
                seed.wrapping_add(samples - 1)
            );
            t.push_str(&stats::summary_table(&measured, &times_us));
            t
        }
        (Some(_), StatsFormat::Json) => stats::summary_json(seed, samples, &measured, &times_us),
    };
    write_output(None, text.as_bytes())
}
