//! Keys and the commands they trigger, as data (`data/keymap.ron`).
//!
//! Commands are named things the viewer can do; the keymap only says which
//! keys reach them, so a player can rebind keys without touching code and
//! the help screen is always generated from the bindings in force. Keys are
//! our own small type rather than the terminal library's, so key-sequence
//! tests can drive the viewer from a plain string.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::ron_diag::{ConfigError, FieldIndex, Location, parse, read_text};

/// A key press, as far as the viewer cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// A printable character, case kept (`k` and `K` are different keys).
    Char(char),
    /// Control plus a lower-case letter.
    Ctrl(char),
    /// Arrow key.
    Up,
    /// Arrow key.
    Down,
    /// Arrow key.
    Left,
    /// Arrow key.
    Right,
    /// Also the numpad's 7 with Num Lock off.
    Home,
    /// Also the numpad's 1 with Num Lock off.
    End,
    /// Also the numpad's 9 with Num Lock off.
    PageUp,
    /// Also the numpad's 3 with Num Lock off.
    PageDown,
    /// The numpad's 5 with Num Lock off.
    Begin,
    /// Return.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Backspace.
    Backspace,
}

const NAMED: [(&str, Key); 13] = [
    ("Up", Key::Up),
    ("Down", Key::Down),
    ("Left", Key::Left),
    ("Right", Key::Right),
    ("Home", Key::Home),
    ("End", Key::End),
    ("PageUp", Key::PageUp),
    ("PageDown", Key::PageDown),
    ("Begin", Key::Begin),
    ("Enter", Key::Enter),
    ("Esc", Key::Esc),
    ("Tab", Key::Tab),
    ("Backspace", Key::Backspace),
];

impl Key {
    /// Parses a key name as written in the keymap: a single character
    /// (`"k"`, `">"`), a named key (`"Up"`, `"PageDown"`, `"Esc"`), `"Space"`,
    /// or `"Ctrl-"` and a letter.
    pub fn parse(name: &str) -> Option<Key> {
        if let Some(&(_, key)) = NAMED.iter().find(|(n, _)| *n == name) {
            return Some(key);
        }
        if name == "Space" {
            return Some(Key::Char(' '));
        }
        if let Some(rest) = name.strip_prefix("Ctrl-") {
            let mut chars = rest.chars();
            return match (chars.next(), chars.next()) {
                // Terminals send these as Enter, Enter, Tab and Backspace.
                (Some('m' | 'M' | 'j' | 'J' | 'i' | 'I' | 'h' | 'H'), None) => None,
                (Some(c), None) if c.is_ascii_alphabetic() => {
                    Some(Key::Ctrl(c.to_ascii_lowercase()))
                }
                _ => None,
            };
        }
        let mut chars = name.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() && c != ' ' => Some(Key::Char(c)),
            _ => None,
        }
    }

    /// Keys of a plain string, one a character: how tests type.
    pub fn typed(text: &str) -> Vec<Key> {
        text.chars().map(Key::Char).collect()
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Char(' ') => f.write_str("Space"),
            Key::Char(c) => write!(f, "{c}"),
            Key::Ctrl(c) => write!(f, "Ctrl-{c}"),
            other => {
                let name = NAMED
                    .iter()
                    .find(|(_, k)| k == other)
                    .map_or("?", |(n, _)| n);
                f.write_str(name)
            }
        }
    }
}

