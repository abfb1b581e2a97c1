//! Expansions written against the SDK ([`carc_sdk`]), hosted by the engine: a plugin's
//! root module (from a shared library, or linked in) becomes an
//! [`crate::expansion::Expansion`] the engine runs like any other.
//!
//! The engine calls the plugin's hooks through the module's function pointers, hands it
//! its query table (`queries.rs`) and decodes what it returns (`codec.rs`). A plugin that
//! panics reports the panic as an error; it is turned into a panic here, on the host's
//! side, where the engine's shield catches it and disables the expansion.

mod codec;
#[cfg(feature = "protocol-next")]
pub(crate) mod next;
mod queries;

use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::{Arc, OnceLock};

use abi_stable::std_types::{RStr, RString};
use carc_sdk::abi::{self, HookInput, PluginMod_Ref, RawAction, RawCommand, RawEvent, Sink, hook};

use crate::catalog::Factory;
use crate::engine::{Action, Arg, Command, Event, GameState};
use crate::expansion::{Ctx, EventKinds, Expansion, Hooks, Manifest, TileSource};
use crate::features::NodeId;
use crate::figures::{FigureClass, FigureId};
use crate::rules::Rules;
use crate::tiles::TileType;

pub(crate) use queries::Asking;

/// The protocol version this host speaks.
#[cfg(not(feature = "protocol-next"))]
pub const HOST_PROTOCOL: &str = abi::PROTOCOL;

/// The protocol version this host speaks (1.7: built with the test-only feature
/// `protocol-next`).
#[cfg(feature = "protocol-next")]
pub const HOST_PROTOCOL: &str = next::PROTOCOL;

/// The type of [`PluginMod::call`](carc_sdk::abi::PluginMod).
type CallFn =
    extern "C" fn(*mut c_void, u32, &abi::HostTable, &HookInput, &Sink, &mut RString) -> i64;

/// An instance of a plugin's expansion (one per set of rules).
struct Instance(*mut c_void);

// SAFETY: the plugin's hooks only read the instance (`&E` with `E: Send + Sync`).
unsafe impl Send for Instance {}
// SAFETY: as above.
unsafe impl Sync for Instance {}

/// A plugin module's declarations, read once: its protocol, manifest and tile data.
struct Source {
    module: PluginMod_Ref,
    /// The module's hook dispatch, read once (the hot path calls it directly).
    call: CallFn,
    manifest: Manifest,
    tiles: Vec<TileSource>,
    protocol: String,
    /// The event kinds its protocol knows (one bit each): it is never sent others, even
    /// when its event mask names them.
    known_events: u32,
    /// Whether its protocol (1.2 or newer) has [`hook::WHY_NOT`].
    answers_why_not: bool,
}

/// The event kinds a plugin built for `protocol` knows (one bit each): every kind but
/// those added after its version.
fn known_events(protocol: &str) -> u32 {
    #[cfg(feature = "protocol-next")]
    if minor_version(protocol).is_none_or(|m| m < 7) {
        return !(1 << next::TURN_ENDED);
    }
    let _ = protocol;
    u32::MAX
}

/// The minor version of a protocol (`1.2.0` → 2).
fn minor_version(protocol: &str) -> Option<u64> {
    protocol.split('.').nth(1)?.trim().parse().ok()
}

/// A decision point that is the engine's.
struct EnginePoint {
    /// Its name.
    name: &'static str,
    /// The protocol minor version (1.x) that made it the engine's.
    minor: u64,
    /// Whether a plugin built for an older protocol that declares a rule there is
    /// refused (it would never be asked; a rule at `final-scoring` of an older plugin is
    /// ordered, never refused).
    refused_before: bool,
}

/// The decision points that are the engine's.
const ENGINE_POINTS: [EnginePoint; 3] = [
    EnginePoint {
        name: crate::rules::FEATURE_WORTH,
        minor: 3,
        refused_before: true,
    },
    EnginePoint {
        name: crate::rules::FINAL_SCORING,
        minor: 4,
        refused_before: false,
    },
    EnginePoint {
        name: crate::strength::FIGURE_STRENGTH,
        minor: 5,
        refused_before: true,
    },
];

