//! Where an open end's straight look first meets something, by bits.
//!
//! Each turn of the DeadEnd style, every open end looks up to
//! [`LOOK`](super::LOOK) cells ahead and to both sides for a corridor, a
//! cell it may not pass, or a corridor or door beside its line; the ends
//! grow a cell a turn, so the same empty rock is looked along again and
//! again. This keeps, per row and per column, a bit a cell for each of
//! those three things, so the first cell of a line where anything happens
//! is a few word operations away. The look then judges that one cell as
//! it always did, and every cell before it is rock it passes: the same
//! answers, cell for cell.

use crate::geom::Dir;
use crate::grid_search::{RowOf, mask32};
use crate::level::Tile;

use super::super::site::{CLOSED_BIT, CORRIDOR_BIT};

/// Bits per row and per column of what stops or ends a look.
#[derive(Default)]
pub(super) struct Lines {
    height: usize,
    /// A cell's column and row by a multiply (and the level's width): every
    /// look and every opened cell asks.
    rows: RowOf,
    /// Words a row (over x) and a column (over y).
    row_words: usize,
    col_words: usize,
    /// Per row, then per column: cells a corridor may not pass, corridor
    /// cells, and walkable cells.
    closed_rows: Vec<u64>,
    corridor_rows: Vec<u64>,
    walkable_rows: Vec<u64>,
    closed_cols: Vec<u64>,
    corridor_cols: Vec<u64>,
    walkable_cols: Vec<u64>,
}

impl Lines {
    /// Reads a level's cells: `classes` has each cell's corridor and
    /// closed bits ([`Rules::corridor_and_closed`](super::super::Rules::corridor_and_closed);
    /// where corridors may pass is fixed while they are carved), `tiles`
    /// what stands on each cell now.
    pub(super) fn read(&mut self, width: usize, height: usize, tiles: &[Tile], classes: &[u8]) {
        self.height = height;
        self.rows = RowOf::new(width);
        self.row_words = width.div_ceil(64);
        self.col_words = height.div_ceil(64);
        for v in [
            &mut self.closed_rows,
            &mut self.corridor_rows,
            &mut self.walkable_rows,
        ] {
            v.clear();
            v.resize(height * self.row_words, 0);
        }
        for v in [
            &mut self.closed_cols,
            &mut self.corridor_cols,
            &mut self.walkable_cols,
        ] {
            v.clear();
            v.resize(width * self.col_words, 0);
        }
        let (rw, cw) = (self.row_words, self.col_words);
        // Free rock, most of a level, sets no bit. A row is read 32 cells
        // at a time, each block's three kinds of cell as masks: a row's
        // words take them whole, and only a column's bits are set a cell
        // at a time, from the mask, so nothing branches on a cell.
        const BLOCK: usize = 32;
        for y in 0..height {
            let row = y * width..(y + 1) * width;
            let (tiles, classes) = (&tiles[row.clone()], &classes[row]);
            for (block, (tiles, classes)) in
                tiles.chunks(BLOCK).zip(classes.chunks(BLOCK)).enumerate()
            {
                let any = tiles
                    .iter()
                    .zip(classes)
                    .fold(false, |any, (&tile, &class)| {
                        any | (tile != Tile::Rock) | (class != 0)
                    });
                if !any {
                    continue;
                }
                let closed = mask32(classes, |c| c & CLOSED_BIT != 0);
                let corridor = mask32(classes, |c| c & CORRIDOR_BIT != 0);
                let walkable = mask32(tiles, |t: Tile| t.is_walkable());
                // Blocks start at multiples of 32, so each is half a word.
                let x0 = block * BLOCK;
                let (ri, shift) = (y * rw + x0 / 64, x0 % 64);
                self.closed_rows[ri] |= u64::from(closed) << shift;
                self.corridor_rows[ri] |= u64::from(corridor) << shift;
                self.walkable_rows[ri] |= u64::from(walkable) << shift;
                let (cbit, cword) = (1u64 << (y % 64), y / 64);
                for (bits, cols) in [
                    (closed, &mut self.closed_cols),
                    (corridor, &mut self.corridor_cols),
                    (walkable, &mut self.walkable_cols),
                ] {
                    let mut bits = bits;
                    while bits != 0 {
                        let x = x0 + bits.trailing_zeros() as usize;
                        cols[x * cw + cword] |= cbit;
                        bits &= bits - 1;
                    }
                }
            }
        }
    }

