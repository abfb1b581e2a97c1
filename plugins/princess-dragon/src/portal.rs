//! The magic portal: PD-16.

use carc_core::base::is_complete;
use carc_core::engine::{Action, Command};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FOLLOWER, FigureKindId};

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
    let dragon = dragon.unwrap_or(0..0);
    // Every node is written and kept only when open: which spots are open follows no
    // pattern, so the tests below avoid branches (only monasteries take one).
    let first = out.len();
    let deploy = |node| Action::Deploy {
        figure: FOLLOWER,
        node,
    };
    out.resize(first + graph.len(), deploy(0));
    let mut kept = first;
    for node in 0..graph.len() as NodeId {
        let feature = graph.feature(node);
        let kind = feature.kind as usize;
        let vacant = (feature.occupants() == 0) & !feature.is_scored();
        let closes = ids.kind_closes.get(kind).copied().unwrap_or(false);
        let mut open = vacant & (!closes | (feature.open_ends() != 0));
        if vacant && ids.kind_surrounded.get(kind).copied().unwrap_or(false) {
            open = !is_complete(ctx.rules, state, node);
        }
        out[kept] = deploy(node);
        kept += usize::from(open & !own.contains(&node) & !dragon.contains(&node));
    }
    out.truncate(kept);
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
