//! Catching a plugin's panic, so that the host keeps running: during a game the engine
//! reports it as a fault of that expansion and disables the expansion for the rest of the
//! game (its hooks are no longer called); while expansions are loaded or the rules put
//! together it becomes an error.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What went wrong in a call of plugin code: it panicked, or the host found what it
/// gave back against the protocol or its manifest (said as `why`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    /// The panic's message, or what the host found.
    pub why: String,
    /// Whether the plugin panicked (rather than gave something the host refused).
    pub panicked: bool,
}

impl Fault {
    /// A fault the host found in what a plugin gave (no panic), in the running hook.
    pub(crate) fn refused(why: impl Into<String>) -> Fault {
        Fault {
            why: why.into(),
            panicked: false,
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.why)
    }
}

/// The payload of a fault the host finds in what a plugin gave (see [`refuse`]).
struct Refused {
    why: String,
}

/// Stops the plugin call under way: what the plugin gave breaks the protocol or its
/// manifest, said as `why`. Caught by [`caught`] as a [`Fault`] that is no panic.
pub(crate) fn refuse(why: String) -> ! {
    std::panic::resume_unwind(Box::new(Refused { why }))
}

/// Runs one hook call of expansion `expansion`; a panic becomes a fault carrying the
/// panic's message. The base game (expansion 0) is the core's own code and runs
/// unshielded: catching costs a few per cent of a playout, and only plugins pay it.
#[inline]
pub(crate) fn shielded<R>(expansion: usize, call: impl FnOnce() -> R) -> Result<R, Fault> {
    if expansion == 0 {
        return Ok(call());
    }
    caught(call)
}

/// Runs plugin code, catching a panic as a fault carrying the panic's message.
pub(crate) fn caught<R>(call: impl FnOnce() -> R) -> Result<R, Fault> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| match payload.downcast::<Refused>() {
        Ok(refused) => Fault {
            why: refused.why,
            panicked: false,
        },
        Err(payload) => Fault {
            why: message(payload.as_ref()),
            panicked: true,
        },
    })
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
