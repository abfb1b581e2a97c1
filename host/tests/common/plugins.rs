//! The shipped expansions as the engine runs them, for tests that put rules together
//! themselves. Each expansion is made in one place here, so switching how one is built
//! changes every test.

use carc_core::catalog::{Catalog, Factory};
use carc_core::expansion::Expansion;
use carc_core::plugin::Plugin;

/// The catalog entry of The Princess and the Dragon.
pub fn princess_dragon_factory() -> Factory {
    Plugin::factory(carc_princess_dragon::carc_plugin_module()).expect("the PD plugin loads")
}

/// The Princess and the Dragon, as an engine expansion.
pub fn princess_dragon() -> Box<dyn Expansion> {
    princess_dragon_factory()()
}

/// The catalog entry of the Russian promos.
pub fn russian_promos_factory() -> Factory {
    Plugin::factory(carc_russian_promos::carc_plugin_module()).expect("the RP plugin loads")
}

/// The Russian promos, as an engine expansion.
pub fn russian_promos() -> Box<dyn Expansion> {
    russian_promos_factory()()
}

/// The Princess and the Dragon under another manifest (TOML text).
pub fn princess_dragon_with_manifest(manifest: &str) -> Box<dyn Expansion> {
    Box::new(
        Plugin::with_manifest(carc_princess_dragon::carc_plugin_module(), Some(manifest))
            .expect("the PD plugin loads"),
    )
}

/// The Russian promos under another manifest (TOML text), e.g. with the opposite
/// declared precedence: declarations are data, so this changes no code path.
pub fn russian_promos_with_manifest(manifest: &str) -> Box<dyn Expansion> {
    Box::new(
        Plugin::with_manifest(carc_russian_promos::carc_plugin_module(), Some(manifest))
            .expect("the RP plugin loads"),
    )
}

/// A catalog offering both shipped expansions.
pub fn both_expansions() -> Catalog {
    let mut catalog = Catalog::new();
    catalog.add(princess_dragon_factory()).expect("pd");
    catalog.add(russian_promos_factory()).expect("rp");
    catalog
}
