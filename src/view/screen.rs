//! Drawing: a pure function from the app's state and a screen size to a
//! frame (a ratatui `Buffer`). It knows glyphs, colours and layout, and
//! nothing about the terminal; the shell hands the frame to ratatui, which
//! writes only the cells that changed.
//!
//! This file lays the screen out ([`draw`]) and holds what every part
//! shares (a line of text, a key's name, the prompts) and the too-small
//! screen; each part has a file of its own beside it: `map` (the map and
//! the overview), `messages` (the top line, look mode's text, the
//! history), `status` (the two status lines), `inventory` (the pack),
//! `help` (the keys) and `ended` (a finished run's summary).

mod character;
mod ended;
mod help;
mod inventory;
mod map;
mod messages;
mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use self::character::character;
pub use self::character::sheet;
use self::ended::ended;
use self::help::help;
use self::inventory::{inventory, letters_held};
use self::map::{map, overview, overview_scale};
use self::messages::{history, look_text, messages_line};
use self::status::status;
use super::app::{App, MIN_SIZE, Mode, TEXT_ROWS};
use super::keymap::Command;
use super::lines::wrap;

/// Draws the app into a fresh buffer of the given size.
pub fn frame(app: &App, width: u16, height: u16) -> Buffer {
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    draw(app, &mut buf);
    buf
}

/// The characters of a frame, a line a row, trailing spaces trimmed: what
/// snapshot tests compare.
pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(area.x + x, area.y + y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Draws the app over the whole of `buf`.
pub fn draw(app: &App, buf: &mut Buffer) {
    let area = buf.area;
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        too_small(app, area, buf);
        return;
    }
    match app.mode() {
        Mode::Help { scroll } => return help(app, scroll, buf),
        Mode::Ended => return ended(app, buf),
        _ => {}
    }
    let map_area = Rect::new(area.x, area.y + 1, area.width, area.height - TEXT_ROWS);
    let top = Rect::new(area.x, area.y, area.width, 1);
    match app.mode() {
        Mode::Overview => {
            let level = &app.run().current().level;
            let (sx, sy) = overview_scale(level, map_area);
            line(
                buf,
                top,
                &format!(
                    "Depth {}, the whole level: a character for each {sx}x{sy} cells. {} returns.",
                    app.run().player().depth,
                    key_name(app, Command::Cancel)
                ),
                Style::new().add_modifier(Modifier::BOLD),
            );
            overview(app, map_area, buf);
        }
        Mode::Inventory => {
            line(
                buf,
                top,
                &format!("You carry ({} returns):", key_name(app, Command::Cancel)),
                Style::new().add_modifier(Modifier::BOLD),
            );
            inventory(app, map_area, buf);
        }
        Mode::History { scroll } => {
            line(
                buf,
                top,
                &format!(
                    "Messages, newest last: {}/{} scroll, {} returns.",
                    key_name(app, Command::Move { dx: 0, dy: -1 }),
                    key_name(app, Command::Move { dx: 0, dy: 1 }),
                    key_name(app, Command::Cancel)
                ),
                Style::new().add_modifier(Modifier::BOLD),
            );
            history(app, scroll, map_area, buf);
        }
        Mode::Character => {
            line(
                buf,
                top,
                &format!(
                    "Your character ({} returns):",
                    key_name(app, Command::Cancel)
                ),
                Style::new().add_modifier(Modifier::BOLD),
            );
            character(app, map_area, buf);
        }
        Mode::Aim { aim, cursor } => {
            map(app, map_area, buf);
            let what = match aim {
                crate::view::app::Aim::Fire { .. } => "fire",
                crate::view::app::Aim::Zap { .. } => "zap",
            };
            let text = format!(
                "Aim: {} (Enter {what}s; {} next target; {} cancels)",
                app.describe(cursor),
                key_name(app, Command::NextTarget),
                key_name(app, Command::Cancel)
            );
            look_text(app, cursor, &text, map_area, buf);
        }
        Mode::Look { cursor } => {
            map(app, map_area, buf);
            let text = format!(
                "{} ({} or {} ends looking)",
                app.describe(cursor),
                key_name(app, Command::Look),
                key_name(app, Command::Cancel)
            );
            look_text(app, cursor, &text, map_area, buf);
        }
        mode => {
            map(app, map_area, buf);
            let (text, style) = match mode {
                Mode::ConfirmQuit => (CONFIRM_QUIT.to_string(), prompt_style()),
                Mode::Choose { verb } => (
                    format!(
                        "{} [{}] ({} cancels)",
                        verb.question(),
                        letters_held(app, verb),
                        key_name(app, Command::Cancel)
                    ),
                    prompt_style(),
                ),
                Mode::CloseWhich => (
                    format!(
                        "Close which door? (a direction; {} cancels)",
                        key_name(app, Command::Cancel)
                    ),
                    prompt_style(),
                ),
                _ => (messages_line(app, area.width), Style::new()),
            };
            line(buf, top, &text, style);
        }
    }
    status(
        app,
        Rect::new(area.x, area.bottom() - 2, area.width, 2),
        buf,
    );
}

const CONFIRM_QUIT: &str =
    "Save before quitting? y: save and quit, n: quit unsaved, Esc: keep playing";

fn prompt_style() -> Style {
    Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)
}

fn key_name(app: &App, command: Command) -> String {
    app.keymap()
        .key_for(command)
        .map_or("(unbound)".into(), |k| k.to_string())
}

/// Writes `text` at the start of a one-row area, cut to its width.
fn line(buf: &mut Buffer, area: Rect, text: &str, style: Style) {
    buf.set_stringn(area.x, area.y, text, usize::from(area.width), style);
}

/// What a screen too small for the map shows: the size it needs and, on
/// top, what the last key brought (a save, the quit prompt), wrapped, since
/// the keys that work here must not act unseen.
fn too_small(app: &App, area: Rect, buf: &mut Buffer) {
    let lines = [
        "The terminal is too small.".to_string(),
        format!("delve needs {}x{};", MIN_SIZE.0, MIN_SIZE.1),
        format!("this one is {}x{}.", area.width, area.height),
        "Enlarge it to go on.".to_string(),
    ];
    let (said, style) = if app.mode() == Mode::ConfirmQuit {
        (CONFIRM_QUIT.to_string(), prompt_style())
    } else {
        (app.messages().join(" "), Style::new())
    };
    // The messages keep to the rows above the size note.
    let spare = area.height.saturating_sub(lines.len() as u16 + 1);
    let said: Vec<String> = if said.is_empty() {
        Vec::new()
    } else {
        let mut wrapped = wrap(&said, usize::from(area.width));
        if wrapped.len() > usize::from(spare) {
            wrapped.drain(..wrapped.len() - usize::from(spare));
        }
        wrapped
    };
    for (i, text) in said.iter().enumerate() {
        line(
            buf,
            Rect::new(area.x, area.y + i as u16, area.width, 1),
            text,
            style,
        );
    }
    let centred = area.height.saturating_sub(lines.len() as u16) / 2;
    let below = if said.is_empty() {
        0
    } else {
        said.len() as u16 + 1
    };
    let top = area.y + centred.max(below);
    for (i, text) in lines.iter().enumerate() {
        let y = top + i as u16;
        if y >= area.bottom() {
            break;
        }
        let len = text.chars().count() as u16;
        let x = area.x + area.width.saturating_sub(len) / 2;
        buf.set_stringn(
            x,
            y,
            text,
            usize::from(area.width),
            Style::new().add_modifier(Modifier::BOLD),
        );
    }
}
