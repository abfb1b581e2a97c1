//! Baba Yaga's hut: RP-2, RP-3 and option RP-OPT-1.

use carc_core::base::score_feature_worth;
use carc_core::engine::Command;
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::Location;

use crate::names::Ids;

/// RP-2: a hut surrounded by 8 tiles scores 1 point and its follower returns.
pub fn score_completed(ctx: &Ctx, ids: &Ids, out: &mut Vec<Command>) {
    let Some(placed) = ctx.state.turn.placed else {
        return;
    };
    let board = &ctx.state.board;
    let pos = board.tiles[placed as usize].pos;
    let mut squares = vec![pos];
    squares.extend(pos.surrounding());
    for p in squares {
        let Some(i) = board.index_at(p) else { continue };
        let t = board.tiles[i as usize];
        for (f, feat) in ctx.rules.tiles.tile(t.tile).features.iter().enumerate() {
            let node = t.first_node + f as NodeId;
            if feat.kind == ids.hut && !board.graph.is_scored(node) && board.tiles_around(p) == 9 {
                score_feature_worth(ctx, node, 1, out);
            }
        }
    }
}

/// RP-3: at the end, an unfinished hut is worth 1 per empty square around it, plus 1 for
/// the hut itself (2015) or nothing (RP-OPT-1 `2013`).
pub fn score_final(ctx: &Ctx, ids: &Ids, out: &mut Vec<Command>) {
    let state = ctx.state;
    let graph = &state.board.graph;
    let mut huts: Vec<NodeId> = state
        .figures
        .iter()
        .filter_map(|f| match f.at {
            Location::Feature(n) if graph.node(n).kind == ids.hut => Some(graph.root(n)),
            _ => None,
        })
        .filter(|&r| !graph.is_scored(r))
        .collect();
    huts.sort_unstable();
    huts.dedup();
    for hut in huts {
        let pos = state.board.tiles[graph.node(hut).tile as usize].pos;
        let empty = pos
            .surrounding()
            .iter()
            .filter(|p| !state.board.is_placed(**p))
            .count() as i32;
        let own = if ids.hut_worth_nothing { 0 } else { 1 };
        score_feature_worth(ctx, hut, empty + own, out);
    }
}
