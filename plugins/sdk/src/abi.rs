//! The binary boundary between the host and a plugin: frozen.
//!
//! What crosses it is a root module of a few function pointers ([`PluginMod`]), checked
//! by abi_stable when the library is loaded, and a handful of `#[repr(C)]` values that
//! never change: the host's query table ([`HostTable`]), the output sink ([`Sink`]), the
//! input of a hook call ([`HookInput`]), and actions, commands and events encoded as a
//! kind tag with scalar fields ([`RawAction`], [`RawCommand`], [`RawEvent`]).
//!
//! How it grows: a new query, hook, command, action or event kind is a new id in the
//! modules below. An older plugin never uses the new ids and the host never sends them
//! to it (the host knows the protocol version each plugin was built for). Existing ids
//! keep their meaning for good; none of these structs ever gains a field.
//!
//! Plugin authors do not use this module directly: [`View`](crate::View),
//! [`Out`](crate::Out) and [`export_expansion!`](crate::export_expansion) wrap it.
#![allow(non_camel_case_types)]

use std::ffi::c_void;

use abi_stable::library::RootModule;
use abi_stable::sabi_types::VersionStrings;
use abi_stable::std_types::{RStr, RString};
use abi_stable::{StableAbi, declare_root_module_statics};

/// The protocol version, as a literal (for [`PROTOCOL`] and the protocol line).
macro_rules! protocol {
    () => {
        "1.6.0"
    };
}

/// The protocol's features, as a literal (for [`FEATURES`] and the protocol line).
macro_rules! features {
    () => {
        ""
    };
}

/// The protocol this SDK speaks (semver): a host loads a plugin whose protocol has the
/// host's major version and a minor version no newer than the host's.
pub const PROTOCOL: &str = protocol!();

/// Optional features beyond what the protocol version itself announces (a minor version
/// adds ids or meanings, as 1.1 to 1.6 did), comma-separated; none yet.
pub const FEATURES: &str = features!();

/// The protocol and its features as a plugin reports them: `"<protocol>;<features>"`.
pub const PROTOCOL_LINE: &str = concat!(protocol!(), ";", features!());

/// What most hooks ask first, answered before the call so that it costs no query (each
/// is also a query; -1 where there is none, and for all of them while an expansion is
/// set up, with no game).
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct GameFacts {
    /// [`query::PLAYERS`]
    pub players: i64,
    /// [`query::CURRENT_PLAYER`]
    pub current_player: i64,
    /// [`query::DECIDER`]
    pub decider: i64,
    /// [`query::TURN`]
    pub turn: i64,
    /// [`query::PHASE`]
    pub phase: i64,
    /// [`query::PLACED_TILE`]
    pub placed_tile: i64,
    /// [`query::DRAWN_TILE`]
    pub drawn_tile: i64,
    /// [`query::FIGURE_STEP_DONE`]
    pub figure_step_done: i64,
    /// [`query::GAME_OVER`]
    pub game_over: i64,
    /// [`query::TILE_COUNT`]
    pub tile_count: i64,
    /// The calling expansion's own record: its values (valid during the call)…
    pub record: *const i64,
    /// …and their number.
    pub record_len: usize,
}

impl GameFacts {
    /// No game (while an expansion is set up).
    pub const NONE: GameFacts = GameFacts {
        players: -1,
        current_player: -1,
        decider: -1,
        turn: -1,
        phase: -1,
        placed_tile: -1,
        drawn_tile: -1,
        figure_step_done: -1,
        game_over: -1,
        tile_count: -1,
        record: std::ptr::null(),
        record_len: 0,
    };
}

