//! Invariants over many random seeded games with The Princess and the Dragon (PD-2, PD-3,
//! PD-5, PD-11, PD-12, BASE-2, records).

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::catalog::Catalog;
use carc_core::engine::{Action, Arg, Game};
use carc_core::figures::{FigureClass, Location, NEUTRAL};
use carc_core::record::{self, Record, action_to_move};
use carc_core::rules::Rules;

const GAMES: u64 = 1000;

fn rules(options: &BTreeMap<String, String>) -> Arc<Rules> {
    Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), common::plugins::princess_dragon()],
            options,
        )
        .expect("rules"),
    )
}

fn catalog() -> Catalog {
    let mut c = Catalog::new();
    c.add(Arc::new(common::plugins::princess_dragon))
        .expect("adds");
    c
}

fn figure_kind(game: &Game, name: &str) -> u8 {
    game.rules
        .figure_kinds
        .iter()
        .position(|k| k.name == name)
        .expect("declared") as u8
}

fn neutral_tile(game: &Game, kind: u8) -> Option<u32> {
    let f = game
        .state
        .figures
        .iter()
        .position(|f| f.kind == kind && f.owner == NEUTRAL)?;
    game.state.figure_tile(f as u16)
}

/// Checks the invariants after one applied action.
fn check(game: &Game, seed: u64, last: &Action, dragon_moved: bool) {
    let state = &game.state;
    let (dragon_kind, fairy_kind) = (figure_kind(game, "dragon"), figure_kind(game, "fairy"));
    let dragon = neutral_tile(game, dragon_kind);
    let volcano = game.rules.vocab.marker("volcano").expect("registered");
    // No figure on the dragon's tile (a volcano holds it in the turn it is placed),
    // except what the dragon itself found on arrival (PD-2, PD-3).
    for (i, fig) in state.figures.iter().enumerate() {
        if fig.kind == dragon_kind {
            continue;
        }
        let Some(t) = state.figure_tile(i as u16) else {
            continue;
        };
        if Some(t) == dragon && !dragon_moved {
            panic!("seed {seed}: a figure stands on the dragon's tile after {last:?}");
        }
    }
    // Nothing was deployed on a volcano placed this turn.
    if let Some(placed) = state.turn.placed {
        let tile = game
            .rules
            .tiles
            .tile(state.board.tiles[placed as usize].tile);
        if tile.has_marker(volcano) {
            let on_it =
                state.figures.iter().enumerate().any(|(i, f)| {
                    f.kind != dragon_kind && state.figure_tile(i as u16) == Some(placed)
                });
            assert!(!on_it, "seed {seed}: a figure on the volcano just placed");
        }
    }
    // The dragon never ends a step on the fairy's tile (PD-12, default options).
    if dragon_moved {
        assert_ne!(
            dragon,
            neutral_tile(game, fairy_kind),
            "seed {seed}: dragon on the fairy"
        );
    }
    // Every figure's kept tile agrees with its location (the dragon and the fairy move
    // onto tiles, followers onto features, eaten ones back).
    for (i, fig) in state.figures.iter().enumerate() {
        assert_eq!(
            state.figure_tile(i as u16),
            state.location_tile(fig.at),
            "seed {seed}: figure {i} at {:?} after {last:?}",
            fig.at
        );
    }
    // Followers are conserved: supply + board = 7.
    for p in 0..state.players.len() as u8 {
        let n = state
            .figures
            .iter()
            .filter(|f| {
                f.owner == p
                    && game.rules.figure_kinds[f.kind as usize].class == FigureClass::Follower
                    && matches!(f.at, Location::Supply | Location::Feature(_))
            })
            .count();
        assert_eq!(n, 7, "seed {seed}: player {p} has {n} followers");
    }
}

#[test]
fn random_games_with_the_dragon_keep_the_invariants_and_replay() {
    let options = BTreeMap::new();
    let rules = rules(&options);
    let catalog = catalog();
    let fairy_verb = rules.verb("fairy").expect("declared").0;
    let mut steps = 0u64;
    let mut fairy_moves = 0u64;
    for seed in 0..GAMES {
        let players = 1 + (seed % 4) as usize;
        let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
        let mut moves = Vec::new();
        // The follower the fairy was last moved next to, with its move count then.
        let mut fairy_next_to: Option<(usize, u32)> = None;
        while !game.is_over() {
            let a = bots[game.decider() as usize]
                .choose(&mut game)
                .expect("move");
            let is_step = game.phase() == "dragon-move";
            steps += u64::from(is_step);
            // PD-4: the dragon moves only in a turn whose tile shows the dragon symbol.
            if is_step {
                let placed = game.state.turn.placed.expect("a tile placed this turn");
                let tile = game.state.board.tiles[placed as usize].tile;
                let symbol = game
                    .rules
                    .vocab
                    .marker(carc_princess_dragon::names::DRAGON_SYMBOL_MARKER)
                    .expect("registered");
                assert!(
                    game.rules.tiles.tile(tile).has_marker(symbol),
                    "seed {seed}: a dragon step in a turn without a dragon tile"
                );
            }
            fairy_moves += u64::from(matches!(a, Action::Verb { .. }) && !is_step);
            let is_fairy_move = matches!(a, Action::Verb { verb, .. } if verb == fairy_verb);
            // PD-11: the fairy is never moved to the follower it already stands next to.
            if let (
                true,
                Action::Verb {
                    arg: Arg::Feature(node),
                    ..
                },
            ) = (is_fairy_move, a)
            {
                let follower = game
                    .state
                    .figures
                    .iter()
                    .position(|f| {
                        f.owner == game.state.turn.player && f.at == Location::Feature(node)
                    })
                    .expect("a fairy move names a follower of the player");
                let now = (follower, game.state.figures[follower].moves);
                assert_ne!(
                    fairy_next_to,
                    Some(now),
                    "seed {seed}: the fairy was offered the follower it stands next to"
                );
                fairy_next_to = Some(now);
            }
            moves.push(action_to_move(&game.rules, &game.state, &a));
            game.apply(&a).expect("legal");
            check(&game, seed, &a, is_step);
        }
        assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
        let rec = Record::of_game(
            vec!["princess-dragon".into()],
            names,
            seed,
            BTreeMap::new(),
            moves,
        );
        let text = toml::to_string(&rec).expect("serializes");
        let loaded = record::parse(&text, "mem.toml", record::Format::Toml).expect("parses");
        let replayed = record::replay(&loaded, &catalog)
            .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e:?}"));
        assert_eq!(
            replayed.game.state, game.state,
            "seed {seed}: replay differs"
        );
    }
    // The random bot really exercises the expansion.
    assert!(steps > 10 * GAMES, "only {steps} dragon steps");
    assert!(fairy_moves > GAMES, "only {fairy_moves} fairy moves");
}
