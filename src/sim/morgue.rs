//! The morgue file: a finished run told as text, written beside its save as
//! `NAME.morgue.txt` (Dungeon Crawl Stone Soup's convention). A pure
//! function of the facts the run gathers; the caller decides where the
//! text goes and supplies the date, so the core never reads the clock.
//! Also the known map a morgue shows: the level as the player saw it.

use std::fmt::Write as _;

use crate::geom::Pos;
use crate::sim::state::Run;
use crate::sim::state::combat_state::slot_letter;
use crate::sim::state::names::ItemNames;
use crate::sim::vocabulary::Outcome;

/// Everything a morgue file tells, gathered from a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Morgue {
    /// The save's name, which the file is named after.
    pub name: String,
    /// So the run can be played again.
    pub seed: u64,
    /// Won, lost or unfinished.
    pub outcome: Outcome,
    /// How long the run lasted.
    pub turns: u64,
    /// Where the run ended.
    pub depth: u16,
    /// The furthest the player got, the run's score.
    pub deepest: u16,
    /// Levels in the dungeon, to put depth in scale.
    pub levels: u16,
    /// Hit points at the end.
    pub hp: u16,
    /// Maximum hit points, with level and vigour.
    pub max_hp: u16,
    /// The character's level from experience.
    pub experience_level: u16,
    /// Experience points: the hit points of the kills.
    pub experience: u32,
    /// Lives left (0 for a lost run).
    pub lives: u8,
    /// The wielded weapon's name, or bare hands.
    pub weapon: String,
    /// The worn armour's name, or none.
    pub armour: String,
    /// Carried items, one line each.
    pub inventory: Vec<String>,
    /// Kills by kind, in the order the kinds are listed in the data.
    pub kills: Vec<(String, u32)>,
    /// What took the last life, for a lost run.
    pub cause: Option<String>,
    /// The last messages, to show how the end came.
    pub messages: Vec<String>,
    /// The final level as the player knew it, one string a row.
    pub map: Vec<String>,
    /// When the file was written, as the caller formats it.
    pub date: String,
}

impl Morgue {
    /// The file's text, kept separate from writing it
    /// so the core stays free of IO and tests read it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "delve morgue file: {}", self.name);
        let _ = writeln!(out, "{}", self.date);
        let _ = writeln!(out);
        let ending = match (self.outcome, &self.cause) {
            (Outcome::Won, _) => format!("Won the game on depth {}", self.depth),
            (Outcome::Lost, Some(cause)) => {
                format!(
                    "Killed by {} on depth {}",
                    crate::words::article(cause),
                    self.depth
                )
            }
            (Outcome::Lost, None) => format!("Died on depth {}", self.depth),
            (Outcome::Playing, _) => format!("Still alive on depth {}", self.depth),
        };
        let _ = writeln!(
            out,
            "{ending} after {} (deepest: {} of {}).",
            crate::words::count(self.turns, "turn", "turns"),
            self.deepest,
            self.levels
        );
        let _ = writeln!(out, "Seed {}.", self.seed);
        let _ = writeln!(out);
        let _ = writeln!(out, "The character");
        let _ = writeln!(
            out,
            "  HP {}/{}   experience level {} ({} points)   lives left {}",
            self.hp, self.max_hp, self.experience_level, self.experience, self.lives
        );
        let _ = writeln!(out, "  Wielding: {}", self.weapon);
        let _ = writeln!(out, "  Wearing:  {}", self.armour);
        let _ = writeln!(out);
        let _ = writeln!(out, "Inventory");
        if self.inventory.is_empty() {
            let _ = writeln!(out, "  (nothing)");
        }
        for line in &self.inventory {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out);
        let total: u32 = self.kills.iter().map(|(_, n)| n).sum();
        let _ = writeln!(out, "Kills ({total})");
        for (kind, n) in self.kills.iter().filter(|(_, n)| *n > 0) {
            let _ = writeln!(out, "  {n:>4} {kind}");
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "Last messages");
        for line in &self.messages {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out);
        let _ = writeln!(out, "The final level (depth {})", self.depth);
        for row in &self.map {
            let _ = writeln!(out, "{}", row.trim_end());
        }
        out
    }
}

