//! A record's view of followers when an expansion brings another follower kind (a large
//! follower): `[expect] supply` and the JSON summary count every follower-class figure
//! in supply; a feature named by its kind is refused in words when the tile has none, or
//! several, of that kind.

use std::sync::Arc;

use carc_core::catalog::Catalog;
use carc_core::expansion::{Expansion, Manifest};
use carc_core::figures::{FigureClass, FigureKindDecl};
use carc_core::record::{Format, ReplayError, parse, replay, state_summary};

/// One large follower per player, with no rules of its own.
struct Large;

impl Expansion for Large {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "large".into(),
            name: "Large".into(),
            version: "0.1.0".into(),
            figures: vec![FigureKindDecl {
                namespace: "large".into(),
                name: "large-follower".into(),
                class: FigureClass::Follower,
                strength: 2,
                per_player: 1,
                neutral: 0,
                tags: vec!["flesh-and-blood".into()],
            }],
            ..Manifest::default()
        }
    }
}

fn catalog() -> Catalog {
    let mut catalog = Catalog::new();
    catalog.add(Arc::new(|| Box::new(Large))).expect("adds");
    catalog
}

/// A record of one turn: Alice places base:U east of the start tile, then `then`.
fn record(then: &str, expect: &str) -> String {
    format!(
        "[game]\nexpansions = [\"large\"]\nplayers = [\"Alice\", \"Bob\"]\nsupply = \
         \"draw\"\ndraw = [\"base:U\"]\n[[move]]\nplace = \"base:U\"\nat = [1, 0]\nrotation \
         = 0\n[[move]]\n{then}\n[expect]\n{expect}\n"
    )
}

#[test]
fn supply_counts_every_follower_in_supply() {
    let catalog = catalog();
    // The game ends with its one tile, the follower back home: seven followers and the
    // large one each.
    let text = record(
        "follower = [1, 0, \"E\"]",
        "supply = { Alice = 8, Bob = 8 }",
    );
    let loaded = parse(&text, "large.toml", Format::Toml).expect("a valid record");
    let outcome = replay(&loaded, &catalog).unwrap_or_else(|e| match e {
        ReplayError::Failed { problems, .. } => panic!("{problems:?}"),
        ReplayError::Invalid(d) => panic!("{d}"),
    });
    let summary = state_summary(&outcome.game);
    assert_eq!(summary["supply"]["Alice"], 8, "{summary}");
    assert_eq!(summary["supply"]["Bob"], 8, "{summary}");
}

#[test]
fn a_feature_named_by_a_kind_the_tile_lacks_or_has_twice_is_refused_in_words() {
    let catalog = catalog();
    for (kind, words) in [
        (
            "field",
            "the tile `base:U` at (1, 0) has 2 features of kind `field`: name the one you \
             mean by one of its ports (NNW, N, NNE, ...)",
        ),
        ("monastery", "the tile `base:U` at (1, 0) has no monastery"),
    ] {
        let text = record(&format!("follower = [1, 0, \"{kind}\"]"), "");
        let loaded = parse(&text, "large.toml", Format::Toml).expect("a valid record");
        match replay(&loaded, &catalog) {
            Err(ReplayError::Failed { problems, .. }) => {
                assert!(problems.iter().any(|p| p.contains(words)), "{problems:?}")
            }
            Err(ReplayError::Invalid(d)) => panic!("{d}"),
            Ok(_) => panic!("{kind}: accepted"),
        }
    }
}
