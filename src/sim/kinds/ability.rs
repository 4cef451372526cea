//! What a kind of monster can do beyond walking up and biting (rules 4),
//! as `data/monsters.ron` writes it: `abilities: [Ranged(missile: Arrow,
//! range: 7, damage: "1d6", chance: 40), Pack(min: 2, max: 4)]`. This file
//! is the data of each ability, the bounds a file must keep (so no file
//! can ask a turn for unbounded work or a save for unbounded state) and
//! its words in look mode; what each does is its own file under
//! `rules/abilities/`. Runs under rules 1 to 3 ignore abilities, so a kind
//! that gains one leaves their games as they were.

use serde::{Deserialize, Serialize};

use crate::dice::Dice;

/// The most abilities one kind may have (each at most once).
pub const MAX_ABILITIES: usize = 9;
/// The largest member count a pack may be written with.
pub const MAX_PACK: u8 = 8;
/// The farthest a ranged attack, a breath or a blink may reach: within
/// the largest field of view a config allows sight to reach in practice.
pub const MAX_REACH: u8 = 12;

/// What is thrown, shot or cast by a ranged attack: its words only.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Missile {
    /// "shoots an arrow"
    Arrow,
    /// "casts a bolt"
    Spell,
    /// "hurls a boulder"
    Boulder,
    /// "spits venom"
    Spit,
}

impl Missile {
    /// The verb and object of a shot: "shoots an arrow".
    pub fn shot(self) -> &'static str {
        match self {
            Missile::Arrow => "shoots an arrow",
            Missile::Spell => "casts a bolt",
            Missile::Boulder => "hurls a boulder",
            Missile::Spit => "spits venom",
        }
    }

    /// What look mode says it does: "shoots arrows".
    pub fn habit(self) -> &'static str {
        match self {
            Missile::Arrow => "shoots arrows",
            Missile::Spell => "casts bolts",
            Missile::Boulder => "hurls boulders",
            Missile::Spit => "spits venom",
        }
    }
}

/// One ability of a kind of monster.
///
/// Saved types only ever gain variants at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Ability {
    /// Attacks from afar along a line of fire (the player's own sight,
    /// which is symmetric): on a turn it is awake, knows where the player
    /// is, and stands 2 to `range` cells off in sight, it shoots with
    /// `chance` percent instead of moving, rolling to hit as a bite does.
    Ranged {
        /// What it looses, for the messages.
        missile: Missile,
        /// 2 to [`MAX_REACH`] cells.
        range: u8,
        /// What a hit rolls.
        damage: Dice,
        /// 1 to 100 percent of its turns in range.
        chance: u8,
    },
    /// Breathes fire along a line of fire: never misses, then needs
    /// `recharge` turns before the next.
    Breath {
        /// 2 to [`MAX_REACH`] cells.
        range: u8,
        /// What the breath rolls.
        damage: Dice,
        /// 1 to 1000 turns (the run's) before it breathes again.
        recharge: u16,
    },
    /// A bite that hits may poison: `damage` hit points a turn for
    /// `turns` turns, on the hero's timed effects.
    Poison {
        /// 1 to 100 percent of its hits.
        chance: u8,
        /// 1 to 100 hit points a turn.
        damage: u16,
        /// 1 to 100 turns.
        turns: u16,
    },
    /// A bite that hits may drain `amount` maximum hit points, which come
    /// back only after [`DRAIN_TURNS`] turns without another drain.
    Drain {
        /// 1 to 100 percent of its hits.
        chance: u8,
        /// 1 to 100 maximum hit points.
        amount: u16,
    },
    /// Regains `hp` hit points every turn of its own.
    Regenerate {
        /// 1 to 100.
        hp: u16,
    },
    /// Calls monsters of `kind` (a kind of the same list, its own for
    /// kin) to its side, up to its level's limit, then needs `recharge`
    /// turns before calling again.
    Summon {
        /// The kind called, by name.
        kind: String,
        /// 1 to 100 percent of its turns awake with the player in sight.
        chance: u8,
        /// 1 to 4 monsters a call.
        count: u8,
        /// 1 to 1000 turns before the next call.
        recharge: u16,
    },
    /// Runs from the player once its hit points fall below `below`
    /// percent, and turns to fight only when cornered.
    Flee {
        /// 1 to 90 percent.
        below: u8,
    },
    /// Arrives with kin: when a level is populated, `min` to `max`
    /// monsters of its kind stand together where one was drawn, and sleep
    /// or wake together.
    Pack {
        /// 2 to [`MAX_PACK`].
        min: u8,
        /// `min` to [`MAX_PACK`].
        max: u8,
    },
    /// Vanishes and reappears up to `range` cells off, in its own sight:
    /// next to the player when hunting, as far as it can when fleeing.
    Blink {
        /// 1 to 100 percent of its turns awake.
        chance: u8,
        /// 2 to [`MAX_REACH`] cells.
        range: u8,
    },
}

/// Turns a drain lasts after the last one: long enough that a vampire's
/// bite is felt for the rest of a level, not for the whole run.
pub const DRAIN_TURNS: u16 = 2000;

