//! Reading a data file's text, the only IO of `ron_diag`: every data file
//! comes through here so all are refused alike, too large before reading
//! and not UTF-8 at the line and column of the first bad byte.

use std::path::Path;

use crate::ron_diag::error::{ConfigError, Location, MAX_DATA_FILE_BYTES};

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
