//! The replay viewer (`carc view`, `carc play --html`): a game record as one
//! self-contained HTML page that steps through the game move by move.
//!
//! [`steps`] replays the record one move at a time and keeps what is shown after each
//! (board, scores, whose turn, the turn-log lines); [`pack`] shares the lines the
//! boards have in common; [`html`] writes the page.

pub mod html;
pub mod pack;
pub mod steps;

pub use steps::{LogLine, Step, Viewer};

use carc_core::catalog::Catalog;
use carc_core::record::{Loaded, MoveFailure};

/// The viewer page of a record, with what went wrong with an expansion while the record
/// was played (the page shows the game all the same).
pub fn viewer_html(
    loaded: &Loaded,
    catalog: &Catalog,
) -> Result<(String, Vec<String>), MoveFailure> {
    let viewer = steps::steps(loaded, catalog)?;
    Ok((html::page(&viewer), viewer.faults))
}
