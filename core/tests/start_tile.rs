//! An expansion's start tile (the river's spring) takes the base game's place: it lies on
//! (0, 0) before the first turn, and the base game's start tile joins the supply with its
//! other copies. Two expansions naming a start tile cannot be enabled together.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Game, Setup};
use carc_core::expansion::{Expansion, Manifest, TileSource};
use carc_core::geometry::Pos;
use carc_core::rules::Rules;
use carc_core::setup::{SupplyMode, draw_order};

/// An expansion whose tile data names its one tile, `<id>:spring`, the start tile.
struct Spring {
    id: &'static str,
}

fn spring(id: &'static str) -> Box<dyn Expansion> {
    Box::new(Spring { id })
}

impl Expansion for Spring {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: self.id.into(),
            name: self.id.into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        let id = self.id;
        let start = format!("{id}:spring");
        vec![TileSource {
            name: format!("{id}.toml"),
            text: format!(
                "expansion = \"{id}\"\nstart = \"{start}\"\n[[tile]]\nid = \
                 \"{id}:spring\"\ncount = 1\nsides = [\"field\", \"field\", \"road\", \
                 \"field\"]\nfeatures = [\n  {{ kind = \"road\", ports = [\"S\"] }},\n  {{ \
                 kind = \"field\", ports = [\"NNW\", \"NNE\", \"ENE\", \"ESE\", \"SSE\", \
                 \"SSW\", \"WSW\", \"WNW\"] }},\n]\n"
            ),
        }]
    }
}

fn rules(expansions: Vec<Box<dyn Expansion>>) -> Result<Rules, String> {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(expansions);
    Rules::new(all, &BTreeMap::new()).map_err(|e| e.to_string())
}

#[test]
fn an_expansions_start_tile_lies_on_the_origin_and_the_base_games_joins_the_supply() {
    let rules = Arc::new(rules(vec![spring("river")]).expect("rules"));
    let spring = rules.tiles.get("river:spring").expect("the spring");
    let d = rules.tiles.get("base:D").expect("base:D");
    assert_eq!(rules.tiles.start, Some(spring));
    assert_eq!(
        rules.supply_count(spring),
        0,
        "its one copy is on the board"
    );
    assert_eq!(
        rules.supply_count(d),
        4,
        "every copy of base:D is in the supply"
    );
    let order = draw_order(&rules, &[], SupplyMode::Full, 7).expect("a supply");
    assert_eq!(
        order.len(),
        72,
        "the base game's 72 tiles, the spring on the board"
    );
    let game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 0,
            draw_order: order,
            seed: 7,
            full_supply: true,
        },
    )
    .expect("game");
    let origin = game.state.board.tile_at(Pos::ORIGIN).expect("a start tile");
    assert_eq!(origin.tile, spring);
    // The base game alone: base:D, as always.
    let base = rules_of_base();
    assert_eq!(base.tiles.start, base.tiles.get("base:D"));
    assert_eq!(base.supply_count(base.tiles.get("base:D").expect("D")), 3);
}

fn rules_of_base() -> Rules {
    rules(Vec::new()).expect("rules")
}

#[test]
fn two_expansions_naming_a_start_tile_cannot_be_enabled_together() {
    let err = rules(vec![spring("river"), spring("lakes")]).expect_err("refused");
    assert!(
        err.contains(
            "start tile `lakes:spring` given, but `river:spring` is the start tile already: a \
             game has one, so two expansions that name one cannot be enabled together"
        ),
        "{err}"
    );
}
