//! How unknown items look (rules 4): potions by colour, scrolls by label,
//! wands by what they are made of. Each run deals the kinds of a class
//! their appearances from its seed, so "a murky potion" heals in one run
//! and poisons in the next, and drinking an unknown potion is a risk to
//! weigh rather than a fact to look up.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::sim::kinds::item::{ItemClass, ItemKind, POTION_LOOKS, WAND_LOOKS};

/// What a potion may look like: one of these a kind, never two kinds
/// alike in a run. A file with more kinds of potion than this is refused.
pub const POTIONS: [&str; POTION_LOOKS] = [
    "murky",
    "fizzy",
    "smoky",
    "milky",
    "bubbling",
    "golden",
    "violet",
    "cloudy",
    "oily",
    "glowing",
    "brown",
    "pink",
    "silver",
    "black",
    "swirling",
    "dark",
    "orange",
    "puce",
    "ruby",
    "emerald",
    "sky-blue",
    "amber",
    "tarry",
    "sparkling",
];

/// What a wand may be made of: one a kind, as potions' colours.
pub const WANDS: [&str; WAND_LOOKS] = [
    "oak", "birch", "ebony", "bone", "iron", "glass", "willow", "copper", "ivory", "crystal",
    "pine", "maple", "silver", "brass", "jade", "obsidian", "yew", "cedar", "tin", "redwood",
];

/// The syllables a scroll's label is made of.
const SYLLABLES: [&str; 32] = [
    "XOR", "KANTH", "ZEL", "MOR", "VEH", "LUM", "AB", "RAX", "TOK", "NIR", "SHA", "GUL", "PEK",
    "ORI", "DAV", "ETH", "QUA", "BRIM", "FEL", "HOJ", "IZ", "YUL", "WEN", "CRO", "DUN", "OM",
    "TRA", "SEV", "UL", "KIP", "NOX", "BAR",
];

/// Which classes come unknown, and how many looks each has.
fn looks(class: &ItemClass) -> Option<usize> {
    class.looks()
}

/// Whether items of this class are unknown until used or identified
/// (weapons and armour are known on sight).
pub fn comes_unknown(class: &ItemClass) -> bool {
    looks(class).is_some()
}

/// A scroll's label from its appearance: two words of one to two
/// syllables, "XOR KANTH", "ZELMOR NIR".
fn label(index: u16) -> String {
    let s = |bits: u16| SYLLABLES[usize::from(bits & 31)];
    let first = match index & 1 {
        0 => s(index >> 1).to_string(),
        _ => format!("{}{}", s(index >> 1), s(index >> 6)),
    };
    format!(
        "{first} {}{}",
        s(index >> 11),
        ["", "IN"][usize::from(index >> 15)]
    )
}

/// What an unknown item of `class` with appearance `index` is called:
/// "murky potion", "scroll labelled XOR KANTH".
pub fn name(class: &ItemClass, index: u16) -> String {
    match class {
        ItemClass::Potion(_) => format!("{} potion", POTIONS[usize::from(index) % POTIONS.len()]),
        ItemClass::Scroll(_) => format!("scroll labelled {}", label(index)),
        ItemClass::Wand { .. } => format!("{} wand", WANDS[usize::from(index) % WANDS.len()]),
        _ => String::new(),
    }
}

/// Deals each kind that comes unknown an appearance of its class, no two
/// kinds of a class alike: potions a shuffled draw from [`POTIONS`],
/// scrolls distinct labels. Kinds known on sight get 0. The item file's
/// check keeps each class within its looks, so this always finishes.
pub fn deal(kinds: &[ItemKind], rng: &mut Pcg64) -> Vec<u16> {
    let mut out = vec![0u16; kinds.len()];
    let mut potions = Shuffle::new(POTIONS.len());
    let mut wands = Shuffle::new(WANDS.len());
    let mut labels: Vec<u16> = Vec::new();
    for (kind, look) in kinds.iter().zip(&mut out) {
        match kind.class {
            ItemClass::Potion(_) => *look = potions.next(rng),
            ItemClass::Wand { .. } => *look = wands.next(rng),
            ItemClass::Scroll(_) => loop {
                let candidate: u16 = rng.random();
                if !labels.contains(&candidate) {
                    labels.push(candidate);
                    *look = candidate;
                    break;
                }
            },
            _ => {}
        }
    }
    out
}

/// A Fisher-Yates shuffle taken a step at a time: each `next` is a look
/// not dealt yet. The item file's check keeps the calls within `len`.
struct Shuffle {
    looks: Vec<u16>,
    dealt: usize,
}

impl Shuffle {
    fn new(len: usize) -> Shuffle {
        Shuffle {
            looks: (0..len as u16).collect(),
            dealt: 0,
        }
    }

    fn next(&mut self, rng: &mut Pcg64) -> u16 {
        let pick = rng.random_range(self.dealt..self.looks.len());
        self.looks.swap(self.dealt, pick);
        self.dealt += 1;
        self.looks[self.dealt - 1]
    }
}

/// Whether `appearances` is a dealing [`deal`] could make for `kinds`:
/// one a kind, within its class's looks, none shared within a class.
pub fn is_valid(kinds: &[ItemKind], appearances: &[u16]) -> bool {
    if kinds.len() != appearances.len() {
        return false;
    }
    let mut seen: Vec<(u8, u16)> = Vec::new();
    for (kind, &look) in kinds.iter().zip(appearances) {
        let class = match kind.class {
            ItemClass::Potion(_) => 0,
            ItemClass::Scroll(_) => 1,
            ItemClass::Wand { .. } => 2,
            _ => {
                if look != 0 {
                    return false;
                }
                continue;
            }
        };
        if usize::from(look) >= looks(&kind.class).unwrap_or(0) || seen.contains(&(class, look)) {
            return false;
        }
        seen.push((class, look));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};

    #[test]
    fn each_run_deals_distinct_looks_from_its_seed() {
        let kinds = ItemKind::defaults();
        let deal_for = |seed| deal(&kinds, &mut stage_rng(seed, 0, 0, Stage::Appearances));
        let one = deal_for(1);
        assert_eq!(one, deal_for(1));
        assert!(is_valid(&kinds, &one));
        assert_ne!(one, deal_for(2), "two seeds, the same looks");
        let potion = kinds
            .iter()
            .position(|k| matches!(k.class, ItemClass::Potion(_)))
            .unwrap();
        let scroll = kinds
            .iter()
            .position(|k| matches!(k.class, ItemClass::Scroll(_)))
            .unwrap();
        assert!(name(&kinds[potion].class, one[potion]).ends_with(" potion"));
        assert!(name(&kinds[scroll].class, one[scroll]).starts_with("scroll labelled "));
        // A forged dealing is refused: a look shared, out of range, or
        // given to a weapon.
        let mut shared = one.clone();
        let other = kinds
            .iter()
            .rposition(|k| matches!(k.class, ItemClass::Potion(_)))
            .unwrap();
        shared[other] = shared[potion];
        assert!(!is_valid(&kinds, &shared));
        let mut wide = one.clone();
        wide[potion] = POTIONS.len() as u16;
        assert!(!is_valid(&kinds, &wide));
        let mut weapon = one;
        weapon[0] = 1;
        assert!(!is_valid(&kinds, &weapon));
    }

    #[test]
    fn labels_are_words_of_syllables() {
        assert_eq!(label(0), "XOR XOR");
        assert_eq!(label(1 | (1 << 1) | (2 << 6) | (3 << 11)), "KANTHZEL MOR");
        assert!(label(u16::MAX).ends_with("IN"));
    }
}