/// A manifest's rules at decision points that neither the engine nor any of `others` has
/// but whose names are near one that is (`feature-wroth`): each a likely typo, in words,
/// with the name meant. A rule there is asked by no one but its own expansion's rules:
/// at the engine's points the engine asks, at another expansion's the rules there are
/// ordered with it. Within two edits of the engine's points, one of the others'
/// (an expansion's own point may well be named like another's, `figure-moved` beside
/// `figure-move`).
pub fn mistyped_points(manifest: &Manifest, others: &[&Manifest]) -> Vec<String> {
    let engine: Vec<&str> = ENGINE_POINTS.iter().map(|p| p.name).collect();
    let mut theirs: Vec<&str> = Vec::new();
    for m in others.iter().filter(|m| m.id != manifest.id) {
        theirs.extend(m.rules.iter().map(|r| r.point.as_str()));
    }
    let near_one = |point: &str| {
        crate::tiles::validate::nearest(point, engine.iter().copied(), 2)
            .or_else(|| crate::tiles::validate::nearest(point, theirs.iter().copied(), 1))
    };
    manifest
        .rules
        .iter()
        .filter(|r| !engine.contains(&r.point.as_str()) && !theirs.contains(&r.point.as_str()))
        .filter_map(|r| {
            let near = near_one(&r.point)?;
            Some(format!(
                "its rule `{}` is at the decision point `{}`, which neither carc nor another \
                 expansion found here has; did you mean `{near}`?",
                r.id, r.point
            ))
        })
        .collect()
}

/// The newest protocol (1.x: its minor version) a manifest's declarations need, with
/// what needs it (`its rule `mayor` at `figure-strength``): its rules at the engine's
/// decision points, and phases placed next to several phases (1.5); `None` when any 1.x
/// will do.
pub fn protocol_needed(manifest: &Manifest) -> Option<(u64, String)> {
    let rules = ENGINE_POINTS.iter().filter_map(|point| {
        let rule = manifest.rules.iter().find(|r| r.point == point.name)?;
        Some((
            point.minor,
            format!("its rule `{}` at `{}`", rule.id, point.name),
        ))
    });
    let phases = manifest.phases.iter().filter_map(|p| {
        let several = [&p.after, &p.before]
            .into_iter()
            .flatten()
            .any(|a| matches!(a, crate::manifest::Anchor::Any(_)));
        several.then(|| {
            (
                5,
                format!("its phase `{}` (placed next to several phases)", p.name),
            )
        })
    });
    rules.chain(phases).max_by_key(|(minor, _)| *minor)
}

/// Reports a plugin's failure as a panic on the host's side, for the engine's shield to
/// catch (without the panic hook's message: the plugin's side has already reported it).
fn fail(why: &str) -> ! {
    std::panic::resume_unwind(Box::new(at_most(why.to_string(), MOST_PLUGIN_TEXT_CHARS)))
}

