//! What the expansion registers (markers, figures, phases, moves, options) and the
//! indices those names get in a particular game.

use carc_core::engine::{ArgKind, VerbId};
use carc_core::expansion::{Manifest, PhaseDecl, RuleOptionDecl, VerbDecl};
use carc_core::figures::{FigureClass, FigureKindDecl, FigureKindId};
use carc_core::rules::Rules;
use carc_core::tiles::MarkerId;
use carc_core::tiles::vocab::MarkerDecl;

use crate::ID;

/// The phase of the dragon's movement.
pub const DRAGON_PHASE: &str = "dragon-move";
/// Steps in one dragon movement (PD-5).
pub const DRAGON_STEPS: i64 = 6;
/// The tag of figures the dragon eats (PD-8: "anything of flesh and blood").
pub const EDIBLE: &str = "flesh-and-blood";
/// The tag of places that keep figures safe from the dragon (PD-8, X-5).
pub const SHELTER: &str = "shelter";

/// Option names (PD-OPT-1 … PD-OPT-6).
pub mod opt {
    /// PD-OPT-1
    pub const DRAGON_MOVE: &str = "dragon-move";
    /// PD-OPT-2
    pub const PRINCESS: &str = "princess";
    /// PD-OPT-3
    pub const FAIRY_PLACEMENT: &str = "fairy-placement";
    /// PD-OPT-4
    pub const DRAGON_TILES: &str = "dragon-tiles-before-volcano";
    /// PD-OPT-5
    pub const FAIRY_BONUS: &str = "fairy-bonus";
    /// PD-OPT-6
    pub const FAIRY_BLOCKS: &str = "fairy-blocks-dragon";
}

/// The declarations.
pub fn manifest() -> Manifest {
    let marker = |name: &str| MarkerDecl {
        namespace: ID.into(),
        name: name.into(),
    };
    let neutral = |name: &str| FigureKindDecl {
        namespace: ID.into(),
        name: name.into(),
        class: FigureClass::Neutral,
        strength: 0,
        per_player: 0,
        neutral: 1,
        tags: vec![],
    };
    let option = |name: &str, values: &[&str], doc: &str| RuleOptionDecl {
        name: name.into(),
        values: values.iter().map(|v| v.to_string()).collect(),
        doc: doc.into(),
    };
    let dragon_phase = |after: &str, value: &str| PhaseDecl {
        name: DRAGON_PHASE.into(),
        after: Some(after.into()),
        before: None,
        when: Some((opt::DRAGON_MOVE.into(), value.into())),
    };
    Manifest {
        id: ID.into(),
        name: "The Princess and the Dragon".into(),
        kinds: vec![],
        markers: ["volcano", "dragon", "portal", "princess", "tunnel"]
            .into_iter()
            .map(marker)
            .collect(),
        figures: vec![neutral("dragon"), neutral("fairy")],
        phases: vec![
            dragon_phase("deploy", "before-scoring"),
            dragon_phase("score", "after-scoring"),
        ],
        verbs: vec![
            VerbDecl {
                name: "fairy".into(),
                arg: ArgKind::Feature,
            },
            VerbDecl {
                name: "princess".into(),
                arg: ArgKind::Feature,
            },
            VerbDecl {
                name: "dragon".into(),
                arg: ArgKind::Side,
            },
        ],
        options: vec![
            option(
                opt::DRAGON_MOVE,
                &["before-scoring", "after-scoring"],
                "when the dragon moves after a dragon tile: before completed features score (HiG) or after (RGG Big Box)",
            ),
            option(
                opt::PRINCESS,
                &["may", "must"],
                "whether a princess tile joined to a city with knights may or must remove one",
            ),
            option(
                opt::FAIRY_PLACEMENT,
                &["next-to-follower", "on-tile"],
                "the fairy stands next to one follower (HiG) or on a tile, for every follower there (RGG/ZMG)",
            ),
            option(
                opt::DRAGON_TILES,
                &["set-aside", "reshuffle"],
                "a dragon tile drawn before the first volcano is set aside, or put back into the supply",
            ),
            option(
                opt::FAIRY_BONUS,
                &["standard", "five-on-completion"],
                "1 point per turn and 3 per scored feature, or no turn point and 5 per completed feature",
            ),
            option(
                opt::FAIRY_BLOCKS,
                &["entry", "eating-only"],
                "the dragon may not enter the fairy's tile, or may enter it but eats nothing there",
            ),
        ],
    }
}

