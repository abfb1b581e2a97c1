//! Commands (what rule code asks the engine to do) and events (what happened).
//!
//! Rule code never changes the state itself: it returns commands; the engine checks and
//! applies them and reports each change as an event, which other rules may react to.

use serde::{Deserialize, Serialize};

use crate::features::NodeId;
use crate::figures::{FigureId, FigureKindId, Location, PlayerId};
use crate::geometry::{Pos, Rotation};
use crate::tiles::TileTypeId;

/// Words for the turn log. Fixed words (`"eaten by the dragon"`) cost no allocation,
/// which matters in hooks that run millions of times during search.
pub type Text = std::borrow::Cow<'static, str>;

/// What points were scored for (described in words only when a log is written).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A feature, described from the board (`city of 3 tiles (complete)`).
    Feature {
        /// Any node of the feature.
        node: NodeId,
    },
    /// Anything else, in words: a noun phrase with its article, which the turn log puts
    /// after "for" (`the fairy's bonus`); empty for none.
    Text(Text),
    /// A base-game feature scored at a worth that rules at `feature-worth` changed (the
    /// engine's own scoring; plugins are told [`Reason::Feature`]).
    FeatureWorth {
        /// Any node of the feature.
        node: NodeId,
        /// The expansions whose rules changed the worth, one bit each (by index).
        by: u64,
    },
}

/// A change requested by rule code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Command {
    /// Draw the next tile for the current player (skipping tiles that cannot be placed).
    DrawTile,
    /// Put the drawn tile aside instead of playing it; the player draws again.
    SetAsideDrawn,
    /// Put the drawn tile back into the supply at a random place; the player draws again.
    ReturnDrawnToSupply,
    /// Put the set-aside tiles back into the supply and shuffle it.
    ReshuffleSetAside,
    /// Place the drawn tile.
    PlaceTile {
        /// The tile.
        tile: TileTypeId,
        /// Where.
        pos: Pos,
        /// Turned how.
        rotation: Rotation,
    },
    /// Deploy a figure of a player's supply onto a feature.
    Deploy {
        /// The player.
        player: PlayerId,
        /// The figure kind.
        figure: FigureKindId,
        /// Where.
        node: NodeId,
    },
    /// Move a figure (neutral figures onto tiles, trapped followers onto traps).
    MoveFigure {
        /// Which figure.
        figure: FigureId,
        /// Where to.
        to: Location,
        /// Why, for the turn log (`trapped by Vodyanoy`), when the move is not a
        /// player's own.
        why: Option<Text>,
    },
    /// Return a figure to its owner's supply (neutral figures go off the board).
    ReturnFigure {
        /// Which figure.
        figure: FigureId,
        /// Why, for the turn log when it is not plain scoring (`eaten by the dragon`).
        why: Option<Text>,
    },
    /// Give a player points.
    Score {
        /// Who.
        player: PlayerId,
        /// How many (negative for penalties).
        points: i32,
        /// What for, for the turn log.
        reason: Reason,
    },
    /// Score a base-game feature (BASE-7, BASE-9) at the worth the base game gives it as
    /// the rules at the decision point `feature-worth` change it (asked when this is
    /// applied): the majority scores it, it is marked scored, its figures return. The
    /// base game gives this only when some expansion has a rule there.
    ScoreFeature {
        /// Any node of the feature.
        node: NodeId,
    },
    /// Mark a feature as scored, so it never scores again (BASE-8).
    MarkScored {
        /// Any node of the feature.
        node: NodeId,
    },
    /// The current player's figure step (deploy, pass, or an alternative) is over.
    FigureStepDone,
    /// The figure step is over, and so is every figure step left in this turn: at a
    /// further tile of it (`AnotherTile`) only a pass is offered (PD-17).
    FiguresDoneThisTurn,
    /// The next decision of this phase is this player's.
    SetDecider {
        /// Who decides.
        player: PlayerId,
    },
    /// Replace the issuing expansion's own record in the game state.
    SetExtData {
        /// The new record.
        data: Vec<i64>,
    },
    /// Set one value of the issuing expansion's own record (growing it with zeros when
    /// `index` lies beyond its end); cheaper than [`Command::SetExtData`] for small changes.
    SetExtValue {
        /// Position in the record.
        index: u32,
        /// The new value.
        value: i64,
    },
    /// Shorten or lengthen the issuing expansion's own record to `len` values (new values
    /// are 0); with [`Command::SetExtValue`], a record changes without a new allocation.
    ResizeExt {
        /// The record's new length.
        len: u32,
    },
    /// Run an on-request phase (`PhaseDecl::on_request`) in this turn; asked for after
    /// that phase has passed, or for a phase that always runs, it changes nothing.
    RequestPhase {
        /// The phase's index in the rules' phase list (`Rules::phase_index`).
        phase: u8,
    },
    /// End the game now; final scoring follows.
    EndGame,
    /// When this turn's phases are over, the current player plays another tile in the
    /// same turn: the phases from `draw` on run again (not `turn-start`).
    AnotherTile,
    /// The test-only protocol 1.7 (feature `protocol-next`): a note from rule code. The
    /// engine accepts it and changes nothing.
    #[cfg(feature = "protocol-next")]
    Note {
        /// The words.
        text: Option<Text>,
    },
}

