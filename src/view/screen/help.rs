//! The help screen, built from the keymap: a row a command, moves and
//! some commands paired side by side when the width allows, then the
//! map's legend. Apart, as the longest layout and the only one read off
//! the keymap.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::key_name;
use super::line;
use crate::view::app::App;
use crate::view::keymap::{Command, HelpEntry};

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
    const PAIRS: [(Command, Command); 11] = [
        (Command::Wait, Command::Rest),
        (Command::Search, Command::Close),
        (Command::Fire, Command::Zap),
        (Command::NextTarget, Command::Character),
        (Command::Overview, Command::Look),
        (Command::History, Command::Help),
        (Command::PickUp, Command::Inventory),
        (Command::Wield, Command::Drop),
        (Command::Quaff, Command::Read),
        (Command::Save, Command::SaveQuit),
        (Command::Suspend, Command::Redraw),
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

pub(super) fn help(app: &App, scroll: usize, buf: &mut Buffer) {
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
        "Map: @ you, . room floor, # corridor, + door (' open), < > stairs up and down,"
            .to_string(),
        format!(
            "░ ▒ ▓ rock from soft to hard, █ the edge; dim cells are remembered. {} returns.",
            key_name(app, Command::Cancel)
        ),
        if app.run().combat().is_some() {
            // Too many kinds for one line: the glyph classes, and the key
            // that names any one.
            format!(
                ") weapon [ armour ! potion ? scroll / wand {{ missile }} launcher. {} names all.",
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
