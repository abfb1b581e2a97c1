//! Baba Yaga's hut: RP-2, RP-3 and option RP-OPT-1.

use carc_sdk::{Command, Out, Pos, Reason, SegmentId, Side, TileId, View, each_bit};

use crate::names::Ids;
use crate::tile_kinds::TileKinds;

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

/// The tiles on the 3×3 squares centred on a placed tile, row by row from the north-west
/// (the centre is the tile itself), found through neighbours rather than by square.
fn block_of(view: &View, tile: TileId) -> [Option<TileId>; 9] {
    let pos = view.tile_pos(tile);
    let nb = |t: Option<TileId>, side: Side| t.and_then(|t| view.neighbour(t, side));
    let (n, e, s, w) = (
        nb(Some(tile), Side::N),
        nb(Some(tile), Side::E),
        nb(Some(tile), Side::S),
        nb(Some(tile), Side::W),
    );
    // A corner square is next to two of the four: ask one that is there, else the board.
    let corner =
        |a: Option<TileId>, a_to: Side, b: Option<TileId>, b_to: Side, at: Pos| match (a, b) {
            (Some(_), _) => nb(a, a_to),
            (None, Some(_)) => nb(b, b_to),
            (None, None) => view.tile_at(at),
        };
    let Pos { x, y } = pos;
    [
        corner(n, Side::W, w, Side::N, Pos::new(x - 1, y - 1)),
        n,
        corner(n, Side::E, e, Side::N, Pos::new(x + 1, y - 1)),
        w,
        Some(tile),
        e,
        corner(s, Side::W, w, Side::S, Pos::new(x - 1, y + 1)),
        s,
        corner(s, Side::E, e, Side::S, Pos::new(x + 1, y + 1)),
    ]
}

/// RP-2: a hut surrounded by 8 tiles scores 1 point and its follower returns.
pub fn score_completed(view: &View, ids: &Ids, tiles: &TileKinds, out: &mut Out) {
    let Some(placed) = view.placed_tile() else {
        return;
    };
    // The placed tile first, then the squares around it (the order huts score in).
    let block = block_of(view, placed);
    let order = [4, 0, 1, 2, 3, 5, 6, 7, 8];
    for tile in order.into_iter().filter_map(|i| block[i]) {
        let ty = view.tile_type(tile);
        if !tiles.has(view, tile, ty, ids.hut) {
            continue;
        }
        tiles.any_of(view, tile, ty, ids.hut, |hut| {
            if !view.feature(hut).scored && view.tiles_around(view.tile_pos(tile)) == 9 {
                score_feature_worth(view, hut, 1, out);
            }
            false
        });
    }
}

/// RP-3: at the end, an unfinished hut is worth 1 per empty square around it, plus 1 for
/// the hut itself (2015) or nothing (RP-OPT-1 `2013`).
pub fn score_final(view: &View, ids: &Ids, tiles: &TileKinds, out: &mut Out) {
    // The huts someone stands in, in board order (a hut is a feature of one segment).
    let mut huts: Vec<SegmentId> = Vec::new();
    for tile in view.tiles() {
        tiles.any_of(view, tile, view.tile_type(tile), ids.hut, |h| {
            if view.figures_on_feature(h).count_all() > 0 && !view.feature(h).scored {
                huts.push(h);
            }
            false
        });
    }
    huts.sort_unstable();
    huts.dedup();
    for hut in huts {
        let pos = view.tile_pos(view.segment_tile(hut));
        let empty = pos
            .surrounding()
            .iter()
            .filter(|p| view.tile_at(**p).is_none())
            .count() as i32;
        let own = if ids.hut_worth_nothing { 0 } else { 1 };
        score_feature_worth(view, hut, empty + own, out);
    }
}
