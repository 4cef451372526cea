//! What the player calls an item: its kind's name once known, and under
//! rules 4 its look until then ("a murky potion", "3 scrolls labelled XOR
//! KANTH", "an oak wand"). Messages, the inventory, look mode and the
//! morgue all ask here, so no screen gives a secret away.

use crate::sim::kinds::appearance;
use crate::sim::kinds::item::ItemClass;
use crate::sim::state::combat_state::CombatState;
use crate::sim::state::tactics::Tactics;
use crate::words::{article, plural_name};

/// A Combat run's item kinds as the player knows them.
#[derive(Clone, Copy)]
pub struct ItemNames<'a> {
    combat: &'a CombatState,
    tactics: Option<&'a Tactics>,
}

impl<'a> ItemNames<'a> {
    /// Names under `tactics` (rules 4), or every kind known (earlier rules).
    pub fn new(combat: &'a CombatState, tactics: Option<&'a Tactics>) -> ItemNames<'a> {
        ItemNames { combat, tactics }
    }

    /// Whether the player knows what `kind` is.
    pub fn known(&self, kind: u16) -> bool {
        self.tactics
            .is_none_or(|t| t.known.get(usize::from(kind)).copied().unwrap_or(true))
    }

    /// The kind's name, or its look while unknown: "potion of healing",
    /// "murky potion".
    pub fn name(&self, kind: u16) -> String {
        let k = self.combat.kind(kind);
        match self.tactics {
            Some(t) if !self.known(kind) => {
                appearance::name(&k.class, t.appearances[usize::from(kind)])
            }
            _ => k.name.clone(),
        }
    }

    /// One item, with an article and, when known, its numbers: "a dagger
    /// (1+1d4)", "a murky potion".
    pub fn describe(&self, kind: u16) -> String {
        match self.known(kind) {
            true => self.combat.describe(kind),
            false => article(&self.name(kind)),
        }
    }

    /// A pack line of `count`: "3 murky potions", "12 darts (1d3)"; a
    /// wand's line counts its charges, "a wand of slowing (4 charges)".
    pub fn describe_count(&self, kind: u16, count: u16) -> String {
        if let ItemClass::Wand { .. } = self.combat.kind(kind).class {
            let charges = crate::words::count(count, "charge", "charges");
            return format!("{} ({charges})", self.describe(kind));
        }
        if count <= 1 {
            return self.describe(kind);
        }
        let plural = plural_name(&self.name(kind));
        match self.combat.kind(kind).class {
            ItemClass::Missile { damage, .. } if self.known(kind) => {
                format!("{count} {plural} ({damage})")
            }
            _ => format!("{count} {plural}"),
        }
    }

    /// One line for the inventory and look mode: the kind's description
    /// once known, and while unknown what may be done to learn it.
    pub fn description(&self, kind: u16) -> String {
        let k = self.combat.kind(kind);
        if self.known(kind) {
            return k.description.clone();
        }
        let how = match k.class {
            ItemClass::Potion(_) => "drink it",
            ItemClass::Scroll(_) => "read it",
            _ => "zap it",
        };
        format!(
            "You do not know what this {} does: {how}, or read a scroll of identify, to learn.",
            k.class.noun()
        )
    }
}
