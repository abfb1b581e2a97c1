//! PD-16 with: the magic portal takes any follower, including a figure kind
//! another expansion declares of the follower class (a mayor, a wagon, a large
//! follower), and never a special figure (a builder, a pig). The Princess and the Dragon
//! knows neither figure: the figure's declared class decides.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Game, Setup};
use carc_core::expansion::{Expansion, Manifest};
use carc_core::figures::{FOLLOWER, FigureClass, FigureKindDecl, Location};
use carc_core::fixtures::Builders;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;

/// A follower of another kind (one per player, counting two in majorities), with no
/// rules of its own.
struct LargeFollowers;

impl Expansion for LargeFollowers {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "large-followers".into(),
            name: "Large followers".into(),
            version: "0.1.0".into(),
            figures: vec![FigureKindDecl {
                namespace: "large-followers".into(),
                name: "large-follower".into(),
                class: FigureClass::Follower,
                strength: 2,
                per_player: 1,
                neutral: 0,
                tags: vec!["flesh-and-blood".into()],
            }],
            ..Manifest::default()
        }
    }
}

/// Alice places base:U east of the start tile and passes; Bob places a portal tile south
/// of it (one more tile is left, so the game goes on): the game at Bob's figure step,
/// and the node of the road of base:U (unoccupied, unfinished, on another tile: reachable
/// through the portal).
fn at_the_portal() -> (Game, u32) {
    let rules = Arc::new(
        Rules::new(
            vec![
                Box::new(BaseGame),
                Box::new(Builders),
                Box::new(LargeFollowers),
                common::plugins::princess_dragon(),
            ],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let t = |id: &str| rules.tiles.get(id).expect("tile");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 3,
            draw_order: vec![t("base:U"), t("pd:portal-junction"), t("base:U")],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    game.place("base:U", Pos::new(1, 0), Rotation::default())
        .expect("base:U");
    game.apply(&Action::Pass).expect("pass");
    game.place("pd:portal-junction", Pos::new(0, 1), Rotation::default())
        .expect("the portal tile");
    let road = game
        .state
        .board
        .tile_at(Pos::new(1, 0))
        .expect("U")
        .first_node;
    (game, road)
}

#[test]
fn a_follower_of_another_kind_goes_through_the_portal_and_a_special_figure_does_not() {
    let (mut game, road) = at_the_portal();
    let rules = game.rules.clone();
    let large = rules
        .figure_kinds
        .iter()
        .position(|k| k.name == "large-follower")
        .expect("declared") as u8;
    let builder = Builders::kind(&rules);
    let offered = |game: &mut Game, figure: u8| {
        game.legal_actions()
            .contains(&Action::Deploy { figure, node: road })
    };
    assert!(offered(&mut game, FOLLOWER), "the follower (PD-16)");
    assert!(
        offered(&mut game, large),
        "a follower of another kind (X-3)"
    );
    assert!(!offered(&mut game, builder), "not a builder (X-2)");
    game.apply(&Action::Deploy {
        figure: large,
        node: road,
    })
    .expect("through the portal");
    let bob_large = game
        .state
        .figures
        .iter()
        .find(|f| f.kind == large && f.owner == 1)
        .expect("Bob's large follower");
    assert_eq!(bob_large.at, Location::Feature(road));
    assert!(game.faults().is_empty(), "{:?}", game.faults());
}

#[test]
fn a_record_counts_every_follower_in_supply_and_no_special_figure() {
    // Alice's seven followers and her large follower; her builder is no follower.
    let (game, _) = at_the_portal();
    assert_eq!(game.rules.followers_in_supply(&game.state, 0), 8);
    let builders = game
        .state
        .figures
        .iter()
        .filter(|f| f.owner == 0 && game.rules.figure_kinds[f.kind as usize].name == "builder")
        .count();
    assert_eq!(builders, 1, "she has a builder, not counted");
}
