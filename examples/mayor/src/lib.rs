//! The mayor of Abbey & Mayor, as a carc expansion plugin, written against the SDK alone
//! (see README.md for the rules and the readings chosen).
//!
//! - Deployment: instead of a follower, a player may deploy their mayor onto an
//!   unoccupied city of the tile just placed (BASE-5). The base game offers its own
//!   follower only, so this expansion offers the mayor's deployments itself.
//! - Cities only: the mayor never stands on a road, a field or a monastery. The magic
//!   portal (PD-16) offers every follower kind onto any vacant feature: this expansion
//!   forbids the mayor's portal deployments outside cities (`forbid`) and says why
//!   (`why_not`).
//! - Majority (decision point `figure-strength`, protocol 1.5): a mayor counts as many
//!   followers as its city has pennants, 0 without any. A city where only a 0-strength
//!   mayor stands scores for nobody; the mayor goes home when the city is scored, as every
//!   figure of a scored feature does.

use carc_sdk::{
    Action, Command, Expansion, FigureId, FigureKind, Hooks, KindId, Offers, Out, SegmentId, View,
};

/// The expansion's id.
pub const ID: &str = "mayor";

/// The expansion, for one set of rules.
pub struct Mayor {
    /// The mayor's figure kind.
    mayor: FigureKind,
    /// The base game's city kind.
    city: KindId,
}

impl Mayor {
    /// Whether a segment is part of a city.
    fn is_city(&self, view: &View, segment: SegmentId) -> bool {
        view.segment_kind(segment) == self.city
    }
}

impl Expansion for Mayor {
    const MANIFEST: &'static str = include_str!("../manifest.toml");

    fn new(view: &View) -> Result<Self, String> {
        Ok(Mayor {
            mayor: view.figure_kind("mayor").ok_or("no figure `mayor`")?,
            city: view.kind("city").ok_or("no feature kind `city`")?,
        })
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        let deploy = phase == "deploy";
        Hooks {
            enter: false,
            actions: deploy,
            restricts: deploy,
            figure_step: deploy,
        }
    }

    /// The mayor onto each unoccupied city of the tile just placed (BASE-5), while the
    /// player has it in supply. (The magic portal's offers elsewhere are The Princess and
    /// the Dragon's.)
    fn actions(&self, view: &View, out: &mut Offers) {
        let Some(placed) = view.placed_tile() else {
            return;
        };
        if view.figure_step_done() || view.in_supply(view.current_player(), self.mayor) == 0 {
            return;
        }
        for segment in view.segments(placed) {
            let feature = view.feature(segment);
            if feature.kind == self.city && feature.occupants == 0 && !feature.scored {
                out.push(Action::Deploy {
                    figure: self.mayor,
                    segment,
                });
            }
        }
    }

    /// Only another expansion's deployments can take the mayor out of a city (this one's
    /// own offers are cities).
    fn restricts(&self, view: &View) -> bool {
        view.others_offer_deployments()
    }

    /// The mayor goes into a city only, whoever offers it (the magic portal, PD-16).
    fn forbids(&self, view: &View, action: &Action) -> bool {
        matches!(*action, Action::Deploy { figure, segment }
            if figure == self.mayor && !self.is_city(view, segment))
    }

    fn why_not(&self, view: &View, action: &Action) -> Option<String> {
        let Action::Deploy { figure, segment } = *action else {
            return None;
        };
        if figure != self.mayor {
            return None;
        }
        let why = if !self.is_city(view, segment) {
            "the mayor stands only in a city, never on a road, a field or a monastery (not even \
             through the magic portal)"
        } else if view.in_supply(view.current_player(), self.mayor) == 0 {
            "you have no mayor left in your supply"
        } else if view.feature(segment).occupants > 0 {
            "the mayor goes only into a city where no figure stands yet (BASE-5)"
        } else {
            // Not the tile just placed, a figure step already taken, the dragon's tile:
            // the engine's or the other expansions' to explain.
            return None;
        };
        Some(why.into())
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

    /// A mayor counts the pennants of its city (0 without any; outside a city, which
    /// these rules never allow, 0 too).
    fn figure_strength(
        &self,
        view: &View,
        _figure: FigureId,
        segment: SegmentId,
        _strength: u32,
    ) -> u32 {
        if self.is_city(view, segment) {
            u32::from(view.feature(segment).pennants)
        } else {
            0
        }
    }
}

carc_sdk::export_expansion!(Mayor);
