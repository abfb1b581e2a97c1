//! PD-9: when the dragon eats a player's last follower in a feature where that player's
//! builder stands (on another tile), the builder returns too. The builder comes from the
//! core's test-only expansion; PD-9 follows from its declared tag, not from code here.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Arg, Game, Setup};
use carc_core::figures::{FOLLOWER, Location};
use carc_core::fixtures::Builders;
use carc_core::geometry::{Pos, Rotation, Side};
use carc_core::rules::Rules;

fn place(game: &mut Game, id: &str, x: i32, y: i32) {
    game.place(id, Pos::new(x, y), Rotation::default())
        .expect("placement");
}

fn step(game: &mut Game, side: Side) {
    let verb = game.rules.verb("dragon").expect("verb").0;
    game.apply(&Action::Verb {
        verb,
        arg: Arg::Side(side),
    })
    .expect("dragon step");
}

#[test]
fn the_dragon_eating_the_last_follower_sends_the_builder_home() {
    let rules = Arc::new(
        Rules::new(
            vec![
                Box::new(BaseGame),
                Box::new(Builders),
                common::plugins::princess_dragon(),
            ],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let t = |id: &str| rules.tiles.get(id).expect("tile");
    let draw = vec![
        t("pd:volcano"),
        t("base:U"),
        t("base:U"),
        t("pd:dragon-road-straight"),
    ];
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into()],
            listed: 0,
            draw_order: draw,
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    let builder_kind = Builders::kind(&rules);
    place(&mut game, "pd:volcano", 0, 1); // the dragon lands on (0, 1)
    game.apply(&Action::Pass).expect("pass");
    place(&mut game, "base:U", 1, 0);
    let thief_road = game
        .state
        .board
        .tile_at(Pos::new(1, 0))
        .expect("U")
        .first_node;
    game.apply(&Action::Deploy {
        figure: FOLLOWER,
        node: thief_road,
    })
    .expect("thief");
    place(&mut game, "base:U", 2, 0);
    let builder_road = game
        .state
        .board
        .tile_at(Pos::new(2, 0))
        .expect("U")
        .first_node;
    game.apply(&Action::Deploy {
        figure: builder_kind,
        node: builder_road,
    })
    .expect("builder");
    let builder = game
        .state
        .figures
        .iter()
        .position(|f| f.kind == builder_kind)
        .expect("builder");
    place(&mut game, "pd:dragon-road-straight", -1, 0);
    game.apply(&Action::Pass).expect("pass");
    step(&mut game, Side::N); // (0, 0): nothing there
    assert!(matches!(
        game.state.figures[builder].at,
        Location::Feature(_)
    ));
    step(&mut game, Side::E); // (1, 0): eats the thief; the builder on (2, 0) goes home
    assert_eq!(game.state.in_supply(0, FOLLOWER), 7);
    assert_eq!(game.state.figures[builder].at, Location::Supply);
}

#[test]
fn the_manifest_parses() {
    let m = carc_core::manifest::Manifest::from_toml(
        carc_princess_dragon::names::MANIFEST_TOML,
        "manifest.toml",
    )
    .expect("parses");
    assert_eq!(m.id, "princess-dragon");
    assert_eq!(m.options.len(), 6);
    assert_eq!(m.verbs.len(), 3);
}
