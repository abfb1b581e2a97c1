//! Compatibility over time, with real plugin libraries.
//!
//! - A plugin that needs a newer protocol than the host, or another major version, is
//!   refused with a one-line reason naming both versions, and none of its code beyond
//!   its protocol entry runs (the protocol fixture, `plugins/fixtures/protocol`, reports
//!   the version its environment variable names).
//! - A plugin built against the SDK as it is plays identically on a host that has gained
//!   a query, a command kind and an event kind: this test builds such a host (carc-host
//!   with carc-core's test-only feature `protocol-next`; cargo cannot build it beside the
//!   normal one in the same target directory) into `target/protocol-next/`, then
//!   plays the same seeded games with the misbehaving fixture (`fault = none`, built
//!   without the feature by this build) on both hosts and compares the game records byte
//!   for byte and the final states; and every rule scenario replays on that host.
//! - That host serves a plugin built for it what it gained: the protocol fixture,
//!   reporting 1.7, asks for the new event, the new query and gives the new command (by
//!   number: the SDK has no names for them).

mod common;
mod fixture_libs;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use common::{root, scratch, stderr, stdout};
use fixture_libs::{MISBEHAVING, PROTOCOL, PROTOCOL_RAN, PROTOCOL_SAW, PROTOCOL_VARIABLE};

/// `carc` (the given binary) with arguments, from the repository root; `protocol` sets
/// the protocol fixture's version.
fn run(carc: &Path, args: &[&str], protocol: Option<&str>) -> Output {
    let mut cmd = Command::new(carc);
    cmd.args(args).current_dir(root());
    match protocol {
        Some(v) => cmd.env(PROTOCOL_VARIABLE, v),
        None => cmd.env_remove(PROTOCOL_VARIABLE),
    };
    cmd.output().expect("carc runs")
}

/// This build's `carc`.
fn carc() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_carc"))
}

/// A `carc` built with carc-core's test-only feature `protocol-next` (protocol 1.7: a new
/// query, command kind and event kind), built once per test run into
/// `target/protocol-next/`: cargo holds this build's target directory while tests run,
/// and would overwrite this build's own `carc` there. The first build there takes about
/// a minute on two cores (every dependency once); later ones only what changed.
fn next_carc() -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            // `target/<profile>/carc` → `target/`.
            let target = fixture_libs::profile_dir()
                .parent()
                .expect("a target directory")
                .to_path_buf();
            let dir = target.join("protocol-next");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
            let out = Command::new(cargo)
                .args([
                    "build",
                    "--locked",
                    "--package",
                    "carc-host",
                    "--bin",
                    "carc",
                    "--features",
                    "carc-core/protocol-next",
                    "--target-dir",
                ])
                .arg(&dir)
                .current_dir(root())
                // No debug information: a third less time to build, and not needed here.
                .env("CARGO_PROFILE_DEV_DEBUG", "0")
                .output()
                .map_err(|e| format!("cannot run cargo: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "building carc with the feature `protocol-next` failed:\n{}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let exe = dir
                .join("debug")
                .join(format!("carc{}", std::env::consts::EXE_SUFFIX));
            if exe.is_file() {
                Ok(exe)
            } else {
                Err(format!("cargo built no `{}`", exe.display()))
            }
        })
        .clone()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The protocol fixture's row of `carc plugins list --json` (the binary `carc`), with the
/// fixture reporting protocol `version`; and standard error.
fn protocol_row(carc: &Path, version: &str) -> (serde_json::Value, String) {
    let lib = fixture_libs::library(PROTOCOL);
    let lib = lib.to_str().expect("UTF-8");
    listed_row(carc, &["--plugin", lib], version, |r| r["path"] == lib)
}

/// The row of `carc <flags> plugins list --json` that `pick` picks, with the protocol
/// fixture reporting protocol `version`; and standard error.
fn listed_row(
    carc: &Path,
    flags: &[&str],
    version: &str,
    pick: impl Fn(&serde_json::Value) -> bool,
) -> (serde_json::Value, String) {
    let mut args = flags.to_vec();
    args.extend(["plugins", "list", "--json"]);
    let o = run(carc, &args, Some(version));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let row = rows
        .as_array()
        .expect("an array")
        .iter()
        .find(|r| pick(r))
        .unwrap_or_else(|| panic!("the fixture is not listed: {rows}"))
        .clone();
    (row, stderr(&o))
}

