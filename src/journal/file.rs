//! Journal files: read by the save module's guarded reader, under the
//! saves directory's rules (only a regular file, never through a link,
//! never one larger than a journal can be), and written append-only, a
//! block at a time, each synced.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::save::guarded::{self, Access, Refused, guarded, kind_of, sync_dir};
use crate::sim::record::Recording;

use super::actions::blocks_of;
use super::block::{Checkpoint, MAX_FILE, file_header};
use super::encoding::{Journal, claimed_after_cut, decode, encode};
use super::error::JournalError;
use super::start::{Start, start_block};
use super::summary::{Summary, summarise};

/// Where NAME's journal lives in a saves directory.
pub fn journal_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}.journal"))
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> JournalError + '_ {
    move |source| JournalError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn open_error(path: &Path) -> impl FnOnce(io::Error) -> JournalError + '_ {
    move |e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return JournalError::NotRegular {
                path: path.display().to_string(),
                kind: "a symbolic link",
            };
        }
        if e.kind() == io::ErrorKind::NotFound {
            return JournalError::Missing(path.display().to_string());
        }
        io_error(path)(e)
    }
}

/// A refusal of the guarded reader (the one saves are read by) as a
/// [`JournalError`]: a journal that is not there is `Missing`.
fn refused(path: &Path) -> impl FnOnce(Refused) -> JournalError + '_ {
    move |refusal| match refusal {
        Refused::Stat(e) | Refused::Open(e) => open_error(path)(e),
        Refused::Read(e) => io_error(path)(e),
        Refused::NotRegular(kind) => JournalError::NotRegular {
            path: path.display().to_string(),
            kind,
        },
        Refused::TooLarge(size) => JournalError::TooLarge {
            path: path.display().to_string(),
            size,
        },
    }
}

/// Reads and decodes a journal file: only a regular file, never through a
/// link, never one larger than a journal can be.
pub fn read_file(path: &Path) -> Result<Journal, JournalError> {
    let bytes = guarded::read(path, MAX_FILE).map_err(refused(path))?;
    decode(&bytes, &path.display().to_string())
}

/// Reads a journal file the cheap way ([`summarise`]), with
/// [`read_file`]'s checks.
pub fn read_summary(path: &Path) -> Result<Summary, JournalError> {
    let bytes = guarded::read(path, MAX_FILE).map_err(refused(path))?;
    summarise(&bytes, &path.display().to_string())
}

/// An open journal, appended to a block at a time. A run's actions are
/// recorded in memory as it plays (`Run`'s recording); [`append`] writes
/// those not yet written and syncs them.
///
/// [`append`]: JournalWriter::append
#[derive(Debug)]
pub struct JournalWriter {
    path: PathBuf,
    file: File,
    /// Bytes of intact blocks in the file: where the next block goes.
    len: u64,
    /// Actions the file holds.
    written: u64,
}

impl JournalWriter {
    /// Starts a new journal at `path` for a run that begins with `start`
    /// (its digest `digest`), replacing any journal there: it is written
    /// complete under a temporary name, synced, and renamed into place, so
    /// `path` always holds a whole journal, the old or the new.
    pub fn create(path: &Path, start: &Start, digest: u64) -> Result<JournalWriter, JournalError> {
        let mut bytes = file_header().to_vec();
        bytes.extend_from_slice(&start_block(start, digest));
        Self::replace(path, &bytes, 0)
    }

