//! The orthogonal pieces of a grid's chosen cells, found a run at a time.
//!
//! A flood visits a piece cell by cell, with a branch for each of four
//! neighbours of every cell; a cave's open ground is half the level, and
//! its floods were most of its labelling. Here each row is read as runs
//! of chosen cells, each run joined to the runs above it that it touches
//! (a union-find over runs, each set's root its earliest run), so a
//! piece costs a few operations a run, not a cell.
//!
//! Pieces are numbered in the order of their first cell (row by row, left
//! to right), as a flood started from each unvisited cell in that order
//! numbers them, so a caller that used such a flood keeps its output.

/// A run of chosen cells in one row, and its piece.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Run {
    /// The run's first cell (row-major index).
    pub(crate) start: u32,
    /// One past the run's last cell.
    pub(crate) end: u32,
    /// While labelling, the run's own number; afterwards its piece.
    pub(crate) piece: u32,
}

/// One piece: its cells, first cell and bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub(crate) cells: u32,
    /// The first cell of the piece in row-major order.
    pub(crate) first: u32,
    /// Columns and rows of its bounding box, inclusive.
    pub(crate) x0: u16,
    pub(crate) y0: u16,
    pub(crate) x1: u16,
    pub(crate) y1: u16,
}

/// The runs and pieces of the last grid labelled, kept from use to use
/// so a warm caller allocates nothing.
#[derive(Default)]
pub(crate) struct Pieces {
    runs: Vec<Run>,
    /// Per run: a run of the same piece labelled no later (itself for
    /// the piece's earliest run, its root).
    parent: Vec<u32>,
    pieces: Vec<Piece>,
}

impl Pieces {
    /// Makes room for the most runs and pieces a grid of `cells` cells,
    /// `width` wide, can hold (a run and a gap take two cells, so a row
    /// holds at most half its cells' runs, rounded up), so a warm caller
    /// never grows them level by level.
    pub(crate) fn reserve(&mut self, cells: usize, width: usize) {
        let most = cells / 2 + cells / width.max(1) + 1;
        self.parent.reserve(most.saturating_sub(self.parent.len()));
        self.runs.reserve(most.saturating_sub(self.runs.len()));
        self.pieces.reserve(most.saturating_sub(self.pieces.len()));
    }

    /// Labels the orthogonal pieces of the cells of a `width`-wide grid
    /// (`chosen.len()` cells) for which `chosen` is true.
    pub(crate) fn label(&mut self, chosen: &[bool], width: usize) {
        self.label_by(chosen.len(), width, |start, len| {
            crate::grid_search::mask32(&chosen[start..start + len], |c| c)
        });
    }

    /// Labels the orthogonal pieces of the chosen cells of a grid of
    /// `cells` cells, `width` wide, where `chosen(start, len)` gives which
    /// of the `len` (at most 32) cells from `start`, all in one row, are
    /// chosen, as the low bits of a word (cell `start + i` at bit `i`).
    pub(crate) fn label_by(
        &mut self,
        cells: usize,
        width: usize,
        chosen: impl Fn(usize, usize) -> u32,
    ) {
        debug_assert!(width > 0 && cells.is_multiple_of(width) && cells <= u32::MAX as usize);
        self.runs.clear();
        self.parent.clear();
        self.pieces.clear();
        let mut above = 0..0;
        for row in (0..cells).step_by(width) {
            let here = self.runs.len();
            // The first run above that may touch the next run of this row.
            let mut j = above.start;
            let mut run = |start: usize, end: usize, runs: &mut Vec<Run>, parent: &mut Vec<u32>| {
                let id = runs.len() as u32;
                parent.push(id);
                runs.push(Run {
                    start: (row + start) as u32,
                    end: (row + end) as u32,
                    piece: id,
                });
                // Runs above that share a column with [start, end) touch it.
                // (The first row has no runs above: the loops stop at once.)
                let up = row.wrapping_sub(width) as u32;
                while j < above.end && runs[j].end - up <= start as u32 {
                    j += 1;
                }
                let mut k = j;
                while k < above.end && runs[k].start - up < end as u32 {
                    union(parent, id, k as u32);
                    k += 1;
                }
            };
            // The row 32 cells at a time as bits; a run's ends are where
            // the bits change, found by counting zeros, so the work is a
            // few operations a run and a multiply a byte, not a branch a
            // cell.
            let mut start = None;
            for base in (0..width).step_by(32) {
                let len = (width - base).min(32);
                let bits = u64::from(chosen(row + base, len));
                let mut from = 0;
                loop {
                    // The next bit from `from` that ends a run or starts one.
                    let look = match start {
                        Some(_) => !bits,
                        None => bits,
                    } & (!0u64 << from)
                        & ((1u64 << len) - 1);
                    if look == 0 {
                        break;
                    }
                    let at = look.trailing_zeros() as usize;
                    match start.take() {
                        Some(s) => run(s, base + at, &mut self.runs, &mut self.parent),
                        None => start = Some(base + at),
                    }
                    from = at;
                }
            }
            if let Some(s) = start {
                run(s, width, &mut self.runs, &mut self.parent);
            }
            above = here..self.runs.len();
        }
        // Each root is its piece's earliest run, and every run's parent is
        // an earlier run (or itself), so in run order each run's piece is
        // known from its parent's: roots take the next number.
        // A run's row by a multiply where it is exact (every level's grid),
        // not a division a run.
        let rows = crate::grid_search::RowOf::new(width);
        let exact = (cells as u64)
            .checked_mul(width as u64)
            .is_some_and(|p| p < 1 << 42);
        for r in 0..self.runs.len() {
            let parent = self.parent[r] as usize;
            let run = self.runs[r];
            let start = run.start as usize;
            let (x0, y) = if exact {
                rows.xy(start)
            } else {
                (start % width, start / width)
            };
            let (x0, y) = (x0 as u16, y as u16);
            let x1 = x0 + (run.end - run.start - 1) as u16;
            let piece = if parent == r {
                self.pieces.push(Piece {
                    cells: 0,
                    first: run.start,
                    x0,
                    y0: y,
                    x1,
                    y1: y,
                });
                self.pieces.len() as u32 - 1
            } else {
                self.runs[parent].piece
            };
            self.runs[r].piece = piece;
            let p = &mut self.pieces[piece as usize];
            p.cells += run.end - run.start;
            p.x0 = p.x0.min(x0);
            p.x1 = p.x1.max(x1);
            p.y1 = y;
        }
    }

