//! Checks a schema cannot express: how features cover the twelve ports, what each side
//! shows, which cities a field touches, the vocabulary, duplicate ids and the start tile.
//!
//! The checks read the file leniently (as JSON) so that they can run next to schema
//! violations; a value the schema already rejected is skipped, and the geometry of a tile
//! whose `features` hold a schema violation is not checked, to avoid follow-on errors.

use std::collections::BTreeMap;

use serde_json::Value as Json;

use super::tree::Path;
use super::{At, Finding, Options};
use crate::geometry::{Port, Side};
use crate::tiles::vocab::{KindId, KindShape, Vocabulary, kinds};

/// How a kind sits on the twelve ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Covers whole sides (city).
    City,
    /// Ends on middle ports (road, and other completing edge kinds).
    Road,
    /// Covers outer ports only (field).
    Field,
    /// Touches no port (monastery, hut).
    Inner,
}

fn shape(vocab: &Vocabulary, kind: KindId) -> Shape {
    if kind == kinds::CITY {
        return Shape::City;
    }
    match vocab.kinds.get(usize::from(kind)).map(|k| k.shape) {
        Some(KindShape::Edge { completes: false }) => Shape::Field,
        Some(KindShape::Surrounded) => Shape::Inner,
        Some(KindShape::Edge { completes: true }) | None => Shape::Road,
    }
}

/// Where the tile ids and the start tile of a file are, for checks across files.
#[derive(Default)]
pub(crate) struct Sites {
    pub ids: Vec<(String, Path)>,
    pub start: Option<(String, Path)>,
}

/// A feature as far as it could be read.
struct Feat {
    path: Path,
    /// Its number in the tile's `features`, from 1 (as messages count).
    number: usize,
    kind: Option<KindId>,
    /// Ports as listed, with their paths.
    ports: Vec<(Port, Path)>,
    /// Whether `ports` is absent or a clean array (every entry a port).
    ports_clean: bool,
    /// Ports listed in `cities`, with their paths.
    cities: Vec<(Port, Path)>,
}

struct Ctx<'a> {
    vocab: &'a Vocabulary,
    options: &'a Options,
    /// Paths of schema violations, sorted: those under a path follow it at once.
    tainted: std::collections::BTreeSet<&'a Path>,
    line_of: &'a dyn Fn(&Path) -> usize,
    out: Vec<Finding>,
}

impl Ctx<'_> {
    /// Whether no schema violation lies at or under `path`.
    fn clean(&self, path: &Path) -> bool {
        // In the sorted set, the paths that start with `path` come first from `path` on.
        !self
            .tainted
            .range::<&Path, _>(path..)
            .next()
            .is_some_and(|t| t.starts_with(path))
    }

    fn at(&mut self, path: &Path, message: String) {
        self.out.push(Finding {
            path: path.clone(),
            at: At::Value,
            message,
        });
    }

    fn kind_name(&self, kind: KindId) -> &str {
        self.vocab.kind_name(kind)
    }

    fn markers(&mut self, value: Option<&Json>, path: &Path) {
        if self.options.tiles_only {
            return;
        }
        let Some(list) = value.and_then(Json::as_array) else {
            return;
        };
        for (i, m) in list.iter().enumerate() {
            let p = path.index(i);
            if let (Some(name), true) = (m.as_str(), self.clean(&p))
                && let Err(msg) = self.vocab.marker(name)
            {
                let msg = if msg.starts_with("unknown") {
                    let known = self.vocab.markers.iter().map(|m| m.name.as_str());
                    self.unknown(&msg, name, known, Some("use --tiles-only"))
                } else {
                    msg
                };
                self.at(&p, msg);
            }
        }
    }

    fn kind(&mut self, written: &str, path: &Path) -> Option<KindId> {
        match self.vocab.kind(written) {
            Ok(k) => Some(k),
            Err(msg) => {
                let msg = if msg.starts_with("unknown") {
                    let known = self.vocab.kinds.iter().map(|k| k.name.as_str());
                    self.unknown(&msg, written, known, None)
                } else {
                    msg
                };
                self.at(path, msg);
                None
            }
        }
    }

    /// The message for a kind or marker no expansion in force declares: a near name
    /// that one does, and where names come from (the plugin's own manifest, when its
    /// directory is validated; `more`: a further way out of a tile file validated alone).
    fn unknown<'n>(
        &self,
        msg: &str,
        written: &str,
        known: impl Iterator<Item = &'n str>,
        more: Option<&str>,
    ) -> String {
        let near = known
            .filter(|k| super::schema_check::edit_distance(written, k) <= 2)
            .min_by_key(|k| super::schema_check::edit_distance(written, k));
        let near = near.map_or(String::new(), |k| format!("; did you mean `{k}`?"));
        match (&self.options.expansion, more) {
            (Some(id), _) => format!(
                "{msg}{near} (neither the manifest of `{id}` nor an expansion it requires \
                 declares it)"
            ),
            (None, None) => format!(
                "{msg}{near} (no enabled expansion registers it: enable it, or validate the \
                 plugin directory whose manifest declares it)"
            ),
            (None, Some(more)) => format!(
                "{msg}{near} (no enabled expansion registers it: enable it, validate the \
                 plugin directory whose manifest declares it, or {more})"
            ),
        }
    }

    /// Reads a list of ports; the flag tells whether every entry was a port.
    fn ports(&self, value: Option<&Json>, path: &Path) -> (Vec<(Port, Path)>, bool) {
        let Some(value) = value else {
            return (Vec::new(), true);
        };
        let Some(list) = value.as_array() else {
            return (Vec::new(), false);
        };
        let mut clean = self.clean(path);
        let mut ports = Vec::new();
        for (i, p) in list.iter().enumerate() {
            match p.as_str().and_then(|s| s.parse::<Port>().ok()) {
                Some(port) => ports.push((port, path.index(i))),
                None => clean = false,
            }
        }
        (ports, clean)
    }
}

