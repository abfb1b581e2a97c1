//! Translating between record moves and engine actions.

use crate::engine::{Action, Arg, ArgKind, Game, GameState};
use crate::features::NodeId;
use crate::geometry::{Port, Pos, Rotation, Side};
use crate::rules::Rules;

use super::format::{FeatureRef, Move};

/// Why a move entry could not be turned into an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The entry is malformed (not a valid record); names the offending key if one.
    Malformed(String),
    /// A key of the entry has a malformed value.
    BadValue(String, String),
    /// The entry has a key that is no move (located at the key).
    UnknownKey(String, String),
    /// The entry is well formed but names something that is not there (an illegal move).
    Illegal(String),
}

/// The move keys set in an entry (`place`, `fairy`, an expansion's verb), in a fixed
/// order: the format's own, then the others by name.
pub fn move_keys(m: &Move) -> Vec<String> {
    let mut k = Vec::new();
    let fixed = [
        ("place", m.place.is_some()),
        ("follower", m.follower.is_some()),
        ("pass", m.pass.is_some()),
        ("fairy", m.fairy.is_some()),
        ("princess", m.princess.is_some()),
        ("dragon", m.dragon.is_some()),
        ("release", m.release.is_some()),
    ];
    for (name, set) in fixed {
        if set {
            k.push(name.to_string());
        }
    }
    k.extend(m.other.keys().cloned());
    k
}

/// The move as it would be written inline, e.g. `place = "base:U", at = [1, 0], rotation = 90`.
pub fn describe_move(m: &Move) -> String {
    let mut parts = Vec::new();
    let fref = |f: &FeatureRef| format!("[{}, {}, {:?}]", f.0, f.1, f.2);
    if let Some(p) = &m.place {
        parts.push(format!("place = {p:?}"));
    }
    if let Some([x, y]) = m.at {
        parts.push(format!("at = [{x}, {y}]"));
    }
    if let Some(r) = m.rotation {
        parts.push(format!("rotation = {r}"));
    }
    if let Some(f) = &m.follower {
        parts.push(format!("follower = {}", fref(f)));
    }
    if let Some(p) = m.pass {
        parts.push(format!("pass = {p}"));
    }
    if let Some(f) = &m.fairy {
        parts.push(format!("fairy = {}", fref(f)));
    }
    if let Some(f) = &m.princess {
        parts.push(format!("princess = {}", fref(f)));
    }
    if let Some(d) = &m.dragon {
        parts.push(format!("dragon = {d:?}"));
    }
    if let Some([x, y]) = m.release {
        parts.push(format!("release = [{x}, {y}]"));
    }
    for (k, v) in &m.other {
        parts.push(format!("{k} = {}", written(v)));
    }
    if parts.is_empty() {
        "{}".into()
    } else {
        parts.join(", ")
    }
}

