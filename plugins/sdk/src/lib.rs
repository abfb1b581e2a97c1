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
