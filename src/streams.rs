//! Every random stream of a run, derived from the run seed: the registry
//! of who draws (generation's stages and the simulation's), a leaf both
//! import, so the simulation does not reach into the generator for it.
//!
//! A level's randomness depends on (run seed, depth, attempt) only, so a level
//! is the same whether it is generated first, last, alone or in parallel.
//! Each stage that draws random numbers (hardness, rooms, stairs) has its own PCG
//! stream, so changing how many numbers one stage draws never shifts another
//! stage's output.

use rand_pcg::Pcg64;

/// SplitMix64's finaliser: a bijective mixer with good avalanche, used to
/// turn structured inputs (seed, depth, attempt) into unrelated states.
pub(crate) const fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The stages of level generation that draw random numbers.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stage {
    Hardness = 1,
    Rooms = 2,
    Stairs = 3,
    /// Monster placement when a level is first visited (the simulation).
    Monsters = 4,
    /// The simulation's own stream, for moves decided at play time.
    Play = 5,
    /// Corridor styles that draw (Grid, DeadEnd).
    Corridors = 6,
    /// Extra loops.
    Loops = 7,
    /// Items placed when a level is first visited (Combat rules).
    Items = 8,
    /// Which doors are hidden as secret doors (rules 3, `secret_doors`).
    SecretDoors = 9,
    /// How a run's unknown kinds of item look (rules 4).
    Appearances = 10,
    /// The layout of a kind of level other than rooms (a cave's automaton,
    /// a labyrinth's maze): one stream for them all, as a level has one kind.
    Kind = 16,
    /// What rules 4 draw when a level is first visited beyond the
    /// monsters' cells, kinds and hit points: how many kin each pack
    /// brings and where they stand, and whether each group sleeps, wanders
    /// or is awake. Its own stream, so the earlier draws stay as they were.
    Minds = 17,
}

/// The random stream of one stage of one generation attempt of one level.
pub(crate) fn stage_rng(seed: u64, depth: u16, attempt: u32, stage: Stage) -> Pcg64 {
    let level = splitmix64(splitmix64(seed) ^ u64::from(depth));
    let a = splitmix64(level ^ (u64::from(attempt) << 32));
    let b = splitmix64(a ^ stage as u64);
    let state = (u128::from(a) << 64) | u128::from(b);
    Pcg64::new(state, stage as u128)
}
