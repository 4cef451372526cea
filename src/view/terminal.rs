//! The imperative shell around [`App`]: the real terminal (crossterm,
//! through ratatui's re-export) and the save file.
//!
//! The terminal is put back however the viewer ends: a guard undoes raw
//! mode and the alternate screen when dropped (quit, error, or unwinding),
//! and a panic hook, chained to the previous one, does so before the panic
//! message is printed so the message is readable.

use std::io::{self, Stdout, Write};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::crossterm::{cursor, execute, terminal};
use signal_hook::consts::{SIGHUP, SIGTERM};

use crate::generate::GenerateError;

use super::app::App;
use super::keymap::Key;
use super::screen;

/// How long travel and auto-explore wait between steps for a key that
/// would interrupt them; also what makes each step visible.
const STEP_DELAY: Duration = Duration::from_millis(12);
/// How often an idle viewer checks for a termination signal.
const IDLE_WAKE: Duration = Duration::from_millis(250);

/// Why the viewer stopped early.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error("terminal: {0}")]
    Terminal(#[from] io::Error),
    #[error(transparent)]
    Generate(#[from] GenerateError),
    #[error("internal error (a bug in delve): {0}")]
    Panic(String),
}

/// Raw mode and the alternate screen, undone on drop.
struct Guard;

impl Guard {
    fn enter() -> io::Result<Guard> {
        install_panic_hook();
        terminal::enable_raw_mode()?;
        ACTIVE.store(true, Ordering::SeqCst);
        let guard = Guard;
        execute!(io::stdout(), terminal::EnterAlternateScreen, cursor::Hide)?;
        Ok(guard)
    }
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

/// Runs the viewer until the player quits. `save` writes the run and
/// returns where it went, or what failed; it is called for every save the
/// app asks for, including the one that comes before quitting.
pub fn play(
    app: &mut App,
    mut save: impl FnMut(&App) -> Result<String, String>,
) -> Result<(), ViewError> {
    // SIGTERM (a shutdown, `kill`) and SIGHUP (the terminal closed) save
    // and quit rather than lose the session's play.
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [SIGTERM, SIGHUP] {
        signal_hook::flag::register(signal, Arc::clone(&stop))?;
    }
    let _guard = Guard::enter()?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    // A panic is turned into an error (the hook has already put the
    // terminal back and printed it), so the caller can still save the run.
    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
        event_loop(app, &mut terminal, &mut save, &stop)
    }));
    let _ = terminal.backend_mut().flush();
    match result {
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

fn event_loop(
    app: &mut App,
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    save: &mut impl FnMut(&App) -> Result<String, String>,
    stop: &AtomicBool,
) -> Result<(), ViewError> {
    // Terminal events are read on their own thread and handed over through
    // a channel. crossterm's reader spins forever once its input is gone (a
    // closed terminal; crossterm issue #793), so the loop here must never
    // block in it: waiting on the channel, it still notices the SIGHUP.
    let (sender, events) = mpsc::channel();
    std::thread::spawn(move || {
        loop {
            let event = event::read();
            let failed = event.is_err();
            if sender.send(event).is_err() || failed {
                break;
            }
        }
    });
    let size = terminal.size()?;
    app.resize(size.width, size.height);
    loop {
        if stop.swap(false, Ordering::Relaxed) {
            app.terminate();
        }
        // Every request is a save; the kinds differ only in what `saved`
        // does after.
        if app.take_request().is_some() {
            let result = save(app);
            app.saved(result);
        }
        if app.should_quit() {
            return Ok(());
        }
        terminal.draw(|frame| screen::draw(app, frame.buffer_mut()))?;
        // While travelling, a step is taken whenever no key arrives in time.
        // Idle, the loop still wakes now and then to notice a signal.
        let wait = if app.busy() { STEP_DELAY } else { IDLE_WAKE };
        let event = match events.recv_timeout(wait) {
            Ok(event) => event?,
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
        match event {
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
        }
    }
}
