//! Solovei Razboynik and Vodyanoy: RP-5 … RP-8, RP-10, RP-11.
//!
//! Both traps act at the decision point `figure-capture`, in the order the manifests
//! declare (Vodyanoy first, RP-11): a figure taken by an earlier rule is no longer there
//! for a later one.
//!
//! What the record remembers ([`Memory`]) is kept equal to what the board shows after
//! every check: the figures the traps may take on Solovei's roads. So a check can only
//! find something new where the board changed: around a Vodyanoy tile just placed or a
//! figure just deployed next to one, on a Solovei road a placed tile joined or a figure
//! was just deployed on. Elsewhere the hooks return at once.

use std::collections::{BTreeMap, VecDeque};

use carc_sdk::{
    Action, Command, FigureClass, FigureId, Out, Place, PlayerId, Port, Pos, Reason, SegmentId,
    TileId, TileType, View,
};

use crate::memory::{self, Memory};
use crate::names::Ids;

/// Where the traps are on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Traps {
    /// The placed tiles carrying Vodyanoy, in placement order.
    pub vodyanoy: Vec<TileId>,
    /// The segments carrying Solovei (on his road), in placement order.
    pub solovei: Vec<SegmentId>,
}

impl Traps {
    /// The traps on the board now (kept by the engine: no board scan).
    pub fn on_board(view: &View, ids: &Ids) -> Traps {
        Traps {
            vodyanoy: view.tiles_with_marker(ids.vodyanoy).collect(),
            solovei: view.segments_with_marker(ids.solovei).collect(),
        }
    }

    /// Whether a placed tile carries Vodyanoy.
    pub fn is_vodyanoy(&self, tile: TileId) -> bool {
        self.vodyanoy.contains(&tile)
    }
}

/// Whether `b` is one of the 8 squares around `a`.
fn around(a: Pos, b: Pos) -> bool {
    a != b && (a.x - b.x).abs() <= 1 && (a.y - b.y).abs() <= 1
}

/// Whether a Vodyanoy tile is on the board.
pub fn any_vodyanoy(view: &View, ids: &Ids) -> bool {
    view.tiles_with_marker(ids.vodyanoy).count_all() > 0
}

/// RP-7: no figure is deployed on the Vodyanoy tile itself, by any means (the portal
/// included): the figures there are its prisoners. Whether `action` deploys on
/// `segment`, a segment of a Vodyanoy tile.
pub fn deploys_on(segment: SegmentId, action: &Action) -> bool {
    matches!(*action, Action::Deploy { segment: s, .. } if s == segment)
}

/// Whether a trap may take this figure: a player's figure of flesh and blood standing on
/// a feature that is no shelter (RP-6, RP-7; the fairy gives no protection), or standing
/// on a tile outside Vodyanoy (a Solovei prisoner, which Vodyanoy takes next to it, RP-8).
fn catchable(view: &View, ids: &Ids, traps: &Traps, f: FigureId) -> bool {
    catchable_kind(view, ids, f)
        && match view.figure_place(f) {
            Place::Segment(s) => !ids.is_shelter(view.segment_kind(s)),
            Place::Tile(t) => !traps.is_vodyanoy(t),
            // In the supply, off the board, or a place this SDK does not know yet.
            _ => false,
        }
}

/// Whether the traps take figures like this one: a player's, of flesh and blood.
fn catchable_kind(view: &View, ids: &Ids, f: FigureId) -> bool {
    let fig = view.figure(f);
    fig.owner.is_some() && ids.is_catchable(fig.kind)
}

/// Whether a figure is a follower (not a special figure such as a builder).
fn is_follower(view: &View, f: FigureId) -> bool {
    view.figure_class(view.figure(f).kind) == FigureClass::Follower
}

/// The square a figure stands on, if it is on the board.
fn figure_pos(view: &View, f: FigureId) -> Option<Pos> {
    view.figure_tile(f).map(|t| view.tile_pos(t))
}

/// RP-8: a Vodyanoy tile next to (8-neighbourhood) a trap tile, which takes the prisoners
/// put there.
fn vodyanoy_next_to(view: &View, traps: &Traps, tile: TileId) -> Option<TileId> {
    if traps.is_vodyanoy(tile) {
        return None;
    }
    let pos = view.tile_pos(tile);
    traps
        .vodyanoy
        .iter()
        .copied()
        .find(|&v| v != tile && around(pos, view.tile_pos(v)))
}

/// RP-7: of the candidates, those on a tile next to (8-neighbourhood) a Vodyanoy tile.
fn vodyanoy_claims(
    view: &View,
    ids: &Ids,
    traps: &Traps,
    candidates: &[FigureId],
) -> Vec<(FigureId, TileId)> {
    let mut out = Vec::new();
    for &v in &traps.vodyanoy {
        let pos = view.tile_pos(v);
        for &f in candidates {
            if catchable(view, ids, traps, f) && figure_pos(view, f).is_some_and(|p| around(pos, p))
            {
                out.push((f, v));
            }
        }
    }
    out
}

