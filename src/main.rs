//! The `delve` command line: a thin shell over the library.
//!
//! Arguments are parsed by clap, turned into a validated config, handed to
//! the library, and the result is written out. Every failure becomes one
//! message on stderr and an exit code: 0 ok, 1 runtime failure, 2 bad usage
//! or bad input (clap's own usage errors also exit with 2).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use delve::config::Config;
use delve::dungeon::Dungeon;
use delve::sim::{Action, Event, MonsterKind, Outcome, Run, autopilot};
use delve::{ConfigError, GenerateError, export};

#[derive(Parser)]
#[command(
    name = "delve",
    version,
    about = "A multi-level dungeon generator and simulator"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a dungeon and print its levels.
    Generate(GenerateArgs),
    /// Play a run headless with the autopilot and print a summary.
    Simulate(SimulateArgs),
}

#[derive(clap::Args)]
struct SimulateArgs {
    /// Run seed; without it a random seed is chosen and printed to stderr.
    #[arg(long)]
    seed: Option<u64>,
    /// RON config file; fields left out take the defaults of data/default.ron.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// RON list of monster kinds (default: the kinds of data/monsters.ron).
    #[arg(long, value_name = "FILE")]
    monsters: Option<PathBuf>,
    /// Player turns to play at most; the run stops early when won or lost.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    turns: u64,
}

#[derive(clap::Args)]
struct GenerateArgs {
    /// Run seed; without it a random seed is chosen and printed to stderr.
    #[arg(long)]
    seed: Option<u64>,
    /// RON config file; fields left out take the defaults of data/default.ron.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Number of levels, overriding the config.
    #[arg(long, value_name = "N")]
    levels: Option<u16>,
    /// Print only the level at this depth (1 is the top).
    #[arg(long, value_name = "D")]
    depth: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Ascii)]
    format: Format,
    /// Write to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Ascii,
    Json,
}

/// A failure and how the process should end because of it.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error("{path}: cannot write: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::Config(_) => 2,
            CliError::Generate(
                GenerateError::TooFewRooms { .. }
                | GenerateError::Crowded { .. }
                | GenerateError::NoSuchDepth { .. },
            ) => 2,
            CliError::Generate(GenerateError::Unverified { .. }) => 1,
            CliError::Write { .. } => 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("delve: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Generate(args) => generate(args),
        Command::Simulate(args) => simulate(args),
    }
}

fn load_config(path: Option<&Path>, levels: Option<u16>) -> Result<Config, CliError> {
    let mut config = match path {
        Some(p) => Config::load(p)?,
        None => Config::default(),
    };
    if let Some(levels) = levels {
        config.levels = levels;
        config.validate().map_err(|p| {
            CliError::Usage(format!("--levels {levels}: {}: {}", p.field, p.message))
        })?;
    }
    Ok(config)
}

fn random_seed() -> u64 {
    use rand::TryRng;
    rand::rngs::SysRng.try_next_u64().unwrap_or_else(|_| {
        // No OS randomness: the clock only picks the seed, which is printed,
        // so the run stays reproducible.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    })
}

fn generate(args: GenerateArgs) -> Result<(), CliError> {
    let config = load_config(args.config.as_deref(), args.levels)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    });
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
    let mut dungeon = Dungeon::new(config, seed);
    // Neighbours of the shown levels are needed for stair destinations.
    let mut needed: Vec<u16> = shown
        .iter()
        .flat_map(|&d| [d.saturating_sub(1), d, d + 1])
        .filter(|&d| d >= 1 && d <= levels)
        .collect();
    needed.dedup();
    dungeon.generate_depths(&needed)?;

    let text = match args.format {
        Format::Ascii => shown
            .iter()
            .filter_map(|&d| dungeon.generated(d))
            .map(export::ascii)
            .collect::<String>(),
        Format::Json => export::json(&dungeon, &shown),
    };
    write_output(args.out.as_deref(), text.as_bytes())
}

fn simulate(args: SimulateArgs) -> Result<(), CliError> {
    let config = load_config(args.config.as_deref(), None)?;
    let kinds = match &args.monsters {
        Some(path) => delve::config::load_monsters(path)?,
        None => MonsterKind::defaults(),
    };
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    });
    let mut run = Run::new(config, kinds, seed)?;
    // A level that cannot be generated mid-run ends the run; the summary of
    // what was played is still printed before the error.
    let mut failure = None;
    while run.turn() < args.turns && run.outcome() == Outcome::Playing {
        let action = autopilot(&mut run);
        let step = run.step(action).and_then(|events| {
            if events == [Event::Blocked] {
                // The autopilot only chooses possible actions; if it ever
                // does not, waiting keeps the run going rather than spinning.
                run.step(Action::Wait)?;
            }
            Ok(())
        });
        if let Err(e) = step {
            failure = Some(e);
            break;
        }
    }
    let visited: Vec<String> = run.visited().map(|d| d.to_string()).collect();
    let deepest = run.visited().max().unwrap_or(1);
    let text = format!(
        "turns: {}\ndepth: {} (deepest reached {})\nlives: {}\nkilled: {}\nlevels visited: {}\noutcome: {}\ndigest: {:016x}\n",
        run.turn(),
        run.player().depth,
        deepest,
        run.player().lives,
        run.killed(),
        visited.join(", "),
        match run.outcome() {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        },
        run.digest()
    );
    write_output(None, text.as_bytes())?;
    match failure {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match out {
        Some(path) => std::fs::write(path, bytes).map_err(|source| CliError::Write {
            path: path.display().to_string(),
            source,
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
                // A reader that stopped early (`delve generate | head`) is not a failure.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                result => result.map_err(|source| CliError::Write {
                    path: "standard output".into(),
                    source,
                }),
            }
        }
    }
}
