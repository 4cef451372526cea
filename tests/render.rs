//! `delve render`: pixels of a hand-built level, the PNG encoding, sheets,
//! and the command.

use delve::Level;
use delve::render::{self, Image};

use crate::common::{TempDir, delve, ok, rect_room, stderr};

fn level() -> Level {
    Level::from_rows(
        3,
        &["          ", " <.+##+.> ", " ..    .. ", "          "],
        vec![rect_room(1, 1, 2, 2), rect_room(7, 1, 2, 2)],
    )
}

/// The colour of every pixel of cell (x, y) at `scale`, which must agree.
fn cell(image: &Image, x: u32, y: u32, scale: u32) -> [u8; 3] {
    let c = image.pixel(x * scale, y * scale);
    for dy in 0..scale {
        for dx in 0..scale {
            assert_eq!(
                image.pixel(x * scale + dx, y * scale + dy),
                c,
                "cell {x},{y}"
            );
        }
    }
    c
}

#[test]
fn each_cell_is_a_square_of_its_colour() {
    let level = level();
    let image = render::level_image(&level, 3);
    assert_eq!((image.width, image.height), (30, 12));
    assert_eq!(image.rgb.len(), 30 * 12 * 3);
    assert_eq!(cell(&image, 0, 0, 3), render::BORDER);
    assert_eq!(cell(&image, 1, 1, 3), render::UP_STAIRS);
    assert_eq!(cell(&image, 2, 1, 3), render::FLOOR);
    assert_eq!(cell(&image, 3, 1, 3), render::DOOR);
    assert_eq!(cell(&image, 4, 1, 3), render::CORRIDOR);
    assert_eq!(cell(&image, 8, 1, 3), render::DOWN_STAIRS);
    // Interior rock of hardness 127: a middle grey, between the extremes.
    let rock = cell(&image, 4, 2, 3);
    assert_eq!(rock, render::cell_colour(delve::Tile::Rock, 127));
    assert!(rock[0] > render::BORDER[0] && rock[0] < render::FLOOR[0]);
}

#[test]
fn harder_rock_is_darker_and_every_kind_differs() {
    use delve::Tile::*;
    let soft = render::cell_colour(Rock, 1);
    let hard = render::cell_colour(Rock, 254);
    assert!(soft[0] > hard[0] && hard[0] > render::BORDER[0]);
    let kinds = [
        render::cell_colour(Rock, 1),
        render::cell_colour(Rock, 254),
        render::cell_colour(Rock, 255),
        render::cell_colour(Floor, 0),
        render::cell_colour(Corridor, 0),
        render::cell_colour(Door, 0),
        render::cell_colour(UpStairs, 0),
        render::cell_colour(DownStairs, 0),
    ];
    for i in 0..kinds.len() {
        for j in i + 1..kinds.len() {
            assert_ne!(kinds[i], kinds[j], "{i} and {j}");
        }
    }
}

#[test]
fn png_decodes_to_the_same_pixels() {
    let image = render::level_image(&level(), 2);
    let bytes = render::encode_png(&image);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (20, 8));
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(&buf[..info.buffer_size()], &image.rgb[..]);
}

#[test]
fn a_sheet_labels_each_level_and_has_its_announced_size() {
    let a = level();
    let image = render::sheet(&[&a, &a, &a], 2, 2);
    assert_eq!(
        (u64::from(image.width), u64::from(image.height)),
        render::sheet_size(10, 4, 3, 2, 2)
    );
    let label_pixels = image.rgb.chunks(3).filter(|p| *p == render::LABEL).count();
    // "D3" three times: D has 10 dots, 3 has 11, each dot 4x4 pixels.
    assert_eq!(label_pixels, 3 * 21 * 16);
    // Somewhere below the first label sits the level's border.
    assert!(image.rgb.chunks(3).any(|p| p == render::BORDER));
}

