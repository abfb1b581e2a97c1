//! Random two-player playouts with The Princess and the Dragon beside the base game in the
//! same run, so the figure that matters is their ratio. The expansion is linked in and
//! called through its plugin module (the calls a loaded library gets).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::expansion::Expansion;
use carc_core::plugin::Plugin;
use carc_core::rules::Rules;
use criterion::{Criterion, criterion_group, criterion_main};

fn rules(expansions: Vec<Box<dyn Expansion>>) -> Arc<Rules> {
    Arc::new(Rules::new(expansions, &BTreeMap::new()).expect("rules"))
}

fn playout(rules: &Arc<Rules>, seed: u64) -> Vec<i32> {
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(rules, &players, &[Strategy::Random], seed).expect("game");
    play_out(&mut g.game, &mut g.bots);
    g.game.state.scores()
}

fn bench(c: &mut Criterion) {
    let base = rules(vec![Box::new(BaseGame)]);
    let dragon = rules(vec![
        Box::new(BaseGame),
        Box::new(Plugin::new(carc_princess_dragon::carc_plugin_module()).expect("plugin")),
    ]);
    for (name, rules) in [("base game", &base), ("princess-dragon", &dragon)] {
        let mut seed = 0u64;
        c.bench_function(&format!("random playout, {name}, 2 players"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(playout(rules, seed))
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = bench
}
criterion_main!(benches);
