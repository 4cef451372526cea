//! The rock hardness field: smooth value noise, so hard and soft rock form
//! veins that corridors bend around (002: "veins of harder minerals occur in
//! the rock, and miners will probably tunnel around them").
//!
//! All arithmetic is integer fixed point, so the field is bit-identical on
//! every machine; floats enter only through the per-octave weights, which are
//! computed once with exactly rounded operations, and in finding the sum's
//! bounds, where they hold integers below 2^24 exactly and are only
//! compared.

use rand::RngExt;
use rand_pcg::Pcg64;

use crate::config::HardnessConfig;

/// Smoothstep weights for each offset inside a lattice cell, 0..=256,
/// into `out`.
fn smooth_weights(spacing: usize, out: &mut Vec<u32>) {
    out.clear();
    out.extend((0..spacing).map(|i| {
        // t in 0..=4096 (12-bit), s = t²(3 - 2t) scaled back to 0..=256.
        let t = (i as u64 * 4096) / spacing as u64;
        let s = t * t * (3 * 4096 - 2 * t) / (4096 * 4096 * 16);
        s as u32
    }));
}

/// The field's scratch buffers, reused from level to level.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The weighted sum of the octaves, per cell.
    acc: Vec<u32>,
    lattice: Vec<u32>,
    /// Each lattice row interpolated along x, a full level row each.
    rows: Vec<i32>,
    weights: Vec<u32>,
    /// Generator revision 4's sum, in 16 bits, and each octave's lattice
    /// rows (8 bits in 16-bit lanes) and smoothstep weights.
    acc16: Vec<u16>,
    octave_rows: Vec<Vec<u16>>,
    octave_weights: Vec<Vec<u32>>,
}

/// Fills `hardness` (row-major, `width` x `height`) with rock of hardness
/// 1..=254 and the border with 255, as generator revision `generator`
/// does: from revision 4 in 16-bit lanes ([`fill_narrow`]), before it in
/// 32-bit ones ([`fill_wide`]). The two make different fields from the
/// same stream: the narrow one takes eight lattice points from each draw
/// (the wide one a draw a point) and rounds each octave to 8 bits.
pub(crate) fn fill(
    hardness: &mut [u8],
    scratch: &mut Scratch,
    width: usize,
    height: usize,
    cfg: &HardnessConfig,
    generator: u16,
    rng: &mut Pcg64,
) {
    if generator >= 4 {
        fill_narrow(hardness, scratch, width, height, cfg, rng);
    } else {
        fill_wide(hardness, scratch, width, height, cfg, rng);
    }
}

/// The lattice of one octave drawn from `rng`, and each lattice row
/// interpolated along x (a level row each, values 0..=255), into `rows`;
/// the octave's smoothstep weights into `weights`.
fn lattice_rows(
    lattice: &mut Vec<u32>,
    rows: &mut Vec<u16>,
    weights: &mut Vec<u32>,
    width: usize,
    height: usize,
    spacing: usize,
    rng: &mut Pcg64,
) {
    let gw = width / spacing + 2;
    let gh = height / spacing + 2;
    // Eight lattice points a draw, lowest byte first: a draw of the
    // 128-bit generator costs dozens of instructions, a byte of one
    // nothing.
    lattice.clear();
    for _ in 0..(gw * gh).div_ceil(8) {
        let word = rng.random::<u64>();
        lattice.extend(word.to_le_bytes().map(u32::from));
    }
    lattice.truncate(gw * gh);
    smooth_weights(spacing, weights);
    // The rows at 8 bits: (a * (256 - t) + b * t) / 256 for the points
    // either side, which is (a * 256 + (b - a) * t) / 256 and stays below
    // 2^16 at every step, so it is worked out in 16-bit lanes. The common
    // spacings have a loop of their own, whose lattice cell the compiler
    // works out in one go; a loop of a lattice cell's few columns, whose
    // count it cannot know, was a sixth of the field's time.
    rows.clear();
    rows.resize(gh * width, 0);
    match spacing {
        2 => narrow_rows::<2>(lattice, gw, width, weights, rows),
        4 => narrow_rows::<4>(lattice, gw, width, weights, rows),
        8 => narrow_rows::<8>(lattice, gw, width, weights, rows),
        16 => narrow_rows::<16>(lattice, gw, width, weights, rows),
        _ => narrow_rows_any(lattice, gw, width, spacing, weights, rows),
    }
}

