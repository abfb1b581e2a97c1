//! What the expansion learns about tile types as their tiles appear on the board: the
//! feature kinds of their segments. The SDK tells a tile type's markers but not its
//! segments' kinds, so they are read once, from the first tile of the type a hook looks
//! at, and kept. A tile type's segments never change, so every hook call finds the same
//! answers whichever game taught them.

use std::sync::OnceLock;

use carc_sdk::{KindId, SegmentId, TileId, TileType, View};

/// The feature kinds of each tile type's segments, in the order of its tile definition
/// (the order of [`View::segments`]).
#[derive(Debug)]
pub struct TileKinds {
    /// By tile type, once known.
    known: Vec<OnceLock<Box<[KindId]>>>,
}

impl TileKinds {
    /// Nothing known yet about the tile types of the rules.
    pub fn new(view: &View) -> TileKinds {
        TileKinds {
            known: view.tile_types().map(|_| OnceLock::new()).collect(),
        }
    }

    /// Calls `f` with the kinds of the segments of a tile on the board, of type `ty`.
    pub fn with<R>(
        &self,
        view: &View,
        tile: TileId,
        ty: TileType,
        f: impl FnOnce(&[KindId]) -> R,
    ) -> R {
        let read =
            || -> Box<[KindId]> { view.segments(tile).map(|s| view.segment_kind(s)).collect() };
        match self.known.get(ty.index()) {
            Some(slot) => f(slot.get_or_init(read)),
            None => f(&read()),
        }
    }

    /// Whether a tile on the board, of type `ty`, has a segment of `kind`.
    pub fn has(&self, view: &View, tile: TileId, ty: TileType, kind: KindId) -> bool {
        self.with(view, tile, ty, |kinds| kinds.contains(&kind))
    }

    /// Whether `pred` holds for a segment of `kind` on a tile on the board, of type `ty`
    /// (asked about those segments only, in definition order, until it holds).
    pub fn any_of(
        &self,
        view: &View,
        tile: TileId,
        ty: TileType,
        kind: KindId,
        mut pred: impl FnMut(SegmentId) -> bool,
    ) -> bool {
        self.with(view, tile, ty, |kinds| {
            let Some(last) = kinds.iter().rposition(|&k| k == kind) else {
                return false;
            };
            view.segments(tile)
                .take(last + 1)
                .zip(kinds)
                .any(|(s, &k)| k == kind && pred(s))
        })
    }
}
