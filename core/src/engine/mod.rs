//! The engine: the turn as a pipeline of named phases, `legal_actions()` and
//! `apply(action)` for whoever's decision it is, and the command/event loop through which
//! every rule (base game included) changes the state.
//!
//! How a turn runs: entering a phase calls every expansion's `enter_phase` hook (drawing,
//! scoring...). Then the engine asks every expansion for actions; if there are any, the
//! phase waits for a decision; if there are none, the next phase begins. After the last
//! phase the next player's turn begins at the first. Each command an expansion returns
//! is applied, reported as an event, and every expansion that wants events may react
//! with commands of its own, which are applied at once (depth-first).

mod action;
mod command;
#[cfg(test)]
mod large_board_tests;
mod state;

use std::sync::Arc;

pub use action::{Action, Arg, ArgKind, VerbId};
pub use command::{Command, Event, EventKind, Reason, Text};
pub use state::{GameState, Player, Turn};

use crate::board::Board;
use crate::expansion::{Ctx, Placements};
use crate::features::NodeId;
use crate::figures::{FigureClass, Location, NEUTRAL, NO_TILE, PlayerId};
use crate::geometry::{Pos, Rotation};
use crate::rng::Rng;
use crate::rules::{Rules, each_bit};
use crate::shield::{Fault, shielded};
use crate::strength::StrengthCalls;
use crate::tiles::TileTypeId;
use crate::wake::Hook;

/// The expansions that offered actions (one bit each); `offered`: who offered which span
/// of the legal actions, as `(expansion, end of its span)`.
fn offerers(offered: &[(u8, u32)]) -> u64 {
    offered.iter().fold(0u64, |m, s| m | 1 << (s.0 & 63))
}

/// The expansions that offered at least one deployment among `legal` (one bit each);
/// `offered` as for [`offerers`].
fn deployers(legal: &[Action], offered: &[(u8, u32)]) -> u64 {
    let mut by = 0u64;
    let mut start = 0;
    for &(who, end) in offered {
        let span = legal.get(start..end as usize).unwrap_or(&[]);
        if span.iter().any(|a| matches!(a, Action::Deploy { .. })) {
            by |= 1 << (who & 63);
        }
        start = end as usize;
    }
    by
}

