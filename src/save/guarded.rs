//! The rules every file in the saves directory is opened by, saves and
//! journals alike: never through a link, never waiting on a FIFO, and
//! what is not a plain file named for what it is. Also the one reader of
//! a save or a journal ([`open`], [`read`]), which refuses links, FIFOs,
//! devices and files larger than their kind may be before a byte is read.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

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

/// Makes the renames in `dir` durable: syncing a file does not sync the
/// name it was given.
#[cfg(unix)]
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Nothing to sync where directories cannot be opened as files.
#[cfg(not(unix))]
pub(crate) fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Why [`open`] or [`read`] gave no bytes, for the caller to name in its
/// own error (a save's or a journal's, whose messages differ).
#[derive(Debug)]
pub(crate) enum Refused {
    /// Looking at the path, without following a link, failed: nothing
    /// was opened.
    Stat(io::Error),
    /// Opening failed (but for a link that appeared after the look, which
    /// is [`Refused::NotRegular`]).
    Open(io::Error),
    /// Reading what was opened, its metadata or its bytes, failed.
    Read(io::Error),
    /// Not a plain file: what is there instead, in a few words.
    NotRegular(&'static str),
    /// Larger than the caller's limit: the size in bytes.
    TooLarge(u64),
}

/// What the file is opened for. Writing through a file with other hard
/// links would change another file too, so [`Access::ReadWrite`] refuses
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    /// Reading only.
    Read,
    /// Reading, then writing in place (a journal appended to).
    ReadWrite,
}

/// Refuses anything but a regular file, by metadata that was not read
/// through a link.
fn check_regular(meta: &fs::Metadata) -> Result<(), Refused> {
    if meta.file_type().is_file() {
        Ok(())
    } else {
        Err(Refused::NotRegular(kind_of(meta)))
    }
}

/// Opens a file only if it is a regular file of at most `max` bytes,
/// never through a link. The type is checked before the open (a FIFO or a
/// device is never opened) and again on what was opened (it may have been
/// swapped in between). Returns the file and its size.
pub(crate) fn open(path: &Path, access: Access, max: u64) -> Result<(File, u64), Refused> {
    let before = fs::symlink_metadata(path).map_err(Refused::Stat)?;
    check_regular(&before)?;
    let file = guarded(
        OpenOptions::new()
            .read(true)
            .write(access == Access::ReadWrite),
    )
    .open(path)
    .map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return Refused::NotRegular("a symbolic link");
        }
        Refused::Open(e)
    })?;
    let meta = file.metadata().map_err(Refused::Read)?;
    check_regular(&meta)?;
    if meta.len() > max {
        return Err(Refused::TooLarge(meta.len()));
    }
    #[cfg(unix)]
    if access == Access::ReadWrite {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() != 1 {
            return Err(Refused::NotRegular("a file with other hard links"));
        }
    }
    Ok((file, meta.len()))
}

/// The bytes of a file [`open`] gave (`size` as it said), never more than
/// `max` even if the file grows while it is read.
pub(crate) fn read_to_end(file: File, size: u64, max: u64) -> Result<Vec<u8>, Refused> {
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(Refused::Read)?;
    if bytes.len() as u64 > max {
        return Err(Refused::TooLarge(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The bytes of a regular file of at most `max` bytes: [`open`] for
/// reading, then [`read_to_end`].
pub(crate) fn read(path: &Path, max: u64) -> Result<Vec<u8>, Refused> {
    let (file, size) = open(path, Access::Read, max)?;
    read_to_end(file, size, max)
}