/// The host's query table, handed to every hook call. `game` is opaque to the plugin.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct HostTable {
    /// The game (or, while an expansion is set up, the rules) being asked about.
    pub game: *const c_void,
    /// What most hooks ask first, already answered.
    pub facts: GameFacts,
    /// A scalar query: `(game, query id, a, b) -> value` (negative: none).
    pub query: extern "C" fn(*const c_void, u32, i64, i64) -> i64,
    /// A list query: writes up to `cap` values into `buf`, returns how many there are
    /// in all (call again with more room when that is more than `cap`). The host only
    /// writes into `buf`, never reads it: the room may be uninitialized.
    pub list: extern "C" fn(*const c_void, u32, i64, i64, *mut i64, usize) -> usize,
    /// A query by name: `(game, query id, a, name bytes, name length) -> value`.
    pub name: extern "C" fn(*const c_void, u32, i64, *const u8, usize) -> i64,
    /// The calling expansion's own record in the game: a pointer to its values (valid
    /// during the hook call), their number written to the `usize`.
    pub record: extern "C" fn(*const c_void, *mut usize) -> *const i64,
}

/// Where a hook's output goes: commands and offered actions, handed over a batch at a
/// time (`len` of them at the pointer, valid during the call).
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct Sink {
    /// The host's collector, opaque to the plugin.
    pub target: *mut c_void,
    /// Takes `len` commands.
    pub commands: extern "C" fn(*mut c_void, *const RawCommand, usize),
    /// Takes `len` offered actions.
    pub actions: extern "C" fn(*mut c_void, *const RawAction, usize),
}

/// The input of one hook call; which fields mean something depends on the hook.
#[repr(C)]
#[derive(StableAbi, Clone, Copy)]
pub struct HookInput {
    /// A scalar argument (a tile type, …).
    pub a: i64,
    /// The action to carry out ([`hook::APPLY`]).
    pub action: RawAction,
    /// The event to react to ([`hook::ON_EVENT`]).
    pub event: RawEvent,
    /// Actions to judge ([`hook::FORBID`]), `len` of them.
    pub actions: *const RawAction,
    /// How many `actions` (and `flags`).
    pub len: usize,
    /// One flag per action for [`hook::FORBID`] to set (0 on entry).
    pub flags: *mut u8,
    /// Text ([`hook::HOOKS_IN`]: the phase's name), `text_len` bytes of UTF-8.
    pub text: *const u8,
    /// Length of `text`.
    pub text_len: usize,
}

/// An action, encoded: `kind` from [`action`], the rest by kind.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawAction {
    /// [`action`] kind.
    pub kind: u32,
    /// Place: the rotation in quarter turns; verb: the verb id.
    pub verb: u32,
    /// Place: the tile type; deploy: the figure kind; verb: the argument's [`arg`] kind.
    pub a: i64,
    /// Place: the square ([`pack_pos`]); deploy: the segment; verb: the argument.
    pub b: i64,
}

/// A command, encoded: `kind` from [`command`], the rest by kind.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug)]
pub struct RawCommand {
    /// [`command`] kind.
    pub kind: u32,
    /// A small argument (a player).
    pub small: u32,
    /// First argument.
    pub a: i64,
    /// Second argument.
    pub b: i64,
    /// Third argument.
    pub c: i64,
    /// Words for the turn log (UTF-8, `text_len` bytes, living as long as the plugin
    /// library, which is never unloaded), or the values of a new record
    /// ([`command::SET_RECORD`]: `text_len` values of `i64`, valid during the call).
    pub text: *const u8,
    /// Length of `text`.
    pub text_len: usize,
}

/// An event, encoded: `kind` from [`event`], the rest by kind.
#[repr(C)]
#[derive(StableAbi, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawEvent {
    /// [`event`] kind.
    pub kind: u32,
    /// A player, or -1.
    pub player: i32,
    /// First argument.
    pub a: i64,
    /// Second argument.
    pub b: i64,
    /// Third argument.
    pub c: i64,
    /// Fourth argument.
    pub d: i64,
}

/// Packs a square into one number (x in the high half, y in the low half).
#[inline]
pub const fn pack_pos(x: i32, y: i32) -> i64 {
    ((x as i64) << 32) | (y as u32 as i64)
}

/// Unpacks [`pack_pos`].
#[inline]
pub const fn unpack_pos(v: i64) -> (i32, i32) {
    ((v >> 32) as i32, v as i32)
}

