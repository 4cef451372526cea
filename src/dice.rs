//! Dice as the data files write them: `"2+1d6"`, `"3d4"`, `"1d8+2"`, `"5"`.
//!
//! A roll is the sum of `count` dice of `sides` faces plus a constant; the
//! written form is kept small (at most 100 dice of at most 1000 sides, a
//! constant below 10,000), so a roll never overflows and costs at most a
//! hundred draws. Rolling takes the caller's stream, so the simulation
//! decides which of its streams a roll comes from.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, RngExt};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most dice one expression may roll.
pub const MAX_COUNT: u16 = 100;
/// The most faces one die may have.
pub const MAX_SIDES: u16 = 1000;
/// The largest constant an expression may add.
pub const MAX_BONUS: u16 = 9999;

/// A dice expression: `count` dice of `sides` faces, plus `bonus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Dice {
    /// Dice rolled; 0 makes the expression a constant.
    pub count: u16,
    /// Faces of each die, so a roll is 1 to `sides`.
    pub sides: u16,
    /// Added after the dice, so weak dice still hurt.
    pub bonus: u16,
}

/// Why a dice expression was refused, and where in it (0-based character
/// column), so a data-file error can point into the string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} (at character {} of \"{text}\")", column + 1)]
pub struct DiceError {
    /// The expression as written, to quote it back.
    pub text: String,
    /// 0-based character the error points at.
    pub column: usize,
    /// What is wrong there, for the data file's author.
    pub message: String,
}

impl Dice {
    /// For shipped defaults, which need no parsing.
    pub const fn new(count: u16, sides: u16, bonus: u16) -> Dice {
        Dice {
            count,
            sides,
            bonus,
        }
    }

    /// The smallest roll.
    pub fn min(&self) -> u32 {
        u32::from(self.bonus)
            + if self.sides > 0 {
                u32::from(self.count)
            } else {
                0
            }
    }

    /// The largest roll.
    pub fn max(&self) -> u32 {
        u32::from(self.bonus) + u32::from(self.count) * u32::from(self.sides)
    }

    /// The mean roll, times two (an integer: a die's mean is (s+1)/2).
    pub fn mean_x2(&self) -> u32 {
        2 * u32::from(self.bonus) + u32::from(self.count) * (u32::from(self.sides) + 1)
            - if self.sides == 0 {
                u32::from(self.count)
            } else {
                0
            }
    }

    /// The mean roll.
    pub fn mean(&self) -> f64 {
        f64::from(self.mean_x2()) / 2.0
    }

    /// One roll from `rng`: exactly `count` draws (none for a constant).
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let mut total = u32::from(self.bonus);
        if self.sides > 0 {
            for _ in 0..self.count {
                total += rng.random_range(1..=u32::from(self.sides));
            }
        }
        total
    }

    /// Parses `[B+]NdS[+B]` or a bare constant `B`. Spaces are allowed
    /// around the parts; the constant may come first or last, not both.
    pub fn parse(text: &str) -> Result<Dice, DiceError> {
        let fail = |column: usize, message: String| DiceError {
            text: text.to_string(),
            column,
            message,
        };
        let chars: Vec<char> = text.chars().collect();
        if chars.iter().all(|c| c.is_whitespace()) {
            return Err(fail(
                0,
                "empty; write dice like \"1d6\", \"2+1d6\" or \"3\"".into(),
            ));
        }
        // Split on '+' into terms, remembering where each starts.
        let mut terms: Vec<(usize, String)> = Vec::new();
        let mut start = 0;
        let mut current = String::new();
        for (i, &c) in chars.iter().enumerate() {
            if c == '+' {
                terms.push((start, std::mem::take(&mut current)));
                start = i + 1;
            } else {
                current.push(c);
            }
        }
        terms.push((start, current));
        if terms.len() > 2 {
            let second_plus = chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '+')
                .nth(1)
                .map_or(0, |(i, _)| i);
            return Err(fail(
                second_plus,
                "at most one constant may be added to the dice".into(),
            ));
        }
        let mut dice: Option<(u16, u16)> = None;
        let mut bonus: Option<u16> = None;
        for (at, term) in &terms {
            let lead = term.chars().take_while(|c| c.is_whitespace()).count();
            let body = term.trim();
            let column = at + lead;
            if body.is_empty() {
                return Err(fail(column, "a number or dice is missing here".into()));
            }
            if let Some(d) = body.find(['d', 'D']) {
                if dice.is_some() {
                    return Err(fail(column, "only one kind of dice may be rolled".into()));
                }
                let d_col = column + body[..d].chars().count();
                let count_text = &body[..d];
                let sides_text = &body[d + 1..];
                let count = if count_text.is_empty() {
                    1
                } else {
                    number(count_text, column, "number of dice", MAX_COUNT, &fail)?
                };
                if sides_text.is_empty() {
                    return Err(fail(d_col + 1, "the number of sides is missing".into()));
                }
                let sides = number(sides_text, d_col + 1, "number of sides", MAX_SIDES, &fail)?;
                if count == 0 || sides == 0 {
                    return Err(fail(
                        column,
                        "dice need at least one die of at least one side".into(),
                    ));
                }
                dice = Some((count, sides));
            } else {
                let n = number(body, column, "constant", MAX_BONUS, &fail)?;
                if bonus.is_some() {
                    return Err(fail(column, "only one constant may be added".into()));
                }
                bonus = Some(n);
            }
        }
        let (count, sides) = dice.unwrap_or((0, 0));
        Ok(Dice::new(count, sides, bonus.unwrap_or(0)))
    }
}

