//! The tile-data format: what a `tiledefs/*.toml` file says, as serde types.
//!
//! These types are the single source of the JSON Schema (`schema/tiles.schema.json`,
//! draft-07) that editors and `carc validate` check files against. Semantic checks that a
//! schema cannot express live in [`super::validate`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A whole tile-data file: the tiles one expansion ships.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "carc tile data")]
pub struct TileFile {
    /// The expansion that ships these tiles (`base` for the base game). Every tile id
    /// starts with a short prefix of the expansion's choosing followed by `:`.
    pub expansion: String,
    /// The id of the start tile, if this file provides it. One copy of that tile is
    /// placed at (0, 0) before the first turn and is not part of the supply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The tiles, one entry per tile type.
    #[serde(rename = "tile")]
    pub tiles: Vec<TileDef>,
}

/// The most copies of one tile type (`count`).
pub const MAX_COUNT: u32 = 1000;

/// One tile type: its id, how many copies the box has, and what is printed on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TileDef {
    /// Unique id, `prefix:name`, e.g. `base:D`.
    #[schemars(regex(pattern = r"^[a-z0-9][a-z0-9-]*:[A-Za-z0-9][A-Za-z0-9-]*$"))]
    pub id: String,
    /// Number of copies in the box (1 to 1000: a supply of billions would only run a
    /// game out of memory).
    #[schemars(range(min = 1, max = MAX_COUNT))]
    pub count: u32,
    /// What each side shows at rotation 0, in the order N, E, S, W: the kind of the
    /// feature on the side's middle port (`city`, `road` or `field` in the base game).
    pub sides: [String; 4],
    /// Markers printed on the tile as a whole (e.g. `volcano`, `portal`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
    /// The set (edition) the tile belongs to, for expansions that ship several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<String>,
    /// The stack it is drawn from: every tile of a lower stack is drawn before any tile
    /// of a higher one, the tiles of one stack shuffled together (the river's tiles are
    /// drawn before the land, its lake last: -2, -1). 0, every other tile's, when left out.
    #[serde(default, skip_serializing_if = "is_zero_stack")]
    #[schemars(range(min = -100, max = 100))]
    pub stack: i8,
    /// The features printed on the tile, at rotation 0.
    pub features: Vec<FeatureDef>,
}

fn is_zero_stack(n: &i8) -> bool {
    *n == 0
}

/// One feature of a tile: a city, road, field, monastery or an expansion's own kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FeatureDef {
    /// The feature kind, a registered name (`city`, `road`, `field`, `monastery`, or an
    /// expansion's kind), optionally qualified by its namespace (`base:city`).
    #[schemars(regex(pattern = r"^([a-z0-9][a-z0-9-]*:)?[a-z][a-z0-9-]*$"))]
    pub kind: String,
    /// The edge ports the feature touches; empty for an inner feature (monastery, hut, a
    /// field enclosed between cities). A city side covers all three ports of that side,
    /// a road end takes a middle port.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortName>,
    /// Pennants (coats of arms) on a city.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pennants: u8,
    /// For a field: the cities of this tile it touches, each named by one port of the city.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cities: Vec<PortName>,
    /// Markers printed on this feature (e.g. `princess` on a city, `tunnel` on a road).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<String>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A port name as written in tile data and game records.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[allow(clippy::upper_case_acronyms)]
pub enum PortName {
    /// North side, west port.
    NNW,
    /// North side, middle port.
    N,
    /// North side, east port.
    NNE,
    /// East side, north port.
    ENE,
    /// East side, middle port.
    E,
    /// East side, south port.
    ESE,
    /// South side, east port.
    SSE,
    /// South side, middle port.
    S,
    /// South side, west port.
    SSW,
    /// West side, south port.
    WSW,
    /// West side, middle port.
    W,
    /// West side, north port.
    WNW,
}

impl PortName {
    /// The geometric port.
    pub fn port(self) -> crate::geometry::Port {
        crate::geometry::Port::from_index(self as usize)
    }
}

impl From<crate::geometry::Port> for PortName {
    fn from(p: crate::geometry::Port) -> PortName {
        use PortName::*;
        [NNW, N, NNE, ENE, E, ESE, SSE, S, SSW, WSW, W, WNW][p.index()]
    }
}
