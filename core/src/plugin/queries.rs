//! The host's query table: the engine answering a plugin's [`View`](carc_sdk::View)
//! queries from its own state. Every answer is bounds-checked (a plugin may ask about
//! any number) and no query panics across the boundary.

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};

use carc_sdk::abi::{GameFacts, HostTable, pack_pos, query as q, unpack_pos};

use crate::base::scoring;
use crate::engine::GameState;
use crate::expansion::{Ctx, Placements};
use crate::features::NodeId;
use crate::figures::{FigureClass, Location, NEUTRAL, NO_TILE};
use crate::geometry::{Port, Pos, Side};
use crate::rules::Rules;
use crate::strength::StrengthCalls;
use crate::tiles::KindShape;

/// What a query is about: the rules, the game (absent while an expansion is set up), and
/// the asking expansion.
pub(crate) struct Asking<'a> {
    pub rules: &'a Rules,
    pub state: Option<&'a GameState>,
    pub me: usize,
    /// The expansions that offered the actions being judged, one bit each.
    pub offered_by: u64,
    /// Of those, the expansions that offered at least one deployment.
    pub deploys_offered_by: u64,
    /// The expansions disabled in the game, one bit each.
    pub disabled: u64,
    /// The rules at `figure-strength` as asked in the game.
    pub strength_calls: Option<&'a StrengthCalls>,
}

impl Asking<'_> {
    /// The query table over this.
    pub fn table(&self) -> HostTable {
        HostTable {
            game: (self as *const Asking).cast(),
            facts: self.facts(),
            query,
            list,
            name,
            record,
        }
    }
}

impl<'a> Asking<'a> {
    /// The context of a hook call in this game, for the engine's own rules asked on the
    /// plugin's behalf (a majority asks the rules at `figure-strength`).
    fn ctx(&self, state: &'a GameState) -> Ctx<'a> {
        Ctx {
            rules: self.rules,
            state,
            me: self.me,
            phase: self
                .rules
                .phases
                .get(usize::from(state.turn.phase))
                .map_or("", |p| p.as_str()),
            offered_by: self.offered_by,
            deploys_offered_by: self.deploys_offered_by,
            placements: Placements::Everywhere,
            disabled: self.disabled,
            strength_calls: self.strength_calls,
        }
    }
}

impl Asking<'_> {
    /// What most hooks ask first, answered from the state.
    fn facts(&self) -> GameFacts {
        let Some(st) = self.state else {
            return GameFacts::NONE;
        };
        let record = st.ext.get(self.me).map_or(&[][..], |v| v.as_slice());
        GameFacts {
            players: st.players.len() as i64,
            current_player: i64::from(st.turn.player),
            decider: i64::from(st.turn.decider),
            turn: i64::from(st.turn.number),
            phase: i64::from(st.turn.phase),
            placed_tile: st.turn.placed.map_or(-1, i64::from),
            drawn_tile: st.turn.drawn.map_or(-1, i64::from),
            figure_step_done: b(st.turn.figure_step_done),
            game_over: b(st.ended),
            tile_count: st.board.tiles.len() as i64,
            record: record.as_ptr(),
            record_len: record.len(),
        }
    }
}

/// A place as one number (see [`carc_sdk::abi::place`]).
pub(crate) fn place(at: Location) -> i64 {
    match at {
        Location::Supply => carc_sdk::abi::place::SUPPLY,
        Location::OffBoard => carc_sdk::abi::place::OFF_BOARD,
        Location::Feature(n) => i64::from(n) * 2,
        Location::Tile(t) => i64::from(t) * 2 + 1,
    }
}

/// A place number back (`None` for a malformed one).
pub(crate) fn location(v: i64) -> Option<Location> {
    match v {
        carc_sdk::abi::place::SUPPLY => Some(Location::Supply),
        carc_sdk::abi::place::OFF_BOARD => Some(Location::OffBoard),
        v if v >= 0 && v % 2 == 0 => u32::try_from(v / 2).ok().map(Location::Feature),
        v if v >= 0 => u32::try_from(v / 2).ok().map(Location::Tile),
        _ => None,
    }
}

fn asking<'a>(game: *const c_void) -> &'a Asking<'a> {
    // SAFETY: the table is made by `Asking::table` and handed out only for the duration
    // of one call, while the `Asking` lives.
    unsafe { &*game.cast::<Asking>() }
}

