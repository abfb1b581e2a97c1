//! What the expansion registers (markers, figures, phases, moves, options) and the ids
//! those names get under one set of rules.

use carc_sdk::{
    FigureClass, FigureId, FigureKind, KindId, MarkerId, PhaseId, TileType, VerbId, View,
};

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

/// The tile data as shipped.
pub const TILES_TOML: &str = include_str!("../../../tiledefs/princess-dragon.toml");

/// This expansion's names resolved to ids under one set of rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ids {
    /// The dragon figure kind.
    pub dragon: FigureKind,
    /// The fairy figure kind.
    pub fairy: FigureKind,
    /// The princess marker (on a city).
    pub princess: MarkerId,
    /// Record verbs: `fairy`.
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
    /// Per feature kind: whether it is complete once closed (roads, cities).
    pub kind_closes: Vec<bool>,
    /// Per feature kind: whether it is complete once surrounded (monasteries).
    pub kind_surrounded: Vec<bool>,
    /// The city kind (PD-17: the princess removes a knight).
    pub city: Option<KindId>,
    /// The deploy phase (the figure step).
    pub deploy_phase: Option<PhaseId>,
    /// The dragon's phase.
    pub dragon_phase: Option<PhaseId>,
    /// The figure kinds that are followers (PD-11: the fairy stands next to a follower;
    /// PD-16: a follower goes through the portal).
    pub follower_kinds: Vec<FigureKind>,
    /// The dragon's and the fairy's figures, by number of players (0 … 6).
    pub neutrals: [(Option<FigureId>, Option<FigureId>); 7],
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
    pub fn in_deploy_phase(&self, view: &View) -> bool {
        self.deploy_phase.is_some() && view.phase() == self.deploy_phase
    }

    /// Whether the game is in the dragon's phase.
    #[inline]
    pub fn in_dragon_phase(&self, view: &View) -> bool {
        self.dragon_phase.is_some() && view.phase() == self.dragon_phase
    }

    /// Whether tiles of this type carry `mark` (one of the bits above).
    #[inline]
    pub fn tile_is(&self, tile: TileType, mark: u8) -> bool {
        self.tile_marks
            .get(tile.index())
            .is_some_and(|&m| m & mark != 0)
    }

    /// Whether the dragon eats figures of this kind.
    #[inline]
    pub fn is_edible(&self, kind: FigureKind) -> bool {
        self.edible.get(kind.index()).copied().unwrap_or(false)
    }

    /// Whether figures on features of this kind are safe.
    #[inline]
    pub fn is_shelter(&self, kind: KindId) -> bool {
        self.shelter.get(kind.index()).copied().unwrap_or(false)
    }

    /// Looks the names up (they were registered from the manifest).
    pub fn resolve(view: &View) -> Result<Ids, String> {
        fn need<T>(what: &str, found: Option<T>) -> Result<T, String> {
            found.ok_or_else(|| format!("the rules do not know `{what}`"))
        }
        let figure = |name: &str| need(name, view.figure_kind(&format!("{}:{name}", crate::ID)));
        let marker = |name: &str| need(name, view.marker(name));
        let verb = |name: &str| need(name, view.verb(name));
        let (volcano, dragon_symbol) = (marker(VOLCANO_MARKER)?, marker(DRAGON_SYMBOL_MARKER)?);
        let portal = marker("princess-dragon:portal")?;
        let princess = marker("princess-dragon:princess")?;
        let tile_marks = view
            .tile_types()
            .map(|t| {
                let bit = |has: bool, b: u8| if has { b } else { 0 };
                bit(view.tile_type_has_marker(t, volcano), Ids::VOLCANO)
                    | bit(
                        view.tile_type_has_marker(t, dragon_symbol),
                        Ids::DRAGON_SYMBOL,
                    )
                    | bit(view.tile_type_has_marker(t, portal), Ids::PORTAL)
                    | bit(view.tile_type_segment_marker(t, princess), Ids::PRINCESS)
            })
            .collect();
        let kinds: Vec<KindId> = view.kinds().collect();
        let figure_kinds: Vec<FigureKind> = view.figure_kinds().collect();
        let is = |name: &str, value: &str| view.option_is(name, value);
        let (dragon, fairy) = (figure("dragon")?, figure("fairy")?);
        Ok(Ids {
            princess,
            fairy_verb: verb("fairy")?,
            princess_verb: verb("princess")?,
            dragon_verb: verb("dragon")?,
            options: Options {
                dragon_after_scoring: is(opt::DRAGON_MOVE, "after-scoring"),
                princess_must: is(opt::PRINCESS, "must"),
                fairy_on_tile: is(opt::FAIRY_PLACEMENT, "on-tile"),
                reshuffle_dragon_tiles: is(opt::DRAGON_TILES, "reshuffle"),
                fairy_five: is(opt::FAIRY_BONUS, "five-on-completion"),
                fairy_blocks_eating_only: is(opt::FAIRY_BLOCKS, "eating-only"),
            },
            edible: figure_kinds
                .iter()
                .map(|&k| view.figure_kind_tagged(k, "flesh-and-blood"))
                .collect(),
            shelter: kinds
                .iter()
                .map(|&k| view.kind_tagged(k, "shelter"))
                .collect(),
            tile_marks,
            kind_closes: kinds
                .iter()
                .map(|&k| view.kind_completes_closed(k))
                .collect(),
            kind_surrounded: kinds
                .iter()
                .map(|&k| view.kind_completes_surrounded(k))
                .collect(),
            city: view.kind("city"),
            deploy_phase: view.phase_named("deploy"),
            dragon_phase: view.phase_named(DRAGON_PHASE),
            follower_kinds: figure_kinds
                .iter()
                .copied()
                .filter(|&k| view.figure_class(k) == FigureClass::Follower)
                .collect(),
            neutrals: std::array::from_fn(|players| {
                (
                    view.neutral_figure_for(dragon, players),
                    view.neutral_figure_for(fairy, players),
                )
            }),
            dragon,
            fairy,
        })
    }
}
