//! The rules every file in the saves directory is opened by, saves and
//! journals alike: never through a link, never waiting on a FIFO, and
//! what is not a plain file named for what it is.

use std::fs::{self, File, OpenOptions};
use std::io;
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
