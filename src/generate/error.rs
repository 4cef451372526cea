//! Why no level could be made: [`GenerateError`], with the work budget's
//! [`Overrun`] and the [`WorkStage`] it ran out in, each worded with the
//! config change that would help. Apart from the pipeline, as it is what a
//! user reads: the advice changes with the config's rules, the pipeline
//! with the generator's.

use super::budget;
use crate::config::Config;

/// Why no level could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// Most attempts could not place the minimum number of rooms.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {too_few} placed fewer than \
         {wanted} rooms (at best {best}) in the {width}x{height} level and {crowded} had rooms \
         too close for corridors to join; lower rooms.count.min, shrink rooms.width, \
         rooms.height or rooms.circle_radius, or enlarge the level"
    )]
    TooFewRooms {
        /// The level that failed, 1 at the top.
        depth: u16,
        /// Attempts made (`generation_retries`).
        attempts: u32,
        /// Attempts that placed fewer than `wanted` rooms.
        too_few: u32,
        /// Attempts that placed enough rooms but could not join them.
        crowded: u32,
        /// The most rooms any attempt placed.
        best: usize,
        /// The fewest rooms a level may have (`rooms.count.min`).
        wanted: u16,
        /// Level width in cells, for the advice.
        width: u16,
        /// Level height in cells, for the advice.
        height: u16,
    },
    /// Most attempts placed their rooms but could not join them all.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {crowded} had rooms too close for \
         corridors to join them all and {too_few} placed too few rooms; lower \
         rooms.max_floor_share or rooms.count, raise rooms.max_doors, or enlarge the level"
    )]
    Crowded {
        /// The level that failed, 1 at the top.
        depth: u16,
        /// Attempts made (`generation_retries`).
        attempts: u32,
        /// Attempts that placed enough rooms but could not join them.
        crowded: u32,
        /// Attempts that placed too few rooms.
        too_few: u32,
    },
    /// Most attempts placed their rooms but a corridor style other than the
    /// Tunnel could not join them all: its own advice, since crowding is
    /// rarely what stops it.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {crowded} placed their rooms but \
         {} corridors could not join them all; {advice}", style.name()
    )]
    Unjoinable {
        /// The level that failed, 1 at the top.
        depth: u16,
        /// Attempts made (`generation_retries`).
        attempts: u32,
        /// Attempts that placed their rooms but could not join them.
        crowded: u32,
        /// The corridor style that could not join them.
        style: crate::config::CorridorStyle,
        /// What to change in the config for this style.
        advice: &'static str,
    },
    /// Most attempts placed and joined their rooms but too few of them may
    /// hold stairs: each staircase needs a room of its own, the arrival
    /// room of a first level without an exit holds none, and a vault holds
    /// stairs only on the cells its drawing marks `<` or `>`. A level is
    /// never returned short of a staircase, since the levels below it would
    /// be cut off.
    #[error(
        "depth {depth}: no attempt of {attempts} made a level: {short} had too few rooms that may \
         hold stairs for the {up} up and {down} down staircases the depth needs (each in a room \
         of its own; a vault only on its < or > cells); raise rooms.count.min, lower \
         vaults.count.max, or give the vaults stair cells"
    )]
    TooFewStairRooms {
        /// The level that failed, 1 at the top.
        depth: u16,
        /// Attempts made (`generation_retries`).
        attempts: u32,
        /// Attempts that placed and joined their rooms but could not place
        /// every staircase.
        short: u32,
        /// Up staircases the depth needs.
        up: usize,
        /// Down staircases the depth needs.
        down: usize,
    },
    /// A level failed its final verification: a generator bug, not a config
    /// problem, since carving only succeeds on a connected layout.
    #[error(
        "depth {depth}: no level passed verification in {attempts} attempts (last problem: {reason})"
    )]
    Unverified {
        /// The level that failed, 1 at the top.
        depth: u16,
        /// Attempts made (`generation_retries`).
        attempts: u32,
        /// What the last failed verification found.
        reason: String,
    },
    /// A depth was asked for that the stack does not have.
    #[error("depth {depth} is outside the dungeon (1..={levels})")]
    NoSuchDepth {
        /// The depth asked for.
        depth: u16,
        /// Levels in the stack; depths run from 1 to this.
        levels: u16,
    },
    /// The level took all the work it may take (see [`budget`]) before an
    /// attempt succeeded.
    #[error("{0}")]
    OverBudget(Overrun),
    /// The config breaks a rule of [`Config::validate`]. A config read from
    /// a file is checked on load; this catches one built in code (a struct
    /// literal, a field changed after loading), which the generator would
    /// otherwise trust with indices and sizes.
    #[error("the config is invalid: {field}: {message}")]
    InvalidConfig {
        /// Dotted path of the field at fault, as in [`crate::config::Problem`].
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

impl GenerateError {
    /// Whether the config or the request is at fault (what a command-line
    /// tool reports as bad input), rather than the generator itself: only a
    /// level that failed its own final proof is the generator's fault.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, GenerateError::Unverified { .. })
    }
}

/// The generator's first step: no value of a config that fails validation
/// reaches code that relies on it.
pub(super) fn validated(config: &Config) -> Result<(), GenerateError> {
    config
        .validate()
        .map_err(|problem| GenerateError::InvalidConfig {
            field: problem.field,
            message: problem.message,
        })
}

