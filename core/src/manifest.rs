//! Expansion manifests: everything an expansion declares before any of its code runs —
//! feature kinds, markers, figures (with tags), phases, record moves, rule options, and
//! its rules with their declared precedence. Plugins ship them as TOML
//! (`plugins/*/manifest.toml`), checked against `schema/manifest.schema.json`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::engine::ArgKind;
use crate::figures::FigureKindDecl;
use crate::span;
use crate::tiles::validate::Diagnostic;
use crate::tiles::vocab::{KindDecl, MarkerDecl};

/// When a phase exists: only under one value of one of the declaring expansion's options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseCondition {
    /// The option's name (without the expansion prefix).
    pub option: String,
    /// The value under which the phase exists.
    pub value: String,
}

/// The phase or phases a phase is placed next to: one name (`"score"`), or several
/// (`["score", "dragon-move"]`: after the last of them that is in the turn, or before
/// the first), so that it can be ordered against another expansion's phase that is not
/// always there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Anchor {
    /// One phase.
    One(String),
    /// The phases of the turn among these (at least one must be).
    Any(Vec<String>),
}

impl Anchor {
    /// The phases named.
    pub fn names(&self) -> &[String] {
        match self {
            Anchor::One(name) => std::slice::from_ref(name),
            Anchor::Any(names) => names,
        }
    }
}

impl From<&str> for Anchor {
    fn from(name: &str) -> Anchor {
        Anchor::One(name.to_string())
    }
}

impl std::fmt::Display for Anchor {
    /// `score`, or `score or dragon-move` for several.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.names().join(" or "))
    }
}

/// A phase an expansion adds to the turn, placed relative to an existing one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PhaseDecl {
    /// Phase name, e.g. `dragon-move`.
    pub name: String,
    /// Run right after this phase (of several, the last in the turn)...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Anchor>,
    /// ...or right before this one (of several, the first in the turn; not read when
    /// `after` is given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Anchor>,
    /// Only under this option value (e.g. the dragon's movement after scoring).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<PhaseCondition>,
    /// Runs only in turns in which an expansion asked for it (`Command::RequestPhase`,
    /// e.g. when a dragon tile is placed); in other turns it is skipped without a hook
    /// being called, so a phase that rarely has work costs nothing the rest of the time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub on_request: bool,
}

/// A move kind an expansion adds to game records (`fairy`, `dragon`, `release`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerbDecl {
    /// The record key.
    pub name: String,
    /// The shape of its value: `none`, `pos` (`[x, y]`), `feature` (`[x, y, PORT]`) or
    /// `side` (`"N"`).
    pub arg: ArgKind,
}

/// A typed rule option (`princess-dragon.dragon-move`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleOptionDecl {
    /// Option name, without the expansion prefix.
    pub name: String,
    /// Allowed values; the first is the default.
    pub values: Vec<String>,
    /// One line saying what it changes.
    #[serde(default)]
    pub doc: String,
}

/// One of the expansion's rules at a decision point, with its declared order against
/// other rules there (declared precedence). Rules are named `expansion:rule`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleDecl {
    /// The rule's id within the expansion (`vodyanoy`).
    pub id: String,
    /// The decision point it takes part in (`figure-capture`).
    pub point: String,
    /// What it claims there (e.g. `follower`): two rules that claim the same thing must
    /// be ordered, or the host reports an ambiguity.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<String>,
    /// Rules (`expansion:rule`) this one goes before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
    /// Rules (`expansion:rule`) this one goes after.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after: Vec<String>,
    /// What the rule does, for `carc plan`.
    #[serde(default)]
    pub doc: String,
}

