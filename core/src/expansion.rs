//! The engine's own expansion trait (plugins implement `carc_sdk::Expansion` and are
//! hosted through it, see [`crate::plugin`]): what an expansion declares (its manifest)
//! and the hooks through which its rules take part in a game. The base game is itself
//! written against this trait ([`crate::base::BaseGame`]), so expansions only ever add.
//!
//! Hooks receive a read-only [`Ctx`] and push [`Command`]s; the engine validates and
//! applies them. Hooks must be deterministic: same state in, same commands out.

use crate::engine::{Action, Command, Event, GameState};
use crate::features::NodeId;
use crate::figures::FigureId;
use crate::geometry::Pos;
pub use crate::manifest::{
    Manifest, OrderDecl, PhaseCondition, PhaseDecl, RuleDecl, RuleOptionDecl, VerbDecl,
};
use crate::rules::Rules;
use crate::strength::StrengthCalls;

/// A tile-data file an expansion ships.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileSource {
    /// File name, for error messages.
    pub name: String,
    /// The TOML text.
    pub text: String,
}

/// Whether expansions other than the base game (expansion 0) and `me` are among `by` (one
/// bit each): whose offers an expansion judging a decision cannot vouch for.
#[inline]
pub fn others_than_base_and(me: usize, by: u64) -> bool {
    by & !(1 | 1u64.checked_shl(me as u32).unwrap_or(0)) != 0
}

/// Whether expansion `i` is among `set` (one bit per expansion; past 64, never).
#[inline]
pub fn is_among(i: usize, set: u64) -> bool {
    i < 64 && set >> i & 1 == 1
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
    /// While [`Expansion::restricts`] and [`Expansion::forbid`] judge a decision's
    /// actions: the expansions that offered them, one bit each (0 otherwise).
    pub offered_by: u64,
    /// Of those, the expansions that offered at least one deployment.
    pub deploys_offered_by: u64,
    /// Which placements the base game offers: usually all of them; on a large board,
    /// only those on one square while the engine checks a placement a record or a
    /// player asked for, or whether any placement exists (so neither grows with the
    /// board).
    pub placements: Placements,
    /// The expansions disabled in this game, one bit each (not asked again).
    pub disabled: u64,
    /// The rules at `figure-strength` as asked in this game (none outside a game: then
    /// they are not asked).
    pub strength_calls: Option<&'a StrengthCalls>,
}

/// Which placements of the drawn tile the base game offers (see [`Ctx::placements`]).
/// Expansions' verdicts on an action never depend on the other actions offered, so a
/// part of the list is judged as the whole list would be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Placements {
    /// Every placement (the list of legal actions).
    #[default]
    Everywhere,
    /// Only those on this square.
    At(Pos),
    /// Only those on the first open square where the tile fits: enough to know whether
    /// a decision is pending.
    FirstSquare,
}

impl<'a> Ctx<'a> {
    /// This expansion's own record in the state.
    #[inline]
    pub fn my_data(&self) -> &'a [i64] {
        self.state.ext.get(self.me).map_or(&[], |v| v.as_slice())
    }

    /// The value of one of this expansion's rule options.
    pub fn option(&self, name: &str) -> &str {
        self.rules.option(self.me, name)
    }
}

/// Which per-phase hooks an expansion uses in a phase (see [`Expansion::hooks_in`]): the
/// SDK's declaration, which the engine's own expansions give too.
pub use carc_sdk::Hooks;

/// A set of event kinds, by [`Event::kind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventKinds(pub u32);

impl EventKinds {
    /// No event.
    pub const NONE: EventKinds = EventKinds(0);
    /// Every event.
    pub const ALL: EventKinds = EventKinds(u32::MAX);

    /// The set of the given kinds.
    pub fn of(kinds: &[crate::engine::EventKind]) -> EventKinds {
        EventKinds(kinds.iter().fold(0, |m, k| m | (1 << *k as u32)))
    }

    /// Whether the set holds the event's kind.
    pub fn contains(self, event: &Event) -> bool {
        self.0 & (1 << event.kind() as u32) != 0
    }
}