/// That an action expansion `me` offered is one it may offer: one the engine can play
/// and a record can hold, of this expansion's own. A tile type, figure kind, segment or
/// verb that exists; a verb its own manifest declares, with an argument of the kind
/// declared; a deployment of a figure some player has (a neutral figure is moved by
/// commands, never deployed).
fn check_offered(
    rules: &Rules,
    state: &GameState,
    me: usize,
    action: &Action,
) -> Result<(), String> {
    let segment = |node: NodeId| {
        if (node as usize) < state.board.graph.len() {
            Ok(())
        } else {
            Err(format!(
                "it offered a move onto segment {node}, which does not exist"
            ))
        }
    };
    match *action {
        Action::Place { tile, .. } if rules.tiles.types.get(tile as usize).is_none() => Err(
            format!("it offered to place tile type {tile}, which does not exist"),
        ),
        Action::Deploy { figure, node } => match rules.figure_kinds.get(usize::from(figure)) {
            None => Err(format!(
                "it offered to deploy figure kind {figure}, which does not exist"
            )),
            Some(k) if k.class == FigureClass::Neutral => Err(format!(
                "it offered to deploy the neutral figure `{}`, which is in no player's supply \
                 (a neutral figure is moved with a command, as the move's effect)",
                k.name
            )),
            Some(_) => segment(node),
        },
        Action::Verb { verb, ref arg } => match rules.verbs.get(verb as usize) {
            None => Err(format!(
                "it offered a move with verb number {verb}, which no enabled expansion \
                 declares"
            )),
            Some(v) if v.owner != me => Err(format!(
                "it offered `{}`, a move of `{}`: an expansion offers only the moves its own \
                 manifest declares",
                v.name,
                rules
                    .manifests
                    .get(v.owner)
                    .map_or("another expansion", |m| &m.id)
            )),
            Some(v) if !v.arg.takes(arg) => Err(format!(
                "it offered `{}` with {}, but its manifest says `{}` takes {}",
                v.name,
                arg.words(),
                v.name,
                v.arg.words()
            )),
            Some(_) => match *arg {
                Arg::Feature(node) => segment(node),
                _ => Ok(()),
            },
        },
        _ => Ok(()),
    }
}

/// The longest text of a plugin's that is told whole (a reason from `why_not`, a panic's
/// message; a longer one is cut, with `…`): it is a sentence, and must not flood a
/// message.
const MOST_PLUGIN_TEXT_CHARS: usize = 1_000;

/// `text`, cut to `most` characters with `…` when longer.
fn at_most(text: String, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text,
    }
}

/// The query table handed to a plugin.
fn host_table(ask: &Asking) -> abi::HostTable {
    #[cfg_attr(not(feature = "protocol-next"), allow(unused_mut))]
    let mut table = ask.table();
    #[cfg(feature = "protocol-next")]
    {
        table.query = next::query;
    }
    table
}

/// An expansion provided by a plugin module, for one set of rules.
pub struct Plugin {
    source: Arc<Source>,
    instance: OnceLock<Instance>,
}

impl std::fmt::Debug for Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Plugin")
            .field("id", &self.source.manifest.id)
            .field("protocol", &self.source.protocol)
            .finish()
    }
}

impl Drop for Plugin {
    fn drop(&mut self) {
        if let Some(i) = self.instance.get() {
            (self.source.module.drop_instance())(i.0);
        }
    }
}

/// Whether a plugin built for protocol `plugin` can run on this host: same major
/// version, and a minor version no newer than the host's (`None`), or why not.
pub fn protocol_mismatch(plugin: &str) -> Option<String> {
    let parse = |v: &str| -> Option<(u64, u64)> {
        let mut parts = v.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        Some((major, minor))
    };
    let (Some((pm, pn)), Some((hm, hn))) = (parse(plugin), parse(HOST_PROTOCOL)) else {
        return Some(format!(
            "its protocol version `{plugin}` is not a version this host ({HOST_PROTOCOL}) can read"
        ));
    };
    if pm != hm {
        Some(format!(
            "it needs protocol {plugin}, and this host speaks {HOST_PROTOCOL} (another major version)"
        ))
    } else if pn > hn {
        Some(format!(
            "it needs protocol {plugin}, newer than this host's {HOST_PROTOCOL}"
        ))
    } else {
        None
    }
}

impl Plugin {
    /// Reads a plugin module's declarations (protocol, manifest, tile data); no
    /// expansion code beyond those three functions runs yet.
    pub fn new(module: PluginMod_Ref) -> Result<Plugin, String> {
        Plugin::with_manifest(module, None)
    }

    /// [`Plugin::new`], with the module's manifest replaced by `manifest` (TOML text):
    /// the same rules under other declarations, for example another precedence.
    pub fn with_manifest(module: PluginMod_Ref, manifest: Option<&str>) -> Result<Plugin, String> {
        Ok(Plugin::from_source(Arc::new(Source::read(
            module, manifest, None,
        )?)))
    }

    /// A catalog factory for a plugin module: its declarations are read and checked once
    /// here; every set of rules then gets an instance of its own.
    pub fn factory(module: PluginMod_Ref) -> Result<Factory, String> {
        Plugin::factory_from(module, None, None)
    }

