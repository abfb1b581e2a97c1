//! RP-9: instead of deploying, return one of your trapped followers to your supply (not
//! in the turn it was trapped).

use carc_core::engine::{Action, Arg, Command};
use carc_core::expansion::Ctx;
use carc_core::figures::{FigureId, Location};

use crate::memory::Memory;
use crate::names::Ids;

/// The current player's followers that may be released now: `(trap tile, figure)`.
pub fn releasable(ctx: &Ctx) -> Vec<(u32, FigureId)> {
    let state = ctx.state;
    let memory = Memory::load(ctx);
    let mut out: Vec<(u32, FigureId)> = memory
        .trapped
        .iter()
        .filter(|&&(f, turn)| {
            let fig = state.figures[f as usize];
            fig.owner == state.turn.player
                && matches!(fig.at, Location::Tile(_))
                && turn < state.turn.number
        })
        .filter_map(|&(f, _)| match state.figures[f as usize].at {
            Location::Tile(t) => Some((t, f)),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out
}

/// One `release = [x, y]` per trap tile holding a releasable follower of yours.
pub fn actions(ctx: &Ctx, ids: &Ids, out: &mut Vec<Action>) {
    let turn = &ctx.state.turn;
    if turn.figure_step_done || turn.placed.is_none() {
        return;
    }
    let mut tiles: Vec<u32> = releasable(ctx).into_iter().map(|(t, _)| t).collect();
    tiles.dedup();
    for t in tiles {
        out.push(Action::Verb {
            verb: ids.release,
            arg: Arg::Pos(ctx.state.board.tiles[t as usize].pos),
        });
    }
}

/// Returns the first releasable follower on that trap tile; the figure step is over.
pub fn apply(ctx: &Ctx, ids: &Ids, action: &Action, out: &mut Vec<Command>) {
    let Action::Verb {
        verb,
        arg: Arg::Pos(pos),
    } = *action
    else {
        return;
    };
    if verb != ids.release {
        return;
    }
    let Some(tile) = ctx.state.board.index_at(pos) else {
        return;
    };
    if let Some(&(_, f)) = releasable(ctx).iter().find(|(t, _)| *t == tile) {
        out.push(Command::ReturnFigure {
            figure: f,
            why: Some("released from the trap".into()),
        });
        out.push(Command::FigureStepDone);
    }
}
