//! The decision point `final-scoring`: the expansions' final scoring runs after the base
//! game's (BASE-9), in the order their rules there are declared in, never in the order
//! the expansions happen to be listed in. Expansions without a rule there score after
//! those with one, by id.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Command, Event, Game, Reason, Setup};
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::{FINAL_SCORING, Rules};
use carc_core::turnlog::describe;

/// Rules at `final-scoring`: each rule's id with the rules (`expansion:rule`) it goes
/// before.
type Declared = &'static [(&'static str, &'static [&'static str])];

/// Points given at the end: seat, points, what for.
type Points = Vec<(u8, i32, &'static str)>;

/// An expansion with its own final scoring: `score` given the players' scores so far.
struct Ending {
    id: &'static str,
    /// Its rules at `final-scoring`.
    rules: Declared,
    score: fn(&[i32]) -> Points,
}

impl Expansion for Ending {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: self.id.into(),
            name: self.id.into(),
            version: "0.1.0".into(),
            rules: self
                .rules
                .iter()
                .map(|(id, before)| RuleDecl {
                    id: (*id).into(),
                    point: FINAL_SCORING.into(),
                    claims: Vec::new(),
                    before: before.iter().map(|r| r.to_string()).collect(),
                    after: Vec::new(),
                    doc: "scores at the end".into(),
                })
                .collect(),
            ..Manifest::default()
        }
    }

    fn final_scoring(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        let scores: Vec<i32> = ctx.state.players.iter().map(|p| p.score).collect();
        for (player, points, why) in (self.score)(&scores) {
            out.push(Command::Score {
                player,
                points,
                reason: Reason::Text(why.into()),
            });
        }
    }
}

/// Bob scores 10 points at the end.
fn bonus(rules: Declared) -> Ending {
    Ending {
        id: "bonus",
        rules,
        score: |_| vec![(1, 10, "a bonus")],
    }
}

/// At the end, a player ahead of everyone else loses 5 points.
fn tax(rules: Declared) -> Ending {
    Ending {
        id: "tax",
        rules,
        score: |scores| {
            let best = scores.iter().copied().max().unwrap_or(0);
            let leaders: Vec<usize> = (0..scores.len()).filter(|&p| scores[p] == best).collect();
            match leaders[..] {
                [p] => vec![(p as u8, -5, "leading")],
                _ => Vec::new(),
            }
        },
    }
}

/// The game's end: Alice places the only tile (a road curve east of the start tile, so
/// nothing is scored during the game) and deploys nothing; then the final scoring. Bob's final score and the turn log's
/// final-scoring lines.
fn ending(expansions: Vec<Box<dyn Expansion>>) -> Result<(i32, Vec<String>), String> {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(expansions);
    let rules = Arc::new(Rules::new(all, &BTreeMap::new()).map_err(|e| e.to_string())?);
    let drawn = rules.tiles.get("base:V").expect("a tile");
    let mut game = Game::new(
        rules,
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 1,
            draw_order: vec![drawn],
            seed: 0,
            full_supply: false,
        },
    )?;
    game.keep_log(true);
    let none = Rotation::from_degrees(0).expect("a rotation");
    game.place("base:V", Pos::new(1, 0), none)
        .map_err(|e| e.to_string())?;
    game.apply(&Action::Pass).map_err(|e| e.to_string())?;
    assert!(game.is_over(), "the supply is empty");
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    let log = game.take_log();
    let lines = log
        .iter()
        .filter(|e| matches!(e, Event::Scored { .. }))
        .filter_map(|e| describe(&game.rules, &game.state, e))
        .map(|line| line.trim().to_string())
        .collect();
    Ok((game.state.players[1].score, lines))
}

/// Both listings of two expansions.
fn both_ways(a: Ending, b: Ending) -> [Vec<Box<dyn Expansion>>; 2] {
    let (a2, b2) = (
        Ending {
            id: a.id,
            rules: a.rules,
            score: a.score,
        },
        Ending {
            id: b.id,
            rules: b.rules,
            score: b.score,
        },
    );
    [
        vec![Box::new(a), Box::new(b)],
        vec![Box::new(b2), Box::new(a2)],
    ]
}

#[test]
fn final_scoring_follows_the_declared_order_whatever_the_expansions_order() {
    // The bonus first: Bob leads with 10 and is taxed 5.
    for listing in both_ways(bonus(&[("end", &["tax:end"])]), tax(&[("end", &[])])) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(bob, 5, "{lines:?}");
        assert_eq!(
            lines,
            [
                "Bob scores 10 points for a bonus",
                "Bob loses 5 points for leading"
            ],
            "the turn log in the declared order"
        );
    }
    // The tax first: nobody leads yet, so nobody is taxed.
    for listing in both_ways(bonus(&[("end", &[])]), tax(&[("end", &["bonus:end"])])) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(bob, 10, "{lines:?}");
        assert_eq!(lines, ["Bob scores 10 points for a bonus"]);
    }
}

#[test]
fn an_expansion_with_a_rule_there_scores_before_one_without() {
    // `tax` (id after `bonus`) has a rule there and `bonus` none: the tax comes first
    // however they are listed.
    for listing in both_ways(bonus(&[]), tax(&[("end", &[])])) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(bob, 10, "{lines:?}");
    }
    // And the other way round.
    for listing in both_ways(bonus(&[("end", &[])]), tax(&[])) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(bob, 5, "{lines:?}");
    }
}

#[test]
fn rules_there_with_no_order_between_them_follow_each_other_by_id() {
    // They claim nothing, so they may be unordered: `bonus:end` comes before `tax:end`.
    for listing in both_ways(bonus(&[("end", &[])]), tax(&[("end", &[])])) {
        let (bob, _) = ending(listing).expect("a game");
        assert_eq!(bob, 5);
    }
}

#[test]
fn expansions_without_a_rule_there_score_by_id_however_listed() {
    // `bonus` before `tax`: Bob leads with 10 and is taxed 5.
    for listing in both_ways(bonus(&[]), tax(&[])) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(bob, 5, "{lines:?}");
    }
}

#[test]
fn an_expansion_with_two_rules_there_scores_once_where_its_first_stands() {
    // bonus:early, tax:end, bonus:late: the bonus once, before the tax.
    for listing in both_ways(
        bonus(&[("early", &["tax:end"]), ("late", &[])]),
        tax(&[("end", &["bonus:late"])]),
    ) {
        let (bob, lines) = ending(listing).expect("a game");
        assert_eq!(
            lines,
            [
                "Bob scores 10 points for a bonus",
                "Bob loses 5 points for leading"
            ]
        );
        assert_eq!(bob, 5);
    }
}

#[test]
fn a_cycle_there_is_an_error() {
    let listing = vec![
        Box::new(bonus(&[("end", &["tax:end"])])) as Box<dyn Expansion>,
        Box::new(tax(&[("end", &["bonus:end"])])),
    ];
    let err = ending(listing).expect_err("refused");
    assert!(err.contains("final-scoring"), "{err}");
    assert!(
        err.contains("bonus:end") && err.contains("tax:end"),
        "{err}"
    );
}
