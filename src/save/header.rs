//! The fixed header every save begins with: what it holds, its checksum,
//! and the checks of the body's length and checksum against it, all
//! before anything is decompressed or decoded.

use crate::save::error::SaveError;
use crate::save::format::{
    FLAG_ZSTD, FORMAT_VERSION, HEADER_LEN, MAGIC, MAX_BODY, MAX_STORED_BODY,
};
use crate::sim::{Outcome, Run};

const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What `delve saves` shows, read from the header alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The seed the run's levels were generated from.
    pub seed: u64,
    /// The level the player was on, 1 at the top.
    pub depth: u16,
    /// Turns played when the run was saved.
    pub turn: u64,
    /// Whether the run was still going, won or lost.
    pub outcome: Outcome,
    /// Seconds since the Unix epoch.
    pub saved_at: u64,
    /// Version of the delve that wrote the save, at most 16 bytes.
    pub program: String,
    /// Save format version from the header (1 to [`FORMAT_VERSION`]).
    pub format: u16,
}

/// The header of a save of `run` whose stored body is `body` (`raw_len`
/// bytes before compression), stamped with `saved_at`.
pub(super) fn write_header(run: &Run, body: &[u8], raw_len: usize, saved_at: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&FLAG_ZSTD.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&(raw_len as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
    out.extend_from_slice(&run.seed().to_le_bytes());
    out.extend_from_slice(&run.player().depth.to_le_bytes());
    out.extend_from_slice(&run.turn().to_le_bytes());
    out.push(outcome_byte(run.outcome()));
    out.extend_from_slice(&saved_at.to_le_bytes());
    let mut program = [0u8; 16];
    let v = PROGRAM_VERSION.as_bytes();
    program[..v.len().min(16)].copy_from_slice(&v[..v.len().min(16)]);
    out.extend_from_slice(&program);
    out.resize(HEADER_LEN - 4, 0); // reserved, zero
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

fn outcome_byte(o: Outcome) -> u8 {
    match o {
        Outcome::Playing => 0,
        Outcome::Won => 1,
        Outcome::Lost => 2,
    }
}

/// The parsed fixed header.
pub(super) struct Header {
    pub(super) body_len: u64,
    pub(super) raw_len: u64,
    pub(super) body_crc: u32,
    pub(super) flags: u16,
    pub(super) summary: Summary,
}

pub(super) fn read_header(bytes: &[u8], path: &str) -> Result<Header, SaveError> {
    if bytes.len() < MAGIC.len() {
        return Err(if MAGIC.starts_with(bytes) && !bytes.is_empty() {
            SaveError::Truncated(path.into())
        } else {
            SaveError::NotASave(path.into())
        });
    }
    if &bytes[..8] != MAGIC {
        return Err(SaveError::NotASave(path.into()));
    }
    if bytes.len() < HEADER_LEN {
        return Err(SaveError::Truncated(path.into()));
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    if crc32fast::hash(&bytes[..HEADER_LEN - 4]) != u32_at(HEADER_LEN - 4) {
        return Err(SaveError::Damaged {
            path: path.into(),
            what: "header checksum mismatch".into(),
        });
    }
    let version = u16_at(8);
    if version > FORMAT_VERSION {
        return Err(SaveError::NewerFormat {
            path: path.into(),
            found: version,
        });
    }
    if version == 0 {
        // Formats are numbered from 1: there never was a format 0.
        return Err(SaveError::Damaged {
            path: path.into(),
            what: format!("save format 0 does not exist (formats are 1 to {FORMAT_VERSION})"),
        });
    }
    // Offsets: magic 0, version 8, flags 10, body length 12, raw length 20,
    // body CRC 28, seed 32, depth 40, turn 42, outcome 50, saved at 51,
    // program version 59..75, reserved 75..92, header CRC 92.
    let outcome = match bytes[50] {
        0 => Outcome::Playing,
        1 => Outcome::Won,
        2 => Outcome::Lost,
        other => {
            return Err(SaveError::Damaged {
                path: path.into(),
                what: format!("unknown outcome {other} in the header"),
            });
        }
    };
    let program = String::from_utf8_lossy(&bytes[59..75])
        .trim_end_matches('\0')
        .to_string();
    Ok(Header {
        flags: u16_at(10),
        body_len: u64_at(12),
        raw_len: u64_at(20),
        body_crc: u32_at(28),
        summary: Summary {
            seed: u64_at(32),
            depth: u16_at(40),
            turn: u64_at(42),
            outcome,
            saved_at: u64_at(51),
            program,
            format: version,
        },
    })
}

/// The summary of a save, from its header alone (checksummed).
pub fn summary(bytes: &[u8], path: &str) -> Result<Summary, SaveError> {
    read_header(bytes, path).map(|h| h.summary)
}

/// The checks of the body's size against the header, before its checksum:
/// `stored` is how many bytes follow the header.
pub(super) fn check_frame(header: &Header, stored: u64, path: &str) -> Result<(), SaveError> {
    let damaged = |what: String| SaveError::Damaged {
        path: path.into(),
        what,
    };
    if header.body_len > MAX_STORED_BODY || header.raw_len > MAX_BODY {
        return Err(damaged(format!(
            "claims a body of {} bytes ({} decompressed), more than the {MAX_BODY} allowed",
            header.body_len, header.raw_len
        )));
    }
    if stored < header.body_len {
        return Err(SaveError::Truncated(path.into()));
    }
    if stored > header.body_len {
        return Err(damaged(format!(
            "{} bytes after the end of the save",
            stored - header.body_len
        )));
    }
    Ok(())
}
