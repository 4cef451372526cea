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

use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::sim::{Outcome, Run};

/// The first eight bytes of every save, so other files are told apart at once.
pub const MAGIC: &[u8; 8] = b"DELVESAV";
/// The format this build writes. Every older version it has shipped must
/// still load (see `tests/fixtures/`).
pub const FORMAT_VERSION: u16 = 6;
/// Bytes of the fixed header before the body; its last four are the header's CRC-32.
pub const HEADER_LEN: usize = 96;
/// Flag bit: the body is zstd-compressed.
const FLAG_ZSTD: u16 = 1;
/// The largest decoded body accepted. A maximal config (64 million cells
/// over all levels, two bytes a cell) stays below it; a forged length
/// beyond it is refused before anything is allocated.
pub const MAX_BODY: u64 = 256 * 1024 * 1024;
/// The largest body as stored: zstd output is at most 1/256 larger than
/// its input (for inputs of 128 KiB and more; smaller ones stay far
/// below), and an uncompressed body is at most [`MAX_BODY`].
pub const MAX_STORED_BODY: u64 = MAX_BODY + MAX_BODY / 256;
/// The largest file that can be a save. Anything larger is refused before
/// a byte of it is read.
pub const MAX_FILE: u64 = HEADER_LEN as u64 + MAX_STORED_BODY;
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

/// Why a save could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The file system refused a read, write, rename or lock.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory the operation was on.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// The file does not start with the save magic; the path is given.
    #[error("{0}: not a delve save")]
    NotASave(String),
    /// Written by a later delve; the file is not touched, so that delve can still load it.
    #[error(
        "{path}: made by a newer delve (save format {found}, this build reads up to {FORMAT_VERSION}); it is left untouched"
    )]
    NewerFormat {
        /// The save's path.
        path: String,
        /// The format version in its header.
        found: u16,
    },
    /// Made and played by a newer delve's generator or rules (in a format
    /// this build reads): its levels or game cannot be carried on here.
    /// The file is not touched.
    #[error(
        "{path}: made by a newer delve ({what} revision {found}; this build makes {what} revisions 1 to {newest}); it is left untouched"
    )]
    NewerRevision {
        /// The save's path.
        path: String,
        /// "generator" or "rules".
        what: &'static str,
        /// The revision the run records.
        found: u16,
        /// The newest this build makes.
        newest: u16,
    },
    /// The file ends before its header or body does; the path is given.
    #[error("{0}: truncated")]
    Truncated(String),
    /// A checksum or a length in the file is wrong: the bytes changed after they were written.
    #[error("{path}: damaged ({what})")]
    Damaged {
        /// The save's path.
        path: String,
        /// Which check failed, in a few words.
        what: String,
    },
    /// The bytes are intact but do not decode to a run delve could use.
    #[error("{path}: inconsistent state: {what}")]
    Inconsistent {
        /// The save's path.
        path: String,
        /// What does not fit, in a few words.
        what: String,
    },
    /// Another process holds the save's lock file.
    #[error("save {name} is in use by process {pid} (lock file {lock})")]
    Locked {
        /// The save's name.
        name: String,
        /// The holder's process id as its lock file gives it, or "(unknown)".
        pid: String,
        /// The lock file's path.
        lock: String,
    },
    /// The save name is not 1 to 64 letters, digits, '-' and '_'; the name is given.
    #[error("{0:?} is not a usable save name: use 1 to 64 letters, digits, '-' and '_'")]
    BadName(String),
    /// Neither the save nor its backup exists.
    #[error("no save named {name} in {dir} (`delve saves` lists them)")]
    Missing {
        /// The name asked for.
        name: String,
        /// The saves directory looked in.
        dir: String,
    },
    /// Something delve did not make where a save, its backup, a lock or a
    /// temporary file goes: it is neither read nor written through.
    #[error("{path}: refused: {kind}, not a plain file")]
    NotRegular {
        /// The path refused.
        path: String,
        /// What is there instead, such as "a symbolic link".
        kind: &'static str,
    },
    /// Larger than [`MAX_FILE`]: refused before a byte is read.
    #[error("{path}: too large to be a save ({size} bytes; a save is at most {MAX_FILE})")]
    TooLarge {
        /// The file's path.
        path: String,
        /// Its size in bytes.
        size: u64,
    },
    /// The saves directory is missing; the path is given.
    #[error("the saves directory {0} does not exist (the first save makes it)")]
    NoDirectory(String),
    /// The saves path exists but is not a directory; the path is given.
    #[error("the saves directory {0} is not a directory")]
    NotADirectory(String),
    /// A new run would replace the save of another.
    #[error(
        "a save named {name} already exists in {dir} ({holds}); continue it with --load {name}, start the new run under another name, or replace it with --replace"
    )]
    Taken {
        /// The name the new run asked for.
        name: String,
        /// The saves directory.
        dir: String,
        /// What the existing save holds, in a few words.
        holds: String,
    },
}

