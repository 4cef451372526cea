//! Vaults: set pieces drawn by hand in a data file, placed by the
//! generator as rooms of their own kind (DCSS `.des` maps and Angband's
//! `vault.txt` in spirit).
//!
//! A vault is drawn as rows of text with a small legend:
//!
//! | glyph | cell |
//! |---|---|
//! | `.` | floor |
//! | `+` | a door; on the drawing's edge, where corridors may join it |
//! | `#` | a corridor cell that belongs to the vault |
//! | space or `x` | solid rock the vault owns (no tunneller digs it) |
//! | `<`, `>` | floor where the generator may put stairs |
//! | a letter | floor with a monster of the kind drawn with that letter |
//! | `?` | a cell the vault leaves to the generator (rock unless claimed) |
//!
//! Short rows are padded with rock, so editors that strip trailing spaces
//! do not change a vault. This module is pure: it turns drafts (as read
//! from a file) into checked [`Vault`]s and turns and flips them; the
//! loader (`vault_file`) reads the file and locates problems in it.

use serde::{Deserialize, Serialize};

use crate::config::Range;

/// The longest side a drawing may have: the largest level's side.
pub const MAX_VAULT_SIDE: usize = crate::config::MAX_SIDE as usize;
/// The most vaults a file (or a saved run) may hold.
pub const MAX_VAULTS_IN_LIST: usize = 1000;
/// The largest weight, so sums of weights stay small.
pub const MAX_WEIGHT: u16 = 10_000;

/// One cell of a vault's drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VaultCell {
    /// Room floor (`.`).
    Floor,
    /// A door (`+`); on the drawing's edge, an entrance for corridors.
    Door,
    /// A corridor cell that belongs to the vault (`#`).
    Corridor,
    /// Rock the vault owns: corridors go round it, tunnellers cannot dig it.
    Rock,
    /// Floor where the generator may put a staircase.
    StairSpot,
    /// Floor with a monster of the kind drawn with this glyph.
    Monster(char),
    /// Left to the generator: rock unless a corridor or room claims it.
    Open,
}

impl VaultCell {
    /// The cell a glyph stands for; `is_monster` says which letters are
    /// monster kinds.
    pub fn from_glyph(glyph: char, is_monster: &dyn Fn(char) -> bool) -> Option<VaultCell> {
        Some(match glyph {
            '.' => VaultCell::Floor,
            '+' => VaultCell::Door,
            '#' => VaultCell::Corridor,
            ' ' | 'x' => VaultCell::Rock,
            '<' | '>' => VaultCell::StairSpot,
            '?' => VaultCell::Open,
            c if c.is_alphabetic() && is_monster(c) => VaultCell::Monster(c),
            _ => return None,
        })
    }

    /// The glyph that draws the cell (`x` for rock, `<` for a stair spot).
    pub fn glyph(self) -> char {
        match self {
            VaultCell::Floor => '.',
            VaultCell::Door => '+',
            VaultCell::Corridor => '#',
            VaultCell::Rock => 'x',
            VaultCell::StairSpot => '<',
            VaultCell::Monster(c) => c,
            VaultCell::Open => '?',
        }
    }

    /// Whether the cell is part of the room's floor (stair places and
    /// monsters stand on floor): what a level counts as the vault's room.
    pub fn is_floor(self) -> bool {
        matches!(
            self,
            VaultCell::Floor | VaultCell::StairSpot | VaultCell::Monster(_)
        )
    }

    /// Whether a player may stand on the cell once the vault is placed.
    pub fn is_walkable(self) -> bool {
        matches!(
            self,
            VaultCell::Floor
                | VaultCell::Door
                | VaultCell::Corridor
                | VaultCell::StairSpot
                | VaultCell::Monster(_)
        )
    }
}

/// A vault as written in the file, before it is checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VaultDraft {
    /// Unique in the file; errors and the JSON export name the vault by it.
    pub name: String,
    /// The depths where the vault may appear.
    pub depths: Range,
    /// How often it is chosen among the vaults that fit a level.
    #[serde(default = "one")]
    pub weight: u16,
    /// Whether it may be turned by quarter turns.
    #[serde(default)]
    pub rotate: bool,
    /// Whether it may be flipped left to right.
    #[serde(default)]
    pub mirror: bool,
    /// The drawing, one string a row (see the legend above).
    pub map: Vec<String>,
}

fn one() -> u16 {
    1
}

