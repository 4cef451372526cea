//! The `delve` command line: a thin shell over the library.
//!
//! Arguments are parsed by clap, turned into a validated config, handed to
//! the library, and the result is written out. Every failure becomes one
//! message on stderr and an exit code: 0 ok, 1 runtime failure, 2 bad usage
//! or bad input (clap's own usage errors also exit with 2).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

mod cli_journal;

use clap::{Parser, Subcommand, ValueEnum};

use delve::config::Config;
use delve::dungeon::Dungeon;
use delve::render;
use delve::save::{SaveDir, SaveError};
use delve::sim::{MAX_TURNS, MonsterKind, Outcome, Run};
use delve::stats::{self, LevelStats};
use delve::view::terminal::{Ending, ViewError};
use delve::view::{App, Keymap};
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
    /// Play a run in the terminal: a new one, or a saved one with --load.
    Play(PlayArgs),
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
    /// Watch a saved run again from turn 0, or with --check replay it
    /// headless and compare it with its journal's checkpoints and its
    /// save: exit 0 when they agree, 1 with the first turn where they
    /// differ. Never writes a file.
    Replay {
        /// The saved run.
        name: String,
        /// Replay headless and compare digests (without it, the viewer:
        /// Space pause, + and - speed, . step, g go to a turn, > next
        /// level, Q quit).
        #[arg(long)]
        check: bool,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    /// Run seed; without it a random seed is chosen (the status line shows it).
    #[arg(long)]
    seed: Option<u64>,
    /// RON config file; fields left out take the defaults of data/default.ron.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// RON list of monster kinds (default: the kinds of data/monsters.ron).
    #[arg(long, value_name = "FILE")]
    monsters: Option<PathBuf>,
    /// RON keymap (default: the keys of data/keymap.ron).
    #[arg(long, value_name = "FILE", env = "DELVE_KEYMAP")]
    keymap: Option<PathBuf>,
    /// Save a new run as NAME in the saves directory (default: seed-N).
    #[arg(long, value_name = "NAME", conflicts_with = "load")]
    save: Option<String>,
    /// Let the new run replace the save NAME holds (another run).
    #[arg(long, conflicts_with = "load")]
    replace: bool,
    /// Continue the saved run NAME.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seed", "config", "monsters"])]
    load: Option<String>,
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
    /// Save the run at the end as NAME in the saves directory. A new run
    /// never replaces the save of another run unless --replace is given.
    #[arg(long, value_name = "NAME")]
    save: Option<String>,
    /// Let the run replace the save of another run under --save NAME.
    #[arg(long, requires = "save")]
    replace: bool,
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
    /// A damaged save whose backup is intact.
    #[error("{error}\n{note}")]
    DamagedWithBackup { error: SaveError, note: String },
    /// A saved run whose config cannot make a level it has not reached:
    /// it could never be finished, and its config cannot be changed.
    #[error(
        "{path}: the run cannot be continued: a level it has not reached cannot be made with \
         the config saved in it ({source}); start a new run with a config `delve generate` accepts"
    )]
    Unplayable { path: String, source: GenerateError },
    #[error("terminal: {0}")]
    Terminal(std::io::Error),
    #[error("{0}")]
    Declined(String),
    /// A save that was not loaded, and why.
    #[error("{0}")]
    NotLoaded(String),
    #[error("internal error (a bug in delve): {0}")]
    Internal(String),
    #[error("stopped by {0}")]
    Stopped(&'static str),
    #[error(transparent)]
    Journal(#[from] delve::journal::JournalError),
    #[error(transparent)]
    Recover(#[from] delve::journal::recover::RecoverError),
    /// A replay that does not agree with its run (already reported).
    #[error("the replay of {0} does not agree with its run")]
    Disagrees(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Unplayable {
                source: GenerateError::Unverified { .. },
                ..
            } => 1,
            CliError::Usage(_) | CliError::Config(_) | CliError::Unplayable { .. } => 2,
            CliError::Generate(
                GenerateError::TooFewRooms { .. }
                | GenerateError::Crowded { .. }
                | GenerateError::Unjoinable { .. }
                | GenerateError::OverBudget(_)
                | GenerateError::NoSuchDepth { .. }
                | GenerateError::InvalidConfig { .. },
            ) => 2,
            CliError::Generate(GenerateError::Unverified { .. }) => 1,
            CliError::Write { .. }
            | CliError::Terminal(_)
            | CliError::Declined(_)
            | CliError::NotLoaded(_)
            | CliError::Internal(_)
            | CliError::Stopped(_) => 1,
            // A name that cannot be or is not there, no saves directory,
            // something that is not a save file in a save's place, or a
            // run that would replace another: bad input.
            CliError::Save(e) if e.is_bad_input() => 2,
            CliError::Save(_) => 1,
            CliError::DamagedWithBackup { .. } => 1,
            CliError::Journal(delve::journal::JournalError::NotRegular { .. }) => 2,
            CliError::Journal(_) | CliError::Disagrees(_) => 1,
            CliError::Recover(e) if e.is_bad_input() => 2,
            CliError::Recover(_) => 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            say(&format!("delve: {e}"));
            ExitCode::from(e.exit_code())
        }
    }
}

/// A line on stderr; if stderr is gone (a closed terminal) the line is
/// lost, but the process still ends with its exit code instead of a panic.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Play(args) => play(args, &cli.saves_dir),
        Command::Generate(args) => generate(args),
        Command::Simulate(args) => simulate(args, &cli.saves_dir),
        Command::Stats(args) => stats(args),
        Command::Render(args) => render(args),
        Command::Saves => list_saves(&cli.saves_dir),
        Command::Verify { save } => verify(&cli.saves_dir, &save),
        Command::Replay { name, check: false } => {
            let (run, recording) = cli_journal::replay_start(&cli.saves_dir, &name)?;
            if !has_terminal() {
                return Err(CliError::Usage(
                    "delve replay needs a terminal; `delve replay NAME --check` replays without one"
                        .into(),
                ));
            }
            let mut app = App::replaying(run, recording, Keymap::default(), name);
            delve::view::terminal::play(&mut app, |_| Err("a replay is never saved".into()))
                .map_err(|e| match e {
                    ViewError::Generate(g) => g.into(),
                    ViewError::Terminal(io) => CliError::Terminal(io),
                    ViewError::Panic(message) => CliError::Internal(message),
                    other => CliError::Internal(other.to_string()),
                })?;
            Ok(())
        }
        Command::Replay { name, check: true } => {
            if cli_journal::check(&cli.saves_dir, &name)? {
                Ok(())
            } else {
                Err(CliError::Disagrees(name))
            }
        }
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
    let saves = SaveDir::existing(dir)?;
    // One row a run: the save's summary (or its backup's, when only the
    // backup is there), its size, and what is wrong, if anything.
    let mut rows = vec![
        [
            "name",
            "depth",
            "turn",
            "seed",
            "outcome",
            "saved (UTC)",
            "size",
            "status",
        ]
        .map(String::from),
    ];
    for listing in saves.list()? {
        let (shown, status) = match (&listing.save, &listing.backup) {
            (Some(save), backup) => {
                let status = match (&save.status, backup) {
                    (Ok(_), _) => "ok".to_string(),
                    (Err(e), Some(b)) if b.status.is_ok() => format!(
                        "{}; the backup (turn {}) is intact",
                        e.problem(),
                        b.status.as_ref().map_or(0, |s| s.turn)
                    ),
                    (Err(e), _) => e.problem(),
                };
                (save, status)
            }
            (None, Some(backup)) => {
                let status = match &backup.status {
                    Ok(_) => format!("only the backup ({}.sav.bak) is there", listing.name),
                    Err(e) => format!(
                        "only the backup is there, and it is not intact: {}",
                        e.problem()
                    ),
                };
                (backup, status)
            }
            (None, None) => continue,
        };
        let columns = match &shown.status {
            Ok(s) => [
                s.depth.to_string(),
                s.turn.to_string(),
                s.seed.to_string(),
                outcome_name(s.outcome).to_string(),
                format_time(s.saved_at),
            ],
            Err(_) => ["-", "-", "-", "-", "-"].map(String::from),
        };
        let [depth, turn, seed, outcome, saved] = columns;
        rows.push([
            listing.name.clone(),
            depth,
            turn,
            seed,
            outcome,
            saved,
            shown.size.to_string(),
            status,
        ]);
    }
    // Columns as wide as their widest entry; numbers to the right.
    let width = |i: usize| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..8).map(width).collect();
    let right = [false, true, true, true, false, false, true, false];
    let mut text = String::new();
    for row in &rows {
        let mut cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, cell)| {
                if i == 7 {
                    cell.clone()
                } else if right[i] {
                    format!("{cell:>w$}", w = widths[i])
                } else {
                    format!("{cell:<w$}", w = widths[i])
                }
            })
            .collect();
        let status = cells.pop().unwrap_or_default();
        text.push_str(&format!("{}  {status}\n", cells.join(" ")));
    }
    write_output(None, text.as_bytes())
}

