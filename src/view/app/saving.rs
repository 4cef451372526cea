//! The shell's work for the app: saves, suspending and redrawing, asked
//! for as [`Request`]s the shell takes and reports back on, and how the
//! last save went. Apart from the keys that ask for them, since a signal
//! or a run's end asks too.

use super::App;
use super::Mode;

/// Work the shell must do for the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Save because the player asked; success and failure are both said.
    Save,
    /// A save the player did not ask for (on arriving at a level): said
    /// only if it fails.
    Autosave,
    /// Save, and quit if the save succeeds (or, after [`App::terminate`],
    /// whether or not it does).
    SaveAndQuit,
    /// Give the terminal back to the shell and stop the process (Ctrl-Z);
    /// on resuming, take the terminal again and draw everything.
    Suspend,
    /// Draw the whole screen again, not only what changed (Ctrl-R).
    Redraw,
}

impl Request {
    /// Whether the request is a save (the shell answers with
    /// [`App::saved`]), rather than something done to the terminal.
    pub fn is_save(self) -> bool {
        matches!(
            self,
            Request::Save | Request::Autosave | Request::SaveAndQuit
        )
    }
}

impl App {
    /// The shell's work, if any is pending: a save first, then a suspend
    /// or redraw. Call until `None`.
    pub fn take_request(&mut self) -> Option<Request> {
        self.in_flight = self.request.take();
        self.in_flight.or_else(|| self.terminal_request.take())
    }

    /// How a requested save went: `Ok` with where it went, or what failed.
    /// A failed save keeps the game open, whatever was asked.
    pub fn saved(&mut self, result: Result<String, String>) {
        let request = self.in_flight.take();
        if result.is_ok() {
            self.saved_turn = Some(self.run.turn());
        }
        self.last_save = Some(result.clone());
        match result {
            Ok(_) if request == Some(Request::Autosave) => {}
            Ok(path) => {
                self.note(format!("Saved to {path}."));
                if request == Some(Request::SaveAndQuit) {
                    self.quit = true;
                }
            }
            Err(e) if self.terminating => {
                // Staying open would defy the signal (a shutdown, a closed
                // terminal); the shell says on leaving what the save holds.
                self.note(format!("Could not save: {e}."));
                self.quit = true;
            }
            Err(e) => {
                self.note(format!("Could not save: {e}. The game stays open."));
                if self.mode == Mode::ConfirmQuit {
                    self.mode = self.resting_mode();
                }
            }
        }
    }

    /// Tells the app the run as it stands is what the save file holds (it
    /// was just loaded from it), so saving before a move would change
    /// nothing.
    pub fn mark_saved(&mut self) {
        self.saved_turn = Some(self.run.turn());
    }

    /// How the last save of this session went, if there was one.
    pub fn last_save(&self) -> Option<&Result<String, String>> {
        self.last_save.as_ref()
    }

    /// The process was told to stop (SIGTERM, SIGINT, SIGHUP): save and
    /// quit, whatever screen is up. Unlike `Q`, a failed save does not keep
    /// the game open.
    pub fn terminate(&mut self) {
        self.activity = None;
        self.terminating = true;
        self.request_save(true);
    }

    pub(super) fn request_save(&mut self, quit: bool) {
        if self.saved_turn == Some(self.run.turn()) {
            // Nothing has happened since the last save.
            if quit {
                self.quit = true;
            } else {
                self.note(format!("Already saved at turn {}.", self.run.turn()));
            }
            return;
        }
        self.request = Some(if quit {
            Request::SaveAndQuit
        } else {
            Request::Save
        });
    }
}
