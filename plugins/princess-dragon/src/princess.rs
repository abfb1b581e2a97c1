//! The princess: PD-17, PD-18 and option PD-OPT-2.

use carc_core::engine::{Action, Arg, Command};
use carc_core::expansion::Ctx;
use carc_core::features::NodeId;
use carc_core::figures::{FigureClass, FigureId, Location};
use carc_core::tiles::kinds;

use crate::names::Ids;

/// Whether the tile placed this turn has a princess city.
fn placed_a_princess(ctx: &Ctx, ids: &Ids) -> bool {
    ctx.state
        .turn
        .placed
        .is_some_and(|t| ids.tile_is(ctx.state.board.tiles[t as usize].tile, Ids::PRINCESS))
}

/// The knights a princess placed this turn may remove: `(node they stand on, figure)`.
pub fn removable_knights(ctx: &Ctx, ids: &Ids) -> Vec<(NodeId, FigureId)> {
    if !placed_a_princess(ctx, ids) {
        return Vec::new();
    }
    let Some(placed) = ctx.state.turn.placed else {
        return Vec::new();
    };
    let pt = ctx.state.board.tiles[placed as usize];
    let tile = ctx.rules.tiles.tile(pt.tile);
    let mut knights = Vec::new();
    for (i, f) in tile.features.iter().enumerate() {
        if f.kind != kinds::CITY || !f.markers.contains(&ids.princess) {
            continue;
        }
        let city = pt.first_node + i as NodeId;
        for fig in ctx.state.figures_on_feature(city) {
            let figure = ctx.state.figures[fig as usize];
            let class = ctx.rules.figure_kinds[figure.kind as usize].class;
            if let (FigureClass::Follower, Location::Feature(n)) = (class, figure.at)
                && !knights.iter().any(|&(m, _)| m == n)
            {
                knights.push((n, fig));
            }
        }
    }
    knights.sort_unstable();
    knights
}

/// PD-17: remove one knight of the city the princess joined (one move per knight, naming
/// the segment it stands on; a record may name the city through any of its segments).
/// Asked only after a princess tile (see the expansion's `actions`).
pub fn actions(ctx: &Ctx, ids: &Ids, out: &mut Vec<Action>) {
    for (node, _) in removable_knights(ctx, ids) {
        out.push(Action::Verb {
            verb: ids.princess_verb,
            arg: Arg::Feature(node),
        });
    }
}

/// PD-OPT-2 `must`: while a knight can be removed, nothing else may be done.
pub fn forbids(ctx: &Ctx, ids: &Ids, action: &Action) -> bool {
    forbids_with(ids, must_remove(ctx, ids), action)
}

/// Whether a knight must be removed now (PD-OPT-2 `must`, a knight removable).
pub fn must_remove(ctx: &Ctx, ids: &Ids) -> bool {
    ids.options.princess_must
        && placed_a_princess(ctx, ids)
        && !removable_knights(ctx, ids).is_empty()
}

/// [`forbids`], with [`must_remove`] worked out by the caller (once for many actions).
pub fn forbids_with(ids: &Ids, must_remove: bool, action: &Action) -> bool {
    let is_removal = matches!(action, Action::Verb { verb, .. } if *verb == ids.princess_verb);
    must_remove && !is_removal
}

/// The knight returns to its owner; the figure step is over (PD-17: no deployment, no
/// fairy move this turn).
pub fn apply(ctx: &Ctx, ids: &Ids, arg: Arg, out: &mut Vec<Command>) {
    let Arg::Feature(node) = arg else { return };
    // The knight on the named segment (the engine applies only offered moves, which name
    // the segment a knight stands on).
    let knights = removable_knights(ctx, ids);
    if let Some(&(_, knight)) = knights.iter().find(|(n, _)| *n == node) {
        out.push(Command::ReturnFigure {
            figure: knight,
            why: Some("removed by the princess".into()),
        });
        out.push(Command::FigureStepDone);
    }
}
