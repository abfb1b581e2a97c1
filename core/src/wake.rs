//! When an expansion's hooks can matter at all: the manifest's `[[wake]]` entries, resolved
//! against the rules' vocabulary. While none of a hook's conditions holds, the engine does
//! not call it. This is speed only: a rule acts the same whether or not it is called
//! while asleep (the Russian promos' traps, for example, do nothing until a trap tile
//! is on the board), so the engine may always call it.

use crate::board::{Board, presence_bit};
use crate::engine::EventKind;
use crate::engine::GameState;
use crate::manifest::Manifest;
use crate::rules::{RulesError, each_bit};
use crate::span::Seg;
use crate::tiles::vocab::{KindShape, Vocabulary};

/// A hook that can sleep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// `enter-phase`: a phase begins.
    EnterPhase,
    /// `actions`: the moves it offers.
    Actions,
    /// `restricts`: whether it judges the offered moves.
    Restricts,
    /// `on-event` (every kind it asked for) or `on-event:KIND` (one kind).
    OnEvent(EventKind),
}

/// The hooks by name, without the event kinds.
const HOOKS: [(&str, Hook); 3] = [
    ("enter-phase", Hook::EnterPhase),
    ("actions", Hook::Actions),
    ("restricts", Hook::Restricts),
];

/// The event kinds by name (`on-event:figure-moved`).
const EVENTS: [(&str, EventKind); 13] = [
    ("turn-started", EventKind::TurnStarted),
    ("tile-drawn", EventKind::TileDrawn),
    ("tile-discarded", EventKind::TileDiscarded),
    ("tile-set-aside", EventKind::TileSetAside),
    ("tile-returned", EventKind::TileReturned),
    ("tiles-reshuffled", EventKind::TilesReshuffled),
    ("tile-placed", EventKind::TilePlaced),
    ("figure-deployed", EventKind::FigureDeployed),
    ("figure-moved", EventKind::FigureMoved),
    ("figure-returned", EventKind::FigureReturned),
    ("scored", EventKind::Scored),
    ("feature-scored", EventKind::FeatureScored),
    ("game-ended", EventKind::GameEnded),
];

/// Slots: the three phase hooks, then one per event kind number.
const SLOTS: usize = 3 + 64;

impl Hook {
    #[inline]
    fn slot(self) -> usize {
        match self {
            Hook::EnterPhase => 0,
            Hook::Actions => 1,
            Hook::Restricts => 2,
            Hook::OnEvent(kind) => 3 + (kind as usize & 63),
        }
    }

    /// The slots a written hook name stands for.
    fn slots(name: &str) -> Option<Vec<usize>> {
        if let Some(&(_, h)) = HOOKS.iter().find(|(n, _)| *n == name) {
            return Some(vec![h.slot()]);
        }
        if name == "on-event" {
            return Some(
                EVENTS
                    .iter()
                    .map(|&(_, k)| Hook::OnEvent(k).slot())
                    .collect(),
            );
        }
        let kind = name.strip_prefix("on-event:")?;
        let &(_, k) = EVENTS.iter().find(|(n, _)| *n == kind)?;
        Some(vec![Hook::OnEvent(k).slot()])
    }
}

/// What wakes a hook: any one of these.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Condition {
    /// A placed tile or feature carries one of these markers (presence bits).
    markers: u64,
    /// A feature of one of these inner kinds is on the board (presence bits).
    kinds: u64,
    /// A feature of one of these inner kinds is on the tile placed in this turn or on one
    /// of the 8 squares around it (presence bits).
    near_placed: u64,
    /// The tile placed in this turn carries one of these markers (presence bits).
    placed_markers: u64,
    /// A feature of the tile placed in this turn carries one of these markers on some
    /// tile of the feature (presence bits): the placed tile joined it, or carries it.
    joins: u64,
    /// The expansion's record is not empty.
    record: bool,
    /// (`restricts` only) An expansion other than the base game and this one offered a
    /// deployment in the decision being judged.
    others_deploy: bool,
}

impl Condition {
    /// Whether it holds for expansion `me` (whose record it may read); `deploys_by`: the
    /// expansions that offered a deployment in the decision judged (one bit each).
    #[inline(always)]
    fn holds(&self, state: &GameState, me: usize, deploys_by: u64) -> bool {
        let board = &state.board;
        self.markers & board.markers_present != 0
            || self.kinds & board.inner_kinds_present != 0
            || (self.record && state.ext.get(me).is_some_and(|r| !r.is_empty()))
            || (self.placed_markers & board.last_placed_markers != 0 && state.turn.placed.is_some())
            || (self.others_deploy && crate::expansion::others_than_base_and(me, deploys_by))
            || (self.joins & board.markers_present != 0 && placed_joins(state, self.joins))
            || (self.near_placed & board.inner_kinds_present != 0
                // A deserialized board (every presence bit set) may not list its inner
                // features: maybe near.
                && (board.inner_kinds_present == u64::MAX
                    || inner_near_placed(state, self.near_placed)))
    }
}

