//! The outer bounds of every setting, kept apart from the checks that use
//! them: other modules size their own limits and buffers by these (a
//! level's side, a stack's depth), so they are named once, here.

/// Smallest level that still holds a couple of rooms and corridors.
pub const MIN_WIDTH: u16 = 30;
/// Shortest level, for the same reason as [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 15;
/// Largest level side. A stored level is two bytes a cell (8 MB at
/// 2000x2000); generating one needs search buffers of about 50 bytes a
/// cell for a moment: a 2000x2000 level's process peaked at 218 MB (max
/// RSS, default hardness, 2026-11-29) and at 294 MB with the heaviest
/// noise a config may ask for (8 octaves, feature size 1, persistence 1),
/// each generator (a core's, when a stack is made) holding its own.
pub const MAX_SIDE: u16 = 2000;
/// Most levels in a stack; [`MAX_TOTAL_CELLS`] usually binds first.
pub const MAX_LEVELS: u16 = 1000;
/// Cells of all levels together: a whole stack is kept in memory, and its
/// ASCII drawing is about a byte a cell.
pub const MAX_TOTAL_CELLS: u64 = 64_000_000;
/// Bounds on placement effort, so a config cannot ask for hours of retries.
pub const MAX_ATTEMPTS_PER_ROOM: u16 = 10_000;
/// Bound on `rooms.give_up_streak`, failed placements in a row.
pub const MAX_GIVE_UP_STREAK: u32 = 100_000;
/// Bound on each corridor cost, so path sums stay far from overflow.
pub const MAX_COST: u16 = 10_000;
/// Rooms are numbered with `u16` in the level graph.
pub const MAX_ROOMS: u16 = 4096;
/// The most vaults a level may ask for.
pub const MAX_VAULTS: u16 = 16;
/// 003: a room has up to eight doors.
pub const MAX_DOORS: u8 = 8;
/// Bounds on the `Grid` style's geometry and on extra loops.
pub const MAX_GRID_SPACING: u16 = 64;
/// Bound on `grid_segment`, cells a `Grid` corridor runs before turning.
pub const MAX_GRID_SEGMENT: u16 = 64;
/// Bound on `extra_loops.count`, loops added to a level.
pub const MAX_LOOPS: u16 = 1000;
/// 002: a room is at least 3 cells wide and 2 tall.
pub const MIN_ROOM_WIDTH: u16 = 3;
/// Shortest room (002); see [`MIN_ROOM_WIDTH`].
pub const MIN_ROOM_HEIGHT: u16 = 2;
