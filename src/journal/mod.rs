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

pub mod check;
mod file;
pub mod lone;
pub mod recover;
pub mod session;

pub use file::{JournalWriter, journal_path, read_file, read_summary};

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::save::encoding;
use crate::sim::record::Recording;
use crate::sim::{Action, ItemKind, MAX_TURNS, MonsterKind};

/// The first bytes of every journal file, so another file in a journal's
/// place is refused as such rather than read as a damaged journal.
pub const MAGIC: &[u8; 8] = b"DELVEJNL";
/// The journal format this build writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the file header (magic, version, reserved, CRC): the first
/// block starts here.
pub const FILE_HEADER_LEN: usize = 16;
/// Bytes of a block's fixed header, read and checked before its body so a
/// torn or damaged block is found without decompressing it.
pub const BLOCK_HEADER_LEN: usize = 48;
/// The save format whose encoding of `Config` and `MonsterKind` the start
/// block uses: a start block records the one it was written with, so an
/// older one can be converted as an older save is. bincode stores no field
/// names, so a start from before a field was added (format 3 had no
/// `rules`) is told apart by this number alone, never by the bytes.
pub const STATE_FORMAT: u16 = crate::save::FORMAT_VERSION;
/// The oldest start format read: format 3 (issue 14, before Combat),
/// whose runs replay as the Stomp runs they were.
pub const OLDEST_STATE_FORMAT: u16 = 3;
/// The largest block body accepted, decompressed or stored. Writers flush
/// long before (a block a save or level change, or every
/// [`FLUSH_ACTIONS`] actions).
pub const MAX_BLOCK: u64 = 16 * 1024 * 1024;
/// The largest journal file read: anything larger is refused before a
/// byte of it is read.
pub const MAX_FILE: u64 = 1024 * 1024 * 1024;
/// Runs of actions a block holds at most, so no block grows past
/// [`MAX_BLOCK`] (a record is at most 16 bytes), and actions a writer holds
/// at most before it appends a block anyway.
pub const FLUSH_ACTIONS: u64 = 256 * 1024;

const KIND_START: u8 = 1;
const KIND_ACTIONS: u8 = 2;
const FLAG_ZSTD: u8 = 1;
/// Flag bit: the block's turn and digest are a checkpoint (a block a writer
/// appends between saves and level changes, only to bound its size, has
/// none: a digest costs a walk over the whole run).
const FLAG_CHECKPOINT: u8 = 2;

/// What a run began with: all a replay needs besides the actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The run's seed.
    pub seed: u64,
    /// The config the run began with, kept here because the data files may
    /// change after the run was recorded.
    pub config: Config,
    /// The monster kinds the run began with, kept for the same reason.
    pub kinds: Vec<MonsterKind>,
    /// The item kinds a Combat run began with, kept for the same reason;
    /// empty for a Stomp run, which has none.
    pub items: Vec<ItemKind>,
    /// The vaults the run's levels are given, kept for the same reason;
    /// empty for a run from before vaults (start format 3 or 4).
    pub vaults: Vec<crate::vault::Vault>,
}

/// A format-3 start (before Combat), in the pre-Combat shapes the save
/// module mirrors; it converts to a Stomp start.
#[derive(Deserialize)]
struct StartV3 {
    seed: u64,
    config: crate::save::old_formats::v2::Config,
    kinds: Vec<crate::save::old_formats::v2::MonsterKind>,
}

impl From<StartV3> for Start {
    fn from(s: StartV3) -> Start {
        Start {
            seed: s.seed,
            config: s.config.into(),
            kinds: s.kinds.into_iter().map(Into::into).collect(),
            items: Vec::new(),
            vaults: Vec::new(),
        }
    }
}

/// A format-4 start (before room loops), in the config shape the save
/// module mirrors; it converts to a start whose levels have no room loops.
#[derive(Deserialize)]
struct StartV4 {
    seed: u64,
    config: crate::save::old_formats::v4::Config,
    kinds: Vec<MonsterKind>,
    items: Vec<ItemKind>,
}

impl From<StartV4> for Start {
    fn from(s: StartV4) -> Start {
        Start {
            seed: s.seed,
            config: s.config.into(),
            kinds: s.kinds,
            items: s.items,
            vaults: Vec::new(),
        }
    }
}