/// [`lattice_rows`]'s rows for a lattice any number of cells apart.
fn narrow_rows_any(
    lattice: &[u32],
    gw: usize,
    width: usize,
    spacing: usize,
    weights: &[u32],
    rows: &mut [u16],
) {
    for (lat, out) in lattice.chunks_exact(gw).zip(rows.chunks_exact_mut(width)) {
        for (gx, cells) in out.chunks_mut(spacing).enumerate() {
            for (cell, &t) in cells.iter_mut().zip(weights) {
                *cell = blend8(lat[gx], lat[gx + 1], t);
            }
        }
    }
}

/// `(a * (256 - t) + b * t) / 256` for lattice points `a` and `b`
/// (0..=255) and a smoothstep weight `t` (0..=256): 0..=255.
#[inline(always)]
fn blend8(a: u32, b: u32, t: u32) -> u16 {
    let (a, b, t) = (a as u16, b as u16, t as u16);
    (a * (256 - t) + b * t) >> 8
}

/// [`lattice_rows`]'s rows for a lattice `S` cells apart.
fn narrow_rows<const S: usize>(
    lattice: &[u32],
    gw: usize,
    width: usize,
    weights: &[u32],
    rows: &mut [u16],
) {
    let t: [u32; S] = std::array::from_fn(|i| weights[i]);
    for (lat, out) in lattice.chunks_exact(gw).zip(rows.chunks_exact_mut(width)) {
        let mut cells = out.chunks_exact_mut(S);
        for (gx, cell) in (&mut cells).enumerate() {
            let (a, b) = (lat[gx], lat[gx + 1]);
            for i in 0..S {
                cell[i] = blend8(a, b, t[i]);
            }
        }
        let gx = width / S;
        for (cell, &t) in cells.into_remainder().iter_mut().zip(&t) {
            *cell = blend8(lat[gx], lat[gx + 1], t);
        }
    }
}