/// When some of an expansion's hooks can matter at all (speed only): while none of the
/// conditions holds, the engine does not call them. A rule must act the same whether or
/// not it is called while asleep; the engine may always call it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WakeDecl {
    /// The hooks: `enter-phase`, `actions`, `restricts`, `on-event` (every event kind) or
    /// `on-event:KIND` (one kind: `tile-placed`, `figure-deployed`, `figure-moved`,
    /// `figure-returned`, `scored`, `feature-scored`, `tile-drawn`, …). Each hook may be
    /// named in one `[[wake]]` entry at most.
    pub hooks: Vec<String>,
    /// Any of: `marker:NAME` (a placed tile or feature carries the marker), `kind:NAME` (a
    /// feature of this inner kind, such as a monastery, is on the board), `placed:NAME`
    /// (the tile placed in this turn carries the marker, on the tile or a feature),
    /// `joins:NAME` (a feature of the tile placed in this turn carries the marker on one
    /// of its tiles: the tile joined such a feature, or carries the marker itself),
    /// `near-placed:NAME` (a feature of this inner kind is on the tile placed in this turn
    /// or on one of the 8 squares around it), `record` (the expansion's record is not
    /// empty), `others-deploy` (for `restricts` only: an expansion other than the base
    /// game and this one offered a deployment in the decision judged).
    pub when: Vec<String>,
    /// Why the hooks can sleep otherwise, for `carc plugins info`.
    #[serde(default)]
    pub doc: String,
}

/// An order between two rules that a manifest declares without owning either (e.g. a
/// third party settling how two other expansions' rules interact).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderDecl {
    /// The decision point.
    pub point: String,
    /// The rule that acts first (`expansion:rule`).
    pub first: String,
    /// The rule that acts after it (`expansion:rule`).
    pub then: String,
    /// Why, for `carc plan`.
    #[serde(default)]
    pub doc: String,
}

/// How a kind, marker or figure looks in pictures (`carc render`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Look {
    /// Its colour, `#rgb` or `#rrggbb` (default: a colour derived from its name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"))]
    pub colour: Option<String>,
    /// A short text drawn on it, one to three characters (default: its name's first
    /// letter, in capitals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 3))]
    pub glyph: Option<String>,
}

/// How an expansion's kinds, markers and figures look in pictures, by name
/// (`[looks.markers.volcano]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Looks {
    /// Feature kinds (`hut`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: BTreeMap<String, Look>,
    /// Markers (`volcano`, `princess`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub markers: BTreeMap<String, Look>,
    /// Figures (`dragon`, `fairy`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub figures: BTreeMap<String, Look>,
}

impl Looks {
    /// Whether it declares nothing.
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty() && self.markers.is_empty() && self.figures.is_empty()
    }

    /// Every declared look with its table's name (`kinds`, `markers`, `figures`).
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &str, &Look)> {
        [
            ("kinds", &self.kinds),
            ("markers", &self.markers),
            ("figures", &self.figures),
        ]
        .into_iter()
        .flat_map(|(table, looks)| looks.iter().map(move |(n, l)| (table, n.as_str(), l)))
    }
}

/// Whether `text` is a colour as looks write it: `#rgb` or `#rrggbb`.
pub fn valid_colour(text: &str) -> bool {
    text.strip_prefix('#').is_some_and(|hex| {
        (hex.len() == 3 || hex.len() == 6) && hex.chars().all(|c| c.is_ascii_hexdigit())
    })
}

/// Whether `text` is a glyph as looks write it: one to three characters, none of them a
/// control character, a space or an invisible one, beginning with a visible one (not a
/// combining mark).
pub fn valid_glyph(text: &str) -> bool {
    let n = text.chars().count();
    (1..=3).contains(&n)
        && text
            .chars()
            .all(|c| !c.is_control() && !c.is_whitespace() && !invisible(c))
        && text.chars().next().is_some_and(|c| !combining(c))
}