fn b(v: bool) -> i64 {
    i64::from(v)
}

extern "C" fn query(game: *const c_void, id: u32, a: i64, b_: i64) -> i64 {
    let ask = asking(game);
    if let Some(v) = quick(ask, id, a) {
        return v;
    }
    catch_unwind(AssertUnwindSafe(|| answer(ask, id, a, b_).unwrap_or(-1))).unwrap_or(-1)
}

/// The queries rules ask most (about a figure, a tile's type), answered without the
/// full dispatch; `None`: ask [`answer`]. Nothing here can panic.
#[inline(always)]
fn quick(ask: &Asking, id: u32, a: i64) -> Option<i64> {
    let st = ask.state?;
    let figure = || st.figures.get(usize::try_from(a).ok()?);
    match id {
        q::FIGURE_TILE => Some(figure().map_or(-1, |f| {
            if f.tile == NO_TILE {
                -1
            } else {
                i64::from(f.tile)
            }
        })),
        q::FIGURE_MOVES => Some(figure().map_or(-1, |f| i64::from(f.moves))),
        q::TILE_TYPE => Some(
            usize::try_from(a)
                .ok()
                .and_then(|t| st.board.tiles.get(t))
                .map_or(-1, |t| i64::from(t.tile)),
        ),
        _ => None,
    }
}

