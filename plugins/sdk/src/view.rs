//! The view of a game a hook gets: query methods in the game's own terms.
//!
//! Every query goes to the engine through the host's query table
//! ([`HostTable`](crate::abi::HostTable)); nothing here knows how the engine stores a
//! game. A view is valid for the duration of the hook call it was given to.

use crate::abi::{HostTable, pack_pos, query, unpack_pos};
use crate::command::Place;
use crate::geometry::{Port, Pos, Rotation, Side};
use crate::ids::{
    FigureClass, FigureId, FigureKind, KindId, MarkerId, PhaseId, PlayerId, SegmentId, TileId,
    TileType, VerbId,
};

/// A read-only view of the game (or, while the expansion is made, of the rules).
#[derive(Clone, Copy)]
pub struct View<'a> {
    host: &'a HostTable,
}

/// A figure, summed up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Its kind.
    pub kind: FigureKind,
    /// Its owner (`None`: a neutral figure).
    pub owner: Option<PlayerId>,
}

/// A feature's totals, read through any of its segments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Feature {
    /// Its kind.
    pub kind: KindId,
    /// Edge ends not yet joined to a neighbour (roads and cities: 0 when closed).
    pub open_ends: u16,
    /// How many figures stand in it, of any kind (a pig or a builder counts too), each
    /// counting one.
    pub occupants: u16,
    /// Pennants (coats of arms) in it.
    pub pennants: u16,
    /// Whether it has been scored (and closed for good).
    pub scored: bool,
}

/// A feature's totals from their packed form ([`query::FEATURE`]).
#[inline]
fn unpack_feature(packed: i64) -> Feature {
    let packed = packed.max(0);
    Feature {
        kind: KindId((packed >> 49) as u16),
        open_ends: packed as u16,
        occupants: (packed >> 16) as u16,
        pennants: (packed >> 32) as u16,
        scored: (packed >> 48) & 1 == 1,
    }
}

/// Up to this many values of a list query come back without an allocation.
const INLINE: usize = 24;

/// The values of a list query.
struct ListBuf {
    /// The first `len` are written (when `heap` is empty).
    inline: [std::mem::MaybeUninit<i64>; INLINE],
    len: usize,
    heap: Vec<i64>,
}

impl ListBuf {
    #[inline]
    fn values(&self) -> &[i64] {
        if self.heap.is_empty() {
            // SAFETY: the host wrote the first `len` values (`len` ≤ INLINE).
            unsafe { std::slice::from_raw_parts(self.inline.as_ptr().cast(), self.len) }
        } else {
            &self.heap
        }
    }
}

/// The handles a list query returned.
pub struct Handles<T> {
    buf: ListBuf,
    next: usize,
    make: fn(i64) -> Option<T>,
}

impl<T> Iterator for Handles<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        loop {
            let v = *self.buf.values().get(self.next)?;
            self.next += 1;
            if let Some(t) = (self.make)(v) {
                return Some(t);
            }
        }
    }
}

/// A player's figures on the board: `(figure, where it stands, its tile)`.
pub struct PlacedFigures {
    buf: ListBuf,
    next: usize,
}

impl Iterator for PlacedFigures {
    type Item = (FigureId, Place, TileId);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let values = self.buf.values();
        while let Some(&[f, place, t]) = values.get(self.next..self.next + 3) {
            self.next += 3;
            if let (Some(f), Some(t)) = (FigureId::from_raw(f), TileId::from_raw(t)) {
                return Some((f, Place::from_raw(place), t));
            }
        }
        None
    }
}

impl<T> Handles<T> {
    /// How many handles the list holds in all.
    #[inline]
    pub fn count_all(&self) -> usize {
        self.buf.values().len()
    }
}