#[test]
fn a_plugin_for_another_major_or_a_newer_minor_protocol_is_refused_naming_both_versions() {
    let cases = [
        (
            "2.0.0",
            "it needs protocol 2.0.0, and this host speaks 1.6.0 (another major version)",
        ),
        (
            "0.9.0",
            "it needs protocol 0.9.0, and this host speaks 1.6.0 (another major version)",
        ),
        (
            "1.9.0",
            "it needs protocol 1.9.0, newer than this host's 1.6.0",
        ),
        (
            "1.7.0",
            "it needs protocol 1.7.0, newer than this host's 1.6.0",
        ),
    ];
    for (version, why) in cases {
        let (row, err) = protocol_row(&carc(), version);
        assert_eq!(row["status"], "refused", "{version}");
        assert_eq!(row["reason"], why, "{version}");
        assert_eq!(
            row["id"], PROTOCOL,
            "{version}: listed by its library's name"
        );
        assert!(
            !err.contains(PROTOCOL_RAN),
            "{version}: its code ran:\n{err}"
        );
    }
    // The table has the same reason, on the plugin's one line.
    let lib = fixture_libs::library(PROTOCOL);
    let o = run(
        &carc(),
        &["plugins", "list", "--plugin", lib.to_str().expect("UTF-8")],
        Some("2.0.0"),
    );
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with(PROTOCOL))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("not listed:\n{}", stdout(&o)));
    assert!(
        line.contains(
            "refused: it needs protocol 2.0.0, and this host speaks 1.6.0 (another major version)"
        ),
        "{line}"
    );
    // Control: at this host's protocol it loads, and the marker shows its code running.
    let (row, err) = protocol_row(&carc(), "1.6.0");
    assert_eq!(row["status"], "loaded");
    assert_eq!(row["id"], "fixture-protocol");
    assert!(err.contains(&format!("{PROTOCOL_RAN} manifest")), "{err}");
}

#[test]
fn a_refused_plugin_is_not_offered_and_none_of_its_code_runs() {
    let lib = fixture_libs::library(PROTOCOL);
    let args = [
        "play",
        "--plugin",
        lib.to_str().expect("UTF-8"),
        "--expansions",
        "fixture-protocol",
        "--seed",
        "1",
    ];
    let o = run(&carc(), &args, Some("2.0.0"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "`{PROTOCOL}` was refused: it needs protocol 2.0.0, and this host speaks 1.6.0 \
             (another major version)"
        )),
        "{err}"
    );
    assert!(
        err.contains("error: unknown expansion `fixture-protocol`"),
        "{err}"
    );
    assert!(!err.contains(PROTOCOL_RAN), "its code ran:\n{err}");
    // Control: at this host's protocol it is made and plays (it does nothing).
    let o = run(&carc(), &args, Some("1.6.0"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("{PROTOCOL_RAN} instantiate")),
        "{err}"
    );
}

#[test]
fn the_next_protocol_host_loads_what_it_should_and_refuses_what_it_should() {
    let next = next_carc();
    // It speaks 1.7: a 1.7 plugin loads there and not on this build's host (above).
    let (row, _) = protocol_row(&next, "1.7.0");
    assert_eq!(row["status"], "loaded", "{row}");
    assert_eq!(row["protocol"], "1.7.0");
    let (row, _) = protocol_row(&next, "1.0.0");
    assert_eq!(row["status"], "loaded", "{row}");
    let (row, err) = protocol_row(&next, "1.8.0");
    assert_eq!(row["status"], "refused");
    assert_eq!(
        row["reason"],
        "it needs protocol 1.8.0, newer than this host's 1.7.0"
    );
    assert!(!err.contains(PROTOCOL_RAN), "{err}");
    let (row, _) = protocol_row(&next, "2.0.0");
    assert_eq!(row["status"], "refused");
    assert_eq!(
        row["reason"],
        "it needs protocol 2.0.0, and this host speaks 1.7.0 (another major version)"
    );
}

