//! `examples/builder-and-pig` (issue 12): an expansion made with `carc new`, outside the
//! workspace, against the SDK alone. It builds, `carc` loads its directory as it is,
//! its scenario records replay through `carc replay` (alone and beside both shipped
//! expansions), and its own `cargo test` passes.

mod common;

use common::scaffold::{carc_in, cargo_in};
use common::{root, scratch, stderr, stdout};

#[test]
fn the_builder_and_pig_example_builds_loads_plays_and_replays_its_scenarios() {
    let home = scratch("example");
    let dir = root().join("examples/builder-and-pig");
    let out = cargo_in(&dir, &["build"]);
    assert!(out.status.success(), "cargo build:\n{}", stderr(&out));
    let flag = dir.to_string_lossy().into_owned();
    let out = carc_in(
        &root(),
        &home,
        &["--plugin-dir", &flag, "plugins", "list", "--json"],
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = rows
        .as_array()
        .expect("an array")
        .iter()
        .find(|r| r["id"] == "builder-and-pig")
        .unwrap_or_else(|| panic!("not listed: {rows}"));
    assert_eq!(row["status"], "loaded", "{row}");
    let out = carc_in(
        &root(),
        &home,
        &[
            "--plugin-dir",
            &flag,
            "play",
            "--seed",
            "4",
            "--expansions",
            "builder-and-pig,princess-dragon,russian-promos",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir.join("tests/scenarios")).expect("scenarios") {
        let path = entry.expect("an entry").path();
        let file = path.to_string_lossy().into_owned();
        let out = carc_in(&root(), &home, &["--plugin-dir", &flag, "replay", &file]);
        assert!(out.status.success(), "{file}:\n{}", stderr(&out));
        replayed += 1;
    }
    assert!(replayed >= 3, "{replayed} scenarios");
    let out = cargo_in(&dir, &["test"]);
    assert!(
        out.status.success() && stdout(&out).contains("test scenario_records_replay ... ok"),
        "cargo test:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
}
