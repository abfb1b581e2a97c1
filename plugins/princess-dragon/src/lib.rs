//! The Princess and the Dragon (rules PD-1 … PD-21 and options PD-OPT-1 … PD-OPT-6), as a
//! carc expansion plugin. It depends on the SDK alone: it reads the game through a
//! [`View`] and changes it through commands.
//!
//! Modules: [`names`] (what the expansion registers and the option values), [`memory`]
//! (what it keeps in the game), [`dragon`] (volcano, set-aside dragon tiles, the
//! movement), [`fairy`], [`portal`], [`princess`].

pub mod dragon;
pub mod fairy;
pub mod memory;
pub mod names;
pub mod portal;
pub mod princess;

use carc_sdk::{
    Action, Arg, Event, EventKind, EventKinds, Expansion, Hooks, Offers, Out, SegmentId, TileType,
    View,
};

use names::Ids;

/// The expansion's id, as given to `--expansions`.
pub const ID: &str = "princess-dragon";

/// The Princess and the Dragon, for one set of rules.
#[derive(Debug)]
pub struct PrincessDragon {
    ids: Ids,
}

impl Expansion for PrincessDragon {
    const MANIFEST: &'static str = names::MANIFEST_TOML;
    const TILES: &'static [(&'static str, &'static str)] =
        &[("tiledefs/princess-dragon.toml", names::TILES_TOML)];

    fn new(view: &View) -> Result<Self, String> {
        Ok(PrincessDragon {
            ids: Ids::resolve(view)?,
        })
    }

    fn may_redraw(&self, _view: &View, tile: TileType) -> bool {
        // PD-7, PD-OPT-4: dragon tiles drawn before the volcano come back.
        self.ids.tile_is(tile, Ids::DRAGON_SYMBOL)
    }

    fn watches_tile(&self, _view: &View, tile: TileType) -> bool {
        // Only volcanoes (PD-2) and dragon tiles (PD-4, PD-7) matter when drawn or placed.
        self.ids.tile_is(tile, Ids::DRAGON_SYMBOL | Ids::VOLCANO)
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        Hooks {
            enter: phase == "turn-start",
            actions: matches!(phase, "deploy" | names::DRAGON_PHASE),
            restricts: phase == "deploy",
            figure_step: phase == "deploy",
        }
    }

    fn enter_phase(&self, view: &View, out: &mut Out) {
        // Only asked at the start of the turn (see `hooks_in`).
        fairy::turn_start_point(view, &self.ids, out);
    }

    fn actions(&self, view: &View, out: &mut Offers) {
        // Asked in the deploy and the dragon phase only (see `hooks_in`).
        let ids = &self.ids;
        if ids.in_dragon_phase(view) {
            dragon::actions(view, ids, out);
        } else if !view.figure_step_done()
            && let Some(placed) = view.placed_tile()
        {
            // The placed tile says whether a princess or a portal has anything to offer.
            let tile = view.tile_type(placed);
            if ids.tile_is(tile, Ids::PRINCESS) {
                princess::actions(view, ids, out);
            }
            fairy::actions(view, ids, out);
            if ids.tile_is(tile, Ids::PORTAL) {
                portal::actions(view, ids, out);
            }
        }
    }

    fn restricts(&self, view: &View) -> bool {
        // Only when `forbid` can find something: a princess must be obeyed (PD-OPT-2), or
        // an offered move could go to the dragon's tile (PD-3). The base game offers the
        // placed tile's features, which is the dragon's tile only right after a volcano;
        // this expansion's own fairy and portal moves leave the dragon's tile out;
        // deployments offered by any other expansion are always looked at (`forbid`
        // judges deployments and this expansion's fairy moves only).
        let ids = &self.ids;
        if !ids.in_deploy_phase(view) {
            return false;
        }
        let dragon = dragon::dragon_tile(view, ids);
        let dragon_matters =
            dragon.is_some() && (dragon == view.placed_tile() || view.others_offer_deployments());
        dragon_matters || princess::must_remove(view, ids)
    }

