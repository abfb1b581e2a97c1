//! The expansions this host offers: the shipped plugins, loaded from their shared
//! libraries (the default) or, with `--linked`, the same plugin crates linked into this
//! binary, and the plugins of the libraries given with `--plugin`. All go through the
//! same plugin module and the same SDK boundary.

use std::path::PathBuf;
use std::sync::OnceLock;

use carc_core::catalog::Catalog;
use carc_core::plugin::Plugin;

use crate::plugins::{self, Found};

/// Whether `--linked` was given (set once, by `main`).
static LINKED: OnceLock<bool> = OnceLock::new();
/// The plugin libraries given with `--plugin` (set once, by `main`).
static LIBRARIES: OnceLock<Vec<PathBuf>> = OnceLock::new();
/// The plugins found, looked for once per process.
static FOUND: OnceLock<Vec<Found>> = OnceLock::new();

/// Uses the plugin crates linked into this binary instead of their libraries.
pub fn use_linked(linked: bool) {
    let _ = LINKED.set(linked);
}

/// Also offers the plugins of these shared libraries (`--plugin`), after the shipped ones.
pub fn add_libraries(paths: Vec<PathBuf>) {
    let _ = LIBRARIES.set(paths);
}

/// Whether the plugins come from this binary rather than from libraries.
pub fn linked() -> bool {
    LINKED.get().copied().unwrap_or(false)
}

/// The plugins as found (loaded or refused, with why): the shipped ones, then those of
/// the `--plugin` libraries.
pub fn found() -> &'static [Found] {
    FOUND.get_or_init(|| {
        let mut found = if linked() {
            plugins::shipped_linked()
        } else {
            plugins::shipped_libraries(None)
        };
        found.extend(plugins::libraries(
            LIBRARIES.get().map_or(&[][..], Vec::as_slice),
        ));
        found
    })
}

/// Every expansion available to `--expansions`. A plugin that could not be loaded is
/// left out, with a warning naming it and why.
pub fn catalog() -> Catalog {
    catalog_of(found())
}

/// The expansions of these plugins (those that loaded; a warning for each of the others).
pub fn catalog_of(found: &[Found]) -> Catalog {
    let mut c = Catalog::new();
    for f in found {
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
