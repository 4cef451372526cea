//! A run back from whatever is left of it: the further of `NAME.sav` and
//! `NAME.journal` replayed, else the further of `NAME.sav.bak` and the
//! journal (the journal only when it is the save's or backup's own run,
//! checked, gone further: a crash between a journal's append and the save
//! leaves it ahead), else `NAME.journal` alone. Reading only: nothing here
//! renames, deletes or writes a file (the caller does, once the player
//! agrees where asking is the rule).

use std::path::Path;

use crate::save::{self, SaveDir, SaveError, Summary};
use crate::sim::Run;

use super::check::{
    Allowance, Expected, JournalFit, Parting, check, check_between, fit, spaced, start_within,
    unstarted,
};
use super::encoding::{Cut, Journal};
use super::error::JournalError;
use super::file::read_file;
use super::session::start_of;

/// Where a recovered run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// NAME.sav: nothing was passed over (a journal that goes no further
    /// than the save, or none).
    Save,
    /// NAME.sav.bak: the save was damaged or missing.
    Backup,
    /// NAME.journal replayed: the save and its backup were both unusable,
    /// or the one loaded was intact but the journal rebuilt the same run
    /// further on ([`Recovered::passed_over`] then says how far it is).
    Journal,
}

/// A run read back, and why it did not come from the save, if it did not.
#[derive(Debug)]
pub struct Recovered {
    /// The run as read or rebuilt.
    pub run: Run,
    /// Which file it came from, so a caller can say what it loaded.
    pub source: Source,
    /// What was wrong with each file passed over, and what was loaded
    /// instead, one line each, in order.
    pub notes: Vec<String>,
    /// The intact save or backup passed over for the journal's run, which
    /// went further: which file and its summary. `None` unless `source` is
    /// [`Source::Journal`] with an intact save or backup.
    pub passed_over: Option<(Source, Summary)>,
    /// For a run rebuilt from the journal, where the journal stopped
    /// replaying as recorded, if it did (the run is kept to before it).
    pub parted: Option<Parted>,
    /// For a run rebuilt from the journal, what was replayed and checked,
    /// in words ([`Rebuilt::checked_words`]).
    pub checked: Option<String>,
}

/// Why nothing could be recovered.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    /// There is no save, backup or journal of that name.
    #[error(transparent)]
    Missing(SaveError),
    /// An error that is not damage (a newer format, a link, an IO error):
    /// the file is left to the user rather than passed over.
    #[error(transparent)]
    Save(SaveError),
    /// A journal that cannot be used at all (save and backup already
    /// passed over).
    #[error(transparent)]
    Journal(JournalError),
    /// Every file there is damaged.
    #[error("{}", .0.join("; "))]
    AllDamaged(Vec<String>),
}

impl RecoverError {
    /// Whether the user asked for something that is not there or not a
    /// usable file (exit 2) rather than a failure on the way (exit 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            RecoverError::Missing(e) | RecoverError::Save(e) => e.is_bad_input(),
            RecoverError::Journal(JournalError::NotRegular { .. }) => true,
            _ => false,
        }
    }
}

fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Reads NAME's run: the save, or if it is damaged or missing the backup,
/// or if that is too the journal, replayed to its last intact block (and
/// checked against its checkpoints on the way). Replays spend from
/// `allowance`; `progress` hears the actions replayed.
pub fn read_run(
    saves: &SaveDir,
    name: &str,
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Result<Recovered, RecoverError> {
    SaveDir::check_name(name).map_err(RecoverError::Save)?;
    let mut notes = Vec::new();
    let mut problems = Vec::new();
    for (path, source) in [
        (saves.file(name), Source::Save),
        (saves.backup(name), Source::Backup),
    ] {
        if !present(&path) {
            notes.push(format!("{} is missing", path.display()));
            continue;
        }
        match save::read_and_decode(&path) {
            Ok((run, summary)) => {
                let journal = super::file::journal_path(saves.path(), name);
                return Ok(match journal_past(&journal, &run, allowance, progress) {
                    Past::Further(rebuilt) => {
                        if let Some(cut) = &rebuilt.cut {
                            notes.push(format!("{}: {cut}", journal.display()));
                        }
                        notes.push(format!(
                            "{} is at turn {} but {} reaches turn {} ({} more, {}): loaded the journal's run",
                            path.display(),
                            summary.turn,
                            journal.display(),
                            rebuilt.run.turn(),
                            crate::words::count(
                                rebuilt
                                    .actions
                                    .saturating_sub(run.recording().map_or(0, |r| r.len())),
                                "action",
                                "actions"
                            ),
                            rebuilt.checked_words(),
                        ));
                        if let Some(parted) = &rebuilt.parted {
                            notes.push(parted.to_string());
                        }
                        let checked = Some(rebuilt.checked_words());
                        Recovered {
                            run: rebuilt.run,
                            source: Source::Journal,
                            notes,
                            passed_over: Some((source, summary)),
                            parted: rebuilt.parted,
                            checked,
                        }
                    }
                    Past::NotFurther(why) => {
                        notes.extend(why);
                        if source == Source::Backup {
                            notes.push(loading(&path, &summary));
                        }
                        Recovered {
                            run,
                            source,
                            notes,
                            passed_over: None,
                            parted: None,
                            checked: None,
                        }
                    }
                });
            }
            Err(e) if e.is_damage() => {
                problems.push(e.to_string());
                notes.push(e.to_string());
            }
            Err(e) => return Err(RecoverError::Save(e)),
        }
    }
    let journal_path = super::file::journal_path(saves.path(), name);
    if !present(&journal_path) {
        if problems.is_empty() {
            return Err(RecoverError::Missing(SaveError::Missing {
                name: name.into(),
                dir: saves.path().display().to_string(),
            }));
        }
        problems.push(format!("{} is missing", journal_path.display()));
        return Err(RecoverError::AllDamaged(problems));
    }
    let rebuilt = replay_journal(&journal_path, allowance, progress).map_err(|e| match e {
        RecoverError::AllDamaged(more) => {
            RecoverError::AllDamaged(problems.iter().cloned().chain(more).collect())
        }
        e => e,
    })?;
    if let Some(cut) = &rebuilt.cut {
        notes.push(format!("{}: {cut}", journal_path.display()));
    }
    if let Some(parted) = &rebuilt.parted {
        notes.push(parted.to_string());
    }
    notes.push(format!(
        "rebuilt the run from {} ({})",
        journal_path.display(),
        rebuilt.checked_words()
    ));
    let checked = Some(rebuilt.checked_words());
    Ok(Recovered {
        run: rebuilt.run,
        source: Source::Journal,
        notes,
        passed_over: None,
        parted: rebuilt.parted,
        checked,
    })
}

/// A run rebuilt from a journal file.
#[derive(Debug)]
pub struct Rebuilt {
    /// The run at the end of the journal's intact blocks, or at its last
    /// checkpoint that agreed when a later one did not.
    pub run: Run,
    /// Actions replayed to reach `run`.
    pub actions: u64,
    /// What was cut off after the intact blocks, if anything.
    pub cut: Option<Cut>,
    /// The last point the replay was compared at and agreed with: actions
    /// and turn (the start's, 0 and 0, at least).
    pub checked_to: (u64, u64),
    /// Checkpoints compared, and how many the journal holds.
    pub compared: (usize, usize),
    /// When a block did not replay as recorded: what was wrong and what
    /// was left out. Everything before it is kept.
    pub parted: Option<Parted>,
}

/// Where a journal stopped replaying as recorded, and what a rebuild left
/// out because of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parted {
    /// The journal, to name.
    pub path: String,
    /// The turn of the last checkpoint that agreed: the run is kept to it.
    pub kept_to: u64,
    /// Actions after it, left out.
    pub left_out: u64,
    /// How the replay parted, in words.
    pub what: String,
    /// Whether it was only stopped for the work (what was left out is not
    /// known to be wrong), rather than found to differ.
    pub stopped: bool,
}

impl std::fmt::Display for Parted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}; kept the run to turn {} and left out the {} after it",
            self.path,
            self.what,
            self.kept_to,
            crate::words::count(self.left_out, "action", "actions")
        )
    }
}

impl Rebuilt {
    /// The same, its parting naming the journal at `path`.
    fn named(mut self, path: &Path) -> Rebuilt {
        if let Some(parted) = &mut self.parted {
            parted.path = path.display().to_string();
        }
        self
    }

