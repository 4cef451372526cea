//! The layering of ARCHITECTURE.md ("Which module may import which") as a
//! test, in the manner of rust-analyzer's tidy tests: every `crate::` path
//! in `src/` outside `#[cfg(test)]` code is read, and a module may name
//! only modules of a lower rank. A module missing from the table fails
//! too, so a new one takes its place on purpose.

use std::collections::BTreeSet;
use std::path::Path;

/// Each top-level module of the library and its rank: innermost 0. The
/// same table as ARCHITECTURE.md's.
const RANKS: &[(&str, u8)] = &[
    // Leaves: nothing of delve's.
    ("geom", 0),
    ("ron_diag", 0),
    ("dice", 0),
    ("words", 0),
    ("sets", 0),
    ("streams", 0),
    // The tunables and a grid's parts.
    ("config", 1),
    ("grid_search", 1),
    ("layout", 1),
    // Vault drawings, the level graph.
    ("vault", 2),
    ("graph", 2),
    ("pieces", 2),
    ("level", 3),
    ("generate", 4),
    // Readers of levels, and the stack.
    ("dungeon", 5),
    ("stats", 5),
    ("render", 5),
    ("export", 6),
    ("sim", 6),
    // Outer layers: files and the terminal.
    ("data_file", 7),
    ("save", 7),
    ("vault_file", 7),
    ("view", 7),
    ("journal", 8),
    ("cli", 9),
];

/// The simulation's own layers (ARCHITECTURE.md's `sim/` tree): each
/// child of `sim` and its rank, innermost 0. The words and units at the
/// bottom; the kinds, what can be known of a level and the recording;
/// the state; the rules; the turn and the making of a run; then what plays,
/// replays and tells a run.
const SIM_RANKS: &[(&str, u8)] = &[
    ("vocabulary", 0),
    ("units", 0),
    ("kinds", 1),
    ("world", 1),
    ("record", 1),
    ("state", 2),
    ("rules", 3),
    ("turn", 4),
    ("start", 4),
    ("agent", 5),
    ("replay", 5),
    ("morgue", 5),
    ("batch", 6),
];

fn rank(module: &str) -> Option<u8> {
    RANKS.iter().find(|(m, _)| *m == module).map(|&(_, r)| r)
}

/// The top-level modules a file's code (not its tests or comments) names
/// through `crate::`, grouped (`crate::{a, b::{c, d}}`, over lines) or not.
fn imports(text: &str) -> BTreeSet<String> {
    imports_under(text, "crate::")
}

/// The modules under `prefix` (`crate::` or `crate::sim::`) a file's code
/// names, as [`imports`] reads them.
fn imports_under(text: &str, prefix: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The group's own entries: split at its top-level commas.
            let (mut depth, mut part) = (0, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.extend(head(&part));
                        part.clear();
                        continue;
                    }
                    _ => {}
                }
                part.push(c);
            }
            found.extend(head(&part));
        } else {
            found.extend(head(rest));
        }
    }
    found
}