/// Something the player can ask the viewer to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Command {
    /// A king move (also moves the look cursor, scrolls lists).
    Move {
        /// Column step, -1 to 1.
        dx: i8,
        /// Row step, -1 to 1.
        dy: i8,
    },
    /// Let a turn pass in place.
    Wait,
    /// Wait until hit points are full or something interrupts (Combat).
    Rest,
    /// Take the down staircase here, or travel toward one.
    Descend,
    /// Take the up staircase here, or travel toward one.
    Ascend,
    /// Auto-explore until something comes into view.
    Explore,
    /// Search the cells around for secret doors, a turn (rules 3).
    Search,
    /// Close an open door next to the player (asks which way if several).
    Close,
    /// Pick up the item here (Combat).
    PickUp,
    /// Show the pack.
    Inventory,
    /// Wield a weapon or put on armour: asks which.
    Wield,
    /// Drink a potion: asks which.
    Quaff,
    /// Read a scroll: asks which.
    Read,
    /// Drop an item: asks which.
    Drop,
    /// Fire a missile (rules 4): aims at the nearest monster in view.
    Fire,
    /// Zap a wand (rules 4): asks which, then aims.
    Zap,
    /// While aiming, the next monster in view.
    NextTarget,
    /// The character sheet.
    Character,
    /// The whole level, scaled to the screen.
    Overview,
    /// A cursor that says what is under it.
    Look,
    /// The message history.
    History,
    /// The help screen, built from the keymap.
    Help,
    /// Save the run and keep playing.
    Save,
    /// Save the run and quit.
    SaveQuit,
    /// Ctrl-C: ask whether to save, then quit.
    Interrupt,
    /// Ctrl-Z: give the terminal back to the shell until resumed (`fg`).
    Suspend,
    /// Ctrl-R: draw the whole screen again, after something else wrote on it.
    Redraw,
    /// Leave a screen or a mode.
    Cancel,
}

/// The keymap file: for each command, the keys that trigger it. Commands
/// left out keep their default keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct KeymapFile {
    north: Vec<String>,
    south: Vec<String>,
    west: Vec<String>,
    east: Vec<String>,
    north_west: Vec<String>,
    north_east: Vec<String>,
    south_west: Vec<String>,
    south_east: Vec<String>,
    wait: Vec<String>,
    rest: Vec<String>,
    descend: Vec<String>,
    ascend: Vec<String>,
    explore: Vec<String>,
    search: Vec<String>,
    close: Vec<String>,
    pick_up: Vec<String>,
    inventory: Vec<String>,
    wield: Vec<String>,
    quaff: Vec<String>,
    read: Vec<String>,
    drop: Vec<String>,
    fire: Vec<String>,
    zap: Vec<String>,
    next_target: Vec<String>,
    character: Vec<String>,
    overview: Vec<String>,
    look: Vec<String>,
    history: Vec<String>,
    help: Vec<String>,
    save: Vec<String>,
    save_quit: Vec<String>,
    interrupt: Vec<String>,
    suspend: Vec<String>,
    redraw: Vec<String>,
    cancel: Vec<String>,
}

impl Default for KeymapFile {
    fn default() -> Self {
        let keys = |names: &[&str]| names.iter().map(|s| s.to_string()).collect();
        KeymapFile {
            north: keys(&["k", "Up"]),
            south: keys(&["j", "Down"]),
            west: keys(&["h", "Left"]),
            east: keys(&["l", "Right"]),
            north_west: keys(&["y", "Home"]),
            north_east: keys(&["u", "PageUp"]),
            south_west: keys(&["b", "End"]),
            south_east: keys(&["n", "PageDown"]),
            wait: keys(&[".", "Begin"]),
            rest: keys(&["Z"]),
            descend: keys(&[">"]),
            ascend: keys(&["<"]),
            explore: keys(&["o"]),
            search: keys(&["s"]),
            close: keys(&["c"]),
            pick_up: keys(&["g", ","]),
            inventory: keys(&["i"]),
            wield: keys(&["w"]),
            quaff: keys(&["q"]),
            read: keys(&["r"]),
            drop: keys(&["d"]),
            fire: keys(&["f"]),
            zap: keys(&["z"]),
            next_target: keys(&["Tab"]),
            character: keys(&["C"]),
            overview: keys(&["m"]),
            look: keys(&["x"]),
            history: keys(&["P"]),
            help: keys(&["?"]),
            save: keys(&["S"]),
            save_quit: keys(&["Q"]),
            interrupt: keys(&["Ctrl-c"]),
            suspend: keys(&["Ctrl-z"]),
            redraw: keys(&["Ctrl-r"]),
            cancel: keys(&["Esc"]),
        }
    }
}