#[test]
fn render_command_writes_a_png() {
    let dir = TempDir::new("render");
    let cfg = dir.file("small.ron", "(width: 80, height: 21, levels: 3)");
    let out = dir.join("one.png").display().to_string();
    let o = delve(&[
        "render", "--seed", "1", "--config", &cfg, "--depth", "2", "--scale", "2", "--out", &out,
    ]);
    ok(&o);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&out).unwrap()));
    let reader = decoder.read_info().unwrap();
    assert_eq!((reader.info().width, reader.info().height), (160, 42));
    let one = std::fs::read(&out).unwrap();
    // The same seed draws the same picture.
    let o = delve(&[
        "render", "--seed", "1", "--config", &cfg, "--depth", "2", "--scale", "2", "--out", &out,
    ]);
    ok(&o);
    assert_eq!(std::fs::read(&out).unwrap(), one);

    let all = dir.join("all.png").display().to_string();
    let o = delve(&[
        "render", "--seed", "1", "--config", &cfg, "--all", "--scale", "1", "--out", &all,
    ]);
    ok(&o);
    let reader = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&all).unwrap()))
        .read_info()
        .unwrap();
    let (w, h) = render::sheet_size(80, 21, 3, 1, 5);
    assert_eq!(
        (
            u64::from(reader.info().width),
            u64::from(reader.info().height)
        ),
        (w, h)
    );
}

#[test]
fn render_refuses_bad_arguments() {
    for args in [
        vec!["render", "--out", "x.png", "--scale", "0"],
        vec!["render", "--out", "x.png", "--scale", "33"],
        vec!["render", "--out", "x.png", "--depth", "11"],
        vec!["render", "--out", "x.png", "--depth", "2", "--all"],
        vec!["render", "--seed", "1"],
    ] {
        let o = delve(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
    let o = delve(&["render", "--seed", "1", "--out", "/no/such/dir/x.png"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/no/such/dir/x.png"));
}

#[test]
fn labels_of_narrow_levels_do_not_run_together() {
    // Levels narrower than their labels ("D10" at scale 1 is wider than a
    // 4-cell level): each label keeps all its pixels, none painted over by
    // a neighbour's, and the sheet has the size announced before drawing.
    let levels: Vec<Level> = (1..=12)
        .map(|d| Level::from_rows(d, &["    ", " .. ", "    "], vec![]))
        .collect();
    let refs: Vec<&Level> = levels.iter().collect();
    let label_pixels = |image: &Image| image.rgb.chunks(3).filter(|p| *p == render::LABEL).count();
    let alone: usize = refs
        .iter()
        .map(|l| label_pixels(&render::sheet(&[*l], 1, 1)))
        .sum();
    let image = render::sheet(&refs, 1, 12);
    assert_eq!(label_pixels(&image), alone);
    assert_eq!(
        (u64::from(image.width), u64::from(image.height)),
        render::sheet_size(4, 3, 12, 1, 12)
    );
}

/// Issue 23, item 28: `--out x.jpg` wrote a PNG under a JPEG's name. A name
/// whose extension says another format is refused before anything is
/// made; `.png` in any case, or no extension, is written.
#[test]
fn render_refuses_a_file_name_of_another_format() {
    let dir = TempDir::new("render-ext");
    for name in ["x.jpg", "x.JPEG", "x.gif", "x.png.bak"] {
        let path = dir.join(name).display().to_string();
        let o = delve(&["render", "--seed", "1", "--out", &path]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("--out {path}: delve render writes PNG pictures")),
            "{err}"
        );
        assert!(!dir.join(name).exists(), "{name} was written");
    }
    for name in ["y.png", "y.PNG", "picture"] {
        let path = dir.join(name).display().to_string();
        let cfg = dir.file("small.ron", "(width: 30, height: 15, levels: 1)");
        ok(&delve(&[
            "render", "--seed", "1", "--config", &cfg, "--out", &path,
        ]));
        assert!(
            std::fs::read(&path).unwrap().starts_with(b"\x89PNG"),
            "{name}"
        );
    }
}