/// Where a level's work budget ran out, and what it was spent on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overrun {
    /// The level that ran out, 1 at the top.
    pub depth: u16,
    /// Level width in cells.
    pub width: u16,
    /// Level height in cells.
    pub height: u16,
    /// The budget, in units of about one cell or room looked at.
    pub budget: u64,
    /// The attempt that was under way (1-based) and the most the config allows.
    pub attempt: u32,
    /// The most attempts the config allows (`generation_retries`).
    pub retries: u32,
    /// The stage of that attempt that ran out.
    pub stage: WorkStage,
    /// How the attempts before it failed, and how much of the budget they took.
    pub too_few: u32,
    /// Failed attempts before this one that placed their rooms but could not
    /// join them.
    pub crowded: u32,
    /// Budget units the failed attempts used up.
    pub spent_failing: u64,
    /// Why attempts fail, and what would help, when failed attempts took most
    /// of the budget.
    pub failure_advice: &'static str,
    /// The corridor style, for the advice.
    pub style: crate::config::CorridorStyle,
}

/// A stage of an attempt, as far as its work is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum WorkStage {
    /// Starting an attempt: hardness, buffers, verification.
    Attempt,
    /// Placing rooms until the count, the floor share or the give-up streak says stop.
    PlacingRooms,
    /// Carving corridors between the placed rooms.
    JoiningRooms,
    /// Adding the extra loops of `extra_loops`.
    AddingLoops,
}

impl std::fmt::Display for Overrun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::config::CorridorStyle;
        let failed = self.attempt - 1;
        let stage = match self.stage {
            WorkStage::Attempt => "starting it",
            WorkStage::PlacingRooms => "placing rooms",
            WorkStage::JoiningRooms => "joining rooms",
            WorkStage::AddingLoops => "adding extra loops",
        };
        write!(
            f,
            "depth {}: gave up in attempt {} of {}, while {stage}, at the work budget of a {}x{} \
             level: {} units ({} plus {} a cell; a unit is about one cell or room looked at)",
            self.depth,
            self.attempt,
            self.retries,
            self.width,
            self.height,
            self.budget,
            budget::BASE_WORK,
            budget::WORK_PER_CELL,
        )?;
        if failed > 0 {
            write!(
                f,
                "; the {failed} attempt(s) before it failed ({} placed too few rooms, {} could \
                 not join their rooms)",
                self.too_few, self.crowded
            )?;
        }
        // Failed attempts that took most of the budget are the problem:
        // lowering generation_retries would only fail sooner, so the advice
        // is how to make attempts succeed. Otherwise it is the stage's own.
        let advice = if self.spent_failing * 2 > self.budget {
            format!(
                "more attempts cannot fit in the budget, so attempts must succeed more often: {}",
                self.failure_advice
            )
        } else {
            match self.stage {
                WorkStage::Attempt | WorkStage::PlacingRooms => "each room is tried up to \
                    rooms.attempts_per_room times and placement stops after \
                    rooms.give_up_streak failures in a row: lower those, or ask for fewer or \
                    smaller rooms (rooms.count, rooms.width, rooms.height, rooms.circle_radius)"
                    .to_string(),
                WorkStage::JoiningRooms => match self.style {
                    CorridorStyle::Tunnel | CorridorStyle::Straight => {
                        "lower rooms.count, or use fewer, smaller rooms".to_string()
                    }
                    CorridorStyle::Grid => "lower rooms.count or raise grid_spacing, or use \
                        corridors: Tunnel"
                        .to_string(),
                    CorridorStyle::DeadEnd => "lower rooms.count or rooms.max_floor_share, or \
                        use corridors: Tunnel"
                        .to_string(),
                },
                WorkStage::AddingLoops => "lower extra_loops.count, extra_loops.ratio or \
                    extra_loops.max_length"
                    .to_string(),
            }
        };
        write!(f, "; {advice}")
    }
}

/// What makes attempts fail, and what would help: too few rooms placed
/// (`too_few`), or rooms the configured corridor style could not join.
pub(super) fn failure_advice(config: &Config, too_few: bool) -> &'static str {
    use crate::config::CorridorStyle;
    if too_few {
        return "lower rooms.count.min, shrink rooms.width, rooms.height or rooms.circle_radius, \
                or enlarge the level";
    }
    match config.corridors {
        CorridorStyle::Tunnel => {
            "lower rooms.max_floor_share or rooms.count, raise rooms.max_doors, or enlarge the \
             level"
        }
        CorridorStyle::Grid => {
            "Grid corridors wander along grid lines and give up when they hit a wall, \
             so sparse levels defeat them: raise rooms.count, grid_spacing or \
             grid_segment, or use corridors: Tunnel"
        }
        CorridorStyle::DeadEnd => {
            "one room cut off fails a DeadEnd level: lower rooms.count or \
             rooms.max_floor_share, raise rooms.max_doors, or use corridors: Tunnel"
        }
        CorridorStyle::Straight => {
            "Straight walks cannot get past crowded rooms: lower rooms.max_floor_share \
             or rooms.count, or use corridors: Tunnel"
        }
    }
}
