//! The volcano and the dragon: PD-2, PD-3, PD-4 … PD-10 and options PD-OPT-1, PD-OPT-4,
//! PD-OPT-6.

use carc_core::engine::{Action, Arg, Command};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FigureId, Location, PlayerId};
use carc_core::geometry::Side;
use carc_core::tiles::TileTypeId;

use crate::memory::Memory;
use crate::names::Ids;

/// The dragon figure.
#[inline]
pub fn dragon_figure(ctx: &Ctx, ids: &Ids) -> Option<FigureId> {
    ids.neutrals.get(ctx.state.players.len())?.0
}

/// The fairy figure.
#[inline]
pub fn fairy_figure(ctx: &Ctx, ids: &Ids) -> Option<FigureId> {
    ids.neutrals.get(ctx.state.players.len())?.1
}

/// The tile (placement index) the dragon is on; `None` before the first volcano (PD-7).
pub fn dragon_tile(ctx: &Ctx, ids: &Ids) -> Option<u32> {
    dragon_figure(ctx, ids).and_then(|f| ctx.state.figure_tile(f))
}

/// The tile the fairy is on.
pub fn fairy_tile(ctx: &Ctx, ids: &Ids) -> Option<u32> {
    fairy_figure(ctx, ids).and_then(|f| ctx.state.figure_tile(f))
}

/// PD-7 and PD-OPT-4: a dragon tile drawn before the dragon is in play is set aside (or put
/// back into the supply), and the player draws again.
pub fn on_draw(ctx: &Ctx, ids: &Ids, tile: TileTypeId, out: &mut Vec<Command>) {
    if dragon_tile(ctx, ids).is_some() || !ids.tile_is(tile, Ids::DRAGON_SYMBOL) {
        return;
    }
    let only_dragon_tiles_left = ctx
        .state
        .pile
        .iter()
        .all(|&t| ids.tile_is(t, Ids::DRAGON_SYMBOL));
    if ids.options.reshuffle_dragon_tiles && !only_dragon_tiles_left {
        out.push(Command::ReturnDrawnToSupply);
    } else {
        out.push(Command::SetAsideDrawn);
    }
}

/// PD-2: a volcano moves the dragon onto it at once; when the dragon first enters play the
/// set-aside dragon tiles go back into the supply (PD-7). A dragon tile sets up the
/// movement the dragon makes in this turn's dragon phase (PD-4).
pub fn on_placed(ctx: &Ctx, ids: &Ids, tile: TileTypeId, out: &mut Vec<Command>) {
    let volcano = ids.tile_is(tile, Ids::VOLCANO);
    let placed = ctx.state.turn.placed;
    if volcano && let (Some(dragon), Some(placed)) = (dragon_figure(ctx, ids), placed) {
        let first = ctx.state.figure_tile(dragon).is_none();
        out.push(Command::MoveFigure {
            figure: dragon,
            to: Location::Tile(placed),
            why: Some("flies to the volcano".into()),
        });
        if first && !ctx.state.set_aside.is_empty() {
            out.push(Command::ReshuffleSetAside);
        }
    }
    if ids.tile_is(tile, Ids::DRAGON_SYMBOL) {
        // The dragon starts its movement where it stands now (on this tile, had it both).
        let start = if volcano {
            placed.filter(|_| dragon_figure(ctx, ids).is_some())
        } else {
            dragon_tile(ctx, ids)
        };
        set_up_movement(ctx, start, out);
        // The dragon's phase runs only in such a turn (it is declared `on_request`).
        if let Ok(phase) = u8::try_from(ids.dragon_phase) {
            out.push(Command::RequestPhase { phase });
        }
    }
}

/// PD-2, PD-3: nothing is deployed on the dragon's tile, by any means (portal included);
/// the fairy does not go there either. A volcano holds the dragon in the turn it is
/// placed; once the dragon has left it, it is an ordinary tile ("at no point may
/// followers occupy the same tile as the dragon").
pub fn forbids(ctx: &Ctx, ids: &Ids, action: &Action) -> bool {
    forbids_with(ctx, ids, dragon_tile(ctx, ids), action)
}

/// [`forbids`], with the dragon's tile worked out by the caller (once for many actions).
pub fn forbids_with(ctx: &Ctx, ids: &Ids, dragon_tile: Option<u32>, action: &Action) -> bool {
    goes_to(ids, dragon_tile.map(|t| nodes_of(ctx, t)).as_ref(), action)
}

/// Whether a deployment or a fairy move goes to one of `nodes` (the dragon's tile's).
pub fn goes_to(ids: &Ids, nodes: Option<&std::ops::Range<NodeId>>, action: &Action) -> bool {
    target(ids, action).is_some_and(|n| nodes.is_some_and(|r| r.contains(&n)))
}

/// The feature a deployment or a fairy move goes to.
pub fn target(ids: &Ids, action: &Action) -> Option<NodeId> {
    match *action {
        Action::Deploy { node, .. } => Some(node),
        Action::Verb {
            verb,
            arg: Arg::Feature(node),
        } if verb == ids.fairy_verb => Some(node),
        _ => None,
    }
}

/// The nodes of a placed tile's features.
pub fn nodes_of(ctx: &Ctx, tile: u32) -> std::ops::Range<NodeId> {
    let pt = ctx.state.board.tiles[tile as usize];
    let n = ctx.rules.tiles.tile(pt.tile).features.len() as NodeId;
    pt.first_node..pt.first_node + n
}

