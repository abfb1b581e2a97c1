//! The expansions this host offers. Until dynamic loading lands, expansion crates are
//! linked statically through the same `Expansion` trait.

use std::sync::Arc;

use carc_core::catalog::{Catalog, Factory};

/// Every expansion available to `--expansions`.
pub fn catalog() -> Catalog {
    let mut c = Catalog::new();
    let statics: [Factory; 2] = [
        Arc::new(|| Box::new(carc_princess_dragon::PrincessDragon::new())),
        Arc::new(|| Box::new(carc_russian_promos::RussianPromos::new())),
    ];
    for f in statics {
        if let Err(e) = c.add(f) {
            eprintln!("warning: an expansion could not be offered: {e}");
        }
    }
    c
}
