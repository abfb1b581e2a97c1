//! Which tiles' events the expansion asks for (`Expansion::watches_tile`): it reacts only
//! to volcanoes (PD-2) and dragon tiles (PD-4, PD-7) being drawn or placed, so the engine
//! leaves it out of every other tile's events; the base game hears them all.

mod common;

use std::collections::BTreeMap;

use carc_core::base::BaseGame;
use carc_core::rules::Rules;
use carc_princess_dragon::names::{DRAGON_SYMBOL_MARKER, VOLCANO_MARKER};

#[test]
fn only_volcanoes_and_dragon_tiles_are_watched() {
    let rules = Rules::new(
        vec![Box::new(BaseGame), common::plugins::princess_dragon()],
        &BTreeMap::new(),
    )
    .expect("rules");
    let marker = |name| rules.vocab.marker(name).expect("registered");
    let (volcano, dragon) = (marker(VOLCANO_MARKER), marker(DRAGON_SYMBOL_MARKER));
    let (mut watched, mut unwatched) = (0, 0);
    for (i, t) in rules.tiles.types.iter().enumerate() {
        let id = i as carc_core::tiles::TileTypeId;
        let watchers = rules.tile_watchers(id);
        assert_eq!(watchers & 1, 1, "{}: the base game hears every tile", t.id);
        let expected = t.has_marker(volcano) || t.has_marker(dragon);
        assert_eq!(watchers >> 1 & 1 == 1, expected, "{}", t.id);
        if expected {
            watched += 1;
        } else {
            unwatched += 1;
        }
    }
    // Counted again straight from the tile data: the tile types marked volcano or dragon.
    let data: toml::Table =
        toml::from_str(carc_princess_dragon::names::TILES_TOML).expect("the tile data parses");
    let marked = data["tile"]
        .as_array()
        .expect("tiles")
        .iter()
        .filter(|t| {
            t.get("markers")
                .and_then(|m| m.as_array())
                .is_some_and(|m| {
                    m.iter()
                        .any(|v| v.as_str() == Some("volcano") || v.as_str() == Some("dragon"))
                })
        })
        .count();
    assert!(marked > 0);
    assert_eq!(watched, marked, "watched tile types");
    assert_eq!(watched + unwatched, rules.tiles.types.len());
}
