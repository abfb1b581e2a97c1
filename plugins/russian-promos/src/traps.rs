//! Solovei Razboynik and Vodyanoy: RP-5 … RP-8, RP-10, RP-11.
//!
//! Both traps act at the decision point `figure-capture`, in the order the manifests
//! declare (Vodyanoy first, RP-11): a figure taken by an earlier rule is no longer there
//! for a later one.

use std::collections::{BTreeMap, VecDeque};

use carc_core::engine::{Action, Command, Reason};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FigureClass, FigureId, Location, NEUTRAL};
use carc_core::geometry::Port;

use crate::memory::Memory;
use crate::names::Ids;

/// The placed tiles carrying Vodyanoy.
pub fn vodyanoy_tiles(ctx: &Ctx, ids: &Ids) -> Vec<u32> {
    let board = &ctx.state.board;
    (0..board.tiles.len() as u32)
        .filter(|&t| {
            ctx.rules
                .tiles
                .tile(board.tiles[t as usize].tile)
                .has_marker(ids.vodyanoy)
        })
        .collect()
}

/// Whether a Vodyanoy tile is on the board.
pub fn any_vodyanoy(ctx: &Ctx, ids: &Ids) -> bool {
    let board = &ctx.state.board;
    board
        .tiles
        .iter()
        .any(|t| ctx.rules.tiles.tile(t.tile).has_marker(ids.vodyanoy))
}

/// RP-7: no figure is deployed on the Vodyanoy tile itself, by any means (the portal
/// included): the figures there are its prisoners.
pub fn deploys_on_vodyanoy(ctx: &Ctx, ids: &Ids, action: &Action) -> bool {
    let Action::Deploy { node, .. } = *action else {
        return false;
    };
    let board = &ctx.state.board;
    (node as usize) < board.graph.len() && {
        let tile = board.tiles[board.graph.node(node).tile as usize].tile;
        ctx.rules.tiles.tile(tile).has_marker(ids.vodyanoy)
    }
}

/// Solovei's roads: `(Solovei tile, its road's node)`.
pub fn solovei_roads(ctx: &Ctx, ids: &Ids) -> Vec<(u32, NodeId)> {
    let board = &ctx.state.board;
    let mut out = Vec::new();
    for (t, placed) in board.tiles.iter().enumerate() {
        for (i, f) in ctx
            .rules
            .tiles
            .tile(placed.tile)
            .features
            .iter()
            .enumerate()
        {
            if f.markers.contains(&ids.solovei) {
                out.push((t as u32, placed.first_node + i as NodeId));
            }
        }
    }
    out
}

/// Whether a trap may take this figure: a player's figure of flesh and blood standing on
/// a feature that is no shelter (RP-6, RP-7; the fairy gives no protection), or standing
/// on a tile outside Vodyanoy (a Solovei prisoner, which Vodyanoy takes next to it, RP-8).
fn catchable(ctx: &Ctx, ids: &Ids, f: FigureId) -> bool {
    let fig = ctx.state.figures[f as usize];
    let place_ok = match fig.at {
        Location::Feature(n) => !ids
            .shelter
            .get(ctx.state.board.graph.node(n).kind as usize)
            .copied()
            .unwrap_or(false),
        Location::Tile(t) => !is_vodyanoy(ctx, ids, t),
        Location::Supply | Location::OffBoard => false,
    };
    place_ok && catchable_kind(ids, fig)
}

/// Whether the traps take figures like this one: a player's, of flesh and blood.
fn catchable_kind(ids: &Ids, fig: carc_core::figures::Figure) -> bool {
    fig.owner != NEUTRAL
        && ids
            .catchable
            .get(fig.kind as usize)
            .copied()
            .unwrap_or(false)
}

/// Whether a placed tile carries Vodyanoy.
fn is_vodyanoy(ctx: &Ctx, ids: &Ids, tile: u32) -> bool {
    let board = &ctx.state.board;
    board
        .tiles
        .get(tile as usize)
        .is_some_and(|t| ctx.rules.tiles.tile(t.tile).has_marker(ids.vodyanoy))
}

/// RP-8: a Vodyanoy tile next to (8-neighbourhood) a trap tile, which takes the prisoners
/// put there.
fn vodyanoy_next_to(ctx: &Ctx, ids: &Ids, vodyanoy: &[u32], tile: u32) -> Option<u32> {
    let board = &ctx.state.board;
    let around = board.tiles[tile as usize].pos.surrounding();
    vodyanoy
        .iter()
        .copied()
        .find(|&v| v != tile && around.contains(&board.tiles[v as usize].pos))
        .filter(|_| !is_vodyanoy(ctx, ids, tile))
}