/// Interpolates each row of the lattice (`gw` points wide) along x, into
/// `rows`, a level row each: `a * 256 + (b - a) * t` (0..=255*256) for the
/// points either side and the cell's smoothstep weight `t`, as `keep`
/// stores it. Both fills start from these rows (few lattice rows, then a
/// plain pass down every cell's column).
fn interpolate_rows<T>(
    lattice: &[u32],
    gw: usize,
    width: usize,
    spacing: usize,
    weights: &[u32],
    rows: &mut Vec<T>,
    keep: impl Fn(i32) -> T,
) {
    // A lattice cell at a time: its two points read once for its
    // `spacing` columns, rather than gathered again for every column.
    rows.clear();
    rows.reserve(lattice.len() / gw * width);
    for lat in lattice.chunks_exact(gw) {
        for (gx, start) in (0..width).step_by(spacing).enumerate() {
            let end = (start + spacing).min(width);
            let (a, b) = (lat[gx] as i32, lat[gx + 1] as i32);
            rows.extend(
                weights[..end - start]
                    .iter()
                    .map(|&t| keep(a * 256 + (b - a) * t as i32)),
            );
        }
    }
}
/// Generator revision 4's field: each octave's rows and value rounded to
/// 8 bits and summed in 16-bit lanes, which SSE2 multiplies eight at a time (it
/// has no 32-bit multiply). An octave adds `v * w / 16`, v in 0..=255 and
/// its weight w in 0..=256 (persistence^o in 1/256ths), so eight octaves
/// stay below 2^15 and the bounds are signed 16-bit minimum and maximum,
/// which SSE2 has too.
fn fill_narrow(
    hardness: &mut [u8],
    scratch: &mut Scratch,
    width: usize,
    height: usize,
    cfg: &HardnessConfig,
    rng: &mut Pcg64,
) {
    let n = width * height;
    let Scratch {
        lattice,
        acc16,
        octave_rows,
        octave_weights,
        ..
    } = scratch;
    // Every octave's lattice first, in octave order (the order they draw
    // from the stream), then each level row summed over the octaves while
    // it is in the cache, with the interior's bounds.
    let mut octaves = [(0usize, 0u16); 8];
    let mut count = 0;
    let mut weight = 1.0f64;
    for octave in 0..cfg.octaves {
        let spacing = (usize::from(cfg.feature_size) >> octave).max(1);
        let w = (weight * 256.0).round() as u16;
        weight *= cfg.persistence;
        if w == 0 {
            break;
        }
        if octave_rows.len() <= count {
            octave_rows.push(Vec::new());
            octave_weights.push(Vec::new());
        }
        lattice_rows(
            lattice,
            &mut octave_rows[count],
            &mut octave_weights[count],
            width,
            height,
            spacing,
            rng,
        );
        octaves[count] = (spacing, w);
        count += 1;
    }
    // Each row is written whole by the first octave (octave 0 always
    // carries weight 256, and `Config::validate` asks for at least one).
    acc16.resize(n, 0);
    let (mut lo, mut hi) = (i16::MAX, 0i16);
    for (y, row) in acc16.chunks_exact_mut(width).enumerate() {
        for (o, &(spacing, w)) in octaves[..count].iter().enumerate() {
            let (rows, weights) = (&octave_rows[o], &octave_weights[o]);
            let (gy, ty) = (y / spacing, weights[y % spacing] as u16);
            let top = &rows[gy * width..(gy + 1) * width];
            let bottom = &rows[(gy + 1) * width..(gy + 2) * width];
            // The rows (8 bits) blended: (t * (256 - ty) + b * ty) / 256,
            // every product and sum below 2^16, so all in 16-bit lanes;
            // the octave adds `v * w / 16`.
            let (up, down) = (256 - ty, ty);
            let cells = row.iter_mut().zip(top).zip(bottom);
            let v = |t: u16, b: u16| (((t * up + b * down) >> 8) * w) >> 4;
            if o == 0 {
                cells.for_each(|((cell, &t), &b)| *cell = v(t, b));
            } else {
                cells.for_each(|((cell, &t), &b)| *cell += v(t, b));
            }
        }
        if count == 0 {
            row.fill(0);
        }
        // The interior's least and greatest sums, as signed 16-bit values
        // (every sum is below 2^15), which SSE2 compares eight at a time.
        if y > 0 && y + 1 < height {
            let inner = &row[1..width - 1];
            lo = lo.min(inner.iter().map(|&v| v as i16).min().unwrap_or(i16::MAX));
            hi = hi.max(inner.iter().map(|&v| v as i16).max().unwrap_or(0));
        }
    }
    // At most 8 octaves (`Config::validate`) of at most 256 * 255 / 16.
    debug_assert!(acc16.iter().all(|&v| v < 1 << 15));
    let acc = &*acc16;
    let (lo, hi) = (lo.max(0) as u32, hi.max(0) as u32);
    let span = hi.saturating_sub(lo).max(1);
    // (v - lo) * scale stays below 2^25: v - lo is at most the span.
    let scale = (253u32 << 16) / span;
    debug_assert_eq!(hardness.len(), n);
    hardness[..width].fill(255);
    hardness[n - width..].fill(255);
    for y in 1..height - 1 {
        hardness[y * width] = 255;
        hardness[(y + 1) * width - 1] = 255;
        let row = y * width + 1..(y + 1) * width - 1;
        match u16::try_from(scale) {
            // A span of 254 or more (every level but the flattest): the
            // same stretch in 16-bit lanes, which SSE2 multiplies eight at
            // a time. The product's high half, plus one where its low half
            // is at least 2^15, is the rounded 32-bit result exactly.
            Ok(scale) => {
                let lo = lo as u16;
                for (h, &v) in hardness[row.clone()].iter_mut().zip(&acc[row]) {
                    *h = 1 + stretch_narrow(v.wrapping_sub(lo), scale);
                }
            }
            Err(_) => {
                for (h, &v) in hardness[row.clone()].iter_mut().zip(&acc[row]) {
                    *h = 1 + stretch_wide(u32::from(v).wrapping_sub(lo), scale);
                }
            }
        }
    }
}

/// `d * scale / 2^16`, rounded: a sum `d` above the field's least,
/// stretched to 0..=253 (every interior sum is at least the least, and
/// `scale` is 253 * 2^16 / span).
#[inline(always)]
fn stretch_wide(d: u32, scale: u32) -> u8 {
    ((d * scale + (1 << 15)) >> 16) as u8
}

/// [`stretch_wide`] for a `scale` below 2^16, in 16-bit arithmetic: the
/// product's high half, plus one where its low half is at least 2^15.
#[inline(always)]
fn stretch_narrow(d: u16, scale: u16) -> u8 {
    let high = ((u32::from(d) * u32::from(scale)) >> 16) as u16;
    let low = d.wrapping_mul(scale);
    (high + (low >> 15)) as u8
}