/// This expansion's names resolved to indices in one game's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ids {
    /// Index of the expansion in the rules.
    pub me: usize,
    /// The dragon figure kind.
    pub dragon: FigureKindId,
    /// The fairy figure kind.
    pub fairy: FigureKindId,
    /// Markers.
    pub volcano: MarkerId,
    /// The dragon symbol.
    pub dragon_symbol: MarkerId,
    /// The magic portal.
    pub portal: MarkerId,
    /// The princess (on a city).
    pub princess: MarkerId,
    /// Record verbs.
    pub fairy_verb: VerbId,
    /// `princess`
    pub princess_verb: VerbId,
    /// `dragon`
    pub dragon_verb: VerbId,
    /// The rule options, read once.
    pub options: Options,
    /// Per figure kind: whether the dragon eats it (declared tag [`EDIBLE`]).
    pub edible: Vec<bool>,
    /// Per feature kind: whether figures there are safe (declared tag [`SHELTER`]).
    pub shelter: Vec<bool>,
}

/// The option values of one game, decoded (PD-OPT-1 … PD-OPT-6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// PD-OPT-1 `after-scoring`.
    pub dragon_after_scoring: bool,
    /// PD-OPT-2 `must`.
    pub princess_must: bool,
    /// PD-OPT-3 `on-tile`.
    pub fairy_on_tile: bool,
    /// PD-OPT-4 `reshuffle`.
    pub reshuffle_dragon_tiles: bool,
    /// PD-OPT-5 `five-on-completion`.
    pub fairy_five: bool,
    /// PD-OPT-6 `eating-only`.
    pub fairy_blocks_eating_only: bool,
}

impl Ids {
    /// Looks the names up in the rules (they were registered from [`manifest`]).
    pub fn resolve(rules: &Rules) -> Ids {
        let figure = |name: &str| {
            rules
                .figure_kinds
                .iter()
                .position(|k| k.namespace == ID && k.name == name)
                .unwrap_or(usize::MAX) as FigureKindId
        };
        let marker = |name: &str| {
            rules
                .vocab
                .marker(&format!("{ID}:{name}"))
                .unwrap_or(MarkerId::MAX)
        };
        let verb = |name: &str| rules.verb(name).map_or(VerbId::MAX, |(v, _)| v);
        let me = rules.expansion_index(ID).unwrap_or(usize::MAX);
        let is = |name: &str, value: &str| rules.option(me, name) == value;
        Ids {
            edible: rules
                .figure_kinds
                .iter()
                .map(|k| k.tags.iter().any(|t| t == EDIBLE))
                .collect(),
            shelter: rules
                .vocab
                .kinds
                .iter()
                .map(|k| k.tags.iter().any(|t| t == SHELTER))
                .collect(),
            me,
            options: Options {
                dragon_after_scoring: is(opt::DRAGON_MOVE, "after-scoring"),
                princess_must: is(opt::PRINCESS, "must"),
                fairy_on_tile: is(opt::FAIRY_PLACEMENT, "on-tile"),
                reshuffle_dragon_tiles: is(opt::DRAGON_TILES, "reshuffle"),
                fairy_five: is(opt::FAIRY_BONUS, "five-on-completion"),
                fairy_blocks_eating_only: is(opt::FAIRY_BLOCKS, "eating-only"),
            },
            dragon: figure("dragon"),
            fairy: figure("fairy"),
            volcano: marker("volcano"),
            dragon_symbol: marker("dragon"),
            portal: marker("portal"),
            princess: marker("princess"),
            fairy_verb: verb("fairy"),
            princess_verb: verb("princess"),
            dragon_verb: verb("dragon"),
        }
    }
}