fn verify(dir: &Path, save: &str) -> Result<(), CliError> {
    // A path (something there, or anything that cannot be a save name) is
    // checked as given; a name is looked up in the saves directory.
    let given = Path::new(save);
    let path = if std::fs::symlink_metadata(given).is_ok() || SaveDir::check_name(save).is_err() {
        given.to_path_buf()
    } else {
        let saves = SaveDir::existing(dir)?;
        let path = saves.file(save);
        if std::fs::symlink_metadata(&path).is_err() {
            // Name what is there instead of a bare "no such file": nothing,
            // or only the backup (which is what a load would use).
            let backup = saves.backup(save);
            if std::fs::symlink_metadata(&backup).is_ok() {
                return Err(CliError::Usage(format!(
                    "{} is missing; its backup {} is there (`delve verify {}` checks it; loading {save} would use it)",
                    path.display(),
                    backup.display(),
                    backup.display()
                )));
            }
            return Err(SaveError::Missing {
                name: save.into(),
                dir: saves.path().display().to_string(),
            }
            .into());
        }
        path
    };
    let (mut run, summary) = match delve::save::read_and_decode(&path) {
        Ok(loaded) => loaded,
        Err(error) if error.is_damage() => {
            // Say whether the backup would stand in, as loading would use it.
            let backup = PathBuf::from(format!("{}.bak", path.display()));
            let is_save = path.extension().is_some_and(|e| e == "sav");
            return Err(match delve::save::read_and_decode(&backup) {
                Ok((_, b)) if is_save => CliError::DamagedWithBackup {
                    error,
                    note: format!(
                        "delve: its backup {} is intact (depth {}, turn {}); loading the save uses it instead (play asks first)",
                        backup.display(),
                        b.depth,
                        b.turn
                    ),
                },
                _ => error.into(),
            });
        }
        Err(error) => return Err(error.into()),
    };
    prove_loaded(&mut run, &path)?;
    let mut text = format!(
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
    // A save named in the saves directory: whether its journal agrees.
    if let Some(name) = path
        .file_name()
        .and_then(|f| f.to_str())
        .and_then(|f| f.strip_suffix(".sav"))
        && let Some(dir) = path.parent()
    {
        for line in cli_journal::verify_lines(dir, name, &run) {
            text.push_str(&line);
            text.push('\n');
        }
    }
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

/// The seed asked for, or a random one, printed to stderr so the output
/// can be made again.
fn seed_or_random(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    })
}

