//! `delve simulate`: play a run headless with the autopilot.

use std::path::Path;

use delve::GenerateError;
use delve::config::Config;
use delve::journal::check::Allowance;
use delve::journal::session::Session;
use delve::save::{SaveDir, SaveLock};
use delve::sim::batch::{MAX_RUNS, Report, Summary, play_run, run_batch};
use delve::sim::{ItemKind, MAX_TURNS, MonsterKind, Outcome, Run, play_headless};
use delve::vault::Vault;

use super::args::NewRunArgs;
use super::journal;
use super::{CliError, check_recording, now_unix, prove_loaded, write_morgue, write_output};

#[derive(clap::Args)]
pub struct SimulateArgs {
    #[command(flatten)]
    new_run: NewRunArgs,
    /// Player turns to play at most; the run stops early when won or lost.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    turns: u64,
    // --save, --replace and --load are declared per command: play's and
    // simulate's differ in their rules (play names every run's save and
    // refuses --save with --load; simulate saves only when asked, back over
    // the loaded run if so) and so in their help.
    /// Save the run at the end as NAME in the saves directory. A new run
    /// never replaces the save of another run unless --replace is given.
    #[arg(long, value_name = "NAME")]
    save: Option<String>,
    /// Let the run replace the save of another run under --save NAME.
    #[arg(long, requires = "save")]
    replace: bool,
    /// Continue the saved run NAME (its seed, config and monsters).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seed", "config", "monsters", "items", "vaults"])]
    load: Option<String>,
    /// Play N runs from consecutive seeds starting at --seed, and print a
    /// summary of how they went.
    #[arg(long, value_name = "N", conflicts_with_all = ["save", "load"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_RUNS))]
    runs: Option<u64>,
    /// Threads for --runs (default: every core). The results never depend on it.
    #[arg(long, value_name = "J", requires = "runs",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS))]
    jobs: Option<usize>,
    /// How --runs reports: a text summary, or JSON with a record a run.
    #[arg(long, value_enum, default_value_t = SimulateFormat::Text, requires = "runs")]
    format: SimulateFormat,
}

/// Most threads `--jobs` may ask for: each plays a run with its own stack
/// of levels in memory, and more threads than cores gain nothing (they are
/// lowered to the cores, and to the memory, when the runs start).
const MAX_JOBS: u64 = 1024;

/// Bytes a run of a batch holds a cell of its stack, measured high: the
/// tiles, hardness and remembered cells of every level (all of them are
/// made when a run starts), the generator's buffers and the distance maps
/// (14 bytes a cell measured for one run of 1000x1000x8, 5 for sixteen of
/// 2000x2000x16).
const BYTES_A_CELL: u64 = 16;
/// Bytes a run holds besides its cells: kinds, logs, the thread.
const BYTES_A_RUN: u64 = 16 << 20;

/// The threads a batch runs on: those asked for (every core by default),
/// no more than the cores, and no more than the runs that fit in
/// `available` bytes of memory (when it is known) at an estimate of each
/// run's; at least one. The words say why when fewer than asked.
fn bounded_jobs(
    asked: Option<usize>,
    cores: usize,
    config: &Config,
    available: Option<u64>,
) -> (usize, Option<String>) {
    let wanted = asked.unwrap_or(cores).max(1);
    let mut jobs = wanted.min(cores.max(1));
    let mut why = (jobs < wanted).then(|| {
        format!(
            "--jobs {wanted} lowered to {jobs}: this machine has {}",
            delve::words::count(cores as u64, "core", "cores")
        )
    });
    let cells = u64::from(config.width) * u64::from(config.height) * u64::from(config.levels);
    let each = cells * BYTES_A_CELL + BYTES_A_RUN;
    if let Some(available) = available {
        let fit = usize::try_from((available / each).max(1)).unwrap_or(usize::MAX);
        if fit < jobs {
            jobs = fit;
            why = Some(format!(
                "{} lowered to {jobs}: a run of {}x{}x{} levels holds about {} MB, and {} MB of memory is available",
                match asked {
                    Some(n) => format!("--jobs {n}"),
                    None => "the jobs (one a core)".to_string(),
                },
                config.width,
                config.height,
                config.levels,
                each >> 20,
                available >> 20
            ));
        }
    }
    (jobs, why)
}

