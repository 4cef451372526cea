//! Ranges as a file writes them. A file may give only one bound of a
//! range and keep the other's default, which serde cannot do for half a
//! struct on its own; every range field with that freedom reads through
//! here, so they all read and write alike.

use serde::{Deserialize, Serialize};

/// An inclusive range of whole numbers, written `(min: 5, max: 40)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// Smallest allowed value, included.
    pub min: u16,
    /// Largest allowed value, included; validation requires `min <= max`.
    pub max: u16,
}

impl Range {
    /// A range from `min` to `max`, both included; not checked until validation.
    pub const fn new(min: u16, max: u16) -> Self {
        Range { min, max }
    }
}

/// A range as a file writes it: either bound may be left out.
#[derive(Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct PartialRange {
    pub(super) min: Option<u16>,
    pub(super) max: Option<u16>,
}

impl PartialRange {
    pub(super) fn or(self, default: Range) -> Range {
        Range {
            min: self.min.unwrap_or(default.min),
            max: self.max.unwrap_or(default.max),
        }
    }
}

/// `grid_segment` may give only one bound, like the room ranges; the other
/// keeps its default. Written out in full, as `RoomFields` is.
pub(crate) mod grid_segment_field {
    use serde::{Deserializer, Serializer};

    use super::Range;

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        super::partial_range::serialize(r, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        super::partial_range::deserialize(d, Range::new(3, 6))
    }
}

/// A range field of which a file may give one bound, the other keeping
/// `default`; always written out in full (binary formats have no implicit
/// `Some`).
pub(super) mod partial_range {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{PartialRange, Range};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        PartialRange {
            min: Some(r.min),
            max: Some(r.max),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D, default: Range) -> Result<Range, D::Error> {
        Ok(PartialRange::deserialize(d)?.or(default))
    }
}
