//! The rules in force for a game: the enabled expansions (base first), their merged
//! declarations (vocabulary, tiles, figure kinds, phases, verbs) and option values.

use std::collections::BTreeMap;
use std::fmt;

use crate::engine::ArgKind;
use crate::expansion::{Expansion, Manifest};
use crate::figures::{
    Figure, FigureClass, FigureId, FigureKindDecl, FigureKindId, Location, NEUTRAL, NO_TILE,
    PlayerId,
};
use crate::manifest::PhaseDecl;
use crate::precedence::{self, Plan};
use crate::span::{self, Seg};
use crate::strength::{StrengthRule, strength_rules};
use crate::tiles::validate::Diagnostic;
use crate::tiles::vocab::KindId;
use crate::tiles::{TileSet, TileTypeId, Vocabulary};
use crate::wake::Wake;

/// Why a set of expansions or options could not be put together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// What is wrong.
    pub message: String,
    /// Where, when it is one expansion's declaration: the expansion's id and the path to
    /// the declaration in its manifest (`wake[2].when[0]`).
    pub at: Option<(String, Vec<Seg>)>,
}

impl RulesError {
    /// A problem of the set as a whole (or of the options given), located nowhere.
    pub fn new(message: impl Into<String>) -> RulesError {
        RulesError {
            message: message.into(),
            at: None,
        }
    }

    /// A problem with one declaration of expansion `id`'s manifest, at `path` in it.
    pub fn in_manifest(id: &str, path: Vec<Seg>, message: impl Into<String>) -> RulesError {
        RulesError {
            message: message.into(),
            at: Some((id.to_string(), path)),
        }
    }

    /// The problem located in expansion `id`'s manifest (`source`, read from `file`),
    /// when it is about one of that manifest's declarations.
    pub fn located_in(&self, id: &str, source: &str, file: &str) -> Option<Diagnostic> {
        let (at, path) = self.at.as_ref()?;
        (at == id).then(|| {
            Diagnostic::located(source, file, span::toml_span(source, path), &*self.message)
        })
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RulesError {}

/// A record verb with the expansion that handles it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verb {
    /// Record key.
    pub name: String,
    /// Argument shape.
    pub arg: ArgKind,
    /// Index of the owning expansion.
    pub owner: usize,
}

/// The decision point at which expansions change what a base-game feature is worth
/// when it is scored ([`Expansion::feature_worth`](crate::expansion::Expansion)); the
/// engine asks the expansions with a rule there, in its declared order.
pub const FEATURE_WORTH: &str = "feature-worth";

/// The decision point that orders the expansions' final scoring
/// ([`Expansion::final_scoring`](crate::expansion::Expansion)): after the base game's
/// (BASE-9), the expansions with a rule there score in its declared order, then those
/// without one, by id (protocol 1.4).
pub const FINAL_SCORING: &str = "final-scoring";

/// The order in which the expansions (by index in [`Rules::expansions`]) score at the
/// end: the base game first, then the expansions with a rule at [`FINAL_SCORING`] in its
/// resolved order (an expansion with more than one where its first stands: its final
/// scoring runs once), then the others by id, however they are listed. A plugin built
/// before the point was the engine's (1.4) may have used the name for its own rules: it
/// is ordered by them, never refused.
fn final_scoring_order(plan: &Plan, manifests: &[Manifest]) -> Vec<usize> {
    let mut order = vec![0];
    for id in plan.order(FINAL_SCORING) {
        let owner = id.split_once(':').map_or(id, |(owner, _)| owner);
        if let Some(expansion) = manifests.iter().position(|m| m.id == owner)
            && !order.contains(&expansion)
        {
            order.push(expansion);
        }
    }
    let mut rest: Vec<usize> = (1..manifests.len())
        .filter(|i| !order.contains(i))
        .collect();
    rest.sort_by(|&a, &b| manifests[a].id.cmp(&manifests[b].id));
    order.extend(rest);
    order
}

/// An expansion's rule at [`FEATURE_WORTH`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorthRule {
    /// The expansion, by its index in [`Rules::expansions`].
    pub expansion: usize,
    /// The feature kinds it claims: it is asked about features of these kinds only.
    pub kinds: Vec<KindId>,
}

