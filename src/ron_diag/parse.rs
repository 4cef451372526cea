//! From text to a checked value, and ron's errors turned into located
//! ones: ron reports what it expected where it stopped, in Rust's terms;
//! a person editing the file needs the field it was reading and words
//! without type names, and an unclosed bracket named where it opened.

mod out_of_bounds;

use self::out_of_bounds::out_of_bounds;
use crate::ron_diag::error::{ConfigError, Location};
use crate::ron_diag::field_index::{FieldIndex, join};

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

pub(super) fn read_ron<T: serde::de::DeserializeOwned>(
    text: &str,
) -> Result<T, ron::error::SpannedError> {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text)
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
