//! The commands' use of journals: `delve replay NAME --check`, the journal
//! fallback of `--load`, and keeping NAME.journal while `simulate` plays.
//! (A file of its own until the CLI is split into one file per command.)

use std::path::Path;

use delve::journal::check::{Expected, check_save};
use delve::journal::recover::{RecoverError, Source, read_run};
use delve::journal::session::{Session, start_of};
use delve::journal::{journal_path, read_file};
use delve::save::{SaveDir, SaveError};
use delve::sim::{Outcome, Run, play_headless};

use crate::CliError;

/// Loads NAME for `simulate --load`: the save, else (as today) its backup
/// with a warning, else the run rebuilt from NAME.journal, saying what was
/// wrong with each file passed over and what is loaded instead.
pub fn load_or_rebuild(saves: &SaveDir, name: &str) -> Result<Run, CliError> {
    match saves.load(name) {
        Ok((run, _, warning)) => {
            if let Some(warning) = warning {
                eprintln!("delve: warning: {warning}");
            }
            Ok(run)
        }
        Err(e)
            if (e.is_damage() || matches!(e, SaveError::Missing { .. }))
                && has_journal(saves, name) =>
        {
            let recovered = rebuild(saves, name, &e)?;
            for note in &recovered.notes {
                eprintln!("delve: warning: {note}");
            }
            Ok(recovered.run)
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether NAME has a journal file (of any kind: what it is is checked
/// when it is read).
pub fn has_journal(saves: &SaveDir, name: &str) -> bool {
    std::fs::symlink_metadata(journal_path(saves.path(), name)).is_ok()
}

/// The run rebuilt from NAME's journal, after `save_error` made the save
/// and its backup unusable. Reads only.
pub fn rebuild(
    saves: &SaveDir,
    name: &str,
    save_error: &SaveError,
) -> Result<delve::journal::recover::Recovered, CliError> {
    match read_run(saves, name, &mut |_| {}) {
        Ok(recovered) if recovered.source == Source::Journal => Ok(recovered),
        // The files changed under us: load what is there.
        Ok(recovered) => Ok(recovered),
        Err(RecoverError::AllDamaged(problems)) => Err(CliError::NotLoaded(format!(
            "{save_error}; nothing could be loaded: {}",
            problems.join("; ")
        ))),
        Err(e) => Err(e.into()),
    }
}

/// NAME's journal for a run about to play, with what was done to the file
/// said on stderr; `None` for a run that keeps no journal.
pub fn open_session(saves: &SaveDir, name: &str, run: &Run) -> Result<Option<Session>, CliError> {
    match Session::open(saves.path(), name, run)? {
        Some((session, note)) => {
            if let Some(note) = note {
                eprintln!("delve: warning: {note}");
            }
            Ok(Some(session))
        }
        None => {
            eprintln!(
                "delve: note: this run was saved before delve recorded runs, so it keeps no journal"
            );
            Ok(None)
        }
    }
}

/// `play_headless` with the journal kept: a block appended at every level
/// change. A journal that cannot be written stops play (the run is still
/// summarised and saved by the caller).
pub fn play_recorded(
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

/// `delve replay NAME --check`: replays NAME's recording headless and
/// compares it with the journal file's checkpoints and the save's state.
/// Never writes a file. Ok(true) when they agree.
pub fn check(saves_dir: &Path, name: &str) -> Result<bool, CliError> {
    let saves = SaveDir::existing(saves_dir)?;
    SaveDir::check_name(name)?;
    let journal_file = journal_path(saves.path(), name);
    let journal_name = journal_file.display().to_string();
    let save_path = saves.file(name);
    // The save, else its backup, else the journal alone (read only).
    let recovered = read_run(&saves, name, &mut |_| {})?;
    for note in &recovered.notes {
        eprintln!("delve: {note}");
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
        &mut |_| {},
    )?;
    let mut text = format!(
        "replayed {} actions of {what}'s recording of {name} to turn {}\n",
        verdict.actions, verdict.turn
    );
    for line in &verdict.lines {
        text.push_str(line);
        text.push('\n');
    }
    crate::write_output(None, text.as_bytes())?;
    Ok(verdict.parting.is_none())
}

/// The journal lines `delve verify NAME` adds: whether the journal file is
/// there, intact, this run's, and replays to the save's state.
pub fn verify_lines(dir: &Path, name: &str, run: &Run) -> Vec<String> {
    let path = journal_path(dir, name);
    if std::fs::symlink_metadata(&path).is_err() {
        return vec![format!("journal: {} is missing", path.display())];
    }
    let Some(recording) = run.recording() else {
        return vec![
            "journal: the save has no recording (saved before delve recorded runs)".into(),
        ];
    };
    let journal = read_file(&path);
    let end = Expected {
        actions: recording.len(),
        turn: run.turn(),
        digest: run.digest(),
    };
    match check_save(
        &start_of(run),
        recording,
        end,
        journal.as_ref(),
        &path.display().to_string(),
        &mut |_| {},
    ) {
        Ok(verdict) => {
            let mut lines: Vec<String> = verdict
                .lines
                .iter()
                .map(|l| format!("journal: {l}"))
                .collect();
            lines.push(format!(
                "journal: {}",
                if verdict.parting.is_none() {
                    "agrees"
                } else {
                    "DISAGREES"
                }
            ));
            lines
        }
        Err(e) => vec![format!("journal: the run's start cannot be generated: {e}")],
    }
}

/// `play --load NAME` with the save and its backup unusable: the run
/// rebuilt from the journal, once the player agrees (as for the backup);
/// without a terminal, only said.
pub fn rebuild_for_play(
    saves: &SaveDir,
    name: &str,
    save_error: &SaveError,
    ask: bool,
) -> Result<(Run, Option<String>), CliError> {
    let path = journal_path(saves.path(), name);
    if !ask {
        return Err(CliError::NotLoaded(format!(
            "{save_error}\nits backup is unusable too; the journal {} can rebuild the run: in a terminal, play --load {name} offers to, and `delve simulate --load {name} --turns 0 --save {name}` does",
            path.display()
        )));
    }
    eprintln!("delve: {save_error}");
    eprint!(
        "The backup is unusable too. Rebuild the run from the journal {}? The damaged files are kept. [y/N] ",
        path.display()
    );
    let _ = std::io::Write::flush(&mut std::io::stderr());
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
            saves.file(name).display()
        )));
    }
    let recovered = rebuild(saves, name, save_error)?;
    let note = format!(
        "Rebuilt the run from {name}.journal (turn {}); the save and its backup were damaged.",
        recovered.run.turn()
    );
    Ok((recovered.run, Some(note)))
}

/// What `delve replay NAME` plays: the recorded run at its start and its
/// recording, from the save (else the backup, else the journal). Reads
/// only.
pub fn replay_start(
    saves_dir: &Path,
    name: &str,
) -> Result<(Run, delve::sim::record::Recording), CliError> {
    let saves = SaveDir::existing(saves_dir)?;
    SaveDir::check_name(name)?;
    let recovered = read_run(&saves, name, &mut |_| {})?;
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
