//! The part of a level a walk can reach at all, kept between turns.
//!
//! A [`LazyWalk`](super::distance::LazyWalk) asked for a cell it cannot
//! reach searches the whole level before it can say so, and the autopilot
//! asks that every turn of some stretches: an item seen through a vault's
//! window, stairs behind a secret door it has not found. Which cells a
//! walk reaches changes only when a tile does (a door found, rock dug) or
//! when the walker leaves the part (a teleport), so it is flooded once and
//! kept until then: the walk answers "unreachable" for a cell outside it
//! at once, and every answer is the one the full search gives.

use crate::grid_search::KING_MOVES as DIRECTIONS;
use crate::sim::world::doors::Way;
use crate::sim::world::ways::{Change, Ways};

/// The cells a walker reaches from a cell of a level.
#[derive(Clone, Debug, Default)]
pub(crate) struct WalkedPart {
    /// The version of the [`Ways`] the part was flooded on.
    version: Option<u64>,
    /// Per cell, whether the part holds it.
    inside: Vec<bool>,
    stack: Vec<u32>,
}

impl WalkedPart {
    /// Makes this the part reached from cell `start` by the walker `ways`
    /// was read for, flooding only what changed since; the cells flooded,
    /// for the run's work meter (0 when nothing changed).
    ///
    /// Which cells a walk reaches depends only on which cells are walls:
    /// any two cells side by side that are not walls join (a door is
    /// opened, a step taken), and a diagonal step needs both corners open,
    /// so it never joins what the two orthogonal steps round a corner do
    /// not. So when cells only stop being walls (a door found, rock dug)
    /// the part only grows, from those cells; anything else (a wall where
    /// there was none, another level, the start outside the part, more
    /// than one change missed) floods it afresh.
    pub(crate) fn refresh(&mut self, ways: &Ways, start: usize) -> u64 {
        let inside_start = self.inside.get(start) == Some(&true);
        if self.version == Some(ways.version()) && inside_start {
            return 0;
        }
        let grows = self.version.is_some_and(|v| v + 1 == ways.version())
            && inside_start
            && matches!(ways.last(), Change::Cells { closed: false, .. });
        self.version = Some(ways.version());
        if grows {
            let Change::Cells { opened, .. } = ways.last() else {
                unreachable!("matched above")
            };
            let mut flooded = 0;
            for &i in opened {
                let i = i as usize;
                if !self.inside[i] && self.joined(ways, i) {
                    self.inside[i] = true;
                    self.stack.push(i as u32);
                    flooded += self.flood(ways);
                }
            }
            return flooded;
        }
        self.inside.clear();
        self.inside.resize(ways.len(), false);
        self.stack.clear();
        self.inside[start] = true;
        self.stack.push(start as u32);
        self.flood(ways)
    }

    /// Whether cell `i` is reached by a step from a cell inside the part.
    fn joined(&self, ways: &Ways, i: usize) -> bool {
        let w = ways.width() as isize;
        DIRECTIONS.iter().any(|&(dx, dy)| {
            let n = (i as isize + dy as isize * w + dx as isize) as usize;
            self.inside.get(n) == Some(&true) && ways.step(n, i, -dx, -dy) != Way::Wall
        })
    }

    /// Floods from the cells on the stack, marking what they reach; the
    /// cells flooded.
    fn flood(&mut self, ways: &Ways) -> u64 {
        let mut flooded = 0u64;
        while let Some(c) = self.stack.pop() {
            flooded += 1;
            let c = c as usize;
            let (mut moves, _) = ways.moves(c);
            while moves != 0 {
                let k = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let n = (c as isize + ways.offset(k)) as usize;
                if !self.inside[n] {
                    self.inside[n] = true;
                    self.stack.push(n as u32);
                }
            }
        }
        flooded
    }

    /// Whether the walk reaches cell `i`; `None` before the first flood.
    pub(crate) fn holds(&self, i: usize) -> Option<bool> {
        self.version.map(|_| self.inside.get(i) == Some(&true))
    }
}