/// A value as a record writes it (`[1, 0, "E"]`, with spaces after commas).
fn written(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(written).collect();
            format!("[{}]", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// Resolves a feature reference `[x, y, PORT]` to the node of that feature.
pub fn resolve_feature(rules: &Rules, state: &GameState, f: &FeatureRef) -> Result<NodeId, String> {
    let pos = Pos::new(f.0, f.1);
    let Some(placed) = state.board.tile_at(pos) else {
        return Err(format!("there is no tile at {pos}"));
    };
    let tile = rules.tiles.tile(placed.tile);
    if let Ok(port) = f.2.parse::<Port>() {
        if let Some(i) = tile.feature_at(placed.rotation, port) {
            return Ok(placed.first_node + i as NodeId);
        }
        // A plain field side leaves its middle port free: take the field on both sides of it.
        if port.is_middle() {
            let side = port.side().index() * 3;
            let (a, b) = (
                tile.feature_at(placed.rotation, Port::from_index(side)),
                tile.feature_at(placed.rotation, Port::from_index(side + 2)),
            );
            if let (Some(a), Some(b)) = (a, b)
                && a == b
            {
                return Ok(placed.first_node + a as NodeId);
            }
        }
        return Err(format!(
            "the tile `{}` at {pos} has no single feature at port {port}",
            tile.id
        ));
    }
    let kind = rules
        .vocab
        .kind(&f.2)
        .map_err(|_| neither_port_nor_kind(&f.2))?;
    // An inner feature of that kind; failing that, the tile's only feature of that kind.
    let inner = tile
        .features
        .iter()
        .position(|feat| feat.kind == kind && feat.ports == 0);
    let of_kind: Vec<usize> = (0..tile.features.len())
        .filter(|&i| tile.features[i].kind == kind)
        .collect();
    let only = match of_kind[..] {
        [i] => Some(i),
        _ => None,
    };
    inner
        .or(only)
        .map(|i| placed.first_node + i as NodeId)
        .ok_or_else(|| match of_kind.len() {
            0 => format!("the tile `{}` at {pos} has no {}", tile.id, f.2),
            n => format!(
                "the tile `{}` at {pos} has {n} features of kind `{}`: name the one you mean by \
                 one of its ports (NNW, N, NNE, ...)",
                tile.id, f.2
            ),
        })
}

/// Turns a record move into the action it names, in the game's current state.
pub fn move_to_action(game: &Game, m: &Move) -> Result<Action, MoveError> {
    read_move(&game.rules, Some(&game.state), m)
}

/// Checks a move entry against the rules alone, before any move is played: `Err` when it
/// is not well formed ([`MoveError::Malformed`], [`MoveError::BadValue`],
/// [`MoveError::UnknownKey`]): a record with
/// such an entry is no valid record, wherever the entry stands. (Whether the move is
/// legal depends on the game and is found when it is played.)
pub fn check_move(rules: &Rules, m: &Move) -> Result<(), MoveError> {
    match read_move(rules, None, m) {
        Err(
            e @ (MoveError::Malformed(_) | MoveError::BadValue(..) | MoveError::UnknownKey(..)),
        ) => Err(e),
        _ => Ok(()),
    }
}

/// The feature a reference names: resolved on the board when there is a game (`state`),
/// otherwise only checked to name a port or a feature kind of the rules.
fn feature(
    rules: &Rules,
    state: Option<&GameState>,
    f: &FeatureRef,
    malformed: impl FnOnce(String) -> MoveError,
) -> Result<NodeId, MoveError> {
    if f.2.parse::<Port>().is_err()
        && let Err(why) = rules.vocab.kind(&f.2)
    {
        return Err(malformed(if why.contains("ambiguous") {
            why
        } else {
            neither_port_nor_kind(&f.2)
        }));
    }
    match state {
        Some(state) => resolve_feature(rules, state, f).map_err(MoveError::Illegal),
        None => Ok(0),
    }
}

/// A malformed value of move key `name` (located at the value).
fn bad_value(name: &str, why: String) -> MoveError {
    MoveError::BadValue(name.to_string(), why)
}

/// What a feature's third part is when it names neither a port nor a kind.
fn neither_port_nor_kind(name: &str) -> String {
    format!("`{name}` is neither a port (NNW, N, NNE, ENE, ...) nor a feature kind of this game")
}

/// [`move_to_action`], with or without a game to resolve features on (without one, the
/// action's features are placeholders: only the entry's form is checked).
fn read_move(rules: &Rules, state: Option<&GameState>, m: &Move) -> Result<Action, MoveError> {
    let k = move_keys(m);
    let main: Vec<&String> = k.iter().collect();
    if main.is_empty() {
        if m.at.is_some() || m.rotation.is_some() {
            return Err(MoveError::Malformed(
                "`at` and `rotation` need `place`".into(),
            ));
        }
        return Err(MoveError::Malformed("the move entry names no move".into()));
    }
    if main.len() > 1 {
        // A key that is no move at all (`comment`) is said as such, not as a second move.
        if let Some(unknown) = m
            .other
            .keys()
            .find(|k| rules.verb(k).is_none() && deployable_kind(rules, k).is_none())
        {
            return Err(unknown_move(rules, unknown));
        }
        return Err(MoveError::Malformed(format!(
            "one move per entry, but this one has {}",
            main.iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )));
    }
    if m.place.is_none() && (m.at.is_some() || m.rotation.is_some()) {
        return Err(MoveError::Malformed(
            "`at` and `rotation` go only with `place`".into(),
        ));
    }
    if let Some(id) = &m.place {
        // The entry's form first: an unknown tile is an illegal move, a missing `at` an
        // invalid record.
        let [x, y] =
            m.at.ok_or_else(|| MoveError::Malformed("`place` needs `at = [x, y]`".into()))?;
        let deg = m
            .rotation
            .ok_or_else(|| MoveError::Malformed("`place` needs `rotation`".into()))?;
        let rotation = Rotation::from_degrees(deg).ok_or_else(|| {
            MoveError::BadValue(
                "rotation".into(),
                format!("rotation must be 0, 90, 180 or 270, not {deg}"),
            )
        })?;
        let tile = rules.tiles.get(id).ok_or_else(|| {
            let ids = rules.tiles.types.iter().map(|t| t.id.as_str());
            let near = match crate::tiles::validate::nearest(id, ids, 2) {
                Some(near) => format!("; did you mean `{near}`?"),
                None => String::new(),
            };
            MoveError::Illegal(format!(
                "`{id}` is not a tile of this game (base game or an enabled expansion){near}"
            ))
        })?;
        return Ok(Action::Place {
            tile,
            pos: Pos::new(x, y),
            rotation,
        });
    }
    if let Some(f) = &m.follower {
        let node = feature(rules, state, f, |why| bad_value("follower", why))?;
        return Ok(Action::Deploy {
            figure: crate::figures::FOLLOWER,
            node,
        });
    }
    if let Some(p) = m.pass {
        if !p {
            return Err(MoveError::BadValue(
                "pass".into(),
                "`pass` can only be `true`".into(),
            ));
        }
        return Ok(Action::Pass);
    }
    // An expansion verb.
    let name = main[0].as_str();
    let value: serde_json::Value = match name {
        "fairy" => serde_json::to_value(&m.fairy),
        "princess" => serde_json::to_value(&m.princess),
        "dragon" => serde_json::to_value(&m.dragon),
        "release" => serde_json::to_value(m.release),
        other => Ok(m.other.get(other).cloned().unwrap_or_default()),
    }
    .map_err(|e| MoveError::Malformed(e.to_string()))?;
    // A deployment of a figure other than a follower names the figure's kind
    // (`builder = [x, y, PORT]`).
    if let Some(figure) = deployable_kind(rules, name) {
        let f: FeatureRef = serde_json::from_value(value)
            .map_err(|_| bad_value(name, format!("`{name}` takes a feature `[x, y, PORT]`")))?;
        let node = feature(rules, state, &f, |why| bad_value(name, why))?;
        return Ok(Action::Deploy { figure, node });
    }
    let Some((verb, decl)) = rules.verb(name) else {
        // The moves the record format names are legal only with their expansion; their
        // form is the format's whatever is enabled (a side other than N, E, S, W makes
        // no valid record).
        let form = match name {
            "fairy" | "princess" => Some(ArgKind::Feature),
            "dragon" => Some(ArgKind::Side),
            "release" => Some(ArgKind::Pos),
            _ => None,
        };
        if let Some(form) = form {
            read_arg(rules, None, name, form, value)?;
            return Err(MoveError::Illegal(format!(
                "`{name}` needs an expansion that is not enabled in this game"
            )));
        }
        return Err(unknown_move(rules, name));
    };
    let arg = read_arg(rules, state, name, decl.arg, value)?;
    Ok(Action::Verb { verb, arg })
}

/// A key of a move entry that names no move of this game (`name`), with a near name of
/// one as a misspelling would be.
fn unknown_move(rules: &Rules, name: &str) -> MoveError {
    let distance = |k: &str| crate::tiles::validate::edit_distance(name, k);
    let near = ["place", "follower", "pass"]
        .into_iter()
        .chain(rules.verbs.iter().map(|v| v.name.as_str()))
        .chain(
            rules
                .figure_kinds
                .iter()
                .filter(|k| deployable_kind(rules, &k.name).is_some())
                .map(|k| k.name.as_str()),
        )
        .filter(|k| distance(k) <= 2)
        .min_by_key(|k| distance(k))
        .map_or(String::new(), |k| format!("; did you mean `{k}`?"));
    MoveError::UnknownKey(
        name.to_string(),
        format!("unknown move `{name}` (no enabled expansion defines it){near}"),
    )
}

/// The argument of move `name` in the form `kind` (resolved on the board when there is
/// a game, `state`; otherwise only its form is checked).
fn read_arg(
    rules: &Rules,
    state: Option<&GameState>,
    name: &str,
    kind: ArgKind,
    value: serde_json::Value,
) -> Result<Arg, MoveError> {
    Ok(match kind {
        // A move without an argument is written `<verb> = true`, as `pass` is.
        ArgKind::None => {
            if value != serde_json::Value::Bool(true) {
                return Err(bad_value(
                    name,
                    format!("`{name}` takes no argument: write `{name} = true`"),
                ));
            }
            Arg::None
        }
        ArgKind::Pos => {
            let [x, y]: [i32; 2] = serde_json::from_value(value)
                .map_err(|_| bad_value(name, format!("`{name}` takes a square `[x, y]`")))?;
            Arg::Pos(Pos::new(x, y))
        }
        ArgKind::Feature => {
            let f: FeatureRef = serde_json::from_value(value)
                .map_err(|_| bad_value(name, format!("`{name}` takes a feature `[x, y, PORT]`")))?;
            Arg::Feature(feature(rules, state, &f, |why| bad_value(name, why))?)
        }
        ArgKind::Side => {
            let s: String = serde_json::from_value(value).map_err(|_| {
                bad_value(name, format!("`{name}` takes \"N\", \"E\", \"S\" or \"W\""))
            })?;
            Arg::Side(Side::parse(&s).ok_or_else(|| {
                bad_value(
                    name,
                    format!("`{name}` takes \"N\", \"E\", \"S\" or \"W\", not {s:?}"),
                )
            })?)
        }
    })
}

/// A feature reference for a node: its tile's square and the lowest board port the
/// feature touches there, or its kind for an inner feature.
pub fn feature_ref(rules: &Rules, state: &GameState, node: NodeId) -> FeatureRef {
    let n = state.board.graph.node(node);
    let placed = state.board.tiles[n.tile as usize];
    let tile = rules.tiles.tile(placed.tile);
    let ports = tile.board_ports(n.feature, placed.rotation);
    let name = if ports == 0 {
        rules.vocab.kind_name(n.kind).to_string()
    } else {
        Port::from_index(ports.trailing_zeros() as usize)
            .name()
            .to_string()
    };
    FeatureRef(placed.pos.x, placed.pos.y, name)
}

/// The figure kind a record deploys under this move name: a kind of a player's figure
/// other than the follower (a neutral figure is never deployed from a supply).
fn deployable_kind(rules: &Rules, name: &str) -> Option<crate::figures::FigureKindId> {
    rules
        .figure_kinds
        .iter()
        .position(|k| k.name == name && k.class != crate::figures::FigureClass::Neutral)
        .filter(|&i| i != crate::figures::FOLLOWER as usize)
        .and_then(|i| i.try_into().ok())
}

/// Writes an action as a record move.
pub fn action_to_move(rules: &Rules, state: &GameState, action: &Action) -> Move {
    let mut m = Move::default();
    match *action {
        Action::Place {
            tile,
            pos,
            rotation,
        } => {
            m.place = Some(rules.tiles.tile(tile).id.clone());
            m.at = Some([pos.x, pos.y]);
            m.rotation = Some(rotation.degrees() as i64);
        }
        Action::Deploy { node, .. } => {
            let at = feature_ref(rules, state, node);
            match rules.move_key(action) {
                Some(kind) if kind != "follower" => {
                    let value = serde_json::to_value(at).unwrap_or_default();
                    m.other.insert(kind.to_string(), value);
                }
                _ => m.follower = Some(at),
            }
        }
        Action::Pass => m.pass = Some(true),
        Action::Verb { verb, arg } => {
            // A verb no expansion declares (a plugin's fault, refused when played) is
            // written by its number.
            let name = rules
                .move_key(action)
                .map_or_else(|| format!("verb-{verb}"), str::to_string);
            let value = match arg {
                Arg::None => serde_json::Value::Bool(true),
                Arg::Pos(p) => serde_json::json!([p.x, p.y]),
                Arg::Feature(n) => {
                    serde_json::to_value(feature_ref(rules, state, n)).unwrap_or_default()
                }
                Arg::Side(s) => serde_json::Value::String(s.letter().into()),
                Arg::Figure(f) => serde_json::json!(f),
            };
            match name.as_str() {
                "fairy" => m.fairy = serde_json::from_value(value).ok(),
                "princess" => m.princess = serde_json::from_value(value).ok(),
                "dragon" => m.dragon = serde_json::from_value(value).ok(),
                "release" => m.release = serde_json::from_value(value).ok(),
                _ => {
                    m.other.insert(name, value);
                }
            }
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::BaseGame;
    use crate::expansion::{Expansion, Manifest, VerbDecl};

    /// An expansion with a move that takes no argument (`wave = true`) and one that takes
    /// a feature (`fairy`).
    struct Waves;

    impl Expansion for Waves {
        fn manifest(&self) -> Manifest {
            Manifest {
                id: "waves".into(),
                name: "waves".into(),
                version: "0.1.0".into(),
                verbs: vec![
                    VerbDecl {
                        name: "wave".into(),
                        arg: ArgKind::None,
                    },
                    // A move the record format also names, as The Princess and the
                    // Dragon declares it.
                    VerbDecl {
                        name: "fairy".into(),
                        arg: ArgKind::Feature,
                    },
                ],
                // A player's figure other than the follower: deployed with its kind as
                // the move (`pig = [x, y, PORT]`).
                figures: vec![crate::figures::FigureKindDecl {
                    namespace: String::new(),
                    name: "pig".into(),
                    class: crate::figures::FigureClass::Special,
                    strength: 0,
                    per_player: 1,
                    neutral: 0,
                    tags: Vec::new(),
                }],
                ..Manifest::default()
            }
        }
    }

    fn rules() -> Rules {
        let list: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame), Box::new(Waves)];
        Rules::new(list, &Default::default()).expect("rules")
    }

    fn entry(key: &str, value: serde_json::Value) -> Move {
        let mut m = Move::default();
        m.other.insert(key.into(), value);
        m
    }

    #[test]
    fn a_move_without_an_argument_is_written_true_and_nothing_else() {
        let rules = rules();
        assert_eq!(check_move(&rules, &entry("wave", true.into())), Ok(()));
        for wrong in [
            serde_json::json!(false),
            serde_json::json!(1),
            serde_json::json!("N"),
            serde_json::json!([1, 0]),
        ] {
            assert!(
                matches!(
                    check_move(&rules, &entry("wave", wrong.clone())),
                    Err(MoveError::BadValue(key, _)) if key == "wave"
                ),
                "wave = {wrong}"
            );
        }
    }

    #[test]
    fn a_figures_deployment_of_the_wrong_form_is_a_bad_value_of_its_key() {
        let rules = rules();
        assert_eq!(
            check_move(&rules, &entry("pig", serde_json::json!([1, 0, "N"]))),
            Ok(())
        );
        for wrong in [serde_json::json!(true), serde_json::json!([3, 0])] {
            assert!(
                matches!(
                    check_move(&rules, &entry("pig", wrong.clone())),
                    Err(MoveError::BadValue(key, why))
                        if key == "pig" && why == "`pig` takes a feature `[x, y, PORT]`"
                ),
                "pig = {wrong}"
            );
        }
    }

    #[test]
    fn an_unknown_move_names_a_near_move_of_the_game() {
        let rules = rules();
        for (written, near) in [
            ("wav", Some("wave")),
            ("pgi", Some("pig")),
            ("plase", Some("place")),
            ("xyzzy", None),
        ] {
            let Err(MoveError::UnknownKey(key, why)) =
                check_move(&rules, &entry(written, true.into()))
            else {
                panic!("{written}: not an unknown key");
            };
            assert_eq!(key, written);
            let hint = near.map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            assert_eq!(
                why,
                format!("unknown move `{written}` (no enabled expansion defines it){hint}")
            );
        }
    }

    #[test]
    fn a_key_that_is_no_move_beside_a_move_is_said_unknown() {
        let rules = rules();
        let mut m = entry("wave", true.into());
        m.other.insert("comment".into(), "a note".into());
        let Err(MoveError::UnknownKey(key, why)) = check_move(&rules, &m) else {
            panic!("not an unknown key");
        };
        assert_eq!(key, "comment");
        assert_eq!(
            why,
            "unknown move `comment` (no enabled expansion defines it)"
        );
        // Two moves of the game in one entry are two moves.
        m.other.remove("comment");
        m.pass = Some(true);
        let Err(MoveError::Malformed(why)) = check_move(&rules, &m) else {
            panic!("not malformed");
        };
        assert_eq!(
            why,
            "one move per entry, but this one has `pass` and `wave`"
        );
    }

    #[test]
    fn a_placement_is_checked_for_its_form_whatever_tile_it_names() {
        let rules = rules();
        let place = |id: &str, at: Option<[i32; 2]>, rotation: i64| Move {
            place: Some(id.into()),
            at,
            rotation: Some(rotation),
            ..Move::default()
        };
        for id in ["base:U", "base:ZZ"] {
            assert!(
                matches!(
                    check_move(&rules, &place(id, None, 0)),
                    Err(MoveError::Malformed(_))
                ),
                "{id} without `at`"
            );
            assert!(
                matches!(
                    check_move(&rules, &place(id, Some([1, 0]), 45)),
                    Err(MoveError::BadValue(key, _)) if key == "rotation"
                ),
                "{id} at 45 degrees"
            );
        }
        // An unknown tile in a well-formed entry is an illegal move, found in play.
        assert_eq!(
            check_move(&rules, &place("base:ZZ", Some([1, 0]), 90)),
            Ok(())
        );
    }

    #[test]
    fn a_feature_named_by_neither_a_port_nor_a_kind_is_malformed_before_play() {
        let rules = rules();
        let follower = |name: &str| Move {
            follower: Some(FeatureRef(1, 0, name.into())),
            ..Move::default()
        };
        for good in ["N", "NNE", "WNW", "monastery", "base:monastery", "city"] {
            assert_eq!(check_move(&rules, &follower(good)), Ok(()), "{good}");
        }
        for bad in ["NE", "nnw", "", "tower"] {
            assert!(
                matches!(
                    check_move(&rules, &follower(bad)),
                    Err(MoveError::BadValue(key, _)) if key == "follower"
                ),
                "{bad:?}"
            );
        }
        // The record format's own moves are located at their value too.
        let fairy = Move {
            fairy: Some(FeatureRef(1, 0, "NE".into())),
            ..Move::default()
        };
        assert!(
            matches!(
                check_move(&rules, &fairy),
                Err(MoveError::BadValue(key, _)) if key == "fairy"
            ),
            "{:?}",
            check_move(&rules, &fairy)
        );
    }
}