/// The memory the system says is available to a new process
/// (`MemAvailable` in /proc/meminfo), or `None` where that cannot be read:
/// the jobs are then bounded by the cores alone.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_are_bounded_by_the_cores_and_the_memory() {
        let small = Config::default();
        assert_eq!(bounded_jobs(None, 2, &small, Some(1 << 34)), (2, None));
        assert_eq!(bounded_jobs(Some(1), 2, &small, Some(1 << 34)), (1, None));
        let (jobs, why) = bounded_jobs(Some(32), 2, &small, None);
        assert_eq!(jobs, 2);
        assert_eq!(
            why.as_deref(),
            Some("--jobs 32 lowered to 2: this machine has 2 cores")
        );
        // 2000x2000x16 levels: about 1 GB a run (issue 23, item 11: sixteen
        // of them took 5.1 GB, thirty-two aborted).
        let big = Config {
            width: 2000,
            height: 2000,
            levels: 16,
            ..Config::default()
        };
        let (jobs, why) = bounded_jobs(Some(16), 16, &big, Some(5 << 29));
        assert_eq!(jobs, 2);
        let why = why.unwrap();
        assert!(
            why.starts_with(
                "--jobs 16 lowered to 2: a run of 2000x2000x16 levels holds about 992 MB"
            ),
            "{why}"
        );
        // Never none.
        assert_eq!(bounded_jobs(None, 4, &big, Some(1 << 20)).0, 1);
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum SimulateFormat {
    Text,
    Json,
}

