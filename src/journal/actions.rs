//! Actions blocks: the run-length records of a run's actions, written a
//! block at a time (each within [`FLUSH_ACTIONS`] runs) and read back with
//! the checks of a block's place among the others.

use crate::save::encoding;
use crate::sim::{Action, MAX_TURNS};

use super::block::{BlockHeader, Checkpoint, FLAG_CHECKPOINT, KIND_ACTIONS, MAX_BLOCK, block};

/// Runs of actions a block holds at most, so no block grows past
/// [`MAX_BLOCK`] (a record is at most 16 bytes), and actions a writer holds
/// at most before it appends a block anyway.
pub const FLUSH_ACTIONS: u64 = 256 * 1024;

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

pub(super) fn decode_runs(raw: &[u8]) -> Result<Vec<(Action, u32)>, String> {
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

/// Whether a block of `count` actions after `actions` takes a journal past
/// the last turn a run can reach. Every action is a turn, so no run
/// records more than [`MAX_TURNS`] of them: a journal claiming more is
/// forged or damaged, and replaying it would take as long as it claims
/// (a single 6-byte record can claim four billion waits).
pub(super) fn past_the_last_turn(actions: u64, count: u64) -> bool {
    actions.saturating_add(count) > MAX_TURNS
}

pub(super) fn past_the_last_turn_words(actions: u64, count: u64) -> String {
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
pub(super) fn out_of_order(h: &BlockHeader, actions: u64, last_turn: u64) -> Option<String> {
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
