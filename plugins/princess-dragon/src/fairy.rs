//! The fairy: PD-11 … PD-15 and options PD-OPT-3, PD-OPT-5.

use carc_core::engine::{Action, Arg, Command, Reason};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FigureClass, FigureId, Location, NO_TILE, PlayerId};

use crate::dragon::{fairy_figure, fairy_tile};
use crate::memory::Memory;
use crate::names::Ids;

fn is_follower(ctx: &Ctx, f: FigureId) -> bool {
    let fig = ctx.state.figures[f as usize];
    ctx.rules.figure_kinds[fig.kind as usize].class == FigureClass::Follower
}

/// PD-11: instead of deploying, move the fairy next to one of your followers on the board
/// (not on the dragon's tile, PD-3):
/// one move per follower, naming the segment it stands on (a record may name its feature
/// on that tile through any other segment; the engine finds the move). Moving it to the
/// follower it already stands next to is no move (a pass does that), so it is not offered;
/// under PD-OPT-3 `on-tile` the fairy stands on a tile, and no move keeps it on its tile.
pub fn actions(ctx: &Ctx, ids: &Ids, out: &mut Vec<Action>) {
    let player = ctx.state.turn.player;
    let figures = &ctx.state.figures;
    let players = ctx.state.players.len();
    // Not onto the dragon's tile (PD-3).
    let dragon = crate::dragon::dragon_tile(ctx, ids).unwrap_or(NO_TILE);
    // Not to where the fairy already is (PD-11).
    let (stays_tile, stays_figure) = if ids.options.fairy_on_tile {
        (fairy_tile(ctx, ids).unwrap_or(NO_TILE), usize::MAX)
    } else {
        let f = Memory::fairy_follower(ctx).map_or(usize::MAX, usize::from);
        (NO_TILE, f)
    };
    for &kind in &ids.follower_kinds {
        let range = ctx.rules.player_figures(kind, player, players);
        let first = range.start;
        let Some(mine) = figures.get(range) else {
            continue;
        };
        for (i, fig) in mine.iter().enumerate() {
            if let Location::Feature(n) = fig.at
                && fig.tile != dragon
                && fig.tile != stays_tile
                && first + i != stays_figure
            {
                out.push(Action::Verb {
                    verb: ids.fairy_verb,
                    arg: Arg::Feature(n),
                });
            }
        }
    }
}

/// Moves the fairy onto the tile of the chosen follower, next to it.
pub fn apply(ctx: &Ctx, ids: &Ids, arg: Arg, out: &mut Vec<Command>) {
    let Arg::Feature(node) = arg else { return };
    let player = ctx.state.turn.player;
    let players = ctx.state.players.len();
    let figures = &ctx.state.figures;
    // The follower on the named segment: the engine applies only offered moves, which
    // name the segment a follower stands on (a record naming another segment of that
    // feature is matched to the offered move by the engine).
    let follower = ids.follower_kinds.iter().find_map(|&kind| {
        let range = ctx.rules.player_figures(kind, player, players);
        let start = range.start;
        let mine = figures.get(range)?;
        let i = mine.iter().position(|f| f.at == Location::Feature(node))?;
        Some(start + i)
    });
    let (Some(follower), Some(fairy)) = (follower, fairy_figure(ctx, ids)) else {
        return;
    };
    let fig = figures[follower];
    out.push(Command::MoveFigure {
        figure: fairy,
        to: Location::Tile(fig.tile),
        why: None,
    });
    Memory::set_fairy_follower(Some((follower as FigureId, fig.moves)), out);
    out.push(Command::FigureStepDone);
}

/// The players the fairy favours for a feature (`None`: any feature), one bit per seat —
/// the owner of the follower it stands next to, or (PD-OPT-3 `on-tile`) everyone with a
/// follower on its tile.
fn favoured(ctx: &Ctx, ids: &Ids, feature: Option<NodeId>) -> u64 {
    let graph = &ctx.state.board.graph;
    let in_feature = |f: FigureId| match (ctx.state.figures[f as usize].at, feature) {
        (Location::Feature(n), Some(root)) => graph.same(n, root),
        (Location::Feature(_), None) => true,
        _ => false,
    };
    let seat = |f: FigureId| 1u64 << ctx.state.figures[f as usize].owner.min(63);
    if ids.options.fairy_on_tile {
        let Some(tile) = fairy_tile(ctx, ids) else {
            return 0;
        };
        ctx.state
            .figures_on_tile(tile)
            .filter(|&f| is_follower(ctx, f) && in_feature(f))
            .fold(0, |seats, f| seats | seat(f))
    } else {
        Memory::fairy_follower(ctx)
            .filter(|&f| in_feature(f))
            .map_or(0, seat)
    }
}

/// The seats in a set of [`favoured`] bits, in seat order.
fn seats(bits: u64) -> impl Iterator<Item = PlayerId> {
    carc_core::rules::each_bit(bits).map(|s| s as PlayerId)
}

/// PD-13: at the start of a turn, 1 point if the fairy stands next to one of the current
/// player's followers (none under PD-OPT-5 `five-on-completion`). A "turn" that could only
/// discard or set aside tiles is no turn: the game ended after the turn in which the last
/// tile was placed (BASE-9), so it gives no point.
pub fn turn_start_point(ctx: &Ctx, ids: &Ids, out: &mut Vec<Command>) {
    if ids.options.fairy_five {
        return;
    }
    let player = ctx.state.turn.player;
    if favoured(ctx, ids, None) & (1 << player.min(63)) != 0 && a_tile_will_be_placed(ctx, ids) {
        out.push(Command::Score {
            player,
            points: 1,
            reason: Reason::Text("the fairy, at the start of the turn".into()),
        });
    }
}

/// Whether a tile left in the supply can be placed this turn: one that fits somewhere and
/// is not set aside (PD-7: dragon tiles wait while the dragon is not in play; nothing is
/// placed while tiles are drawn, so that holds for the whole draw).
fn a_tile_will_be_placed(ctx: &Ctx, ids: &Ids) -> bool {
    let dragon_in_play = crate::dragon::dragon_tile(ctx, ids).is_some();
    ctx.state.pile.iter().rev().any(|&t| {
        let tile = ctx.rules.tiles.tile(t);
        (dragon_in_play || !ids.tile_is(t, Ids::DRAGON_SYMBOL))
            && ctx.state.board.fits_somewhere(tile)
    })
}

/// PD-14, PD-15: when a feature scores with the fairy's follower in it, its owner scores 3
/// (5 for a completed feature under PD-OPT-5), majority or not, final scoring included.
pub fn on_scored(ctx: &Ctx, ids: &Ids, node: NodeId, out: &mut Vec<Command>) {
    let five = ids.options.fairy_five && !ctx.state.ended;
    let points = if five { 5 } else { 3 };
    for player in seats(favoured(ctx, ids, Some(node))) {
        out.push(Command::Score {
            player,
            points,
            reason: Reason::Text("the fairy's bonus".into()),
        });
    }
}
