//! Verification before a level is returned (004: "verify the map and
//! regenerate it when a room is cut off").
//!
//! Checks what the generator promises and what later systems rely on: the
//! border is intact, every walkable cell reaches every other by orthogonal
//! steps, the level graph sees the same connectivity as the grid, and the
//! level has every staircase its depth needs (each on its own tile), so
//! the stack links up and every level is reachable from the first. A
//! failure means a generator bug or an unlucky layout; either way the level
//! is thrown away and the next attempt is made.

use crate::graph::LevelGraph;
use crate::grid_search::Bfs;
use crate::level::{StairDirection, Stairs, Tile};

/// Why a level was refused, in words: the last one of a level that never
/// passed reaches the user in [`super::GenerateError::Unverified`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Flaw {
    #[error("its rock border was opened")]
    Border,
    #[error("it is in pieces: only {reached} of its {walkable} open cells are joined up")]
    Disconnected { reached: usize, walkable: usize },
    #[error(
        "its graph of rooms and corridors is in {components} pieces where its open cells are one"
    )]
    GraphDisagrees { components: usize },
    /// Staircases (up, down) the level has, and those its depth needs.
    #[error(
        "it has {} up and {} down staircases where its depth needs {} and {}",
        have.0,
        have.1,
        need.0,
        need.1
    )]
    Stairs {
        have: (usize, usize),
        need: (usize, usize),
    },
    /// A staircase whose cell is not the stair tile of its direction.
    #[error("the staircase at {x},{y} is not on a stair cell")]
    StairTile { x: u16, y: u16 },
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
    // Counted in bytes, 255 tiles at a time, so the count vectorises.
    let walkable: usize = tiles
        .chunks(255)
        .map(|chunk| {
            let n: u8 = chunk.iter().map(|&t| u8::from(t.is_walkable())).sum();
            usize::from(n)
        })
        .sum();
    if reached != walkable {
        return Err(Flaw::Disconnected { reached, walkable });
    }
    let components = graph.components();
    if walkable > 0 && components != 1 {
        return Err(Flaw::GraphDisagrees { components });
    }
    Ok(())
}

/// Checks the level's staircases: exactly `need` (up, down), each on the
/// tile of its direction. A level short of a staircase would leave the
/// levels below it unreachable, so this is never left to the placement
/// alone.
pub(crate) fn check_stairs(
    width: usize,
    tiles: &[Tile],
    stairs: &[Stairs],
    need: (usize, usize),
) -> Result<(), Flaw> {
    let going = |d: StairDirection| stairs.iter().filter(|s| s.direction == d).count();
    let have = (going(StairDirection::Up), going(StairDirection::Down));
    if have != need {
        return Err(Flaw::Stairs { have, need });
    }
    for s in stairs {
        let want = match s.direction {
            StairDirection::Up => Tile::UpStairs,
            StairDirection::Down => Tile::DownStairs,
        };
        let c = usize::from(s.pos.y) * width + usize::from(s.pos.x);
        if tiles.get(c) != Some(&want) {
            return Err(Flaw::StairTile {
                x: s.pos.x,
                y: s.pos.y,
            });
        }
    }
    Ok(())
}

/// Breadth-first orthogonal step counts from `from` over walkable cells,
/// left in `bfs` ([`Bfs::UNREACHED`] where unreachable); returns how many
/// cells were reached. This one search both proves connectivity and ranks
/// rooms for stairs. Cells on the border must not be walkable.
pub(crate) fn distance_map(width: usize, tiles: &[Tile], from: usize, bfs: &mut Bfs) -> usize {
    bfs.distance_map(width, tiles.len(), from, |n| tiles[n].is_walkable())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Pos;

    /// Issue 23, item 13: the reason a level never passed reached the user
    /// as `GraphDisagrees { components: 2 }`; every flaw reads as words.
    #[test]
    fn every_flaw_reads_as_words() {
        let said = [
            (Flaw::Border, "its rock border was opened"),
            (
                Flaw::Disconnected {
                    reached: 5,
                    walkable: 9,
                },
                "it is in pieces: only 5 of its 9 open cells are joined up",
            ),
            (
                Flaw::GraphDisagrees { components: 2 },
                "its graph of rooms and corridors is in 2 pieces where its open cells are one",
            ),
            (
                Flaw::Stairs {
                    have: (1, 0),
                    need: (1, 1),
                },
                "it has 1 up and 0 down staircases where its depth needs 1 and 1",
            ),
            (
                Flaw::StairTile { x: 3, y: 4 },
                "the staircase at 3,4 is not on a stair cell",
            ),
        ];
        for (flaw, words) in said {
            assert_eq!(flaw.to_string(), words);
        }
    }

    /// Two corridors that never meet: the flood from one reaches half the
    /// walkable cells, which are counted across many 255-tile chunks.
    #[test]
    fn a_level_in_two_pieces_is_refused() {
        let (w, h) = (40usize, 20usize);
        let mut tiles = vec![Tile::Rock; w * h];
        let mut hardness = vec![9u8; w * h];
        for c in 0..w * h {
            let (x, y) = (c % w, c / w);
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                hardness[c] = 255;
            } else if y == 5 || y == 12 || (y == 17 && x < 4) {
                tiles[c] = Tile::Corridor;
            }
        }
        let graph = LevelGraph::build(w as u16, h as u16, &tiles, &[]);
        let mut bfs = Bfs::default();
        let reached = distance_map(w, &tiles, 5 * w + 3, &mut bfs);
        assert_eq!(reached, 38);
        assert_eq!(
            check(w, h, &tiles, &hardness, &graph, reached),
            Err(Flaw::Disconnected {
                reached: 38,
                walkable: 38 + 38 + 3
            })
        );
    }

    #[test]
    fn a_level_short_of_a_staircase_is_refused() {
        let width = 4;
        let mut tiles = vec![Tile::Floor; 8];
        tiles[1] = Tile::UpStairs;
        tiles[6] = Tile::DownStairs;
        let up = Stairs {
            pos: Pos::new(1, 0),
            direction: StairDirection::Up,
            room: 0,
        };
        let down = Stairs {
            pos: Pos::new(2, 1),
            direction: StairDirection::Down,
            room: 1,
        };
        let both = [up, down];
        assert_eq!(check_stairs(width, &tiles, &both, (1, 1)), Ok(()));
        assert_eq!(
            check_stairs(width, &tiles, &both[..1], (1, 1)),
            Err(Flaw::Stairs {
                have: (1, 0),
                need: (1, 1)
            })
        );
        assert_eq!(
            check_stairs(width, &tiles, &both, (1, 2)),
            Err(Flaw::Stairs {
                have: (1, 1),
                need: (1, 2)
            })
        );
        tiles[6] = Tile::Floor;
        assert_eq!(
            check_stairs(width, &tiles, &both, (1, 1)),
            Err(Flaw::StairTile { x: 2, y: 1 })
        );
    }
}