impl SaveError {
    /// Whether the file is damaged in a way a backup can stand in for.
    pub fn is_damage(&self) -> bool {
        matches!(
            self,
            SaveError::NotASave(_)
                | SaveError::Truncated(_)
                | SaveError::Damaged { .. }
                | SaveError::Inconsistent { .. }
                | SaveError::TooLarge { .. }
        )
    }

    /// Whether the error is about what the user asked for rather than a
    /// failure on the way: a name that is not usable or not there, a saves
    /// directory that is not there, something that is not a save file in
    /// a save's place, or a run that would replace another.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            SaveError::BadName(_)
                | SaveError::Missing { .. }
                | SaveError::NotRegular { .. }
                | SaveError::NoDirectory(_)
                | SaveError::NotADirectory(_)
                | SaveError::Taken { .. }
        )
    }

    /// The file the error is about, if it is about one.
    pub fn path(&self) -> Option<&str> {
        match self {
            SaveError::Io { path, .. }
            | SaveError::NewerFormat { path, .. }
            | SaveError::NewerRevision { path, .. }
            | SaveError::Damaged { path, .. }
            | SaveError::Inconsistent { path, .. }
            | SaveError::NotRegular { path, .. }
            | SaveError::TooLarge { path, .. } => Some(path),
            SaveError::NotASave(path) | SaveError::Truncated(path) => Some(path),
            _ => None,
        }
    }

    /// The message without the file's path in front, for a listing that
    /// already shows which file a line is about.
    pub fn problem(&self) -> String {
        let message = self.to_string();
        self.path()
            .and_then(|path| message.strip_prefix(path))
            .and_then(|rest| rest.strip_prefix(": "))
            .map_or_else(|| message.clone(), str::to_string)
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> SaveError + '_ {
    move |source| SaveError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// The bytes of a save of `run`, stamped with `saved_at`. A pure function:
/// the same run and time give the same bytes.
pub fn encode(run: &Run, saved_at: u64) -> Vec<u8> {
    let raw = bincode::serde::encode_to_vec(run, bincode::config::standard())
        .expect("a run always encodes");
    let body = zstd::bulk::compress(&raw, 3).expect("compressing into memory cannot fail");
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&FLAG_ZSTD.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
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
    out.extend_from_slice(&body);
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
struct Header {
    body_len: u64,
    raw_len: u64,
    body_crc: u32,
    flags: u16,
    summary: Summary,
}

fn read_header(bytes: &[u8], path: &str) -> Result<Header, SaveError> {
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
fn check_frame(header: &Header, stored: u64, path: &str) -> Result<(), SaveError> {
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
    const LIMIT: usize = MAX_BODY as usize;
    let config = bincode::config::standard().with_limit::<LIMIT>();
    let cannot = |e: bincode::error::DecodeError| SaveError::Inconsistent {
        path: path.into(),
        what: format!("cannot decode: {}", decode_problem(&e)),
    };
    // A body of an older format decodes into its mirror and converts.
    fn as_run<T: serde::de::DeserializeOwned + Into<Run>>(
        raw: &[u8],
        config: impl bincode::config::Config,
    ) -> Result<(Run, usize), bincode::error::DecodeError> {
        let (old, used): (T, usize) = bincode::serde::decode_from_slice(raw, config)?;
        Ok((old.into(), used))
    }
    let (mut run, used): (Run, usize) = match header.summary.format {
        1 => as_run::<v1::Run>(&raw, config).map_err(cannot)?,
        2 => as_run::<v2::Run>(&raw, config).map_err(cannot)?,
        3 => as_run::<v3::Run>(&raw, config).map_err(cannot)?,
        4 => as_run::<v4::Run>(&raw, config).map_err(cannot)?,
        5 => as_run::<v5::Run>(&raw, config).map_err(cannot)?,
        FORMAT_VERSION => as_run::<Run>(&raw, config).map_err(cannot)?,
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

/// Format 5 (issues 10 to 12), read by this build: format 6 added the
/// revisions of the generator and the rules to `Config` (last). A format-5
/// run was made and played by the first revisions, so it keeps them: its
/// levels not visited yet and a replay of its recording come out as they
/// did, and its digest (which leaves the first revisions out) is unchanged.
pub(crate) mod v5 {
    use serde::Deserialize;

    use crate::config::profile::Profile;
    use crate::config::{self, Revisions, RoomLoopConfig, SimulationConfig, VaultConfig};
    use crate::sim::RunState;
    use crate::sim::record::Recording;
    use crate::vault::Vault;

    use super::v2::{Layout, Stack};

    /// Format 5's config: today's without the revisions.
    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
        room_loops: RoomLoopConfig,
        vaults: VaultConfig,
        profiles: Vec<Profile>,
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config::Config {
                room_loops: c.room_loops,
                vaults: c.vaults,
                profiles: c.profiles,
                revisions: Revisions::FIRST,
                ..super::v2::config(c.stack, c.layout, c.simulation, c.generation_retries)
            }
        }
    }

    /// A format-5 run: its config as format 5 had it, then the state,
    /// recording and vaults as today.
    #[derive(Deserialize)]
    pub(super) struct Run {
        config: Config,
        state: RunState,
        recording: Option<Recording>,
        vaults: Vec<Vault>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state, r.recording, r.vaults)
        }
    }
}

/// Format 4 (issue 13), read by this build: format 5 added the generator's
/// room loops to `Config` (last). A format-4 run gets none, so the levels
/// it has not visited yet come out as format 4 made them, and its digest
/// (which leaves room loops out while they are off) is unchanged.
pub(crate) mod v4 {
    use serde::Deserialize;

    use crate::config::{self, SimulationConfig};
    use crate::sim::RunState;
    use crate::sim::record::Recording;

    use super::v2::{Layout, Stack};

    /// Format 4's config: format 2's parts, today's rules.
    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            super::v2::config(c.stack, c.layout, c.simulation, c.generation_retries)
        }
    }

    /// A format-4 run: its config as format 4 had it, then the state and
    /// recording as today.
    #[derive(Deserialize)]
    pub(super) struct Run {
        config: Config,
        state: RunState,
        recording: Option<Recording>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state, r.recording, Vec::new())
        }
    }
}

