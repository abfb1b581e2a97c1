//! One plugin, two ways to link (issue 10): the same seeded games
//! played with the shipped plugins loaded from their shared libraries and linked into
//! `carc` (`--linked`) write records identical byte for byte.

mod common;

use common::{carc, scratch, stderr};

/// Plays one game and returns its record's bytes.
fn record(dir: &std::path::Path, name: &str, linked: bool, args: &[&str]) -> Vec<u8> {
    let path = dir.join(format!("{name}.toml"));
    let path_text = path.to_string_lossy().into_owned();
    let mut all: Vec<&str> = Vec::new();
    if linked {
        all.push("--linked");
    }
    all.push("play");
    all.extend_from_slice(args);
    all.extend_from_slice(&["--record", &path_text]);
    let out = carc(&all);
    assert!(
        out.status.success(),
        "carc {all:?} failed: {}",
        stderr(&out)
    );
    std::fs::read(&path).expect("the record was written")
}

#[test]
fn loaded_and_linked_plugins_write_the_same_records() {
    let dir = scratch("linking");
    let combos = [
        "princess-dragon",
        "russian-promos",
        "princess-dragon,russian-promos",
    ];
    let options: [&[&str]; 3] = [
        &[],
        &[
            "--rule",
            "princess-dragon.dragon-move=after-scoring",
            "--rule",
            "princess-dragon.fairy-placement=on-tile",
        ],
        &["--rule", "russian-promos.yaga-hut-value=2013"],
    ];
    let mut compared = 0;
    for (c, expansions) in combos.iter().enumerate() {
        for players in ["2", "3", "4"] {
            for (o, rules) in options.iter().enumerate() {
                // An option of an expansion that is not enabled is an error: skip those.
                let needs = if o == 1 {
                    "princess-dragon"
                } else {
                    "russian-promos"
                };
                if o > 0 && !expansions.contains(needs) {
                    continue;
                }
                let seed = (7 + c * 10 + o).to_string();
                let mut args = vec![
                    "--seed",
                    &seed,
                    "--players",
                    players,
                    "--expansions",
                    expansions,
                ];
                args.extend_from_slice(rules);
                let name = format!("{c}-{players}-{o}");
                let loaded = record(&dir, &format!("{name}-loaded"), false, &args);
                let linked = record(&dir, &format!("{name}-linked"), true, &args);
                assert!(
                    loaded == linked,
                    "{expansions}, {players} players, options {rules:?}: the records differ"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 21);
}

#[test]
fn simulate_compares_loaded_with_linked_plugins() {
    let out = carc(&[
        "simulate",
        "--games",
        "30",
        "--seed",
        "3",
        "--expansions",
        "princess-dragon,russian-promos",
        "--compare-linking",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("simulate --json prints JSON");
    let ratio = v["dynamic_over_static"]
        .as_f64()
        .expect("dynamic_over_static");
    assert!(ratio > 0.0, "{v}");
    assert!(v["linked"]["games_per_second"].as_f64().is_some(), "{v}");
    // With --linked there is nothing to compare with.
    let out = carc(&[
        "--linked",
        "simulate",
        "--games",
        "3",
        "--expansions",
        "princess-dragon",
        "--compare-linking",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("leave out --linked"),
        "{}",
        stderr(&out)
    );
}
