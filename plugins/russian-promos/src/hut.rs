//! Baba Yaga's hut: RP-2, RP-3 and option RP-OPT-1.

use carc_sdk::{Command, Out, Pos, Reason, SegmentId, View, each_bit};

use crate::names::Ids;

/// What the base game does when a feature scores `points`: its majority scores them,
/// it is marked scored and the figures in it go home.
pub fn score_feature_worth(view: &View, segment: SegmentId, points: i32, out: &mut Out) {
    for player in each_bit(view.majority(segment)) {
        out.push(Command::Score {
            player: player as u8,
            points,
            reason: Reason::Feature(segment),
        });
    }
    out.push(Command::MarkScored { segment });
    for figure in view.figures_on_feature(segment) {
        out.push(Command::ReturnFigure { figure, why: None });
    }
}

/// RP-2: a hut surrounded by 8 tiles scores 1 point and its follower returns. Only a hut
/// on the placed tile or around it can have just been surrounded; they score in that
/// order (the placed tile first, then the squares around it from the north-west).
pub fn score_completed(view: &View, ids: &Ids, out: &mut Out) {
    let huts = view.segments_of_kind(ids.hut);
    if huts.count_all() == 0 {
        return;
    }
    let Some(placed) = view.placed_tile() else {
        return;
    };
    let centre = view.tile_pos(placed);
    // By order: the placed tile's square, then the squares around it.
    let mut near: [Option<(SegmentId, Pos)>; 9] = [None; 9];
    for hut in huts {
        let pos = view.tile_pos(view.segment_tile(hut));
        let order = if pos == centre {
            Some(0)
        } else {
            centre
                .surrounding()
                .iter()
                .position(|&p| p == pos)
                .map(|i| i + 1)
        };
        if let Some(i) = order {
            near[i] = Some((hut, pos));
        }
    }
    for (hut, pos) in near.into_iter().flatten() {
        if !view.feature(hut).scored && view.tiles_around(pos) == 9 {
            score_feature_worth(view, hut, 1, out);
        }
    }
}

/// RP-3: at the end, an unfinished hut is worth 1 per empty square around it, plus 1 for
/// the hut itself (2015) or nothing (RP-OPT-1 `2013`); a surrounded one not yet scored, 1
/// (RP-2).
pub fn score_final(view: &View, ids: &Ids, out: &mut Out) {
    // The huts someone stands in (a hut is a feature of one segment).
    let huts: Vec<SegmentId> = view
        .segments_of_kind(ids.hut)
        .filter(|&h| view.figures_on_feature(h).count_all() > 0 && !view.feature(h).scored)
        .collect();
    for hut in huts {
        let pos = view.tile_pos(view.segment_tile(hut));
        let empty = pos
            .surrounding()
            .iter()
            .filter(|p| view.tile_at(**p).is_none())
            .count() as i32;
        // A hut surrounded by the last placement (a record stopped before the turn's
        // scoring) is a completed one: 1 point (RP-2), under either option.
        let own = if ids.hut_worth_nothing { 0 } else { 1 };
        let worth = if empty == 0 { 1 } else { empty + own };
        score_feature_worth(view, hut, worth, out);
    }
}
