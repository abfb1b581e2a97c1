//! The JSON Schema of tile-data files, generated from the [`super::def`] types.
//!
//! The schema is draft-07 so that editors (Taplo, VS Code's Even Better TOML) can use it
//! through the `#:schema ../schema/tiles.schema.json` comment at the top of a tile file.
//! The checked-in copy, `schema/tiles.schema.json`, must equal [`tile_schema_json`]; the
//! `schema_drift` test enforces it.

use schemars::generate::SchemaSettings;

use super::def::TileFile;

/// The JSON Schema (draft-07) of a tile-data file, as a JSON value.
pub fn tile_schema() -> serde_json::Value {
    let schema = SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<TileFile>();
    schema.to_value()
}

/// The JSON Schema of a tile-data file as pretty-printed JSON with a trailing newline,
/// exactly as checked in at `schema/tiles.schema.json`.
pub fn tile_schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&tile_schema())
        .unwrap_or_else(|e| unreachable!("a JSON value always serializes: {e}"));
    text.push('\n');
    text
}
