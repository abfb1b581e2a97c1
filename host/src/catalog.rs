//! The expansions this host offers. Expansion plugins register here.

use carc_core::catalog::Catalog;

/// Every expansion available to `--expansions`.
pub fn catalog() -> Catalog {
    Catalog::new()
}