/// The rules at an engine decision point where an expansion has one rule, claiming what
/// it is asked about, in their resolved order: each rule's expansion and its claims,
/// each turned into an id by `resolve` (or the words that follow the claim in the error:
/// `, which is not a feature kind of the game`). `asked_once_for`: why one rule
/// (`each feature scored`); `claims_hint`: what a rule claims, with an example.
pub(crate) fn claiming_rules<T>(
    plan: &Plan,
    manifests: &[Manifest],
    point: &str,
    asked_once_for: &str,
    claims_hint: &str,
    mut resolve: impl FnMut(&str) -> Result<T, String>,
) -> Result<Vec<(usize, Vec<T>)>, RulesError> {
    let mut rules: Vec<(usize, Vec<T>)> = Vec::new();
    for id in plan.order(point) {
        let (owner, name) = id.split_once(':').unwrap_or((id, ""));
        let Some(expansion) = manifests.iter().position(|m| m.id == owner) else {
            continue;
        };
        let m = &manifests[expansion];
        // The rule's entry in its manifest (`rule[j]`), and a key in it.
        let j = m
            .rules
            .iter()
            .position(|r| r.point == point && r.id == name);
        let at = |key: &[Seg]| {
            let mut path: Vec<Seg> = Vec::new();
            if let Some(j) = j {
                path = vec!["rule".into(), j.into()];
                path.extend_from_slice(key);
            }
            path
        };
        if rules.iter().any(|r| r.0 == expansion) {
            return Err(RulesError::in_manifest(
                owner,
                at(&[]),
                format!(
                    "expansion `{owner}` has more than one rule at `{point}`; it is asked \
                     once for {asked_once_for}, so it declares one"
                ),
            ));
        }
        let claims = j.map_or(&[][..], |j| &m.rules[j].claims[..]);
        if claims.is_empty() {
            return Err(RulesError::in_manifest(
                owner,
                at(&[]),
                format!("rule `{id}` at `{point}` claims nothing; it claims {claims_hint}"),
            ));
        }
        let resolved = claims
            .iter()
            .enumerate()
            .map(|(k, c)| {
                resolve(c).map_err(|why| {
                    RulesError::in_manifest(
                        owner,
                        at(&["claims".into(), k.into()]),
                        format!("rule `{id}` at `{point}` claims `{c}`{why}"),
                    )
                })
            })
            .collect::<Result<Vec<T>, RulesError>>()?;
        rules.push((expansion, resolved));
    }
    Ok(rules)
}

/// The rules at [`FEATURE_WORTH`] in their resolved order. Each claims feature kinds
/// (so that two rules changing what the same kind is worth must be ordered), and an
/// expansion has one rule there: it is asked once per feature.
fn worth_rules(
    plan: &Plan,
    manifests: &[Manifest],
    vocab: &Vocabulary,
) -> Result<Vec<WorthRule>, RulesError> {
    let rules = claiming_rules(
        plan,
        manifests,
        FEATURE_WORTH,
        "each feature scored",
        "the feature kinds whose worth it changes (`claims = [\"road\", \"city\"]`)",
        |c| {
            let bare = c.rsplit(':').next().unwrap_or(c);
            let kind = vocab.kind(c).map_err(|why| {
                if vocab.kinds.iter().any(|k| k.name == bare) {
                    format!(": {why}")
                } else {
                    ", which is not a feature kind of the game".to_string()
                }
            })?;
            if !crate::base::is_base_kind(kind) {
                return Err(", which the base game does not score: the rules there are \
                            asked about roads, cities, monasteries and fields"
                    .to_string());
            }
            Ok(kind)
        },
    )?;
    Ok(rules
        .into_iter()
        .map(|(expansion, kinds)| WorthRule { expansion, kinds })
        .collect())
}

/// A figure kind by name (`mayor`, or `<expansion>:mayor` when two expansions declare
/// one; the base game's namespace is `base`); `None` when none is, or a bare name is
/// two.
pub fn figure_kind_named(kinds: &[FigureKindDecl], name: &str) -> Option<usize> {
    let (ns, short) = match name.split_once(':') {
        Some((ns, short)) => (Some(ns), short),
        None => (None, name),
    };
    let mut found = kinds.iter().enumerate().filter(|(_, k)| {
        let own_ns = if k.namespace.is_empty() {
            "base"
        } else {
            k.namespace.as_str()
        };
        k.name == short && ns.is_none_or(|ns| ns == own_ns)
    });
    let (i, _) = found.next()?;
    // A bare name must be unambiguous.
    (ns.is_some() || found.next().is_none()).then_some(i)
}

/// Everything fixed for the length of a game.
pub struct Rules {
    /// Enabled expansions; index 0 is always the base game.
    pub expansions: Vec<Box<dyn Expansion>>,
    /// Their manifests, same order.
    pub manifests: Vec<Manifest>,
    /// Feature kinds and markers.
    pub vocab: Vocabulary,
    /// Every tile type.
    pub tiles: TileSet,
    /// Figure kinds; index 0 is the follower.
    pub figure_kinds: Vec<FigureKindDecl>,
    /// Phase names, in turn order.
    pub phases: Vec<String>,
    /// Record verbs.
    pub verbs: Vec<Verb>,
    /// Whether any figure kind returns with its owner's last follower (PD-9).
    pub has_dependents: bool,
    /// Per feature kind: whether no figure may stand there (tag `no-figures`); empty
    /// when no kind has the tag.
    pub no_figures: Vec<bool>,
    /// Whether any tile type is drawn from a stack other than 0 (see [`Rules::restack`]).
    pub stacked: bool,
    /// The resolved order of rules at every decision point.
    pub plan: Plan,
    /// The rules at [`FEATURE_WORTH`], in their order: each expansion's one, with the
    /// feature kinds it claims (it is asked only about features of those kinds).
    pub worth_rules: Vec<WorthRule>,
    /// The rules at [`FIGURE_STRENGTH`](crate::strength::FIGURE_STRENGTH), in their
    /// order: each expansion's one, with the follower kinds it claims (it is asked only
    /// about followers of those kinds).
    pub strength_rules: Vec<StrengthRule>,
    /// Every expansion by index, in the order in which they score at the end of the
    /// game: the base game first, then as the rules at [`FINAL_SCORING`] say.
    pub final_scoring: Vec<usize>,
    /// Per phase: which expansions use which hook there, one bit per expansion (the
    /// engine walks only those).
    pub hook_masks: Vec<HookMasks>,
    /// Per event kind: the expansions that want it, one bit per expansion.
    pub listeners: Vec<u64>,
    /// When the expansions' hooks can matter (the manifests' `[[wake]]`).
    pub wake: Wake,
    /// The index of the `place-tile` phase (asked about at every draw, BASE-4).
    pub place_phase: usize,
    /// The index of the `draw` phase, where another tile in the same turn begins.
    pub draw_phase: usize,
    /// The phases that run only when asked for in the turn (`PhaseDecl::on_request`),
    /// one bit per phase index.
    pub on_request: u64,
    /// Per tile type: what the expansions say about it (asked once).
    tile_flags: Vec<TileFlags>,
    /// Per figure kind: where its figures begin in a game's figure list, as
    /// `fixed + per_player × players` (see [`Rules::starting_figures`]).
    kind_start: Vec<(u32, u32)>,
    options: Vec<BTreeMap<String, String>>,
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rules")
            .field(
                "expansions",
                &self.manifests.iter().map(|m| &m.id).collect::<Vec<_>>(),
            )
            .field("phases", &self.phases)
            .finish()
    }
}

