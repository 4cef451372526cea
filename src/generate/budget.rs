//! The work one level may take, over all its attempts.
//!
//! Every loop of generation whose length the config can stretch (room
//! placement tries, path searches, corridor growth, loop searches, and
//! attempts themselves) spends from one budget a level. It is counted in
//! units of roughly one cell or room looked at, so it bounds time, not just
//! values: a config that asks for hours of retries, or for a million
//! placement tries an attempt, ends with [`GenerateError::OverBudget`]
//! instead (naming the budget and what to change). The budget is the same
//! for every attempt order and thread, and spending never draws random
//! numbers, so a level that stays within it is exactly the level it would
//! be without one.
//!
//! [`GenerateError::OverBudget`]: super::GenerateError::OverBudget

use std::cell::Cell;

/// Units of work any level may take, whatever its size.
pub const BASE_WORK: u64 = 50_000_000;
/// Units of work a level may take for each cell of its area, on top of
/// [`BASE_WORK`]. An attempt costs at least [`ATTEMPT_WORK_PER_CELL`] units
/// a cell, so a level makes at most a hundred attempts beyond what the base
/// pays for.
pub const WORK_PER_CELL: u64 = 200;

/// What an attempt costs before it places a room, a cell: the hardness
/// field, clearing buffers, verification and the level graph, all of which
/// go over every cell.
pub const ATTEMPT_WORK_PER_CELL: u64 = 2;

/// What is left of a level's budget. A `Cell`, so the searches that only
/// borrow the level under construction can spend too; one level is made on
/// one thread.
#[derive(Debug)]
pub(crate) struct Budget {
    total: u64,
    left: Cell<i64>,
}

impl Budget {
    /// The budget of a `width` x `height` level.
    pub(crate) fn for_level(width: u16, height: u16) -> Budget {
        Budget::new(total_for(width, height))
    }

    pub(crate) fn new(total: u64) -> Budget {
        Budget {
            total,
            left: Cell::new(i64::try_from(total).unwrap_or(i64::MAX)),
        }
    }

    /// Spends `units`; false once the budget is overspent (and from then on).
    #[inline]
    pub(crate) fn spend(&self, units: usize) -> bool {
        let left = self.left.get().saturating_sub(units as i64);
        self.left.set(left);
        left >= 0
    }

    /// What may still be spent: hot loops count locally against this and
    /// [`spend`](Self::spend) their count once at the end.
    pub(crate) fn left(&self) -> usize {
        usize::try_from(self.left.get()).unwrap_or(0)
    }

    /// Whether more was asked for than the budget holds.
    pub(crate) fn overspent(&self) -> bool {
        self.left.get() < 0
    }

    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Units spent so far (the whole budget once overspent).
    pub(crate) fn spent(&self) -> u64 {
        self.total
            .saturating_sub(u64::try_from(self.left.get()).unwrap_or(0))
    }
}

/// The budget of a `width` x `height` level.
pub fn total_for(width: u16, height: u16) -> u64 {
    BASE_WORK + u64::from(width) * u64::from(height) * WORK_PER_CELL
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overspending_is_sticky() {
        let b = Budget::new(10);
        assert!(b.spend(4));
        assert_eq!(b.left(), 6);
        assert!(b.spend(6));
        assert!(!b.overspent());
        assert!(!b.spend(1));
        assert!(b.overspent());
        assert!(!b.spend(0));
        assert_eq!(b.spent(), 10);
        assert_eq!(b.left(), 0);
    }
}
