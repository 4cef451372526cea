//! Drawing a kind for a depth: among the kinds found there, by rarity.
//!
//! A kind of rarity r has weight 1000 / r. A depth no kind lists (a stack
//! deeper than the data plans for) takes the kinds whose range is nearest,
//! so the bottom of a deep stack is held by the deepest dwellers and never
//! by nothing.

use rand::{Rng, RngExt};

use serde::{Deserialize, Serialize};

/// The depths a kind of monster or item is found at, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Depths {
    /// Shallowest depth, 1 at the top.
    pub min: u16,
    /// Deepest depth, at least `min` (checked on load).
    pub max: u16,
}

impl Depths {
    /// Whether a kind belongs on a level at `depth`.
    pub fn contains(&self, depth: u16) -> bool {
        (self.min..=self.max).contains(&depth)
    }

    /// How many levels `depth` lies outside the range (0 inside it).
    pub fn distance(&self, depth: u16) -> u16 {
        if depth < self.min {
            self.min - depth
        } else {
            depth.saturating_sub(self.max)
        }
    }
}

/// The most a rarity may be: a kind of rarity r is drawn with weight
/// 1000 / r, so 1000 is a thousand times rarer than 1.
pub const MAX_RARITY: u16 = 1000;

/// The most kinds a list (of monsters, of items) may hold: a run keeps
/// every kind, saves index them with 16 bits, and the shipped lists have
/// a few dozen. Checked before any entry, so a list of a hundred thousand
/// kinds is refused at once rather than compared name by name.
pub const MAX_KINDS: usize = 1000;

/// What is wrong with one entry of a list of kinds (monsters, items).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{field}: {message}", index.map(|i| format!("[{i}].")).unwrap_or_default())]
pub struct KindProblem {
    /// The entry, or `None` when the list itself is wrong (empty).
    pub index: Option<usize>,
    /// The field of the entry at fault, such as `speed`.
    pub field: &'static str,
    /// What is wrong, worded for the person editing the file.
    pub message: String,
}

/// A field at fault and what is wrong with it, for [`check_kinds`].
pub(crate) type FieldProblem = (&'static str, String);

/// The checks every list of kinds shares, in this order: at least one
/// kind (of `noun`) and at most [`MAX_KINDS`]; each entry's name by `name_rule` and then distinct
/// from those before it; then the entry's own checks, `entry(earlier,
/// kind)` with the entries before it. The first problem found is
/// returned, located at its entry.
pub(crate) fn check_kinds<K>(
    kinds: &[K],
    noun: &str,
    name_of: impl Fn(&K) -> &str,
    name_rule: impl Fn(&str) -> Result<(), String>,
    entry: impl Fn(&[K], &K) -> Result<(), FieldProblem>,
) -> Result<(), KindProblem> {
    if kinds.is_empty() {
        return Err(KindProblem {
            index: None,
            field: "[]",
            message: format!("the list must hold at least one kind of {noun}"),
        });
    }
    if kinds.len() > MAX_KINDS {
        return Err(KindProblem {
            index: Some(MAX_KINDS),
            field: "name",
            message: format!("a list holds at most {MAX_KINDS} kinds of {noun}"),
        });
    }
    for (i, k) in kinds.iter().enumerate() {
        let at = |(field, message): FieldProblem| KindProblem {
            index: Some(i),
            field,
            message,
        };
        let name = name_of(k);
        name_rule(name).map_err(|m| at(("name", m)))?;
        if let Some(j) = kinds[..i].iter().position(|o| name_of(o) == name) {
            return Err(at((
                "name",
                format!("\"{name}\" is already the name of entry {j}"),
            )));
        }
        entry(&kinds[..i], k).map_err(at)?;
    }
    Ok(())
}

/// The checks of where a kind is placed: its depths, then its rarity.
pub(crate) fn check_placed(k: &impl Placed) -> Result<(), FieldProblem> {
    check_depths(&k.depths()).map_err(|m| ("depths", m))?;
    check_rarity(k.rarity()).map_err(|m| ("rarity", m))
}

/// A name a log line can hold.
pub(crate) fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if name.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    if name.chars().count() > 40 {
        return Err("must be at most 40 characters".into());
    }
    Ok(())
}

/// Depths from 1, in order.
pub(crate) fn check_depths(d: &Depths) -> Result<(), String> {
    if d.min == 0 || d.min > d.max {
        return Err(format!(
            "must be a range of depths from 1 with min <= max, got {} to {}",
            d.min, d.max
        ));
    }
    Ok(())
}

