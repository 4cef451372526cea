//! The imperative shell around [`App`]: the real terminal (crossterm,
//! through ratatui's re-export) and the save file.
//!
//! The terminal is put back however the viewer ends: a guard undoes raw
//! mode and the alternate screen when dropped (quit, error, or unwinding),
//! and a panic hook, chained to the previous one, does so before the panic
//! message is printed so the message is readable.
//!
//! Signals arrive on the same channel as keys, so the loop answers them at
//! once: SIGTERM, SIGINT and SIGHUP save and quit, SIGCONT (after a stop
//! from outside) takes the terminal again and redraws it. Ctrl-Z is a key
//! in raw mode; the viewer puts the terminal back and stops its process
//! group itself, as the terminal would have.

use std::io::{self, Stdout, Write};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::{cursor, execute, terminal};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::generate::GenerateError;

use super::app::{App, Request};
use super::keymap::Key;
use super::screen;

/// How long travel and auto-explore wait between steps for a key that
/// would interrupt them; also what makes each step visible.
const STEP_DELAY: Duration = Duration::from_millis(12);
/// How often an idle viewer wakes; signals and keys wake it at once.
const IDLE_WAKE: Duration = Duration::from_millis(250);
/// How long after stopping itself the viewer waits to hear it was
/// continued before concluding it was never stopped (no shell with job
/// control could resume it, so the kernel dropped the stop).
const CONTINUE_WAIT: Duration = Duration::from_millis(500);

/// How the viewer ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The player left (`Q`, Ctrl-C, or leaving a finished run).
    Left,
    /// A signal told delve to stop; the run was saved first, or the app's
    /// last save says why not.
    Signalled(&'static str),
}

/// What the event loop waits for.
enum Input {
    Terminal(io::Result<Event>),
    Signal(i32),
}

/// Why the viewer stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The terminal could not be read, drawn on or restored.
    #[error("terminal: {0}")]
    Terminal(#[from] io::Error),
    /// A level could not be generated when the player reached it.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The viewer panicked; the message is kept so the shell can report it
    /// after restoring the terminal.
    #[error("internal error (a bug in delve): {0}")]
    Panic(String),
}

/// Raw mode and the alternate screen, undone on drop.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        install_panic_hook();
        take_terminal()?;
        Ok(Guard)
    }
}

/// Raw mode, the alternate screen, no cursor: the viewer's terminal.
fn take_terminal() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Whether the terminal is in the viewer's state, so it is put back once:
/// leaving the alternate screen twice moves some terminals' cursor home.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Puts the terminal back, once.
fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = execute!(io::stdout(), cursor::Show, terminal::LeaveAlternateScreen);
        let _ = terminal::disable_raw_mode();
    }
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// Our key for a terminal key event; `None` for releases, repeats of
/// modifier-only keys and keys the viewer has no name for.
pub fn key_of(event: KeyEvent) -> Option<Key> {
    if event.kind == KeyEventKind::Release {
        return None;
    }
    if event.modifiers.contains(KeyModifiers::ALT) {
        return None;
    }
    let ctrl = event.modifiers.contains(KeyModifiers::CONTROL);
    Some(match event.code {
        KeyCode::Char(c) if ctrl => Key::Ctrl(c.to_ascii_lowercase()),
        KeyCode::Char(c) => Key::Char(c),
        KeyCode::Up => Key::Up,
        KeyCode::Down => Key::Down,
        KeyCode::Left => Key::Left,
        KeyCode::Right => Key::Right,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::KeypadBegin => Key::Begin,
        KeyCode::Enter => Key::Enter,
        KeyCode::Esc => Key::Esc,
        KeyCode::Tab => Key::Tab,
        KeyCode::Backspace => Key::Backspace,
        _ => return None,
    })
}

/// Runs the viewer until the player quits or a signal says to stop.
/// `save` writes the run and returns where it went, or what failed; it is
/// called for every save the app asks for, including the one that comes
/// before quitting.
pub fn play(
    app: &mut App,
    mut save: impl FnMut(&App) -> Result<String, String>,
) -> Result<Ending, ViewError> {
    // SIGTERM (a shutdown, `kill`), SIGINT (`kill -INT`; Ctrl-C typed here
    // is a key, since raw mode turns the terminal's signals off) and SIGHUP
    // (the terminal closed) save and quit rather than lose the session's
    // play. SIGCONT says the terminal may have been changed while stopped.
    let mut signals = Signals::new([SIGTERM, SIGINT, SIGHUP, SIGCONT])?;
    let signal_handle = signals.handle();
    let continued = Arc::new(AtomicBool::new(false));
    let continued_id = signal_hook::flag::register(SIGCONT, Arc::clone(&continued))?;
    let (sender, inputs) = mpsc::channel();
    let signal_sender = sender.clone();
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if signal_sender.send(Input::Signal(signal)).is_err() {
                break;
            }
        }
    });
    let guard = Guard::enter();
    let result = guard.and_then(|_guard| {
        let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        terminal.clear()?;
        // Terminal events are read on their own thread too, started only
        // now: ratatui has read the cursor position through crossterm's
        // reader above. crossterm's reader spins forever once its input is
        // gone (a closed terminal; crossterm issue #793), so the loop must
        // never block in it: waiting on the channel, it still hears the
        // SIGHUP.
        std::thread::spawn(move || {
            loop {
                let event = event::read();
                let failed = event.is_err();
                if sender.send(Input::Terminal(event)).is_err() || failed {
                    break;
                }
            }
        });
        // A panic is turned into an error (the hook has already put the
        // terminal back and printed it), so the caller can still save the
        // run.
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
            event_loop(app, &mut terminal, &mut save, &inputs, &continued)
        }));
        let _ = terminal.backend_mut().flush();
        Ok(result)
    });
    signal_handle.close();
    signal_hook::low_level::unregister(continued_id);
    match result? {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Err(ViewError::Panic(message))
        }
    }
}

