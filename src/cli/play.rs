//! `delve play`: play a run in the terminal.

use std::io::Write;
use std::path::{Path, PathBuf};

use delve::journal::check::Allowance;
use delve::journal::journal_path;
use delve::journal::recover::{Past, journal_past};
use delve::save::{SaveDir, SaveError};
use delve::sim::{Outcome, Run};
use delve::view::terminal::{Ending, ViewError};
use delve::view::{App, Keymap};

use super::args::NewRunArgs;
use super::journal;
use super::{
    CliError, check_recording, continue_commands, has_terminal, now_unix, prove_loaded,
    random_seed, say,
};

#[derive(clap::Args)]
#[command(mut_arg("seed", |a| a.help(
    "Run seed; without it a random seed is chosen (the status line shows it)"
)))]
pub struct PlayArgs {
    #[command(flatten)]
    new_run: NewRunArgs,
    /// RON keymap (default: the keys of data/keymap.ron).
    #[arg(long, value_name = "FILE", env = "DELVE_KEYMAP")]
    keymap: Option<PathBuf>,
    // --save, --replace and --load: see simulate.rs for why they are
    // declared per command.
    /// Save a new run as NAME in the saves directory (default: seed-N).
    #[arg(long, value_name = "NAME", conflicts_with = "load")]
    save: Option<String>,
    /// Let the new run replace the save NAME holds (another run).
    #[arg(long, conflicts_with = "load")]
    replace: bool,
    /// Continue the saved run NAME.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["seed", "config", "monsters", "items", "vaults"])]
    load: Option<String>,
}

