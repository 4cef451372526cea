//! The noise of rock hardness, a section of its own because the
//! generator's hardness field reads it alone (the Tunnel's prices for it
//! are in `corridors`).

use serde::{Deserialize, Serialize};

/// The value noise that sets each rock cell's hardness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HardnessConfig {
    /// Size in cells of the largest veins of hard and soft rock (1 to 1024).
    pub feature_size: u16,
    /// Layers of finer detail added to the veins (1 to 8).
    pub octaves: u8,
    /// Weight of each finer layer relative to the one before, 0 to 1.
    pub persistence: f64,
}

impl Default for HardnessConfig {
    fn default() -> Self {
        HardnessConfig {
            feature_size: 8,
            octaves: 2,
            persistence: 0.5,
        }
    }
}