/// RP-7: of the candidates, those on a tile next to (8-neighbourhood) a Vodyanoy tile.
fn vodyanoy_claims(ctx: &Ctx, ids: &Ids, candidates: &[FigureId]) -> Vec<(FigureId, u32)> {
    let board = &ctx.state.board;
    let mut out = Vec::new();
    for v in vodyanoy_tiles(ctx, ids) {
        let around = board.tiles[v as usize].pos.surrounding();
        for &f in candidates {
            let on = ctx.state.figure_pos(f);
            if catchable(ctx, ids, f) && on.is_some_and(|p| around.contains(&p)) {
                out.push((f, v));
            }
        }
    }
    out
}

/// Figures a trap may take on the road of `node`.
fn on_road(ctx: &Ctx, ids: &Ids, node: NodeId) -> Vec<FigureId> {
    ctx.state
        .figures_on_feature(node)
        .filter(|&f| catchable(ctx, ids, f))
        .collect()
}

/// Distance in road tiles from `start` to every tile of the road of `node`.
pub fn road_distances(ctx: &Ctx, node: NodeId, start: u32) -> BTreeMap<u32, u32> {
    let board = &ctx.state.board;
    let graph = &board.graph;
    let root = graph.root(node);
    let mut dist = BTreeMap::from([(start, 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(t) = queue.pop_front() {
        let d = dist[&t];
        let pt = board.tiles[t as usize];
        let tile = ctx.rules.tiles.tile(pt.tile);
        for i in 0..tile.features.len() {
            if graph.root(pt.first_node + i as NodeId) != root {
                continue;
            }
            let ports = tile.board_ports(i as u8, pt.rotation);
            for p in Port::ALL.into_iter().filter(|p| ports & p.bit() != 0) {
                let Some(nt) = board.index_at(pt.pos.step(p.side())) else {
                    continue;
                };
                let nb = board.tiles[nt as usize];
                let joined = ctx
                    .rules
                    .tiles
                    .tile(nb.tile)
                    .feature_at(nb.rotation, p.facing())
                    .is_some_and(|j| graph.root(nb.first_node + j as NodeId) == root);
                if joined && !dist.contains_key(&nt) {
                    dist.insert(nt, d + 1);
                    queue.push_back(nt);
                }
            }
        }
    }
    dist
}

/// RP-5, RP-6: when a Solovei road holds a figure it did not hold at the last check, the
/// figure(s) closest to the tree (in road tiles) are trapped; ties are all trapped.
fn solovei_claims(
    ctx: &Ctx,
    ids: &Ids,
    seen: &[FigureId],
    taken: &[(FigureId, u32)],
) -> Vec<(FigureId, u32)> {
    let mut out = Vec::new();
    for (tile, node) in solovei_roads(ctx, ids) {
        let present: Vec<FigureId> = on_road(ctx, ids, node)
            .into_iter()
            .filter(|f| !taken.iter().any(|(t, _)| t == f))
            .collect();
        if !present.iter().any(|f| !seen.contains(f)) {
            continue;
        }
        let dist = road_distances(ctx, node, tile);
        let distance = |f: &FigureId| {
            ctx.state
                .figure_tile(*f)
                .and_then(|t| dist.get(&t).copied())
                .unwrap_or(u32::MAX)
        };
        let Some(closest) = present.iter().map(distance).min() else {
            continue;
        };
        out.extend(
            present
                .iter()
                .filter(|f| distance(f) == closest)
                .map(|&f| (f, tile)),
        );
    }
    out
}

/// Runs both traps in the declared order and moves what they take onto their tiles.
fn capture(ctx: &Ctx, ids: &Ids, vodyanoy_candidates: &[FigureId], out: &mut Vec<Command>) {
    let mut memory = Memory::load(ctx);
    let mut taken: Vec<(FigureId, u32)> = Vec::new();
    let order: [bool; 2] = if ids.vodyanoy_first {
        [true, false]
    } else {
        [false, true]
    };
    for vodyanoy in order {
        let claims = if vodyanoy {
            vodyanoy_claims(ctx, ids, vodyanoy_candidates)
        } else {
            solovei_claims(ctx, ids, &memory.seen, &taken)
        };
        for (f, t) in claims {
            if !taken.iter().any(|(g, _)| *g == f) {
                taken.push((f, t));
            }
        }
    }
    // RP-8: a figure trapped on a tile next to Vodyanoy is moved on to Vodyanoy, which
    // takes every catchable figure on the tiles around it.
    let vodyanoy = vodyanoy_tiles(ctx, ids);
    for (f, t) in &mut taken {
        if catchable_kind(ids, ctx.state.figures[*f as usize])
            && let Some(v) = vodyanoy_next_to(ctx, ids, &vodyanoy, *t)
        {
            *t = v;
        }
    }
    let mut seen: Vec<FigureId> = solovei_roads(ctx, ids)
        .into_iter()
        .flat_map(|(_, node)| on_road(ctx, ids, node))
        .filter(|f| !taken.iter().any(|(g, _)| g == f))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    if taken.is_empty() && seen == memory.seen {
        return;
    }
    memory.seen = seen;
    let turn = ctx.state.turn.number;
    memory
        .trapped
        .retain(|(g, _)| !taken.iter().any(|(f, _)| f == g));
    memory.trapped.extend(taken.iter().map(|&(f, _)| (f, turn)));
    out.push(memory.store());
    for (f, t) in taken {
        let by = if vodyanoy.contains(&t) {
            "Vodyanoy"
        } else {
            "Solovei Razboynik"
        };
        out.push(Command::MoveFigure {
            figure: f,
            to: Location::Tile(t),
            why: Some(format!("trapped by {by}").into()),
        });
    }
}

/// A tile was placed: Vodyanoy's own placement takes everything around it (RP-7); a
/// road joined to Solovei may bring followers to it (RP-5).
pub fn on_tile_placed(ctx: &Ctx, ids: &Ids, out: &mut Vec<Command>) {
    let Some(placed) = ctx.state.turn.placed else {
        return;
    };
    let board = &ctx.state.board;
    let pt = board.tiles[placed as usize];
    let candidates: Vec<FigureId> = if ctx.rules.tiles.tile(pt.tile).has_marker(ids.vodyanoy) {
        let around = pt.pos.surrounding();
        (0..ctx.state.figures.len() as FigureId)
            .filter(|&f| ctx.state.figure_pos(f).is_some_and(|p| around.contains(&p)))
            .collect()
    } else {
        Vec::new()
    };
    capture(ctx, ids, &candidates, out);
}

/// A figure was deployed (normally or through a portal): next to Vodyanoy it is taken
/// (RP-7); on Solovei's road the closest figure is (RP-5).
pub fn on_deployed(ctx: &Ctx, ids: &Ids, figure: FigureId, out: &mut Vec<Command>) {
    capture(ctx, ids, &[figure], out);
}

/// A figure left its place: it is no longer "seen" on Solovei's road, and once out of
/// its trap (released, eaten by the dragon) it is no longer a prisoner with a trap turn.
pub fn forget(ctx: &Ctx, figure: FigureId, out: &mut Vec<Command>) {
    let mut memory = Memory::load(ctx);
    let at = ctx.state.figures[figure as usize].at;
    let mut changed = false;
    if memory.seen.contains(&figure) && !matches!(at, Location::Feature(_)) {
        memory.seen.retain(|&f| f != figure);
        changed = true;
    }
    if !matches!(at, Location::Tile(_)) && memory.trapped.iter().any(|(f, _)| *f == figure) {
        memory.trapped.retain(|(f, _)| *f != figure);
        changed = true;
    }
    if changed {
        out.push(memory.store());
    }
}

/// RP-10: −2 points for each follower still trapped on Vodyanoy; Solovei's prisoners
/// score nothing.
pub fn score_final(ctx: &Ctx, ids: &Ids, out: &mut Vec<Command>) {
    let traps = vodyanoy_tiles(ctx, ids);
    let mut penalty: BTreeMap<u8, i32> = BTreeMap::new();
    for fig in &ctx.state.figures {
        if let Location::Tile(t) = fig.at
            && traps.contains(&t)
            && fig.owner != NEUTRAL
            && ctx.rules.figure_kinds[fig.kind as usize].class == FigureClass::Follower
        {
            *penalty.entry(fig.owner).or_default() -= 2;
        }
    }
    for (player, points) in penalty {
        out.push(Command::Score {
            player,
            points,
            reason: Reason::Text("followers trapped by Vodyanoy".into()),
        });
    }
}