impl KeymapFile {
    /// Each field with its command, in the order the help lists them.
    fn fields(&self) -> [(&'static str, Command, &Vec<String>); 35] {
        let mv = |dx, dy| Command::Move { dx, dy };
        [
            ("north", mv(0, -1), &self.north),
            ("south", mv(0, 1), &self.south),
            ("west", mv(-1, 0), &self.west),
            ("east", mv(1, 0), &self.east),
            ("north_west", mv(-1, -1), &self.north_west),
            ("north_east", mv(1, -1), &self.north_east),
            ("south_west", mv(-1, 1), &self.south_west),
            ("south_east", mv(1, 1), &self.south_east),
            ("wait", Command::Wait, &self.wait),
            ("rest", Command::Rest, &self.rest),
            ("descend", Command::Descend, &self.descend),
            ("ascend", Command::Ascend, &self.ascend),
            ("explore", Command::Explore, &self.explore),
            ("search", Command::Search, &self.search),
            ("close", Command::Close, &self.close),
            ("pick_up", Command::PickUp, &self.pick_up),
            ("inventory", Command::Inventory, &self.inventory),
            ("wield", Command::Wield, &self.wield),
            ("quaff", Command::Quaff, &self.quaff),
            ("read", Command::Read, &self.read),
            ("drop", Command::Drop, &self.drop),
            ("fire", Command::Fire, &self.fire),
            ("zap", Command::Zap, &self.zap),
            ("next_target", Command::NextTarget, &self.next_target),
            ("character", Command::Character, &self.character),
            ("overview", Command::Overview, &self.overview),
            ("look", Command::Look, &self.look),
            ("history", Command::History, &self.history),
            ("help", Command::Help, &self.help),
            ("save", Command::Save, &self.save),
            ("save_quit", Command::SaveQuit, &self.save_quit),
            ("interrupt", Command::Interrupt, &self.interrupt),
            ("suspend", Command::Suspend, &self.suspend),
            ("redraw", Command::Redraw, &self.redraw),
            ("cancel", Command::Cancel, &self.cancel),
        ]
    }
}

/// What each command does, for the help screen.
fn describe(field: &str) -> &'static str {
    match field {
        "north" => "move north",
        "south" => "move south",
        "west" => "move west",
        "east" => "move east",
        "north_west" => "move north-west",
        "north_east" => "move north-east",
        "south_west" => "move south-west",
        "south_east" => "move south-east",
        "wait" => "wait (20. waits 20)",
        "rest" => "rest until healed",
        "descend" => "go down stairs here, else travel to the nearest known >",
        "ascend" => "go up stairs here, else travel to the nearest known <",
        "explore" => "auto-explore until something comes into view",
        "search" => "search for secret doors",
        "close" => "close an open door",
        "pick_up" => "pick up the item here",
        "inventory" => "list what you carry",
        "wield" => "wield or wear (asks which)",
        "quaff" => "drink a potion",
        "read" => "read a scroll",
        "drop" => "drop an item",
        "fire" => "fire a missile (then aim)",
        "zap" => "zap a wand (then aim)",
        "next_target" => "next target, while aiming",
        "character" => "character sheet",
        "overview" => "the whole level",
        "look" => "what lies under a cursor",
        "history" => "message history",
        "help" => "this help",
        "save" => "save the run",
        "save_quit" => "save and quit",
        "interrupt" => "quit, asking whether to save first",
        "suspend" => "suspend (fg resumes)",
        "redraw" => "redraw the whole screen",
        "cancel" => "leave a screen or mode; stop travel",
        _ => "",
    }
}

/// A line of the help screen: a command, its keys, what it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HelpEntry {
    /// The command bound.
    pub command: Command,
    /// The keys, space-separated, as a keymap file names them.
    pub keys: String,
    /// One line on what the command does, the same whatever the keys.
    pub what: &'static str,
}

/// Keys bound to commands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keymap {
    /// Sorted by key, for lookup.
    bindings: Vec<(Key, Command)>,
    /// Help lines, in file order.
    help: Vec<HelpEntry>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::build(&KeymapFile::default(), None).expect("the default keymap is valid")
    }
}

/// The most keys one command may have. Each key is checked against every
/// key bound before it, and the help screen lists them on one line: a
/// handful is all a hand uses.
pub const MAX_KEYS_PER_COMMAND: usize = 16;

impl Keymap {
    /// Reads, parses and checks a keymap file (`data/keymap.ron`).
    pub fn load(path: &Path) -> Result<Keymap, ConfigError> {
        let (text, origin) = read_text(path)?;
        Keymap::from_ron(&text, &origin)
    }