/// A checked vault: its floor is one piece, corridors can reach it, every
/// glyph is known.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Vault {
    /// Unique among the vaults of a file.
    pub name: String,
    /// The depths where the vault may appear.
    pub depths: Range,
    /// How often it is chosen among the vaults that fit a level.
    pub weight: u16,
    /// Whether it may be turned by quarter turns.
    pub rotate: bool,
    /// Whether it may be flipped left to right.
    pub mirror: bool,
    drawing: Drawing,
}

/// A grid of vault cells, in one orientation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawing {
    width: u16,
    height: u16,
    cells: Vec<VaultCell>,
}

/// A way to lay a vault down: quarter turns clockwise, then (if
/// `mirrored`) a flip left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orientation {
    /// Quarter turns clockwise, 0 to 3.
    pub quarter_turns: u8,
    /// Whether it is flipped left to right after turning.
    pub mirrored: bool,
}

impl Orientation {
    /// The drawing as it stands in the file.
    pub const AS_DRAWN: Orientation = Orientation {
        quarter_turns: 0,
        mirrored: false,
    };
}

impl Drawing {
    /// Columns of the drawing.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// Rows of the drawing.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// The cell at column `x`, row `y` (0-based).
    pub fn cell(&self, x: u16, y: u16) -> VaultCell {
        self.cells[usize::from(y) * usize::from(self.width) + usize::from(x)]
    }

    /// Every cell with its column and row.
    pub fn cells(&self) -> impl Iterator<Item = (u16, u16, VaultCell)> + '_ {
        let w = usize::from(self.width);
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, &c)| ((i % w) as u16, (i / w) as u16, c))
    }

    /// Doors on the edge of the drawing: the vault's entrances.
    pub fn entrances(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        self.cells()
            .filter(|&(x, y, c)| c == VaultCell::Door && self.on_edge(x, y))
            .map(|(x, y, _)| (x, y))
    }

    fn on_edge(&self, x: u16, y: u16) -> bool {
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// The cells orthogonally next to (x, y) inside the drawing.
    fn neighbours(&self, x: u16, y: u16) -> impl Iterator<Item = (u16, u16)> + '_ {
        [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .map(move |(dx, dy)| (i32::from(x) + dx, i32::from(y) + dy))
            .filter(|&(a, b)| {
                (0..i32::from(self.width)).contains(&a) && (0..i32::from(self.height)).contains(&b)
            })
            .map(|(a, b)| (a as u16, b as u16))
    }

    /// Whether a corridor can come to the edge door at (x, y): on some
    /// side the door faces out of the drawing, with a cell the vault owns
    /// across from it (not `?` and not an edge door, which the generator
    /// leaves out of the vault's room). The generator's rule for a vault
    /// door's porch, read on the drawing alone: placement keeps the cells
    /// round a vault clear of the border and of other rooms.
    fn has_porch(&self, x: u16, y: u16) -> bool {
        let (x, y) = (i32::from(x), i32::from(y));
        let (w, h) = (i32::from(self.width), i32::from(self.height));
        [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)]
            .into_iter()
            .any(|(dx, dy)| {
                let (ox, oy) = (x + dx, y + dy);
                let (ix, iy) = (x - dx, y - dy);
                let out = !((0..w).contains(&ox) && (0..h).contains(&oy));
                out && (0..w).contains(&ix) && (0..h).contains(&iy) && {
                    let (ix, iy) = (ix as u16, iy as u16);
                    match self.cell(ix, iy) {
                        VaultCell::Open => false,
                        VaultCell::Door => !self.on_edge(ix, iy),
                        _ => true,
                    }
                }
            })
    }

    /// The drawing laid down in orientation `o`.
    pub fn oriented(&self, o: Orientation) -> Drawing {
        let (width, height) = self.oriented_size(o);
        let cells = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| self.oriented_cell(o, x, y))
            .collect();
        Drawing {
            width,
            height,
            cells,
        }
    }

    /// Width and height once laid down in orientation `o`.
    pub fn oriented_size(&self, o: Orientation) -> (u16, u16) {
        if o.quarter_turns % 2 == 1 {
            (self.height, self.width)
        } else {
            (self.width, self.height)
        }
    }

    /// The cell at column `x`, row `y` of the drawing laid down in
    /// orientation `o`, read from the drawing as it is, without laying it
    /// down: the turns and the flip undone on the coordinates.
    pub fn oriented_cell(&self, o: Orientation, x: u16, y: u16) -> VaultCell {
        let (mut w, mut h) = self.oriented_size(o);
        let (mut x, mut y) = (x, y);
        if o.mirrored {
            x = w - 1 - x;
        }
        for _ in 0..o.quarter_turns % 4 {
            // A quarter turn clockwise took (x', y') of the drawing before
            // it to (h' - 1 - y', x'), h' its height (our width).
            (x, y) = (y, w - 1 - x);
            (w, h) = (h, w);
        }
        self.cell(x, y)
    }

    /// Whether orientations `a` and `b` lay the drawing down alike.
    fn same_laid(&self, a: Orientation, b: Orientation) -> bool {
        let (w, h) = self.oriented_size(a);
        (w, h) == self.oriented_size(b)
            && (0..h)
                .all(|y| (0..w).all(|x| self.oriented_cell(a, x, y) == self.oriented_cell(b, x, y)))
    }

    /// A quarter turn clockwise: the first row becomes the last column.
    /// (The reference `oriented` is checked against.)
    #[cfg(test)]
    fn turned(&self) -> Drawing {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        let mut cells = Vec::with_capacity(w * h);
        // New row y is old column y read bottom to top.
        for y in 0..w {
            for x in 0..h {
                cells.push(self.cells[(h - 1 - x) * w + y]);
            }
        }
        Drawing {
            width: self.height,
            height: self.width,
            cells,
        }
    }

    #[cfg(test)]
    fn mirrored(&self) -> Drawing {
        let w = usize::from(self.width);
        let mut cells = self.cells.clone();
        for row in cells.chunks_mut(w) {
            row.reverse();
        }
        Drawing {
            width: self.width,
            height: self.height,
            cells,
        }
    }

    /// The drawing as rows of glyphs (rock as `x`).
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .chunks(usize::from(self.width))
            .map(|row| row.iter().map(|c| c.glyph()).collect())
            .collect()
    }
}