/// A format-5 start (before revisions), in the config shape the save
/// module mirrors; it converts to a start of the first revisions, which
/// format 5 made and played by.
#[derive(Deserialize)]
struct StartV5 {
    seed: u64,
    config: crate::save::old_formats::v5::Config,
    kinds: Vec<MonsterKind>,
    items: Vec<ItemKind>,
    vaults: Vec<crate::vault::Vault>,
}

impl From<StartV5> for Start {
    fn from(s: StartV5) -> Start {
        Start {
            seed: s.seed,
            config: s.config.into(),
            kinds: s.kinds,
            items: s.items,
            vaults: s.vaults,
        }
    }
}

/// The run's state after a block's actions: a replay that reaches the same
/// action count must have the same turn and digest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// Actions played from the start.
    pub actions: u64,
    /// The turn the run reached after them: actions are not turns (a
    /// level change or a refused action differs), so both are compared.
    pub turn: u64,
    /// The state's digest there ([`crate::sim::Run::digest`]).
    pub digest: u64,
}

/// A journal as read: the start, the actions of every intact block, and
/// what was cut off after them, if anything.
#[derive(Clone, Debug)]
pub struct Journal {
    /// What the run began with (the start block).
    pub start: Start,
    /// The actions of the intact blocks, in order.
    pub recording: Recording,
    /// One a block, the start's first (at 0 actions).
    pub checkpoints: Vec<Checkpoint>,
    /// Why the bytes after the intact blocks were left out, if any were.
    pub cut: Option<Cut>,
    /// Bytes of the intact blocks, from the start of the file: where the
    /// next block goes.
    pub intact_len: u64,
    /// Where the last intact actions block begins, and the actions before
    /// it; `None` for a journal of its start alone. A writer that finds
    /// that block's checkpoint wrong cuts the file back to it.
    pub last_block: Option<(u64, u64)>,
}

/// The part of a journal that could not be used: a torn last block (a crash
/// mid-append) or a damaged block, and everything after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// Where the first unusable block begins.
    pub offset: u64,
    /// Bytes from there to the end of the file.
    pub bytes: u64,
    /// What was wrong with the block, for the user.
    pub what: String,
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at byte {}; the {} bytes from there were left out",
            self.what, self.offset, self.bytes
        )
    }
}

/// Why a journal cannot be used at all.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The journal file.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The file does not start with [`MAGIC`]: something else is in the
    /// journal's place, and it is never overwritten as if it were one.
    #[error("{0}: not a delve journal")]
    NotAJournal(String),
    /// A journal a later delve wrote: left alone rather than cut or
    /// rewritten by a build that cannot read it.
    #[error(
        "{path}: made by a newer delve (journal format {found}, this build reads up to {VERSION}); it is left untouched"
    )]
    NewerFormat {
        /// The journal file.
        path: String,
        /// The format number in its header.
        found: u16,
    },
    /// Recorded under a newer delve's generator or rules (in a format this
    /// build reads): replaying it here would make other levels or another
    /// game, so it is refused by name and left untouched.
    #[error(
        "{path}: recorded by a newer delve ({what} revision {found}; this build makes {what} revisions 1 to {newest}), so it cannot be replayed here; it is left untouched"
    )]
    NewerRevision {
        /// The journal file.
        path: String,
        /// "generator" or "rules".
        what: &'static str,
        /// The revision its start records.
        found: u16,
        /// The newest this build makes.
        newest: u16,
    },
    /// The header or the start block is damaged: with no start, no block
    /// after it can be replayed.
    #[error("{path}: damaged ({what})")]
    Damaged {
        /// The journal file.
        path: String,
        /// What is wrong, for the user.
        what: String,
    },
    /// A link, FIFO, device or directory in the journal's place: refused
    /// before it is opened, as the saves directory's rules say.
    #[error("{path}: refused: {kind}, not a plain file")]
    NotRegular {
        /// The journal's path.
        path: String,
        /// What is there instead, in a few words.
        kind: &'static str,
    },
    /// Larger than [`MAX_FILE`]: refused before a byte is read.
    #[error("{path}: too large to be a journal ({size} bytes; a journal is at most {MAX_FILE})")]
    TooLarge {
        /// The journal file.
        path: String,
        /// Its size in bytes.
        size: u64,
    },
    /// No file at the journal's path.
    #[error("no journal {0}")]
    Missing(String),
}

