//! The character sheet (`C`): what a player weighs before a fight, in one
//! screen: hit points, armour, the weapon's chance and damage, experience
//! and what the next level needs, pace, timed effects with their turns
//! left, and which kinds of item are known.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::line;
use crate::sim::ItemClass;
use crate::view::app::App;
use crate::view::lines::wrap;

/// The sheet's lines, for the screen and for tests.
pub fn sheet(app: &App, width: usize) -> Vec<String> {
    let run = app.run();
    let Some(combat) = run.combat() else {
        return vec!["There is no character sheet in this game.".into()];
    };
    let names = run.item_names().expect("a Combat run");
    let unarmed = run.config().simulation.combat.unarmed;
    let mut out = Vec::new();
    out.push(format!(
        "Hit points {}/{}   Lives {}   Depth {}   Turn {}",
        run.hp(),
        run.max_hp(),
        run.player().lives,
        run.player().depth,
        run.turn()
    ));
    let worn = combat
        .hero
        .armour
        .map_or("no armour".to_string(), |k| combat.describe(k));
    out.push(format!("Armour {} ({worn})", run.hero_armour()));
    let weapon = combat.hero.weapon;
    let (name, dice) = match weapon {
        Some(k) => (combat.describe(k), combat.weapon_dice(unarmed)),
        None => ("bare hands".to_string(), unarmed),
    };
    out.push(format!(
        "Weapon {name}: damage {dice}, {}% to hit ({}% against armour 4)",
        run.hit_chance(weapon, 0),
        run.hit_chance(weapon, 4)
    ));
    if let Some(k) = run.tactics().and_then(|t| t.launcher) {
        out.push(format!(
            "Launcher {}: {}% to hit",
            combat.describe(k),
            run.hit_chance(Some(k), 0)
        ));
    }
    let next = match run.next_level_xp() {
        Some(need) => format!(
            "{} to go for level {}",
            need.saturating_sub(combat.hero.xp),
            run.experience_level() + 1
        ),
        None => "the last level".into(),
    };
    out.push(format!(
        "Experience level {} ({} points; {next})",
        run.experience_level(),
        combat.hero.xp
    ));
    out.push(format!(
        "Speed {}% of normal moving, {}% attacking",
        run.hero_pace(false),
        run.hero_pace(true)
    ));
    let effects = run.hero_effects();
    out.push(match effects.is_empty() {
        true => "Effects: none".into(),
        false => format!(
            "Effects: {}",
            effects
                .iter()
                .map(|(e, left)| format!("{} ({left} turns)", e.name()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    });
    out.push(String::new());
    let kinds = &combat.items;
    let unknown_class = |c: &ItemClass| {
        matches!(
            c,
            ItemClass::Potion(_) | ItemClass::Scroll(_) | ItemClass::Wand { .. }
        )
    };
    let known: Vec<String> = (0..kinds.len() as u16)
        .filter(|&k| unknown_class(&kinds[usize::from(k)].class) && names.known(k))
        .map(|k| kinds[usize::from(k)].name.clone())
        .collect();
    let carried_unknown: Vec<String> = combat
        .hero
        .pack
        .lines()
        .filter(|(_, l)| !names.known(l.kind))
        .map(|(_, l)| names.name(l.kind))
        .collect();
    let list = |items: &[String]| match items.is_empty() {
        true => "none".to_string(),
        false => items.join(", "),
    };
    for text in [
        format!("Known: {}", list(&known)),
        format!("Carried, not known yet: {}", list(&carried_unknown)),
    ] {
        out.extend(wrap(&text, width));
    }
    out
}

/// Draws the sheet in `area`.
pub(super) fn character(app: &App, area: Rect, buf: &mut Buffer) {
    for (row, text) in sheet(app, usize::from(area.width))
        .iter()
        .enumerate()
        .take(usize::from(area.height))
    {
        line(
            buf,
            Rect::new(area.x, area.y + row as u16, area.width, 1),
            text,
            Style::new(),
        );
    }
}