/// Figures a trap may take on the road of `segment`.
fn on_road(view: &View, ids: &Ids, traps: &Traps, segment: SegmentId) -> Vec<FigureId> {
    view.figures_on_feature(segment)
        .filter(|&f| catchable(view, ids, traps, f))
        .collect()
}

/// Distance in road tiles, along the road, from the Solovei segment `start` to every
/// segment of its road (RP-5). Counted per segment, not per tile: a tile may hold two
/// segments of one road (a junction's arms joined by a loop), far apart along it.
pub fn road_distances(view: &View, start: SegmentId) -> BTreeMap<SegmentId, u32> {
    let mut dist = BTreeMap::from([(start, 0u32)]);
    let mut queue = VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let t = view.segment_tile(s);
        let ports = view.segment_ports(s);
        for p in Port::ALL.into_iter().filter(|p| ports & p.bit() != 0) {
            let Some(nt) = view.neighbour(t, p.side()) else {
                continue;
            };
            if let Some(j) = view.segment_at(nt, p.facing())
                && view.same_feature(j, start)
                && !dist.contains_key(&j)
            {
                dist.insert(j, d + 1);
                queue.push_back(j);
            }
        }
    }
    dist
}

/// RP-5, RP-6: when a Solovei road holds a follower it did not hold at the last check, the
/// figure(s) closest to the tree (in road tiles) are trapped, special figures included;
/// ties are all trapped. A special figure coming onto the road (a builder) springs
/// nothing: RP-5 names followers.
fn solovei_claims(
    view: &View,
    ids: &Ids,
    traps: &Traps,
    seen: &[FigureId],
    taken: &[(FigureId, TileId)],
) -> Vec<(FigureId, TileId)> {
    let mut out = Vec::new();
    for &road in &traps.solovei {
        let tile = view.segment_tile(road);
        let present: Vec<FigureId> = on_road(view, ids, traps, road)
            .into_iter()
            .filter(|f| !taken.iter().any(|(t, _)| t == f))
            .collect();
        if !present
            .iter()
            .any(|&f| !seen.contains(&f) && is_follower(view, f))
        {
            continue;
        }
        let dist = road_distances(view, road);
        let distance = |f: &FigureId| match view.figure_place(*f) {
            Place::Segment(s) => dist.get(&s).copied().unwrap_or(u32::MAX),
            _ => u32::MAX,
        };
        let Some(closest) = present.iter().map(distance).min() else {
            continue;
        };
        out.extend(
            present
                .iter()
                .filter(|f| distance(f) == closest)
                .map(|&f| (f, tile)),
        );
    }
    out
}

/// Runs both traps in the declared order and moves what they take onto their tiles.
fn capture(view: &View, ids: &Ids, traps: &Traps, vodyanoy_candidates: &[FigureId], out: &mut Out) {
    let mut memory = Memory::load(view.record());
    let mut taken: Vec<(FigureId, TileId)> = Vec::new();
    let order: [bool; 2] = if ids.vodyanoy_first {
        [true, false]
    } else {
        [false, true]
    };
    for vodyanoy in order {
        let claims = if vodyanoy {
            vodyanoy_claims(view, ids, traps, vodyanoy_candidates)
        } else {
            solovei_claims(view, ids, traps, &memory.seen, &taken)
        };
        for (f, t) in claims {
            if !taken.iter().any(|(g, _)| *g == f) {
                taken.push((f, t));
            }
        }
    }
    // RP-8: a figure trapped on a tile next to Vodyanoy is moved on to Vodyanoy, which
    // takes every catchable figure on the tiles around it.
    for (f, t) in &mut taken {
        if catchable_kind(view, ids, *f)
            && let Some(v) = vodyanoy_next_to(view, traps, *t)
        {
            *t = v;
        }
    }
    let mut seen: Vec<FigureId> = traps
        .solovei
        .iter()
        .flat_map(|&road| on_road(view, ids, traps, road))
        .filter(|f| !taken.iter().any(|(g, _)| g == f))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    if taken.is_empty() && seen == memory.seen {
        return;
    }
    memory.seen = seen;
    let turn = view.turn();
    memory
        .trapped
        .retain(|(g, _)| !taken.iter().any(|(f, _)| f == g));
    memory.trapped.extend(taken.iter().map(|&(f, _)| (f, turn)));
    out.push(memory.store());
    // Special figures first: a pig or builder taken with its owner's last follower is
    // trapped with it (RP-6, RP-7), not sent home when that follower leaves first.
    taken.sort_by_key(|&(f, _)| is_follower(view, f));
    for (f, t) in taken {
        let why = if traps.is_vodyanoy(t) {
            "trapped by Vodyanoy"
        } else {
            "trapped by Solovei Razboynik"
        };
        out.push(Command::MoveFigure {
            figure: f,
            to: Place::Tile(t),
            why: Some(why),
        });
    }
}

