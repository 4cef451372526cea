//! The `delve` command line: one file per command, and the pieces they
//! share here (arguments in `args`, the error type and its exit codes in
//! `error`, writing output in `output`, shell commands in `shell`).
//!
//! Adding a command: a new file `NAME.rs` with its `NAMEArgs` (flattening
//! what it shares from `args`) and `pub fn run(..) -> Result<(), CliError>`,
//! a `mod NAME;` and a `Command` variant below, and one arm in [`run`].

mod args;
mod error;
mod generate;
mod journal;
mod output;
mod play;
mod render;
mod replay;
mod saves;
mod scores;
mod shell;
mod simulate;
mod stats;
mod verify;

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand};

use delve::config::Config;
use delve::save::{SaveDir, SaveError};
use delve::sim::{MonsterKind, Outcome, Run};

pub use error::CliError;
use output::{write_output, write_output_parts};
use shell::continue_commands;

#[derive(Parser)]
#[command(
    name = "delve",
    version,
    about = "A multi-level dungeon generator and simulator"
)]
pub struct Cli {
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
    Play(play::PlayArgs),
    /// Generate a dungeon and print its levels.
    Generate(generate::GenerateArgs),
    /// Play a run headless with the autopilot and print a summary.
    Simulate(simulate::SimulateArgs),
    /// Measure levels: rooms, doors, corridors, loops, dead ends, path
    /// lengths and generation time.
    Stats(stats::StatsArgs),
    /// Draw a level, or the whole stack, as a PNG picture.
    Render(render::RenderArgs),
    /// List the saves: name, depth, turn, seed, outcome, when, size, status.
    Saves,
    /// The best finished runs of the saves directory (depth, kills, turns,
    /// outcome, date), best first.
    Scores,
    /// Check a save (a name in the saves directory, or a file) and say what
    /// it holds or what is wrong; exit 0 only if it would load.
    Verify(verify::VerifyArgs),
    /// Watch a saved run again from turn 0, or with --check replay it
    /// headless and compare it with its journal's checkpoints and its
    /// save: exit 0 when they agree, 1 with the first turn where they
    /// differ. Never writes a file.
    Replay(replay::ReplayArgs),
}

/// Runs the command the arguments name.
pub fn run(cli: Cli) -> Result<(), CliError> {
    match cli.command {
        Command::Play(args) => play::run(args, &cli.saves_dir),
        Command::Generate(args) => generate::run(args),
        Command::Simulate(args) => simulate::run(args, &cli.saves_dir),
        Command::Stats(args) => stats::run(args),
        Command::Render(args) => render::run(args),
        Command::Saves => saves::run(&cli.saves_dir),
        Command::Scores => scores::run(&cli.saves_dir),
        Command::Verify(args) => verify::run(args, &cli.saves_dir),
        Command::Replay(args) => replay::run(args, &cli.saves_dir),
    }
}

/// A line on stderr; if stderr is gone (a closed terminal) the line is
/// lost, but the process still ends with its exit code instead of a panic.
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

