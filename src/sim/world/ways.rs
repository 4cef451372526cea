//! What every cell of a level is to one walker, read once and kept while
//! the level stays as it was.
//!
//! A walk asks "what is this neighbour to me" eight times a cell it
//! expands, and the autopilot's walk expands thousands of cells a turn.
//! Asked of the level, each answer finds the cell's position, checks the
//! border and looks up the tile and the two corners; read off a table by
//! index it is a load or three. The table is rebuilt only for the cells
//! whose tiles changed (a door opened or found, rock dug), which a copy of
//! the tiles shows.

use crate::grid_search::KING_MOVES as DIRECTIONS;
use crate::level::{Level, Tile};
use crate::sim::world::doors::{Doors, Walker, Way};

/// Each cell's [`Way`] to one walker, with the tiles it was read from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ways {
    tiles: Vec<Tile>,
    width: usize,
    height: usize,
    walker: Option<Walker>,
    way: Vec<Way>,
    /// Per cell, a bit per direction of [`DIRECTIONS`]: set where the step
    /// that way is not [`Way::Wall`] (`moves`), and where it is a door to
    /// open (`doors`). A walk expanding a cell visits only those bits.
    moves: Vec<u8>,
    doors: Vec<u8>,
    /// The index offset of each direction.
    offsets: [isize; 8],
    /// The cells of one kind of tile, as asked for last, with the version
    /// they were listed at: the autopilot's search for secret doors looks
    /// at every corridor cell each turn it weighs searching.
    listed: Option<(Tile, u64, Vec<u32>)>,
    /// Counts the changes to the table: a reader that kept something
    /// derived from it knows whether it is still current.
    version: u64,
    /// What the last change was.
    last: Change,
}

/// How the table last changed.
#[derive(Clone, Debug, Default)]
pub(crate) enum Change {
    /// Read afresh: another level, another walker, or the first read.
    #[default]
    Rebuilt,
    /// Some cells' tiles changed. `opened`: those that were walls and are
    /// not now; `closed`: whether any cell became a wall.
    Cells { opened: Vec<u32>, closed: bool },
}

impl Ways {
    /// Makes the table `level`'s as `walker` sees it, reading again only
    /// the cells whose tiles changed; the cells read, for a work meter.
    pub(crate) fn refresh(&mut self, level: &Level, walker: Walker) -> u64 {
        let tiles = level.tiles();
        let (width, height) = (usize::from(level.width()), usize::from(level.height()));
        if self.walker == Some(walker) && self.width == width && self.height == height {
            if !differs(&self.tiles, tiles) {
                return 0;
            }
            let mut opened = Vec::new();
            let mut changed = Vec::new();
            let mut closed = false;
            for (i, &tile) in tiles.iter().enumerate() {
                if self.tiles[i] == tile {
                    continue;
                }
                let was = self.way[i];
                let now = Self::read_cell(walker, level, i, tile);
                self.way[i] = now;
                self.tiles[i] = tile;
                changed.push(i);
                match (was == Way::Wall, now == Way::Wall) {
                    (true, false) => opened.push(i as u32),
                    (false, true) => closed = true,
                    _ => {}
                }
            }
            // A cell's moves read its eight neighbours' ways (the corners
            // of a diagonal are among them), so a changed cell changes its
            // neighbours' moves.
            let mut read = changed.len() as u64;
            for &i in &changed {
                for n in self.around(i) {
                    self.read_moves(n);
                    read += 1;
                }
            }
            self.version += 1;
            self.last = Change::Cells { opened, closed };
            return read;
        }
        self.tiles.clear();
        self.tiles.extend_from_slice(tiles);
        self.width = width;
        self.height = height;
        self.walker = Some(walker);
        self.way.clear();
        self.way.extend(
            tiles
                .iter()
                .enumerate()
                .map(|(i, &tile)| Self::read_cell(walker, level, i, tile)),
        );
        let w = width as isize;
        self.offsets = DIRECTIONS.map(|(dx, dy)| dy as isize * w + dx as isize);
        self.moves.clear();
        self.moves.resize(tiles.len(), 0);
        self.doors.clear();
        self.doors.resize(tiles.len(), 0);
        for y in 1..height.saturating_sub(1) {
            for x in 1..width - 1 {
                self.read_moves(y * width + x);
            }
        }
        self.version += 1;
        self.last = Change::Rebuilt;
        tiles.len() as u64 * 2
    }

