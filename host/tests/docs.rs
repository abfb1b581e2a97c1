//! The user documentation in `docs/` (issue 13: the repository documents itself): the
//! records it shows replay, the tile data it shows validates, and nothing points outside
//! the repository for the rules, the record format or the tile notation.

mod common;

use common::{carc, doc_blocks as blocks, root, scratch, stderr, stdout};

#[test]
fn the_records_shown_in_the_docs_replay() {
    let dir = scratch("docs-records");
    let mut replayed = 0;
    for (i, (lang, text)) in blocks("game-records.md").into_iter().enumerate() {
        let ext = match lang.as_str() {
            "toml" if text.lines().any(|l| l.trim() == "[game]") => "toml",
            "json" if text.contains("\"game\"") => "json",
            _ => continue,
        };
        // As written, and as an editor that writes a byte-order mark saves it.
        for (form, mark) in [("plain", ""), ("marked", "\u{feff}")] {
            let path = dir.join(format!("block-{i}-{form}.{ext}"));
            std::fs::write(&path, format!("{mark}{text}")).expect("written");
            let o = carc(&["replay", path.to_str().expect("UTF-8")]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "block {i} ({form}):\n{text}\n{}",
                stderr(&o)
            );
            assert!(stdout(&o).contains(": ok, "), "{}", stdout(&o));
        }
        replayed += 1;
    }
    assert!(replayed >= 2, "the TOML and the JSON example: {replayed}");
}

#[test]
fn the_tile_data_shown_in_the_docs_validates() {
    let dir = scratch("docs-tiles");
    let mut checked = 0;
    for (i, (lang, text)) in blocks("tile-data.md").into_iter().enumerate() {
        if lang != "toml" || !text.contains("[[tile]]") {
            continue;
        }
        let path = dir.join(format!("tiles-{i}.toml"));
        std::fs::write(&path, &text).expect("written");
        let o = carc(&["validate", "--tiles-only", path.to_str().expect("UTF-8")]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "block {i}:\n{text}\n{}",
            stderr(&o)
        );
        checked += 1;
    }
    assert!(checked >= 1, "{checked} tile blocks");
}

#[test]
fn nothing_points_outside_the_repository_for_the_rules_or_the_formats() {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for dir in ["docs", "tiledefs", "schema", "examples/builder-and-pig"] {
        for entry in std::fs::read_dir(root().join(dir)).expect("a directory") {
            let path = entry.expect("an entry").path();
            if path
                .extension()
                .is_some_and(|e| e == "md" || e == "toml" || e == "json")
            {
                files.push(path);
            }
        }
    }
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable");
        for needle in [
            "../shared/",
            "RULES.md",
            "spec/game-record.md",
            "spec/tiles.md",
            "DESIGN principle",
        ] {
            assert!(
                !text.contains(needle),
                "{} points to `{needle}`, which a clone does not have",
                file.display()
            );
        }
    }
    for page in ["rules.md", "game-records.md", "tile-data.md"] {
        assert!(root().join("docs").join(page).is_file(), "docs/{page}");
    }
}

#[test]
fn the_readme_shows_the_exit_codes_the_help_shows() {
    // Issue 13, class 8: one exit-code table, in `--help` and in the README.
    let help = stdout(&carc(&["--help"]));
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let table: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Exit codes"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .map(str::trim)
        .collect();
    assert!(
        table.len() >= 3,
        "the help shows an exit-code table:\n{help}"
    );
    let shown: Vec<&str> = readme.lines().map(str::trim).collect();
    let at = shown
        .windows(table.len())
        .position(|w| w == table.as_slice());
    assert!(
        at.is_some(),
        "README.md does not show the table `carc --help` shows:\n{}",
        table.join("\n")
    );
}