/// One scalar query that [`quick`] does not answer; `None` is "none" (-1).
fn answer(ask: &Asking, id: u32, a: i64, b_: i64) -> Option<i64> {
    let rules = ask.rules;
    let index = |v: i64| usize::try_from(v).ok();
    // Rules-level queries first: they need no game.
    match id {
        q::TILE_TYPE_COUNT => return Some(rules.tiles.types.len() as i64),
        q::TILE_TYPE_HAS_MARKER => {
            let t = rules.tiles.types.get(index(a)?)?;
            return Some(b(t.markers.iter().any(|&m| i64::from(m) == b_)));
        }
        q::TILE_TYPE_SIDE => {
            let t = rules.tiles.types.get(index(a)?)?;
            return Some(i64::from(*t.sides.get(index(b_)?)?));
        }
        q::TILE_TYPE_SEGMENT_MARKER => {
            let t = rules.tiles.types.get(index(a)?)?;
            let has = t
                .features
                .iter()
                .any(|f| f.markers.iter().any(|&m| i64::from(m) == b_));
            return Some(b(has));
        }
        q::FIGURE_KIND_CLASS => {
            let k = rules.figure_kinds.get(index(a)?)?;
            return Some(match k.class {
                FigureClass::Follower => 0,
                FigureClass::Special => 1,
                FigureClass::Neutral => 2,
            });
        }
        q::FIGURE_KIND_COUNT => return Some(rules.figure_kinds.len() as i64),
        q::KIND_COMPLETION => {
            let k = rules.vocab.kinds.get(index(a)?)?;
            return Some(match k.shape {
                KindShape::Edge { completes: true } => 1,
                KindShape::Edge { completes: false } => 0,
                KindShape::Surrounded => 2,
            });
        }
        q::PHASE_COUNT => return Some(rules.phases.len() as i64),
        q::NEUTRAL_FIGURE if b_ > 0 => {
            // From the rules: the figure layout of a game of `b` players.
            let kind = u8::try_from(a).ok()?;
            let players = usize::try_from(b_)
                .ok()
                .filter(|&p| p <= crate::engine::MAX_PLAYERS)?;
            let f = rules.neutral_figure(kind, players)?;
            let fig = rules.starting_figures(players).get(f as usize).copied()?;
            return (fig.kind == kind && fig.owner == NEUTRAL).then_some(i64::from(f));
        }
        q::KIND_COUNT => return Some(rules.vocab.kinds.len() as i64),
        _ => {}
    }
    let st = ask.state?;
    let board = &st.board;
    let graph = &board.graph;
    let node = |v: i64| -> Option<NodeId> {
        let n = NodeId::try_from(v).ok()?;
        ((n as usize) < graph.len()).then_some(n)
    };
    let tile = |v: i64| -> Option<u32> {
        let t = u32::try_from(v).ok()?;
        ((t as usize) < board.tiles.len()).then_some(t)
    };
    let figure = |v: i64| st.figures.get(index(v)?);
    Some(match id {
        q::PLAYERS => st.players.len() as i64,
        q::CURRENT_PLAYER => i64::from(st.turn.player),
        q::DECIDER => i64::from(st.turn.decider),
        q::TURN => i64::from(st.turn.number),
        q::PHASE => i64::from(st.turn.phase),
        q::PLACED_TILE => i64::from(st.turn.placed?),
        q::FIGURE_STEP_DONE => b(st.turn.figure_step_done),
        q::SET_ASIDE => st.set_aside.len() as i64,
        q::FITS_SOMEWHERE => {
            let t = rules.tiles.types.get(index(a)?)?;
            b(board.fits_somewhere(t))
        }
        q::DRAWN_TILE => i64::from(st.turn.drawn?),
        q::GAME_OVER => b(st.ended),
        q::SUPPLY_COUNT => st.pile.len() as i64,
        q::SUPPLY_TILE => {
            let i = index(a)?;
            let at = st.pile.len().checked_sub(i + 1)?;
            i64::from(st.pile[at])
        }
        q::OTHERS_OFFER => {
            // `a` = 1: deployments only.
            let by = if a == 1 {
                ask.deploys_offered_by
            } else {
                ask.offered_by
            };
            b(crate::expansion::others_than_base_and(ask.me, by))
        }
        q::TILE_COUNT => board.tiles.len() as i64,
        q::TILE_POS => {
            let p = board.tiles[tile(a)? as usize].pos;
            pack_pos(p.x, p.y)
        }
        q::TILE_ROTATION => i64::from(board.tiles[tile(a)? as usize].rotation.turns()),
        q::TILE_AT => {
            let (x, y) = unpack_pos(a);
            i64::from(board.index_at(Pos::new(x, y))?)
        }
        q::NEIGHBOUR => {
            let side = Side::ALL.get(index(b_)?)?;
            i64::from(board.neighbour(tile(a)?, *side)?)
        }
        q::SEGMENT_COUNT => {
            let pt = board.tiles[tile(a)? as usize];
            rules.tiles.tile(pt.tile).features.len() as i64
        }
        q::SEGMENT => {
            let pt = board.tiles[tile(a)? as usize];
            let i = index(b_)?;
            (i < rules.tiles.tile(pt.tile).features.len()).then_some(())?;
            i64::from(pt.first_node) + i as i64
        }
        q::SEGMENT_AT => {
            let pt = board.tiles[tile(a)? as usize];
            let port = Port::from_index(index(b_).filter(|&p| p < 12)?);
            let f = rules.tiles.tile(pt.tile).feature_at(pt.rotation, port)?;
            i64::from(pt.first_node) + i64::from(f)
        }
        q::TILES_AROUND => {
            let (x, y) = unpack_pos(a);
            // The squares around must be squares too.
            let inside = |v: i32| v > i32::MIN && v < i32::MAX;
            (inside(x) && inside(y)).then_some(())?;
            board.tiles_around(Pos::new(x, y)) as i64
        }
        q::SEGMENT_TILE => i64::from(graph.node(node(a)?).tile),
        q::SEGMENT_PORTS => {
            let n = graph.node(node(a)?);
            let pt = board.tiles[n.tile as usize];
            i64::from(
                rules
                    .tiles
                    .tile(pt.tile)
                    .board_ports(n.feature, pt.rotation),
            )
        }
        q::SEGMENT_KIND => i64::from(graph.node(node(a)?).kind),
        q::SEGMENT_HAS_MARKER => {
            let n = graph.node(node(a)?);
            let pt = board.tiles[n.tile as usize];
            let f = rules.tiles.tile(pt.tile).features.get(n.feature as usize)?;
            b(f.markers.iter().any(|&m| i64::from(m) == b_))
        }
        q::FEATURE_HAS_MARKER => {
            let root = graph.root(node(a)?);
            b(board
                .marked_nodes
                .iter()
                .any(|&(m, n)| i64::from(m) == b_ && graph.root(n) == root))
        }
        q::FEATURE => packed_feature(graph, node(a)?),
        q::SAME_FEATURE => b(graph.same(node(a)?, node(b_)?)),
        q::FEATURE_COMPLETE => b(scoring::is_complete(rules, st, node(a)?)),
        q::MAJORITY => crate::strength::majority(&ask.ctx(st), node(a)?)
            .into_iter()
            .fold(0i64, |m, p| m | 1 << p),
        q::FEATURE_WORTH => i64::from(scoring::feature_points(rules, st, node(a)?)),
        q::FEATURE_TILES => graph.tiles(node(a)?).len() as i64,
        q::FIGURE => {
            let f = figure(a)?;
            i64::from(f.kind) | i64::from(f.owner) << 16
        }
        q::FIGURE_PLACE => place(figure(a)?.at),
        q::FIGURE_WHERE => {
            let f = figure(a)?;
            let tile = if f.tile == NO_TILE {
                0
            } else {
                i64::from(f.tile) + 1
            };
            (place(f.at) + 2) | tile << 32
        }
        q::NEUTRAL_FIGURE => {
            let kind = u8::try_from(a).ok()?;
            let f = rules.neutral_figure(kind, st.players.len())?;
            let fig = st.figures.get(f as usize)?;
            (fig.kind == kind && fig.owner == NEUTRAL).then_some(i64::from(f))?
        }
        q::IN_SUPPLY => st.in_supply(u8::try_from(a).ok()?, u8::try_from(b_).ok()?) as i64,
        q::FIGURE_COUNT => st.figures.len() as i64,
        _ => return None,
    })
}