/// Whether two actions are moves of one kind: placements, deployments, passes, or one
/// expansion move (whatever they name).
fn same_kind_of_move(a: &Action, b: &Action) -> bool {
    match (a, b) {
        (Action::Verb { verb: x, .. }, Action::Verb { verb: y, .. }) => x == y,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// The most players a game may have (BASE-2: 1 is for tests).
pub const MAX_PLAYERS: usize = 6;
/// How deep reactions to reactions may go before the engine stops a runaway expansion.
const MAX_REACTION_DEPTH: u32 = 32;
/// Open squares above which a placement is checked on its square alone (see
/// `Game::large_board`). A game of every shipped tile has fewer than 200.
const LARGE_BOARD: usize = 256;

/// How a game begins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Player names in turn order.
    pub players: Vec<String>,
    /// The tiles to draw, in draw order (first drawn first).
    pub draw_order: Vec<TileTypeId>,
    /// How many of them, from the first, were listed explicitly (a record's `draw`): tiles
    /// that go back into the supply during play are shuffled in behind those, among the
    /// rest, so the listed order always holds.
    pub listed: usize,
    /// Seed for reshuffles during play.
    pub seed: u64,
    /// Whether the supply is every tile of the enabled expansions (`supply = "full"`), so
    /// the copies of each tile are known; otherwise it is exactly the draw order.
    pub full_supply: bool,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal(pub String);

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A game: the rules in force, the state, and the engine's working memory.
#[derive(Clone, Debug)]
pub struct Game {
    /// The rules, shared between games.
    pub rules: Arc<Rules>,
    /// The state.
    pub state: GameState,
    legal: Vec<Action>,
    /// Who offered the legal actions: `(expansion, end)` spans, in order.
    offered: Vec<(u8, u32)>,
    /// Scratch flags for [`Expansion::forbid`](crate::expansion::Expansion::forbid).
    forbidden: Vec<bool>,
    /// One bit per expansion disabled after a hook of it panicked.
    disabled: u64,
    legal_valid: bool,
    log: Vec<Event>,
    keep_log: bool,
    faults: Vec<String>,
    depth: u32,
    /// The expansion whose hook is running, and the hook (its commands' events are its
    /// reactions).
    running: (usize, &'static str),
    pool: Vec<Vec<Command>>,
    /// Scratch lists of the move counts a hook saw (see [`Game::hook`]).
    seen_pool: Vec<Vec<u32>>,
    /// Whose decision is being carried out (for the turn log).
    actor: Option<PlayerId>,
    /// The rules at `figure-strength` as asked in this game (those that failed while
    /// another hook ran are disabled when it returns).
    strength_calls: StrengthCalls,
    /// The first listed draw that stood for no copy of its tile (see [`Overdrawn`]).
    overdrawn: Option<Overdrawn>,
}

/// A tile listed to be drawn (a record's `draw`) again, that stands for no copy of it: a
/// full supply holds each tile as many times as the game has it, and a tile that may come
/// back into the supply (PD-7) is listed again for the copy that came back; when it is
/// drawn, no copy had come back. The listing is passed over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overdrawn {
    /// The tile listed.
    pub tile: TileTypeId,
    /// How many listed draws were left, this one included: it is listed draw number
    /// `listed - left` (0-based) of a setup that listed `listed`.
    pub left: u32,
}

impl Game {
    /// Starts a game: places the start tile and runs to the first decision.
    pub fn new(rules: Arc<Rules>, setup: Setup) -> Result<Game, String> {
        let n = setup.players.len();
        if n == 0 || n > MAX_PLAYERS {
            return Err(format!("a game has 1 to {MAX_PLAYERS} players, not {n}"));
        }
        for (i, p) in setup.players.iter().enumerate() {
            if p.trim().is_empty() {
                return Err("a player name is empty".into());
            }
            match setup.players[..i].iter().find(|q| q.trim() == p.trim()) {
                Some(q) if q == p => {
                    return Err(format!("the player name `{p}` is given twice"));
                }
                // Shown alike in every list of players and scores.
                Some(q) => {
                    return Err(format!(
                        "the player names `{q}` and `{p}` differ only in the spaces around \
                         them: give each player a name of their own"
                    ));
                }
                None => {}
            }
        }
        let start = rules.tiles.start.ok_or("no start tile")?;
        let figures = rules.starting_figures(n);
        let listed = setup.listed.min(setup.draw_order.len()) as u32;
        let mut pile = setup.draw_order;
        pile.reverse();
        let board = Board::with_capacity(pile.len() + 1);
        let state = GameState {
            players: setup
                .players
                .into_iter()
                .map(|name| Player { name, score: 0 })
                .collect(),
            board,
            figures,
            pile,
            listed,
            discarded: Vec::new(),
            set_aside: Vec::new(),
            turn: Turn {
                number: 1,
                player: 0,
                phase: 0,
                decider: 0,
                drawn: None,
                placed: None,
                figure_step_done: false,
                figures_done: false,
                over: false,
                requested: 0,
                another_tile: false,
                passed_over_from: [0, 0],
                moves: 0,
                redraws: 0,
            },
            rng: Rng::stream(setup.seed, 1),
            full_supply: setup.full_supply,
            ext: vec![Vec::new(); rules.expansions.len()],
            ended: false,
        };
        let mut game = Game {
            rules,
            state,
            legal: Vec::new(),
            offered: Vec::new(),
            forbidden: Vec::new(),
            disabled: 0,
            legal_valid: false,
            log: Vec::new(),
            keep_log: false,
            faults: Vec::new(),
            depth: 0,
            running: (0, ""),
            pool: Vec::new(),
            seen_pool: Vec::new(),
            actor: None,
            strength_calls: StrengthCalls::default(),
            overdrawn: None,
        };
        // The setup's events are kept until the caller says whether it wants a log.
        game.keep_log = true;
        game.place_tile(None, start, Pos::ORIGIN, Rotation::default());
        game.state.turn.phase = game.next_phase(0).unwrap_or(0) as u8;
        game.emit(Event::TurnStarted { turn: 1, player: 0 });
        game.enter_phase();
        game.advance();
        game.keep_log = false;
        Ok(game)
    }

    /// Keeps events for [`Game::take_log`]. Only the setup's events are kept until this
    /// is turned on; turning it off drops what was kept.
    pub fn keep_log(&mut self, on: bool) {
        self.keep_log = on;
        if !on {
            self.log = Vec::new();
        }
    }

    /// The events since the last call (when logging is on).
    pub fn take_log(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.log)
    }

    /// The first listed draw that stood for no copy of its tile, if any (a record that
    /// lists a tile more often than its supply can give it).
    pub fn overdrawn(&self) -> Option<Overdrawn> {
        self.overdrawn
    }

    /// Commands from expansions that the engine refused (a misbehaving expansion).
    pub fn faults(&self) -> &[String] {
        &self.faults
    }

    /// [`Game::faults`] as they are told to the player, in every command alike: each
    /// once, in the order they first happened, with how many times when more than once (a
    /// hook that gives the same refused command every turn says so in one line, not in
    /// one per turn).
    pub fn faults_said(&self) -> Vec<String> {
        let mut counted: Vec<(&str, usize)> = Vec::new();
        let mut index: std::collections::BTreeMap<&str, usize> = Default::default();
        for f in &self.faults {
            let i = *index.entry(f).or_insert_with(|| {
                counted.push((f, 0));
                counted.len() - 1
            });
            counted[i].1 += 1;
        }
        counted
            .into_iter()
            .map(|(f, n)| match n {
                1 => f.to_string(),
                n => format!("{f} ({n} times)"),
            })
            .collect()
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.ended
    }

    /// The current phase's name.
    pub fn phase(&self) -> &str {
        self.rules
            .phases
            .get(self.state.turn.phase as usize)
            .map_or("", |s| s.as_str())
    }

    /// Whose decision is pending (between turns: the next player, who begins).
    pub fn decider(&self) -> PlayerId {
        let turn = &self.state.turn;
        if turn.over {
            ((turn.player as usize + 1) % self.state.players.len()) as PlayerId
        } else {
            turn.decider
        }
    }

    /// Every legal action for the pending decision (empty when the game is over). Between
    /// two turns this begins the next one.
    pub fn legal_actions(&mut self) -> &[Action] {
        self.resume();
        if !self.legal_valid {
            self.collect_actions();
        }
        &self.legal
    }

    /// Carries out an action of the pending decision, then runs to the next decision.
    pub fn apply(&mut self, action: &Action) -> Result<(), Illegal> {
        if self.state.ended {
            return Err(Illegal("the game is over".into()));
        }
        self.resume();
        // Beginning the next turn may have ended the game (no tile left to play).
        if self.state.ended {
            return Err(Illegal("the game is over".into()));
        }
        // A placement is checked against the placements on its own square only (what
        // the others offer and forbid there is the same): checking a move does not grow
        // with the board. A refused one is judged again against every offered action.
        let mut focused = false;
        if !self.legal_valid {
            let placements = match action {
                Action::Place { pos, .. } if self.large_board() => Placements::At(*pos),
                _ => Placements::Everywhere,
            };
            focused = placements != Placements::Everywhere;
            self.collect_offers(placements);
        }
        let mut found = self.legal.iter().position(|a| a == action);
        if found.is_none() && focused {
            self.collect_actions();
            found = self.legal.iter().position(|a| a == action);
        }
        let Some(i) = found.or_else(|| self.alias(action)) else {
            // The engine's own rule about where figures stand goes before any
            // expansion's words.
            let why = self
                .no_figures_there(action)
                .or_else(|| self.figures_done_this_turn(action))
                .or_else(|| self.expansions_say_why_not(action))
                .unwrap_or_else(|| self.why_illegal(action));
            return Err(Illegal(why));
        };
        self.apply_offered(i);
        Ok(())
    }

    /// Carries out the `i`-th of [`Game::legal_actions`] (what a bot or a search picks;
    /// no look-up), then runs to the next decision.
    pub fn apply_index(&mut self, i: usize) -> Result<(), Illegal> {
        if self.state.ended {
            return Err(Illegal("the game is over".into()));
        }
        self.resume();
        if !self.legal_valid {
            self.collect_actions();
        }
        // Beginning the next turn may have ended the game (no tile left to play).
        if self.state.ended {
            return Err(Illegal("the game is over".into()));
        }
        if i >= self.legal.len() {
            return Err(Illegal(format!(
                "move {i} is not offered ({} legal moves)",
                self.legal.len()
            )));
        }
        self.apply_offered(i);
        Ok(())
    }

    /// Applies the `i`-th offered action (in range, the list current).
    fn apply_offered(&mut self, i: usize) {
        let chosen = self.legal[i];
        let action = &chosen;
        // The span holding `i`: the number of spans that end at or before it.
        let span = self.offered.iter().filter(|s| s.1 <= i as u32).count();
        let owner = self.offered.get(span).map_or(0, |s| s.0 as usize);
        self.state.turn.moves += 1;
        if self.state.turn.moves > MOST_MOVES_IN_A_TURN && owner != 0 {
            // Its move is not played: the turn goes on without the expansion.
            self.disable(
                owner,
                "actions",
                Fault::refused(format!(
                    "it offered moves for more than {MOST_MOVES_IN_A_TURN} decisions in one \
                     turn, and a turn that long never ends"
                )),
            );
        }
        self.actor = Some(self.state.turn.decider);
        self.hook(owner, "apply", |e, ctx, out| e.apply(ctx, action, out));
        self.actor = None;
        self.legal_valid = false;
        self.advance();
    }

    /// Between two turns, plays what follows if it needs no decision and ends the game —
    /// for example when every tile left is discarded or set aside — or if an expansion
    /// fails as the next turn begins (as `carc play` meets it, choosing the next move).
    /// Otherwise nothing changes (the next turn has not begun).
    pub fn settle(&mut self) {
        if self.state.turn.over && !self.state.ended {
            let mut next = self.clone();
            next.keep_log(false);
            next.resume();
            if next.state.ended || next.faults.len() > self.faults.len() {
                self.resume();
            }
        }
    }

    /// Places the drawn tile by id (a convenience over [`Game::apply`] for tools and tests).
    pub fn place(&mut self, id: &str, pos: Pos, rotation: Rotation) -> Result<(), Illegal> {
        let tile = self
            .rules
            .tiles
            .get(id)
            .ok_or_else(|| Illegal(format!("unknown tile `{id}`")))?;
        self.apply(&Action::Place {
            tile,
            pos,
            rotation,
        })
    }

    /// Applies final scoring now (for records that stop before the end).
    pub fn finish(&mut self) {
        if !self.state.ended {
            self.end_game();
        }
    }

    fn ctx(&self, me: usize) -> Ctx<'_> {
        Ctx {
            rules: &self.rules,
            state: &self.state,
            me,
            phase: self.phase(),
            offered_by: 0,
            deploys_offered_by: 0,
            placements: Placements::Everywhere,
            disabled: self.disabled,
            strength_calls: Some(&self.strength_calls),
        }
    }

    /// The offered action that `action` names through another segment of the same feature
    /// on the same tile: a record's `[x, y, PORT]` may name a feature through any of its
    /// ports, and expansions offer each place once.
    fn alias(&self, action: &Action) -> Option<usize> {
        let graph = &self.state.board.graph;
        let on_board = |n: NodeId| (n as usize) < graph.len();
        self.legal.iter().position(|offered| {
            action.feature_pair(offered).is_some_and(|(named, n)| {
                on_board(named)
                    && on_board(n)
                    && graph.node(named).tile == graph.node(n).tile
                    && graph.same(named, n)
            })
        })
    }

    /// What the expansions say about a refused move ([`Expansion::why_not`]): first those
    /// whose rules forbid it, then the others in the rules' order, the base game last
    /// (expansions refine it: a deployment off the placed tile is the portal's to
    /// explain); the first answer. An expansion that panics here is disabled, as in any
    /// hook.
    fn expansions_say_why_not(&mut self, action: &Action) -> Option<String> {
        if self.legal.is_empty() {
            return None;
        }
        let rules = &*self.rules;
        let offered_by = offerers(&self.offered);
        let deploys_offered_by = deployers(&self.legal, &self.offered);
        let ctx = |i: usize| Ctx {
            offered_by,
            deploys_offered_by,
            ..self.ctx(i)
        };
        let mut panicked: Vec<(usize, &str, Fault)> = Vec::new();
        let asked: Vec<usize> = (0..rules.expansions.len())
            .filter(|&i| !self.is_disabled(i))
            .collect();
        let mut forbidding = Vec::new();
        for &i in &asked {
            let e = &rules.expansions[i];
            match shielded(i, || e.restricts(&ctx(i)) && e.forbids(&ctx(i), action)) {
                Ok(true) => forbidding.push(i),
                Ok(false) => {}
                Err(why) => panicked.push((i, "forbid", why)),
            }
        }
        let others = asked.iter().filter(|i| !forbidding.contains(i));
        let (base, others): (Vec<usize>, Vec<usize>) = others.partition(|&&i| i == 0);
        let mut answer = None;
        for &i in forbidding.iter().chain(&others).chain(&base) {
            if panicked.iter().any(|p| p.0 == i) {
                continue;
            }
            match shielded(i, || rules.expansions[i].why_not(&ctx(i), action)) {
                Ok(Some(why)) => {
                    answer = Some(why);
                    break;
                }
                Ok(None) => {}
                Err(why) => panicked.push((i, "why_not", why)),
            }
        }
        if self.strength_rules_failed() {
            panicked.extend(self.failed_strength_rules());
        }
        if !panicked.is_empty() {
            for (i, hook, why) in panicked {
                self.disable(i, hook, why);
            }
            self.legal_valid = false;
        }
        answer
    }

    /// What is pending, for a move that is not one of its options.
    fn pending_decision(&self) -> String {
        if self.legal.is_empty() {
            return "no decision is pending".into();
        }
        let turn = &self.state.turn;
        let name = |seat: PlayerId| {
            self.state
                .players
                .get(seat as usize)
                .map_or("nobody", |p| p.name.as_str())
        };
        // A move of the turn before, given after that turn ended (a second figure action
        // after the one a turn has): said as such.
        let begun = if turn.moves == 0 && turn.number > 1 {
            format!("turn {} ({}) has begun: ", turn.number, name(turn.player))
        } else {
            String::new()
        };
        format!(
            "{begun}the pending decision, `{}` by {}, takes {}; this move is none of them",
            self.phase(),
            name(turn.decider),
            crate::turnlog::or_list(&self.offered_moves())
        )
    }

    /// The kinds of move the pending decision takes, as a record writes them: `place`,
    /// the deployments (`follower`, `builder`), expansions' moves (`fairy`), `pass`.
    fn offered_moves(&self) -> Vec<String> {
        let rank = |a: &Action| match a {
            Action::Place { .. } => 0,
            Action::Deploy { .. } => 1,
            Action::Verb { .. } => 2,
            Action::Pass => 3,
        };
        let mut offered: Vec<&Action> = self.legal.iter().collect();
        // Stable: within a rank, in the order offered (the follower before other figures).
        offered.sort_by_key(|a| rank(a));
        let mut names: Vec<String> = Vec::new();
        for action in offered {
            // (Every offered figure and verb is declared; an undeclared one has no name.)
            let name = self
                .rules
                .move_key(action)
                .map_or_else(|| "another move".to_string(), |n| format!("`{n}`"));
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    }

    /// Why a deployment is refused when it is onto a feature of a kind tagged
    /// `no-figures` (a river); `None` for any other move.
    fn no_figures_there(&self, action: &Action) -> Option<String> {
        let Action::Deploy { node, .. } = action else {
            return None;
        };
        let kind = self.rules.barred(&self.state.board.graph, *node)?;
        Some(format!(
            "no figure may stand on {}",
            crate::turnlog::with_article(self.rules.vocab.kind_name(kind))
        ))
    }

    /// Why a move other than a pass is refused in a figure step of a turn whose figure
    /// steps a rule ended at an earlier tile (`FiguresDoneThisTurn`); `None` otherwise.
    fn figures_done_this_turn(&self, action: &Action) -> Option<String> {
        let turn = &self.state.turn;
        let in_figure_step = self.rules.hook_masks[turn.phase as usize].figure_step != 0;
        (turn.figures_done && !turn.figure_step_done && in_figure_step && *action != Action::Pass)
            .then(|| {
                "no figure is deployed or moved in the rest of this turn: a rule ended its \
                 figure steps at an earlier tile (see the turn log); only `pass` is legal"
                    .to_string()
            })
    }

    fn why_illegal(&self, action: &Action) -> String {
        if self.legal.is_empty() {
            return "no decision is pending".into();
        }
        let same_kind = self.legal.iter().any(|a| same_kind_of_move(a, action));
        match action {
            Action::Place { tile, .. } if same_kind && Some(*tile) != self.state.turn.drawn => {
                let mut why = match self.state.turn.drawn {
                    Some(drawn) => format!(
                        "that is not the tile just drawn (`{}` is)",
                        self.rules.tiles.tile(drawn).id
                    ),
                    None => "that is not the tile just drawn".into(),
                };
                // The tile named may be one drawn before it in this turn, which could not
                // be placed.
                let id = &self.rules.tiles.tile(*tile).id;
                let [discarded, set_aside] = self.state.turn.passed_over_from.map(|n| n as usize);
                let this_turn = |tiles: &[TileTypeId], from: usize| {
                    tiles.get(from..).is_some_and(|t| t.contains(tile))
                };
                if this_turn(&self.state.discarded, discarded) {
                    why.push_str(&format!(
                        "; the `{id}` drawn before it in this turn fitted nowhere and was \
                         discarded (BASE-4)"
                    ));
                } else if this_turn(&self.state.set_aside, set_aside) {
                    why.push_str(&format!(
                        "; the `{id}` drawn before it in this turn was set aside, to come back \
                         later"
                    ));
                }
                why
            }
            Action::Place { pos, .. } if same_kind && self.state.board.is_placed(*pos) => {
                format!("the square {pos} already holds a tile (BASE-4)")
            }
            Action::Place { .. } if same_kind => {
                "the tile does not fit there: it must touch the board and match every edge (BASE-4)"
                    .into()
            }
            Action::Deploy { figure, .. } if same_kind => {
                let kind = self
                    .rules
                    .figure_kinds
                    .get(*figure as usize)
                    .map_or("figure", |k| k.name.as_str());
                format!(
                    "no {kind} may be deployed there (the feature is occupied, not on the tile \
                     just placed, or the supply is empty)"
                )
            }
            _ if same_kind => "that move is not allowed here".into(),
            _ => self.pending_decision(),
        }
    }

    fn collect_actions(&mut self) {
        self.collect_offers(Placements::Everywhere);
    }

    /// Whether the board has so many open squares that checking one placement, or
    /// whether any exists, is worth doing without listing them all. Below this, one
    /// full list (needed anyway by a bot) is cheaper; real games stay below it.
    fn large_board(&self) -> bool {
        self.state.board.open_squares().len() > LARGE_BOARD
    }

    /// Collects the offered actions. With fewer placements than every one (see
    /// [`Placements`]), the list is not every legal action if it holds a placement,
    /// and stays marked as not current.
    fn collect_offers(&mut self, placements: Placements) {
        let mut legal = std::mem::take(&mut self.legal);
        let mut offered = std::mem::take(&mut self.offered);
        legal.clear();
        offered.clear();
        let mut panicked: Vec<(usize, &str, Fault)> = Vec::new();
        if !self.state.ended {
            let rules = &*self.rules;
            let masks = rules.hook_masks[self.state.turn.phase as usize];
            let mut offering = masks.actions & !self.disabled;
            if self.state.turn.figure_step_done {
                offering &= !masks.figure_step;
            } else if self.state.turn.figures_done && masks.figure_step != 0 {
                // Every figure step left in this turn is over (PD-17, at a further tile of
                // the turn): the figure step offers a pass alone, as the base game's.
                offering &= !masks.figure_step;
                legal.push(Action::Pass);
                offered.push((0, 1));
            }
            offering &= !rules.wake.asleep(Hook::Actions, offering, &self.state);
            for i in each_bit(offering) {
                let e = &rules.expansions[i];
                let before = legal.len();
                let ctx = Ctx {
                    placements,
                    ..self.ctx(i)
                };
                if let Err(why) = shielded(i, || e.actions(&ctx, &mut legal)) {
                    legal.truncate(before);
                    panicked.push((i, "actions", why));
                }
                if legal.len() > before {
                    offered.push((i as u8, legal.len() as u32));
                }
            }
            // No figure goes onto a feature of a kind tagged `no-figures`, whoever offers
            // it (the base game, a portal, a third party).
            if !rules.no_figures.is_empty() {
                let graph = &self.state.board.graph;
                let mut forbidden = std::mem::take(&mut self.forbidden);
                forbidden.clear();
                forbidden.extend(legal.iter().map(|a| {
                    matches!(a, Action::Deploy { node, .. } if rules.barred(graph, *node).is_some())
                }));
                drop_forbidden(&mut legal, &mut offered, &forbidden);
                self.forbidden = forbidden;
            }
            // Only expansions that restrict this phase (and are awake) are asked about
            // the actions.
            let mut restricting = if legal.is_empty() {
                0
            } else {
                masks.restricts & !self.disabled
            };
            let deploys_offered_by = if restricting == 0 {
                0
            } else {
                deployers(&legal, &offered)
            };
            restricting &= !rules.wake.asleep_judging(
                Hook::Restricts,
                restricting,
                &self.state,
                deploys_offered_by,
            );
            if restricting != 0 {
                let mut forbidden = std::mem::take(&mut self.forbidden);
                let offered_by = offerers(&offered);
                // Placing a drawn tile (judged whole): some of the placements each
                // expansion forbade, to ask about again should none be left.
                let placing = placements == Placements::Everywhere
                    && self.state.turn.drawn.is_some()
                    && self.state.turn.phase as usize == rules.place_phase;
                let mut forbade_placements: Vec<(usize, Action)> = Vec::new();
                for i in each_bit(restricting) {
                    if legal.is_empty() {
                        break;
                    }
                    let e = &rules.expansions[i];
                    let ctx = Ctx {
                        offered_by,
                        deploys_offered_by,
                        placements,
                        ..self.ctx(i)
                    };
                    let asked = shielded(i, || {
                        let restricts = e.restricts(&ctx);
                        if restricts {
                            forbidden.clear();
                            forbidden.resize(legal.len(), false);
                            e.forbid(&ctx, &legal, &mut forbidden);
                        }
                        restricts
                    });
                    match asked {
                        Ok(true) => {}
                        Ok(false) => continue,
                        Err(why) => {
                            panicked.push((i, "forbid", why));
                            continue;
                        }
                    }
                    if placing {
                        forbade_placements.extend(
                            legal
                                .iter()
                                .zip(&forbidden)
                                .filter(|(a, f)| **f && matches!(a, Action::Place { .. }))
                                .take(PLACEMENTS_ASKED_AGAIN)
                                .map(|(a, _)| (i, *a)),
                        );
                    }
                    drop_forbidden(&mut legal, &mut offered, &forbidden);
                }
                self.forbidden = forbidden;
                // No placement of the drawn tile is left. An expansion that allows, judged
                // alone, a placement it forbade judged with the others gives a verdict
                // that depends on the others, which the SDK rules out: it is at fault
                // (the tile would be discarded for it). Otherwise the tile fits nowhere
                // now, and `advance` discards it (BASE-4).
                if !forbade_placements.is_empty()
                    && !legal.iter().any(|a| matches!(a, Action::Place { .. }))
                {
                    let mut at_fault = 0u64;
                    for (i, action) in &forbade_placements {
                        if at_fault & 1 << i != 0 {
                            continue;
                        }
                        let e = &rules.expansions[*i];
                        let ctx = Ctx {
                            offered_by,
                            deploys_offered_by,
                            placements,
                            ..self.ctx(*i)
                        };
                        if let Ok(false) = shielded(*i, || e.forbids(&ctx, action)) {
                            at_fault |= 1 << i;
                            panicked.push((
                                *i,
                                "forbid",
                                Fault::refused(
                                    "it forbade a placement of the drawn tile judged with the \
                                     others, which it allowed judged alone, and no placement \
                                     was left (a verdict on a placement must not depend on \
                                     the others judged with it)",
                                ),
                            ));
                        }
                    }
                }
            }
        }
        self.legal = legal;
        self.offered = offered;
        self.legal_valid = placements == Placements::Everywhere
            || !self.legal.iter().any(|a| matches!(a, Action::Place { .. }));
        if self.strength_rules_failed() {
            panicked.extend(self.failed_strength_rules());
        }
        if !panicked.is_empty() {
            for (i, hook, why) in panicked {
                self.disable(i, hook, why);
            }
            // What the disabled expansions offered or forbade no longer counts.
            self.collect_offers(placements);
        }
    }

    /// Whether rules at `figure-strength` failed while hooks ran (asked for a majority):
    /// asked after every hook, answered at no cost in a game without such rules.
    #[inline(always)]
    fn strength_rules_failed(&mut self) -> bool {
        !self.rules.strength_rules.is_empty() && self.strength_calls.any_failed()
    }

    /// The rules at `figure-strength` that failed while hooks ran, as `(expansion, hook,
    /// why)`, to be disabled.
    #[inline(never)]
    fn failed_strength_rules(&mut self) -> Vec<(usize, &'static str, Fault)> {
        self.strength_calls
            .take()
            .into_iter()
            .map(|(i, why)| (i, "figure_strength", why))
            .collect()
    }

    /// Disables the rules at `figure-strength` that failed while hooks ran.
    #[inline(always)]
    fn disable_failed_strength_rules(&mut self) {
        if !self.strength_rules_failed() {
            return;
        }
        for (i, hook, why) in self.failed_strength_rules() {
            self.disable(i, hook, why);
        }
    }

    fn is_disabled(&self, expansion: usize) -> bool {
        crate::expansion::is_among(expansion, self.disabled)
    }

    /// Disables an expansion whose hook panicked or gave what the engine refuses, and
    /// reports it.
    fn disable(&mut self, expansion: usize, hook: &str, why: Fault) {
        if self.is_disabled(expansion) {
            // Disabled once, reported once.
            return;
        }
        if expansion < 64 {
            self.disabled |= 1 << expansion;
        }
        let id = &self.rules.manifests[expansion].id;
        self.faults.push(if why.panicked {
            format!("expansion `{id}` panicked in `{hook}` ({why}); it is disabled")
        } else {
            format!("expansion `{id}` went wrong in `{hook}`: {why}; it is disabled")
        });
    }

    /// Runs phases until a decision is pending or the game is over.
    fn advance(&mut self) {
        let mut guard = 0;
        loop {
            if self.state.ended {
                self.legal.clear();
                self.offered.clear();
                self.legal_valid = true;
                return;
            }
            if self.large_board() {
                // Whether a decision is pending, without listing every placement.
                self.collect_offers(Placements::FirstSquare);
                if self.legal.is_empty() {
                    self.collect_actions();
                }
            } else {
                self.collect_actions();
            }
            if !self.legal.is_empty() {
                return;
            }
            if self.state.turn.phase as usize == self.rules.place_phase
                && let Some(tile) = self.state.turn.drawn
            {
                // No placement of the drawn tile is allowed now (it had one when drawn:
                // what the expansions forbid changed since): it fits nowhere, so it is
                // discarded and another one drawn (BASE-4), the phases from `draw` on
                // running again.
                self.discard_drawn(tile);
                self.state.turn.phase = self.rules.draw_phase as u8;
                self.enter_phase();
                continue;
            }
            guard += 1;
            if guard > 10_000 {
                self.faults
                    .push("the turn made no progress; the game was ended".into());
                self.end_game();
                continue;
            }
            let next = self.next_phase(self.state.turn.phase as usize + 1);
            if next.is_none() && self.state.turn.another_tile {
                // Another tile in the same turn: its phases from `draw` on run again.
                let turn = &mut self.state.turn;
                turn.another_tile = false;
                turn.requested = 0;
                turn.drawn = None;
                turn.placed = None;
                turn.figure_step_done = false;
                turn.phase = self.rules.draw_phase as u8;
                self.enter_phase();
                continue;
            }
            let Some(next) = next else {
                // The turn is over. The next one begins when someone asks for its first
                // decision, so the state after a move is the state at the end of its turn
                // (a record's `[expect]` sees no next-turn effects such as the fairy's point).
                self.state.turn.over = true;
                #[cfg(feature = "protocol-next")]
                {
                    let (turn, player) = (self.state.turn.number, self.state.turn.player);
                    self.emit(Event::TurnEnded { turn, player });
                }
                self.legal.clear();
                self.offered.clear();
                self.legal_valid = true;
                return;
            };
            self.state.turn.phase = next as u8;
            self.enter_phase();
        }
    }

    /// The first phase from `from` on that runs in this turn: on-request phases
    /// (`PhaseDecl::on_request`) only when asked for. `None`: the turn has no more.
    #[inline]
    fn next_phase(&self, from: usize) -> Option<usize> {
        // Skip the on-request phases not asked for; past 64, none is on request.
        let skipped = self.rules.on_request & !self.state.turn.requested;
        let mut p = from;
        while p < 64 && skipped >> p & 1 == 1 {
            p += 1;
        }
        (p < self.rules.phases.len()).then_some(p)
    }

    /// Begins the next turn if the last one is over (and the game is not).
    fn resume(&mut self) {
        if !self.state.turn.over || self.state.ended {
            return;
        }
        let turn = &mut self.state.turn;
        turn.over = false;
        turn.requested = 0;
        turn.number += 1;
        turn.player = ((turn.player as usize + 1) % self.state.players.len()) as PlayerId;
        turn.drawn = None;
        turn.placed = None;
        turn.figure_step_done = false;
        turn.figures_done = false;
        turn.passed_over_from = [
            self.state.discarded.len() as u32,
            self.state.set_aside.len() as u32,
        ];
        turn.moves = 0;
        turn.redraws = 0;
        let (number, player) = (turn.number, turn.player);
        self.state.turn.phase = self.next_phase(0).unwrap_or(0) as u8;
        self.emit(Event::TurnStarted {
            turn: number,
            player,
        });
        self.enter_phase();
        self.advance();
    }

    fn enter_phase(&mut self) {
        self.state.turn.decider = self.state.turn.player;
        let phase = self.state.turn.phase as usize;
        for i in each_bit(self.rules.hook_masks[phase].enter) {
            if self.state.ended {
                return;
            }
            // Asked as it comes: an earlier expansion's commands may have woken it.
            if self
                .rules
                .wake
                .asleep(Hook::EnterPhase, 1 << i, &self.state)
                != 0
            {
                continue;
            }
            self.hook(i, "enter_phase", |e, ctx, out| e.enter_phase(ctx, out));
        }
    }

    fn end_game(&mut self) {
        if self.state.ended {
            return;
        }
        self.state.ended = true;
        self.state.turn.drawn = None;
        self.emit(Event::GameEnded);
        // In the declared order (`final-scoring`), never the order expansions are listed.
        let rules = Arc::clone(&self.rules);
        for &i in &rules.final_scoring {
            self.hook(i, "final_scoring", |e, ctx, out| e.final_scoring(ctx, out));
        }
        self.legal.clear();
        self.offered.clear();
        self.legal_valid = true;
    }

    /// Reports an event and lets every interested expansion react.
    fn emit(&mut self, event: Event) {
        if self.depth >= MAX_REACTION_DEPTH {
            // An endless chain of reactions: the expansion reacting is stopped.
            let deep = format!(
                "reactions set off events more than {MAX_REACTION_DEPTH} deep (each \
                 reaction's event set off another), so the last was not told"
            );
            match self.running {
                (0, _) => {
                    // Said once, not for every event dropped.
                    if self.faults.last() != Some(&deep) {
                        self.faults.push(deep);
                    }
                }
                (who, hook) => self.disable(who, hook, Fault::refused(format!("its {deep}"))),
            }
            return;
        }
        if self.keep_log {
            self.log.push(event.clone());
        }
        let mut listeners = self.rules.listeners[event.kind() as usize] & !self.disabled;
        if let (Some(tile), true) = (event.tile(), listeners != 0) {
            listeners &= self.rules.tile_watchers(tile);
        }
        listeners &= !self
            .rules
            .wake
            .asleep(Hook::OnEvent(event.kind()), listeners, &self.state);
        if listeners == 0 {
            return;
        }
        // Reactions to an event are rules at work, not the deciding player's move.
        let actor = self.actor.take();
        self.depth += 1;
        for i in each_bit(listeners) {
            self.hook(i, "on_event", |e, ctx, out| e.on_event(ctx, &event, out));
        }
        self.depth -= 1;
        self.actor = actor;
    }

    /// Calls hook `name` of expansion `who` and applies the commands it returns, in
    /// order. Command buffers are pooled: hooks run very often during search.
    fn hook(
        &mut self,
        who: usize,
        name: &'static str,
        call: impl FnOnce(&dyn crate::expansion::Expansion, &Ctx, &mut Vec<Command>),
    ) {
        if self.is_disabled(who) {
            return;
        }
        let mut out = self.pool.pop().unwrap_or_default();
        let running = std::mem::replace(&mut self.running, (who, name));
        let called = shielded(who, || {
            call(
                self.rules.expansions[who].as_ref(),
                &self.ctx(who),
                &mut out,
            )
        });
        self.disable_failed_strength_rules();
        let panicked = called.is_err();
        if let Err(why) = called {
            self.disable(who, name, why);
        }
        if panicked || self.is_disabled(who) {
            // Nothing of a hook that panicked is applied, nor of one whose own rule at
            // `figure-strength` failed while it ran.
            out.clear();
            self.pool.push(out);
            self.running = running;
            return;
        }
        self.apply_commands(who, name, out);
        self.running = running;
    }

    /// Applies the commands `who` gave in `name` (a hook, or the engine's own scoring),
    /// in order; a refused one is a fault and changes nothing, and the others go on. The
    /// buffer goes back to the pool.
    fn apply_commands(&mut self, who: usize, name: &'static str, mut out: Vec<Command>) {
        if out.is_empty() {
            // Nothing to apply (most calls): the buffer goes back at once.
            self.pool.push(out);
            return;
        }
        // Where each figure a command is about stood when the commands were given (its
        // move count): a command about a figure that an earlier command of the same step
        // (or a reaction to it) has moved since is refused, not applied.
        let mut seen = self.seen_pool.pop().unwrap_or_default();
        seen.clear();
        seen.extend(out.iter().map(|c| {
            match c {
                Command::MoveFigure { figure, .. } | Command::ReturnFigure { figure, .. } => self
                    .state
                    .figures
                    .get(*figure as usize)
                    .map_or(u32::MAX, |f| f.moves),
                _ => u32::MAX,
            }
        }));
        for (c, moves_then) in out.drain(..).zip(seen.iter().copied()) {
            if let Command::MoveFigure { figure, .. } | Command::ReturnFigure { figure, .. } = c
                && self
                    .state
                    .figures
                    .get(figure as usize)
                    .is_some_and(|f| f.moves != moves_then)
            {
                continue;
            }
            let redraw = matches!(c, Command::SetAsideDrawn | Command::ReturnDrawnToSupply);
            match self.command(who, c) {
                Ok(()) => {}
                // A turn that never gets a tile: the expansion is not asked again.
                Err(e)
                    if redraw && who != 0 && self.state.turn.redraws > MOST_REDRAWS_IN_A_TURN =>
                {
                    self.disable(who, name, Fault::refused(format!("it {e}")));
                }
                Err(e) => {
                    let id = &self.rules.manifests[who].id;
                    self.faults.push(format!(
                        "expansion `{id}` gave a command in `{name}` that was refused and \
                         changed nothing: it {e}"
                    ));
                }
            }
        }
        self.seen_pool.push(seen);
        self.pool.push(out);
    }

    fn place_tile(
        &mut self,
        player: Option<PlayerId>,
        tile: TileTypeId,
        pos: Pos,
        rotation: Rotation,
    ) {
        let rules = &*self.rules;
        let t = rules.tiles.tile(tile);
        let board = &mut self.state.board;
        let index = board.place(tile, t, pos, rotation, &rules.vocab);
        board.connect(index, |id| rules.tiles.tile(id));
        if player.is_some() {
            self.state.turn.placed = Some(index);
            self.state.turn.drawn = None;
        }
        self.emit(Event::TilePlaced {
            player,
            tile,
            pos,
            rotation,
        });
    }

    /// Discards the drawn tile, which fits nowhere (BASE-4).
    fn discard_drawn(&mut self, tile: TileTypeId) {
        self.state.turn.drawn = None;
        self.state.discarded.push(tile);
        self.emit(Event::TileDiscarded { tile });
    }

    /// Whether the drawn tile can be placed anywhere (BASE-4), asking the expansions that
    /// restrict placements about each fitting spot until one is allowed.
    fn has_placement(&mut self, tile: TileTypeId) -> bool {
        let saved_phase = self.state.turn.phase;
        let phase = self.rules.place_phase;
        self.state.turn.phase = phase as u8;
        let rules = &*self.rules;
        let t = rules.tiles.tile(tile);
        // The expansions restricting placements now (usually none). A panic
        // here counts as "no restriction"; the same hook panics again when the placement
        // phase collects its actions, and the expansion is disabled there.
        let restricting = rules.hook_masks[phase].restricts & !self.disabled;
        let asked =
            each_bit(restricting & !rules.wake.asleep(Hook::Restricts, restricting, &self.state))
                .filter(|&i| {
                    shielded(i, || rules.expansions[i].restricts(&self.ctx(i))).unwrap_or(false)
                })
                .fold(0u64, |m, i| m | 1 << i);
        if asked == 0 {
            self.state.turn.phase = saved_phase;
            let fits = self.state.board.fits_somewhere(t);
            self.disable_failed_strength_rules();
            return fits;
        }
        let mut found = false;
        'search: for sq in self.state.board.open_squares() {
            for rotation in Rotation::ALL {
                if !Board::fits(t, rotation, sq) {
                    continue;
                }
                let action = Action::Place {
                    tile,
                    pos: sq.pos,
                    rotation,
                };
                if each_bit(asked).all(|i| {
                    !shielded(i, || rules.expansions[i].forbids(&self.ctx(i), &action))
                        .unwrap_or(false)
                }) {
                    found = true;
                    break 'search;
                }
            }
        }
        self.state.turn.phase = saved_phase;
        self.disable_failed_strength_rules();
        found
    }

    fn command(&mut self, who: usize, c: Command) -> Result<(), String> {
        let st = &mut self.state;
        match c {
            Command::DrawTile => loop {
                let listed = self.state.listed;
                self.state.listed = listed.saturating_sub(1);
                let Some(tile) = self.state.pile.pop() else {
                    self.end_game();
                    return Ok(());
                };
                if listed > 0 && self.state.full_supply && self.rules.may_redraw(tile) {
                    // Listed again for a copy that came back: is one back?
                    let copies = self.rules.supply_count(tile);
                    if self.copies_out(tile) >= copies {
                        self.overdrawn
                            .get_or_insert(Overdrawn { tile, left: listed });
                        continue;
                    }
                }
                self.state.turn.drawn = Some(tile);
                self.emit(Event::TileDrawn { tile });
                if self.state.ended {
                    return Ok(());
                }
                let Some(tile) = self.state.turn.drawn else {
                    continue; // set aside by a rule
                };
                if self.has_placement(tile) {
                    return Ok(());
                }
                self.discard_drawn(tile);
            },
            Command::SetAsideDrawn => {
                if st.turn.drawn.is_none() {
                    return Err("set the drawn tile aside when no tile was drawn".into());
                }
                redrawn(st)?;
                let tile = st
                    .turn
                    .drawn
                    .take()
                    .ok_or("set the drawn tile aside when no tile was drawn")?;
                st.set_aside.push(tile);
                self.emit(Event::TileSetAside { tile });
            }
            Command::ReturnDrawnToSupply => {
                if st.turn.drawn.is_none() {
                    return Err("put the drawn tile back when no tile was drawn".into());
                }
                redrawn(st)?;
                let tile = st
                    .turn
                    .drawn
                    .take()
                    .ok_or("put the drawn tile back when no tile was drawn")?;
                if self.missing_from_pile(tile, 1, false) == 1 {
                    // Anywhere among the tiles not listed (the pile's bottom part), among
                    // those of its own stack when tiles have stacks.
                    let st = &mut self.state;
                    let unlisted = st.pile.len() - st.listed as usize;
                    let (from, to) = self.rules.stack_span(&st.pile[..unlisted], tile);
                    let at = from + st.rng.below(to - from + 1);
                    st.pile.insert(at, tile);
                }
                self.emit(Event::TileReturned { tile });
            }
            Command::ReshuffleSetAside => {
                let count = st.set_aside.len() as u32;
                // Each type's copies that the pile does not already hold (a record's `draw`
                // may list a set-aside tile again: that listing is the same tile).
                let mut types = st.set_aside.clone();
                types.sort_unstable();
                types.dedup();
                let mut back: Vec<(TileTypeId, usize)> = Vec::with_capacity(types.len());
                for t in types {
                    let returning = self.state.set_aside.iter().filter(|&&s| s == t).count();
                    back.push((t, self.missing_from_pile(t, returning, true)));
                }
                let st = &mut self.state;
                let mut returned = std::mem::take(&mut st.set_aside);
                returned.retain(|t| {
                    let Some((_, n)) = back.iter_mut().find(|(b, _)| b == t) else {
                        return false;
                    };
                    // The last copies of a type are the ones already in the pile.
                    let keep = *n > 0;
                    *n = n.saturating_sub(1);
                    keep
                });
                // Shuffled in among the tiles not listed, behind the listed ones.
                let unlisted = st.pile.len() - st.listed as usize;
                let mut bottom: Vec<TileTypeId> = st.pile.drain(..unlisted).collect();
                bottom.append(&mut returned);
                st.rng.shuffle(&mut bottom);
                self.rules.restack(&mut bottom, true);
                st.pile.splice(0..0, bottom);
                self.emit(Event::TilesReshuffled { count });
            }
            Command::PlaceTile {
                tile,
                pos,
                rotation,
            } => {
                if st.turn.drawn != Some(tile) {
                    return Err("placed a tile that was not drawn".into());
                }
                if !st
                    .board
                    .can_place(self.rules.tiles.tile(tile), pos, rotation)
                {
                    return Err(format!("placed a tile where it does not fit at {pos}"));
                }
                let player = st.turn.player;
                self.place_tile(Some(player), tile, pos, rotation);
            }
            Command::Deploy {
                player,
                figure,
                node,
            } => {
                if node as usize >= st.board.graph.len() {
                    return Err(format!(
                        "deployed onto segment {node}, which does not exist"
                    ));
                }
                if let Some(kind) = self.rules.barred(&st.board.graph, node) {
                    return Err(format!(
                        "deployed a figure onto {}, where no figure may stand",
                        crate::turnlog::with_article(self.rules.vocab.kind_name(kind))
                    ));
                }
                let f = st
                    .first_in_supply(player, figure)
                    .ok_or("deployed a figure the player does not have in supply")?;
                let tile = st.board.graph.node(node).tile;
                st.figures[f as usize].relocate(Location::Feature(node), tile);
                st.board.graph.add_occupants(node, 1);
                self.emit(Event::FigureDeployed { figure: f, node });
            }
            Command::MoveFigure { figure, to, why } => {
                let from = st
                    .figures
                    .get(figure as usize)
                    .ok_or_else(|| format!("moved figure {figure}, which does not exist"))?
                    .at;
                check_location(st, to).map_err(|e| format!("moved figure {figure} to {e}"))?;
                if let Location::Feature(n) = to
                    && let Some(kind) = self.rules.barred(&st.board.graph, n)
                {
                    return Err(format!(
                        "moved figure {figure} onto {}, where no figure may stand",
                        crate::turnlog::with_article(self.rules.vocab.kind_name(kind))
                    ));
                }
                if let Location::Feature(n) = from {
                    st.board.graph.add_occupants(n, -1);
                }
                if let Location::Feature(n) = to {
                    st.board.graph.add_occupants(n, 1);
                }
                let tile = st.location_tile(to).unwrap_or(NO_TILE);
                st.figures[figure as usize].relocate(to, tile);
                let by = self.actor;
                self.emit(Event::FigureMoved {
                    figure,
                    from,
                    to,
                    by,
                    why,
                });
                self.release_dependents(figure, from);
            }
            Command::ReturnFigure { figure, why } => {
                let f = st
                    .figures
                    .get_mut(figure as usize)
                    .ok_or_else(|| format!("returned figure {figure}, which does not exist"))?;
                let from = f.at;
                let home = if f.owner == NEUTRAL {
                    Location::OffBoard
                } else {
                    Location::Supply
                };
                f.relocate(home, NO_TILE);
                if let Location::Feature(n) = from {
                    st.board.graph.add_occupants(n, -1);
                }
                self.emit(Event::FigureReturned { figure, from, why });
                self.release_dependents(figure, from);
            }
            Command::Score {
                player,
                points,
                reason,
            } => {
                if let Reason::Feature { node } | Reason::FeatureWorth { node, .. } = reason
                    && node as usize >= st.board.graph.len()
                {
                    return Err(format!("scored for segment {node}, which does not exist"));
                }
                let p = st
                    .players
                    .get_mut(player as usize)
                    .ok_or_else(|| format!("scored for seat {player}, which does not exist"))?;
                p.score = p.score.checked_add(points).ok_or_else(|| {
                    format!(
                        "scored {points} points for seat {player}, which takes the score beyond \
                         what a score can be"
                    )
                })?;
                self.emit(Event::Scored {
                    player,
                    points,
                    reason,
                });
            }
            Command::ScoreFeature { node } => {
                unscored(st, node, || format!("scored segment {node}"))?;
                let rules = self.rules.clone();
                let mut worth = crate::base::scoring::feature_points(&rules, &self.state, node);
                let kind = self.state.board.graph.node(node).kind;
                // The expansions whose rules changed the worth, for the turn log.
                let mut by = 0u64;
                for rule in &rules.worth_rules {
                    let i = rule.expansion;
                    if self.is_disabled(i) || !rule.kinds.contains(&kind) {
                        continue;
                    }
                    let asked = shielded(i, || {
                        rules.expansions[i].feature_worth(&self.ctx(i), node, worth)
                    });
                    match asked {
                        Ok(w) if w != worth => {
                            worth = w;
                            by |= 1 << i;
                        }
                        Ok(_) => {}
                        Err(why) => self.disable(i, "feature_worth", why),
                    }
                }
                // Applied as a hook's commands are: one refused goes no further, and a
                // figure that went home with another (a builder with the last follower)
                // is not returned again.
                let mut out = self.pool.pop().unwrap_or_default();
                crate::base::scoring::score_feature_worth(&self.ctx(who), node, worth, &mut out);
                self.disable_failed_strength_rules();
                if by != 0 {
                    for c in &mut out {
                        if let Command::Score { reason, .. } = c {
                            *reason = Reason::FeatureWorth { node, by };
                        }
                    }
                }
                self.apply_commands(who, "scoring", out);
            }
            Command::MarkScored { node } => {
                unscored(st, node, || format!("marked segment {node} as scored"))?;
                st.board.graph.mark_scored(node);
                let node = st.board.graph.root(node);
                self.emit(Event::FeatureScored { node });
            }
            Command::FigureStepDone => st.turn.figure_step_done = true,
            Command::FiguresDoneThisTurn => {
                st.turn.figure_step_done = true;
                st.turn.figures_done = true;
            }
            Command::SetDecider { player } => {
                if player as usize >= st.players.len() {
                    return Err(format!(
                        "gave the decision to seat {player}, which does not exist"
                    ));
                }
                st.turn.decider = player;
            }
            Command::SetExtData { data } => st.ext[who] = data,
            Command::ResizeExt { len } => {
                if len > 1 << 16 {
                    return Err(format!(
                        "resized its record to {len} values, beyond the 65536 allowed"
                    ));
                }
                st.ext[who].resize(len as usize, 0);
            }
            Command::RequestPhase { phase } => {
                if phase as usize >= self.rules.phases.len() {
                    return Err(format!(
                        "asked for phase {phase}; the turn has {} phases",
                        self.rules.phases.len()
                    ));
                }
                if phase < 64 {
                    st.turn.requested |= 1 << phase;
                }
            }
            Command::SetExtValue { index, value } => {
                let record = &mut st.ext[who];
                let i = index as usize;
                if i >= 1 << 16 {
                    return Err(format!("set record value {i}, beyond the 65536 allowed"));
                }
                if i == record.len() {
                    // Appending (a list that grows by one) is the common case.
                    record.push(value);
                } else {
                    if i > record.len() {
                        record.resize(i + 1, 0);
                    }
                    record[i] = value;
                }
            }
            Command::EndGame => self.end_game(),
            Command::AnotherTile => self.state.turn.another_tile = true,
            #[cfg(feature = "protocol-next")]
            Command::Note { .. } => {}
        }
        Ok(())
    }
}

