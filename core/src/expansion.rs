//! The expansion SDK: what an expansion declares (its manifest) and the hooks through
//! which its rules take part in a game. The base game is itself written against this
//! trait ([`crate::base::BaseGame`]), so expansions only ever add.
//!
//! Hooks receive a read-only [`Ctx`] and push [`Command`]s; the engine validates and
//! applies them. Hooks must be deterministic: same state in, same commands out.

use serde::{Deserialize, Serialize};

use crate::engine::{Action, ArgKind, Command, Event, GameState};
use crate::figures::FigureKindDecl;
use crate::rules::Rules;
use crate::tiles::vocab::{KindDecl, MarkerDecl};

/// A phase an expansion adds to the turn, placed relative to an existing one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseDecl {
    /// Phase name, e.g. `dragon-move`.
    pub name: String,
    /// Run right after this phase...
    pub after: Option<String>,
    /// ...or right before this one.
    pub before: Option<String>,
    /// Only when this option of the declaring expansion has this value (`(option, value)`),
    /// e.g. the dragon's movement after scoring under `dragon-move = after-scoring`.
    pub when: Option<(String, String)>,
}

/// A move kind an expansion adds to game records (`fairy`, `dragon`, `release`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerbDecl {
    /// The record key.
    pub name: String,
    /// The shape of its value.
    pub arg: ArgKind,
}

/// A typed rule option (`princess-dragon.dragon-move`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleOptionDecl {
    /// Option name, without the expansion prefix.
    pub name: String,
    /// Allowed values; the first is the default.
    pub values: Vec<String>,
    /// One line saying what it changes.
    pub doc: String,
}

/// Everything an expansion declares before any of its code runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Expansion id, as given to `--expansions` (`base` for the core rules).
    pub id: String,
    /// Human name.
    pub name: String,
    /// Feature kinds it registers.
    pub kinds: Vec<KindDecl>,
    /// Markers it registers.
    pub markers: Vec<MarkerDecl>,
    /// Figure kinds it brings.
    pub figures: Vec<FigureKindDecl>,
    /// Phases it adds.
    pub phases: Vec<PhaseDecl>,
    /// Record verbs it adds.
    pub verbs: Vec<VerbDecl>,
    /// Rule options.
    pub options: Vec<RuleOptionDecl>,
}

/// A tile-data file an expansion ships.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSource {
    /// File name, for error messages.
    pub name: String,
    /// The TOML text.
    pub text: String,
}

/// A read-only view of a game, given to hooks.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The state.
    pub state: &'a GameState,
    /// The index of the expansion being called, in `rules.expansions`.
    pub me: usize,
    /// The current phase's name.
    pub phase: &'a str,
}

impl Ctx<'_> {
    /// This expansion's own record in the state.
    pub fn my_data(&self) -> &[i64] {
        self.state.ext.get(self.me).map_or(&[], |v| v.as_slice())
    }

    /// The value of one of this expansion's rule options.
    pub fn option(&self, name: &str) -> &str {
        self.rules.option(self.me, name)
    }
}

/// The rules of one expansion. Every method has a default that does nothing.
pub trait Expansion: Send + Sync {
    /// The declarations.
    fn manifest(&self) -> Manifest;

    /// The tile data it ships.
    fn tile_sources(&self) -> Vec<TileSource> {
        Vec::new()
    }

    /// Called when a phase begins (automatic work such as drawing or scoring).
    fn enter_phase(&self, _ctx: &Ctx, _out: &mut Vec<Command>) {}

    /// Adds the actions this expansion offers in the current decision.
    fn actions(&self, _ctx: &Ctx, _out: &mut Vec<Action>) {}

    /// Whether this expansion forbids any actions in the current phase; only then is
    /// [`Expansion::forbids`] asked about each action (saves time).
    fn restricts(&self, _ctx: &Ctx) -> bool {
        false
    }

    /// Whether this expansion's rules forbid an action offered by any expansion.
    fn forbids(&self, _ctx: &Ctx, _action: &Action) -> bool {
        false
    }

    /// Carries out an action this expansion offered.
    fn apply(&self, _ctx: &Ctx, _action: &Action, _out: &mut Vec<Command>) {}

    /// Whether [`Expansion::on_event`] wants to be called at all (saves time).
    fn wants_events(&self) -> bool {
        false
    }

    /// Reacts to something that happened.
    fn on_event(&self, _ctx: &Ctx, _event: &Event, _out: &mut Vec<Command>) {}

    /// Final scoring at the end of the game.
    fn final_scoring(&self, _ctx: &Ctx, _out: &mut Vec<Command>) {}
}
