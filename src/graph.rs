//! The level graph: rooms, corridor junctions and dead ends as nodes,
//! corridors as edges.
//!
//! The graph is read off the finished grid rather than recorded while
//! carving. Corridors merge, cross and share doors, so the carving history is
//! not the shape of the level; the grid is. Reading it off the grid also lets
//! the simulation rebuild it after a tunneller opens rock, and keeps "the
//! graph agrees with a flood fill" a property that can actually fail.
//!
//! Extraction: the corridor network is every corridor and door cell. A
//! network cell orthogonally next to a room's floor is a *port* of that room
//! (normally a door). Ports, junctions (network degree 3 or 4) and dead ends
//! (degree 0 or 1) are node cells; every other network cell has exactly two
//! network neighbours and lies on a chain between two node cells. Each chain
//! is one `Corridor` edge.

use petgraph::graph::{NodeIndex, UnGraph};
use petgraph::unionfind::UnionFind;
use petgraph::visit::EdgeRef;
use serde::{Deserialize, Serialize};

use crate::geom::Pos;
use crate::grid_search::{Bfs, Visit};
use crate::layout::{Room, Tile, mark_areas};
use crate::sets::Sets;

/// A node of the level graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Node {
    /// Index into the level's rooms.
    Room(u16),
    /// A corridor cell where three or four corridors meet (or one cell
    /// standing for a closed loop of corridor that touches nothing else).
    Junction(Pos),
    /// A corridor cell with one way out (or none).
    DeadEnd(Pos),
}

/// A corridor between two nodes: the chain of corridor cells joining them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Corridor {
    /// Corridor cells strictly between the two end cells.
    pub length: u32,
}

/// The rooms-and-corridors graph of one level.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LevelGraph {
    graph: UnGraph<Node, Corridor>,
    rooms: u16,
}

impl PartialEq for LevelGraph {
    fn eq(&self, other: &Self) -> bool {
        self.rooms == other.rooms
            && self.graph.node_weights().eq(other.graph.node_weights())
            && self
                .graph
                .edge_references()
                .map(|e| (e.source(), e.target(), *e.weight()))
                .eq(other
                    .graph
                    .edge_references()
                    .map(|e| (e.source(), e.target(), *e.weight())))
    }
}

impl Eq for LevelGraph {}

const NONE: u32 = u32::MAX;
/// In `node_of`: a chain cell already walked (node indices stay below it).
const WALKED: u32 = u32::MAX - 1;
/// In `ways`: the four ways' bits.
const WAYS: u8 = 0x0f;
/// Bit `b` set where `b`, as four ways' bits, has two of them: a chain
/// cell's ways (`count_ones`, without the instruction for it, is slower).
const TWO_WAYS: u16 =
    1 << 0b0011 | 1 << 0b0101 | 1 << 0b0110 | 1 << 0b1001 | 1 << 0b1010 | 1 << 0b1100;
/// In `ways`: a node cell, so a walk learns where its chain ends from the
/// byte it reads for the way on.
const NODE: u8 = 0x80;

/// Walks every chain leaving node cell `a` that is not yet in the graph,
/// marking its cells walked, and adds it as an edge. A chain of no cells
/// (two node cells side by side) is met from both ends and kept from the
/// smaller; a longer one is walked once, from the end met first.
///
/// Directions are numbered as in `Dir::ALL` and a cell's `ways` has bit
/// `d` set where its neighbour that way is a network cell; each step is
/// read off those bits and a table of offsets, since in a maze the way
/// on is as good as random to a branch predictor. A chain (or a pair of
/// node cells side by side) taken from one end has its way in at the
/// other end cleared from that node cell's `ways`, so when that cell's
/// turn comes, every way left is one still to take: nothing asks, at
/// random, whether a way was taken already.
///
/// Walks the closed loops, one at a time; the chains from the node cells
/// are [`walk_all_chains`]'s.
fn walk_chains(
    a: usize,
    w: usize,
    ways: &mut [u8],
    node_of: &mut [u32],
    graph: &mut UnGraph<Node, Corridor>,
) -> usize {
    let offset = offsets(w);
    let mut walked = 0;
    let mut out = ways[a] & WAYS;
    while out != 0 {
        let d = out.trailing_zeros() as usize & 3;
        out &= out - 1;
        let first = a.wrapping_add(offset[d]);
        debug_assert_ne!(node_of[first], WALKED, "a way taken twice");
        let (mut cur, mut last, mut length) = (first, d, 0u32);
        while ways[cur] & NODE == 0 {
            node_of[cur] = WALKED;
            length += 1;
            (cur, last) = chain_step(ways[cur], cur, last, &offset);
        }
        walked += length as usize;
        // The way in at the far end is taken: from a later node cell, or
        // from this one (a chain back to where it left).
        let back = !(1u8 << (last ^ 2));
        ways[cur] &= back;
        if cur == a {
            out &= back;
        }
        // Only a node cell later in row order still has its way back to
        // this one: the pair is kept from the smaller cell.
        debug_assert!(length > 0 || a < cur);
        graph.add_edge(
            NodeIndex::new(node_of[a] as usize),
            NodeIndex::new(node_of[cur] as usize),
            Corridor { length },
        );
    }
    walked
}

/// A cell's offsets to its neighbours in `Dir::ALL`'s order on a grid
/// `w` wide (the way bits of `ways`).
fn offsets(w: usize) -> [usize; 4] {
    [w.wrapping_neg(), 1, w, 1usize.wrapping_neg()]
}