impl Vault {
    /// The vault as drawn.
    pub fn drawing(&self) -> &Drawing {
        &self.drawing
    }

    /// The orientations the vault allows, each giving a different drawing
    /// listed once (a square room turned twice may look the same).
    pub fn orientations(&self) -> Vec<Orientation> {
        let mut out = Vec::with_capacity(8);
        self.orientations_into(&mut out);
        out
    }

    /// [`Vault::orientations`] into `out` (cleared first), so a caller
    /// placing vault after vault keeps one list.
    pub(crate) fn orientations_into(&self, out: &mut Vec<Orientation>) {
        let turns: &[u8] = if self.rotate { &[0, 1, 2, 3] } else { &[0] };
        let flips: &[bool] = if self.mirror {
            &[false, true]
        } else {
            &[false]
        };
        out.clear();
        for &quarter_turns in turns {
            for &mirrored in flips {
                let o = Orientation {
                    quarter_turns,
                    mirrored,
                };
                if !out.iter().any(|&seen| self.drawing.same_laid(seen, o)) {
                    out.push(o);
                }
            }
        }
    }

    /// Whether the vault can stand in a `width` x `height` level: inside
    /// the rock border with two cells of rock round it, so corridors can
    /// reach its doors.
    pub fn fits(&self, width: u16, height: u16) -> bool {
        let (w, h) = (
            u32::from(self.drawing.width),
            u32::from(self.drawing.height),
        );
        let (lw, lh) = (u32::from(width), u32::from(height));
        let fits = |a: u32, b: u32, la: u32, lb: u32| a + 6 <= la && b + 6 <= lb;
        fits(w, h, lw, lh) || (self.rotate && fits(h, w, lw, lh))
    }

    /// Checks a list of vaults read from a save or a journal, which may be
    /// damaged or forged, as the vault file's loader would: every vault
    /// must read back from its own rows exactly, and names be unique.
    pub fn check_list(vaults: &[Vault]) -> Result<(), String> {
        if vaults.len() > MAX_VAULTS_IN_LIST {
            return Err(format!(
                "{} vaults (at most {MAX_VAULTS_IN_LIST})",
                vaults.len()
            ));
        }
        for (i, v) in vaults.iter().enumerate() {
            v.check().map_err(|what| format!("vault {i}: {what}"))?;
            if vaults[..i].iter().any(|o| o.name == v.name) {
                return Err(format!("vault {i}: the name {:?} is taken", v.name));
            }
        }
        Ok(())
    }

    fn check(&self) -> Result<(), String> {
        let d = &self.drawing;
        let (w, h) = (usize::from(d.width), usize::from(d.height));
        if w == 0 || h == 0 || w > MAX_VAULT_SIDE || h > MAX_VAULT_SIDE || d.cells.len() != w * h {
            return Err(format!("a {w}x{h} drawing of {} cells", d.cells.len()));
        }
        let draft = VaultDraft {
            name: self.name.clone(),
            depths: self.depths,
            weight: self.weight,
            rotate: self.rotate,
            mirror: self.mirror,
            map: d.rows(),
        };
        let rebuilt = build_as(&[draft], &|c| c.is_alphabetic(), Usable::NotRequired)
            .map_err(|p| p.to_string())?;
        if rebuilt[0] != *self {
            return Err(format!("{:?} does not read back as drawn", self.name));
        }
        Ok(())
    }