#[test]
fn the_next_protocol_host_serves_a_plugin_built_for_it_what_it_gained() {
    let next = next_carc();
    let lib = fixture_libs::library(PROTOCOL);
    let args = [
        "play",
        "--plugin",
        lib.to_str().expect("UTF-8"),
        "--expansions",
        "fixture-protocol",
        "--seed",
        "4",
    ];
    // Reporting 1.7, the fixture asks for the new event, asks the new query at each and
    // gives the new command, which the engine accepts (a refused command stops the game).
    let o = run(&next, &args, Some("1.7.0"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let left: Vec<(u32, i64)> = err
        .lines()
        .filter_map(|l| l.strip_prefix(PROTOCOL_SAW))
        .map(|l| {
            let (turn, left) = l
                .trim()
                .strip_prefix("turn ")
                .and_then(|l| l.strip_suffix(" turns left"))
                .and_then(|l| l.split_once(" ended, "))
                .unwrap_or_else(|| panic!("a line of its own: {l}"));
            (
                turn.parse().expect("a turn"),
                left.parse().expect("a count"),
            )
        })
        .collect();
    assert!(
        left.len() > 30,
        "told of {} ended turns:\n{err}",
        left.len()
    );
    for (i, w) in left.windows(2).enumerate() {
        assert_eq!(w[0].0 as usize, i + 1, "turn by turn: {left:?}");
        assert!(
            w[1].1 < w[0].1 && w[1].1 >= 0,
            "fewer turns left each time: {left:?}"
        );
    }
    // Reporting 1.6 (the SDK as it is), it is told nothing new.
    let o = run(&next, &args, Some("1.6.0"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains(PROTOCOL_SAW), "{}", stderr(&o));
}

#[test]
fn a_plugin_built_for_the_protocol_as_it_is_plays_identically_on_a_newer_host() {
    let next = next_carc();
    let lib = fixture_libs::library(MISBEHAVING);
    let lib = lib.to_str().expect("UTF-8");
    let dir = scratch("compat");
    let games: [(&str, &[&str]); 3] = [
        ("1", &[]),
        ("2", &["--players", "3", "--bots", "greedy"]),
        (
            "3",
            &[
                "--names",
                "Ann,Ben,Cat,Dan",
                "--bots",
                "random,greedy,greedy,random",
            ],
        ),
    ];
    for (seed, extra) in games {
        let mut outputs = Vec::new();
        for (host, bin) in [("this", carc()), ("next", next.clone())] {
            let record = dir.join(format!("{host}-{seed}.toml"));
            let mut args = vec![
                "play",
                "--plugin",
                lib,
                "--expansions",
                "fixture-misbehaving",
                "--seed",
                seed,
            ];
            args.extend_from_slice(extra);
            // The turn log and the record.
            let mut logged = args.clone();
            logged.extend(["--record", record.to_str().expect("UTF-8")]);
            let o = run(&bin, &logged, None);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{host} host, seed {seed}: {}",
                stderr(&o)
            );
            let log = stdout(&o).replace(record.to_str().expect("UTF-8"), "RECORD");
            let record_text = std::fs::read(&record).expect("the record is written");
            // The final state.
            let mut json = args.clone();
            json.push("--json");
            let o = run(&bin, &json, None);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{host} host, seed {seed}: {}",
                stderr(&o)
            );
            outputs.push((log, record_text, stdout(&o)));
        }
        let (old, new) = (&outputs[0], &outputs[1]);
        assert!(
            old.0.contains("scores 1 point for waving"),
            "the fixture played"
        );
        // Its final scoring's words, made at the time (protocol 1.5).
        assert!(
            old.0.contains(" tiles placed, a point per ten"),
            "the fixture scored at the end:\n{}",
            old.0
        );
        assert_eq!(old.0, new.0, "seed {seed}: the turn logs differ");
        assert!(old.1 == new.1, "seed {seed}: the records differ");
        assert_eq!(old.2, new.2, "seed {seed}: the final states differ");
        // Each host replays the other's record.
        let records = [
            dir.join(format!("next-{seed}.toml")),
            dir.join(format!("this-{seed}.toml")),
        ];
        for (bin, record) in [carc(), next.clone()].iter().zip(&records) {
            let o = run(
                bin,
                &["replay", record.to_str().expect("UTF-8"), "--plugin", lib],
                None,
            );
            assert_eq!(o.status.code(), Some(0), "seed {seed}: {}", stderr(&o));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_scenario_replays_on_the_newer_host() {
    // The shipped plugins there are built for the protocol as it is (the SDK has no feature): every rule
    // scenario must replay on the 1.7 host as it does on this one.
    let next = next_carc();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/scenarios"))
        .expect("tests/scenarios exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "toml" || e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{} scenarios", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let o = run(&next, &["replay", f.to_str().expect("UTF-8")], None);
            (!o.status.success()).then(|| format!("{}:\n{}", f.display(), stderr(&o)))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_plugin_built_before_a_decision_point_was_the_engines_cannot_declare_a_rule_there() {
    // Protocol 1.3 added the decision point `feature-worth` (and its hook), 1.5
    // `figure-strength`: a plugin built for an older protocol that declares a rule there
    // would never be asked, so it is refused.
    let cases = [
        ("feature-worth", "road", "1.2.0", "1.3"),
        ("figure-strength", "follower", "1.4.0", "1.5"),
    ];
    for (point, claim, old, needed) in cases {
        let scratch_dir = scratch(&format!("compat-{point}"));
        let dir = scratch_dir.join("protocol");
        std::fs::create_dir_all(&dir).unwrap();
        let manifest =
            std::fs::read_to_string(root().join("plugins/fixtures/protocol/manifest.toml"))
                .unwrap();
        std::fs::write(
            dir.join("manifest.toml"),
            format!(
                "library = \"{PROTOCOL}\"\n{manifest}\n[[rule]]\nid = \"mine\"\npoint = \"{point}\"\nclaims = [\"{claim}\"]\n"
            ),
        )
        .unwrap();
        let lib = fixture_libs::library(PROTOCOL);
        std::fs::copy(&lib, dir.join(lib.file_name().expect("a file name"))).unwrap();
        let flag = dir.to_str().expect("UTF-8");
        let (row, _) = listed_row(&carc(), &["--plugin-dir", flag], old, |r| {
            r["id"] == "fixture-protocol"
        });
        assert_eq!(row["status"], "refused");
        assert_eq!(
            row["reason"],
            format!(
                "its rule `mine` is at the decision point `{point}`, which needs \
                 protocol {needed}, and it was built for {old}"
            )
        );
    }
}
