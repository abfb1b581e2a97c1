//! The plugin author's guide (`docs/writing-an-expansion.md`, issue 12): its Rust blocks
//! are compiled as doctests of `carc-testing`; here its TOML blocks are read as what
//! their first line says they are (a manifest, tile data, a record) and its shell blocks
//! are run, in a crate made by `carc new` as the guide makes it.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use carc_core::base::BaseGame;
use carc_core::declared::Declared;
use carc_core::expansion::{Expansion, TileSource};
use carc_core::manifest::Manifest;
use carc_core::record::{self, Format};
use carc_core::rules::Rules;
use common::plugins::{princess_dragon, russian_promos};
use common::scaffold::{build_dir, carc_in, cargo_in, copy_tree};
use common::{doc_blocks, root, scratch, stderr, stdout};

/// The guide's fenced blocks: (language, text).
fn blocks() -> Vec<(String, String)> {
    doc_blocks("writing-an-expansion.md")
}

/// Puts the base game, both shipped expansions and these declarations together.
fn with_shipped(manifest: &Manifest, tiles: Vec<TileSource>) -> Result<(), String> {
    let list: Vec<Box<dyn Expansion>> = vec![
        Box::new(BaseGame),
        princess_dragon(),
        russian_promos(),
        Box::new(Declared {
            manifest: manifest.clone(),
            tiles,
        }),
    ];
    Rules::new(list, &BTreeMap::new())
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn every_block_of_the_guide_has_a_known_language() {
    let blocks = blocks();
    assert!(blocks.len() >= 10, "{} blocks", blocks.len());
    for (lang, body) in &blocks {
        assert!(
            ["rust", "toml", "sh"].contains(&lang.as_str()),
            "a block in `{lang}` is checked by no test:\n{body}"
        );
    }
}

#[test]
fn the_guides_toml_blocks_are_the_manifests_tile_data_and_records_they_say() {
    let mut manifest: Option<Manifest> = None;
    let mut checked = 0;
    for (lang, body) in blocks().into_iter().filter(|(l, _)| l == "toml") {
        let first = body.lines().next().unwrap_or("");
        let what = first.strip_prefix("# ").unwrap_or_else(|| {
            panic!("a {lang} block does not say what it is on its first line:\n{body}")
        });
        if what == "manifest.toml" {
            let m = Manifest::from_toml(&body, what)
                .unwrap_or_else(|e| panic!("{e}\nin the guide's manifest:\n{body}"));
            with_shipped(&m, Vec::new())
                .unwrap_or_else(|e| panic!("{e}\nin the guide's manifest:\n{body}"));
            manifest = Some(m);
        } else if what == "tiles.toml" {
            let m = manifest.as_ref().expect("a manifest block comes first");
            let tiles = vec![TileSource {
                name: what.into(),
                text: body.clone(),
            }];
            with_shipped(m, tiles).unwrap_or_else(|e| panic!("{e}\nin the guide's tiles"));
        } else if what.starts_with("tests/scenarios/") {
            record::parse(&body, what, Format::Toml)
                .unwrap_or_else(|e| panic!("{e}\nin the guide's record"));
        } else {
            panic!("the guide shows a `{what}`, which no test reads");
        }
        checked += 1;
    }
    assert!(checked >= 7, "{checked} TOML blocks");
}

#[test]
fn the_guides_shell_blocks_run() {
    let home = scratch("guide");
    let mut dir: PathBuf = home.to_path_buf();
    let mut ran = 0;
    for (_, body) in blocks().into_iter().filter(|(l, _)| l == "sh") {
        // Each block starts where the guide's reader is: the first in an empty
        // directory, later ones in the carc checkout.
        if ran > 0 {
            dir = root();
        }
        for line in body.lines().filter(|l| !l.trim().is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "cd" => {
                    // The made crate is built where it keeps its `target/` between runs.
                    let made = dir.join(words[1]);
                    let built = build_dir();
                    copy_tree(&made, &built);
                    dir = built;
                }
                "cargo" => {
                    let out = cargo_in(&dir, &words[1..]);
                    assert!(
                        out.status.success(),
                        "`{line}`:\n{}{}",
                        stdout(&out),
                        stderr(&out)
                    );
                }
                "carc" => {
                    let out = carc_in(&dir, &home, &words[1..]);
                    assert!(out.status.success(), "`{line}`:\n{}", stderr(&out));
                    if line.contains("plugins list") {
                        assert!(
                            stdout(&out).contains("wishing-well")
                                && stdout(&out).contains("loaded"),
                            "{}",
                            stdout(&out)
                        );
                    }
                }
                other => panic!("the guide runs `{other}`, which this test does not"),
            }
            ran += 1;
        }
    }
    assert!(ran >= 8, "{ran} commands");
}
