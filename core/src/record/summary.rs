//! The final-state summary `carc replay --json` prints.

use serde_json::{Value, json};

use crate::engine::Game;
use crate::figures::{FigureClass, Location, NEUTRAL};

use super::moves::feature_ref;
use super::replay::{expansion_record, neutral_whereabouts};

/// Scores, supplies, figures on the board, trapped figures, neutral figures, each
/// expansion's own record, and whether the game has ended.
pub fn state_summary(game: &Game) -> Value {
    let rules = &game.rules;
    let state = &game.state;
    let name = |p: u8| {
        state
            .players
            .get(p as usize)
            .map_or("neutral".to_string(), |p| p.name.clone())
    };
    let mut scores = serde_json::Map::new();
    let mut supply = serde_json::Map::new();
    let mut trapped = serde_json::Map::new();
    for (i, p) in state.players.iter().enumerate() {
        scores.insert(p.name.clone(), json!(p.score));
        supply.insert(
            p.name.clone(),
            json!(rules.followers_in_supply(state, i as u8)),
        );
        trapped.insert(p.name.clone(), json!(0));
    }
    let mut figures = Vec::new();
    for f in &state.figures {
        let kind = &rules.figure_kinds[f.kind as usize].name;
        match f.at {
            Location::Feature(n) => {
                let r = feature_ref(rules, state, n);
                figures.push(json!({
                    "owner": name(f.owner),
                    "figure": kind,
                    "at": [r.0, r.1],
                    "feature": [r.0, r.1, r.2],
                    "kind": rules.vocab.kind_name(state.board.graph.node(n).kind),
                }));
            }
            Location::Tile(t) if f.owner != NEUTRAL => {
                let pos = state.board.tiles[t as usize].pos;
                // `trapped` counts followers (the record format's key); every figure
                // on a trap is listed below.
                if let (true, Some(v)) =
                    (rules.is_follower(f.kind), trapped.get_mut(&name(f.owner)))
                {
                    *v = json!(v.as_u64().unwrap_or(0) + 1);
                }
                figures.push(json!({
                    "owner": name(f.owner),
                    "figure": kind,
                    "at": [pos.x, pos.y],
                    "trapped": true,
                }));
            }
            _ => {}
        }
    }
    let mut neutral = serde_json::Map::new();
    for k in &rules.figure_kinds {
        if k.class == FigureClass::Neutral {
            neutral.insert(
                k.name.clone(),
                serde_json::to_value(neutral_whereabouts(game, &k.name)).unwrap_or_default(),
            );
        }
    }
    // Each expansion's own record (what `[expect.<id>] record` checks), by id.
    let records: serde_json::Map<String, Value> = rules
        .manifests
        .iter()
        .filter(|m| m.id != "base")
        .map(|m| (m.id.clone(), json!(expansion_record(game, &m.id))))
        .collect();
    json!({
        "ended": state.ended,
        "turn": state.turn.number,
        "tiles_placed": state.board.tiles.len(),
        "tiles_left": state.pile.len(),
        "scores": scores,
        "winners": state.winners().iter().map(|&p| name(p)).collect::<Vec<_>>(),
        "supply": supply,
        "trapped": trapped,
        "figures": figures,
        "neutral": neutral,
        "records": records,
    })
}