/// A rule option's key split into its expansion and option names (`princess-dragon` and
/// `dragon-move` of `princess-dragon.dragon-move`), or how it must be written.
pub fn option_key(key: &str) -> Result<(&str, &str), String> {
    key.split_once('.')
        .filter(|(e, n)| !e.is_empty() && !n.is_empty())
        .ok_or_else(|| {
            if key.is_empty() {
                "a rule option has no name: write it `<expansion>.<option>`".to_string()
            } else {
                format!("rule option `{key}` must be written `<expansion>.<option>`")
            }
        })
}

impl Rules {
    /// Puts tiles in draw order by their stacks (tile data's `stack`), lowest first,
    /// keeping the order of the tiles within a stack (shuffled before). `tiles` is in
    /// draw order when `drawn_from_end` is false, in the pile's order (the last drawn
    /// first) when it is true. Nothing moves when no tile has a stack of its own.
    pub fn restack(&self, tiles: &mut [TileTypeId], drawn_from_end: bool) {
        if !self.stacked {
            return;
        }
        let stack = |t: &TileTypeId| i32::from(self.tiles.tile(*t).stack);
        if drawn_from_end {
            tiles.sort_by_key(|t| std::cmp::Reverse(stack(t)));
        } else {
            tiles.sort_by_key(stack);
        }
    }

    /// Where `tile` may go back into `pile` (in the pile's order, the last drawn first,
    /// sorted by [`Rules::restack`]): the positions `from..=to` among the tiles of its own
    /// stack; anywhere (`0..=len`) when no tile has a stack of its own.
    pub fn stack_span(&self, pile: &[TileTypeId], tile: TileTypeId) -> (usize, usize) {
        if !self.stacked {
            return (0, pile.len());
        }
        let stack = |t: &TileTypeId| self.tiles.tile(*t).stack;
        let own = stack(&tile);
        // Higher stacks lie first (drawn last), then its own, then the lower ones.
        let from = pile.partition_point(|t| stack(t) > own);
        let to = pile.partition_point(|t| stack(t) >= own);
        (from, to.max(from))
    }

    /// The followers a player has in supply: every figure of the follower class (the base
    /// game's followers, and a large follower, mayor or wagon an expansion brings), as a
    /// record's `[expect] supply` counts them.
    pub fn followers_in_supply(&self, state: &crate::engine::GameState, player: u8) -> usize {
        state
            .figures
            .iter()
            .filter(|f| {
                f.owner == player
                    && f.at == crate::figures::Location::Supply
                    && self.is_follower(f.kind)
            })
            .count()
    }

    /// The kind of the feature at segment `node` when no figure may stand there (a kind
    /// tagged `no-figures`); `None` for any other feature, or a segment that does not
    /// exist (left to be refused where it is used).
    #[inline]
    pub fn barred(
        &self,
        graph: &crate::features::FeatureGraph,
        node: crate::features::NodeId,
    ) -> Option<KindId> {
        if self.no_figures.is_empty() || node as usize >= graph.len() {
            return None;
        }
        let kind = graph.node(node).kind;
        self.no_figures
            .get(usize::from(kind))
            .copied()
            .unwrap_or(false)
            .then_some(kind)
    }

    /// Whether figures of this kind are followers (they count in majorities and in a
    /// record's supply).
    #[inline]
    pub fn is_follower(&self, kind: crate::figures::FigureKindId) -> bool {
        self.figure_kinds.get(usize::from(kind)).map(|k| k.class)
            == Some(crate::figures::FigureClass::Follower)
    }

