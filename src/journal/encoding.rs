//! A whole journal to bytes and back: [`decode`] reads the start and
//! every intact block into a [`Journal`], cutting off a torn or damaged
//! tail ([`Cut`]); [`encode`] writes one in a piece.

use crate::sim::record::Recording;

use super::actions::{
    blocks_of, decode_runs, out_of_order, past_the_last_turn, past_the_last_turn_words,
};
use super::block::{
    BLOCK_HEADER_LEN, Checkpoint, FLAG_CHECKPOINT, KIND_ACTIONS, MAX_BLOCK, check_block,
    file_header, parse_block_header, read_block,
};
use super::error::JournalError;
use super::start::{Start, decode_start, start_block};

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

/// A whole journal in one piece: header, start, and the blocks of
/// `recording`, the last ending at checkpoint `end` (its `actions` the
/// recording's length). What a journal rebuilt from a save holds.
pub fn encode(start: &Start, start_digest: u64, recording: &Recording, end: Checkpoint) -> Vec<u8> {
    let mut out = file_header().to_vec();
    out.extend_from_slice(&start_block(start, start_digest));
    out.extend_from_slice(&blocks_of(recording.runs(), 0, Some(end)));
    out
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
pub(super) fn claimed_after_cut(bytes: &[u8], cut: &Cut) -> Option<u64> {
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
