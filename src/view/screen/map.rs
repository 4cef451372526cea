//! The level drawn: the map around the camera, each known cell with its
//! glyph and colour (monsters in view, items seen, remembered cells dim,
//! the look cursor reversed), and the overview, a block of cells a
//! character. Apart, as the only code that knows how the level looks.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use crate::geom::Pos;
use crate::level::{Level, Tile};
use crate::sim::{Colour, LevelState, Run};
use crate::view::app::{App, Mode};
use crate::view::look::{door_in_seen_wall, rock_hardness};

/// How a cell looks: its glyph and colour when seen now; remembered cells
/// are drawn dim by the caller. A closed door is `+`, an open one `'`
/// (DCSS's and NetHack's signs); a secret door is drawn as the rock it
/// looks like, of the hardness of the wall beside it.
fn tile_look(level: &Level, p: Pos) -> (char, Color) {
    match level.tile(p) {
        Tile::Floor => ('.', Color::White),
        Tile::Corridor => ('#', Color::Gray),
        Tile::Door => ('+', Color::Yellow),
        Tile::OpenDoor => ('\'', Color::Yellow),
        Tile::UpStairs => ('<', Color::LightCyan),
        Tile::DownStairs => ('>', Color::LightCyan),
        Tile::Rock | Tile::SecretDoor => {
            let h = rock_hardness(level, p);
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
pub(super) fn map(app: &App, area: Rect, buf: &mut Buffer) {
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
        Mode::Look { cursor } | Mode::Aim { cursor, .. } => Some(cursor),
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
pub(super) fn overview_scale(level: &Level, area: Rect) -> (u16, u16) {
    let sx = level.width().div_ceil(area.width.max(1));
    let sy = level.height().div_ceil(area.height.max(1));
    let sx = sx.max(sy.div_ceil(2));
    (sx, sy.max(2 * sx))
}

/// The whole level, each character standing for a block of cells and
/// showing the block's most telling known content.
pub(super) fn overview(app: &App, area: Rect, buf: &mut Buffer) {
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
                            Tile::Door | Tile::OpenDoor => 5,
                            Tile::Floor => 4,
                            Tile::Corridor => 3,
                            Tile::Rock | Tile::SecretDoor => 1,
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
