//! Protocol 1.7, behind the test-only feature `protocol-next`: the host as it would be
//! after the protocol grows, with a new query, command kind and event kind, so that a
//! test (`host/tests/compat.rs`) can check that a plugin built for 1.6 plays identically
//! on it. A plugin built for 1.6 never asks for the query, never gives the command and
//! is never sent the event (see `known_events`).
//!
//! In a real protocol step these ids would join `carc_sdk::abi`; they live here because
//! the SDK builds one way (no optional features, see ARCHITECTURE.md), and sit at the top
//! of their ranges, clear of the ids the protocol gains meanwhile.

use std::ffi::c_void;

use super::Asking;

/// The protocol a host built with the feature speaks.
pub const PROTOCOL: &str = "1.7.0";

/// The query: how many turns are left at most (the tiles left to draw), or -1 outside
/// a game.
pub const TURNS_LEFT: u32 = 250;

/// The command: a note (`text` the words); the engine accepts it and changes nothing.
pub const NOTE: u32 = 250;

/// The event: a turn ended with its last move and the game goes on; `a` the turn
/// number, `player` whose turn it was. Sent only to a plugin built for 1.7 or newer
/// whose event mask asks for it.
pub const TURN_ENDED: u32 = 31;

/// The scalar query of protocol 1.7: [`TURNS_LEFT`], then every query of 1.6.
pub(super) extern "C" fn query(game: *const c_void, id: u32, a: i64, b: i64) -> i64 {
    // SAFETY: the table is made by `host_table` over an `Asking` that lives for the call.
    let ask = unsafe { &*game.cast::<Asking>() };
    if id == TURNS_LEFT {
        return ask.state.map_or(-1, |s| s.pile.len() as i64);
    }
    (ask.table().query)(game, id, a, b)
}