    /// [`Plugin::factory`] for a plugin directory: the manifest (TOML text) and tile data
    /// read from the directory replace those the library carries. The manifest must name
    /// the same id and version as the library's own.
    pub fn factory_from(
        module: PluginMod_Ref,
        manifest: Option<&str>,
        tiles: Option<Vec<TileSource>>,
    ) -> Result<Factory, String> {
        let source = Arc::new(Source::read(module, manifest, tiles)?);
        Ok(Arc::new(move || {
            Box::new(Plugin::from_source(source.clone()))
        }))
    }

    fn from_source(source: Arc<Source>) -> Plugin {
        Plugin {
            source,
            instance: OnceLock::new(),
        }
    }

    /// The protocol version the plugin was built for.
    pub fn protocol(&self) -> &str {
        &self.source.protocol
    }

    /// Calls a hook; panics (on the host's side) when the plugin reports a panic.
    fn call(&self, ask: &Asking, id: u32, input: &HookInput, out: &mut Output) -> i64 {
        let Some(instance) = self.instance.get() else {
            panic!("the expansion was not set up before its hooks were called");
        };
        let table = host_table(ask);
        let sink = Sink {
            target: (out as *mut Output).cast(),
            commands: take_commands,
            actions: take_actions,
        };
        // The plugin writes into `error` only when it fails. An empty string owns nothing,
        // so it is dropped only when written (dropping costs a call through its vtable).
        let mut error = std::mem::ManuallyDrop::new(RString::new());
        let v = (self.source.call)(instance.0, id, &table, input, &sink, &mut error);
        if error.capacity() > 0 {
            let error = std::mem::ManuallyDrop::into_inner(error);
            if v == abi::status::PANICKED {
                fail(error.as_str());
            }
        } else if v == abi::status::PANICKED {
            fail("");
        }
        if let Some(why) = out.error.take() {
            crate::shield::refuse(at_most(why, MOST_PLUGIN_TEXT_CHARS));
        }
        match v {
            abi::status::UNKNOWN_HOOK => 0,
            v => v,
        }
    }

    fn ask<'a>(&self, rules: &'a Rules, ctx: Option<&Ctx<'a>>, me: usize) -> Asking<'a> {
        Asking {
            rules,
            state: ctx.map(|c| c.state),
            me,
            offered_by: ctx.map_or(0, |c| c.offered_by),
            deploys_offered_by: ctx.map_or(0, |c| c.deploys_offered_by),
            disabled: ctx.map_or(0, |c| c.disabled),
            strength_calls: ctx.and_then(|c| c.strength_calls),
        }
    }

    fn call_game(&self, ctx: &Ctx, id: u32, input: &HookInput, out: &mut Output) -> i64 {
        let ask = self.ask(ctx.rules, Some(ctx), ctx.me);
        self.call(&ask, id, input, out)
    }

    /// Asks a declaration that the plugin answers from names alone, with no game and no
    /// rules at hand (`hooks_in`, `events`); `None` before the expansion is set up.
    fn declare(&self, id: u32, input: &HookInput) -> Option<i64> {
        let instance = self.instance.get()?;
        let table = NoGame.table();
        let sink = Sink {
            target: std::ptr::null_mut(),
            commands: take_nothing,
            actions: take_nothing_action,
        };
        let mut error = RString::new();
        let v = (self.source.call)(instance.0, id, &table, input, &sink, &mut error);
        if v == abi::status::PANICKED {
            fail(error.as_str());
        }
        Some(v)
    }

    fn call_rules(&self, rules: &Rules, me: usize, id: u32, a: i64, text: &str) -> i64 {
        let ask = self.ask(rules, None, me);
        let input = HookInput {
            a,
            text: text.as_ptr(),
            text_len: text.len(),
            ..empty_input()
        };
        self.call(&ask, id, &input, &mut Output::default())
    }
}

