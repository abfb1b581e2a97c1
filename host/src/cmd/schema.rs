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

/// The one-line summary `carc --help` shows: it names every value of [`Which`], taken
/// from the enum, so that it cannot drift from what `carc schema` accepts.
pub fn summary() -> String {
    let names: Vec<String> = Which::value_variants()
        .iter()
        .filter_map(ValueEnum::to_possible_value)
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    format!(
        "Print a JSON Schema (draft-07): {}",
        carc_core::turnlog::or_list(&names)
    )
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
