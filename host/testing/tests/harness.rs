//! The harness as a plugin author uses it: their expansion (here a test fixture that is
//! not shipped) beside the shipped ones, records replayed with `carc replay`'s checks.

use std::path::{Path, PathBuf};

use carc_testing::Scenarios;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn scenarios() -> Scenarios {
    Scenarios::new(carc_fixture_misbehaving::carc_plugin_module()).expect("the fixture loads")
}

/// A scratch directory of its own for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("carc-testing-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Scratch(dir)
    }

    /// Writes `text` to `name` in the directory and returns its path.
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("written");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_shipped_scenario_records_replay_with_another_expansion_beside() {
    scenarios().check_dir(repository().join("tests/scenarios"));
}

/// One tile and a thief (BASE-5): at the end Alice's unfinished road earns her far
/// fewer than 7 points.
const ROAD: &str = r#"
[game]
expansions = ["fixture-misbehaving", "princess-dragon"]
players = ["Alice", "Bob"]
supply = "draw"
draw = ["base:U"]

[[move]]
place = "base:U"
at = [1, 0]
rotation = 0

[[move]]
follower = [1, 0, "E"]

[expect]
scores = { Alice = 7, Bob = 0 }
"#;

#[test]
fn a_failed_expectation_is_reported_as_carc_replay_reports_it() {
    let dir = Scratch::new("road");
    let path = dir.file("road.toml", ROAD);
    let err = scenarios()
        .replay(&path)
        .expect_err("Alice has no 7 points");
    let file = path.display().to_string();
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some(format!("{file}: replay failed").as_str())
    );
    let problem = lines.next().expect("a problem line");
    assert!(
        problem.starts_with("  scores: Alice expected 7, got "),
        "{err}"
    );
    // The game itself was fine: without the wrong expectation it passes.
    let fixed = dir.file(
        "road-ok.toml",
        &ROAD.replace("[expect]\nscores = { Alice = 7, Bob = 0 }\n", ""),
    );
    let ok = scenarios().replay(&fixed).expect("replays");
    assert!(ok.ends_with(": ok, 2 moves replayed"), "{ok}");
}

#[test]
fn an_invalid_record_is_located() {
    let dir = Scratch::new("bad");
    let path = dir.file(
        "bad.toml",
        "[game]\nplayers = [\"Alice\"]\nexpansions = [\"nowhere\"]\n",
    );
    let err = scenarios().replay(&path).expect_err("not valid");
    assert!(err.contains("bad.toml:3:"), "{err}");
    assert!(err.contains("nowhere"), "{err}");
}

#[test]
#[should_panic(expected = "no scenario records")]
fn a_directory_without_records_does_not_pass() {
    let dir = Scratch::new("empty");
    scenarios().check_dir(&dir.0);
}
