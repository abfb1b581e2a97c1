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
    // Asked only after a portal tile (see the expansion's `actions`).
    if state.first_in_supply(state.turn.player, FOLLOWER).is_none() {
        return;
    }
    let graph = &state.board.graph;
    // Not onto this tile's own features (the last nodes of the graph: it was placed last)
    // nor onto the dragon's tile (PD-3): the nodes before the placed tile's, less the
    // dragon's tile's.
    let own = crate::dragon::nodes_of(ctx, placed);
    let before = 0..own.start.min(graph.len() as NodeId);
    let dragon = crate::dragon::dragon_tile(ctx, ids)
        .filter(|&t| t != placed)
        .map_or(0..0, |t| crate::dragon::nodes_of(ctx, t));
    let (head, tail) = if dragon.is_empty() {
        (before, 0..0)
    } else {
        (before.start..dragon.start, dragon.end..before.end)
    };
    // Every node is written and kept only when open: which spots are open follows no
    // pattern, so the tests below avoid branches (only monasteries take one).
    let first = out.len();
    out.resize(first + head.len() + tail.len(), deploy(0));
    let slots = &mut out[first..];
    let kept = open_nodes(ctx, ids, head, slots, 0);
    let kept = open_nodes(ctx, ids, tail, slots, kept);
    out.truncate(first + kept);
}

fn deploy(node: NodeId) -> Action {
    Action::Deploy {
        figure: FOLLOWER,
        node,
    }
}

/// Writes a deployment onto every node of `nodes` into `slots` from `kept` on, keeping
/// those onto open features; returns how many are kept.
fn open_nodes(
    ctx: &Ctx,
    ids: &Ids,
    nodes: std::ops::Range<NodeId>,
    slots: &mut [Action],
    mut kept: usize,
) -> usize {
    let state = ctx.state;
    let graph = &state.board.graph;
    for node in nodes {
        let feature = graph.feature(node);
        let kind = feature.kind as usize;
        let vacant = (feature.occupants() == 0) & !feature.is_scored();
        let mut open = vacant & (!ids.kind_closes[kind] | (feature.open_ends() != 0));
        // Only the kind decides the branch: monasteries are rare, vacancy follows no
        // pattern.
        if ids.kind_surrounded[kind] {
            open = vacant && !is_complete(ctx.rules, state, node);
        }
        slots[kept] = deploy(node);
        kept += usize::from(open);
    }
    kept
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
