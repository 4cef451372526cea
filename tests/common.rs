//! What every test file shares: the delve binary, what it said, and
//! scratch directories of a test's own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The delve binary cargo built for these tests.
pub const DELVE: &str = env!("CARGO_BIN_EXE_delve");

/// Runs delve with `args` and waits for it to finish.
pub fn delve(args: &[&str]) -> Output {
    Command::new(DELVE).args(args).output().expect("delve runs")
}

/// Runs delve with `saves` as its saves directory.
pub fn delve_in(saves: &Path, args: &[&str]) -> Output {
    Command::new(DELVE)
        .arg("--saves-dir")
        .arg(saves)
        .args(args)
        .output()
        .expect("delve runs")
}

/// What delve wrote to standard output; delve writes only UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("standard output is UTF-8")
}

/// What delve wrote to standard error; delve writes only UTF-8.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("standard error is UTF-8")
}

/// Asserts that delve exited 0, showing what it said if not.
pub fn ok(o: &Output) {
    assert!(o.status.success(), "{:?}: {}", o.status, stderr(o));
}

/// A scratch directory of one test's own (from `tempfile`), removed when
/// dropped. Its name starts `delve-NAME-` to tell a leftover's test.
pub struct TempDir(tempfile::TempDir);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("delve-{name}-"))
            .tempdir()
            .expect("a scratch directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// Writes `text` to the file `name` in the directory; its path, as a
    /// command-line argument.
    pub fn file(&self, name: &str, text: &str) -> String {
        let path = self.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }
}
