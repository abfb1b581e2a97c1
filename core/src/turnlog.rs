//! The readable turn log: one line per event worth telling a person.
//!
//! The words an expansion gives follow two conventions, so that every line reads as
//! English whoever wrote the rule:
//!
//! - why a figure moved or went home (`why` of [`Event::FigureMoved`] and
//!   [`Event::FigureReturned`]) is a past-participle phrase that follows "is":
//!   `eaten by the dragon`, `trapped by Vodyanoy`, `moved to the volcano`;
//! - what points were scored for ([`Reason::Text`]) is a noun phrase with its article that
//!   follows "for": `a well`, `the fairy's bonus`, `followers trapped by Vodyanoy`.
//!
//! Counts go through [`count`], which pluralises the noun (`1 point`, `2 points`,
//! `1 city`, `2 cities`).

use crate::engine::{Event, GameState, Reason};
use crate::features::NodeId;
use crate::figures::{Location, NEUTRAL};
use crate::record::action_to_move;
use crate::rules::Rules;

/// The plural of a noun, or of the last word of a noun phrase: `city` → `cities`,
/// `completed city` → `completed cities`, `pennant` → `pennants`, `box` → `boxes`.
pub fn plural(noun: &str) -> String {
    let cut = noun.rfind(' ').map_or(0, |i| i + 1);
    let (head, last) = noun.split_at(cut);
    let lower = last.to_ascii_lowercase();
    const SAME: [&str; 3] = ["sheep", "deer", "fish"];
    const IRREGULAR: [(&str, &str); 6] = [
        ("man", "men"),
        ("woman", "women"),
        ("person", "people"),
        ("child", "children"),
        ("foot", "feet"),
        ("mouse", "mice"),
    ];
    let vowel = |c: char| "aeiou".contains(c.to_ascii_lowercase());
    let word = if last.is_empty() || SAME.contains(&lower.as_str()) {
        last.to_string()
    } else if let Some((_, many)) = IRREGULAR.iter().find(|(one, _)| *one == lower) {
        many.to_string()
    } else if let Some(stem) = last.strip_suffix(['y', 'Y'])
        && stem
            .chars()
            .last()
            .is_some_and(|c| c.is_alphabetic() && !vowel(c))
    {
        format!("{stem}ies")
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| lower.ends_with(end))
    {
        format!("{last}es")
    } else {
        format!("{last}s")
    };
    format!("{head}{word}")
}

/// A count with its noun, singular for exactly one: `0 points`, `1 point`, `2 points`,
/// `1 completed city`, `3 completed cities`.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {}", plural(noun))
    }
}

/// The expansions in `by` (one bit each), in the order of their rules at
/// `feature-worth`: `Inns and cathedrals`, `Inns and cathedrals and of Toll gates` (each
/// after "of", so that a name with "and" in it stays whole).
fn whose_rules(rules: &Rules, by: u64) -> String {
    let names: Vec<String> = rules
        .worth_rules
        .iter()
        .filter(|r| by >> r.expansion & 1 == 1)
        .map(|r| rules.manifests[r.expansion].name.clone())
        .collect();
    match names.as_slice() {
        [] => "none".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and of {last}", init.join(", of ")),
    }
}

/// Names joined as a sentence lists them: `Alice and Bob`, `Alice, Bob and Carol`.
pub fn and_list(names: &[String]) -> String {
    joined(names, "and")
}

/// Names joined as alternatives: `place or pass`, `follower, fairy or pass`.
pub fn or_list(names: &[String]) -> String {
    joined(names, "or")
}

fn joined(names: &[String], conjunction: &str) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {conjunction} {last}", init.join(", ")),
    }
}

/// A noun phrase with its indefinite article: `a city`, `an inn`, `a hut`.
pub fn with_article(noun: &str) -> String {
    let lower = noun.to_ascii_lowercase();
    // A written vowel that is not a vowel sound, and a silent h.
    let a_anyway = ["one", "once", "uni", "use", "usu", "eu", "ewe"];
    let an_anyway = ["hour", "honest", "honour", "honor", "heir"];
    let an = if an_anyway.iter().any(|p| lower.starts_with(p)) {
        true
    } else if a_anyway.iter().any(|p| lower.starts_with(p)) {
        false
    } else {
        lower.starts_with(['a', 'e', 'i', 'o', 'u'])
    };
    format!("{} {noun}", if an { "an" } else { "a" })
}

/// The turn log's lines for events in the order they happened: each as [`describe`]
/// says, with [`scored_for_nobody`]'s line where it has one.
pub fn describe_all(rules: &Rules, state: &GameState, events: &[Event]) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, event) in events.iter().enumerate() {
        lines.extend(scored_for_nobody(rules, state, events, i));
        lines.extend(describe(rules, state, event));
    }
    lines
}

/// For `events[i]`, a feature scored with figures in it for which nobody scored (a mayor
/// without a pennant alone), the line saying so, before its figures go home; `None`
/// for any other event.
pub fn scored_for_nobody(
    rules: &Rules,
    state: &GameState,
    events: &[Event],
    i: usize,
) -> Option<String> {
    let Some(Event::FeatureScored { node }) = events.get(i) else {
        return None;
    };
    let graph = &state.board.graph;
    let root = graph.root(*node);
    let this_feature = |n: &NodeId| graph.root(*n) == root;
    // Points for it come just before it, figures leave just after.
    let scored = events[..i]
        .iter()
        .rev()
        .take_while(|e| !matches!(e, Event::FeatureScored { .. }))
        .any(|e| {
            matches!(e, Event::Scored {
                reason: Reason::Feature { node } | Reason::FeatureWorth { node, .. },
                ..
            } if this_feature(node))
        });
    let figures_leave = events[i + 1..]
        .iter()
        .take_while(|e| !matches!(e, Event::FeatureScored { .. }))
        .any(|e| matches!(e, Event::FigureReturned { from: Location::Feature(n), .. } if this_feature(n)));
    (figures_leave && !scored).then(|| {
        format!(
            "  {} scores for nobody: no figure there counts towards a majority",
            capitalised(&feature_words(rules, state, *node))
        )
    })
}

