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
use crate::grid_search::RowOf;
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
        // Eight cells at a time, as the bytes of a word: the flag asked of
        // each byte is one bit of it (or its being nonzero), moved to the
        // byte's low bit, and one multiply gathers the eight low bits into
        // a byte. A cell a time, the rows took a twentieth of a level.
        const LOW: u64 = 0x0101_0101_0101_0101;
        const GATHER: u64 = 0x0102_0408_1020_4080;
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        let gather = |low_bits: u64| low_bits.wrapping_mul(GATHER) >> 56;
        // A byte's low bit set where the byte is nonzero: its low seven
        // bits plus 0x7f carry into its high bit unless they are all 0.
        let nonzero = |v: u64| ((((v & LOW7) + LOW7) | v) >> 7) & LOW;
        for y in 0..height {
            let row = y * width..(y + 1) * width;
            let (tiles, classes) = (&tiles[row.clone()], &classes[row]);
            let words = y * rw;
            let mut eights = tiles.chunks_exact(8).zip(classes.chunks_exact(8));
            for (k, (t, c)) in (&mut eights).enumerate() {
                let t: &[Tile; 8] = t.try_into().expect("eight cells");
                let c: &[u8; 8] = c.try_into().expect("eight cells");
                let (t, c) = (
                    u64::from_le_bytes(t.map(|t| t as u8)),
                    u64::from_le_bytes(*c),
                );
                let (word, shift) = (words + k / 8, 8 * (k % 8));
                self.closed_rows[word] |= gather(c >> CLOSED_BIT.trailing_zeros() & LOW) << shift;
                self.corridor_rows[word] |=
                    gather(c >> CORRIDOR_BIT.trailing_zeros() & LOW) << shift;
                // Every tile but rock is walkable.
                self.walkable_rows[word] |= gather(nonzero(t)) << shift;
            }
            let done = width / 8 * 8;
            for x in done..width {
                let (word, bit) = (words + x / 64, 1u64 << (x % 64));
                let (tile, class) = (tiles[x], classes[x]);
                if class & CLOSED_BIT != 0 {
                    self.closed_rows[word] |= bit;
                }
                if class & CORRIDOR_BIT != 0 {
                    self.corridor_rows[word] |= bit;
                }
                if tile.is_walkable() {
                    self.walkable_rows[word] |= bit;
                }
            }
        }
        // The columns are the rows turned over, 64 by 64 cells at a time:
        // setting a column's bit for each cell that has one scattered a
        // store per closed or walkable cell, a tenth of a DeadEnd level.
        for (rows, cols) in [
            (&self.closed_rows, &mut self.closed_cols),
            (&self.corridor_rows, &mut self.corridor_cols),
            (&self.walkable_rows, &mut self.walkable_cols),
        ] {
            turn_over(rows, rw, height, cols, cw, width);
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
        // The line's own bits and its neighbours' walkable bits: a line's
        // words, then the lines either side (the end is off the border).
        let (own, before, after) = (line * words, (line - 1) * words, (line + 1) * words);
        let word = |i: usize| {
            if i < words {
                closed[own + i] | corridor[own + i] | walkable[before + i] | walkable[after + i]
            } else {
                0
            }
        };
        debug_assert!((1..=64).contains(&look));
        // The look's cells lie in two words at most: both in one window,
        // the nearest cell at bit 0 going forward, at bit 63 going back.
        // The window ends where the grid does (no bits past it).
        if matches!(d, Dir::East | Dir::South) {
            let first = pos + 1;
            let (i, shift) = (first / 64, first % 64);
            let window = ((u128::from(word(i + 1)) << 64 | u128::from(word(i))) >> shift) as u64;
            let seen = window & (u64::MAX >> (64 - look));
            (seen != 0).then(|| seen.trailing_zeros() as usize + 1)
        } else {
            let first = pos - 1;
            let (i, shift) = (first / 64, first % 64);
            let below = if i > 0 { word(i - 1) } else { 0 };
            let window =
                ((u128::from(word(i)) << 64 | u128::from(below)) << (63 - shift) >> 64) as u64;
            let seen = window & !u64::MAX.checked_shr(look as u32).unwrap_or(0);
            (seen != 0).then(|| seen.leading_zeros() as usize + 1)
        }
    }
}

