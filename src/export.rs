//! Text forms of generated levels: 002's ASCII drawing and a JSON document.
//! Pure functions from levels to strings; the CLI decides where they go.
//!
//! The glyphs are 002's: space rock, `.` floor, `#` corridor, `+` door,
//! `<` and `>` stairs, and `'` an open door (a run's level). A secret door
//! (rules 3) is drawn as the rock it looks like in ASCII, or as the `+` it
//! is with [`ascii_revealed`] and in JSON's rows, which also list them.

use serde::Serialize;

use crate::dungeon::Dungeon;
use crate::geom::Shape;
use crate::level::{Level, StairDirection, Tile};

/// `level D`, then exactly `height` rows of exactly `width` characters
/// (trailing spaces kept), then an empty line. A secret door is drawn as
/// rock, as a player first sees it.
pub fn ascii(level: &Level) -> String {
    ascii_with(level, Tile::SecretDoor.glyph())
}

/// [`ascii`] with secret doors drawn `+`, the doors they are
/// (`delve generate --reveal`).
pub fn ascii_revealed(level: &Level) -> String {
    ascii_with(level, Tile::Door.glyph())
}

/// The drawing, with a secret door drawn `secret`. Every glyph is ASCII
/// (a test checks), so a row is its tiles' bytes, looked up in a table:
/// `delve generate --levels 100` draws two million cells, and building
/// each row a `char` at a time took a tenth of its time.
fn ascii_with(level: &Level, secret: char) -> String {
    let w = usize::from(level.width());
    let mut table = [0u8; Tile::ALL.len()];
    for t in Tile::ALL {
        table[t as usize] = if t == Tile::SecretDoor {
            secret
        } else {
            t.glyph()
        } as u8;
    }
    let mut out = Vec::with_capacity((w + 1) * usize::from(level.height()) + 16);
    out.extend_from_slice(format!("level {}\n", level.depth()).as_bytes());
    for row in level.tiles().chunks_exact(w.max(1)) {
        out.extend(row.iter().map(|&t| table[t as usize]));
        out.push(b'\n');
    }
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

#[derive(Serialize)]
struct JsonDungeon {
    seed: u64,
    width: u16,
    height: u16,
    levels: Vec<JsonLevel>,
}

#[derive(Serialize)]
struct JsonLevel {
    depth: u16,
    /// `rooms`, `cave` or `labyrinth`: the kind its depth's config made.
    kind: &'static str,
    /// Secret doors drawn `+`, as they are.
    rows: Vec<String>,
    rooms: Vec<JsonRoom>,
    stairs: Vec<JsonStairs>,
    /// The cells of the secret doors, row by row.
    secret_doors: Vec<[u16; 2]>,
}

#[derive(Serialize)]
struct JsonRoom {
    id: usize,
    shape: &'static str,
    x: u16,
    y: u16,
    width: u16,
    height: u16,
    /// The vault's name, for a room that is a vault.
    #[serde(skip_serializing_if = "Option::is_none")]
    vault: Option<String>,
    doors: Vec<[u16; 2]>,
}

#[derive(Serialize)]
struct JsonStairs {
    x: u16,
    y: u16,
    direction: &'static str,
    to: Option<JsonPlace>,
}

#[derive(Serialize)]
struct JsonPlace {
    depth: u16,
    x: u16,
    y: u16,
}

/// The JSON document for the given depths, which must be generated, along
/// with their neighbours if stair destinations are to be filled in.
pub fn json(dungeon: &Dungeon, depths: &[u16]) -> String {
    let levels = depths
        .iter()
        .filter_map(|&d| dungeon.generated(d))
        .map(|level| JsonLevel {
            depth: level.depth(),
            kind: dungeon.config().at_depth(level.depth()).kind.name(),
            rows: (0..level.height())
                .map(|y| level.revealed_row_string(y))
                .collect(),
            secret_doors: level
                .tiles()
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t == Tile::SecretDoor)
                .map(|(i, _)| {
                    let p = level.pos(i);
                    [p.x, p.y]
                })
                .collect(),
            rooms: level
                .rooms()
                .iter()
                .enumerate()
                .map(|(id, room)| {
                    let b = room.shape.bounds();
                    JsonRoom {
                        id,
                        shape: match room.shape {
                            Shape::Rect(_) => "rect",
                            Shape::Circle { .. } => "circle",
                            Shape::Merged(_) => "merged",
                            Shape::Vault(_) => "vault",
                            Shape::Region(r) => r.kind.name(),
                        },
                        vault: match room.shape {
                            Shape::Vault(v) => Some(
                                dungeon
                                    .vaults()
                                    .get(usize::from(v.vault))
                                    .map_or_else(|| format!("#{}", v.vault), |v| v.name.clone()),
                            ),
                            _ => None,
                        },
                        x: b.x,
                        y: b.y,
                        width: b.width,
                        height: b.height,
                        doors: room.doors.iter().map(|d| [d.pos.x, d.pos.y]).collect(),
                    }
                })
                .collect(),
            stairs: level
                .stairs()
                .iter()
                .enumerate()
                .map(|(i, s)| JsonStairs {
                    x: s.pos.x,
                    y: s.pos.y,
                    direction: match s.direction {
                        StairDirection::Up => "up",
                        StairDirection::Down => "down",
                    },
                    to: dungeon.destination(level.depth(), i).map(|d| JsonPlace {
                        depth: d.depth,
                        x: d.pos.x,
                        y: d.pos.y,
                    }),
                })
                .collect(),
        })
        .collect();
    let doc = JsonDungeon {
        seed: dungeon.seed(),
        width: dungeon.config().width,
        height: dungeon.config().height,
        levels,
    };
    let mut s = serde_json::to_string_pretty(&doc).expect("plain data always serialises");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawing writes each tile's glyph as one byte: every glyph is
    /// ASCII, and `Tile::ALL` lists every tile at its own value.
    #[test]
    fn every_glyph_is_one_ascii_byte() {
        for (i, t) in Tile::ALL.into_iter().enumerate() {
            assert_eq!(t as usize, i);
            assert!(t.glyph().is_ascii(), "{t:?}");
        }
    }

    /// The byte table draws what the rows say, secret doors as rock or
    /// revealed.
    #[test]
    fn drawing_is_the_rows() {
        let config =
            crate::Config::from_ron("(width: 60, height: 30, levels: 1, secret_doors: 0.3)", "t")
                .unwrap();
        let level = crate::generate::generate_level(&config, 5, 1).unwrap();
        assert!(level.tiles().contains(&Tile::SecretDoor));
        for (text, row) in [
            (
                ascii(&level),
                Level::row_string as fn(&Level, u16) -> String,
            ),
            (ascii_revealed(&level), Level::revealed_row_string),
        ] {
            let mut want = format!("level {}\n", level.depth());
            for y in 0..level.height() {
                want.push_str(&row(&level, y));
                want.push('\n');
            }
            want.push('\n');
            assert_eq!(text, want);
        }
    }
}