/// Format 3 (issue 14), read by this build: format 4 added the Combat
/// game, so a format-3 body is format 2's (config, state) in their
/// pre-Combat shapes, then the run's recording. It loads as the Stomp run
/// it was, recording and all, so its journal still fits it.
mod v3 {
    use serde::Deserialize;

    use crate::sim::record::Recording;

    use super::v2::{Config, RunState};

    #[derive(Deserialize)]
    pub(super) struct Run {
        config: Config,
        state: RunState,
        recording: Option<Recording>,
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), r.recording, Vec::new())
        }
    }
}

/// Format 1, read by this build and converted on load. Format 2 added
/// the generator's layout options to `Config` (corridor style, grid
/// geometry, overlapping rooms, extra loops, dead-end policy); a format-1
/// run gets the values that reproduce format 1's generator, so its levels
/// not yet visited come out as they would have.
mod v1 {
    use serde::Deserialize;

    use crate::config::{self, CorridorStyle, DeadEndPolicy, LoopConfig, Range};

    use super::v2::{Layout, SimulationConfig, Stack};

    /// Format 2's config without the layout options.
    #[derive(Deserialize)]
    pub(super) struct Config {
        stack: Stack,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    /// A format-1 run: its own config, then the state as format 2.
    pub(super) type Run = super::v2::Run<Config>;

    /// The layout of format 1's generator: tunnelled corridors, no
    /// overlapping rooms, no extra loops, dead ends kept.
    fn format1_layout() -> Layout {
        Layout {
            corridors: CorridorStyle::Tunnel,
            grid_spacing: 6,
            grid_segment: Range::new(3, 6),
            rooms_may_overlap: false,
            extra_loops: LoopConfig::NONE,
            dead_ends: DeadEndPolicy::Keep,
        }
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            super::v2::config(
                c.stack,
                format1_layout(),
                c.simulation,
                c.generation_retries,
            )
        }
    }
}

/// Format 2, read by this build and converted on load. Format 3 added
/// the recording (none here), format 4 the Combat game: the rules and
/// their numbers in the config; hit points, damage, depths, rarity and a
/// description in monster kinds; the run's Combat state. A format-2 run
/// is a Stomp run and goes on as one, with its monsters as they were.
/// The journal decodes its format-3 start blocks with these mirrors too.
pub(crate) mod v2 {
    use rand_pcg::Pcg64;
    use serde::Deserialize;

    use crate::config::{
        self, CorridorStyle, DeadEndPolicy, HardnessConfig, LoopConfig, Range, RoomConfig,
        StairsConfig, TunnelConfig,
    };
    use crate::sim::{Colour, LevelState, Outcome, Player, Trait};

    /// The simulation settings of format 2 and 3, the same fields a
    /// digest hashes; they load as Stomp rules.
    pub(super) use crate::sim::StompSimulation as SimulationConfig;

    #[derive(Deserialize)]
    pub(crate) struct MonsterKind {
        name: String,
        glyph: char,
        colour: Colour,
        speed: u8,
        traits: Vec<Trait>,
    }

    impl From<MonsterKind> for crate::sim::MonsterKind {
        fn from(k: MonsterKind) -> Self {
            crate::sim::MonsterKind {
                name: k.name,
                glyph: k.glyph,
                colour: k.colour,
                speed: k.speed,
                traits: k.traits,
                ..crate::sim::MonsterKind::default()
            }
        }
    }

    /// The state a run saved before Combat: no Combat state, kinds without
    /// its fields.
    #[derive(Deserialize)]
    pub(super) struct RunState {
        kinds: Vec<MonsterKind>,
        seed: u64,
        rng: Pcg64,
        levels: Vec<Option<LevelState>>,
        player: Player,
        turn: u64,
        killed: u32,
        log: Vec<String>,
        outcome: Outcome,
    }