    /// Writes `bytes` (a whole journal holding `written` actions) to `path`
    /// the safe way and keeps it open for appending.
    fn replace(path: &Path, bytes: &[u8], written: u64) -> Result<JournalWriter, JournalError> {
        if let Ok(meta) = fs::symlink_metadata(path)
            && !meta.file_type().is_file()
        {
            // Never replace what delve did not make (a directory, a FIFO, a
            // link someone planted): say so instead.
            return Err(JournalError::NotRegular {
                path: path.display().to_string(),
                kind: kind_of(&meta),
            });
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
        let _ = fs::remove_file(&tmp);
        let result = (|| {
            let mut file = guarded(OpenOptions::new().read(true).write(true).create_new(true))
                .open(&tmp)
                .map_err(open_error(&tmp))?;
            file.write_all(bytes).map_err(io_error(&tmp))?;
            file.sync_all().map_err(io_error(&tmp))?;
            fs::rename(&tmp, path).map_err(io_error(path))?;
            sync_dir(dir).map_err(io_error(dir))?;
            Ok(file)
        })();
        match result {
            Ok(file) => Ok(JournalWriter {
                path: path.to_path_buf(),
                file,
                len: bytes.len() as u64,
                written,
            }),
            Err(e) => {
                let _ = fs::remove_file(&tmp);
                Err(e)
            }
        }
    }

    /// Opens the journal at `path` to go on recording a run that began with
    /// `start` (digest `digest`) and holds `recording`, now at checkpoint
    /// `now`. A journal whose start is this run's and whose actions begin
    /// the recording is kept and appended to (a torn or damaged tail cut
    /// off first); anything else that is a journal, or no journal at all,
    /// is replaced by one rebuilt from the recording. Returns the writer
    /// and, when the file was not simply continued, what was done and why.
    pub fn resume(
        path: &Path,
        start: &Start,
        digest: u64,
        recording: &Recording,
        now: Checkpoint,
    ) -> Result<(JournalWriter, Option<String>), JournalError> {
        let rebuild = |why: String| -> Result<(JournalWriter, Option<String>), JournalError> {
            let bytes = encode(start, digest, recording, now);
            let writer = Self::replace(path, &bytes, recording.len())?;
            Ok((writer, Some(why)))
        };
        // A journal holding actions the loaded state lacks is never cut or
        // written over: it is renamed aside and a new one begun, and `say`
        // tells the player where it went.
        let set_aside = |file: File,
                         say: &dyn Fn(&Path) -> String|
         -> Result<(JournalWriter, Option<String>), JournalError> {
            drop(file);
            let kept = keep_aside(path, "ahead")?;
            let (writer, _) = rebuild(String::new())?;
            Ok((writer, Some(say(&kept))))
        };
        // Opened for appending, so a file with other hard links is refused.
        let opened = guarded::open(path, Access::ReadWrite, MAX_FILE).map_err(refused(path));
        let (mut file, size) = match opened {
            Ok(opened) => opened,
            Err(JournalError::Missing(_)) => {
                return rebuild(format!(
                    "{} was missing; rebuilt it from the save",
                    path.display()
                ));
            }
            Err(e) => return Err(e),
        };
        let copy = file.try_clone().map_err(io_error(path))?;
        let bytes = guarded::read_to_end(copy, size, MAX_FILE).map_err(refused(path))?;
        let journal = match decode(&bytes, &path.display().to_string()) {
            Ok(journal) => journal,
            Err(
                e @ (JournalError::NewerFormat { .. }
                | JournalError::NewerRevision { .. }
                | JournalError::Io { .. }),
            ) => return Err(e),
            Err(e) => return rebuild(format!("{e}; rebuilt it from the save")),
        };
        if journal.start == *start
            && recording.is_prefix_of(&journal.recording)
            && journal.recording.len() > recording.len()
        {
            // The journal goes further than the state loaded (an older
            // backup was loaded, say): never lose those actions. The file
            // is kept beside the new journal, under a name of its own.
            return set_aside(file, &|kept| {
                format!(
                    "{} holds {} past the loaded state (turn {}); kept it as {} (renamed \
                     OTHER.journal, `--load OTHER` rebuilds the run it holds) and began a new \
                     journal from the loaded state",
                    path.display(),
                    crate::words::count(
                        journal.recording.len() - recording.len(),
                        "action",
                        "actions"
                    ),
                    now.turn,
                    kept.display()
                )
            });
        }
        if let Some(cut) = &journal.cut
            && journal.start == *start
            && journal.recording.is_prefix_of(recording)
            && claimed_after_cut(&bytes, cut).is_some_and(|end| end > recording.len())
        {
            // Damaged before the loaded state's end, with intact blocks
            // after the damage that go past it: their actions cannot be
            // replayed, but cutting the file would destroy them. Kept
            // aside too, for whoever can mend it.
            return set_aside(file, &|kept| {
                format!(
                    "{}: {cut}; blocks after the damage hold actions past the loaded state (turn {}), \
                     which cannot be replayed past it: kept the file as {} and began a new journal \
                     from the loaded state",
                    path.display(),
                    now.turn,
                    kept.display()
                )
            });
        }
        if journal.start != *start || !journal.recording.is_prefix_of(recording) {
            return rebuild(format!(
                "{} holds a different run, or one the save does not continue; rebuilt it from the save",
                path.display()
            ));
        }
        if journal.checkpoints.first().map(|c| c.digest) != Some(digest) {
            // Its start is not the run's start as the save records it: its
            // actions would replay from another state and never rebuild it.
            return rebuild(format!(
                "{} begins from a start digest the save's recording does not have; rebuilt it from the save",
                path.display()
            ));
        }
        let mut note = journal
            .cut
            .as_ref()
            .map(|cut| format!("{}: {cut}", path.display()));
        let mut keep = (journal.intact_len, journal.recording.len());
        // Its last checkpoint at the loaded state's own last action is the
        // one point of it a load can compare without a replay: a block
        // there that disagrees with the state is cut and written again, so
        // the journal never goes on from a checkpoint that would stop a
        // rebuild.
        if let (Some(last), Some((offset, before))) =
            (journal.checkpoints.last(), journal.last_block)
            && last.actions == now.actions
            && last.actions == journal.recording.len()
            && (last.turn, last.digest) != (now.turn, now.digest)
        {
            note = Some(format!(
                "{}: its last block ends at turn {} with digest {:016x}, where the save is at turn {} with digest {:016x}; wrote that block again from the save",
                path.display(),
                last.turn,
                last.digest,
                now.turn,
                now.digest
            ));
            keep = (offset, before);
        }
        if keep.0 < size {
            file.set_len(keep.0).map_err(io_error(path))?;
        }
        file.seek(SeekFrom::Start(keep.0)).map_err(io_error(path))?;
        let mut writer = JournalWriter {
            path: path.to_path_buf(),
            file,
            len: keep.0,
            written: keep.1,
        };
        if writer.written < recording.len() {
            writer.append(recording, now)?;
        }
        Ok((writer, note))
    }

    /// The journal file, to name in messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Actions the file holds.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Appends the actions of `recording` the file does not hold yet, as
    /// blocks ending at checkpoint `now`, and syncs them. Nothing is
    /// written if there are none. A failed write is cut back off, so the
    /// file stays a run of intact blocks.
    pub fn append(&mut self, recording: &Recording, now: Checkpoint) -> Result<(), JournalError> {
        if recording.len() == self.written {
            return Ok(());
        }
        debug_assert_eq!(now.actions, recording.len());
        let bytes = blocks_of(&recording.runs_from(self.written), self.written, Some(now));
        self.write_block(&bytes, recording.len())
    }

    /// [`JournalWriter::append`] without a checkpoint: for appends that
    /// only keep the unwritten part small, where a digest would cost more
    /// than it tells.
    pub fn append_unchecked(&mut self, recording: &Recording) -> Result<(), JournalError> {
        if recording.len() == self.written {
            return Ok(());
        }
        let bytes = blocks_of(&recording.runs_from(self.written), self.written, None);
        self.write_block(&bytes, recording.len())
    }

    fn write_block(&mut self, bytes: &[u8], written: u64) -> Result<(), JournalError> {
        let result = (|| {
            self.file.seek(SeekFrom::Start(self.len))?;
            self.file.write_all(bytes)?;
            self.file.sync_data()
        })();
        match result {
            Ok(()) => {
                self.len += bytes.len() as u64;
                self.written = written;
                Ok(())
            }
            Err(e) => {
                let _ = self.file.set_len(self.len);
                Err(io_error(&self.path)(e))
            }
        }
    }
}

/// Renames the journal at `path` to `NAME.journal.ahead-N` (the first free
/// N), so a new journal can take its place without losing it.
pub(crate) fn keep_aside(path: &Path, why: &str) -> Result<std::path::PathBuf, JournalError> {
    let base = path.as_os_str().to_os_string();
    for n in 1..1000 {
        let mut name = base.clone();
        name.push(format!(".{why}-{n}"));
        let kept = std::path::PathBuf::from(name);
        if fs::symlink_metadata(&kept).is_err() {
            fs::rename(path, &kept).map_err(io_error(path))?;
            return Ok(kept);
        }
    }
    Err(JournalError::Io {
        path: path.display().to_string(),
        source: std::io::Error::other("999 journals kept aside already"),
    })
}
