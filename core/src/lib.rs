//! carc-core: the Carcassonne model, the rules engine, and the hosting of SDK plugins.
//!
//! Start at [`engine::Game`] (`legal_actions()` / `apply()`), [`rules::Rules`] (what is in
//! force) and [`expansion::Expansion`] (how rules plug in). The base game itself is the
//! expansion [`base::BaseGame`].
#![warn(missing_docs)]

pub mod base;
pub mod board;
pub mod bots;
pub mod catalog;
pub mod declared;
pub mod engine;
pub mod expansion;
pub mod features;
pub mod figures;
pub mod fixtures;
pub mod input;
pub mod plain;
pub use carc_sdk::geometry;
pub mod manifest;
pub mod plugin;
pub mod precedence;
pub mod record;
pub mod rng;
pub mod rules;
pub mod setup;
mod shield;
pub mod span;
pub mod strength;
pub mod tags;
pub mod tiles;
pub mod turnlog;
pub mod wake;
