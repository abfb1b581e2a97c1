//! Broken tile files and the exact output `carc validate` must give for each.
//!
//! Every `tests/validate/NAME.toml` has a `NAME.expected` next to it: the rendered report
//! (every diagnostic, then the summary line) for the file named
//! `tests/validate/NAME.toml`, as if validated from the repository root. A case whose
//! first line is `# options: tiles-only` runs in tiles-only mode. `CARC_BLESS=1` rewrites
//! the expected files (review the diff before committing it).

use std::path::{Path, PathBuf};

use carc_core::tiles::validate::{Options, check, check_files, check_sources};
use carc_core::tiles::{TileSet, Vocabulary};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn cases() -> Vec<PathBuf> {
    let dir = repo_root().join("tests/validate");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    cases.sort();
    cases
}

#[test]
fn broken_files_give_the_expected_diagnostics() {
    let cases = cases();
    assert!(
        cases.len() >= 20,
        "expected at least 20 cases, found {}",
        cases.len()
    );
    let bless = std::env::var_os("CARC_BLESS").is_some_and(|v| v == "1");
    let vocab = Vocabulary::base();
    let mut failures = Vec::new();
    for path in &cases {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("case names are UTF-8");
        let name = format!("tests/validate/{stem}.toml");
        let text = std::fs::read_to_string(path).expect("case is readable");
        let options = Options {
            tiles_only: text.starts_with("# options: tiles-only"),
            ..Options::default()
        };
        let got = check_sources([(name.as_str(), text.as_str())], &vocab, &options).render();
        let expected_path = path.with_extension("expected");
        if bless {
            std::fs::write(&expected_path, &got).expect("expected file is writable");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "{name}: output differs from {stem}.expected\n--- expected ---\n{expected}--- got ---\n{got}"
            ));
        }
        // The single-file entry point agrees with the report.
        let single = check(&text, &name, &vocab, &options);
        let valid = got.ends_with(": valid\n");
        assert_eq!(
            single.is_ok(),
            valid,
            "{name}: `check` and the report disagree"
        );
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn base_tiles_are_valid_and_compile() {
    let path = repo_root().join("tiledefs/base.toml");
    let text = std::fs::read_to_string(&path).expect("tiledefs/base.toml is readable");
    let vocab = Vocabulary::base();
    let file = check(&text, "tiledefs/base.toml", &vocab, &Options::default())
        .unwrap_or_else(|d| panic!("base.toml is invalid: {d:#?}"));
    let mut set = TileSet::default();
    set.add_file(&file, &vocab).expect("base.toml compiles");
    assert_eq!(set.types.len(), 24);
    assert_eq!(set.types.iter().map(|t| t.count).sum::<u32>(), 72);
    assert_eq!(set.start, set.get("base:D"));

    let report = check_files(&[path], &vocab, &Options::default());
    assert!(report.is_ok());
    assert_eq!(report.summary(), "1 file, 24 tile types, 72 tiles: valid");
    assert!(
        report
            .render()
            .ends_with("1 file, 24 tile types, 72 tiles: valid\n")
    );
}

const SMALL_A: &str = r#"expansion = "a"
start = "a:one"

[[tile]]
id = "a:one"
count = 2
sides = ["field", "field", "field", "field"]
features = [{ kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] }]
"#;

const SMALL_B: &str = r#"expansion = "b"
start = "b:two"

[[tile]]
id = "a:one"
count = 1
sides = ["field", "field", "field", "field"]
features = [{ kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] }]

[[tile]]
id = "b:two"
count = 3
sides = ["field", "field", "field", "field"]
features = [{ kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] }]
"#;

#[test]
fn an_expansions_start_tile_may_take_the_base_games_place() {
    let base = SMALL_A.replace("expansion = \"a\"", "expansion = \"base\"");
    let river = SMALL_B.replace("id = \"a:one\"", "id = \"b:one\"");
    let (base, river) = (base.as_str(), river.as_str());
    for files in [
        [("a.toml", base), ("b.toml", river)],
        [("b.toml", river), ("a.toml", base)],
    ] {
        let report = check_sources(files, &Vocabulary::base(), &Options::default());
        assert!(report.is_ok(), "{}", report.render_diagnostics(None));
    }
    // Two base files still clash.
    let report = check_sources(
        [
            ("a.toml", base),
            ("b.toml", &base.replace("a:one", "a:two")),
        ],
        &Vocabulary::base(),
        &Options::default(),
    );
    assert!(
        report
            .render_diagnostics(None)
            .contains("a game has one start tile"),
        "{}",
        report.render_diagnostics(None)
    );
}

#[test]
fn ids_and_start_tiles_are_checked_across_files() {
    let report = check_sources(
        [("a.toml", SMALL_A), ("b.toml", SMALL_B)],
        &Vocabulary::base(),
        &Options::default(),
    );
    let expected = "\
b.toml:2:9: error: start tile `b:two` named, but a.toml already names `a:one` (line 2); a game has one start tile: the base game's, or one expansion's in its place
  |
2 | start = \"b:two\"
  |         ^^^^^^^

b.toml:5:6: error: tile id `a:one` is already defined in a.toml (line 5)
  |
5 | id = \"a:one\"
  |      ^^^^^^^

2 errors in 1 file
";
    assert_eq!(report.render(), expected);
    assert!(!report.is_ok());
    assert_eq!(report.error_count(), 2);
    assert!(report.files[0].tiles.is_some(), "a.toml alone is valid");
    assert!(report.files[1].tiles.is_none());
}

#[test]
fn valid_files_are_summed_up() {
    let b = SMALL_B.replace("id = \"a:one\"", "id = \"b:one\"");
    let b = b.replace("start = \"b:two\"\n", "");
    let report = check_sources(
        [("a.toml", SMALL_A), ("b.toml", b.as_str())],
        &Vocabulary::base(),
        &Options::default(),
    );
    assert_eq!(report.render(), "2 files, 3 tile types, 6 tiles: valid\n");
}

#[test]
fn unreadable_files_are_diagnostics() {
    let missing = repo_root().join("tests/validate/no-such-file.toml");
    let report = check_files(
        &[missing.clone(), repo_root().join("tiledefs/base.toml")],
        &Vocabulary::base(),
        &Options::default(),
    );
    assert!(!report.is_ok());
    let d = report.diagnostics().next().expect("one diagnostic");
    assert_eq!(d.file, missing.display().to_string());
    assert_eq!((d.line, d.column), (0, 0));
    assert!(
        d.message.starts_with("cannot read the file: "),
        "{}",
        d.message
    );
    assert_eq!(report.summary(), "1 error in 1 file");
}