/// A feature's totals packed as [`q::FEATURE`] answers them.
fn packed_feature(graph: &crate::features::FeatureGraph, n: NodeId) -> i64 {
    let root = graph.feature(n);
    i64::from(root.open_ends())
        | i64::from(root.occupants()) << 16
        | i64::from(graph.pennants(n)) << 32
        | i64::from(root.is_scored()) << 48
        | i64::from(root.kind) << 49
}

extern "C" fn list(
    game: *const c_void,
    id: u32,
    a: i64,
    b_: i64,
    buf: *mut i64,
    cap: usize,
) -> usize {
    let ask = asking(game);
    let cap = if buf.is_null() { 0 } else { cap };
    catch_unwind(AssertUnwindSafe(|| {
        let mut w = Writer { buf, cap, n: 0 };
        list_into(ask, id, a, b_, &mut w);
        w.n
    }))
    .unwrap_or(0)
}

/// Writes a list query's answer into the plugin's buffer, counting what does not fit.
/// It only writes: the plugin's room may be uninitialized.
struct Writer {
    buf: *mut i64,
    cap: usize,
    n: usize,
}

impl Writer {
    #[inline]
    fn push(&mut self, v: i64) {
        if self.n < self.cap {
            // SAFETY: the plugin passes room for `cap` values (`buf` is not null when
            // `cap` > 0), valid for the call.
            unsafe { self.buf.add(self.n).write(v) };
        }
        self.n += 1;
    }
}

