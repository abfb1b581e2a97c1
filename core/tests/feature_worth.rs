//! The decision point `feature-worth`: expansions with a rule there change what a
//! base-game feature is worth when it is scored, one after another in the order their
//! rules are declared in, never in the order the expansions happen to be listed.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Command, Event, Game, Reason, Setup};
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::features::NodeId;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::{FEATURE_WORTH, Rules};
use carc_core::tiles::vocab::{KindDecl, KindShape, kinds};
use carc_core::turnlog::describe;

/// An expansion changing the worth of every road (or of the kinds it claims): `change`
/// applied to it.
struct RoadWorth {
    id: &'static str,
    change: fn(i32) -> i32,
    /// The rule (`expansion:rule`) its own comes after, if any.
    after: Option<&'static str>,
    /// The feature kinds its rule claims.
    claims: &'static [&'static str],
}

impl Expansion for RoadWorth {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: self.id.into(),
            name: self.id.into(),
            version: "0.1.0".into(),
            rules: vec![RuleDecl {
                id: "roads".into(),
                point: FEATURE_WORTH.into(),
                claims: self.claims.iter().map(|c| c.to_string()).collect(),
                before: Vec::new(),
                after: self.after.iter().map(|r| r.to_string()).collect(),
                doc: "changes what a road is worth".into(),
            }],
            ..Manifest::default()
        }
    }

    fn feature_worth(&self, _ctx: &Ctx, _node: NodeId, worth: i32) -> i32 {
        // Asked only about the kinds it claims.
        (self.change)(worth)
    }
}

fn double() -> RoadWorth {
    RoadWorth {
        id: "double",
        change: |w| w * 2,
        after: None,
        claims: &["road"],
    }
}

fn plus_one() -> RoadWorth {
    RoadWorth {
        id: "plus-one",
        change: |w| w + 1,
        after: None,
        claims: &["road"],
    }
}

/// A rule that panics when asked, before `plus-one`'s.
struct Panics;

impl Expansion for Panics {
    fn manifest(&self) -> Manifest {
        let mut m = double().manifest();
        m.id = "panics".into();
        m.name = "panics".into();
        m.rules[0].before = vec!["plus-one:roads".into()];
        m
    }

    fn feature_worth(&self, _ctx: &Ctx, _node: NodeId, _worth: i32) -> i32 {
        panic!("a rule at feature-worth panics")
    }
}

/// Alice places `tile` at `at`, turned `degrees`, and puts a follower on its feature of
/// kind `kind`; the supply is then empty, so the game ends (a feature the tile completed
/// is scored at once, an unfinished one at the end).
fn scored(
    expansions: Vec<Box<dyn Expansion>>,
    tile: &str,
    at: Pos,
    degrees: i64,
    kind: u8,
) -> Result<Scored, String> {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(expansions);
    let rules = Arc::new(Rules::new(all, &BTreeMap::new()).map_err(|e| e.to_string())?);
    let drawn = rules.tiles.get(tile).expect("a tile");
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
    game.place(
        tile,
        at,
        Rotation::from_degrees(degrees).expect("a rotation"),
    )
    .map_err(|e| e.to_string())?;
    let actions = game.legal_actions().to_vec();
    let deploy = actions
        .into_iter()
        .find(|a| {
            matches!(a, Action::Deploy { node, .. }
                if game.state.board.graph.node(*node).kind == kind)
        })
        .ok_or("no deployment of that kind offered")?;
    game.apply(&deploy).map_err(|e| e.to_string())?;
    assert!(game.is_over(), "the supply is empty");
    let log = game.take_log();
    let lines = log
        .iter()
        .filter(|e| matches!(e, Event::Scored { .. }))
        .filter_map(|e| describe(&game.rules, &game.state, e))
        .collect();
    Ok(Scored {
        score: game.state.players[0].score,
        faults: game.faults().to_vec(),
        lines,
    })
}

/// What [`scored`] tells of a game.
struct Scored {
    /// Alice's score.
    score: i32,
    /// The engine's faults.
    faults: Vec<String>,
    /// The turn log's lines for the points scored.
    lines: Vec<String>,
}