/// Where a figure is, as one number: -1 supply, -2 off the board, `2s` a segment `s`,
/// `2t + 1` a tile `t`.
pub mod place {
    /// In its owner's supply.
    pub const SUPPLY: i64 = -1;
    /// Off the board (neutral figures before they enter, or removed).
    pub const OFF_BOARD: i64 = -2;
}

/// Action kinds.
pub mod action {
    /// Place the drawn tile.
    pub const PLACE: u32 = 1;
    /// Deploy a figure from the supply onto a segment.
    pub const DEPLOY: u32 = 2;
    /// Decline an optional step.
    pub const PASS: u32 = 3;
    /// An expansion's own move.
    pub const VERB: u32 = 4;
}

/// Argument kinds of a verb.
pub mod arg {
    /// No argument.
    pub const NONE: i64 = 0;
    /// A square ([`pack_pos`](super::pack_pos)).
    pub const POS: i64 = 1;
    /// A segment.
    pub const SEGMENT: i64 = 2;
    /// A side (0 N, 1 E, 2 S, 3 W).
    pub const SIDE: i64 = 3;
    /// A figure.
    pub const FIGURE: i64 = 4;
}

/// Command kinds.
pub mod command {
    /// Set the drawn tile aside; the player draws again.
    pub const SET_ASIDE_DRAWN: u32 = 1;
    /// Put the drawn tile back into the supply at random; the player draws again.
    pub const RETURN_DRAWN_TO_SUPPLY: u32 = 2;
    /// Shuffle the set-aside tiles back into the supply.
    pub const RESHUFFLE_SET_ASIDE: u32 = 3;
    /// Deploy: `small` player, `a` figure kind, `b` segment.
    pub const DEPLOY: u32 = 4;
    /// Move: `a` figure, `b` place, text why.
    pub const MOVE_FIGURE: u32 = 5;
    /// Return home: `a` figure, text why.
    pub const RETURN_FIGURE: u32 = 6;
    /// Score: `small` player, `a` points, `b` segment of the feature or -1, text why.
    pub const SCORE: u32 = 7;
    /// Mark scored: `a` segment.
    pub const MARK_SCORED: u32 = 8;
    /// The figure step is over.
    pub const FIGURE_STEP_DONE: u32 = 9;
    /// The next decision is `small`'s.
    pub const SET_DECIDER: u32 = 10;
    /// Replace the record with `text_len` values at `text`.
    pub const SET_RECORD: u32 = 11;
    /// Set record value `a` to `b`.
    pub const SET_RECORD_VALUE: u32 = 12;
    /// Resize the record to `a` values.
    pub const RESIZE_RECORD: u32 = 13;
    /// Run on-request phase `a` in this turn.
    pub const REQUEST_PHASE: u32 = 14;
    /// End the game now.
    pub const END_GAME: u32 = 15;
    /// Protocol 1.1: when this turn's phases are over, the same player draws and plays
    /// another tile, the turn's phases from `draw` on running again.
    pub const ANOTHER_TILE: u32 = 16;
    /// Protocol 1.5: points for a player for something in words made at the time:
    /// `small` the player, `a` the points, `text` the words (UTF-8, `text_len` bytes, at
    /// most [`MAX_WORDS`], valid during the call only: the host copies them).
    pub const SCORE_WORDS: u32 = 17;
    /// The longest words [`SCORE_WORDS`] carries, in bytes.
    pub const MAX_WORDS: usize = 200;
    /// Protocol 1.6: the figure step is over, and so is every figure step left in this
    /// turn (at a further tile of it the player may only pass).
    pub const FIGURES_DONE_THIS_TURN: u32 = 18;
}

