//! PD-9 / RP-6 / X-2 as a declaration: a figure kind tagged `returns-with-last-follower`
//! (a builder, here from a test-only expansion) goes home when its owner's last follower
//! leaves the feature, whatever rule removed that follower.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Arg, ArgKind, Command, Game, RETURNS_WITH_LAST_FOLLOWER, Setup};
use carc_core::expansion::{Ctx, Expansion, Manifest, VerbDecl};
use carc_core::figures::{FOLLOWER, FigureClass, FigureKindDecl, Location};
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;

/// Test-only: a builder that may join your follower's feature, and a `retreat` move that
/// takes one of your followers home.
struct Builders;

impl Expansion for Builders {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "builders".into(),
            name: "test builders".into(),
            figures: vec![FigureKindDecl {
                namespace: "builders".into(),
                name: "builder".into(),
                class: FigureClass::Special,
                strength: 0,
                per_player: 1,
                neutral: 0,
                tags: vec![RETURNS_WITH_LAST_FOLLOWER.into()],
            }],
            verbs: vec![VerbDecl {
                name: "retreat".into(),
                arg: ArgKind::Feature,
            }],
            ..Manifest::default()
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        let st = ctx.state;
        if ctx.phase != "deploy" || st.turn.figure_step_done {
            return;
        }
        let Some(placed) = st.turn.placed else { return };
        let pt = st.board.tiles[placed as usize];
        for f in 0..ctx.rules.tiles.tile(pt.tile).features.len() as u32 {
            let node = pt.first_node + f;
            let mine = st.figures_on_feature(node).any(|x| {
                let fig = st.figures[x as usize];
                fig.owner == st.turn.player && fig.kind == FOLLOWER
            });
            if mine {
                out.push(Action::Deploy { figure: 1, node });
            }
        }
        for (i, fig) in st.figures.iter().enumerate() {
            if let (Location::Feature(n), true) =
                (fig.at, fig.owner == st.turn.player && fig.kind == FOLLOWER)
            {
                let _ = i;
                out.push(Action::Verb {
                    verb: 0,
                    arg: Arg::Feature(n),
                });
            }
        }
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        let player = ctx.state.turn.player;
        match *action {
            Action::Deploy { figure, node } => {
                out.push(Command::Deploy {
                    player,
                    figure,
                    node,
                });
            }
            Action::Verb {
                arg: Arg::Feature(n),
                ..
            } => {
                let f = ctx
                    .state
                    .figures
                    .iter()
                    .position(|f| f.owner == player && f.at == Location::Feature(n))
                    .expect("the follower") as u16;
                out.push(Command::ReturnFigure {
                    figure: f,
                    why: None,
                });
            }
            _ => return,
        }
        out.push(Command::FigureStepDone);
    }
}

fn place(game: &mut Game, id: &str, x: i32, y: i32, r: u8) {
    let tile = game.rules.tiles.get(id).expect("tile");
    game.apply(&Action::Place {
        tile,
        pos: Pos::new(x, y),
        rotation: Rotation::quarter_turns(r),
    })
    .expect("placement");
}

fn road_node(game: &Game, x: i32, y: i32) -> u32 {
    let t = game.state.board.tile_at(Pos::new(x, y)).expect("tile");
    t.first_node // base:U: feature 0 is the road
}

#[test]
fn a_builder_goes_home_with_its_owners_last_follower() {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Builders)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let u = rules.tiles.get("base:U").expect("U");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into()],
            draw_order: vec![u, u, u, u],
            seed: 0,
        },
    )
    .expect("game");
    // Alice's thief on the road through (1, 0); then her builder joins it from (2, 0).
    place(&mut game, "base:U", 1, 0, 0);
    let road1 = road_node(&game, 1, 0);
    game.apply(&Action::Deploy {
        figure: FOLLOWER,
        node: road1,
    })
    .expect("thief");
    place(&mut game, "base:U", 2, 0, 0);
    let road2 = road_node(&game, 2, 0);
    game.apply(&Action::Deploy {
        figure: 1,
        node: road2,
    })
    .expect("builder");
    let builder = game
        .state
        .figures
        .iter()
        .position(|f| f.kind == 1)
        .expect("builder");
    assert_eq!(game.state.figures[builder].at, Location::Feature(road2));
    // The thief leaves (by any rule): the builder leaves with it.
    place(&mut game, "base:U", 3, 0, 0);
    game.apply(&Action::Verb {
        verb: 0,
        arg: Arg::Feature(road1),
    })
    .expect("retreat");
    assert_eq!(game.state.figures[builder].at, Location::Supply);
    assert_eq!(game.state.in_supply(0, FOLLOWER), 7);
}
