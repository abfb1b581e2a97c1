//! The board: placed tiles by position, the open squares where a tile may go next, and
//! the feature graph that joins features across edges.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::features::{FeatureGraph, NodeId};
use crate::geometry::{Port, Pos, Rotation, Side};
use crate::tiles::{KindId, KindShape, MarkerId, TileType, TileTypeId, Vocabulary};

/// "Any kind may go here" in an open square's requirements.
pub const ANY_SIDE: KindId = KindId::MAX;

/// A tile on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacedTile {
    /// Its type.
    pub tile: TileTypeId,
    /// Where it lies.
    pub pos: Pos,
    /// How it is turned.
    pub rotation: Rotation,
    /// The feature-graph node of its feature 0; feature i is `first_node + i`.
    pub first_node: NodeId,
}

/// An empty square next to at least one tile, with what each side must show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenSquare {
    /// The square.
    pub pos: Pos,
    /// Per side (N, E, S, W): the kind a new tile must show there, or [`ANY_SIDE`].
    pub need: [KindId; 4],
    /// `need` packed as bytes, with 0 where any kind may go.
    need_bits: u32,
    /// 0xFF in the bytes of the sides that have a neighbour.
    mask: u32,
}

impl OpenSquare {
    fn new(pos: Pos) -> OpenSquare {
        OpenSquare {
            pos,
            need: [ANY_SIDE; 4],
            need_bits: 0,
            mask: 0,
        }
    }

    fn require(&mut self, side: usize, kind: KindId) {
        self.need[side] = kind;
        let shift = 8 * side as u32;
        self.mask |= 0xFF << shift;
        self.need_bits = (self.need_bits & !(0xFF << shift)) | ((kind as u32) << shift);
    }
}

/// Placed tiles, open squares and features.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Board {
    /// Tiles in the order they were placed.
    pub tiles: Vec<PlacedTile>,
    #[serde(with = "pos_index")]
    at: FxHashMap<Pos, u32>,
    /// Open squares, in a deterministic order.
    open: Vec<OpenSquare>,
    #[serde(with = "pos_index")]
    open_at: FxHashMap<Pos, u32>,
    /// Features joined across edges.
    pub graph: FeatureGraph,
    /// Per placed tile, the indices of its neighbours by side ([`NO_TILE`]: none). Derived
    /// from `at`; not serialized (a deserialized board answers from `at`).
    #[serde(skip)]
    neighbours: Vec<[u32; 4]>,
    /// The placed tiles carrying a tile marker, as `(marker, tile index)` in placement
    /// order (kept as tiles are placed, so rules never scan the board for them).
    #[serde(default)]
    pub marked_tiles: Vec<(MarkerId, u32)>,
    /// The nodes of features carrying a marker, as `(marker, node)` in placement order.
    #[serde(default)]
    pub marked_nodes: Vec<(MarkerId, NodeId)>,
    /// The nodes of inner features (monasteries, huts: they touch no edge and join
    /// nothing), as `(kind, node)` in placement order.
    #[serde(default)]
    pub inner_nodes: Vec<(KindId, NodeId)>,
    /// The markers some placed tile or feature carries, one bit per marker id (ids from
    /// 63 on share bit 63). Derived; a deserialized board says every marker is there.
    #[serde(skip, default = "every_bit")]
    pub markers_present: u64,
    /// The kinds of the inner features placed, one bit per kind id (ids from 63 on
    /// share bit 63). Derived; a deserialized board says every kind is there.
    #[serde(skip, default = "every_bit")]
    pub inner_kinds_present: u64,
    /// The markers the tile placed last carries (on the tile or a feature), one bit per
    /// marker id as above. Derived; a deserialized board says every marker.
    #[serde(skip, default = "every_bit")]
    pub last_placed_markers: u64,
}

/// "Maybe there": the presence bits of a board whose history is not known.
fn every_bit() -> u64 {
    u64::MAX
}

/// The presence bit of a marker or kind id.
#[inline]
pub fn presence_bit(id: u8) -> u64 {
    1 << id.min(63)
}

/// "No tile there" in [`Board::neighbour`]'s table.
const NO_TILE: u32 = u32::MAX;

impl Board {
    /// An empty board with room for `tiles` tiles (saves reallocation during play).
    pub fn with_capacity(tiles: usize) -> Board {
        let mut b = Board::default();
        b.tiles.reserve(tiles);
        b.at.reserve(tiles);
        b.open.reserve(tiles);
        b.open_at.reserve(tiles);
        b.neighbours.reserve(tiles);
        b.graph = FeatureGraph::with_capacity(tiles * 4);
        b
    }

    /// The index (in placement order) of the tile at `pos`.
    #[inline]
    pub fn index_at(&self, pos: Pos) -> Option<u32> {
        self.at.get(&pos).copied()
    }