/// Event kinds (also the bit of each kind in an event mask).
pub mod event {
    /// A turn began: `a` turn number, `player`.
    pub const TURN_STARTED: u32 = 0;
    /// A tile was drawn: `a` tile type.
    pub const TILE_DRAWN: u32 = 1;
    /// A drawn tile fitted nowhere and left the game: `a` tile type.
    pub const TILE_DISCARDED: u32 = 2;
    /// A drawn tile was set aside: `a` tile type.
    pub const TILE_SET_ASIDE: u32 = 3;
    /// A drawn tile went back into the supply: `a` tile type.
    pub const TILE_RETURNED: u32 = 4;
    /// Set-aside tiles went back: `a` how many.
    pub const TILES_RESHUFFLED: u32 = 5;
    /// A tile was placed: `a` tile type, `b` square, `c` rotation, `d` the placed tile,
    /// `player` (-1 for the start tile).
    pub const TILE_PLACED: u32 = 6;
    /// A figure was deployed: `a` figure, `b` segment.
    pub const FIGURE_DEPLOYED: u32 = 7;
    /// A figure moved: `a` figure, `b` from, `c` to (places), `player` whose decision.
    pub const FIGURE_MOVED: u32 = 8;
    /// A figure went home: `a` figure, `b` from.
    pub const FIGURE_RETURNED: u32 = 9;
    /// Points: `player`, `a` points, `b` segment of the feature or -1.
    pub const SCORED: u32 = 10;
    /// A feature was scored for good: `a` a segment of it.
    pub const FEATURE_SCORED: u32 = 11;
    /// The game ended; final scoring follows.
    pub const GAME_ENDED: u32 = 12;
}

/// Hook ids: what [`PluginMod::call`] is asked to do.
pub mod hook {
    /// A phase begins.
    pub const ENTER_PHASE: u32 = 1;
    /// Offer actions.
    pub const ACTIONS: u32 = 2;
    /// Whether it may forbid actions now (returns 0 or 1).
    pub const RESTRICTS: u32 = 3;
    /// Flag forbidden actions.
    pub const FORBID: u32 = 4;
    /// Carry out an action it offered.
    pub const APPLY: u32 = 5;
    /// React to an event.
    pub const ON_EVENT: u32 = 6;
    /// Final scoring.
    pub const FINAL_SCORING: u32 = 7;
    /// Whether tile type `a` stays out of the supply (0 or 1).
    pub const EXCLUDES_TILE: u32 = 8;
    /// Whether tile type `a` may be drawn again (0 or 1).
    pub const MAY_REDRAW: u32 = 9;
    /// Whether events about tile type `a` concern it (0 or 1).
    pub const WATCHES_TILE: u32 = 10;
    /// Which hooks it uses in the phase named by the text ([`Hooks`](crate::Hooks) bits).
    pub const HOOKS_IN: u32 = 11;
    /// Which events it wants (a mask of [`event`](super::event) kinds).
    pub const EVENTS: u32 = 12;
    /// Why the action in [`HookInput::action`](super::HookInput) may not be played now:
    /// returns 1 with the reason written to the call's string, 0 when it gives none
    /// (protocol 1.2; asked only when a player's move is refused).
    pub const WHY_NOT: u32 = 13;
    /// What a feature is worth when it is scored, under the expansion's rules (protocol
    /// 1.3; not the base game's worth, which is [`query::FEATURE_WORTH`](super::query)):
    /// `a` is one of its segments, [`HookInput::event`](super::HookInput)'s `a` its
    /// worth so far; returns the worth plus [`WORTH_OFFSET`], so that every worth comes
    /// back positive (0 is what a plugin that does not know the hook answers). Asked
    /// only of expansions with a rule at the decision point `feature-worth`.
    pub const FEATURE_WORTH: u32 = 14;
    /// How strong a follower is in the feature it stands in, when the feature's majority
    /// is decided (protocol 1.5): `a` is the figure, [`HookInput::event`](super::HookInput)'s
    /// `a` its strength so far (never negative); returns its strength (0 to
    /// [`MAX_STRENGTH`]) plus [`STRENGTH_OFFSET`] (0 is what a plugin that does not know
    /// the hook answers). Asked only of expansions with a rule at the decision point
    /// `figure-strength`, about followers of the kinds the rule claims.
    pub const FIGURE_STRENGTH: u32 = 15;

    /// Added to the worth [`FEATURE_WORTH`] returns.
    pub const WORTH_OFFSET: i64 = 1 << 32;

    /// The greatest strength [`FIGURE_STRENGTH`] may give a follower (the SDK gives this
    /// much for more).
    pub const MAX_STRENGTH: u32 = 1 << 16;

