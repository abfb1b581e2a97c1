//! The Russian promos (rules RP-1 … RP-12, options RP-OPT-1 and RP-OPT-2), as a carc
//! expansion: Baba Yaga's hut ([`hut`]), Bogatyr's choice (tile data only), Solovei
//! Razboynik and Vodyanoy ([`traps`]) and releasing trapped followers ([`release`]).
//! It uses only the expansion SDK.

pub mod hut;
pub mod memory;
pub mod names;
pub mod release;
pub mod traps;

use std::sync::OnceLock;

use carc_core::engine::{Action, Command, Event, EventKind};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Hooks, Manifest, TileSource};
use carc_core::rules::Rules;
use carc_core::tiles::TileType;

use names::Ids;

/// The expansion's id, as given to `--expansions`.
pub const ID: &str = "russian-promos";

/// The tile data.
pub const TILES_TOML: &str = include_str!("../../../tiledefs/russian-promos.toml");

/// The Russian promos.
#[derive(Debug)]
pub struct RussianPromos {
    manifest: Manifest,
    ids: OnceLock<Ids>,
}

impl Default for RussianPromos {
    fn default() -> Self {
        RussianPromos::new()
    }
}

impl RussianPromos {
    /// The expansion with its shipped manifest.
    pub fn new() -> RussianPromos {
        RussianPromos::with_manifest(names::manifest())
    }

    /// The same rules under another manifest (e.g. with a different declared precedence):
    /// declarations are data, so this changes no code path.
    pub fn with_manifest(manifest: Manifest) -> RussianPromos {
        RussianPromos {
            manifest,
            ids: OnceLock::new(),
        }
    }

    fn ids(&self, ctx: &Ctx) -> &Ids {
        self.ids.get_or_init(|| Ids::resolve(ctx.rules))
    }
}

impl Expansion for RussianPromos {
    fn manifest(&self) -> Manifest {
        self.manifest.clone()
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        vec![TileSource {
            name: "tiledefs/russian-promos.toml".into(),
            text: TILES_TOML.into(),
        }]
    }

    fn excludes_tile(&self, rules: &Rules, me: usize, tile: &TileType) -> bool {
        rules.option(me, names::opt::SETS) == "2013" && tile.set.as_deref() == Some("2016")
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

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        if ctx.phase == "score" {
            let ids = self.ids(ctx);
            hut::score_completed(ctx, ids, out);
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        if ctx.phase == "deploy" {
            release::actions(ctx, self.ids(ctx), out);
        }
    }

    fn restricts(&self, ctx: &Ctx) -> bool {
        // Asked in the deploy phase only (see `hooks_in`).
        traps::any_vodyanoy(ctx, self.ids(ctx))
    }

    fn forbids(&self, ctx: &Ctx, action: &Action) -> bool {
        traps::deploys_on_vodyanoy(ctx, self.ids(ctx), action)
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        release::apply(ctx, self.ids(ctx), action, out);
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[
            EventKind::TilePlaced,
            EventKind::FigureDeployed,
            EventKind::FigureReturned,
            EventKind::FigureMoved,
        ])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let ids = self.ids(ctx);
        match event {
            Event::TilePlaced {
                player: Some(_), ..
            } => traps::on_tile_placed(ctx, ids, out),
            Event::FigureDeployed { figure, .. } => traps::on_deployed(ctx, ids, *figure, out),
            Event::FigureReturned { figure, .. } | Event::FigureMoved { figure, .. } => {
                traps::forget(ctx, *figure, out)
            }
            _ => {}
        }
    }

    fn final_scoring(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        let ids = self.ids(ctx);
        hut::score_final(ctx, ids, out);
        traps::score_final(ctx, ids, out);
    }
}