    /// What the replay reached and how far it was checked, in words:
    /// "12,000 actions replayed to turn 12,000, checked at its 3
    /// checkpoints", and when actions follow the last checkpoint
    /// compared, that those were replayed unchecked.
    pub fn checked_words(&self) -> String {
        let (actions, turn) = self.checked_to;
        let mut words = format!(
            "{} replayed to turn {}, checked at {}",
            crate::words::count(self.actions, "action", "actions"),
            self.run.turn(),
            super::check::compared_words(self.compared.0, self.compared.1)
        );
        if actions < self.actions {
            words.push_str(&format!(
                " to turn {turn}; the last {} have no checkpoint and were replayed unchecked",
                crate::words::count(self.actions - actions, "action", "actions")
            ));
        }
        words
    }
}

/// Replays a decoded journal from its start, compared at its checkpoints
/// ([`super::check::spaced`]) and at `also` (the state of a save or
/// backup it should pass through), and keeps everything before a block
/// that does not replay as recorded. When checkpoints were passed over
/// between the last that agreed and the one that did not, they are
/// compared in a replay from the last that agreed (narrowing, as far as
/// the work allows), so the run is kept to the last checkpoint that
/// agrees, not only to the last compared. The error is what is wrong, for
/// the caller to put after the journal's name.
fn rebuild(
    journal: Journal,
    also: Option<Expected>,
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Result<Rebuilt, String> {
    let start = start_within(&journal.start, allowance)
        .map_err(|e| format!("its start cannot be generated: {e}"))?;
    let Some(start) = start else {
        return Err(unstarted(&journal.recording).to_string());
    };
    let mut expected = spaced(&journal.checkpoints);
    let compared_of = journal.checkpoints.len();
    // The journal's own points the replay agreed with, up to `actions`.
    let ours: Vec<u64> = expected.iter().map(|e| e.actions).collect();
    let agreed_to = |actions: u64| ours.iter().filter(|&&a| a <= actions).count();
    if let Some(also) = also {
        expected.push(also);
        expected.sort_by_key(|e| e.actions);
    }
    let checked = check(start, &journal.recording, &expected, allowance, progress);
    let Some(mut parting) = checked.parting else {
        let last = checked.last_agreed.map_or((0, 0), |p| (p.actions, p.turn));
        return Ok(Rebuilt {
            run: checked.run,
            actions: checked.actions,
            cut: journal.cut,
            checked_to: last,
            compared: (ours.len(), compared_of),
            parted: None,
        });
    };
    // A replay that parts from the journal's own checkpoints is not the
    // recorded run from there on (other rules, a forged or damaged
    // block): what came before it still is.
    let (Some(mut run), Some(mut last)) = (checked.before_parting, checked.last_agreed) else {
        return Err(match parting {
            Parting::TooMuchWork { .. } => parting.to_string(),
            _ => format!("does not replay as recorded: {parting}"),
        });
    };
    let mut compared = agreed_to(last.actions);
    // Checkpoints passed over before the parting: compared now, from the
    // run kept where the last one agreed, each round a closer look.
    loop {
        let bound = match &parting {
            Parting::Differs { expected, .. } => expected.actions,
            Parting::Refused { .. } => checked.actions + 1,
            Parting::TooMuchWork { .. } => break,
        };
        let between: Vec<_> = journal
            .checkpoints
            .iter()
            .filter(|c| c.actions > last.actions && c.actions < bound)
            .copied()
            .collect();
        let points = spaced(&between);
        let Some(until) = points.last().map(|p| p.actions) else {
            break;
        };
        let closer = check_between(
            (*run).clone(),
            &journal.recording,
            (last.actions, until),
            &points,
            allowance,
            progress,
        );
        compared += closer.agreed;
        if let Some(agreed) = closer.last_agreed {
            last = agreed;
            run = match closer.before_parting {
                Some(kept) => kept,
                None if closer.actions == agreed.actions => Box::new(closer.run),
                None => break,
            };
        }
        match closer.parting {
            Some(closer @ Parting::Differs { .. }) => parting = closer,
            _ => break,
        }
    }
    if also.is_some_and(|a| a.actions > last.actions) {
        return Err(format!("does not replay as recorded: {parting}"));
    }
    let what = match &parting {
        Parting::TooMuchWork { .. } => parting.to_string(),
        _ => format!(
            "does not replay as recorded after turn {}: {parting}",
            last.turn
        ),
    };
    let parted = Parted {
        path: String::new(),
        kept_to: last.turn,
        left_out: journal.recording.len() - last.actions,
        what,
        stopped: matches!(parting, Parting::TooMuchWork { .. }),
    };
    Ok(Rebuilt {
        run: *run,
        actions: last.actions,
        cut: journal.cut,
        checked_to: (last.actions, last.turn),
        compared: (compared, compared_of),
        parted: Some(parted),
    })
}

/// Replays the journal at `path` from its start to its last intact block,
/// checked against its checkpoints on the way: what `--load` does when the
/// save and its backup are unusable or absent, and what `delve verify`
/// does to a journal. A block that does not replay as recorded is left
/// out with everything after it ([`Rebuilt::parted`] says so). A journal
/// that is damaged beyond its start, whose start cannot be generated or
/// does not regenerate as recorded is [`RecoverError::AllDamaged`]; one
/// that cannot be read at all (not a plain file, a newer format, an IO
/// error) is [`RecoverError::Journal`].
pub fn replay_journal(
    path: &Path,
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Result<Rebuilt, RecoverError> {
    let journal = match read_file(path) {
        Ok(journal) => journal,
        Err(e @ (JournalError::Damaged { .. } | JournalError::NotAJournal(_))) => {
            return Err(RecoverError::AllDamaged(vec![e.to_string()]));
        }
        Err(e) => return Err(RecoverError::Journal(e)),
    };
    rebuild(journal, None, allowance, progress)
        .map(|rebuilt| rebuilt.named(path))
        .map_err(|what| RecoverError::AllDamaged(vec![format!("{}: {what}", path.display())]))
}

/// How a journal stands against a run loaded from a save or backup.
#[derive(Debug)]
pub enum Past {
    /// The journal holds the loaded run (the same start, its actions
    /// first) and more actions after them, and its replay agrees with its
    /// own checkpoints and passes through the loaded state: the run at the
    /// end of its intact blocks (or at its last checkpoint that agreed).
    Further(Box<Rebuilt>),
    /// The loaded run is as far as the journal can take it: no journal,
    /// one that holds no more than it, another run, or one whose further
    /// actions do not rebuild. What is worth saying about it, if anything
    /// (a journal that goes further but does not rebuild, one that cannot
    /// be read).
    NotFurther(Option<String>),
}

/// Whether the journal at `path` takes `loaded`'s run (a save's or a
/// backup's) further than it goes (see [`Past`]). Reads only. The work is
/// what a journal rebuild does anyway: the file decoded within
/// [`MAX_FILE`](crate::journal::MAX_FILE), and a replay only when it holds more actions than
/// the run, spending from `allowance` (the command's for the file).
pub fn journal_past(
    path: &Path,
    loaded: &Run,
    allowance: &mut Allowance,
    progress: &mut dyn FnMut(u64),
) -> Past {
    let Some(recording) = loaded.recording() else {
        // Saved before runs were recorded: nothing to tell the runs apart.
        return Past::NotFurther(None);
    };
    if !present(path) {
        return Past::NotFurther(None);
    }
    let journal = match read_file(path) {
        Ok(journal) => journal,
        Err(e) => {
            return Past::NotFurther(Some(format!("{e}; it is not used")));
        }
    };
    let more = match fit(&journal, &start_of(loaded), recording) {
        JournalFit::Longer(more) => more,
        JournalFit::Other => {
            return Past::NotFurther(Some(format!(
                "{} holds another run, or actions the save does not have: it is not used",
                path.display()
            )));
        }
        JournalFit::Same | JournalFit::Shorter(_) => return Past::NotFurther(None),
    };
    // Passing through the loaded state is what makes the journal's run the
    // loaded run, continued.
    let here = Expected {
        actions: recording.len(),
        turn: loaded.turn(),
        digest: loaded.digest(),
    };
    match rebuild(journal, Some(here), allowance, progress).map(|r| r.named(path)) {
        Ok(rebuilt) if rebuilt.actions > recording.len() => Past::Further(Box::new(rebuilt)),
        Ok(rebuilt) => Past::NotFurther(rebuilt.parted.map(|parted| {
            format!(
                "{} holds {} past the loaded state, but {}: it is not used",
                path.display(),
                crate::words::count(more, "action", "actions"),
                parted.what
            )
        })),
        Err(why) => Past::NotFurther(Some(format!(
            "{} holds {} past the loaded state, but {why}: it is not used",
            path.display(),
            crate::words::count(more, "action", "actions")
        ))),
    }
}

fn loading(path: &Path, summary: &Summary) -> String {
    format!(
        "loading the backup {} (turn {}, depth {})",
        path.display(),
        summary.turn,
        summary.depth
    )
}