    /// Added to the strength [`FIGURE_STRENGTH`] returns.
    pub const STRENGTH_OFFSET: i64 = 1 << 32;
}

/// What [`PluginMod::call`] returns besides a value (which is never negative).
pub mod status {
    /// The hook panicked; the message is in the error string.
    pub const PANICKED: i64 = -1;
    /// The hook id is unknown to this plugin.
    pub const UNKNOWN_HOOK: i64 = -2;
}

/// Query ids. Scalar queries answer -1 for "none".
pub mod query {
    // The game.
    /// Number of players.
    pub const PLAYERS: u32 = 1;
    /// Whose turn it is.
    pub const CURRENT_PLAYER: u32 = 2;
    /// Whose decision is pending.
    pub const DECIDER: u32 = 3;
    /// Turn number, from 1.
    pub const TURN: u32 = 4;
    /// The current phase.
    pub const PHASE: u32 = 5;
    /// The tile placed this turn, or -1.
    pub const PLACED_TILE: u32 = 6;
    /// Whether the figure step of this turn is over.
    pub const FIGURE_STEP_DONE: u32 = 7;
    /// How many tiles are set aside.
    pub const SET_ASIDE: u32 = 8;
    /// Whether tile type `a` fits somewhere on the board now.
    pub const FITS_SOMEWHERE: u32 = 9;
    /// The tile drawn and not yet placed, or -1.
    pub const DRAWN_TILE: u32 = 10;
    /// Whether the game is over (final scoring under way or done).
    pub const GAME_OVER: u32 = 11;
    /// How many tiles are left to draw.
    pub const SUPPLY_COUNT: u32 = 13;
    /// The `a`-th tile left to draw (0: the next one), or -1.
    pub const SUPPLY_TILE: u32 = 14;
    /// While actions are judged (`restricts`, `forbid`): whether an expansion other than
    /// the base game and the asking one offered some of them (`a` = 0), or some
    /// deployments among them (`a` = 1).
    pub const OTHERS_OFFER: u32 = 12;
    // Tiles on the board.
    /// Number of tiles on the board.
    pub const TILE_COUNT: u32 = 20;
    /// Tile type of placed tile `a`.
    pub const TILE_TYPE: u32 = 21;
    /// Square of placed tile `a` (packed).
    pub const TILE_POS: u32 = 22;
    /// Rotation of placed tile `a` (quarter turns).
    pub const TILE_ROTATION: u32 = 23;
    /// The placed tile on square `a` (packed), or -1.
    pub const TILE_AT: u32 = 24;
    /// The neighbour of placed tile `a` on side `b`, or -1.
    pub const NEIGHBOUR: u32 = 25;
    /// Number of segments of placed tile `a`.
    pub const SEGMENT_COUNT: u32 = 26;
    /// Segment `b` of placed tile `a` (in the order of its tile definition).
    pub const SEGMENT: u32 = 27;
    /// The segment of placed tile `a` touching board port `b`, or -1.
    pub const SEGMENT_AT: u32 = 28;
    /// Tiles placed on the 3×3 squares centred on square `a` (packed).
    pub const TILES_AROUND: u32 = 29;
    // Segments and features.
    /// The placed tile of segment `a`.
    pub const SEGMENT_TILE: u32 = 40;
    /// The board ports of segment `a` (bit i: port i, N N E order from NNW).
    pub const SEGMENT_PORTS: u32 = 41;
    /// The feature kind of segment `a`.
    pub const SEGMENT_KIND: u32 = 42;
    /// Whether segment `a` carries marker `b`.
    pub const SEGMENT_HAS_MARKER: u32 = 43;
    /// Packed totals of the feature of segment `a`: open ends (bits 0–15), occupants
    /// (16–31), pennants (32–47), scored (bit 48), its kind (bits 49–62).
    pub const FEATURE: u32 = 44;
    /// Whether segments `a` and `b` belong to one feature.
    pub const SAME_FEATURE: u32 = 45;
    /// Whether the feature of segment `a` is complete (BASE-6).
    pub const FEATURE_COMPLETE: u32 = 46;
    /// The players with the most strength in the feature of segment `a`, one bit each
    /// (each follower as strong as the rules at `figure-strength` say).
    pub const MAJORITY: u32 = 47;
    /// What the feature of segment `a` is worth under base scoring now (complete, or
    /// at the end of the game when it is not); the rules at `feature-worth` do not
    /// change it (see [`hook::FEATURE_WORTH`](super::hook::FEATURE_WORTH)).
    pub const FEATURE_WORTH: u32 = 48;
    /// Number of tiles of the feature of segment `a`.
    pub const FEATURE_TILES: u32 = 49;
    /// Whether any segment of the feature of segment `a` carries marker `b` (protocol
    /// 1.3); -1 when `a` is no segment.
    pub const FEATURE_HAS_MARKER: u32 = 50;
    // Figures.
    /// Packed summary of figure `a`: kind (bits 0–15), owner (16–23, 255 neutral).
    pub const FIGURE: u32 = 60;
    /// Where figure `a` is (a place number).
    pub const FIGURE_PLACE: u32 = 61;
    /// The placed tile figure `a` stands on, or -1.
    pub const FIGURE_TILE: u32 = 62;
    /// How many times figure `a` has moved (wrapping).
    pub const FIGURE_MOVES: u32 = 63;
    /// The neutral figure of kind `a`, or -1; with `b` > 0, in a game of `b` players
    /// (answered from the rules alone).
    pub const NEUTRAL_FIGURE: u32 = 64;
    /// How many figures of kind `b` player `a` has in supply.
    pub const IN_SUPPLY: u32 = 65;
    /// Number of figures in the game.
    pub const FIGURE_COUNT: u32 = 66;
    /// Where figure `a` is and on which tile, packed: the place number plus 2 (bits
    /// 0–31) and the placed tile plus 1, or 0 off the board (bits 32–62).
    pub const FIGURE_WHERE: u32 = 67;
    // Rules: tile types, kinds, figure kinds.
    /// Number of tile types.
    pub const TILE_TYPE_COUNT: u32 = 80;
    /// Whether tile type `a` carries marker `b` on the tile.
    pub const TILE_TYPE_HAS_MARKER: u32 = 81;
    /// Whether some segment of tile type `a` carries marker `b`.
    pub const TILE_TYPE_SEGMENT_MARKER: u32 = 82;
    /// Class of figure kind `a` (0 follower, 1 special, 2 neutral).
    pub const FIGURE_KIND_CLASS: u32 = 83;
    /// Number of figure kinds.
    pub const FIGURE_KIND_COUNT: u32 = 84;
    /// How feature kind `a` completes: 0 never, 1 when closed, 2 when surrounded.
    pub const KIND_COMPLETION: u32 = 85;
    /// Number of phases.
    pub const PHASE_COUNT: u32 = 86;
    /// Number of feature kinds.
    pub const KIND_COUNT: u32 = 87;
    /// The feature kind tile type `a` shows on side `b` (0 N, 1 E, 2 S, 3 W) at rotation
    /// 0, as its tile data's `sides` says (protocol 1.4); -1 when either is none.
    pub const TILE_TYPE_SIDE: u32 = 88;
    // Lists.
    /// The placed tiles carrying tile marker `a`, in placement order.
    pub const TILES_WITH_MARKER: u32 = 100;
    /// The segments carrying marker `a`, in placement order.
    pub const SEGMENTS_WITH_MARKER: u32 = 101;
    /// The figures on the feature of segment `a`.
    pub const FIGURES_ON_FEATURE: u32 = 102;
    /// The figures on placed tile `a` (on its segments or on the tile itself).
    pub const FIGURES_ON_TILE: u32 = 103;
    /// Player `a`'s figures of kind `b`, wherever they are.
    pub const FIGURES_OF: u32 = 104;
    /// The placed tiles of the feature of segment `a`.
    pub const FEATURE_TILE_LIST: u32 = 106;
    /// The segments of placed tile `a`, in the order of its tile definition.
    pub const SEGMENTS_OF: u32 = 107;
    /// Player `a`'s figures of kind `b` that are on the board, as triples: the figure,
    /// its place number, its placed tile.
    pub const PLACED_FIGURES_OF: u32 = 108;
    /// The four neighbours of placed tile `a`, by side (N, E, S, W), -1 where none.
    pub const NEIGHBOURS: u32 = 109;
    /// The segments on the board of feature kind `a`, in placement order.
    pub const SEGMENTS_OF_KIND: u32 = 110;
    /// The feature kinds of tile type `a`'s segments, in the order of its definition.
    pub const TILE_TYPE_KINDS: u32 = 111;
    /// The segments on the board whose feature no figure stands in and that is not
    /// scored, in placement order, as triples: the segment, its packed feature totals
    /// (as [`FEATURE`] answers them) and its placed tile.
    pub const VACANT_SEGMENTS: u32 = 112;
    /// The cities the feature of segment `a` (a field) touches, complete or not: one
    /// segment of each (protocol 1.5; none for another kind).
    pub const FIELD_CITIES: u32 = 113;
    // By name.
    /// Feature kind by name, or -1.
    pub const KIND: u32 = 120;
    /// Marker by name, or -1.
    pub const MARKER: u32 = 121;
    /// Verb by name, or -1.
    pub const VERB: u32 = 122;
    /// Phase by name, or -1.
    pub const PHASE_NAMED: u32 = 123;
    /// Figure kind by name (`namespace:name` or a bare name), or -1.
    pub const FIGURE_KIND: u32 = 124;
    /// Whether the calling expansion's option has a value: the name is `option=value`.
    pub const OPTION_IS: u32 = 125;
    /// Whether figure kind `a` carries the named tag.
    pub const FIGURE_KIND_TAGGED: u32 = 126;
    /// Whether feature kind `a` carries the named tag.
    pub const KIND_TAGGED: u32 = 127;
    /// Tile type by id (`base:D`), or -1.
    pub const TILE_TYPE_NAMED: u32 = 128;
    /// At a decision point, whether one rule acts before another as the manifests
    /// declare: the name is `point|rule a|rule b`; 1 when a acts first, 0 when b does,
    /// -1 when either is not in the order.
    pub const RUNS_BEFORE: u32 = 129;
    /// Whether tile type `a` belongs to the named set (edition), as its tile data says.
    pub const TILE_TYPE_IN_SET: u32 = 130;
}