    /// Whether the vault may appear at `depth`.
    pub fn allows_depth(&self, depth: u16) -> bool {
        (self.depths.min..=self.depths.max).contains(&depth)
    }
}

/// The vaults delve ships (`data/vaults.ron`, built in), checked once. Any
/// letter is taken for a monster here, since this module knows no monster
/// kinds; a test holds the file to the shipped kinds, and a letter with no
/// kind places no monster.
pub fn shipped() -> &'static [Vault] {
    static SHIPPED: std::sync::OnceLock<Vec<Vault>> = std::sync::OnceLock::new();
    SHIPPED.get_or_init(|| {
        let drafts: Vec<VaultDraft> = ron::from_str(include_str!("../data/vaults.ron"))
            .expect("data/vaults.ron is valid RON (tests/vaults.rs)");
        build(&drafts, &|c| c.is_alphabetic()).expect("data/vaults.ron is valid")
    })
}

/// What is wrong with one vault of a file: which vault, which of its
/// fields, and for a drawing the cell (1-based row and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("vault \"{}\"{}: {message}", name.escape_debug(), cell.map_or(String::new(), |(r, c)| format!(", map row {r}, column {c}")))]
pub struct VaultProblem {
    /// Index of the vault in the file.
    pub vault: usize,
    /// The vault's name as written.
    pub name: String,
    /// `name`, `depths`, `weight` or `map`.
    pub field: &'static str,
    /// Row and column (1-based) in the drawing.
    pub cell: Option<(usize, usize)>,
    /// What is wrong, and what would do.
    pub message: String,
}

/// Checks drafts and makes vaults. `is_monster` says which letters are
/// monster kinds. The first problem found is returned.
pub fn build(
    drafts: &[VaultDraft],
    is_monster: &dyn Fn(char) -> bool,
) -> Result<Vec<Vault>, VaultProblem> {
    build_as(drafts, is_monster, Usable::Required)
}

/// Whether [`build`] holds drawings to what a level needs of them
/// ([`usable`]). A vaults file is; a vault list read back from a save or
/// journal is not: its run proved every level it has not reached when it
/// began and proves them again on load, so a vault no level can use was
/// never placed, and refusing the run for it now would lose a game that
/// plays.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Usable {
    Required,
    NotRequired,
}

fn build_as(
    drafts: &[VaultDraft],
    is_monster: &dyn Fn(char) -> bool,
    usable_required: Usable,
) -> Result<Vec<Vault>, VaultProblem> {
    let mut vaults: Vec<Vault> = Vec::with_capacity(drafts.len());
    for (i, draft) in drafts.iter().enumerate() {
        let problem =
            |field: &'static str, cell: Option<(usize, usize)>, message: String| VaultProblem {
                vault: i,
                name: draft.name.clone(),
                field,
                cell,
                message,
            };
        if i >= MAX_VAULTS_IN_LIST {
            return Err(problem(
                "name",
                None,
                format!("a vault file holds at most {MAX_VAULTS_IN_LIST} vaults"),
            ));
        }
        if draft.name.trim().is_empty() {
            return Err(problem("name", None, "a vault needs a name".into()));
        }
        // Names reach terminals (errors, and whatever shows a level's
        // vaults): an escape sequence in one would be obeyed, not shown.
        if draft.name.chars().any(char::is_control) {
            return Err(problem(
                "name",
                None,
                "must not contain control characters".into(),
            ));
        }
        if let Some(first) = drafts[..i].iter().position(|d| d.name == draft.name) {
            return Err(problem(
                "name",
                None,
                format!("the name is already that of entry {first}"),
            ));
        }
        let Range { min, max } = draft.depths;
        if min == 0 || min > max {
            return Err(problem(
                "depths",
                None,
                format!("must be a range of depths from 1 up, min <= max; got {min} to {max}"),
            ));
        }
        if !(1..=MAX_WEIGHT).contains(&draft.weight) {
            return Err(problem(
                "weight",
                None,
                format!("must be from 1 to {MAX_WEIGHT}, got {}", draft.weight),
            ));
        }
        let drawing = draw(&draft.map, is_monster)
            .and_then(|d| match usable_required {
                Usable::Required => usable(&d).map(|()| d),
                Usable::NotRequired => Ok(d),
            })
            .map_err(|(cell, message)| problem("map", cell, message))?;
        vaults.push(Vault {
            name: draft.name.clone(),
            depths: draft.depths,
            weight: draft.weight,
            rotate: draft.rotate,
            mirror: draft.mirror,
            drawing,
        });
    }
    Ok(vaults)
}

