//! The checked-in `schema/tiles.schema.json` must be exactly the schema generated from
//! the tile-data types. Set `CARC_BLESS=1` to rewrite it.

use std::path::PathBuf;

use carc_core::tiles::schema::tile_schema_json;

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schema/tiles.schema.json")
}

#[test]
fn tile_schema_is_up_to_date() {
    let generated = tile_schema_json();
    let path = schema_path();
    if std::env::var_os("CARC_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    if on_disk != generated {
        let line = on_disk
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| on_disk.lines().count().min(generated.lines().count()))
            + 1;
        panic!(
            "schema/tiles.schema.json is out of date (first difference on line {line}).\n\
             Regenerate it from the repository root with\n\
             \n    cargo run -p carc-host -- schema tiles > schema/tiles.schema.json\n\
             \nor\n\
             \n    CARC_BLESS=1 cargo test -p carc-core --test schema_drift\n"
        );
    }
}

#[test]
fn tile_schema_is_draft_07_and_ends_with_a_newline() {
    let schema = carc_core::tiles::schema::tile_schema();
    assert_eq!(
        schema["$schema"], "http://json-schema.org/draft-07/schema#",
        "editors such as Taplo read draft-07"
    );
    assert!(
        schema.get("definitions").is_some(),
        "draft-07 keeps `definitions`, not `$defs`"
    );
    assert!(tile_schema_json().ends_with("}\n"));
}

#[test]
fn base_tiles_point_at_the_schema() {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tiledefs/base.toml");
    let text = std::fs::read_to_string(&base).expect("tiledefs/base.toml is readable");
    assert_eq!(
        text.lines().next(),
        Some("#:schema ../schema/tiles.schema.json")
    );
}
