//! The readable turn log: one line per event worth telling a person.

use crate::engine::{Event, GameState, Reason};
use crate::figures::{Location, NEUTRAL};
use crate::record::action_to_move;
use crate::rules::Rules;

/// Describes an event in words; `None` for events a reader does not need.
pub fn describe(rules: &Rules, state: &GameState, event: &Event) -> Option<String> {
    let name = |p: u8| {
        if p == NEUTRAL {
            "nobody".to_string()
        } else {
            state
                .players
                .get(p as usize)
                .map_or(format!("seat {p}"), |p| p.name.clone())
        }
    };
    let tile = |t: u16| rules.tiles.tile(t).id.clone();
    let figure = |f: u16| {
        let fig = state.figures[f as usize];
        let kind = &rules.figure_kinds[fig.kind as usize].name;
        if fig.owner == NEUTRAL {
            format!("the {kind}")
        } else {
            format!("{}'s {kind}", name(fig.owner))
        }
    };
    let place = |loc: Location| match loc {
        Location::Feature(n) => {
            let m = action_to_move(
                rules,
                state,
                &crate::engine::Action::Deploy { figure: 0, node: n },
            );
            let r = m
                .follower
                .unwrap_or(crate::record::FeatureRef(0, 0, String::new()));
            format!(
                "the {} at [{}, {}, {:?}]",
                rules.vocab.kind_name(state.board.graph.node(n).kind),
                r.0,
                r.1,
                r.2
            )
        }
        Location::Tile(t) => {
            let p = state.board.tiles[t as usize].pos;
            format!("the tile at [{}, {}]", p.x, p.y)
        }
        Location::Supply => "the supply".into(),
        Location::OffBoard => "off the board".into(),
    };
    Some(match event {
        Event::TurnStarted { turn, player } => format!("turn {turn}: {}", name(*player)),
        Event::TileDrawn { tile: t } => format!("  draws {}", tile(*t)),
        Event::TileDiscarded { tile: t } => {
            format!("  {} fits nowhere and is discarded", tile(*t))
        }
        Event::TileSetAside { tile: t } => format!("  {} is set aside", tile(*t)),
        Event::TileReturned { tile: t } => {
            format!("  {} goes back into the supply", tile(*t))
        }
        Event::TilesReshuffled { count } => {
            format!("  {count} set-aside tiles are shuffled back into the supply")
        }
        Event::TilePlaced {
            player: None,
            tile: t,
            pos,
            ..
        } => format!("start tile {} at [{}, {}]", tile(*t), pos.x, pos.y),
        Event::TilePlaced {
            tile: t,
            pos,
            rotation,
            ..
        } => format!(
            "  places {} at [{}, {}] rotated {}",
            tile(*t),
            pos.x,
            pos.y,
            rotation.degrees()
        ),
        Event::FigureDeployed { figure: f, node } => {
            format!(
                "  deploys {} on {}",
                figure(*f),
                place(Location::Feature(*node))
            )
        }
        Event::FigureMoved {
            figure: f,
            from,
            to,
            by,
            why,
        } => match (by, why) {
            (_, Some(why)) => format!(
                "  {} on {} is {why} (now on {})",
                figure(*f),
                place(*from),
                place(*to)
            ),
            (Some(p), None) => format!(
                "  {} moves {} from {} to {}",
                name(*p),
                figure(*f),
                place(*from),
                place(*to)
            ),
            (None, None) => {
                format!(
                    "  {} moves from {} to {}",
                    figure(*f),
                    place(*from),
                    place(*to)
                )
            }
        },
        Event::FigureReturned {
            figure: f,
            from,
            why,
        } => match why {
            Some(why) => format!("  {} on {} is {why}", figure(*f), place(*from)),
            None => format!("  {} returns from {}", figure(*f), place(*from)),
        },
        Event::Scored {
            player,
            points,
            reason,
        } => {
            let what = match reason {
                Reason::Text(t) => t.to_string(),
                Reason::Feature { node } => {
                    let kind = state.board.graph.node(*node).kind;
                    if crate::base::is_base_kind(kind) {
                        crate::base::feature_value(rules, state, *node).description
                    } else {
                        rules.vocab.kind_name(kind).to_string()
                    }
                }
            };
            format!("  {} scores {points} for {what}", name(*player))
        }
        Event::FeatureScored { .. } => return None,
        Event::GameEnded => "game over: final scoring".into(),
        #[cfg(feature = "protocol-next")]
        Event::TurnEnded { .. } => return None,
    })
}
