//! The volcano and the dragon: PD-2, PD-3, PD-4 … PD-10 and options PD-OPT-1, PD-OPT-4,
//! PD-OPT-6.

use carc_sdk::{
    Action, Arg, Command, FigureId, Offers, Out, Place, SegmentId, Side, TileId, TileType, View,
    each_bit,
};

use crate::memory::Memory;
use crate::names::Ids;

/// The dragon figure.
#[inline]
pub fn dragon_figure(view: &View, ids: &Ids) -> Option<FigureId> {
    ids.neutrals.get(view.players())?.0
}

/// The fairy figure.
#[inline]
pub fn fairy_figure(view: &View, ids: &Ids) -> Option<FigureId> {
    ids.neutrals.get(view.players())?.1
}

/// The tile the dragon is on; `None` before the first volcano (PD-7).
pub fn dragon_tile(view: &View, ids: &Ids) -> Option<TileId> {
    dragon_figure(view, ids).and_then(|f| view.figure_tile(f))
}

/// The tile the fairy is on.
pub fn fairy_tile(view: &View, ids: &Ids) -> Option<TileId> {
    fairy_figure(view, ids).and_then(|f| view.figure_tile(f))
}

/// PD-7 and PD-OPT-4: a dragon tile drawn before the dragon is in play is set aside (or put
/// back into the supply), and the player draws again. Not when an expansion asked before
/// has set the tile aside or put it back already (it is no longer the drawn tile).
pub fn on_draw(view: &View, ids: &Ids, tile: TileType, out: &mut Out) {
    if !ids.tile_is(tile, Ids::DRAGON_SYMBOL)
        || dragon_tile(view, ids).is_some()
        || view.drawn_tile() != Some(tile)
    {
        return;
    }
    let only_dragon_tiles_left = view
        .supply_tiles()
        .all(|t| ids.tile_is(t, Ids::DRAGON_SYMBOL));
    if ids.options.reshuffle_dragon_tiles && !only_dragon_tiles_left {
        out.push(Command::ReturnDrawnToSupply);
    } else {
        out.push(Command::SetAsideDrawn);
    }
}

/// PD-2: a volcano moves the dragon onto it at once; when the dragon first enters play the
/// set-aside dragon tiles go back into the supply (PD-7). A dragon tile sets up the
/// movement the dragon makes in this turn's dragon phase (PD-4).
pub fn on_placed(view: &View, ids: &Ids, tile: TileType, placed: TileId, out: &mut Out) {
    let volcano = ids.tile_is(tile, Ids::VOLCANO);
    let dragon = dragon_figure(view, ids);
    if volcano && let Some(dragon) = dragon {
        let first = view.figure_tile(dragon).is_none();
        out.push(Command::MoveFigure {
            figure: dragon,
            to: Place::Tile(placed),
            why: Some("moved to the volcano"),
        });
        if first && view.set_aside_count() > 0 {
            out.push(Command::ReshuffleSetAside);
        }
    }
    if ids.tile_is(tile, Ids::DRAGON_SYMBOL) {
        // The dragon starts its movement where it stands now (on this tile, had it both).
        let start = if volcano {
            dragon.map(|_| placed)
        } else {
            dragon_tile(view, ids)
        };
        if start.is_some() || !Memory::visited(view).is_empty() {
            Memory::start_movement(view, start, out);
        }
        // The dragon's phase runs only in such a turn (it is declared `on_request`).
        if let Some(phase) = ids.dragon_phase {
            out.push(Command::RequestPhase { phase });
        }
    }
}

/// PD-2, PD-3: nothing is deployed on the dragon's tile, by any means (portal included);
/// the fairy does not go there either. A volcano holds the dragon in the turn it is
/// placed; once the dragon has left it, it is an ordinary tile ("at no point may
/// followers occupy the same tile as the dragon"). `dragon_segments`: the segments of the
/// dragon's tile.
pub fn goes_to(ids: &Ids, dragon_segments: &[SegmentId], action: &Action) -> bool {
    target(ids, action).is_some_and(|s| dragon_segments.contains(&s))
}

/// The segment a deployment or a fairy move goes to.
pub fn target(ids: &Ids, action: &Action) -> Option<SegmentId> {
    match *action {
        Action::Deploy { segment, .. } => Some(segment),
        Action::Verb {
            verb,
            arg: Arg::Segment(segment),
        } if verb == ids.fairy_verb => Some(segment),
        _ => None,
    }
}

/// Whether the tile placed this turn shows the dragon symbol (PD-4).
fn placed_a_dragon_tile(view: &View, ids: &Ids) -> bool {
    view.placed_tile()
        .is_some_and(|t| ids.tile_is(view.tile_type(t), Ids::DRAGON_SYMBOL))
}

/// What keeps the dragon off a placed tile next to it in the movement under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Barrier {
    /// The fairy stands there (PD-12; not under PD-OPT-6 `eating-only`).
    Fairy,
    /// The movement started there (PD-5).
    Start,
    /// The dragon entered it in this movement (PD-5).
    Entered,
}

/// The tiles the dragon may not enter now: the fairy's and the movement's.
struct Barriers<'a> {
    fairy: Option<TileId>,
    /// The movement's start tile, then the tiles entered, as stored.
    visited: &'a [i64],
}