/// The first name of a path (`sim` of `sim::Run`), if there is one.
fn head(path: &str) -> Option<String> {
    let name: String = path
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Every import against the table: (file, module, what it names).
fn violations(files: &[(String, String)]) -> Vec<String> {
    let mut wrong = Vec::new();
    for (path, text) in files {
        let module = path.split('/').next().unwrap_or("").trim_end_matches(".rs");
        let Some(mine) = rank(module) else {
            wrong.push(format!("{path}: module {module} is not in the table"));
            continue;
        };
        for name in imports(text) {
            if name == module {
                continue;
            }
            match rank(&name) {
                Some(theirs) if theirs < mine => {}
                Some(theirs) => wrong.push(format!(
                    "{path}: {module} (rank {mine}) imports {name} (rank {theirs})"
                )),
                None => wrong.push(format!("{path}: imports {name}, not in the table")),
            }
        }
    }
    wrong
}

/// Every import between children of `sim` against [`SIM_RANKS`]; the
/// Stomp and Combat rules never import each other, and the viewer never
/// imports the rules.
fn sim_violations(files: &[(String, String)]) -> Vec<String> {
    let rank = |m: &str| SIM_RANKS.iter().find(|(n, _)| *n == m).map(|&(_, r)| r);
    let mut wrong = Vec::new();
    for (path, text) in files {
        if path.starts_with("view/") && imports_under(text, "crate::sim::").contains("rules") {
            wrong.push(format!("{path}: the viewer imports the rules"));
        }
        let Some(inner) = path.strip_prefix("sim/") else {
            continue;
        };
        let module = inner
            .split('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".rs");
        if module == "mod" {
            continue;
        }
        let Some(mine) = rank(module) else {
            wrong.push(format!("{path}: sim::{module} is not in the table"));
            continue;
        };
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap_or("")
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        // Siblings by path: no `super::` (a parent's re-exports) in code.
        if code.contains("super::") {
            wrong.push(format!("{path}: names a module through super::"));
        }
        for (a, b) in [("stomp", "combat"), ("combat", "stomp")] {
            if inner == format!("rules/{a}.rs")
                && imports_under(&code, "crate::sim::rules::").contains(b)
            {
                wrong.push(format!("{path}: the {a} rules import the {b} rules"));
            }
        }
        for name in imports_under(text, "crate::sim::") {
            if name == module {
                continue;
            }
            match rank(&name) {
                Some(theirs) if theirs < mine => {}
                Some(theirs) => wrong.push(format!(
                    "{path}: sim::{module} (rank {mine}) imports sim::{name} (rank {theirs})"
                )),
                None => wrong.push(format!("{path}: imports sim::{name}, not in the table")),
            }
        }
    }
    wrong
}

/// The library's files, by path under `src/` (`sim/mod.rs`), but for the
/// crate's roots, which only declare modules.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(&src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                if rel != "lib.rs" && rel != "main.rs" {
                    files.push((rel, std::fs::read_to_string(&path).unwrap()));
                }
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_import_points_inward() {
    let files = sources();
    assert!(files.len() > 50, "found only {} files", files.len());
    let wrong = violations(&files);
    assert!(
        wrong.is_empty(),
        "imports against ARCHITECTURE.md's layers:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_planted_upward_import_is_found() {
    let mut files = sources();
    let level = files.iter_mut().find(|(p, _)| p == "level.rs").unwrap();
    level.1 = format!("use crate::sim::Run;\n{}", level.1);
    let wrong = violations(&files);
    assert_eq!(wrong, ["level.rs: level (rank 3) imports sim (rank 6)"]);
    // Grouped paths and paths inside code count; tests and comments do not.
    assert_eq!(
        imports(
            "use crate::{\n    geom::Pos,\n    sim::{Run, record},\n};\nfn f() { crate::view::x(); }\n\
             // crate::cli\n#[cfg(test)]\nuse crate::save;"
        ),
        ["geom", "sim", "view"]
            .map(String::from)
            .into_iter()
            .collect()
    );
}

#[test]
fn every_import_in_the_simulation_points_inward() {
    let wrong = sim_violations(&sources());
    assert!(
        wrong.is_empty(),
        "imports against the sim/ layers of ARCHITECTURE.md:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_planted_upward_import_in_the_simulation_is_found() {
    let mut files = sources();
    let plant = |files: &mut Vec<(String, String)>, path: &str, line: &str| {
        let file = files.iter_mut().find(|(p, _)| p == path).unwrap();
        file.1 = format!("{line}\n{}", file.1);
    };
    plant(
        &mut files,
        "sim/state/mod.rs",
        "use crate::sim::rules::odds::HitOdds;",
    );
    plant(
        &mut files,
        "sim/rules/stomp.rs",
        "use crate::sim::rules::{odds, combat::X};",
    );
    plant(&mut files, "sim/turn.rs", "use super::state::Run;");
    plant(
        &mut files,
        "view/look.rs",
        "use crate::sim::rules::odds::HitOdds;",
    );
    let wrong = sim_violations(&files);
    assert_eq!(
        wrong,
        [
            "sim/rules/stomp.rs: the stomp rules import the combat rules",
            "sim/state/mod.rs: sim::state (rank 2) imports sim::rules (rank 3)",
            "sim/turn.rs: names a module through super::",
            "view/look.rs: the viewer imports the rules",
        ]
    );
}