impl Game {
    /// How many copies of `tile` are out of the supply: placed (but for the start tile),
    /// discarded, set aside or drawn.
    fn copies_out(&self, tile: TileTypeId) -> usize {
        let st = &self.state;
        let placed = st.board.tiles.iter().skip(1).filter(|p| p.tile == tile);
        placed.count()
            + st.discarded.iter().filter(|&&t| t == tile).count()
            + st.set_aside.iter().filter(|&&t| t == tile).count()
            + usize::from(st.turn.drawn == Some(tile))
    }

    /// How many of `returning` tiles of type `tile`, going back into the supply, the pile
    /// does not hold yet. A record's `draw` lists draws in order, so a tile set aside or
    /// put back and drawn again is listed again: that listing already stands for it.
    /// `set_aside`: whether the returning tiles are the set-aside ones (or the drawn one).
    fn missing_from_pile(&self, tile: TileTypeId, returning: usize, set_aside: bool) -> usize {
        let st = &self.state;
        let in_pile = st.pile.iter().filter(|&&t| t == tile).count();
        if !st.full_supply {
            // The supply is exactly the draw order. A set-aside tile can only be drawn
            // again after it comes back, so a later listing is that tile; a tile put back
            // at once may be drawn again at once, so it always goes back in.
            return if set_aside {
                returning.saturating_sub(in_pile)
            } else {
                returning
            };
        }
        // A full supply: the pile holds every copy that is not out of it (the returning
        // set-aside ones are coming back).
        let aside = st.set_aside.iter().filter(|&&t| t == tile).count();
        let out = self.copies_out(tile) - if set_aside { returning.min(aside) } else { 0 };
        let copies = self.rules.supply_count(tile);
        copies
            .saturating_sub(out)
            .saturating_sub(in_pile)
            .min(returning)
    }