/// The columns of a grid of bits (`height` rows of `row_words` words,
/// cell x of a row at bit x % 64 of word x / 64) into `cols` (`width`
/// columns of `col_words` words, cell y of a column at bit y % 64 of word
/// y / 64), a block of 64 by 64 cells at a time.
fn turn_over(
    rows: &[u64],
    row_words: usize,
    height: usize,
    cols: &mut [u64],
    col_words: usize,
    width: usize,
) {
    let mut block = [0u64; 64];
    for by in 0..col_words {
        let ys = by * 64..((by + 1) * 64).min(height);
        for bx in 0..row_words {
            block.fill(0);
            for (word, y) in block.iter_mut().zip(ys.clone()) {
                *word = rows[y * row_words + bx];
            }
            transpose64(&mut block);
            for (j, &word) in block.iter().enumerate().take(width - bx * 64) {
                cols[(bx * 64 + j) * col_words + by] = word;
            }
        }
    }
}

/// Transposes a 64 by 64 matrix of bits in place: bit j of word i goes
/// to bit i of word j. The off-diagonal halves swap, then their halves,
/// down to single bits: six rounds of 32 word operations.
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            // Row k's bits j..2j trade places with row k + j's bits 0..j.
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small fixed stream of words (a 64-bit LCG) for the grids below.
    fn draws(seed: u64) -> impl FnMut() -> u64 {
        let mut state = seed;
        move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state
        }
    }

    /// Every row and column bit says what its cell is, on grids whose
    /// rows end part way through a group of eight and a word.
    #[test]
    fn read_sets_each_cells_bits() {
        let mut draw = draws(7);
        let mut next = move || (draw() >> 33) as usize;
        for (width, height) in [(3, 3), (150, 150), (67, 9), (80, 21), (129, 70)] {
            let n = width * height;
            let tiles: Vec<Tile> = (0..n).map(|_| Tile::ALL[next() % 8]).collect();
            let classes: Vec<u8> = (0..n).map(|_| (next() % 4) as u8).collect();
            let mut lines = Lines::default();
            lines.read(width, height, &tiles, &classes);
            let (rw, cw) = (lines.row_words, lines.col_words);
            for y in 0..height {
                for x in 0..width {
                    let c = y * width + x;
                    let row = |v: &[u64]| v[y * rw + x / 64] >> (x % 64) & 1 == 1;
                    let col = |v: &[u64]| v[x * cw + y / 64] >> (y % 64) & 1 == 1;
                    let closed = classes[c] & CLOSED_BIT != 0;
                    let corridor = classes[c] & CORRIDOR_BIT != 0;
                    let walkable = tiles[c].is_walkable();
                    assert_eq!(row(&lines.closed_rows), closed, "{width}x{height} {x},{y}");
                    assert_eq!(col(&lines.closed_cols), closed, "{width}x{height} {x},{y}");
                    assert_eq!(row(&lines.corridor_rows), corridor);
                    assert_eq!(col(&lines.corridor_cols), corridor);
                    assert_eq!(row(&lines.walkable_rows), walkable);
                    assert_eq!(col(&lines.walkable_cols), walkable);
                }
            }
        }
    }

    #[test]
    fn transpose_moves_every_bit_across_the_diagonal() {
        let mut draw = draws(0x9E37_79B9_7F4A_7C15);
        for _ in 0..20 {
            let a: [u64; 64] = std::array::from_fn(|_| draw());
            let mut t = a;
            transpose64(&mut t);
            for (i, &row) in a.iter().enumerate() {
                for (j, &col) in t.iter().enumerate() {
                    assert_eq!(row >> j & 1, col >> i & 1, "bit {j} of word {i}");
                }
            }
        }
    }

    /// Columns turned over from rows agree with columns read cell by
    /// cell, on grids that end part way through a block.
    #[test]
    fn turned_over_columns_match_the_cells() {
        for (width, height) in [(1, 1), (3, 70), (150, 150), (64, 64), (130, 65), (200, 7)] {
            let (rw, cw) = (usize::div_ceil(width, 64), usize::div_ceil(height, 64));
            let set = |x: usize, y: usize| (x * 7 + y * 13 + x * y).is_multiple_of(5);
            let mut rows = vec![0u64; height * rw];
            for y in 0..height {
                for x in 0..width {
                    if set(x, y) {
                        rows[y * rw + x / 64] |= 1 << (x % 64);
                    }
                }
            }
            let mut cols = vec![u64::MAX; width * cw];
            turn_over(&rows, rw, height, &mut cols, cw, width);
            for x in 0..width {
                for y in 0..cw * 64 {
                    let bit = cols[x * cw + y / 64] >> (y % 64) & 1 == 1;
                    assert_eq!(bit, y < height && set(x, y), "{width}x{height} at {x},{y}");
                }
            }
        }
    }

    /// The first event of every line from every free cell, each way,
    /// for looks short and long, is where walking the line cell by cell
    /// first meets a closed cell, a corridor, or a walkable cell beside it.
    #[test]
    fn first_event_is_where_a_walk_meets_something() {
        let mut draw = draws(11);
        let mut next = move || (draw() >> 33) as usize;
        for (width, height, sparse) in [(150, 150, 60), (67, 130, 20), (80, 21, 8), (200, 9, 40)] {
            let n = width * height;
            let border = |c: usize| {
                let (x, y) = (c % width, c / width);
                x == 0 || y == 0 || x + 1 == width || y + 1 == height
            };
            let tiles: Vec<Tile> = (0..n)
                .map(|c| match next() % sparse {
                    _ if border(c) => Tile::Rock,
                    0 => Tile::Corridor,
                    1 => Tile::Floor,
                    _ => Tile::Rock,
                })
                .collect();
            let classes: Vec<u8> = (0..n)
                .map(|c| match tiles[c] {
                    _ if border(c) => CLOSED_BIT,
                    Tile::Corridor => CORRIDOR_BIT,
                    Tile::Floor => CLOSED_BIT,
                    _ if next() % sparse == 0 => CLOSED_BIT,
                    _ => 0,
                })
                .collect();
            let mut lines = Lines::default();
            lines.read(width, height, &tiles, &classes);
            for end in (0..n).filter(|&c| classes[c] == 0) {
                for d in Dir::ALL {
                    for look in [1, 7, 32, 64] {
                        let walked = (1..=look).find(|&k| {
                            let (x, y) = ((end % width) as isize, (end / width) as isize);
                            let (x, y) = (
                                x + d.dx() as isize * k as isize,
                                y + d.dy() as isize * k as isize,
                            );
                            if x < 0 || y < 0 || x >= width as isize || y >= height as isize {
                                return false;
                            }
                            let c = y as usize * width + x as usize;
                            let beside = [d.left(), d.right()].into_iter().any(|e| {
                                let (bx, by) = (x + e.dx() as isize, y + e.dy() as isize);
                                bx >= 0
                                    && by >= 0
                                    && (bx as usize) < width
                                    && (by as usize) < height
                                    && tiles[by as usize * width + bx as usize].is_walkable()
                            });
                            classes[c] != 0 || beside
                        });
                        assert_eq!(
                            lines.first_event(end, d, look),
                            walked,
                            "{width}x{height} from {end} going {d:?}, look {look}"
                        );
                    }
                }
            }
        }
    }
}