/// Whether a feature of one of `kinds` (presence bits) lies on the tile placed in this
/// turn or on one of the 8 squares around it. (Out of line: the other conditions are
/// checked on every decision and event, and stay small.)
#[inline(never)]
fn inner_near_placed(state: &GameState, kinds: u64) -> bool {
    let board: &Board = &state.board;
    let Some(at) = state
        .turn
        .placed
        .and_then(|t| board.tiles.get(t as usize))
        .map(|t| t.pos)
    else {
        return false;
    };
    board.inner_nodes.iter().any(|&(kind, node)| {
        presence_bit(kind) & kinds != 0
            && board
                .tiles
                .get(board.graph.node(node).tile as usize)
                .is_some_and(|t| {
                    // In i64: a square at the edge of i32 has no overflowing neighbour.
                    (i64::from(t.pos.x) - i64::from(at.x)).abs() <= 1
                        && (i64::from(t.pos.y) - i64::from(at.y)).abs() <= 1
                })
    })
}

/// Whether a feature of the tile placed in this turn is a feature carrying one of
/// `markers` (presence bits) on some segment. (Out of line, as above.)
#[inline(never)]
fn placed_joins(state: &GameState, markers: u64) -> bool {
    let board: &Board = &state.board;
    let graph = &board.graph;
    let Some(index) = state.turn.placed else {
        return false;
    };
    let nodes = board.nodes_of(index);
    board
        .marked_nodes
        .iter()
        .filter(|&&(m, _)| presence_bit(m) & markers != 0)
        .any(|&(_, marked)| {
            let root = graph.root(marked);
            nodes.clone().any(|n| graph.root(n) == root)
        })
}

/// The enabled expansions' wake conditions.
#[derive(Clone, Debug)]
pub struct Wake {
    /// Per hook slot ([`Hook::slot`]), the expansions that declared when it can matter
    /// (one bit each).
    sleepy: [u64; SLOTS],
    /// The expansions with any hook that can sleep.
    any: u64,
    /// How many expansions there are.
    expansions: usize,
    /// Per hook slot and expansion (at `slot * expansions + expansion`): its condition
    /// (meaningful where its `sleepy` bit is set). One slot's conditions share a cache
    /// line: they are asked on every decision and event.
    conditions: Vec<Condition>,
}