impl Source {
    fn read(
        module: PluginMod_Ref,
        manifest: Option<&str>,
        tiles: Option<Vec<TileSource>>,
    ) -> Result<Source, String> {
        let line = (module.protocol())().as_str().to_string();
        let protocol = line.split(';').next().unwrap_or("").to_string();
        if let Some(why) = protocol_mismatch(&protocol) {
            return Err(why);
        }
        let own = (module.manifest())();
        let text = manifest.unwrap_or(own.as_str());
        let manifest = Manifest::from_toml(text, "manifest.toml")
            .map_err(|e| format!("its manifest is not valid:\n{e}"))?;
        for point in &ENGINE_POINTS {
            if point.refused_before
                && minor_version(&protocol).is_none_or(|m| m < point.minor)
                && let Some(rule) = manifest.rules.iter().find(|r| r.point == point.name)
            {
                return Err(format!(
                    "its rule `{}` is at the decision point `{}`, which needs protocol \
                     1.{}, and it was built for {protocol}",
                    rule.id, point.name, point.minor
                ));
            }
        }
        if text != own.as_str() {
            let reported =
                Manifest::from_toml(own.as_str(), "the library's manifest").map_err(|e| {
                    format!(
                        "the manifest built into its library is not valid (rebuild the \
                         library from a valid manifest.toml): {e}"
                    )
                })?;
            if (&reported.id, &reported.version) != (&manifest.id, &manifest.version) {
                return Err(format!(
                    "its library is `{}` {}, but its manifest says `{}` {}",
                    reported.id, reported.version, manifest.id, manifest.version
                ));
            }
        }
        let tiles = tiles.unwrap_or_else(|| {
            let mut tiles = Vec::new();
            for i in 0..1024u32 {
                let (mut name, mut text) = (RStr::from_str(""), RStr::from_str(""));
                if !(module.tile_file())(i, &mut name, &mut text) {
                    break;
                }
                tiles.push(TileSource {
                    name: name.as_str().to_string(),
                    text: text.as_str().to_string(),
                });
            }
            tiles
        });
        Ok(Source {
            call: module.call(),
            module,
            manifest,
            tiles,
            known_events: known_events(&protocol),
            answers_why_not: minor_version(&protocol).is_some_and(|m| m >= 2),
            protocol,
        })
    }
}

/// The input of a hook that takes none.
const NO_INPUT: HookInput = empty_input();

const fn empty_input() -> HookInput {
    HookInput {
        a: 0,
        action: RawAction {
            kind: 0,
            verb: 0,
            a: 0,
            b: 0,
        },
        event: RawEvent {
            kind: 0,
            player: -1,
            a: 0,
            b: 0,
            c: 0,
            d: 0,
        },
        actions: std::ptr::null(),
        len: 0,
        flags: std::ptr::null_mut(),
        text: std::ptr::null(),
        text_len: 0,
    }
}

/// What a hook returned.
#[derive(Default)]
struct Output<'a> {
    commands: Option<&'a mut Vec<Command>>,
    actions: Option<&'a mut Vec<Action>>,
    /// The first malformed value, which makes the call fail.
    error: Option<String>,
}

extern "C" fn take_commands(target: *mut c_void, raw: *const RawCommand, len: usize) {
    take(
        target,
        raw,
        len,
        |o| (o.commands.as_deref_mut(), &mut o.error),
        |r, commands| {
            commands.push(codec::decode_command(r)?);
            Ok(())
        },
        "a command",
    );
}

extern "C" fn take_actions(target: *mut c_void, raw: *const RawAction, len: usize) {
    take(
        target,
        raw,
        len,
        |o| (o.actions.as_deref_mut(), &mut o.error),
        codec::offer_action,
        "an action",
    );
}