/// The monster kinds of `--monsters FILE`, or the built-in ones.
fn load_kinds(path: Option<&Path>) -> Result<Vec<MonsterKind>, CliError> {
    Ok(match path {
        Some(path) => delve::data_file::load_monsters(path)?,
        None => MonsterKind::defaults(),
    })
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
    let seed = seed_or_random(args.seed);
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
    let seed = seed_or_random(args.seed);
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
    let seed = seed_or_random(args.seed);
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
    // A run loaded from NAME may be saved back over it (continuing it);
    // any other --save must not replace another run without --replace.
    let mut locks = Vec::new();
    if let (Some(name), Some(saves)) = (&args.load, &saves) {
        locks.push((name.clone(), saves.lock(name)?));
    }
    if let (Some(name), Some(saves)) = (&args.save, &saves)
        && args.load.as_ref() != Some(name)
    {
        locks.push((name.clone(), saves.lock_new(name, args.replace)?));
    }
    let mut run = match &args.load {
        Some(name) => {
            let saves = saves.as_ref().expect("opened above");
            let mut run = cli_journal::load_or_rebuild(saves, name)?;
            prove_loaded(&mut run, &saves.file(name))?;
            run
        }
        None => {
            let config = load_config(args.config.as_deref(), None)?;
            let kinds = load_kinds(args.monsters.as_deref())?;
            let seed = seed_or_random(args.seed);
            Run::new(config, kinds, seed)?
        }
    };
    // --turns counts this session's turns, so a continued run plays N more;
    // a run ends at turn MAX_TURNS.
    let stop_at = match run.turn().checked_add(args.turns) {
        Some(stop) if stop <= MAX_TURNS => stop,
        _ => {
            return Err(CliError::Usage(format!(
                "--turns {}: the run is at turn {}, and a run ends at turn {MAX_TURNS}; ask for at most {}",
                args.turns,
                run.turn(),
                MAX_TURNS - run.turn()
            )));
        }
    };
    // A level that cannot be generated mid-run ends the run; the summary of
    // what was played is still printed before the error.
    // The journal of the name the run is saved under, kept as it plays.
    let mut session = match (&args.save, &saves) {
        (Some(name), Some(saves)) => cli_journal::open_session(saves, name, &run)?,
        _ => None,
    };
    let failure = cli_journal::play_recorded(&mut run, stop_at, &mut session).err();
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
        if let Some(session) = &mut session {
            session.saved(&run)?;
        }
        eprintln!("saved: {}", path.display());
    }
    write_output(None, text.as_bytes())?;
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn play(args: PlayArgs, saves_dir: &Path) -> Result<(), CliError> {
    // Every file is read and checked before the terminal is: bad input is
    // reported as such (exit 2, with its location) wherever delve runs.
    let keymap = match &args.keymap {
        Some(path) => delve::view::Keymap::load(path)?,
        None => Keymap::default(),
    };
    let saves = SaveDir::open(saves_dir)?;
    let (run, name, warning) = match &args.load {
        Some(name) => {
            let lock = saves.lock(name)?;
            let (mut run, warning) = load_for_play(&saves, name)?;
            prove_loaded(&mut run, &saves.file(name))?;
            (run, (name.clone(), lock), warning)
        }
        None => {
            let config = load_config(args.config.as_deref(), None)?;
            let kinds = load_kinds(args.monsters.as_deref())?;
            let seed = args.seed.unwrap_or_else(random_seed);
            let name = args.save.clone().unwrap_or_else(|| format!("seed-{seed}"));
            // The library's refusal, with the command that continues the
            // run spelt as it works from here.
            let lock = saves.lock_new(&name, args.replace).map_err(|e| match e {
                SaveError::Taken { name, dir, holds } => CliError::Usage(format!(
                    "a save named {name} already exists in {dir} ({holds}); continue it with `{}`, \
                     start the new run under another name with --save NAME, or replace it with --replace",
                    continue_commands(&name, saves_dir)[0]
                )),
                e => e.into(),
            })?;
            (Run::new(config, kinds, seed)?, (name, lock), None)
        }
    };
    if !has_terminal() {
        return Err(no_terminal());
    }
    let (name, lock) = name;
    // The journal of the run, kept as it plays: a block at every save
    // (the viewer saves at every level change).
    let mut session = cli_journal::open_session(&saves, &name, &run)?;
    let loaded_cleanly = args.load.is_some() && warning.is_none();
    let loaded_turn = run.turn();
    let mut app = App::new(run, keymap, name.clone());
    match warning {
        Some(warning) => app.warn(warning),
        None if loaded_cleanly => app.mark_saved(),
        None => {}
    }
    // The last save written this session: where, and the turn it holds.
    let mut last_save: Option<(String, u64)> = None;
    let mut save = |app: &App| {
        let result = saves
            .save(&name, app.run(), now_unix(), &lock)
            .map(|p| p.display().to_string())
            .map_err(|e| e.to_string());
        if let Ok(path) = &result {
            last_save = Some((path.clone(), app.run().turn()));
        }
        let journaled = match &mut session {
            Some(session) if result.is_ok() => session.saved(app.run()).map_err(|e| e.to_string()),
            _ => Ok(()),
        };
        result.and_then(|path| journaled.map(|()| path))
    };
    let ending = match delve::view::terminal::play(&mut app, &mut save) {
        Ok(ending) => ending,
        Err(e) => {
            // Keep the run before reporting, if it is still whole (a panic
            // may have stopped a step halfway); a save also keeps the
            // previous one as the backup.
            match app.run().validate() {
                Ok(()) => match save(&app) {
                    Ok(path) => say(&format!("delve: the run was saved to {path}")),
                    Err(s) => say(&format!("delve: the run could not be saved either: {s}")),
                },
                Err(what) => say(&format!(
                    "delve: the run in memory is inconsistent ({what}); the last save of {name} is kept as it was"
                )),
            }
            return Err(match e {
                ViewError::Generate(g) => g.into(),
                ViewError::Terminal(io) => CliError::Terminal(io),
                ViewError::Panic(message) => CliError::Internal(message),
                other => CliError::Internal(other.to_string()),
            });
        }
    };
    let loaded = loaded_cleanly.then_some(loaded_turn);
    let farewell = farewell(&app, &saves, saves_dir, last_save, loaded);
    // The terminal may be gone (SIGHUP): the save is what matters, so a
    // message that cannot be written is dropped rather than a failure.
    let _ = writeln!(std::io::stdout(), "{farewell}");
    match ending {
        Ending::Left => Ok(()),
        // Stopped, not finished: a script that ran delve should know.
        Ending::Signalled(signal) => Err(CliError::Stopped(signal)),
    }
}

