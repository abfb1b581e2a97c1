//! The Princess and the Dragon (rules PD-1 … PD-21 and options PD-OPT-1 … PD-OPT-6), as a
//! carc expansion. It uses only the expansion SDK: it reads the game through `Ctx` and
//! changes it through commands.
//!
//! Modules: [`names`] (what the expansion registers and the option values), [`memory`]
//! (what it keeps in the game state), [`dragon`] (volcano, set-aside dragon tiles, the
//! movement), [`fairy`], [`portal`], [`princess`].

pub mod dragon;
pub mod fairy;
pub mod memory;
pub mod names;
pub mod portal;
pub mod princess;

use std::sync::OnceLock;

use carc_core::engine::{Action, Command, Event, EventKind};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Hooks, Manifest, TileSource};
use carc_core::rules::Rules;
use carc_core::tiles::TileType;

use names::Ids;

/// The expansion's id, as given to `--expansions`.
pub const ID: &str = "princess-dragon";

/// The tile data.
pub const TILES_TOML: &str = include_str!("../../../tiledefs/princess-dragon.toml");

/// The Princess and the Dragon.
#[derive(Debug, Default)]
pub struct PrincessDragon {
    ids: OnceLock<Ids>,
}

impl PrincessDragon {
    /// A fresh instance.
    pub fn new() -> PrincessDragon {
        PrincessDragon::default()
    }

    fn ids(&self, ctx: &Ctx) -> &Ids {
        self.ids.get_or_init(|| Ids::resolve(ctx.rules))
    }
}

impl Expansion for PrincessDragon {
    fn manifest(&self) -> Manifest {
        names::manifest()
    }

    fn may_redraw(&self, rules: &Rules, _me: usize, tile: &TileType) -> bool {
        // PD-7, PD-OPT-4: dragon tiles drawn before the volcano come back.
        rules
            .vocab
            .marker(names::DRAGON_SYMBOL_MARKER)
            .is_ok_and(|m| tile.has_marker(m))
    }

    fn watches_tile(&self, rules: &Rules, _me: usize, tile: &TileType) -> bool {
        // Only volcanoes (PD-2) and dragon tiles (PD-4, PD-7) matter when drawn or placed.
        [names::DRAGON_SYMBOL_MARKER, names::VOLCANO_MARKER]
            .iter()
            .any(|name| rules.vocab.marker(name).is_ok_and(|m| tile.has_marker(m)))
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        vec![TileSource {
            name: "tiledefs/princess-dragon.toml".into(),
            text: TILES_TOML.into(),
        }]
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        Hooks {
            enter: phase == "turn-start",
            actions: matches!(phase, "deploy" | names::DRAGON_PHASE),
            restricts: phase == "deploy",
            figure_step: phase == "deploy",
        }
    }

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        // Only asked at the start of the turn (see `hooks_in`).
        fairy::turn_start_point(ctx, self.ids(ctx), out);
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        // Asked in the deploy and the dragon phase only (see `hooks_in`).
        let ids = self.ids(ctx);
        if ids.in_dragon_phase(ctx) {
            dragon::actions(ctx, ids, out);
        } else if !ctx.state.turn.figure_step_done
            && let Some(placed) = ctx.state.turn.placed
        {
            // The placed tile says whether a princess or a portal has anything to offer.
            let tile = ctx.state.board.tiles[placed as usize].tile;
            if ids.tile_is(tile, Ids::PRINCESS) {
                princess::actions(ctx, ids, out);
            }
            fairy::actions(ctx, ids, out);
            if ids.tile_is(tile, Ids::PORTAL) {
                portal::actions(ctx, ids, out);
            }
        }
    }

    fn restricts(&self, ctx: &Ctx) -> bool {
        // Only when `forbid` can find something: a princess must be obeyed (PD-OPT-2), or
        // an offered move could go to the dragon's tile (PD-3). The base game offers the
        // placed tile's features, which is the dragon's tile only right after a volcano;
        // this expansion's own fairy and portal moves leave the dragon's tile out; moves
        // of any other expansion are always looked at.
        let ids = self.ids(ctx);
        if !ids.in_deploy_phase(ctx) {
            return false;
        }
        let dragon = dragon::dragon_tile(ctx, ids);
        let dragon_matters =
            dragon.is_some() && (ids.others_offer_deploys || dragon == ctx.state.turn.placed);
        dragon_matters || princess::must_remove(ctx, ids)
    }

    fn forbids(&self, ctx: &Ctx, action: &Action) -> bool {
        // Only asked in the deploy phase (see `hooks_in` and `restricts`).
        if matches!(action, Action::Place { .. }) {
            return false;
        }
        let ids = self.ids(ctx);
        dragon::forbids(ctx, ids, action) || princess::forbids(ctx, ids, action)
    }

    fn forbid(&self, ctx: &Ctx, actions: &[Action], forbidden: &mut [bool]) {
        // What `forbids` works out per action, worked out once.
        let ids = self.ids(ctx);
        let dragon = dragon::dragon_tile(ctx, ids).map(|t| dragon::nodes_of(ctx, t));
        let must_remove = princess::must_remove(ctx, ids);
        for (action, f) in actions.iter().zip(forbidden.iter_mut()) {
            *f = !matches!(action, Action::Place { .. })
                && (princess::forbids_with(ids, must_remove, action)
                    || dragon::goes_to(ids, dragon.as_ref(), action));
        }
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        let ids = self.ids(ctx);
        match *action {
            Action::Verb { verb, arg } if verb == ids.fairy_verb => {
                fairy::apply(ctx, ids, arg, out)
            }
            Action::Verb { verb, arg } if verb == ids.princess_verb => {
                princess::apply(ctx, ids, arg, out)
            }
            Action::Verb { verb, arg } if verb == ids.dragon_verb => {
                dragon::step(ctx, ids, arg, out)
            }
            Action::Deploy { figure, node } => portal::apply(ctx, figure, node, out),
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

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let ids = self.ids(ctx);
        match event {
            Event::TileDrawn { tile } => dragon::on_draw(ctx, ids, *tile, out),
            Event::TilePlaced {
                player: Some(_),
                tile,
                ..
            } => dragon::on_placed(ctx, ids, *tile, out),
            Event::FeatureScored { node } => fairy::on_scored(ctx, ids, *node, out),
            _ => {}
        }
    }
}