/// Takes `len` encoded values from a plugin into the call's output, decoding each
/// (`decode` pushes what it decodes); a malformed one (or a panic here) becomes the call's
/// error. Nothing panics across the boundary. (Generic over `pick` and `decode` so that
/// both are inlined: this runs for every action and command a plugin gives.)
#[inline(always)]
fn take<R, T>(
    target: *mut c_void,
    raw: *const R,
    len: usize,
    pick: impl for<'o> FnOnce(&'o mut Output) -> (Option<&'o mut Vec<T>>, &'o mut Option<String>),
    decode: impl Fn(&R, &mut Vec<T>) -> Result<(), String>,
    what: &str,
) {
    if raw.is_null() || target.is_null() {
        return;
    }
    // SAFETY: `target` is the `Output` of the call in progress; the plugin passes `len`
    // values valid for the call.
    let (out, raw) = unsafe {
        (
            &mut *target.cast::<Output>(),
            std::slice::from_raw_parts(raw, len),
        )
    };
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let (taken, error) = pick(out);
        let Some(taken) = taken else {
            error.get_or_insert_with(|| format!("gave {what} where none is taken"));
            return;
        };
        taken.reserve(raw.len());
        for r in raw {
            if let Err(why) = decode(r, taken) {
                error.get_or_insert(why);
            }
        }
    }));
    if caught.is_err() {
        out.error
            .get_or_insert_with(|| format!("gave {what} that could not be read"));
    }
}