/// What `play` says on leaving: a save that failed, which turn the save
/// holds, and how to go on. `last_save` is the last save written this
/// session (path and turn); `loaded` the turn loaded, if the run came
/// cleanly from its save.
fn farewell(
    app: &App,
    saves: &SaveDir,
    saves_dir: &Path,
    last_save: Option<(String, u64)>,
    loaded: Option<u64>,
) -> String {
    let run = app.run();
    let name = app.save_name();
    let depth = run.player().depth;
    let mut farewell = Vec::new();
    if let Some(Err(e)) = app.last_save() {
        farewell.push(format!("Could not save: {e}."));
    }
    let file = saves.file(name);
    // Which turn the save holds: the last one written this session, or
    // else whatever the file held before it (read back to be sure).
    farewell.push(match last_save {
        Some((path, turn)) if turn == run.turn() => {
            format!("Saved to {path}: depth {depth}, turn {turn}.")
        }
        Some((path, turn)) => format!(
            "Left without saving the last {} turns; {path} holds turn {turn}.",
            run.turn() - turn
        ),
        None => match delve::save::read_and_decode(&file) {
            Ok((_, summary)) if loaded == Some(summary.turn) && run.turn() == summary.turn => {
                format!(
                    "Nothing new to save; {} holds turn {}.",
                    file.display(),
                    summary.turn
                )
            }
            Ok((_, summary)) => format!(
                "Left without saving; {} holds turn {} (depth {}).",
                file.display(),
                summary.turn,
                summary.depth
            ),
            Err(_) if !file.exists() => {
                "Left without saving; no save of this run was made.".to_string()
            }
            Err(e) => format!("Left without saving; {e}"),
        },
    });
    if run.outcome() != Outcome::Playing {
        farewell.push(format!(
            "The run is over ({}).",
            outcome_name(run.outcome())
        ));
    } else if file.exists() {
        let commands = continue_commands(name, saves_dir);
        farewell.push(format!("Continue with: {}", commands[0]));
        farewell.extend(commands[1..].iter().map(|c| format!("          or: {c}")));
    }
    farewell.join("\n")
}

fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

fn no_terminal() -> CliError {
    CliError::Usage("delve play needs a terminal; `delve simulate` plays without one".into())
}

/// How to play save `name` again, as commands that work from here: `delve
/// play --load NAME` when delve was found on the PATH; else the program as
/// it was started (`target/release/delve ...`), after `cargo run` for a
/// program that cargo started from its target directory.
fn continue_commands(name: &str, saves_dir: &Path) -> Vec<String> {
    let mut args = format!("play --load {}", shell_word(name));
    // The default saves directory goes without saying.
    if saves_dir != Path::new("saves") {
        args.push_str(&format!(
            " --saves-dir {}",
            shell_word(&saves_dir.display().to_string())
        ));
    }
    let program = std::env::args_os()
        .next()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "delve".into());
    if !program.contains('/') {
        return vec![format!("delve {args}")];
    }
    let mut commands = Vec::new();
    // cargo sets CARGO for what it runs; its profile is the directory the
    // binary is in.
    if std::env::var_os("CARGO").is_some() {
        let profile = Path::new(&program).parent().and_then(|d| d.file_name());
        match profile.and_then(|p| p.to_str()) {
            Some("release") => commands.push(format!("cargo run --release -- {args}")),
            Some("debug") => commands.push(format!("cargo run -- {args}")),
            _ => {}
        }
    }
    commands.push(format!("{} {args}", shell_word(&program)));
    commands
}

