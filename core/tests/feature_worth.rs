//! The decision point `feature-worth`: expansions with a rule there change what a
//! base-game feature is worth when it is scored, one after another in the order their
//! rules are declared in, never in the order the expansions happen to be listed.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Game, Setup};
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::features::NodeId;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::{FEATURE_WORTH, Rules};
use carc_core::tiles::vocab::kinds;

/// An expansion changing the worth of every road: `change` applied to it.
struct RoadWorth {
    id: &'static str,
    change: fn(i32) -> i32,
    /// The rule (`expansion:rule`) its own comes after, if any.
    after: Option<&'static str>,
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
                claims: vec!["road".into()],
                before: Vec::new(),
                after: self.after.iter().map(|r| r.to_string()).collect(),
                doc: "changes what a road is worth".into(),
            }],
            ..Manifest::default()
        }
    }

    fn feature_worth(&self, ctx: &Ctx, node: NodeId, worth: i32) -> i32 {
        if ctx.state.board.graph.node(node).kind == kinds::ROAD {
            (self.change)(worth)
        } else {
            worth
        }
    }
}

fn double() -> RoadWorth {
    RoadWorth {
        id: "double",
        change: |w| w * 2,
        after: None,
    }
}

fn plus_one() -> RoadWorth {
    RoadWorth {
        id: "plus-one",
        change: |w| w + 1,
        after: None,
    }
}

/// Alice places base:U east of the start tile, extending its road, and puts a follower
/// on that road; the supply is then empty, so the game ends and the road (two tiles,
/// incomplete: 2 points under BASE-9) is scored. Alice's score.
fn road_score(expansions: Vec<Box<dyn Expansion>>) -> Result<i32, String> {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(expansions);
    let rules = Arc::new(Rules::new(all, &BTreeMap::new()).map_err(|e| e.to_string())?);
    let tile = rules.tiles.get("base:U").expect("base:U");
    let mut game = Game::new(
        rules,
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 1,
            draw_order: vec![tile],
            seed: 0,
            full_supply: false,
        },
    )?;
    game.place(
        "base:U",
        Pos::new(1, 0),
        Rotation::from_degrees(0).expect("0"),
    )
    .map_err(|e| e.to_string())?;
    let actions = game.legal_actions().to_vec();
    let road = actions
        .into_iter()
        .find(|a| {
            matches!(a, Action::Deploy { node, .. }
                if game.state.board.graph.node(*node).kind == kinds::ROAD)
        })
        .ok_or("no deployment on the road offered")?;
    game.apply(&road).map_err(|e| e.to_string())?;
    assert!(game.is_over(), "the supply is empty");
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    Ok(game.state.players[0].score)
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
