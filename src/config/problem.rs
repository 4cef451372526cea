//! The shape of a failed check, before it has a place in the file, and
//! the few ways of checking a value that every section shares, so the
//! same bound is always worded the same way (`must be from 1 to 8, got 9`).

use std::fmt;
use std::ops::RangeInclusive;

use crate::config::range::Range;

/// A validation failure before it is given a place in the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct Problem {
    /// Dotted path of the field at fault, such as `rooms.count.min`.
    pub field: String,
    /// What is wrong, worded for the person editing the file.
    pub message: String,
    /// Another field that shares the blame; errors point at it when the
    /// file writes it and not `field`.
    pub instead: Option<String>,
}

impl Problem {
    /// A problem with `field` alone to blame.
    pub(crate) fn new(field: &str, message: String) -> Problem {
        Problem {
            field: field.into(),
            message,
            instead: None,
        }
    }
}

pub(super) fn check(
    ok: bool,
    field: &str,
    message: impl FnOnce() -> String,
) -> Result<(), Problem> {
    if ok {
        Ok(())
    } else {
        Err(Problem {
            field: field.into(),
            message: message(),
            instead: None,
        })
    }
}

/// The one shape of a bounds check: `must be from LO to HI, got V`.
pub(super) fn within<T: PartialOrd + fmt::Display>(
    v: T,
    allowed: RangeInclusive<T>,
    field: &str,
) -> Result<(), Problem> {
    within_unit(v, allowed, "", field)
}

/// [`within`], with the unit the bounds are in (`" cells"`).
pub(super) fn within_unit<T: PartialOrd + fmt::Display>(
    v: T,
    allowed: RangeInclusive<T>,
    unit: &str,
    field: &str,
) -> Result<(), Problem> {
    check(allowed.contains(&v), field, || {
        format!(
            "must be from {} to {}{unit}, got {v}",
            allowed.start(),
            allowed.end()
        )
    })
}

impl Problem {
    /// The problem with a reason added to its message.
    pub(super) fn because(self, reason: &str) -> Problem {
        Problem {
            message: format!("{} ({reason})", self.message),
            ..self
        }
    }
}

pub(super) fn check_range(r: Range, field: &str, lo: u16, hi: u16) -> Result<(), Problem> {
    check(r.min <= r.max, field, || {
        format!("is empty: min {} is greater than max {}", r.min, r.max)
    })?;
    // Field names are only spelled out for a problem: validating a good
    // config (as the generator does for every level) allocates nothing.
    if r.min < lo {
        return check(false, &format!("{field}.min"), || {
            format!("must be at least {lo}, got {}", r.min)
        });
    }
    if r.max > hi {
        return check(false, &format!("{field}.max"), || {
            format!("must be at most {hi} for this level size, got {}", r.max)
        });
    }
    Ok(())
}

pub(super) fn check_fraction(v: f64, field: &str) -> Result<(), Problem> {
    check(v.is_finite() && (0.0..=1.0).contains(&v), field, || {
        format!("must be a number from 0 to 1, got {v}")
    })
}