    impl From<RunState> for crate::sim::RunState {
        fn from(s: RunState) -> Self {
            crate::sim::RunState::stomp(
                s.kinds.into_iter().map(Into::into).collect(),
                s.seed,
                s.rng,
                s.levels,
                s.player,
                (s.turn, s.killed),
                s.log,
                s.outcome,
            )
        }
    }

    /// The config's first fields, in every format: the stack's size and
    /// the generator's numbers. Nested structs add no bytes in bincode, so
    /// splitting the config here leaves the format as it was.
    #[derive(Deserialize)]
    pub(super) struct Stack {
        width: u16,
        height: u16,
        levels: u16,
        rooms: RoomConfig,
        hardness: HardnessConfig,
        tunnel: TunnelConfig,
        stairs: StairsConfig,
    }

    /// The generator's layout options, which format 2 added after the
    /// stack's fields.
    #[derive(Deserialize)]
    pub(super) struct Layout {
        pub(super) corridors: CorridorStyle,
        pub(super) grid_spacing: u16,
        #[serde(with = "crate::config::grid_segment_field")]
        pub(super) grid_segment: Range,
        pub(super) rooms_may_overlap: bool,
        pub(super) extra_loops: LoopConfig,
        pub(super) dead_ends: DeadEndPolicy,
    }

    #[derive(Deserialize)]
    pub(crate) struct Config {
        stack: Stack,
        layout: Layout,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    /// A run of format 2, or of format 1 with its own config: the config,
    /// then the state before Combat.
    #[derive(Deserialize)]
    pub(super) struct Run<C = Config> {
        config: C,
        state: RunState,
    }

    /// Today's config from the parts formats 1 to 4 hold (formats 1 to 3
    /// with the pre-Combat rules, format 4 with today's).
    pub(super) fn config(
        stack: Stack,
        layout: Layout,
        simulation: impl Into<config::SimulationConfig>,
        generation_retries: u16,
    ) -> config::Config {
        config::Config {
            width: stack.width,
            height: stack.height,
            levels: stack.levels,
            rooms: stack.rooms,
            hardness: stack.hardness,
            tunnel: stack.tunnel,
            stairs: stack.stairs,
            corridors: layout.corridors,
            grid_spacing: layout.grid_spacing,
            grid_segment: layout.grid_segment,
            rooms_may_overlap: layout.rooms_may_overlap,
            extra_loops: layout.extra_loops,
            dead_ends: layout.dead_ends,
            simulation: simulation.into(),
            generation_retries,
            room_loops: config::RoomLoopConfig::NONE,
            vaults: config::VaultConfig::NONE,
            profiles: Vec::new(),
            revisions: config::Revisions::FIRST,
        }
    }

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config(c.stack, c.layout, c.simulation, c.generation_retries)
        }
    }

    impl<C: Into<config::Config>> From<Run<C>> for crate::sim::Run {
        fn from(r: Run<C>) -> Self {
            crate::sim::Run::from_saved(r.config.into(), r.state.into(), None, Vec::new())
        }
    }
}

/// One run in a directory listing: its save, its backup, or both.
#[derive(Debug)]
pub struct Listing {
    /// The save's name, without `.sav`.
    pub name: String,
    /// `NAME.sav`, unless only the backup is there.
    pub save: Option<Checked>,
    /// `NAME.sav.bak`, if there is one.
    pub backup: Option<Checked>,
}

/// A file checked the cheap way: its header and its body's length and
/// checksum, without decompressing or decoding anything.
#[derive(Debug)]
pub struct Checked {
    /// Bytes on disk.
    pub size: u64,
    /// The summary, or why the file is not an intact save.
    pub status: Result<Summary, SaveError>,
}

/// A directory of saves, named `NAME.sav`.
#[derive(Clone, Debug)]
pub struct SaveDir {
    dir: PathBuf,
}

/// A held lock on one save name; released on drop. Saving needs it, and
/// how it was taken says whether the save may replace what is there.
#[derive(Debug)]
pub struct SaveLock {
    name: String,
    /// Held open for as long as the lock is: closing it releases the lock.
    _file: File,
}

/// Whether a process id belongs to a running process (Linux's /proc;
/// elsewhere every pid counts as alive, so nothing is swept by mistake).
fn alive(pid: &str) -> bool {
    if cfg!(target_os = "linux") {
        !pid.is_empty()
            && pid.bytes().all(|b| b.is_ascii_digit())
            && Path::new("/proc").join(pid).exists()
    } else {
        true
    }
}

/// Whether anything (a file, a link, a FIFO...) has this name; links are
/// not followed, so a dangling one counts.
fn present(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok()
}