fn list_into(ask: &Asking, id: u32, a: i64, b_: i64, w: &mut Writer) {
    let rules = ask.rules;
    if id == q::TILE_TYPE_KINDS {
        if let Some(t) = usize::try_from(a)
            .ok()
            .and_then(|t| rules.tiles.types.get(t))
        {
            for f in &t.features {
                w.push(i64::from(f.kind));
            }
        }
        return;
    }
    let Some(st) = ask.state else { return };
    let board = &st.board;
    let graph = &board.graph;
    match id {
        q::TILES_WITH_MARKER => {
            for &(m, t) in &board.marked_tiles {
                if i64::from(m) == a {
                    w.push(i64::from(t));
                }
            }
        }
        q::VACANT_SEGMENTS => {
            for n in 0..graph.len() as NodeId {
                let root = graph.feature(n);
                if root.occupants() == 0 && !root.is_scored() {
                    w.push(i64::from(n));
                    w.push(packed_feature(graph, n));
                    w.push(i64::from(graph.node(n).tile));
                }
            }
        }
        q::SEGMENTS_OF_KIND => {
            let Ok(kind) = u8::try_from(a) else { return };
            let inner = rules
                .vocab
                .kinds
                .get(kind as usize)
                .is_some_and(|k| matches!(k.shape, KindShape::Surrounded));
            if inner {
                for &(k, n) in &board.inner_nodes {
                    if k == kind {
                        w.push(i64::from(n));
                    }
                }
            } else {
                for n in 0..graph.len() as NodeId {
                    if graph.node(n).kind == kind {
                        w.push(i64::from(n));
                    }
                }
            }
        }
        q::FIELD_CITIES => {
            if let Some(n) = NodeId::try_from(a)
                .ok()
                .filter(|&n| (n as usize) < graph.len())
            {
                for city in scoring::field_cities(rules, st, n) {
                    w.push(i64::from(city));
                }
            }
        }
        q::SEGMENTS_WITH_MARKER => {
            for &(m, n) in &board.marked_nodes {
                if i64::from(m) == a {
                    w.push(i64::from(n));
                }
            }
        }
        q::FIGURES_ON_FEATURE => {
            let Some(n) = NodeId::try_from(a)
                .ok()
                .filter(|&n| (n as usize) < graph.len())
            else {
                return;
            };
            for f in st.figures_on_feature(n) {
                w.push(i64::from(f));
            }
        }
        q::FIGURES_ON_TILE => {
            let Ok(t) = u32::try_from(a) else { return };
            for f in st.figures_on_tile(t) {
                w.push(i64::from(f));
            }
        }
        q::FIGURES_OF => {
            let (Ok(p), Ok(k)) = (u8::try_from(a), u8::try_from(b_)) else {
                return;
            };
            if (p as usize) < st.players.len() {
                for f in rules.player_figures(k, p, st.players.len()) {
                    if f < st.figures.len() {
                        w.push(f as i64);
                    }
                }
            }
        }
        q::SEGMENTS_OF => {
            if let Ok(t) = u32::try_from(a) {
                for node in board.nodes_of(t) {
                    w.push(i64::from(node));
                }
            }
        }
        q::PLACED_FIGURES_OF => {
            let (Ok(p), Ok(k)) = (u8::try_from(a), u8::try_from(b_)) else {
                return;
            };
            if (p as usize) < st.players.len() {
                let range = rules.player_figures(k, p, st.players.len());
                for (i, f) in st
                    .figures
                    .get(range.clone())
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                {
                    if f.tile != NO_TILE {
                        w.push((range.start + i) as i64);
                        w.push(place(f.at));
                        w.push(i64::from(f.tile));
                    }
                }
            }
        }
        q::NEIGHBOURS => {
            if let Some(t) = u32::try_from(a)
                .ok()
                .filter(|&t| (t as usize) < board.tiles.len())
            {
                for side in Side::ALL {
                    w.push(board.neighbour(t, side).map_or(-1, i64::from));
                }
            }
        }
        q::FEATURE_TILE_LIST => {
            if let Some(n) = NodeId::try_from(a)
                .ok()
                .filter(|&n| (n as usize) < graph.len())
            {
                for t in graph.tiles(n) {
                    w.push(i64::from(t));
                }
            }
        }
        _ => {}
    }
}

extern "C" fn name(game: *const c_void, id: u32, a: i64, text: *const u8, len: usize) -> i64 {
    let ask = asking(game);
    if text.is_null() {
        return -1;
    }
    // SAFETY: the plugin passes `len` bytes valid during the call.
    let bytes = unsafe { std::slice::from_raw_parts(text, len) };
    let Ok(text) = std::str::from_utf8(bytes) else {
        return -1;
    };
    catch_unwind(AssertUnwindSafe(|| by_name(ask, id, a, text).unwrap_or(-1))).unwrap_or(-1)
}

fn by_name(ask: &Asking, id: u32, a: i64, text: &str) -> Option<i64> {
    let rules = ask.rules;
    let index = |v: i64| usize::try_from(v).ok();
    Some(match id {
        q::KIND => i64::from(rules.vocab.kind(text).ok()?),
        q::MARKER => i64::from(rules.vocab.marker(text).ok()?),
        q::VERB => i64::from(rules.verb(text)?.0),
        q::PHASE_NAMED => rules.phase_index(text)? as i64,
        q::FIGURE_KIND => crate::rules::figure_kind_named(&rules.figure_kinds, text)? as i64,
        q::OPTION_IS => {
            let (option, value) = text.split_once('=')?;
            b(rules.option(ask.me, option) == value)
        }
        q::FIGURE_KIND_TAGGED => {
            let k = rules.figure_kinds.get(index(a)?)?;
            b(k.tags.iter().any(|t| t == text))
        }
        q::KIND_TAGGED => b(rules.kind_has_tag(u8::try_from(a).ok()?, text)),
        q::TILE_TYPE_NAMED => i64::from(rules.tiles.get(text)?),
        q::TILE_TYPE_IN_SET => {
            let t = rules.tiles.types.get(index(a)?)?;
            b(t.set.as_deref() == Some(text))
        }
        q::RUNS_BEFORE => {
            let mut parts = text.split('|');
            let (point, a, b_) = (parts.next()?, parts.next()?, parts.next()?);
            match rules.plan.first_of(point, a, b_) {
                Some(first) => b(first == a),
                None => return None,
            }
        }
        _ => return None,
    })
}