    /// Parses and checks a keymap file. Errors are located like config
    /// errors: `keymap.ron:4:12: look: "Ctrl-" is not a key name ...`.
    pub fn from_ron(text: &str, origin: &str) -> Result<Keymap, ConfigError> {
        let (file, fields): (KeymapFile, FieldIndex) = parse(text, origin, |_, _, _| Ok(()))?;
        Keymap::build(&file, Some((&fields, origin)))
    }

    /// The default keymap as RON text (what `data/keymap.ron` holds, without
    /// its comments).
    pub fn default_ron() -> String {
        ron::ser::to_string_pretty(&KeymapFile::default(), ron::ser::PrettyConfig::default())
            .expect("a keymap always serialises")
    }

    fn build(
        file: &KeymapFile,
        located: Option<(&FieldIndex, &str)>,
    ) -> Result<Keymap, ConfigError> {
        let error = |field: &str, message: String| {
            let (line, column) = located.map_or((1, 1), |(f, _)| f.locate(field));
            ConfigError::Invalid {
                location: Location {
                    origin: located.map_or("built-in keymap", |(_, o)| o).to_string(),
                    line,
                    column,
                },
                field: field.to_string(),
                message,
            }
        };
        let mut bindings: Vec<(Key, Command, &str)> = Vec::new();
        let mut help = Vec::new();
        for (field, command, names) in file.fields() {
            if names.len() > MAX_KEYS_PER_COMMAND {
                return Err(error(
                    field,
                    format!(
                        "at most {MAX_KEYS_PER_COMMAND} keys a command, got {}",
                        names.len()
                    ),
                ));
            }
            let mut keys = Vec::new();
            for name in names {
                let key = Key::parse(name).ok_or_else(|| {
                    error(
                        field,
                        format!(
                            "{name:?} is not a key name; use one character (\"k\", \">\"), \
                             Space, Ctrl- and a letter (not h, i, j or m, which terminals \
                             send as other keys), or one of {}",
                            NAMED.map(|(n, _)| n).join(", ")
                        ),
                    )
                })?;
                if let Some(&(_, _, other)) = bindings.iter().find(|(k, _, _)| *k == key) {
                    let written = |f: &str| located.is_some_and(|(idx, _)| idx.is_written(f));
                    // Blame the command the file binds: if this one only
                    // has its default keys, the clash is the other's doing.
                    return Err(if written(field) || !written(other) {
                        error(
                            field,
                            format!("{name:?} is already bound to {other}; a key can do one thing"),
                        )
                    } else {
                        error(
                            other,
                            format!(
                                "{name:?} is also {field}'s default key; a key can do one thing, \
                                 so give {field} other keys too"
                            ),
                        )
                    });
                }
                bindings.push((key, command, field));
                keys.push(key.to_string());
            }
            help.push(HelpEntry {
                command,
                keys: keys.join(" "),
                what: describe(field),
            });
        }
        for (needed, why) in [
            ("save_quit", "there would be no way to save and quit"),
            ("cancel", "there would be no way to leave a screen"),
        ] {
            if !bindings.iter().any(|(_, _, f)| *f == needed) {
                return Err(error(needed, format!("needs at least one key: {why}")));
            }
        }
        let mut bindings: Vec<(Key, Command)> =
            bindings.into_iter().map(|(k, c, _)| (k, c)).collect();
        bindings.sort();
        Ok(Keymap { bindings, help })
    }

