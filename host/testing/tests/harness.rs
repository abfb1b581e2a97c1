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

/// A third party's expansion, to stand beside the fixture: a point for every tenth tile
/// placed.
mod milestones {
    use carc_sdk::{Command, Event, EventKind, EventKinds, Expansion, Out, Reason, View};

    pub struct Milestones;

    impl Expansion for Milestones {
        const MANIFEST: &'static str =
            "id = \"milestones\"\nname = \"Milestones\"\nversion = \"0.1.0\"\n";

        fn new(_view: &View) -> Result<Self, String> {
            Ok(Milestones)
        }

        fn events(&self) -> EventKinds {
            EventKinds::of(&[EventKind::TilePlaced])
        }

        fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
            if let Event::TilePlaced {
                player: Some(player),
                ..
            } = *event
                && view.tile_count().is_multiple_of(10)
            {
                out.push(Command::Score {
                    player,
                    points: 1,
                    reason: Reason::Text("a milestone"),
                });
            }
        }
    }

    carc_sdk::export_expansion!(Milestones);
}

/// `with` adds another expansion for records to name; one of the same id is refused.
#[test]
fn another_expansion_added_with_with_plays_in_records() {
    let both = scenarios()
        .with(milestones::carc_plugin_module())
        .expect("another expansion beside the fixture");
    let dir = Scratch::new("with");
    // The start tile and nine more: the tenth on the board is Alice's fifth, and her
    // milestone.
    let mut record = String::from(
        "[game]\nexpansions = [\"milestones\"]\nplayers = [\"Alice\", \"Bob\"]\n\
         supply = \"draw\"\ndraw = [",
    );
    record.push_str(&["\"base:U\""; 9].join(", "));
    record.push_str("]\n");
    for x in 1..=9 {
        record.push_str(&format!(
            "\n[[move]]\nplace = \"base:U\"\nat = [{x}, 0]\nrotation = 0\n\n[[move]]\npass = true\n"
        ));
    }
    let path = dir.file("milestones.toml", &record);
    let report = both.replay(&path);
    assert!(report.is_ok(), "{report:?}");
    let wrong = dir.file(
        "wrong.toml",
        &record.replace(
            "[game]",
            "[expect]\nscores = { Alice = 0, Bob = 0 }\n\n[game]",
        ),
    );
    let report = both.replay(&wrong).expect_err("Alice's milestone");
    assert!(report.contains("Alice expected 0, got 1"), "{report}");
    // The same expansion twice is refused.
    let again = scenarios().with(carc_fixture_misbehaving::carc_plugin_module());
    assert!(again.is_err(), "an id taken already");
}