/// Something that happened, in order; the turn log is made of these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "event")]
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
        /// The tile.
        tile: TileTypeId,
    },
    /// A drawn tile could not be placed anywhere and left the game (BASE-4).
    TileDiscarded {
        /// The tile.
        tile: TileTypeId,
    },
    /// A drawn tile was put aside.
    TileSetAside {
        /// The tile.
        tile: TileTypeId,
    },
    /// A drawn tile went back into the supply at a random place.
    TileReturned {
        /// The tile.
        tile: TileTypeId,
    },
    /// Set-aside tiles went back into the supply.
    TilesReshuffled {
        /// How many.
        count: u32,
    },
    /// A tile was placed.
    TilePlaced {
        /// By whom (none for the start tile).
        player: Option<PlayerId>,
        /// The tile.
        tile: TileTypeId,
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
        node: NodeId,
    },
    /// A figure moved.
    FigureMoved {
        /// The figure.
        figure: FigureId,
        /// From where.
        from: Location,
        /// To where.
        to: Location,
        /// The player whose decision moved it, if any.
        by: Option<PlayerId>,
        /// Why, when it is not a player's own move.
        why: Option<Text>,
    },
    /// A figure went back to its owner's supply (or off the board).
    FigureReturned {
        /// The figure.
        figure: FigureId,
        /// From where.
        from: Location,
        /// Why, when it is not plain scoring.
        why: Option<Text>,
    },
    /// A player scored.
    Scored {
        /// Who.
        player: PlayerId,
        /// Points (may be negative).
        points: i32,
        /// What for.
        reason: Reason,
    },
    /// A feature was scored and closed for good.
    FeatureScored {
        /// Its root node at the time.
        node: NodeId,
    },
    /// The game ended; final scoring follows.
    GameEnded,
    /// The test-only protocol 1.7 (feature `protocol-next`): a turn ended with its last move
    /// and the game goes on (the next turn has not begun).
    #[cfg(feature = "protocol-next")]
    TurnEnded {
        /// Turn number, from 1.
        turn: u32,
        /// Whose turn it was.
        player: PlayerId,
    },
}

/// The kind of an [`Event`], for declaring which events an expansion wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum EventKind {
    /// [`Event::TurnStarted`]
    TurnStarted,
    /// [`Event::TileDrawn`]
    TileDrawn,
    /// [`Event::TileDiscarded`]
    TileDiscarded,
    /// [`Event::TileSetAside`]
    TileSetAside,
    /// [`Event::TileReturned`]
    TileReturned,
    /// [`Event::TilesReshuffled`]
    TilesReshuffled,
    /// [`Event::TilePlaced`]
    TilePlaced,
    /// [`Event::FigureDeployed`]
    FigureDeployed,
    /// [`Event::FigureMoved`]
    FigureMoved,
    /// [`Event::FigureReturned`]
    FigureReturned,
    /// [`Event::Scored`]
    Scored,
    /// [`Event::FeatureScored`]
    FeatureScored,
    /// [`Event::GameEnded`]
    GameEnded,
    /// [`Event::TurnEnded`] (test-only feature `protocol-next`; the kind's number is the
    /// protocol's)
    #[cfg(feature = "protocol-next")]
    TurnEnded = crate::plugin::next::TURN_ENDED as u8,
}

impl Event {
    /// The tile an event is about (drawn, placed, discarded, set aside, put back).
    #[inline]
    pub fn tile(&self) -> Option<TileTypeId> {
        match *self {
            Event::TileDrawn { tile }
            | Event::TileDiscarded { tile }
            | Event::TileSetAside { tile }
            | Event::TileReturned { tile }
            | Event::TilePlaced { tile, .. } => Some(tile),
            _ => None,
        }
    }

    /// This event's kind.
    pub fn kind(&self) -> EventKind {
        match self {
            Event::TurnStarted { .. } => EventKind::TurnStarted,
            Event::TileDrawn { .. } => EventKind::TileDrawn,
            Event::TileDiscarded { .. } => EventKind::TileDiscarded,
            Event::TileSetAside { .. } => EventKind::TileSetAside,
            Event::TileReturned { .. } => EventKind::TileReturned,
            Event::TilesReshuffled { .. } => EventKind::TilesReshuffled,
            Event::TilePlaced { .. } => EventKind::TilePlaced,
            Event::FigureDeployed { .. } => EventKind::FigureDeployed,
            Event::FigureMoved { .. } => EventKind::FigureMoved,
            Event::FigureReturned { .. } => EventKind::FigureReturned,
            Event::Scored { .. } => EventKind::Scored,
            Event::FeatureScored { .. } => EventKind::FeatureScored,
            Event::GameEnded => EventKind::GameEnded,
            #[cfg(feature = "protocol-next")]
            Event::TurnEnded { .. } => EventKind::TurnEnded,
        }
    }
}
