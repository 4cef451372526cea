//! How many vaults a level asks for. Its own section because the count
//! may give one bound alone, and because a vault takes a room's place,
//! which the checks weigh against `rooms.count`.

use serde::{Deserialize, Serialize};

use crate::config::range::Range;

/// Vaults a level tries to place, among those whose depths hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VaultConfig {
    /// Drawn uniformly from the range for each level; either bound may be
    /// left out of a file and keeps its default.
    #[serde(with = "vault_count_field")]
    pub count: Range,
}

/// `vaults.count` may give only one bound, like the room ranges.
mod vault_count_field {
    use serde::{Deserializer, Serializer};

    use super::VaultConfig;
    use crate::config::range::{Range, partial_range};

    pub fn serialize<S: Serializer>(r: &Range, s: S) -> Result<S::Ok, S::Error> {
        partial_range::serialize(r, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Range, D::Error> {
        partial_range::deserialize(d, VaultConfig::default().count)
    }
}

impl Default for VaultConfig {
    fn default() -> Self {
        VaultConfig {
            count: Range::new(0, 2),
        }
    }
}

impl VaultConfig {
    /// None: what every run before save format 5 had.
    pub const NONE: VaultConfig = VaultConfig {
        count: Range { min: 0, max: 0 },
    };
}
