//! The Russian promos (rules RP-1 … RP-12, options RP-OPT-1 and RP-OPT-2), as a carc
//! expansion plugin: Baba Yaga's hut ([`hut`]), Bogatyr's choice (tile data only), Solovei
//! Razboynik and Vodyanoy ([`traps`]) and releasing trapped followers ([`release`]).
//! It depends on the SDK alone: it reads the game through a [`View`] and changes it
//! through commands.
//!
//! Modules: [`names`] (what the expansion registers and the ids they get), [`memory`]
//! (what it keeps in the game), [`hut`], [`traps`], [`release`].
#![warn(missing_docs)]

pub mod hut;
pub mod memory;
pub mod names;
pub mod release;
pub mod traps;

use carc_sdk::{
    Action, Event, EventKind, EventKinds, Expansion, Hooks, Offers, Out, PhaseId, TileType, View,
};

use names::Ids;

/// The expansion's id, as given to `--expansions`.
pub const ID: &str = "russian-promos";

/// The tile data.
pub const TILES_TOML: &str = names::TILES_TOML;

/// The Russian promos, for one set of rules.
#[derive(Debug)]
pub struct RussianPromos {
    /// Its names, resolved under these rules.
    ids: Ids,
    /// The phase where completed huts score (RP-2).
    score_phase: Option<PhaseId>,
    /// The deploy phase, where a trapped follower may be released instead (RP-9).
    deploy_phase: Option<PhaseId>,
}

impl Expansion for RussianPromos {
    const MANIFEST: &'static str = names::MANIFEST_TOML;
    const TILES: &'static [(&'static str, &'static str)] =
        &[("tiledefs/russian-promos.toml", names::TILES_TOML)];

    fn new(view: &View) -> Result<Self, String> {
        Ok(RussianPromos {
            ids: Ids::resolve(view)?,
            score_phase: view.phase_named("score"),
            deploy_phase: view.phase_named("deploy"),
        })
    }

    fn excludes_tile(&self, _view: &View, tile: TileType) -> bool {
        // RP-OPT-2 `2013`: only the hut and Bogatyr are in the supply.
        self.ids.excluded(tile)
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        Hooks {
            enter: phase == "score",
            actions: phase == "deploy",
            // No deployment on the Vodyanoy tile (RP-7).
            restricts: phase == "deploy",
            // Releasing a trapped follower is the figure step (RP-9).
            figure_step: phase == "deploy",
        }
    }

    fn enter_phase(&self, view: &View, out: &mut Out) {
        if self.score_phase.is_some() && view.phase() == self.score_phase {
            hut::score_completed(view, &self.ids, out);
        }
    }

    fn actions(&self, view: &View, out: &mut Offers) {
        // Nobody trapped (the usual case): nothing to offer, and no need to ask more.
        if memory::trapped(view.record()).next().is_none() {
            return;
        }
        if self.deploy_phase.is_some() && view.phase() == self.deploy_phase {
            release::actions(view, &self.ids, out);
        }
    }

    fn restricts(&self, view: &View) -> bool {
        // Asked in the deploy phase only (see `hooks_in`). The base game offers
        // deployments on the placed tile alone and this expansion offers none, so only a
        // Vodyanoy tile placed now, or another expansion's deployments, can break RP-7.
        let ids = &self.ids;
        let placed_vodyanoy = view
            .placed_tile()
            .is_some_and(|t| ids.is_vodyanoy_tile(view.tile_type(t)));
        placed_vodyanoy || (view.others_offer_deployments() && traps::any_vodyanoy(view, ids))
    }

    fn forbids(&self, view: &View, action: &Action) -> bool {
        let mut f = [false];
        self.forbid(view, std::slice::from_ref(action), &mut f);
        f[0]
    }

    fn forbid(&self, view: &View, actions: &[Action], forbidden: &mut [bool]) {
        // RP-7, for each segment of each Vodyanoy tile (usually one tile, one segment).
        for vodyanoy in view.tiles_with_marker(self.ids.vodyanoy) {
            for segment in view.segments(vodyanoy) {
                for (action, f) in actions.iter().zip(forbidden.iter_mut()) {
                    *f |= traps::deploys_on(segment, action);
                }
            }
        }
    }

    fn why_not(&self, view: &View, action: &Action) -> Option<String> {
        let ids = &self.ids;
        if self.deploy_phase.is_none() || view.phase() != self.deploy_phase {
            return None;
        }
        match *action {
            Action::Deploy { segment, .. }
                if ids.is_vodyanoy_tile(view.tile_type(view.segment_tile(segment))) =>
            {
                Some(
                    "no figure may be deployed on the Vodyanoy tile: the figures there are its \
                     prisoners (RP-7)"
                        .into(),
                )
            }
            Action::Verb { verb, .. } if verb == ids.release => Some(
                "only one of your own trapped followers may be released, on the trap tile named, \
                 instead of deploying, and not in the turn it was trapped (RP-9)"
                    .into(),
            ),
            _ => None,
        }
    }

    fn apply(&self, view: &View, action: &Action, out: &mut Out) {
        release::apply(view, &self.ids, action, out);
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[
            EventKind::TilePlaced,
            EventKind::FigureDeployed,
            EventKind::FigureReturned,
            EventKind::FigureMoved,
        ])
    }

    fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
        let ids = &self.ids;
        match *event {
            Event::TilePlaced {
                player: Some(_),
                tile,
                placed,
                ..
            } => traps::on_tile_placed(view, ids, tile, placed, out),
            Event::FigureDeployed { figure, .. } => traps::on_deployed(view, ids, figure, out),
            Event::FigureReturned { figure, .. } | Event::FigureMoved { figure, .. } => {
                traps::forget(view, figure, out)
            }
            _ => {}
        }
    }

    fn final_scoring(&self, view: &View, out: &mut Out) {
        let ids = &self.ids;
        hut::score_final(view, ids, out);
        traps::score_final(view, ids, out);
    }
}

carc_sdk::export_expansion!(RussianPromos);
