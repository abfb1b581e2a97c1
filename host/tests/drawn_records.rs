//! A record of a real game lists every tile drawn, in order (`draw`), as games played
//! online give them: a dragon tile set aside before the volcano (PD-7) or put back at once
//! (PD-OPT-4) is listed again where it was drawn again, and a tile that fit nowhere
//! (BASE-4) is listed where it was drawn. Over random seeded games with both expansions,
//! such a record replays to the same game with a full supply (under another seed: nothing
//! is left to shuffle), and no listing stands for a copy the supply does not hold. With
//! `supply = "draw"` it does too when tiles are set aside; under PD-OPT-4 `reshuffle` a
//! `draw` supply is the list itself, each listing a tile (docs/game-records.md).

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::catalog::Catalog;
use carc_core::engine::{Event, Game};
use carc_core::record::{self, Record, SupplyKind, action_to_move};
use carc_core::rules::Rules;

const GAMES: u64 = 150;

const BEFORE_VOLCANO: &str = "princess-dragon.dragon-tiles-before-volcano";

/// The rules of both expansions with these options.
fn rules(catalog: &Catalog, options: &BTreeMap<String, String>) -> Arc<Rules> {
    let both = ["princess-dragon".to_string(), "russian-promos".to_string()];
    Arc::new(catalog.rules(&both, options).expect("rules"))
}

/// The ids of the tiles drawn in the events `log`.
fn drawn(game: &Game, log: Vec<Event>) -> impl Iterator<Item = String> + '_ {
    log.into_iter().filter_map(|e| match e {
        Event::TileDrawn { tile } => Some(game.rules.tiles.tile(tile).id.clone()),
        _ => None,
    })
}

/// Replays `rec` and checks it ends as `game` did.
fn replays_as(rec: &Record, game: &Game, catalog: &Catalog, what: &str) {
    let text = toml::to_string(rec).expect("serializes");
    let loaded = record::parse(&text, "mem.toml", record::Format::Toml).expect("parses");
    let replayed = record::replay(&loaded, catalog)
        .unwrap_or_else(|e| panic!("{what}: replay failed: {e:?}"))
        .game;
    let (a, b) = (&replayed.state, &game.state);
    assert!(replayed.is_over(), "{what}: the game did not end");
    assert_eq!(a.scores(), b.scores(), "{what}: scores");
    assert_eq!(a.board, b.board, "{what}: board");
    assert_eq!(a.figures, b.figures, "{what}: figures");
    assert_eq!(a.discarded, b.discarded, "{what}: discarded tiles");
    assert_eq!(a.ext, b.ext, "{what}: the expansions' records");
}

#[test]
fn a_record_listing_every_tile_drawn_replays_the_game() {
    let catalog = common::plugins::both_expansions();
    let mut relisted = 0;
    for seed in 0..GAMES {
        let value = ["set-aside", "reshuffle"][(seed % 2) as usize];
        let options = BTreeMap::from([(BEFORE_VOLCANO.to_string(), value.to_string())]);
        let rules = rules(&catalog, &options);
        let players = 2 + (seed % 4) as usize;
        let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
        // The setup's events (the first draw) are kept when the log is turned on.
        game.keep_log(true);
        let log = game.take_log();
        let mut draws: Vec<String> = drawn(&game, log).collect();
        let mut moves = Vec::new();
        while !game.is_over() {
            let a = bots[game.decider() as usize]
                .choose(&mut game)
                .expect("move");
            moves.push(action_to_move(&game.rules, &game.state, &a));
            game.apply(&a).expect("legal");
            let log = game.take_log();
            draws.extend(drawn(&game, log));
        }
        let distinct: std::collections::BTreeSet<&String> = draws.iter().collect();
        let supply = game.rules.full_supply().len();
        relisted += draws.len() - supply;
        assert!(
            draws.len() >= supply && distinct.len() <= supply,
            "seed {seed}: {} draws of a supply of {supply}",
            draws.len()
        );
        let mut rec = Record::of_game(
            vec!["princess-dragon".into(), "russian-promos".into()],
            names,
            seed + 7919,
            options,
            moves,
        );
        rec.game.draw = draws;
        replays_as(&rec, &game, &catalog, &format!("seed {seed}, full supply"));
        if value == "set-aside" {
            rec.game.supply = Some(SupplyKind::Draw);
            replays_as(
                &rec,
                &game,
                &catalog,
                &format!("seed {seed}, supply = draw"),
            );
        }
    }
    // The games really draw dragon tiles again.
    assert!(
        relisted > GAMES as usize,
        "only {relisted} tiles drawn again"
    );
}