/// A word as a POSIX shell reads it back: as it is when plain, else quoted.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Makes the levels a loaded run has not reached yet (kept for when it
/// gets there), so a save whose config cannot make one is refused now
/// rather than when the player takes the stairs to it. A finished run goes
/// nowhere, so it needs none.
fn prove_loaded(run: &mut Run, path: &Path) -> Result<(), CliError> {
    if run.outcome() != Outcome::Playing {
        return Ok(());
    }
    run.prove_stack().map_err(|source| CliError::Unplayable {
        path: path.display().to_string(),
        source,
    })
}

/// Loads a save for play. A damaged save is not replaced behind the
/// player's back: they are told what is wrong and asked whether to load
/// the backup (the damaged file is then kept aside, never deleted).
fn load_for_play(saves: &SaveDir, name: &str) -> Result<(Run, Option<String>), CliError> {
    let path = saves.file(name);
    if std::fs::symlink_metadata(&path).is_ok() {
        match delve::save::read_and_decode(&path) {
            Ok((run, _)) => return Ok((run, None)),
            Err(e) if e.is_damage() => {
                let backup = saves.backup(name);
                let Ok((_, summary)) = delve::save::read_and_decode(&backup) else {
                    if cli_journal::has_journal(saves, name) {
                        return cli_journal::rebuild_for_play(saves, name, &e, has_terminal());
                    }
                    return Err(e.into());
                };
                if !has_terminal() {
                    // No one to ask: say what is wrong and what is there.
                    return Err(CliError::NotLoaded(format!(
                        "{e}\na backup from turn {} (depth {}) is in {}; in a terminal, play --load {name} offers to load it",
                        summary.turn,
                        summary.depth,
                        backup.display()
                    )));
                }
                eprintln!("delve: {e}");
                eprint!(
                    "A backup from turn {} (depth {}) is in {}. Load it? The damaged file is kept aside. [y/N] ",
                    summary.turn,
                    summary.depth,
                    backup.display()
                );
                let _ = std::io::stderr().flush();
                let mut answer = String::new();
                std::io::stdin()
                    .read_line(&mut answer)
                    .map_err(|source| CliError::Write {
                        path: "standard input".into(),
                        source,
                    })?;
                if !matches!(answer.trim(), "y" | "Y" | "yes") {
                    return Err(CliError::Declined(format!(
                        "{} left as it was; nothing was loaded",
                        path.display()
                    )));
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    // Here the save is either fine, or damaged with the player's consent to
    // use the backup, or missing with a backup left; the library's warning
    // names every path, which is too long for the message line.
    let (run, summary, warning) = saves.load(name)?;
    let note = warning.map(|_| {
        format!(
            "Loaded the backup from turn {}; {name}.sav was damaged or missing.",
            summary.turn
        )
    });
    Ok((run, note))
}

/// Whether standard output was closed when delve started, as by `delve
/// generate >&-`. Rust's runtime puts /dev/null in place of a closed
/// standard stream before `main` runs (so no file opened later takes its
/// number), after which every write "succeeds" into nothing; so this looks
/// first, from the program's initialisers, which run before the runtime's
/// own setup. On other systems a closed standard output goes unnoticed.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[cfg(any(target_os = "linux", target_os = "android"))]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg(target_os = "macos")]
#[used]
#[unsafe(link_section = "__DATA,__mod_init_func")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags, and fails (with
    // EBADF) exactly when the descriptor is not open.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Writes the command's output to `out`, or to standard output. A write
/// that fails is a failure (exit 1), including to a standard output closed
/// from the start; a reader that stops early (`delve generate | head`) is
/// not: it has what it wanted.
fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    match out {
        Some(path) => std::fs::write(path, bytes).map_err(|source| CliError::Write {
            path: path.display().to_string(),
            source,
        }),
        None if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) => Err(CliError::Write {
            path: "standard output".into(),
            source: std::io::Error::other("it was closed when delve started"),
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
