//! Keeping a game going when an expansion's hook panics: the panic is caught, reported as
//! a fault of that expansion, and the expansion is disabled for the rest of the game (its
//! hooks are no longer called). The host keeps running.

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
