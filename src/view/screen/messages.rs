//! The text of the top rows: this press's messages a page at a time,
//! look mode's description (over the map, where it hides nothing), and
//! the history screen of every message. Apart from the map they are
//! written over.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use super::line;
use crate::geom::Pos;
use crate::view::app::App;
use crate::view::lines::{MORE, wrap, wrap_indented};

/// The top line: this press's messages, a page at a time, or the newest
/// while an activity or a replay moves on.
pub(super) fn messages_line(app: &App, width: u16) -> String {
    match app.top_line(width) {
        (text, true) => format!("{text} {MORE}"),
        (text, false) => text,
    }
}

/// Look mode's text, wrapped at spaces to the screen's width: its first
/// line on the top row and the rest over the top rows of the map; or, when
/// those would hide the cell looked at, the whole text over the bottom rows
/// of the map instead. Rows over the map are cleared first, so the text
/// reads on its own.
pub(super) fn look_text(app: &App, cursor: Pos, text: &str, map_area: Rect, buf: &mut Buffer) {
    let width = usize::from(map_area.width);
    let mut lines = wrap_indented(text, width, "");
    // The text takes at most half the map's rows besides the top row (a
    // description is a line or two; a longer one is cut with an ellipsis),
    // so it fits above or below the cursor's row.
    let room = 1 + usize::from(map_area.height.saturating_sub(1) / 2);
    if lines.len() > room {
        lines.truncate(room);
        let last = lines.last_mut().expect("at least one line");
        while UnicodeWidthStr::width(last.as_str()) + 1 > width {
            last.pop();
        }
        last.push('…');
    }
    let over_map = lines.len() as u16 - 1;
    let cursor_row = app.camera().map_or(0, |(_, cy)| i32::from(cursor.y) - cy);
    let hidden = over_map > 0 && cursor_row < i32::from(over_map);
    let first = if hidden {
        map_area.bottom() - over_map - 1
    } else {
        map_area.y - 1
    };
    for (i, text) in lines.iter().enumerate() {
        let y = first + i as u16;
        if y >= map_area.y {
            for x in map_area.x..map_area.right() {
                buf[(x, y)].reset();
            }
        }
        line(
            buf,
            Rect::new(map_area.x, y, map_area.width, 1),
            text,
            Style::new(),
        );
    }
}

pub(super) fn history(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
    // Long lines wrap at spaces (continuations indented), so no message
    // is cut; `scroll` counts screen lines up from the newest.
    let width = usize::from(area.width);
    let lines: Vec<String> = app.history().iter().flat_map(|t| wrap(t, width)).collect();
    let rows = usize::from(area.height);
    let end = lines
        .len()
        .saturating_sub(scroll.min(lines.len().saturating_sub(rows)));
    let start = end.saturating_sub(rows);
    for (i, text) in lines[start..end].iter().enumerate() {
        line(
            buf,
            Rect::new(area.x, area.y + i as u16, area.width, 1),
            text,
            Style::new(),
        );
    }
}