/// Every semantic problem of the file, and where its ids are.
pub(crate) fn findings(
    json: &Json,
    vocab: &Vocabulary,
    options: &Options,
    schema_findings: &[Finding],
    line_of: &dyn Fn(&Path) -> usize,
) -> (Vec<Finding>, Sites) {
    let mut cx = Ctx {
        vocab,
        options,
        tainted: schema_findings.iter().map(|f| &f.path).collect(),
        line_of,
        out: Vec::new(),
    };
    let mut sites = Sites::default();
    let root = Path::root();
    if let Some(tiles) = json.get("tile").and_then(Json::as_array) {
        let mut first: BTreeMap<&str, Path> = BTreeMap::new();
        for (i, tile) in tiles.iter().enumerate() {
            let path = root.key("tile").index(i);
            if let Some(id) = tile.get("id").and_then(Json::as_str) {
                let id_path = path.key("id");
                if let Some(prev) = first.get(id) {
                    let line = (cx.line_of)(prev);
                    cx.at(
                        &id_path,
                        format!("tile id `{id}` is defined twice (first on line {line})"),
                    );
                } else {
                    first.insert(id, id_path.clone());
                    if cx.clean(&id_path) {
                        sites.ids.push((id.to_string(), id_path));
                    }
                }
            }
            if tile.is_object() {
                check_tile(&mut cx, tile, &path);
            }
        }
        let expansion_path = root.key("expansion");
        if let (Some(written), Some(owner)) = (
            json.get("expansion").and_then(Json::as_str),
            cx.options.expansion.as_deref(),
        ) && written != owner
            && cx.clean(&expansion_path)
        {
            cx.at(
                &expansion_path,
                format!(
                    "these tiles are said to be of expansion `{written}`, but the manifest \
                     naming this file is `{owner}`'s: write `expansion = \"{owner}\"`"
                ),
            );
        }
        let start_path = root.key("start");
        if let Some(start) = json.get("start").and_then(Json::as_str)
            && cx.clean(&start_path)
        {
            if !first.contains_key(start) {
                cx.at(
                    &start_path,
                    format!("start tile `{start}` is not a tile of this file"),
                );
            }
            sites.start = Some((start.to_string(), start_path));
        }
    }
    (cx.out, sites)
}