/// The rules of one expansion. Every method has a default that does nothing.
pub trait Expansion: Send + Sync {
    /// The declarations.
    fn manifest(&self) -> Manifest;

    /// Sets the expansion up for a set of rules, once they are put together and before
    /// any other hook is asked (a plugin resolves its names here). `me` is its index.
    fn prepare(&self, _rules: &Rules, _me: usize) -> Result<(), String> {
        Ok(())
    }

    /// Whether a tile (of any expansion) stays out of the supply under this expansion's
    /// options (e.g. the Russian promos' `sets = 2013`). `me` is its index in the rules.
    fn excludes_tile(&self, _rules: &Rules, _me: usize, _tile: &crate::tiles::TileType) -> bool {
        false
    }

    /// Whether a drawn tile of this type may go back into the supply under this
    /// expansion's rules (set aside or put back, then drawn again, as PD-7 does with
    /// dragon tiles). A record's `draw` lists every draw in order, so it may name such a
    /// tile more often than the supply holds: the later listing is that tile drawn again.
    fn may_redraw(&self, _rules: &Rules, _me: usize, _tile: &crate::tiles::TileType) -> bool {
        false
    }

    /// Whether events about tiles of this type (drawn, placed, discarded, set aside, put
    /// back) concern this expansion. Asked once per tile type when the rules are put
    /// together; the engine does not call [`Expansion::on_event`] with such events for
    /// tile types it answered `false` for (an expansion that reacts only to its own tiles
    /// saves a call per turn).
    fn watches_tile(&self, _rules: &Rules, _me: usize, _tile: &crate::tiles::TileType) -> bool {
        true
    }

    /// The tile data it ships.
    fn tile_sources(&self) -> Vec<TileSource> {
        Vec::new()
    }

    /// Which of the per-phase hooks it uses in a phase; asked once when the rules are put
    /// together, so the engine calls only those (AI search runs these loops millions of
    /// times). The default, every hook everywhere, is always correct.
    fn hooks_in(&self, _phase: &str) -> Hooks {
        Hooks::ALL
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

    /// Sets `forbidden[i]` for every action `actions[i]` its rules forbid (the flags are
    /// all false on entry). The default asks [`Expansion::forbids`] about each; an
    /// expansion that can judge many actions at once, working out what they share a
    /// single time, overrides this (both must agree).
    fn forbid(&self, ctx: &Ctx, actions: &[Action], forbidden: &mut [bool]) {
        for (a, f) in actions.iter().zip(forbidden.iter_mut()) {
            *f = self.forbids(ctx, a);
        }
    }

    /// Why `action` may not be played now, in words for the player; asked only when a
    /// move is refused (see [`Game::apply`](crate::engine::Game::apply)).
    fn why_not(&self, _ctx: &Ctx, _action: &Action) -> Option<String> {
        None
    }

    /// Carries out an action this expansion offered.
    fn apply(&self, _ctx: &Ctx, _action: &Action, _out: &mut Vec<Command>) {}

    /// The kinds of events [`Expansion::on_event`] wants (none by default; asked once
    /// when the rules are put together).
    fn events(&self) -> EventKinds {
        EventKinds::NONE
    }

    /// Reacts to something that happened.
    fn on_event(&self, _ctx: &Ctx, _event: &Event, _out: &mut Vec<Command>) {}

    /// Final scoring at the end of the game.
    fn final_scoring(&self, _ctx: &Ctx, _out: &mut Vec<Command>) {}

    /// What a base-game feature (a segment of it: `node`) is worth when it is scored,
    /// given its `worth` so far; asked only of the expansions with a rule at the
    /// decision point [`FEATURE_WORTH`](crate::rules::FEATURE_WORTH), in its order.
    fn feature_worth(&self, _ctx: &Ctx, _node: NodeId, worth: i32) -> i32 {
        worth
    }

    /// How strong `figure` (a follower) is in the feature it stands in, given its
    /// `strength` so far; asked only of the expansions with a rule at the decision point
    /// [`FIGURE_STRENGTH`](crate::strength::FIGURE_STRENGTH) claiming its kind, in its
    /// order.
    fn figure_strength(&self, _ctx: &Ctx, _figure: FigureId, strength: u32) -> u32 {
        strength
    }
}
