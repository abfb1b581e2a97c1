//! PD-7 with a full supply: a record's `draw` lists draws in order, so a dragon tile set
//! aside before the volcano and drawn again is listed twice — the second listing is that
//! same tile, never an extra copy, and no copy is lost either.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Game, Setup};
use carc_core::rules::Rules;
use carc_core::setup::{SupplyMode, draw_order};

fn rules(options: &[(&str, &str)]) -> Arc<Rules> {
    let options = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect::<BTreeMap<_, _>>();
    Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), common::plugins::princess_dragon()],
            &options,
        )
        .expect("rules"),
    )
}

/// A two-player game with a full supply whose first draws are `draw`.
fn game(draw: &[&str]) -> Result<Game, String> {
    game_with(draw, &[])
}

fn game_with(draw: &[&str], options: &[(&str, &str)]) -> Result<Game, String> {
    let rules = rules(options);
    let first: Vec<_> = draw
        .iter()
        .map(|id| rules.tiles.get(id).expect("known tile"))
        .collect();
    let order = draw_order(&rules, &first, SupplyMode::Full, 3)?;
    Game::new(
        rules,
        Setup {
            players: vec!["A".into(), "B".into()],
            draw_order: order,
            listed: first.len(),
            seed: 3,
            full_supply: true,
        },
    )
}

/// Places the drawn tile at its first legal spot and passes the figure step.
fn place_anywhere(game: &mut Game) {
    let place = *game
        .legal_actions()
        .iter()
        .find(|a| matches!(a, Action::Place { .. }))
        .expect("a placement");
    game.apply(&place).expect("legal");
    game.apply(&Action::Pass).expect("pass");
}

fn copies_left(game: &Game, id: &str) -> usize {
    let t = game.rules.tiles.get(id).expect("known tile");
    game.state.pile.iter().filter(|&&p| p == t).count()
}

fn drawn(game: &mut Game) -> String {
    game.legal_actions();
    let t = game.state.turn.drawn.expect("a drawn tile");
    game.rules.tiles.tile(t).id.clone()
}

#[test]
fn a_set_aside_tile_listed_once_goes_back_among_the_unlisted_tiles() {
    // pd:dragon-road-curve has 2 copies: one set aside, one still in the supply.
    let mut g = game(&["pd:dragon-road-curve", "pd:volcano"]).expect("valid");
    assert_eq!(
        g.state.set_aside.len(),
        1,
        "PD-7: set aside before the volcano"
    );
    place_anywhere(&mut g); // the volcano: the set-aside tile goes back (PD-7)
    assert!(g.state.set_aside.is_empty());
    assert_eq!(copies_left(&g, "pd:dragon-road-curve"), 2);
    let supply = g.rules.full_supply().len();
    assert_eq!(
        g.state.pile.len(),
        supply - 1,
        "only the volcano left the supply"
    );
}

#[test]
fn a_set_aside_tile_listed_again_is_that_tile_drawn_again() {
    // pd:dragon-city has 1 copy: its second listing is the same tile, not a second copy.
    let mut g = game(&["pd:dragon-city", "pd:volcano", "pd:dragon-city"]).expect("valid");
    place_anywhere(&mut g);
    assert_eq!(copies_left(&g, "pd:dragon-city"), 1);
    assert_eq!(drawn(&mut g), "pd:dragon-city", "the listed order holds");
    let supply = g.rules.full_supply().len();
    assert_eq!(
        g.state.pile.len(),
        supply - 2,
        "volcano placed, dragon city in hand"
    );
}

#[test]
fn listing_again_a_tile_with_two_copies_loses_neither() {
    // One copy set aside and listed again; the other copy stays among the unlisted tiles.
    let mut g =
        game(&["pd:dragon-road-curve", "pd:volcano", "pd:dragon-road-curve"]).expect("valid");
    place_anywhere(&mut g);
    assert_eq!(copies_left(&g, "pd:dragon-road-curve"), 2);
    assert_eq!(drawn(&mut g), "pd:dragon-road-curve");
}