pub fn now_unix() -> u64 {
    // Save metadata only: when a save was written never shapes the world.
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `YYYY-MM-DD HH:MM` (UTC) for a Unix time, without a date library.
pub fn format_time(secs: u64) -> String {
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

/// Makes the levels a loaded run has not reached yet (kept for when it
/// gets there), so a save whose config cannot make one is refused now
/// rather than when the player takes the stairs to it. A finished run goes
/// nowhere, so it needs none.
pub fn prove_loaded(run: &mut Run, path: &Path) -> Result<(), CliError> {
    if run.outcome() != Outcome::Playing {
        return Ok(());
    }
    run.prove_stack().map_err(|source| CliError::Unplayable {
        path: path.display().to_string(),
        source,
    })
}

/// Checks that a loaded run's recording starts where this delve starts
/// the run (see `journal::check::check_start`, spending from `allowance`,
/// the command's for the file), and says what was done
/// when it does not: `None` when it does, else the words naming `path`
/// (the stored digest corrected, or the recording dropped) and a few
/// words for a message line.
pub fn check_recording(
    run: &mut Run,
    path: &Path,
    allowance: &mut delve::journal::check::Allowance,
) -> Result<Option<(String, &'static str)>, CliError> {
    use delve::journal::check::{StartCheck, check_start};
    match check_start(run, allowance, &mut |_| {}) {
        Ok(StartCheck::Agrees) => Ok(None),
        Ok(StartCheck::Corrected(words)) => Ok(Some((
            format!("{}: {words}", path.display()),
            "Corrected the stale start digest of the run's recording.",
        ))),
        Ok(StartCheck::Dropped(words)) => Ok(Some((
            format!("{}: {words}", path.display()),
            "Its recording does not replay on this delve: the run keeps no journal.",
        ))),
        Err(source) => Err(CliError::Unplayable {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// Refuses a link, directory, FIFO or device at any path a session saving
/// NAME would write (save, backup, journal, morgue), before its lock is
/// taken or its journal opened.
fn refuse_foreign(saves: &SaveDir, name: &str) -> Result<(), CliError> {
    let journal = delve::journal::journal_path(saves.path(), name);
    Ok(saves.refuse_foreign(name, &[journal])?)
}

/// The saves directory a run NAME is loaded from, as it is (loading makes
/// nothing): when there is none, the error names the run asked for.
pub fn saves_holding(dir: &Path, name: &str) -> Result<SaveDir, CliError> {
    SaveDir::existing(dir).map_err(|e| match e {
        SaveError::NoDirectory(_) => SaveError::Missing {
            name: name.into(),
            dir: dir.display().to_string(),
        }
        .into(),
        e => e.into(),
    })
}

pub fn load_config(path: Option<&Path>, levels: Option<u16>) -> Result<Config, CliError> {
    let mut config = match path {
        Some(p) => {
            let (config, profiles_written) = Config::load_telling(p)?;
            // Documented, but not what a newcomer changing one setting
            // expects: the shipped progression by depth is gone. A file
            // that writes `profiles: []` means it, and hears nothing.
            if !profiles_written {
                say(&format!(
                    "delve: note: {} has no profiles: every depth uses its settings (to keep \
                     the shipped progression by depth, start from a copy of data/default.ron)",
                    p.display()
                ));
            }
            config
        }
        // The shipped data/default.ron, profiles and all.
        None => Config::shipped(),
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
pub fn seed_or_random(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let seed = random_seed();
        eprintln!("seed: {seed}");
        seed
    })
}

/// The monster kinds of `--monsters FILE`, or the built-in ones of the
/// config's game: 001's six under Stomp, the shipped bestiary under Combat.
pub fn load_kinds(path: Option<&Path>, config: &Config) -> Result<Vec<MonsterKind>, CliError> {
    Ok(match path {
        Some(path) => delve::data_file::load_monsters(path)?,
        None if config.simulation.is_combat() => MonsterKind::defaults(),
        None => MonsterKind::stomp(),
    })
}

/// The vaults of `--vaults FILE` (each monster letter one of `kinds`'
/// glyphs), or the shipped ones.
pub fn load_vaults(
    path: Option<&Path>,
    kinds: &[MonsterKind],
    config: &Config,
) -> Result<Vec<delve::vault::Vault>, CliError> {
    Ok(match path {
        Some(path) => delve::vault_file::load_vaults_for(
            path,
            &|c| kinds.iter().any(|k| k.glyph == c),
            Some((config.width, config.height)),
        )?,
        None => delve::vault::shipped().to_vec(),
    })
}

/// Writes NAME's morgue file for a finished run, beside its save.
pub fn write_morgue(
    saves: &delve::save::SaveDir,
    name: &str,
    run: &Run,
    lock: &delve::save::SaveLock,
) -> Result<std::path::PathBuf, CliError> {
    let date = format!("{} UTC", format_time(now_unix()));
    let text = run.morgue(name, &date, run.known_map()).to_text();
    Ok(saves.write_morgue(name, &text, lock)?)
}

pub fn random_seed() -> u64 {
    use rand::TryRng;
    rand::rngs::SysRng.try_next_u64().unwrap_or_else(|_| {
        // No OS randomness: the clock only picks the seed, which is printed,
        // so the run stays reproducible.
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    })
}

pub fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}
