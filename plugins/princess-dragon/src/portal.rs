//! The magic portal: PD-16.

use carc_core::base::is_complete;
use carc_core::engine::{Action, Command};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FOLLOWER, FigureKindId};
use carc_core::tiles::KindShape;

use crate::names::Ids;

/// After placing a portal tile, a follower may go onto any unoccupied, uncompleted feature
/// of any tile on the board (the portal tile's own features are the base game's offer; the
/// dragon's tile is left out, PD-3).
pub fn actions(ctx: &Ctx, ids: &Ids, out: &mut Vec<Action>) {
    let state = ctx.state;
    let Some(placed) = state.turn.placed else {
        return;
    };
    let pt = state.board.tiles[placed as usize];
    if !ids.tile_is(pt.tile, Ids::PORTAL)
        || state.first_in_supply(state.turn.player, FOLLOWER).is_none()
    {
        return;
    }
    let graph = &state.board.graph;
    // Not onto the dragon's tile (PD-3), and not onto this tile's own features.
    let dragon = crate::dragon::dragon_tile(ctx, ids).map(|t| crate::dragon::nodes_of(ctx, t));
    let own = crate::dragon::nodes_of(ctx, placed);
    let kinds = &ctx.rules.vocab.kinds;
    for node in 0..graph.len() as NodeId {
        if own.contains(&node) || dragon.as_ref().is_some_and(|r| r.contains(&node)) {
            continue;
        }
        let feature = graph.feature(node);
        if feature.occupants() != 0 || feature.is_scored() {
            continue;
        }
        let complete = match kinds.get(feature.kind as usize).map(|k| k.shape) {
            Some(KindShape::Edge { completes }) => completes && feature.open_ends() == 0,
            Some(KindShape::Surrounded) => is_complete(ctx.rules, state, node),
            None => false,
        };
        if !complete {
            out.push(Action::Deploy {
                figure: FOLLOWER,
                node,
            });
        }
    }
}

/// Deploys through the portal.
pub fn apply(ctx: &Ctx, figure: FigureKindId, node: NodeId, out: &mut Vec<Command>) {
    out.push(Command::Deploy {
        player: ctx.state.turn.player,
        figure,
        node,
    });
    out.push(Command::FigureStepDone);
}