    /// PD-9, RP-6, X-2: a figure declared [`RETURNS_WITH_LAST_FOLLOWER`] (a builder, a pig)
    /// goes home when its owner's last follower leaves the feature it stands in.
    fn release_dependents(&mut self, moved: crate::figures::FigureId, from: Location) {
        let Location::Feature(n) = from else { return };
        if !self.rules.has_dependents {
            return;
        }
        let fig = self.state.figures[moved as usize];
        let rules = self.rules.clone();
        let kinds = &rules.figure_kinds;
        if kinds[fig.kind as usize].class != FigureClass::Follower {
            return;
        }
        let on_feature: Vec<crate::figures::FigureId> = self
            .state
            .figures_on_feature(n)
            .filter(|&f| self.state.figures[f as usize].owner == fig.owner)
            .collect();
        let still_supported = on_feature.iter().any(|&f| {
            kinds[self.state.figures[f as usize].kind as usize].class == FigureClass::Follower
        });
        if still_supported {
            return;
        }
        for f in on_feature {
            let kind = &kinds[self.state.figures[f as usize].kind as usize];
            if kind.tags.iter().any(|t| t == RETURNS_WITH_LAST_FOLLOWER) {
                let _ = self.command(
                    0,
                    Command::ReturnFigure {
                        figure: f,
                        why: Some("returned with its owner's last follower".into()),
                    },
                );
            }
        }
    }
}