/// base:U east of the start tile extends its road, unfinished at the end: 2 points under
/// BASE-9.
fn road_game(expansions: Vec<Box<dyn Expansion>>) -> Result<Scored, String> {
    let game = scored(expansions, "base:U", Pos::new(1, 0), 0, kinds::ROAD)?;
    assert!(game.faults.is_empty(), "{:?}", game.faults);
    Ok(game)
}

/// Alice's score in [`road_game`].
fn road_score(expansions: Vec<Box<dyn Expansion>>) -> Result<i32, String> {
    road_game(expansions).map(|g| g.score)
}

/// base:E north of the start tile closes its city: 4 points under BASE-7, scored at once.
fn city_score(expansions: Vec<Box<dyn Expansion>>) -> Result<i32, String> {
    let game = scored(expansions, "base:E", Pos::new(0, -1), 180, kinds::CITY)?;
    assert!(game.faults.is_empty(), "{:?}", game.faults);
    Ok(game.score)
}

#[test]
fn without_a_rule_at_the_point_a_road_scores_as_the_base_game_says() {
    assert_eq!(road_score(Vec::new()), Ok(2));
}

#[test]
fn one_rule_changes_the_worth() {
    assert_eq!(road_score(vec![Box::new(double())]), Ok(4));
    assert_eq!(road_score(vec![Box::new(plus_one())]), Ok(3));
}

#[test]
fn rules_apply_in_their_declared_order_whatever_the_expansions_order() {
    // Doubling after adding one: (2 + 1) × 2.
    let after_plus = || RoadWorth {
        after: Some("plus-one:roads"),
        ..double()
    };
    assert_eq!(
        road_score(vec![Box::new(after_plus()), Box::new(plus_one())]),
        Ok(6)
    );
    assert_eq!(
        road_score(vec![Box::new(plus_one()), Box::new(after_plus())]),
        Ok(6)
    );
    // Adding one after doubling: 2 × 2 + 1.
    let plus_after = || RoadWorth {
        after: Some("double:roads"),
        ..plus_one()
    };
    assert_eq!(
        road_score(vec![Box::new(double()), Box::new(plus_after())]),
        Ok(5)
    );
    assert_eq!(
        road_score(vec![Box::new(plus_after()), Box::new(double())]),
        Ok(5)
    );
}

#[test]
fn two_rules_claiming_roads_with_no_order_are_an_error() {
    let err = road_score(vec![Box::new(double()), Box::new(plus_one())]).expect_err("ambiguous");
    assert!(err.contains(FEATURE_WORTH), "{err}");
    assert!(
        err.contains("double:roads") && err.contains("plus-one:roads"),
        "{err}"
    );
}

#[test]
fn a_rule_is_asked_only_about_the_kinds_it_claims() {
    let cities = || RoadWorth {
        claims: &["city"],
        ..double()
    };
    // A completed city (BASE-7, scored during the game) is doubled; a road is not.
    assert_eq!(city_score(Vec::new()), Ok(4));
    assert_eq!(city_score(vec![Box::new(cities())]), Ok(8));
    assert_eq!(road_score(vec![Box::new(cities())]), Ok(2));
}

#[test]
fn a_rule_that_panics_is_disabled_and_the_next_rule_is_still_asked() {
    let game = scored(
        vec![Box::new(Panics), Box::new(plus_one())],
        "base:U",
        Pos::new(1, 0),
        0,
        kinds::ROAD,
    )
    .expect("the game plays");
    assert_eq!(game.score, 3, "2, kept through the panic, then one more");
    assert_eq!(
        game.lines,
        ["  Alice scores 3 points for a road of 2 tiles (incomplete) under the rules of plus-one"]
    );
    assert_eq!(game.faults.len(), 1, "{:?}", game.faults);
    assert!(
        game.faults[0].starts_with("expansion `panics` panicked in `feature_worth`"),
        "{:?}",
        game.faults
    );
}