    /// The cells around cell `i` (itself included) that are off the
    /// border: those whose moves can read `i`'s way.
    fn around(&self, i: usize) -> impl Iterator<Item = usize> + use<> {
        let (w, h) = (self.width, self.height);
        let (x, y) = (i % w, i / w);
        (y.saturating_sub(1).max(1)..=(y + 1).min(h.saturating_sub(2))).flat_map(move |ny| {
            (x.saturating_sub(1).max(1)..=(x + 1).min(w.saturating_sub(2)))
                .map(move |nx| ny * w + nx)
        })
    }

    /// Reads cell `c`'s moves (off the border only: a border cell is never
    /// stepped from, and its neighbours may not exist).
    fn read_moves(&mut self, c: usize) {
        let (mut moves, mut doors) = (0u8, 0u8);
        for (k, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let n = (c as isize + self.offsets[k]) as usize;
            match self.step(c, n, dx, dy) {
                Way::Wall => {}
                Way::Door => {
                    moves |= 1 << k;
                    doors |= 1 << k;
                }
                Way::Open => moves |= 1 << k,
            }
        }
        self.moves[c] = moves;
        self.doors[c] = doors;
    }

    /// The cells whose tile is `tile`, in index order: listed again only
    /// when the level changed.
    pub(crate) fn cells_of(&mut self, tile: Tile) -> &[u32] {
        let current = matches!(&self.listed, Some((t, v, _)) if *t == tile && *v == self.version);
        if !current {
            let cells = self
                .tiles
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t == tile)
                .map(|(i, _)| i as u32)
                .collect();
            self.listed = Some((tile, self.version, cells));
        }
        &self.listed.as_ref().expect("just listed").2
    }

    /// The directions a walker on cell `c` may take (a bit each, in
    /// [`DIRECTIONS`] order), and of those the doors it opens.
    #[inline]
    pub(crate) fn moves(&self, c: usize) -> (u8, u8) {
        (self.moves[c], self.doors[c])
    }

    /// The index offset of direction `k` of [`DIRECTIONS`].
    #[inline]
    pub(crate) fn offset(&self, k: usize) -> isize {
        self.offsets[k]
    }

    /// A cell's way: the walker's, but a wall on the border under rules 3
    /// as [`Walker::step`] has it (under rules 1 and 2 the border is rock,
    /// never walkable, and `can_step` asks nothing more).
    fn read_cell(walker: Walker, level: &Level, i: usize, tile: Tile) -> Way {
        if walker.doors == Doors::Doors && level.is_border(level.pos(i)) {
            return Way::Wall;
        }
        walker.way(tile)
    }

    /// Cells across.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Cells in all.
    pub(crate) fn len(&self) -> usize {
        self.way.len()
    }

    /// Counts changes; see the field.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// The last change.
    pub(crate) fn last(&self) -> &Change {
        &self.last
    }

    /// What the step from cell `c` to its neighbour `n`, `(dx, dy)` away,
    /// is to the walker: [`Walker::step`] by index (a diagonal step needs
    /// both corners open). `c` is never on the border.
    #[inline]
    pub(crate) fn step(&self, c: usize, n: usize, dx: i32, dy: i32) -> Way {
        let to = self.way[n];
        if to != Way::Wall && dx != 0 && dy != 0 {
            let a = (c as isize + dx as isize) as usize;
            let b = (c as isize + dy as isize * self.width as isize) as usize;
            if self.way[a] != Way::Open || self.way[b] != Way::Open {
                return Way::Wall;
            }
        }
        to
    }
}

/// Whether two equally long runs of tiles differ anywhere: every pair
/// looked at, without stopping early, which the compiler turns into a
/// few wide compares (a plain `!=` on a slice of enums goes tile by tile).
fn differs(a: &[Tile], b: &[Tile]) -> bool {
    a.len() != b.len()
        || a.iter()
            .zip(b)
            .fold(0u8, |acc, (&x, &y)| acc | (x as u8 ^ y as u8))
            != 0
}