/// A whole number from `text` (already trimmed), at most `max`.
fn number(
    text: &str,
    column: usize,
    what: &str,
    max: u16,
    fail: &dyn Fn(usize, String) -> DiceError,
) -> Result<u16, DiceError> {
    if let Some((i, c)) = text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        let col = column + text[..i].chars().count();
        return Err(fail(
            col,
            format!("{c:?} is not part of a dice expression; write dice like \"2+1d6\""),
        ));
    }
    match text.parse::<u32>() {
        Ok(n) if n <= u32::from(max) => Ok(n as u16),
        _ => Err(fail(
            column,
            format!("the {what} must be at most {max}, got {text}"),
        )),
    }
}

impl FromStr for Dice {
    type Err = DiceError;
    fn from_str(s: &str) -> Result<Dice, DiceError> {
        Dice::parse(s)
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.count, self.sides, self.bonus) {
            (0, _, b) | (_, 0, b) => write!(f, "{b}"),
            (c, s, 0) => write!(f, "{c}d{s}"),
            (c, s, b) => write!(f, "{b}+{c}d{s}"),
        }
    }
}

/// Written as its text in data files, in saves and in digests.
impl Serialize for Dice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Dice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dice, D::Error> {
        let text = String::deserialize(d)?;
        Dice::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::streams::{Stage, stage_rng};

    #[test]
    fn parses_the_written_forms() {
        assert_eq!(Dice::parse("2+1d6").unwrap(), Dice::new(1, 6, 2));
        assert_eq!(Dice::parse("1d6+2").unwrap(), Dice::new(1, 6, 2));
        assert_eq!(Dice::parse("3d4").unwrap(), Dice::new(3, 4, 0));
        assert_eq!(Dice::parse("d8").unwrap(), Dice::new(1, 8, 0));
        assert_eq!(Dice::parse(" 2 + 2D10 ").unwrap(), Dice::new(2, 10, 2));
        assert_eq!(Dice::parse("7").unwrap(), Dice::new(0, 0, 7));
    }

    #[test]
    fn displays_as_it_parses() {
        for text in ["2+1d6", "3d4", "7", "0", "10+10d10"] {
            assert_eq!(Dice::parse(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = Dice::parse("2+1x6").unwrap_err();
        assert_eq!(e.column, 3, "{e}");
        assert!(e.message.contains("'x'"), "{e}");
        let e = Dice::parse("1d").unwrap_err();
        assert_eq!(e.column, 2, "{e}");
        let e = Dice::parse("1d6+2+3").unwrap_err();
        assert_eq!(e.column, 5, "{e}");
        let e = Dice::parse("").unwrap_err();
        assert_eq!(e.column, 0);
        let e = Dice::parse("1d6+").unwrap_err();
        assert_eq!(e.column, 4, "{e}");
        let e = Dice::parse("500d6").unwrap_err();
        assert!(e.message.contains("at most 100"), "{e}");
        let e = Dice::parse("0d6").unwrap_err();
        assert!(e.message.contains("at least one"), "{e}");
        let e = Dice::parse("1d6+1d4").unwrap_err();
        assert_eq!(e.column, 4, "{e}");
        let e = Dice::parse("-3").unwrap_err();
        assert_eq!(e.column, 0, "{e}");
        assert_eq!(
            e.to_string(),
            "'-' is not part of a dice expression; write dice like \"2+1d6\" (at character 1 of \"-3\")"
        );
    }

    #[test]
    fn rolls_stay_within_bounds_and_cover_them() {
        let mut rng = stage_rng(1, 1, 0, Stage::Play);
        let dice = Dice::parse("2+2d3").unwrap();
        let mut seen = [false; 9];
        for _ in 0..2000 {
            let r = dice.roll(&mut rng);
            assert!((dice.min()..=dice.max()).contains(&r));
            seen[r as usize] = true;
        }
        assert!((4..=8).all(|r| seen[r]));
        assert_eq!(dice.mean(), 6.0);
        assert_eq!(Dice::parse("5").unwrap().roll(&mut rng), 5);
    }

    #[test]
    fn the_same_stream_rolls_the_same() {
        let dice = Dice::parse("3d6").unwrap();
        let mut a = stage_rng(9, 2, 0, Stage::Play);
        let mut b = stage_rng(9, 2, 0, Stage::Play);
        let ra: Vec<u32> = (0..50).map(|_| dice.roll(&mut a)).collect();
        let rb: Vec<u32> = (0..50).map(|_| dice.roll(&mut b)).collect();
        assert_eq!(ra, rb);
    }

    #[test]
    fn serialises_as_text() {
        let dice = Dice::new(1, 6, 2);
        let text = ron::to_string(&dice).unwrap();
        assert_eq!(text, "\"2+1d6\"");
        let back: Dice = ron::from_str(&text).unwrap();
        assert_eq!(back, dice);
        assert!(ron::from_str::<Dice>("\"2+\"").is_err());
    }
}
