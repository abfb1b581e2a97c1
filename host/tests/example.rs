//! The examples, each an expansion outside the workspace written against the SDK alone:
//! `examples/builder-and-pig` (issue 12, made with `carc new`) and
//! `examples/inns-and-cathedrals` (a rule at the decision point `feature-worth`) and
//! `examples/river` (a start tile, stacks and `no-figures` in its data) and
//! `examples/mayor` (a rule at the decision point `figure-strength`). Each
//! builds, `carc` loads its directory as it is and plays it beside both shipped
//! expansions, its scenario records replay through `carc replay`, and its own `cargo
//! test` passes; a refused move of the builder and pig says why in its own words
//! (`why_not`).

mod common;

use common::scaffold::{carc_in, cargo_in};
use common::{root, scratch, stderr, stdout};

#[test]
fn the_builder_and_pig_example_builds_loads_plays_and_replays_its_scenarios() {
    let home = scratch("example");
    let flag = builds_loads_plays_and_replays(&home, "builder-and-pig");
    refused_moves_say_why(&home, &flag);
    // `replay --json` shows the expansion's own record: the turn a builder last gave a
    // second tile (Alice's third turn, the fifth), none kept by the shipped expansions.
    let file = root().join("examples/builder-and-pig/tests/scenarios/builder-second-tile.toml");
    let file = file.to_string_lossy();
    let out = carc_in(
        &root(),
        &home,
        &["--plugin-dir", &flag, "replay", "--json", &file],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(
        state["records"],
        serde_json::json!({ "builder-and-pig": [5] }),
        "{state}"
    );
    passes_its_own_tests("builder-and-pig");
}

#[test]
fn the_inns_and_cathedrals_example_changes_what_features_are_worth() {
    // Its rule at the decision point `feature-worth` (protocol 1.3) changes what roads
    // with an inn and cities with a cathedral are worth; its scenarios say by how much.
    let home = scratch("example-inns");
    builds_loads_plays_and_replays(&home, "inns-and-cathedrals");
    passes_its_own_tests("inns-and-cathedrals");
}

#[test]
fn the_mayor_example_counts_its_citys_pennants_in_majorities() {
    // Its rule at the decision point `figure-strength` (protocol 1.5) makes a mayor count
    // its city's pennants (its scenarios: 2 beat a follower, 1 ties, none counts
    // nothing); it keeps the mayor out of roads, also through the magic portal.
    let home = scratch("example-mayor");
    let flag = builds_loads_plays_and_replays(&home, "mayor");
    passes_its_own_tests("mayor");
    let road = "is illegal: the mayor stands only in a city, never on a road, a field or a \
                monastery (not even through the magic portal)";
    refused_as(
        &home,
        &flag,
        "mayor",
        &[
            ("no-mayor-on-a-road.toml", road),
            ("no-mayor-through-the-portal-onto-a-road.toml", road),
        ],
    );
    // The turn log says when a city scores for nobody (a mayor without a pennant alone),
    // and only then.
    let dir = root().join("examples/mayor/tests/scenarios");
    let log = |name: &str| {
        let file = dir.join(name).to_string_lossy().into_owned();
        let out = carc_in(
            &root(),
            &home,
            &["--plugin-dir", &flag, "replay", "--log", &file],
        );
        assert_eq!(out.status.code(), Some(0), "{name}:\n{}", stderr(&out));
        stdout(&out)
    };
    let nobody = log("mayor-without-pennant-scores-nothing.toml");
    assert!(
        nobody.contains(" scores for nobody: no figure there counts towards a majority\n"),
        "{nobody}"
    );
    let two = log("mayor-two-pennants-beats-a-follower.toml");
    assert!(!two.contains("scores for nobody"), "{two}");
}

#[test]
fn the_river_example_sets_up_the_game_and_keeps_the_rivers_course() {
    // Its start tile, stacks and the tag `no-figures` are tile data and manifest
    // (protocol 1.4); its library restricts where a river tile goes.
    let home = scratch("example-river");
    let flag = builds_loads_plays_and_replays(&home, "river");
    passes_its_own_tests("river");
    let cases = [
        (
            "river-u-turn.toml",
            "move 2 (place = \"river:curve\", at = [-1, 1], rotation = 180) is illegal: the river \
             may not make a U-turn: its last curve turned right, so this one must turn left",
        ),
        (
            "river-not-continued.toml",
            "is illegal: a river tile must continue the river at its open end",
        ),
        // The engine's own words, before The Princess and the Dragon's about its portal.
        (
            "river-portal.toml",
            "move 3 (follower = [0, 1, \"N\"]) is illegal: no figure may stand on a river",
        ),
    ];
    refused_as(&home, &flag, "river", &cases);
    // `carc plan` shows the setup.
    let out = carc_in(
        &root(),
        &home,
        &["--plugin-dir", &flag, "plan", "--expansions", "river"],
    );
    let plan = stdout(&out);
    assert!(
        plan.contains("\nstart tile: river:spring (named by river)\n"),
        "{plan}"
    );
    assert!(plan.contains("river:monastery; -1: river:lake\n"), "{plan}");
    // A game: the spring on (0, 0), then the eleven river tiles, the lake last.
    let record = home.join("game.toml");
    let out = carc_in(
        &root(),
        &home,
        &[
            "--plugin-dir",
            &flag,
            "play",
            "--seed",
            "3",
            "--expansions",
            "river",
            "--record",
            record.to_str().expect("UTF-8"),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&record).expect("the record");
    let placed: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("place = \""))
        .map(|l| l.trim_end_matches('"'))
        .collect();
    assert!(placed.len() > 60, "{placed:?}");
    assert!(
        placed[..11].iter().all(|t| t.starts_with("river:")),
        "{placed:?}"
    );
    assert_eq!(placed[10], "river:lake");
    assert!(placed[11..].iter().all(|t| t.starts_with("base:")));
}

/// Each scenario of example `name` without its `error_at` fails at that move, with these
/// words.
fn refused_as(home: &std::path::Path, flag: &str, name: &str, cases: &[(&str, &str)]) {
    let dir = root().join("examples").join(name).join("tests/scenarios");
    for &(name, words) in cases {
        let text: String = std::fs::read_to_string(dir.join(name))
            .expect("the scenario")
            .lines()
            .filter(|l| !l.starts_with("error_at = "))
            .map(|l| format!("{l}\n"))
            .collect();
        refused_with(home, flag, name, &text, words);
    }
}

/// The record `text`, written to `home` as `name`, fails with an illegal move refused in
/// these words.
fn refused_with(home: &std::path::Path, flag: &str, name: &str, text: &str, words: &str) {
    let path = home.join(name);
    std::fs::write(&path, text).expect("written");
    let file = path.to_string_lossy().into_owned();
    let out = carc_in(&root(), home, &["--plugin-dir", flag, "replay", &file]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{name}:\n{err}");
    assert!(
        err.lines()
            .any(|l| l.contains("is illegal: ") && l.contains(words)),
        "{name}: refused with `{words}`:\n{err}"
    );
}

/// The example `examples/<name>` (whose expansion id is its name) builds, `carc` lists
/// it as loaded, plays a game with it and both shipped expansions, and replays each of
/// its scenario records; the `--plugin-dir` flag naming it.
fn builds_loads_plays_and_replays(home: &std::path::Path, name: &str) -> String {
    let dir = root().join("examples").join(name);
    let out = cargo_in(&dir, &["build"]);
    assert!(out.status.success(), "cargo build:\n{}", stderr(&out));
    let flag = dir.to_string_lossy().into_owned();
    let out = carc_in(
        &root(),
        home,
        &["--plugin-dir", &flag, "plugins", "list", "--json"],
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let row = rows
        .as_array()
        .expect("an array")
        .iter()
        .find(|r| r["id"] == name)
        .unwrap_or_else(|| panic!("not listed: {rows}"));
    assert_eq!(row["status"], "loaded", "{row}");
    let expansions = format!("{name},princess-dragon,russian-promos");
    let out = carc_in(
        &root(),
        home,
        &[
            "--plugin-dir",
            &flag,
            "play",
            "--seed",
            "4",
            "--expansions",
            &expansions,
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir.join("tests/scenarios")).expect("scenarios") {
        let path = entry.expect("an entry").path();
        let file = path.to_string_lossy().into_owned();
        let out = carc_in(&root(), home, &["--plugin-dir", &flag, "replay", &file]);
        assert!(out.status.success(), "{file}:\n{}", stderr(&out));
        replayed += 1;
    }
    assert!(replayed >= 3, "{replayed} scenarios");
    flag
}

/// The example's own `cargo test` passes, replaying its scenarios through carc-testing.
fn passes_its_own_tests(name: &str) {
    let out = cargo_in(&root().join("examples").join(name), &["test"]);
    assert!(
        out.status.success() && stdout(&out).contains("test scenario_records_replay ... ok"),
        "cargo test:\n{}{}",
        stdout(&out),
        stderr(&out)
    );
}

/// A builder where its owner has no follower: refused, in the example's words.
const BUILDER_WITHOUT_FOLLOWER: &str = r#"
[game]
expansions = ["builder-and-pig"]
players = ["Alice", "Bob"]
supply = "draw"
draw = ["base:U", "base:U"]

[[move]]
place = "base:U"
at = [1, 0]
rotation = 0
[[move]]
builder = [1, 0, "E"]
"#;

/// The example's refused moves, replayed without their `error_at`, are refused with the
/// reason of the rule that refuses them: the example's own, or an expansion's it meets
/// (PD-3, PD-11).
fn refused_moves_say_why(home: &std::path::Path, flag: &str) {
    refused_as(
        home,
        flag,
        "builder-and-pig",
        &[
            (
                "no-builder-through-the-portal.toml",
                "through the magic portal",
            ),
            ("fairy-not-next-to-a-builder.toml", "(PD-11)"),
            ("no-pig-on-the-volcano.toml", "(PD-3)"),
        ],
    );
    refused_with(
        home,
        flag,
        "builder-without-follower.toml",
        BUILDER_WITHOUT_FOLLOWER,
        "move 1 (builder = [1, 0, \"E\"]) is illegal: a builder goes only into a road or a city \
         where you have a follower",
    );
    // A malformed value of the example's own move is located at the value.
    let path = home.join("builder-bad-port.toml");
    std::fs::write(
        &path,
        BUILDER_WITHOUT_FOLLOWER.replace("builder = [1, 0, \"E\"]", "builder = [1, 0, \"XYZ\"]"),
    )
    .expect("written");
    let file = path.to_string_lossy().into_owned();
    let out = carc_in(&root(), home, &["--plugin-dir", flag, "replay", &file]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{file}:13:11: error: move 1: `XYZ` is neither a port (NNW, N, NNE, ENE, ...) nor a \
             feature kind"
        )),
        "{}",
        stderr(&out)
    );
}
