//! Figures: followers and every other wooden piece, where they stand, and the
//! declarations that say what kind of piece each is.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::features::NodeId;

/// A player's seat, 0-based in turn order.
pub type PlayerId = u8;
/// The owner of neutral figures (dragon, fairy).
pub const NEUTRAL: PlayerId = PlayerId::MAX;
/// Index of a figure kind in the rules.
pub type FigureKindId = u8;
/// Index of a figure in the game state.
pub type FigureId = u16;

/// The core's follower kind (always index 0).
pub const FOLLOWER: FigureKindId = 0;

/// Where a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Location {
    /// In its owner's supply.
    Supply,
    /// Out of play: beside the board (neutral figures before they enter) or removed.
    OffBoard,
    /// On a feature of a placed tile.
    Feature(NodeId),
    /// On a placed tile, on no feature (the dragon, the fairy, a trapped follower); the
    /// number is the tile's index in placement order.
    Tile(u32),
}

/// One figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// What kind of piece it is.
    pub kind: FigureKindId,
    /// Its owner, or [`NEUTRAL`].
    pub owner: PlayerId,
    /// Where it is.
    pub at: Location,
    /// The placed tile it stands on (on one of its features or on the tile itself), or
    /// [`NO_TILE`] off the board: kept by the engine together with `at`, so that asking
    /// which tile a figure is on reads one number.
    pub tile: u32,
    /// How many times it has changed place (deployed, moved, returned; wrapping): a rule
    /// that remembers a figure tells by this whether it has moved since.
    pub moves: u32,
}

/// [`Figure::tile`] of a figure that is not on the board.
pub const NO_TILE: u32 = u32::MAX;

impl Figure {
    /// Puts the figure at `at`, on `tile` ([`NO_TILE`] off the board), counting one move;
    /// the engine's only way to change where a figure is.
    pub(crate) fn relocate(&mut self, at: Location, tile: u32) {
        self.at = at;
        self.tile = tile;
        self.moves = self.moves.wrapping_add(1);
    }
}

/// The broad class of a figure kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FigureClass {
    /// A player's follower: counts for majorities.
    Follower,
    /// A player's special figure (builder, pig): belongs to a player, counts for no majority.
    Special,
    /// Belongs to nobody (dragon, fairy).
    Neutral,
}

impl FigureClass {
    /// The class as a manifest writes it (`follower`, `special`, `neutral`).
    pub fn word(self) -> &'static str {
        match self {
            FigureClass::Follower => "follower",
            FigureClass::Special => "special",
            FigureClass::Neutral => "neutral",
        }
    }
}

/// A figure kind, as an expansion declares it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FigureKindDecl {
    /// Namespace of the declaring expansion (in a manifest it defaults to its id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Short name (`follower`, `dragon`, `fairy`).
    pub name: String,
    /// `follower`, `special` or `neutral`.
    pub class: FigureClass,
    /// Weight in majorities: in a manifest, 1 for a follower and 0 for any other figure
    /// when left out (a large follower says 2; 0 for figures that do not count).
    #[serde(default)]
    #[schemars(transform = without_default)]
    pub strength: u8,
    /// Copies each player starts with (followers: 7, BASE-2).
    #[serde(default)]
    pub per_player: u8,
    /// Copies of a neutral figure in the game.
    #[serde(default)]
    pub neutral: u8,
    /// Declared tags that rules of any expansion may read: `flesh-and-blood` (the dragon
    /// eats it, Vodyanoy takes it), `returns-with-last-follower` (builder, pig).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// Drops the `default` a schema would show: the default depends on other keys (a
/// follower's strength is 1, another figure's 0).
fn without_default(schema: &mut schemars::Schema) {
    schema.remove("default");
}