impl Run {
    /// The player's level as the player knows it, one string a row: seen
    /// cells as 002 draws them, items seen, monsters in sight, the player.
    /// Rows and columns outside what was seen are left out.
    pub fn known_map(&self) -> Vec<String> {
        let state = self.current();
        let level = &state.level;
        let (w, h) = (level.width(), level.height());
        let seen = |p: Pos| state.has_seen(p) || p == self.state.player.pos;
        let cols: Vec<u16> = (0..w)
            .filter(|&x| (0..h).any(|y| seen(Pos::new(x, y))))
            .collect();
        let (Some(&x0), Some(&x1)) = (cols.first(), cols.last()) else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for y in 0..h {
            if !(0..w).any(|x| seen(Pos::new(x, y))) {
                continue;
            }
            let row: String = (x0..=x1)
                .map(|x| {
                    let p = Pos::new(x, y);
                    if p == self.state.player.pos {
                        return '@';
                    }
                    if !state.has_seen(p) {
                        return ' ';
                    }
                    if self.sees(p)
                        && let Some(m) = state.monster_at(p)
                    {
                        return self.state.kinds[usize::from(state.monsters[m].kind)].glyph;
                    }
                    if let (Some(c), Some(f)) = (self.combat(), self.floor())
                        && let Some(item) = f.items.iter().rev().find(|i| i.pos == p)
                    {
                        return c.kind(item.kind).glyph;
                    }
                    level.tile(p).glyph()
                })
                .collect();
            rows.push(row);
        }
        rows
    }

    /// What a finished (or stopped) run tells in its morgue file.
    pub fn morgue(&self, name: &str, date: &str, map: Vec<String>) -> Morgue {
        let state = self.combat();
        let describe = |k: Option<u16>, none: &str| match (state, k) {
            (Some(s), Some(k)) => s.describe(k),
            _ => none.to_string(),
        };
        Morgue {
            name: name.to_string(),
            seed: self.state.seed,
            outcome: self.state.outcome,
            turns: self.state.turn,
            depth: self.state.player.depth,
            deepest: self.visited().max().unwrap_or(1),
            levels: self.config.levels,
            hp: self.hp(),
            max_hp: self.max_hp(),
            experience_level: self.experience_level(),
            experience: state.map_or(0, |s| s.hero.xp),
            lives: self.state.player.lives,
            weapon: describe(state.and_then(|s| s.hero.weapon), "bare hands"),
            armour: describe(state.and_then(|s| s.hero.armour), "nothing"),
            inventory: state.map_or_else(Vec::new, |s| {
                s.hero
                    .pack
                    .lines()
                    .map(|(i, l)| {
                        let names = ItemNames::new(s, self.state.tactics.as_ref());
                        format!(
                            "{} - {}",
                            slot_letter(i),
                            names.describe_count(l.kind, l.count)
                        )
                    })
                    .collect()
            }),
            kills: match state {
                Some(s) => self
                    .state
                    .kinds
                    .iter()
                    .zip(&s.kills)
                    .map(|(k, &n)| (k.name.clone(), n))
                    .collect(),
                None => vec![("monsters".to_string(), self.state.killed)],
            },
            cause: state.and_then(|s| s.cause.clone()),
            messages: self
                .state
                .log
                .iter()
                .rev()
                .take(12)
                .rev()
                .cloned()
                .collect(),
            map,
            date: date.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_run_names_its_cause_and_shows_the_map() {
        let morgue = Morgue {
            name: "hero".into(),
            seed: 7,
            outcome: Outcome::Lost,
            turns: 1234,
            depth: 4,
            deepest: 5,
            levels: 10,
            hp: 0,
            max_hp: 32,
            experience_level: 4,
            experience: 170,
            lives: 0,
            weapon: "a mace (1+2d4)".into(),
            armour: "ring mail (4)".into(),
            inventory: vec!["a potion of healing".into()],
            kills: vec![("rat".into(), 3), ("bat".into(), 0), ("orc".into(), 2)],
            cause: Some("troll".into()),
            messages: vec!["The troll hits you for 9.".into(), "You die.".into()],
            map: vec!["  #####  ".into(), "  #.@.#  ".into()],
            date: "2026-11-23 13:00:00 UTC".into(),
        };
        let text = morgue.to_text();
        assert!(
            text.contains("Killed by a troll on depth 4 after 1234 turns"),
            "{text}"
        );
        assert!(
            text.contains("Kills (5)\n     3 rat\n     2 orc\n"),
            "{text}"
        );
        assert!(!text.contains("bat"), "{text}");
        assert!(text.ends_with("  #####\n  #.@.#\n"), "{text}");
        assert!(text.contains("Wielding: a mace (1+2d4)"));
    }
}
