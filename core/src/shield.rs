//! Catching a plugin's panic, so that the host keeps running: during a game the engine
//! reports it as a fault of that expansion and disables the expansion for the rest of the
//! game (its hooks are no longer called); while expansions are loaded or the rules put
//! together it becomes an error.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs one hook call of expansion `expansion`; a panic becomes an error carrying the
/// panic's message. The base game (expansion 0) is the core's own code and runs
/// unshielded: catching costs a few per cent of a playout, and only plugins pay it.
#[inline]
pub(crate) fn shielded<R>(expansion: usize, call: impl FnOnce() -> R) -> Result<R, String> {
    if expansion == 0 {
        return Ok(call());
    }
    caught(call)
}

/// Runs plugin code, catching a panic as an error carrying the panic's message.
pub(crate) fn caught<R>(call: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| message(payload.as_ref()))
}

fn message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".into()
    }
}