impl Ability {
    /// The name each ability is written with, for errors and tests.
    pub fn name(&self) -> &'static str {
        match self {
            Ability::Ranged { .. } => "Ranged",
            Ability::Breath { .. } => "Breath",
            Ability::Poison { .. } => "Poison",
            Ability::Drain { .. } => "Drain",
            Ability::Regenerate { .. } => "Regenerate",
            Ability::Summon { .. } => "Summon",
            Ability::Flee { .. } => "Flee",
            Ability::Pack { .. } => "Pack",
            Ability::Blink { .. } => "Blink",
        }
    }

    /// What look mode says the monster can do.
    pub fn words(&self) -> String {
        match self {
            Ability::Ranged {
                missile,
                range,
                damage,
                ..
            } => format!("{} ({damage}, range {range})", missile.habit()),
            Ability::Breath {
                range,
                damage,
                recharge,
            } => format!("breathes fire ({damage}, range {range}, every {recharge} turns)"),
            Ability::Poison { damage, turns, .. } => {
                format!("poisons ({damage} a turn for {turns} turns)")
            }
            Ability::Drain { amount, .. } => format!("drains maximum hit points ({amount} a bite)"),
            Ability::Regenerate { hp } => format!("regenerates ({hp} a turn)"),
            Ability::Summon { kind, .. } => {
                format!("summons {}", crate::words::plural_name(kind))
            }
            Ability::Flee { below } => format!("flees below {below}% of its hit points"),
            Ability::Pack { min, max } => format!("comes in packs of {min} to {max}"),
            Ability::Blink { range, .. } => format!("blinks (up to {range} cells)"),
        }
    }

    /// The field at fault and what is wrong, if this ability breaks the
    /// bounds every file keeps. `kinds` are the names of the list's kinds
    /// (a summon must name one).
    pub fn check(&self, kinds: &[&str]) -> Result<(), (&'static str, String)> {
        fn within<T: PartialOrd + std::fmt::Display + Copy>(
            field: &'static str,
            v: T,
            lo: T,
            hi: T,
        ) -> Result<(), (&'static str, String)> {
            if v < lo || v > hi {
                return Err((field, format!("must be from {lo} to {hi}, got {v}")));
            }
            Ok(())
        }
        let dice = |field: &'static str, d: &Dice| -> Result<(), (&'static str, String)> {
            if d.max() == 0 || d.max() > 1000 {
                return Err((
                    field,
                    format!("must roll from 1 to 1000, got {} at most", d.max()),
                ));
            }
            Ok(())
        };
        match self {
            Ability::Ranged {
                range,
                damage,
                chance,
                ..
            } => {
                within("range", *range, 2, MAX_REACH)?;
                dice("damage", damage)?;
                within("chance", *chance, 1, 100)
            }
            Ability::Breath {
                range,
                damage,
                recharge,
            } => {
                within("range", *range, 2, MAX_REACH)?;
                dice("damage", damage)?;
                within("recharge", *recharge, 1, 1000)
            }
            Ability::Poison {
                chance,
                damage,
                turns,
            } => {
                within("chance", *chance, 1, 100)?;
                within("damage", *damage, 1, 100)?;
                within("turns", *turns, 1, 100)
            }
            Ability::Drain { chance, amount } => {
                within("chance", *chance, 1, 100)?;
                within("amount", *amount, 1, 100)
            }
            Ability::Regenerate { hp } => within("hp", *hp, 1, 100),
            Ability::Summon {
                kind,
                chance,
                count,
                recharge,
            } => {
                if !kinds.contains(&kind.as_str()) {
                    return Err((
                        "kind",
                        format!(
                            "\"{}\" is no kind of this list",
                            kind.escape_debug().take(40).collect::<String>()
                        ),
                    ));
                }
                within("chance", *chance, 1, 100)?;
                within("count", *count, 1, 4)?;
                within("recharge", *recharge, 1, 1000)
            }
            Ability::Flee { below } => within("below", *below, 1, 90),
            Ability::Pack { min, max } => {
                within("min", *min, 2, MAX_PACK)?;
                within("max", *max, *min, MAX_PACK)
            }
            Ability::Blink { chance, range } => {
                within("chance", *chance, 1, 100)?;
                within("range", *range, 2, MAX_REACH)
            }
        }
    }
}

/// The checks of a kind's whole list of abilities: at most
/// [`MAX_ABILITIES`], each at most once, each within its bounds. The
/// problem names the ability's place in the list and its field.
pub fn check_abilities(
    abilities: &[Ability],
    kinds: &[&str],
) -> Result<(), (usize, &'static str, String)> {
    if abilities.len() > MAX_ABILITIES {
        return Err((
            MAX_ABILITIES,
            "",
            format!("a kind has at most {MAX_ABILITIES} abilities"),
        ));
    }
    for (j, a) in abilities.iter().enumerate() {
        if let Some(k) = abilities[..j].iter().position(|o| o.name() == a.name()) {
            return Err((
                j,
                "",
                format!("{} is already ability {k} of this kind", a.name()),
            ));
        }
        a.check(kinds)
            .map_err(|(field, message)| (j, field, message))?;
    }
    Ok(())
}
