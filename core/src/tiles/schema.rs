//! PLACEHOLDER until the validator lands: the tile-data JSON Schema.

/// The tile-data schema (draft-07).
pub fn tile_schema() -> serde_json::Value {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<super::TileFile>();
    serde_json::to_value(schema).unwrap_or_default()
}

/// The schema as pretty JSON with a trailing newline.
pub fn tile_schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&tile_schema()).unwrap_or_default();
    s.push('\n');
    s
}
