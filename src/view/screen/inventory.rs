//! The pack: the inventory screen (what is wielded and worn, then an item
//! a letter) and the letters an item prompt offers. Apart, as only a
//! Combat run has one.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use super::line;
use crate::view::app::{App, ItemVerb};
use crate::view::lines::wrap_indented;

/// The letters of the pack's items `verb` uses, as a prompt lists them:
/// "a-c", or "a-b,e" when letters between them hold something else.
pub(super) fn letters_held(app: &App, verb: ItemVerb) -> String {
    let Some(combat) = app.run().combat() else {
        return "a".into();
    };
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let fitting = combat
        .hero
        .pack
        .lines()
        .filter(|(_, l)| verb.fits(combat.kind(l.kind).class));
    for (i, _) in fitting {
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
pub(super) fn inventory(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(combat) = app.run().combat() else {
        return;
    };
    let names = app.run().item_names().expect("a Combat run");
    let mut lines = Vec::new();
    let worn = |k: Option<u16>, none: &str| k.map_or(none.to_string(), |k| combat.describe(k));
    let launcher = match app.run().tactics().and_then(|t| t.launcher) {
        Some(k) => format!("; readied {}", combat.describe(k)),
        None => String::new(),
    };
    lines.extend(wrap_indented(
        &format!(
            "Wielding {}; wearing {}{launcher}.",
            worn(combat.hero.weapon, "nothing (bare hands)"),
            worn(combat.hero.armour, "no armour")
        ),
        usize::from(area.width),
        "    ",
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
            names.describe_count(l.kind, l.count),
            names.description(l.kind)
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
