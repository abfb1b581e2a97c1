//! Protocol 1.1, behind the test-only feature `protocol-next`: what a host gains when the
//! protocol grows. A new query is answered here before the 1.0 table is asked; plugins
//! built for 1.0 never ask for it.

use std::ffi::c_void;

use carc_sdk::abi::query as q;

use super::Asking;

/// The scalar query of protocol 1.1: [`q::TURNS_LEFT`], then every query of 1.0.
pub(super) extern "C" fn query(game: *const c_void, id: u32, a: i64, b: i64) -> i64 {
    // SAFETY: the table is made by `host_table` over an `Asking` that lives for the call.
    let ask = unsafe { &*game.cast::<Asking>() };
    if id == q::TURNS_LEFT {
        return ask.state.map_or(-1, |s| s.pile.len() as i64);
    }
    (ask.table().query)(game, id, a, b)
}