    /// The index of the tile next to the tile at `index`, on `side`.
    #[inline]
    pub fn neighbour(&self, index: u32, side: Side) -> Option<u32> {
        match self.neighbours.get(index as usize) {
            Some(n) => Some(n[side.index()]).filter(|&t| t != NO_TILE),
            None => self.index_at(self.tiles.get(index as usize)?.pos.step(side)),
        }
    }

    /// The tile at `pos`.
    #[inline]
    pub fn tile_at(&self, pos: Pos) -> Option<&PlacedTile> {
        self.index_at(pos).map(|i| &self.tiles[i as usize])
    }

    /// Whether a tile lies at `pos`.
    #[inline]
    pub fn is_placed(&self, pos: Pos) -> bool {
        self.at.contains_key(&pos)
    }

    /// The empty squares next to the board.
    #[inline]
    pub fn open_squares(&self) -> &[OpenSquare] {
        &self.open
    }

    /// The open square at `pos`, if it is one.
    pub fn open_square(&self, pos: Pos) -> Option<&OpenSquare> {
        self.open_at.get(&pos).map(|&i| &self.open[i as usize])
    }

    /// Whether `tile` turned by `rotation` matches every neighbour of the open square.
    #[inline]
    pub fn fits(tile: &TileType, rotation: Rotation, square: &OpenSquare) -> bool {
        tile.packed_sides[rotation.turns() as usize] & square.mask == square.need_bits
    }

    /// Whether `tile` fits some open square in some rotation (edges only: rules that
    /// restrict placements are not asked).
    pub fn fits_somewhere(&self, tile: &TileType) -> bool {
        self.open
            .iter()
            .any(|sq| Rotation::ALL.iter().any(|&r| Board::fits(tile, r, sq)))
    }

    /// Whether `tile` may be placed at `pos` with `rotation` (BASE-4).
    pub fn can_place(&self, tile: &TileType, pos: Pos, rotation: Rotation) -> bool {
        self.open_square(pos)
            .is_some_and(|sq| Board::fits(tile, rotation, sq))
    }

    /// The node of a placed tile's feature.
    pub fn node(&self, tile_index: u32, feature: u8) -> NodeId {
        self.tiles[tile_index as usize].first_node + feature as NodeId
    }

    /// The nodes of placed tile `index`'s features, in the order of its definition (empty
    /// for a tile not on the board).
    pub fn nodes_of(&self, index: u32) -> std::ops::Range<NodeId> {
        let Some(tile) = self.tiles.get(index as usize) else {
            return 0..0;
        };
        // Nodes are added only as tiles are placed: up to the next tile's first node.
        let end = self
            .tiles
            .get(index as usize + 1)
            .map_or(self.graph.len() as NodeId, |t| t.first_node);
        tile.first_node..end.max(tile.first_node)
    }

    /// Number of tiles in the 3×3 square centred on `pos`, the centre included.
    pub fn tiles_around(&self, pos: Pos) -> usize {
        match self.index_at(pos) {
            Some(i) if (i as usize) < self.neighbours.len() => self.tiles_around_tile(i),
            _ => {
                pos.surrounding()
                    .iter()
                    .filter(|p| self.is_placed(**p))
                    .count()
                    + usize::from(self.is_placed(pos))
            }
        }
    }

    /// [`Board::tiles_around`] a placed tile, walking the neighbour table: a corner is
    /// reached through either side next to it, looked up by position only when neither
    /// is there.
    fn tiles_around_tile(&self, i: u32) -> usize {
        let [n, e, s, w] = self.neighbours[i as usize];
        let pos = self.tiles[i as usize].pos;
        let link = |t: u32, side: Side| {
            self.neighbours
                .get(t as usize)
                .map_or(NO_TILE, |l| l[side.index()])
        };
        let corner = |a: u32, a_side: Side, b: u32, b_side: Side| {
            if a != NO_TILE {
                link(a, b_side) != NO_TILE
            } else if b != NO_TILE {
                link(b, a_side) != NO_TILE
            } else {
                self.is_placed(pos.step(a_side).step(b_side))
            }
        };
        let sides = [n, e, s, w].iter().filter(|&&t| t != NO_TILE).count();
        let corners = [
            corner(n, Side::N, e, Side::E),
            corner(e, Side::E, s, Side::S),
            corner(s, Side::S, w, Side::W),
            corner(w, Side::W, n, Side::N),
        ]
        .iter()
        .filter(|&&c| c)
        .count();
        1 + sides + corners
    }