thread_local! {
    /// Encoded actions and flags for `forbid` calls.
    static FORBID: RefCell<(Vec<RawAction>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

fn tile_id(rules: &Rules, tile: &TileType) -> i64 {
    rules.tiles.get(&tile.id).map_or(-1, i64::from)
}

impl Expansion for Plugin {
    fn manifest(&self) -> Manifest {
        self.source.manifest.clone()
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        self.source.tiles.clone()
    }

    fn prepare(&self, rules: &Rules, me: usize) -> Result<(), String> {
        if self.instance.get().is_some() {
            return Ok(());
        }
        let ask = self.ask(rules, None, me);
        let table = host_table(&ask);
        let mut error = RString::new();
        let made = (self.source.module.instantiate())(&table, &mut error);
        if made.is_null() {
            return Err(error.into_string());
        }
        if let Err(Instance(extra)) = self.instance.set(Instance(made)) {
            (self.source.module.drop_instance())(extra);
        }
        Ok(())
    }

    fn hooks_in(&self, phase: &str) -> Hooks {
        let input = HookInput {
            text: phase.as_ptr(),
            text_len: phase.len(),
            ..empty_input()
        };
        self.declare(hook::HOOKS_IN, &input)
            .map_or(Hooks::ALL, |bits| Hooks::from_bits(bits.max(0)))
    }

    fn events(&self) -> EventKinds {
        self.declare(hook::EVENTS, &NO_INPUT)
            .map_or(EventKinds::ALL, |mask| {
                EventKinds(mask.max(0) as u32 & self.source.known_events)
            })
    }

    fn excludes_tile(&self, rules: &Rules, me: usize, tile: &TileType) -> bool {
        self.call_rules(rules, me, hook::EXCLUDES_TILE, tile_id(rules, tile), "") > 0
    }

    fn may_redraw(&self, rules: &Rules, me: usize, tile: &TileType) -> bool {
        self.call_rules(rules, me, hook::MAY_REDRAW, tile_id(rules, tile), "") > 0
    }

    fn watches_tile(&self, rules: &Rules, me: usize, tile: &TileType) -> bool {
        self.call_rules(rules, me, hook::WATCHES_TILE, tile_id(rules, tile), "") > 0
    }

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        let mut o = Output {
            commands: Some(out),
            ..Output::default()
        };
        self.call_game(ctx, hook::ENTER_PHASE, &NO_INPUT, &mut o);
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        let before = out.len();
        let mut o = Output {
            actions: Some(&mut *out),
            ..Output::default()
        };
        self.call_game(ctx, hook::ACTIONS, &NO_INPUT, &mut o);
        // Checked as offered, so that no player (a bot, a record) ever chooses a move the
        // engine cannot play or a record cannot hold (a few instructions an offer).
        for action in &out[before..] {
            if let Err(why) = check_offered(ctx.rules, ctx.state, ctx.me, action) {
                crate::shield::refuse(why);
            }
        }
    }

    fn restricts(&self, ctx: &Ctx) -> bool {
        self.call_game(ctx, hook::RESTRICTS, &NO_INPUT, &mut Output::default()) > 0
    }

    fn forbids(&self, ctx: &Ctx, action: &Action) -> bool {
        let mut flag = [false];
        self.forbid(ctx, std::slice::from_ref(action), &mut flag);
        flag[0]
    }

    fn forbid(&self, ctx: &Ctx, actions: &[Action], forbidden: &mut [bool]) {
        FORBID.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let (raw, flags) = &mut *scratch;
            raw.clear();
            raw.extend(actions.iter().map(codec::encode_action));
            flags.clear();
            flags.resize(raw.len(), 0);
            let input = HookInput {
                actions: raw.as_ptr(),
                len: raw.len(),
                flags: flags.as_mut_ptr(),
                ..empty_input()
            };
            self.call_game(ctx, hook::FORBID, &input, &mut Output::default());
            for (f, &b) in forbidden.iter_mut().zip(flags.iter()) {
                *f = b != 0;
            }
        });
    }

    fn why_not(&self, ctx: &Ctx, action: &Action) -> Option<String> {
        if !self.source.answers_why_not {
            return None;
        }
        let instance = self.instance.get()?;
        let ask = self.ask(ctx.rules, Some(ctx), ctx.me);
        let table = host_table(&ask);
        let input = HookInput {
            action: codec::encode_action(action),
            ..empty_input()
        };
        let mut out = Output::default();
        let sink = Sink {
            target: (&mut out as *mut Output).cast(),
            commands: take_commands,
            actions: take_actions,
        };
        let mut answer = RString::new();
        let v = (self.source.call)(
            instance.0,
            hook::WHY_NOT,
            &table,
            &input,
            &sink,
            &mut answer,
        );
        match v {
            abi::status::PANICKED => fail(answer.as_str()),
            1 => Some(at_most(answer.into_string(), MOST_PLUGIN_TEXT_CHARS)),
            _ => None,
        }
    }

    fn apply(&self, ctx: &Ctx, action: &Action, out: &mut Vec<Command>) {
        let input = HookInput {
            action: codec::encode_action(action),
            ..empty_input()
        };
        let mut o = Output {
            commands: Some(out),
            ..Output::default()
        };
        self.call_game(ctx, hook::APPLY, &input, &mut o);
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let placed = match event {
            Event::TilePlaced { pos, .. } => ctx.state.board.index_at(*pos),
            _ => None,
        };
        let input = HookInput {
            event: codec::encode_event(event, placed),
            ..empty_input()
        };
        let mut o = Output {
            commands: Some(out),
            ..Output::default()
        };
        self.call_game(ctx, hook::ON_EVENT, &input, &mut o);
    }

    fn final_scoring(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        let mut o = Output {
            commands: Some(out),
            ..Output::default()
        };
        self.call_game(ctx, hook::FINAL_SCORING, &NO_INPUT, &mut o);
    }

    fn feature_worth(&self, ctx: &Ctx, node: NodeId, worth: i32) -> i32 {
        // Asked only of a plugin with a rule at `feature-worth`, which needs 1.3 (see
        // `Source::read`).
        let (v, worth) = self.ask_value(
            ctx,
            hook::FEATURE_WORTH,
            i64::from(node),
            i64::from(worth),
            hook::WORTH_OFFSET,
        );
        match worth.and_then(|w| i32::try_from(w).ok()) {
            Some(w) => w,
            None => crate::shield::refuse(format!(
                "it returned {v}, not a worth plus {} as protocol 1.3 asks",
                hook::WORTH_OFFSET
            )),
        }
    }

    fn figure_strength(&self, ctx: &Ctx, figure: FigureId, strength: u32) -> u32 {
        // Asked only of a plugin with a rule at `figure-strength`, which needs 1.5 (see
        // `Source::read`).
        let (v, strength) = self.ask_value(
            ctx,
            hook::FIGURE_STRENGTH,
            i64::from(figure),
            i64::from(strength),
            hook::STRENGTH_OFFSET,
        );
        match strength.and_then(|s| u32::try_from(s).ok()) {
            Some(s) if s <= hook::MAX_STRENGTH => s,
            _ => crate::shield::refuse(format!(
                "it returned {v}, not a strength of 0 to {} plus {} as protocol 1.5 asks",
                hook::MAX_STRENGTH,
                hook::STRENGTH_OFFSET
            )),
        }
    }
}

