//! The words of the simulation: what the player does with a turn
//! ([`Action`]), what a turn tells ([`Event`]) and how a run ends
//! ([`Outcome`]). The bottom of `sim`: recordings, saves, the viewer and
//! the autopilots all speak it, and it knows nothing of the rules.

use serde::{Deserialize, Serialize};

use crate::geom::Pos;

/// How many letters (an action's `slot`) the pack has (a to z): one item each under the first
/// rules, one kind each (a stack of potions or scrolls) under the second.
pub const PACK_SLOTS: usize = 26;

/// What the player does with a turn.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Action {
    /// A king move: `dx`, `dy` in -1..=1, not both 0.
    Move {
        /// Column step, -1 to 1.
        dx: i8,
        /// Row step, -1 to 1.
        dy: i8,
    },
    /// Let a turn pass in place, so monsters move.
    Wait,
    /// Take the down staircase the player stands on.
    Descend,
    /// Take the up staircase the player stands on.
    Ascend,
    /// Pick up the top item on the player's cell (Combat).
    PickUp,
    /// Drop the item in a pack slot (0 is slot a).
    Drop {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Wield a weapon or put on armour from the pack.
    Wield {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Drink a potion from the pack.
    Quaff {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Read a scroll from the pack.
    Read {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
    },
    /// Spend a turn searching the eight cells around for secret doors
    /// (rules 3; under earlier rules there is nothing to find).
    Search,
    /// Close the open door next to the player in this direction (rules 3).
    Close {
        /// Column step, -1 to 1.
        dx: i8,
        /// Row step, -1 to 1.
        dy: i8,
    },
    /// Fire the missile in a pack slot at a cell (rules 4): thrown by
    /// hand, or shot from the readied launcher of its ammunition.
    Fire {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
        /// The target's column.
        x: u16,
        /// The target's row.
        y: u16,
    },
    /// Zap the wand in a pack slot at a cell (rules 4).
    Zap {
        /// A pack slot: checked, so a bad one is Blocked.
        slot: u8,
        /// The target's column.
        x: u16,
        /// The target's row.
        y: u16,
    },
}

/// An action in words (`move 1,-1`, `quaff slot b`), for messages about
/// recordings and journals.
impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Slots are letters on screen; one past z (only in a damaged file)
        // is shown as its number.
        let slot = |s: u8| match s {
            0..26 => char::from(b'a' + s).to_string(),
            _ => s.to_string(),
        };
        match *self {
            Action::Move { dx, dy } => write!(f, "move {dx},{dy}"),
            Action::Wait => f.write_str("wait"),
            Action::Descend => f.write_str("descend"),
            Action::Ascend => f.write_str("ascend"),
            Action::PickUp => f.write_str("pick up"),
            Action::Drop { slot: s } => write!(f, "drop slot {}", slot(s)),
            Action::Wield { slot: s } => write!(f, "wield slot {}", slot(s)),
            Action::Quaff { slot: s } => write!(f, "quaff slot {}", slot(s)),
            Action::Read { slot: s } => write!(f, "read slot {}", slot(s)),
            Action::Search => f.write_str("search"),
            Action::Close { dx, dy } => write!(f, "close {dx},{dy}"),
            Action::Fire { slot: s, x, y } => write!(f, "fire slot {} at {x},{y}", slot(s)),
            Action::Zap { slot: s, x, y } => write!(f, "zap slot {} at {x},{y}", slot(s)),
        }
    }
}

/// Something that happened during a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// The action was not possible (rock, no stairs here); no time passed.
    Blocked,
    /// The player stood on a new cell (after a move, stairs or a kill).
    Moved {
        /// The cell now stood on.
        to: Pos,
    },
    /// The player stepped onto a monster.
    Killed {
        /// Name of the monster's kind.
        kind: String,
    },
    /// A monster stepped onto the player; it died and took a life.
    Hit {
        /// Name of the monster's kind.
        kind: String,
        /// Lives left after the hit.
        lives: u8,
    },
    /// A tunneller opened rock.
    Dug {
        /// The cell that became corridor.
        at: Pos,
    },
    /// The player took stairs to another level.
    Arrived {
        /// The level arrived on, 1 at the top.
        depth: u16,
    },
    /// The run's goal was reached; nothing happens after this.
    Won,
    /// The last life was lost; nothing happens after this.
    Lost,
    /// An attack (Combat): the player's on a monster of `kind`, or one of
    /// its on the player; `damage` is `None` for a miss.
    Attacked {
        /// Whose attack, so messages say who hit whom.
        by_player: bool,
        /// Name of the monster's kind.
        kind: String,
        /// Hit points taken, or `None` for a miss.
        damage: Option<u16>,
    },
    /// A monster of `kind` brought the player to 0 hit points (Combat).
    Slain {
        /// Name of the monster's kind, the cause of death.
        kind: String,
        /// Lives left; 0 ends the run.
        lives: u8,
    },
    /// The top item of the player's cell went into the pack.
    PickedUp {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A pack item was put down on the player's cell.
    Dropped {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A weapon wielded or armour worn; the old one goes to the pack.
    Equipped {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A potion drunk or a scroll read.
    Used {
        /// The item kind's name, for the message.
        name: String,
    },
    /// A closed door (or a secret one, by a monster) was opened (rules 3).
    Opened {
        /// The door's cell.
        at: Pos,
        /// Whether the player opened it, rather than a monster.
        by_player: bool,
    },
    /// The player closed an open door (rules 3).
    Closed {
        /// The door's cell.
        at: Pos,
    },
    /// A secret door was found, by searching or walking past (rules 3).
    Found {
        /// The door's cell, now a closed door.
        at: Pos,
    },
}

/// Where a run stands.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Still going: actions are played.
    Playing,
    /// The goal was reached; the run takes no more actions.
    Won,
    /// Every life was lost; the run takes no more actions.
    Lost,
}

impl Outcome {
    /// `playing`, `won` or `lost`: the one word every message, table and
    /// JSON field uses for an outcome.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Playing => "playing",
            Outcome::Won => "won",
            Outcome::Lost => "lost",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