    fn forbids(&self, view: &View, action: &Action) -> bool {
        let mut f = [false];
        self.forbid(view, std::slice::from_ref(action), &mut f);
        f[0]
    }

    fn forbid(&self, view: &View, actions: &[Action], forbidden: &mut [bool]) {
        // What each action needs, worked out once.
        let ids = &self.ids;
        let mut dragon_segments: Vec<SegmentId> = Vec::new();
        if let Some(t) = dragon::dragon_tile(view, ids) {
            dragon_segments.extend(view.segments(t));
        }
        let must_remove = princess::must_remove(view, ids);
        for (action, f) in actions.iter().zip(forbidden.iter_mut()) {
            *f = !matches!(action, Action::Place { .. })
                && (princess::forbids_with(ids, must_remove, action)
                    || dragon::goes_to(ids, &dragon_segments, action));
        }
    }

    fn why_not(&self, view: &View, action: &Action) -> Option<String> {
        let ids = &self.ids;
        // Other decisions than the deployment and the dragon's are the engine's to explain.
        if ids.in_dragon_phase(view) {
            return match *action {
                Action::Verb {
                    verb,
                    arg: Arg::Side(side),
                } if verb == ids.dragon_verb => Some(dragon::why_not_step(view, ids, side)),
                _ => None,
            };
        }
        if !ids.in_deploy_phase(view) {
            return None;
        }
        if princess::must_remove(view, ids) && princess::forbids_with(ids, true, action) {
            return Some(
                "a knight must first be removed from the city the princess joined, and then \
                 nothing else may be done this turn (PD-17, option princess = must)"
                    .into(),
            );
        }
        let on_dragon = dragon::target(ids, action)
            .is_some_and(|s| dragon::dragon_tile(view, ids) == Some(view.segment_tile(s)));
        if on_dragon {
            return Some("no figure may go onto the tile the dragon occupies (PD-3)".into());
        }
        match *action {
            Action::Verb { verb, .. } if verb == ids.fairy_verb => Some(fairy::why_not(view, ids)),
            Action::Verb { verb, .. } if verb == ids.princess_verb => Some(
                "the princess removes only a knight of the city she joins, named by the tile \
                 it stands on and a port of the city there (PD-17)"
                    .into(),
            ),
            Action::Deploy { segment, .. }
                if view
                    .placed_tile()
                    .is_some_and(|t| ids.tile_is(view.tile_type(t), Ids::PORTAL))
                    && Some(view.segment_tile(segment)) != view.placed_tile() =>
            {
                Some(
                    "through the magic portal only a follower goes, onto a feature that is \
                     unoccupied and not completed (PD-16)"
                        .into(),
                )
            }
            _ => None,
        }
    }

    fn apply(&self, view: &View, action: &Action, out: &mut Out) {
        let ids = &self.ids;
        match *action {
            Action::Verb { verb, arg } if verb == ids.fairy_verb => {
                fairy::apply(view, ids, arg, out)
            }
            Action::Verb { verb, arg } if verb == ids.princess_verb => {
                princess::apply(view, ids, arg, out)
            }
            Action::Verb { verb, arg } if verb == ids.dragon_verb => {
                dragon::step(view, ids, arg, out)
            }
            Action::Deploy { figure, segment } => portal::apply(view, figure, segment, out),
            _ => {}
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[
            EventKind::TileDrawn,
            EventKind::TilePlaced,
            EventKind::FeatureScored,
        ])
    }

    fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
        let ids = &self.ids;
        match *event {
            Event::TileDrawn { tile } => dragon::on_draw(view, ids, tile, out),
            Event::TilePlaced {
                player: Some(_),
                tile,
                placed,
                ..
            } => dragon::on_placed(view, ids, tile, placed, out),
            Event::FeatureScored { segment } => fairy::on_scored(view, ids, segment, out),
            _ => {}
        }
    }
}

carc_sdk::export_expansion!(PrincessDragon);