pub(crate) fn check_rarity(r: u16) -> Result<(), String> {
    if !(1..=MAX_RARITY).contains(&r) {
        return Err(format!("must be from 1 to {MAX_RARITY}, got {r}"));
    }
    Ok(())
}

/// One printable line, short enough for a status line.
pub(crate) fn check_description(text: &str) -> Result<(), String> {
    if text.trim().is_empty() {
        return Err("must not be empty".into());
    }
    if text.chars().any(char::is_control) {
        return Err("must be one line without control characters".into());
    }
    if text.chars().count() > 120 {
        return Err("must be at most 120 characters".into());
    }
    Ok(())
}

/// Something drawn by depth and rarity.
pub trait Placed {
    /// Where the kind is found.
    fn depths(&self) -> Depths;
    /// How rare it is: 1 common to 1000 very rare.
    fn rarity(&self) -> u16;
}

/// A draw table for one depth: the eligible kinds' indices and cumulative
/// weights. Built once a level, so each draw is one random number.
#[derive(Clone, Debug)]
pub struct Table {
    entries: Vec<(u16, u32)>,
    total: u32,
}

impl Table {
    /// The table for `depth`; empty only when `kinds` is.
    pub fn for_depth<K: Placed>(kinds: &[K], depth: u16) -> Table {
        Table::for_depth_where(kinds, depth, |_| true)
    }

    /// [`Table::for_depth`] over the kinds `keep` accepts, indices still
    /// into `kinds`: the same table as the kept kinds alone would make.
    pub fn for_depth_where<K: Placed>(kinds: &[K], depth: u16, keep: impl Fn(&K) -> bool) -> Table {
        let nearest = kinds
            .iter()
            .filter(|k| keep(k))
            .map(|k| k.depths().distance(depth))
            .min()
            .unwrap_or(0);
        let mut entries = Vec::new();
        let mut total = 0u32;
        for (i, k) in kinds.iter().enumerate() {
            if keep(k) && k.depths().distance(depth) == nearest {
                total += u32::from(MAX_RARITY) / u32::from(k.rarity().clamp(1, MAX_RARITY));
                entries.push((i as u16, total));
            }
        }
        Table { entries, total }
    }

    /// True only with no kinds at all: nothing to place.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The indices of the kinds this table may draw.
    pub fn kinds(&self) -> impl Iterator<Item = u16> + '_ {
        self.entries.iter().map(|&(i, _)| i)
    }

    /// One kind's index: a single draw from `rng`. `None` if empty.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<u16> {
        if self.total == 0 {
            return None;
        }
        let roll = rng.random_range(0..self.total);
        let at = self.entries.partition_point(|&(_, upto)| upto <= roll);
        self.entries.get(at).map(|&(i, _)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};

    struct K(u16, u16, u16);
    impl Placed for K {
        fn depths(&self) -> Depths {
            Depths {
                min: self.0,
                max: self.1,
            }
        }
        fn rarity(&self) -> u16 {
            self.2
        }
    }

    #[test]
    fn draws_only_kinds_of_the_depth_by_rarity() {
        let kinds = [K(1, 2, 1), K(1, 3, 4), K(3, 5, 1), K(9, 9, 1)];
        let table = Table::for_depth(&kinds, 1);
        assert_eq!(table.kinds().collect::<Vec<_>>(), vec![0, 1]);
        let mut rng = stage_rng(1, 1, 0, Stage::Monsters);
        let mut counts = [0u32; 4];
        for _ in 0..10_000 {
            counts[usize::from(table.draw(&mut rng).unwrap())] += 1;
        }
        assert_eq!(counts[2] + counts[3], 0);
        // Weights 1000 and 250: four to one.
        let ratio = f64::from(counts[0]) / f64::from(counts[1]);
        assert!((3.5..4.5).contains(&ratio), "{counts:?}");
    }

    #[test]
    fn a_depth_no_kind_lists_takes_the_nearest() {
        let kinds = [K(1, 2, 1), K(3, 5, 1), K(4, 6, 1)];
        assert_eq!(
            Table::for_depth(&kinds, 20).kinds().collect::<Vec<_>>(),
            vec![2]
        );
        let gap = [K(1, 2, 1), K(6, 7, 1)];
        assert_eq!(
            Table::for_depth(&gap, 3).kinds().collect::<Vec<_>>(),
            vec![0]
        );
        let empty: [K; 0] = [];
        let table = Table::for_depth(&empty, 1);
        assert!(table.is_empty());
        assert_eq!(table.draw(&mut stage_rng(1, 1, 0, Stage::Monsters)), None);
    }
}
