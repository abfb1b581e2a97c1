//! BASE-5: a follower goes only onto a feature where no figure stands. Refused, the
//! player is told what stands there: a follower, or another expansion's figure (a barn).

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Command, Event, EventKind, Game, Setup};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::features::NodeId;
use carc_core::figures::{FOLLOWER, FigureClass, FigureKindDecl};
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;
use carc_core::tiles::vocab::kinds;

/// Puts Alice's barn onto the first field of every tile placed.
struct Barns;

impl Expansion for Barns {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "barns".into(),
            name: "Barns".into(),
            version: "0.1.0".into(),
            figures: vec![FigureKindDecl {
                namespace: "barns".into(),
                name: "barn".into(),
                class: FigureClass::Special,
                strength: 0,
                per_player: 3,
                neutral: 0,
                tags: Vec::new(),
            }],
            ..Manifest::default()
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        if let Event::TilePlaced {
            player: Some(_),
            pos,
            ..
        } = *event
            && let Some(node) = field_at(ctx.rules, &ctx.state.board, pos)
        {
            let barn = ctx
                .rules
                .figure_kinds
                .iter()
                .position(|k| k.name == "barn")
                .expect("the barn");
            out.push(Command::Deploy {
                player: 0,
                figure: barn as u8,
                node,
            });
        }
    }
}

/// The first field's node of the tile at `pos`.
fn field_at(rules: &Rules, board: &carc_core::board::Board, pos: Pos) -> Option<NodeId> {
    let placed = board.tile_at(pos)?;
    let count = rules.tiles.tile(placed.tile).features.len() as NodeId;
    (placed.first_node..placed.first_node + count)
        .find(|&n| board.graph.node(n).kind == kinds::FIELD)
}

/// A game of `tiles` copies of base:U in which Alice has placed the first east of the
/// start tile (her barn on its field), and its rules.
fn placed(tiles: usize) -> (Game, Arc<Rules>) {
    let rules = Arc::new(
        Rules::new(vec![Box::new(BaseGame), Box::new(Barns)], &BTreeMap::new()).expect("rules"),
    );
    let u = rules.tiles.get("base:U").expect("U");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: tiles,
            draw_order: vec![u; tiles],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    game.place("base:U", Pos::new(1, 0), Rotation::default())
        .expect("base:U");
    (game, rules)
}

#[test]
fn a_follower_onto_a_field_holding_a_barn_is_told_so() {
    let (mut game, rules) = placed(2);
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    let field = field_at(&rules, &game.state.board, Pos::new(1, 0)).expect("a field");
    let refused = game
        .apply(&Action::Deploy {
            figure: FOLLOWER,
            node: field,
        })
        .expect_err("refused");
    assert_eq!(
        refused.0,
        "that field already holds a barn: a follower goes only onto a feature where no figure \
         stands (BASE-5)"
    );
}

#[test]
fn the_base_games_final_scoring_leaves_a_field_holding_only_a_barn_to_its_expansion() {
    // One tile: Alice places it (her barn goes onto its field) and passes; the supply is
    // empty, the game ends. No follower is in that field: the base game scores nothing
    // there and the barn stays for its expansion's own final scoring.
    let (mut game, rules) = placed(1);
    game.apply(&Action::Pass).expect("pass");
    assert!(game.is_over());
    let barn = rules
        .figure_kinds
        .iter()
        .position(|k| k.name == "barn")
        .expect("barn") as u8;
    let on_board = game
        .state
        .figures
        .iter()
        .filter(|f| f.kind == barn && matches!(f.at, carc_core::figures::Location::Feature(_)))
        .count();
    assert_eq!(on_board, 1, "the barn is still on its field");
    assert_eq!(game.state.players[0].score, 0);
}