impl Plugin {
    /// Asks a hook that answers a value (`a` in `HookInput::a`, `so_far` in its event's
    /// `a`) plus `offset`, so that 0, what a plugin that does not know the hook answers,
    /// is never taken for one: what it returned, and the value.
    fn ask_value(
        &self,
        ctx: &Ctx,
        id: u32,
        a: i64,
        so_far: i64,
        offset: i64,
    ) -> (i64, Option<i64>) {
        let input = HookInput {
            a,
            event: RawEvent {
                a: so_far,
                ..NO_INPUT.event
            },
            ..empty_input()
        };
        let v = self.call_game(ctx, id, &input, &mut Output::default());
        (v, v.checked_sub(offset))
    }
}

extern "C" fn take_nothing(_: *mut c_void, _: *const RawCommand, _: usize) {}
extern "C" fn take_nothing_action(_: *mut c_void, _: *const RawAction, _: usize) {}

/// A query table that knows no game and no rules (for the declarations asked before a
/// game exists and answered from names alone).
struct NoGame;

impl NoGame {
    fn table(&self) -> abi::HostTable {
        extern "C" fn query(_: *const c_void, _: u32, _: i64, _: i64) -> i64 {
            -1
        }
        extern "C" fn list(
            _: *const c_void,
            _: u32,
            _: i64,
            _: i64,
            _: *mut i64,
            _: usize,
        ) -> usize {
            0
        }
        extern "C" fn name(_: *const c_void, _: u32, _: i64, _: *const u8, _: usize) -> i64 {
            -1
        }
        extern "C" fn record(_: *const c_void, len: *mut usize) -> *const i64 {
            if !len.is_null() {
                // SAFETY: the plugin passes a place for the length.
                unsafe { *len = 0 };
            }
            std::ptr::null()
        }
        abi::HostTable {
            game: std::ptr::null(),
            facts: abi::GameFacts::NONE,
            query,
            list,
            name,
            record,
        }
    }
}

#[cfg(test)]
mod reason_tests {
    #[test]
    fn a_long_reason_is_cut_with_an_ellipsis() {
        assert_eq!(super::at_most("short".into(), 10), "short");
        assert_eq!(super::at_most("ééééé".into(), 3), "ééé…");
        assert_eq!(super::at_most("x".repeat(2000), 1000).chars().count(), 1001);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(id: &str, points: &[&str]) -> Manifest {
        let mut text = format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"1.0.0\"\n");
        for (i, p) in points.iter().enumerate() {
            text.push_str(&format!(
                "[[rule]]\nid = \"r{i}\"\npoint = \"{p}\"\nclaims = [\"c{i}\"]\n"
            ));
        }
        Manifest::from_toml(&text, "manifest.toml").expect("a manifest")
    }

    #[test]
    fn a_rule_at_a_point_near_a_known_one_is_said_with_the_name_meant() {
        let other = manifest("other", &["figure-capture"]);
        let mine = manifest(
            "mine",
            &[
                "feature-wroth",
                "figure-captur",
                "figure-capture",
                "feature-worth",
                "my-own-order",
            ],
        );
        let said = mistyped_points(&mine, &[&other, &mine]);
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(said[0].contains("`r0` is at the decision point `feature-wroth`"));
        assert!(
            said[0].ends_with("did you mean `feature-worth`?"),
            "{said:?}"
        );
        assert!(
            said[1].ends_with("did you mean `figure-capture`?"),
            "{said:?}"
        );
        // Its own points are not the others': alone, `figure-captur` is near nothing.
        let said = mistyped_points(&mine, &[&mine]);
        assert_eq!(said.len(), 1, "{said:?}");
        // Two edits from another expansion's point is a point of its own.
        let own = manifest("own", &["figure-capt"]);
        assert_eq!(mistyped_points(&own, &[&other]), Vec::<String>::new());
    }
}
