//! Base-game scoring: completed features after each placement (BASE-6 … BASE-8) and
//! final scoring, farms included (BASE-9).

use crate::engine::{Command, GameState, Reason};
use crate::expansion::Ctx;
use crate::features::NodeId;
use crate::figures::Location;
use crate::rules::Rules;
use crate::tiles::{KindShape, kinds};

/// What a feature is worth to its majority, and how it reads in the turn log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureValue {
    /// Points.
    pub points: i32,
    /// A noun phrase with its article, e.g. `a city of 3 tiles and 1 pennant (complete)`.
    pub description: String,
}

/// Whether a feature is complete (BASE-6).
pub fn is_complete(rules: &Rules, state: &GameState, node: NodeId) -> bool {
    let n = state.board.graph.node(node);
    match rules.vocab.kinds[n.kind as usize].shape {
        KindShape::Edge { completes } => completes && state.board.graph.open_ends(node) == 0,
        KindShape::Surrounded => {
            state
                .board
                .tiles_around(state.board.tiles[n.tile as usize].pos)
                == 9
        }
    }
}

/// The completed cities a field touches (BASE-9), as root nodes in ascending order.
pub fn farm_cities(rules: &Rules, state: &GameState, field: NodeId) -> Vec<NodeId> {
    let mut cities = field_cities(rules, state, field);
    cities.retain(|&city| state.board.graph.open_ends(city) == 0);
    cities
}

/// The cities a field touches, complete or not, as root nodes in ascending order.
pub fn field_cities(rules: &Rules, state: &GameState, field: NodeId) -> Vec<NodeId> {
    let board = &state.board;
    let mut cities = Vec::new();
    for m in board.graph.members(field) {
        let node = board.graph.node(m);
        let placed = board.tiles[node.tile as usize];
        let tile = rules.tiles.tile(placed.tile);
        for &c in &tile.features[node.feature as usize].cities {
            cities.push(board.graph.root(placed.first_node + c as NodeId));
        }
    }
    cities.sort_unstable();
    cities.dedup();
    cities
}

/// The points of a base-game feature, complete or not (BASE-7, BASE-9).
pub fn feature_points(rules: &Rules, state: &GameState, node: NodeId) -> i32 {
    let graph = &state.board.graph;
    let complete = is_complete(rules, state, node);
    match graph.node(node).kind {
        kinds::CITY => {
            let per = if complete { 2 } else { 1 };
            per * (graph.tiles(node).len() as i32 + graph.pennants(node) as i32)
        }
        kinds::ROAD => graph.tiles(node).len() as i32,
        kinds::MONASTERY if complete => 9,
        kinds::MONASTERY => state
            .board
            .tiles_around(state.board.tiles[graph.node(node).tile as usize].pos)
            as i32,
        kinds::FIELD => 3 * farm_cities(rules, state, node).len() as i32,
        _ => 0,
    }
}

/// The value of a base-game feature with its description (BASE-7, BASE-9).
pub fn feature_value(rules: &Rules, state: &GameState, node: NodeId) -> FeatureValue {
    let graph = &state.board.graph;
    let kind = graph.node(node).kind;
    let complete = is_complete(rules, state, node);
    let state_word = if complete { "complete" } else { "incomplete" };
    let plural = |n: usize, word: &str| crate::turnlog::count(n as u64, word);
    match kind {
        kinds::CITY => {
            let tiles = graph.tiles(node).len();
            let pennants = graph.pennants(node) as usize;
            let per = if complete { 2 } else { 1 };
            FeatureValue {
                points: (per * (tiles + pennants)) as i32,
                description: if pennants == 0 {
                    format!("a city of {} ({state_word})", plural(tiles, "tile"))
                } else {
                    format!(
                        "a city of {} and {} ({state_word})",
                        plural(tiles, "tile"),
                        plural(pennants, "pennant")
                    )
                },
            }
        }
        kinds::ROAD => {
            let tiles = graph.tiles(node).len();
            FeatureValue {
                points: tiles as i32,
                description: format!("a road of {} ({state_word})", plural(tiles, "tile")),
            }
        }
        kinds::MONASTERY => {
            let pos = state.board.tiles[graph.node(node).tile as usize].pos;
            let around = state.board.tiles_around(pos);
            FeatureValue {
                points: if complete { 9 } else { around as i32 },
                description: format!("a monastery with {} ({state_word})", plural(around, "tile")),
            }
        }
        kinds::FIELD => {
            let cities = farm_cities(rules, state, node).len();
            FeatureValue {
                points: 3 * cities as i32,
                description: format!("a field touching {}", plural(cities, "completed city")),
            }
        }
        _ => FeatureValue {
            points: 0,
            description: "a feature".into(),
        },
    }
}

