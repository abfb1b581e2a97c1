//! The magic portal: PD-16.

use carc_sdk::{Action, Command, Feature, FigureKind, Offers, Out, SegmentId, View};

use crate::names::Ids;

/// After placing a portal tile, a follower may go onto any unoccupied, uncompleted feature
/// of any tile on the board (the portal tile's own features are the base game's offer; the
/// dragon's tile is left out, PD-3). Any follower: a figure kind another expansion
/// declares of the follower class (a mayor, a wagon, X-3) goes through the portal too; a
/// special figure (a builder, a pig, X-2) does not.
pub fn actions(view: &View, ids: &Ids, out: &mut Offers) {
    let Some(placed) = view.placed_tile() else {
        return;
    };
    // Asked only after a portal tile (see the expansion's `actions`).
    let player = view.current_player();
    let kinds: Vec<FigureKind> = ids
        .follower_kinds
        .iter()
        .copied()
        .filter(|&k| view.in_supply(player, k) > 0)
        .collect();
    if kinds.is_empty() {
        return;
    }
    let dragon = crate::dragon::dragon_tile(view, ids);
    for (segment, feature, tile) in view.vacant_segments() {
        // Not the portal tile's own (the base game offers those) nor the dragon's (PD-3).
        if tile != placed && Some(tile) != dragon && open(view, ids, segment, feature) {
            for &figure in &kinds {
                out.push(Action::Deploy { figure, segment });
            }
        }
    }
}

/// Whether a follower may go onto a vacant segment's feature: it is not complete (PD-16).
fn open(view: &View, ids: &Ids, segment: SegmentId, feature: Feature) -> bool {
    let kind = feature.kind.index();
    if ids.kind_surrounded.get(kind).copied().unwrap_or(false) {
        return !view.is_complete(segment);
    }
    !ids.kind_closes.get(kind).copied().unwrap_or(false) || feature.open_ends != 0
}

/// Deploys through the portal.
pub fn apply(view: &View, figure: FigureKind, segment: SegmentId, out: &mut Out) {
    out.push(Command::Deploy {
        player: view.current_player(),
        figure,
        segment,
    });
    out.push(Command::FigureStepDone);
}
