//! `JournalError`: why a journal cannot be used at all (a damaged block
//! after the start is a [`Cut`](crate::journal::Cut), not an error).

use super::block::{MAX_FILE, VERSION};

/// Why a journal cannot be used at all.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The journal file.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`](crate::journal::MAGIC): something else is in the
    /// journal's place, and it is never overwritten as if it were one.
    #[error("{0}: not a delve journal")]
    NotAJournal(String),
    /// A journal a later delve wrote: left alone rather than cut or
    /// rewritten by a build that cannot read it.
    #[error(
        "{path}: made by a newer delve (journal format {found}, this build reads up to {VERSION}); it is left untouched"
    )]
    NewerFormat {
        /// The journal file.
        path: String,
        /// The format number in its header.
        found: u16,
    },
    /// Recorded under a newer delve's generator or rules (in a format this
    /// build reads): replaying it here would make other levels or another
    /// game, so it is refused by name and left untouched.
    #[error(
        "{path}: recorded by a newer delve ({what} revision {found}; this build makes {what} revisions 1 to {newest}), so it cannot be replayed here; it is left untouched"
    )]
    NewerRevision {
        /// The journal file.
        path: String,
        /// "generator" or "rules".
        what: &'static str,
        /// The revision its start records.
        found: u16,
        /// The newest this build makes.
        newest: u16,
    },
    /// The header or the start block is damaged: with no start, no block
    /// after it can be replayed.
    #[error("{path}: damaged ({what})")]
    Damaged {
        /// The journal file.
        path: String,
        /// What is wrong, for the user.
        what: String,
    },
    /// A link, FIFO, device or directory in the journal's place: refused
    /// before it is opened, as the saves directory's rules say.
    #[error("{path}: refused: {kind}, not a plain file")]
    NotRegular {
        /// The journal's path.
        path: String,
        /// What is there instead, in a few words.
        kind: &'static str,
    },
    /// Larger than [`MAX_FILE`]: refused before a byte is read.
    #[error("{path}: too large to be a journal ({size} bytes; a journal is at most {MAX_FILE})")]
    TooLarge {
        /// The journal file.
        path: String,
        /// Its size in bytes.
        size: u64,
    },
    /// No file at the journal's path.
    #[error("no journal {0}")]
    Missing(String),
}

impl JournalError {
    /// The message without the file's path in front, for a listing or a
    /// message that already names the file.
    pub fn problem(&self) -> String {
        let message = self.to_string();
        let path = match self {
            JournalError::Io { path, .. }
            | JournalError::NewerFormat { path, .. }
            | JournalError::NewerRevision { path, .. }
            | JournalError::Damaged { path, .. }
            | JournalError::NotRegular { path, .. }
            | JournalError::TooLarge { path, .. }
            | JournalError::NotAJournal(path) => path,
            JournalError::Missing(_) => return message,
        };
        message
            .strip_prefix(path.as_str())
            .and_then(|rest| rest.strip_prefix(": "))
            .map_or_else(|| message.clone(), str::to_string)
    }
}
