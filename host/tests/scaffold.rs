//! `carc new expansion` (issue 12) as a plugin author meets it: the crate it makes builds
//! outside the workspace against the SDK alone, `carc` loads the directory as it is and
//! plays with it beside the shipped expansions, and the crate's own `cargo test` replays
//! its scenario records through `carc-testing`.

mod common;

use common::scaffold::{build_dir, carc_in, cargo_in, copy_tree};
use common::{root, scratch, stderr, stdout};

#[test]
fn a_new_expansion_builds_outside_the_workspace_loads_plays_and_tests_itself() {
    let home = scratch("scaffold");
    let made = home.join("wishing-well");
    let new = || {
        carc_in(
            &home,
            &home,
            &[
                "new",
                "expansion",
                "wishing-well",
                "--path",
                made.to_str().unwrap(),
            ],
        )
    };
    let out = new();
    assert!(out.status.success(), "{}", stderr(&out));
    for file in [
        "Cargo.toml",
        "manifest.toml",
        "tiles.toml",
        "src/lib.rs",
        "tests/scenarios.rs",
        "tests/scenarios/well.toml",
        "README.md",
        "schema/tiles.schema.json",
    ] {
        assert!(made.join(file).is_file(), "{file} was not made");
        assert!(stdout(&out).contains(file), "{}", stdout(&out));
    }
    // The SDK is its only dependency; the tile file names its schema.
    let manifest = std::fs::read_to_string(made.join("Cargo.toml")).unwrap();
    let dependencies = manifest
        .split("[dependencies]")
        .nth(1)
        .and_then(|s| s.split("\n[").next())
        .expect("a [dependencies] table");
    let named: Vec<&str> = dependencies
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && l.contains('='))
        .collect();
    assert_eq!(named.len(), 1, "{dependencies}");
    assert!(named[0].starts_with("carc-sdk "), "{dependencies}");
    assert!(
        std::fs::read_to_string(made.join("tiles.toml"))
            .unwrap()
            .starts_with("#:schema schema/tiles.schema.json")
    );
    // Never over what is there.
    let again = new();
    assert_eq!(again.status.code(), Some(2));
    assert!(
        stderr(&again).contains("already exists"),
        "{}",
        stderr(&again)
    );

    let dir = build_dir();
    copy_tree(&made, &dir);
    let out = cargo_in(&dir, &["build"]);
    assert!(out.status.success(), "cargo build:\n{}", stderr(&out));
    let flag = dir.to_str().unwrap();
    let out = carc_in(&root(), &home, &["validate", flag]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = carc_in(
        &root(),
        &home,
        &["--plugin-dir", flag, "plugins", "list", "--json"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "wishing-well")
        .unwrap_or_else(|| panic!("not listed: {rows}"));
    assert_eq!(row["status"], "loaded", "{row}");
    assert_eq!(row["dir"], flag, "{row}");
    let library = std::path::Path::new(row["path"].as_str().unwrap_or(""));
    assert!(library.is_file() && library.starts_with(&dir), "{row}");
    // It plays, alone and beside the shipped expansions; its rule scores.
    for set in [
        "wishing-well",
        "wishing-well,princess-dragon,russian-promos",
    ] {
        let out = carc_in(
            &root(),
            &home,
            &[
                "--plugin-dir",
                flag,
                "play",
                "--seed",
                "2",
                "--expansions",
                set,
            ],
        );
        assert!(out.status.success(), "{set}: {}", stderr(&out));
        assert!(stdout(&out).contains("scores 2 points for a well"), "{set}");
    }
    // Its own tests replay its scenario records.
    let out = cargo_in(&dir, &["test"]);
    assert!(
        out.status.success(),
        "cargo test:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("test scenario_records_replay ... ok"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_bad_name_or_a_taken_one_is_refused_and_nothing_is_written() {
    let home = scratch("scaffold-names");
    for (name, why) in [
        ("Wishing Well", "cannot name an expansion"),
        ("princess-dragon", "is taken"),
        ("carc-sdk", "is taken"),
        ("carc", "is taken"),
        // Cargo takes no keyword as a crate's name, nor one of Rust's own crates.
        ("fn", "a word Rust keeps for itself"),
        ("std", "a word Rust keeps for itself"),
        ("proc-macro", "a word Rust keeps for itself"),
    ] {
        let out = carc_in(&home, &home, &["new", "expansion", name]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(stderr(&out).contains(why), "{name}: {}", stderr(&out));
    }
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0);
}