/// Why bytes did not decode, in words for a person: bincode's own
/// `Display` is its `Debug` (`UnexpectedEnd { additional: 1 }`).
pub(crate) fn decode_problem(e: &bincode::error::DecodeError) -> String {
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

/// What a file that is not a regular file is, in a few words.
pub(crate) fn kind_of(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// Refuses anything but a regular file, by metadata that was not read
/// through a link.
fn check_regular(path: &Path, meta: &fs::Metadata) -> Result<(), SaveError> {
    if meta.file_type().is_file() {
        Ok(())
    } else {
        Err(SaveError::NotRegular {
            path: path.display().to_string(),
            kind: kind_of(meta),
        })
    }
}

/// Open options that never follow a link in the last component of the
/// path and never wait on a FIFO, so that what is opened can be checked
/// (with `fstat`) before it is used.
pub(crate) fn guarded(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options
}

/// An open error, naming a link that appeared where a file was expected
/// (between the check and the open) as such.
fn open_error(path: &Path) -> impl FnOnce(io::Error) -> SaveError + '_ {
    move |e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return SaveError::NotRegular {
                path: path.display().to_string(),
                kind: "a symbolic link",
            };
        }
        io_error(path)(e)
    }
}

/// Opens a save for reading: only a regular file, never through a link,
/// and never one larger than a save can be. The type is checked before
/// the open (a FIFO or a device is never opened) and again on what was
/// opened (it may have been swapped in between). Returns its size.
fn open_save(path: &Path) -> Result<(File, u64), SaveError> {
    let before = fs::symlink_metadata(path).map_err(io_error(path))?;
    check_regular(path, &before)?;
    let file = guarded(OpenOptions::new().read(true))
        .open(path)
        .map_err(open_error(path))?;
    let meta = file.metadata().map_err(io_error(path))?;
    check_regular(path, &meta)?;
    if meta.len() > MAX_FILE {
        return Err(SaveError::TooLarge {
            path: path.display().to_string(),
            size: meta.len(),
        });
    }
    Ok((file, meta.len()))
}

/// The bytes of a save file, with [`open_save`]'s checks; never more than
/// a save can hold, even if the file grows while it is read.
fn read_save(path: &Path) -> Result<Vec<u8>, SaveError> {
    use std::io::Read;
    let (file, size) = open_save(path)?;
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(MAX_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error(path))?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(SaveError::TooLarge {
            path: path.display().to_string(),
            size: bytes.len() as u64,
        });
    }
    Ok(bytes)
}

/// Checks a save the cheap way, as `delve saves` does: the header (its
/// checksum, magic and version), the body's length and the body's
/// checksum, reading the body in pieces and decoding nothing. A file that
/// passes is intact as written; only [`read_and_decode`] says it loads.
pub fn check_file(path: &Path) -> Result<Summary, SaveError> {
    use std::io::Read;
    let name = path.display().to_string();
    let (file, size) = open_save(path)?;
    let mut file = file.take(size);
    let mut header = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(io_error(path))?;
    let parsed = read_header(&header, &name)?;
    check_frame(&parsed, size - HEADER_LEN as u64, &name)?;
    let mut crc = crc32fast::Hasher::new();
    let mut piece = vec![0u8; 1 << 16];
    let mut read = 0u64;
    loop {
        let n = file.read(&mut piece).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        crc.update(&piece[..n]);
        read += n as u64;
    }
    if read != parsed.body_len {
        return Err(SaveError::Truncated(name));
    }
    if crc.finalize() != parsed.body_crc {
        return Err(SaveError::Damaged {
            path: name,
            what: "body checksum mismatch".into(),
        });
    }
    Ok(parsed.summary)
}

/// Reads, decodes and validates one save file: everything loading does.
/// Links, FIFOs, devices and files too large to be a save are refused
/// before anything is read.
pub fn read_and_decode(path: &Path) -> Result<(Run, Summary), SaveError> {
    let bytes = read_save(path)?;
    decode(&bytes, &path.display().to_string())
}

/// What `NAME.sav` holds when a save is about to replace it.
enum Previous {
    None,
    /// An intact save at this turn.
    Intact {
        turn: u64,
    },
    /// Something that is not an intact save: kept aside, never deleted.
    Damaged,
}

