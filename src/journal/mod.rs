//! Journals: a run's start and every action of it, in an append-only file
//! beside its save (`NAME.journal`), so a run can be watched again,
//! checked against its save, and rebuilt when both save files are lost.
//!
//! The format (`docs/journal-format.md` has the tables) is a 16-byte file
//! header (magic `DELVEJNL`, version, CRC) and then blocks, each a 48-byte
//! header and a zstd-compressed body with one CRC over both:
//!
//! - the first block is the start: the seed, the config, the monster
//!   kinds and (from save format 4, for a Combat run) the item kinds the
//!   run began with (a copy of its own, so a journal replays when today's
//!   data files have changed), and the start's digest;
//! - every later block holds the actions since the block before (run-length
//!   encoded: `(times, action)` records, each action a tag and its fields),
//!   the run's turn and digest after them (a checkpoint).
//!
//! A block is appended and synced at every save and level change, so a
//! crash loses at most the turns since. A block that is torn (a crash in
//! the middle of an append) or damaged is cut off with everything after
//! it; every block before it still replays.
//!
//! Decoding trusts nothing: CRCs first, then decompression into at most
//! the stated length (itself capped), then bincode with a byte limit, and
//! last the config and the monster kinds validated as their files are.
//!
//! - `block.rs`: the file header and the blocks' framing and checks;
//! - `start.rs`: the start block, of every start format read;
//! - `actions.rs`: actions blocks, their records and their order;
//! - `encoding.rs`: a whole journal decoded (`Journal`, `Cut`) or encoded;
//! - `summary.rs`: the cheap read for listings (`Summary`);
//! - `error.rs`: `JournalError`;
//! - `file.rs`: the file, read and appended to (`JournalWriter`);
//! - `check.rs`, `recover.rs`, `session.rs`, `lone.rs`: replays against
//!   checkpoints and saves, runs recovered, a playing run's journal kept,
//!   and journals with no save.

mod actions;
mod block;
pub mod check;
mod encoding;
mod error;
mod file;
pub mod lone;
pub mod recover;
pub mod session;
mod start;
mod summary;

pub use actions::{FLUSH_ACTIONS, actions_block, blocks_of, encode_runs};
pub use block::{
    BLOCK_HEADER_LEN, Checkpoint, FILE_HEADER_LEN, MAGIC, MAX_BLOCK, MAX_FILE, VERSION, file_header,
};
pub use encoding::{Cut, Journal, decode, encode};
pub use error::JournalError;
pub use file::{JournalWriter, journal_path, read_file, read_summary};
pub use start::{OLDEST_STATE_FORMAT, STATE_FORMAT, Start, start_block};
pub use summary::{Summary, summarise};

#[cfg(test)]
mod tests;
