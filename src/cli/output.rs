//! Writing a command's output: to a file, or to standard output, which may
//! have been closed from the start or stop reading early.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::CliError;

/// Whether standard output was closed when delve started, as by `delve
/// generate >&-`. Rust's runtime puts /dev/null in place of a closed
/// standard stream before `main` runs (so no file opened later takes its
/// number), after which every write "succeeds" into nothing; so this looks
/// first, from the program's initialisers, which run before the runtime's
/// own setup. On other systems a closed standard output goes unnoticed.
static STDOUT_CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

#[cfg(any(target_os = "linux", target_os = "android"))]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg(target_os = "macos")]
#[used]
#[unsafe(link_section = "__DATA,__mod_init_func")]
static NOTE_CLOSED_STDOUT: extern "C" fn() = note_closed_stdout;

#[cfg(any(target_os = "linux", target_os = "android", target_os = "macos"))]
extern "C" fn note_closed_stdout() {
    // SAFETY: F_GETFD only reads the descriptor's flags, and fails (with
    // EBADF) exactly when the descriptor is not open.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// Writes the command's output to `out`, or to standard output. A write
/// that fails is a failure (exit 1), including to a standard output closed
/// from the start; a reader that stops early (`delve generate | head`) is
/// not: it has what it wanted.
pub fn write_output(out: Option<&Path>, bytes: &[u8]) -> Result<(), CliError> {
    write_output_parts(out, &[bytes])
}

/// [`write_output`] of `parts` one after another, as if joined: output
/// made in pieces (a level each) is written without first copying it
/// into one.
pub fn write_output_parts(out: Option<&Path>, parts: &[impl AsRef<[u8]>]) -> Result<(), CliError> {
    let write_all = |sink: &mut dyn Write| -> std::io::Result<()> {
        for part in parts {
            sink.write_all(part.as_ref())?;
        }
        sink.flush()
    };
    match out {
        Some(path) => std::fs::File::create(path)
            .and_then(|mut file| write_all(&mut file))
            .map_err(|source| CliError::Write {
                path: path.display().to_string(),
                source,
            }),
        None if STDOUT_CLOSED_AT_START.load(Ordering::Relaxed) => Err(CliError::Write {
            path: "standard output".into(),
            source: std::io::Error::other("it was closed when delve started"),
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            match write_all(&mut stdout) {
                // A reader that stopped early (`delve generate | head`) is not a failure.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                result => result.map_err(|source| CliError::Write {
                    path: "standard output".into(),
                    source,
                }),
            }
        }
    }
}
