//! The expansions this host offers. Until dynamic loading lands, expansion crates are
//! linked statically through the same `Expansion` trait.

use std::sync::Arc;

use carc_core::catalog::Catalog;

/// Every expansion available to `--expansions`.
pub fn catalog() -> Catalog {
    let mut c = Catalog::new();
    let statics: [carc_core::catalog::Factory; 1] = [Arc::new(|| {
        Box::new(carc_princess_dragon::PrincessDragon::new())
    })];
    for f in statics {
        // Ids are distinct by construction; a clash would be a programming error caught by tests.
        let _ = c.add(f);
    }
    c
}
