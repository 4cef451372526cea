//! Pictures of levels for `delve render`: one level, or a whole stack as a
//! sheet of levels with depth labels.
//!
//! Building the pixels is a pure function of the levels, so it is tested
//! cell by cell; encoding them as PNG (the `png` crate) writes into memory.
//! Only `main.rs` writes the file.
//!
//! Each cell is a `scale` x `scale` square: rock in greys, darker for
//! harder rock and darkest for the immutable border, so the veins the
//! Tunnel style steers around show; room floor sand; corridors amber; doors
//! red; up stairs green; down stairs blue. Colour is not the only carrier:
//! the ASCII export says the same with glyphs.

use crate::level::{Level, Tile};

/// An RGB image, 8 bits a channel, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// Three bytes a pixel, row-major: `3 * (y * width + x)` is a pixel's red.
    pub rgb: Vec<u8>,
}

impl Image {
    fn new(width: u32, height: u32, fill: [u8; 3]) -> Image {
        Image {
            width,
            height,
            rgb: fill.repeat(width as usize * height as usize),
        }
    }

    /// The colour at (`x`, `y`); panics outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = 3 * (y as usize * self.width as usize + x as usize);
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn fill_rect(&mut self, x: u32, y: u32, w: u32, h: u32, colour: [u8; 3]) {
        let width = self.width as usize;
        for yy in y..y + h {
            let row = yy as usize * width;
            for xx in x..x + w {
                let i = 3 * (row + xx as usize);
                self.rgb[i..i + 3].copy_from_slice(&colour);
            }
        }
    }
}

/// Room floor: sand.
pub const FLOOR: [u8; 3] = [226, 210, 168];
/// Corridors: amber.
pub const CORRIDOR: [u8; 3] = [214, 150, 48];
/// Doors: red.
pub const DOOR: [u8; 3] = [190, 40, 40];
/// An open door (a run's level): a lighter red.
pub const OPEN_DOOR: [u8; 3] = [235, 120, 110];
/// Secret doors: violet, so the doors a player must search for stand out
/// from the rest.
pub const SECRET_DOOR: [u8; 3] = [150, 60, 200];
/// Up stairs: green.
pub const UP_STAIRS: [u8; 3] = [40, 170, 70];
/// Down stairs: blue.
pub const DOWN_STAIRS: [u8; 3] = [50, 90, 220];
/// Vault floor: a warm gold, so set pieces stand out from ordinary rooms.
pub const VAULT_FLOOR: [u8; 3] = [236, 200, 110];
/// The immutable border, darker than any rock.
pub const BORDER: [u8; 3] = [16, 16, 22];
/// Between the levels of a sheet.
pub const BACKGROUND: [u8; 3] = [255, 255, 255];
/// The depth labels of a sheet.
pub const LABEL: [u8; 3] = [0, 0, 0];

/// The colour of a cell.
pub fn cell_colour(tile: Tile, hardness: u8) -> [u8; 3] {
    match tile {
        Tile::Rock if hardness == 255 => BORDER,
        Tile::Rock => {
            // Softest rock light grey (120), hardest dark grey (40).
            let v = (120 - u32::from(hardness) * 80 / 254) as u8;
            [v, v, v + 6]
        }
        Tile::Floor => FLOOR,
        Tile::Corridor => CORRIDOR,
        Tile::Door => DOOR,
        Tile::OpenDoor => OPEN_DOOR,
        Tile::SecretDoor => SECRET_DOOR,
        Tile::UpStairs => UP_STAIRS,
        Tile::DownStairs => DOWN_STAIRS,
    }
}

/// The most pixels a picture may have (about 1 GB of RGB).
pub const MAX_PIXELS: u64 = 1 << 28;

/// The size of the picture of a `width` x `height` level at `scale`
/// pixels a cell, computed without drawing (to refuse huge ones early).
pub fn level_size(width: u16, height: u16, scale: u32) -> (u64, u64) {
    (
        u64::from(width) * u64::from(scale),
        u64::from(height) * u64::from(scale),
    )
}

/// One level, `scale` pixels a cell.
pub fn level_image(level: &Level, scale: u32) -> Image {
    let (w, h) = (u32::from(level.width()), u32::from(level.height()));
    let mut image = Image::new(w * scale, h * scale, BORDER);
    draw_level(&mut image, level, scale, 0, 0);
    image
}

fn draw_level(image: &mut Image, level: &Level, scale: u32, ox: u32, oy: u32) {
    let w = usize::from(level.width());
    let hard = level.hardness_grid();
    for (i, &tile) in level.tiles().iter().enumerate() {
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        image.fill_rect(
            ox + x * scale,
            oy + y * scale,
            scale,
            scale,
            cell_colour(tile, hard[i]),
        );
    }
    // Vault floor in its own colour.
    for room in level.rooms() {
        if let crate::geom::Shape::Vault(v) = room.shape {
            for p in crate::geom::Shape::Rect(v.bounds).cells() {
                if level.tile(p) == Tile::Floor {
                    let (x, y) = (u32::from(p.x), u32::from(p.y));
                    image.fill_rect(ox + x * scale, oy + y * scale, scale, scale, VAULT_FLOOR);
                }
            }
        }
    }
}