impl JournalError {
    /// The message without the file's path in front, for a listing or a
    /// message that already names the file.
    pub fn problem(&self) -> String {
        let message = self.to_string();
        let path = match self {
            JournalError::Io { path, .. }
            | JournalError::NewerFormat { path, .. }
            | JournalError::NewerRevision { path, .. }
            | JournalError::Damaged { path, .. }
            | JournalError::NotRegular { path, .. }
            | JournalError::TooLarge { path, .. }
            | JournalError::NotAJournal(path) => path,
            JournalError::Missing(_) => return message,
        };
        message
            .strip_prefix(path.as_str())
            .and_then(|rest| rest.strip_prefix(": "))
            .map_or_else(|| message.clone(), str::to_string)
    }
}

/// The file header: magic, version, reserved, CRC of the 12 bytes before.
pub fn file_header() -> [u8; FILE_HEADER_LEN] {
    let mut h = [0u8; FILE_HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    let crc = crc32fast::hash(&h[..12]);
    h[12..].copy_from_slice(&crc.to_le_bytes());
    h
}

/// One block: header and compressed body.
fn block(
    kind: u8,
    state_format: u16,
    raw: &[u8],
    before: u64,
    count: u64,
    at: Option<Checkpoint>,
) -> Vec<u8> {
    let body = zstd::bulk::compress(raw, 3).expect("compressing into memory cannot fail");
    let mut out = Vec::with_capacity(BLOCK_HEADER_LEN + body.len());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]); // CRC, below
    out.push(kind);
    out.push(if at.is_some() {
        FLAG_ZSTD | FLAG_CHECKPOINT
    } else {
        FLAG_ZSTD
    });
    out.extend_from_slice(&state_format.to_le_bytes());
    out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    out.extend_from_slice(&before.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    let (turn, digest) = at.map_or((0, 0), |c| (c.turn, c.digest));
    out.extend_from_slice(&turn.to_le_bytes());
    out.extend_from_slice(&digest.to_le_bytes());
    debug_assert_eq!(out.len(), BLOCK_HEADER_LEN);
    out.extend_from_slice(&body);
    let crc = crc32fast::hash(&out[8..]);
    out[4..8].copy_from_slice(&crc.to_le_bytes());
    out
}

/// The start block of a run: turn 0 and `digest`, the new run's.
pub fn start_block(start: &Start, digest: u64) -> Vec<u8> {
    let raw = encoding::to_bytes(start).expect("a start always encodes");
    let at = Checkpoint {
        actions: 0,
        turn: 0,
        digest,
    };
    block(KIND_START, STATE_FORMAT, &raw, 0, 0, Some(at))
}

/// The raw (uncompressed) records of runs of actions: each `(times,
/// action)` in bincode's standard encoding, so an action is its variant's
/// index (one byte) and its fields; a new kind of action is a new index
/// and needs no change here.
pub fn encode_runs(runs: &[(Action, u32)]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(runs.len() * 4);
    for &(action, times) in runs {
        encoding::append((times, action), &mut raw).expect("writing into memory cannot fail");
    }
    raw
}

/// An actions block: `runs`, played after `before` actions, ending at
/// checkpoint `at` if there is one (its `actions` the total after them).
pub fn actions_block(runs: &[(Action, u32)], before: u64, at: Option<Checkpoint>) -> Vec<u8> {
    let count: u64 = runs.iter().map(|&(_, n)| u64::from(n)).sum();
    debug_assert!(at.is_none_or(|c| c.actions == before + count));
    block(KIND_ACTIONS, 0, &encode_runs(runs), before, count, at)
}

fn decode_runs(raw: &[u8]) -> Result<Vec<(Action, u32)>, String> {
    let mut runs = Vec::new();
    let mut at = 0;
    while at < raw.len() {
        let ((times, action), used): ((u32, Action), usize) =
            encoding::decode_prefix::<_, { MAX_BLOCK as usize }>(&raw[at..])
                .map_err(|problem| format!("action record at byte {at} of its block: {problem}"))?;
        if times == 0 {
            return Err(format!("a run of zero actions at byte {at} of its block"));
        }
        if !crate::sim::record::well_formed(&action) {
            return Err(format!(
                "impossible action \"{action}\" at byte {at} of its block"
            ));
        }
        runs.push((action, times));
        at += used;
    }
    Ok(runs)
}