/// One step along a chain from `cur`, whose ways are `byte`, entered by
/// way `last`: a chain cell has two ways, one back where the walk came
/// from, and the other is the way on. Returns the next cell and the way
/// it is entered by.
#[inline(always)]
fn chain_step(byte: u8, cur: usize, last: usize, offset: &[usize; 4]) -> (usize, usize) {
    let on = byte & !(1u8 << (last ^ 2));
    debug_assert_eq!(
        on.count_ones(),
        1,
        "a chain cell has two network neighbours"
    );
    let next = on.trailing_zeros() as usize & 3;
    (cur.wrapping_add(offset[next]), next)
}

/// In a lane of [`walk_all_chains`]: no walk.
const IDLE: u32 = u32::MAX;

/// One chain walked by [`walk_all_chains`]: the node cell it left and the
/// way it left by, the node cell it reached, the chain cells between, and
/// whether it is the graph's (walked from its smaller end).
#[derive(Clone, Copy, Default)]
struct Walk {
    from: u32,
    way: u8,
    to: u32,
    length: u32,
    keep: bool,
}

/// The chains from the node cells `nodes` (in row order), as
/// [`walk_chains`] called on each in turn adds them, but walked
/// four at a time: a step waits on the byte it reads, so one
/// walk at a time leaves the core waiting.
///
/// Called one node cell after another, a chain is walked from its smaller
/// end (node cell, then way out) and the way in at its other end is
/// cleared. Here walks set off in the same order of ends, passing over
/// ways already cleared, but several are under way at once, so a chain's
/// larger end may be set off from before the walk from its smaller end
/// has cleared it. That walk ends at an end smaller than its own, which
/// is how it is known and dropped; every other walk is one the plain
/// order makes, and the edges are added in the order their walks set
/// off. Returns the chain cells of the walks kept.
fn walk_all_chains(
    nodes: &[u32],
    (w, cells): (usize, usize),
    ways: &mut [u8],
    node_of: &mut [u32],
    walks: &mut Vec<Walk>,
    graph: &mut UnGraph<Node, Corridor>,
) -> usize {
    let offset = offsets(w);
    walks.clear();
    // At most four ways a node cell: reserved at once, not grown walk by
    // walk, and at least a sixteenth of the cells (a default level's need
    // with room to spare), so a run of levels grows it once or twice.
    walks.reserve((4 * nodes.len()).max(cells / 16));
    let mut ends = Ends {
        nodes,
        next: 0,
        out: 0,
    };
    // Sets a lane off from the next end: (cell, way entered by, chain
    // cells, walk), or idle with none left.
    let mut set_off = |ways: &[u8], walks: &mut Vec<Walk>| match ends.next(ways) {
        Some((a, d)) => {
            walks.push(Walk {
                from: a,
                way: d,
                ..Walk::default()
            });
            let d = usize::from(d);
            let walk = walks.len() as u32 - 1;
            ((a as usize).wrapping_add(offset[d]), d, 0u32, walk)
        }
        None => (0, 0, 0, IDLE),
    };
    let mut walked = 0;
    // One step of a lane: the walk on a cell, or, at a node cell, the
    // walk done and the lane set off again. Each lane's state is its own
    // variables, so it stays in registers.
    macro_rules! step {
        ($cur:ident, $last:ident, $length:ident, $walk:ident) => {
            if $walk != IDLE {
                let c = $cur;
                let byte = ways[c];
                if byte & NODE == 0 {
                    $length += 1;
                    ($cur, $last) = chain_step(byte, c, $last, &offset);
                } else {
                    // The chain ends at node cell `c`, whose way along it
                    // is back the way the walk came in.
                    let back = ($last ^ 2) as u8;
                    let done = &mut walks[$walk as usize];
                    let keep = (c as u32, back) > (done.from, done.way);
                    *done = Walk {
                        to: c as u32,
                        length: $length,
                        keep,
                        ..*done
                    };
                    if keep {
                        ways[c] &= !(1u8 << back);
                        walked += $length as usize;
                    }
                    ($cur, $last, $length, $walk) = set_off(ways, walks);
                }
            }
        };
    }
    let (mut cur0, mut last0, mut length0, mut walk0) = set_off(ways, walks);
    let (mut cur1, mut last1, mut length1, mut walk1) = set_off(ways, walks);
    let (mut cur2, mut last2, mut length2, mut walk2) = set_off(ways, walks);
    let (mut cur3, mut last3, mut length3, mut walk3) = set_off(ways, walks);
    while (walk0 & walk1 & walk2 & walk3) != IDLE {
        step!(cur0, last0, length0, walk0);
        step!(cur1, last1, length1, walk1);
        step!(cur2, last2, length2, walk2);
        step!(cur3, last3, length3, walk3);
    }
    for done in walks.iter().filter(|done| done.keep) {
        graph.add_edge(
            NodeIndex::new(node_of[done.from as usize] as usize),
            NodeIndex::new(node_of[done.to as usize] as usize),
            Corridor {
                length: done.length,
            },
        );
    }
    walked
}

/// Marks the cells of the chains [`walk_all_chains`] kept walked in
/// `node_of`, walking them again. Only a level with cells no walk took
/// (closed loops of corridor) needs to know which those are, so the walks
/// themselves mark nothing, and most levels never come here.
fn mark_walked(walks: &[Walk], w: usize, ways: &[u8], node_of: &mut [u32]) {
    let offset = offsets(w);
    for done in walks.iter().filter(|done| done.keep) {
        let mut last = usize::from(done.way);
        let mut cur = (done.from as usize).wrapping_add(offset[last]);
        for _ in 0..done.length {
            node_of[cur] = WALKED;
            (cur, last) = chain_step(ways[cur], cur, last, &offset);
        }
    }
}

