//! `delve replay`: watch a saved run again from turn 0, or check headless
//! that its recording replays to the state its save and journal hold.

use std::path::Path;

use delve::journal::check::{Allowance, Expected, Parting, check_save};
use delve::journal::recover::{Source, read_run};
use delve::journal::session::start_of;
use delve::journal::{journal_path, read_file};
use delve::save::SaveDir;
use delve::sim::Run;
use delve::sim::record::Recording;
use delve::view::terminal::ViewError;
use delve::view::{App, Keymap};

use super::{CliError, has_terminal, write_output};

#[derive(clap::Args)]
pub struct ReplayArgs {
    /// The saved run.
    name: String,
    /// Replay headless and compare digests (without it, the viewer:
    /// Space pause, + and - speed, . step, g go to a turn, > next
    /// level, Q quit).
    #[arg(long)]
    check: bool,
}

pub fn run(args: ReplayArgs, saves_dir: &Path) -> Result<(), CliError> {
    let name = args.name;
    if args.check {
        return check(saves_dir, &name);
    }
    let (run, recording) = replay_start(saves_dir, &name)?;
    if !has_terminal() {
        return Err(CliError::Usage(
            "delve replay needs a terminal; `delve replay NAME --check` replays without one".into(),
        ));
    }
    let mut app = App::replaying(run, recording, Keymap::default(), name);
    delve::view::terminal::play(&mut app, |_| Err("a replay is never saved".into())).map_err(
        |e| match e {
            ViewError::Generate(g) => g.into(),
            ViewError::Terminal(io) => CliError::Terminal(io),
            ViewError::Panic(message) => CliError::Internal(message),
            other => CliError::Internal(other.to_string()),
        },
    )?;
    Ok(())
}

/// `delve replay NAME --check`: replays NAME's recording headless and
/// compares it with the journal file's checkpoints and the save's state.
/// Never writes a file. An error (exit 1) when they do not agree, or when
/// the replay was stopped before the end for the work.
fn check(saves_dir: &Path, name: &str) -> Result<(), CliError> {
    let saves = SaveDir::existing(saves_dir)?;
    SaveDir::check_name(name)?;
    let journal_file = journal_path(saves.path(), name);
    let journal_name = journal_file.display().to_string();
    let save_path = saves.file(name);
    // The save, else its backup, else the journal alone (read only); one
    // allowance for every replay of the run this check makes.
    let mut allowance = Allowance::default();
    let recovered = read_run(&saves, name, &mut allowance, &mut |_| {})?;
    for note in &recovered.notes {
        eprintln!("delve: {note}");
    }
    // A run rebuilt from a journal that parts from its own record: the
    // rebuild replayed and compared it already, and kept only the part
    // before. Replaying that part again would only find it agrees with
    // itself; the journal is what disagrees.
    if let (Source::Journal, Some(parted)) = (recovered.source, &recovered.parted) {
        let text = format!(
            "replayed the journal's recording of {name}: {}\n{}: {}; the run is kept to turn {}, {} after it left out\n",
            recovered.checked.as_deref().unwrap_or_default(),
            parted.path,
            parted.what,
            parted.kept_to,
            delve::words::count(parted.left_out, "action", "actions")
        );
        write_output(None, text.as_bytes())?;
        return Err(if parted.stopped {
            CliError::Unchecked(name.into())
        } else {
            CliError::Disagrees(name.into())
        });
    }
    let run = &recovered.run;
    let Some(recording) = run.recording() else {
        return Err(CliError::NotLoaded(format!(
            "{}: this run was saved before delve recorded runs: it has no recording to replay",
            save_path.display()
        )));
    };
    // A journal that cannot be read (missing, a link, damaged) is said so,
    // and the save's own recording is checked.
    let journal = read_file(&journal_file);
    let end = Expected {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    };
    let what = match recovered.source {
        Source::Save => "the save",
        Source::Backup => "the backup",
        Source::Journal => "the journal",
    };
    let verdict = check_save(
        &start_of(run),
        recording,
        end,
        journal.as_ref(),
        &journal_name,
        &mut allowance,
        &mut |_| {},
    )?;
    let mut text = format!(
        "replayed {} of {what}'s recording of {name} to turn {}\n",
        delve::words::count(verdict.actions, "action", "actions"),
        verdict.turn
    );
    for line in &verdict.lines {
        text.push_str(line);
        text.push('\n');
    }
    write_output(None, text.as_bytes())?;
    match verdict.parting {
        None => Ok(()),
        Some(Parting::TooMuchWork { .. }) => Err(CliError::Unchecked(name.into())),
        Some(_) => Err(CliError::Disagrees(name.into())),
    }
}

/// What `delve replay NAME` plays: the recorded run at its start and its
/// recording, from the save (else the backup, else the journal). Reads
/// only.
fn replay_start(saves_dir: &Path, name: &str) -> Result<(Run, Recording), CliError> {
    let saves = SaveDir::existing(saves_dir)?;
    SaveDir::check_name(name)?;
    let recovered = read_run(&saves, name, &mut Allowance::default(), &mut |_| {})?;
    for note in &recovered.notes {
        eprintln!("delve: {note}");
    }
    let run = recovered.run;
    let Some(recording) = run.recording() else {
        return Err(CliError::NotLoaded(format!(
            "{}: this run was saved before delve recorded runs: it has no recording to replay",
            saves.file(name).display()
        )));
    };
    let start = delve::journal::check::start_run(&start_of(&run))?;
    Ok((start, recording.clone()))
}
