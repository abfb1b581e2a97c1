//! Every rule scenario under `tests/scenarios/` replays through `carc replay` (exit 0),
//! and every base rule is cited by at least one scenario.

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

#[test]
fn every_base_rule_has_a_scenario() {
    let mut text = String::new();
    for f in scenario_files() {
        text.push_str(&std::fs::read_to_string(f).expect("readable"));
    }
    for n in 1..=10 {
        let rule = format!("BASE-{n}");
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