impl<'a> View<'a> {
    /// A view over a host's query table (the plugin glue makes these).
    #[doc(hidden)]
    #[inline]
    pub fn new(host: &'a HostTable) -> View<'a> {
        View { host }
    }

    #[inline]
    fn q(&self, id: u32, a: i64, b: i64) -> i64 {
        (self.host.query)(self.host.game, id, a, b)
    }

    #[inline]
    fn flag(&self, id: u32, a: i64, b: i64) -> bool {
        self.q(id, a, b) > 0
    }

    #[inline]
    fn list(&self, id: u32, a: i64, b: i64) -> ListBuf {
        let mut buf = ListBuf {
            inline: [const { std::mem::MaybeUninit::uninit() }; INLINE],
            len: 0,
            heap: Vec::new(),
        };
        let n = (self.host.list)(
            self.host.game,
            id,
            a,
            b,
            buf.inline.as_mut_ptr().cast(),
            INLINE,
        );
        if n <= INLINE {
            buf.len = n;
        } else {
            buf.heap = self.list_into_heap(id, a, b, n);
        }
        buf
    }

    /// A list query's answer in a buffer of its own, room for `room` values made first
    /// (asked again if the answer is longer).
    #[cold]
    fn list_into_heap(&self, id: u32, a: i64, b: i64, room: usize) -> Vec<i64> {
        let mut room = room;
        loop {
            let mut heap: Vec<i64> = Vec::with_capacity(room);
            let n = (self.host.list)(self.host.game, id, a, b, heap.as_mut_ptr(), room);
            if n <= room {
                // SAFETY: the host wrote the first `n` values (`n` ≤ the capacity); it
                // only writes into the buffer (see `HostTable::list`).
                unsafe { heap.set_len(n) };
                return heap;
            }
            room = n;
        }
    }

    /// A long list query's answer (one expected to hold about `room` values): asked once
    /// into a buffer of that size.
    fn long_list(&self, id: u32, a: i64, b: i64, room: usize) -> ListBuf {
        ListBuf {
            inline: [const { std::mem::MaybeUninit::uninit() }; INLINE],
            len: 0,
            heap: self.list_into_heap(id, a, b, room.max(INLINE)),
        }
    }

    #[inline]
    fn handles<T>(&self, id: u32, a: i64, b: i64, make: fn(i64) -> Option<T>) -> Handles<T> {
        Handles {
            buf: self.list(id, a, b),
            next: 0,
            make,
        }
    }

    #[inline]
    fn by_name(&self, id: u32, a: i64, name: &str) -> i64 {
        (self.host.name)(self.host.game, id, a, name.as_ptr(), name.len())
    }

    // ---- The game ----

    /// How many players the game has.
    #[inline]
    pub fn players(&self) -> usize {
        self.host.facts.players.max(0) as usize
    }

    /// Whose turn it is.
    #[inline]
    pub fn current_player(&self) -> PlayerId {
        self.host.facts.current_player.max(0) as PlayerId
    }

    /// Whose decision is pending (usually the current player).
    #[inline]
    pub fn decider(&self) -> PlayerId {
        self.host.facts.decider.max(0) as PlayerId
    }

    /// The turn number, from 1.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.host.facts.turn.max(0) as u32
    }

    /// The current phase.
    #[inline]
    pub fn phase(&self) -> Option<PhaseId> {
        PhaseId::from_raw(self.host.facts.phase)
    }

    /// The tile placed in this turn, once it is placed.
    #[inline]
    pub fn placed_tile(&self) -> Option<TileId> {
        TileId::from_raw(self.host.facts.placed_tile)
    }

    /// The tile drawn and not yet placed.
    #[inline]
    pub fn drawn_tile(&self) -> Option<TileType> {
        TileType::from_raw(self.host.facts.drawn_tile)
    }

    /// Whether this turn's figure step (deploy, pass or an alternative) is over.
    #[inline]
    pub fn figure_step_done(&self) -> bool {
        self.host.facts.figure_step_done > 0
    }

    /// Whether the game is over (final scoring is under way or done).
    #[inline]
    pub fn game_over(&self) -> bool {
        self.host.facts.game_over > 0
    }

    /// While the actions of a decision are judged ([`Expansion::restricts`],
    /// [`Expansion::forbid`]): whether an expansion other than the base game and this one
    /// offered some of them. An expansion whose own offers already respect its
    /// restrictions need only judge when this is true (or when the base game's offers can
    /// break them).
    ///
    /// [`Expansion::restricts`]: crate::Expansion::restricts
    /// [`Expansion::forbid`]: crate::Expansion::forbid
    #[inline]
    pub fn others_offer(&self) -> bool {
        self.flag(query::OTHERS_OFFER, 0, 0)
    }

