//! The game state: one plain value holding everything about a game in progress.
//! It is `Clone` and serializable; rules live elsewhere ([`crate::rules::Rules`]).

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::features::NodeId;
use crate::figures::{Figure, FigureId, FigureKindId, Location, NO_TILE, PlayerId};
use crate::geometry::Pos;
use crate::rng::Rng;
use crate::tiles::TileTypeId;

/// A player's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Name, unique in the game.
    pub name: String,
    /// Points so far.
    pub score: i32,
}

/// Where the current turn stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Turn number, from 1.
    pub number: u32,
    /// Whose turn it is.
    pub player: PlayerId,
    /// Index of the current phase in the rules' phase list.
    pub phase: u8,
    /// Whose decision is pending (usually the current player).
    pub decider: PlayerId,
    /// The tile drawn and not yet placed.
    pub drawn: Option<TileTypeId>,
    /// The index of the tile placed this turn.
    pub placed: Option<u32>,
    /// Whether the figure step (deploy, pass or an alternative) is over.
    pub figure_step_done: bool,
    /// Whether every figure step left in this turn is over (`FiguresDoneThisTurn`): at a
    /// further tile of the turn, only a pass is offered.
    #[serde(default)]
    pub figures_done: bool,
    /// Whether this turn is over and the next has not begun yet.
    pub over: bool,
    /// The on-request phases asked for in this turn (`Command::RequestPhase`), one bit
    /// per phase index.
    #[serde(default)]
    pub requested: u64,
    /// Whether the player plays another tile once this one's phases are over
    /// (`Command::AnotherTile`).
    #[serde(default)]
    pub another_tile: bool,
    /// How many tiles had been discarded and how many were set aside when this turn
    /// began: the tiles after those in [`GameState::discarded`] and
    /// [`GameState::set_aside`] were drawn in this turn (for explaining a refused
    /// placement).
    #[serde(default)]
    pub passed_over_from: [u32; 2],
    /// The moves made in this turn, and the drawn tiles set aside or put back: bounded,
    /// so that an expansion that keeps offering moves or refusing tiles cannot make a
    /// turn that never ends.
    #[serde(default)]
    pub moves: u32,
    /// See [`Turn::moves`].
    #[serde(default)]
    pub redraws: u32,
}

/// Everything about a game in progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// Seats in turn order.
    pub players: Vec<Player>,
    /// Placed tiles and features.
    pub board: Board,
    /// Every figure of the game, wherever it is.
    pub figures: Vec<Figure>,
    /// Tiles still to draw; the next one is the last element.
    pub pile: Vec<TileTypeId>,
    /// How many tiles at the top of the pile were listed explicitly (never reshuffled).
    pub listed: u32,
    /// Tiles drawn that could not be placed (BASE-4).
    pub discarded: Vec<TileTypeId>,
    /// Tiles put aside to come back later (PD-7).
    pub set_aside: Vec<TileTypeId>,
    /// The current turn.
    pub turn: Turn,
    /// The generator for reshuffles during play.
    pub rng: Rng,
    /// Whether the supply is every tile of the enabled expansions (see
    /// [`Setup::full_supply`](crate::engine::Setup::full_supply)).
    #[serde(default)]
    pub full_supply: bool,
    /// Each enabled expansion's own record (indexed like the rules' expansions).
    pub ext: Vec<Vec<i64>>,
    /// Whether the game is over (final scoring applied).
    pub ended: bool,
}

impl GameState {
    /// Followers (or other figures of `kind`) a player has in supply.
    pub fn in_supply(&self, player: PlayerId, kind: FigureKindId) -> usize {
        self.figures
            .iter()
            .filter(|f| f.owner == player && f.kind == kind && f.at == Location::Supply)
            .count()
    }

    /// The first figure of `kind` in a player's supply.
    pub fn first_in_supply(&self, player: PlayerId, kind: FigureKindId) -> Option<FigureId> {
        self.figures
            .iter()
            .position(|f| f.owner == player && f.kind == kind && f.at == Location::Supply)
            .map(|i| i as FigureId)
    }

    /// Figures standing on the feature of `node` (any member of it).
    pub fn figures_on_feature(&self, node: NodeId) -> impl Iterator<Item = FigureId> + '_ {
        let root = self.board.graph.root(node);
        self.figures
            .iter()
            .enumerate()
            .filter_map(move |(i, f)| match f.at {
                Location::Feature(n) if self.board.graph.root(n) == root => Some(i as FigureId),
                _ => None,
            })
    }

    /// The placed tile a location is on (a feature's tile, or the tile itself); `None`
    /// off the board. Worked out from the board: [`GameState::figure_tile`] reads what
    /// the engine kept instead.
    pub fn location_tile(&self, at: Location) -> Option<u32> {
        match at {
            Location::Feature(n) => Some(self.board.graph.node(n).tile),
            Location::Tile(t) => Some(t),
            Location::Supply | Location::OffBoard => None,
        }
    }

    /// The index of the placed tile a figure stands on, if it is on the board.
    #[inline]
    pub fn figure_tile(&self, figure: FigureId) -> Option<u32> {
        let tile = self.figures.get(figure as usize)?.tile;
        (tile != NO_TILE).then_some(tile)
    }

    /// The square a figure stands on, if it is on the board.
    pub fn figure_pos(&self, figure: FigureId) -> Option<Pos> {
        self.figure_tile(figure)
            .map(|t| self.board.tiles[t as usize].pos)
    }

    /// Every figure standing on a placed tile (on its features or on the tile itself).
    #[inline]
    pub fn figures_on_tile(&self, tile: u32) -> impl Iterator<Item = FigureId> + '_ {
        (0..self.figures.len() as FigureId).filter(move |&f| self.figures[f as usize].tile == tile)
    }

    /// Scores by seat.
    pub fn scores(&self) -> Vec<i32> {
        self.players.iter().map(|p| p.score).collect()
    }

    /// The seats with the most points (BASE-10).
    pub fn winners(&self) -> Vec<PlayerId> {
        let best = self.players.iter().map(|p| p.score).max().unwrap_or(0);
        (0..self.players.len() as PlayerId)
            .filter(|&p| self.players[p as usize].score == best)
            .collect()
    }
}