fn check_tile(cx: &mut Ctx<'_>, tile: &Json, path: &Path) {
    cx.markers(tile.get("markers"), &path.key("markers"));

    let features_path = path.key("features");
    let mut feats = Vec::new();
    let list = tile.get("features").and_then(Json::as_array);
    for (j, f) in list.into_iter().flatten().enumerate() {
        let fpath = features_path.index(j);
        if f.is_object() {
            feats.push(read_feature(cx, f, fpath, j + 1));
        }
    }
    let geometry = list.is_some() && cx.clean(&features_path);
    let mut bad_side = [false; 4];
    let mut owner: [Option<usize>; 12] = [None; 12];
    if geometry {
        for (j, f) in feats.iter().enumerate() {
            // An inner kind's ports are reported by `check_shape`; they cover nothing.
            if f.kind.is_some_and(|k| shape(cx.vocab, k) == Shape::Inner) {
                continue;
            }
            for (port, ppath) in &f.ports {
                match owner[port.index()] {
                    Some(k) if k == j => {
                        cx.at(
                            ppath,
                            format!("port `{port}` is listed twice in feature {}", f.number),
                        );
                        bad_side[port.side().index()] = true;
                    }
                    Some(k) => {
                        cx.at(
                            ppath,
                            format!(
                                "port `{port}` is covered twice (features {} and {})",
                                feats.get(k).map_or(k + 1, |o| o.number),
                                f.number
                            ),
                        );
                        bad_side[port.side().index()] = true;
                    }
                    None => owner[port.index()] = Some(j),
                }
            }
        }
    }
    for f in &feats {
        check_shape(cx, f, &mut bad_side);
    }
    if geometry {
        let uncovered: Vec<Port> = Port::ALL
            .into_iter()
            .filter(|p| !p.is_middle() && owner[p.index()].is_none())
            .collect();
        for p in &uncovered {
            bad_side[p.side().index()] = true;
        }
        if !uncovered.is_empty() {
            let names: Vec<String> = uncovered.iter().map(|p| format!("`{p}`")).collect();
            let message = match names.as_slice() {
                [one] => format!("port {one} is not covered by any feature"),
                [rest @ .., last] => format!(
                    "ports {} and {last} are not covered by any feature",
                    rest.join(", ")
                ),
                [] => String::new(),
            };
            cx.out.push(Finding {
                path: features_path.clone(),
                at: At::Key,
                message,
            });
        }
        for f in &feats {
            check_cities(cx, f, &feats, &owner);
        }
    }
    check_sides(
        cx,
        tile,
        path,
        &feats,
        geometry.then_some(&owner),
        &bad_side,
    );
}

fn read_feature(cx: &mut Ctx<'_>, f: &Json, path: Path, number: usize) -> Feat {
    let kind_path = path.key("kind");
    let kind = match f.get("kind").and_then(Json::as_str) {
        Some(written) if cx.clean(&kind_path) => cx.kind(written, &kind_path),
        _ => None,
    };
    let (ports, ports_clean) = cx.ports(f.get("ports"), &path.key("ports"));
    let (cities, _) = cx.ports(f.get("cities"), &path.key("cities"));
    cx.markers(f.get("markers"), &path.key("markers"));

    if let Some(kind) = kind {
        let pennants_path = path.key("pennants");
        if let Some(n) = f.get("pennants").and_then(Json::as_i64)
            && n > 0
            && kind != kinds::CITY
            && cx.clean(&pennants_path)
        {
            let name = cx.kind_name(kind).to_string();
            cx.at(
                &pennants_path,
                format!("only cities have pennants; this feature is a `{name}`"),
            );
        }
        let cities_path = path.key("cities");
        let has_cities = f
            .get("cities")
            .and_then(Json::as_array)
            .is_some_and(|c| !c.is_empty());
        if has_cities && shape(cx.vocab, kind) != Shape::Field && cx.clean(&cities_path) {
            let name = cx.kind_name(kind).to_string();
            cx.at(
                &cities_path,
                format!("only fields list `cities`; this feature is a `{name}`"),
            );
        }
    }
    Feat {
        path,
        number,
        kind,
        ports,
        ports_clean,
        cities,
    }
}

