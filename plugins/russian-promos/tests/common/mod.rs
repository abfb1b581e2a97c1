//! Shared by this crate's tests.

use std::sync::Arc;

use carc_core::catalog::Catalog;
use carc_princess_dragon::PrincessDragon;
use carc_russian_promos::RussianPromos;

/// A catalog offering both shipped expansions.
pub fn both_expansions() -> Catalog {
    let mut catalog = Catalog::new();
    catalog
        .add(Arc::new(|| Box::new(PrincessDragon::new())))
        .expect("pd");
    catalog
        .add(Arc::new(|| Box::new(RussianPromos::new())))
        .expect("rp");
    catalog
}
