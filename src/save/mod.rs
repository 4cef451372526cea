//! Save files: a run in one file that loads back exactly, written so that a
//! crash, a kill or a full disk never costs the previous save.
//!
//! The format (version 2, little-endian; `docs/save-format.md` has the
//! table) is a fixed 96-byte header, then the body:
//!
//! - header: magic `DELVESAV`, format version, flags, body length, the
//!   body's decompressed length, CRC32 of the body, the summary `delve
//!   saves` shows without decoding anything (seed, depth, turn, outcome,
//!   unix time saved, program version), and a CRC32 of the header itself;
//! - body: the `Run` encoded with bincode 2 (standard config), compressed
//!   with zstd. Levels never visited are not stored; they regenerate from
//!   the seed.
//!
//! Decoding trusts nothing: header CRC, magic and version first, then the
//! body CRC, then decompression into at most the stated length (itself
//! capped), then bincode with a byte limit, every byte consumed, and last
//! `Run::validate`. bincode is used only here, so the codec can change.
//! Older formats decode into mirrors of their types (`v1`) and convert.
//!
//! This module and `config` are the only ones that touch the file system.
//!
//! - `header.rs`: the fixed header, its checksums and the body's frame;
//! - `encoding.rs`: a run to bytes and back (the one user of bincode);
//! - `old_formats.rs`: mirrors of formats 1 to 5 and their conversions;
//! - `guarded.rs`: the rules every file here (and every journal) is opened
//!   by: no links, no FIFOs or devices, nothing larger than it may be;
//! - `read.rs`: one save file read, checked or decoded;
//! - `dir.rs`: the saves directory (`SaveDir`): names, locks, atomic
//!   writes with a backup, damaged files set aside, listings;
//! - `error.rs`: `SaveError`.

mod dir;
pub(crate) mod encoding;
mod error;
mod format;
pub(crate) mod guarded;
mod header;
pub(crate) mod old_formats;
mod read;

pub use dir::{Checked, Listing, SaveDir, SaveLock};
pub use encoding::{decode, encode};
pub use error::SaveError;
pub use format::{FORMAT_VERSION, HEADER_LEN, MAGIC, MAX_BODY, MAX_FILE, MAX_STORED_BODY};
pub use header::{Summary, summary};
pub use read::{check_file, read_and_decode};
