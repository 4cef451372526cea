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

/// Asserts that `text` (what delve said) holds `needle`, showing it if not.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} not in:\n{text}");
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

/// Asserts delve refused its input as bad (exit 2) before doing anything
/// (nothing on standard output), and returns what it said.
pub fn refused(o: &Output) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty(), "went ahead anyway: {}", stdout(o));
    err
}

/// README.md as it is now.
pub fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// What the README shows `$ COMMAND` printing: the lines after it, to the
/// end of its code block.
pub fn readme_example(command: &str) -> String {
    let readme = readme();
    let start = readme
        .find(&format!("$ {command}\n"))
        .unwrap_or_else(|| panic!("README has no example of {command:?}"));
    let block = &readme[start..];
    block[block.find('\n').unwrap() + 1..block.find("```").unwrap()].to_string()
}

/// Damages a save on disk as a bad sector would (the last byte of its
/// body flipped, so its checksum fails); returns the damaged bytes.
pub fn damage(save: &Path) -> Vec<u8> {
    let mut bytes = std::fs::read(save).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(save, &bytes).unwrap();
    bytes
}

/// A rectangular room without doors, for hand-drawn levels.
pub fn rect_room(x: u16, y: u16, width: u16, height: u16) -> delve::Room {
    delve::Room {
        shape: delve::Shape::Rect(delve::Rect {
            x,
            y,
            width,
            height,
        }),
        doors: vec![],
    }
}

/// A monster kind of `speed` with `traits`, its glyph its name's first
/// letter.
pub fn monster_kind(
    name: &str,
    speed: u8,
    traits: &[delve::sim::Trait],
) -> delve::sim::MonsterKind {
    delve::sim::MonsterKind {
        name: name.into(),
        glyph: name.chars().next().unwrap(),
        colour: delve::sim::Colour::Red,
        speed,
        traits: traits.to_vec(),
        ..delve::sim::MonsterKind::default()
    }
}