/// The tag of figures that leave a feature with their owner's last follower there.
pub use crate::tags::RETURNS_WITH_LAST_FOLLOWER;

/// The most moves one turn may take: an expansion that offers a move for more decisions
/// than this in one turn is disabled (no real turn comes near it).
const MOST_MOVES_IN_A_TURN: u32 = 1_000;

/// The most drawn tiles one turn may set aside or put back (no real turn comes near it).
const MOST_REDRAWS_IN_A_TURN: u32 = 10_000;

/// When no placement of a drawn tile is left, how many of the placements each expansion
/// forbade are asked about again, one at a time, to tell a verdict that depends on the
/// other placements from a tile that fits nowhere now.
const PLACEMENTS_ASKED_AGAIN: usize = 16;

/// Counts a drawn tile set aside or put back in this turn; an error past
/// [`MOST_REDRAWS_IN_A_TURN`] (a turn that would never get a tile to place).
fn redrawn(st: &mut GameState) -> Result<(), String> {
    st.turn.redraws += 1;
    if st.turn.redraws > MOST_REDRAWS_IN_A_TURN {
        return Err(format!(
            "set aside or put back more than {MOST_REDRAWS_IN_A_TURN} drawn tiles in one \
             turn, and a turn that never gets a tile to place never ends"
        ));
    }
    Ok(())
}

