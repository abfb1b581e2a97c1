//! A rule at the engine's decision points that changes nothing changes no game. At
//! `feature-worth`, base-game features are scored through `Command::ScoreFeature` (the
//! engine asking the rule), without it as the base game always did; at
//! `figure-strength`, every majority asks the rule about every follower (the base game's
//! scoring, and the Russian promos' hut asking through the view). With and without the
//! rule, the games must be the same event for event, with both shipped expansions and a
//! figure that goes home with its owner's last follower (the test builders).

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::engine::Event;
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::features::NodeId;
use carc_core::figures::{FigureId, Location};
use carc_core::fixtures::Builders;
use carc_core::rules::{FEATURE_WORTH, Rules};
use carc_core::strength::FIGURE_STRENGTH;
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

/// How many times [`UnchangedStrength`] was asked.
static STRENGTHS_ASKED: AtomicUsize = AtomicUsize::new(0);

/// A rule at `figure-strength` about the base game's follower that changes nothing.
struct UnchangedStrength;

impl Expansion for UnchangedStrength {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "unchanged-strength".into(),
            name: "Unchanged strength".into(),
            version: "0.1.0".into(),
            rules: vec![RuleDecl {
                id: "strength".into(),
                point: FIGURE_STRENGTH.into(),
                claims: vec!["follower".into()],
                before: Vec::new(),
                after: Vec::new(),
                doc: "leaves every follower's strength as it is".into(),
            }],
            ..Manifest::default()
        }
    }

    fn figure_strength(&self, _ctx: &Ctx, _figure: FigureId, strength: u32) -> u32 {
        STRENGTHS_ASKED.fetch_add(1, Ordering::Relaxed);
        strength
    }
}

/// A game of random bots with both shipped expansions and the test builders (and `rule`):
/// its events, the final scores and how many followers went home from a feature scored.
fn played(
    rule: Option<Box<dyn Expansion>>,
    seed: u64,
    players: usize,
) -> (Vec<Event>, Vec<i32>, usize) {
    let mut expansions: Vec<Box<dyn Expansion>> = vec![
        Box::new(BaseGame),
        princess_dragon(),
        russian_promos(),
        Box::new(Builders),
    ];
    expansions.extend(rule);
    let rules = Arc::new(Rules::new(expansions, &BTreeMap::new()).expect("rules"));
    let names: Vec<String> = (0..players).map(|p| format!("P{p}")).collect();
    let mut g = bot_game(&rules, &names, &[Strategy::Random], seed).expect("a game");
    g.game.keep_log(true);
    play_out(&mut g.game, &mut g.bots);
    assert!(g.game.is_over());
    assert_eq!(g.game.faults(), &[] as &[String], "seed {seed}");
    let scores = g.game.state.players.iter().map(|p| p.score).collect();
    let log = g.game.take_log();
    let game = &g.game;
    let scored_followers = log
        .iter()
        .filter(|e| {
            matches!(e, Event::FigureReturned { figure, from: Location::Feature(_), why: None }
                if game.rules.is_follower(game.state.figures[*figure as usize].kind))
        })
        .count();
    (log, scores, scored_followers)
}

/// Plays 24 seeds with and without `rule`: the same games; the features scored and the
/// followers that went home from them.
fn same_games(rule: fn() -> Box<dyn Expansion>) -> (usize, usize) {
    let (mut scored, mut followers) = (0, 0);
    for seed in 1..=24 {
        let players = 2 + (seed as usize % 3);
        let (events, scores, _) = played(None, seed, players);
        let (with_rule, scores_with_rule, went_home) = played(Some(rule()), seed, players);
        followers += went_home;
        assert_eq!(scores, scores_with_rule, "seed {seed}");
        assert!(events == with_rule, "seed {seed}: the events differ");
        scored += events
            .iter()
            .filter(|e| matches!(e, Event::FeatureScored { .. }))
            .count();
    }
    (scored, followers)
}

#[test]
fn a_rule_at_feature_worth_that_changes_nothing_changes_no_game() {
    let (scored, _) = same_games(|| Box::new(Unchanged));
    assert!(scored > 24 * 10, "features scored: {scored}");
}

#[test]
fn a_rule_at_figure_strength_that_changes_nothing_changes_no_game() {
    let (scored, followers) = same_games(|| Box::new(UnchangedStrength));
    assert!(scored > 24 * 10, "features scored: {scored}");
    // Every follower in a feature scored was counted in its majority, so asked about.
    let asked = STRENGTHS_ASKED.load(Ordering::Relaxed);
    assert!(
        followers > 100 && asked >= followers,
        "asked about {asked} followers; {followers} went home from features scored"
    );
}