/// A block's header, parsed.
struct BlockHeader {
    stored: u64,
    crc: u32,
    kind: u8,
    flags: u8,
    state_format: u16,
    raw: u64,
    before: u64,
    count: u64,
    turn: u64,
    digest: u64,
}

fn parse_block_header(b: &[u8]) -> BlockHeader {
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
    BlockHeader {
        stored: u64::from(u32_at(0)),
        crc: u32_at(4),
        kind: b[8],
        flags: b[9],
        state_format: u16_at(10),
        raw: u64::from(u32_at(12)),
        before: u64_at(16),
        count: u64_at(24),
        turn: u64_at(32),
        digest: u64_at(40),
    }
}

/// Checks one block at the start of `bytes` the cheap way (its lengths,
/// its checksum and its flags, nothing decompressed) and returns its header
/// and its length; or what is wrong with it.
fn check_block(bytes: &[u8]) -> Result<(BlockHeader, usize), String> {
    if bytes.len() < BLOCK_HEADER_LEN {
        return Err("a torn block (the file ends inside its header)".into());
    }
    let h = parse_block_header(bytes);
    if h.stored > MAX_BLOCK || h.raw > MAX_BLOCK {
        return Err(format!(
            "a block claiming {} bytes ({} decompressed), more than the {MAX_BLOCK} allowed",
            h.stored, h.raw
        ));
    }
    let len = BLOCK_HEADER_LEN + h.stored as usize;
    if bytes.len() < len {
        return Err("a torn block (the file ends inside its body)".into());
    }
    if crc32fast::hash(&bytes[8..len]) != h.crc {
        // The last block of the file: most likely a crash mid-append.
        let last = bytes.len() == len;
        return Err(format!(
            "a block whose checksum does not match{}",
            if last { " (the last one: torn)" } else { "" }
        ));
    }
    if h.flags & !(FLAG_ZSTD | FLAG_CHECKPOINT) != 0 {
        return Err(format!("a block with unknown flags {:#x}", h.flags));
    }
    Ok((h, len))
}

/// Checks one block at the start of `bytes` and returns its header, its
/// decompressed body and its length; or what is wrong with it.
fn read_block(bytes: &[u8]) -> Result<(BlockHeader, Vec<u8>, usize), String> {
    let (h, len) = check_block(bytes)?;
    let body = &bytes[BLOCK_HEADER_LEN..len];
    let raw = if h.flags & FLAG_ZSTD != 0 {
        let raw = zstd::bulk::decompress(body, h.raw as usize)
            .map_err(|e| format!("a block that does not decompress: {e}"))?;
        if raw.len() as u64 != h.raw {
            return Err("a block whose decompressed length differs from its header".into());
        }
        raw
    } else {
        if body.len() as u64 != h.raw {
            return Err("a block whose length differs from its header".into());
        }
        body.to_vec()
    };
    Ok((h, raw, len))
}

