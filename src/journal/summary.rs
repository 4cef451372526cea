//! A journal read the cheap way, for listings: its start, then each
//! block's header, length and checksum, nothing decompressed after the
//! start; and the summary in a few words.

use super::actions::{out_of_order, past_the_last_turn, past_the_last_turn_words};
use super::block::{Checkpoint, FLAG_CHECKPOINT, check_block};
use super::encoding::{Cut, Journal};
use super::error::JournalError;
use super::start::decode_start;

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
/// the file header and the start block in full (as [`decode`](crate::journal::decode) reads them),
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
