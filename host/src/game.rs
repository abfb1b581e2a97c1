//! Bot games, as `carc play` plays them: the same seed and rules give the same game and
//! the same record, in any process.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::bots::{Bot, Strategy};
use carc_core::engine::{Game, Setup};
use carc_core::record::{Expect, Move, Record, action_to_move};
use carc_core::rules::Rules;
use carc_core::setup::{SupplyMode, draw_order};

/// A game between seeded bots, set up with the whole supply shuffled by `seed`.
pub fn new_game(
    rules: Rules,
    names: &[String],
    strategies: &[Strategy],
    seed: u64,
) -> Result<(Game, Vec<Bot>), String> {
    let order = draw_order(&rules, &[], SupplyMode::Full, seed)?;
    let game = Game::new(
        Arc::new(rules),
        Setup {
            players: names.to_vec(),
            listed: 0,
            draw_order: order,
            seed,
            full_supply: true,
        },
    )?;
    let bots = strategies
        .iter()
        .enumerate()
        .map(|(i, s)| Bot::new(*s, seed, i as u64))
        .collect();
    Ok((game, bots))
}

/// A game the bots played: its moves, and why it stopped before its end, if it did.
pub struct PlayedOut {
    /// The moves made, in order.
    pub moves: Vec<Move>,
    /// Why the game stopped early (`after` said so, or the engine failed); `None` when it
    /// was played to its end.
    pub stopped: Option<String>,
}

/// Plays a game to its end; `after` runs once before the first move and after each move
/// (with the moves so far) and may stop the game with an error. The moves made are kept
/// either way, so that a stopped game can still be written as a record.
pub fn play_out(
    game: &mut Game,
    bots: &mut [Bot],
    mut after: impl FnMut(&mut Game, usize) -> Result<(), String>,
) -> PlayedOut {
    let mut moves = Vec::new();
    let stopped = (|| {
        after(game, 0)?;
        while !game.is_over() {
            let seat = game.decider() as usize % bots.len().max(1);
            let Some(action) = bots.get_mut(seat).and_then(|b| b.choose(game)) else {
                // Choosing began the next turn, whose start may end the game or make an
                // expansion fail (which `after` reports).
                after(game, moves.len())?;
                if game.is_over() {
                    break;
                }
                return Err("the engine offered no move but the game is not over".to_string());
            };
            let m = action_to_move(&game.rules, &game.state, &action);
            game.apply(&action)
                .map_err(|e| format!("the engine refused its own move: {e}"))?;
            moves.push(m);
            after(game, moves.len())?;
        }
        Ok(())
    })()
    .err();
    PlayedOut { moves, stopped }
}

/// The record of a game played (to its end, or stopped early), with its scores as the
/// expectation.
pub fn record_of(
    game: &Game,
    expansions: Vec<String>,
    seed: u64,
    options: BTreeMap<String, String>,
    moves: Vec<Move>,
) -> Record {
    let names = game.state.players.iter().map(|p| p.name.clone()).collect();
    let mut record = Record::of_game(expansions, names, seed, options, moves);
    record.expect = Some(Expect {
        scores: Some(
            game.state
                .players
                .iter()
                .map(|p| (p.name.clone(), p.score as i64))
                .collect(),
        ),
        ..Expect::default()
    });
    record
}
