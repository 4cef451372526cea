//! `delve simulate`: play a run headless with the autopilot.

use std::path::Path;

use delve::journal::session::Session;
use delve::save::{SaveDir, SaveError};
use delve::sim::{MAX_TURNS, Outcome, Run, play_headless};

use super::args::NewRunArgs;
use super::journal;
use super::{CliError, now_unix, outcome_name, prove_loaded, write_output};

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
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seed", "config", "monsters"])]
    load: Option<String>,
}

pub fn run(args: SimulateArgs, saves_dir: &Path) -> Result<(), CliError> {
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
            let mut run = load_or_rebuild(saves, name)?;
            prove_loaded(&mut run, &saves.file(name))?;
            run
        }
        None => {
            let (config, kinds) = args.new_run.load()?;
            let seed = args.new_run.seed.or_random();
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
        (Some(name), Some(saves)) => journal::open_session(saves, name, &run)?,
        _ => None,
    };
    let failure = play_recorded(&mut run, stop_at, &mut session).err();
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

/// Loads NAME for `simulate --load`: the save, else (as today) its backup
/// with a warning, else the run rebuilt from NAME.journal, saying what was
/// wrong with each file passed over and what is loaded instead.
fn load_or_rebuild(saves: &SaveDir, name: &str) -> Result<Run, CliError> {
    match saves.load(name) {
        Ok((run, _, warning)) => {
            if let Some(warning) = warning {
                eprintln!("delve: warning: {warning}");
            }
            Ok(run)
        }
        Err(e)
            if (e.is_damage() || matches!(e, SaveError::Missing { .. }))
                && journal::has_journal(saves, name) =>
        {
            let recovered = journal::rebuild(saves, name, &e)?;
            for note in &recovered.notes {
                eprintln!("delve: warning: {note}");
            }
            Ok(recovered.run)
        }
        Err(e) => Err(e.into()),
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
