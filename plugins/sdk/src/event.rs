//! Events: what happened, in order. An expansion declares the kinds it wants
//! ([`Expansion::events`](crate::Expansion::events)) and reacts to them with commands.

use crate::abi::{self, RawEvent, unpack_pos};
use crate::command::Place;
use crate::geometry::{Pos, Rotation};
use crate::ids::{FigureId, PlayerId, SegmentId, TileId, TileType};

/// Something that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A turn began.
    TurnStarted {
        /// Turn number, from 1.
        turn: u32,
        /// Whose turn.
        player: PlayerId,
    },
    /// A tile was drawn.
    TileDrawn {
        /// Its type.
        tile: TileType,
    },
    /// A drawn tile fitted nowhere and left the game (BASE-4).
    TileDiscarded {
        /// Its type.
        tile: TileType,
    },
    /// A drawn tile was set aside.
    TileSetAside {
        /// Its type.
        tile: TileType,
    },
    /// A drawn tile went back into the supply.
    TileReturned {
        /// Its type.
        tile: TileType,
    },
    /// Set-aside tiles went back into the supply.
    TilesReshuffled {
        /// How many.
        count: u32,
    },
    /// A tile was placed.
    TilePlaced {
        /// By whom (`None` for the start tile).
        player: Option<PlayerId>,
        /// Its type.
        tile: TileType,
        /// The tile on the board.
        placed: TileId,
        /// Where.
        pos: Pos,
        /// Turned how.
        rotation: Rotation,
    },
    /// A figure was deployed from the supply.
    FigureDeployed {
        /// The figure.
        figure: FigureId,
        /// Where.
        segment: SegmentId,
    },
    /// A figure moved.
    FigureMoved {
        /// The figure.
        figure: FigureId,
        /// From where.
        from: Place,
        /// To where.
        to: Place,
        /// The player whose decision moved it, if any.
        by: Option<PlayerId>,
    },
    /// A figure went back to its owner's supply (or off the board). A feature being
    /// scored is marked scored ([`Event::FeatureScored`]) before its figures go home, so
    /// `view.feature(segment).scored` for the segment it left tells a return by scoring
    /// from one by a rule (the dragon, a trap, a princess).
    FigureReturned {
        /// The figure.
        figure: FigureId,
        /// From where.
        from: Place,
    },
    /// A player scored.
    Scored {
        /// Who.
        player: PlayerId,
        /// Points (may be negative).
        points: i32,
        /// The feature scored, if the points were for one.
        feature: Option<SegmentId>,
    },
    /// A feature was scored and closed for good.
    FeatureScored {
        /// A segment of it.
        segment: SegmentId,
    },
    /// The game ended; final scoring follows.
    GameEnded,
    /// An event of a kind this SDK does not know (never sent to a plugin that did not
    /// ask for it).
    Unknown,
}

/// The kind of an [`Event`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
#[non_exhaustive]
pub enum EventKind {
    /// [`Event::TurnStarted`]
    TurnStarted = abi::event::TURN_STARTED,
    /// [`Event::TileDrawn`]
    TileDrawn = abi::event::TILE_DRAWN,
    /// [`Event::TileDiscarded`]
    TileDiscarded = abi::event::TILE_DISCARDED,
    /// [`Event::TileSetAside`]
    TileSetAside = abi::event::TILE_SET_ASIDE,
    /// [`Event::TileReturned`]
    TileReturned = abi::event::TILE_RETURNED,
    /// [`Event::TilesReshuffled`]
    TilesReshuffled = abi::event::TILES_RESHUFFLED,
    /// [`Event::TilePlaced`]
    TilePlaced = abi::event::TILE_PLACED,
    /// [`Event::FigureDeployed`]
    FigureDeployed = abi::event::FIGURE_DEPLOYED,
    /// [`Event::FigureMoved`]
    FigureMoved = abi::event::FIGURE_MOVED,
    /// [`Event::FigureReturned`]
    FigureReturned = abi::event::FIGURE_RETURNED,
    /// [`Event::Scored`]
    Scored = abi::event::SCORED,
    /// [`Event::FeatureScored`]
    FeatureScored = abi::event::FEATURE_SCORED,
    /// [`Event::GameEnded`]
    GameEnded = abi::event::GAME_ENDED,
}

/// A set of event kinds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventKinds(pub u64);

impl EventKinds {
    /// No event.
    pub const NONE: EventKinds = EventKinds(0);

    /// The set of the given kinds.
    pub fn of(kinds: &[EventKind]) -> EventKinds {
        EventKinds(kinds.iter().fold(0, |m, k| m | 1 << *k as u32))
    }
}

fn player(p: i32) -> Option<PlayerId> {
    PlayerId::try_from(p).ok()
}

impl Event {
    /// Decodes an encoded event.
    #[inline]
    pub fn from_raw(raw: &RawEvent) -> Event {
        let tile = || TileType::from_raw(raw.a);
        let decoded = match raw.kind {
            abi::event::TURN_STARTED => Some(Event::TurnStarted {
                turn: raw.a as u32,
                player: player(raw.player).unwrap_or(0),
            }),
            abi::event::TILE_DRAWN => tile().map(|tile| Event::TileDrawn { tile }),
            abi::event::TILE_DISCARDED => tile().map(|tile| Event::TileDiscarded { tile }),
            abi::event::TILE_SET_ASIDE => tile().map(|tile| Event::TileSetAside { tile }),
            abi::event::TILE_RETURNED => tile().map(|tile| Event::TileReturned { tile }),
            abi::event::TILES_RESHUFFLED => Some(Event::TilesReshuffled {
                count: raw.a as u32,
            }),
            abi::event::TILE_PLACED => (|| {
                let (x, y) = unpack_pos(raw.b);
                Some(Event::TilePlaced {
                    player: player(raw.player),
                    tile: tile()?,
                    placed: TileId::from_raw(raw.d)?,
                    pos: Pos::new(x, y),
                    rotation: Rotation::quarter_turns(raw.c as u8),
                })
            })(),
            abi::event::FIGURE_DEPLOYED => (|| {
                Some(Event::FigureDeployed {
                    figure: FigureId::from_raw(raw.a)?,
                    segment: SegmentId::from_raw(raw.b)?,
                })
            })(),
            abi::event::FIGURE_MOVED => {
                FigureId::from_raw(raw.a).map(|figure| Event::FigureMoved {
                    figure,
                    from: Place::from_raw(raw.b),
                    to: Place::from_raw(raw.c),
                    by: player(raw.player),
                })
            }
            abi::event::FIGURE_RETURNED => {
                FigureId::from_raw(raw.a).map(|figure| Event::FigureReturned {
                    figure,
                    from: Place::from_raw(raw.b),
                })
            }
            abi::event::SCORED => Some(Event::Scored {
                player: player(raw.player).unwrap_or(0),
                points: raw.a as i32,
                feature: SegmentId::from_raw(raw.b),
            }),
            abi::event::FEATURE_SCORED => {
                SegmentId::from_raw(raw.a).map(|segment| Event::FeatureScored { segment })
            }
            abi::event::GAME_ENDED => Some(Event::GameEnded),
            _ => None,
        };
        decoded.unwrap_or(Event::Unknown)
    }
}