impl Wake {
    /// Resolves the manifests' `[[wake]]` entries (same order as the expansions); an
    /// unknown hook, marker or kind, a kind that is not inner, or a hook named twice is
    /// an error naming the expansion.
    pub fn resolve(manifests: &[Manifest], vocab: &Vocabulary) -> Result<Wake, RulesError> {
        let mut wake = Wake {
            sleepy: [0; SLOTS],
            any: 0,
            expansions: manifests.len(),
            conditions: vec![Condition::default(); SLOTS * manifests.len()],
        };
        for (i, m) in manifests.iter().enumerate() {
            for (j, decl) in m.wake.iter().enumerate() {
                // Located at the entry's key `key` (its item `k`, when one).
                let fail = |key: &str, k: Option<usize>, why: String| {
                    let mut path: Vec<Seg> = vec!["wake".into(), j.into(), key.into()];
                    path.extend(k.map(Seg::Index));
                    let message = format!("expansion `{}`: [[wake]]: {why}", m.id);
                    RulesError::in_manifest(&m.id, path, message)
                };
                // The hooks first: an unknown one is said as such, whatever the conditions.
                let mut hooks: Vec<Vec<usize>> = Vec::new();
                for (k, h) in decl.hooks.iter().enumerate() {
                    let Some(slots) = Hook::slots(h) else {
                        return Err(fail(
                            "hooks",
                            Some(k),
                            format!(
                                "unknown hook `{h}` (expected one of {}, `on-event` or \
                                 `on-event:KIND` with KIND one of {})",
                                HOOKS.map(|(n, _)| format!("`{n}`")).join(", "),
                                EVENTS.map(|(n, _)| format!("`{n}`")).join(", ")
                            ),
                        ));
                    };
                    hooks.push(slots);
                }
                let mut condition = Condition::default();
                if decl.when.is_empty() {
                    return Err(fail("when", None, "`when` names no condition".into()));
                }
                for (k, c) in decl.when.iter().enumerate() {
                    let fail = |why: String| fail("when", Some(k), why);
                    // A marker or kind by name, with a near name when it is unknown.
                    let marker = |name: &str| {
                        vocab.marker(name).map_err(|why| {
                            let known = vocab.markers.iter().map(|k| k.name.as_str());
                            fail(with_near(why, name, known))
                        })
                    };
                    let kind = |name: &str| {
                        vocab.kind(name).map_err(|why| {
                            let known = vocab.kinds.iter().map(|k| k.name.as_str());
                            fail(with_near(why, name, known))
                        })
                    };
                    if c == "record" {
                        condition.record = true;
                    } else if c == "others-deploy" {
                        if decl.hooks.iter().any(|h| h != "restricts") {
                            return Err(fail(format!(
                                "`{c}` speaks of the offers being judged: it can wake \
                                 `restricts` only"
                            )));
                        }
                        condition.others_deploy = true;
                    } else if let Some(name) = c.strip_prefix("marker:") {
                        condition.markers |= presence_bit(marker(name)?);
                    } else if let Some(name) = c.strip_prefix("placed:") {
                        condition.placed_markers |= presence_bit(marker(name)?);
                    } else if let Some(name) = c.strip_prefix("joins:") {
                        condition.joins |= presence_bit(marker(name)?);
                    } else if let Some((near, name)) = c
                        .strip_prefix("kind:")
                        .map(|n| (false, n))
                        .or_else(|| c.strip_prefix("near-placed:").map(|n| (true, n)))
                    {
                        let k = kind(name)?;
                        if !matches!(
                            vocab.kinds.get(k as usize).map(|k| k.shape),
                            Some(KindShape::Surrounded)
                        ) {
                            return Err(fail(format!(
                                "`{c}`: only an inner kind (one whose features touch no \
                                 edge, such as a monastery) can wake a hook"
                            )));
                        }
                        if near {
                            condition.near_placed |= presence_bit(k);
                        } else {
                            condition.kinds |= presence_bit(k);
                        }
                    } else {
                        return Err(fail(format!(
                            "unknown condition `{c}` (expected `marker:NAME`, `kind:NAME`, \
                             `placed:NAME`, `joins:NAME`, `near-placed:NAME`, `record` or \
                             `others-deploy`)"
                        )));
                    }
                }
                for (k, (h, slots)) in decl.hooks.iter().zip(hooks).enumerate() {
                    let fail = |why: String| fail("hooks", Some(k), why);
                    // Past 64 expansions, hooks never sleep (always correct).
                    let bit = 1u64.checked_shl(i as u32).unwrap_or(0);
                    for slot in slots {
                        let taken = &mut wake.conditions[slot * manifests.len() + i];
                        if *taken != Condition::default() {
                            return Err(fail(format!("the hook `{h}` is named twice")));
                        }
                        *taken = condition;
                        wake.sleepy[slot] |= bit;
                        wake.any |= bit;
                    }
                }
            }
        }
        Ok(wake)
    }

    /// Of the expansions in `mask`, those whose `hook` is asleep in this state.
    #[inline(always)]
    pub fn asleep(&self, hook: Hook, mask: u64, state: &GameState) -> u64 {
        self.asleep_judging(hook, mask, state, 0)
    }

    /// [`Wake::asleep`] while offers are judged (`restricts`): `deploys_by`, the
    /// expansions that offered a deployment among them (one bit each).
    #[inline(always)]
    pub fn asleep_judging(&self, hook: Hook, mask: u64, state: &GameState, deploys_by: u64) -> u64 {
        if mask & self.any == 0 {
            return 0;
        }
        let sleepy = mask & self.sleepy[hook.slot()];
        if sleepy == 0 {
            return 0;
        }
        self.asleep_among(hook, sleepy, state, deploys_by)
    }

    #[inline]
    fn asleep_among(&self, hook: Hook, sleepy: u64, state: &GameState, deploys_by: u64) -> u64 {
        let slot = hook.slot();
        if sleepy.is_power_of_two() {
            // One expansion (the usual case): its condition alone.
            let i = sleepy.trailing_zeros() as usize;
            return match self.conditions.get(slot * self.expansions + i) {
                Some(c) if !c.holds(state, i, deploys_by) => sleepy,
                _ => 0,
            };
        }
        let mut asleep = 0;
        for i in each_bit(sleepy) {
            if let Some(c) = self.conditions.get(slot * self.expansions + i)
                && !c.holds(state, i, deploys_by)
            {
                asleep |= 1 << i;
            }
        }
        asleep
    }
}

/// `why` with a near name among `known` when it says a name is unknown.
fn with_near<'a>(why: String, written: &str, known: impl Iterator<Item = &'a str>) -> String {
    if !why.starts_with("unknown") {
        return why;
    }
    match crate::tiles::validate::nearest(written, known, 2) {
        Some(near) => format!("{why}; did you mean `{near}`?"),
        None => why,
    }
}
