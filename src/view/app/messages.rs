//! The top line and the history: the messages of the latest command,
//! read a page at a time, and every message of the session. Apart from
//! the keys and actions that add to them, which all go through here.

use super::App;
use super::Mode;
use crate::view::keymap::Command;
use crate::view::lines::{message_pages, newest_that_fit};

/// How many lines the history screen keeps.
const HISTORY_LINES: usize = 1000;

impl App {
    /// The messages of the latest command, for the message line; cleared on the next command.
    pub fn messages(&self) -> &[String] {
        &self.messages
    }

    /// Every message of the command that ended the run in this session
    /// (the player's last blow, the one that killed), for the summary;
    /// empty for a run loaded already ended.
    pub fn last_words(&self) -> &[String] {
        &self.last_words
    }

    /// The top line's text and whether [`MORE`](crate::view::lines::MORE) follows it: the messages
    /// page by page while they are read, or, while something moves on its
    /// own (an activity, a replay), the newest that fit.
    pub fn top_line(&self, width: u16) -> (String, bool) {
        let pages = message_pages(&self.messages, usize::from(width));
        if self.busy() || self.replay.is_some() {
            let hint = match self.keymap.key_for(Command::History) {
                Some(k) => format!(" ({k} for more)"),
                None => String::new(),
            };
            let line = newest_that_fit(&self.messages, usize::from(width), &hint);
            return (line, false);
        }
        let page = self.page.min(pages.len() - 1);
        (
            pages[page].clone(),
            page + 1 < pages.len() && self.mode == Mode::Map,
        )
    }

    /// Whether the top line waits at [`MORE`](crate::view::lines::MORE): the last command said more
    /// than the line holds and the rest is unread. Until it is read
    /// (Space or Enter a page, Esc all), keys that act in the game do
    /// nothing, so a move typed ahead is not made with a blow unseen;
    /// saving, quitting and the history still work.
    pub fn more(&self) -> bool {
        !self.too_small() && self.top_line(self.view.0).1
    }

    /// A line for the top line from outside, such as a warning about how
    /// the run was loaded.
    pub fn warn(&mut self, line: String) {
        self.note(line);
        // It answers nothing the player did this turn (how the run was
        // loaded, why Ctrl-Z did nothing), so it must not wait behind
        // --more--: it goes first on the top line, the rest after it.
        if let Some(line) = self.messages.pop() {
            self.messages.insert(0, line);
        }
        self.page = 0;
    }

    /// Starts a fresh top line, read from its first page.
    pub(super) fn clear_messages(&mut self) {
        self.messages.clear();
        self.page = 0;
    }

    /// Adds a line of the viewer's own to the top line and the history.
    pub(super) fn note(&mut self, line: String) {
        self.messages.push(line.clone());
        // A line said again and again ("A rat is in view." at every step of
        // a careful travel) is counted, not repeated.
        let repeats = self.history.last().and_then(|last| {
            if *last == line {
                Some(2)
            } else {
                let count = last.strip_prefix(line.as_str())?.strip_prefix(" (x")?;
                count.strip_suffix(')')?.parse::<u32>().ok().map(|n| n + 1)
            }
        });
        match repeats {
            Some(n) => *self.history.last_mut().expect("just read") = format!("{line} (x{n})"),
            None => self.history.push(line),
        }
        self.trim_history();
    }

    pub(super) fn trim_history(&mut self) {
        if self.history.len() > HISTORY_LINES {
            let extra = self.history.len() - HISTORY_LINES;
            self.history.drain(..extra);
        }
    }

    /// The session's messages, oldest first.
    pub fn history(&self) -> &[String] {
        &self.history
    }
}
