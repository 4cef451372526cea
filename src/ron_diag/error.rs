//! The error every data file reports, and how it reads: a person editing
//! a file needs `file:line:column: field: problem`, and a value that may
//! be megabytes long must not bury that, so long values are cut here, in
//! the one place every message is written.

use std::fmt;

/// The most bytes a data file may hold. The largest shipped file is a few
/// kilobytes, and each list in a file has a cap of its own; without this
/// one a file of gigabytes would be read whole and parsed before any cap
/// could refuse it. Eight megabytes still hold two vaults of the largest
/// level's size.
pub const MAX_DATA_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Where a configuration came from and where in it a problem sits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file's path as given, or another name for text that came from elsewhere.
    pub origin: String,
    /// Line, counted from 1.
    pub line: usize,
    /// Column in characters, counted from 1.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.origin, self.line, self.column)
    }
}

/// A configuration that could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The path as given.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file is larger than a data file may be
    /// ([`MAX_DATA_FILE_BYTES`](crate::config::MAX_DATA_FILE_BYTES)); it was not parsed.
    #[error(
        "{path}: the file is {}; a data file may be at most {MAX_DATA_FILE_BYTES} ({} MiB)",
        bytes.map_or_else(|| format!("more than {MAX_DATA_FILE_BYTES} bytes"), |b| format!("{b} bytes")),
        MAX_DATA_FILE_BYTES >> 20
    )]
    TooLarge {
        /// The path as given.
        path: String,
        /// Its size, when the file said (a pipe does not).
        bytes: Option<u64>,
    },
    /// The text is not RON, or does not have the shape of a config.
    #[error("{location}: {}{}", field_prefix(field), cut_long_values(message))]
    Syntax {
        /// Where the parser stopped.
        location: Location,
        /// The dotted path of the field being read, when known.
        field: Option<String>,
        /// What the parser objected to; long quoted values are cut short when shown.
        message: String,
    },
    /// The text parsed but a value makes no sense.
    #[error("{location}: {}: {}", cut_long_values(field), cut_long_values(message))]
    Invalid {
        /// Where the field at fault is written (or would be).
        location: Location,
        /// Dotted path of the field, such as `rooms.count.min`.
        field: String,
        /// What is wrong, worded for the person editing the file.
        message: String,
    },
}

fn field_prefix(field: &Option<String>) -> String {
    field
        .as_ref()
        .map(|f| format!("{}: ", cut_long_values(f)))
        .unwrap_or_default()
}

/// Characters of a long value an error keeps.
const KEPT_CHARS: usize = 32;
/// A quoted value longer than this is cut in errors.
const LONG_QUOTED: usize = 48;
/// A word (a run without spaces) longer than this is cut in errors.
const LONG_WORD: usize = 64;

/// An error message with each long value in it cut short: a value in quotes
/// or backticks, or any long word (an unknown field's name, a number), keeps
/// its first characters and says how long it was. A file can hold a value
/// of any size, and echoing 200 KB of it buries the message.
fn cut_long_values(message: &str) -> String {
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len().min(1024));
    let mut i = 0;
    let cut = |out: &mut String, value: &[char]| {
        if value.len() > LONG_QUOTED {
            out.extend(&value[..KEPT_CHARS]);
            out.push('…');
        } else {
            out.extend(value);
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '"' || c == '`' {
            // Up to the closing quote (escapes skipped), or the end.
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let value = &chars[i + 1..j.min(chars.len())];
            out.push(c);
            cut(&mut out, value);
            if j < chars.len() {
                out.push(c);
            }
            if value.len() > LONG_QUOTED {
                out.push_str(&format!(" ({} characters)", value.len()));
            }
            i = j + 1;
        } else if !c.is_whitespace() {
            let mut j = i;
            while j < chars.len() && !chars[j].is_whitespace() && chars[j] != '"' && chars[j] != '`'
            {
                j += 1;
            }
            let word = &chars[i..j];
            if word.len() > LONG_WORD {
                out.extend(&word[..KEPT_CHARS]);
                out.push_str(&format!("… ({} characters)", word.len()));
            } else {
                out.extend(word);
            }
            i = j;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

impl ConfigError {
    /// The dotted field path the error is about, if any.
    pub fn field(&self) -> Option<&str> {
        match self {
            ConfigError::Read { .. } | ConfigError::TooLarge { .. } => None,
            ConfigError::Syntax { field, .. } => field.as_deref(),
            ConfigError::Invalid { field, .. } => Some(field),
        }
    }
}
