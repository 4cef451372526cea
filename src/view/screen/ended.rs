//! A finished run's summary: won or died, the run's numbers, how it ended
//! and where it is saved. Apart, as a screen of its own that replaces
//! everything else.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

use super::key_name;
use crate::sim::Outcome;
use crate::view::app::App;
use crate::view::keymap::Command;
use crate::view::lines::wrap;

pub(super) fn ended(app: &App, buf: &mut Buffer) {
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
