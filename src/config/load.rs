//! Reading a config file, the one part of `config` with a path: the
//! text goes through `ron_diag` to a `Config`, and a problem the checks
//! find is given back its place in the file, inside the right profile.

use std::path::Path;

use crate::config::Config;
use crate::config::problem::Problem;
use crate::config::profile;
use crate::config::simulation::{Goal, Rules};
use crate::ron_diag::{ConfigError, FieldIndex, Location, parse, read_text};

impl Config {
    /// Reads, parses and validates a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        Config::load_telling(path).map(|(config, _)| config)
    }

    /// [`Config::load`], and whether the file writes `profiles` at all: a
    /// file that leaves them out has none, which a reader who changed one
    /// setting of the shipped file may not expect (`profiles: []` is
    /// written on purpose).
    pub fn load_telling(path: &Path) -> Result<(Config, bool), ConfigError> {
        let (text, origin) = read_text(path)?;
        Config::from_ron_telling(&text, &origin)
    }

    /// Parses and validates RON text; `origin` names it in errors.
    pub fn from_ron(text: &str, origin: &str) -> Result<Config, ConfigError> {
        Config::from_ron_telling(text, origin).map(|(config, _)| config)
    }

    fn from_ron_telling(text: &str, origin: &str) -> Result<(Config, bool), ConfigError> {
        let (mut config, fields) =
            parse(text, origin, check_config).map_err(stack_field_in_profile)?;
        // Each game has its own goal unless the file names one: Stomp's is
        // 001's (kill every monster), Combat's is the bottom of the stack.
        if !fields.is_written("simulation.goal") && config.simulation.rules == Rules::Stomp {
            config.simulation.goal = Goal::KillAll;
        }
        Ok((config, fields.is_written("profiles")))
    }

    /// The config as RON, every field written out.
    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::default()
            .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
        ron::ser::to_string_pretty(self, pretty).expect("a Config always serialises")
    }
}

/// A profile that sets `width`, `height` or `levels` is told why it may
/// not, rather than given the list of the fields it may set.
fn stack_field_in_profile(error: ConfigError) -> ConfigError {
    match error {
        ConfigError::Syntax {
            location,
            field: Some(field),
            message,
        } if message.starts_with("unknown field") => {
            let message = match profile::entry_of(&field) {
                Some((_, name @ ("width" | "height" | "levels"))) => format!(
                    "`{name}` is not a profile's to set: width, height and levels belong to the \
                     whole stack (set them at the top of the file)"
                ),
                _ => message,
            };
            ConfigError::Syntax {
                location,
                field: Some(field),
                message,
            }
        }
        other => other,
    }
}

/// [`Config::validate`], with the problem located where the file wrote it.
fn check_config(config: &Config, fields: &FieldIndex, origin: &str) -> Result<(), ConfigError> {
    config.validate().map_err(|problem| {
        let (line, column) = locate(&problem, fields);
        ConfigError::Invalid {
            location: Location {
                origin: origin.into(),
                line,
                column,
            },
            field: problem.field,
            message: problem.message,
        }
    })
}

