//! The numbers that define a save file: its magic bytes, its format
//! version, its header's length and the largest body and file it may be.
//! Apart from the header's code so the errors can name them too.

/// The first eight bytes of every save, so other files are told apart at once.
pub const MAGIC: &[u8; 8] = b"DELVESAV";
/// The format this build writes. Every older version it has shipped must
/// still load (see `tests/fixtures/`).
pub const FORMAT_VERSION: u16 = 8;
/// Bytes of the fixed header before the body; its last four are the header's CRC-32.
pub const HEADER_LEN: usize = 96;
/// Flag bit: the body is zstd-compressed.
pub(crate) const FLAG_ZSTD: u16 = 1;
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
