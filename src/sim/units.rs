//! The units the simulation counts: turns, ticks and work. A leaf of
//! `sim`: the state checks its counters against these, the turn spends
//! them, and a replay bounds itself by them, so they sit below all three.

/// Units of `Run::work` a step costs before sight and monsters: with the
/// units below, a unit is some 2 ns of this machine's time in every kind of
/// turn measured (few or a thousand monsters on a level).
pub(crate) const STEP_WORK: u64 = 64;
/// Units of `Run::work` a monster's move costs, besides looking at every
/// monster of the level to choose it.
pub(crate) const MONSTER_TURN_WORK: u64 = 200;

/// Units of `Run::work` making a level costs besides its cells and the
/// generator's own work: buffers, stairs, monsters placed. Some 0.3 ms.
pub(crate) const LEVEL_WORK: u64 = 100_000;
/// Units of `Run::work` making a level costs a cell of its area: a level of
/// 2,000 by 2,000 took 0.16 to 0.27 s to make here, 40 to 70 ns a cell,
/// with default rooms or rooms scaled to its area.
pub(crate) const LEVEL_CELL_WORK: u64 = 20;
/// Units of `Run::work` a unit of the generator's own budget
/// ([`crate::generate::budget`]) costs on top: what a config that asks for
/// many rooms, attempts or loops adds to a level's time (some 5 ns a unit
/// measured), which its area does not tell.
pub(crate) const LEVEL_SPENT_WORK: u64 = 2;
/// Units of `Run::work` a digest (`Run::digest`) costs a cell of each level
/// visited: the state is written out as JSON and hashed, 40 to 65 ns a cell
/// measured on levels of 500 to 2,000 cells a side (a digest of one 2,000
/// by 2,000 level took 0.2 to 0.26 s), and a kept copy of the run costs a
/// hundredth of that.
pub(crate) const DIGEST_CELL_WORK: u64 = 24;
/// Units of `Run::work` a digest costs a monster of a visited level (its
/// place, kind, timer, memory and hit points written out).
pub(crate) const DIGEST_MONSTER_WORK: u64 = 100;
/// Units of `Run::work` a digest costs besides: the config, the kinds, the
/// log, the pack.
pub(crate) const DIGEST_WORK: u64 = 50_000;

/// The work (`Run::work` units) making a level of `cells` costs, its
/// generator having spent `spent` of its own budget.
pub(crate) fn level_work(cells: u64, spent: u64) -> u64 {
    LEVEL_WORK + cells * LEVEL_CELL_WORK + spent * LEVEL_SPENT_WORK
}

/// The last turn a run can reach: a run at this turn takes no more steps.
/// Every action a run records takes one turn, so this is also the most
/// actions a recording, a save or a journal can hold, and a file claiming
/// more is refused before anything is replayed. A whole game of delve takes
/// 15,000 to 20,000 turns; the work a replay does is bounded apart from
/// this (`journal::check::REPLAY_WORK`), as a turn's cost depends on the
/// config.
pub const MAX_TURNS: u64 = 500_000;

/// Ticks between moves at a speed.
pub(crate) fn interval(speed: u8) -> u64 {
    1000 / u64::from(speed.max(1))
}