/// Where the file writes the field a problem is about: the field itself, or
/// the one sharing the blame when only that is written, or else the
/// field's nearest written parent. A field of a profile
/// (`profiles[1].rooms.count.max`) is looked for inside that entry of the
/// list alone, since every entry's keys have the same paths.
fn locate(problem: &Problem, fields: &FieldIndex) -> (usize, usize) {
    let written = |path: &str| match profile::entry_of(path) {
        Some((entry, field)) => {
            fields.written_in_entry("profiles", entry, &format!("profiles.{field}"))
        }
        None => fields.is_written(path).then(|| fields.locate(path)),
    };
    let nearest = |path: &str| match profile::entry_of(path) {
        Some((entry, field)) => fields
            .locate_in_entry("profiles", entry, &format!("profiles.{field}"))
            .unwrap_or_else(|| fields.locate("profiles")),
        None => fields.locate(path),
    };
    written(&problem.field)
        .or_else(|| problem.instead.as_deref().and_then(written))
        .unwrap_or_else(|| nearest(&problem.field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::corridors::{CorridorStyle, DeadEndPolicy, LoopConfig};
    use crate::config::range::Range;
    use crate::config::rooms::RoomConfig;

    fn err(text: &str) -> ConfigError {
        Config::from_ron(text, "mine.ron").unwrap_err()
    }

    #[test]
    fn three_fields_are_a_complete_config() {
        let c = Config::from_ron("(width: 80, height: 21, levels: 3)", "x").unwrap();
        assert_eq!((c.width, c.height, c.levels), (80, 21, 3));
        assert_eq!(c.rooms, RoomConfig::default());
    }

    #[test]
    fn empty_struct_is_the_default() {
        assert_eq!(Config::from_ron("()", "x").unwrap(), Config::default());
    }

    #[test]
    fn defaults_validate() {
        Config::default().validate().unwrap();
    }

    #[test]
    fn round_trips_through_ron() {
        let c = Config::default();
        assert_eq!(Config::from_ron(&c.to_ron(), "x").unwrap(), c);
    }

    /// Every profile has the same keys: an error found while parsing one
    /// names its entry, as an error found by the checks does.
    #[test]
    fn parse_errors_inside_a_profile_name_its_entry() {
        let text = |second: &str| {
            format!(
                "(levels: 3,\n profiles: [\n  (depths: (min: 1, max: 1)),\n  (depths: (min: 2), {second}),\n ])"
            )
        };
        for (second, want) in [
            (
                "rooms: (count: (max: 12), wdith: 3)",
                "mine.ron:4:48: profiles[1].rooms.wdith: unknown field \"wdith\", expected one of",
            ),
            (
                "rooms: (count: (max: 12.5))",
                "mine.ron:4:45: profiles[1].rooms.count.max: this field takes a whole number",
            ),
            (
                "corridors: Tunel",
                "mine.ron:4:33: profiles[1].corridors: unexpected variant named `Tunel`",
            ),
            (
                "extra_loops: (ratio: 2.0, ratio: 3.0)",
                "mine.ron:4:48: profiles[1].extra_loops.ratio: field \"ratio\" appears twice",
            ),
            (
                "width: 100",
                "mine.ron:4:22: profiles[1].width: `width` is not a profile's to set: width, height \
                 and levels belong to the whole stack",
            ),
            (
                "rooms: (count: (max: 99999999999))",
                "mine.ron:4:43: profiles[1].rooms.count.max: at depths 2 and deeper: must be at most",
            ),
        ] {
            let e = err(&text(second)).to_string();
            assert!(e.starts_with(want) || e.contains(want), "{second}: {e}");
        }
        // Outside the list, paths are as they were.
        let e = err("(rooms: (wdith: 3), profiles: [(depths: (min: 1))])").to_string();
        assert!(
            e.starts_with("mine.ron:1:10: rooms.wdith: unknown field"),
            "{e}"
        );
        // An unclosed profile names its entry too.
        let e = err("(profiles: [(depths: (min: 1)), (rooms: (count: (min: 3)").to_string();
        assert!(
            e.contains("profiles[1].rooms: the file ends before the `(` at 1:41"),
            "{e}"
        );
    }

    #[test]
    fn unknown_field_names_file_line_column_and_path() {
        let e = err("(\n  rooms: (\n    max_rom: 3,\n  ),\n)");
        let s = e.to_string();
        assert!(
            s.starts_with("mine.ron:3:5: rooms.max_rom: unknown field \"max_rom\""),
            "{s}"
        );
        assert!(s.contains("\"count\""), "{s}");
        assert_eq!(e.field(), Some("rooms.max_rom"));
    }

    #[test]
    fn unknown_top_level_field() {
        let s = err("(widht: 80)").to_string();
        assert!(
            s.starts_with("mine.ron:1:2: widht: unknown field \"widht\""),
            "{s}"
        );
    }

    #[test]
    fn type_errors_name_the_field() {
        let e = err("(\n  width: \"wide\",\n)");
        assert_eq!(e.field(), Some("width"));
        assert!(e.to_string().starts_with("mine.ron:2:"), "{e}");
        let e = err("(rooms: (count: (min: -3, max: 4)))");
        assert_eq!(e.field(), Some("rooms.count.min"), "{e}");
    }

    #[test]
    fn syntax_errors_have_a_position() {
        let e = err("(width: 80,\n height: 21");
        assert!(e.to_string().starts_with("mine.ron:2:"), "{e}");
    }

    #[test]
    fn validation_points_at_the_offending_line() {
        let e = err("(\n  width: 80,\n  height: 10,\n)");
        assert_eq!(
            e.to_string(),
            "mine.ron:3:3: height: must be from 15 to 2000, got 10"
        );
    }

    #[test]
    fn empty_range_refused() {
        let e = err("(rooms: (\n width: (min: 9, max: 4)))");
        assert_eq!(e.field(), Some("rooms.width"));
        assert!(e.to_string().starts_with("mine.ron:2:2:"), "{e}");
        assert!(e.to_string().contains("is empty"), "{e}");
    }

    #[test]
    fn nan_and_out_of_range_fractions_refused() {
        for v in ["NaN", "inf", "-0.5", "1.5"] {
            let e = err(&format!("(rooms: (circle_share: {v}))"));
            assert_eq!(e.field(), Some("rooms.circle_share"), "{v}: {e}");
        }
        let e = err("(tunnel: (hardness_weight: NaN))");
        assert_eq!(e.field(), Some("tunnel.hardness_weight"));
    }

    #[test]
    fn negative_numbers_refused() {
        let e = err("(levels: -1)");
        assert_eq!(e.field(), Some("levels"), "{e}");
    }

    #[test]
    fn room_minimum_that_cannot_fit_says_why() {
        let e = err("(width: 30, height: 15, rooms: (count: (min: 60, max: 60)))");
        let s = e.to_string();
        assert_eq!(e.field(), Some("rooms.count.min"));
        assert!(s.contains("cannot fit"), "{s}");
        assert!(s.contains("30x15"), "{s}");
    }

    #[test]
    fn big_levels_accepted() {
        Config::from_ron("(width: 1000, height: 1000)", "x").unwrap();
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let e = err("(/* ü */ tunnel: (step_cost: 0))");
        assert!(
            e.to_string().starts_with("mine.ron:1:19: tunnel.step_cost"),
            "{e}"
        );
        let e = err("(/* éééééééééé */ rooms: (count: (min: 5, max: 40)), width: \"x\")");
        assert_eq!(e.field(), Some("width"), "{e}");
        let e = err("(/* éééééééééééééééééééé */ rooms: (count: (min: 1, max: 9), foo: 1))");
        assert_eq!(e.field(), Some("rooms.foo"), "{e}");
    }

    #[test]
    fn errors_after_a_closed_struct_blame_no_field_inside_it() {
        let e = err("(rooms: (max_doors: 3))  garbage");
        assert_eq!(e.field(), None, "{e}");
        let e = err("(rooms: (max_doors: 3)");
        assert_ne!(e.field(), Some("rooms.max_doors"), "{e}");
    }

    #[test]
    fn byte_order_mark_is_ignored() {
        let c = Config::from_ron("\u{feff}(width: 80, height: 21)", "x").unwrap();
        assert_eq!(c.width, 80);
        let e = err("\u{feff}(width: 10)");
        assert!(e.to_string().starts_with("mine.ron:1:2: width"), "{e}");
    }

    #[test]
    fn comment_between_key_and_colon() {
        let e = err("(width: 80, height /* short */ : 10)");
        assert!(e.to_string().starts_with("mine.ron:1:13: height"), "{e}");
    }

    #[test]
    fn overflowing_room_sizes_are_judged_correctly() {
        // 257x257 discs must not wrap round to look small.
        let text = "(width: 2000, height: 2000, levels: 1, rooms: (count: (min: 300, max: 300), \
                    width: (min: 30, max: 30), height: (min: 30, max: 30), circle_share: 0.5, \
                    circle_radius: (min: 128, max: 128)))";
        Config::from_ron(text, "x").unwrap();
    }

    #[test]
    fn effort_and_size_are_bounded() {
        assert_eq!(
            err("(rooms: (give_up_streak: 4294967295))").field(),
            Some("rooms.give_up_streak")
        );
        assert_eq!(
            err("(rooms: (attempts_per_room: 60000))").field(),
            Some("rooms.attempts_per_room")
        );
        assert_eq!(
            err("(width: 2000, height: 2000, levels: 1000)").field(),
            Some("levels")
        );
        assert_eq!(
            err("(tunnel: (turn_penalty: 65535))").field(),
            Some("tunnel.turn_penalty")
        );
    }

    #[test]
    fn a_range_may_give_one_bound() {
        let c = Config::from_ron("(rooms: (count: (max: 20), width: (min: 5)))", "x").unwrap();
        assert_eq!(c.rooms.count, Range::new(5, 20));
        assert_eq!(c.rooms.width, Range::new(5, 14));
        let e = err("(rooms: (count: (mix: 20)))");
        assert_eq!(e.field(), Some("rooms.count.mix"), "{e}");
    }

    #[test]
    fn decimals_in_whole_number_fields_say_so() {
        let e = err("(width: 80.5)");
        assert!(e.to_string().contains("whole number"), "{e}");
        assert_eq!(e.field(), Some("width"));
        let e = err("(width: 8O)");
        assert!(e.to_string().contains("found `O`"), "{e}");
    }

    #[test]
    fn messages_do_not_name_rust_types() {
        for text in ["(rooms: 3)", "[1, 2]", "(rooms: (count: 4))"] {
            let e = err(text).to_string();
            assert!(
                !e.contains("RoomConfig") && !e.contains("Range`") && !e.contains("`Config`"),
                "{e}"
            );
        }
    }

    #[test]
    fn layout_options_are_validated_and_located() {
        let e = err("(\n  corridors: Grid,\n  grid_spacing: 2,\n)");
        assert_eq!(
            e.to_string(),
            "mine.ron:3:3: grid_spacing: must be from 3 to 64 cells, got 2"
        );
        let e = err("(extra_loops: (count: 2, ratio: 1.0))");
        assert_eq!(e.field(), Some("extra_loops.ratio"), "{e}");
        assert!(e.to_string().starts_with("mine.ron:1:26:"), "{e}");
        assert_eq!(
            err("(extra_loops: (ratio: NaN))").field(),
            Some("extra_loops.ratio")
        );
        assert_eq!(
            err("(extra_loops: (max_length: 0))").field(),
            Some("extra_loops.max_length")
        );
        assert_eq!(
            err("(grid_segment: (min: 5, max: 2))").field(),
            Some("grid_segment")
        );
        let e = err("(corridors: Maze)");
        assert_eq!(e.field(), Some("corridors"), "{e}");
        assert!(e.to_string().contains("Straight"), "{e}");
        let e = err("(dead_ends: Trim)");
        assert_eq!(e.field(), Some("dead_ends"), "{e}");
        let e = err("(\n  corridors: Grid,\n  rooms: (max_doors: 1),\n)");
        assert_eq!(e.field(), Some("rooms.max_doors"), "{e}");
        assert!(e.to_string().starts_with("mine.ron:3:11:"), "{e}");
    }

    #[test]
    fn layout_options_parse_with_partial_ranges() {
        let c = Config::from_ron(
            "(corridors: DeadEnd, grid_segment: (max: 9), rooms_may_overlap: true, \
             extra_loops: (count: 3), dead_ends: Prune)",
            "x",
        )
        .unwrap();
        assert_eq!(c.corridors, CorridorStyle::DeadEnd);
        assert_eq!(c.grid_segment, Range::new(3, 9));
        assert!(c.rooms_may_overlap);
        assert_eq!(c.extra_loops.count, 3);
        assert_eq!(c.extra_loops.ratio, LoopConfig::default().ratio);
        assert_eq!(c.dead_ends, DeadEndPolicy::Prune);
        assert_eq!(Config::from_ron(&c.to_ron(), "x").unwrap(), c);
    }
}
