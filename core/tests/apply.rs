//! Carrying out moves by index (`Game::apply_index`), as bots and searches do.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game};
use carc_core::rules::Rules;

fn game(seed: u64) -> carc_core::engine::Game {
    let rules = Arc::new(Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).expect("rules"));
    let names = ["A".to_string(), "B".to_string()];
    bot_game(&rules, &names, &[Strategy::Random], seed)
        .expect("game")
        .game
}

#[test]
fn an_index_past_the_offered_moves_is_refused_and_changes_nothing() {
    let mut g = game(7);
    let n = g.legal_actions().len();
    assert!(n > 0, "the first placement offers moves");
    let before = g.state.clone();
    let err = g.apply_index(n).expect_err("out of range");
    assert!(err.0.contains("not offered"), "{}", err.0);
    assert_eq!(g.state, before, "a refused move leaves the game as it was");
    // The last offered move is fine.
    g.apply_index(n - 1).expect("in range");
    assert_ne!(g.state, before);
}

#[test]
fn applying_by_index_is_applying_that_move() {
    for seed in 0..20 {
        let (mut by_index, mut by_value) = (game(seed), game(seed));
        for step in 0..40 {
            if by_index.is_over() {
                break;
            }
            let i = (seed as usize + step) % by_index.legal_actions().len();
            let action = by_value.legal_actions()[i];
            by_index.apply_index(i).expect("offered");
            by_value.apply(&action).expect("legal");
            assert_eq!(by_index.state, by_value.state, "seed {seed}, move {step}");
        }
    }
}

#[test]
fn no_move_after_the_game_is_over() {
    let mut g = game(3);
    g.finish();
    assert!(g.apply_index(0).is_err());
}

/// A game can end as the next turn begins (its draws find no tile to play): a move then is
/// refused as coming after the game, by index and by value alike, not as a move that is
/// not offered.
#[test]
fn a_move_when_the_next_turn_finds_no_tile_is_refused_as_after_the_game() {
    for seed in 0..5 {
        let mut g = game(seed);
        // Play to the end of the first turn, before anything asks for the next decision.
        while !g.state.turn.over {
            g.apply_index(0).expect("offered");
        }
        // Nothing left to draw: the next turn cannot begin.
        g.state.pile.clear();
        g.state.listed = 0;
        assert!(!g.is_over(), "seed {seed}: the game ended with the turn");
        let mut by_value = g.clone();
        let err = g.apply_index(0).expect_err("after the game");
        assert_eq!(err.0, "the game is over", "seed {seed}");
        assert!(g.is_over(), "seed {seed}");
        let err = by_value
            .apply(&carc_core::engine::Action::Pass)
            .expect_err("after the game");
        assert_eq!(err.0, "the game is over", "seed {seed}");
    }
}