pub fn run(args: SimulateArgs, saves_dir: &Path) -> Result<(), CliError> {
    // Every input is read and checked before anything is made or written:
    // a refused command leaves no saves directory and no lock behind.
    for name in [&args.save, &args.load].into_iter().flatten() {
        SaveDir::check_name(name)?;
    }
    let new_run = match &args.load {
        Some(_) => None,
        None => {
            let (config, kinds) = args.new_run.load()?;
            let items = args.new_run.load_items()?;
            let vaults = args.new_run.vaults.load(&kinds, &config)?;
            if let Some(runs) = args.runs {
                return runs_summary(&args, config, (kinds, items, vaults), runs);
            }
            if args.turns > MAX_TURNS {
                return Err(CliError::Usage(format!(
                    "--turns {}: a run ends at turn {}",
                    args.turns,
                    delve::words::number(MAX_TURNS)
                )));
            }
            Some((config, kinds, items, vaults))
        }
    };
    // Reading a run needs no write: the directory is made, and a name
    // locked, only for the name saved to, and only once the run exists
    // and may take that name. A run loaded from NAME may be saved back
    // over it (continuing it); any other --save must not replace another
    // run without --replace, nor a lone journal that is not its own.
    // One allowance for every replay of the loaded run this command makes.
    let mut allowance = Allowance::default();
    let mut run = match (&args.load, new_run) {
        (Some(name), _) => {
            let saves = super::saves_holding(saves_dir, name)?;
            let mut run = load_or_rebuild(&saves, name, &mut allowance)?;
            if let Some((note, _)) = check_recording(&mut run, &saves.file(name), &mut allowance)? {
                eprintln!("delve: warning: {note}");
            }
            prove_loaded(&mut run, &saves.file(name))?;
            run
        }
        (None, Some((config, kinds, items, vaults))) => {
            let seed = args.new_run.seed.or_random();
            Run::with_items(config, kinds, items, vaults, seed)?
        }
        (None, None) => unreachable!("a new run's inputs are read above"),
    };
    let continuing = args.save.is_some() && args.save == args.load;
    let may_take = |saves: &SaveDir, name: &str| -> Result<(), CliError> {
        super::refuse_foreign(saves, name)?;
        if !continuing {
            saves.refuse_taken(name, args.replace)?;
            if !args.replace {
                delve::journal::lone::refuse_other_run(saves, name, &run)?;
            }
        }
        Ok(())
    };
    let (saves, lock) = match &args.save {
        Some(name) => {
            if let Ok(existing) = SaveDir::existing(saves_dir) {
                may_take(&existing, name)?;
            }
            let saves = SaveDir::open(saves_dir)?;
            let lock = saves.lock(name)?;
            // Again under the lock: another process may have taken the
            // name since.
            may_take(&saves, name)?;
            if continuing {
                // The damaged save passed over for the backup is set aside
                // now that the name is ours, as it always was.
                set_damaged_aside(&saves, name, &lock)?;
                // A journal that parts from the save's own recording is
                // not continued: kept aside, and a new one begun.
                if let Some(note) = delve::journal::session::set_aside_if_it_parts(
                    saves.path(),
                    name,
                    &run,
                    &mut allowance,
                )? {
                    eprintln!("delve: warning: {note}");
                }
            }
            (Some(saves), Some(lock))
        }
        None => (None, None),
    };
    // --turns counts this session's turns, so a continued run plays N more;
    // a run ends at turn MAX_TURNS.
    let stop_at = match run.turn().checked_add(args.turns) {
        Some(stop) if stop <= MAX_TURNS => stop,
        _ => {
            return Err(CliError::Usage(format!(
                "--turns {}: the run is at turn {}, and a run ends at turn {}; ask for at most {}",
                args.turns,
                run.turn(),
                delve::words::number(MAX_TURNS),
                MAX_TURNS - run.turn()
            )));
        }
    };
    // The journal of the name the run is saved under, kept as it plays.
    let mut session = match (&args.save, &saves) {
        (Some(name), Some(saves)) => journal::open_session(saves, name, &run)?,
        _ => None,
    };
    // A level that cannot be generated mid-run ends the run; the summary of
    // what was played is still printed before the error.
    let failure = play_recorded(&mut run, stop_at, &mut session).err();
    let visited: Vec<String> = run.visited().map(|d| d.to_string()).collect();
    let deepest = run.visited().max().unwrap_or(1);
    // Hit points for a Combat run; a Stomp run's summary is as it was.
    let hp = match run.combat() {
        Some(_) => format!(
            "\nhp: {}/{} (experience level {})",
            run.hp(),
            run.max_hp(),
            run.experience_level()
        ),
        None => String::new(),
    };
    let text = format!(
        "turns: {}\ndepth: {} (deepest reached {})\nlives: {}{hp}\nkilled: {}\nlevels visited: {}\noutcome: {}\ndigest: {:016x}\n",
        run.turn(),
        run.player().depth,
        deepest,
        run.player().lives,
        run.killed(),
        visited.join(", "),
        run.outcome().name(),
        run.digest()
    );
    if let (Some(name), Some(saves), Some(lock)) = (&args.save, &saves, &lock) {
        let path = saves.save(name, &run, now_unix(), lock)?;
        if let Some(session) = &mut session {
            session.saved(&run)?;
        }
        eprintln!("saved: {}", path.display());
        if run.outcome() != Outcome::Playing {
            let path = write_morgue(saves, name, &run, lock)?;
            eprintln!("morgue: {}", path.display());
        }
    }
    write_output(None, text.as_bytes())?;
    match failure {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `simulate --runs N`: N runs from consecutive seeds on J threads, each
/// until won, lost or --turns; then the summary (or JSON).
fn runs_summary(
    args: &SimulateArgs,
    config: Config,
    (kinds, items, vaults): (Vec<MonsterKind>, Vec<ItemKind>, Vec<Vault>),
    runs: u64,
) -> Result<(), CliError> {
    let first = args.new_run.seed.or_random();
    if args.turns > MAX_TURNS {
        return Err(CliError::Usage(format!(
            "--turns {}: a run ends at turn {}",
            args.turns,
            delve::words::number(MAX_TURNS)
        )));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (jobs, lowered) = bounded_jobs(args.jobs, cores, &config, available_memory());
    if let Some(why) = lowered {
        eprintln!("delve: note: {why}");
    }
    // Progress only on a terminal: a pipe or a file gets nothing.
    let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
        let bar = indicatif::ProgressBar::new(runs);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} runs, {eta} left",
            )
            .expect("a valid template")
            .progress_chars("=> "),
        );
        bar
    });
    let turns = args.turns;
    let results = run_batch(
        first,
        runs,
        jobs,
        |seed| play_run(&config, (&kinds, &items, &vaults), seed, turns),
        || {
            if let Some(bar) = &bar {
                bar.inc(1);
            }
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let records = results
        .into_iter()
        .collect::<Result<Vec<_>, GenerateError>>()?;
    let summary = Summary::of(&records);
    let text = match args.format {
        SimulateFormat::Text => summary.to_text(),
        SimulateFormat::Json => {
            let mut text = serde_json::to_string_pretty(&Report {
                runs: &records,
                summary: &summary,
            })
            .expect("records always serialise");
            text.push('\n');
            text
        }
    };
    write_output(None, text.as_bytes())
}

/// Loads NAME for `simulate --load`: the save, or the further of it and
/// the run rebuilt from NAME.journal (the journal's only when it is the
/// save's run gone further, replayed and checked); else the backup, or
/// the further of it and the journal; else the journal's run alone;
/// saying what was wrong with each file passed over and what is loaded
/// instead. Reading only.
fn load_or_rebuild(
    saves: &SaveDir,
    name: &str,
    allowance: &mut Allowance,
) -> Result<Run, CliError> {
    let recovered = journal::recover(saves, name, allowance)?;
    for note in &recovered.notes {
        eprintln!("delve: warning: {note}");
    }
    Ok(recovered.run)
}

/// When NAME's save is damaged and the run goes on under NAME (from its
/// backup or journal), keeps the damaged file aside as it always was, so
/// the next save does not pass it over again: never deleted.
fn set_damaged_aside(saves: &SaveDir, name: &str, lock: &SaveLock) -> Result<(), CliError> {
    let path = saves.file(name);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(());
    }
    match delve::save::read_and_decode(&path) {
        Err(e) if e.is_damage() => {
            let aside = saves.set_damaged_aside(name, lock)?;
            eprintln!(
                "delve: warning: kept the damaged {} as {}",
                path.display(),
                aside.display()
            );
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `play_headless` with the journal kept: a block appended at every level
/// change. A journal that cannot be written stops play (the run is still
/// summarised and saved by the caller).
fn play_recorded(
    run: &mut Run,
    stop_at: u64,
    session: &mut Option<Session>,
) -> Result<(), CliError> {
    while run.turn() < stop_at && run.outcome() == Outcome::Playing {
        let turn = run.turn();
        play_headless(run, turn + 1)?;
        if let Some(session) = session {
            session.stepped(run)?;
        }
    }
    Ok(())
}
