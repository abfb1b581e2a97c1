//! The feature-kind tag `no-figures` (a river): no figure stands on a feature of such a
//! kind. Nothing offered there is legal, whoever offers it; a command putting a figure
//! there is refused; a player asking for it is told why.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Command, Event, EventKind, Game, Setup};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest, TileSource};
use carc_core::features::NodeId;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;
use carc_core::tiles::vocab::{KindDecl, KindShape};

/// A river kind, tagged `no-figures` or not, and a spring tile: the river leaves by the
/// south side, a field all around. With `push`, it also deploys Alice's follower onto the
/// river of every tile placed, by command.
struct River {
    tagged: bool,
    push: bool,
}

/// Offers a deployment onto a segment that does not exist, beside the river.
struct Bogus;

/// Offers a deployment onto every river segment on the board (as the magic portal
/// offers features on any tile).
struct Ferry;

impl Expansion for Ferry {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "ferry".into(),
            name: "Ferry".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        let Ok(river) = ctx.rules.vocab.kind("river") else {
            return;
        };
        if ctx.state.turn.placed.is_some() {
            let graph = &ctx.state.board.graph;
            out.extend(
                (0..graph.len() as NodeId)
                    .filter(|&n| graph.node(n).kind == river)
                    .map(|node| Action::Deploy {
                        figure: carc_core::figures::FOLLOWER,
                        node,
                    }),
            );
        }
    }
}

impl Expansion for Bogus {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "bogus".into(),
            name: "Bogus".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        if ctx.state.turn.placed.is_some() {
            out.push(Action::Deploy {
                figure: carc_core::figures::FOLLOWER,
                node: NodeId::MAX,
            });
        }
    }
}

impl Expansion for River {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "river".into(),
            name: "River".into(),
            version: "0.1.0".into(),
            kinds: vec![KindDecl {
                namespace: "river".into(),
                name: "river".into(),
                shape: KindShape::Edge { completes: true },
                tags: if self.tagged {
                    vec!["no-figures".into()]
                } else {
                    Vec::new()
                },
            }],
            ..Manifest::default()
        }
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        vec![TileSource {
            name: "river.toml".into(),
            text: "expansion = \"river\"\n[[tile]]\nid = \"river:spring\"\ncount = 1\nsides = \
                   [\"field\", \"field\", \"river\", \"field\"]\nfeatures = [\n  { kind = \
                   \"river\", ports = [\"S\"] },\n  { kind = \"field\", ports = [\"NNW\", \
                   \"NNE\", \"ENE\", \"ESE\", \"SSE\", \"SSW\", \"WSW\", \"WNW\"] },\n]\n"
                .into(),
        }]
    }

    fn events(&self) -> EventKinds {
        if self.push {
            EventKinds::of(&[EventKind::TilePlaced])
        } else {
            EventKinds::default()
        }
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        if let Event::TilePlaced {
            player: Some(_),
            pos,
            ..
        } = *event
            && let Some(node) = river_at(ctx.rules, &ctx.state.board, pos)
        {
            out.push(Command::Deploy {
                player: 0,
                figure: carc_core::figures::FOLLOWER,
                node,
            });
        }
    }
}

/// The river's node on the tile at `pos`.
fn river_at(rules: &Rules, board: &carc_core::board::Board, pos: Pos) -> Option<NodeId> {
    let river = rules.vocab.kind("river").ok()?;
    let placed = board.tile_at(pos)?;
    let first = placed.first_node;
    let count = rules.tiles.tile(placed.tile).features.len();
    (first..first + count as NodeId).find(|&n| board.graph.node(n).kind == river)
}

/// Alice places the spring south of the start tile: the game at her figure step, and the
/// river's node.
fn at_the_spring(river: River) -> (Game, NodeId) {
    at_the_spring_with(vec![Box::new(river)])
}

/// [`at_the_spring`] with these expansions beside the base game.
fn at_the_spring_with(expansions: Vec<Box<dyn Expansion>>) -> (Game, NodeId) {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(expansions);
    let rules = Arc::new(Rules::new(all, &BTreeMap::new()).expect("rules"));
    let spring = rules.tiles.get("river:spring").expect("the spring");
    let mut game = Game::new(
        rules.clone(),
        Setup {
            players: vec!["Alice".into(), "Bob".into()],
            listed: 2,
            draw_order: vec![spring, spring],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    game.place("river:spring", Pos::new(0, 1), Rotation::default())
        .expect("the spring fits south of the start tile");
    let node = river_at(&rules, &game.state.board, Pos::new(0, 1)).expect("a river");
    (game, node)
}

fn deploys_onto(game: &mut Game, node: NodeId) -> bool {
    game.legal_actions()
        .iter()
        .any(|a| matches!(a, Action::Deploy { node: n, .. } if *n == node))
}

#[test]
fn no_deployment_onto_a_kind_tagged_no_figures_is_offered_or_allowed() {
    let (mut game, river) = at_the_spring(River {
        tagged: true,
        push: false,
    });
    assert!(!deploys_onto(&mut game, river), "the river is not offered");
    let field = river + 1;
    assert!(deploys_onto(&mut game, field), "the field still is");
    let refused = game
        .apply(&Action::Deploy {
            figure: carc_core::figures::FOLLOWER,
            node: river,
        })
        .expect_err("refused");
    assert!(
        refused.0.contains("no figure may stand on a river"),
        "{refused}"
    );
    // Control: untagged, the base game offers the river like any feature.
    let (mut game, river) = at_the_spring(River {
        tagged: false,
        push: false,
    });
    assert!(deploys_onto(&mut game, river), "untagged, it is offered");
}

#[test]
fn another_expansions_offer_onto_such_a_kind_is_dropped_too() {
    let (mut game, river) = at_the_spring_with(vec![
        Box::new(River {
            tagged: true,
            push: false,
        }),
        Box::new(Ferry),
    ]);
    assert!(!deploys_onto(&mut game, river));
    // Control: untagged, the ferry's offer stands.
    let (mut game, river) = at_the_spring_with(vec![
        Box::new(River {
            tagged: false,
            push: false,
        }),
        Box::new(Ferry),
    ]);
    assert!(deploys_onto(&mut game, river));
}

#[test]
fn a_command_putting_a_figure_there_is_refused_and_changes_nothing() {
    let (game, river) = at_the_spring(River {
        tagged: true,
        push: true,
    });
    assert_eq!(game.state.board.graph.node(river).occupants(), 0);
    assert_eq!(
        game.faults(),
        [
            "expansion `river` gave a command in `on_event` that was refused and changed nothing: \
          it deployed a figure onto a river, where no figure may stand"
        ]
    );
    // Control: untagged, the same command deploys the follower.
    let (game, river) = at_the_spring(River {
        tagged: false,
        push: true,
    });
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    assert_eq!(game.state.board.graph.node(river).occupants(), 1);
}

#[test]
fn an_offer_onto_a_segment_that_does_not_exist_is_left_alone() {
    let (mut game, river) = at_the_spring_with(vec![
        Box::new(River {
            tagged: true,
            push: false,
        }),
        Box::new(Bogus),
    ]);
    assert!(!deploys_onto(&mut game, river));
    assert!(
        deploys_onto(&mut game, NodeId::MAX),
        "offered, not judged here"
    );
    // Carried out by the expansion that offered it (which does nothing here).
    game.apply(&Action::Deploy {
        figure: carc_core::figures::FOLLOWER,
        node: NodeId::MAX,
    })
    .expect("its own move");
    assert_eq!(game.state.board.graph.node(river).occupants(), 0);
}
