//! PD-9 / RP-6 / X-2 as a declaration: a figure kind tagged `returns-with-last-follower`
//! (a builder, from the test-only expansion `fixtures::Builders`) goes home when its
//! owner's last follower leaves the feature, whatever rule removed that follower.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Arg, Game, Setup};
use carc_core::figures::{FOLLOWER, Location};
use carc_core::fixtures::Builders;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;

fn place(game: &mut Game, id: &str, x: i32, y: i32) {
    game.place(id, Pos::new(x, y), Rotation::default())
        .expect("placement");
}

/// The road of the base:U at (x, y) (its feature 0).
fn road(game: &Game, x: i32, y: i32) -> u32 {
    game.state
        .board
        .tile_at(Pos::new(x, y))
        .expect("tile")
        .first_node
}

#[test]
fn a_builder_goes_home_with_its_owners_last_follower() {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Builders)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let builder_kind = Builders::kind(&rules);
    let u = rules.tiles.get("base:U").expect("U");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into()],
            listed: 0,
            draw_order: vec![u, u, u, u],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    // Alice's thief on the road through (1, 0); then her builder joins it from (2, 0).
    place(&mut game, "base:U", 1, 0);
    let road1 = road(&game, 1, 0);
    game.apply(&Action::Deploy {
        figure: FOLLOWER,
        node: road1,
    })
    .expect("thief");
    place(&mut game, "base:U", 2, 0);
    game.apply(&Action::Deploy {
        figure: builder_kind,
        node: road(&game, 2, 0),
    })
    .expect("builder");
    let builder = game
        .state
        .figures
        .iter()
        .position(|f| f.kind == builder_kind)
        .expect("builder");
    assert!(matches!(
        game.state.figures[builder].at,
        Location::Feature(_)
    ));
    // The thief leaves (by any rule): the builder leaves with it.
    place(&mut game, "base:U", 3, 0);
    let retreat = game.rules.verb("retreat").expect("verb").0;
    game.apply(&Action::Verb {
        verb: retreat,
        arg: Arg::Feature(road1),
    })
    .expect("retreat");
    assert_eq!(game.state.figures[builder].at, Location::Supply);
    assert_eq!(game.state.in_supply(0, FOLLOWER), 7);
}