/// The root module every plugin library exports. Its fields never change.
#[repr(C)]
#[derive(StableAbi)]
#[sabi(kind(Prefix(prefix_ref = PluginMod_Ref)))]
#[sabi(missing_field(panic))]
pub struct PluginMod {
    /// The protocol the plugin was built for (semver) and its features: `"1.2.0;"`.
    pub protocol: extern "C" fn() -> RStr<'static>,
    /// The manifest, as TOML text.
    pub manifest: extern "C" fn() -> RStr<'static>,
    /// Tile file `index` as (file name, TOML text); false past the last.
    pub tile_file: extern "C" fn(u32, &mut RStr<'static>, &mut RStr<'static>) -> bool,
    /// Makes the expansion for one set of rules (names resolved through the table);
    /// null with the reason in the string when it cannot.
    pub instantiate: extern "C" fn(&HostTable, &mut RString) -> *mut c_void,
    /// Runs a hook ([`hook`]) of an instance: the value it returns (never negative), or
    /// a [`status`] with the reason in the string. A hook answering with text
    /// ([`hook::WHY_NOT`]) writes it to the string.
    pub call: extern "C" fn(*mut c_void, u32, &HostTable, &HookInput, &Sink, &mut RString) -> i64,
    /// Drops an instance.
    #[sabi(last_prefix_field)]
    pub drop_instance: extern "C" fn(*mut c_void),
}

impl RootModule for PluginMod_Ref {
    declare_root_module_statics! {PluginMod_Ref}
    const BASE_NAME: &'static str = "carc_plugin";
    const NAME: &'static str = "carc plugin";
    const VERSION_STRINGS: VersionStrings = abi_stable::package_version_strings!();
}
