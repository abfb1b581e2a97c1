//! The expansions this host offers: the shipped plugins, loaded from their shared
//! libraries (the default) or, with `--linked`, the same plugin crates linked into this
//! binary. Both go through the same plugin module and the same SDK boundary.

use std::sync::OnceLock;

use carc_core::catalog::Catalog;
use carc_core::plugin::Plugin;

use crate::plugins::{self, Found};

/// Whether `--linked` was given (set once, by `main`).
static LINKED: OnceLock<bool> = OnceLock::new();
/// The plugins found, looked for once per process.
static FOUND: OnceLock<Vec<Found>> = OnceLock::new();

/// Uses the plugin crates linked into this binary instead of their libraries.
pub fn use_linked(linked: bool) {
    let _ = LINKED.set(linked);
}

/// Whether the plugins come from this binary rather than from libraries.
pub fn linked() -> bool {
    LINKED.get().copied().unwrap_or(false)
}

/// The shipped plugins as found (loaded or refused, with why).
pub fn found() -> &'static [Found] {
    FOUND.get_or_init(|| {
        if linked() {
            plugins::shipped_linked()
        } else {
            plugins::shipped_libraries(None)
        }
    })
}

/// Every expansion available to `--expansions`. A plugin that could not be loaded is
/// left out, with a warning naming it and why.
pub fn catalog() -> Catalog {
    let mut c = Catalog::new();
    for f in found() {
        let added = f
            .module
            .clone()
            .and_then(Plugin::factory)
            .and_then(|factory| c.add(factory));
        if let Err(e) = added {
            eprintln!("warning: plugin `{}` is not available: {e}", f.name);
        }
    }
    c
}
