//! A move's cost does not grow with the board (issue 13, class 7): on a board with more
//! open squares than real games have, checking a placement looks at its own square, and
//! knowing that a decision is pending needs one square that fits, while the list of
//! legal actions stays complete and refused moves are explained as on a small board.

use crate::base::SQUARES_LISTED;
use crate::catalog::Catalog;
use crate::engine::{Action, Game};
use crate::fixtures::long_road_record as long_road;
use crate::geometry::{Pos, Rotation};
use crate::record::{Format, move_to_action, parse, setup_game};

/// The game after the first `moves` moves of the long road of `n` tiles.
fn play(n: usize, moves: usize) -> Game {
    let loaded = parse(&long_road(n), "road.toml", Format::Toml).expect("record");
    let mut game = setup_game(&loaded, &Catalog::new()).expect("setup");
    for m in &loaded.record.moves[..moves] {
        let action = move_to_action(&game, m).expect("well formed");
        game.apply(&action).expect("legal");
    }
    game
}

/// Open squares listed while the last `tail` tiles of a road of `n` are placed.
fn squares_listed_for_last(n: usize, tail: usize) -> u64 {
    let loaded = parse(&long_road(n), "road.toml", Format::Toml).expect("record");
    let mut game = setup_game(&loaded, &Catalog::new()).expect("setup");
    let moves = &loaded.record.moves;
    let split = moves.len() - 2 * tail;
    for m in &moves[..split] {
        game.apply(&move_to_action(&game, m).expect("move"))
            .expect("legal");
    }
    let before = SQUARES_LISTED.with(|c| c.get());
    for m in &moves[split..] {
        game.apply(&move_to_action(&game, m).expect("move"))
            .expect("legal");
    }
    SQUARES_LISTED.with(|c| c.get()) - before
}

#[test]
fn placing_on_a_large_board_looks_at_a_few_squares_per_tile() {
    // 400 road tiles leave 802 open squares; listing them all per tile would look at
    // some 80,000 squares for the last 100 tiles.
    let looked = squares_listed_for_last(400, 100);
    assert!(
        looked <= 100 * 4,
        "the last 100 placements listed {looked} open squares"
    );
    // The same count at twice the board: the cost per tile does not grow with it.
    assert_eq!(squares_listed_for_last(800, 100), looked);
}

#[test]
fn a_large_board_still_offers_every_placement() {
    let n = 300;
    let mut game = play(n, 2 * n - 2);
    // The last road tile is drawn: list every placement and check it against the edges.
    let offered: Vec<Action> = game.legal_actions().to_vec();
    let Some(Action::Place { tile, .. }) = offered.first().copied() else {
        panic!("a placement is pending: {offered:?}");
    };
    let t = game.rules.tiles.tile(tile);
    let mut expected = 0;
    for sq in game.state.board.open_squares() {
        for r in Rotation::ALL {
            if crate::board::Board::fits(t, r, sq) {
                expected += 1;
            }
        }
    }
    assert!(expected > 600, "{expected} placements on a road of {n}");
    assert_eq!(offered.len(), expected);
}

#[test]
fn a_refused_placement_on_a_large_board_is_explained_as_on_a_small_one() {
    for n in [3, 300] {
        let mut game = play(n, 2 * n - 2);
        game.legal_actions(); // the next turn begins: the last tile is drawn
        let before = game.state.clone();
        let tile = game.rules.tiles.get("base:U").expect("tile");
        // Far from every tile (BASE-4: it must touch the board).
        let far = Action::Place {
            tile,
            pos: Pos::new(0, 50),
            rotation: Rotation::quarter_turns(0),
        };
        let err = game.apply(&far).expect_err("not adjacent");
        assert!(err.0.contains("does not fit there"), "n = {n}: {}", err.0);
        // Across the road's end: the road meets a field edge.
        let across = Action::Place {
            tile,
            pos: Pos::new(n as i32, 0),
            rotation: Rotation::quarter_turns(1),
        };
        let err = game.apply(&across).expect_err("edges do not match");
        assert!(err.0.contains("does not fit there"), "n = {n}: {}", err.0);
        assert_eq!(
            game.state, before,
            "n = {n}: a refused move changes nothing"
        );
        // The right one is taken.
        let right = Action::Place {
            tile,
            pos: Pos::new(n as i32, 0),
            rotation: Rotation::quarter_turns(0),
        };
        game.apply(&right).expect("extends the road");
    }
}
