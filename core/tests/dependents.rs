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

/// A one-player game of the base game and the test builders drawing `draw` (after the
/// tiles it needs): Alice's thief on the road through (1, 0), then her builder joining it
/// from (2, 0). Returns the game, the thief's road node and the builder's figure index.
fn thief_and_builder(draw: &[&str]) -> (Game, u32, usize) {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Builders)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let builder_kind = Builders::kind(&rules);
    let u = rules.tiles.get("base:U").expect("U");
    let mut draw_order = vec![u, u];
    draw_order.extend(draw.iter().map(|id| rules.tiles.get(id).expect("tile")));
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into()],
            listed: 0,
            draw_order,
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
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
    (game, road1, builder)
}

#[test]
fn a_builder_goes_home_with_its_owners_last_follower() {
    let (mut game, road1, builder) = thief_and_builder(&["base:U", "base:U"]);
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

/// A command about a figure that an earlier command of the same step has already moved
/// is refused, not applied: when the road scores, its thief returns first and takes the
/// builder home with it; the scoring's own "return the builder" then finds the builder
/// gone and changes nothing (no "returns from the supply" in the log).
#[test]
fn a_command_about_a_figure_moved_earlier_in_the_step_is_refused() {
    use carc_core::engine::Event;
    let (mut game, _, builder) = thief_and_builder(&["base:A", "base:A", "base:U"]);
    let builder = builder as u16;
    // Road ends on both sides: monasteries with their road turned towards the road.
    game.place("base:A", Pos::new(3, 0), Rotation::quarter_turns(1))
        .expect("east end");
    game.apply(&Action::Pass).expect("pass");
    game.keep_log(true);
    game.place("base:A", Pos::new(-1, 0), Rotation::quarter_turns(3))
        .expect("west end");
    game.apply(&Action::Pass).expect("pass: the road scores");
    let log = game.take_log();
    let returns: Vec<&Event> = log
        .iter()
        .filter(|e| matches!(e, Event::FigureReturned { figure, .. } if *figure == builder))
        .collect();
    assert_eq!(returns.len(), 1, "the builder returned once: {returns:?}");
    assert!(
        !log.iter().any(|e| matches!(
            e,
            Event::FigureReturned {
                from: Location::Supply,
                ..
            }
        )),
        "nothing returns from the supply: {log:?}"
    );
    assert_eq!(game.state.figures[builder as usize].at, Location::Supply);
    assert!(game.faults().is_empty(), "{:?}", game.faults());
}
