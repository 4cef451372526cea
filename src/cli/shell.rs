//! Commands as the user types them back into a shell.

use std::path::Path;

/// How to play save `name` again, as commands that work from here: `delve
/// play --load NAME` when delve was found on the PATH; else the program as
/// it was started (`target/release/delve ...`), after `cargo run` for a
/// program that cargo started from its target directory.
pub fn continue_commands(name: &str, saves_dir: &Path) -> Vec<String> {
    let mut args = format!("play --load {}", shell_word(name));
    // The default saves directory goes without saying.
    if saves_dir != Path::new("saves") {
        args.push_str(&format!(
            " --saves-dir {}",
            shell_word(&saves_dir.display().to_string())
        ));
    }
    let program = std::env::args_os()
        .next()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|| "delve".into());
    if !program.contains('/') {
        return vec![format!("delve {args}")];
    }
    let mut commands = Vec::new();
    // cargo sets CARGO for what it runs; its profile is the directory the
    // binary is in.
    if std::env::var_os("CARGO").is_some() {
        let profile = Path::new(&program).parent().and_then(|d| d.file_name());
        match profile.and_then(|p| p.to_str()) {
            Some("release") => commands.push(format!("cargo run --release -- {args}")),
            Some("debug") => commands.push(format!("cargo run -- {args}")),
            _ => {}
        }
    }
    commands.push(format!("{} {args}", shell_word(&program)));
    commands
}

/// A word as a POSIX shell reads it back: as it is when plain, else quoted.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