/// Where a kind may touch the edge: roads on middle ports, fields on outer ports, cities on
/// whole sides, inner kinds nowhere.
fn check_shape(cx: &mut Ctx<'_>, f: &Feat, bad_side: &mut [bool; 4]) {
    let Some(kind) = f.kind else {
        return;
    };
    let name = cx.kind_name(kind).to_string();
    match shape(cx.vocab, kind) {
        Shape::Inner => {
            if !f.ports.is_empty() {
                cx.at(
                    &f.path.key("ports"),
                    format!("a `{name}` is an inner feature and touches no port"),
                );
            }
        }
        Shape::Road => {
            if f.ports.is_empty() && f.ports_clean {
                cx.at(
                    &f.path,
                    format!("a `{name}` must touch at least one port (only a field may be inner)"),
                );
            }
            for (port, ppath) in &f.ports {
                if !port.is_middle() {
                    let middle = port.side().middle_port();
                    cx.at(
                        ppath,
                        if kind == kinds::ROAD {
                            format!(
                                "{name} on outer port `{port}`: a road end takes the middle \
                                 port `{middle}`"
                            )
                        } else {
                            format!(
                                "{name} on outer port `{port}`: a `{name}` (an edge kind with \
                                 `completes = true`, ending on middle ports like a road) takes \
                                 the middle port `{middle}`"
                            )
                        },
                    );
                    bad_side[port.side().index()] = true;
                }
            }
        }
        Shape::Field => {
            for (port, ppath) in &f.ports {
                if port.is_middle() {
                    let s = port.side().index() * 3;
                    cx.at(
                        ppath,
                        format!(
                            "{name} on middle port `{port}`: {} takes outer ports only \
                             (`{}`, `{}`)",
                            if kind == kinds::FIELD {
                                "a field".to_string()
                            } else {
                                format!(
                                    "a `{name}` (an edge kind with `completes = false`, \
                                     lying along the edges like a field)"
                                )
                            },
                            Port::from_index(s),
                            Port::from_index(s + 2)
                        ),
                    );
                    bad_side[port.side().index()] = true;
                }
            }
        }
        Shape::City => {
            if f.ports.is_empty() && f.ports_clean {
                cx.at(
                    &f.path,
                    format!("a `{name}` must touch at least one port (only a field may be inner)"),
                );
            }
            if !f.ports_clean {
                return;
            }
            for side in Side::ALL {
                let on_side: Vec<&(Port, Path)> =
                    f.ports.iter().filter(|(p, _)| p.side() == side).collect();
                let Some((_, first)) = on_side.first() else {
                    continue;
                };
                let missing: Vec<String> = (0..3)
                    .map(|k| Port::from_index(side.index() * 3 + k))
                    .filter(|p| !on_side.iter().any(|(q, _)| q == p))
                    .map(|p| format!("`{p}`"))
                    .collect();
                if !missing.is_empty() {
                    cx.at(
                        first,
                        format!(
                            "{name} covers only part of side {side} (missing {}); a city side \
                             covers all three ports",
                            missing.join(" and ")
                        ),
                    );
                    bad_side[side.index()] = true;
                }
            }
        }
    }
}

/// A field's `cities` must name ports of cities on this tile.
fn check_cities(cx: &mut Ctx<'_>, f: &Feat, feats: &[Feat], owner: &[Option<usize>; 12]) {
    if f.kind.map(|k| shape(cx.vocab, k)) != Some(Shape::Field) {
        return;
    }
    for (port, ppath) in &f.cities {
        let by = match owner[port.index()] {
            Some(k) => match feats.get(k).and_then(|o| o.kind) {
                Some(kinds::CITY) => continue,
                Some(other) => format!("a `{}` does", cx.kind_name(other)),
                None => continue,
            },
            None => "no feature does".to_string(),
        };
        cx.at(
            ppath,
            format!(
                "no city of this tile covers port `{port}` ({by}); `cities` names cities of \
                 this tile"
            ),
        );
    }
}

/// Each `sides` entry must be the kind of the feature on the side: the one on its middle
/// port, or on its outer ports when the middle port is free.
fn check_sides(
    cx: &mut Ctx<'_>,
    tile: &Json,
    path: &Path,
    feats: &[Feat],
    owner: Option<&[Option<usize>; 12]>,
    bad_side: &[bool; 4],
) {
    let sides_path = path.key("sides");
    let Some(sides) = tile.get("sides").and_then(Json::as_array) else {
        return;
    };
    if sides.len() != 4 || !cx.clean(&sides_path) {
        return;
    }
    for (s, written) in sides.iter().enumerate() {
        let Some(written) = written.as_str() else {
            continue;
        };
        let entry = sides_path.index(s);
        let Some(declared) = cx.kind(written, &entry) else {
            continue;
        };
        let (Some(owner), false) = (owner, bad_side[s]) else {
            continue;
        };
        let side = Side::from_index(s);
        let Some(o) = owner[side.middle_port().index()].or(owner[s * 3]) else {
            continue;
        };
        let Some(actual) = feats.get(o).and_then(|f| f.kind) else {
            continue;
        };
        if actual != declared {
            let actual = cx.kind_name(actual).to_string();
            cx.at(
                &entry,
                format!("side {side} is declared `{written}` but its features make it `{actual}`"),
            );
        }
    }
}
