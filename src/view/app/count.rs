//! The count prefix (NetHack's and DCSS's): digits typed on the map before
//! a command repeat it that many times. Digits the keymap binds to a
//! command do that command instead, so a player who moves with the numpad's
//! digits binds them and gives up counts.
//!
//! A move, a wait or a search takes a count and becomes an activity, a
//! step a tick, stopped as travel is (a key, a monster coming into view)
//! and when something attacks; any other command drops the count.

use super::App;
use crate::view::keymap::Key;

/// The largest count: four digits, more than any wait a player needs.
pub const MAX_COUNT: u32 = 9999;

impl App {
    /// The count typed so far, if any.
    pub fn count(&self) -> Option<u32> {
        self.count
    }

    /// A digit the keymap leaves free, on the map: it starts or extends the
    /// count. A leading 0 is no count. Returns whether the key was a digit
    /// taken so.
    pub(super) fn type_count(&mut self, key: Key) -> bool {
        let Key::Char(c) = key else {
            return false;
        };
        let Some(digit) = c.to_digit(10) else {
            return false;
        };
        let count = match self.count {
            None if digit == 0 => return true,
            None => digit,
            Some(n) => (n * 10 + digit).min(MAX_COUNT),
        };
        self.count = Some(count);
        self.clear_messages();
        self.messages.push(format!("Count: {count}"));
        true
    }
}
