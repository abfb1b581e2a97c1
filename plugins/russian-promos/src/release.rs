//! RP-9: instead of deploying, return one of your trapped followers to your supply (not
//! in the turn it was trapped).

use carc_sdk::{Action, Arg, Command, FigureClass, FigureId, Offers, Out, Place, TileId, View};

use crate::memory;
use crate::names::Ids;

/// The current player's followers that may be released now: `(trap tile, figure)`.
/// Only followers: a trapped builder or pig stays (RP-8, RP-9).
pub fn releasable(view: &View) -> Vec<(TileId, FigureId)> {
    let record = view.record();
    let mut trapped = memory::trapped(record).peekable();
    if trapped.peek().is_none() {
        return Vec::new();
    }
    let (player, turn) = (view.current_player(), view.turn());
    let mut out: Vec<(TileId, FigureId)> = trapped
        .filter(|&(_, trapped_in)| trapped_in < turn)
        .filter(|&(f, _)| {
            let figure = view.figure(f);
            figure.owner == Some(player) && view.figure_class(figure.kind) == FigureClass::Follower
        })
        .filter_map(|(f, _)| match view.figure_place(f) {
            Place::Tile(t) => Some((t, f)),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out
}

/// One `release = [x, y]` per trap tile holding a releasable follower of yours.
pub fn actions(view: &View, ids: &Ids, out: &mut Offers) {
    if view.figure_step_done() || view.placed_tile().is_none() {
        return;
    }
    let mut tiles: Vec<TileId> = releasable(view).into_iter().map(|(t, _)| t).collect();
    tiles.dedup();
    for t in tiles {
        out.push(Action::Verb {
            verb: ids.release,
            arg: Arg::Pos(view.tile_pos(t)),
        });
    }
}

/// Returns the first releasable follower on that trap tile; the figure step is over.
pub fn apply(view: &View, ids: &Ids, action: &Action, out: &mut Out) {
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
    let Some(tile) = view.tile_at(pos) else {
        return;
    };
    if let Some(&(_, f)) = releasable(view).iter().find(|(t, _)| *t == tile) {
        out.push(Command::ReturnFigure {
            figure: f,
            why: Some("released from the trap"),
        });
        out.push(Command::FigureStepDone);
    }
}