/// The chains' ends in the order [`walk_all_chains`] sets off from them:
/// each node cell's ways in turn, passing over those cleared.
struct Ends<'a> {
    nodes: &'a [u32],
    /// The node cell after the one whose ways are in `out`.
    next: usize,
    out: u8,
}

impl Ends<'_> {
    fn next(&mut self, ways: &[u8]) -> Option<(u32, u8)> {
        loop {
            while self.out != 0 {
                let d = self.out.trailing_zeros() as u8 & 3;
                self.out &= self.out - 1;
                let a = self.nodes[self.next - 1];
                // Unless a walk back to this cell cleared it.
                if ways[a as usize] & 1 << d != 0 {
                    return Some((a, d));
                }
            }
            let &a = self.nodes.get(self.next)?;
            self.next += 1;
            self.out = ways[a as usize] & WAYS;
        }
    }
}

/// Grid-sized buffers of [`LevelGraph::build`], kept per thread so reading
/// the graph of level after level allocates no grid: a build puts back
/// the room and node cells it set (every network cell where it walked
/// closed loops), and works each inner cell's `ways`
/// out afresh (a straight pass of the grid, which the next build
/// overwrites).
#[derive(Default)]
struct Scratch {
    /// Per cell: room index + 1 on a room's floor, else 0.
    room_of: Vec<u16>,
    /// Per cell: a corridor or door cell off the border.
    in_net: Vec<bool>,
    /// Per network cell: its node, or inside a chain `NONE`, then
    /// `WALKED` once walked where any cell is left for the closed loops.
    node_of: Vec<u32>,
    /// Per cell off the border: which of its four neighbours are network
    /// cells, bit `d` for `Dir::ALL[d]`, and [`NODE`] on a node cell.
    /// Worked out afresh each build.
    ways: Vec<u8>,
    /// The network cells, in row order.
    net: Vec<u32>,
    /// The node cells of the network, in row order, at its start: each
    /// network cell is written to the next slot whether or not it is one
    /// and kept by counting it (grown with the most node cells yet).
    nodes: Vec<u32>,
    /// The chains walked from them, in the order their walks set off.
    walks: Vec<Walk>,
    /// The graph as it is read, copied out once done: the copy is the
    /// level's, made at its size, where a graph grown edge by edge would
    /// ask the allocator again each time it outgrew a guess.
    graph: UnGraph<Node, Corridor>,
    /// Whether every buffer is back at rest (false while a build runs).
    clean: bool,
}

