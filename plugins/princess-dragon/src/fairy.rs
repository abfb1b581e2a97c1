//! The fairy: PD-11 … PD-15 and options PD-OPT-3, PD-OPT-5.

use carc_sdk::{
    Action, Arg, Command, FigureClass, FigureId, Offers, Out, Place, PlayerId, Reason, SegmentId,
    View, each_bit,
};

use crate::dragon::{fairy_figure, fairy_tile};
use crate::memory::Memory;
use crate::names::Ids;

fn is_follower(view: &View, f: FigureId) -> bool {
    view.figure_class(view.figure(f).kind) == FigureClass::Follower
}

/// PD-11: instead of deploying, move the fairy next to one of your followers on the board
/// (not on the dragon's tile, PD-3):
/// one move per follower, naming the segment it stands on (a record may name its feature
/// on that tile through any other segment; the engine finds the move). Moving it to the
/// follower it already stands next to is no move (a pass does that), so it is not offered;
/// under PD-OPT-3 `on-tile` the fairy stands on a tile, and no move keeps it on its tile.
pub fn actions(view: &View, ids: &Ids, out: &mut Offers) {
    let player = view.current_player();
    // Not onto the dragon's tile (PD-3).
    let dragon = crate::dragon::dragon_tile(view, ids);
    // Not to where the fairy already is (PD-11).
    let (stays_tile, stays_figure) = if ids.options.fairy_on_tile {
        (fairy_tile(view, ids), None)
    } else {
        (None, Memory::fairy_follower(view))
    };
    for &kind in &ids.follower_kinds {
        for (f, place, tile) in view.placed_figures_of(player, kind) {
            let Place::Segment(segment) = place else {
                continue;
            };
            if Some(f) == stays_figure {
                continue;
            }
            if Some(tile) != dragon && (stays_tile.is_none() || Some(tile) != stays_tile) {
                out.push(Action::Verb {
                    verb: ids.fairy_verb,
                    arg: Arg::Segment(segment),
                });
            }
        }
    }
}

/// Why a fairy move the player asked for is not one (PD-11, PD-15, PD-17).
pub fn why_not(view: &View, ids: &Ids) -> String {
    if view.figure_step_done() {
        return "the fairy may be moved only instead of deploying a figure, and not after the \
                princess removed a knight (PD-11, PD-17)"
            .into();
    }
    if ids.options.fairy_on_tile {
        "the fairy moves only onto another tile where you have a follower on the board \
         (PD-11, option fairy-placement = on-tile)"
            .into()
    } else {
        "the fairy moves only next to one of your own followers on the board, not the one it \
         already stands next to (PD-11)"
            .into()
    }
}

/// Moves the fairy onto the tile of the chosen follower, next to it.
pub fn apply(view: &View, ids: &Ids, arg: Arg, out: &mut Out) {
    let Arg::Segment(segment) = arg else { return };
    let player = view.current_player();
    // The follower on the named segment: the engine applies only offered moves, which
    // name the segment a follower stands on (a record naming another segment of that
    // feature is matched to the offered move by the engine).
    let follower = ids.follower_kinds.iter().find_map(|&kind| {
        view.placed_figures_of(player, kind)
            .find(|&(_, place, _)| place == Place::Segment(segment))
    });
    let (Some((follower, _, tile)), Some(fairy)) = (follower, fairy_figure(view, ids)) else {
        return;
    };
    out.push(Command::MoveFigure {
        figure: fairy,
        to: Place::Tile(tile),
        why: None,
    });
    Memory::set_fairy_follower(Some((follower, player, view.figure_moves(follower))), out);
    out.push(Command::FigureStepDone);
}

/// The players the fairy favours for a feature (`None`: any feature), one bit per seat —
/// the owner of the follower it stands next to, or (PD-OPT-3 `on-tile`) everyone with a
/// follower on its tile.
fn favoured(view: &View, ids: &Ids, feature: Option<SegmentId>) -> u64 {
    let in_feature = |f: FigureId| match (view.figure_place(f), feature) {
        (Place::Segment(s), Some(scored)) => view.same_feature(s, scored),
        (Place::Segment(_), None) => true,
        _ => false,
    };
    let seat = |f: FigureId| view.figure(f).owner.map_or(0, |p| 1u64 << p.min(63));
    if ids.options.fairy_on_tile {
        let Some(tile) = fairy_tile(view, ids) else {
            return 0;
        };
        view.figures_on_tile(tile)
            .filter(|&f| is_follower(view, f) && in_feature(f))
            .fold(0, |seats, f| seats | seat(f))
    } else {
        // The follower has not moved since the fairy came to it: it stands on a segment.
        let Some((f, owner)) = Memory::fairy_follower_and_owner(view) else {
            return 0;
        };
        if feature.is_some() && !in_feature(f) {
            return 0;
        }
        1u64 << owner.min(63)
    }
}

/// The seats in a set of [`favoured`] bits, in seat order.
fn seats(bits: u64) -> impl Iterator<Item = PlayerId> {
    each_bit(bits).map(|s| s as PlayerId)
}

/// PD-13: at the start of a turn, 1 point if the fairy stands next to one of the current
/// player's followers (none under PD-OPT-5 `five-on-completion`). A "turn" that could only
/// discard or set aside tiles is no turn: the game ended after the turn in which the last
/// tile was placed (BASE-9), so it gives no point.
pub fn turn_start_point(view: &View, ids: &Ids, out: &mut Out) {
    if ids.options.fairy_five {
        return;
    }
    let player = view.current_player();
    if favoured(view, ids, None) & (1 << player.min(63)) != 0 && a_tile_will_be_placed(view, ids) {
        out.push(Command::Score {
            player,
            points: 1,
            reason: Reason::Text("the fairy, at the start of the turn"),
        });
    }
}

/// Whether a tile left in the supply can be placed this turn: one that fits somewhere and
/// is not set aside (PD-7: dragon tiles wait while the dragon is not in play; nothing is
/// placed while tiles are drawn, so that holds for the whole draw).
fn a_tile_will_be_placed(view: &View, ids: &Ids) -> bool {
    let dragon_in_play = crate::dragon::dragon_tile(view, ids).is_some();
    view.supply_tiles()
        .any(|t| (dragon_in_play || !ids.tile_is(t, Ids::DRAGON_SYMBOL)) && view.fits_somewhere(t))
}

/// PD-14, PD-15: when a feature scores with the fairy's follower in it, its owner scores 3
/// (5 for a completed feature under PD-OPT-5, even one scored at the end of the game),
/// majority or not, final scoring included.
pub fn on_scored(view: &View, ids: &Ids, segment: SegmentId, out: &mut Out) {
    let five = ids.options.fairy_five && view.is_complete(segment);
    let points = if five { 5 } else { 3 };
    for player in seats(favoured(view, ids, Some(segment))) {
        out.push(Command::Score {
            player,
            points,
            reason: Reason::Text("the fairy's bonus"),
        });
    }
}
