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

pub const MAGIC: &[u8; 8] = b"DELVESAV";
/// The format this build writes. Every older version it has shipped must
/// still load (see `tests/fixtures/`).
pub const FORMAT_VERSION: u16 = 2;
pub const HEADER_LEN: usize = 96;
/// Flag bit: the body is zstd-compressed.
const FLAG_ZSTD: u16 = 1;
/// The largest decoded body accepted. A maximal config (64 million cells
/// over all levels, two bytes a cell) stays below it; a forged length
/// beyond it is refused before anything is allocated.
pub const MAX_BODY: u64 = 256 * 1024 * 1024;
const PROGRAM_VERSION: &str = env!("CARGO_PKG_VERSION");

/// What `delve saves` shows, read from the header alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub seed: u64,
    pub depth: u16,
    pub turn: u64,
    pub outcome: Outcome,
    /// Seconds since the Unix epoch.
    pub saved_at: u64,
    pub program: String,
    pub format: u16,
}

/// Why a save could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{0}: not a delve save")]
    NotASave(String),
    #[error(
        "{path}: made by a newer delve (save format {found}, this build reads up to {FORMAT_VERSION}); it is left untouched"
    )]
    NewerFormat { path: String, found: u16 },
    #[error("{0}: truncated")]
    Truncated(String),
    #[error("{path}: damaged ({what})")]
    Damaged { path: String, what: String },
    #[error("{path}: inconsistent state: {what}")]
    Inconsistent { path: String, what: String },
    #[error("save {name} is in use by process {pid} (lock file {lock})")]
    Locked {
        name: String,
        pid: String,
        lock: String,
    },
    #[error("{0:?} is not a usable save name: use 1 to 64 letters, digits, '-' and '_'")]
    BadName(String),
    #[error("no save named {name} in {dir} (`delve saves` lists them)")]
    Missing { name: String, dir: String },
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
        )
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

/// Decodes and validates a save. `path` names it in errors.
pub fn decode(bytes: &[u8], path: &str) -> Result<(Run, Summary), SaveError> {
    let header = read_header(bytes, path)?;
    let damaged = |what: String| SaveError::Damaged {
        path: path.into(),
        what,
    };
    let body = &bytes[HEADER_LEN..];
    if (body.len() as u64) < header.body_len {
        return Err(SaveError::Truncated(path.into()));
    }
    if body.len() as u64 > header.body_len {
        return Err(damaged(format!(
            "{} bytes after the end of the save",
            body.len() as u64 - header.body_len
        )));
    }
    if crc32fast::hash(body) != header.body_crc {
        return Err(damaged("body checksum mismatch".into()));
    }
    if header.raw_len > MAX_BODY {
        return Err(damaged(format!(
            "claims a body of {} bytes, more than the {MAX_BODY} allowed",
            header.raw_len
        )));
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
        what: format!("cannot decode: {e}"),
    };
    let (mut run, used): (Run, usize) = match header.summary.format {
        1 => {
            let (old, used): (v1::Run, usize) =
                bincode::serde::decode_from_slice(&raw, config).map_err(cannot)?;
            (old.into(), used)
        }
        _ => bincode::serde::decode_from_slice(&raw, config).map_err(cannot)?,
    };
    if used != raw.len() {
        return Err(damaged(format!(
            "{} bytes left over after the run",
            raw.len() - used
        )));
    }
    run.validate().map_err(|what| SaveError::Inconsistent {
        path: path.into(),
        what,
    })?;
    run.after_load();
    Ok((run, header.summary))
}

/// Format 1, read by this build and converted on load. Format 2 added
/// the generator's layout options to `Config` (corridor style, grid
/// geometry, overlapping rooms, extra loops, dead-end policy); a format-1
/// run gets the values that reproduce format 1's generator, so its levels
/// not yet visited come out as they would have.
mod v1 {
    use rand_pcg::Pcg64;
    use serde::Deserialize;

    use crate::config::{
        self, CorridorStyle, DeadEndPolicy, HardnessConfig, LoopConfig, Range, RoomConfig,
        SimulationConfig, StairsConfig, TunnelConfig,
    };
    use crate::sim::{LevelState, MonsterKind, Outcome, Player};

    #[derive(Deserialize)]
    pub(super) struct Config {
        width: u16,
        height: u16,
        levels: u16,
        rooms: RoomConfig,
        hardness: HardnessConfig,
        tunnel: TunnelConfig,
        stairs: StairsConfig,
        simulation: SimulationConfig,
        generation_retries: u16,
    }

    #[derive(Deserialize)]
    pub(super) struct Run {
        config: Config,
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

    impl From<Config> for config::Config {
        fn from(c: Config) -> Self {
            config::Config {
                width: c.width,
                height: c.height,
                levels: c.levels,
                rooms: c.rooms,
                hardness: c.hardness,
                tunnel: c.tunnel,
                stairs: c.stairs,
                corridors: CorridorStyle::Tunnel,
                grid_spacing: 6,
                grid_segment: Range::new(3, 6),
                rooms_may_overlap: false,
                extra_loops: LoopConfig {
                    count: 0,
                    ..LoopConfig::default()
                },
                dead_ends: DeadEndPolicy::Keep,
                simulation: c.simulation,
                generation_retries: c.generation_retries,
            }
        }
    }