/// Pixels of a label's font cell (3x5 glyphs plus a column of space).
const GLYPH_W: u32 = 4;
const GLYPH_H: u32 = 5;

/// A sheet of levels in depth order, in rows of up to `columns` (at least
/// one), each under a label `D<depth>`; `scale` pixels a cell.
pub fn sheet(levels: &[&Level], scale: u32, columns: u32) -> Image {
    let columns = columns.clamp(1, levels.len().max(1) as u32);
    let rows = (levels.len() as u32).div_ceil(columns);
    let (lw, lh) = levels.first().map_or((0, 0), |l| {
        (u32::from(l.width()) * scale, u32::from(l.height()) * scale)
    });
    let gap = 2 * scale.max(4);
    let dot = label_dot(scale);
    let label_h = GLYPH_H * dot + gap;
    // A slot is as wide as its level or its label, whichever is wider, so
    // labels of narrow levels never run into their neighbours.
    let deepest = levels.iter().map(|l| l.depth()).max().unwrap_or(1);
    let cell_w = lw.max(label_width(deepest, dot)) + gap;
    let cell_h = lh + label_h + gap;
    let mut image = Image::new(columns * cell_w + gap, rows * cell_h + gap, BACKGROUND);
    for (k, level) in levels.iter().enumerate() {
        let (col, row) = (k as u32 % columns, k as u32 / columns);
        let (x, y) = (gap + col * cell_w, gap + row * cell_h);
        draw_text(&mut image, &format!("D{}", level.depth()), x, y, dot);
        draw_level(&mut image, level, scale, x, y + label_h);
    }
    image
}

/// The size of the sheet of `n` levels of `width` x `height`.
pub fn sheet_size(width: u16, height: u16, n: usize, scale: u32, columns: u32) -> (u64, u64) {
    let columns = u64::from(columns.clamp(1, n.max(1) as u32));
    let rows = (n as u64).div_ceil(columns);
    let gap = u64::from(2 * scale.max(4));
    let dot = u64::from(label_dot(scale));
    let (lw, lh) = level_size(width, height, scale);
    let label_w = u64::from(label_width(n.min(usize::from(u16::MAX)) as u16, dot as u32));
    (
        columns * (lw.max(label_w) + gap) + gap,
        rows * (lh + u64::from(GLYPH_H) * dot + 2 * gap) + gap,
    )
}

/// The width of the label `D<depth>` in pixels.
fn label_width(depth: u16, dot: u32) -> u32 {
    (1 + depth.max(1).ilog10() + 1) * GLYPH_W * dot
}

/// Label pixels a font dot: labels stay readable at small scales.
fn label_dot(scale: u32) -> u32 {
    (scale * 2).clamp(3, 16)
}

fn draw_text(image: &mut Image, text: &str, x: u32, y: u32, dot: u32) {
    for (i, ch) in text.chars().enumerate() {
        let rows = glyph(ch);
        let gx = x + i as u32 * GLYPH_W * dot;
        for (r, bits) in rows.iter().enumerate() {
            for c in 0..3 {
                if bits & (0b100 >> c) != 0 {
                    image.fill_rect(gx + c * dot, y + r as u32 * dot, dot, dot, LABEL);
                }
            }
        }
    }
}

/// 3x5 glyphs, a row a number, high bit on the left.
fn glyph(ch: char) -> [u8; 5] {
    match ch {
        '0' => [0b111, 0b101, 0b101, 0b101, 0b111],
        '1' => [0b010, 0b110, 0b010, 0b010, 0b111],
        '2' => [0b111, 0b001, 0b111, 0b100, 0b111],
        '3' => [0b111, 0b001, 0b111, 0b001, 0b111],
        '4' => [0b101, 0b101, 0b111, 0b001, 0b001],
        '5' => [0b111, 0b100, 0b111, 0b001, 0b111],
        '6' => [0b111, 0b100, 0b111, 0b101, 0b111],
        '7' => [0b111, 0b001, 0b010, 0b010, 0b010],
        '8' => [0b111, 0b101, 0b111, 0b101, 0b111],
        '9' => [0b111, 0b101, 0b111, 0b001, 0b111],
        'D' => [0b110, 0b101, 0b101, 0b101, 0b110],
        _ => [0; 5],
    }
}

/// The image as PNG bytes (8-bit RGB, best compression: pictures of levels
/// are mostly flat colour).
pub fn encode_png(image: &Image) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder
        .write_header()
        .expect("writing into memory cannot fail");
    writer
        .write_image_data(&image.rgb)
        .expect("the buffer holds width x height pixels");
    writer.finish().expect("writing into memory cannot fail");
    out
}
