//! Invariants over many random seeded games with both expansions (RP-8, RP-10, BASE-2,
//! RP-7, records): followers are conserved (supply + board + trapped = 7), prisoners never
//! score, nothing is deployed on Vodyanoy, and every written record replays to the same final state.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::engine::{Action, Command, Event, EventKind, Reason};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::figures::{FigureClass, Location};
use carc_core::record::{self, Record, action_to_move};
use carc_core::rules::Rules;
use common::plugins::{princess_dragon, russian_promos};

const GAMES: u64 = 1000;

/// Test-only observer: whenever points are given for a feature, the player must have a
/// follower standing in it — a prisoner on a trap tile never earns them (RP-8).
struct Observer(Arc<Mutex<Vec<String>>>);

impl Expansion for Observer {
    fn manifest(&self) -> Manifest {
        common::test_manifest("zz-observer", "test observer")
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::Scored])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, _out: &mut Vec<Command>) {
        let Event::Scored {
            player,
            points,
            reason: Reason::Feature { node },
        } = event
        else {
            return;
        };
        let st = ctx.state;
        let stands_there = st.figures_on_feature(*node).any(|f| {
            let fig = st.figures[f as usize];
            fig.owner == *player
                && ctx.rules.figure_kinds[fig.kind as usize].class == FigureClass::Follower
        });
        if !stands_there && *points != 0 {
            self.0
                .lock()
                .map(|mut v| {
                    v.push(format!(
                        "player {player} scored {points} for a feature without a follower in it"
                    ))
                })
                .ok();
        }
    }
}

#[test]
fn random_games_with_both_expansions_keep_the_invariants_and_replay() {
    let violations = Arc::new(Mutex::new(Vec::new()));
    let rules = Arc::new(
        Rules::new(
            vec![
                Box::new(BaseGame),
                princess_dragon(),
                russian_promos(),
                Box::new(Observer(violations.clone())),
            ],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let catalog = common::plugins::both_expansions();
    let vodyanoy = rules.vocab.marker("vodyanoy").expect("registered");
    let mut traps = 0usize;
    let mut releases = 0usize;
    for seed in 0..GAMES {
        let players = 2 + (seed % 3) as usize;
        let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
        let mut moves = Vec::new();
        while !game.is_over() {
            let a = bots[game.decider() as usize]
                .choose(&mut game)
                .expect("move");
            // RP-7: nothing is deployed on the Vodyanoy tile itself.
            if let Action::Deploy { node, .. } = a {
                let board = &game.state.board;
                let tile = board.tiles[board.graph.node(node).tile as usize].tile;
                assert!(
                    !game.rules.tiles.tile(tile).has_marker(vodyanoy),
                    "seed {seed}: a deployment on the Vodyanoy tile was offered"
                );
            }
            let m = action_to_move(&game.rules, &game.state, &a);
            releases += usize::from(m.release.is_some());
            moves.push(m);
            game.apply(&a).expect("legal");
            for p in 0..players as u8 {
                let mut n = 0;
                for f in &game.state.figures {
                    if f.owner == p
                        && rules.figure_kinds[f.kind as usize].class == FigureClass::Follower
                    {
                        assert!(
                            matches!(
                                f.at,
                                Location::Supply | Location::Feature(_) | Location::Tile(_)
                            ),
                            "seed {seed}: a follower is off the board"
                        );
                        n += 1;
                    }
                }
                assert_eq!(n, 7, "seed {seed}: player {p} has {n} followers");
            }
        }
        traps += game
            .state
            .figures
            .iter()
            .filter(|f| matches!(f.at, Location::Tile(_)) && f.owner < 6)
            .count();
        assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
        let rec = Record::of_game(
            vec!["princess-dragon".into(), "russian-promos".into()],
            names,
            seed,
            BTreeMap::new(),
            moves,
        );
        let text = toml::to_string(&rec).expect("serializes");
        let loaded = record::parse(&text, "mem.toml", record::Format::Toml).expect("parses");
        let replayed = record::replay(&loaded, &catalog)
            .unwrap_or_else(|e| panic!("seed {seed}: replay failed: {e:?}"));
        // Same board, figures and scores (the observer is not part of the replayed rules,
        // so its own record slot is left out of the comparison).
        assert_eq!(
            replayed.game.state.figures, game.state.figures,
            "seed {seed}"
        );
        assert_eq!(
            replayed.game.state.players, game.state.players,
            "seed {seed}"
        );
        assert_eq!(replayed.game.state.board, game.state.board, "seed {seed}");
    }
    let v = violations.lock().expect("lock");
    assert!(v.is_empty(), "{} violations, e.g. {:?}", v.len(), v.first());
    // The random bot really exercises the traps.
    assert!(traps > 100, "only {traps} followers trapped at game ends");
    assert!(releases > 10, "only {releases} releases");
}
