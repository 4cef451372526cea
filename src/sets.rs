//! Disjoint sets (a union-find) kept from use to use: the sets of joined
//! rooms of the corridor styles that merge them as corridors meet
//! (`grid`, `dead_end`), and the connected pieces of a level graph.
//!
//! It is petgraph's `UnionFind` step for step (union by rank, `find`
//! without compression, `union` halving the paths it walks), so every
//! representative is the one petgraph's would give: a style that reads a
//! representative as a room, as `grid` does for its largest set, makes the
//! same levels. What petgraph's lacks is a way to start over without
//! allocating.

/// Disjoint sets of `0..n` (rooms, or a graph's nodes).
#[derive(Default)]
pub(crate) struct Sets {
    /// Each room's parent; a representative is its own.
    parent: Vec<usize>,
    /// An upper bound on each representative's tree depth.
    rank: Vec<u8>,
}

impl Sets {
    /// Every room of `0..n` in a set of its own.
    pub(crate) fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n);
        self.rank.clear();
        self.rank.resize(n, 0);
    }

    /// The representative of `x`'s set.
    pub(crate) fn find(&self, mut x: usize) -> usize {
        while self.parent[x] != x {
            x = self.parent[x];
        }
        x
    }

    /// The representative of `x`'s set, each room on the way pointed at
    /// its grandparent.
    fn find_mut(&mut self, mut x: usize) -> usize {
        let mut parent = self.parent[x];
        while parent != x {
            let grandparent = self.parent[parent];
            self.parent[x] = grandparent;
            x = parent;
            parent = grandparent;
        }
        x
    }

    /// Joins the sets of `x` and `y`; false if they were one already.
    pub(crate) fn union(&mut self, x: usize, y: usize) -> bool {
        if x == y {
            return false;
        }
        let (xrep, yrep) = (self.find_mut(x), self.find_mut(y));
        if xrep == yrep {
            return false;
        }
        match self.rank[xrep].cmp(&self.rank[yrep]) {
            std::cmp::Ordering::Less => self.parent[xrep] = yrep,
            std::cmp::Ordering::Greater => self.parent[yrep] = xrep,
            std::cmp::Ordering::Equal => {
                self.parent[yrep] = xrep;
                self.rank[xrep] += 1;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use petgraph::unionfind::UnionFind;
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The same unions give the same representatives as petgraph's,
        /// after every step, on a set reused from an earlier run.
        #[test]
        fn finds_what_petgraph_finds(
            n in 1usize..40,
            unions in prop::collection::vec((0usize..40, 0usize..40), 0..80),
        ) {
            let mut sets = Sets::default();
            sets.reset(n + 3);
            sets.union(0, 1);
            sets.reset(n);
            let mut theirs = UnionFind::<usize>::new(n);
            for (x, y) in unions {
                let (x, y) = (x % n, y % n);
                prop_assert_eq!(sets.union(x, y), theirs.union(x, y));
                for r in 0..n {
                    prop_assert_eq!(sets.find(r), theirs.find(r));
                }
            }
        }
    }
}
