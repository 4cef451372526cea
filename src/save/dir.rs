//! The saves directory: a run's save (`NAME.sav`), its backup
//! (`NAME.sav.bak`), its lock and its morgue file; saving atomically with
//! a backup that is always an earlier turn, loading with the backup
//! standing in for a damaged save, and listing what is there. Only ever
//! plain files, opened without following links.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::save::encoding::encode;
use crate::save::error::{SaveError, io_error, open_error};
use crate::save::format::HEADER_LEN;
use crate::save::guarded::{guarded, kind_of, sync_dir};
use crate::save::header::{Summary, check_frame, read_header};
use crate::save::read::{check_file, read_and_decode, read_save};
use crate::sim::Run;

/// One run in a directory listing: its save, its backup, or both.
#[derive(Debug)]
pub struct Listing {
    /// The save's name, without `.sav`.
    pub name: String,
    /// `NAME.sav`, unless only the backup is there.
    pub save: Option<Checked>,
    /// `NAME.sav.bak`, if there is one.
    pub backup: Option<Checked>,
}

/// A file checked the cheap way: its header and its body's length and
/// checksum, without decompressing or decoding anything.
#[derive(Debug)]
pub struct Checked {
    /// Bytes on disk.
    pub size: u64,
    /// The summary, or why the file is not an intact save.
    pub status: Result<Summary, SaveError>,
}

/// A directory of saves, named `NAME.sav`.
#[derive(Clone, Debug)]
pub struct SaveDir {
    dir: PathBuf,
}

/// A held lock on one save name; released on drop. Saving needs it, and
/// how it was taken says whether the save may replace what is there.
#[derive(Debug)]
pub struct SaveLock {
    name: String,
    /// Held open for as long as the lock is: closing it releases the lock.
    _file: File,
}

/// Whether a process id belongs to a running process (Linux's /proc;
/// elsewhere every pid counts as alive, so nothing is swept by mistake).
fn alive(pid: &str) -> bool {
    if cfg!(target_os = "linux") {
        !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && Path::new("/proc").join(pid).exists()
    } else {
        true
    }
}

