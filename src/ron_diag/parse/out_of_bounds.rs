//! A number too large for its field's type, which ron reports without
//! the range: found by probing the type's bounds in the number's place.
//! On its own because the probing must stay cheap on a file of megabytes
//! (a short text that reads the same up to the number), and because the
//! answer is worded as the file's own checks would word it.

use crate::ron_diag::error::{ConfigError, Location};
use crate::ron_diag::field_index::FieldIndex;
use crate::ron_diag::parse::{Check, read_ron};

/// A number too large (or too negative) for its field's type: ron says only
/// "integer is out of bounds". This finds the type's range by trying its
/// bounds in the number's place, then puts the nearer bound there and runs
/// the file's own checks, so the error gives the range the field allows
/// (`width: must be from 30 to 2000, got -80`) exactly as for a number that
/// fits the type; when the checks allow the type's whole range, it gives
/// that. `None` if the number cannot be found in the text.
pub(super) fn out_of_bounds<T: serde::de::DeserializeOwned>(
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