/// Generator revisions 1 to 3's field, in 32-bit lanes.
fn fill_wide(
    hardness: &mut [u8],
    scratch: &mut Scratch,
    width: usize,
    height: usize,
    cfg: &HardnessConfig,
    rng: &mut Pcg64,
) {
    let n = width * height;
    let Scratch {
        acc,
        lattice,
        rows,
        weights,
        ..
    } = scratch;
    // The first octave writes every cell, so the sum needs no clearing
    // (only sizing, and zeroing if no octave carries weight).
    acc.resize(n, 0);
    let mut written = false;

    // Octave o has lattice spacing feature_size / 2^o and weight
    // persistence^o, in 1/1024ths.
    let mut weight = 1.0f64;
    for octave in 0..cfg.octaves {
        let spacing = (usize::from(cfg.feature_size) >> octave).max(1);
        let w = (weight * 1024.0).round() as u32;
        weight *= cfg.persistence;
        if w == 0 {
            break;
        }
        let gw = width / spacing + 2;
        let gh = height / spacing + 2;
        lattice.clear();
        lattice.extend((0..gw * gh).map(|_| u32::from(rng.random::<u8>())));
        smooth_weights(spacing, weights);
        // Interpolate along each lattice row first (few rows), then down
        // every cell's column: the per-cell loop is then a plain pass over
        // whole rows. The sum is the same bilinear numerator either way.
        interpolate_rows(lattice, gw, width, spacing, weights, rows, |v| v);
        for y in 0..height {
            let (gy, ty) = (y / spacing, weights[y % spacing] as i32);
            let top = &rows[gy * width..(gy + 1) * width];
            let bottom = &rows[(gy + 1) * width..(gy + 2) * width];
            let row = &mut acc[y * width..(y + 1) * width];
            let cells = row.iter_mut().zip(top).zip(bottom);
            // t * (256 - ty) + b * ty, with one multiply: 0..=1020.
            let v = |t: i32, b: i32| ((t << 8) + (b - t) * ty) >> 14;
            if written {
                cells.for_each(|((cell, &t), &b)| *cell += v(t, b) as u32 * w);
            } else {
                cells.for_each(|((cell, &t), &b)| *cell = v(t, b) as u32 * w);
            }
        }
        written = true;
    }
    if !written {
        acc.fill(0);
    }

    // Stretch the interior's range onto 1..=254 so every level uses the full
    // scale of hardness, whatever the octave count.
    // The interior's bounds, as floats: a sum is at most 1020 times eight
    // octaves' weights of at most 1024 each, below 2^24, so every sum is a
    // float exactly, and floats have vector minimum and maximum on every
    // x86-64 (unsigned integers do not before SSE4.1). Eight lanes apiece.
    let (mut lo8, mut hi8) = ([f32::MAX; 8], [0f32; 8]);
    for y in 1..height - 1 {
        let row = &acc[y * width + 1..(y + 1) * width - 1];
        let mut chunks = row.chunks_exact(8);
        for chunk in &mut chunks {
            for i in 0..8 {
                let v = chunk[i] as f32;
                lo8[i] = if v < lo8[i] { v } else { lo8[i] };
                hi8[i] = if v > hi8[i] { v } else { hi8[i] };
            }
        }
        for (i, &v) in chunks.remainder().iter().enumerate() {
            let v = v as f32;
            lo8[i] = if v < lo8[i] { v } else { lo8[i] };
            hi8[i] = if v > hi8[i] { v } else { hi8[i] };
        }
    }
    // At most 8 octaves (`Config::validate`) of weights at most 1024
    // (`sums_stay_exact_as_floats` checks the largest).
    debug_assert!(acc.iter().all(|&v| v < 1 << 24));
    let lo = lo8
        .into_iter()
        .fold(f32::MAX, |a, b| if b < a { b } else { a }) as u32;
    let hi = hi8.into_iter().fold(0f32, |a, b| if b > a { b } else { a }) as u32;
    let span = u64::from(hi.saturating_sub(lo)).max(1);
    // Fixed-point reciprocal: one multiply a cell instead of a division.
    let scale = (253u64 << 32) / span;
    // The border is 255; the interior is all written below.
    debug_assert_eq!(hardness.len(), n);
    hardness[..width].fill(255);
    hardness[n - width..].fill(255);
    for y in 1..height - 1 {
        hardness[y * width] = 255;
        hardness[(y + 1) * width - 1] = 255;
    }
    let stretch = |h: &mut u8, v: u32, scale: u64| {
        *h = (1 + ((u64::from(v - lo) * scale + (1 << 31)) >> 32).min(253)) as u8;
    };
    for y in 1..height - 1 {
        let row = y * width + 1..(y + 1) * width - 1;
        let cells = hardness[row.clone()].iter_mut().zip(&acc[row]);
        // A scale that fits 32 bits (any span above 253) multiplies 32 by
        // 32 bits, which vectorises; the result is the same either way.
        match u32::try_from(scale) {
            Ok(scale32) => cells.for_each(|(h, &v)| stretch(h, v, u64::from(scale32))),
            Err(_) => cells.for_each(|(h, &v)| stretch(h, v, scale)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};

    /// The generator revisions whose fields differ: 3 (and before), 4.
    const FIELDS: [u16; 2] = [3, 4];

    /// Each spacing's own loop makes the rows the loop for any spacing
    /// makes, on rows that end part-way through a lattice cell too.
    #[test]
    fn rows_by_spacing_are_the_rows_of_any_spacing() {
        fn check<const S: usize>() {
            let mut weights = Vec::new();
            smooth_weights(S, &mut weights);
            for width in 1..=3 * S + 5 {
                let gw = width / S + 2;
                let lattice: Vec<u32> = (0..gw * 3).map(|i| (i as u32 * 97 + 13) % 256).collect();
                let (mut fast, mut any) = (vec![0u16; 3 * width], vec![1u16; 3 * width]);
                narrow_rows::<S>(&lattice, gw, width, &weights, &mut fast);
                narrow_rows_any(&lattice, gw, width, S, &weights, &mut any);
                assert_eq!(fast, any, "spacing {S}, width {width}");
                // And both are revision 4's rows as they were first made.
                let mut first = Vec::new();
                interpolate_rows(&lattice, gw, width, S, &weights, &mut first, |v| {
                    (v >> 8) as u16
                });
                assert_eq!(fast, first, "spacing {S}, width {width}");
            }
        }
        check::<1>();
        check::<2>();
        check::<3>();
        check::<4>();
        check::<8>();
        check::<16>();
        // And the blend is the wide fill's interpolation, rounded down.
        for (a, b, t) in [(0, 255, 256), (255, 0, 1), (17, 200, 128), (255, 255, 255)] {
            let wide = (a as i32 * 256 + (b as i32 - a as i32) * t as i32) >> 8;
            assert_eq!(i32::from(blend8(a, b, t)), wide);
        }
    }

    /// The 16-bit stretch is the 32-bit one wherever it is used: every
    /// sum up to the span, for spans from 254 (the least with a scale
    /// below 2^16) to the largest eight octaves make.
    #[test]
    fn the_narrow_stretch_is_the_wide_one() {
        for span in (254u32..1 << 15)
            .step_by(7)
            .chain([254, 255, 256, (1 << 15) - 1])
        {
            let scale = (253u32 << 16) / span;
            let narrow = u16::try_from(scale).expect("a span of 254 or more");
            for d in 0..=span {
                assert_eq!(
                    stretch_narrow(d as u16, narrow),
                    stretch_wide(d, scale),
                    "span {span}, sum {d} above the least"
                );
            }
        }
    }

    #[test]
    fn border_immutable_interior_in_range() {
        for generator in FIELDS {
            border_immutable_interior_in_range_of(generator);
        }
    }

    fn border_immutable_interior_in_range_of(generator: u16) {
        let (w, h) = (40, 20);
        let mut hard = vec![0u8; w * h];
        let mut scratch = Scratch::default();
        let mut rng = stage_rng(1, 1, 0, Stage::Hardness);
        fill(
            &mut hard,
            &mut scratch,
            w,
            h,
            &HardnessConfig::default(),
            generator,
            &mut rng,
        );
        for y in 0..h {
            for x in 0..w {
                let v = hard[y * w + x];
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    assert_eq!(v, 255);
                } else {
                    assert!((1..=254).contains(&v));
                }
            }
        }
        // The stretch uses the whole scale.
        assert!(hard.contains(&1) && hard.contains(&254));
    }

    /// Scratch left by another level (larger, other octaves) changes
    /// nothing: the first octave overwrites the sum it does not clear.
    #[test]
    fn scratch_from_another_level_changes_nothing() {
        for generator in FIELDS {
            scratch_from_another_level_changes_nothing_in(generator);
        }
    }

    fn scratch_from_another_level_changes_nothing_in(generator: u16) {
        let run = |scratch: &mut Scratch, w: usize, h: usize, cfg: &HardnessConfig, seed| {
            let mut hard = vec![0u8; w * h];
            let mut rng = stage_rng(seed, 2, 0, Stage::Hardness);
            fill(&mut hard, scratch, w, h, cfg, generator, &mut rng);
            hard
        };
        let coarse = HardnessConfig {
            octaves: 1,
            ..HardnessConfig::default()
        };
        let fine = HardnessConfig {
            octaves: 8,
            persistence: 0.9,
            ..HardnessConfig::default()
        };
        for cfg in [&coarse, &fine, &HardnessConfig::default()] {
            let fresh = run(&mut Scratch::default(), 60, 30, cfg, 5);
            let mut used = Scratch::default();
            run(&mut used, 60, 30, &fine, 9);
            assert_eq!(run(&mut used, 60, 30, cfg, 5), fresh);
            run(&mut used, 90, 40, &coarse, 11);
            assert_eq!(run(&mut used, 60, 30, cfg, 5), fresh);
        }
    }

    /// The field of the heaviest config (8 octaves, persistence 1, the
    /// largest veins) under generator `generator`, and its sums.
    fn heaviest_field(w: usize, h: usize, generator: u16) -> (Vec<u8>, Scratch) {
        let cfg = HardnessConfig {
            octaves: 8,
            persistence: 1.0,
            feature_size: 64,
        };
        let mut hard = vec![0u8; w * h];
        let mut scratch = Scratch::default();
        let mut rng = stage_rng(3, 1, 0, Stage::Hardness);
        fill(&mut hard, &mut scratch, w, h, &cfg, generator, &mut rng);
        (hard, scratch)
    }

    /// The heaviest field a config may ask for (8 octaves, persistence 1)
    /// keeps its sums below 2^24, so the float bounds are the integer ones,
    /// and the field is the one integer bounds give.
    #[test]
    fn sums_stay_exact_as_floats() {
        let (w, h) = (150, 90);
        let (hard, scratch) = heaviest_field(w, h, 3);
        let interior =
            || (1..h - 1).flat_map(|y| scratch.acc[y * w + 1..(y + 1) * w - 1].iter().copied());
        assert!(scratch.acc.iter().all(|&v| v < 1 << 24));
        let (lo, hi) = (interior().min().unwrap(), interior().max().unwrap());
        let scale = (253u64 << 32) / u64::from(hi - lo).max(1);
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let v = scratch.acc[y * w + x];
                let want = (1 + ((u64::from(v - lo) * scale + (1 << 31)) >> 32).min(253)) as u8;
                assert_eq!(hard[y * w + x], want, "cell {x},{y}");
            }
        }
    }

    /// Revision 4's heaviest field (8 octaves, persistence 1) keeps its
    /// sums below 2^15, so signed 16-bit bounds are the true ones, and the
    /// field is the one plain bounds give.
    #[test]
    fn narrow_sums_stay_below_2_to_the_15() {
        let (w, h) = (150, 90);
        let (hard, scratch) = heaviest_field(w, h, 4);
        let acc = &scratch.acc16;
        assert!(acc.iter().all(|&v| v < 1 << 15));
        let interior = || (1..h - 1).flat_map(|y| acc[y * w + 1..(y + 1) * w - 1].iter().copied());
        let (lo, hi) = (interior().min().unwrap(), interior().max().unwrap());
        assert!(hi > lo);
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                let v = u64::from(acc[y * w + x] - lo);
                let want = 1 + (v * 253 * 2 + u64::from(hi - lo)) / (2 * u64::from(hi - lo));
                let got = u64::from(hard[y * w + x]);
                // The fixed-point scale rounds down, by less than a step.
                assert!(
                    got == want || got + 1 == want,
                    "cell {x},{y}: {got} for {want}"
                );
            }
        }
    }

    #[test]
    fn field_is_smooth() {
        for generator in FIELDS {
            field_is_smooth_in(generator);
        }
    }

    fn field_is_smooth_in(generator: u16) {
        // Neighbouring cells differ far less than the full range: veins, not static.
        let (w, h) = (150, 150);
        let mut hard = vec![0u8; w * h];
        let mut scratch = Scratch::default();
        let mut rng = stage_rng(7, 3, 0, Stage::Hardness);
        fill(
            &mut hard,
            &mut scratch,
            w,
            h,
            &HardnessConfig::default(),
            generator,
            &mut rng,
        );
        let mut total = 0u64;
        let mut count = 0u64;
        for y in 1..h - 1 {
            for x in 1..w - 2 {
                total += u64::from(hard[y * w + x].abs_diff(hard[y * w + x + 1]));
                count += 1;
            }
        }
        assert!(
            total / count < 20,
            "mean neighbour difference {}",
            total / count
        );
    }
}
