//! Where a problem in a RON data file sits, said the way a person editing
//! the file needs it: `file:line:column: field: problem`.
//!
//! Every data file (the config, the vault, monster and item lists, the
//! keymap) is read by `read_text` and parses through `parse`, which keeps
//! a `FieldIndex` of where each key was written so checks that run after
//! parsing can still point at a line, and turns ron's syntax errors into
//! the same shape. A leaf module: it knows RON and text, not what any file
//! means.

use std::fmt;
use std::path::Path;
use std::rc::Rc;

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
    /// ([`MAX_DATA_FILE_BYTES`]); it was not parsed.
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

/// The most bytes a data file may hold. The largest shipped file is a few
/// kilobytes, and each list in a file has a cap of its own; without this
/// one a file of gigabytes would be read whole and parsed before any cap
/// could refuse it. Eight megabytes still hold two vaults of the largest
/// level's size.
pub const MAX_DATA_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// Reads a data file (the config, the vault, monster and item lists, the
/// keymap: every one goes through here, so all are refused alike): at
/// most [`MAX_DATA_FILE_BYTES`], and UTF-8, with the line and column of
/// the first byte that is not. Returns the text and the file's name for
/// errors.
pub(crate) fn read_text(path: &Path) -> Result<(String, String), ConfigError> {
    use std::io::Read;
    let origin = path.display().to_string();
    let read_error = |source| ConfigError::Read {
        path: origin.clone(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read_error)?;
    // The size a regular file says it has, to refuse it unread; anything
    // else (a pipe, a device, a file still growing) is read one byte past
    // the cap at most.
    let size = file.metadata().map_err(read_error)?.len();
    if size > MAX_DATA_FILE_BYTES {
        return Err(ConfigError::TooLarge {
            path: origin,
            bytes: Some(size),
        });
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_DATA_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > MAX_DATA_FILE_BYTES {
        return Err(ConfigError::TooLarge {
            path: origin,
            bytes: None,
        });
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let (line, column) = line_col_of_byte(e.as_bytes(), e.utf8_error().valid_up_to());
        ConfigError::Syntax {
            location: Location {
                origin: origin.clone(),
                line,
                column,
            },
            field: None,
            message: "the file is not valid UTF-8".into(),
        }
    })?;
    Ok((text, origin))
}

/// How a file's values are checked once parsed: errors located with the
/// file's index, named by its origin.
pub(crate) type Check<T> = fn(&T, &FieldIndex, &str) -> Result<(), ConfigError>;

/// Parses RON into `T` and checks it, keeping an index of where each field
/// was written.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
    check: Check<T>,
) -> Result<(T, FieldIndex), ConfigError> {
    // Editors on Windows often start files with a byte-order mark;
    // it is not content, and columns are counted without it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let fields = FieldIndex::scan(text);
    let value = read_ron::<T>(text).map_err(|e| match e.code {
        ron::error::Error::IntegerOutOfBounds => out_of_bounds(&e, text, origin, &fields, check)
            .unwrap_or_else(|| syntax_error(e, text, origin, &fields)),
        _ => syntax_error(e, text, origin, &fields),
    })?;
    check(&value, &fields, origin)?;
    Ok((value, fields))
}

fn read_ron<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
}