/// PD-4: six steps from `start` (with no start, none). The tiles of the last movement
/// stay in the record until then; they count only in the turn their dragon tile was placed
/// (see [`actions`]).
fn set_up_movement(ctx: &Ctx, start: Option<u32>, out: &mut Vec<Command>) {
    if start.is_none() && Memory::visited(ctx).is_empty() {
        return;
    }
    Memory::start_movement(ctx, start, out);
}

/// Whether the tile placed this turn shows the dragon symbol (PD-4).
fn placed_a_dragon_tile(ctx: &Ctx, ids: &Ids) -> bool {
    let board = &ctx.state.board;
    ctx.state
        .turn
        .placed
        .and_then(|t| board.tiles.get(t as usize))
        .is_some_and(|pt| ids.tile_is(pt.tile, Ids::DRAGON_SYMBOL))
}

/// The sides the dragon may step to now (PD-5, PD-12, PD-OPT-6), one bit per side
/// (`1 << Side::index()`).
pub fn legal_steps(ctx: &Ctx, ids: &Ids) -> u8 {
    let Some(at) = dragon_tile(ctx, ids) else {
        return 0;
    };
    let fairy = fairy_tile(ctx, ids)
        .filter(|_| !ids.options.fairy_blocks_eating_only)
        .map_or(-1, i64::from);
    let board = &ctx.state.board;
    // The tile on each side (-1: none), and whether the dragon may not go there:
    // worked out side by side without early exits (these tests follow no pattern).
    let mut around = [-1i64; 4];
    let mut barred = [false; 4];
    for (i, side) in Side::ALL.into_iter().enumerate() {
        around[i] = board.neighbour(at, side).map_or(-1, i64::from);
        barred[i] = (around[i] == -1) | (around[i] == fairy);
    }
    for &seen in Memory::visited(ctx) {
        for (b, &t) in barred.iter_mut().zip(&around) {
            *b |= t == seen;
        }
    }
    barred
        .iter()
        .enumerate()
        .fold(0, |open, (i, &b)| open | u8::from(!b) << i)
}

/// One step per decision, by the player whose step it is, in the turn a dragon tile was
/// placed; a movement that met a dead end is over.
pub fn actions(ctx: &Ctx, ids: &Ids, out: &mut Vec<Action>) {
    if Memory::steps_left(ctx) <= 0 || !placed_a_dragon_tile(ctx, ids) {
        return;
    }
    for i in carc_core::rules::each_bit(u64::from(legal_steps(ctx, ids))) {
        out.push(Action::Verb {
            verb: ids.dragon_verb,
            arg: Arg::Side(Side::ALL[i]),
        });
    }
}

/// PD-5, PD-6: the dragon steps onto a tile and eats what is edible there; the next
/// step is the next player's.
pub fn step(ctx: &Ctx, ids: &Ids, arg: Arg, out: &mut Vec<Command>) {
    let Arg::Side(side) = arg else { return };
    // The engine applies only an offered step (see `actions`), so the tile is there.
    let Some(dragon) = dragon_figure(ctx, ids) else {
        return;
    };
    let board = &ctx.state.board;
    let Some(to) = ctx
        .state
        .figure_tile(dragon)
        .and_then(|at| board.neighbour(at, side))
    else {
        return;
    };
    out.push(Command::MoveFigure {
        figure: dragon,
        to: Location::Tile(to),
        why: None,
    });
    Memory::record_step(ctx, to, out);
    let players = ctx.state.players.len();
    let next = (ctx.state.turn.decider as usize + 1) % players;
    out.push(Command::SetDecider {
        player: next as PlayerId,
    });
    for f in edible_on(ctx, ids, to) {
        out.push(Command::ReturnFigure {
            figure: f,
            why: Some("eaten by the dragon".into()),
        });
    }
}

/// The figures the dragon eats on a tile (PD-6, PD-8, PD-12, PD-OPT-6).
pub fn edible_on<'a>(
    ctx: &Ctx<'a>,
    ids: &'a Ids,
    tile: u32,
) -> impl Iterator<Item = FigureId> + 'a {
    let state = ctx.state;
    // The fairy's tile is safe (PD-12; under PD-OPT-6 the dragon may enter it, not eat).
    let guarded = fairy_tile(ctx, ids) == Some(tile);
    let figures = if guarded { &[][..] } else { &state.figures[..] };
    // On the tile (on one of its features or on the tile itself): one number per figure,
    // compared without a branch (where figures stand follows no pattern).
    figures.iter().enumerate().filter_map(move |(f, fig)| {
        let here = fig.tile == tile;
        let edible = || ids.edible.get(fig.kind as usize).copied().unwrap_or(false);
        (here && edible() && !sheltered(state, ids, fig.at)).then_some(f as FigureId)
    })
}

/// Whether a figure stands in a place that keeps it safe (PD-8, X-5): a feature whose
/// kind is declared a shelter.
fn sheltered(state: &carc_core::engine::GameState, ids: &Ids, at: Location) -> bool {
    let Location::Feature(n) = at else {
        return false;
    };
    let kind = state.board.graph.node(n).kind;
    ids.shelter.get(kind as usize).copied().unwrap_or(false)
}
