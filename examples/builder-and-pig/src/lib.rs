//! The builder and the pig of Traders & Builders, as a carc expansion plugin, written
//! against the SDK alone (see README.md for the rules and the readings chosen).
//!
//! - Builder: instead of a follower, deployed on the placed tile's road or city where the
//!   player has a follower; when that player later extends that road or city, they play
//!   a second tile in the same turn (once per turn, `Command::AnotherTile`).
//! - Pig: instead of a follower, deployed on the placed tile's field where the player has
//!   a farmer; at the end that player's farmers score 4 instead of 3 per completed city
//!   of that field, when they win it.

use carc_sdk::{
    Action, Command, Event, EventKind, EventKinds, Expansion, FigureClass, FigureId, FigureKind,
    Hooks, KindId, Offers, Out, PlayerId, Reason, SegmentId, View,
};

/// The expansion's id.
pub const ID: &str = "builder-and-pig";

/// Record: the last turn in which a builder gave its player a second tile.
const SECOND_TILE_TURN: u32 = 0;

/// The expansion, for one set of rules.
pub struct BuilderAndPig {
    builder: FigureKind,
    pig: FigureKind,
    road: Option<KindId>,
    city: Option<KindId>,
    field: Option<KindId>,
}

impl BuilderAndPig {
    /// Whether `player` has a follower in the feature of `segment`.
    fn has_follower(view: &View, player: PlayerId, segment: SegmentId) -> bool {
        view.figures_on_feature(segment).any(|f| {
            let figure = view.figure(f);
            figure.owner == Some(player) && view.figure_class(figure.kind) == FigureClass::Follower
        })
    }

    /// The pig (a field is scored at the end of the game, BASE-9, its figures still on
    /// it): 1 more per completed city of the field for the pig's owner, when the owner is
    /// among the field's winners (the base game gave them 3 per city).
    fn pig_scores(&self, view: &View, segment: SegmentId, out: &mut Out) {
        if Some(view.segment_kind(segment)) != self.field {
            return;
        }
        let winners = view.majority(segment);
        for player in 0..view.players() as PlayerId {
            let Some((_, at)) = Self::placed(view, player, self.pig) else {
                continue;
            };
            let cities = view
                .field_cities(segment)
                .filter(|&city| view.is_complete(city))
                .count() as i32;
            if view.same_feature(at, segment) && winners >> player & 1 == 1 && cities > 0 {
                out.push(Command::Score {
                    player,
                    points: cities,
                    reason: Reason::Text("the pig"),
                });
            }
        }
    }

    /// Where a player's figure of this kind stands on the board, if it does.
    fn placed(view: &View, player: PlayerId, kind: FigureKind) -> Option<(FigureId, SegmentId)> {
        view.placed_figures_of(player, kind)
            .find_map(|(f, place, _)| place.segment().map(|s| (f, s)))
    }
}

impl Expansion for BuilderAndPig {
    const MANIFEST: &'static str = include_str!("../manifest.toml");

    fn new(view: &View) -> Result<Self, String> {
        Ok(BuilderAndPig {
            builder: view.figure_kind("builder").ok_or("no figure `builder`")?,
            pig: view.figure_kind("pig").ok_or("no figure `pig`")?,
            road: view.kind("road"),
            city: view.kind("city"),
            field: view.kind("field"),
        })
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        Hooks {
            enter: false,
            actions: phase == "deploy",
            restricts: false,
            figure_step: phase == "deploy",
        }
    }

    fn actions(&self, view: &View, out: &mut Offers) {
        let Some(placed) = view.placed_tile() else {
            return;
        };
        if view.figure_step_done() {
            return;
        }
        let player = view.current_player();
        for segment in view.segments(placed) {
            let kind = view.segment_kind(segment);
            let figure = if Some(kind) == self.road || Some(kind) == self.city {
                self.builder
            } else if Some(kind) == self.field {
                self.pig
            } else {
                continue;
            };
            if view.in_supply(player, figure) > 0 && Self::has_follower(view, player, segment) {
                out.push(Action::Deploy { figure, segment });
            }
        }
    }

    fn why_not(&self, view: &View, action: &Action) -> Option<String> {
        let Action::Deploy { figure, segment } = *action else {
            return None;
        };
        let (name, kinds, follower, kinds_words) = if figure == self.builder {
            (
                "builder",
                [self.road, self.city],
                "follower",
                "a road or a city",
            )
        } else if figure == self.pig {
            ("pig", [self.field, None], "farmer", "a field")
        } else {
            return None;
        };
        let player = view.current_player();
        let why = if Some(view.segment_tile(segment)) != view.placed_tile() {
            format!("a {name} goes only onto the tile just placed (not through the magic portal)")
        } else if !kinds.contains(&Some(view.segment_kind(segment))) {
            format!("a {name} goes only into {kinds_words}")
        } else if view.in_supply(player, figure) == 0 {
            format!("you have no {name} left in your supply")
        } else if !Self::has_follower(view, player, segment) {
            format!("a {name} goes only into {kinds_words} where you have a {follower}")
        } else {
            return None;
        };
        Some(why)
    }

    fn apply(&self, view: &View, action: &Action, out: &mut Out) {
        if let Action::Deploy { figure, segment } = *action {
            out.push(Command::Deploy {
                player: view.current_player(),
                figure,
                segment,
            });
            out.push(Command::FigureStepDone);
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced, EventKind::FeatureScored])
    }

    fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
        if let Event::FeatureScored { segment } = *event {
            self.pig_scores(view, segment, out);
            return;
        }
        // The builder: extending its road or city gives a second tile, once per turn.
        let Event::TilePlaced {
            player: Some(player),
            placed,
            ..
        } = *event
        else {
            return;
        };
        let turn = i64::from(view.turn());
        if view.record().get(SECOND_TILE_TURN as usize) == Some(&turn) {
            return;
        }
        let Some((_, at)) = Self::placed(view, player, self.builder) else {
            return;
        };
        if view.segments(placed).any(|s| view.same_feature(s, at)) {
            out.push(Command::SetRecordValue {
                index: SECOND_TILE_TURN,
                value: turn,
            });
            out.push(Command::AnotherTile);
        }
    }
}

carc_sdk::export_expansion!(BuilderAndPig);
