//! A plugin that panics is disabled with an error and the game goes on (the brief's
//! robustness standard): whichever hook panics, the panic is caught, reported once as a
//! fault naming the expansion and the hook, and the expansion's hooks are not called again.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::engine::Action;
use carc_core::fixtures::{PanicIn, Panics};
use carc_core::rules::Rules;

const HOOKS: [PanicIn; 6] = [
    PanicIn::Actions,
    PanicIn::Forbid,
    PanicIn::EnterPhase,
    PanicIn::OnEvent,
    PanicIn::Apply,
    PanicIn::FinalScoring,
];

fn rules(hook: PanicIn) -> Arc<Rules> {
    Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Panics { hook, after: 5 })],
            &BTreeMap::new(),
        )
        .expect("rules"),
    )
}

#[test]
fn a_panicking_expansion_is_disabled_and_the_game_goes_on() {
    for hook in HOOKS {
        let rules = rules(hook);
        let players = ["A".to_string(), "B".to_string()];
        let mut g = bot_game(&rules, &players, &[Strategy::Random], 3).expect("game");
        play_out(&mut g.game, &mut g.bots);
        let game = &g.game;
        assert!(game.is_over(), "{hook:?}: the game ran to its end");
        let panics: Vec<_> = game
            .faults()
            .iter()
            .filter(|f| f.contains("panicked"))
            .collect();
        assert_eq!(
            panics.len(),
            1,
            "{hook:?}: reported once: {:?}",
            game.faults()
        );
        assert!(panics[0].contains("`panics`"), "{}", panics[0]);
        assert!(panics[0].contains("disabled"), "{}", panics[0]);
        // Every tile was played or discarded: the base game carried on without it.
        assert!(game.state.pile.is_empty(), "{hook:?}");
    }
}

#[test]
fn a_disabled_expansion_offers_nothing_more() {
    let rules = rules(PanicIn::Apply);
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], 1).expect("game");
    let shrug = |a: &Action| matches!(a, Action::Verb { .. });
    // Play until the expansion's own move is on offer from turn 5 on, then choose it.
    loop {
        assert!(!g.game.is_over(), "the move was offered");
        let turn = g.game.state.turn.number;
        let actions = g.game.legal_actions().to_vec();
        if turn >= 5
            && let Some(a) = actions.iter().find(|a| shrug(a))
        {
            g.game.apply(a).expect("offered");
            break;
        }
        let seat = g.game.decider() as usize;
        let a = g.bots[seat].choose(&mut g.game).expect("a move");
        g.game.apply(&a).expect("legal");
    }
    assert_eq!(g.game.faults().len(), 1, "{:?}", g.game.faults());
    // Never offered again once disabled, and no new fault.
    while !g.game.is_over() {
        assert!(
            !g.game.legal_actions().iter().any(shrug),
            "offered after disabling"
        );
        let seat = g.game.decider() as usize;
        let a = g.bots[seat].choose(&mut g.game).expect("a move");
        g.game.apply(&a).expect("legal");
    }
    assert_eq!(g.game.faults().len(), 1, "{:?}", g.game.faults());
}

#[test]
fn a_replay_with_a_misbehaving_expansion_fails_and_says_why() {
    use carc_core::catalog::Catalog;
    use carc_core::record::{Format, ReplayError, parse, replay};
    let mut catalog = Catalog::new();
    catalog
        .add(Arc::new(|| {
            Box::new(Panics {
                hook: PanicIn::OnEvent,
                after: 1,
            })
        }))
        .expect("adds");
    let text = r#"
[game]
expansions = ["panics"]
players = ["A", "B"]
supply = "draw"
draw = ["base:U"]
[[move]]
place = "base:U"
at = [1, 0]
rotation = 0
[[move]]
pass = true
[expect]
scores = { A = 0, B = 0 }
"#;
    let loaded = parse(text, "panics.toml", Format::Toml).expect("a valid record");
    match replay(&loaded, &catalog) {
        Err(ReplayError::Failed { problems, .. }) => {
            assert!(
                problems.iter().any(|p| p.contains("`panics` panicked")),
                "{problems:?}"
            );
        }
        Ok(_) => panic!("a replay with a panicking expansion passed"),
        Err(_) => panic!("the record itself was refused"),
    }
}

#[test]
fn an_expansion_that_panics_while_loading_is_an_error_not_a_crash() {
    use carc_core::catalog::Catalog;
    let mut catalog = Catalog::new();
    let panicking_factory =
        catalog.add(Arc::new(|| -> Box<dyn carc_core::expansion::Expansion> {
            panic!("cannot even be made")
        }));
    let err = panicking_factory.expect_err("refused");
    assert!(
        err.contains("panicked") && err.contains("cannot even be made"),
        "{err}"
    );
    catalog
        .add(Arc::new(|| {
            Box::new(Panics {
                hook: PanicIn::HooksIn,
                after: 0,
            })
        }))
        .expect("its manifest is fine");
    let err = catalog
        .rules(&["panics".to_string()], &BTreeMap::new())
        .expect_err("refused");
    assert!(err.message.contains("panicked"), "{}", err.message);
    // The catalog still works for games without it.
    assert!(catalog.rules(&[], &BTreeMap::new()).is_ok());
}