    /// The command a key triggers, if any.
    pub fn command(&self, key: Key) -> Option<Command> {
        self.bindings
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| self.bindings[i].1)
    }

    /// The first key bound to a command, for hints such as "? for help".
    pub fn key_for(&self, command: Command) -> Option<Key> {
        self.help_order_keys(command).into_iter().next()
    }

    fn help_order_keys(&self, command: Command) -> Vec<Key> {
        let mut keys: Vec<Key> = self
            .bindings
            .iter()
            .filter(|&&(_, c)| c == command)
            .map(|&(k, _)| k)
            .collect();
        // Letters first, then other characters, then named keys: what most
        // players type, and what reads best in a hint.
        keys.sort_by_key(|k| {
            let rank = match k {
                Key::Char(c) if c.is_alphabetic() => 0,
                Key::Char(c) if c.is_ascii_digit() => 2,
                Key::Char(_) => 1,
                _ => 3,
            };
            (rank, *k)
        });
        keys
    }

    /// Help lines: the keys of each command and what it does.
    pub fn help(&self) -> &[HelpEntry] {
        &self.help
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "k", ">", "?", "Up", "PageDown", "Begin", "Esc", "Ctrl-c", "Space",
        ] {
            let key = Key::parse(name).unwrap();
            assert_eq!(key.to_string(), name);
        }
        for bad in [
            "", "kk", "Ctrl-", "Ctrl-1", "Ctrl-m", "Ctrl-i", "F13", "up", "\t",
        ] {
            assert_eq!(Key::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn default_bindings() {
        let map = Keymap::default();
        assert_eq!(
            map.command(Key::Char('h')),
            Some(Command::Move { dx: -1, dy: 0 })
        );
        assert_eq!(
            map.command(Key::PageDown),
            Some(Command::Move { dx: 1, dy: 1 })
        );
        // Digits are left for counts (`5s`).
        assert_eq!(map.command(Key::Char('5')), None);
        assert_eq!(map.command(Key::Begin), Some(Command::Wait));
        assert_eq!(map.command(Key::Char('s')), Some(Command::Search));
        assert_eq!(map.command(Key::Char('c')), Some(Command::Close));
        assert_eq!(map.command(Key::Ctrl('c')), Some(Command::Interrupt));
        assert_eq!(map.command(Key::Char('z')), Some(Command::Zap));
        assert_eq!(map.key_for(Command::Help), Some(Key::Char('?')));
        assert_eq!(
            map.key_for(Command::Move { dx: 0, dy: -1 }),
            Some(Key::Char('k'))
        );
        assert_eq!(map.key_for(Command::Wait), Some(Key::Char('.')));
    }

    #[test]
    fn errors_are_located() {
        let text = "(\n    look: [\"x\"],\n    help: [\"F1\"],\n)\n";
        let e = Keymap::from_ron(text, "k.ron").unwrap_err().to_string();
        assert!(
            e.starts_with("k.ron:3:5: help: \"F1\" is not a key name"),
            "{e}"
        );

        let text = "(\n    look: [\"h\"],\n)\n";
        let e = Keymap::from_ron(text, "k.ron").unwrap_err().to_string();
        assert!(
            e.starts_with("k.ron:2:5: look: \"h\" is already bound to west"),
            "{e}"
        );

        // Taking a default key of a command the file leaves alone blames
        // the line the file wrote.
        let text = "(\n    look: [\"x\"],\n    north: [\"j\"],\n)\n";
        let e = Keymap::from_ron(text, "k.ron").unwrap_err().to_string();
        assert!(
            e.starts_with("k.ron:3:5: north: \"j\" is also south's default key"),
            "{e}"
        );

        let text = "(\n    save_quit: [],\n)\n";
        let e = Keymap::from_ron(text, "k.ron").unwrap_err().to_string();
        assert!(
            e.starts_with("k.ron:2:5: save_quit: needs at least one key"),
            "{e}"
        );

        let e = Keymap::from_ron("(jump: [\"J\"])", "k.ron")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown field") && e.starts_with("k.ron:1:2"),
            "{e}"
        );
    }

    #[test]
    fn rebinding_moves_a_key() {
        // Freeing "h" from west lets look take it.
        let text = "(west: [\"Left\"], look: [\"h\", \"x\"])";
        let map = Keymap::from_ron(text, "k.ron").unwrap();
        assert_eq!(map.command(Key::Char('h')), Some(Command::Look));
        assert_eq!(
            map.command(Key::Left),
            Some(Command::Move { dx: -1, dy: 0 })
        );
        // A digit bound to a command does it (and is no count).
        let text = "(west: [\"h\", \"Left\", \"4\"])";
        let map = Keymap::from_ron(text, "k.ron").unwrap();
        assert_eq!(
            map.command(Key::Char('4')),
            Some(Command::Move { dx: -1, dy: 0 })
        );
    }
}
