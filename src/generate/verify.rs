//! Verification before a level is returned (004: "verify the map and
//! regenerate it when a room is cut off").
//!
//! Checks what the generator promises and what later systems rely on: the
//! border is intact, every walkable cell reaches every other by orthogonal
//! steps, and the level graph sees the same connectivity as the grid. A
//! failure means a generator bug or an unlucky layout; either way the level
//! is thrown away and the next attempt is made.

use crate::graph::LevelGraph;
use crate::grid_search::{Bfs, Moves};
use crate::level::Tile;

/// Why a level was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Flaw {
    Border,
    Disconnected { reached: usize, walkable: usize },
    GraphDisagrees { components: usize },
}

/// Checks the finished level. `reached` is how many walkable cells the
/// breadth-first search of [`distance_map`] reached from one of them.
pub(crate) fn check(
    width: usize,
    height: usize,
    tiles: &[Tile],
    hardness: &[u8],
    graph: &LevelGraph,
    reached: usize,
) -> Result<(), Flaw> {
    for x in 0..width {
        for c in [x, (height - 1) * width + x] {
            if tiles[c] != Tile::Rock || hardness[c] != 255 {
                return Err(Flaw::Border);
            }
        }
    }
    for y in 0..height {
        for c in [y * width, y * width + width - 1] {
            if tiles[c] != Tile::Rock || hardness[c] != 255 {
                return Err(Flaw::Border);
            }
        }
    }
    let walkable = tiles.iter().filter(|t| t.is_walkable()).count();
    if reached != walkable {
        return Err(Flaw::Disconnected { reached, walkable });
    }
    let components = graph.components();
    if walkable > 0 && components != 1 {
        return Err(Flaw::GraphDisagrees { components });
    }
    Ok(())
}

/// Breadth-first orthogonal step counts from `from` over walkable cells,
/// left in `bfs` ([`Bfs::UNREACHED`] where unreachable); returns how many
/// cells were reached. This one search both proves connectivity and ranks
/// rooms for stairs. Cells on the border must not be walkable.
pub(crate) fn distance_map(width: usize, tiles: &[Tile], from: usize, bfs: &mut Bfs) -> usize {
    let sources = tiles[from].is_walkable().then_some(from);
    bfs.flood(width, tiles.len(), sources, Moves::Orthogonal, |_, n| {
        tiles[n].is_walkable()
    })
}