    /// Records what cell `c` now holds (a corridor or a door opened).
    pub(super) fn mark(&mut self, c: usize, tile: Tile) {
        let (x, y) = self.rows.xy(c);
        let (rbit, cbit) = (1u64 << (x % 64), 1u64 << (y % 64));
        let (ri, ci) = (y * self.row_words + x / 64, x * self.col_words + y / 64);
        if tile == Tile::Corridor {
            self.corridor_rows[ri] |= rbit;
            self.corridor_cols[ci] |= cbit;
        }
        if tile.is_walkable() {
            self.walkable_rows[ri] |= rbit;
            self.walkable_cols[ci] |= cbit;
        }
    }

    /// The first step `k` (1 to `look`) of the line from cell `end` in
    /// direction `d` whose cell is closed to corridors, is a corridor, or
    /// has a walkable cell beside the line; `None` if all `look` cells are
    /// free rock with nothing walkable beside them. `end` is free, so off
    /// the border, and the border is closed: the line never leaves the
    /// level.
    pub(super) fn first_event(&self, end: usize, d: Dir, look: usize) -> Option<usize> {
        let (x, y) = self.rows.xy(end);
        // Along a row (east, west) or down a column (south, north): the
        // line's own bits and its two neighbours' walkable bits.
        let (line, pos, words, closed, corridor, walkable) = match d {
            Dir::East | Dir::West => (
                y,
                x,
                self.row_words,
                &self.closed_rows,
                &self.corridor_rows,
                &self.walkable_rows,
            ),
            Dir::North | Dir::South => (
                x,
                y,
                self.col_words,
                &self.closed_cols,
                &self.corridor_cols,
                &self.walkable_cols,
            ),
        };
        let word = |i: usize| {
            let at = |v: &[u64], l: usize| v[l * words + i];
            at(closed, line) | at(corridor, line) | at(walkable, line - 1) | at(walkable, line + 1)
        };
        let forward = matches!(d, Dir::East | Dir::South);
        let found = if forward {
            let last = pos + look;
            first_set(pos + 1, last.min(words * 64 - 1), word)
        } else {
            last_set(pos.saturating_sub(look), pos - 1, word)
        }?;
        let k = found.abs_diff(pos);
        (k <= look).then_some(k)
    }
}

/// Word `i` of the bits `word` gives, with only bits `a` to `b`
/// (inclusive) kept.
fn masked(i: usize, a: usize, b: usize, word: &impl Fn(usize) -> u64) -> u64 {
    let mut bits = word(i);
    if i == a / 64 {
        bits &= u64::MAX << (a % 64);
    }
    if i == b / 64 && b % 64 != 63 {
        bits &= (1u64 << (b % 64 + 1)) - 1;
    }
    bits
}

/// The lowest bit from `a` to `b` (inclusive) set in the words `word`
/// gives.
fn first_set(a: usize, b: usize, word: impl Fn(usize) -> u64) -> Option<usize> {
    if a > b {
        return None;
    }
    (a / 64..=b / 64).find_map(|i| {
        let bits = masked(i, a, b, &word);
        (bits != 0).then(|| i * 64 + bits.trailing_zeros() as usize)
    })
}

/// The highest bit from `a` to `b` (inclusive) set in the words `word`
/// gives.
fn last_set(a: usize, b: usize, word: impl Fn(usize) -> u64) -> Option<usize> {
    if a > b {
        return None;
    }
    (a / 64..=b / 64).rev().find_map(|i| {
        let bits = masked(i, a, b, &word);
        (bits != 0).then(|| i * 64 + 63 - bits.leading_zeros() as usize)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_and_last_bits_across_words() {
        let words = [0u64, 1 << 3, 0, 1 << 63];
        let word = |i: usize| words[i];
        assert_eq!(first_set(0, 255, word), Some(67));
        assert_eq!(first_set(68, 255, word), Some(255));
        assert_eq!(first_set(68, 254, word), None);
        assert_eq!(last_set(0, 255, word), Some(255));
        assert_eq!(last_set(0, 254, word), Some(67));
        assert_eq!(last_set(0, 66, word), None);
        assert_eq!(first_set(5, 4, word), None);
    }
}
