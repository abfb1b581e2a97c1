//! Scenario tests for carc expansion plugins, from the plugin's own `cargo test`: replay
//! game records (`tests/scenarios/*.toml`, the format `carc replay` reads) against your
//! expansion in-process, alone or together with the shipped expansions (The Princess and
//! the Dragon, the Russian promos) and any other you add ([`Scenarios::with`]), with the
//! same `[expect]` checks and the same messages as `carc replay`. A record names the
//! expansions it plays with; every one of them is available here.
//!
//! ```no_run
//! // tests/scenarios.rs of an expansion crate `wishing_well`, whose lib.rs ends in
//! // `carc_sdk::export_expansion!(WishingWell);`
//! # mod wishing_well { pub fn carc_plugin_module() -> carc_sdk::abi::PluginMod_Ref { unimplemented!() } }
//! #[test]
//! fn scenarios() {
//!     let scenarios = carc_testing::Scenarios::new(wishing_well::carc_plugin_module())
//!         .expect("the expansion loads");
//!     scenarios.check_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/scenarios"));
//! }
//! ```
#![deny(missing_docs)]

/// The plugin author's guide (`docs/writing-an-expansion.md`), included here so that
/// `cargo test` compiles every Rust block in it.
#[doc = include_str!("../../../docs/writing-an-expansion.md")]
pub mod guide {}

use std::path::Path;

use carc_core::catalog::Catalog;
use carc_core::plugin::Plugin;
use carc_core::record::{self, ReplayError};
use carc_sdk::abi::PluginMod_Ref;

/// Your expansion and the shipped ones, ready to replay records.
pub struct Scenarios {
    catalog: Catalog,
}

impl Scenarios {
    /// Your expansion, given by its plugin module (`your_crate::carc_plugin_module()`, which
    /// [`carc_sdk::export_expansion!`] defines), with the shipped expansions beside it. An
    /// error says why the module cannot be used (its manifest or tile data is not valid, or
    /// its id is one of the shipped expansions').
    pub fn new(module: PluginMod_Ref) -> Result<Scenarios, String> {
        let mut catalog = Catalog::new();
        for shipped in [
            carc_princess_dragon::carc_plugin_module(),
            carc_russian_promos::carc_plugin_module(),
        ] {
            catalog.add(Plugin::factory(shipped)?)?;
        }
        catalog.add(Plugin::factory(module)?)?;
        Ok(Scenarios { catalog })
    }

    /// Another expansion beside yours, by its plugin module (`other::carc_plugin_module()`
    /// of a crate your tests depend on), so that records may play with it too (a third
    /// party's expansion yours meets). An error says why the module cannot be used, as
    /// for [`Scenarios::new`], or that its id is taken already.
    ///
    /// ```no_run
    /// # mod wishing_well { pub fn carc_plugin_module() -> carc_sdk::abi::PluginMod_Ref { unimplemented!() } }
    /// # mod inns { pub fn carc_plugin_module() -> carc_sdk::abi::PluginMod_Ref { unimplemented!() } }
    /// let scenarios = carc_testing::Scenarios::new(wishing_well::carc_plugin_module())
    ///     .and_then(|s| s.with(inns::carc_plugin_module()))
    ///     .expect("both expansions load");
    /// ```
    pub fn with(mut self, module: PluginMod_Ref) -> Result<Scenarios, String> {
        self.catalog.add(Plugin::factory(module)?)?;
        Ok(self)
    }

    /// Replays one record and checks its `[expect]`: `Ok` with the line `carc replay`
    /// prints (`FILE: ok, N moves replayed`), or `Err` with what it reports (a located
    /// error for a record that is not valid; each illegal move or failed expectation).
    pub fn replay(&self, path: impl AsRef<Path>) -> Result<String, String> {
        let loaded = record::load(path.as_ref()).map_err(|d| d.to_string())?;
        match record::replay(&loaded, &self.catalog) {
            Ok(outcome) => Ok(outcome.ok_line(&loaded.file)),
            Err(ReplayError::Invalid(d)) => Err(d.to_string()),
            Err(ReplayError::Failed { problems, .. }) => {
                Err(record::failure_report(&loaded.file, &problems))
            }
        }
    }

    /// Replays every record (`*.toml`, `*.json`) in a directory, in name order, and
    /// panics with the report of each one that fails (and when there is none: a test
    /// that replays nothing must not pass).
    pub fn check_dir(&self, dir: impl AsRef<Path>) {
        let dir = dir.as_ref();
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                matches!(
                    p.extension().and_then(|e| e.to_str()),
                    Some("toml" | "json")
                )
            })
            .collect();
        files.sort();
        assert!(
            !files.is_empty(),
            "no scenario records (`*.toml`, `*.json`) in `{}`",
            dir.display()
        );
        let failures: Vec<String> = files.iter().filter_map(|f| self.replay(f).err()).collect();
        assert!(
            failures.is_empty(),
            "{} of {} scenario records failed:\n{}",
            failures.len(),
            files.len(),
            failures.join("\n")
        );
    }
}
