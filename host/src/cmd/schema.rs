//! `carc schema tiles|record`: print a generated JSON Schema.

use clap::{Args, ValueEnum};

/// Which schema.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Which {
    /// Tile-data files (`tiledefs/*.toml`).
    Tiles,
    /// Game records.
    Record,
    /// Expansion manifests (`plugins/*/manifest.toml`).
    Manifest,
}

/// Arguments of `carc schema`.
#[derive(Args, Debug)]
pub struct SchemaArgs {
    /// `tiles`, `record` or `manifest`.
    which: Which,
}

/// Prints the schema.
pub fn run(args: SchemaArgs) -> u8 {
    let text = match args.which {
        Which::Tiles => carc_core::tiles::schema::tile_schema_json(),
        Which::Record => carc_core::record::record_schema_json(),
        Which::Manifest => carc_core::manifest::manifest_schema_json(),
    };
    out!("{text}");
    0
}