type Screen = Terminal<CrosstermBackend<Stdout>>;

fn event_loop(
    app: &mut App,
    terminal: &mut Screen,
    save: &mut impl FnMut(&App) -> Result<String, String>,
    inputs: &mpsc::Receiver<Input>,
    continued: &AtomicBool,
) -> Result<Ending, ViewError> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    let mut ending = Ending::Left;
    // A SIGCONT still to come from a suspend the viewer has already
    // recovered from.
    let mut expected_continue = false;
    loop {
        while let Some(request) = app.take_request() {
            match request {
                Request::Save | Request::Autosave | Request::SaveAndQuit => {
                    let result = save(app);
                    app.saved(result);
                }
                Request::Suspend => {
                    if suspend(continued)? {
                        expected_continue = true;
                    } else {
                        app.warn(
                            "delve cannot suspend here: it was not started from a shell with \
                             job control, so nothing could resume it."
                                .into(),
                        );
                    }
                    redraw(app, terminal)?;
                }
                Request::Redraw => redraw(app, terminal)?,
            }
        }
        if app.should_quit() {
            return Ok(ending);
        }
        terminal.draw(|frame| screen::draw(app, frame.buffer_mut()))?;
        // While travelling, a step is taken whenever no key arrives in time.
        let wait = if app.busy() { STEP_DELAY } else { IDLE_WAKE };
        let input = match inputs.recv_timeout(wait) {
            Ok(input) => input,
            Err(RecvTimeoutError::Timeout) => {
                app.tick()?;
                continue;
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(ViewError::Terminal(io::Error::other(
                    "the terminal's input closed",
                )));
            }
        };
        match input {
            Input::Terminal(event) => match event? {
                Event::Key(key) => {
                    if let Some(key) = key_of(key) {
                        app.press(key)?;
                    }
                }
                Event::Resize(width, height) => {
                    terminal.autoresize()?;
                    app.resize(width, height);
                }
                _ => {}
            },
            Input::Signal(SIGCONT) if expected_continue => expected_continue = false,
            Input::Signal(SIGCONT) => {
                // Stopped from outside (SIGSTOP, `kill -TSTP`) and continued:
                // the shell may have reset the terminal meanwhile.
                restore();
                take_terminal()?;
                redraw(app, terminal)?;
            }
            Input::Signal(signal) => {
                ending = Ending::Signalled(signal_name(signal));
                app.terminate();
            }
        }
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGINT => "SIGINT",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Clears the screen and draws everything, not only what changed, at the
/// terminal's size now (it may have changed while delve was stopped).
fn redraw(app: &mut App, terminal: &mut Screen) -> io::Result<()> {
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    // Resizing clears the screen and forgets the last frame, so the next
    // draw writes every cell. (`Terminal::clear` would also do, but it asks
    // the terminal where the cursor is, and the answer would go to the
    // thread reading keys.)
    terminal.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Ctrl-Z: puts the terminal back and stops delve's process group, as the
/// terminal's own Ctrl-Z would (the whole group, so that under `cargo run`
/// cargo stops too and the shell hears of it); once continued, takes the
/// terminal again. Returns whether delve was stopped: the kernel drops the
/// stop when no shell with job control could resume it.
fn suspend(continued: &AtomicBool) -> io::Result<bool> {
    restore();
    continued.store(false, Ordering::SeqCst);
    rustix::process::kill_current_process_group(rustix::process::Signal::TSTP)?;
    // Once continued, the SIGCONT handler runs on whichever thread the
    // kernel picks, perhaps a moment after this one resumes.
    let deadline = Instant::now() + CONTINUE_WAIT;
    while !continued.load(Ordering::SeqCst) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(2));
    }
    take_terminal()?;
    Ok(continued.load(Ordering::SeqCst))
}