/// A number too large (or too negative) for its field's type: ron says only
/// "integer is out of bounds". This finds the type's range by trying its
/// bounds in the number's place, then puts the nearer bound there and runs
/// the file's own checks, so the error gives the range the field allows
/// (`width: must be from 30 to 2000, got -80`) exactly as for a number that
/// fits the type; when the checks allow the type's whole range, it gives
/// that. `None` if the number cannot be found in the text.
fn out_of_bounds<T: serde::de::DeserializeOwned>(
    e: &ron::error::SpannedError,
    text: &str,
    origin: &str,
    fields: &FieldIndex,
    check: Check<T>,
) -> Option<ConfigError> {
    let digits = fields.offset(e.span.start.line, e.span.start.col);
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '+';
    let start = text[..digits.min(text.len())]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| part(c))
        .last()
        .map_or(digits, |(i, _)| i);
    let end = text[start..]
        .char_indices()
        .find(|&(i, c)| i > 0 && !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(text.len(), |(i, _)| start + i);
    let literal = &text[start..end];
    if literal.is_empty() {
        return None;
    }
    let with = |value: &str| format!("{}{value}{}", &text[..start], &text[end..]);
    // Whether a value in the number's place fits the type: parsing fails, if
    // at all, somewhere else. Asked of a short text that reads the same up
    // to the number: the file cut after it, and without the entries of
    // lists that come before the one it is in (each list's entries share a
    // type), so a number at the end of a file of megabytes is not found
    // again by reading all of it for each bound tried.
    let (before, at) = fields.probe_prefix(start);
    let fits = |value: &str| match read_ron::<T>(&format!("{before}{value}")) {
        Err(e) if e.code == ron::error::Error::IntegerOutOfBounds => {
            let err = offset_in(&before, e.span.start.line, e.span.start.col);
            !(at..=at + value.len()).contains(&err)
        }
        _ => true,
    };
    let max = [
        "127",
        "255",
        "32767",
        "65535",
        "2147483647",
        "4294967295",
        "9223372036854775807",
        "18446744073709551615",
    ]
    .into_iter()
    .take_while(|v| fits(v))
    .last()?;
    let min = if fits("-1") {
        format!("-{}", max.parse::<u128>().ok()? + 1)
    } else {
        "0".to_string()
    };
    let nearer = if literal.starts_with('-') {
        min.as_str()
    } else {
        max
    };
    let (line, column) = fields.line_col(start);
    let key = fields
        .enclosing(line, column)
        .map(|k| (k.0.clone(), k.1, k.2));
    // The file's checks, with the bound in the number's place, on the same
    // key (a list repeats its keys, so the key's place tells them apart).
    // The file's own index locates them: the texts differ only in the
    // number, and its places are the ones the file's reader sees.
    let checked = read_ron::<T>(&with(nearer))
        .ok()
        .map(|value| check(&value, fields, origin));
    let location = Location {
        origin: origin.into(),
        line,
        column,
    };
    if let (
        Some(Err(ConfigError::Invalid {
            location: at,
            field,
            message,
        })),
        Some((_, key_line, key_column)),
    ) = (checked, &key)
        && (at.line, at.column) == (*key_line, *key_column)
    {
        let got = format!("got {nearer}");
        let message = match message.find(&got) {
            Some(i) if !message[i + got.len()..].starts_with(|c: char| c.is_ascii_digit()) => {
                format!(
                    "{}got {literal}{}",
                    &message[..i],
                    &message[i + got.len()..]
                )
            }
            _ => format!("{message} (got {literal})"),
        };
        return Some(ConfigError::Invalid {
            location,
            field,
            message,
        });
    }
    // The type's bound on the side the number went past: the other may be
    // narrower than the type's, and the checks did not say.
    let message = if literal.starts_with('-') {
        format!("must be at least {min}, got {literal}")
    } else {
        format!("must be at most {max}, got {literal}")
    };
    Some(match key {
        Some((field, key_line, key_column)) => ConfigError::Invalid {
            location,
            field: fields.indexed_at(&field, key_line, key_column),
            message,
        },
        None => ConfigError::Syntax {
            location,
            field: None,
            message,
        },
    })
}