/// A feature in words: `a city of 3 tiles and 1 pennant (complete)` for the base game's
/// kinds, `a hut` for another's.
fn feature_words(rules: &Rules, state: &GameState, node: NodeId) -> String {
    let kind = state.board.graph.node(node).kind;
    if crate::base::is_base_kind(kind) {
        crate::base::feature_value(rules, state, node).description
    } else {
        with_article(rules.vocab.kind_name(kind))
    }
}

/// `A city` for `a city`.
fn capitalised(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

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
    let neutral = |f: u16| state.figures[f as usize].owner == NEUTRAL;
    let figure = |f: u16| {
        let fig = state.figures[f as usize];
        let kind = &rules.figure_kinds[fig.kind as usize].name;
        if fig.owner == NEUTRAL {
            format!("the {kind}")
        } else {
            format!("{}'s {kind}", name(fig.owner))
        }
    };
    // A place on the board, as a noun phrase: `the city at [0, 1, "N"]` (a feature as a
    // record names it), `the tile at [0, 1]`.
    let square = |loc: Location| match loc {
        Location::Feature(n) => {
            let m = action_to_move(
                rules,
                state,
                &crate::engine::Action::Deploy { figure: 0, node: n },
            );
            let kind = rules.vocab.kind_name(state.board.graph.node(n).kind);
            match m.follower {
                Some(r) => format!("the {kind} at [{}, {}, \"{}\"]", r.0, r.1, r.2),
                None => format!("the {kind}"),
            }
        }
        Location::Tile(t) => {
            let p = state.board.tiles[t as usize].pos;
            format!("the tile at [{}, {}]", p.x, p.y)
        }
        Location::Supply => "the supply".into(),
        Location::OffBoard => "the board".into(),
    };
    // Where a figure is: `on the city at …`, `in the supply`, `off the board`.
    let at = |loc: Location| match loc {
        Location::Feature(_) | Location::Tile(_) => format!("on {}", square(loc)),
        Location::Supply => "in the supply".into(),
        Location::OffBoard => "off the board".into(),
    };
    // A figure with where it stands, unless it is beside the board: `Alice's follower
    // on the road at …`, `the dragon`.
    let standing = |f: u16, loc: Location| match loc {
        Location::OffBoard => figure(f),
        _ => format!("{} {}", figure(f), at(loc)),
    };
    // ` from the road at …`; nothing from beside the board.
    let from = |loc: Location| match loc {
        Location::OffBoard => String::new(),
        _ => format!(" from {}", square(loc)),
    };
    // ` to the tile at …`, ` off the board`.
    let to = |loc: Location| match loc {
        Location::OffBoard => " off the board".to_string(),
        _ => format!(" to {}", square(loc)),
    };
    let words = |why: &Option<crate::engine::Text>| {
        why.as_ref()
            .map(|w| w.trim().to_string())
            .filter(|w| !w.is_empty())
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
        Event::TilesReshuffled { count: n } => format!(
            "  {} {} shuffled back into the supply",
            count(u64::from(*n), "set-aside tile"),
            if *n == 1 { "is" } else { "are" }
        ),
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
            format!("  deploys {} {}", figure(*f), at(Location::Feature(*node)))
        }
        Event::FigureMoved {
            figure: f,
            from: was,
            to: now,
            by,
            why,
        } => match (by, words(why)) {
            (_, Some(why)) => {
                format!("  {} is {why} (now {})", standing(*f, *was), at(*now))
            }
            (Some(p), None) => format!(
                "  {} moves {}{}{}",
                name(*p),
                figure(*f),
                from(*was),
                to(*now)
            ),
            (None, None) => format!("  {} moves{}{}", figure(*f), from(*was), to(*now)),
        },
        Event::FigureReturned {
            figure: f,
            from: was,
            why,
        } => match words(why) {
            Some(why) => format!("  {} is {why}", standing(*f, *was)),
            None if neutral(*f) => format!("  {} is taken off the board", standing(*f, *was)),
            None => format!("  {} returns{}", figure(*f), from(*was)),
        },
        Event::Scored {
            player,
            points,
            reason,
        } => {
            let what = match reason {
                Reason::Text(t) => t.trim().to_string(),
                Reason::Feature { node } => feature_words(rules, state, *node),
                Reason::FeatureWorth { node, by } => format!(
                    "{} under the rules of {}",
                    crate::base::feature_value(rules, state, *node).description,
                    whose_rules(rules, *by)
                ),
            };
            let verb = if *points < 0 { "loses" } else { "scores" };
            let amount = count(u64::from(points.unsigned_abs()), "point");
            if what.is_empty() {
                format!("  {} {verb} {amount}", name(*player))
            } else {
                format!("  {} {verb} {amount} for {what}", name(*player))
            }
        }
        Event::FeatureScored { .. } => return None,
        Event::GameEnded => "game over: final scoring".into(),
        #[cfg(feature = "protocol-next")]
        Event::TurnEnded { .. } => return None,
    })
}
