//! Reading a vault file (`data/vaults.ron`): RON in, checked [`Vault`]s out,
//! every problem located in the file like a config error, and a problem
//! in a drawing also by its row and column in the drawing:
//!
//! `vaults.ron:42:9: vault "crypt", map row 3, column 7: 'Q' is not a known
//! glyph or monster`
//!
//! The file position of a drawing's cell is found by a small scan for the
//! string literals of each `map` list, so it points at the character
//! itself.

use std::path::Path;

use crate::ron_diag::{ConfigError, Location, parse, read_text};
use crate::vault::{Vault, VaultDraft, VaultProblem, build};

/// Reads, parses and checks a vault file. `is_monster` says which letters
/// are monster kinds.
pub fn load_vaults(
    path: &Path,
    is_monster: &dyn Fn(char) -> bool,
) -> Result<Vec<Vault>, ConfigError> {
    load_vaults_for(path, is_monster, None)
}

/// [`load_vaults`] for levels of `level` = (width, height): a vault that
/// could never stand in such a level is refused too.
pub fn load_vaults_for(
    path: &Path,
    is_monster: &dyn Fn(char) -> bool,
    level: Option<(u16, u16)>,
) -> Result<Vec<Vault>, ConfigError> {
    let (text, origin) = read_text(path)?;
    vaults_from_ron_for(&text, &origin, is_monster, level)
}

/// Parses and checks the text of a vault file.
pub fn vaults_from_ron(
    text: &str,
    origin: &str,
    is_monster: &dyn Fn(char) -> bool,
) -> Result<Vec<Vault>, ConfigError> {
    vaults_from_ron_for(text, origin, is_monster, None)
}

/// [`vaults_from_ron`] for levels of `level` = (width, height).
pub fn vaults_from_ron_for(
    text: &str,
    origin: &str,
    is_monster: &dyn Fn(char) -> bool,
    level: Option<(u16, u16)>,
) -> Result<Vec<Vault>, ConfigError> {
    let (drafts, _) = parse::<Vec<VaultDraft>>(text, origin, |_, _, _| Ok(()))?;
    let vaults = build(&drafts, is_monster).map_err(|p| locate(text, origin, p))?;
    if let Some((w, h)) = level
        && let Some(i) = vaults.iter().position(|v| !v.fits(w, h))
    {
        let d = vaults[i].drawing();
        let problem = VaultProblem {
            vault: i,
            name: vaults[i].name.clone(),
            field: "map",
            cell: None,
            message: format!(
                "the map is {}x{} cells, larger than a {w}x{h} level can hold (a vault keeps \
                 two cells of rock inside the border: at most {}x{}{})",
                d.width(),
                d.height(),
                w.saturating_sub(6),
                h.saturating_sub(6),
                if vaults[i].rotate { ", or turned" } else { "" }
            ),
        };
        return Err(locate(text, origin, problem));
    }
    Ok(vaults)
}

/// A vault problem as a config error, pointing at the field, or for a
/// drawing at the character.
fn locate(text: &str, origin: &str, p: VaultProblem) -> ConfigError {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let scan = Scan::of(text);
    let key = scan.key_of_entry(p.vault, p.field);
    let (line, column) = match (p.cell, key) {
        (Some((row, col)), Some(at)) => scan
            .strings_after(at)
            .nth(row - 1)
            .map(|quote| scan.line_col(quote, col))
            .unwrap_or_else(|| scan.line_col(at, 0)),
        (None, Some(at)) => scan.line_col(at, 0),
        _ => (1, 1),
    };
    let message = p.to_string();
    // The message already names the vault; the field is the entry's.
    ConfigError::Invalid {
        location: Location {
            origin: origin.into(),
            line,
            column,
        },
        field: format!("[{}].{}", p.vault, p.field),
        message,
    }
}

/// Byte offsets of keys and string literals, outside comments, and where
/// each entry of the top-level list starts.
struct Scan<'a> {
    text: &'a str,
    /// (byte offset, is a string literal's opening quote, else a key start,
    /// bracket depth)
    tokens: Vec<(usize, bool, usize)>,
    entries: Vec<usize>,
}

