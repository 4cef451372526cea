//! Look mode's words: what a cell shows, as the player knows it (the
//! player, a monster in sight with its wounds and speed against yours, an
//! item seen, a doorway told by its walls, a door open or closed, the tile
//! or rock remembered; a secret door is the rock it looks like). Reads the
//! run; changes nothing.

use crate::geom::{Pos, RegionKind, Shape};
use crate::level::{Level, Tile};
use crate::sim::{Alert, Doors, LevelState, Run, Trait};
use crate::words::{article, capitalised};

/// What the look cursor (or any cell) shows, as the player knows it.
pub fn describe(run: &Run, p: Pos) -> String {
    let state = run.current();
    let level = &state.level;
    if p == run.player().pos {
        let lives = run.player().lives;
        let lives = format!("{} left", crate::words::count(lives, "life", "lives"));
        return match run.combat() {
            Some(_) => format!("You: {}/{} HP, {lives}.", run.hp(), run.max_hp()),
            None => format!("You: {lives}."),
        };
    }
    let sees = run.sees(p);
    if sees && let Some(m) = state.monsters.iter().find(|m| m.pos == p) {
        let kind = &run.kinds()[usize::from(m.kind)];
        let mut traits: Vec<String> = kind
            .traits
            .iter()
            .map(|t| {
                match t {
                    Trait::Smart => "smart",
                    Trait::Telepathic => "telepathic",
                    Trait::Tunneling => "tunnels through rock",
                    Trait::Erratic => "erratic",
                    Trait::OpensDoors => "opens doors",
                }
                .to_string()
            })
            .collect();
        // Against the player's own speed, with both numbers: whether it
        // can be outrun is what the player asks, and by how much.
        let mine = run.config().simulation.player_speed;
        traits.push(match kind.speed.cmp(&mine) {
            std::cmp::Ordering::Less => {
                format!("slower than you (speed {} to your {mine})", kind.speed)
            }
            std::cmp::Ordering::Equal => "as fast as you".to_string(),
            std::cmp::Ordering::Greater => {
                format!("faster than you (speed {} to your {mine})", kind.speed)
            }
        });
        if let Some((hp, max)) = run.monster_hp(m) {
            let about = if kind.description.is_empty() {
                String::new()
            } else {
                format!(" {}", kind.description)
            };
            // Rules 4: whether it has noticed you, what it can do, and
            // how a fight with it would go from here.
            if run.tactics().is_some() {
                let alert = match run.alert_of(m) {
                    Alert::Asleep => "asleep",
                    Alert::Wandering => "wandering",
                    Alert::Awake => "awake",
                };
                let can: Vec<String> = kind.abilities.iter().map(|a| a.words()).collect();
                let can = match can.is_empty() {
                    true => String::new(),
                    false => format!("; {}", can.join(", ")),
                };
                let danger = run.danger(m).map_or(String::new(), |d| {
                    format!(
                        " {}: it needs about {} turns to kill you, you about {} to kill it.",
                        capitalised(d.word()),
                        turns(d.turns_to_kill_you),
                        turns(d.turns_to_kill_it)
                    )
                });
                return format!(
                    "{} ({}), {}, {alert}: hits for {}{can}; {}.{danger}{about}",
                    capitalised(&article(&kind.name)),
                    kind.glyph,
                    crate::words::wound_word(hp, max),
                    kind.damage,
                    traits.join(", ")
                );
            }
            return format!(
                "{} ({}), {}: hits for {}; {}.{about}",
                capitalised(&article(&kind.name)),
                kind.glyph,
                crate::words::wound_word(hp, max),
                kind.damage,
                traits.join(", ")
            );
        }
        return format!(
            "{} ({}): {}.",
            capitalised(&article(&kind.name)),
            kind.glyph,
            traits.join(", ")
        );
    }
    if (sees || state.has_seen(p))
        && let (Some(combat), Some(floor)) = (run.combat(), run.floor())
        && let Some(item) = floor.items.iter().rev().find(|i| i.pos == p)
    {
        let kind = combat.kind(item.kind);
        let names = run.item_names().expect("a Combat run");
        return format!(
            "{} ({}): {}",
            capitalised(&names.describe(item.kind)),
            kind.glyph,
            names.description(item.kind)
        );
    }
    if door_in_seen_wall(state, p) {
        return "A doorway in the wall; you do not see into it from here.".into();
    }
    if !sees && !state.has_seen(p) {
        return "You have not seen this place.".into();
    }
    let depth = run.player().depth;
    let doors = run.doors();
    let what = match level.tile(p) {
        Tile::Floor => match level.area_of(p).map(|i| level.rooms()[i].shape) {
            Some(Shape::Region(r)) if r.kind == RegionKind::Chamber => {
                "the floor of a cave chamber".to_string()
            }
            Some(Shape::Region(r)) if r.kind == RegionKind::Landing => {
                "a landing of the maze".to_string()
            }
            _ => "the floor of a room".to_string(),
        },
        Tile::Corridor => "a corridor".to_string(),
        Tile::Door if doors == Doors::Doorways => "a doorway".to_string(),
        Tile::Door => "a closed door (walk into it to open it)".to_string(),
        Tile::OpenDoor => "an open door (c closes it)".to_string(),
        Tile::DownStairs => format!("a staircase down to depth {}", depth + 1),
        Tile::UpStairs if depth == 1 => "the staircase out of the dungeon".to_string(),
        Tile::UpStairs => format!("a staircase up to depth {}", depth - 1),
        // A secret door looks like the wall it hides in, until found.
        Tile::Rock | Tile::SecretDoor => {
            let h = rock_hardness(level, p);
            if h == 255 && level.is_border(p) {
                "the dungeon's edge, which nothing can dig".to_string()
            } else if h == 255 {
                // A vault's walls are as hard as the edge, and drawn alike.
                "a wall that nothing can dig".to_string()
            } else {
                format!("rock of hardness {h} ({})", rock_word(h))
            }
        }
    };
    if sees {
        format!("You see {what}.")
    } else {
        format!("You remember {what}.")
    }
}