/// A tile was placed (`placed`, of type `tile`): Vodyanoy's own placement takes
/// everything around it (RP-7); a road joined to Solovei may bring followers to it
/// (RP-5). Any other tile changes nothing for the traps.
pub fn on_tile_placed(view: &View, ids: &Ids, tile: TileType, placed: TileId, out: &mut Out) {
    if ids.is_vodyanoy_tile(tile) {
        let traps = Traps::on_board(view, ids);
        let mut candidates: Vec<FigureId> = Vec::new();
        for p in view.tile_pos(placed).surrounding() {
            if let Some(t) = view.tile_at(p) {
                candidates.extend(view.figures_on_tile(t));
            }
        }
        candidates.sort_unstable();
        capture(view, ids, &traps, &candidates, out);
        return;
    }
    // Whether the placed tile joins a Solovei road (usually there is none, or one): only
    // its segments of the road's kind can.
    let joins = view.segments_with_marker(ids.solovei).any(|road| {
        let kind = view.segment_kind(road);
        ids.tile_has_kind(tile, kind)
            && view
                .segments(placed)
                .zip(ids.kinds_of(tile))
                .any(|(s, &k)| k == kind && view.same_feature(road, s))
    });
    if joins {
        capture(view, ids, &Traps::on_board(view, ids), &[], out);
    }
}

/// A figure was deployed (normally or through a portal): next to Vodyanoy it is taken
/// (RP-7); a follower on Solovei's road traps the figure closest to the tree (RP-5; a
/// special figure there springs nothing). A figure deployed anywhere else changes
/// nothing for the traps.
pub fn on_deployed(view: &View, ids: &Ids, figure: FigureId, out: &mut Out) {
    let mut vodyanoy = view.tiles_with_marker(ids.vodyanoy);
    let mut solovei = view.segments_with_marker(ids.solovei);
    if vodyanoy.count_all() == 0 && solovei.count_all() == 0 {
        return;
    }
    let next_to_vodyanoy = vodyanoy.count_all() > 0
        && figure_pos(view, figure).is_some_and(|p| vodyanoy.any(|v| around(view.tile_pos(v), p)));
    let on_solovei_road = !next_to_vodyanoy
        && solovei.count_all() > 0
        && view
            .figure_place(figure)
            .segment()
            .is_some_and(|s| solovei.any(|road| view.same_feature(road, s)));
    if next_to_vodyanoy || on_solovei_road {
        capture(view, ids, &Traps::on_board(view, ids), &[figure], out);
    }
}

/// A figure left its place: it is no longer "seen" on Solovei's road, and once out of
/// its trap (released, eaten by the dragon) it is no longer a prisoner with a trap turn.
pub fn forget(view: &View, figure: FigureId, out: &mut Out) {
    let record = view.record();
    if record.is_empty() {
        return;
    }
    let (seen, trapped) = memory::parts(record);
    let f = figure.to_record();
    let was_seen = seen.contains(&f);
    let was_trapped = trapped.chunks_exact(2).any(|c| c[0] == f);
    if !was_seen && !was_trapped {
        return;
    }
    let at = view.figure_place(figure);
    let leaves_seen = was_seen && !matches!(at, Place::Segment(_));
    let leaves_trap = was_trapped && !matches!(at, Place::Tile(_));
    if !leaves_seen && !leaves_trap {
        return;
    }
    let mut memory = Memory::load(record);
    if leaves_seen {
        memory.seen.retain(|&g| g != figure);
    }
    if leaves_trap {
        memory.trapped.retain(|(g, _)| *g != figure);
    }
    out.push(memory.store());
}

/// RP-10: −2 points for each follower still trapped on Vodyanoy; Solovei's prisoners
/// score nothing.
pub fn score_final(view: &View, ids: &Ids, out: &mut Out) {
    let mut traps: Vec<TileId> = view.tiles_with_marker(ids.vodyanoy).collect();
    traps.sort_unstable();
    traps.dedup();
    let mut penalty: BTreeMap<PlayerId, i32> = BTreeMap::new();
    for v in traps {
        for f in view.figures_on_tile(v) {
            let fig = view.figure(f);
            if view.figure_place(f) == Place::Tile(v)
                && let Some(owner) = fig.owner
                && ids.is_follower(fig.kind)
            {
                *penalty.entry(owner).or_default() -= 2;
            }
        }
    }
    for (player, points) in penalty {
        out.push(Command::Score {
            player,
            points,
            reason: Reason::Text("followers trapped by Vodyanoy"),
        });
    }
}
