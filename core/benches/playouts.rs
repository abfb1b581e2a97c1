//! Random playouts of the base game, two players: the figure AI search cares about.
//! The greedy bot is measured beside it as a second, heavier workload.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Bot, Strategy, play_out};
use carc_core::engine::{Game, Setup};
use carc_core::rules::Rules;
use carc_core::setup::{SupplyMode, draw_order};
use criterion::{Criterion, criterion_group, criterion_main};

fn playout(rules: &Arc<Rules>, seed: u64, strategy: Strategy) -> Vec<i32> {
    let order = draw_order(rules, &[], SupplyMode::Full, seed).expect("supply");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["A".into(), "B".into()],
            listed: 0,
            draw_order: order,
            seed,
        },
    )
    .expect("game");
    let mut bots = [Bot::new(strategy, seed, 0), Bot::new(strategy, seed, 1)];
    play_out(&mut game, &mut bots);
    game.state.scores()
}

fn bench(c: &mut Criterion) {
    let rules = Arc::new(Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).expect("rules"));
    let mut seed = 0u64;
    c.bench_function("random playout, base game, 2 players", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&rules, seed, Strategy::Random))
        })
    });
    let mut seed = 0u64;
    c.bench_function("greedy playout, base game, 2 players", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(&rules, seed, Strategy::Greedy))
        })
    });
    // What cloning a mid-game state costs (AI search clones it constantly).
    let order = draw_order(&rules, &[], SupplyMode::Full, 1).expect("supply");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["A".into(), "B".into()],
            listed: 0,
            draw_order: order,
            seed: 1,
        },
    )
    .expect("game");
    let mut bots = [
        Bot::new(Strategy::Random, 1, 0),
        Bot::new(Strategy::Random, 1, 1),
    ];
    for _ in 0..70 {
        let a = bots[game.decider() as usize]
            .choose(&mut game)
            .expect("move");
        game.apply(&a).expect("legal");
    }
    c.bench_function("clone a mid-game state", |b| {
        b.iter(|| black_box(game.state.clone()))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