/// Decodes a journal. `path` names it in errors. The file header and the
/// start block must be intact (without them nothing can replay); a later
/// block that is torn or damaged is cut off with everything after it, and
/// [`Journal::cut`] says so.
pub fn decode(bytes: &[u8], path: &str) -> Result<Journal, JournalError> {
    let (start, digest, mut at) = decode_start(bytes, path)?;
    let mut checkpoints = vec![Checkpoint {
        actions: 0,
        turn: 0,
        digest,
    }];
    let mut recording = Recording::starting(digest);
    let mut cut = None;
    let mut last_turn = 0;
    let mut last_block = None;
    while at < bytes.len() {
        let what = match read_block(&bytes[at..]) {
            Err(what) => Some(what),
            Ok((h, raw, len)) => match out_of_order(&h, recording.len(), last_turn) {
                Some(what) => Some(what),
                None => match decode_runs(&raw) {
                    Err(what) => Some(what),
                    Ok(runs) if runs.iter().map(|&(_, n)| u64::from(n)).sum::<u64>() != h.count => {
                        Some(format!(
                            "a block whose actions do not add up to the {} it claims",
                            h.count
                        ))
                    }
                    Ok(_) if past_the_last_turn(recording.len(), h.count) => {
                        Some(past_the_last_turn_words(recording.len(), h.count))
                    }
                    Ok(runs) => {
                        last_block = Some((at as u64, recording.len()));
                        for (action, times) in runs {
                            recording.push_times(action, times);
                        }
                        if h.flags & FLAG_CHECKPOINT != 0 {
                            checkpoints.push(Checkpoint {
                                actions: recording.len(),
                                turn: h.turn,
                                digest: h.digest,
                            });
                            last_turn = h.turn;
                        }
                        at += len;
                        None
                    }
                },
            },
        };
        if let Some(what) = what {
            cut = Some(Cut {
                offset: at as u64,
                bytes: (bytes.len() - at) as u64,
                what,
            });
            break;
        }
    }
    Ok(Journal {
        start,
        recording,
        checkpoints,
        cut,
        intact_len: at as u64,
        last_block,
    })
}

/// How far the blocks after a journal's cut say they go: the most actions
/// any of them ends at (`before + count`), following the stated lengths
/// from the cut (past the first, damaged block when its stated length
/// lies within the file) and counting only blocks whose checksum matches.
/// `None` when there is no such block: a torn last block, or damage that
/// hides where the next block begins. Their actions cannot be replayed
/// (the damaged block's are lost), so this only says whether cutting the
/// file there would destroy actions a journal holds past some point. Each
/// step moves at least a block header on, so the work is bounded by the
/// file's size.
pub(crate) fn claimed_after_cut(bytes: &[u8], cut: &Cut) -> Option<u64> {
    let mut at = usize::try_from(cut.offset).ok()?;
    let mut furthest: Option<u64> = None;
    let mut first = true;
    while bytes.len().saturating_sub(at) >= BLOCK_HEADER_LEN {
        let len = match check_block(&bytes[at..]) {
            Ok((h, len)) => {
                if h.kind == KIND_ACTIONS
                    && let Some(end) = h.before.checked_add(h.count)
                {
                    furthest = furthest.max(Some(end));
                }
                len
            }
            Err(_) if first => {
                let h = parse_block_header(&bytes[at..]);
                if h.stored > MAX_BLOCK {
                    break;
                }
                BLOCK_HEADER_LEN + h.stored as usize
            }
            Err(_) => break,
        };
        first = false;
        at += len;
    }
    furthest
}

/// Whether a block of `count` actions after `actions` takes a journal past
/// the last turn a run can reach. Every action is a turn, so no run
/// records more than [`MAX_TURNS`] of them: a journal claiming more is
/// forged or damaged, and replaying it would take as long as it claims
/// (a single 6-byte record can claim four billion waits).
fn past_the_last_turn(actions: u64, count: u64) -> bool {
    actions.saturating_add(count) > MAX_TURNS
}

fn past_the_last_turn_words(actions: u64, count: u64) -> String {
    format!(
        "a block of {} after {}, past the {} a run can take",
        crate::words::count(count, "action", "actions"),
        crate::words::number(actions),
        crate::words::number(MAX_TURNS)
    )
}

/// What is wrong with an actions block's place in the journal, if
/// anything: it must follow the `actions` read so far, hold at least one
/// action (a writer appends only new actions; an empty block would cost
/// a replay a digest and tell it nothing), and a checkpoint may not go
/// back before the turn of the one before (`last_turn`).
fn out_of_order(h: &BlockHeader, actions: u64, last_turn: u64) -> Option<String> {
    if h.kind != KIND_ACTIONS {
        Some(format!("a block of unknown kind {}", h.kind))
    } else if h.count == 0 {
        Some("an empty block (no actions)".to_string())
    } else if h.before != actions {
        Some(format!(
            "a block that follows action {} where the journal so far holds {actions}",
            h.before
        ))
    } else if h.flags & FLAG_CHECKPOINT != 0 && h.turn < last_turn {
        Some(format!(
            "a block ending at turn {} after one at turn {last_turn}",
            h.turn
        ))
    } else {
        None
    }
}

