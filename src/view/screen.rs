//! Drawing: a pure function from the app's state and a screen size to a
//! frame (a ratatui `Buffer`). It knows glyphs, colours and layout, and
//! nothing about the terminal; the shell hands the frame to ratatui, which
//! writes only the cells that changed.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use unicode_width::UnicodeWidthStr;

use crate::geom::Pos;
use crate::level::{Level, Tile};
use crate::sim::{Colour, LevelState, Outcome, Run};

use super::app::{App, MIN_SIZE, Mode, TEXT_ROWS};
use super::keymap::{Command, HelpEntry};
use super::lines::{MORE, wrap, wrap_indented};
use super::look::door_in_seen_wall;

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
                        letters_held(app),
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

/// The top line: this press's messages, a page at a time, or the newest
/// while an activity or a replay moves on.
fn messages_line(app: &App, width: u16) -> String {
    match app.top_line(width) {
        (text, true) => format!("{text} {MORE}"),
        (text, false) => text,
    }
}

fn key_name(app: &App, command: Command) -> String {
    app.keymap()
        .key_for(command)
        .map_or("(unbound)".into(), |k| k.to_string())
}

/// Look mode's text, wrapped at spaces to the screen's width: its first
/// line on the top row and the rest over the top rows of the map; or, when
/// those would hide the cell looked at, the whole text over the bottom rows
/// of the map instead. Rows over the map are cleared first, so the text
/// reads on its own.
fn look_text(app: &App, cursor: Pos, text: &str, map_area: Rect, buf: &mut Buffer) {
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

/// How a cell looks: its glyph and colour when seen now; remembered cells
/// are drawn dim by the caller.
fn tile_look(level: &Level, p: Pos) -> (char, Color) {
    match level.tile(p) {
        Tile::Floor => ('.', Color::White),
        Tile::Corridor => ('#', Color::Gray),
        Tile::Door => ('+', Color::Yellow),
        Tile::UpStairs => ('<', Color::LightCyan),
        Tile::DownStairs => ('>', Color::LightCyan),
        Tile::Rock => {
            let h = level.hardness(p).0;
            let glyph = match h {
                255 => '█',
                170.. => '▓',
                85.. => '▒',
                _ => '░',
            };
            (glyph, Color::Rgb(150 - h / 3, 120 - h / 3, 90 - h / 4))
        }
    }
}

const REMEMBERED: Color = Color::DarkGray;

pub(crate) fn monster_colour(c: Colour) -> Color {
    match c {
        Colour::Red => Color::LightRed,
        Colour::Green => Color::LightGreen,
        Colour::Yellow => Color::LightYellow,
        Colour::Blue => Color::LightBlue,
        Colour::Magenta => Color::LightMagenta,
        Colour::Cyan => Color::LightCyan,
        Colour::White => Color::White,
        Colour::Grey => Color::Gray,
    }
}

/// The map around the camera.
fn map(app: &App, area: Rect, buf: &mut Buffer) {
    let run = app.run();
    let state = run.current();
    let level = &state.level;
    let (cx, cy) = app.camera().unwrap_or((0, 0));
    // Monsters in view, by cell of the view, so each cell is one lookup.
    let mut monsters: Vec<(Pos, char, Color)> = state
        .monsters
        .iter()
        .filter(|m| run.sees(m.pos))
        .map(|m| {
            let kind = &run.kinds()[usize::from(m.kind)];
            (m.pos, kind.glyph, monster_colour(kind.colour))
        })
        .collect();
    monsters.sort_by_key(|m| (m.0.y, m.0.x));
    // Items the player has seen, the top one of each cell.
    let mut items: Vec<(Pos, char, Color)> = Vec::new();
    if let (Some(combat), Some(floor)) = (run.combat(), run.floor()) {
        for item in floor.items.iter().rev() {
            if state.has_seen(item.pos) && !items.iter().any(|i| i.0 == item.pos) {
                let kind = combat.kind(item.kind);
                items.push((item.pos, kind.glyph, monster_colour(kind.colour)));
            }
        }
    }
    items.sort_by_key(|m| (m.0.y, m.0.x));
    let cursor = match app.mode() {
        Mode::Look { cursor } => Some(cursor),
        _ => None,
    };
    let player = run.player().pos;
    for sy in 0..area.height {
        let ly = cy + i32::from(sy);
        for sx in 0..area.width {
            let lx = cx + i32::from(sx);
            if !level.in_bounds(lx, ly) {
                continue;
            }
            let p = Pos::new(lx as u16, ly as u16);
            let Some((glyph, style)) = cell_look(run, state, &monsters, &items, player, p) else {
                if cursor == Some(p) {
                    buf[(area.x + sx, area.y + sy)]
                        .set_char(' ')
                        .set_style(Style::new().add_modifier(Modifier::REVERSED));
                }
                continue;
            };
            let style = if cursor == Some(p) {
                style.add_modifier(Modifier::REVERSED)
            } else {
                style
            };
            buf[(area.x + sx, area.y + sy)]
                .set_char(glyph)
                .set_style(style);
        }
    }
}

/// A known cell's glyph and style; `None` for cells never seen.
fn cell_look(
    run: &Run,
    state: &LevelState,
    monsters: &[(Pos, char, Color)],
    items: &[(Pos, char, Color)],
    player: Pos,
    p: Pos,
) -> Option<(char, Style)> {
    let item = || {
        items
            .binary_search_by_key(&(p.y, p.x), |m| (m.0.y, m.0.x))
            .ok()
            .map(|i| items[i])
    };
    if p == player {
        return Some((
            '@',
            Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
        ));
    }
    if run.sees(p) {
        if let Ok(i) = monsters.binary_search_by_key(&(p.y, p.x), |m| (m.0.y, m.0.x)) {
            let (_, glyph, colour) = monsters[i];
            return Some((glyph, Style::new().fg(colour).add_modifier(Modifier::BOLD)));
        }
        if let Some((_, glyph, colour)) = item() {
            return Some((glyph, Style::new().fg(colour)));
        }
        let (glyph, colour) = tile_look(&state.level, p);
        return Some((glyph, Style::new().fg(colour)));
    }
    if state.has_seen(p) {
        if let Some((_, glyph, _)) = item() {
            return Some((glyph, Style::new().fg(REMEMBERED)));
        }
        let (glyph, _) = tile_look(&state.level, p);
        return Some((glyph, Style::new().fg(REMEMBERED)));
    }
    // Dim, as what is in it (a monster) is not in sight.
    if door_in_seen_wall(state, p) {
        let (glyph, _) = tile_look(&state.level, p);
        return Some((glyph, Style::new().fg(REMEMBERED)));
    }
    None
}

/// How many level cells each overview character stands for: enough to fit,
/// and about twice as many rows as columns, since a terminal character is
/// about twice as tall as it is wide, so the level keeps its shape.
fn overview_scale(level: &Level, area: Rect) -> (u16, u16) {
    let sx = level.width().div_ceil(area.width.max(1));
    let sy = level.height().div_ceil(area.height.max(1));
    let sx = sx.max(sy.div_ceil(2));
    (sx, sy.max(2 * sx))
}

/// The whole level, each character standing for a block of cells and
/// showing the block's most telling known content.
fn overview(app: &App, area: Rect, buf: &mut Buffer) {
    let run = app.run();
    let state = run.current();
    let level = &state.level;
    let (sx, sy) = overview_scale(level, area);
    let cols = level.width().div_ceil(sx);
    let rows = level.height().div_ceil(sy);
    let (ox, oy) = (
        area.x + (area.width - cols) / 2,
        area.y + (area.height - rows) / 2,
    );
    let player = run.player().pos;
    for by in 0..rows {
        for bx in 0..cols {
            let mut best: Option<(u8, char, Style)> = None;
            for y in by * sy..((by + 1) * sy).min(level.height()) {
                for x in bx * sx..((bx + 1) * sx).min(level.width()) {
                    let p = Pos::new(x, y);
                    let candidate = if p == player {
                        Some((
                            9,
                            '@',
                            Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
                        ))
                    } else if let Some(m) =
                        state.monsters.iter().find(|m| m.pos == p && run.sees(p))
                    {
                        let kind = &run.kinds()[usize::from(m.kind)];
                        Some((8, kind.glyph, Style::new().fg(monster_colour(kind.colour))))
                    } else if state.has_seen(p) || door_in_seen_wall(state, p) {
                        let (glyph, colour) = tile_look(level, p);
                        let rank = match level.tile(p) {
                            Tile::UpStairs | Tile::DownStairs => 7,
                            Tile::Door => 5,
                            Tile::Floor => 4,
                            Tile::Corridor => 3,
                            Tile::Rock => 1,
                        };
                        let colour = if run.sees(p) { colour } else { REMEMBERED };
                        Some((rank, glyph, Style::new().fg(colour)))
                    } else {
                        None
                    };
                    if let Some(c) = candidate
                        && best.is_none_or(|b| c.0 > b.0)
                    {
                        best = Some(c);
                    }
                }
            }
            if let Some((_, glyph, style)) = best {
                buf[(ox + bx, oy + by)].set_char(glyph).set_style(style);
            }
        }
    }
}

fn history(app: &App, scroll: usize, area: Rect, buf: &mut Buffer) {
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

/// Columns between the two entries of a paired help row.
const PAIR_GAP: usize = 4;

/// The help screen's rows: one command a row, except the moves, which
/// pair each straight move with a diagonal when the width allows (so every
/// key fits one 80x24 screen).
fn help_rows(entries: &[HelpEntry], key_width: usize, width: u16) -> Vec<Vec<&HelpEntry>> {
    let is_move = |e: &&HelpEntry| matches!(e.command, Command::Move { .. });
    let straight: Vec<&HelpEntry> = entries
        .iter()
        .filter(|e| {
            matches!(
                e.command,
                Command::Move { dx: 0, .. } | Command::Move { dy: 0, .. }
            )
        })
        .collect();
    let diagonal: Vec<&HelpEntry> = entries
        .iter()
        .filter(is_move)
        .filter(|e| !straight.iter().any(|s| std::ptr::eq(*s, *e)))
        .collect();
    let what_width = |list: &[&HelpEntry]| list.iter().map(|e| e.what.chars().count()).max();
    let fits = match (what_width(&straight), what_width(&diagonal)) {
        (Some(a), Some(b)) => 2 + key_width + a + PAIR_GAP + key_width + b <= usize::from(width),
        _ => false,
    };
    let moves_paired = fits && straight.len() == diagonal.len();
    // Commands that read well side by side, when both fit on a line.
    const PAIRS: [(Command, Command); 4] = [
        (Command::PickUp, Command::Inventory),
        (Command::Wield, Command::Drop),
        (Command::Quaff, Command::Read),
        (Command::Save, Command::SaveQuit),
    ];
    let find = |c: Command| entries.iter().find(|e| e.command == c);
    let pair_fits = |a: &HelpEntry, b: &HelpEntry| {
        2 + key_width + a.what.chars().count() + PAIR_GAP + key_width + b.what.chars().count()
            <= usize::from(width)
    };
    let mut rows = Vec::new();
    let mut paired = false;
    let mut skip: Vec<Command> = Vec::new();
    for entry in entries {
        if is_move(&entry) && moves_paired {
            if !paired {
                paired = true;
                rows.extend(straight.iter().zip(&diagonal).map(|(s, d)| vec![*s, *d]));
            }
            continue;
        }
        if skip.contains(&entry.command) {
            continue;
        }
        let partner = PAIRS
            .iter()
            .find(|(a, _)| *a == entry.command)
            .and_then(|&(_, b)| find(b))
            .filter(|b| pair_fits(entry, b));
        match partner {
            Some(b) => {
                skip.push(b.command);
                rows.push(vec![entry, b]);
            }
            None => rows.push(vec![entry]),
        }
    }
    rows
}

fn help(app: &App, scroll: usize, buf: &mut Buffer) {
    let area = buf.area;
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let entries = app.keymap().help();
    let key_width = entries
        .iter()
        .map(|e| e.keys.chars().count())
        .max()
        .unwrap_or(0)
        .max(9)
        + 2;
    let all = help_rows(entries, key_width, area.width);
    // Title, a blank line if there is room, the rows, three lines of
    // legend; the rows scroll if a screen cannot hold them all.
    let room = usize::from(area.height) - 4;
    let (first, rows) = if all.len() < room {
        (2, room - 1)
    } else {
        (1, room)
    };
    let scroll = scroll.min(all.len().saturating_sub(rows));
    let title = if all.len() > rows {
        format!(
            "delve: keys (lines {}-{} of {}; {}/{} scroll)",
            scroll + 1,
            scroll + rows,
            all.len(),
            key_name(app, Command::Move { dx: 0, dy: 1 }),
            key_name(app, Command::Move { dx: 0, dy: -1 })
        )
    } else {
        "delve: keys (the move keys also steer the look cursor and scroll lists)".to_string()
    };
    line(buf, Rect::new(area.x, area.y, area.width, 1), &title, bold);
    // A paired row's second entry starts after the widest first one.
    let second = all
        .iter()
        .filter(|row| row.len() > 1)
        .map(|row| key_width + row[0].what.chars().count() + PAIR_GAP)
        .max()
        .unwrap_or(0);
    for (i, row) in all.iter().skip(scroll).take(rows).enumerate() {
        let y = area.y + first + i as u16;
        for (j, entry) in row.iter().enumerate() {
            let x = area.x + 2 + (j * second) as u16;
            if x >= area.right() {
                break;
            }
            let (keys, style) = if entry.keys.is_empty() {
                ("(unbound)", Style::new().fg(Color::DarkGray))
            } else {
                (entry.keys.as_str(), Style::new().fg(Color::LightCyan))
            };
            buf.set_stringn(x, y, keys, usize::from(area.right() - x), style);
            let x = x + key_width as u16;
            if x < area.right() {
                buf.set_stringn(
                    x,
                    y,
                    entry.what,
                    usize::from(area.right() - x),
                    Style::new(),
                );
            }
        }
    }
    let monsters: Vec<String> = app
        .run()
        .kinds()
        .iter()
        .map(|k| format!("{} {}", k.glyph, k.name))
        .collect();
    let legend = [
        "Map: @ you, . room floor, # corridor, + door, < > stairs up and down,".to_string(),
        format!(
            "░ ▒ ▓ rock from soft to hard, █ the edge; dim cells are remembered. {} returns.",
            key_name(app, Command::Cancel)
        ),
        if app.run().combat().is_some() {
            // Too many kinds for one line: the glyph classes, and the key
            // that names any one.
            format!(
                "Items: ) weapon, [ armour, ! potion, ? scroll. Monsters are letters; {} names one.",
                key_name(app, Command::Look)
            )
        } else {
            format!("Monsters: {}", monsters.join(", "))
        },
    ];
    for (i, text) in legend.iter().enumerate() {
        let y = area.bottom() - 3 + i as u16;
        line(
            buf,
            Rect::new(area.x, y, area.width, 1),
            text,
            Style::new().fg(Color::Gray),
        );
    }
}

fn ended(app: &App, buf: &mut Buffer) {
    let area = buf.area;
    let run = app.run();
    let won = run.outcome() == Outcome::Won;
    let deepest = run.visited().max().unwrap_or(1);
    let visited = run.visited().count();
    let (_, total) = run.monsters_left();
    let title = if won {
        "You have won."
    } else {
        "You have died."
    };
    // How it ended: every message of the last command (the player's own
    // blow, then the one that killed), or for a run loaded already ended
    // the log's last two lines ("The rat hits you and dies; 0 lives
    // left.", "You die.").
    let log = run.log();
    let said = match app.last_words() {
        [] => &log[log.len().saturating_sub(2)..],
        words => words,
    };
    let last: Vec<String> = said
        .iter()
        .flat_map(|m| wrap(m, usize::from(area.width).min(78)))
        .collect();
    let saved = match app.last_save() {
        Some(Ok(path)) => format!("The run is saved in {path}."),
        Some(Err(e)) => format!("Could not save: {e}"),
        None => String::new(),
    };
    let mut lines = vec![
        title.to_string(),
        String::new(),
        format!("Turns played     {}", run.turn()),
        format!("Deepest depth    {deepest} of {}", run.config().levels),
        format!("Levels visited   {visited}"),
        format!("Monsters killed  {}", run.killed()),
        format!("Monsters left    {total}"),
        format!("Lives left       {}", run.player().lives),
        format!("Seed             {}", run.seed()),
        format!("Save             {}", app.save_name()),
        String::new(),
    ];
    // The newest lines, when the screen cannot hold them all.
    let room = usize::from(area.height).saturating_sub(lines.len() + 2);
    lines.extend(last[last.len().saturating_sub(room)..].iter().cloned());
    lines.push(saved);
    lines.push(format!(
        "Enter, Space or {}: save and leave.  {}: leave, asking to save.",
        key_name(app, Command::Cancel),
        key_name(app, Command::Interrupt)
    ));
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
    let left = area.x + area.width.saturating_sub(width) / 2;
    let top = area.y + area.height.saturating_sub(lines.len() as u16) / 2;
    let colour = if won {
        Color::LightGreen
    } else {
        Color::LightRed
    };
    for (i, text) in lines.iter().enumerate() {
        let style = if i == 0 {
            Style::new().fg(colour).add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        buf.set_stringn(
            left,
            top + i as u16,
            text,
            usize::from(area.right().saturating_sub(left)),
            style,
        );
    }
}

/// The letters the pack holds, as a prompt lists them: "a-c", or "a-b,
/// e" when letters are empty between them.
fn letters_held(app: &App) -> String {
    let Some(combat) = app.run().combat() else {
        return "a".into();
    };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for (i, _) in combat.hero.pack.lines() {
        match spans.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => spans.push((i, i)),
        }
    }
    if spans.is_empty() {
        return "a".into();
    }
    spans
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (crate::sim::slot_letter(a), crate::sim::slot_letter(b));
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The pack, a line an item, and what is wielded and worn.
fn inventory(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(combat) = app.run().combat() else {
        return;
    };
    let mut lines = Vec::new();
    let worn = |k: Option<u16>, none: &str| k.map_or(none.to_string(), |k| combat.describe(k));
    lines.push(format!(
        "Wielding {}; wearing {}.",
        worn(combat.hero.weapon, "nothing (bare hands)"),
        worn(combat.hero.armour, "no armour")
    ));
    lines.push(String::new());
    if combat.hero.pack.is_empty() {
        lines.push("Your pack is empty.".into());
    }
    // A description longer than the screen is wide wraps under its item,
    // not cut off mid-word at the edge.
    for (i, l) in combat.hero.pack.lines() {
        let text = format!(
            "{} - {}: {}",
            crate::sim::slot_letter(i),
            combat.describe_count(l.kind, l.count),
            combat.kind(l.kind).description
        );
        lines.extend(wrap_indented(&text, usize::from(area.width), "    "));
    }
    for (row, text) in lines.iter().enumerate().take(usize::from(area.height)) {
        line(
            buf,
            Rect::new(area.x, area.y + row as u16, area.width, 1),
            text,
            Style::new(),
        );
    }
}

fn status(app: &App, area: Rect, buf: &mut Buffer) {
    let run = app.run();
    let player = run.player();
    let (here, total) = run.monsters_left();
    let lives_style = if player.lives <= 1 {
        Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    };
    // First line: where you are and how you stand, the things that change.
    let mut spans = vec![
        (
            format!("Depth {}/{}", player.depth, run.config().levels),
            Style::new().add_modifier(Modifier::BOLD),
        ),
        (
            format!("Lives {}/{}", player.lives, run.config().simulation.lives),
            lives_style,
        ),
        (format!("Turn {}", run.turn()), Style::new()),
        (
            format!("Monsters {here} here, {total} in the dungeon"),
            Style::new(),
        ),
    ];
    if let Some(combat) = run.combat() {
        let (hp, max) = (run.hp(), run.max_hp());
        let hp_style = if u32::from(hp) * 3 <= u32::from(max) {
            Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        let weapon = combat
            .hero
            .weapon
            .map_or("bare hands".to_string(), |k| combat.describe(k));
        spans.insert(1, (format!("HP {hp}/{max}"), hp_style));
        spans.insert(3, (format!("XL {}", run.experience_level()), Style::new()));
        spans.insert(4, (format!("Wielding {weapon}"), Style::new()));
        spans.pop();
    }
    let mut x = area.x;
    for (text, style) in spans {
        if x >= area.right() {
            break;
        }
        buf.set_stringn(x, area.y, &text, usize::from(area.right() - x), style);
        x += text.chars().count() as u16 + 2;
    }

    // Second line: the run's identity on the left, what is going on and the
    // help key on the right; the left gives way if both do not fit.
    let activity = match app.activity() {
        Some(super::app::Activity::Explore) => "[exploring]  ",
        Some(super::app::Activity::Travel(_)) => "[travelling]  ",
        None => "",
    };
    let (left, right) = match app.replay() {
        // A replay says so, with its speed and its keys.
        Some(replay) => {
            let state = if let Some(digits) = replay.entry() {
                format!("go to turn: {digits}_")
            } else if replay.stopped().is_some() {
                "stopped".into()
            } else if replay.at_end() {
                "ended".into()
            } else if replay.paused() {
                "paused".into()
            } else {
                "playing".into()
            };
            // The name gives way first (default names run to 25
            // characters), so the state, and the turn typed into the go-to
            // prompt, stay in view at 80 columns.
            let right = "Spc pause +- . g > Q".to_string();
            let rest = format!("  {} turns/s  {state}", replay.speed());
            let room = usize::from(area.width)
                .saturating_sub(right.chars().count() + 2 + "REPLAY ".len() + rest.chars().count());
            let name = app.save_name();
            let name = if name.chars().count() > room {
                let cut: String = name.chars().take(room.saturating_sub(1)).collect();
                format!("{cut}…")
            } else {
                name.to_string()
            };
            (format!("REPLAY {name}{rest}"), right)
        }
        None => (
            format!(
                "Killed {}  Seed {}  Save {}",
                run.killed(),
                run.seed(),
                app.save_name()
            ),
            format!("{activity}{} help", key_name(app, Command::Help)),
        ),
    };
    let right_len = right.chars().count() as u16;
    let room = usize::from(area.width.saturating_sub(right_len + 2));
    let left = if left.chars().count() > room {
        let cut: String = left.chars().take(room.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        left
    };
    let grey = Style::new().fg(Color::Gray);
    line(
        buf,
        Rect::new(area.x, area.y + 1, area.width, 1),
        &left,
        grey,
    );
    buf.set_stringn(
        area.right().saturating_sub(right_len),
        area.y + 1,
        &right,
        usize::from(right_len),
        grey,
    );
}
