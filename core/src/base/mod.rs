//! The base game (BASE-1 … BASE-10), written as an expansion like any other: it declares
//! the core phases and the follower, offers placements and deployments, and scores.

pub(crate) mod scoring;

pub use scoring::{
    FeatureValue, farm_cities, feature_points, feature_value, is_complete, score_feature,
    score_feature_worth,
};

use crate::board::Board;
use crate::engine::{Action, Command};
use crate::expansion::{Ctx, Expansion, Hooks, Manifest, PhaseDecl, Placements, TileSource};
use crate::figures::{FOLLOWER, FigureClass, FigureKindDecl};
use crate::geometry::Rotation;
use crate::tiles::kinds;

/// The base game's phases, in turn order.
pub const PHASES: [&str; 6] = [
    "turn-start",
    "draw",
    "place-tile",
    "deploy",
    "score",
    "turn-end",
];

/// The base game's tile data.
pub const TILES_TOML: &str = include_str!("../../../tiledefs/base.toml");

/// The base game's rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct BaseGame;

impl Expansion for BaseGame {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "base".into(),
            name: "Carcassonne (base game)".into(),
            figures: vec![FigureKindDecl {
                namespace: "base".into(),
                name: "follower".into(),
                class: FigureClass::Follower,
                strength: 1,
                per_player: 7,
                neutral: 0,
                tags: vec![crate::tags::FLESH_AND_BLOOD.into()],
            }],
            phases: PHASES
                .iter()
                .map(|p| PhaseDecl {
                    name: p.to_string(),
                    after: None,
                    before: None,
                    when: None,
                    on_request: false,
                })
                .collect(),
            ..Manifest::default()
        }
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        vec![TileSource {
            name: "tiledefs/base.toml".into(),
            text: TILES_TOML.into(),
        }]
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        Hooks {
            enter: matches!(phase, "draw" | "score" | "turn-end"),
            actions: matches!(phase, "place-tile" | "deploy"),
            restricts: false,
            figure_step: phase == "deploy",
        }
    }

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        match ctx.phase {
            "draw" => out.push(Command::DrawTile),
            "score" => scoring::score_completed(ctx, out),
            "turn-end" if ctx.state.pile.is_empty() => out.push(Command::EndGame),
            _ => {}
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        let turn = &ctx.state.turn;
        match ctx.phase {
            "place-tile" => {
                let (Some(tile), None) = (turn.drawn, turn.placed) else {
                    return;
                };
                let t = ctx.rules.tiles.tile(tile);
                let board = &ctx.state.board;
                let all = board.open_squares();
                let squares = match ctx.placements {
                    Placements::Everywhere => all,
                    Placements::At(pos) => {
                        board.open_square(pos).map_or(&[][..], std::slice::from_ref)
                    }
                    Placements::FirstSquare => {
                        let first = all
                            .iter()
                            .position(|sq| Rotation::ALL.iter().any(|&r| Board::fits(t, r, sq)));
                        first.map_or(&[][..], |i| &all[i..=i])
                    }
                };
                #[cfg(test)]
                SQUARES_LISTED.with(|n| n.set(n.get() + squares.len() as u64));
                for sq in squares {
                    for rotation in Rotation::ALL {
                        if Board::fits(t, rotation, sq) {
                            out.push(Action::Place {
                                tile,
                                pos: sq.pos,
                                rotation,
                            });
                        }
                    }
                }
            }
            "deploy" => {
                let Some(placed) = turn.placed else { return };
                if turn.figure_step_done {
                    return;
                }
                out.push(Action::Pass);
                if ctx.state.first_in_supply(turn.player, FOLLOWER).is_none() {
                    return;
                }
                let board = &ctx.state.board;
                let pt = board.tiles[placed as usize];
                let n = ctx.rules.tiles.tile(pt.tile).features.len();
                for f in 0..n {
                    let node = pt.first_node + f as u32;
                    if board.graph.occupants(node) == 0 {
                        out.push(Action::Deploy {
                            figure: FOLLOWER,
                            node,
                        });
                    }
                }
            }
            _ => {}
        }
    }

    fn why_not(&self, ctx: &Ctx, action: &Action) -> Option<String> {
        let turn = &ctx.state.turn;
        let Action::Deploy {
            figure: FOLLOWER,
            node,
        } = *action
        else {
            return None;
        };
        let graph = &ctx.state.board.graph;
        if ctx.phase != "deploy" || turn.figure_step_done || node as usize >= graph.len() {
            return None;
        }
        if Some(graph.node(node).tile) != turn.placed {
            return Some(
                "a follower goes only onto a feature of the tile just placed (BASE-3)".into(),
            );
        }
        if ctx.state.first_in_supply(turn.player, FOLLOWER).is_none() {
            return Some("you have no follower left in your supply".into());
        }
        if graph.occupants(node) != 0 {
            let kind = ctx.rules.vocab.kind_name(graph.node(node).kind);
            // Name what stands there: a follower, or another expansion's figure (a barn).
            let kinds: Vec<_> = ctx
                .state
                .figures_on_feature(node)
                .map(|f| ctx.state.figures[f as usize].kind)
                .collect();
            let there = match kinds.first() {
                Some(&k) if !kinds.iter().any(|&k| ctx.rules.is_follower(k)) => {
                    crate::turnlog::with_article(&ctx.rules.figure_kinds[k as usize].name)
                }
                _ => "a follower".to_string(),
            };
            return Some(format!(
                "that {kind} already holds {there}: a follower goes only onto a feature where \
                 no figure stands (BASE-5)"
            ));
        }
        None
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        match *action {
            Action::Place {
                tile,
                pos,
                rotation,
            } => out.push(Command::PlaceTile {
                tile,
                pos,
                rotation,
            }),
            Action::Pass => out.push(Command::FigureStepDone),
            Action::Deploy { figure, node } => {
                out.push(Command::Deploy {
                    player: ctx.state.turn.player,
                    figure,
                    node,
                });
                out.push(Command::FigureStepDone);
            }
            Action::Verb { .. } => {}
        }
    }

    fn final_scoring(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        scoring::score_final(ctx, out);
    }
}

/// Whether a kind is one the base game scores.
pub fn is_base_kind(kind: u8) -> bool {
    kind <= kinds::MONASTERY
}

// Open squares whose placements the base game listed on this thread (tests count the
// work a move costs with it).
#[cfg(test)]
thread_local! {
    pub(crate) static SQUARES_LISTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