/// What a journal holds, read the cheap way, as `delve saves` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The run's seed, from its start.
    pub seed: u64,
    /// Actions of the intact blocks.
    pub actions: u64,
    /// The turn of the last checkpoint (0, the start's, if none).
    pub turn: u64,
    /// Actions played by that checkpoint: fewer than `actions` when the
    /// last blocks were appended between checkpoints.
    pub actions_at_turn: u64,
    /// What was cut off after the intact blocks, if anything.
    pub cut: Option<Cut>,
}

/// A journal summarised without replaying or decompressing its actions:
/// the file header and the start block in full (as [`decode`] reads them),
/// then each block's header, length and checksum. A file that passes is
/// intact as written; only a replay says it reaches its checkpoints.
pub fn summarise(bytes: &[u8], path: &str) -> Result<Summary, JournalError> {
    let (start, _, mut at) = decode_start(bytes, path)?;
    let mut summary = Summary {
        seed: start.seed,
        actions: 0,
        turn: 0,
        actions_at_turn: 0,
        cut: None,
    };
    while at < bytes.len() {
        let what = match check_block(&bytes[at..]) {
            Err(what) => Some(what),
            Ok((h, len)) => match out_of_order(&h, summary.actions, summary.turn) {
                Some(what) => Some(what),
                None if past_the_last_turn(summary.actions, h.count) => {
                    Some(past_the_last_turn_words(summary.actions, h.count))
                }
                None => match summary.actions.checked_add(h.count) {
                    None => Some(format!(
                        "a block of {}, more than can be",
                        crate::words::count(h.count, "action", "actions")
                    )),
                    Some(actions) => {
                        summary.actions = actions;
                        if h.flags & FLAG_CHECKPOINT != 0 {
                            summary.turn = h.turn;
                            summary.actions_at_turn = actions;
                        }
                        at += len;
                        None
                    }
                },
            },
        };
        if let Some(what) = what {
            summary.cut = Some(Cut {
                offset: at as u64,
                bytes: (bytes.len() - at) as u64,
                what,
            });
            break;
        }
    }
    Ok(summary)
}

