//! `SaveError`, every way reading or writing a save can fail, and the
//! helpers that turn the file system's errors into it.

use std::io;
use std::path::Path;

use crate::save::format::{FORMAT_VERSION, MAX_FILE};
use crate::save::guarded::Refused;

/// Why a save could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file system refused a read, write, rename or lock.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory the operation was on.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file does not start with the save magic; the path is given.
    #[error("{0}: not a delve save")]
    NotASave(String),
    /// Written by a later delve; the file is not touched, so that delve can still load it.
    #[error(
        "{path}: made by a newer delve (save format {found}, this build reads up to {FORMAT_VERSION}); it is left untouched"
    )]
    NewerFormat {
        /// The save's path.
        path: String,
        /// The format version in its header.
        found: u16,
    },
    /// Made and played by a newer delve's generator or rules (in a format
    /// this build reads): its levels or game cannot be carried on here.
    /// The file is not touched.
    #[error(
        "{path}: made by a newer delve ({what} revision {found}; this build makes {what} revisions 1 to {newest}); it is left untouched"
    )]
    NewerRevision {
        /// The save's path.
        path: String,
        /// "generator" or "rules".
        what: &'static str,
        /// The revision the run records.
        found: u16,
        /// The newest this build makes.
        newest: u16,
    },
    /// The file ends before its header or body does; the path is given.
    #[error("{0}: truncated")]
    Truncated(String),
    /// A checksum or a length in the file is wrong: the bytes changed after they were written.
    #[error("{path}: damaged ({what})")]
    Damaged {
        /// The save's path.
        path: String,
        /// Which check failed, in a few words.
        what: String,
    },
    /// The bytes are intact but do not decode to a run delve could use.
    #[error("{path}: inconsistent state: {what}")]
    Inconsistent {
        /// The save's path.
        path: String,
        /// What does not fit, in a few words.
        what: String,
    },
    /// Another process holds the save's lock file.
    #[error("save {name} is in use by process {pid} (lock file {lock})")]
    Locked {
        /// The save's name.
        name: String,
        /// The holder's process id as its lock file gives it, or "(unknown)".
        pid: String,
        /// The lock file's path.
        lock: String,
    },
    /// The save name is not 1 to 64 letters, digits, '-' and '_'; the name is given.
    #[error("{0:?} is not a usable save name: use 1 to 64 letters, digits, '-' and '_'")]
    BadName(String),
    /// Neither the save nor its backup exists.
    #[error("no save named {name} in {dir} (`delve saves` lists them)")]
    Missing {
        /// The name asked for.
        name: String,
        /// The saves directory looked in.
        dir: String,
    },
    /// Something delve did not make where a save, its backup, a lock or a
    /// temporary file goes: it is neither read nor written through.
    #[error("{path}: refused: {kind}, not a plain file")]
    NotRegular {
        /// The path refused.
        path: String,
        /// What is there instead, such as "a symbolic link".
        kind: &'static str,
    },
    /// Larger than [`MAX_FILE`]: refused before a byte is read.
    #[error("{path}: too large to be a save ({size} bytes; a save is at most {MAX_FILE})")]
    TooLarge {
        /// The file's path.
        path: String,
        /// Its size in bytes.
        size: u64,
    },
    /// The saves directory is missing; the path is given.
    #[error("the saves directory {0} does not exist (the first save makes it)")]
    NoDirectory(String),
    /// The saves path exists but is not a directory; the path is given.
    #[error("the saves directory {0} is not a directory")]
    NotADirectory(String),
    /// A new run would replace the save of another.
    #[error(
        "a save named {name} already exists in {dir} ({holds}); continue it with --load {name}, start the new run under another name, or replace it with --replace"
    )]
    Taken {
        /// The name the new run asked for.
        name: String,
        /// The saves directory.
        dir: String,
        /// What the existing save holds, in a few words.
        holds: String,
    },
}

impl SaveError {
    /// Whether the file is damaged in a way a backup can stand in for.
    pub fn is_damage(&self) -> bool {
        matches!(
            self,
            SaveError::NotASave(_)
                | SaveError::Truncated(_)
                | SaveError::Damaged { .. }
                | SaveError::Inconsistent { .. }
                | SaveError::TooLarge { .. }
        )
    }

    /// Whether the error is about what the user asked for rather than a
    /// failure on the way: a name that is not usable or not there, a saves
    /// directory that is not there, something that is not a save file in
    /// a save's place, or a run that would replace another.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            SaveError::BadName(_)
                | SaveError::Missing { .. }
                | SaveError::NotRegular { .. }
                | SaveError::NoDirectory(_)
                | SaveError::NotADirectory(_)
                | SaveError::Taken { .. }
        )
    }

    /// The file the error is about, if it is about one.
    pub fn path(&self) -> Option<&str> {
        match self {
            SaveError::Io { path, .. }
            | SaveError::NewerFormat { path, .. }
            | SaveError::NewerRevision { path, .. }
            | SaveError::Damaged { path, .. }
            | SaveError::Inconsistent { path, .. }
            | SaveError::NotRegular { path, .. }
            | SaveError::TooLarge { path, .. } => Some(path),
            SaveError::NotASave(path) | SaveError::Truncated(path) => Some(path),
            _ => None,
        }
    }

    /// The message without the file's path in front, for a listing that
    /// already shows which file a line is about.
    pub fn problem(&self) -> String {
        let message = self.to_string();
        self.path()
            .and_then(|path| message.strip_prefix(path))
            .and_then(|rest| rest.strip_prefix(": "))
            .map_or_else(|| message.clone(), str::to_string)
    }
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> SaveError + '_ {
    move |source| SaveError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// An open error, naming a link that appeared where a file was expected
/// (between the check and the open) as such.
pub(super) fn open_error(path: &Path) -> impl FnOnce(io::Error) -> SaveError + '_ {
    move |e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return SaveError::NotRegular {
                path: path.display().to_string(),
                kind: "a symbolic link",
            };
        }
        io_error(path)(e)
    }
}

/// The guarded reader's refusal of a save file as a [`SaveError`].
pub(super) fn refused(path: &Path) -> impl FnOnce(Refused) -> SaveError + '_ {
    move |refusal| match refusal {
        Refused::Stat(e) | Refused::Open(e) | Refused::Read(e) => io_error(path)(e),
        Refused::NotRegular(kind) => SaveError::NotRegular {
            path: path.display().to_string(),
            kind,
        },
        Refused::TooLarge(size) => SaveError::TooLarge {
            path: path.display().to_string(),
            size,
        },
    }
}