extern "C" fn record(game: *const c_void, len: *mut usize) -> *const i64 {
    let ask = asking(game);
    let values: &[i64] = ask
        .state
        .and_then(|st| st.ext.get(ask.me))
        .map_or(&[], |v| v.as_slice());
    if !len.is_null() {
        // SAFETY: the plugin passes a place for the length.
        unsafe { *len = values.len() };
    }
    values.as_ptr()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::base::BaseGame;
    use crate::bots::{Strategy, bot_game};

    /// Numbers a plugin might pass, sensible or not.
    const ODD: [i64; 9] = [-2, -1, 0, 1, 3, 70, 1 << 31, i64::MAX, i64::MIN];

    /// Every query id (known or not) with every odd argument answers without a panic,
    /// in a game under way, at its end and with no game (while an expansion is set up):
    /// a plugin can pass any number.
    #[test]
    fn no_query_panics_on_any_argument() {
        // An expansion with a neutral figure, a marker and an inner kind of its own.
        let manifest = crate::manifest::Manifest::from_toml(
            "id = \"odd\"\nname = \"odd\"\nversion = \"1.0.0\"\n\
             [[kind]]\nname = \"den\"\nshape = \"surrounded\"\n\
             [[marker]]\nname = \"moon\"\n\
             [[figure]]\nname = \"owl\"\nclass = \"neutral\"\nneutral = 1\n",
            "odd.toml",
        )
        .expect("manifest");
        let rules = Arc::new(
            Rules::new(
                vec![
                    Box::new(BaseGame),
                    Box::new(crate::fixtures::Declarations(manifest)),
                ],
                &BTreeMap::new(),
            )
            .expect("rules"),
        );
        let names = ["A".to_string(), "B".to_string()];
        let mut g = bot_game(&rules, &names, &[Strategy::Random], 3).expect("game");
        for _ in 0..40 {
            g.game.apply_index(0).expect("a move");
        }
        let mut ended = g.game.clone();
        ended.finish();
        for state in [Some(&g.game.state), Some(&ended.state), None] {
            let ask = Asking {
                rules: &rules,
                state,
                me: 0,
                offered_by: 0,
                deploys_offered_by: 0,
                disabled: 0,
                strength_calls: None,
            };
            let mut buf = [0i64; 4];
            // The quick answers read the state as the queries promise, on every figure
            // and tile and beyond.
            if let Some(st) = state {
                for a in ODD.into_iter().chain(0..60) {
                    let f = usize::try_from(a).ok().and_then(|i| st.figures.get(i));
                    let t = usize::try_from(a).ok().and_then(|i| st.board.tiles.get(i));
                    // Worked out from where it stands, not from the tile the engine keeps.
                    let tile = f.map_or(-1, |f| st.location_tile(f.at).map_or(-1, i64::from));
                    assert_eq!(
                        quick(&ask, q::FIGURE_TILE, a),
                        Some(tile),
                        "figure tile {a}"
                    );
                    let moves = f.map_or(-1, |f| i64::from(f.moves));
                    assert_eq!(quick(&ask, q::FIGURE_MOVES, a), Some(moves), "moves {a}");
                    let kind = t.map_or(-1, |t| i64::from(t.tile));
                    assert_eq!(quick(&ask, q::TILE_TYPE, a), Some(kind), "tile type {a}");
                }
            }
            for id in 0..300u32 {
                for a in ODD {
                    for b in ODD {
                        let _ = answer(&ask, id, a, b);
                        let mut w = Writer {
                            buf: buf.as_mut_ptr(),
                            cap: buf.len(),
                            n: 0,
                        };
                        list_into(&ask, id, a, b, &mut w);
                    }
                    for text in ["", "city", "a=b", "x|y|z", "||", "=", "base:D", "\u{1F409}"] {
                        let _ = by_name(&ask, id, a, text);
                    }
                }
            }
        }
    }

    /// A tile type's sides, as its tile data gives them (BASE-4 matches by these).
    #[test]
    fn a_tile_types_sides_are_its_tile_datas() {
        let rules = Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).expect("rules");
        let ask = Asking {
            rules: &rules,
            state: None,
            me: 0,
            offered_by: 0,
            deploys_offered_by: 0,
            disabled: 0,
            strength_calls: None,
        };
        let d = i64::from(rules.tiles.get("base:D").expect("D"));
        let (city, road, field) = (
            i64::from(crate::tiles::vocab::kinds::CITY),
            i64::from(crate::tiles::vocab::kinds::ROAD),
            i64::from(crate::tiles::vocab::kinds::FIELD),
        );
        // base:D: city N; road W–E; field S.
        let sides: Vec<Option<i64>> = (0..4)
            .map(|side| answer(&ask, q::TILE_TYPE_SIDE, d, side))
            .collect();
        assert_eq!(sides, [Some(city), Some(road), Some(field), Some(road)]);
        assert_eq!(answer(&ask, q::TILE_TYPE_SIDE, d, 4), None);
        assert_eq!(answer(&ask, q::TILE_TYPE_SIDE, 10_000, 0), None);
    }

    /// A figure's place survives its round trip through a number.
    #[test]
    fn places_round_trip() {
        for at in [
            Location::Supply,
            Location::OffBoard,
            Location::Feature(0),
            Location::Feature(41),
            Location::Tile(0),
            Location::Tile(9),
        ] {
            assert_eq!(location(place(at)), Some(at));
        }
        assert_eq!(location(-3), None);
    }

    /// A field's cities are those its segments touch on their tiles, complete or not, one
    /// segment of each; the completed ones are those the base game scores it for (BASE-9).
    #[test]
    fn a_fields_cities_are_the_cities_it_touches() {
        let rules =
            Arc::new(Rules::new(vec![Box::new(BaseGame)], &BTreeMap::new()).expect("rules"));
        let names = ["A".to_string(), "B".to_string()];
        let mut g = bot_game(&rules, &names, &[Strategy::Random], 5).expect("game");
        let graph_cities = |st: &GameState, n: NodeId| {
            let ask = Asking {
                rules: &rules,
                state: Some(st),
                me: 0,
                offered_by: 0,
                deploys_offered_by: 0,
                disabled: 0,
                strength_calls: None,
            };
            let mut buf = [0i64; 64];
            let mut w = Writer {
                buf: buf.as_mut_ptr(),
                cap: buf.len(),
                n: 0,
            };
            list_into(&ask, q::FIELD_CITIES, i64::from(n), 0, &mut w);
            buf[..w.n].to_vec()
        };
        // The start tile alone: its field beside the city touches it, the other none.
        let st = &g.game.state;
        let kinds: Vec<(NodeId, u8)> = st
            .board
            .nodes_of(0)
            .map(|n| (n, st.board.graph.node(n).kind))
            .collect();
        let city = kinds
            .iter()
            .find(|k| k.1 == crate::tiles::vocab::kinds::CITY)
            .expect("D has a city")
            .0;
        let touching: Vec<Vec<i64>> = kinds
            .iter()
            .filter(|k| k.1 == crate::tiles::vocab::kinds::FIELD)
            .map(|&(n, _)| graph_cities(st, n))
            .collect();
        let root = i64::from(st.board.graph.root(city));
        assert!(touching.contains(&vec![root]), "{touching:?}");
        assert!(touching.contains(&vec![]), "{touching:?}");
        assert_eq!(
            graph_cities(st, city),
            Vec::<i64>::new(),
            "a city is no field"
        );
        // After 60 moves: every field's completed cities are among its cities.
        for _ in 0..60 {
            g.game.apply_index(0).expect("a move");
        }
        let st = &g.game.state;
        let mut fields = 0;
        for n in 0..st.board.graph.len() as NodeId {
            if st.board.graph.node(n).kind != crate::tiles::vocab::kinds::FIELD {
                continue;
            }
            fields += 1;
            let all = graph_cities(st, n);
            let complete: Vec<i64> = scoring::farm_cities(&rules, st, n)
                .into_iter()
                .map(i64::from)
                .collect();
            assert!(
                complete.iter().all(|c| all.contains(c)),
                "{complete:?} {all:?}"
            );
            assert!(
                all.windows(2).all(|w| w[0] < w[1]),
                "ascending, once each: {all:?}"
            );
        }
        assert!(fields > 20);
    }
}