pub fn run(args: PlayArgs, saves_dir: &Path) -> Result<(), CliError> {
    // Every file is read and checked before the terminal is: bad input is
    // reported as such (exit 2, with its location) wherever delve runs.
    let keymap = match &args.keymap {
        Some(path) => delve::view::Keymap::load(path)?,
        None => Keymap::default(),
    };
    // Nothing is made or written (no saves directory, no lock) before the
    // inputs are checked: a load needs the directory to be there already,
    // and a new run's files are read before its name is taken.
    let (saves, mut new_run) = match &args.load {
        Some(name) => {
            SaveDir::check_name(name)?;
            (super::saves_holding(saves_dir, name)?, None)
        }
        None => {
            let (config, kinds) = args.new_run.load()?;
            let items = args.new_run.load_items()?;
            let vaults = args.new_run.vaults.load(&kinds, &config)?;
            if let Some(name) = &args.save {
                SaveDir::check_name(name)?;
            }
            (
                SaveDir::open(saves_dir)?,
                Some((config, kinds, items, vaults)),
            )
        }
    };
    let (run, name, warning) = match &args.load {
        Some(name) => {
            super::refuse_foreign(&saves, name)?;
            let lock = saves.lock(name)?;
            // One allowance for every replay of the run loading makes.
            let mut allowance = Allowance::default();
            let (mut run, mut warning) = load_for_play(&saves, name, &mut allowance)?;
            if let Some((note, short)) =
                check_recording(&mut run, &saves.file(name), &mut allowance)?
            {
                eprintln!("delve: warning: {note}");
                warning.get_or_insert_with(|| short.into());
            }
            prove_loaded(&mut run, &saves.file(name))?;
            (run, (name.clone(), lock), warning)
        }
        None => {
            let (config, kinds, items, vaults) = new_run.take().expect("read above");
            // The status line shows the seed, so it is not printed.
            let seed = args.new_run.seed.seed.unwrap_or_else(random_seed);
            let name = args.save.clone().unwrap_or_else(|| format!("seed-{seed}"));
            // The library's refusal, with the command that continues the
            // run spelt as it works from here.
            let taken = |e| match e {
                SaveError::Taken { name, dir, holds } => CliError::Usage(format!(
                    "a save named {name} already exists in {dir} ({holds}); continue it with `{}`, \
                     start the new run under another name with --save NAME, or replace it with --replace",
                    continue_commands(&name, saves_dir)[0]
                )),
                e => e.into(),
            };
            let run = Run::with_items(config, kinds, items, vaults, seed)?;
            // The name is checked before its lock is taken (a refused
            // command leaves no lock file), and again under it. A lone
            // journal is a run as well, unless it is this one's.
            let may_take = || -> Result<(), CliError> {
                super::refuse_foreign(&saves, &name)?;
                saves.refuse_taken(&name, args.replace).map_err(taken)?;
                if !args.replace {
                    delve::journal::lone::refuse_other_run(&saves, &name, &run).map_err(taken)?;
                }
                Ok(())
            };
            may_take()?;
            if !has_terminal() {
                return Err(no_terminal());
            }
            let lock = saves.lock(&name)?;
            may_take()?;
            (run, (name, lock), None)
        }
    };
    if !has_terminal() {
        return Err(no_terminal());
    }
    let (name, lock) = name;
    // The journal of the run, kept as it plays: a block at every save
    // (the viewer saves at every level change).
    let mut session = journal::open_session(&saves, &name, &run)?;
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
    if app.run().outcome() != Outcome::Playing {
        match super::write_morgue(&saves, &name, app.run(), &lock) {
            Ok(path) => say(&format!("delve: the morgue file is {}", path.display())),
            Err(e) => say(&format!("delve: the morgue file could not be written: {e}")),
        }
    }
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
            "Left without saving the last {}; {path} holds turn {turn}.",
            delve::words::count(run.turn() - turn, "turn", "turns")
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
                let mut said = "Left without saving; no save of this run was made.".to_string();
                // The journal stays (it is the run's record until a save is
                // made): say what it keeps, so the name it holds is no surprise.
                let path = journal_path(saves.path(), name);
                match delve::journal::read_summary(&path) {
                    Ok(journal) if journal.actions == 0 => said.push_str(&format!(
                        " Its journal {} holds only its start.",
                        path.display()
                    )),
                    Ok(journal) => said.push_str(&format!(
                        " Its journal {} keeps it to turn {}: `{}` rebuilds it from there.",
                        path.display(),
                        journal.turn,
                        continue_commands(name, saves_dir)[0]
                    )),
                    Err(_) => {}
                }
                said
            }
            Err(e) => format!("Left without saving; {e}"),
        },
    });
    if run.outcome() != Outcome::Playing {
        farewell.push(format!("The run is over ({}).", run.outcome().name()));
    } else if file.exists() {
        let commands = continue_commands(name, saves_dir);
        farewell.push(format!("Continue with: {}", commands[0]));
        farewell.extend(commands[1..].iter().map(|c| format!("          or: {c}")));
    }
    farewell.join("\n")
}

fn no_terminal() -> CliError {
    CliError::Usage("delve play needs a terminal; `delve simulate` plays without one".into())
}