impl<'a> Barriers<'a> {
    fn now(view: &View<'a>, ids: &Ids) -> Barriers<'a> {
        Barriers {
            fairy: fairy_tile(view, ids).filter(|_| !ids.options.fairy_blocks_eating_only),
            visited: Memory::visited(view),
        }
    }

    /// What keeps the dragon off `tile`, if anything.
    #[inline]
    fn on(&self, tile: TileId) -> Option<Barrier> {
        let t = tile.to_record();
        if self.fairy == Some(tile) {
            Some(Barrier::Fairy)
        } else if self.visited.first() == Some(&t) {
            Some(Barrier::Start)
        } else if self.visited.contains(&t) {
            Some(Barrier::Entered)
        } else {
            None
        }
    }
}

/// The sides the dragon may step to now (PD-5, PD-12, PD-OPT-6), one bit per side
/// (`1 << Side::index()`).
pub fn legal_steps(view: &View, ids: &Ids) -> u8 {
    let Some(at) = dragon_tile(view, ids) else {
        return 0;
    };
    let barriers = Barriers::now(view, ids);
    let mut open = 0u8;
    for (side, next) in Side::ALL.into_iter().zip(view.neighbours(at)) {
        if next.is_some_and(|next| barriers.on(next).is_none()) {
            open |= 1 << side.index();
        }
    }
    open
}

/// Why a dragon step towards `side` is not one (PD-5, PD-12), in words of the board.
pub fn why_not_step(view: &View, ids: &Ids, side: Side) -> String {
    let way = match side {
        Side::N => "north",
        Side::E => "east",
        Side::S => "south",
        Side::W => "west",
    };
    let Some(next) = dragon_tile(view, ids).and_then(|at| view.neighbour(at, side)) else {
        return format!(
            "no tile is placed to the {way} of the dragon, and the dragon steps only onto \
             placed tiles (PD-5)"
        );
    };
    match Barriers::now(view, ids).on(next) {
        Some(Barrier::Fairy) => format!(
            "the fairy's tile is to the {way} of the dragon, and the dragon never enters it (PD-12)"
        ),
        Some(Barrier::Start) => format!(
            "the dragon started this movement from the tile to its {way} and may not return to \
             it (PD-5)"
        ),
        Some(Barrier::Entered) => {
            format!("the dragon has already entered the tile to its {way} in this movement (PD-5)")
        }
        // An open step (offered) is not refused; should one be, the rule in full.
        None => "the dragon steps one tile at a time onto a placed tile, never onto a tile it \
                 entered in this movement, the tile it started from or the fairy's tile (PD-5, \
                 PD-12)"
            .into(),
    }
}

/// One step per decision, by the player whose step it is, in the turn a dragon tile was
/// placed; a movement that met a dead end is over.
pub fn actions(view: &View, ids: &Ids, out: &mut Offers) {
    if Memory::steps_left(view) <= 0 || !placed_a_dragon_tile(view, ids) {
        return;
    }
    for i in each_bit(u64::from(legal_steps(view, ids))) {
        out.push(Action::Verb {
            verb: ids.dragon_verb,
            arg: Arg::Side(Side::ALL[i]),
        });
    }
}

/// PD-5, PD-6: the dragon steps onto a tile and eats what is edible there; the next
/// step is the next player's.
pub fn step(view: &View, ids: &Ids, arg: Arg, out: &mut Out) {
    let Arg::Side(side) = arg else { return };
    // The engine applies only an offered step (see `actions`), so the tile is there.
    let Some(dragon) = dragon_figure(view, ids) else {
        return;
    };
    let Some(to) = view
        .figure_tile(dragon)
        .and_then(|at| view.neighbour(at, side))
    else {
        return;
    };
    out.push(Command::MoveFigure {
        figure: dragon,
        to: Place::Tile(to),
        why: None,
    });
    Memory::record_step(view, to, out);
    let next = (view.decider() as usize + 1) % view.players().max(1);
    out.push(Command::SetDecider { player: next as u8 });
    for f in edible_on(view, ids, to) {
        out.push(Command::ReturnFigure {
            figure: f,
            why: Some("eaten by the dragon"),
        });
    }
}

/// The figures the dragon eats on a tile (PD-6, PD-8, PD-12, PD-OPT-6).
pub fn edible_on(view: &View, ids: &Ids, tile: TileId) -> Vec<FigureId> {
    // The fairy's tile is safe (PD-12; under PD-OPT-6 the dragon may enter it, not eat).
    if fairy_tile(view, ids) == Some(tile) {
        return Vec::new();
    }
    view.figures_on_tile(tile)
        .filter(|&f| ids.is_edible(view.figure(f).kind) && !sheltered(view, ids, f))
        .collect()
}

/// Whether a figure stands in a place that keeps it safe (PD-8, X-5): a feature whose
/// kind is declared a shelter.
fn sheltered(view: &View, ids: &Ids, figure: FigureId) -> bool {
    match view.figure_place(figure) {
        Place::Segment(s) => ids.is_shelter(view.segment_kind(s)),
        _ => false,
    }
}
