//! A rule at the decision point `feature-worth` that leaves every worth as it is changes
//! no game: with it, base-game features are scored through `Command::ScoreFeature` (the
//! engine asking the rule), without it as the base game always did; the two must play
//! the same games event for event, with both shipped expansions and a figure that goes
//! home with its owner's last follower (the test builders).

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::engine::Event;
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::features::NodeId;
use carc_core::fixtures::Builders;
use carc_core::rules::{FEATURE_WORTH, Rules};
use common::plugins::{princess_dragon, russian_promos};

/// A rule at `feature-worth` about every kind of the base game that changes nothing.
struct Unchanged;

impl Expansion for Unchanged {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "unchanged".into(),
            name: "Unchanged".into(),
            version: "0.1.0".into(),
            rules: vec![RuleDecl {
                id: "worth".into(),
                point: FEATURE_WORTH.into(),
                claims: ["road", "city", "monastery", "field"]
                    .map(String::from)
                    .to_vec(),
                before: Vec::new(),
                after: Vec::new(),
                doc: "leaves every worth as it is".into(),
            }],
            ..Manifest::default()
        }
    }

    fn feature_worth(&self, _ctx: &Ctx, _node: NodeId, worth: i32) -> i32 {
        worth
    }
}

/// A game of random bots with both shipped expansions and the test builders (and the
/// rule when `with_rule`): its events and the final scores.
fn played(with_rule: bool, seed: u64, players: usize) -> (Vec<Event>, Vec<i32>) {
    let mut expansions: Vec<Box<dyn Expansion>> = vec![
        Box::new(BaseGame),
        princess_dragon(),
        russian_promos(),
        Box::new(Builders),
    ];
    if with_rule {
        expansions.push(Box::new(Unchanged));
    }
    let rules = Arc::new(Rules::new(expansions, &BTreeMap::new()).expect("rules"));
    let names: Vec<String> = (0..players).map(|p| format!("P{p}")).collect();
    let mut g = bot_game(&rules, &names, &[Strategy::Random], seed).expect("a game");
    g.game.keep_log(true);
    play_out(&mut g.game, &mut g.bots);
    assert!(g.game.is_over());
    assert_eq!(g.game.faults(), &[] as &[String], "seed {seed}");
    let scores = g.game.state.players.iter().map(|p| p.score).collect();
    (g.game.take_log(), scores)
}

#[test]
fn a_rule_that_changes_nothing_changes_no_game() {
    let mut scored = 0;
    for seed in 1..=24 {
        let players = 2 + (seed as usize % 3);
        let (events, scores) = played(false, seed, players);
        let (with_rule, scores_with_rule) = played(true, seed, players);
        assert_eq!(scores, scores_with_rule, "seed {seed}");
        assert!(events == with_rule, "seed {seed}: the events differ");
        scored += events
            .iter()
            .filter(|e| matches!(e, Event::FeatureScored { .. }))
            .count();
    }
    assert!(scored > 24 * 10, "features scored: {scored}");
}
