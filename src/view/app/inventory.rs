//! The pack's commands: picking up, the inventory screen, and the prompt
//! that asks which item to wield, drink, read or drop ([`ItemVerb`]).
//! Apart, as only a Combat run has a pack.

use super::App;
use super::Mode;
use crate::generate::GenerateError;
use crate::sim::{Action, Event, ItemClass};
use crate::view::keymap::Key;

/// What a pack letter is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemVerb {
    /// Wield a weapon or wear armour.
    Wield,
    /// Drink a potion.
    Quaff,
    /// Read a scroll.
    Read,
    /// Drop anything.
    Drop,
    /// Zap a wand (then aim it).
    Zap,
}

impl ItemVerb {
    /// The prompt's question.
    pub fn question(self) -> &'static str {
        match self {
            ItemVerb::Wield => "Wield or wear which item?",
            ItemVerb::Quaff => "Drink which potion?",
            ItemVerb::Read => "Read which scroll?",
            ItemVerb::Drop => "Drop which item?",
            ItemVerb::Zap => "Zap which wand?",
        }
    }

    /// Whether an item of `class` is one this verb uses: what the prompt
    /// offers (dropping takes anything).
    pub fn fits(self, class: ItemClass) -> bool {
        match self {
            ItemVerb::Wield => matches!(
                class,
                ItemClass::Weapon { .. } | ItemClass::Armour { .. } | ItemClass::Launcher { .. }
            ),
            ItemVerb::Quaff => class.potion().is_some(),
            ItemVerb::Read => class.scroll().is_some(),
            ItemVerb::Drop => true,
            ItemVerb::Zap => class.wand().is_some(),
        }
    }

    /// What is said when the pack holds nothing this verb uses.
    fn nothing(self) -> &'static str {
        match self {
            ItemVerb::Wield => "You have nothing to wield or wear.",
            ItemVerb::Quaff => "You have no potions.",
            ItemVerb::Read => "You have no scrolls.",
            ItemVerb::Drop => "You are not carrying anything.",
            ItemVerb::Zap => "You have no wands.",
        }
    }

    fn action(self, slot: u8) -> Action {
        match self {
            ItemVerb::Wield => Action::Wield { slot },
            ItemVerb::Quaff => Action::Quaff { slot },
            ItemVerb::Read => Action::Read { slot },
            ItemVerb::Drop => Action::Drop { slot },
            ItemVerb::Zap => unreachable!("a wand is aimed before it is zapped"),
        }
    }

    fn refusal(self) -> &'static str {
        match self {
            ItemVerb::Wield => "You cannot wield or wear that.",
            ItemVerb::Quaff => "You cannot drink that.",
            ItemVerb::Read => "You cannot read that.",
            ItemVerb::Drop => "You have no such item.",
            ItemVerb::Zap => "You cannot zap that.",
        }
    }
}

impl App {
    /// A key at the item prompt: a pack letter is used as `verb` asks; any
    /// other key cancels.
    pub(super) fn press_choose(&mut self, verb: ItemVerb, key: Key) -> Result<(), GenerateError> {
        self.clear_messages();
        self.mode = Mode::Map;
        if let Key::Char(c @ 'a'..='z') = key {
            let slot = c as u8 - b'a';
            let carried = self
                .run
                .combat()
                .is_some_and(|s| s.hero.pack.get(usize::from(slot)).is_some());
            if !carried {
                self.note("You have no such item.".into());
                return Ok(());
            }
            if verb == ItemVerb::Zap {
                let wand = self.run.combat().and_then(|s| {
                    let kind = s.hero.pack.get(usize::from(slot))?.kind;
                    s.kind(kind).class.wand()
                });
                match wand {
                    Some(_) => self.aim(super::Aim::Zap { slot }),
                    None => self.note(verb.refusal().into()),
                }
                return Ok(());
            }
            let events = self.act(verb.action(slot))?;
            if events == [Event::Blocked] {
                self.note(verb.refusal().into());
            }
        }
        Ok(())
    }

    /// Picks up what lies here, or says why not.
    pub(super) fn pick_up(&mut self) -> Result<(), GenerateError> {
        if self.run.combat().is_none() {
            self.note("There is nothing to pick up in this game.".into());
        } else if self.run.items_here().is_empty() {
            self.note("There is nothing here to pick up.".into());
        } else if self.act(Action::PickUp)? == [Event::Blocked] {
            // The run neither records nor logs a refused pick-up:
            // the pack is full and the item joins no stack.
            self.note(format!(
                "Your pack is full ({} letters); drop something first.",
                crate::sim::PACK_SLOTS
            ));
        }
        Ok(())
    }

    /// Lists the pack, in a game that has one.
    pub(super) fn open_inventory(&mut self) {
        if self.run.combat().is_none() {
            self.note("You carry nothing in this game.".into());
        } else {
            self.mode = Mode::Inventory;
        }
    }

    /// Asks which pack item to use as `verb` says, when the pack holds one
    /// it uses (the prompt offers only those letters).
    pub(super) fn choose_item(&mut self, verb: ItemVerb) {
        match self.run.combat() {
            Some(s) if s.hero.pack.is_empty() => self.note("You are not carrying anything.".into()),
            Some(s)
                if s.hero
                    .pack
                    .lines()
                    .any(|(_, l)| verb.fits(s.kind(l.kind).class)) =>
            {
                self.mode = Mode::Choose { verb }
            }
            Some(_) => self.note(verb.nothing().into()),
            None => self.note("You are not carrying anything.".into()),
        }
    }
}
