//! Which generator and which rules a run belongs to. Kept on its own
//! because it outlives any one config: saves and journals record it, and
//! a change of output or rules on purpose is a new revision here.

use serde::{Deserialize, Serialize};

use crate::config::problem::{Problem, check};

/// The generator revision this build makes by default: 2 joins every
/// door of a vault to the level (or walls it up), where 1 left doors that
/// no corridor reached opening onto rock; 3 places vaults on `Grid` and
/// `Straight` levels too, where 1 and 2 placed none there: the style joins
/// the ordinary rooms as before and a last leg joins each vault through
/// its cheapest door (so the shipped grid halls get vaults). Tunnel and DeadEnd levels are the same under 2 and 3.
/// 4 (issue 27, faster levels) changes every level of rooms: it joins the
/// pieces a `DeadEnd` level's stubs leave apart by legs, where 3 threw the
/// attempt away and made the level again; corridors leave a vault's doors
/// by their porch; the Tunnel's first search of a join starts from fewer
/// doors; and the hardness noise is summed in 16-bit lanes (another
/// field from the same seed).
/// 5 (issue 27) changes Tunnel levels only: the search's estimate counts
/// steps to the door ends on each side of the target room rather than
/// to its ring, so a search of the default level takes 51 states, not
/// 106. Each search still finds a cheapest corridor from its doors, but
/// which doors a join's first search starts from (those within a step of
/// the nearest to the target) is judged by the same estimate, so about
/// one search in sixteen costs differently, and where corridors tie,
/// another is taken.
/// 6 (issue 27) changes cave levels only: a cave's random fill takes a
/// quarter of a 64-bit draw a cell, where 5 drew a Bernoulli a cell.
/// 7 (issue 27) changes cave levels only: a cave's regions are joined by
/// a plan on blocks of 3x3 cells (revision 6's spanning tree, taken over
/// the blocks' prices, but for regions sharing a block, joined first, and
/// a third region a passage crosses, joined with it), each passage the
/// cheapest way within the blocks its plan crosses, where 6 searched the
/// whole grid cell by cell.
/// 8 (issue 27) changes DeadEnd, Grid and Straight levels only: their
/// extra loops are found by drawing a corridor cell and a direction at
/// random and judging the line there at once, where 7 listed every
/// possible shortcut of the level (hundreds, for the dozen judged) and
/// shuffled the list. Each shortcut has the same chance either way; the
/// draws differ. Tunnel levels, with a few dozen, still list them.
/// 9 (issue 27) changes levels of rooms (where they have vaults, and
/// DeadEnd levels whose small pieces are joined by legs) and caves: a
/// corridor from a vault's door (and a vault's last leg on a Grid or
/// Straight level, and a small piece's leg, each from at most eight
/// doors at once) is searched for by A* aimed at the goal nearest a door
/// in steps, and ends on the first goal it meets (an open cell, a door,
/// or a new door of another room), where 8 spread its search round the
/// doors until it met the cheapest (some 350 states against a few
/// dozen), so where hard rock lies between, another cell is joined; and
/// a cave's passages are planned on blocks of 4x4 cells, where 7 and 8
/// used 3x3. Labyrinths are revision 8's. (The Tunnel's room loops also
/// stop each walk between rooms once the rooms it is for are reached:
/// the same loops, less work counted against the level's budget.)
pub const GENERATOR_REVISION: u16 = 9;
/// The rules revision this build plays by default: 4 is a run of real
/// decisions (issue 26: unknown potions and scrolls dealt their looks by
/// the seed, timed effects, monsters' minds); 3 has doors that
/// matter (a closed door blocks sight and is opened by walking into it,
/// `c` closes one, some doors are secret until searched for: the config's
/// `secret_doors`), where 1 and 2 had open doorways; 2 keeps an item's pack
/// letter while it is carried and stacks identical potions and scrolls,
/// where 1 closed the letters up and gave every item a letter of its own.
pub const RULES_REVISION: u16 = 4;

/// Which revision of the generator made a run's levels and which revision
/// of the rules it plays by. A level is a function of (config, seed,
/// depth) and a run of its actions: when either changes on purpose, old
/// runs would regenerate into other levels and replay into other games.
/// So a run records the revisions it began with, and this build keeps
/// every older revision it still knows how to make, so an old save's
/// levels not visited yet, and a replay of an old recording, come out as
/// they were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Revisions {
    /// The generator's revision, 1 to [`GENERATOR_REVISION`].
    pub generator: u16,
    /// The rules' revision, 1 to [`RULES_REVISION`].
    pub rules: u16,
}

impl Revisions {
    /// What this build makes and plays by default.
    pub const CURRENT: Revisions = Revisions {
        generator: GENERATOR_REVISION,
        rules: RULES_REVISION,
    };
    /// What every run saved before revisions were recorded (save format 5
    /// and older, journals of those formats) was made and played by.
    pub const FIRST: Revisions = Revisions {
        generator: 1,
        rules: 1,
    };

    /// Whether these are the first revisions, which a digest leaves out so
    /// runs from before revisions digest as they did.
    pub fn is_first(&self) -> bool {
        *self == Revisions::FIRST
    }

    /// The first revision newer than this build makes, if any: which one
    /// ("generator" or "rules"), the revision, and the newest this build
    /// makes. A run of a newer revision is a newer delve's, named as such
    /// rather than as a broken file.
    pub fn newer_than_this_build(&self) -> Option<(&'static str, u16, u16)> {
        if self.generator > GENERATOR_REVISION {
            Some(("generator", self.generator, GENERATOR_REVISION))
        } else if self.rules > RULES_REVISION {
            Some(("rules", self.rules, RULES_REVISION))
        } else {
            None
        }
    }

    /// Refuses a revision this build cannot make: 0, which never existed,
    /// or a newer delve's, whose levels or rules this build does not know.
    pub(super) fn check(&self) -> Result<(), Problem> {
        for (value, newest, what) in [
            (self.generator, GENERATOR_REVISION, "generator"),
            (self.rules, RULES_REVISION, "rules"),
        ] {
            check(
                (1..=newest).contains(&value),
                &format!("revisions.{what}"),
                || {
                    format!(
                        "this delve makes {what} revisions 1 to {newest}, got {value}{}",
                        if value > newest {
                            " (a newer delve's)"
                        } else {
                            ""
                        }
                    )
                },
            )?;
        }
        Ok(())
    }
}

impl Default for Revisions {
    fn default() -> Self {
        Revisions::CURRENT
    }
}
