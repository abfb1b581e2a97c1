//! The [`Expansion`] trait: the rules of one expansion, as hooks into the turn.

use std::mem::MaybeUninit;

use crate::abi::{RawAction, RawCommand, Sink};
use crate::action::Action;
use crate::command::Command;
use crate::event::{Event, EventKinds};
use crate::ids::{FigureId, SegmentId, TileType};
use crate::view::View;

/// Which per-phase hooks an expansion uses in a phase (see [`Expansion::hooks_in`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hooks {
    /// [`Expansion::enter_phase`] does something in this phase.
    pub enter: bool,
    /// [`Expansion::actions`] may offer actions in this phase.
    pub actions: bool,
    /// [`Expansion::restricts`] may be true in this phase.
    pub restricts: bool,
    /// Its actions in this phase belong to the figure step (deploying, the fairy, …): it
    /// offers none once the step is done, so it is not asked then.
    pub figure_step: bool,
}

impl Hooks {
    /// Every hook (the safe default).
    pub const ALL: Hooks = Hooks {
        enter: true,
        actions: true,
        restricts: true,
        figure_step: false,
    };
    /// No hook.
    pub const NONE: Hooks = Hooks {
        enter: false,
        actions: false,
        restricts: false,
        figure_step: false,
    };

    pub(crate) fn bits(self) -> i64 {
        i64::from(self.enter)
            | i64::from(self.actions) << 1
            | i64::from(self.restricts) << 2
            | i64::from(self.figure_step) << 3
    }

    /// The hooks named by a number with one bit per hook, in the order of the fields
    /// (`enter` is bit 0): how a plugin's answer crosses the boundary to the host.
    pub fn from_bits(bits: i64) -> Hooks {
        Hooks {
            enter: bits & 1 != 0,
            actions: bits & 2 != 0,
            restricts: bits & 4 != 0,
            figure_step: bits & 8 != 0,
        }
    }
}

/// How many commands or actions a hook's output holds before it hands them over.
const BATCH: usize = 16;

/// Where a hook's commands go.
pub struct Out<'a> {
    sink: &'a Sink,
    /// The first `len` are written.
    buf: [MaybeUninit<RawCommand>; BATCH],
    len: usize,
}

impl<'a> Out<'a> {
    #[doc(hidden)]
    #[inline]
    pub fn new(sink: &'a Sink) -> Out<'a> {
        Out {
            sink,
            buf: [const { MaybeUninit::uninit() }; BATCH],
            len: 0,
        }
    }

    /// Asks the engine for a change; it is checked and applied when the hook returns,
    /// in the order pushed.
    #[inline(always)]
    pub fn push(&mut self, command: Command) {
        if let Command::SetRecord(_) | Command::ScoreWords { .. } = command {
            // Its values or words live only as long as the command: handed over at once.
            self.flush();
            command.with_raw(|raw| (self.sink.commands)(self.sink.target, raw, 1));
            return;
        }
        if self.len == BATCH {
            self.flush();
        }
        self.buf[self.len].write(command.with_raw(|raw| *raw));
        self.len += 1;
    }

    #[inline]
    fn flush(&mut self) {
        if self.len > 0 {
            // The first `len` entries are written (`MaybeUninit<T>` is laid out as `T`).
            (self.sink.commands)(self.sink.target, self.buf.as_ptr().cast(), self.len);
            self.len = 0;
        }
    }
}

impl Drop for Out<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Where [`Expansion::actions`] offers its actions.
pub struct Offers<'a> {
    sink: &'a Sink,
    /// The first `len` are written.
    buf: [MaybeUninit<RawAction>; BATCH],
    len: usize,
}