/// That `node` is a segment of a feature not scored yet: a feature is scored once
/// (BASE-8), and scoring or marking it again would tell every rule listening that it was
/// scored again. `done` says what the command did, for the refusal.
fn unscored(st: &GameState, node: NodeId, done: impl Fn() -> String) -> Result<(), String> {
    if node as usize >= st.board.graph.len() {
        return Err(format!("{}, and there is no such segment", done()));
    }
    if st.board.graph.feature(node).is_scored() {
        return Err(format!("{}, and its feature was scored already", done()));
    }
    Ok(())
}

/// Removes the forbidden actions from `legal`, keeping each expansion's span of offers in
/// `offered` (expansion, end) right.
fn drop_forbidden(legal: &mut Vec<Action>, offered: &mut [(u8, u32)], forbidden: &[bool]) {
    // Nothing forbidden (the usual case): nothing to move.
    let Some(first) = forbidden.iter().position(|&f| f) else {
        return;
    };
    let (mut kept, mut j) = (first, first);
    for span in offered.iter_mut() {
        if (span.1 as usize) <= first {
            continue;
        }
        while j < span.1 as usize {
            if !forbidden[j] {
                legal[kept] = legal[j];
                kept += 1;
            }
            j += 1;
        }
        span.1 = kept as u32;
    }
    legal.truncate(kept);
}

fn check_location(st: &GameState, to: Location) -> Result<(), String> {
    match to {
        Location::Feature(n) if n as usize >= st.board.graph.len() => {
            Err(format!("segment {n}, which does not exist"))
        }
        Location::Tile(t) if t as usize >= st.board.tiles.len() => {
            Err(format!("placed tile {t}, which does not exist"))
        }
        _ => Ok(()),
    }
}
