//! What lasts a while on the hero or a monster (rules 4): the kinds of
//! timed effect, which potions, wands and monsters' abilities name in
//! their data and the run's state keeps in one list (`state/tactics.rs`).

use serde::{Deserialize, Serialize};

/// The longest any timed effect may still last: what bounds a loaded
/// run's effects (the data files keep every duration within it).
pub const MAX_EFFECT_TURNS: u64 = 10_000;

/// Something that lasts a while and then wears off.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Effect {
    /// `power` more armour.
    Stoneskin,
    /// Acts twice as often.
    Haste,
    /// Acts half as often.
    Slow,
    /// Loses `power` hit points a turn (at least one left by it alone is
    /// not promised: poison kills).
    Poison,
    /// Moves stumble in a random direction a third of the time.
    Confusion,
    /// Deals half damage.
    Weakness,
    /// `power` fewer maximum hit points (a monster's draining bite),
    /// back when it wears off.
    Drained,
    /// A monster's breath or call is spent until it wears off.
    Recharging,
    /// A monster runs from the player until it wears off (hurt from afar,
    /// by a kind that flees).
    Frightened,
    /// A monster keeps out of the player's line of fire until it wears
    /// off, waiting round a corner (hurt from afar, by a kind that takes
    /// cover).
    Wary,
}

impl Effect {
    /// How the character sheet and the status line name it.
    pub fn name(self) -> &'static str {
        match self {
            Effect::Stoneskin => "stoneskin",
            Effect::Haste => "hasted",
            Effect::Slow => "slowed",
            Effect::Poison => "poisoned",
            Effect::Confusion => "confused",
            Effect::Weakness => "weakened",
            Effect::Drained => "drained",
            Effect::Recharging => "recharging",
            Effect::Frightened => "frightened",
            Effect::Wary => "wary",
        }
    }

    /// Whether the one who has it would rather not.
    pub fn is_harmful(self) -> bool {
        matches!(
            self,
            Effect::Slow | Effect::Poison | Effect::Confusion | Effect::Weakness | Effect::Drained
        )
    }
}
