//! One save file read: in full to load it, or the cheap way (header and
//! checksums, nothing decoded) to list it.

use std::path::Path;

use crate::save::encoding::decode;
use crate::save::error::{SaveError, io_error, refused};
use crate::save::format::{HEADER_LEN, MAX_FILE};
use crate::save::guarded::{self, Access};
use crate::save::header::{Summary, check_frame, read_header};
use crate::sim::Run;

/// The bytes of a save file, read by the guarded reader: only a regular
/// file, never through a link, never more than a save can hold.
pub(super) fn read_save(path: &Path) -> Result<Vec<u8>, SaveError> {
    guarded::read(path, MAX_FILE).map_err(refused(path))
}

/// Checks a save the cheap way, as `delve saves` does: the header (its
/// checksum, magic and version), the body's length and the body's
/// checksum, reading the body in pieces and decoding nothing. A file that
/// passes is intact as written; only [`read_and_decode`] says it loads.
pub fn check_file(path: &Path) -> Result<Summary, SaveError> {
    use std::io::Read;
    let name = path.display().to_string();
    let (file, size) = guarded::open(path, Access::Read, MAX_FILE).map_err(refused(path))?;
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