    /// Puts the expansions together (the first must be the base game) and sets rule
    /// options given as `"<expansion>.<option>" = value`.
    pub fn new(
        expansions: Vec<Box<dyn Expansion>>,
        options: &BTreeMap<String, String>,
    ) -> Result<Rules, RulesError> {
        let manifests: Vec<Manifest> = expansions.iter().map(|e| e.manifest()).collect();
        if manifests.first().map(|m| m.id.as_str()) != Some("base") {
            return Err(RulesError::new("the base game must be the first expansion"));
        }
        if manifests.len() > 64 {
            return Err(RulesError::new(format!(
                "{} expansions enabled; at most 64 (the base game included) may be",
                manifests.len()
            )));
        }
        for (i, m) in manifests.iter().enumerate() {
            if m.id.is_empty() {
                return Err(RulesError::new(
                    "an expansion has an empty id (is its manifest broken?)",
                ));
            }
            if manifests[..i].iter().any(|o| o.id == m.id) {
                return Err(RulesError::new(format!(
                    "expansion `{}` is enabled twice",
                    m.id
                )));
            }
        }
        let mut vocab = Vocabulary::base();
        let mut figure_kinds = Vec::new();
        let mut verbs: Vec<Verb> = Vec::new();
        for (i, m) in manifests.iter().enumerate() {
            vocab
                .add_declared(&m.kinds, &m.markers)
                .map_err(RulesError::new)?;
            figure_kinds.extend(m.figures.iter().cloned());
            for (j, v) in m.verbs.iter().enumerate() {
                if ["place", "at", "rotation", "follower", "pass"].contains(&v.name.as_str())
                    || verbs.iter().any(|o| o.name == v.name)
                {
                    return Err(RulesError::in_manifest(
                        &m.id,
                        vec!["verb".into(), j.into(), "name".into()],
                        format!(
                            "expansion `{}` declares the move `{}`, which is already taken",
                            m.id, v.name
                        ),
                    ));
                }
                verbs.push(Verb {
                    name: v.name.clone(),
                    arg: v.arg,
                    owner: i,
                });
            }
        }
        if figure_kinds.first().map(|f| f.name.as_str()) != Some("follower") {
            return Err(RulesError::new(
                "the base game must declare the follower first",
            ));
        }
        // Records write the deployment of a player's figure other than the follower as a
        // move named after its kind (`builder = [x, y, PORT]`): that name is a move too.
        let mut moves: Vec<&str> = ["place", "at", "rotation", "follower", "pass"].to_vec();
        moves.extend(verbs.iter().map(|v| v.name.as_str()));
        let declared = manifests
            .iter()
            .flat_map(|m| m.figures.iter().enumerate().map(move |(j, k)| (m, j, k)));
        for (m, j, k) in declared.skip(1) {
            if k.class == crate::figures::FigureClass::Neutral {
                continue;
            }
            if moves.contains(&k.name.as_str()) {
                return Err(RulesError::in_manifest(
                    &m.id,
                    vec!["figure".into(), j.into(), "name".into()],
                    format!(
                        "expansion `{}` declares the figure `{}`, whose deployments records \
                         write as the move `{}`, which is already taken",
                        m.id, k.name, k.name
                    ),
                ));
            }
            moves.push(&k.name);
        }
        let mut tiles = TileSet::default();
        for e in &expansions {
            for src in e.tile_sources() {
                tiles
                    .load_str(&src.text, &src.name, &vocab)
                    .map_err(|errs| {
                        RulesError::new(
                            errs.iter()
                                .map(|d| d.to_string())
                                .collect::<Vec<_>>()
                                .join("\n"),
                        )
                    })?;
            }
        }
        if tiles.start.is_none() {
            return Err(RulesError::new("no tile file names a start tile"));
        }
        let mut option_values: Vec<BTreeMap<String, String>> = manifests
            .iter()
            .map(|m| {
                m.options
                    .iter()
                    .map(|o| {
                        (
                            o.name.clone(),
                            o.values.first().cloned().unwrap_or_default(),
                        )
                    })
                    .collect()
            })
            .collect();
        for (key, value) in options {
            let (exp, name) = option_key(key).map_err(|why| {
                // A bare option name one enabled expansion has: its full name.
                let mut having = manifests
                    .iter()
                    .filter(|m| m.options.iter().any(|o| o.name == *key));
                match (having.next(), having.next()) {
                    (Some(m), None) => {
                        RulesError::new(format!("{why}; did you mean `{}.{key}`?", m.id))
                    }
                    _ => RulesError::new(why),
                }
            })?;
            let Some(i) = manifests.iter().position(|m| m.id == exp) else {
                return Err(RulesError::new(format!(
                    "rule option `{key}`: expansion `{exp}` is not enabled"
                )));
            };
            let Some(decl) = manifests[i].options.iter().find(|o| o.name == name) else {
                let known: Vec<&str> = manifests[i]
                    .options
                    .iter()
                    .map(|o| o.name.as_str())
                    .collect();
                return Err(RulesError::new(format!(
                    "unknown rule option `{key}` (`{exp}` has: {})",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            if !decl.values.contains(value) {
                let wrong = match value.as_str() {
                    "" => "is given no value".to_string(),
                    v => format!("cannot be `{v}`"),
                };
                return Err(RulesError::new(format!(
                    "rule option `{key}` {wrong} (allowed: {})",
                    decl.values.join(", ")
                )));
            }
            option_values[i].insert(name.to_string(), value.clone());
        }
        let (phases, on_request) = order_phases(&manifests, &option_values)?;
        let plan = precedence::resolve(&manifests).map_err(|errors| {
            // One error at one manifest's declaration is located there.
            match errors.as_slice() {
                [one] => match one.place(&manifests) {
                    Some((id, path)) => RulesError::in_manifest(&id, path, one.to_string()),
                    None => RulesError::new(one.to_string()),
                },
                _ => RulesError::new(
                    errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
            }
        })?;
        let worth_rules = worth_rules(&plan, &manifests, &vocab)?;
        let strength_rules = strength_rules(&plan, &manifests, &figure_kinds)?;
        let final_scoring = final_scoring_order(&plan, &manifests);
        let has_dependents = figure_kinds.iter().any(|k| {
            k.tags
                .iter()
                .any(|t| t == crate::engine::RETURNS_WITH_LAST_FOLLOWER)
        });
        let place_phase = phases.iter().position(|p| p == "place-tile").unwrap_or(0);
        let draw_phase = phases.iter().position(|p| p == "draw").unwrap_or(0);
        let mut kind_start = Vec::new();
        let (mut fixed, mut per_player) = (0, 0);
        for decl in &figure_kinds {
            kind_start.push((fixed, per_player));
            per_player += decl.per_player as u32;
            fixed += neutral_count(decl);
        }
        let wake = Wake::resolve(&manifests, &vocab)?;
        let mut rules = Rules {
            wake,
            hook_masks: Vec::new(),
            listeners: Vec::new(),
            tile_flags: Vec::new(),
            kind_start,
            place_phase,
            draw_phase,
            on_request,
            plan,
            worth_rules,
            strength_rules,
            final_scoring,
            has_dependents,
            no_figures: Vec::new(),
            stacked: false,
            expansions,
            manifests,
            vocab,
            tiles,
            figure_kinds,
            phases,
            verbs,
            options: option_values,
        };
        rules.stacked = rules.tiles.types.iter().any(|t| t.stack != 0);
        let no_figures = crate::tags::feature_kinds_tagged(&rules, crate::tags::NO_FIGURES);
        if no_figures.contains(&true) {
            rules.no_figures = no_figures;
        }
        // Each expansion is set up for these rules before any of its hooks is asked.
        for (i, e) in rules.expansions.iter().enumerate() {
            let id = &rules.manifests[i].id;
            declaring(id, "prepare", || e.prepare(&rules, i))?.map_err(|why| {
                RulesError::new(format!("expansion `{id}` could not be set up: {why}"))
            })?;
        }
        let (hook_masks, listeners) =
            hook_masks(&rules.phases, &rules.expansions, &rules.manifests)?;
        rules.hook_masks = hook_masks;
        rules.listeners = listeners;
        // Asked once here, so that no expansion code runs when a supply is built.
        let mut tile_flags = Vec::with_capacity(rules.tiles.types.len());
        for t in &rules.tiles.types {
            let mut flags = TileFlags {
                in_supply: true,
                may_redraw: false,
                watchers: 0,
            };
            for (e, x) in rules.expansions.iter().enumerate() {
                let declared =
                    |hook: &str, f: &dyn Fn() -> bool| declaring(&rules.manifests[e].id, hook, f);
                if e < 64 && declared("watches_tile", &|| x.watches_tile(&rules, e, t))? {
                    flags.watchers |= 1 << e;
                }
                if declared("excludes_tile", &|| x.excludes_tile(&rules, e, t))? {
                    flags.in_supply = false;
                }
                if declared("may_redraw", &|| x.may_redraw(&rules, e, t))? {
                    flags.may_redraw = true;
                }
            }
            tile_flags.push(flags);
        }
        rules.tile_flags = tile_flags;
        Ok(rules)
    }

    /// The value of an expansion's option (the default unless set).
    pub fn option(&self, expansion: usize, name: &str) -> &str {
        self.options
            .get(expansion)
            .and_then(|o| o.get(name))
            .map_or("", |s| s.as_str())
    }

    /// All option values of an expansion.
    pub fn options_of(&self, expansion: usize) -> &BTreeMap<String, String> {
        &self.options[expansion]
    }

    /// Index of an enabled expansion by id.
    pub fn expansion_index(&self, id: &str) -> Option<usize> {
        self.manifests.iter().position(|m| m.id == id)
    }

    /// Whether a tile type is in this game's supply (no expansion's options exclude it).
    pub fn in_supply(&self, tile: TileTypeId) -> bool {
        self.tile_flags
            .get(tile as usize)
            .is_some_and(|f| f.in_supply)
    }

    /// Whether a drawn tile of this type may go back into the supply and be drawn again
    /// (see [`Expansion::may_redraw`]).
    pub fn may_redraw(&self, tile: TileTypeId) -> bool {
        self.tile_flags
            .get(tile as usize)
            .is_some_and(|f| f.may_redraw)
    }

    /// The expansions that events about tiles of this type concern, one bit per expansion
    /// (see [`Expansion::watches_tile`]).
    #[inline]
    pub fn tile_watchers(&self, tile: TileTypeId) -> u64 {
        self.tile_flags
            .get(tile as usize)
            .map_or(u64::MAX, |f| f.watchers)
    }

    /// Copies of a tile type in the full supply (the start tile's copy not counted).
    pub fn supply_count(&self, tile: TileTypeId) -> usize {
        if !self.in_supply(tile) {
            return 0;
        }
        let n = self.tiles.tile(tile).count as usize;
        n - usize::from(self.tiles.start == Some(tile) && n > 0)
    }

    /// The full supply: every copy of every tile, less the start tile, in tile-type order.
    pub fn full_supply(&self) -> Vec<TileTypeId> {
        let mut out = Vec::new();
        for (i, t) in self.tiles.types.iter().enumerate() {
            if !self.in_supply(i as TileTypeId) {
                continue;
            }
            let mut n = t.count;
            if self.tiles.start == Some(i as TileTypeId) {
                n = n.saturating_sub(1);
            }
            out.extend(std::iter::repeat_n(i as TileTypeId, n as usize));
        }
        out
    }

    /// Every figure of a game with `players` players, where it starts: kind by kind, each
    /// player's figures in seat order, then the kind's neutral figures (off the board).
    /// [`Rules::neutral_figure`] relies on this layout.
    pub fn starting_figures(&self, players: usize) -> Vec<Figure> {
        let mut figures = Vec::new();
        for (k, decl) in self.figure_kinds.iter().enumerate() {
            for p in 0..players {
                for _ in 0..decl.per_player {
                    figures.push(Figure {
                        kind: k as FigureKindId,
                        owner: p as PlayerId,
                        at: Location::Supply,
                        tile: NO_TILE,
                        moves: 0,
                    });
                }
            }
            for _ in 0..neutral_count(decl) {
                figures.push(Figure {
                    kind: k as FigureKindId,
                    owner: NEUTRAL,
                    at: Location::OffBoard,
                    tile: NO_TILE,
                    moves: 0,
                });
            }
        }
        figures
    }

    /// The first neutral figure of `kind` (the dragon, the fairy) in a game with `players`
    /// players, found without a search (see [`Rules::starting_figures`]).
    #[inline]
    pub fn neutral_figure(&self, kind: FigureKindId, players: usize) -> Option<FigureId> {
        let decl = self.figure_kinds.get(kind as usize)?;
        if neutral_count(decl) == 0 {
            return None;
        }
        let first = self
            .player_figures(kind, players as PlayerId, players)
            .start;
        FigureId::try_from(first).ok()
    }

    /// The figures of `kind` that `player` starts with, as a range of figure ids, found
    /// without a search (see [`Rules::starting_figures`]). With `player` = `players` it is
    /// where the kind's neutral figures begin.
    #[inline]
    pub fn player_figures(
        &self,
        kind: FigureKindId,
        player: PlayerId,
        players: usize,
    ) -> std::ops::Range<usize> {
        let Some(&(fixed, per_player)) = self.kind_start.get(kind as usize) else {
            return 0..0;
        };
        let own = self.figure_kinds[kind as usize].per_player as usize;
        let start = fixed as usize + per_player as usize * players + own * player as usize;
        start..start + own
    }

    /// Whether a feature kind carries a declared tag.
    pub fn kind_has_tag(&self, kind: crate::tiles::KindId, tag: &str) -> bool {
        self.vocab
            .kinds
            .get(kind as usize)
            .is_some_and(|k| k.tags.iter().any(|t| t == tag))
    }

    /// Index of a phase by name.
    pub fn phase_index(&self, name: &str) -> Option<usize> {
        self.phases.iter().position(|p| p == name)
    }

    /// A record verb by name.
    pub fn verb(&self, name: &str) -> Option<(u8, &Verb)> {
        self.verbs
            .iter()
            .enumerate()
            .find(|(_, v)| v.name == name)
            .map(|(i, v)| (i as u8, v))
    }

    /// The key a record writes an action with: `place`, `follower`, `pass`, a figure
    /// kind's name (`builder`) or a verb's (`fairy`); `None` for a figure kind or verb no
    /// expansion declares.
    pub fn move_key(&self, action: &crate::engine::Action) -> Option<&str> {
        use crate::engine::Action;
        match *action {
            Action::Place { .. } => Some("place"),
            Action::Pass => Some("pass"),
            Action::Deploy { figure, .. } if figure == crate::figures::FOLLOWER => Some("follower"),
            Action::Deploy { figure, .. } => self
                .figure_kinds
                .get(figure as usize)
                .map(|k| k.name.as_str()),
            Action::Verb { verb, .. } => self.verbs.get(verb as usize).map(|v| v.name.as_str()),
        }
    }
}

/// The turn's phases: the base game's, with each expansion's inserted after or before
/// the phase it names (of several named, after the last in the turn or before the
/// first), and which of them run only on request (one bit per phase index); phases
/// declared for an option value are left out under other values. Phases are placed in
/// rounds: in each, those whose named phases were all placed in earlier rounds, the base
/// game's first, then by expansion id and in declaration order, so that the turn does
/// not depend on the order the expansions are listed in.
fn order_phases(
    manifests: &[Manifest],
    options: &[BTreeMap<String, String>],
) -> Result<(Vec<String>, u64), RulesError> {
    // The phases of the turn, each with its expansion (index, id).
    let mut pending: Vec<(usize, &str, &PhaseDecl)> = Vec::new();
    for (i, (m, opts)) in manifests.iter().zip(options).enumerate() {
        for p in &m.phases {
            if let Some(w) = &p.when
                && opts.get(&w.option) != Some(&w.value)
            {
                continue;
            }
            if pending.iter().any(|(_, _, q)| q.name == p.name) {
                return Err(RulesError::in_manifest(
                    &m.id,
                    phase_path(manifests, &m.id, p, "name"),
                    format!(
                        "expansion `{}` adds the phase `{}`, which already exists",
                        m.id, p.name
                    ),
                ));
            }
            pending.push((i, &m.id, p));
        }
    }
    let names: Vec<&str> = pending.iter().map(|(_, _, p)| p.name.as_str()).collect();
    for (_, id, p) in &pending {
        if let Some(anchor) = p.after.as_ref().or(p.before.as_ref())
            && next_to(p, &names).is_empty()
        {
            let named: Vec<String> = anchor.names().iter().map(|n| format!("`{n}`")).collect();
            // A near phase name, as a misspelling would be (`scoring` for `score`).
            let near = match anchor.names() {
                [one] => crate::tiles::validate::nearest(one, names.iter().copied(), 3)
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            let what = match named.as_slice() {
                [one] => format!("{one}, which is not a phase of the turn{near}"),
                _ => format!(
                    "{}, none of which is a phase of the turn",
                    crate::turnlog::and_list(&named).replace(" and ", " or ")
                ),
            };
            let key = if p.after.is_some() { "after" } else { "before" };
            return Err(RulesError::in_manifest(
                id,
                phase_path(manifests, id, p, key),
                format!(
                    "expansion `{id}` places the phase `{}` next to {what}",
                    p.name
                ),
            ));
        }
    }
    // The base game first (its phases are the turn everything else is placed in), then
    // by expansion id; each expansion's phases in declaration order (a stable sort).
    pending.sort_by_key(|&(i, id, _)| (i != 0, id));
    let mut phases: Vec<String> = Vec::new();
    let mut requested_only: Vec<&str> = Vec::new();
    // Where each added phase was placed: (`after` / `before`, the phase it went next to,
    // which expansion, the phase). Two expansions placing phases at the same place with
    // nothing between them would be ordered by their ids: an ambiguity.
    let mut placed: Vec<(&str, String, &str, &str)> = Vec::new();
    let mut left = pending;
    while !left.is_empty() {
        let earlier = phases.clone();
        let (ready, waiting): (Vec<_>, Vec<_>) = left.into_iter().partition(|(_, _, p)| {
            next_to(p, &names)
                .iter()
                .all(|n| earlier.iter().any(|e| e == n))
        });
        if ready.is_empty() {
            return Err(circle(&waiting, &phases, &names));
        }
        for (_, id, p) in ready {
            let at = |n: &&str| phases.iter().position(|x| x == n).expect("placed earlier");
            let anchors = next_to(p, &names);
            let (place, index) = if p.after.is_some() {
                let last = anchors.iter().map(at).max().expect("next to a phase");
                (("after", phases[last].clone()), last + 1)
            } else if p.before.is_some() {
                let first = anchors.iter().map(at).min().expect("next to a phase");
                (("before", phases[first].clone()), first)
            } else {
                (("at the end of", "the turn".to_string()), phases.len())
            };
            if let Some((_, _, other, other_phase)) = placed
                .iter()
                .find(|x| (x.0, &x.1) == (place.0, &place.1) && x.2 != id && x.2 != "base")
            {
                // The fix, written out for the phase placed last: name the other phase
                // beside its anchor (a list of phases is protocol 1.5).
                let fix = match place.0 {
                    "after" | "before" => format!(
                        " (for example `{0} = [\"{1}\", \"{other_phase}\"]` in the phase \
                         `{2}` of `{id}`'s manifest, or `{0} = [\"{1}\", \"{2}\"]` in the \
                         phase `{other_phase}` of `{other}`'s; a list of phases asks for \
                         `carc = \"^1.5\"`)",
                        place.0, place.1, p.name
                    ),
                    _ => String::new(),
                };
                // Between two manifests: located in neither (the fix is in either).
                return Err(RulesError::new(format!(
                    "the phases `{other_phase}` (expansion `{other}`) and `{}` (expansion \
                     `{id}`) are both placed {} `{}`, and nothing orders them: one of the \
                     expansions must place its phase after (or before) the other's{fix}",
                    p.name, place.0, place.1
                )));
            }
            placed.push((place.0, place.1, id, &p.name));
            phases.insert(index, p.name.clone());
            if p.on_request {
                requested_only.push(&p.name);
            }
        }
        left = waiting;
    }
    if phases.len() > u8::MAX as usize {
        return Err(RulesError::new(format!(
            "the turn has {} phases; at most {} are allowed",
            phases.len(),
            u8::MAX
        )));
    }
    let mut on_request = 0u64;
    for name in requested_only {
        let i = phases.iter().position(|p| p == name).unwrap_or(0);
        if i >= 64 {
            return Err(RulesError::new(format!(
                "the phase `{name}` runs on request but is phase {} of the turn; only the \
                 first 64 phases may run on request",
                i + 1
            )));
        }
        on_request |= 1 << i;
    }
    Ok((phases, on_request))
}

/// Where phase `p` of expansion `id` is declared in its manifest: at its `key`.
fn phase_path(manifests: &[Manifest], id: &str, p: &PhaseDecl, key: &str) -> Vec<Seg> {
    let index = manifests
        .iter()
        .filter(|m| m.id == id)
        .find_map(|m| m.phases.iter().position(|q| std::ptr::eq(q, p)));
    match index {
        Some(j) => vec!["phase".into(), j.into(), key.into()],
        None => Vec::new(),
    }
}

/// The phases of the turn (`names`) a phase is placed next to: after, or else before
/// (none: at the end of the turn).
fn next_to<'a>(p: &'a PhaseDecl, names: &[&str]) -> Vec<&'a str> {
    p.after
        .as_ref()
        .or(p.before.as_ref())
        .map(|a| {
            a.names()
                .iter()
                .map(String::as_str)
                .filter(|n| names.contains(n))
                .collect()
        })
        .unwrap_or_default()
}

/// Why phases that wait on one another cannot be placed: the circle they form (a phase
/// named by itself, or several naming one another), found by following from the first
/// waiting phase the phase it waits on.
fn circle(waiting: &[(usize, &str, &PhaseDecl)], placed: &[String], names: &[&str]) -> RulesError {
    let waits_on = |p: &PhaseDecl| {
        let named = next_to(p, names);
        let name = named.into_iter().find(|n| !placed.iter().any(|x| x == n));
        waiting
            .iter()
            .position(|(_, _, q)| Some(q.name.as_str()) == name)
            .unwrap_or(0)
    };
    let mut path = vec![0];
    let start = loop {
        let next = waits_on(waiting[*path.last().unwrap_or(&0)].2);
        if let Some(at) = path.iter().position(|&i| i == next) {
            break at;
        }
        path.push(next);
    };
    let members: Vec<String> = path[start..]
        .iter()
        .map(|&i| format!("`{}` (expansion `{}`)", waiting[i].2.name, waiting[i].1))
        .collect();
    RulesError::new(match members.as_slice() {
        [one] => format!("the phase {one} is placed next to itself"),
        _ => format!(
            "the phases {} are placed next to one another in a circle: none can be placed \
             first",
            crate::turnlog::and_list(&members)
        ),
    })
}

/// How many neutral figures of a kind a game has (only neutral kinds have any).
fn neutral_count(decl: &FigureKindDecl) -> u32 {
    if decl.class == FigureClass::Neutral {
        decl.neutral as u32
    } else {
        0
    }
}

/// Which expansions use each hook in one phase, one bit per expansion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HookMasks {
    /// [`crate::expansion::Hooks::enter`]
    pub enter: u64,
    /// [`crate::expansion::Hooks::actions`]
    pub actions: u64,
    /// [`crate::expansion::Hooks::restricts`]
    pub restricts: u64,
    /// [`crate::expansion::Hooks::figure_step`]
    pub figure_step: u64,
}

/// The expansions whose bits are set in `mask`, in ascending order.
#[inline]
pub fn each_bit(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// What the enabled expansions say about one tile type.
#[derive(Clone, Copy, Debug, Default)]
struct TileFlags {
    /// No expansion's options exclude it ([`Expansion::excludes_tile`]).
    in_supply: bool,
    /// Some expansion may put it back to be drawn again ([`Expansion::may_redraw`]).
    may_redraw: bool,
    /// One bit per expansion that watches it ([`Expansion::watches_tile`]).
    watchers: u64,
}

/// Runs one of expansion `id`'s declarations (`hook`); a panic is an error naming both.
fn declaring<R>(id: &str, hook: &str, f: impl FnOnce() -> R) -> Result<R, RulesError> {
    crate::shield::caught(f).map_err(|why| {
        RulesError::new(format!(
            "expansion `{id}` panicked in `{hook}` while the rules were put together ({why})"
        ))
    })
}

/// Per phase, which expansions use which hook there; per event kind, which expansions
/// want it (one bit per expansion), as the expansions declare.
fn hook_masks(
    phases: &[String],
    expansions: &[Box<dyn Expansion>],
    manifests: &[Manifest],
) -> Result<(Vec<HookMasks>, Vec<u64>), RulesError> {
    let hooks: Vec<Vec<crate::expansion::Hooks>> = phases
        .iter()
        .map(|p| {
            expansions
                .iter()
                .zip(manifests)
                .map(|(e, m)| declaring(&m.id, "hooks_in", || e.hooks_in(p)))
                .collect::<Result<_, _>>()
        })
        .collect::<Result<_, _>>()?;
    let events: Vec<crate::expansion::EventKinds> = expansions
        .iter()
        .zip(manifests)
        .map(|(e, m)| declaring(&m.id, "events", || e.events()))
        .collect::<Result<_, _>>()?;
    let hook_masks = hooks
        .iter()
        .map(|per| {
            let mask = |f: fn(&crate::expansion::Hooks) -> bool| {
                per.iter()
                    .enumerate()
                    .filter(|(_, h)| f(h))
                    .fold(0u64, |m, (i, _)| m | 1 << i)
            };
            HookMasks {
                enter: mask(|h| h.enter),
                actions: mask(|h| h.actions),
                restricts: mask(|h| h.restricts),
                figure_step: mask(|h| h.actions && h.figure_step),
            }
        })
        .collect();
    let listeners = (0..32u32)
        .map(|kind| {
            events
                .iter()
                .enumerate()
                .filter(|(_, e)| e.0 >> kind & 1 == 1)
                .fold(0u64, |m, (i, _)| m | 1 << i)
        })
        .collect();
    Ok((hook_masks, listeners))
}
