//! A search clones the game and plays the clones forward (the greedy bot does, an AI
//! search does it millions of times): each clone must be a game of its own. Over random
//! seeded games with both expansions (their hooks called across the plugin boundary,
//! their own records in the state), clones played forward at every few decisions never
//! change the game they were cloned from, and a clone given the original's moves ends
//! exactly where the original does.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::engine::Game;
use carc_core::rng::Rng;
use carc_core::rules::Rules;

const GAMES: u64 = 200;

fn rules(options: &[(&str, &str)]) -> Arc<Rules> {
    let options: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Arc::new(
        Rules::new(
            vec![
                Box::new(BaseGame),
                common::plugins::princess_dragon(),
                common::plugins::russian_promos(),
            ],
            &options,
        )
        .expect("rules"),
    )
}

/// A game of `players` random bots from `seed`, set up afresh.
fn start(rules: &Arc<Rules>, seed: u64, players: usize) -> BotGame {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    bot_game(rules, &names, &[Strategy::Random], seed).expect("game")
}

/// Plays a clone forward by up to `decisions` random decisions of its own.
fn play_clone(mut clone: Game, rng: &mut Rng, decisions: usize) {
    for _ in 0..decisions {
        let n = clone.legal_actions().len();
        if clone.is_over() || n == 0 {
            break;
        }
        clone
            .apply_index(rng.below(n))
            .expect("an offered move applies");
    }
}

/// The indices the bots choose in the game of `seed`, and where it ends, with no clone.
fn reference(rules: &Arc<Rules>, seed: u64, players: usize) -> (Vec<usize>, Game) {
    let BotGame {
        mut game, mut bots, ..
    } = start(rules, seed, players);
    let mut chosen = Vec::new();
    while !game.is_over() {
        let seat = game.decider() as usize;
        let i = bots[seat].choose_index(&mut game).expect("a legal action");
        chosen.push(i);
        game.apply_index(i).expect("an offered move applies");
    }
    (chosen, game)
}

#[test]
fn clones_played_forward_never_change_the_game_they_were_cloned_from() {
    let variants = [
        rules(&[]),
        rules(&[
            ("princess-dragon.dragon-move", "after-scoring"),
            ("princess-dragon.fairy-placement", "on-tile"),
        ]),
    ];
    for seed in 0..GAMES {
        let rules = &variants[seed as usize % variants.len()];
        let players = 2 + seed as usize % 3;
        let (chosen, expected) = reference(rules, seed, players);
        assert!(
            expected.faults().is_empty(),
            "seed {seed}: {:?}",
            expected.faults()
        );
        let BotGame { mut game, .. } = start(rules, seed, players);
        let mut rng = Rng::stream(seed, 1);
        for (d, &i) in chosen.iter().enumerate() {
            if d % 4 == 0 {
                play_clone(game.clone(), &mut rng, 12);
            }
            if d == chosen.len() / 2 {
                // A clone given the original's moves from here ends where it does.
                let mut clone = game.clone();
                for &j in &chosen[d..] {
                    clone
                        .apply_index(j)
                        .expect("the same move applies to a clone");
                }
                assert!(clone.is_over(), "seed {seed}: the clone's game goes on");
                assert!(
                    clone.state == expected.state,
                    "seed {seed}: a clone given the same moves ended elsewhere"
                );
            }
            game.apply_index(i)
                .unwrap_or_else(|e| panic!("seed {seed}, decision {d}: {e}"));
        }
        assert!(game.is_over(), "seed {seed}: the game goes on");
        assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
        assert!(
            game.state == expected.state,
            "seed {seed}: playing clones forward changed the game"
        );
    }
}