    impl From<Run> for crate::sim::Run {
        fn from(r: Run) -> Self {
            crate::sim::Run::from_parts(
                r.config.into(),
                r.kinds,
                r.seed,
                r.rng,
                r.levels,
                r.player,
                r.turn,
                r.killed,
                r.log,
                r.outcome,
            )
        }
    }
}

/// One save in a directory listing.
#[derive(Debug)]
pub struct Listing {
    pub name: String,
    /// Bytes on disk.
    pub size: u64,
    /// The summary, or why the save would not load.
    pub status: Result<Summary, SaveError>,
}

/// A directory of saves, named `NAME.sav`.
#[derive(Clone, Debug)]
pub struct SaveDir {
    dir: PathBuf,
}

/// A held lock on one save name; released on drop.
#[derive(Debug)]
pub struct SaveLock {
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

impl SaveDir {
    /// The directory, created on demand; stale temporary files of dead
    /// processes are swept.
    pub fn open(dir: &Path) -> Result<SaveDir, SaveError> {
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        let save_dir = SaveDir {
            dir: dir.to_path_buf(),
        };
        save_dir.sweep();
        Ok(save_dir)
    }

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

    fn check_name(name: &str) -> Result<(), SaveError> {
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

    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav"))
    }

    pub fn backup(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.sav.bak"))
    }

    /// Takes the lock for a save name: one process per save.
    pub fn lock(&self, name: &str) -> Result<SaveLock, SaveError> {
        Self::check_name(name)?;
        // An advisory lock (flock) on a file that stays in place: the
        // kernel releases it when its holder exits however it exits, so a
        // lock is never stale, and never deleting the file means two
        // processes can never lock two different files under one name.
        let path = self.dir.join(format!(".{name}.lock"));
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_error(&path))?;
        match file.try_lock() {
            Ok(()) => {
                // The holder's pid, for the message another process shows.
                let _ = file
                    .set_len(0)
                    .and_then(|()| write!(file, "{}", std::process::id()));
                Ok(SaveLock { _file: file })
            }
            Err(TryLockError::WouldBlock) => {
                let pid = fs::read_to_string(&path).unwrap_or_default();
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

    /// Saves atomically: the new bytes go to a temporary file that is
    /// synced, the current save is kept as `NAME.sav.bak`, the temporary
    /// file is renamed over `NAME.sav`, and the directory is synced. At
    /// every moment `NAME.sav` is a complete save, old or new.
    pub fn save(
        &self,
        name: &str,
        run: &Run,
        saved_at: u64,
        _lock: &SaveLock,
    ) -> Result<PathBuf, SaveError> {
        Self::check_name(name)?;
        let bytes = encode(run, saved_at);
        let target = self.file(name);
        let tmp = self
            .dir
            .join(format!(".{name}.sav.tmp.{}", std::process::id()));
        let result = (|| {
            let mut f = File::create(&tmp).map_err(io_error(&tmp))?;
            f.write_all(&bytes).map_err(io_error(&tmp))?;
            f.sync_all().map_err(io_error(&tmp))?;
            drop(f);
            if target.exists() {
                // Keep the previous save: a hard link, so NAME.sav itself
                // never goes missing, moved over the old backup atomically.
                let bak_tmp = self
                    .dir
                    .join(format!(".{name}.sav.bak.tmp.{}", std::process::id()));
                let _ = fs::remove_file(&bak_tmp);
                fs::hard_link(&target, &bak_tmp)
                    .or_else(|_| fs::copy(&target, &bak_tmp).map(|_| ()))
                    .map_err(io_error(&bak_tmp))?;
                let backup = self.backup(name);
                fs::rename(&bak_tmp, &backup).map_err(|e| {
                    let _ = fs::remove_file(&bak_tmp);
                    io_error(&backup)(e)
                })?;
            }
            fs::rename(&tmp, &target).map_err(io_error(&target))?;
            sync_dir(&self.dir).map_err(io_error(&self.dir))?;
            Ok(target.clone())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&tmp);
        }
        result
    }

    /// Loads `NAME.sav`. If it is damaged, it is renamed aside (never
    /// deleted) and the backup is loaded instead; the returned warning says
    /// so. A save from a newer format is refused and left untouched.
    pub fn load(&self, name: &str) -> Result<(Run, Summary, Option<String>), SaveError> {
        Self::check_name(name)?;
        let path = self.file(name);
        let backup = self.backup(name);
        if !path.exists() {
            if !backup.exists() {
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

    fn aside_name(&self, name: &str) -> PathBuf {
        (1..)
            .map(|n| self.dir.join(format!("{name}.sav.damaged-{n}")))
            .find(|p| !p.exists())
            .expect("some name is free")
    }

    /// Every `NAME.sav` in the directory, sorted by name, with its summary
    /// or what is wrong with it.
    pub fn list(&self) -> Result<Vec<Listing>, SaveError> {
        let mut out = Vec::new();
        for entry in fs::read_dir(&self.dir)
            .map_err(io_error(&self.dir))?
            .flatten()
        {
            let path = entry.path();
            let file = entry.file_name().to_string_lossy().to_string();
            let Some(name) = file.strip_suffix(".sav") else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
            let status = read_and_decode(&path).map(|(_, s)| s);
            out.push(Listing {
                name: name.to_string(),
                size,
                status,
            });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(out)
    }
}

/// Reads and decodes one file.
pub fn read_and_decode(path: &Path) -> Result<(Run, Summary), SaveError> {
    let bytes = fs::read(path).map_err(io_error(path))?;
    decode(&bytes, &path.display().to_string())
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}
