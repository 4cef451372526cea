//! A run to the bytes of a save and back, and the codec under both saves
//! and journals: bincode (2, standard config) is named only here, so the
//! codec can change.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::save::error::SaveError;
use crate::save::format::{FLAG_ZSTD, FORMAT_VERSION, HEADER_LEN, MAX_BODY};
use crate::save::header::{Summary, check_frame, read_header, write_header};
use crate::save::old_formats::{v1, v2, v3, v4, v5, v6, v7};
use crate::sim::Run;

/// The bytes of a save of `run`, stamped with `saved_at`. A pure function:
/// the same run and time give the same bytes.
pub fn encode(run: &Run, saved_at: u64) -> Vec<u8> {
    let raw = to_bytes(run).expect("a run always encodes");
    let body = zstd::bulk::compress(&raw, 3).expect("compressing into memory cannot fail");
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&write_header(run, &body, raw.len(), saved_at));
    out.extend_from_slice(&body);
    out
}

/// Decodes and validates a save. `path` names it in errors.
pub fn decode(bytes: &[u8], path: &str) -> Result<(Run, Summary), SaveError> {
    let header = read_header(bytes, path)?;
    let damaged = |what: String| SaveError::Damaged {
        path: path.into(),
        what,
    };
    let body = &bytes[HEADER_LEN..];
    check_frame(&header, body.len() as u64, path)?;
    if crc32fast::hash(body) != header.body_crc {
        return Err(damaged("body checksum mismatch".into()));
    }
    let raw = if header.flags & FLAG_ZSTD != 0 {
        // The output cap is the stated length: a body that inflates past it
        // (a decompression bomb) fails instead of allocating.
        let raw = zstd::bulk::decompress(body, header.raw_len as usize)
            .map_err(|e| damaged(format!("cannot decompress: {e}")))?;
        if raw.len() as u64 != header.raw_len {
            return Err(damaged(
                "decompressed length differs from the header".into(),
            ));
        }
        raw
    } else {
        body.to_vec()
    };
    let cannot = |problem: String| SaveError::Inconsistent {
        path: path.into(),
        what: format!("cannot decode: {problem}"),
    };
    // A body of an older format decodes into its mirror and converts.
    fn as_run<T: DeserializeOwned + Into<Run>>(raw: &[u8]) -> Result<(Run, usize), String> {
        const LIMIT: usize = MAX_BODY as usize;
        let (old, used): (T, usize) = decode_prefix::<T, LIMIT>(raw)?;
        Ok((old.into(), used))
    }
    let (mut run, used): (Run, usize) = match header.summary.format {
        1 => as_run::<v1::Run>(&raw).map_err(cannot)?,
        2 => as_run::<v2::Run>(&raw).map_err(cannot)?,
        3 => as_run::<v3::Run>(&raw).map_err(cannot)?,
        4 => as_run::<v4::Run>(&raw).map_err(cannot)?,
        5 => as_run::<v5::Run>(&raw).map_err(cannot)?,
        6 => as_run::<v6::Run>(&raw).map_err(cannot)?,
        7 => as_run::<v7::Run>(&raw).map_err(cannot)?,
        FORMAT_VERSION => as_run::<Run>(&raw).map_err(cannot)?,
        other => return Err(damaged(format!("no decoder for save format {other}"))),
    };
    if used != raw.len() {
        return Err(damaged(format!(
            "{} bytes left over after the run",
            raw.len() - used
        )));
    }
    if let Some((what, found, newest)) = run.config().revisions.newer_than_this_build() {
        return Err(SaveError::NewerRevision {
            path: path.into(),
            what,
            found,
            newest,
        });
    }
    run.validate().map_err(|what| SaveError::Inconsistent {
        path: path.into(),
        what,
    })?;
    run.after_load();
    Ok((run, header.summary))
}

/// A value's bytes in the codec saves and journals share. The error
/// names no codec, so callers do not either.
pub(crate) fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, impl Debug> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
}

/// [`to_bytes`] appended to `out`: records written one after another
/// decode one after another with [`decode_prefix`].
pub(crate) fn append<T: Serialize>(value: T, out: &mut Vec<u8>) -> Result<(), impl Debug> {
    bincode::serde::encode_into_std_write(value, out, bincode::config::standard()).map(|_| ())
}

/// The value at the start of `bytes` and how many bytes it took, never
/// reading or allocating more than `LIMIT` bytes for it (a length in
/// forged bytes must not make it allocate); or why the bytes are not
/// one, in words for a person.
pub(crate) fn decode_prefix<T: DeserializeOwned, const LIMIT: usize>(
    bytes: &[u8],
) -> Result<(T, usize), String> {
    let config = bincode::config::standard().with_limit::<LIMIT>();
    bincode::serde::decode_from_slice(bytes, config).map_err(|e| decode_problem(&e))
}

/// Why bytes did not decode, in words for a person: bincode's own
/// `Display` is its `Debug` (`UnexpectedEnd { additional: 1 }`).
fn decode_problem(e: &bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { additional } => {
            format!("it ends {additional} byte(s) short")
        }
        D::LimitExceeded => "it claims more data than a file of its kind may hold".into(),
        D::InvalidIntegerType { .. } | D::OutsideUsizeRange(_) => {
            "a number in it is out of range".into()
        }
        D::NonZeroTypeIsZero { .. } => "a number that cannot be zero is zero".into(),
        D::UnexpectedVariant {
            type_name, found, ..
        } => {
            let name = type_name.rsplit("::").next().unwrap_or(type_name);
            if name.starts_with("Option") {
                format!("an optional value in it is marked {found}, neither 0 (none) nor 1 (some)")
            } else {
                format!("a {name} in it is choice {found}, which a {name} does not have")
            }
        }
        D::Utf8 { .. } | D::InvalidCharEncoding(_) => "a text in it is not UTF-8".into(),
        D::InvalidBooleanValue(b) => format!("a yes-or-no in it is {b}, neither 0 nor 1"),
        D::ArrayLengthMismatch { required, found } => {
            format!("a list in it has {found} entries where {required} belong")
        }
        D::OtherString(text) => text.clone(),
        D::Other(text) => (*text).into(),
        _ => "its bytes are not a value of the kind expected there".into(),
    }
}