/// A glyph as a message shows it: its invisible characters and marks written `\u{..}`.
fn shown_glyph(glyph: &str) -> String {
    glyph
        .chars()
        .map(|c| {
            if invisible(c) || combining(c) || c.is_control() {
                format!("\\u{{{:x}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Characters that draw nothing: zero-width spaces and joiners, direction marks, word
/// joiners and invisible operators, variation selectors, the byte-order mark.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
        | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
        | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{E0000}'..='\u{E0FFF}')
}

/// Combining marks (the common blocks), which draw onto the character before them.
fn combining(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{FE20}'..='\u{FE2F}')
}

/// Everything an expansion declares before any of its code runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "carc expansion manifest")]
pub struct Manifest {
    /// Expansion id, as given to `--expansions` (`base` for the core rules).
    pub id: String,
    /// Human name.
    pub name: String,
    /// Version of the expansion (semantic versioning).
    #[serde(default = "default_version")]
    pub version: String,
    /// Feature kinds it registers.
    #[serde(default, rename = "kind", skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<KindDecl>,
    /// Markers it registers.
    #[serde(default, rename = "marker", skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerDecl>,
    /// Figure kinds it brings, with their tags.
    #[serde(default, rename = "figure", skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<FigureKindDecl>,
    /// Phases it adds.
    #[serde(default, rename = "phase", skip_serializing_if = "Vec::is_empty")]
    pub phases: Vec<PhaseDecl>,
    /// Record moves it adds.
    #[serde(default, rename = "verb", skip_serializing_if = "Vec::is_empty")]
    pub verbs: Vec<VerbDecl>,
    /// Rule options.
    #[serde(default, rename = "option", skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<RuleOptionDecl>,
    /// Its rules at decision points, with declared precedence.
    #[serde(default, rename = "rule", skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleDecl>,
    /// Orders it declares between other expansions' rules.
    #[serde(default, rename = "order", skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<OrderDecl>,
    /// A plugin's shared library, by its crate name (`carc_princess_dragon`); the file is
    /// `libcarc_princess_dragon.so` on Linux, `.dylib` on macOS, `.dll` on Windows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<String>,
    /// A plugin's tile-data files, relative to its directory.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiles: Vec<String>,
    /// What a plugin needs, as semantic-version ranges: `carc` for the host's plugin
    /// protocol (`"^1.0"`), and other expansions by id (`princess-dragon = "^1"`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requires: BTreeMap<String, String>,
    /// Expansions that cannot be enabled together with this one, by id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<String>,
    /// When its hooks can matter (speed only; see [`WakeDecl`]).
    #[serde(default, rename = "wake", skip_serializing_if = "Vec::is_empty")]
    pub wake: Vec<WakeDecl>,
    /// How its kinds, markers and figures look in pictures (`carc render`).
    #[serde(default, skip_serializing_if = "Looks::is_empty")]
    pub looks: Looks,
}

fn default_version() -> String {
    "0.1.0".into()
}

/// What a kind's `shape` may be, said when it is none of them.
const SHAPES: &str = "a kind's `shape` is `\"surrounded\"` (an inner feature, complete with \
                      the eight tiles around it, like a monastery) or `{ edge = { completes = \
                      true } }` (joined across tile edges on middle ports, complete when closed, \
                      like a road; `completes = false`: along the edges and never complete, \
                      like a field)";

/// Whether the value at byte `at` is (inside) a kind's `shape`: the key `shape` comes
/// before it on its line, with no other key of the same table between (no comma).
fn at_shape(source: &str, at: usize) -> bool {
    let Some(before) = source.get(..at) else {
        return false;
    };
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let is_key = |i: usize| {
        let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
        !line[..i].ends_with(word) && !line[i + "shape".len()..].starts_with(word)
    };
    line.match_indices("shape")
        .map(|(i, _)| i)
        .filter(|&i| is_key(i))
        .last()
        .is_some_and(|i| !line[i..].contains(','))
}

impl Manifest {
    /// Parses a manifest from TOML; its first problem is located. Namespaces of the
    /// kinds, markers and figures it declares default to the manifest's id.
    pub fn from_toml(source: &str, file: &str) -> Result<Manifest, Diagnostic> {
        Manifest::from_toml_all(source, file).map_err(|mut problems| problems.remove(0))
    }

    /// [`Manifest::from_toml`], with every problem, each located (at least one when it
    /// fails). A file that does not read as a manifest (TOML, a key's type, an unknown
    /// key) has one problem: the first.
    pub fn from_toml_all(source: &str, file: &str) -> Result<Manifest, Vec<Diagnostic>> {
        let mut m: Manifest = toml::from_str(source).map_err(|e| {
            let message = match e.span() {
                Some(span) if at_shape(source, span.start) => SHAPES.to_string(),
                _ => crate::plain::array_after_table(source, e.message(), e.span()).unwrap_or_else(
                    || {
                        let spanned = crate::plain::spanned(source, e.message(), e.span());
                        crate::plain::plain(e.message(), spanned)
                    },
                ),
            };
            // The first unknown key stops the reading: the others are named with it.
            let message = if e.message().starts_with("unknown field") {
                message + &other_unknown_keys(source, e.span())
            } else {
                message
            };
            vec![Diagnostic::located(source, file, e.span(), message)]
        })?;
        // A follower declared without `strength` counts 1 in majorities, as the base
        // game's does (a figure of another class counts 0).
        if let Ok(table) = source.parse::<toml::Table>()
            && let Some(declared) = table.get("figure").and_then(toml::Value::as_array)
        {
            for (figure, raw) in m.figures.iter_mut().zip(declared) {
                let given = raw.as_table().is_some_and(|t| t.contains_key("strength"));
                if !given && figure.class == crate::figures::FigureClass::Follower {
                    figure.strength = 1;
                }
            }
        }
        let mut problems: Vec<Diagnostic> = Vec::new();
        let locate = |path: &[span::Seg], message: String| {
            Diagnostic::located(source, file, span::toml_span(source, path), message)
        };
        if !valid_id(&m.id) {
            problems.push(locate(
                &["id".into()],
                format!(
                    "`{}` is not a valid expansion id (lowercase letters, digits and `-`)",
                    m.id
                ),
            ));
        }
        let taken = match m.id.as_str() {
            "base" => Some("`base` is the base game's id"),
            "carc" => Some("`carc` names the host's plugin protocol in `[requires]`"),
            _ => None,
        };
        if let Some(taken) = taken {
            problems.push(locate(
                &["id".into()],
                format!("{taken}: an expansion needs an id of its own"),
            ));
        }
        if !valid_version(&m.version) {
            problems.push(locate(
                &["version".into()],
                format!("`{}` is not a semantic version (like 1.2.0)", m.version),
            ));
        }
        // A phase goes next to one phase at least.
        for (i, p) in m.phases.iter().enumerate() {
            for (key, anchor) in [("after", &p.after), ("before", &p.before)] {
                if anchor.as_ref().is_some_and(|a| a.names().is_empty()) {
                    problems.push(locate(
                        &["phase".into(), i.into(), key.into()],
                        format!("the phase `{}` is placed {key} no phase: name one", p.name),
                    ));
                }
            }
        }
        // Only followers count in majorities (X-2): another figure has no strength.
        for (i, f) in m.figures.iter().enumerate() {
            if f.strength > 0 && f.class != crate::figures::FigureClass::Follower {
                let class = match f.class {
                    crate::figures::FigureClass::Special => "special",
                    _ => "neutral",
                };
                problems.push(locate(
                    &["figure".into(), i.into(), "strength".into()],
                    format!(
                        "`{}` is a {class} figure, and only followers count in majorities: \
                         leave its `strength` out (or make it a follower)",
                        f.name
                    ),
                ));
            }
        }
        for (name, range) in &m.requires {
            if let Err(e) = semver::VersionReq::parse(range) {
                problems.push(locate(
                    &["requires".into(), name.as_str().into()],
                    format!(
                        "`{range}` is not a version range (like \"^1.0\"): {}",
                        semver_words(&e)
                    ),
                ));
            }
            if name != "carc" && !valid_id(name) {
                problems.push(locate(
                    &["requires".into(), name.as_str().into()],
                    format!("`{name}` is neither `carc` nor an expansion id"),
                ));
            }
            if *name == m.id {
                problems.push(locate(
                    &["requires".into(), name.as_str().into()],
                    format!(
                        "`{name}` is this expansion's own id: an expansion does not require \
                         itself"
                    ),
                ));
            }
        }
        for (i, c) in m.conflicts.iter().enumerate() {
            if !valid_id(c) || *c == m.id {
                problems.push(locate(
                    &["conflicts".into(), i.into()],
                    format!("`{c}` is not another expansion's id"),
                ));
            }
        }
        if let Some(lib) = &m.library
            && (lib.is_empty()
                || !lib
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        {
            problems.push(locate(
                &["library".into()],
                format!("`{lib}` is not a library's crate name (letters, digits, `_` and `-`)"),
            ));
        }
        // The same file however written (`tiles.toml`, `./tiles.toml`, `a//b.toml`).
        fn parts(p: &str) -> impl Iterator<Item = std::path::Component<'_>> {
            std::path::Path::new(p)
                .components()
                .filter(|c| *c != std::path::Component::CurDir)
        }
        let same_file = |a: &str, b: &str| parts(a).eq(parts(b));
        for (i, file) in m.tiles.iter().enumerate() {
            if let Some(first) = m.tiles[..i].iter().find(|other| same_file(other, file)) {
                let written = if first == file {
                    String::new()
                } else {
                    format!(" (first as `{first}`)")
                };
                problems.push(locate(
                    &["tiles".into(), i.into()],
                    format!("the tile file `{file}` is listed twice{written}: list it once"),
                ));
            }
        }
        for (i, r) in m.rules.iter().enumerate() {
            if m.rules[..i].iter().any(|other| other.id == r.id) {
                problems.push(locate(
                    &["rule".into(), i.into(), "id".into()],
                    format!(
                        "the rule `{}` is declared twice: give each rule an id of its own",
                        r.id
                    ),
                ));
            }
            let own = format!("{}:{}", m.id, r.id);
            for (key, refs) in [("before", &r.before), ("after", &r.after)] {
                for (j, name) in refs.iter().enumerate() {
                    if name
                        .split_once(':')
                        .is_none_or(|(e, r)| e.is_empty() || r.is_empty())
                    {
                        problems.push(locate(
                            &["rule".into(), i.into(), key.into(), j.into()],
                            format!("`{name}` must name a rule as `expansion:rule`"),
                        ));
                    }
                    if *name == own {
                        problems.push(locate(
                            &["rule".into(), i.into(), key.into(), j.into()],
                            format!("`{name}` is this rule itself: a rule goes {key} other rules"),
                        ));
                    }
                }
            }
        }
        for (i, o) in m.orders.iter().enumerate() {
            for (key, name) in [("first", &o.first), ("then", &o.then)] {
                if name
                    .split_once(':')
                    .is_none_or(|(e, r)| e.is_empty() || r.is_empty())
                {
                    problems.push(locate(
                        &["order".into(), i.into(), key.into()],
                        format!("`{name}` must name a rule as `expansion:rule`"),
                    ));
                }
            }
        }
        for (table, name, look) in m.looks.all() {
            if let Some(colour) = &look.colour
                && !valid_colour(colour)
            {
                problems.push(locate(
                    &["looks".into(), table.into(), name.into(), "colour".into()],
                    format!(
                        "`{colour}` is not a colour (write `#rgb` or `#rrggbb`, like \"#c33\")"
                    ),
                ));
            }
            if let Some(glyph) = &look.glyph
                && !valid_glyph(glyph)
            {
                problems.push(locate(
                    &["looks".into(), table.into(), name.into(), "glyph".into()],
                    format!(
                        "`{}` is not a glyph (one to three visible characters, no spaces)",
                        shown_glyph(glyph)
                    ),
                ));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        m.fill_namespaces();
        Ok(m)
    }

    /// Sets the namespace of declared kinds, markers and figures to the manifest's id
    /// where it was left out.
    pub fn fill_namespaces(&mut self) {
        let id = self.id.clone();
        for k in &mut self.kinds {
            if k.namespace.is_empty() {
                k.namespace = id.clone();
            }
        }
        for k in &mut self.markers {
            if k.namespace.is_empty() {
                k.namespace = id.clone();
            }
        }
        for k in &mut self.figures {
            if k.namespace.is_empty() {
                k.namespace = id.clone();
            }
        }
    }
}

/// The `id` a manifest's text gives, when it is a valid id, even if the manifest is
/// otherwise wrong: a refused plugin is still named by the id its author meant.
pub fn id_in(text: &str) -> Option<String> {
    let table: toml::Table = toml::from_str(text).ok()?;
    let id = table.get("id")?.as_str()?;
    valid_id(id).then(|| id.to_string())
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A semantic-versioning error in words of the file (the crate names Rust's limits).
pub fn semver_words(e: &semver::Error) -> String {
    e.to_string().replace("exceeds u64::MAX", "is too large")
}

/// `MAJOR.MINOR.PATCH` with an optional pre-release or build suffix.
fn valid_version(v: &str) -> bool {
    // Semantic versioning's own rules: no leading zeros, no empty pre-release, numbers
    // that fit.
    semver::Version::parse(v).is_ok()
}

/// The manifest schema (draft-07).
pub fn manifest_schema() -> serde_json::Value {
    let schema = schemars::generate::SchemaSettings::draft07()
        .into_generator()
        .into_root_schema_for::<Manifest>();
    serde_json::to_value(schema).unwrap_or_default()
}

/// The keys of a manifest the format does not have, other than the one at `said` (the
/// span of the key already reported), as words to add to that report ("; 2 more unknown
/// keys: `tilez` (line 4), `versoin` (line 3)"). Found with the manifest's JSON Schema.
fn other_unknown_keys(source: &str, said: Option<std::ops::Range<usize>>) -> String {
    use std::sync::OnceLock;
    static VALIDATOR: OnceLock<Option<jsonschema::Validator>> = OnceLock::new();
    let Some(validator) =
        VALIDATOR.get_or_init(|| jsonschema::draft7::new(&manifest_schema()).ok())
    else {
        return String::new();
    };
    let Ok(json) = toml::from_str::<serde_json::Value>(source) else {
        return String::new();
    };
    let mut others: Vec<(usize, String)> = Vec::new();
    for error in validator.iter_errors(&json) {
        let jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } =
            error.kind()
        else {
            continue;
        };
        let table: Vec<span::Seg> = error
            .instance_path()
            .segments()
            .map(|s| match s {
                jsonschema::paths::LocationSegment::Property(p) => p.as_ref().into(),
                jsonschema::paths::LocationSegment::Index(i) => i.into(),
            })
            .collect();
        for key in unexpected {
            let mut path = table.clone();
            path.push(key.as_str().into());
            let Some(at) = span::toml_key_span(source, &path) else {
                continue;
            };
            if said.as_ref().is_some_and(|s| s.start == at.start) {
                continue;
            }
            others.push((at.start, key.clone()));
        }
    }
    if others.is_empty() {
        return String::new();
    }
    others.sort();
    let line = |at: usize| source[..at].matches('\n').count() + 1;
    let listed: Vec<String> = others
        .iter()
        .map(|(at, key)| format!("`{key}` (line {})", line(*at)))
        .collect();
    let n = others.len();
    let keys = if n == 1 { "key" } else { "keys" };
    format!("; {n} more unknown {keys}: {}", listed.join(", "))
}

/// The manifest schema as pretty JSON with a trailing newline.
pub fn manifest_schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&manifest_schema()).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "id = \"x\"\nname = \"X\"\n";

    /// The error a manifest is refused with, as printed.
    fn refused(text: &str) -> String {
        Manifest::from_toml(text, "m.toml")
            .expect_err("refused")
            .to_string()
    }

    #[test]
    fn an_expansion_neither_takes_the_protocol_s_name_nor_requires_itself() {
        let e = refused("id = \"carc\"\nname = \"X\"\nversion = \"0.1.0\"\n");
        assert!(e.contains("m.toml:1:6: "), "{e}");
        assert!(e.contains("`carc` names the host's plugin protocol"), "{e}");
        let e = refused(&format!(
            "{HEAD}version = \"0.1.0\"\n[requires]\ncarc = \"^1.0\"\nx = \"*\"\n"
        ));
        assert!(e.contains("m.toml:6:"), "{e}");
        assert!(e.contains("`x` is this expansion's own id"), "{e}");
    }

    #[test]
    fn a_rule_or_a_tile_file_given_twice_is_located() {
        let rule = |extra: &str| {
            format!(
                "{HEAD}version = \"0.1.0\"\n[[rule]]\nid = \"r\"\npoint = \"figure-removal\"\n{extra}"
            )
        };
        let e = refused(&rule("[[rule]]\nid = \"r\"\npoint = \"figure-capture\"\n"));
        assert!(e.contains("m.toml:8:6: "), "{e}");
        assert!(e.contains("the rule `r` is declared twice"), "{e}");
        let e = refused(&rule("before = [\"x:r\"]\n"));
        assert!(e.contains("m.toml:7:11: "), "{e}");
        assert!(
            e.contains("`x:r` is this rule itself: a rule goes before other rules"),
            "{e}"
        );
        let e = refused(&format!(
            "{HEAD}version = \"0.1.0\"\ntiles = [\"a.toml\", \"b.toml\", \"a.toml\"]\n"
        ));
        assert!(e.contains("m.toml:4:30: "), "{e}");
        assert!(e.contains("the tile file `a.toml` is listed twice"), "{e}");
        // However it is written.
        let e = refused(&format!(
            "{HEAD}version = \"0.1.0\"\ntiles = [\"t/a.toml\", \"./t//a.toml\"]\n"
        ));
        assert!(e.contains("m.toml:4:22: "), "{e}");
        assert!(
            e.contains("the tile file `./t//a.toml` is listed twice (first as `t/a.toml`)"),
            "{e}"
        );
    }

    #[test]
    fn a_shape_that_is_none_says_which_shapes_there_are() {
        for (shape, column) in [
            ("\"edge\"", 9),
            ("\"round\"", 9),
            ("{ edge = {} }", 18),
            ("{ edge = { completes = 1 } }", 32),
        ] {
            let text =
                format!("{HEAD}version = \"0.1.0\"\n[[kind]]\nname = \"river\"\nshape = {shape}\n");
            let e = Manifest::from_toml(&text, "m.toml")
                .expect_err("refused")
                .to_string();
            assert!(e.contains(&format!("m.toml:6:{column}: ")), "{shape}: {e}");
            assert!(e.contains(SHAPES), "{shape}: {e}");
        }
        // A mistake after the shape on the same line is not about the shape.
        let text = format!(
            "{HEAD}version = \"0.1.0\"\nkind = [{{ name = \"x\", shape = \"surrounded\", tags = 3 }}]\n"
        );
        let e = refused(&text);
        assert!(!e.contains(SHAPES), "{e}");
        // Elsewhere the reader's own words stay.
        let text = format!("{HEAD}version = 1\n");
        let e = refused(&text);
        assert!(!e.contains(SHAPES), "{e}");
    }

    #[test]
    fn a_follower_counts_one_unless_its_strength_says_otherwise() {
        let text = format!(
            "{HEAD}version = \"0.1.0\"\n\
             [[figure]]\nname = \"wagon\"\nclass = \"follower\"\nper_player = 1\n\
             [[figure]]\nname = \"mayor\"\nclass = \"follower\"\nstrength = 0\n\
             [[figure]]\nname = \"large\"\nclass = \"follower\"\nstrength = 2\n\
             [[figure]]\nname = \"pig\"\nclass = \"special\"\n"
        );
        let m = Manifest::from_toml(&text, "m.toml").expect("valid");
        let strengths: Vec<u8> = m.figures.iter().map(|f| f.strength).collect();
        assert_eq!(strengths, [1, 0, 2, 0]);
    }

    #[test]
    fn every_problem_of_a_manifest_that_reads_is_said() {
        let text = format!(
            "{HEAD}version = \"x\"\n[[marker]]\nname = \"lamp\"\n\
             [looks.markers.lamp]\ncolour = \"yellow\"\nglyph = \"LAMP\"\n"
        );
        let problems = Manifest::from_toml_all(&text, "m.toml").expect_err("refused");
        let said: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
        assert_eq!(said.len(), 3, "{said:?}");
        assert!(said[0].contains("is not a semantic version"), "{said:?}");
        assert!(said[1].contains("`yellow` is not a colour"), "{said:?}");
        assert!(said[2].contains("`LAMP` is not a glyph"), "{said:?}");
        // `from_toml` says the first.
        let first = Manifest::from_toml(&text, "m.toml").expect_err("refused");
        assert_eq!(first.message, said[0]);
    }

    #[test]
    fn only_a_follower_has_a_strength() {
        let text = format!(
            "{HEAD}version = \"0.1.0\"\n[[figure]]\nname = \"pig\"\nclass = \"special\"\nstrength = 1\n"
        );
        let e = refused(&text);
        assert!(
            e.contains(
                "m.toml:7:12: error: `pig` is a special figure, and only followers count in \
                 majorities: leave its `strength` out (or make it a follower)"
            ),
            "{e}"
        );
    }

    #[test]
    fn looks_are_read() {
        let text = format!("{HEAD}[looks.markers.volcano]\ncolour = \"#c33\"\nglyph = \"V\"\n");
        let m = Manifest::from_toml(&text, "m.toml").expect("valid");
        let look = &m.looks.markers["volcano"];
        assert_eq!(look.colour.as_deref(), Some("#c33"));
        assert_eq!(look.glyph.as_deref(), Some("V"));
    }

    #[test]
    fn every_unknown_key_is_named_with_the_first() {
        // One: said alone.
        let e = refused(&format!("{HEAD}versoin = \"0.1.0\"\n"));
        assert!(
            e.contains("unknown key `versoin`") && !e.contains("more unknown"),
            "{e}"
        );
        // Three, at the top and in a table: the first stops the reading, the others are
        // named with their lines.
        let text = format!(
            "{HEAD}versoin = \"0.1.0\"\ntilez = []\n[[phase]]\nname = \"p\"\naftr = \"score\"\n"
        );
        let line = |key: &str| text.lines().position(|l| l.starts_with(key)).unwrap() + 1;
        let e = refused(&text);
        let named = ["versoin", "tilez", "aftr"]
            .iter()
            .filter(|k| e.contains(&format!("unknown key `{k}`")))
            .count();
        assert_eq!(named, 1, "{e}");
        let others: Vec<String> = ["versoin", "tilez", "aftr"]
            .iter()
            .filter(|k| !e.contains(&format!("unknown key `{k}`")))
            .map(|k| format!("`{k}` (line {})", line(k)))
            .collect();
        assert!(
            e.contains(&format!("; 2 more unknown keys: {}", others.join(", "))),
            "{e}"
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_is_said_in_words_of_the_file() {
        let text = format!(
            "{HEAD}version = \"0.1.0\"\n[[figure]]\nname = \"x\"\nclass = \"follower\"\nper_player = 256\n"
        );
        let e = refused(&text);
        assert!(e.contains("expected a whole number from 0 to 255"), "{e}");
        let text = format!("{HEAD}version = \"0.1.0\"\n[requires]\ncarc = [\"^1.0\"]\n");
        let e = refused(&text);
        assert!(e.contains("expected a string, found an array"), "{e}");
    }

    #[test]
    fn versions_follow_semantic_versioning() {
        for ok in ["1.2.0", "0.1.0", "1.2.3-beta.1+build"] {
            assert!(valid_version(ok), "{ok}");
        }
        for bad in [
            "1.0",
            "01.0.0",
            "1.0.0-",
            "1.0.0+",
            "18446744073709551616.0.0",
        ] {
            assert!(!valid_version(bad), "{bad}");
        }
        let e = semver::VersionReq::parse("^18446744073709551616").unwrap_err();
        assert!(
            semver_words(&e).ends_with("is too large"),
            "{}",
            semver_words(&e)
        );
    }

    #[test]
    fn the_base_games_id_is_not_an_expansions() {
        let text = HEAD.replacen("id = \"", "id = \"base\"\n# was: \"", 1);
        let e = refused(&text);
        assert!(e.contains("`base` is the base game's id"), "{e}");
    }

    #[test]
    fn a_bad_colour_is_located() {
        let text = format!("{HEAD}[looks.kinds.hut]\ncolour = \"brown\"\n");
        let e = refused(&text);
        assert!(e.contains("m.toml:4:"), "{e}");
        assert!(e.contains("`brown` is not a colour"), "{e}");
    }

    #[test]
    fn a_long_glyph_is_refused() {
        let text = format!("{HEAD}[looks.figures.dragon]\nglyph = \"DRAGON\"\n");
        let e = refused(&text);
        assert!(e.contains("is not a glyph"), "{e}");
    }

    #[test]
    fn glyphs() {
        for ok in ["D", "BY", "é", "🐉", "e\u{301}"] {
            assert!(valid_glyph(ok), "{ok}");
        }
        for bad in [
            "",
            "DRAG",
            " ",
            "a b",
            "\u{200b}",
            "\u{feff}",
            "\u{301}",
            "x\u{200d}",
        ] {
            assert!(!valid_glyph(bad), "{bad:?}");
        }
        let text = format!("{HEAD}[looks.figures.dragon]\nglyph = \"\\u200B\"\n");
        let e = refused(&text);
        assert!(e.contains("`\\u{200b}` is not a glyph"), "{e}");
    }

    #[test]
    fn colours() {
        for ok in ["#c33", "#C33", "#00ff7a"] {
            assert!(valid_colour(ok), "{ok}");
        }
        for bad in ["c33", "#c3", "#c333", "#gg0000", "", "#"] {
            assert!(!valid_colour(bad), "{bad}");
        }
    }
}