    /// The runs, row by row, each with its piece (an index of
    /// [`Pieces::pieces`]).
    pub(crate) fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The pieces, in the order of their first cells.
    pub(crate) fn pieces(&self) -> &[Piece] {
        &self.pieces
    }
}

/// Joins the sets of runs `a` and `b`, the earlier root kept, so a set's
/// root is always its earliest run.
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (root(parent, a), root(parent, b));
    if ra < rb {
        parent[rb as usize] = ra;
    } else {
        parent[ra as usize] = rb;
    }
}

/// The earliest run of `r`'s set, halving the path walked.
fn root(parent: &mut [u32], mut r: u32) -> u32 {
    while parent[r as usize] != r {
        let grandparent = parent[parent[r as usize] as usize];
        parent[r as usize] = grandparent;
        r = grandparent;
    }
    r
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A flood from each unvisited chosen cell in row-major order: each
    /// cell's piece, and the pieces.
    fn flood(chosen: &[bool], w: usize) -> (Vec<Option<u32>>, Vec<Piece>) {
        let mut piece = vec![None; chosen.len()];
        let mut pieces = Vec::new();
        for start in 0..chosen.len() {
            if !chosen[start] || piece[start].is_some() {
                continue;
            }
            let id = pieces.len() as u32;
            let mut p = Piece {
                cells: 0,
                first: start as u32,
                x0: u16::MAX,
                y0: u16::MAX,
                x1: 0,
                y1: 0,
            };
            piece[start] = Some(id);
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                let (x, y) = ((c % w) as u16, (c / w) as u16);
                p.cells += 1;
                (p.x0, p.y0, p.x1, p.y1) = (p.x0.min(x), p.y0.min(y), p.x1.max(x), p.y1.max(y));
                let mut around = vec![];
                if c >= w {
                    around.push(c - w);
                }
                if c + w < chosen.len() {
                    around.push(c + w);
                }
                if c % w > 0 {
                    around.push(c - 1);
                }
                if c % w + 1 < w {
                    around.push(c + 1);
                }
                for n in around {
                    if chosen[n] && piece[n].is_none() {
                        piece[n] = Some(id);
                        stack.push(n);
                    }
                }
            }
            pieces.push(p);
        }
        (piece, pieces)
    }

    /// Fails unless the runs' pieces are a flood's, numbered as a flood in
    /// row-major order numbers them, with the same sizes, first cells and
    /// boxes, and every chosen cell is in exactly one run of one row:
    /// labelled by `label`, then by `label_by` from words whose bits above
    /// the cells asked for are set (which it must not read), each twice, so
    /// a warm labeller is checked too.
    fn assert_pieces_are_a_floods(chosen: &[bool], w: usize) {
        let (want, want_pieces) = flood(chosen, w);
        let mut pieces = Pieces::default();
        for by_words in [false, false, true, true] {
            if by_words {
                pieces.label_by(chosen.len(), w, |start, len| {
                    let bits = crate::grid_search::mask32(&chosen[start..start + len], |c| c);
                    bits | (!0u32).checked_shl(len as u32).unwrap_or(0)
                });
            } else {
                pieces.label(chosen, w);
            }
            assert_eq!(pieces.pieces(), &want_pieces[..], "{w} wide");
            let mut got = vec![None; chosen.len()];
            for run in pieces.runs() {
                assert_eq!(run.start as usize / w, (run.end as usize - 1) / w);
                for c in run.start..run.end {
                    assert!(got[c as usize].is_none());
                    got[c as usize] = Some(run.piece);
                }
            }
            assert_eq!(got, want, "{w} wide");
        }
    }

    /// Rows of 31 to 65 cells, either side of the 32-cell words a row is
    /// read in: all chosen, every other cell, every other column, a
    /// checkerboard and a staircase.
    #[test]
    fn rows_either_side_of_a_word_are_labelled_as_a_flood_labels_them() {
        for w in [31, 32, 33, 63, 64, 65] {
            let h = 5;
            let patterns: [&dyn Fn(usize, usize) -> bool; 5] = [
                &|_, _| true,
                &|x, y| (x + y * w) % 2 == 0,
                &|x, _| x % 2 == 0,
                &|x, y| (x + y) % 2 == 0,
                &|x, y| x % 32 >= y && x % 32 <= y + 30,
            ];
            for pattern in patterns {
                let chosen: Vec<bool> = (0..w * h).map(|c| pattern(c % w, c / w)).collect();
                assert_pieces_are_a_floods(&chosen, w);
            }
        }
    }

    proptest! {
        /// Random grids up to 79 wide are labelled as a flood labels them.
        #[test]
        fn the_pieces_are_a_floods(
            w in 1usize..80,
            h in 1usize..24,
            density in 0.0f64..1.0,
            seed in any::<u64>(),
        ) {
            use rand::{RngExt, SeedableRng};
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let chosen: Vec<bool> = (0..w * h).map(|_| rng.random_bool(density)).collect();
            assert_pieces_are_a_floods(&chosen, w);
        }
    }
}