fn syntax_error(
    e: ron::error::SpannedError,
    text: &str,
    origin: &str,
    fields: &FieldIndex,
) -> ConfigError {
    use ron::error::Error as E;
    let _ = text;
    // ron's span runs from the value it was reading to where it stopped; a
    // missing comma or bracket is where it stopped, not the value before.
    let stopped = (e.span.end.line.max(1), e.span.end.col.max(1));
    let ended = match e.code {
        E::Eof => true,
        E::ExpectedComma
        | E::ExpectedMapColon
        | E::ExpectedArrayEnd
        | E::ExpectedMapEnd
        | E::ExpectedStructLikeEnd
        | E::ExpectedOptionEnd
        | E::ExpectedAttributeEnd => fields.blank_from(stopped.0, stopped.1),
        _ => false,
    };
    if ended {
        // The file stops before what it opened is closed: point at its end,
        // and at the bracket left open.
        let (line, column) = fields.end_of_content();
        let (field, message) = match &fields.unclosed {
            Some((bracket, at, path)) => {
                let (l, c) = fields.line_col(*at);
                let close = match bracket {
                    '(' => ')',
                    '[' => ']',
                    _ => '}',
                };
                (
                    (!path.is_empty()).then(|| fields.indexed(path, *at)),
                    format!(
                        "the file ends before the `{bracket}` at {l}:{c} is closed with `{close}`"
                    ),
                )
            }
            None => (
                None,
                "the file ends before the value is complete".to_string(),
            ),
        };
        return ConfigError::Syntax {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field,
            message,
        };
    }
    let start = e.span.start;
    let (line, column) = match e.code {
        E::ExpectedComma => stopped,
        _ => (start.line.max(1), start.col.max(1)),
    };
    let location = Location {
        origin: origin.into(),
        line,
        column,
    };
    let enclosing = fields.enclosing(line, column);
    let (field, message) = match &e.code {
        E::NoSuchStructField {
            expected, found, ..
        } => {
            let parent = enclosing.map(|p| p.0.clone()).unwrap_or_default();
            let parent = parent_of(&parent, fields, line, column, found);
            let path = join(&parent, found);
            let message = format!(
                "unknown field \"{found}\", expected one of {}",
                expected
                    .iter()
                    .map(|s| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            (Some(path), message)
        }
        E::DuplicateStructField { field, .. } => (
            enclosing.map(|p| p.0.clone()),
            format!("field \"{field}\" appears twice"),
        ),
        E::MissingStructField { field, .. } => (
            Some(join(
                &enclosing.map(|p| p.0.clone()).unwrap_or_default(),
                field,
            )),
            format!("missing field \"{field}\" (it has no default)"),
        ),
        E::ExpectedComma => {
            let found = fields.char_at(line, column);
            let message = match found {
                Some('.') => "this field takes a whole number, found a decimal point".to_string(),
                Some(c) if !c.is_whitespace() => {
                    format!("expected `,` or a closing bracket, found `{c}`")
                }
                _ => "expected `,` or a closing bracket".to_string(),
            };
            (enclosing.map(|p| p.0.clone()), message)
        }
        other => (
            enclosing.map(|p| p.0.clone()),
            lowercase_first(&without_type_names(&other.to_string())),
        ),
    };
    // Entries of a list share their keys' paths: name the entry.
    let field = field.map(|f| fields.indexed_at(&f, line, column));
    ConfigError::Syntax {
        location,
        field,
        message,
    }
}

/// For an unknown field, the index holds the unknown key itself as the
/// innermost field at the error; its parent is the struct it sits in.
fn parent_of(
    innermost: &str,
    fields: &FieldIndex,
    line: usize,
    column: usize,
    found: &str,
) -> String {
    match fields.key_at(line, column) {
        Some(path) if path.rsplit('.').next() == Some(found) => path
            .rsplit_once('.')
            .map(|(p, _)| p.to_string())
            .unwrap_or_default(),
        _ => innermost.to_string(),
    }
}

/// The index of the first byte at or after `i` that is neither whitespace
/// nor inside a comment.
fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i..].starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if bytes[i..].starts_with(b"/*") {
            match bytes[i + 2..].windows(2).position(|w| w == b"*/") {
                Some(end) => i += 2 + end + 2,
                None => return bytes.len(),
            }
        } else {
            return i;
        }
    }
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

