//! The two status lines under the map: where the player is and how they
//! stand, then the run's identity (or a replay's controls) and what is
//! going on. Apart, as the one part drawn on every playing screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::key_name;
use super::line;
use crate::view::app::{Activity, App};
use crate::view::keymap::Command;

pub(super) fn status(app: &App, area: Rect, buf: &mut Buffer) {
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
    let mut sep = 2;
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
        spans.insert(1, (format!("HP {hp}/{max}"), hp_style));
        // Experience toward the next level, and armour as it stands now.
        let xl = match run.next_level_xp() {
            Some(need) => format!("XL {} ({}/{need})", run.experience_level(), combat.hero.xp),
            None => format!("XL {}", run.experience_level()),
        };
        spans.insert(3, (xl, Style::new()));
        spans.insert(4, (format!("AC {}", run.hero_armour()), Style::new()));
        spans.pop();
        // The weapon last, as much of it as the line holds: with its dice,
        // by name alone, then with the fields a space apart instead of
        // two, or not at all (the inventory and the character sheet always
        // have it). A cut-off word helps nobody.
        let (full, name) = match combat.hero.weapon {
            Some(k) => (
                combat.describe(k),
                crate::words::article(&combat.kind(k).name),
            ),
            None => ("bare hands".to_string(), "bare hands".to_string()),
        };
        let width = |spans: &[(String, Style)], gap: usize| -> usize {
            spans
                .iter()
                .map(|(t, _)| t.chars().count() + gap)
                .sum::<usize>()
                - gap
        };
        let fits = [(2, &full), (2, &name), (1, &full), (1, &name)]
            .into_iter()
            .map(|(gap, weapon)| (gap, format!("Wielding {weapon}")))
            .find(|(gap, weapon)| {
                width(&spans, *gap) + gap + weapon.chars().count() <= usize::from(area.width)
            });
        if let Some((gap, weapon)) = fits {
            spans.push((weapon, Style::new()));
            sep = gap as u16;
        }
    }
    let mut x = area.x;
    for (text, style) in spans {
        if x >= area.right() {
            break;
        }
        buf.set_stringn(x, area.y, &text, usize::from(area.right() - x), style);
        x += text.chars().count() as u16 + sep;
    }

    // Second line: the run's identity on the left, what is going on and the
    // help key on the right; the left gives way if both do not fit.
    let activity = match app.activity() {
        Some(Activity::Explore) => "[exploring]  ".to_string(),
        Some(Activity::Travel(_)) => "[travelling]  ".to_string(),
        Some(Activity::Repeat { left, .. }) => format!("[{left} to go]  "),
        Some(Activity::Rest { .. }) => "[resting]  ".to_string(),
        None => match app.count() {
            Some(n) => format!("[count {n}]  "),
            None => String::new(),
        },
    };
    // Timed effects (rules 4) beside what is going on: [hasted] [poisoned].
    let effects: String = run
        .hero_effects()
        .iter()
        .map(|(e, _)| format!("[{}]  ", e.name()))
        .collect();
    let activity = format!("{effects}{activity}");
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
