//! `carc schema tiles|record|manifest`: print a generated JSON Schema.

use clap::{Args, ValueEnum};

/// Which schema. `carc schema --help` lists these values and their descriptions from
/// this enum (clap's `ValueEnum`), so a new schema appears there by itself.
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
    /// Which schema to print.
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
