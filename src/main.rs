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
use delve::render;
use delve::save::{SaveDir, SaveError};
use delve::sim::{Action, Event, MonsterKind, Outcome, Run, autopilot};
use delve::stats::{self, LevelStats};
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
    /// Directory of save files (created on demand).
    #[arg(
        long,
        global = true,
        env = "DELVE_SAVES_DIR",
        default_value = "saves",
        value_name = "DIR"
    )]
    saves_dir: PathBuf,
}

#[derive(Subcommand)]
enum Command {
    /// Generate a dungeon and print its levels.
    Generate(GenerateArgs),
    /// Play a run headless with the autopilot and print a summary.
    Simulate(SimulateArgs),
    /// Measure levels: rooms, doors, corridors, loops, dead ends, path
    /// lengths and generation time.
    Stats(StatsArgs),
    /// Draw a level, or the whole stack, as a PNG picture.
    Render(RenderArgs),
    /// List the saves: name, depth, turn, seed, outcome, when, size, status.
    Saves,
    /// Check a save (a name in the saves directory, or a file) and say what
    /// it holds or what is wrong; exit 0 only if it would load.
    Verify {
        #[arg(value_name = "NAME|FILE")]
        save: String,
    },
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
    /// Save the run at the end as NAME in the saves directory.
    #[arg(long, value_name = "NAME")]
    save: Option<String>,
    /// Continue the saved run NAME (its seed, config and monsters).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seed", "config", "monsters"])]
    load: Option<String>,
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

#[derive(clap::Args)]
struct StatsArgs {
    /// Run seed (the first of the samples); without it a random seed is
    /// chosen and printed to stderr.
    #[arg(long)]
    seed: Option<u64>,
    /// RON config file; fields left out take the defaults of data/default.ron.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Number of levels, overriding the config.
    #[arg(long, value_name = "N")]
    levels: Option<u16>,
    /// Measure K stacks from consecutive seeds and report the mean, min and
    /// max of each metric over all their levels.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    samples: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = StatsFormat::Table)]
    format: StatsFormat,
}

#[derive(clap::Args)]
struct RenderArgs {
    /// Run seed; without it a random seed is chosen and printed to stderr.
    #[arg(long)]
    seed: Option<u64>,
    /// RON config file; fields left out take the defaults of data/default.ron.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The level to draw (1 is the top; the default).
    #[arg(long, value_name = "D", conflicts_with = "all")]
    depth: Option<u16>,
    /// Draw every level, as a sheet with depth labels.
    #[arg(long)]
    all: bool,
    /// Pixels a cell, 1 to 32.
    #[arg(long, value_name = "PX", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=32))]
    scale: u32,
    /// The PNG file to write.
    #[arg(long, value_name = "FILE.png")]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum StatsFormat {
    Table,
    Json,
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
    #[error(transparent)]
    Save(#[from] SaveError),
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
            CliError::Save(SaveError::BadName(_)) => 2,
            CliError::Save(_) => 1,
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
        Command::Simulate(args) => simulate(args, &cli.saves_dir),
        Command::Stats(args) => stats(args),
        Command::Render(args) => render(args),
        Command::Saves => list_saves(&cli.saves_dir),
        Command::Verify { save } => verify(&cli.saves_dir, &save),
    }
}

fn now_unix() -> u64 {
    // Save metadata only: when a save was written never shapes the world.
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DD HH:MM` (UTC) for a Unix time, without a date library.
fn format_time(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02}")
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Playing => "playing",
        Outcome::Won => "won",
        Outcome::Lost => "lost",
    }
}

fn list_saves(dir: &Path) -> Result<(), CliError> {
    let saves = SaveDir::open(dir)?;
    let mut text = format!(
        "{:<20} {:>5} {:>8} {:>20} {:<8} {:<16} {:>9}  {}\n",
        "name", "depth", "turn", "seed", "outcome", "saved (UTC)", "size", "status"
    );
    for listing in saves.list()? {
        let (name, size) = (&listing.name, listing.size);
        match listing.status {
            Ok(s) => text.push_str(&format!(
                "{name:<20} {:>5} {:>8} {:>20} {:<8} {:<16} {:>9}  ok\n",
                s.depth,
                s.turn,
                s.seed,
                outcome_name(s.outcome),
                format_time(s.saved_at),
                size
            )),
            Err(e) => text.push_str(&format!(
                "{name:<20} {:>5} {:>8} {:>20} {:<8} {:<16} {size:>9}  {e}\n",
                "-", "-", "-", "-", "-"
            )),
        }
    }
    write_output(None, text.as_bytes())
}

fn verify(dir: &Path, save: &str) -> Result<(), CliError> {
    let given = Path::new(save);
    let path = if given.is_file() {
        given.to_path_buf()
    } else {
        SaveDir::open(dir)?.file(save)
    };
    let (run, summary) = delve::save::read_and_decode(&path)?;
    let text = format!(
        "{}: ok, would load\nformat: {}\nwritten by: delve {}\nsaved: {} UTC\nseed: {}\ndepth: {}\nturn: {}\noutcome: {}\nlevels stored: {}\ndigest: {:016x}\n",
        path.display(),
        summary.format,
        summary.program,
        format_time(summary.saved_at),
        summary.seed,
        summary.depth,
        summary.turn,
        outcome_name(summary.outcome),
        run.visited().count(),
        run.digest()
    );
    write_output(None, text.as_bytes())
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

fn stats(args: StatsArgs) -> Result<(), CliError> {
    let config = load_config(args.config.as_deref(), args.levels)?;
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    });
    let samples = args.samples.unwrap_or(1);
    // Levels are generated one at a time on this thread, so each time is
    // one level's; the clock is read here, never in the library.
    let mut generator = delve::Generator::default();
    // One untimed level first: the generator's reusable buffers are
    // allocated and touched once, so no level's time includes that.
    generator.level(&config, seed, 1)?;
    let mut measured = Vec::new();
    let mut times_us = Vec::new();
    for k in 0..samples {
        for depth in 1..=config.levels {
            let start = std::time::Instant::now();
            let level = generator.level(&config, seed.wrapping_add(k), depth)?;
            times_us.push(start.elapsed().as_micros() as u64);
            measured.push(LevelStats::of(&level));
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

fn render(args: RenderArgs) -> Result<(), CliError> {
    let config = load_config(args.config.as_deref(), None)?;
    let levels = config.levels;
    if let Some(d) = args.depth
        && (d == 0 || d > levels)
    {
        return Err(CliError::Usage(format!(
            "--depth {d}: the dungeon has depths 1 to {levels}"
        )));
    }
    // Refuse a picture too large before generating anything.
    let (w, h) = (config.width, config.height);
    let (pw, ph) = if args.all {
        render::sheet_size(w, h, usize::from(levels), args.scale, SHEET_COLUMNS)
    } else {
        render::level_size(w, h, args.scale)
    };
    if pw * ph > render::MAX_PIXELS || pw > u64::from(u32::MAX) || ph > u64::from(u32::MAX) {
        return Err(CliError::Usage(format!(
            "--scale {}: a {pw}x{ph} picture is too large; lower --scale",
            args.scale
        )));
    }
    let seed = args.seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    });
    let image = if args.all {
        let dungeon = Dungeon::generate_all(config, seed)?;
        let all: Vec<&delve::Level> = (1..=levels).filter_map(|d| dungeon.generated(d)).collect();
        render::sheet(&all, args.scale, SHEET_COLUMNS)
    } else {
        let level = delve::generate_level(&config, seed, args.depth.unwrap_or(1))?;
        render::level_image(&level, args.scale)
    };
    write_output(Some(&args.out), &render::encode_png(&image))
}

/// Levels a row on a stack's sheet.
const SHEET_COLUMNS: u32 = 5;

fn simulate(args: SimulateArgs, saves_dir: &Path) -> Result<(), CliError> {
    // One process per save: lock every name this run reads or writes.
    let saves = match (&args.save, &args.load) {
        (None, None) => None,
        _ => Some(SaveDir::open(saves_dir)?),
    };
    let mut locks = Vec::new();
    for name in [&args.load, &args.save].into_iter().flatten() {
        if !locks.iter().any(|(n, _)| n == name) {
            let lock = saves.as_ref().expect("opened above").lock(name)?;
            locks.push((name.clone(), lock));
        }
    }
    let mut run = match &args.load {
        Some(name) => {
            let (run, _, warning) = saves.as_ref().expect("opened above").load(name)?;
            if let Some(warning) = warning {
                eprintln!("delve: warning: {warning}");
            }
            run
        }
        None => {
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
            Run::new(config, kinds, seed)?
        }
    };
    // --turns counts this session's turns, so a continued run plays N more.
    let stop_at = run.turn() + args.turns;
    // A level that cannot be generated mid-run ends the run; the summary of
    // what was played is still printed before the error.
    let mut failure = None;
    while run.turn() < stop_at && run.outcome() == Outcome::Playing {
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
        outcome_name(run.outcome()),
        run.digest()
    );
    if let (Some(name), Some(saves)) = (&args.save, &saves) {
        let lock = &locks
            .iter()
            .find(|(n, _)| n == name)
            .expect("locked above")
            .1;
        let path = saves.save(name, &run, now_unix(), lock)?;
        eprintln!("saved: {}", path.display());
    }
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
