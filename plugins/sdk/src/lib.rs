//! carc-sdk: everything an expansion plugin of the carc Carcassonne engine sees of the
//! game, and the one crate of carc it depends on.
//!
//! An expansion implements [`Expansion`]: hooks that read the game through a [`View`]
//! (query methods in the game's own terms: tiles, segments of features, figures, the
//! expansion's own record, rule options) and answer with [`Command`]s and offered
//! [`Action`]s, which the engine checks and applies. [`export_expansion!`] turns the
//! type into a plugin: a shared library the host loads across a small, frozen binary
//! boundary ([`abi`]), or a module linked into a binary, from the same source.
//!
//! Nothing of the engine's layout is visible here: figures, placed tiles and segments
//! are opaque handles ([`FigureId`], [`TileId`], [`SegmentId`]) that only queries
//! interpret, so the engine may change how it stores a game without breaking a plugin.
//!
//! The enums mirroring kinds that cross the boundary ([`Action`], [`Arg`], [`Place`],
//! [`Reason`], [`Command`], [`Event`], [`EventKind`]) are `#[non_exhaustive]`: the protocol
//! grows by new kinds, and a `match` on one ends with a `_ =>` arm so that a newer SDK
//! still compiles it.
#![deny(missing_docs)]

pub mod abi;
mod action;
mod command;
mod event;
mod expansion;
pub mod geometry;
mod ids;
#[doc(hidden)]
pub mod plugin;
mod view;

pub use action::{Action, Arg};
pub use command::{Command, Place, Reason};
pub use event::{Event, EventKind, EventKinds};
pub use expansion::{Expansion, Hooks, Offers, Out};
pub use geometry::{Port, Pos, Rotation, Side};
pub use ids::{
    FigureClass, FigureId, FigureKind, KindId, MarkerId, PhaseId, PlayerId, SegmentId, TileId,
    TileType, VerbId,
};
pub use view::{Feature, Figure, Handles, PlacedFigures, View};

/// Every set bit of a mask, lowest first.
pub fn each_bit(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Checks that each enum mirroring a kind that crosses the boundary stays
/// `#[non_exhaustive]`: a `match` naming every variant of today, with no `_ =>` arm, must
/// not compile in a plugin (error E0004), so that a variant added later breaks no plugin.
///
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Action) -> u8 {
///     match v {
///         carc_sdk::Action::Place { .. } => 0,
///         carc_sdk::Action::Deploy { .. } => 0,
///         carc_sdk::Action::Pass { .. } => 0,
///         carc_sdk::Action::Verb { .. } => 0,
///         carc_sdk::Action::Unknown { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Arg) -> u8 {
///     match v {
///         carc_sdk::Arg::None { .. } => 0,
///         carc_sdk::Arg::Pos { .. } => 0,
///         carc_sdk::Arg::Segment { .. } => 0,
///         carc_sdk::Arg::Side { .. } => 0,
///         carc_sdk::Arg::Figure { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Place) -> u8 {
///     match v {
///         carc_sdk::Place::Supply { .. } => 0,
///         carc_sdk::Place::OffBoard { .. } => 0,
///         carc_sdk::Place::Segment { .. } => 0,
///         carc_sdk::Place::Tile { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Reason) -> u8 {
///     match v {
///         carc_sdk::Reason::Feature { .. } => 0,
///         carc_sdk::Reason::Text { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Command) -> u8 {
///     match v {
///         carc_sdk::Command::SetAsideDrawn { .. } => 0,
///         carc_sdk::Command::ReturnDrawnToSupply { .. } => 0,
///         carc_sdk::Command::ReshuffleSetAside { .. } => 0,
///         carc_sdk::Command::Deploy { .. } => 0,
///         carc_sdk::Command::MoveFigure { .. } => 0,
///         carc_sdk::Command::ReturnFigure { .. } => 0,
///         carc_sdk::Command::Score { .. } => 0,
///         carc_sdk::Command::MarkScored { .. } => 0,
///         carc_sdk::Command::FigureStepDone { .. } => 0,
///         carc_sdk::Command::FiguresDoneThisTurn { .. } => 0,
///         carc_sdk::Command::SetDecider { .. } => 0,
///         carc_sdk::Command::SetRecord { .. } => 0,
///         carc_sdk::Command::SetRecordValue { .. } => 0,
///         carc_sdk::Command::ResizeRecord { .. } => 0,
///         carc_sdk::Command::RequestPhase { .. } => 0,
///         carc_sdk::Command::EndGame { .. } => 0,
///         carc_sdk::Command::AnotherTile { .. } => 0,
///         carc_sdk::Command::ScoreWords { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::Event) -> u8 {
///     match v {
///         carc_sdk::Event::TurnStarted { .. } => 0,
///         carc_sdk::Event::TileDrawn { .. } => 0,
///         carc_sdk::Event::TileDiscarded { .. } => 0,
///         carc_sdk::Event::TileSetAside { .. } => 0,
///         carc_sdk::Event::TileReturned { .. } => 0,
///         carc_sdk::Event::TilesReshuffled { .. } => 0,
///         carc_sdk::Event::TilePlaced { .. } => 0,
///         carc_sdk::Event::FigureDeployed { .. } => 0,
///         carc_sdk::Event::FigureMoved { .. } => 0,
///         carc_sdk::Event::FigureReturned { .. } => 0,
///         carc_sdk::Event::Scored { .. } => 0,
///         carc_sdk::Event::FeatureScored { .. } => 0,
///         carc_sdk::Event::GameEnded { .. } => 0,
///         carc_sdk::Event::Unknown { .. } => 0,
///     }
/// }
/// ```
/// ```compile_fail,E0004
/// fn every(v: &carc_sdk::EventKind) -> u8 {
///     match v {
///         carc_sdk::EventKind::TurnStarted { .. } => 0,
///         carc_sdk::EventKind::TileDrawn { .. } => 0,
///         carc_sdk::EventKind::TileDiscarded { .. } => 0,
///         carc_sdk::EventKind::TileSetAside { .. } => 0,
///         carc_sdk::EventKind::TileReturned { .. } => 0,
///         carc_sdk::EventKind::TilesReshuffled { .. } => 0,
///         carc_sdk::EventKind::TilePlaced { .. } => 0,
///         carc_sdk::EventKind::FigureDeployed { .. } => 0,
///         carc_sdk::EventKind::FigureMoved { .. } => 0,
///         carc_sdk::EventKind::FigureReturned { .. } => 0,
///         carc_sdk::EventKind::Scored { .. } => 0,
///         carc_sdk::EventKind::FeatureScored { .. } => 0,
///         carc_sdk::EventKind::GameEnded { .. } => 0,
///     }
/// }
/// ```
#[cfg(doctest)]
struct NonExhaustive;
