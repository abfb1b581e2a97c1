//! The princess: PD-17, PD-18 and option PD-OPT-2.

use carc_sdk::{Action, Arg, Command, FigureClass, FigureId, Offers, Out, Place, SegmentId, View};

use crate::names::Ids;

/// Whether the tile placed this turn has a princess city.
fn placed_a_princess(view: &View, ids: &Ids) -> bool {
    view.placed_tile()
        .is_some_and(|t| ids.tile_is(view.tile_type(t), Ids::PRINCESS))
}

/// The knights a princess placed this turn may remove: `(segment they stand on, figure)`.
pub fn removable_knights(view: &View, ids: &Ids) -> Vec<(SegmentId, FigureId)> {
    if !placed_a_princess(view, ids) {
        return Vec::new();
    }
    let Some(placed) = view.placed_tile() else {
        return Vec::new();
    };
    let mut knights: Vec<(SegmentId, FigureId)> = Vec::new();
    for city in view.segments(placed) {
        if Some(view.segment_kind(city)) != ids.city || !view.segment_has_marker(city, ids.princess)
        {
            continue;
        }
        for fig in view.figures_on_feature(city) {
            let class = view.figure_class(view.figure(fig).kind);
            if let (FigureClass::Follower, Place::Segment(s)) = (class, view.figure_place(fig))
                && !knights.iter().any(|&(m, _)| m == s)
            {
                knights.push((s, fig));
            }
        }
    }
    knights.sort_unstable();
    knights
}

/// PD-17: remove one knight of the city the princess joined (one move per knight, naming
/// the segment it stands on; a record may name the city through any of its segments).
/// Asked only after a princess tile (see the expansion's `actions`).
pub fn actions(view: &View, ids: &Ids, out: &mut Offers) {
    for (segment, _) in removable_knights(view, ids) {
        out.push(Action::Verb {
            verb: ids.princess_verb,
            arg: Arg::Segment(segment),
        });
    }
}

/// Whether a knight must be removed now (PD-OPT-2 `must`, a knight removable).
pub fn must_remove(view: &View, ids: &Ids) -> bool {
    ids.options.princess_must
        && placed_a_princess(view, ids)
        && !removable_knights(view, ids).is_empty()
}

/// PD-OPT-2 `must`: while a knight must be removed, nothing else may be done.
pub fn forbids_with(ids: &Ids, must_remove: bool, action: &Action) -> bool {
    let is_removal = matches!(action, Action::Verb { verb, .. } if *verb == ids.princess_verb);
    must_remove && !is_removal
}

/// The knight returns to its owner; the figure step is over, and so is every one left in
/// the turn (PD-17: no deployment, no fairy move that turn, not even with a further tile
/// of it).
pub fn apply(view: &View, ids: &Ids, arg: Arg, out: &mut Out) {
    let Arg::Segment(segment) = arg else { return };
    // The knight on the named segment (the engine applies only offered moves, which name
    // the segment a knight stands on).
    let knights = removable_knights(view, ids);
    if let Some(&(_, knight)) = knights.iter().find(|(s, _)| *s == segment) {
        out.push(Command::ReturnFigure {
            figure: knight,
            why: Some("removed by the princess"),
        });
        out.push(Command::FiguresDoneThisTurn);
    }
}
