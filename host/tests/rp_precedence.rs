//! Declared precedence (RP-11): fixture manifests that form a cycle,
//! an ambiguity, a reversed order and a reference to a missing rule each give their exact
//! error; and the outcome of RP-11 flips when the declaration flips, with no code change.
//! (Moved from the plugin crate, which no longer depends on the engine.)

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::catalog::Catalog;
use carc_core::expansion::{Expansion, Manifest};
use carc_core::figures::Location;
use carc_core::fixtures::Declarations;
use carc_core::geometry::Pos;
use carc_core::record;
use carc_core::rules::Rules;
use carc_russian_promos::names::MANIFEST_TOML;
use common::plugins::{russian_promos, russian_promos_with_manifest};

fn fixture(name: &str) -> Manifest {
    let path = format!("{}/tests/fixtures/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture");
    Manifest::from_toml(&text, &path).expect("fixture parses")
}

/// The error text of putting the base game, the promos and a fixture together.
fn error_with(fixture_name: &str) -> String {
    let list: Vec<Box<dyn Expansion>> = vec![
        Box::new(BaseGame),
        russian_promos(),
        Box::new(Declarations(fixture(fixture_name))),
    ];
    match Rules::new(list, &BTreeMap::new()) {
        Ok(_) => panic!("{fixture_name}: the rules were accepted"),
        Err(e) => e.message,
    }
}

#[test]
fn a_cycle_names_every_rule_on_it_and_its_manifests() {
    assert_eq!(
        error_with("cycle"),
        "precedence cycle at `omens`: fixture-cycle:a, fixture-cycle:b, fixture-cycle:c \
         (declared in the manifests of fixture-cycle)"
    );
}

#[test]
fn a_reversed_order_is_a_cycle_between_the_two_manifests() {
    assert_eq!(
        error_with("reverse"),
        "precedence cycle at `figure-capture`: russian-promos:solovei, \
         russian-promos:vodyanoy (declared in the manifests of fixture-reverse, russian-promos)"
    );
}

#[test]
fn two_unordered_claims_on_the_same_thing_are_an_ambiguity() {
    assert_eq!(
        error_with("ambiguity"),
        "ambiguous precedence at `figure-capture`: `fixture-snare:snare` and \
         `russian-promos:solovei` both claim `follower` and no manifest orders them (add \
         `before` or `after` to one of them)\n\
         ambiguous precedence at `figure-capture`: `fixture-snare:snare` and \
         `russian-promos:vodyanoy` both claim `follower` and no manifest orders them (add \
         `before` or `after` to one of them)"
    );
}

#[test]
fn an_order_against_a_missing_rule_is_an_error() {
    assert_eq!(
        error_with("unknown"),
        "manifest `fixture-unknown` orders `russian-promos:kikimora`, which its expansion \
         does not declare"
    );
}

#[test]
fn declarations_about_expansions_not_in_the_game_are_ignored() {
    // The reversing fixture talks only about the promos: without them it is harmless.
    let list: Vec<Box<dyn Expansion>> = vec![
        Box::new(BaseGame),
        Box::new(Declarations(fixture("reverse"))),
    ];
    assert!(Rules::new(list, &BTreeMap::new()).is_ok());
}

/// RP-11: Bob's thief is deployed at (-2, 0), on Solovei's road (Solovei at (1, 0)) and
/// diagonally next to Vodyanoy (-1, 1): both traps claim it. Solovei's tile is two squares
/// from Vodyanoy's, so a prisoner of Solovei stays there (RP-8).
const BOTH_CLAIM: &str = r#"
[game]
expansions = ["russian-promos"]
players = ["Alice", "Bob"]
supply = "draw"
draw = ["rp:solovei-razboynik", "base:U", "rp:vodyanoy", "base:U"]

[[move]]
place = "rp:solovei-razboynik"
at = [1, 0]
rotation = 0

[[move]]
pass = true

[[move]]
place = "base:U"
at = [-1, 0]
rotation = 0

[[move]]
pass = true

[[move]]
place = "rp:vodyanoy"
at = [-1, 1]
rotation = 0

[[move]]
pass = true

[[move]]
place = "base:U"
at = [-2, 0]
rotation = 0

[[move]]
follower = [-2, 0, "E"]
"#;

/// Replays [`BOTH_CLAIM`] with the promos under `manifest`: (where Bob's thief ended up,
/// Bob's final score).
fn outcome(manifest: &str) -> (Pos, i32) {
    Manifest::from_toml(manifest, "manifest.toml").expect("manifest parses");
    let manifest = manifest.to_string();
    let mut catalog = Catalog::new();
    catalog
        .add(Arc::new(move || russian_promos_with_manifest(&manifest)))
        .expect("adds");
    let loaded = record::parse(BOTH_CLAIM, "both.toml", record::Format::Toml).expect("parses");
    let game = record::replay(&loaded, &catalog)
        .unwrap_or_else(|e| panic!("replay failed: {e:?}"))
        .game;
    let thief = game
        .state
        .figures
        .iter()
        .position(|f| f.owner == 1 && matches!(f.at, Location::Tile(_)))
        .expect("Bob's thief is trapped");
    let pos = game.state.figure_pos(thief as u16).expect("on the board");
    (pos, game.state.players[1].score)
}

#[test]
fn rp_11_follows_the_declared_order_and_flips_with_it() {
    // As shipped: Vodyanoy first; the thief is on Vodyanoy and costs 2 at the end (RP-10).
    assert_eq!(outcome(MANIFEST_TOML), (Pos::new(-1, 1), -2));
    // The same code under the opposite declaration: Solovei takes it; it costs nothing.
    let flipped = MANIFEST_TOML.replace(
        "before = [\"russian-promos:solovei\"]",
        "after = [\"russian-promos:solovei\"]",
    );
    assert_ne!(flipped, MANIFEST_TOML);
    assert_eq!(outcome(&flipped), (Pos::new(1, 0), 0));
}

#[test]
fn the_shipped_manifest_parses() {
    let m = Manifest::from_toml(MANIFEST_TOML, "manifest.toml");
    assert!(
        m.is_ok(),
        "{}",
        m.err().map(|d| d.to_string()).unwrap_or_default()
    );
}
