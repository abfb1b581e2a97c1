//! Rendering speed: the board of a game with 100 tiles placed (the base game with The
//! Princess and the Dragon, played by random bots), to SVG and, separately, to PNG.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game};
use carc_core::engine::Game;
use carc_core::plugin::Plugin;
use carc_core::rules::Rules;
use carc_host::render::board_svg;
use carc_host::render::png::svg_to_png;
use criterion::{Criterion, criterion_group, criterion_main};

/// Tiles on the board the benchmark draws.
const TILES: usize = 100;

/// A game played by random bots until `TILES` tiles lie on the board (trying seeds in
/// turn until one gets that far).
fn board_of(tiles: usize) -> Game {
    let rules = Arc::new(
        Rules::new(
            vec![
                Box::new(BaseGame),
                Box::new(Plugin::new(carc_princess_dragon::carc_plugin_module()).expect("plugin")),
            ],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let players = ["Alice".to_string(), "Bob".to_string(), "Carol".to_string()];
    for seed in 1.. {
        let mut g = bot_game(&rules, &players, &[Strategy::Random], seed).expect("game");
        while !g.game.is_over() && g.game.state.board.tiles.len() < tiles {
            let seat = g.game.decider() as usize % g.bots.len();
            let Some(i) = g.bots[seat].choose_index(&mut g.game) else {
                break;
            };
            if g.game.apply_index(i).is_err() {
                break;
            }
        }
        if g.game.state.board.tiles.len() >= tiles {
            return g.game;
        }
    }
    unreachable!("some seed places {tiles} tiles")
}

fn bench(c: &mut Criterion) {
    let game = board_of(TILES);
    c.bench_function("board of 100 tiles to SVG", |b| {
        b.iter(|| black_box(board_svg(black_box(&game))))
    });
    // PNG with the `png` feature: `cargo bench -p carc-host --bench render --features png`.
    if cfg!(feature = "png") {
        let svg = board_svg(&game);
        // Loads the system fonts once, outside the measurement.
        let _ = svg_to_png(&svg);
        c.bench_function("board of 100 tiles, SVG to PNG", |b| {
            b.iter(|| black_box(svg_to_png(black_box(&svg))))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