/// Loads a save for play. A damaged save is not replaced behind the
/// player's back: they are told what is wrong and asked whether to load
/// the backup (the damaged file is then kept aside, never deleted).
fn load_for_play(
    saves: &SaveDir,
    name: &str,
    allowance: &mut Allowance,
) -> Result<(Run, Option<String>), CliError> {
    let path = saves.file(name);
    // Only the journal: the run rebuilt from it, as `simulate --load` does
    // (play asks first).
    if delve::journal::lone::is_lone(saves, name) {
        let missing = SaveError::Missing {
            name: name.into(),
            dir: saves.path().display().to_string(),
        };
        return rebuild_for_play(saves, name, &missing, has_terminal(), allowance);
    }
    if std::fs::symlink_metadata(&path).is_ok() {
        match delve::save::read_and_decode(&path) {
            Ok((run, summary)) => {
                // A crash between the journal's append and the save leaves
                // the journal ahead: offered, as for a backup.
                return match journal_further(saves, name, None, &run, &summary, &path, allowance)? {
                    Further::Journal(run, note) => Ok((*run, Some(note))),
                    Further::Backup | Further::No => Ok((run, None)),
                };
            }
            Err(e) if e.is_damage() => {
                let backup = saves.backup(name);
                let Ok((backup_run, summary)) = delve::save::read_and_decode(&backup) else {
                    if journal::has_journal(saves, name) {
                        return rebuild_for_play(saves, name, &e, has_terminal(), allowance);
                    }
                    return Err(e.into());
                };
                // The journal may take the backup's run further: offered
                // first, as any run rebuilt from the journal is.
                match journal_further(
                    saves,
                    name,
                    Some(&e.to_string()),
                    &backup_run,
                    &summary,
                    &backup,
                    allowance,
                )? {
                    Further::Journal(run, note) => return Ok((*run, Some(note))),
                    Further::Backup => {}
                    Further::No if !has_terminal() => {
                        // No one to ask: say what is wrong and what is there.
                        return Err(CliError::NotLoaded(format!(
                            "{e}\na backup from turn {} (depth {}) is in {}; in a terminal, play --load {name} offers to load it",
                            summary.turn,
                            summary.depth,
                            backup.display()
                        )));
                    }
                    Further::No => {
                        eprintln!("delve: {e}");
                        confirm(
                            &format!(
                                "A backup from turn {} (depth {}) is in {}. Load it? The damaged file is kept aside.",
                                summary.turn,
                                summary.depth,
                                backup.display()
                            ),
                            &path,
                        )?;
                    }
                }
            }
            Err(e) => return Err(e.into()),
        }
    } else if let Ok((backup_run, summary)) = delve::save::read_and_decode(&saves.backup(name)) {
        // No save, only its backup (loaded without asking, as always),
        // unless the journal takes the run further.
        let said = format!("{} is missing", path.display());
        if let Further::Journal(run, note) = journal_further(
            saves,
            name,
            Some(&said),
            &backup_run,
            &summary,
            &saves.backup(name),
            allowance,
        )? {
            return Ok((*run, Some(note)));
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

/// `play --load NAME` with the save and its backup unusable, or with
/// neither there and only the journal (`save_error` is then
/// [`SaveError::Missing`]): the run rebuilt from the journal, once the
/// player agrees (as for the backup); without a terminal, only said.
fn rebuild_for_play(
    saves: &SaveDir,
    name: &str,
    save_error: &SaveError,
    ask: bool,
    allowance: &mut Allowance,
) -> Result<(Run, Option<String>), CliError> {
    let path = journal_path(saves.path(), name);
    // A journal with no save files beside it, or one behind two damaged ones.
    let lone = matches!(save_error, SaveError::Missing { .. });
    let (said, question, note) = if lone {
        (
            format!("{name} has no save or backup in {}", saves.path().display()),
            "Rebuild the run from its journal",
            "it had no save",
        )
    } else {
        (
            format!("{save_error}\nits backup is unusable too"),
            "The backup is unusable too. Rebuild the run from the journal",
            "the save and its backup were damaged",
        )
    };
    if !ask {
        return Err(CliError::NotLoaded(format!(
            "{said}; the journal {} can rebuild the run: in a terminal, play --load {name} offers to, and `delve simulate --load {name} --turns 0 --save {name}` does",
            path.display()
        )));
    }
    eprintln!("delve: {said}");
    confirm(
        &format!(
            "{question} {}?{}",
            path.display(),
            if lone {
                ""
            } else {
                " The damaged files are kept."
            }
        ),
        &saves.file(name),
    )?;
    let recovered = journal::rebuild(saves, name, save_error, allowance)?;
    let note = format!(
        "Rebuilt the run from {name}.journal (turn {}); {note}.",
        recovered.run.turn()
    );
    Ok((recovered.run, Some(note)))
}

/// What the player chose when the journal went further than the save or
/// backup.
enum Further {
    /// The journal's run, and the note for the message line.
    Journal(Box<Run>, String),
    /// The save or backup, already agreed to.
    Backup,
    /// The journal takes the run no further: nothing was asked.
    No,
}

/// `play --load NAME` with the save intact (`said` is `None`), or damaged
/// or missing (`said` says which) and the backup intact: when NAME.journal
/// rebuilds the loaded run (`loaded`, read from `loaded_path`) further on,
/// the player is asked whether to load the journal's run, and if not (for
/// a backup) whether to load the backup; the damaged save, the save and
/// the backup are kept either way. Without a terminal it is only said,
/// with the command that loads it. [`Further::No`] when the journal takes
/// the run no further (what is wrong with it, if anything, is said): the
/// caller goes on as before.
fn journal_further(
    saves: &SaveDir,
    name: &str,
    said: Option<&str>,
    loaded: &Run,
    summary: &delve::save::Summary,
    loaded_path: &Path,
    allowance: &mut Allowance,
) -> Result<Further, CliError> {
    if !journal::has_journal(saves, name) {
        return Ok(Further::No);
    }
    let journal = journal_path(saves.path(), name);
    let rebuilt = match journal_past(&journal, loaded, allowance, &mut |_| {}) {
        Past::Further(rebuilt) => rebuilt,
        Past::NotFurther(why) => {
            if let Some(why) = why {
                eprintln!("delve: {why}");
            }
            return Ok(Further::No);
        }
    };
    let further = format!(
        "{} is at turn {} (depth {}) but {} reaches turn {} (depth {})",
        loaded_path.display(),
        summary.turn,
        summary.depth,
        journal.display(),
        rebuilt.run.turn(),
        rebuilt.run.player().depth
    );
    if !has_terminal() {
        return Err(CliError::NotLoaded(format!(
            "{}{further}; in a terminal, play --load {name} offers to load the journal's run, \
             and `delve simulate --load {name} --turns 0 --save {name}` loads and saves it",
            said.map_or_else(String::new, |s| format!("{s}\n"))
        )));
    }
    if let Some(said) = said {
        eprintln!("delve: {said}");
    }
    if let Some(cut) = &rebuilt.cut {
        eprintln!("delve: {}: {cut}", journal.display());
    }
    if let Some(parted) = &rebuilt.parted {
        eprintln!("delve: {parted}");
    }
    let checked = rebuilt.checked_words();
    let run = rebuilt.run;
    let (note, kept) = match said {
        Some(_) => (
            format!(
                "Loaded the journal's run (turn {}); {name}.sav was damaged or missing and the backup is at turn {}.",
                run.turn(),
                summary.turn
            ),
            "The backup is kept.",
        ),
        None => (
            format!(
                "Loaded the journal's run (turn {}); the save was at turn {}.",
                run.turn(),
                summary.turn
            ),
            "The save is kept (as the backup at the next save).",
        ),
    };
    if ask(&format!(
        "{further}: the same run, {checked}. Load the journal's run? {kept}"
    ))? {
        return Ok(Further::Journal(Box::new(run), note));
    }
    if said.is_none() {
        // The save itself, as asked; the journal is kept aside when the
        // run goes on from the save (said then).
        return Ok(Further::Backup);
    }
    confirm(
        &format!(
            "Load the backup from turn {} instead? The journal is kept.",
            summary.turn
        ),
        &saves.file(name),
    )?;
    Ok(Further::Backup)
}

/// Asks a yes/no question on the terminal before a load that uses
/// something other than the save; anything but yes leaves `save` as it was.
fn confirm(question: &str, save: &std::path::Path) -> Result<(), CliError> {
    if ask(question)? {
        Ok(())
    } else {
        Err(CliError::Declined(format!(
            "{} left as it was; nothing was loaded",
            save.display()
        )))
    }
}

/// Asks a yes/no question on the terminal: whether the answer was yes.
fn ask(question: &str) -> Result<bool, CliError> {
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    std::io::stdin()
        .read_line(&mut answer)
        .map_err(|source| CliError::Write {
            path: "standard input".into(),
            source,
        })?;
    Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
}
