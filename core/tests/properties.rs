//! Invariants over many random seeded games (BASE-4, BASE-2, BASE-8, records).

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::engine::{Event, Game};
use carc_core::figures::{FOLLOWER, Location};
use carc_core::geometry::{Port, Side};
use carc_core::record::{self, Record, action_to_move};
use carc_core::rules::Rules;

const GAMES: u64 = 1000;

fn rules() -> Arc<Rules> {
    Arc::new(Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).expect("base rules"))
}

/// Every edge between two placed tiles joins equal kinds on all three ports (BASE-4),
/// checked from the tile definitions, independently of the board's own bookkeeping.
fn assert_edges_match(game: &Game) {
    let b = &game.state.board;
    for (i, t) in b.tiles.iter().enumerate() {
        let tile = game.rules.tiles.tile(t.tile);
        // The 3×3 count (monasteries, BASE-8) agrees with a count by position.
        let by_position = t
            .pos
            .surrounding()
            .iter()
            .filter(|p| b.is_placed(**p))
            .count()
            + 1;
        assert_eq!(b.tiles_around(t.pos), by_position, "around {}", t.pos);
        for side in Side::ALL {
            // The neighbour table agrees with the positions.
            assert_eq!(
                b.neighbour(i as u32, side),
                b.index_at(t.pos.step(side)),
                "neighbour of the tile at {} on side {side:?}",
                t.pos
            );
            let Some(n) = b.tile_at(t.pos.step(side)) else {
                continue;
            };
            let ntile = game.rules.tiles.tile(n.tile);
            assert_eq!(
                tile.side_kind(t.rotation, side),
                ntile.side_kind(n.rotation, side.opposite()),
                "tiles at {} and {} do not match",
                t.pos,
                n.pos
            );
            for k in 0..3 {
                let p = Port::from_index(side.index() * 3 + k);
                let a = tile
                    .feature_at(t.rotation, p)
                    .map(|f| tile.features[f as usize].kind);
                let c = ntile
                    .feature_at(n.rotation, p.facing())
                    .map(|f| ntile.features[f as usize].kind);
                assert_eq!(a, c, "port {p} between {} and {}", t.pos, n.pos);
            }
        }
        // Every placed tile touches another one (except the start tile).
        if b.tiles.len() > 1 {
            assert!(
                t.pos.orthogonal().iter().any(|p| b.is_placed(*p)),
                "tile at {} touches nothing",
                t.pos
            );
        }
    }
}

fn play(rules: &Arc<Rules>, seed: u64, players: usize) -> (Game, Record) {
    let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
    let BotGame {
        mut game, mut bots, ..
    } = bot_game(rules, &names, &[Strategy::Random], seed).expect("game");
    game.keep_log(true);
    let mut moves = Vec::new();
    let mut last_scores = game.state.scores();
    while !game.is_over() {
        let seat = game.decider() as usize;
        let index = bots[seat].choose_index(&mut game).expect("a legal action");
        let action = game.legal_actions()[index];
        moves.push(action_to_move(&game.rules, &game.state, &action));
        // By index (as bots and searches do) on odd seeds, by value on even ones: the
        // replay below checks both lead to the same game.
        if seed % 2 == 1 {
            game.apply_index(index).expect("an offered move applies");
        } else {
            game.apply(&action).expect("legal action applies");
        }
        // Scores never decrease (base game).
        let scores = game.state.scores();
        for (before, after) in last_scores.iter().zip(&scores) {
            assert!(after >= before, "seed {seed}: a score went down");
        }
        last_scores = scores;
        // Followers are conserved: supply + board = 7 (BASE-2).
        for p in 0..players as u8 {
            let supply = game.state.in_supply(p, FOLLOWER);
            let board = game
                .state
                .figures
                .iter()
                .filter(|f| f.owner == p && matches!(f.at, Location::Feature(_)))
                .count();
            assert_eq!(supply + board, 7, "seed {seed}: player {p} lost followers");
        }
    }
    assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
    // Each figure counted one move per deployment, move and return the log reports.
    let mut counted = vec![0u32; game.state.figures.len()];
    let log = game.take_log();
    // In the base game every follower counts 1: no feature with followers in it scores
    // for nobody, so the turn log never says so.
    let lines = carc_core::turnlog::describe_all(&game.rules, &game.state, &log);
    assert!(
        !lines.iter().any(|l| l.contains("scores for nobody")),
        "seed {seed}: a feature scored for nobody"
    );
    // A feature is marked scored before its figures go home (the SDK promises it, so that
    // a rule can tell a return by scoring): in the base game every return is one.
    let graph = &game.state.board.graph;
    let mut scored = Vec::new();
    for event in &log {
        match *event {
            Event::FeatureScored { node } => scored.push(graph.root(node)),
            Event::FigureReturned {
                from: Location::Feature(n),
                ..
            } => assert!(
                scored.contains(&graph.root(n)),
                "seed {seed}: a figure went home from a feature not yet scored"
            ),
            _ => {}
        }
    }
    for event in log {
        if let Event::FigureDeployed { figure, .. }
        | Event::FigureMoved { figure, .. }
        | Event::FigureReturned { figure, .. } = event
        {
            counted[figure as usize] += 1;
        }
    }
    let kept: Vec<u32> = game.state.figures.iter().map(|f| f.moves).collect();
    assert_eq!(kept, counted, "seed {seed}: figure move counts");
    let record = Record::of_game(vec![], names, seed, BTreeMap::new(), moves);
    (game, record)
}

#[test]
fn random_games_keep_the_invariants_and_replay_identically() {
    let rules = rules();
    let catalog = carc_core::catalog::Catalog::new();
    for seed in 0..GAMES {
        let players = 1 + (seed % 5) as usize;
        let (game, rec) = play(&rules, seed, players);
        assert_edges_match(&game);
        // Every figure's kept tile agrees with its location.
        for (f, fig) in game.state.figures.iter().enumerate() {
            assert_eq!(
                game.state.figure_tile(f as u16),
                game.state.location_tile(fig.at),
                "seed {seed}: figure {f} at {:?}",
                fig.at
            );
        }
        // Every tile of the supply was placed or discarded (BASE-1, BASE-4).
        assert_eq!(
            game.state.board.tiles.len() + game.state.discarded.len(),
            72
        );
        // The written record, through TOML text, replays to the same final state.
        let text = toml::to_string(&rec).expect("record serializes");
        let loaded = record::parse(&text, "mem.toml", record::Format::Toml).expect("parses");
        let outcome = record::replay(&loaded, &catalog)
            .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e:?}"));
        assert_eq!(
            outcome.game.state, game.state,
            "seed {seed}: replay differs"
        );
    }
}

#[test]
fn a_seed_fixes_the_game() {
    let rules = rules();
    for seed in [1, 99, 12345] {
        let (a, _) = play(&rules, seed, 3);
        let (b, _) = play(&rules, seed, 3);
        assert_eq!(a.state, b.state);
    }
    let (a, _) = play(&rules, 1, 2);
    let (b, _) = play(&rules, 2, 2);
    assert_ne!(a.state.board.tiles, b.state.board.tiles);
}
