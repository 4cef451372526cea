//! `delve scores`: the best finished runs of the saves directory.

use std::path::Path;

use delve::save::{SaveDir, read_and_decode};
use delve::sim::Outcome;

use super::{CliError, format_time, write_output};

/// Lists the finished (won or lost) runs, best first: won before lost,
/// then deeper, more kills, fewer turns, then by name.
pub fn run(dir: &Path) -> Result<(), CliError> {
    let saves = SaveDir::existing(dir)?;
    struct Score {
        name: String,
        deepest: u16,
        kills: u32,
        turns: u64,
        outcome: Outcome,
        saved_at: u64,
    }
    let mut scores = Vec::new();
    for listing in saves.list()? {
        let Some(save) = &listing.save else { continue };
        let Ok(summary) = &save.status else { continue };
        if summary.outcome == Outcome::Playing {
            continue;
        }
        // A save that does not load is for `delve saves` to report.
        let Ok((run, _)) = read_and_decode(&saves.file(&listing.name)) else {
            continue;
        };
        scores.push(Score {
            name: listing.name.clone(),
            deepest: run.visited().max().unwrap_or(1),
            kills: run.killed(),
            turns: run.turn(),
            outcome: run.outcome(),
            saved_at: summary.saved_at,
        });
    }
    scores.sort_by(|a, b| {
        let won = |s: &Score| s.outcome == Outcome::Won;
        won(b)
            .cmp(&won(a))
            .then(b.deepest.cmp(&a.deepest))
            .then(b.kills.cmp(&a.kills))
            .then(a.turns.cmp(&b.turns))
            .then(a.name.cmp(&b.name))
    });
    let mut text = String::new();
    if scores.is_empty() {
        text.push_str("no finished runs\n");
    } else {
        // As wide as the longest name: default names (`seed-` and the
        // seed) run to 25 characters, chosen ones to 64.
        let width = scores
            .iter()
            .map(|s| s.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(20);
        text.push_str(&format!(
            "{:>4}  {:<width$} {:>5} {:>6} {:>8}  {:<7} {}\n",
            "rank", "name", "depth", "kills", "turns", "outcome", "date (UTC)"
        ));
        for (i, s) in scores.iter().enumerate() {
            text.push_str(&format!(
                "{:>4}  {:<width$} {:>5} {:>6} {:>8}  {:<7} {}\n",
                i + 1,
                s.name,
                s.deepest,
                s.kills,
                s.turns,
                s.outcome.name(),
                format_time(s.saved_at)
            ));
        }
    }
    write_output(None, text.as_bytes())
}