impl<'a> Scan<'a> {
    fn of(text: &'a str) -> Scan<'a> {
        let b = text.as_bytes();
        let mut tokens = Vec::new();
        let mut entries = Vec::new();
        let mut depth = 0usize;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'/' if matches!(b.get(i + 1), Some(b'/' | b'*')) => {
                    i = crate::ron_diag::after_comment(b, i);
                    continue;
                }
                b'(' | b'[' | b'{' => {
                    if depth == 1 {
                        entries.push(i);
                    }
                    depth += 1;
                }
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'"' => {
                    tokens.push((i, true, depth));
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'\'' => {
                    i += 1;
                    while i < b.len() && b[i] != b'\'' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let mut j = i;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) == Some(&b':') && b.get(j + 1) != Some(&b':') {
                        tokens.push((start, false, depth));
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        Scan {
            text,
            tokens,
            entries,
        }
    }

    /// Where the key `name:` of the `entry`-th vault stands.
    fn key_of_entry(&self, entry: usize, name: &str) -> Option<usize> {
        let start = *self.entries.get(entry)?;
        let end = self.entries.get(entry + 1).copied().unwrap_or(usize::MAX);
        self.tokens.iter().find_map(|&(at, string, depth)| {
            (!string
                && depth == 2
                && (start..end).contains(&at)
                && self.text[at..].starts_with(name)
                && !self.text[at + name.len()..]
                    .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            .then_some(at)
        })
    }

    /// The opening quotes of the string literals after a key, up to the
    /// next key.
    fn strings_after(&self, key: usize) -> impl Iterator<Item = usize> + '_ {
        self.tokens
            .iter()
            .skip_while(move |&&(at, _, _)| at <= key)
            .take_while(|&&(_, string, _)| string)
            .map(|&(at, _, _)| at)
    }

    /// Line and column (1-based, in characters) of the `nth` character
    /// after a byte offset (0: the offset itself).
    fn line_col(&self, at: usize, nth: usize) -> (usize, usize) {
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1 + nth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::MonsterKind;

    fn is_monster(c: char) -> bool {
        MonsterKind::defaults().iter().any(|k| k.glyph == c)
    }

    fn err(text: &str) -> String {
        vaults_from_ron(text, "vaults.ron", &is_monster)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn unknown_glyph_points_at_the_character() {
        let text = r#"[
    (
        name: "crypt",
        depths: (min: 1, max: 3),
        map: [
            "xx+xx",
            "x...x", // a comment with "a string" in it
            "x.Q.x",
            "xxxxx",
        ],
    ),
]"#;
        assert_eq!(
            err(text)
                .lines()
                .next()
                .unwrap()
                .split(" (the legend")
                .next()
                .unwrap(),
            "vaults.ron:8:16: [0].map: vault \"crypt\", map row 3, column 3: 'Q' is not a known \
             glyph or monster"
        );
    }

    #[test]
    fn problems_point_at_their_field_in_their_entry() {
        let text = r#"[
    (name: "a", depths: (min: 1, max: 3), map: ["x+x", "x.x", "xxx"]),
    (name: "b", depths: (min: 4, max: 2), map: ["x+x", "x.x", "xxx"]),
]"#;
        let e = err(text);
        assert!(
            e.starts_with("vaults.ron:3:17: [1].depths: vault \"b\": "),
            "{e}"
        );
        let text = r#"[
    (name: "a", depths: (min: 1, max: 3), map: ["x+x", "x.x", "xxx"]),
    (name: "a", depths: (min: 1, max: 3), map: ["x+x", "x.x", "xxx"]),
]"#;
        let e = err(text);
        assert!(
            e.starts_with(
                "vaults.ron:3:6: [1].name: vault \"a\": the name is already that of entry 0"
            ),
            "{e}"
        );
        let text = r#"[(name: "a", depths: (min: 1, max: 3), map: ["x+x", "x.x.", "xxx"])]"#;
        let e = err(text);
        assert!(
            e.starts_with("vaults.ron:1:57: [0].map: vault \"a\", map row 2, column 4"),
            "{e}"
        );
        let text = r#"[(name: "a", depths: (min: 1, max: 3), map: ["xxx", "x.x", "xxx"])]"#;
        let e = err(text);
        assert!(
            e.starts_with("vaults.ron:1:40: [0].map: vault \"a\": the vault has no door"),
            "{e}"
        );
    }

    #[test]
    fn syntax_and_unknown_fields_are_located() {
        let e = err("[(name: \"a\", depth: (min: 1, max: 3), map: [])]");
        assert!(e.starts_with("vaults.ron:1:"), "{e}");
        assert!(e.contains("depth"), "{e}");
        let e = err("[(name: \"a\", depths: (min: 1, max: 3), map: [\"x+x\"]");
        assert!(e.starts_with("vaults.ron:1:"), "{e}");
    }

    #[test]
    fn shipped_vaults_load_and_vary() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/vaults.ron");
        let vaults = load_vaults(&path, &is_monster).unwrap_or_else(|e| panic!("{e}"));
        assert!(vaults.len() >= 12, "{} vaults", vaults.len());
        let sizes: Vec<(u16, u16)> = vaults
            .iter()
            .map(|v| (v.drawing().width(), v.drawing().height()))
            .collect();
        // From a 5x5 closet to a set piece of 30x20 or more.
        assert!(sizes.iter().any(|&(w, h)| w <= 5 && h <= 5), "{sizes:?}");
        assert!(
            sizes.iter().any(|&(w, h)| w.max(h) >= 30 && w.min(h) >= 20),
            "{sizes:?}"
        );
        let has = |f: &dyn Fn(&Vault) -> bool| vaults.iter().filter(|v| f(v)).count();
        use crate::vault::VaultCell;
        let cells = |v: &Vault, f: fn(VaultCell) -> bool| v.drawing().cells().any(|(_, _, c)| f(c));
        assert!(has(&|v| cells(v, |c| matches!(c, VaultCell::Monster(_)))) >= 3);
        assert!(
            has(&|v| v
                .drawing()
                .cells()
                .filter(|&(_, _, c)| c == VaultCell::Door)
                .count()
                > v.drawing().entrances().count())
                >= 3,
            "inner doors"
        );
        // Pillars: rock with floor on all four sides.
        let pillars = |v: &Vault| {
            let d = v.drawing();
            d.cells().any(|(x, y, c)| {
                c == VaultCell::Rock
                    && x > 0
                    && y > 0
                    && x + 1 < d.width()
                    && y + 1 < d.height()
                    && [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
                        .iter()
                        .all(|&(a, b)| d.cell(a, b).is_walkable())
            })
        };
        assert!(has(&pillars) >= 3, "pillars");
        // The default stack of 10 levels uses each, and every default level
        // fits each.
        for v in &vaults {
            assert!(v.depths.min <= 10, "{} is never used", v.name);
            assert!(v.fits(150, 150));
        }
    }
}