    /// Places a tile (the caller has checked it fits, or it is the start tile); joins its
    /// features with its neighbours'. Returns its index.
    pub fn place(
        &mut self,
        id: TileTypeId,
        tile: &TileType,
        pos: Pos,
        rotation: Rotation,
        vocab: &Vocabulary,
    ) -> u32 {
        let index = self.tiles.len() as u32;
        let first_node = self.graph.len() as NodeId;
        let mut markers = 0u64;
        for (i, f) in tile.features.iter().enumerate() {
            let open = match vocab.kinds.get(f.kind as usize).map(|k| k.shape) {
                Some(KindShape::Edge { completes: true }) => Side::ALL
                    .iter()
                    .filter(|s| f.ports & s.middle_port().bit() != 0)
                    .count() as u16,
                _ => 0,
            };
            self.graph
                .add(index, i as u8, f.kind, open, f.pennants as u16);
            for &m in &f.markers {
                self.marked_nodes.push((m, first_node + i as NodeId));
                markers |= presence_bit(m);
            }
            if f.ports == 0 {
                self.inner_nodes.push((f.kind, first_node + i as NodeId));
                self.inner_kinds_present |= presence_bit(f.kind);
            }
        }
        for &m in &tile.markers {
            self.marked_tiles.push((m, index));
            markers |= presence_bit(m);
        }
        self.markers_present |= markers;
        self.last_placed_markers = markers;
        self.tiles.push(PlacedTile {
            tile: id,
            pos,
            rotation,
            first_node,
        });
        self.at.insert(pos, index);
        if self.neighbours.len() == index as usize {
            self.neighbours.push([NO_TILE; 4]);
        }
        index
    }

    /// Joins the features of the tile at `index` with its neighbours' and updates the
    /// open squares. `tile_of` gives the type of any placed tile.
    pub fn connect<'a>(&mut self, index: u32, tile_of: impl Fn(TileTypeId) -> &'a TileType) {
        let placed = self.tiles[index as usize];
        let tile = tile_of(placed.tile);
        for side in Side::ALL {
            let npos = placed.pos.step(side);
            if let Some(&ni) = self.at.get(&npos) {
                if let Some(n) = self.neighbours.get_mut(index as usize) {
                    n[side.index()] = ni;
                }
                if let Some(n) = self.neighbours.get_mut(ni as usize) {
                    n[side.opposite().index()] = index;
                }
                let nb = self.tiles[ni as usize];
                let ntile = tile_of(nb.tile);
                for k in 0..3 {
                    let port = Port::from_index(side.index() * 3 + k);
                    let (Some(f), Some(g)) = (
                        tile.feature_at(placed.rotation, port),
                        ntile.feature_at(nb.rotation, port.facing()),
                    ) else {
                        continue;
                    };
                    let (a, b) = (placed.first_node + f as NodeId, nb.first_node + g as NodeId);
                    if tile.features[f as usize].kind != ntile.features[g as usize].kind {
                        continue;
                    }
                    let root = self.graph.union(a, b);
                    if port.is_middle() {
                        self.graph.close_ends(root, 2);
                    }
                }
            } else {
                let need = tile.side_kind(placed.rotation, side);
                let facing = side.opposite().index();
                match self.open_at.get(&npos) {
                    Some(&i) => self.open[i as usize].require(facing, need),
                    None => {
                        let mut sq = OpenSquare::new(npos);
                        sq.require(facing, need);
                        self.open_at.insert(npos, self.open.len() as u32);
                        self.open.push(sq);
                    }
                }
            }
        }
        if let Some(i) = self.open_at.remove(&placed.pos) {
            let i = i as usize;
            self.open.swap_remove(i);
            if i < self.open.len() {
                let moved = self.open[i].pos;
                self.open_at.insert(moved, i as u32);
            }
        }
    }
}

/// Serializes a position index as a sorted list of pairs (JSON maps need string keys).
mod pos_index {
    use super::*;

    pub fn serialize<S: Serializer>(map: &FxHashMap<Pos, u32>, s: S) -> Result<S::Ok, S::Error> {
        let mut v: Vec<(Pos, u32)> = map.iter().map(|(p, i)| (*p, *i)).collect();
        v.sort();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<FxHashMap<Pos, u32>, D::Error> {
        let v: Vec<(Pos, u32)> = Vec::deserialize(d)?;
        Ok(v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use crate::bots::{BotGame, Strategy, bot_game, play_out};
    use crate::catalog::Catalog;

    #[test]
    fn a_placed_tiles_nodes_are_its_features_in_order() {
        let rules = Arc::new(
            Catalog::new()
                .rules(&[], &Default::default())
                .expect("the base game"),
        );
        let names = vec!["A".to_string(), "B".to_string()];
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], 3).expect("a game");
        play_out(&mut game, &mut bots);
        let board = &game.state.board;
        assert!(board.tiles.len() > 50);
        for (i, t) in board.tiles.iter().enumerate() {
            let features = rules.tiles.tile(t.tile).features.len() as u32;
            assert_eq!(
                board.nodes_of(i as u32),
                t.first_node..t.first_node + features,
                "tile {i}"
            );
        }
        assert!(board.nodes_of(board.tiles.len() as u32).is_empty());
    }
}
