//! The journal's framing: the file header, and blocks (a 48-byte header
//! and a zstd body under one CRC), written, parsed, and checked the cheap
//! way (lengths, checksum, flags) or in full (decompressed). What a block
//! holds is `start.rs`'s and `actions.rs`'s.

/// The largest journal file read: anything larger is refused before a
/// byte of it is read.
pub const MAX_FILE: u64 = 1024 * 1024 * 1024;

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
/// The largest block body accepted, decompressed or stored. Writers flush
/// long before (a block a save or level change, or every
/// [`FLUSH_ACTIONS`](crate::journal::FLUSH_ACTIONS) actions).
pub const MAX_BLOCK: u64 = 16 * 1024 * 1024;

pub(super) const KIND_START: u8 = 1;
pub(super) const KIND_ACTIONS: u8 = 2;
const FLAG_ZSTD: u8 = 1;
/// Flag bit: the block's turn and digest are a checkpoint (a block a writer
/// appends between saves and level changes, only to bound its size, has
/// none: a digest costs a walk over the whole run).
pub(super) const FLAG_CHECKPOINT: u8 = 2;

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
pub(super) fn block(
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

/// A block's header, parsed.
pub(super) struct BlockHeader {
    pub(super) stored: u64,
    pub(super) crc: u32,
    pub(super) kind: u8,
    pub(super) flags: u8,
    pub(super) state_format: u16,
    pub(super) raw: u64,
    pub(super) before: u64,
    pub(super) count: u64,
    pub(super) turn: u64,
    pub(super) digest: u64,
}

pub(super) fn parse_block_header(b: &[u8]) -> BlockHeader {
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
pub(super) fn check_block(bytes: &[u8]) -> Result<(BlockHeader, usize), String> {
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
pub(super) fn read_block(bytes: &[u8]) -> Result<(BlockHeader, Vec<u8>, usize), String> {
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