/// Whether anything (a file, a link, a FIFO...) has this name; links are
/// not followed, so a dangling one counts.
fn present(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Refuses anything but a regular file, by metadata that was not read
/// through a link.
fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<(), SaveError> {
    if meta.file_type().is_file() {
        Ok(())
    } else {
        Err(SaveError::NotRegular {
            path: path.display().to_string(),
            kind: kind_of(meta),
        })
    }
}

/// What `NAME.sav` holds when a save is about to replace it.
enum Previous {
    None,
    /// An intact save at this turn.
    Intact {
        turn: u64,
    },
    /// Something that is not an intact save: kept aside, never deleted.
    Damaged,
}

impl SaveDir {
    /// The directory, created on demand; stale temporary files of dead
    /// processes are swept. For commands that write.
    pub fn open(dir: &Path) -> Result<SaveDir, SaveError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let save_dir = SaveDir {
            dir: dir.to_path_buf(),
        };
        save_dir.sweep();
        Ok(save_dir)
    }

    /// The directory as it is, for commands that only read: neither made
    /// nor swept.
    pub fn existing(dir: &Path) -> Result<SaveDir, SaveError> {
        match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => Ok(SaveDir {
                dir: dir.to_path_buf(),
            }),
            Ok(_) => Err(SaveError::NotADirectory(dir.display().to_string())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(SaveError::NoDirectory(dir.display().to_string()))
            }
            Err(e) => Err(io_error(dir)(e)),
        }
    }

    /// The directory the saves are in.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Removes `*.tmp.PID` files whose process is gone.
    fn sweep(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if let Some((_, pid)) = name.rsplit_once(".tmp.")
                && !alive(pid)
            {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Refuses a name that is not 1 to 64 letters, digits, '-' and '_'.
    pub fn check_name(name: &str) -> Result<(), SaveError> {
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(())
        } else {
            Err(SaveError::BadName(name.into()))
        }
    }

    /// Where the save NAME lives: `NAME.sav`; the name is not checked here.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav"))
    }

    /// Where the save NAME's previous version is kept: `NAME.sav.bak`.
    pub fn backup(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav.bak"))
    }

    /// Where NAME's morgue file goes: beside its save (DCSS's name).
    pub fn morgue(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.morgue.txt"))
    }

    /// Writes NAME's morgue file (the caller holds NAME's lock): through a
    /// temporary file and a rename, never through a link or onto anything
    /// but a regular file.
    pub fn write_morgue(
        &self,
        name: &str,
        text: &str,
        _lock: &SaveLock,
    ) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        let path = self.morgue(name);
        if let Ok(meta) = fs::symlink_metadata(&path) {
            check_regular(&path, &meta)?;
        }
        let tmp = self
            .dir
            .join(format!(".{name}.morgue.tmp.{}", std::process::id()));
        let mut file = guarded(OpenOptions::new().write(true).create_new(true))
            .open(&tmp)
            .map_err(open_error(&tmp))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(io_error(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_error(&path))?;
        Ok(path)
    }

    /// Whether NAME has a save or a backup (of any kind, links included).
    pub fn has(&self, name: &str) -> bool {
        present(&self.file(name)) || present(&self.backup(name))
    }

    /// Takes the lock for a save name: one process per save. The holder
    /// may load the save and save over it (continuing the run it holds).
    pub fn lock(&self, name: &str) -> Result<SaveLock, SaveError> {
        Self::check_name(name)?;
        // An advisory lock (flock) on a file that stays in place: the
        // kernel releases it when its holder exits however it exits, so a
        // lock is never stale, and never deleting the file means two
        // processes can never lock two different files under one name.
        let path = self.dir.join(format!(".{name}.lock"));
        // The file is written (the holder's pid): only a regular file of
        // our own, never through a link, never a file linked elsewhere.
        if let Ok(meta) = fs::symlink_metadata(&path) {
            check_regular(&path, &meta)?;
        }
        let mut file = guarded(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .open(&path)
        .map_err(open_error(&path))?;
        let meta = file.metadata().map_err(io_error(&path))?;
        check_regular(&path, &meta)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if meta.nlink() != 1 {
                return Err(SaveError::NotRegular {
                    path: path.display().to_string(),
                    kind: "a file with other hard links",
                });
            }
        }
        match file.try_lock() {
            Ok(()) => {
                // The holder's pid, for the message another process shows.
                let _ = file
                    .set_len(0)
                    .and_then(|()| write!(file, "{}", std::process::id()));
                Ok(SaveLock {
                    name: name.into(),
                    _file: file,
                })
            }
            Err(TryLockError::WouldBlock) => {
                use std::io::Read;
                let mut pid = String::new();
                let _ = (&file).take(32).read_to_string(&mut pid);
                let pid = pid.trim();
                Err(SaveError::Locked {
                    name: name.into(),
                    pid: if pid.is_empty() {
                        "(unknown)".into()
                    } else {
                        pid.into()
                    },
                    lock: path.display().to_string(),
                })
            }
            Err(TryLockError::Error(e)) => Err(io_error(&path)(e)),
        }
    }

    /// Takes the lock for a new run's save: a new run never replaces the
    /// save (or the lone backup) of another run unless `replace` says so.
    /// Continuing a run is [`SaveDir::lock`] and a load.
    pub fn lock_new(&self, name: &str, replace: bool) -> Result<SaveLock, SaveError> {
        let lock = self.lock(name)?;
        self.refuse_taken(name, replace)?;
        Ok(lock)
    }

    /// [`SaveDir::lock_new`]'s refusal without the lock: what a command
    /// checks before it makes or writes anything, so a refused one leaves
    /// no lock file behind. The lock taken afterwards checks again.
    pub fn refuse_taken(&self, name: &str, replace: bool) -> Result<(), SaveError> {
        Self::check_name(name)?;
        if !replace && self.has(name) {
            return Err(SaveError::Taken {
                name: name.into(),
                dir: self.dir.display().to_string(),
                holds: self.describe(name),
            });
        }
        Ok(())
    }

    /// Refuses a link, directory, FIFO or device at a path a session
    /// saving NAME writes: its save, backup and morgue, and `also` (its
    /// journal, which the journal module names). Checked before the name
    /// is locked and its journal opened, so a command that could not save
    /// in the end changes nothing on its way (a link at the backup once let
    /// a session replace another run's journal first).
    pub fn refuse_foreign(&self, name: &str, also: &[PathBuf]) -> Result<(), SaveError> {
        Self::check_name(name)?;
        let own = [self.file(name), self.backup(name), self.morgue(name)];
        for path in own.iter().chain(also) {
            if let Ok(meta) = fs::symlink_metadata(path) {
                check_regular(path, &meta)?;
            }
        }
        Ok(())
    }

    /// What NAME's save holds, in a few words, from its header.
    fn describe(&self, name: &str) -> String {
        let (path, what) = if present(&self.file(name)) {
            (self.file(name), "")
        } else {
            (self.backup(name), "only its backup: ")
        };
        match check_file(&path) {
            Ok(s) => format!(
                "{what}seed {}, depth {}, turn {}, {}",
                s.seed,
                s.depth,
                s.turn,
                s.outcome.name()
            ),
            Err(e) => format!("{what}{}", e.problem()),
        }
    }

    /// Saves atomically, and keeps the save before as `NAME.sav.bak`.
    ///
    /// The new bytes go to a temporary file that is synced; the current
    /// save, if it is an intact save of an earlier turn, gets a second
    /// name (a hard link); the temporary file is renamed over `NAME.sav`;
    /// the second name is renamed over the backup; the directory is
    /// synced. So at every moment `NAME.sav` is a complete save, old or
    /// new, and the backup is an earlier turn than it, or as it was. A
    /// save that holds exactly this run already is left as it is (nothing
    /// is written), so saving twice at one turn keeps the older backup. A
    /// damaged `NAME.sav` is kept aside as `NAME.sav.damaged-N`. Links,
    /// FIFOs and the like are never written through.
    pub fn save(
        &self,
        name: &str,
        run: &Run,
        saved_at: u64,
        lock: &SaveLock,
    ) -> Result<PathBuf, SaveError> {
        self.save_observed(name, run, saved_at, lock, &mut |_| {})
    }

    /// [`SaveDir::save`], calling `observe` after each step that changes
    /// the directory, with the step's name: for tests that check every
    /// state a kill could leave.
    #[doc(hidden)]
    pub fn save_observed(
        &self,
        name: &str,
        run: &Run,
        saved_at: u64,
        lock: &SaveLock,
        observe: &mut dyn FnMut(&str),
    ) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        assert_eq!(lock.name, name, "saving needs the lock of the name saved");
        let bytes = encode(run, saved_at);
        let target = self.file(name);
        let backup = self.backup(name);
        let pid = std::process::id();
        let tmp = self.dir.join(format!(".{name}.sav.tmp.{pid}"));
        let kept = self.dir.join(format!(".{name}.sav.old.tmp.{pid}"));

        let previous = match fs::symlink_metadata(&target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Previous::None,
            Err(e) => return Err(io_error(&target)(e)),
            Ok(_) => match read_save(&target) {
                Ok(old) => {
                    let name = target.display().to_string();
                    match read_header(&old, &name).and_then(|h| {
                        check_frame(&h, (old.len() - HEADER_LEN) as u64, &name)?;
                        Ok(h)
                    }) {
                        Ok(h) if crc32fast::hash(&old[HEADER_LEN..]) == h.body_crc => {
                            if old[HEADER_LEN..] == bytes[HEADER_LEN..] {
                                // This very run, already saved.
                                return Ok(target);
                            }
                            Previous::Intact {
                                turn: h.summary.turn,
                            }
                        }
                        Ok(_) => Previous::Damaged,
                        Err(e) if e.is_damage() => Previous::Damaged,
                        Err(e) => return Err(e),
                    }
                }
                Err(e) if e.is_damage() => Previous::Damaged,
                Err(e) => return Err(e),
            },
        };
        let keep = matches!(previous, Previous::Intact { turn } if turn < run.turn());
        // A link, directory, FIFO or device where the backup goes is
        // refused like one anywhere else in the directory, before anything
        // is written: renaming over it would replace what someone put there
        // (and onto a directory, fail after the new save is in place).
        if let Ok(meta) = fs::symlink_metadata(&backup)
            && !meta.file_type().is_file()
        {
            return Err(SaveError::NotRegular {
                path: backup.display().to_string(),
                kind: kind_of(&meta),
            });
        }

        let result = (|| {
            // 1. The new save, complete and synced, under a temporary name
            // (a leftover of a dead process with our pid, or a planted
            // link, is removed, never followed).
            let _ = fs::remove_file(&tmp);
            let mut f = guarded(OpenOptions::new().write(true).create_new(true))
                .open(&tmp)
                .map_err(open_error(&tmp))?;
            f.write_all(&bytes).map_err(io_error(&tmp))?;
            f.sync_all().map_err(io_error(&tmp))?;
            drop(f);
            observe("wrote the new save under a temporary name");
            // 2. The current save under a second name: the backup to be, or
            // a damaged file kept aside.
            match previous {
                Previous::Intact { .. } if keep => {
                    let _ = fs::remove_file(&kept);
                    second_name(&target, &kept)?;
                    observe("linked the current save to a temporary name");
                }
                Previous::Damaged => {
                    second_name(&target, &self.aside_name(name))?;
                    observe("kept the damaged save aside");
                }
                _ => {}
            }
            // 3. The new save in place.
            fs::rename(&tmp, &target).map_err(io_error(&target))?;
            observe("renamed the new save into place");
            // 4. The save before over the backup.
            if keep {
                fs::rename(&kept, &backup).map_err(io_error(&backup))?;
                observe("renamed the save before over the backup");
            }
            sync_dir(&self.dir).map_err(io_error(&self.dir))?;
            Ok(target.clone())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
            let _ = fs::remove_file(&kept);
        }
        result
    }

    /// Loads `NAME.sav`. If it is damaged, it is renamed aside (never
    /// deleted) and the backup is loaded instead; the returned warning says
    /// so. A save from a newer format is refused and left untouched, and
    /// so is anything that is not a regular file.
    pub fn load(&self, name: &str) -> Result<(Run, Summary, Option<String>), SaveError> {
        Self::check_name(name)?;
        let path = self.file(name);
        let backup = self.backup(name);
        if !present(&path) {
            if !present(&backup) {
                return Err(SaveError::Missing {
                    name: name.into(),
                    dir: self.dir.display().to_string(),
                });
            }
            let (run, summary) = read_and_decode(&backup)?;
            let warning = format!(
                "{} is missing; loaded the backup {} (turn {})",
                path.display(),
                backup.display(),
                summary.turn
            );
            return Ok((run, summary, Some(warning)));
        }
        match read_and_decode(&path) {
            Ok((run, summary)) => Ok((run, summary, None)),
            Err(e) if e.is_damage() => {
                // Only set the damaged file aside when there is a backup to
                // use instead; otherwise it stays where the player left it.
                let Ok((run, summary)) = read_and_decode(&backup) else {
                    return Err(e);
                };
                let aside = self.aside_name(name);
                fs::rename(&path, &aside).map_err(io_error(&path))?;
                let warning = format!(
                    "{e}; kept it as {} and loaded the backup {} (turn {})",
                    aside.display(),
                    backup.display(),
                    summary.turn
                );
                Ok((run, summary, Some(warning)))
            }
            Err(e) => Err(e),
        }
    }

    /// Sets the damaged `NAME.sav` aside as `NAME.sav.damaged-N` (never
    /// deleted), as [`SaveDir::load`] does when it loads the backup: for a
    /// caller that read the files itself (`journal::recover::read_run`)
    /// and loads the backup. The caller holds NAME's lock and found the
    /// save damaged. Returns the name the file now has.
    pub fn set_damaged_aside(&self, name: &str, lock: &SaveLock) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        assert_eq!(lock.name, name, "setting a save aside needs its lock");
        let path = self.file(name);
        let aside = self.aside_name(name);
        fs::rename(&path, &aside).map_err(io_error(&path))?;
        Ok(aside)
    }

    fn aside_name(&self, name: &str) -> PathBuf {
        (1..)
            .map(|n| self.dir.join(format!("{name}.sav.damaged-{n}")))
            .find(|p| !present(p))
            .expect("some name is free")
    }

    /// Every run in the directory (a `NAME.sav`, a `NAME.sav.bak`, or
    /// both), sorted by name, each file checked the cheap way
    /// ([`check_file`]): headers and checksums, no decoding.
    pub fn list(&self) -> Result<Vec<Listing>, SaveError> {
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir)
            .map_err(io_error(&self.dir))?
            .flatten()
        {
            let file = entry.file_name().to_string_lossy().to_string();
            let Some(name) = file
                .strip_suffix(".sav")
                .or_else(|| file.strip_suffix(".sav.bak"))
            else {
                continue;
            };
            if !name.starts_with('.') {
                names.push(name.to_string());
            }
        }
        names.sort();
        names.dedup();
        let checked = |path: PathBuf| {
            let size = fs::symlink_metadata(&path).ok()?.len();
            Some(Checked {
                size,
                status: check_file(&path),
            })
        };
        Ok(names
            .into_iter()
            .map(|name| Listing {
                save: checked(self.file(&name)),
                backup: checked(self.backup(&name)),
                name,
            })
            .collect())
    }
}

/// A second name for an existing file: a hard link, or where the file
/// system has none, a copy (written only to a new file, never through a
/// link).
fn second_name(from: &Path, to: &Path) -> Result<(), SaveError> {
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let bytes = read_save(from)?;
    let mut f = guarded(OpenOptions::new().write(true).create_new(true))
        .open(to)
        .map_err(open_error(to))?;
    f.write_all(&bytes).map_err(io_error(to))?;
    f.sync_all().map_err(io_error(to))
}