/// Drops the Rust type names serde and ron put in messages (" for struct
/// `RoomConfig`", " in `Range`"): they mean nothing to someone editing RON.
fn without_type_names(message: &str) -> String {
    let mut out = message.to_string();
    for marker in [" for struct `", " in enum `", " in `"] {
        while let Some(start) = out.find(marker) {
            let rest = &out[start + marker.len()..];
            match rest.find('`') {
                Some(end) => out.replace_range(start..start + marker.len() + end + 1, ""),
                None => break,
            }
        }
    }
    out
}

fn lowercase_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

fn line_col_of_byte(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = &bytes[..offset.min(bytes.len())];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let column = 1 + String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count();
    (line, column)
}

/// The byte offset of a (line, character column) position of `text`, for
/// the short texts [`FieldIndex::probe_prefix`] makes.
fn offset_in(text: &str, line: usize, column: usize) -> usize {
    let start = match line {
        0 | 1 => 0,
        _ => text
            .match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1),
    };
    text[start..]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map_or(text.len(), |(i, _)| start + i)
}

/// Where each `key:` of a RON struct stands in the text, with its dotted
/// path (`rooms.count.min`), so errors found after parsing can point at the
/// line that set the value. A small scanner rather than a second parser: it
/// only needs to follow brackets, strings and comments.
#[derive(Debug, Default)]
pub(crate) struct FieldIndex {
    /// (path, line, column of the key, byte offset where its value ends)
    pub(crate) keys: Vec<(String, usize, usize, usize)>,
    /// Byte offset of the start of each line. Columns count characters, as
    /// ron's do, so the text is kept to convert between the two.
    line_starts: Vec<usize>,
    /// Each character longer than one byte: its byte offset, and the bytes
    /// beyond one a character of all such characters before it and up to
    /// it. Characters between two offsets are then counted by binary
    /// search: counting them by walking the line, key after key, made a
    /// list written on one line of megabytes take minutes.
    wide: Vec<(usize, usize, usize)>,
    text: String,
    /// The innermost bracket never closed: the bracket, its byte offset, and
    /// the path of the field whose value it opens ("" for none).
    unclosed: Option<(char, usize, String)>,
    /// The entries of lists, in order: the path of the field whose list
    /// holds them, the byte offsets of the entry's opening bracket and
    /// just past its closing one, and its place in its own list (from 0).
    /// Entries of a list share their keys' paths (`profiles.depths` for
    /// every profile), so these tell them apart.
    entries: Vec<(Rc<str>, usize, usize, usize)>,
    /// For each entry, the byte offset of its list's `[`.
    entry_lists: Vec<usize>,
}

/// Brackets deeper than this are counted, not followed: ron refuses a file
/// nested past 128, and following each of millions of brackets would take
/// memory for each.
const MAX_SCAN_DEPTH: usize = 256;

/// A key is indexed only while the path of the struct it sits in is at
/// most this long. The longest path a data file has is some 40 bytes, and
/// without a bound each key under a long path (a long unknown key, or keys
/// nested deep) would copy that path: quadratic in the file's length.
const MAX_INDEXED_PARENT: usize = 128;

/// A bracket the scanner has open.
struct Open {
    /// The path of the key whose value it opened, or the parent's path for
    /// a bracket no key opened (shared, so an open bracket copies none).
    path: Rc<str>,
    /// That key's index, if a key opened it.
    owner: Option<usize>,
    /// Where it stands.
    at: usize,
    /// The list entry it opens, if it opens one.
    entry: Option<usize>,
    /// For a list: how many entries it has opened so far.
    entries: usize,
}