#[test]
fn rules_at_the_point_must_claim_feature_kinds_one_per_expansion() {
    let none = RoadWorth {
        claims: &[],
        ..double()
    };
    let err = road_score(vec![Box::new(none)]).expect_err("no claims");
    assert!(
        err.contains("claims nothing; it claims the feature kinds whose worth it changes"),
        "{err}"
    );
    let lake = RoadWorth {
        claims: &["lake"],
        ..double()
    };
    let err = road_score(vec![Box::new(lake)]).expect_err("no such kind");
    assert_eq!(
        err,
        "rule `double:roads` at `feature-worth` claims `lake`, which is not a feature kind \
         of the game"
    );
    /// A kind of its own, claimed at the point: the base game never scores it.
    struct Wells;
    impl Expansion for Wells {
        fn manifest(&self) -> Manifest {
            let mut m = double().manifest();
            m.kinds = vec![KindDecl {
                namespace: "double".into(),
                name: "well".into(),
                shape: KindShape::Surrounded,
                tags: Vec::new(),
            }];
            m.rules[0].claims = vec!["well".into()];
            m
        }
    }
    let err = road_score(vec![Box::new(Wells)]).expect_err("not a base kind");
    assert!(
        err.contains("claims `well`, which the base game does not score"),
        "{err}"
    );
    /// Two rules of one expansion at the point.
    struct Twice;
    impl Expansion for Twice {
        fn manifest(&self) -> Manifest {
            let mut m = double().manifest();
            let mut second = m.rules[0].clone();
            second.id = "cities".into();
            second.claims = vec!["city".into()];
            m.rules.push(second);
            m
        }
    }
    let err = road_score(vec![Box::new(Twice)]).expect_err("two rules");
    assert!(
        err.contains("expansion `double` has more than one rule at `feature-worth`"),
        "{err}"
    );
}

/// A rule that leaves every road's worth as it is (after `double`'s).
fn unchanged() -> RoadWorth {
    RoadWorth {
        id: "unchanged",
        change: |w| w,
        after: Some("double:roads"),
        claims: &["road"],
    }
}

/// An expansion paying a point of its own for every road scored at the end, giving the
/// road as its reason.
struct RoadBonus;

impl Expansion for RoadBonus {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "bonus".into(),
            name: "Bonus".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn final_scoring(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        let road = ctx.state.board.graph.len() as NodeId;
        let road = (0..road).find(|&n| ctx.state.board.graph.node(n).kind == kinds::ROAD);
        if let Some(node) = road {
            out.push(Command::Score {
                player: 0,
                points: 1,
                reason: Reason::Feature { node },
            });
        }
    }
}

#[test]
fn the_turn_log_says_whose_rules_changed_the_worth() {
    let game = road_game(vec![Box::new(double())]).expect("the game plays");
    assert_eq!(
        game.lines,
        ["  Alice scores 4 points for a road of 2 tiles (incomplete) under the rules of double"]
    );
    // Only the rules that changed it: not one that left it as it was.
    let game = road_game(vec![Box::new(double()), Box::new(unchanged())]).expect("the game plays");
    assert_eq!(
        game.lines,
        ["  Alice scores 4 points for a road of 2 tiles (incomplete) under the rules of double"]
    );
    // Several, each after "of".
    let plus_after = RoadWorth {
        after: Some("double:roads"),
        ..plus_one()
    };
    let game = road_game(vec![Box::new(double()), Box::new(plus_after)]).expect("plays");
    assert_eq!(
        game.lines,
        [
            "  Alice scores 5 points for a road of 2 tiles (incomplete) under the rules of \
             double and of plus-one"
        ]
    );
    // A worth the rules leave as the base game's is told as the base game tells it.
    let game =
        road_game(vec![Box::new(unchanged()), Box::new(double_nothing())]).expect("the game plays");
    assert_eq!(
        game.lines,
        ["  Alice scores 2 points for a road of 2 tiles (incomplete)"]
    );
    // Another expansion's own points for the road are its own, not the rules'.
    let game = road_game(vec![Box::new(double()), Box::new(RoadBonus)]).expect("plays");
    assert_eq!(
        game.lines,
        [
            "  Alice scores 4 points for a road of 2 tiles (incomplete) under the rules of \
             double",
            "  Alice scores 1 point for a road of 2 tiles (incomplete)"
        ]
    );
}

/// `double`'s rule, changing nothing (so that `unchanged` has its rule to come after).
fn double_nothing() -> RoadWorth {
    RoadWorth {
        change: |w| w,
        ..double()
    }
}
