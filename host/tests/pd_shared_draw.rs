//! PD-7 beside another expansion that also reacts to a drawn tile: when an expansion
//! asked before The Princess and the Dragon has set a dragon tile aside already, the
//! dragon's rule leaves it there (the tile is no longer the drawn one) instead of asking
//! to set aside a tile that is not drawn, which the engine refuses, stopping the game.
//! Asked in either order, the game is the same.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Command, Event, EventKind, Game, Setup};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;

/// Sets aside every drawn tile whose id starts with `pd:dragon` (as a river
/// expansion sets aside land tiles while the river is laid), unless an expansion asked
/// before has done so.
struct AsideFirst;

impl Expansion for AsideFirst {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "aside-first".into(),
            name: "Aside first".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TileDrawn])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        if let Event::TileDrawn { tile } = *event
            && ctx.state.turn.drawn == Some(tile)
            && ctx.rules.tiles.tile(tile).id.starts_with("pd:dragon")
        {
            out.push(Command::SetAsideDrawn);
        }
    }
}

/// Alice draws a dragon tile before any volcano (set aside, PD-7), then base:U, which she
/// places east of the start tile; the game with the expansions in `order`.
fn game(aside_first: bool) -> Game {
    let mut expansions: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    if aside_first {
        expansions.push(Box::new(AsideFirst));
        expansions.push(common::plugins::princess_dragon());
    } else {
        expansions.push(common::plugins::princess_dragon());
        expansions.push(Box::new(AsideFirst));
    }
    let rules = Arc::new(Rules::new(expansions, &BTreeMap::new()).expect("rules"));
    let t = |id: &str| rules.tiles.get(id).expect("tile");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 2,
            draw_order: vec![t("pd:dragon-city"), t("base:U")],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    game.place("base:U", Pos::new(1, 0), Rotation::default())
        .expect("base:U is drawn once the dragon tile is set aside");
    game.apply(&Action::Pass).expect("pass");
    game
}

#[test]
fn a_dragon_tile_set_aside_by_an_expansion_asked_before_stays_aside() {
    let asked_first = game(true);
    assert!(
        asked_first.faults().is_empty(),
        "{:?}",
        asked_first.faults()
    );
    let dragon = asked_first.rules.tiles.get("pd:dragon-city").expect("tile");
    assert_eq!(asked_first.state.set_aside, [dragon], "set aside once");
    // The other way round: The Princess and the Dragon sets it aside, the other leaves
    // it; the same game.
    let asked_second = game(false);
    assert!(
        asked_second.faults().is_empty(),
        "{:?}",
        asked_second.faults()
    );
    assert_eq!(asked_second.state.set_aside, asked_first.state.set_aside);
    assert_eq!(
        asked_second.state.pile, asked_first.state.pile,
        "the supply"
    );
    assert_eq!(asked_second.state.players, asked_first.state.players);
}
