//! Where a problem in a RON data file sits, said the way a person editing
//! the file needs it: `file:line:column: field: problem`.
//!
//! Every data file (the config, the vault, monster and item lists, the
//! keymap) is read by `read_text` and parses through `parse`, which keeps
//! a `FieldIndex` of where each key was written so checks that run after
//! parsing can still point at a line, and turns ron's syntax errors into
//! the same shape. A leaf module: it knows RON and text, not what any file
//! means.
//!
//! Each concern is a child, re-exported here: `error` (`ConfigError`,
//! `Location`), `read` (`read_text`), `parse` (`parse`, ron's errors
//! located), `out_of_bounds` (a number too large for its type) and
//! `field_index` (the scanner, `FieldIndex`).

mod error;
mod field_index;
mod parse;
mod read;

pub use self::error::{ConfigError, Location, MAX_DATA_FILE_BYTES};
pub(crate) use self::field_index::{FieldIndex, after_comment};
pub(crate) use self::parse::parse;
pub(crate) use self::read::read_text;