/// Scores one feature: points to the majority, the feature marked scored, then every
/// figure on it returned (BASE-8).
pub fn score_feature(ctx: &Ctx, node: NodeId, out: &mut Vec<Command>) {
    if !ctx.rules.worth_rules.is_empty() {
        // Expansions change its worth: the engine asks them as it scores it.
        out.push(Command::ScoreFeature { node });
        return;
    }
    let points = feature_points(ctx.rules, ctx.state, node);
    score_feature_worth(ctx, node, points, out);
}

/// Scores one feature for a given number of points (an expansion's own kinds use this
/// with their own value): points to the majority, the feature marked scored, every
/// figure on it returned.
pub fn score_feature_worth(ctx: &Ctx, node: NodeId, points: i32, out: &mut Vec<Command>) {
    let winners = crate::strength::majority(ctx, node);
    if !winners.is_empty() {
        for player in winners {
            out.push(Command::Score {
                player,
                points,
                reason: Reason::Feature { node },
            });
        }
    }
    out.push(Command::MarkScored { node });
    for f in ctx.state.figures_on_feature(node) {
        out.push(Command::ReturnFigure {
            figure: f,
            why: None,
        });
    }
}

/// Scores every base-game feature the tile just placed completed: its own cities and
/// roads, and monasteries on it or around it (BASE-3, BASE-6).
pub fn score_completed(ctx: &Ctx, out: &mut Vec<Command>) {
    let Some(placed) = ctx.state.turn.placed else {
        return;
    };
    let state = ctx.state;
    let board = &state.board;
    let pt = board.tiles[placed as usize];
    let mut done: Vec<NodeId> = Vec::new();
    let mut consider = |node: NodeId, out: &mut Vec<Command>| {
        let root = board.graph.root(node);
        let kind = board.graph.node(node).kind;
        if super::is_base_kind(kind)
            && kind != kinds::FIELD
            && !board.graph.is_scored(node)
            && !done.contains(&root)
            && is_complete(ctx.rules, state, node)
        {
            done.push(root);
            score_feature(ctx, node, out);
        }
    };
    let n = ctx.rules.tiles.tile(pt.tile).features.len() as u32;
    for f in 0..n {
        consider(pt.first_node + f, out);
    }
    for pos in pt.pos.surrounding() {
        if let Some(i) = board.index_at(pos) {
            let t = board.tiles[i as usize];
            for (f, feat) in ctx.rules.tiles.tile(t.tile).features.iter().enumerate() {
                if feat.kind == kinds::MONASTERY {
                    consider(t.first_node + f as NodeId, out);
                }
            }
        }
    }
}

/// Final scoring of every unscored base-game feature that holds a follower (BASE-9).
pub fn score_final(ctx: &Ctx, out: &mut Vec<Command>) {
    let state = ctx.state;
    let graph = &state.board.graph;
    // The features a follower stands in: a feature holding only other figures (a barn
    // on a field) is left to the expansion that brought them.
    let mut roots: Vec<NodeId> = state
        .figures
        .iter()
        .filter_map(|f| match f.at {
            Location::Feature(n) if ctx.rules.is_follower(f.kind) => Some(graph.root(n)),
            _ => None,
        })
        .filter(|&r| super::is_base_kind(graph.node(r).kind) && !graph.is_scored(r))
        .collect();
    roots.sort_unstable();
    roots.dedup();
    for root in roots {
        score_feature(ctx, root, out);
    }
}