/// A count of turns as look mode says it: whole turns, at least 1, and
/// "over 999" for a fight that would not end.
fn turns(t: f64) -> String {
    if t >= 999.5 {
        "over 999".into()
    } else {
        format!("{}", t.round().max(1.0) as u32)
    }
}

/// Whether `p` is a doorway the player knows of without the field of view
/// having reached it: a door between two seen wall cells in line, with a
/// seen open cell across it. Symmetric shadowcasting shows a wall as soon
/// as sight touches it but an open cell only when sight reaches its
/// centre, so from inside a room a doorway far along a near wall would be
/// a gap between drawn walls; the gap is a door, and the player can tell.
/// Read from what the run has seen, so it needs no memory of its own and a
/// loaded run draws the same.
pub(crate) fn door_in_seen_wall(state: &LevelState, p: Pos) -> bool {
    let level = &state.level;
    if !level.in_bounds(i32::from(p.x), i32::from(p.y))
        || !matches!(level.tile(p), Tile::Door | Tile::OpenDoor)
        || state.has_seen(p)
    {
        return false;
    }
    // A secret door is wall to the player.
    let cell = |dx: i32, dy: i32| {
        let (x, y) = (i32::from(p.x) + dx, i32::from(p.y) + dy);
        level
            .in_bounds(x, y)
            .then(|| Pos::new(x as u16, y as u16))
            .filter(|&n| state.has_seen(n))
            .map(|n| !matches!(level.tile(n), Tile::Rock | Tile::SecretDoor))
    };
    let across = |(dx, dy): (i32, i32)| {
        let wall = |d: i32| cell(d * dx, d * dy) == Some(false);
        let open = |d: i32| cell(d * dy, d * dx) == Some(true);
        wall(-1) && wall(1) && (open(-1) || open(1))
    };
    across((1, 0)) || across((0, 1))
}

/// The hardness rock at `p` shows: its own, or for a secret door (open,
/// hardness 0) that of the first rock beside it, so the door looks like
/// the wall it hides in (middling rock if it has none).
pub(crate) fn rock_hardness(level: &Level, p: Pos) -> u8 {
    if level.tile(p) != Tile::SecretDoor {
        return level.hardness(p).0;
    }
    crate::sim::DIRECTIONS
        .iter()
        .map(|&(dx, dy)| Pos::new((i32::from(p.x) + dx) as u16, (i32::from(p.y) + dy) as u16))
        .find(|&n| level.tile(n) == Tile::Rock)
        .map_or(127, |n| level.hardness(n).0)
}

/// How rock of a hardness feels to a digger.
pub(crate) fn rock_word(h: u8) -> &'static str {
    match h {
        0..=84 => "soft",
        85..=169 => "firm",
        _ => "hard",
    }
}
