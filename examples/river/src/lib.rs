//! The River as a carc expansion plugin, written against the SDK alone: where a river tile
//! may be placed (see README.md for the rules and the tiles).
//!
//! Most of The River is data, which the engine carries out (protocol 1.4):
//!
//! - the spring is the start tile (`start = "river:spring"` in tiles.toml), on (0, 0) in
//!   place of base:D, which joins the supply;
//! - the river's tiles are drawn before the land, the lake last of them (`stack`);
//! - nobody stands on the river (the kind `river` is tagged `no-figures`), and nobody
//!   scores it.
//!
//! The library adds the two rules about the river's course, by forbidding placements of
//! a drawn river tile (and saying why, in `why_not`):
//!
//! - R-1 a river tile continues the river at its open end: it lies on the square the
//!   river flows into, its river against the river;
//! - R-2 no U-turn: a curve must turn the other way from the river's previous curve, with
//!   or without straight stretches between them.
//!
//! It keeps nothing: the river's course is read from the board, from the spring on, with
//! the tiles' sides as the engine knows them (`View::tile_type_side`).

use carc_sdk::{Action, Expansion, Hooks, KindId, Pos, Rotation, Side, TileType, View};

/// The expansion's id.
pub const ID: &str = "river";

/// The expansion, for one set of rules.
pub struct River {
    /// The feature kind `river`.
    river: KindId,
}

/// Which way the river turns on a tile, for someone following its flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Straight on.
    Straight,
    /// To the left (anticlockwise).
    Left,
    /// To the right (clockwise).
    Right,
}

impl Turn {
    /// The turn from flowing out across `from` to flowing out across `to`.
    pub fn between(from: Side, to: Side) -> Turn {
        match (to.index() + 4 - from.index()) % 4 {
            1 => Turn::Right,
            3 => Turn::Left,
            _ => Turn::Straight,
        }
    }

    /// The turn in words.
    pub fn word(self) -> &'static str {
        match self {
            Turn::Straight => "straight on",
            Turn::Left => "left",
            Turn::Right => "right",
        }
    }
}

/// The open end of the river: where the next river tile must go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenEnd {
    /// The empty square the river flows into.
    pub at: Pos,
    /// The board side the river flows out across, towards `at`.
    pub flow: Side,
    /// The way the river's last curve turned (`Straight` while it has none).
    pub last_turn: Turn,
}

impl River {
    /// The board sides on which a tile type, turned by `rotation`, shows the river.
    fn river_sides<'v>(
        &self,
        view: &'v View,
        tile: TileType,
        rotation: Rotation,
    ) -> impl Iterator<Item = Side> + 'v {
        let river = self.river;
        Side::ALL
            .into_iter()
            .filter(move |&side| view.tile_type_side(tile, rotation, side) == river)
    }

    /// Whether tiles of a type carry the river.
    fn is_river_tile(&self, view: &View, tile: TileType) -> bool {
        self.river_sides(view, tile, Rotation::default())
            .next()
            .is_some()
    }

    /// Follows the river from the start tile on (0, 0) down its course: its open end, or
    /// `None` when there is none (it ends in the lake, or the start tile has no river).
    /// The tiles have no forks: a river tile has one river side (the spring, the lake) or
    /// two.
    pub fn open_end(&self, view: &View) -> Option<OpenEnd> {
        let start = view.tile_at(Pos::ORIGIN)?;
        let mut flow = self
            .river_sides(view, view.tile_type(start), view.tile_rotation(start))
            .next()?;
        let mut pos = Pos::ORIGIN;
        let mut last_turn = Turn::Straight;
        // Every step is onto another tile: the walk ends within the board's tiles.
        for _ in 0..=view.tile_count() {
            let at = pos.step(flow);
            let Some(tile) = view.tile_at(at) else {
                return Some(OpenEnd {
                    at,
                    flow,
                    last_turn,
                });
            };
            let inflow = flow.opposite();
            let out = self
                .river_sides(view, view.tile_type(tile), view.tile_rotation(tile))
                .find(|&side| side != inflow)?;
            let turn = Turn::between(flow, out);
            if turn != Turn::Straight {
                last_turn = turn;
            }
            flow = out;
            pos = at;
        }
        None
    }

    /// Why the river's rules forbid placing a river tile so, or `None` when they allow
    /// it (or the tile carries no river). `end` is the river's open end.
    fn refusal(
        &self,
        view: &View,
        end: Option<OpenEnd>,
        tile: TileType,
        pos: Pos,
        rotation: Rotation,
    ) -> Option<String> {
        if !self.is_river_tile(view, tile) {
            return None;
        }
        let Some(end) = end else {
            return Some("the river has no open end left for a river tile to continue".into());
        };
        // on the square the river flows into, its river against the river.
        if pos != end.at {
            return Some(format!(
                "a river tile must continue the river at its open end, {}",
                end.at
            ));
        }
        let inflow = end.flow.opposite();
        if view.tile_type_side(tile, rotation, inflow) != self.river {
            return Some(
                "the river must flow on: turn the tile so that its river meets the river".into(),
            );
        }
        // no two curves in a row turning the same way.
        let out = self
            .river_sides(view, tile, rotation)
            .find(|&side| side != inflow);
        if let Some(out) = out {
            let turn = Turn::between(end.flow, out);
            if turn != Turn::Straight && turn == end.last_turn {
                let other = if turn == Turn::Left {
                    Turn::Right
                } else {
                    Turn::Left
                };
                return Some(format!(
                    "the river may not make a U-turn: its last curve turned {}, so this one must turn {}",
                    turn.word(),
                    other.word()
                ));
            }
        }
        None
    }
}

impl Expansion for River {
    const MANIFEST: &'static str = include_str!("../manifest.toml");
    const TILES: &'static [(&'static str, &'static str)] =
        &[("tiles.toml", include_str!("../tiles.toml"))];

    fn new(view: &View) -> Result<Self, String> {
        let river = view
            .kind("river")
            .ok_or("the rules do not know the feature kind `river`")?;
        Ok(River { river })
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        // Only placements are restricted; nothing is offered, nothing happens on entry.
        Hooks {
            restricts: phase == "place-tile",
            ..Hooks::NONE
        }
    }

    fn restricts(&self, view: &View) -> bool {
        // Land tiles go wherever the base game lets them.
        view.drawn_tile()
            .is_some_and(|tile| self.is_river_tile(view, tile))
    }

    fn forbid(&self, view: &View, actions: &[Action], forbidden: &mut [bool]) {
        // The river's course is read once for every placement offered.
        let end = self.open_end(view);
        for (action, forbid) in actions.iter().zip(forbidden.iter_mut()) {
            if let Action::Place {
                tile,
                pos,
                rotation,
            } = *action
            {
                *forbid = self.refusal(view, end, tile, pos, rotation).is_some();
            }
        }
    }

    fn why_not(&self, view: &View, action: &Action) -> Option<String> {
        match *action {
            Action::Place {
                tile,
                pos,
                rotation,
            } if view.drawn_tile() == Some(tile) => {
                self.refusal(view, self.open_end(view), tile, pos, rotation)
            }
            _ => None,
        }
    }
}

carc_sdk::export_expansion!(River);