    /// Like [`View::others_offer`], for deployments only: whether an expansion other than
    /// the base game and this one offered to deploy a figure. A rule about where figures
    /// may be deployed need judge others' offers only when this is true.
    #[inline]
    pub fn others_offer_deployments(&self) -> bool {
        self.flag(query::OTHERS_OFFER, 1, 0)
    }

    /// How many drawn tiles are set aside, waiting to come back.
    #[inline]
    pub fn set_aside_count(&self) -> usize {
        self.q(query::SET_ASIDE, 0, 0).max(0) as usize
    }

    /// The tile types left to draw, the next one first (asked one at a time, so a search
    /// that stops early asks little).
    #[inline]
    pub fn supply_tiles(&self) -> impl Iterator<Item = TileType> + '_ {
        let n = self.q(query::SUPPLY_COUNT, 0, 0).max(0);
        (0..n).filter_map(move |i| TileType::from_raw(self.q(query::SUPPLY_TILE, i, 0)))
    }

    /// Whether a tile of this type fits somewhere on the board now (BASE-4).
    #[inline]
    pub fn fits_somewhere(&self, tile: TileType) -> bool {
        self.flag(query::FITS_SOMEWHERE, tile.raw(), 0)
    }

    // ---- Tiles on the board ----

    /// How many tiles are on the board.
    #[inline]
    pub fn tile_count(&self) -> usize {
        self.host.facts.tile_count.max(0) as usize
    }

    /// The tiles on the board, in the order they were placed (the start tile first).
    #[inline]
    pub fn tiles(&self) -> impl Iterator<Item = TileId> + 'a {
        (0..self.tile_count() as u32).map(TileId)
    }

    /// The type of a tile on the board.
    #[inline]
    pub fn tile_type(&self, tile: TileId) -> TileType {
        TileType(self.q(query::TILE_TYPE, tile.raw(), 0).max(0) as u32)
    }

    /// The square of a tile on the board.
    #[inline]
    pub fn tile_pos(&self, tile: TileId) -> Pos {
        let (x, y) = unpack_pos(self.q(query::TILE_POS, tile.raw(), 0));
        Pos::new(x, y)
    }

    /// How a tile on the board is turned.
    #[inline]
    pub fn tile_rotation(&self, tile: TileId) -> Rotation {
        Rotation::quarter_turns(self.q(query::TILE_ROTATION, tile.raw(), 0).max(0) as u8)
    }

    /// The tile on a square, if any.
    #[inline]
    pub fn tile_at(&self, pos: Pos) -> Option<TileId> {
        TileId::from_raw(self.q(query::TILE_AT, pack_pos(pos.x, pos.y), 0))
    }

    /// The tile next to a tile on one side, if any.
    #[inline]
    pub fn neighbour(&self, tile: TileId, side: Side) -> Option<TileId> {
        TileId::from_raw(self.q(query::NEIGHBOUR, tile.raw(), side.index() as i64))
    }

    /// The tiles next to a tile, by side (`[N, E, S, W]`, one query for the four).
    #[inline]
    pub fn neighbours(&self, tile: TileId) -> [Option<TileId>; 4] {
        let buf = self.list(query::NEIGHBOURS, tile.raw(), 0);
        let v = buf.values();
        std::array::from_fn(|i| v.get(i).and_then(|&t| TileId::from_raw(t)))
    }

    /// How many tiles lie on the 3×3 squares centred on `pos` (9: it is surrounded).
    #[inline]
    pub fn tiles_around(&self, pos: Pos) -> usize {
        self.q(query::TILES_AROUND, pack_pos(pos.x, pos.y), 0)
            .max(0) as usize
    }

    /// The segments printed on a tile on the board, in the order of its tile definition.
    #[inline]
    pub fn segments(&self, tile: TileId) -> Handles<SegmentId> {
        self.handles(query::SEGMENTS_OF, tile.raw(), 0, SegmentId::from_raw)
    }

    /// The segment of a tile on the board that touches a board port (after rotation).
    #[inline]
    pub fn segment_at(&self, tile: TileId, port: Port) -> Option<SegmentId> {
        SegmentId::from_raw(self.q(query::SEGMENT_AT, tile.raw(), port.index() as i64))
    }

    /// The placed tiles carrying a tile marker, in placement order (kept by the engine
    /// as tiles are placed).
    #[inline]
    pub fn tiles_with_marker(&self, marker: MarkerId) -> Handles<TileId> {
        self.handles(query::TILES_WITH_MARKER, marker.raw(), 0, TileId::from_raw)
    }

    /// The segments on the board of a feature kind, in placement order (kept by the
    /// engine for inner features such as monasteries and huts, which join nothing).
    #[inline]
    pub fn segments_of_kind(&self, kind: KindId) -> Handles<SegmentId> {
        self.handles(query::SEGMENTS_OF_KIND, kind.raw(), 0, SegmentId::from_raw)
    }

    /// The segments on the board whose feature no figure stands in and that has not been
    /// scored, each with its feature's totals and its tile, in placement order (one query
    /// for the whole board: where a follower could go, PD-16).
    #[inline]
    pub fn vacant_segments(&self) -> impl Iterator<Item = (SegmentId, Feature, TileId)> {
        // Room for three values per segment, up to 12 segments per tile (uninitialized
        // room costs nothing): asked once.
        let buf = self.long_list(query::VACANT_SEGMENTS, 0, 0, self.tile_count() * 36);
        let mut next = 0;
        std::iter::from_fn(move || {
            loop {
                let v = buf.values().get(next..next + 3)?;
                next += 3;
                if let (Some(s), Some(t)) = (SegmentId::from_raw(v[0]), TileId::from_raw(v[2])) {
                    return Some((s, unpack_feature(v[1]), t));
                }
            }
        })
    }

    /// The segments on the board carrying a marker, in placement order.
    #[inline]
    pub fn segments_with_marker(&self, marker: MarkerId) -> Handles<SegmentId> {
        self.handles(
            query::SEGMENTS_WITH_MARKER,
            marker.raw(),
            0,
            SegmentId::from_raw,
        )
    }

    // ---- Segments and features ----

    /// The tile a segment is printed on.
    #[inline]
    pub fn segment_tile(&self, segment: SegmentId) -> TileId {
        TileId(self.q(query::SEGMENT_TILE, segment.raw(), 0).max(0) as u32)
    }

    /// The board ports a segment touches (bit `p.index()` for port `p`; 0 for an inner
    /// segment such as a monastery).
    #[inline]
    pub fn segment_ports(&self, segment: SegmentId) -> u16 {
        self.q(query::SEGMENT_PORTS, segment.raw(), 0).max(0) as u16
    }

    /// The kind of a segment's feature.
    #[inline]
    pub fn segment_kind(&self, segment: SegmentId) -> KindId {
        KindId(self.q(query::SEGMENT_KIND, segment.raw(), 0).max(0) as u16)
    }

    /// Whether a segment carries a marker (the princess on a city, Solovei on a road).
    #[inline]
    pub fn segment_has_marker(&self, segment: SegmentId, marker: MarkerId) -> bool {
        self.flag(query::SEGMENT_HAS_MARKER, segment.raw(), marker.raw())
    }

    /// Whether any segment of the feature `segment` belongs to carries `marker` (an inn
    /// somewhere on a road, a cathedral somewhere in a city; protocol 1.3); false for a
    /// segment or a marker that does not exist.
    #[inline]
    pub fn feature_has_marker(&self, segment: SegmentId, marker: MarkerId) -> bool {
        self.flag(query::FEATURE_HAS_MARKER, segment.raw(), marker.raw())
    }

    /// The totals of the feature a segment belongs to.
    #[inline]
    pub fn feature(&self, segment: SegmentId) -> Feature {
        unpack_feature(self.q(query::FEATURE, segment.raw(), 0))
    }

    /// Whether two segments belong to one feature.
    #[inline]
    pub fn same_feature(&self, a: SegmentId, b: SegmentId) -> bool {
        self.flag(query::SAME_FEATURE, a.raw(), b.raw())
    }

    /// Whether the feature of a segment is complete (BASE-6: a closed road or city, a
    /// surrounded monastery; fields never).
    #[inline]
    pub fn is_complete(&self, segment: SegmentId) -> bool {
        self.flag(query::FEATURE_COMPLETE, segment.raw(), 0)
    }

    /// The players with the most strength in a feature (BASE-8), one bit per seat: each
    /// follower counts its kind's `strength`, as the rules at the decision point
    /// `figure-strength` change it (see [`Expansion::figure_strength`](crate::Expansion::figure_strength)).
    #[inline]
    pub fn majority(&self, segment: SegmentId) -> u64 {
        self.q(query::MAJORITY, segment.raw(), 0).max(0) as u64
    }

    /// The cities a field touches (BASE-9), complete or not: one segment of each (ask
    /// [`View::feature`] whether it is complete). Nothing for a segment of another kind.
    /// Protocol 1.5.
    #[inline]
    pub fn field_cities(&self, field: SegmentId) -> Handles<SegmentId> {
        self.handles(query::FIELD_CITIES, field.raw(), 0, SegmentId::from_raw)
    }

    /// What a feature is worth under the base game's scoring now: as complete if it is,
    /// otherwise as at the end of the game (BASE-7, BASE-9). The expansions' rules at
    /// `feature-worth` do not change it (see
    /// [`Expansion::feature_worth`](crate::Expansion::feature_worth)).
    #[inline]
    pub fn feature_worth(&self, segment: SegmentId) -> i32 {
        self.q(query::FEATURE_WORTH, segment.raw(), 0) as i32
    }

    /// The tiles a feature covers.
    #[inline]
    pub fn feature_tiles(&self, segment: SegmentId) -> Handles<TileId> {
        self.handles(query::FEATURE_TILE_LIST, segment.raw(), 0, TileId::from_raw)
    }

    /// The figures standing in the feature of a segment (on any of its segments).
    #[inline]
    pub fn figures_on_feature(&self, segment: SegmentId) -> Handles<FigureId> {
        self.handles(
            query::FIGURES_ON_FEATURE,
            segment.raw(),
            0,
            FigureId::from_raw,
        )
    }

    /// The figures standing on a tile (on its segments or on the tile itself).
    #[inline]
    pub fn figures_on_tile(&self, tile: TileId) -> Handles<FigureId> {
        self.handles(query::FIGURES_ON_TILE, tile.raw(), 0, FigureId::from_raw)
    }

    // ---- Figures ----

    /// A figure's kind and owner.
    #[inline]
    pub fn figure(&self, figure: FigureId) -> Figure {
        let packed = self.q(query::FIGURE, figure.raw(), 0).max(0);
        let owner = (packed >> 16) as u8;
        Figure {
            kind: FigureKind(packed as u16),
            owner: (owner != u8::MAX).then_some(owner),
        }
    }

    /// Where a figure is.
    #[inline]
    pub fn figure_place(&self, figure: FigureId) -> Place {
        Place::from_raw(self.q(query::FIGURE_PLACE, figure.raw(), 0))
    }

    /// Where a figure is and the tile it stands on (one query for both).
    #[inline]
    pub fn figure_where(&self, figure: FigureId) -> (Place, Option<TileId>) {
        let packed = self.q(query::FIGURE_WHERE, figure.raw(), 0);
        if packed < 0 {
            return (Place::OffBoard, None);
        }
        let place = Place::from_raw((packed & 0xFFFF_FFFF) - 2);
        let tile = (packed >> 32) - 1;
        (place, TileId::from_raw(tile))
    }

    /// The tile a figure stands on (on a segment of it or on the tile), if on the board.
    #[inline]
    pub fn figure_tile(&self, figure: FigureId) -> Option<TileId> {
        TileId::from_raw(self.q(query::FIGURE_TILE, figure.raw(), 0))
    }

    /// How many times a figure has changed place (wrapping): a rule that remembers a
    /// figure tells by this whether it has moved since.
    #[inline]
    pub fn figure_moves(&self, figure: FigureId) -> u32 {
        self.q(query::FIGURE_MOVES, figure.raw(), 0) as u32
    }

    /// The neutral figure of a kind (the dragon, the fairy), if the game has one.
    #[inline]
    pub fn neutral_figure(&self, kind: FigureKind) -> Option<FigureId> {
        FigureId::from_raw(self.q(query::NEUTRAL_FIGURE, kind.raw(), 0))
    }

    /// The neutral figure of a kind in any game of `players` players: the same figure
    /// [`View::neutral_figure`] finds, answered from the rules alone (so an expansion can
    /// work it out once in [`Expansion::new`](crate::Expansion::new) for 1 to 6 players).
    #[inline]
    pub fn neutral_figure_for(&self, kind: FigureKind, players: usize) -> Option<FigureId> {
        if players == 0 {
            return None;
        }
        FigureId::from_raw(self.q(query::NEUTRAL_FIGURE, kind.raw(), players as i64))
    }

    /// A player's figures of a kind, wherever they are.
    #[inline]
    pub fn figures_of(&self, player: PlayerId, kind: FigureKind) -> Handles<FigureId> {
        self.handles(
            query::FIGURES_OF,
            i64::from(player),
            kind.raw(),
            FigureId::from_raw,
        )
    }

    /// A player's figures of a kind that stand on the board, with where each stands and
    /// its tile (one query for all of them).
    #[inline]
    pub fn placed_figures_of(&self, player: PlayerId, kind: FigureKind) -> PlacedFigures {
        PlacedFigures {
            buf: self.list(query::PLACED_FIGURES_OF, i64::from(player), kind.raw()),
            next: 0,
        }
    }

    /// How many figures of a kind a player has in supply.
    #[inline]
    pub fn in_supply(&self, player: PlayerId, kind: FigureKind) -> usize {
        self.q(query::IN_SUPPLY, i64::from(player), kind.raw())
            .max(0) as usize
    }

    // ---- The expansion's own record ----

    /// The expansion's own record in the game state (empty until it sets one).
    #[inline]
    pub fn record(&self) -> &'a [i64] {
        let (ptr, len) = (self.host.facts.record, self.host.facts.record_len);
        if ptr.is_null() || len == 0 {
            return &[];
        }
        // SAFETY: the host hands out a pointer to `len` values of the record, which
        // stays unchanged while the hook that got this view runs.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }

    // ---- The rules ----

    /// Every tile type of the rules, `0..count` in the order the rules list them (get one
    /// by id with [`View::tile_type_named`], or from the board).
    #[inline]
    pub fn tile_types(&self) -> impl Iterator<Item = TileType> + 'a {
        (0..self.q(query::TILE_TYPE_COUNT, 0, 0).max(0) as u32).map(TileType)
    }

    /// Whether tiles of a type carry a marker on the tile itself (`volcano`).
    #[inline]
    pub fn tile_type_has_marker(&self, tile: TileType, marker: MarkerId) -> bool {
        self.flag(query::TILE_TYPE_HAS_MARKER, tile.raw(), marker.raw())
    }

    /// The feature kinds of a tile type's segments, in the order of its definition (the
    /// order of [`View::segments`] for its tiles on the board).
    #[inline]
    pub fn tile_type_kinds(&self, tile: TileType) -> Handles<KindId> {
        self.handles(query::TILE_TYPE_KINDS, tile.raw(), 0, KindId::from_raw)
    }

    /// The feature kind a tile type shows on a board side when it lies turned by
    /// `rotation`: the kind on the side's middle port, or the field on a side that is all
    /// field. Two tiles lie side by side only where these match (BASE-4); a rule that
    /// restricts placements reads a drawn tile's sides here (protocol 1.4). For a tile
    /// type the game does not have, the first kind (as [`View::segment_kind`] answers).
    #[inline]
    pub fn tile_type_side(&self, tile: TileType, rotation: Rotation, side: Side) -> KindId {
        let own = rotation.inverse().apply_side(side);
        KindId(
            self.q(query::TILE_TYPE_SIDE, tile.raw(), own.index() as i64)
                .max(0) as u16,
        )
    }

    /// Whether a tile type belongs to a set (edition) of its expansion (`2016`), as its
    /// tile data says.
    #[inline]
    pub fn tile_type_in_set(&self, tile: TileType, set: &str) -> bool {
        self.by_name(query::TILE_TYPE_IN_SET, tile.raw(), set) > 0
    }

    /// Whether some segment of tiles of a type carries a marker (`princess`).
    #[inline]
    pub fn tile_type_segment_marker(&self, tile: TileType, marker: MarkerId) -> bool {
        self.flag(query::TILE_TYPE_SEGMENT_MARKER, tile.raw(), marker.raw())
    }

    /// The figure kinds of the rules.
    #[inline]
    pub fn figure_kinds(&self) -> impl Iterator<Item = FigureKind> + 'a {
        (0..self.q(query::FIGURE_KIND_COUNT, 0, 0).max(0) as u16).map(FigureKind)
    }

    /// The class of a figure kind.
    #[inline]
    pub fn figure_class(&self, kind: FigureKind) -> FigureClass {
        FigureClass::from_raw(self.q(query::FIGURE_KIND_CLASS, kind.raw(), 0))
    }

    /// The feature kinds of the rules (the base game's and every enabled expansion's).
    #[inline]
    pub fn kinds(&self) -> impl Iterator<Item = KindId> + 'a {
        (0..self.q(query::KIND_COUNT, 0, 0).max(0) as u16).map(KindId)
    }

    /// Whether a feature kind completes when closed (roads, cities).
    #[inline]
    pub fn kind_completes_closed(&self, kind: KindId) -> bool {
        self.q(query::KIND_COMPLETION, kind.raw(), 0) == 1
    }

    /// Whether a feature kind completes when surrounded by 8 tiles (monasteries).
    #[inline]
    pub fn kind_completes_surrounded(&self, kind: KindId) -> bool {
        self.q(query::KIND_COMPLETION, kind.raw(), 0) == 2
    }

    /// A feature kind by name (`city`, `russian-promos:hut`).
    #[inline]
    pub fn kind(&self, name: &str) -> Option<KindId> {
        KindId::from_raw(self.by_name(query::KIND, 0, name))
    }

    /// A marker by name (`volcano`, `princess-dragon:portal`).
    #[inline]
    pub fn marker(&self, name: &str) -> Option<MarkerId> {
        MarkerId::from_raw(self.by_name(query::MARKER, 0, name))
    }

    /// A record verb by name (`fairy`).
    #[inline]
    pub fn verb(&self, name: &str) -> Option<VerbId> {
        VerbId::from_raw(self.by_name(query::VERB, 0, name))
    }

    /// A phase by name (`deploy`), if it is part of the turn.
    #[inline]
    pub fn phase_named(&self, name: &str) -> Option<PhaseId> {
        PhaseId::from_raw(self.by_name(query::PHASE_NAMED, 0, name))
    }

    /// A figure kind by name (`follower`, `princess-dragon:dragon`).
    #[inline]
    pub fn figure_kind(&self, name: &str) -> Option<FigureKind> {
        FigureKind::from_raw(self.by_name(query::FIGURE_KIND, 0, name))
    }

    /// A tile type by id (`base:D`).
    #[inline]
    pub fn tile_type_named(&self, id: &str) -> Option<TileType> {
        TileType::from_raw(self.by_name(query::TILE_TYPE_NAMED, 0, id))
    }

    /// Whether this expansion's own rule option `option` (its name without the
    /// `<expansion>.` prefix) has the value `value` in this game:
    /// `view.option_is("dragon-move", "after-scoring")`.
    #[inline]
    pub fn option_is(&self, option: &str, value: &str) -> bool {
        self.by_name(query::OPTION_IS, 0, &format!("{option}={value}")) > 0
    }

    /// At a decision point, whether rule `a` acts before rule `b` in the order the
    /// manifests declare (`None` when either is not in that order), e.g.
    /// `runs_before("figure-capture", "russian-promos:vodyanoy", "russian-promos:solovei")`.
    #[inline]
    pub fn runs_before(&self, point: &str, a: &str, b: &str) -> Option<bool> {
        match self.by_name(query::RUNS_BEFORE, 0, &format!("{point}|{a}|{b}")) {
            1 => Some(true),
            0 => Some(false),
            _ => None,
        }
    }

    /// Whether a figure kind carries a declared tag (`flesh-and-blood`).
    #[inline]
    pub fn figure_kind_tagged(&self, kind: FigureKind, tag: &str) -> bool {
        self.by_name(query::FIGURE_KIND_TAGGED, kind.raw(), tag) > 0
    }

    /// Whether a feature kind carries a declared tag (`shelter`).
    #[inline]
    pub fn kind_tagged(&self, kind: KindId, tag: &str) -> bool {
        self.by_name(query::KIND_TAGGED, kind.raw(), tag) > 0
    }
}
