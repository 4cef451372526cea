//! `delve render`: draw a level, or the whole stack, as a PNG picture.

use std::path::PathBuf;

use delve::dungeon::Dungeon;
use delve::render;

use super::args::{ConfigArg, SeedArg, VaultsArg};
use super::{CliError, load_config, write_output};

#[derive(clap::Args)]
pub struct RenderArgs {
    #[command(flatten)]
    seed: SeedArg,
    #[command(flatten)]
    config: ConfigArg,
    #[command(flatten)]
    vaults: VaultsArg,
    /// The level to draw (1 is the top; the default).
    #[arg(long, value_name = "D", conflicts_with = "all")]
    depth: Option<u16>,
    /// Draw every level, as a sheet with depth labels.
    #[arg(long)]
    all: bool,
    /// Pixels a cell, 1 to 32.
    #[arg(long, value_name = "PX", default_value_t = 4,
          value_parser = clap::value_parser!(u32).range(1..=32))]
    scale: u32,
    /// The PNG file to write: FILE.png, or a name without an extension
    /// (another extension is refused).
    #[arg(long, value_name = "FILE.png")]
    out: PathBuf,
}

pub fn run(args: RenderArgs) -> Result<(), CliError> {
    // The picture is always a PNG: a name that says otherwise would
    // mislead whatever opens it later, so it is refused before any work.
    if let Some(ext) = args.out.extension()
        && !ext.eq_ignore_ascii_case("png")
    {
        return Err(CliError::Usage(format!(
            "--out {}: delve render writes PNG pictures; name the file .png, or give it no \
             extension",
            args.out.display()
        )));
    }
    let config = load_config(args.config.config.as_deref(), None)?;
    let vaults = args.vaults.load_for(&config)?;
    let levels = config.levels;
    if let Some(d) = args.depth
        && (d == 0 || d > levels)
    {
        return Err(CliError::Usage(format!(
            "--depth {d}: the dungeon has depths 1 to {levels}"
        )));
    }
    // Refuse a picture too large before generating anything.
    let (w, h) = (config.width, config.height);
    let (pw, ph) = if args.all {
        render::sheet_size(w, h, usize::from(levels), args.scale, SHEET_COLUMNS)
    } else {
        render::level_size(w, h, args.scale)
    };
    if pw * ph > render::MAX_PIXELS || pw > u64::from(u32::MAX) || ph > u64::from(u32::MAX) {
        return Err(CliError::Usage(format!(
            "--scale {}: a {pw}x{ph} picture is too large; lower --scale",
            args.scale
        )));
    }
    let seed = args.seed.or_random();
    let image = if args.all {
        let mut dungeon = Dungeon::with_vaults(config, vaults, seed);
        dungeon.generate_depths(&(1..=levels).collect::<Vec<_>>())?;
        let all: Vec<&delve::Level> = (1..=levels).filter_map(|d| dungeon.generated(d)).collect();
        render::sheet(&all, args.scale, SHEET_COLUMNS)
    } else {
        let level =
            delve::Generator::default().level(&config, &vaults, seed, args.depth.unwrap_or(1))?;
        render::level_image(&level, args.scale)
    };
    write_output(Some(&args.out), &render::encode_png(&image))
}

/// Levels a row on a stack's sheet.
const SHEET_COLUMNS: u32 = 5;