#[test]
fn listing_more_copies_of_a_tile_that_never_comes_back_is_refused() {
    // base:D has 4 copies, one of them the start tile; nothing ever puts it back.
    let err = game(&["base:D", "base:D", "base:D", "base:D"]).expect_err("too many");
    assert!(err.contains("more copies of `base:D`"), "{err}");
}

#[test]
fn a_tile_put_back_under_reshuffle_and_listed_again_is_that_tile() {
    // PD-OPT-4 `reshuffle`: the dragon city goes back into the supply at once; the record
    // lists it again where it was drawn again.
    let options = [("princess-dragon.dragon-tiles-before-volcano", "reshuffle")];
    let mut g = game_with(
        &["pd:dragon-city", "pd:volcano", "pd:dragon-city"],
        &options,
    )
    .expect("valid");
    assert!(g.state.set_aside.is_empty(), "put back, not set aside");
    assert_eq!(copies_left(&g, "pd:dragon-city"), 1, "no second copy");
    place_anywhere(&mut g);
    assert_eq!(drawn(&mut g), "pd:dragon-city");
}

/// The listed draw number of the first listing that stood for no copy, if any.
fn overdrawn(game: &Game, listed: usize) -> Option<(String, usize)> {
    let o = game.overdrawn()?;
    Some((
        game.rules.tiles.tile(o.tile).id.clone(),
        listed - o.left as usize,
    ))
}

#[test]
fn a_tile_listed_again_when_no_copy_came_back_stands_for_no_tile() {
    // pd:dragon-city has 1 copy. After the volcano nothing is set aside or put back, so
    // its second listing asks for a copy the supply does not hold.
    let draw = ["pd:volcano", "pd:dragon-city", "pd:dragon-city"];
    let mut g = game(&draw).expect("the counts are known only in play");
    place_anywhere(&mut g);
    assert_eq!(drawn(&mut g), "pd:dragon-city");
    assert_eq!(overdrawn(&g, 3), None);
    place_anywhere(&mut g);
    // The dragon moves, then the next turn draws.
    for _ in 0..20 {
        if g.overdrawn().is_some() {
            break;
        }
        let a = g.legal_actions()[0];
        g.apply(&a).expect("legal");
    }
    assert_eq!(overdrawn(&g, 3), Some(("pd:dragon-city".into(), 2)));
    // The listing was passed over: the one copy is on the board, and no tile was made.
    let city = g.rules.tiles.get("pd:dragon-city").expect("known tile");
    let board = &g.state.board.tiles;
    assert_eq!(board.iter().filter(|p| p.tile == city).count(), 1);
    assert_eq!(copies_left(&g, "pd:dragon-city"), 0);
    let in_hand = usize::from(g.state.turn.drawn.is_some());
    assert_eq!(
        board.len() - 1 + g.state.pile.len() + in_hand,
        g.rules.full_supply().len(),
        "placed, left and in hand are the supply"
    );
}

#[test]
fn a_tile_listed_again_while_it_is_still_set_aside_stands_for_no_tile() {
    // Drawn before the volcano, pd:dragon-city is set aside (PD-7): it cannot be drawn
    // again until the volcano brings it back.
    let g = game(&["pd:dragon-city", "pd:dragon-city", "pd:volcano"]).expect("valid setup");
    assert_eq!(overdrawn(&g, 3), Some(("pd:dragon-city".into(), 1)));
    assert_eq!(g.state.set_aside.len(), 1, "{:?}", g.state.set_aside);
    // Control: listed again after the volcano, it is the set-aside tile, drawn again.
    let mut g = game(&["pd:dragon-city", "pd:volcano", "pd:dragon-city"]).expect("valid");
    place_anywhere(&mut g);
    assert_eq!(drawn(&mut g), "pd:dragon-city");
    assert_eq!(overdrawn(&g, 3), None);
}