impl<'a> Offers<'a> {
    #[doc(hidden)]
    #[inline]
    pub fn new(sink: &'a Sink) -> Offers<'a> {
        Offers {
            sink,
            buf: [const { MaybeUninit::uninit() }; BATCH],
            len: 0,
        }
    }

    /// Offers one action to the player whose decision it is.
    #[inline(always)]
    pub fn push(&mut self, action: Action) {
        if self.len == BATCH {
            self.flush();
        }
        self.buf[self.len].write(action.to_raw());
        self.len += 1;
    }

    #[inline]
    fn flush(&mut self) {
        if self.len > 0 {
            // The first `len` entries are written (`MaybeUninit<T>` is laid out as `T`).
            (self.sink.actions)(self.sink.target, self.buf.as_ptr().cast(), self.len);
            self.len = 0;
        }
    }
}

impl Drop for Offers<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The rules of one expansion. Every hook has a default that does nothing.
///
/// An expansion is made once for each set of rules a host puts together
/// ([`Expansion::new`], where it looks up the names it registered) and is then asked
/// its hooks for every game played under those rules. It keeps nothing about a game:
/// what it must remember lives in the game, in its own record
/// ([`View::record`], changed with [`Command::SetRecord`] and friends).
/// Hooks must be deterministic: same game in, same answer out.
///
/// # Example
///
/// An expansion that gives a player a point for every tenth tile they place:
///
/// ```
/// use carc_sdk::{Command, Event, EventKind, EventKinds, Expansion, Out, Reason, View};
///
/// pub struct Milestones;
///
/// impl Expansion for Milestones {
///     // Usually `include_str!("../manifest.toml")`.
///     const MANIFEST: &'static str = "id = \"milestones\"\nname = \"Milestones\"\nversion = \"0.1.0\"\n";
///
///     fn new(_view: &View) -> Result<Self, String> {
///         Ok(Milestones)
///     }
///
///     fn events(&self) -> EventKinds {
///         EventKinds::of(&[EventKind::TilePlaced])
///     }
///
///     fn on_event(&self, view: &View, event: &Event, out: &mut Out) {
///         if let Event::TilePlaced { player: Some(player), .. } = *event {
///             if view.tile_count() % 10 == 0 {
///                 out.push(Command::Score { player, points: 1, reason: Reason::Text("a milestone") });
///             }
///         }
///     }
/// }
///
/// carc_sdk::export_expansion!(Milestones);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a carc expansion",
    label = "this type does not implement `carc_sdk::Expansion`",
    note = "implement it: `impl carc_sdk::Expansion for {Self} {{ const MANIFEST: &'static str = include_str!(\"../manifest.toml\"); fn new(view: &carc_sdk::View) -> Result<Self, String> {{ ... }} }}` (docs/writing-an-expansion.md)"
)]
pub trait Expansion: Sized + Send + Sync + 'static {
    /// The manifest (`manifest.toml`'s text): what the expansion declares. Loaded from a
    /// plugin directory, the directory's own `manifest.toml` is read instead, and it must
    /// declare the same as this text, but for `library` and `tiles` (a library built with
    /// another manifest is refused): write `include_str!("../manifest.toml")`. `--plugin
    /// PATH`, a linked-in plugin and `carc-testing` use this text.
    const MANIFEST: &'static str;
    /// The tile data it ships: `(file name, TOML text)` pairs. Loaded from a plugin
    /// directory, the tile files there are read instead (as with [`Expansion::MANIFEST`]).
    const TILES: &'static [(&'static str, &'static str)] = &[];

    /// Makes the expansion for one set of rules: resolve names to ids here, once.
    fn new(view: &View) -> Result<Self, String>;

    /// Which per-phase hooks it uses in the phase of that name; asked once per set of
    /// rules, so the engine calls only those. The default (every hook) is always correct.
    fn hooks_in(&self, _phase: &str) -> Hooks {
        Hooks::ALL
    }

    /// The kinds of events [`Expansion::on_event`] wants (none by default).
    fn events(&self) -> EventKinds {
        EventKinds::NONE
    }

    /// Whether events about tiles of this type concern it (asked once per tile type). Only
    /// the events that name a tile type are filtered (drawn, discarded, set aside,
    /// returned, placed); figure and scoring events arrive whatever the tile.
    fn watches_tile(&self, _view: &View, _tile: TileType) -> bool {
        true
    }

    /// Whether tiles of this type stay out of the supply under its options.
    fn excludes_tile(&self, _view: &View, _tile: TileType) -> bool {
        false
    }

    /// Whether a drawn tile of this type may go back into the supply and be drawn again
    /// (PD-7), so that a record may list it more often than the supply holds it.
    fn may_redraw(&self, _view: &View, _tile: TileType) -> bool {
        false
    }

    /// A phase begins (automatic work such as scoring).
    fn enter_phase(&self, _view: &View, _out: &mut Out) {}

    /// Offers the actions this expansion adds to the pending decision. A phase lasts while
    /// any expansion offers something in it: once its decision is taken (remember that
    /// in the record), stop offering, or the phase never ends. A verb is offered with the
    /// argument its manifest declares (`arg`): one played with another disables the
    /// expansion.
    fn actions(&self, _view: &View, _out: &mut Offers) {}

    /// Whether it may forbid any of the offered actions now; only then is
    /// [`Expansion::forbid`] asked.
    fn restricts(&self, _view: &View) -> bool {
        false
    }

    /// Whether its rules forbid an action offered by any expansion.
    fn forbids(&self, _view: &View, _action: &Action) -> bool {
        false
    }

    /// Sets `forbidden[i]` for each action its rules forbid (all false on entry). The
    /// default asks [`Expansion::forbids`] about each. The verdict on one action must
    /// not depend on the other actions offered with it: the engine may ask about part
    /// of a decision's actions (on a very large board, only the placement a player
    /// asked for).
    fn forbid(&self, view: &View, actions: &[Action], forbidden: &mut [bool]) {
        for (a, f) in actions.iter().zip(forbidden.iter_mut()) {
            *f = self.forbids(view, a);
        }
    }

    /// Why `action` may not be played now, in words for the player (protocol 1.2).
    ///
    /// Asked only when a player or a record asks for a move that is not allowed (never
    /// while bots play), first of the expansions whose rules forbid it, then of the
    /// others; the first reason given is shown. `None` (the default) leaves it to the
    /// others and, last, to the engine's general reason. Typically a rule that
    /// forbids or declines to offer something says why here:
    ///
    /// ```
    /// # use carc_sdk::{Action, View};
    /// # struct Builders;
    /// # impl Builders {
    /// fn why_not(&self, _view: &View, action: &Action) -> Option<String> {
    ///     match action {
    ///         Action::Verb { .. } => Some("the builder moves only on its own road".into()),
    ///         _ => None,
    ///     }
    /// }
    /// # }
    /// ```
    fn why_not(&self, _view: &View, _action: &Action) -> Option<String> {
        None
    }

    /// Carries out an action it offered; only the expansion that offered it is asked,
    /// and the engine does nothing else for it: for its own [`Action::Deploy`] an
    /// expansion pushes [`Command::Deploy`](crate::Command::Deploy) and
    /// [`Command::FigureStepDone`](crate::Command::FigureStepDone) itself, and an
    /// [`Action::Pass`] it offered is its own to carry out too.
    fn apply(&self, _view: &View, _action: &Action, _out: &mut Out) {}

    /// Reacts to something that happened.
    fn on_event(&self, _view: &View, _event: &Event, _out: &mut Out) {}

    /// Final scoring at the end of the game, after the base game's (BASE-9). Between
    /// expansions the order is declared (protocol 1.4): those with a rule at the decision
    /// point `final-scoring` score in that point's order, then the others, by id.
    fn final_scoring(&self, _view: &View, _out: &mut Out) {}

    /// What a feature of the base game is worth when it is scored (protocol 1.3): `worth`
    /// is what the base game gives it (BASE-7 when it is complete, BASE-9 at the end of
    /// the game, [`View::game_over`]) as the rules before this one have changed it;
    /// return the worth under this expansion's rules (often `worth` itself: the feature
    /// is not one of yours). Every player with the majority scores the worth returned.
    ///
    /// Asked only of an expansion whose manifest declares a rule at the decision point
    /// `feature-worth` (one `[[rule]]` with `point = "feature-worth"` and the feature
    /// kinds whose worth it changes as its `claims`), for every base-game feature of
    /// those kinds scored, in the order the rules there are declared in (`before`,
    /// `after`; two rules claiming the same kind must be ordered).
    /// [`View::feature_worth`] stays the base game's worth.
    fn feature_worth(&self, _view: &View, _segment: SegmentId, worth: i32) -> i32 {
        worth
    }

    /// How strong a follower is in the feature it stands in, when the feature's majority
    /// is decided (protocol 1.5): `strength` is what it counts so far (its kind's
    /// `strength` in the manifest, as the rules before this one have changed it);
    /// return what it counts under this expansion's rules. `segment` is where it
    /// stands. A mayor counts the pennants of its city, for example.
    ///
    /// Asked only of an expansion whose manifest declares a rule at the decision point
    /// `figure-strength` (one `[[rule]]` with `point = "figure-strength"` and the
    /// follower kinds it judges as its `claims`), for followers of those kinds,
    /// whenever a majority is decided (scoring, [`View::majority`]), in the order the
    /// rules there are declared in (two rules claiming the same kind must be ordered).
    /// At most [`MAX_STRENGTH`](crate::abi::hook::MAX_STRENGTH) counts. A majority this
    /// rule asks for while it is asked ([`View::majority`]) counts the kinds' strengths
    /// alone: no rule is asked inside itself.
    fn figure_strength(
        &self,
        _view: &View,
        _figure: FigureId,
        _segment: SegmentId,
        strength: u32,
    ) -> u32 {
        strength
    }
}
