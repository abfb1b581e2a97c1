//! Random playouts of the base game, two players: the figure AI search cares about.
//! The greedy bot is measured beside it as a second, heavier workload.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::rules::Rules;
use criterion::{Criterion, criterion_group, criterion_main};

fn playout(rules: &Arc<Rules>, seed: u64, strategy: Strategy) -> Vec<i32> {
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(rules, &players, &[strategy], seed).expect("game");
    play_out(&mut g.game, &mut g.bots);
    g.game.state.scores()
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
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], 1).expect("game");
    for _ in 0..70 {
        let a = g.bots[g.game.decider() as usize]
            .choose(&mut g.game)
            .expect("move");
        g.game.apply(&a).expect("legal");
    }
    let game = g.game;
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