/// A drawing from rows of glyphs, checked. Errors carry the 1-based (row,
/// column) they are about, if any.
fn draw(
    rows: &[String],
    is_monster: &dyn Fn(char) -> bool,
) -> Result<Drawing, (Option<(usize, usize)>, String)> {
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    if rows.is_empty() || width == 0 {
        return Err((None, "the map is empty".into()));
    }
    if rows.len() > MAX_VAULT_SIDE || width > MAX_VAULT_SIDE {
        return Err((
            None,
            format!(
                "the map is {width}x{} cells; a vault is at most {MAX_VAULT_SIDE} a side",
                rows.len()
            ),
        ));
    }
    let mut cells = Vec::with_capacity(width * rows.len());
    for (r, row) in rows.iter().enumerate() {
        for (c, glyph) in row.chars().enumerate() {
            let cell = VaultCell::from_glyph(glyph, is_monster).ok_or_else(|| {
                let what = if glyph.is_alphabetic() {
                    format!("'{glyph}' is not a known glyph or monster")
                } else {
                    format!("{glyph:?} is not a known glyph or monster")
                };
                (
                    Some((r + 1, c + 1)),
                    format!(
                        "{what} (the legend: . floor, + door, # corridor, space or x rock, < > \
                         stairs, ? left to the generator, or a monster's letter)"
                    ),
                )
            })?;
            cells.push(cell);
        }
        cells.resize((r + 1) * width, VaultCell::Rock);
    }
    let d = Drawing {
        width: width as u16,
        height: rows.len() as u16,
        cells,
    };
    let at = |x: u16, y: u16| Some((usize::from(y) + 1, usize::from(x) + 1));
    // The edge is the vault's wall: only doors open it.
    if let Some((x, y, c)) = d
        .cells()
        .find(|&(x, y, c)| d.on_edge(x, y) && c.is_walkable() && c != VaultCell::Door)
    {
        return Err((
            at(x, y),
            format!(
                "'{}' on the edge of the map: the edge is the vault's wall (rock, ? or a + door)",
                rows[usize::from(y)]
                    .chars()
                    .nth(usize::from(x))
                    .unwrap_or(c.glyph())
            ),
        ));
    }
    if d.entrances().next().is_none() {
        return Err((
            None,
            "the vault has no door on its edge: corridors reach a vault only through a + on its \
             outer rows or columns"
                .into(),
        ));
    }
    // Every door leads somewhere inside.
    let inside = |x: u16, y: u16| -> bool {
        let mut n = Vec::with_capacity(4);
        if x > 0 {
            n.push((x - 1, y));
        }
        if y > 0 {
            n.push((x, y - 1));
        }
        if x + 1 < d.width {
            n.push((x + 1, y));
        }
        if y + 1 < d.height {
            n.push((x, y + 1));
        }
        n.into_iter().any(|(a, b)| d.cell(a, b).is_walkable())
    };
    if let Some((x, y, _)) = d
        .cells()
        .find(|&(x, y, c)| c == VaultCell::Door && !inside(x, y))
    {
        return Err((at(x, y), "this door leads to no floor of the vault".into()));
    }
    // The floor, doors counted as floor, is one piece.
    let (w, h) = (usize::from(d.width), usize::from(d.height));
    let walkable: Vec<bool> = d.cells.iter().map(|c| c.is_walkable()).collect();
    let mut piece = vec![false; w * h];
    if let Some(start) = walkable.iter().position(|&b| b) {
        let mut stack = vec![start];
        piece[start] = true;
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let mut visit = |j: usize| {
                if walkable[j] && !piece[j] {
                    piece[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
    }
    if let Some(i) = (0..w * h).find(|&i| walkable[i] && !piece[i]) {
        return Err((
            at((i % w) as u16, (i / w) as u16),
            "this floor is cut off from the rest of the vault (its floor must be one piece, \
             doors counted as floor)"
                .into(),
        ));
    }
    Ok(d)
}

/// What a level needs of a drawing, checked on the drawing alone: floor,
/// and edge doors a corridor can take. Errors as [`draw`]'s.
fn usable(d: &Drawing) -> Result<(), (Option<(usize, usize)>, String)> {
    let at = |x: u16, y: u16| Some((usize::from(y) + 1, usize::from(x) + 1));
    // A level knows a room by its floor: a vault of doors and corridors
    // alone would be a room nothing joins, and every level it stood in
    // would fail its own checks.
    if !d.cells.iter().any(|c| c.is_floor()) {
        return Err((
            None,
            "the vault has no floor: a vault is a room, and needs at least one cell of floor \
             (., < or >, or a monster's letter) for its doors to lead to"
                .into(),
        ));
    }
    // An inner door is a way between two places: with one open side it
    // would lead nowhere in every level the vault stood in.
    if let Some((x, y, _)) = d.cells().find(|&(x, y, c)| {
        c == VaultCell::Door
            && !d.on_edge(x, y)
            && d.neighbours(x, y)
                .filter(|&(a, b)| d.cell(a, b).is_walkable())
                .count()
                < 2
    }) {
        return Err((
            at(x, y),
            "this door inside the vault opens onto one cell only: a door is a way between two              places, so put floor (.) or corridor (#) on its other side too, or draw it as              wall (x)"
                .into(),
        ));
    }
    // Each edge door must be one a corridor can take, or a level would
    // try it in vain: corridors open no door beside another door, and
    // come to an edge door straight from outside, across from a cell the
    // vault owns (what the generator calls the door's porch).
    for (x, y) in d.entrances() {
        if let Some((ix, iy)) = d
            .neighbours(x, y)
            .find(|&(a, b)| d.cell(a, b) == VaultCell::Door && !d.on_edge(a, b))
        {
            return Err((
                at(x, y),
                format!(
                    "this door on the edge opens onto the inner door at row {}, column {}: a \
                     corridor never opens a door beside another door, so none could come in \
                     here; put floor (.) or corridor (#) between them",
                    iy + 1,
                    ix + 1
                ),
            ));
        }
        if !d.has_porch(x, y) {
            return Err((
                at(x, y),
                "no corridor can come to this door: corridors come to a door on the edge \
                 straight from outside, across from a cell of the vault's own (floor, \
                 corridor, rock or an inner door), and this door has ? or another edge door \
                 there"
                    .into(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn monsters(c: char) -> bool {
        "rkoWUb".contains(c)
    }

    fn draft(name: &str, map: &[&str]) -> VaultDraft {
        VaultDraft {
            name: name.into(),
            depths: Range::new(1, 10),
            weight: 1,
            rotate: true,
            mirror: true,
            map: map.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn one(map: &[&str]) -> Result<Vault, VaultProblem> {
        build(&[draft("v", map)], &monsters).map(|mut v| v.remove(0))
    }

    #[test]
    fn legend_reads_every_glyph() {
        let v = one(&["xxx+xxx", "x.<>k.x", "x#?...x", "xxxxxxx"]).unwrap();
        let d = v.drawing();
        assert_eq!((d.width(), d.height()), (7, 4));
        assert_eq!(d.cell(3, 0), VaultCell::Door);
        assert_eq!(d.cell(2, 1), VaultCell::StairSpot);
        assert_eq!(d.cell(4, 1), VaultCell::Monster('k'));
        assert_eq!(d.cell(1, 2), VaultCell::Corridor);
        assert_eq!(d.cell(2, 2), VaultCell::Open);
        assert_eq!(d.cell(0, 3), VaultCell::Rock);
        assert_eq!(d.entrances().collect::<Vec<_>>(), vec![(3, 0)]);
    }

    #[test]
    fn short_rows_are_padded_with_rock() {
        let v = one(&["xx+xx", "x...x", "xxx"]).unwrap();
        assert_eq!(v.drawing().rows(), vec!["xx+xx", "x...x", "xxxxx"]);
    }

    /// Laying a drawing down by reading its cells through the orientation
    /// gives what turning it cell by cell and flipping it gave, for every
    /// shipped vault and all eight orientations; and the orientations a
    /// vault lists are those whose drawings differ.
    #[test]
    fn oriented_cells_agree_with_turning_the_drawing() {
        for v in shipped() {
            let d = v.drawing();
            let mut distinct: Vec<Drawing> = Vec::new();
            for quarter_turns in 0..4 {
                for mirrored in [false, true] {
                    let o = Orientation {
                        quarter_turns,
                        mirrored,
                    };
                    let mut reference = d.clone();
                    for _ in 0..quarter_turns {
                        reference = reference.turned();
                    }
                    if mirrored {
                        reference = reference.mirrored();
                    }
                    assert_eq!(d.oriented(o), reference, "{} {o:?}", v.name);
                    assert_eq!(d.oriented_size(o), (reference.width(), reference.height()));
                    if (v.rotate || quarter_turns == 0)
                        && (v.mirror || !mirrored)
                        && !distinct.contains(&reference)
                    {
                        distinct.push(reference);
                    }
                }
            }
            let listed: Vec<Drawing> = v
                .orientations()
                .into_iter()
                .map(|o| d.oriented(o))
                .collect();
            assert_eq!(listed, distinct, "{}", v.name);
        }
    }

    #[test]
    fn turns_and_flips() {
        let v = one(&["x+xx", "x..x", "x.kx", "xxxx"]).unwrap();
        let d = v.drawing();
        let turned = d.oriented(Orientation {
            quarter_turns: 1,
            mirrored: false,
        });
        assert_eq!(turned.rows(), vec!["xxxx", "x..+", "xk.x", "xxxx"]);
        let flipped = d.oriented(Orientation {
            quarter_turns: 0,
            mirrored: true,
        });
        assert_eq!(flipped.rows(), vec!["xx+x", "x..x", "xk.x", "xxxx"]);
        let full = Orientation {
            quarter_turns: 4,
            mirrored: false,
        };
        assert_eq!(&d.oriented(full), d);
        // Not square: a turn swaps the sides.
        let v = one(&["xx+xx", "x...x", "xxxxx"]).unwrap();
        let t = v.drawing().oriented(Orientation {
            quarter_turns: 3,
            mirrored: true,
        });
        assert_eq!((t.width(), t.height()), (3, 5));
        assert_eq!(t.entrances().count(), 1);
    }

    #[test]
    fn orientations_are_distinct_and_allowed() {
        let mut v = one(&["xx+xx", "x...x", "xk..x", "xxxxx"]).unwrap();
        assert_eq!(v.orientations().len(), 8);
        v.mirror = false;
        assert_eq!(v.orientations().len(), 4);
        v.rotate = false;
        assert_eq!(v.orientations(), vec![Orientation::AS_DRAWN]);
        // Symmetric under every turn and flip: one drawing.
        let mut s = one(&["x+x", "+.+", "x+x"]).unwrap();
        s.rotate = true;
        s.mirror = true;
        assert_eq!(s.orientations().len(), 1);
    }

    #[test]
    fn unknown_glyph_names_row_and_column() {
        let e = one(&["xx+xx", "x..Qx", "xxxxx"]).unwrap_err();
        assert_eq!((e.field, e.cell), ("map", Some((2, 4))));
        assert!(
            e.to_string().starts_with(
                "vault \"v\", map row 2, column 4: 'Q' is not a known glyph or monster"
            )
        );
        // A letter that is no monster's.
        let e = one(&["xx+xx", "x.z.x", "xxxxx"]).unwrap_err();
        assert_eq!(e.cell, Some((2, 3)));
        let e = one(&["xx+xx", "x.\t.x", "xxxxx"]).unwrap_err();
        assert!(e.message.starts_with("'\\t' is not"), "{}", e.message);
    }

    #[test]
    fn refused_vaults() {
        let no_door = one(&["xxxxx", "x...x", "xxxxx"]).unwrap_err();
        assert!(no_door.message.contains("no door"), "{no_door}");
        let inner_only = one(&["xxxxx", "x.+.x", "xxxxx"]).unwrap_err();
        assert!(inner_only.message.contains("no door"));
        let split = one(&["x+xxx", "x.x.x", "xxxxx"]).unwrap_err();
        assert_eq!(split.cell, Some((2, 4)));
        assert!(split.message.contains("one piece"));
        // Doors join the pieces.
        assert!(one(&["x+xxxx", "x.x..x", "x.+..x", "xxxxxx"]).is_ok());
        let floor_edge = one(&["xx+xx", "x....", "xxxxx"]).unwrap_err();
        assert_eq!(floor_edge.cell, Some((2, 5)));
        let nowhere = one(&["+xxxx", "xx..+", "xxxxx"]).unwrap_err();
        assert_eq!(nowhere.cell, Some((1, 1)));
        assert!(one(&[]).unwrap_err().message.contains("empty"));
        assert!(one(&["", ""]).unwrap_err().message.contains("empty"));
    }

    /// A vault list read back from a save or journal is held to what later
    /// code relies on, not to what a level needs: its run proved its stack,
    /// so a vault no level can use was never placed, and the run plays.
    #[test]
    fn a_saved_list_keeps_a_vault_no_level_could_use() {
        let draft = VaultDraft {
            name: "no floor".into(),
            depths: Range::new(1, 5),
            weight: 1,
            rotate: false,
            mirror: false,
            map: vec!["x+x".into(), "x#x".into(), "xxx".into()],
        };
        assert!(build(std::slice::from_ref(&draft), &|_| false).is_err());
        let saved = build_as(&[draft], &|_| false, Usable::NotRequired).unwrap();
        assert_eq!(Vault::check_list(&saved), Ok(()));
    }

    /// What a level needs of a drawing, checked on the drawing: floor for
    /// its doors to lead to, and edge doors a corridor can take.
    #[test]
    fn drawings_a_level_could_not_use_are_refused() {
        let no_floor = one(&["x+x", "x#x", "xxx"]).unwrap_err();
        assert_eq!((no_floor.field, no_floor.cell), ("map", None));
        assert!(no_floor.message.starts_with("the vault has no floor"));
        // Stairs and monsters stand on floor.
        assert!(one(&["x+x", "x>x", "xxx"]).is_ok());
        assert!(one(&["x+x", "xrx", "xxx"]).is_ok());
        // An edge door onto an inner door.
        let doors = one(&["x+x", "x+x", "x.x", "xxx"]).unwrap_err();
        assert_eq!(doors.cell, Some((1, 2)));
        assert!(
            doors
                .message
                .starts_with("this door on the edge opens onto the inner door at row 2, column 2"),
            "{}",
            doors.message
        );
        // An inner door with wall behind it leads nowhere (a random
        // drawing put one in levels as a door onto rock).
        let blind = one(&["xxx", "x+x", "x.+", "xxx"]).unwrap_err();
        assert_eq!(blind.cell, Some((2, 2)));
        assert!(
            blind
                .message
                .starts_with("this door inside the vault opens onto one cell")
        );
        assert!(one(&["xxx", "x.x", "x+x", "x.+", "xxx"]).is_ok());
        // A `?` behind an edge door: no corridor can come to it, though it
        // leads in beside another door.
        let open = one(&["x++xx", "x?..x", "xxxxx"]).unwrap_err();
        assert_eq!(open.cell, Some((1, 2)));
        assert!(
            open.message
                .starts_with("no corridor can come to this door")
        );
        // A corner door is reached from the side whose inward cell is rock.
        assert!(one(&["++xx", "x..x", "xxxx"]).is_ok());
        // Two edge doors round a corner: neither side is the vault's own.
        let corner = one(&["++xx", "+..x", "xxxx"]).unwrap_err();
        assert_eq!(corner.cell, Some((1, 1)));
    }

    /// A name that would steer a terminal is refused, and shown escaped.
    #[test]
    fn control_characters_in_names_are_refused_and_shown_escaped() {
        let e = build(&[draft("red\u{1b}[31m", &["x+x", "x.x", "xxx"])], &monsters).unwrap_err();
        assert_eq!(e.field, "name");
        assert_eq!(
            e.to_string(),
            "vault \"red\\u{1b}[31m\": must not contain control characters"
        );
        // Names are not otherwise limited.
        assert!(build(&[draft("café \"bar\"", &["x+x", "x.x", "xxx"])], &monsters).is_ok());
    }

    #[test]
    fn fields_are_checked() {
        let map = ["x+x", "x.x", "xxx"];
        let dup = build(&[draft("a", &map), draft("a", &map)], &monsters).unwrap_err();
        assert_eq!((dup.vault, dup.field), (1, "name"));
        assert!(dup.message.contains("entry 0"), "{}", dup.message);
        let mut d = draft("a", &map);
        d.depths = Range::new(5, 3);
        assert_eq!(build(&[d], &monsters).unwrap_err().field, "depths");
        let mut d = draft("a", &map);
        d.depths = Range::new(0, 3);
        assert_eq!(build(&[d], &monsters).unwrap_err().field, "depths");
        let mut d = draft("a", &map);
        d.weight = 0;
        assert_eq!(build(&[d], &monsters).unwrap_err().field, "weight");
        assert_eq!(
            build(&[draft(" ", &map)], &monsters).unwrap_err().field,
            "name"
        );
    }

    #[test]
    fn fits_counts_border_and_gap() {
        let row = format!("x+{}", "x".repeat(24));
        let rows: Vec<&str> = std::iter::once(row.as_str())
            .chain(std::iter::repeat_n("x.xxxxxxxxxxxxxxxxxxxxxxxx", 8))
            .chain(std::iter::once("x"))
            .collect();
        let mut v = one(&rows).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((v.drawing().width(), v.drawing().height()), (26, 10));
        assert!(v.fits(32, 16));
        assert!(!v.fits(31, 16));
        assert!(!v.fits(32, 15));
        // Turned, it fits a tall level.
        assert!(v.fits(16, 32));
        v.rotate = false;
        assert!(!v.fits(16, 32));
    }
}
