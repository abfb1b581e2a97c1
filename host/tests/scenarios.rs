//! Every rule scenario under `tests/scenarios/` replays through `carc replay` (exit 0),
//! also written in JSON (to the same end), and every base rule is cited by at least one
//! scenario.

mod common;

use common::{carc, root, stderr, stdout};

fn scenario_files() -> Vec<std::path::PathBuf> {
    let dir = root().join("tests/scenarios");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_scenario_replays() {
    let files = scenario_files();
    assert!(
        files.len() >= 10,
        "expected at least 10 scenarios, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        let out = carc(&["replay", &rel]);
        if !out.status.success() {
            failures.push(format!(
                "{rel} (exit {:?}):\n{}{}",
                out.status.code(),
                stdout(&out),
                stderr(&out)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} scenario(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every rule named here is cited by a `# rule` comment in some scenario.
fn assert_cited(rules: impl IntoIterator<Item = String>) {
    let mut text = String::new();
    for f in scenario_files() {
        text.push_str(&std::fs::read_to_string(f).expect("readable"));
    }
    for rule in rules {
        let cited = text
            .lines()
            .filter(|l| l.trim_start().starts_with('#') && l.contains("rule"))
            .any(|l| {
                l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .any(|w| w == rule)
            });
        assert!(cited, "no scenario cites {rule} in a `# rule` comment");
    }
}

#[test]
fn every_base_rule_has_a_scenario() {
    assert_cited((1..=10).map(|n| format!("BASE-{n}")));
}

#[test]
fn every_russian_promos_rule_and_option_has_a_scenario() {
    assert_cited((2..=12).map(|n| format!("RP-{n}")));
    for opt in ["rp-opt1", "rp-opt2", "x-rp-pd"] {
        assert!(
            scenario_files().iter().any(|f| f
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(opt))),
            "no scenario for {opt}"
        );
    }
}

/// PD-9 needs a builder or a pig, which no shipped expansion has: it is tested in
/// `plugins/princess-dragon/tests/builders.rs` with a test-only expansion instead.
#[test]
fn every_princess_and_dragon_rule_and_option_has_a_scenario() {
    assert_cited((2..=20).filter(|n| *n != 9).map(|n| format!("PD-{n}")));
    for opt in [
        "pd-opt1", "pd-opt2", "pd-opt3", "pd-opt4", "pd-opt5", "pd-opt6",
    ] {
        assert!(
            scenario_files().iter().any(|f| f
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(opt))),
            "no scenario for {opt}"
        );
    }
}

#[test]
fn every_scenario_replays_the_same_written_in_json() {
    use carc_core::record::{self, Format};
    // The spec: every record works in TOML and in JSON, same structure.
    let catalog = common::plugins::both_expansions();
    let mut checked = 0;
    for f in scenario_files()
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "toml"))
    {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let tree: serde_json::Value =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let json = serde_json::to_string_pretty(&tree).unwrap();
        let mut summaries = Vec::new();
        for (source, format) in [(text.as_str(), Format::Toml), (json.as_str(), Format::Json)] {
            let loaded = record::parse(source, &name, format)
                .unwrap_or_else(|e| panic!("{name} ({format:?}): {e}"));
            let outcome = record::replay(&loaded, &catalog)
                .unwrap_or_else(|_| panic!("{name} ({format:?}) does not replay"));
            summaries.push((
                outcome.applied,
                outcome.rejected,
                record::state_summary(&outcome.game),
            ));
        }
        assert_eq!(summaries[0], summaries[1], "{name}: TOML and JSON differ");
        checked += 1;
    }
    assert!(checked >= 300, "{checked} scenarios");
}
