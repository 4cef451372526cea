//! The command line's one error type and its exit codes.

use delve::save::SaveError;
use delve::{ConfigError, GenerateError};

/// A failure and how the process should end because of it.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error("{path}: cannot write: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Save(#[from] SaveError),
    /// A damaged save whose backup is intact.
    #[error("{error}\n{note}")]
    DamagedWithBackup { error: SaveError, note: String },
    /// A saved run whose config cannot make a level it has not reached:
    /// it could never be finished, and its config cannot be changed.
    #[error(
        "{path}: the run cannot be continued: a level it has not reached cannot be made with \
         the config saved in it ({source}); start a new run with a config `delve generate` accepts"
    )]
    Unplayable { path: String, source: GenerateError },
    #[error("terminal: {0}")]
    Terminal(std::io::Error),
    #[error("{0}")]
    Declined(String),
    /// A save that was not loaded, and why.
    #[error("{0}")]
    NotLoaded(String),
    #[error("internal error (a bug in delve): {0}")]
    Internal(String),
    #[error("stopped by {0}")]
    Stopped(&'static str),
    #[error(transparent)]
    Journal(#[from] delve::journal::JournalError),
    #[error(transparent)]
    Recover(#[from] delve::journal::recover::RecoverError),
    /// A replay that does not agree with its run (already reported).
    #[error("the replay of {0} does not agree with its run")]
    Disagrees(String),
    /// A replay stopped for the work before its end (already reported).
    #[error(
        "the replay of {0} was stopped before its end, for the work: it is not known to be wrong, but was not checked to the end"
    )]
    Unchecked(String),
}

impl CliError {
    /// 0 ok, 1 runtime failure, 2 bad usage or bad input.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Unplayable { source, .. } | CliError::Generate(source) => {
                if source.is_bad_input() { 2 } else { 1 }
            }
            CliError::Usage(_) | CliError::Config(_) => 2,
            CliError::Write { .. }
            | CliError::Terminal(_)
            | CliError::Declined(_)
            | CliError::NotLoaded(_)
            | CliError::Internal(_)
            | CliError::Stopped(_) => 1,
            // A name that cannot be or is not there, no saves directory,
            // something that is not a save file in a save's place, or a
            // run that would replace another: bad input.
            CliError::Save(e) if e.is_bad_input() => 2,
            CliError::Save(_) => 1,
            CliError::DamagedWithBackup { .. } => 1,
            CliError::Journal(delve::journal::JournalError::NotRegular { .. }) => 2,
            CliError::Journal(_) | CliError::Disagrees(_) | CliError::Unchecked(_) => 1,
            CliError::Recover(e) if e.is_bad_input() => 2,
            CliError::Recover(_) => 1,
        }
    }
}
