//! The terminal viewer behind `delve play`.
//!
//! - [`keymap`]: keys, commands and the bindings between them (data).
//! - [`app`]: the viewer's state machine; keys in, state out, no IO.
//! - [`screen`]: a pure function from the app and a size to a frame.
//! - [`lines`]: text cut to the screen's width (wrapping, the top line's
//!   pages), shared by the app and the screen.
//! - [`terminal`]: the shell that owns the real terminal; the only code in
//!   delve that knows crossterm.

pub mod app;
pub mod keymap;
pub mod lines;
pub mod look;
pub mod replay;
pub mod screen;
pub mod terminal;

pub use app::{Activity, Aim, App, MIN_SIZE, Mode, Request};
pub use keymap::{Command, HelpEntry, Key, Keymap};
