//! The start block: what a run began with (its seed, its own config,
//! monster and item kinds and vaults), written, and read back from any
//! start format this build knows (3 to today's, the older ones through
//! the save module's mirrors) and checked as its data files are.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::save::encoding;
use crate::sim::{ItemKind, ItemKindV7, MonsterKind, MonsterKindV7};

use super::block::{
    Checkpoint, FILE_HEADER_LEN, KIND_START, MAGIC, MAX_BLOCK, VERSION, block, read_block,
};
use super::error::JournalError;

/// The save format whose encoding of `Config` and `MonsterKind` the start
/// block uses: a start block records the one it was written with, so an
/// older one can be converted as an older save is. bincode stores no field
/// names, so a start from before a field was added (format 3 had no
/// `rules`) is told apart by this number alone, never by the bytes.
pub const STATE_FORMAT: u16 = crate::save::FORMAT_VERSION;
/// The oldest start format read: format 3 (issue 14, before Combat),
/// whose runs replay as the Stomp runs they were.
pub const OLDEST_STATE_FORMAT: u16 = 3;

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
    kinds: Vec<MonsterKindV7>,
    items: Vec<ItemKindV7>,
}

impl From<StartV4> for Start {
    fn from(s: StartV4) -> Start {
        Start {
            seed: s.seed,
            config: s.config.into(),
            kinds: s.kinds.into_iter().map(Into::into).collect(),
            items: s.items.into_iter().map(Into::into).collect(),
            vaults: Vec::new(),
        }
    }
}

/// A format-5 to 7 start: today's shape but for the config, which the
/// save module mirrors as that format held it (`StartV5`, `StartV6`),
/// the monster kinds, which had no abilities before format 8, and the
/// item kinds, without the trade-offs format 8 added.
#[derive(Deserialize)]
struct StartWith<C> {
    seed: u64,
    config: C,
    kinds: Vec<MonsterKindV7>,
    items: Vec<ItemKindV7>,
    vaults: Vec<crate::vault::Vault>,
}

impl<C: Into<Config>> From<StartWith<C>> for Start {
    fn from(s: StartWith<C>) -> Start {
        Start {
            seed: s.seed,
            config: s.config.into(),
            kinds: s.kinds.into_iter().map(Into::into).collect(),
            items: s.items.into_iter().map(Into::into).collect(),
            vaults: s.vaults,
        }
    }
}

/// A format-5 start (before revisions): it converts to a start of the
/// first revisions, which format 5 made and played by.
type StartV5 = StartWith<crate::save::old_formats::v5::Config>;

/// A format-6 start (before kinds of level and secret doors): every level
/// of its run is rooms and corridors without secret doors, with the
/// default chances of finding them, which its rules (1 or 2) never read.
type StartV6 = StartWith<crate::save::old_formats::v6::Config>;

/// A format-7 start (before rules 4): today's config, item kinds without
/// their trade-offs.
/// A format-7 start (before monsters' abilities): today's config, kinds
/// without abilities, which its rules (3 or earlier) never read.
type StartV7 = StartWith<Config>;

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

/// The file header and the start block, checked and decoded: the start,
/// its digest, and where the first block after it begins.
pub(super) fn decode_start(bytes: &[u8], path: &str) -> Result<(Start, u64, usize), JournalError> {
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
    } else if h.state_format == 6 {
        let (old, used): (StartV6, usize) =
            encoding::decode_prefix::<_, LIMIT>(&raw).map_err(not_decoded)?;
        (old.into(), used)
    } else if h.state_format == 7 {
        let (old, used): (StartV7, usize) =
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