impl SaveDir {
    /// The directory, created on demand; stale temporary files of dead
    /// processes are swept. For commands that write.
    pub fn open(dir: &Path) -> Result<SaveDir, SaveError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let save_dir = SaveDir {
            dir: dir.to_path_buf(),
        };
        save_dir.sweep();
        Ok(save_dir)
    }

    /// The directory as it is, for commands that only read: neither made
    /// nor swept.
    pub fn existing(dir: &Path) -> Result<SaveDir, SaveError> {
        match fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => Ok(SaveDir {
                dir: dir.to_path_buf(),
            }),
            Ok(_) => Err(SaveError::NotADirectory(dir.display().to_string())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                Err(SaveError::NoDirectory(dir.display().to_string()))
            }
            Err(e) => Err(io_error(dir)(e)),
        }
    }

    /// The directory the saves are in.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Removes `*.tmp.PID` files whose process is gone.
    fn sweep(&self) {
        let Ok(entries) = fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if let Some((_, pid)) = name.rsplit_once(".tmp.")
                && !alive(pid)
            {
                let _ = fs::remove_file(entry.path());
            }
        }
    }

    /// Refuses a name that is not 1 to 64 letters, digits, '-' and '_'.
    pub fn check_name(name: &str) -> Result<(), SaveError> {
        let ok = !name.is_empty()
            && name.len() <= 64
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if ok {
            Ok(())
        } else {
            Err(SaveError::BadName(name.into()))
        }
    }

    /// Where the save NAME lives: `NAME.sav`; the name is not checked here.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav"))
    }

    /// Where the save NAME's previous version is kept: `NAME.sav.bak`.
    pub fn backup(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav.bak"))
    }

    /// Where NAME's morgue file goes: beside its save (DCSS's name).
    pub fn morgue(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.morgue.txt"))
    }

    /// Writes NAME's morgue file (the caller holds NAME's lock): through a
    /// temporary file and a rename, never through a link or onto anything
    /// but a regular file.
    pub fn write_morgue(
        &self,
        name: &str,
        text: &str,
        _lock: &SaveLock,
    ) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        let path = self.morgue(name);
        if let Ok(meta) = fs::symlink_metadata(&path) {
            check_regular(&path, &meta)?;
        }
        let tmp = self
            .dir
            .join(format!(".{name}.morgue.tmp.{}", std::process::id()));
        let mut file = guarded(OpenOptions::new().write(true).create_new(true))
            .open(&tmp)
            .map_err(open_error(&tmp))?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(io_error(&tmp))?;
        fs::rename(&tmp, &path).map_err(io_error(&path))?;
        Ok(path)
    }

    /// Whether NAME has a save or a backup (of any kind, links included).
    pub fn has(&self, name: &str) -> bool {
        present(&self.file(name)) || present(&self.backup(name))
    }

    /// Takes the lock for a save name: one process per save. The holder
    /// may load the save and save over it (continuing the run it holds).
    pub fn lock(&self, name: &str) -> Result<SaveLock, SaveError> {
        Self::check_name(name)?;
        // An advisory lock (flock) on a file that stays in place: the
        // kernel releases it when its holder exits however it exits, so a
        // lock is never stale, and never deleting the file means two
        // processes can never lock two different files under one name.
        let path = self.dir.join(format!(".{name}.lock"));
        // The file is written (the holder's pid): only a regular file of
        // our own, never through a link, never a file linked elsewhere.
        if let Ok(meta) = fs::symlink_metadata(&path) {
            check_regular(&path, &meta)?;
        }
        let mut file = guarded(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )
        .open(&path)
        .map_err(open_error(&path))?;
        let meta = file.metadata().map_err(io_error(&path))?;
        check_regular(&path, &meta)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if meta.nlink() != 1 {
                return Err(SaveError::NotRegular {
                    path: path.display().to_string(),
                    kind: "a file with other hard links",
                });
            }
        }
        match file.try_lock() {
            Ok(()) => {
                // The holder's pid, for the message another process shows.
                let _ = file
                    .set_len(0)
                    .and_then(|()| write!(file, "{}", std::process::id()));
                Ok(SaveLock {
                    name: name.into(),
                    _file: file,
                })
            }
            Err(TryLockError::WouldBlock) => {
                use std::io::Read;
                let mut pid = String::new();
                let _ = (&file).take(32).read_to_string(&mut pid);
                let pid = pid.trim();
                Err(SaveError::Locked {
                    name: name.into(),
                    pid: if pid.is_empty() {
                        "(unknown)".into()
                    } else {
                        pid.into()
                    },
                    lock: path.display().to_string(),
                })
            }
            Err(TryLockError::Error(e)) => Err(io_error(&path)(e)),
        }
    }

    /// Takes the lock for a new run's save: a new run never replaces the
    /// save (or the lone backup) of another run unless `replace` says so.
    /// Continuing a run is [`SaveDir::lock`] and a load.
    pub fn lock_new(&self, name: &str, replace: bool) -> Result<SaveLock, SaveError> {
        let lock = self.lock(name)?;
        self.refuse_taken(name, replace)?;
        Ok(lock)
    }

    /// [`SaveDir::lock_new`]'s refusal without the lock: what a command
    /// checks before it makes or writes anything, so a refused one leaves
    /// no lock file behind. The lock taken afterwards checks again.
    pub fn refuse_taken(&self, name: &str, replace: bool) -> Result<(), SaveError> {
        Self::check_name(name)?;
        if !replace && self.has(name) {
            return Err(SaveError::Taken {
                name: name.into(),
                dir: self.dir.display().to_string(),
                holds: self.describe(name),
            });
        }
        Ok(())
    }

    /// Refuses a link, directory, FIFO or device at a path a session
    /// saving NAME writes: its save, backup and morgue, and `also` (its
    /// journal, which the journal module names). Checked before the name
    /// is locked and its journal opened, so a command that could not save
    /// in the end changes nothing on its way (a link at the backup once let
    /// a session replace another run's journal first).
    pub fn refuse_foreign(&self, name: &str, also: &[PathBuf]) -> Result<(), SaveError> {
        Self::check_name(name)?;
        let own = [self.file(name), self.backup(name), self.morgue(name)];
        for path in own.iter().chain(also) {
            if let Ok(meta) = fs::symlink_metadata(path) {
                check_regular(path, &meta)?;
            }
        }
        Ok(())
    }

    /// What NAME's save holds, in a few words, from its header.
    fn describe(&self, name: &str) -> String {
        let (path, what) = if present(&self.file(name)) {
            (self.file(name), "")
        } else {
            (self.backup(name), "only its backup: ")
        };
        match check_file(&path) {
            Ok(s) => format!(
                "{what}seed {}, depth {}, turn {}, {}",
                s.seed,
                s.depth,
                s.turn,
                s.outcome.name()
            ),
            Err(e) => format!("{what}{}", e.problem()),
        }
    }

    /// Saves atomically, and keeps the save before as `NAME.sav.bak`.
    ///
    /// The new bytes go to a temporary file that is synced; the current
    /// save, if it is an intact save of an earlier turn, gets a second
    /// name (a hard link); the temporary file is renamed over `NAME.sav`;
    /// the second name is renamed over the backup; the directory is
    /// synced. So at every moment `NAME.sav` is a complete save, old or
    /// new, and the backup is an earlier turn than it, or as it was. A
    /// save that holds exactly this run already is left as it is (nothing
    /// is written), so saving twice at one turn keeps the older backup. A
    /// damaged `NAME.sav` is kept aside as `NAME.sav.damaged-N`. Links,
    /// FIFOs and the like are never written through.
    pub fn save(
        &self,
        name: &str,
        run: &Run,
        saved_at: u64,
        lock: &SaveLock,
    ) -> Result<PathBuf, SaveError> {
        self.save_observed(name, run, saved_at, lock, &mut |_| {})
    }

    /// [`SaveDir::save`], calling `observe` after each step that changes
    /// the directory, with the step's name: for tests that check every
    /// state a kill could leave.
    #[doc(hidden)]
    pub fn save_observed(
        &self,
        name: &str,
        run: &Run,
        saved_at: u64,
        lock: &SaveLock,
        observe: &mut dyn FnMut(&str),
    ) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        assert_eq!(lock.name, name, "saving needs the lock of the name saved");
        let bytes = encode(run, saved_at);
        let target = self.file(name);
        let backup = self.backup(name);
        let pid = std::process::id();
        let tmp = self.dir.join(format!(".{name}.sav.tmp.{pid}"));
        let kept = self.dir.join(format!(".{name}.sav.old.tmp.{pid}"));

        let previous = match fs::symlink_metadata(&target) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Previous::None,
            Err(e) => return Err(io_error(&target)(e)),
            Ok(_) => match read_save(&target) {
                Ok(old) => {
                    let name = target.display().to_string();
                    match read_header(&old, &name).and_then(|h| {
                        check_frame(&h, (old.len() - HEADER_LEN) as u64, &name)?;
                        Ok(h)
                    }) {
                        Ok(h) if crc32fast::hash(&old[HEADER_LEN..]) == h.body_crc => {
                            if old[HEADER_LEN..] == bytes[HEADER_LEN..] {
                                // This very run, already saved.
                                return Ok(target);
                            }
                            Previous::Intact {
                                turn: h.summary.turn,
                            }
                        }
                        Ok(_) => Previous::Damaged,
                        Err(e) if e.is_damage() => Previous::Damaged,
                        Err(e) => return Err(e),
                    }
                }
                Err(e) if e.is_damage() => Previous::Damaged,
                Err(e) => return Err(e),
            },
        };
        let keep = matches!(previous, Previous::Intact { turn } if turn < run.turn());
        // A link, directory, FIFO or device where the backup goes is
        // refused like one anywhere else in the directory, before anything
        // is written: renaming over it would replace what someone put there
        // (and onto a directory, fail after the new save is in place).
        if let Ok(meta) = fs::symlink_metadata(&backup)
            && !meta.file_type().is_file()
        {
            return Err(SaveError::NotRegular {
                path: backup.display().to_string(),
                kind: kind_of(&meta),
            });
        }

        let result = (|| {
            // 1. The new save, complete and synced, under a temporary name
            // (a leftover of a dead process with our pid, or a planted
            // link, is removed, never followed).
            let _ = fs::remove_file(&tmp);
            let mut f = guarded(OpenOptions::new().write(true).create_new(true))
                .open(&tmp)
                .map_err(open_error(&tmp))?;
            f.write_all(&bytes).map_err(io_error(&tmp))?;
            f.sync_all().map_err(io_error(&tmp))?;
            drop(f);
            observe("wrote the new save under a temporary name");
            // 2. The current save under a second name: the backup to be, or
            // a damaged file kept aside.
            match previous {
                Previous::Intact { .. } if keep => {
                    let _ = fs::remove_file(&kept);
                    second_name(&target, &kept)?;
                    observe("linked the current save to a temporary name");
                }
                Previous::Damaged => {
                    second_name(&target, &self.aside_name(name))?;
                    observe("kept the damaged save aside");
                }
                _ => {}
            }
            // 3. The new save in place.
            fs::rename(&tmp, &target).map_err(io_error(&target))?;
            observe("renamed the new save into place");
            // 4. The save before over the backup.
            if keep {
                fs::rename(&kept, &backup).map_err(io_error(&backup))?;
                observe("renamed the save before over the backup");
            }
            sync_dir(&self.dir).map_err(io_error(&self.dir))?;
            Ok(target.clone())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
            let _ = fs::remove_file(&kept);
        }
        result
    }

    /// Loads `NAME.sav`. If it is damaged, it is renamed aside (never
    /// deleted) and the backup is loaded instead; the returned warning says
    /// so. A save from a newer format is refused and left untouched, and
    /// so is anything that is not a regular file.
    pub fn load(&self, name: &str) -> Result<(Run, Summary, Option<String>), SaveError> {
        Self::check_name(name)?;
        let path = self.file(name);
        let backup = self.backup(name);
        if !present(&path) {
            if !present(&backup) {
                return Err(SaveError::Missing {
                    name: name.into(),
                    dir: self.dir.display().to_string(),
                });
            }
            let (run, summary) = read_and_decode(&backup)?;
            let warning = format!(
                "{} is missing; loaded the backup {} (turn {})",
                path.display(),
                backup.display(),
                summary.turn
            );
            return Ok((run, summary, Some(warning)));
        }
        match read_and_decode(&path) {
            Ok((run, summary)) => Ok((run, summary, None)),
            Err(e) if e.is_damage() => {
                // Only set the damaged file aside when there is a backup to
                // use instead; otherwise it stays where the player left it.
                let Ok((run, summary)) = read_and_decode(&backup) else {
                    return Err(e);
                };
                let aside = self.aside_name(name);
                fs::rename(&path, &aside).map_err(io_error(&path))?;
                let warning = format!(
                    "{e}; kept it as {} and loaded the backup {} (turn {})",
                    aside.display(),
                    backup.display(),
                    summary.turn
                );
                Ok((run, summary, Some(warning)))
            }
            Err(e) => Err(e),
        }
    }

    /// Sets the damaged `NAME.sav` aside as `NAME.sav.damaged-N` (never
    /// deleted), as [`SaveDir::load`] does when it loads the backup: for a
    /// caller that read the files itself (`journal::recover::read_run`)
    /// and loads the backup. The caller holds NAME's lock and found the
    /// save damaged. Returns the name the file now has.
    pub fn set_damaged_aside(&self, name: &str, lock: &SaveLock) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        assert_eq!(lock.name, name, "setting a save aside needs its lock");
        let path = self.file(name);
        let aside = self.aside_name(name);
        fs::rename(&path, &aside).map_err(io_error(&path))?;
        Ok(aside)
    }

    fn aside_name(&self, name: &str) -> PathBuf {
        (1..)
            .map(|n| self.dir.join(format!("{name}.sav.damaged-{n}")))
            .find(|p| !present(p))
            .expect("some name is free")
    }

    /// Every run in the directory (a `NAME.sav`, a `NAME.sav.bak`, or
    /// both), sorted by name, each file checked the cheap way
    /// ([`check_file`]): headers and checksums, no decoding.
    pub fn list(&self) -> Result<Vec<Listing>, SaveError> {
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir)
            .map_err(io_error(&self.dir))?
            .flatten()
        {
            let file = entry.file_name().to_string_lossy().to_string();
            let Some(name) = file
                .strip_suffix(".sav")
                .or_else(|| file.strip_suffix(".sav.bak"))
            else {
                continue;
            };
            if !name.starts_with('.') {
                names.push(name.to_string());
            }
        }
        names.sort();
        names.dedup();
        let checked = |path: PathBuf| {
            let size = fs::symlink_metadata(&path).ok()?.len();
            Some(Checked {
                size,
                status: check_file(&path),
            })
        };
        Ok(names
            .into_iter()
            .map(|name| Listing {
                save: checked(self.file(&name)),
                backup: checked(self.backup(&name)),
                name,
            })
            .collect())
    }
}

/// A second name for an existing file: a hard link, or where the file
/// system has none, a copy (written only to a new file, never through a
/// link).
fn second_name(from: &Path, to: &Path) -> Result<(), SaveError> {
    if fs::hard_link(from, to).is_ok() {
        return Ok(());
    }
    let bytes = read_save(from)?;
    let mut f = guarded(OpenOptions::new().write(true).create_new(true))
        .open(to)
        .map_err(open_error(to))?;
    f.write_all(&bytes).map_err(io_error(to))?;
    f.sync_all().map_err(io_error(to))
}

#[cfg(unix)]
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
pub(crate) fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}
