//! What the expansion registers (markers, figures, phases, moves, options) and the
//! indices those names get in a particular game.

use carc_core::engine::VerbId;
use carc_core::expansion::{Ctx, Manifest};
use carc_core::figures::{FigureClass, FigureId, FigureKindId, NEUTRAL};
use carc_core::rules::Rules;
use carc_core::tags;
use carc_core::tiles::{KindShape, MarkerId, TileTypeId};

use crate::ID;

/// The phase of the dragon's movement.
pub const DRAGON_PHASE: &str = "dragon-move";
/// The dragon symbol's full marker name (PD-7: such tiles wait for the volcano).
pub const DRAGON_SYMBOL_MARKER: &str = "princess-dragon:dragon";
/// The volcano's full marker name (PD-2).
pub const VOLCANO_MARKER: &str = "princess-dragon:volcano";

/// Steps in one dragon movement (PD-5).
pub const DRAGON_STEPS: i64 = 6;

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

/// The manifest as shipped.
pub const MANIFEST_TOML: &str = include_str!("../manifest.toml");

/// The declarations, from `manifest.toml`.
pub fn manifest() -> Manifest {
    // The file is part of the crate and checked by its tests; a broken one is a build
    // defect, reported as an empty manifest the host refuses to load.
    Manifest::from_toml(MANIFEST_TOML, "plugins/princess-dragon/manifest.toml").unwrap_or_default()
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
    /// Per figure kind: whether the dragon eats it (PD-8: declared `flesh-and-blood`).
    pub edible: Vec<bool>,
    /// Per feature kind: whether figures there are safe (declared `shelter`).
    pub shelter: Vec<bool>,
    /// Per tile type: what it carries ([`Ids::VOLCANO`], [`Ids::DRAGON_SYMBOL`],
    /// [`Ids::PORTAL`], [`Ids::PRINCESS`] bits).
    pub tile_marks: Vec<u8>,
    /// The dragon's and the fairy's figure ids, by number of players (0 … 7).
    pub neutrals: [(Option<FigureId>, Option<FigureId>); 8],
    /// Per feature kind: whether it is complete once closed (roads, cities); indexed by
    /// kind id, so that every id has an entry.
    pub kind_closes: [bool; 256],
    /// Per feature kind: whether it is complete once surrounded (monasteries).
    pub kind_surrounded: [bool; 256],
    /// The index of the deploy phase (the figure step) in the rules' phases.
    pub deploy_phase: usize,
    /// The index of the dragon's phase.
    pub dragon_phase: usize,
    /// Whether an expansion other than the base game and this one offers moves in the
    /// deploy phase (PD-3 must then look at all of them).
    pub others_offer_deploys: bool,
    /// The figure kinds that are followers (PD-11: the fairy stands next to a follower).
    pub follower_kinds: Vec<FigureKindId>,
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
    /// A volcano (PD-2).
    pub const VOLCANO: u8 = 1;
    /// The dragon symbol (PD-4).
    pub const DRAGON_SYMBOL: u8 = 2;
    /// The magic portal (PD-16).
    pub const PORTAL: u8 = 4;
    /// A princess on a city (PD-17).
    pub const PRINCESS: u8 = 8;

    /// Whether the game is in the deploy phase (the figure step).
    #[inline]
    pub fn in_deploy_phase(&self, ctx: &Ctx) -> bool {
        ctx.state.turn.phase as usize == self.deploy_phase
    }

    /// Whether the game is in the dragon's phase.
    #[inline]
    pub fn in_dragon_phase(&self, ctx: &Ctx) -> bool {
        ctx.state.turn.phase as usize == self.dragon_phase
    }

    /// Whether tiles of this type carry `mark` (one of the bits above).
    #[inline]
    pub fn tile_is(&self, tile: TileTypeId, mark: u8) -> bool {
        self.tile_marks
            .get(tile as usize)
            .is_some_and(|&m| m & mark != 0)
    }

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
        let follower_kinds = (0..rules.figure_kinds.len())
            .filter(|&k| rules.figure_kinds[k].class == FigureClass::Follower)
            .map(|k| k as FigureKindId)
            .collect();
        let princess = marker("princess");
        let dragon_symbol = rules
            .vocab
            .marker(DRAGON_SYMBOL_MARKER)
            .unwrap_or(MarkerId::MAX);
        let (volcano, portal) = (marker("volcano"), marker("portal"));
        let tile_marks = rules
            .tiles
            .types
            .iter()
            .map(|t| {
                let bit = |has: bool, b: u8| if has { b } else { 0 };
                bit(t.has_marker(volcano), Ids::VOLCANO)
                    | bit(t.has_marker(dragon_symbol), Ids::DRAGON_SYMBOL)
                    | bit(t.has_marker(portal), Ids::PORTAL)
                    | bit(
                        t.features.iter().any(|f| f.markers.contains(&princess)),
                        Ids::PRINCESS,
                    )
            })
            .collect();
        let (dragon, fairy) = (figure("dragon"), figure("fairy"));
        let neutrals = std::array::from_fn(|players| {
            let figures = rules.starting_figures(players);
            let id = |kind| {
                rules.neutral_figure(kind, players).filter(|&f| {
                    figures
                        .get(f as usize)
                        .is_some_and(|fig| fig.kind == kind && fig.owner == NEUTRAL)
                })
            };
            (id(dragon), id(fairy))
        });
        let deploy_phase = rules.phase_index("deploy").unwrap_or(usize::MAX);
        let dragon_phase = rules.phase_index(DRAGON_PHASE).unwrap_or(usize::MAX);
        // The base game (0) and this expansion left out.
        let others = !(1u64 | 1u64.checked_shl(me as u32).unwrap_or(0));
        let others_offer_deploys = rules
            .hook_masks
            .get(deploy_phase)
            .is_some_and(|m| m.actions & others != 0);
        let (mut kind_closes, mut kind_surrounded) = ([false; 256], [false; 256]);
        for (i, k) in rules.vocab.kinds.iter().enumerate().take(256) {
            kind_closes[i] = matches!(k.shape, KindShape::Edge { completes: true });
            kind_surrounded[i] = matches!(k.shape, KindShape::Surrounded);
        }
        Ids {
            kind_closes,
            kind_surrounded,
            deploy_phase,
            dragon_phase,
            others_offer_deploys,
            neutrals,
            tile_marks,
            follower_kinds,
            edible: tags::figure_kinds_tagged(rules, tags::FLESH_AND_BLOOD),
            shelter: tags::feature_kinds_tagged(rules, tags::SHELTER),
            me,
            options: Options {
                dragon_after_scoring: is(opt::DRAGON_MOVE, "after-scoring"),
                princess_must: is(opt::PRINCESS, "must"),
                fairy_on_tile: is(opt::FAIRY_PLACEMENT, "on-tile"),
                reshuffle_dragon_tiles: is(opt::DRAGON_TILES, "reshuffle"),
                fairy_five: is(opt::FAIRY_BONUS, "five-on-completion"),
                fairy_blocks_eating_only: is(opt::FAIRY_BLOCKS, "eating-only"),
            },
            dragon,
            fairy,
            volcano,
            dragon_symbol,
            portal,
            princess,
            fairy_verb: verb("fairy"),
            princess_verb: verb("princess"),
            dragon_verb: verb("dragon"),
        }
    }
}
