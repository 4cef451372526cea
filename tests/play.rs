//! `delve play` end to end: the real binary in a real (tmux) terminal.
//!
//! Needs tmux; `.ci/run` installs it when missing. Every wait polls the
//! screen for the text it expects, with a timeout, so the test is as fast
//! as the machine and fails with the screen it last saw.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{DELVE, TempDir, damage, delve_in, ok, stdout};

const TIMEOUT: Duration = Duration::from_secs(30);

/// A private tmux server (its own socket) holding one session.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// `name` keeps tests running at once on separate servers.
    fn start(name: &str, width: u16, height: u16, command: &str) -> Tmux {
        let socket = format!("delve-{name}-{}", std::process::id());
        let tmux = Tmux { socket };
        let out = tmux.run(&[
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .args(args)
            .output()
            .expect(
                "the end-to-end viewer test needs tmux (apt-get install tmux; .ci/run installs it)",
            )
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "play"]).stdout)
            .into_owned()
    }

    /// Waits until the screen satisfies `ready`; returns that screen.
    fn wait(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            if start.elapsed() > TIMEOUT {
                panic!("timed out waiting for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The screen with wrapped lines joined again: for long lines.
    fn joined(&self) -> String {
        let out = self.run(&["capture-pane", "-p", "-J", "-t", "play"]);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| format!("{}\n", l.trim_end()))
            .collect()
    }

    fn wait_for(&self, text: &str) -> String {
        self.wait(&format!("{text:?}"), |s| s.contains(text))
    }

    /// Types text literally (no tmux key names).
    fn type_text(&self, text: &str) {
        assert!(
            self.run(&["send-keys", "-t", "play", "-l", text])
                .status
                .success()
        );
    }

    fn alternate_screen(&self) -> bool {
        let out = self.run(&["display-message", "-p", "-t", "play", "#{alternate_on}"]);
        String::from_utf8_lossy(&out.stdout).trim() == "1"
    }

    fn resize(&self, width: u16, height: u16) {
        let out = self.run(&[
            "resize-window",
            "-t",
            "play",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
        ]);
        assert!(
            out.status.success(),
            "tmux: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The status line's turn number.
fn turn(screen: &str) -> Option<u64> {
    let line = screen.lines().find(|l| l.starts_with("Depth "))?;
    let rest = &line[line.find("Turn ")? + 5..];
    rest.split_whitespace().next()?.parse().ok()
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', r"'\''"))
}

/// The delve binary, as a shell command.
fn bin() -> String {
    shell_quote(Path::new(DELVE))
}

/// What `delve verify NAME` says of a save in `saves`, once it passed.
fn verified(saves: &Path, name: &str) -> String {
    let out = delve_in(saves, &["verify", name]);
    ok(&out);
    stdout(&out)
}

#[test]
fn play_walk_descend_save_resize_quit() {
    let saves = TempDir::new("play-saves");
    // Not started by cargo (as `cargo test` starts it), as after an install.
    let command = format!(
        "env -u CARGO {} play --seed 7 --saves-dir {}; echo \"delve exited with $?\"; sleep 600",
        bin(),
        shell_quote(saves.path())
    );
    let tmux = Tmux::start("walk", 80, 24, &command);
    let first = tmux.wait_for("Depth 1/10");
    assert!(first.starts_with("You enter the dungeon."), "{first}");
    assert!(first.contains("Seed 7  Save seed-7"), "{first}");
    assert!(
        tmux.alternate_screen(),
        "the viewer draws on the alternate screen"
    );

    // Two moves: west is floor beside the arrival stairs of seed 7, then back.
    tmux.type_text("h");
    tmux.wait("turn 1", |s| turn(s) == Some(1));
    tmux.type_text("l");
    tmux.wait("turn 2", |s| turn(s) == Some(2));

    // ">" travels (one step a press while a monster is in view), stops on
    // the stairs, and descends when pressed there.
    let mut presses = 0;
    loop {
        let before = tmux.screen();
        if before.contains("Depth 2/10") {
            break;
        }
        presses += 1;
        assert!(
            presses < 400,
            "still on depth 1 after {presses} presses:\n{before}"
        );
        // A turn that says more than the top line holds waits for Space
        // (monsters that wake or notice the player say so, rules 4).
        if before.contains("--more--") {
            tmux.type_text(" ");
            tmux.wait("the next part", |s| s != before);
            continue;
        }
        let was = turn(&before);
        tmux.type_text(">");
        tmux.wait("travel to end", |s| {
            !s.contains("[travelling]") && (turn(s) != was || s.contains("Depth 2/10"))
        });
    }
    let arrived = tmux.wait_for("You arrive on depth 2.");
    assert!(arrived.contains("Depth 2/10"), "{arrived}");

    // Arriving saved the run; after another turn, S saves again.
    let now = turn(&arrived);
    tmux.type_text(".");
    tmux.wait("a turn", |s| turn(s) != now);
    tmux.type_text("S");
    tmux.wait_for("Saved to");
    assert!(saves.join("seed-7.sav").exists());

    // Too small, then back: the size message, then the map again.
    tmux.resize(60, 20);
    let small = tmux.wait_for("this one is 60x20");
    assert!(small.contains("delve needs 80x24"), "{small}");
    tmux.resize(80, 24);
    tmux.wait_for("Depth 2/10");

    tmux.type_text("Q");
    tmux.wait_for("delve exited with 0");
    // The hint names the program as it was run, so it works as typed.
    let after = tmux.joined();
    assert!(
        after.contains(&format!(
            "Continue with: {} play --load seed-7 --saves-dir {}\n",
            DELVE,
            saves.path().display()
        )),
        "{after}"
    );
    assert!(
        !tmux.alternate_screen(),
        "the terminal is back on the main screen"
    );

    let said = verified(saves.path(), "seed-7");
    assert!(said.contains("depth: 2"), "{said}");
}

#[test]
fn play_refuses_to_overwrite_and_resumes_a_save() {
    let saves = TempDir::new("play-resume");
    let bin = bin();
    let dir = shell_quote(saves.path());
    // Make a save headless, then continue it in the viewer.
    ok(&delve_in(
        saves.path(),
        &[
            "simulate", "--seed", "5", "--turns", "50", "--save", "seed-5",
        ],
    ));
    // The first command's message is on the main screen, so the second
    // waits for Enter before it takes over with the alternate screen.
    // As `cargo run` starts it (cargo sets CARGO for what it runs).
    let command = format!(
        "export CARGO=cargo; {bin} play --seed 5 --saves-dir {dir}; echo \"delve exited with $?\"; read go; {bin} play --load seed-5 --saves-dir {dir}; echo \"second exited with $?\"; sleep 600"
    );
    let tmux = Tmux::start("resume", 80, 24, &command);
    tmux.wait_for("delve exited with 2");
    let refused = tmux.joined();
    assert!(
        refused.contains(&format!(
            "a save named seed-5 already exists in {} (seed 5, depth 1, turn 50, playing); continue it with `cargo run --release -- play --load seed-5 --saves-dir {}`",
            saves.path().display(),
            saves.path().display()
        )),
        "{refused}"
    );
    assert!(
        tmux.run(&["send-keys", "-t", "play", "Enter"])
            .status
            .success()
    );
    let resumed = tmux.wait_for("Welcome back to depth 1, turn 50.");
    assert_eq!(turn(&resumed), Some(50), "{resumed}");
    // Ctrl-C asks; "n" leaves without saving, and the save stays as it was.
    let before = std::fs::read(saves.join("seed-5.sav")).unwrap();
    tmux.type_text(".");
    tmux.wait("turn 51", |s| turn(s) == Some(51));
    assert!(
        tmux.run(&["send-keys", "-t", "play", "C-c"])
            .status
            .success()
    );
    tmux.wait_for("Save before quitting?");
    tmux.type_text("n");
    tmux.wait_for("second exited with 0");
    // What is left says which turn the save holds, and how to go on.
    let after = tmux.joined();
    assert!(
        after.contains(&format!(
            "Left without saving; {} holds turn 50 (depth 1).\n",
            saves.join("seed-5.sav").display()
        )),
        "{after}"
    );
    assert!(
        after.contains(&format!(
            "Continue with: cargo run --release -- play --load seed-5 --saves-dir {}\n          or: {} play --load seed-5 --saves-dir {}\n",
            saves.path().display(),
            DELVE,
            saves.path().display()
        )),
        "{after}"
    );
    assert_eq!(std::fs::read(saves.join("seed-5.sav")).unwrap(), before);
}

#[test]
fn a_termination_signal_saves_and_restores_the_terminal() {
    a_signal_saves_restores_the_terminal_and_exits_1("TERM");
}

#[test]
fn a_damaged_save_offers_the_backup() {
    let saves = TempDir::new("play-damaged");
    let simulate = |turns: &str| {
        ok(&delve_in(
            saves.path(),
            &["simulate", "--seed", "4", "--turns", turns, "--save", "run"],
        ));
    };
    // Turn 30 becomes the backup when turn 60 is saved; then damage turn 60.
    simulate("30");
    let run = saves.join("run.sav");
    ok(&delve_in(
        saves.path(),
        &[
            "simulate", "--load", "run", "--turns", "30", "--save", "run",
        ],
    ));
    let bytes = damage(&run);
    // Without the journal (which goes further, to turn 60: see
    // a_damaged_save_offers_the_journals_run_further_than_the_backup), the
    // backup is what there is.
    std::fs::remove_file(saves.join("run.journal")).unwrap();

    let bin = bin();
    let dir = shell_quote(saves.path());
    let command = format!(
        "{bin} play --load run --saves-dir {dir}; echo \"first exited with $?\"; {bin} play --load run --saves-dir {dir}; echo \"second exited with $?\"; sleep 600"
    );
    let tmux = Tmux::start("damaged", 80, 24, &command);
    // Declining leaves every file as it was.
    let asked = tmux.wait_for("[y/N]");
    assert!(
        asked.contains("damaged") && asked.contains("turn 30"),
        "{asked}"
    );
    tmux.type_text("n");
    assert!(
        tmux.run(&["send-keys", "-t", "play", "Enter"])
            .status
            .success()
    );
    let declined = tmux.wait_for("first exited with 1");
    assert!(declined.contains("left as it was"), "{declined}");
    assert_eq!(std::fs::read(&run).unwrap(), bytes);
    // Accepting loads the backup and keeps the damaged file aside.
    tmux.wait_for("[y/N]");
    tmux.type_text("y");
    assert!(
        tmux.run(&["send-keys", "-t", "play", "Enter"])
            .status
            .success()
    );
    let screen = tmux.wait_for("Seed 4  Save run");
    assert!(
        screen.starts_with("Loaded the backup from turn 30; run.sav was damaged or missing."),
        "{screen}"
    );
    assert_eq!(turn(&screen), Some(30), "{screen}");
    let aside = std::fs::read_dir(saves.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("run.sav.damaged")
        })
        .expect("the damaged save is kept aside");
    assert_eq!(std::fs::read(aside.path()).unwrap(), bytes);
    tmux.type_text("Q");
    tmux.wait_for("second exited with 0");
}

/// A damaged save whose journal takes the backup's run further: `play`
/// offers the journal's run first, then the backup; declining both leaves
/// every file as it was, and accepting the journal's run loads it at the
/// journal's turn with the backup untouched.
#[test]
fn a_damaged_save_offers_the_journals_run_further_than_the_backup() {
    let saves = TempDir::new("play-damaged-journal");
    let simulate = |args: &[&str]| ok(&delve_in(saves.path(), args));
    // Turn 30 becomes the backup when turn 60 is saved; the journal holds
    // turn 60 too. Then damage turn 60's save.
    simulate(&["simulate", "--seed", "4", "--turns", "30", "--save", "run"]);
    simulate(&[
        "simulate", "--load", "run", "--turns", "30", "--save", "run",
    ]);
    let run = saves.join("run.sav");
    let bytes = damage(&run);
    let backup = std::fs::read(saves.join("run.sav.bak")).unwrap();

    let bin = bin();
    let dir = shell_quote(saves.path());
    let command = format!(
        "{bin} play --load run --saves-dir {dir}; echo \"first exited with $?\"; {bin} play --load run --saves-dir {dir}; echo \"second exited with $?\"; sleep 600"
    );
    let tmux = Tmux::start("damaged-journal", 80, 24, &command);
    let enter = || {
        assert!(
            tmux.run(&["send-keys", "-t", "play", "Enter"])
                .status
                .success()
        )
    };
    // The questions are longer than a line: read them joined again.
    let joined_has = |text: &str| {
        tmux.wait(&format!("{text:?}"), |_| tmux.joined().contains(text));
        tmux.joined()
    };
    let asked = joined_has("Load the journal's run? The backup is kept. [y/N]");
    assert!(
        asked.contains("damaged") && asked.contains("turn 30") && asked.contains("turn 60"),
        "{asked}"
    );
    tmux.type_text("n");
    enter();
    let asked = joined_has("instead? The journal is kept. [y/N]");
    assert!(asked.contains("Load the backup from turn 30"), "{asked}");
    tmux.type_text("n");
    enter();
    let declined = tmux.wait_for("first exited with 1");
    assert!(declined.contains("left as it was"), "{declined}");
    assert_eq!(std::fs::read(&run).unwrap(), bytes);
    // Accepting the journal's run loads it at turn 60 (typed ahead: the
    // second play reads it when it asks).
    tmux.type_text("y");
    enter();
    let screen = tmux.wait_for("Seed 4  Save run");
    assert!(
        screen.starts_with("Loaded the journal's run (turn 60);"),
        "{screen}"
    );
    assert_eq!(turn(&screen), Some(60), "{screen}");
    assert_eq!(std::fs::read(saves.join("run.sav.bak")).unwrap(), backup);
    tmux.type_text("Q");
    tmux.wait_for("second exited with 0");
    assert_eq!(std::fs::read(saves.join("run.sav.bak")).unwrap(), backup);
    assert!(!saves.join("run.journal.ahead-1").exists());
}

/// A run whose stack has a level that cannot be made never starts: it is
/// refused before the terminal is taken, whether new or loaded from a save
/// made before runs proved their stack.
#[test]
fn a_stack_that_cannot_be_made_is_refused_before_the_terminal_is_taken() {
    let saves = TempDir::new("play-stuck");
    let config = saves.join("flaky.ron");
    std::fs::write(
        &config,
        // Generator revision 2, as in tests/limits.rs: seed 2's depth 3.
        "(width: 120, height: 40, levels: 3, corridors: Grid, generation_retries: 1, \
         rooms: (count: (min: 6, max: 6)), revisions: (generator: 2))",
    )
    .unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stuck-at-depth-3.sav");
    std::fs::copy(&fixture, saves.join("old.sav")).unwrap();
    let bin = bin();
    let dir = shell_quote(saves.path());
    let command = format!(
        "{bin} play --seed 2 --save flaky --config {} --saves-dir {dir}; echo \"delve exited with $?\"; \
         {bin} play --load old --saves-dir {dir}; echo \"second exited with $?\"; sleep 600",
        shell_quote(&config)
    );
    let tmux = Tmux::start("stuck", 80, 24, &command);
    let screen = tmux.wait_for("second exited with");
    assert!(screen.contains("delve exited with 2"), "{screen}");
    assert!(screen.contains("second exited with 2"), "{screen}");
    assert!(screen.contains("depth 3"), "{screen}");
    assert!(!saves.join("flaky.sav").exists());
    assert_eq!(
        std::fs::read(saves.join("old.sav")).unwrap(),
        std::fs::read(&fixture).unwrap()
    );
}

/// A keymap with a 200 KB key name is refused with the name cut short.
#[test]
fn a_huge_bad_key_is_cut_in_the_error() {
    let saves = TempDir::new("play-huge-key");
    let keymap = saves.join("keys.ron");
    std::fs::write(&keymap, format!("(look: [\"{}\"])", "k".repeat(200_000))).unwrap();
    let errors = saves.join("errors.txt");
    let command = format!(
        "{} play --keymap {} --saves-dir {} 2> {}; echo \"delve exited with $?\"; sleep 600",
        bin(),
        shell_quote(&keymap),
        shell_quote(saves.path()),
        shell_quote(&errors)
    );
    let tmux = Tmux::start("huge-key", 80, 24, &command);
    tmux.wait_for("delve exited with 2");
    let said = std::fs::read_to_string(&errors).unwrap();
    assert!(said.len() < 1000, "{} bytes", said.len());
    assert!(
        said.contains("look: \"kkkk") && said.contains("200000 characters"),
        "{said}"
    );
}

impl Tmux {
    /// Writes straight to the pane's terminal, as a stray program would:
    /// text the viewer did not draw, for a redraw to wipe.
    fn scribble(&self, text: &str) {
        let out = self.run(&["display-message", "-p", "-t", "play", "#{pane_tty}"]);
        let tty = String::from_utf8_lossy(&out.stdout).trim().to_string();
        let mut file = std::fs::OpenOptions::new().write(true).open(&tty).unwrap();
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
    }

    fn keys(&self, keys: &str) {
        assert!(
            self.run(&["send-keys", "-t", "play", keys])
                .status
                .success()
        );
    }
}

/// The terminal's echo and line-editing flags, as the shell sees them
/// after delve: "icanon echo" when the terminal was put back.
const TTY_REPORT: &str = "echo \"tty: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')\"";

/// Starts `delve play --seed 9` under `sh -c` (no job control), its pid
/// in `pid_file`, then reports its exit code and the terminal's flags.
fn start_seed_9(name: &str, saves: &Path) -> (Tmux, String) {
    let pid_file = saves.join("pid");
    let command = format!(
        "sh -c 'echo $$ > {}; exec {} play --seed 9 --saves-dir {}'; echo \"delve exited with $?\"; {TTY_REPORT}; sleep 600",
        shell_quote(&pid_file),
        bin(),
        shell_quote(saves)
    );
    let tmux = Tmux::start(name, 80, 24, &command);
    tmux.wait_for("Depth 1/10");
    let pid = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .to_string();
    (tmux, pid)
}

fn signal(name: &str, pid: &str) {
    assert!(
        Command::new("kill")
            .args([&format!("-{name}"), pid])
            .status()
            .unwrap()
            .success()
    );
}

#[test]
fn an_interrupt_signal_saves_restores_the_terminal_and_exits_1() {
    a_signal_saves_restores_the_terminal_and_exits_1("INT");
}

/// SIGNAL after a turn of play: delve saves, leaves the alternate screen,
/// puts echo and line editing back, and exits 1 (stopped, not finished).
fn a_signal_saves_restores_the_terminal_and_exits_1(name: &str) {
    let saves = TempDir::new(&format!("play-{name}"));
    let (tmux, pid) = start_seed_9(&name.to_lowercase(), saves.path());
    tmux.type_text(".");
    tmux.wait("turn 1", |s| turn(s) == Some(1));
    signal(name, &pid);
    let after = tmux.wait_for("delve exited with 1");
    assert!(after.contains("Saved to"), "{after}");
    assert!(after.contains(&format!("stopped by SIG{name}")), "{after}");
    assert!(!tmux.alternate_screen(), "the alternate screen is left");
    let tty = tmux.wait_for("tty: ");
    assert!(
        tty.contains("tty: icanon echo"),
        "echo and line editing are back:\n{tty}"
    );
    let said = verified(saves.path(), "seed-9");
    assert!(said.contains("turn: 1\n"), "{said}");
}

#[test]
fn ctrl_r_and_a_continue_redraw_and_ctrl_z_says_when_it_cannot_suspend() {
    let saves = TempDir::new("play-redraw");
    let (tmux, pid) = start_seed_9("redraw", saves.path());
    // Ctrl-R redraws the whole screen: text written behind the viewer's
    // back goes away.
    tmux.scribble("\x1b[5;5HSTRAY-TEXT");
    tmux.wait_for("STRAY-TEXT");
    tmux.keys("C-r");
    tmux.wait("the stray text wiped", |s| {
        !s.contains("STRAY-TEXT") && s.contains("Depth 1/10")
    });
    // So does being stopped and continued from outside.
    tmux.scribble("\x1b[5;5HSTRAY-TEXT");
    tmux.wait_for("STRAY-TEXT");
    signal("STOP", &pid);
    signal("CONT", &pid);
    tmux.wait("the stray text wiped after SIGCONT", |s| {
        !s.contains("STRAY-TEXT") && s.contains("Depth 1/10")
    });
    // Here no shell with job control could resume a suspended delve (it
    // runs under `sh -c`), so Ctrl-Z says so rather than hang.
    tmux.keys("C-z");
    let refused = tmux.wait_for("cannot suspend");
    assert!(refused.contains("Depth 1/10"), "{refused}");
    assert!(tmux.alternate_screen());
    tmux.type_text("Q");
    tmux.wait_for("delve exited with 0");
}

#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_resumes() {
    let saves = TempDir::new("play-suspend");
    // An interactive shell with job control, as a player has.
    let tmux = Tmux::start(
        "suspend",
        80,
        24,
        "env PS1='shell$ ' bash --norc --noprofile -i",
    );
    tmux.wait_for("shell$");
    // Alone on its line: bash would run the rest of a list once delve stops.
    tmux.type_text(&format!(
        "{} play --seed 3 --saves-dir {}\n",
        bin(),
        shell_quote(saves.path())
    ));
    tmux.wait_for("Depth 1/10");
    tmux.type_text(".");
    let before = tmux.wait("turn 1", |s| turn(s) == Some(1));

    tmux.keys("C-z");
    let stopped = tmux.wait("the shell's prompt", |s| {
        s.contains("Stopped") && s.trim_end().ends_with("shell$")
    });
    assert!(!tmux.alternate_screen(), "{stopped}");
    tmux.type_text(&format!("{TTY_REPORT}\n"));
    // The report's line, not the command's echo.
    let tty = tmux.wait("the terminal's flags", |s| {
        s.lines().any(|l| l.starts_with("tty: "))
    });
    assert!(
        tty.contains("tty: icanon echo"),
        "the shell gets a sane terminal:\n{tty}"
    );

    tmux.type_text("fg\n");
    // The whole screen is drawn again, as it was.
    tmux.wait("the viewer as it was", |s| s == before);
    assert!(tmux.alternate_screen());
    // And it still plays.
    tmux.type_text(".");
    tmux.wait("turn 2", |s| turn(s) == Some(2));
    tmux.type_text("Q");
    tmux.wait_for("Continue with");
    tmux.type_text("echo \"delve exited with $?\"\n");
    tmux.wait_for("delve exited with 0");
}