/// The file header and the start block, checked and decoded: the start,
/// its digest, and where the first block after it begins.
fn decode_start(bytes: &[u8], path: &str) -> Result<(Start, u64, usize), JournalError> {
    let damaged = |what: String| JournalError::Damaged {
        path: path.into(),
        what,
    };
    if bytes.len() < MAGIC.len() || &bytes[..8] != MAGIC {
        return Err(JournalError::NotAJournal(path.into()));
    }
    if bytes.len() < FILE_HEADER_LEN {
        return Err(damaged("truncated in its header".into()));
    }
    if crc32fast::hash(&bytes[..12])
        != u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes"))
    {
        return Err(damaged("header checksum mismatch".into()));
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version > VERSION {
        return Err(JournalError::NewerFormat {
            path: path.into(),
            found: version,
        });
    }
    if version == 0 {
        return Err(damaged(format!(
            "journal format 0 does not exist (formats are 1 to {VERSION})"
        )));
    }
    let at = FILE_HEADER_LEN;
    let (h, raw, len) =
        read_block(&bytes[at..]).map_err(|what| damaged(format!("its start: {what}")))?;
    if h.kind != KIND_START || h.before != 0 || h.count != 0 || h.turn != 0 {
        return Err(damaged("the first block is not a start".into()));
    }
    if !(OLDEST_STATE_FORMAT..=STATE_FORMAT).contains(&h.state_format) {
        // Formats before 3 have no journals; a newer one is refused by
        // version above unless a later build changes this.
        return Err(damaged(format!(
            "its start is in save format {}, which this build does not read in journals (it reads {OLDEST_STATE_FORMAT} to {STATE_FORMAT})",
            h.state_format
        )));
    }
    const LIMIT: usize = MAX_BLOCK as usize;
    let not_decoded = |problem: String| damaged(format!("its start does not decode: {problem}"));
    let (start, used): (Start, usize) = if h.state_format == 3 {
        let (old, used): (StartV3, usize) =
            encoding::decode_prefix::<_, LIMIT>(&raw).map_err(not_decoded)?;
        (old.into(), used)
    } else if h.state_format == 4 {
        let (old, used): (StartV4, usize) =
            encoding::decode_prefix::<_, LIMIT>(&raw).map_err(not_decoded)?;
        (old.into(), used)
    } else if h.state_format == 5 {
        let (old, used): (StartV5, usize) =
            encoding::decode_prefix::<_, LIMIT>(&raw).map_err(not_decoded)?;
        (old.into(), used)
    } else {
        encoding::decode_prefix::<_, LIMIT>(&raw).map_err(not_decoded)?
    };
    if used != raw.len() {
        return Err(damaged(format!(
            "{} bytes left over after its start",
            raw.len() - used
        )));
    }
    if let Some((what, found, newest)) = start.config.revisions.newer_than_this_build() {
        return Err(JournalError::NewerRevision {
            path: path.into(),
            what,
            found,
            newest,
        });
    }
    start
        .config
        .validate()
        .map_err(|p| damaged(format!("its config: {}: {}", p.field, p.message)))?;
    crate::vault::Vault::check_list(&start.vaults)
        .map_err(|what| damaged(format!("its vaults: {what}")))?;
    MonsterKind::check_list(&start.kinds).map_err(|p| {
        damaged(match p.index {
            Some(i) => format!("its monster kind {i}: {}: {}", p.field, p.message),
            None => format!("its monster kinds: {}", p.message),
        })
    })?;
    if start.config.simulation.is_combat() {
        ItemKind::check_list(&start.items).map_err(|p| {
            damaged(match p.index {
                Some(i) => format!("its item kind {i}: {}: {}", p.field, p.message),
                None => format!("its item kinds: {}", p.message),
            })
        })?;
    }
    Ok((start, h.digest, at + len))
}

impl Journal {
    /// What the journal holds, as [`summarise`] reads it.
    pub fn summary(&self) -> Summary {
        let last = self.checkpoints.last().copied().unwrap_or(Checkpoint {
            actions: 0,
            turn: 0,
            digest: 0,
        });
        Summary {
            seed: self.start.seed,
            actions: self.recording.len(),
            turn: last.turn,
            actions_at_turn: last.actions,
            cut: self.cut.clone(),
        }
    }
}

impl Summary {
    /// The summary in a few words: `seed 7, turn 300, 300 actions`.
    pub fn describe(&self) -> String {
        let mut text = if self.actions_at_turn == self.actions {
            format!(
                "seed {}, turn {}, {}",
                self.seed,
                self.turn,
                crate::words::count(self.actions, "action", "actions")
            )
        } else {
            format!(
                "seed {}, turn {} at its last checkpoint, {}",
                self.seed,
                self.turn,
                crate::words::count(self.actions, "action", "actions")
            )
        };
        if let Some(cut) = &self.cut {
            text.push_str(&format!(" ({cut})"));
        }
        text
    }
}

/// A whole journal in one piece: header, start, and the blocks of
/// `recording`, the last ending at checkpoint `end` (its `actions` the
/// recording's length). What a journal rebuilt from a save holds.
pub fn encode(start: &Start, start_digest: u64, recording: &Recording, end: Checkpoint) -> Vec<u8> {
    let mut out = file_header().to_vec();
    out.extend_from_slice(&start_block(start, start_digest));
    out.extend_from_slice(&blocks_of(recording.runs(), 0, Some(end)));
    out
}

/// The actions blocks of `runs` after `before` actions: as many as keep
/// each within [`FLUSH_ACTIONS`] runs (so within [`MAX_BLOCK`]), the last
/// carrying checkpoint `end` if there is one. None for no runs.
pub fn blocks_of(runs: &[(Action, u32)], before: u64, end: Option<Checkpoint>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut before = before;
    let pieces: Vec<&[(Action, u32)]> = runs.chunks(FLUSH_ACTIONS as usize).collect();
    for (i, piece) in pieces.iter().enumerate() {
        let last = i + 1 == pieces.len();
        out.extend_from_slice(&actions_block(piece, before, end.filter(|_| last)));
        before += piece.iter().map(|&(_, n)| u64::from(n)).sum::<u64>();
    }
    out
}

#[cfg(test)]
mod tests;