impl FieldIndex {
    pub(crate) fn scan(text: &str) -> FieldIndex {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut wide = Vec::new();
        let mut extra = 0;
        if !text.is_ascii() {
            for (i, c) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
                let before = extra;
                extra += c.len_utf8() - 1;
                wide.push((i, before, extra));
            }
        }
        let mut index = FieldIndex {
            keys: Vec::new(),
            line_starts,
            wide,
            text: text.to_string(),
            unclosed: None,
            entries: Vec::new(),
            entry_lists: Vec::new(),
        };
        let mut stack: Vec<Open> = Vec::new();
        // Brackets open past MAX_SCAN_DEPTH.
        let mut deeper = 0usize;
        let mut pending: Option<usize> = None; // key index whose value is next
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => {
                    i = after_comment(bytes, i);
                    continue;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                // A character ('(' is a glyph, not a bracket).
                b'\'' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'(' | b'[' | b'{' if stack.len() >= MAX_SCAN_DEPTH => {
                    pending = None;
                    deeper += 1;
                }
                b')' | b']' | b'}' if deeper > 0 => deeper -= 1,
                b'(' | b'[' | b'{' => {
                    let parent = stack
                        .last()
                        .map_or_else(|| Rc::from(""), |s| s.path.clone());
                    let in_list = stack.last().is_some_and(|s| bytes[s.at] == b'[');
                    let (path, owner) = match pending.take() {
                        Some(k) => (Rc::from(index.keys[k].0.as_str()), Some(k)),
                        None => (parent, None),
                    };
                    let entry = (in_list && owner.is_none()).then(|| {
                        let list = stack.last_mut().expect("in a list");
                        index
                            .entries
                            .push((path.clone(), i, usize::MAX, list.entries));
                        index.entry_lists.push(list.at);
                        list.entries += 1;
                        index.entries.len() - 1
                    });
                    stack.push(Open {
                        path,
                        owner,
                        at: i,
                        entry,
                        entries: 0,
                    });
                }
                b')' | b']' | b'}' => {
                    // A struct's last value ends at its closing bracket.
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                    if let Some(Open { owner, entry, .. }) = stack.pop() {
                        if let Some(k) = owner {
                            index.keys[k].3 = i + 1;
                        }
                        if let Some(e) = entry {
                            index.entries[e].2 = i + 1;
                        }
                    }
                }
                b',' => {
                    if let Some(k) = pending.take() {
                        index.keys[k].3 = i;
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')
                    {
                        i += 1;
                    }
                    let j = skip_blank(bytes, i);
                    // `key:` but not `key::`, and only directly inside a struct.
                    if bytes.get(j) == Some(&b':')
                        && bytes.get(j + 1) != Some(&b':')
                        && deeper == 0
                        && let Some(parent) = stack.last().map(|s| &s.path)
                        && parent.len() <= MAX_INDEXED_PARENT
                    {
                        if let Some(k) = pending.take() {
                            index.keys[k].3 = start;
                        }
                        let path = join(parent, &text[start..i]);
                        let (line, column) = index.line_col(start);
                        index.keys.push((path, line, column, usize::MAX));
                        pending = Some(index.keys.len() - 1);
                        i = j + 1;
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        index.unclosed = stack.pop().map(
            |Open {
                 path, owner, at, ..
             }| {
                (
                    char::from(bytes[at]),
                    at,
                    owner.map_or(String::new(), |_| path.to_string()),
                )
            },
        );
        index
    }

    /// The text before byte `at`, with each list's entries before the last
    /// one that starts before `at` left out (a list of a thousand entries
    /// keeps one), and where `at` falls in what is left. Parsed, it reads
    /// the same up to `at`: every entry of a list has one type.
    fn probe_prefix(&self, at: usize) -> (String, usize) {
        // For each list, its first entry and the last one starting before
        // `at` (entries are in the order they open).
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        let mut firsts: std::collections::BTreeMap<usize, (usize, usize)> = Default::default();
        for (e, &list) in self.entries.iter().zip(&self.entry_lists) {
            if e.1 >= at {
                continue;
            }
            firsts
                .entry(list)
                .and_modify(|span| span.1 = e.1)
                .or_insert((e.1, e.1));
        }
        cuts.extend(firsts.into_values().filter(|(a, b)| a < b));
        // A list inside a cut entry goes with it.
        cuts.sort_unstable();
        let mut out = String::with_capacity(at.min(4096));
        let (mut from, mut removed) = (0, 0);
        for (a, b) in cuts {
            if a < from {
                continue;
            }
            out.push_str(&self.text[from..a]);
            removed += b - a;
            from = b;
        }
        out.push_str(&self.text[from..at]);
        (out, at - removed)
    }

    /// Where the text ends, not counting trailing whitespace: just past its
    /// last character.
    fn end_of_content(&self) -> (usize, usize) {
        self.line_col(self.text.trim_end().len())
    }

    /// Whether nothing but whitespace and comments follows a (line,
    /// character column) position.
    fn blank_from(&self, line: usize, column: usize) -> bool {
        let at = self.offset(line, column).min(self.text.len());
        skip_blank(self.text.as_bytes(), at) >= self.text.len()
    }

    fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        (line, self.chars_between(start, offset) + 1)
    }

    /// Bytes beyond one a character of the characters before byte `at`.
    fn extra_before(&self, at: usize) -> usize {
        match self.wide.partition_point(|&(o, _, _)| o < at) {
            0 => 0,
            i => self.wide[i - 1].2,
        }
    }

    /// Characters from byte `a` up to byte `b`.
    fn chars_between(&self, a: usize, b: usize) -> usize {
        (b - a) - (self.extra_before(b) - self.extra_before(a))
    }

    /// The byte offset of a (line, character column) position: the
    /// character that many after the line's start (past its end, on the
    /// lines after; past the text, its end).
    fn offset(&self, line: usize, column: usize) -> usize {
        let Some(&start) = self.line_starts.get(line.saturating_sub(1)) else {
            return usize::MAX;
        };
        let nth = column.saturating_sub(1);
        // The wide characters from the line on, and how many of them come
        // before the one asked for: each adds its extra bytes.
        let first = self.wide.partition_point(|&(o, _, _)| o < start);
        let skipped = self.extra_before(start);
        let wide = &self.wide[first..];
        let before = wide.partition_point(|&(o, extra, _)| (o - start) - (extra - skipped) < nth);
        let extra = match before {
            0 => 0,
            n => wide[n - 1].2 - skipped,
        };
        (start + nth + extra).min(self.text.len())
    }

    /// Where the `n`-th occurrence of a key is written (list entries share
    /// their field paths).
    pub(crate) fn locate_nth(&self, path: &str, n: usize) -> (usize, usize) {
        self.keys
            .iter()
            .filter(|k| k.0 == path)
            .nth(n)
            .map_or((1, 1), |k| (k.1, k.2))
    }

    pub(crate) fn is_written(&self, path: &str) -> bool {
        self.keys.iter().any(|k| k.0 == path)
    }

    /// The byte span of the `n`-th entry of the list that is the value of
    /// the field `list` (a dotted path).
    fn entry_span(&self, list: &str, n: usize) -> Option<(usize, usize)> {
        self.entries
            .iter()
            .filter(|e| &*e.0 == list)
            .nth(n)
            .map(|e| (e.1, e.2))
    }

    /// Where the `n`-th entry of the list `list` writes the key `path` (a
    /// full dotted path, `profiles.rooms.count.max`), if it does.
    pub(crate) fn written_in_entry(
        &self,
        list: &str,
        n: usize,
        path: &str,
    ) -> Option<(usize, usize)> {
        let (start, end) = self.entry_span(list, n)?;
        self.keys
            .iter()
            .filter(|k| k.0 == path)
            .find(|k| (start..end).contains(&self.offset(k.1, k.2)))
            .map(|k| (k.1, k.2))
    }

    /// Where the `n`-th entry of `list` sets `path`; for a field it leaves
    /// out, its nearest written ancestor inside the entry; failing that,
    /// the entry's opening bracket. `None` if the list has no such entry.
    pub(crate) fn locate_in_entry(
        &self,
        list: &str,
        n: usize,
        path: &str,
    ) -> Option<(usize, usize)> {
        let (start, _) = self.entry_span(list, n)?;
        let mut p = path;
        while p.len() > list.len() {
            if let Some(at) = self.written_in_entry(list, n, p) {
                return Some(at);
            }
            p = p.rsplit_once('.').map_or("", |(parent, _)| parent);
        }
        Some(self.line_col(start))
    }

    /// `path`, a field's dotted path as the index keeps it (the entries of
    /// a list share their paths: `profiles.rooms.count`), with the place of
    /// each list entry the byte offset `at` stands in written after its
    /// list, as checks name fields: `profiles[1].rooms.count`, or `[2].map`
    /// in a file that is a list.
    fn indexed(&self, path: &str, at: usize) -> String {
        let mut within: Vec<&(Rc<str>, usize, usize, usize)> = self
            .entries
            .iter()
            .filter(|e| e.1 <= at && at < e.2)
            .collect();
        within.sort_by_key(|e| e.1);
        let mut out = String::new();
        let mut done = 0;
        for (list, _, _, n) in within {
            let prefix = list.len() >= done
                && path.starts_with(&**list)
                && (list.len() == path.len()
                    || list.is_empty()
                    || path[list.len()..].starts_with('.'));
            if prefix {
                out.push_str(&path[done..list.len()]);
                out.push_str(&format!("[{n}]"));
                done = list.len();
            }
        }
        let rest = &path[done..];
        if out.ends_with(']') && !rest.is_empty() && !rest.starts_with('.') {
            out.push('.');
        }
        out.push_str(rest);
        out
    }

    /// [`FieldIndex::indexed`] at a (line, character column) position.
    fn indexed_at(&self, path: &str, line: usize, column: usize) -> String {
        self.indexed(path, self.offset(line, column))
    }

    /// The character at a (line, character column) position.
    fn char_at(&self, line: usize, column: usize) -> Option<char> {
        self.text.get(self.offset(line, column)..)?.chars().next()
    }

    /// Where the field is set; for a field left to its default, where its
    /// nearest written ancestor is; failing that, the start of the file.
    pub(crate) fn locate(&self, path: &str) -> (usize, usize) {
        let mut p = path;
        loop {
            if let Some(k) = self.keys.iter().rev().find(|k| k.0 == p) {
                return (k.1, k.2);
            }
            match p.rsplit_once('.') {
                Some((parent, _)) => p = parent,
                None => return (1, 1),
            }
        }
    }

    /// The innermost field whose key or value spans the position.
    fn enclosing(&self, line: usize, column: usize) -> Option<&(String, usize, usize, usize)> {
        let at = self.offset(line, column);
        self.keys
            .iter()
            .filter(|k| {
                let start = self.offset(k.1, k.2);
                start <= at && at < k.3
            })
            .max_by_key(|k| self.offset(k.1, k.2))
    }

    /// The field whose key starts exactly at the position.
    fn key_at(&self, line: usize, column: usize) -> Option<&str> {
        self.keys
            .iter()
            .find(|k| k.1 == line && k.2 == column)
            .map(|k| k.0.as_str())
    }
}

/// The index just past the RON comment starting at `i` (`//` to the end of
/// the line, or `/* */`, which nest in RON), for the small scanners that
/// locate fields in a file's text.
pub(crate) fn after_comment(bytes: &[u8], mut i: usize) -> usize {
    if bytes.get(i + 1) == Some(&b'/') {
        while i < bytes.len() && bytes[i] != b'\n' {
            i += 1;
        }
        return i;
    }
    let mut depth = 0usize;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                break;
            }
        } else {
            i += 1;
        }
    }
    i
}