impl Scratch {
    fn fit(&mut self, cells: usize) {
        if self.in_net.len() != cells || !self.clean {
            *self = Scratch {
                room_of: vec![0; cells],
                in_net: vec![false; cells],
                node_of: vec![NONE; cells],
                ways: vec![0; cells],
                net: std::mem::take(&mut self.net),
                nodes: std::mem::take(&mut self.nodes),
                walks: std::mem::take(&mut self.walks),
                graph: std::mem::take(&mut self.graph),
                clean: true,
            };
            self.net.clear();
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
    /// The union-find of [`LevelGraph::components`].
    static SETS: std::cell::RefCell<Sets> = std::cell::RefCell::default();
}

impl LevelGraph {
    /// Reads the graph off a grid. Room (area) `i` is node `i`.
    pub fn build(width: u16, height: u16, tiles: &[Tile], rooms: &[Room]) -> LevelGraph {
        SCRATCH.with_borrow_mut(|scratch| {
            let w = usize::from(width);
            scratch.fit(w * usize::from(height));
            // Taken while the graph is read: a build cut short leaves the
            // scratch without it, and the next is made afresh.
            let mut room_of = std::mem::take(&mut scratch.room_of);
            room_of.resize(w * usize::from(height), 0);
            mark_areas(&mut room_of, w, tiles, rooms, true);
            let graph = Self::build_in(scratch, width, height, tiles, &room_of, rooms.len());
            mark_areas(&mut room_of, w, tiles, rooms, false);
            scratch.room_of = room_of;
            graph
        })
    }

    /// [`LevelGraph::build`] over a level's own map of areas (each cell's
    /// area index + 1, 0 for none), which the level keeps.
    pub(crate) fn from_areas(
        width: u16,
        height: u16,
        tiles: &[Tile],
        area_of: &[u16],
        areas: usize,
    ) -> LevelGraph {
        SCRATCH.with_borrow_mut(|scratch| {
            scratch.fit(usize::from(width) * usize::from(height));
            Self::build_in(scratch, width, height, tiles, area_of, areas)
        })
    }

    fn build_in(
        scratch: &mut Scratch,
        width: u16,
        height: u16,
        tiles: &[Tile],
        room_of: &[u16],
        rooms: usize,
    ) -> LevelGraph {
        let (w, h) = (usize::from(width), usize::from(height));
        let n = w * h;
        scratch.fit(n);
        let Scratch {
            room_of: _,
            in_net,
            node_of,
            ways,
            net,
            nodes,
            walks,
            graph,
            clean,
        } = scratch;
        graph.clear();
        // Left dirty if this build does not finish (a panic caught above us).
        *clean = false;
        for i in 0..rooms {
            graph.add_node(Node::Room(i as u16));
        }
        // Network cells on the border are ignored (a level's border is
        // immutable rock), so the four neighbours of a network cell are
        // always inside the grid. The border of `in_net` is cleared here,
        // not trusted: a level of the same area but another width leaves
        // its own interior where this level's border is.
        in_net[..w.min(n)].fill(false);
        in_net[n.saturating_sub(w)..].fill(false);
        for y in 1..h.saturating_sub(1) {
            in_net[y * w] = false;
            in_net[y * w + w - 1] = false;
        }
        for y in 1..h.saturating_sub(1) {
            let row = y * w + 1..(y + 1) * w - 1;
            for (net, tile) in in_net[row.clone()].iter_mut().zip(&tiles[row]) {
                *net = matches!(tile, Tile::Corridor) || tile.is_door();
            }
        }
        // Each cell's ways, a row at a time in straight runs: a chain's
        // next cell is then read off one byte rather than found by asking
        // its neighbours in turn.
        if w >= 3 {
            for y in 1..h.saturating_sub(1) {
                let row = y * w;
                let (up, mid, down) = (
                    &in_net[row - w + 1..row - 1],
                    &in_net[row..row + w],
                    &in_net[row + w + 1..row + 2 * w - 1],
                );
                for ((((ways, &n), &e), &s), &west) in ways[row + 1..row + w - 1]
                    .iter_mut()
                    .zip(up)
                    .zip(&mid[2..])
                    .zip(down)
                    .zip(&mid[..w - 2])
                {
                    *ways = u8::from(n) | u8::from(e) << 1 | u8::from(s) << 2 | u8::from(west) << 3;
                }
            }
        }
        // The network's cells in row order, and its node cells among them:
        // ports (beside a room's floor) and cells whose ways are not two.
        // It is sparse: blocks of 32 cells without any are passed over in
        // one comparison.
        const BLOCK: usize = 32;
        // A block's cells are taken from a mask of them, lowest bit first,
        // not by asking each cell: on a maze nearly every block has some,
        // and whether a cell is one was as good as random to the branch
        // predictor. Node cells are written at the end of their list
        // whatever they are, and kept by counting them, for the same
        // reason.
        let mut count = 0;
        {
            let ways: &[u8] = ways;
            for (block, chunk) in in_net.chunks(BLOCK).enumerate() {
                if !chunk.iter().fold(false, |any, &net| any | net) {
                    continue;
                }
                // Room for this block's cells, whatever they are: the
                // slots grow with the most node cells yet, not the grid,
                // from a sixteenth of the grid (a maze's share) at once.
                if nodes.len() < count + BLOCK {
                    let size = (2 * nodes.len()).max(count + BLOCK).max(n / 16);
                    nodes.resize(size, 0);
                }
                // A plain slice, so a node written is not taken to move
                // the buffers read.
                let slots: &mut [u32] = nodes;
                let mut bits = crate::grid_search::mask32(chunk, |net| net);
                let first = block * BLOCK;
                while bits != 0 {
                    let at = first + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    net.push(at as u32);
                    let port =
                        (room_of[at - w] | room_of[at + 1] | room_of[at + w] | room_of[at - 1])
                            != 0;
                    slots[count] = at as u32;
                    let two = TWO_WAYS >> ways[at] & 1 != 0;
                    count += usize::from(port | !two);
                }
            }
        }
        let nodes = &nodes[..count];
        // Assign a node to every node cell.
        {
            // A node cell's row by a multiply: a division for every
            // network cell was a tenth of a labyrinth's graph samples.
            let rows = crate::grid_search::RowOf::new(w);
            for &c in nodes.iter() {
                let c = c as usize;
                let around = [
                    room_of[c - w],
                    room_of[c + 1],
                    room_of[c + w],
                    room_of[c - 1],
                ];
                if around != [0; 4] {
                    let mut ports = around.into_iter().filter(|&r| r != 0);
                    let first = ports.next().unwrap_or_default();
                    node_of[c] = u32::from(first - 1);
                    // A cell opening onto two rooms joins them directly.
                    for other in ports {
                        if other != first {
                            graph.add_edge(
                                NodeIndex::new(usize::from(first - 1)),
                                NodeIndex::new(usize::from(other - 1)),
                                Corridor { length: 0 },
                            );
                        }
                    }
                    continue;
                }
                let (x, y) = rows.xy(c);
                let pos = Pos::new(x as u16, y as u16);
                let node = if ways[c].count_ones() >= 3 {
                    Node::Junction(pos)
                } else {
                    Node::DeadEnd(pos)
                };
                node_of[c] = graph.add_node(node).index() as u32;
            }
            for &c in nodes.iter() {
                ways[c as usize] |= NODE;
            }
        }

        // Walk each chain once, from the end met first in row order (its
        // smaller end: a cell, then a direction in `Dir::ALL`'s order), its
        // way in at the other end cleared. Only node cells start walks here: a
        // chain's middle can come first in row order (a corridor that
        // climbs and comes down again), and is not a node.
        let walked = nodes.len() + walk_all_chains(nodes, (w, n), ways, node_of, walks, graph);
        // What is left unwalked is closed loops of corridor with no
        // junction, door or dead end to start from: each loop's first cell
        // in row order is made a junction standing for it, so the loop is
        // still counted. Most levels have none, which the count of cells
        // walked says.
        let loops = walked < net.len();
        if loops {
            mark_walked(walks, w, ways, node_of);
            for &a in net.iter() {
                let a = a as usize;
                if node_of[a] == NONE {
                    let pos = Pos::new((a % w) as u16, (a / w) as u16);
                    node_of[a] = graph.add_node(Node::Junction(pos)).index() as u32;
                    ways[a] |= NODE;
                    walk_chains(a, w, ways, node_of, graph);
                }
            }
        }
        // Leave the scratch as found: only network cells were set, and
        // without closed loops only node cells.
        for &c in if loops { &net[..] } else { nodes } {
            node_of[c as usize] = NONE;
        }
        net.clear();
        *clean = true;
        LevelGraph {
            graph: graph.clone(),
            rooms: rooms as u16,
        }
    }

    /// The petgraph graph, for algorithms this type does not wrap.
    pub fn graph(&self) -> &UnGraph<Node, Corridor> {
        &self.graph
    }

    /// Rooms, junctions and dead ends together.
    pub fn node_count(&self) -> usize {
        self.graph.node_count()
    }

    /// Corridor chains between nodes, one edge each.
    pub fn edge_count(&self) -> usize {
        self.graph.edge_count()
    }

    /// Number of connected pieces of the level.
    pub fn components(&self) -> usize {
        // petgraph's `connected_components` with a union-find kept per
        // thread: the generator verifies every level it makes with this.
        SETS.with_borrow_mut(|sets| {
            sets.reset(self.graph.node_count());
            let joins = self
                .graph
                .raw_edges()
                .iter()
                .filter(|edge| sets.union(edge.source().index(), edge.target().index()))
                .count();
            self.graph.node_count() - joins
        })
    }

    /// Independent cycles: edges - nodes + components. A tree has none.
    pub fn loops(&self) -> usize {
        self.edge_count() + self.components() - self.node_count()
    }

    /// A label per room; two rooms share a label exactly when connected.
    pub fn room_components(&self) -> Vec<usize> {
        let mut sets = UnionFind::<usize>::new(self.graph.node_count());
        for e in self.graph.edge_references() {
            sets.union(e.source().index(), e.target().index());
        }
        (0..usize::from(self.rooms)).map(|r| sets.find(r)).collect()
    }

    /// Whether rooms `a` and `b` (indices into
    /// [`Level::rooms`](crate::level::Level::rooms)) are joined by some path.
    pub fn rooms_connected(&self, a: u16, b: u16) -> bool {
        petgraph::algo::has_path_connecting(
            &self.graph,
            NodeIndex::new(a.into()),
            NodeIndex::new(b.into()),
            None,
        )
    }

    /// Rooms reachable from `room` along corridors without crossing
    /// another room, sorted.
    pub fn linked_rooms(&self, room: u16) -> Vec<u16> {
        let start = usize::from(room);
        let mut out = Vec::new();
        Bfs::default().run(
            self.graph.node_count(),
            [start],
            |v| self.graph.neighbors(NodeIndex::new(v)).map(|u| u.index()),
            |_, _| true,
            |v, _| match self.graph[NodeIndex::new(v)] {
                Node::Room(r) if v != start => {
                    out.push(r);
                    Visit::Skip
                }
                _ => Visit::Expand,
            },
        );
        out.sort_unstable();
        out
    }

    /// Number of dead-end nodes.
    pub fn dead_ends(&self) -> usize {
        self.graph
            .node_weights()
            .filter(|n| matches!(n, Node::DeadEnd(_)))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{Dir, Rect, Shape};
    use proptest::prelude::*;

    /// The graph as the first reading of it made it, plainly: every
    /// network cell asked about in row order, each node's chains walked
    /// by asking the neighbours in `Dir::ALL`'s order, a chain's first
    /// cell marking it walked. The builds that read it faster must give
    /// this graph exactly, its nodes and edges in the same order.
    fn reference(
        width: u16,
        height: u16,
        tiles: &[Tile],
        room_of: &[u16],
        rooms: usize,
    ) -> LevelGraph {
        let (w, h) = (usize::from(width), usize::from(height));
        let step = |c: usize, d: Dir| crate::grid_search::step(c, d, w);
        let inside = |c: usize| (1..w - 1).contains(&(c % w)) && (1..h - 1).contains(&(c / w));
        let in_net: Vec<bool> = (0..w * h)
            .map(|c| inside(c) && (tiles[c] == Tile::Corridor || tiles[c].is_door()))
            .collect();
        let mut graph = UnGraph::<Node, Corridor>::default();
        for i in 0..rooms {
            graph.add_node(Node::Room(i as u16));
        }
        let mut node_of = vec![NONE; w * h];
        let net: Vec<usize> = (0..w * h).filter(|&c| in_net[c]).collect();
        for &c in &net {
            let mut ports = Dir::ALL
                .into_iter()
                .map(|d| room_of[step(c, d)])
                .filter(|&r| r != 0);
            if let Some(first) = ports.next() {
                node_of[c] = u32::from(first - 1);
                for other in ports {
                    if other != first {
                        graph.add_edge(
                            NodeIndex::new(usize::from(first - 1)),
                            NodeIndex::new(usize::from(other - 1)),
                            Corridor { length: 0 },
                        );
                    }
                }
                continue;
            }
            let degree = Dir::ALL.into_iter().filter(|&d| in_net[step(c, d)]).count();
            if degree != 2 {
                let pos = Pos::new((c % w) as u16, (c / w) as u16);
                let node = if degree >= 3 {
                    Node::Junction(pos)
                } else {
                    Node::DeadEnd(pos)
                };
                node_of[c] = graph.add_node(node).index() as u32;
            }
        }
        let mut walked = vec![false; w * h];
        let walk = |a: usize,
                    node_of: &[u32],
                    walked: &mut [bool],
                    graph: &mut UnGraph<Node, Corridor>| {
            for d in Dir::ALL {
                let first = step(a, d);
                if !in_net[first] || (node_of[first] == NONE && walked[first]) {
                    continue;
                }
                let (mut prev, mut cur, mut last, mut length) = (a, first, d, 0u32);
                while node_of[cur] == NONE {
                    walked[cur] = true;
                    length += 1;
                    let nd = Dir::ALL
                        .into_iter()
                        .find(|&nd| step(cur, nd) != prev && in_net[step(cur, nd)])
                        .expect("a chain cell has two network neighbours");
                    (prev, cur, last) = (cur, step(cur, nd), nd);
                }
                if length > 0 || (a, d as u8) <= (cur, last.opposite() as u8) {
                    graph.add_edge(
                        NodeIndex::new(node_of[a] as usize),
                        NodeIndex::new(node_of[cur] as usize),
                        Corridor { length },
                    );
                }
            }
        };
        for &a in &net {
            if node_of[a] != NONE {
                walk(a, &node_of, &mut walked, &mut graph);
            }
        }
        for &a in &net {
            if node_of[a] == NONE && !walked[a] {
                let pos = Pos::new((a % w) as u16, (a / w) as u16);
                node_of[a] = graph.add_node(Node::Junction(pos)).index() as u32;
                walk(a, &node_of, &mut walked, &mut graph);
            }
        }
        LevelGraph {
            graph,
            rooms: rooms as u16,
        }
    }

    /// A random grid `w` by `h` of corridor, doors and rock, with rooms
    /// (rectangles of floor, none overlapping) laid over it: its tiles,
    /// each cell's room + 1, and how many rooms.
    fn random_grid(
        (w, h): (usize, usize),
        cells: &[u8],
        rects: &[(u8, u8, u8, u8)],
    ) -> (Vec<Tile>, Vec<u16>, usize) {
        let inside = |c: usize| (1..w - 1).contains(&(c % w)) && (1..h - 1).contains(&(c / w));
        let mut tiles: Vec<Tile> = (0..w * h)
            .map(|c| match cells[c % cells.len()] % 8 {
                _ if !inside(c) => Tile::Rock,
                0..=3 => Tile::Corridor,
                4 => Tile::Door,
                _ => Tile::Rock,
            })
            .collect();
        let mut room_of = vec![0u16; w * h];
        let mut rooms = 0;
        for &(x, y, rw, rh) in rects {
            let (x, y) = (1 + usize::from(x) % (w - 2), 1 + usize::from(y) % (h - 2));
            let x1 = (x + usize::from(rw) % 4).min(w - 2);
            let y1 = (y + usize::from(rh) % 4).min(h - 2);
            let cells: Vec<usize> = (y..=y1)
                .flat_map(|y| (x..=x1).map(move |x| y * w + x))
                .collect();
            if cells.iter().any(|&c| room_of[c] != 0) {
                continue;
            }
            rooms += 1;
            for c in cells {
                room_of[c] = rooms as u16;
                tiles[c] = Tile::Floor;
            }
        }
        (tiles, room_of, rooms)
    }

    proptest! {
        /// The kept union-find counts what petgraph's
        /// `connected_components` counts, isolated nodes and loops included.
        #[test]
        fn components_agree_with_petgraph(
            nodes in 1usize..40,
            edges in prop::collection::vec((0usize..40, 0usize..40), 0..60),
        ) {
            let mut graph = UnGraph::new_undirected();
            for i in 0..nodes {
                graph.add_node(Node::Room(i as u16));
            }
            for (a, b) in edges {
                graph.add_edge(
                    NodeIndex::new(a % nodes),
                    NodeIndex::new(b % nodes),
                    Corridor { length: 0 },
                );
            }
            let want = petgraph::algo::connected_components(&graph);
            let level = LevelGraph { graph, rooms: nodes as u16 };
            prop_assert_eq!(level.components(), want);
        }
    }

    /// A thread's scratch, last used by a level of the same area and
    /// another width, reads the next level as a fresh one does (it once
    /// took the last level's interior for this one's border).
    #[test]
    fn scratch_from_a_level_of_another_width_changes_nothing() {
        let wide: Vec<Tile> = (0..32)
            .map(|c| {
                let (x, y) = (c % 8, c / 8);
                if (1..7).contains(&x) && (1..3).contains(&y) {
                    Tile::Corridor
                } else {
                    Tile::Rock
                }
            })
            .collect();
        // 4 wide, 8 high: a corridor down column 1 with a spur east.
        let tall: Vec<Tile> = (0..32)
            .map(|c| {
                let (x, y) = (c % 4, c / 4);
                if (x == 1 && (1..7).contains(&y)) || (x == 2 && y == 3) {
                    Tile::Corridor
                } else {
                    Tile::Rock
                }
            })
            .collect();
        let fresh = LevelGraph::build_in(&mut Scratch::default(), 4, 8, &tall, &[0; 32], 0);
        let mut scratch = Scratch::default();
        LevelGraph::build_in(&mut scratch, 8, 4, &wide, &[0; 32], 0);
        let reused = LevelGraph::build_in(&mut scratch, 4, 8, &tall, &[0; 32], 0);
        assert!(reused == fresh, "{reused:?} against {fresh:?}");
        // Three dead ends and the junction.
        assert_eq!(fresh.node_count(), 4);
    }

    fn parse(rows: &[&str], rooms: &[Rect]) -> (u16, u16, Vec<Tile>, Vec<Room>) {
        let tiles = rows
            .iter()
            .flat_map(|r| {
                r.chars().map(|c| match c {
                    '.' => Tile::Floor,
                    '#' => Tile::Corridor,
                    '+' => Tile::Door,
                    _ => Tile::Rock,
                })
            })
            .collect();
        let rooms = rooms
            .iter()
            .map(|&r| Room {
                shape: Shape::Rect(r),
                doors: vec![],
            })
            .collect();
        (rows[0].len() as u16, rows.len() as u16, tiles, rooms)
    }

    fn rect(x: u16, y: u16, width: u16, height: u16) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn two_rooms_one_corridor() {
        let (w, h, t, r) = parse(
            &[
                "            ",
                " ...    ... ",
                " ...+##+... ",
                " ...    ... ",
                "            ",
            ],
            &[rect(1, 1, 3, 3), rect(8, 1, 3, 3)],
        );
        let g = LevelGraph::build(w, h, &t, &r);
        assert_eq!(g.node_count(), 2);
        assert_eq!(g.edge_count(), 1);
        assert_eq!(g.graph().edge_weights().next().unwrap().length, 2);
        assert_eq!(g.loops(), 0);
        assert!(g.rooms_connected(0, 1));
        assert_eq!(g.linked_rooms(0), vec![1]);
    }

    #[test]
    fn two_corridors_make_a_loop_and_a_junction_with_a_dead_end() {
        let (w, h, t, r) = parse(
            &[
                "             ",
                " ...+###+... ",
                " ...     ... ",
                " ...+###+... ",
                "      #      ",
                "      #      ",
                "             ",
            ],
            &[rect(1, 1, 3, 3), rect(9, 1, 3, 3)],
        );
        let g = LevelGraph::build(w, h, &t, &r);
        // Rooms, a junction below the lower corridor, a dead end at the bottom.
        assert_eq!(g.node_count(), 4);
        assert_eq!(g.edge_count(), 4);
        assert_eq!(g.loops(), 1);
        assert_eq!(g.dead_ends(), 1);
        assert_eq!(g.components(), 1);
    }

    #[test]
    fn closed_corridor_loop_alone_is_a_component_with_a_loop() {
        let (w, h, t, r) = parse(
            &[
                "         ",
                " ...     ",
                " ...  ## ",
                " ...  ## ",
                "         ",
            ],
            &[rect(1, 1, 3, 3)],
        );
        let g = LevelGraph::build(w, h, &t, &r);
        assert_eq!(g.components(), 2);
        assert_eq!(g.loops(), 1);
    }

    #[test]
    fn open_cells_on_the_border_do_not_crash() {
        let (w, h, t, r) = parse(&["##   ", "#... ", "#... ", "     "], &[rect(1, 1, 3, 2)]);
        let g = LevelGraph::build(w, h, &t, &r);
        assert_eq!(g.node_count(), 1);
    }

    #[test]
    fn unconnected_rooms_are_separate_components() {
        let (w, h, t, r) = parse(
            &["           ", " ...   ... ", " ...   ... ", "           "],
            &[rect(1, 1, 3, 2), rect(7, 1, 3, 2)],
        );
        let g = LevelGraph::build(w, h, &t, &r);
        assert_eq!(g.components(), 2);
        assert!(!g.rooms_connected(0, 1));
        let labels = g.room_components();
        assert_ne!(labels[0], labels[1]);
    }

    /// A corridor that climbs and comes down again has its top row before
    /// either end in row order; its cells there are still one chain, not
    /// a junction of two corridors (they once were).
    #[test]
    fn a_corridor_over_the_top_is_one_chain() {
        let (w, h, t, r) = parse(
            &[
                "             ",
                "     #####   ",
                "     #   #   ",
                " ...+#   #+..",
                " ...      ...",
                "             ",
            ],
            &[rect(1, 3, 3, 2), rect(11, 3, 2, 2)],
        );
        let g = LevelGraph::build(w, h, &t, &r);
        assert_eq!(g.node_count(), 2, "{g:?}");
        assert_eq!(g.edge_count(), 1);
        assert_eq!(g.graph().edge_weights().next().unwrap().length, 9);
    }

    /// The fast reading against the plain one on shapes the random grids
    /// seldom hold: closed loops beside chains (so the walks' cells must
    /// be marked before the closed-loop pass), a ring that leaves a
    /// junction and comes back to it, two dead ends side by side (a chain
    /// of no cells), a long chain from room to room, and more chains than
    /// the four walks under way at once.
    #[test]
    fn the_fast_reading_is_the_plain_one_on_chosen_shapes() {
        let (w, h) = (40usize, 14usize);
        let mut tiles = vec![Tile::Rock; w * h];
        let mut set = |x: usize, y: usize, tile: Tile| tiles[y * w + x] = tile;
        // Two rooms joined by a door, a long corridor and a door.
        for y in 1..=3 {
            for x in (1..=3).chain(15..=17) {
                set(x, y, Tile::Floor);
            }
        }
        set(4, 2, Tile::Door);
        set(14, 2, Tile::Door);
        for x in 5..=13 {
            set(x, 2, Tile::Corridor);
        }
        // A closed loop of four cells and one of eight.
        for (x, y) in [(24, 1), (25, 1), (24, 2), (25, 2)] {
            set(x, y, Tile::Corridor);
        }
        for x in 17..=19 {
            set(x, 5, Tile::Corridor);
            set(x, 7, Tile::Corridor);
        }
        set(17, 6, Tile::Corridor);
        set(19, 6, Tile::Corridor);
        // A ring from the junction at (5, 7) back to it, and a stem from
        // the same junction to a dead end.
        for x in 3..=7 {
            set(x, 5, Tile::Corridor);
            set(x, 7, Tile::Corridor);
        }
        set(3, 6, Tile::Corridor);
        set(7, 6, Tile::Corridor);
        for (x, y) in [(5, 8), (5, 9), (6, 9), (7, 9), (8, 9), (8, 10)] {
            set(x, y, Tile::Corridor);
        }
        // Two dead ends side by side.
        set(11, 10, Tile::Corridor);
        set(12, 10, Tile::Corridor);
        // A comb: a spine with many short teeth, more chains than lanes.
        for x in 22..=38 {
            set(x, 9, Tile::Corridor);
        }
        for x in (22..=37).step_by(3) {
            set(x, 10, Tile::Corridor);
            set(x, 11, Tile::Corridor);
            set(x + 1, 8, Tile::Corridor);
        }
        let rooms: Vec<Room> = [rect(1, 1, 3, 3), rect(15, 1, 3, 3)]
            .into_iter()
            .map(|r| Room {
                shape: Shape::Rect(r),
                doors: vec![],
            })
            .collect();
        let mut room_of = vec![0; w * h];
        mark_areas(&mut room_of, w, &tiles, &rooms, true);
        let size = (w as u16, h as u16);
        let fast = LevelGraph::build(size.0, size.1, &tiles, &rooms);
        let plain = reference(size.0, size.1, &tiles, &room_of, rooms.len());
        assert!(fast == plain, "{fast:?} against {plain:?}");
        // The rooms, the ring with its stem, the pair of dead ends, the
        // comb, and the two closed loops.
        assert_eq!(fast.components(), 6);
    }

    /// The fast reading against the plain one on generated levels of every
    /// kind: a labyrinth's thousand-odd chains, a cave's, the default
    /// level's, a DeadEnd maze's, and the large level's.
    #[test]
    fn the_fast_reading_is_the_plain_one_on_generated_levels() {
        use crate::config::{Config, CorridorStyle, LevelKind};
        let big = Config {
            width: 1000,
            height: 1000,
            levels: 1,
            rooms: crate::config::RoomConfig {
                count: crate::config::Range::new(222, 1778),
                ..Config::default().rooms
            },
            ..Config::default()
        };
        let configs = [
            (Config::default(), 3),
            (
                Config {
                    kind: LevelKind::Labyrinth,
                    ..Config::default()
                },
                3,
            ),
            (
                Config {
                    kind: LevelKind::Cave,
                    ..Config::default()
                },
                3,
            ),
            (
                Config {
                    corridors: CorridorStyle::DeadEnd,
                    ..Config::default()
                },
                3,
            ),
            (big, 1),
        ];
        let mut generator = crate::generate::Generator::default();
        for (config, seeds) in configs {
            for seed in 0..seeds {
                let level = generator
                    .level(&config, crate::vault::shipped(), 7000 + seed, 1)
                    .expect("a level");
                let w = usize::from(level.width());
                let mut room_of = vec![0; level.tiles().len()];
                mark_areas(&mut room_of, w, level.tiles(), level.rooms(), true);
                let plain = reference(
                    level.width(),
                    level.height(),
                    level.tiles(),
                    &room_of,
                    level.rooms().len(),
                );
                assert!(
                    *level.graph() == plain,
                    "{:?} seed {seed}: the graphs differ",
                    config.kind
                );
            }
        }
    }

    /// Each node's edge ends (a loop counts twice), from the edge list.
    fn degrees(g: &LevelGraph) -> Vec<usize> {
        let mut degree = vec![0; g.node_count()];
        for e in g.graph().edge_references() {
            degree[e.source().index()] += 1;
            degree[e.target().index()] += 1;
        }
        degree
    }

    proptest! {
        /// The graph read fast is the plain reading's, node for node and
        /// edge for edge in the same order, on random grids of corridor,
        /// doors and rooms, with one scratch reused across grids of every
        /// size and width.
        #[test]
        fn the_fast_reading_is_the_plain_one(
            grids in prop::collection::vec(
                (
                    (3usize..24, 3usize..18),
                    prop::collection::vec(any::<u8>(), 1..64),
                    prop::collection::vec(any::<(u8, u8, u8, u8)>(), 0..6),
                ),
                1..4,
            ),
        ) {
            let mut scratch = Scratch::default();
            for ((w, h), cells, rects) in grids {
                let (tiles, room_of, rooms) = random_grid((w, h), &cells, &rects);
                let size = (w as u16, h as u16);
                let fast = LevelGraph::build_in(&mut scratch, size.0, size.1, &tiles, &room_of, rooms);
                let plain = reference(size.0, size.1, &tiles, &room_of, rooms);
                prop_assert!(fast == plain, "{fast:?} against {plain:?}");
            }
        }

        /// On any pattern of corridor: a junction is where three or four
        /// corridors meet, or stands alone for a closed loop (its one edge
        /// a loop on itself); a dead end has one corridor or none; every
        /// corridor cell is a node or inside exactly one chain.
        #[test]
        fn nodes_are_where_corridors_meet_or_end(
            (w, h, bits) in (3usize..14, 3usize..12)
                .prop_flat_map(|(w, h)| (Just(w), Just(h), prop::collection::vec(any::<bool>(), w * h))),
        ) {
            let tiles: Vec<Tile> = bits
                .iter()
                .enumerate()
                .map(|(c, &on)| {
                    let (x, y) = (c % w, c / w);
                    let inside = x > 0 && y > 0 && x + 1 < w && y + 1 < h;
                    if on && inside { Tile::Corridor } else { Tile::Rock }
                })
                .collect();
            let g = LevelGraph::build(w as u16, h as u16, &tiles, &[]);
            let degree = degrees(&g);
            let self_loop = |n: usize| {
                g.graph().edge_references().any(|e| e.source().index() == n && e.target().index() == n)
            };
            for (n, node) in g.graph().node_weights().enumerate() {
                match node {
                    Node::Junction(_) => prop_assert!(
                        degree[n] >= 3 || (degree[n] == 2 && self_loop(n)),
                        "junction {node:?} has {} edge ends: {g:?}", degree[n]
                    ),
                    Node::DeadEnd(_) => prop_assert!(degree[n] <= 1, "{node:?}: {g:?}"),
                    Node::Room(_) => prop_assert!(false, "no rooms here"),
                }
            }
            let cells = tiles.iter().filter(|&&t| t == Tile::Corridor).count();
            let chained: u32 = g.graph().edge_weights().map(|e| e.length).sum();
            prop_assert_eq!(g.node_count() + chained as usize, cells);
        }
    }
}
