//! Actions: the decisions a player makes, as the engine offers them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::features::NodeId;
use crate::figures::{FigureId, FigureKindId};
use crate::geometry::{Pos, Rotation, Side};
use crate::tiles::TileTypeId;

/// Index of an expansion verb (a move kind such as `fairy` or `dragon`) in the rules.
pub type VerbId = u8;

/// One legal decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Action {
    /// Place the drawn tile (BASE-4).
    Place {
        /// The drawn tile.
        tile: TileTypeId,
        /// Where.
        pos: Pos,
        /// Turned how.
        rotation: Rotation,
    },
    /// Deploy a figure of this kind from the supply onto a feature (BASE-5).
    Deploy {
        /// Figure kind (the follower is [`crate::figures::FOLLOWER`]).
        figure: FigureKindId,
        /// The feature's node on the tile it is deployed on.
        node: NodeId,
    },
    /// Decline an optional step.
    Pass,
    /// An expansion's own move.
    Verb {
        /// Which verb.
        verb: VerbId,
        /// Its argument.
        arg: Arg,
    },
}

impl Action {
    /// Whether `self` and `other` are the same move naming a feature through two nodes, and
    /// which: `(self's node, other's node)`. Nothing else about them differs.
    pub fn feature_pair(&self, other: &Action) -> Option<(NodeId, NodeId)> {
        match (*self, *other) {
            (Action::Deploy { figure, node }, Action::Deploy { figure: f, node: n })
                if figure == f =>
            {
                Some((node, n))
            }
            (
                Action::Verb {
                    verb,
                    arg: Arg::Feature(node),
                },
                Action::Verb {
                    verb: v,
                    arg: Arg::Feature(n),
                },
            ) if verb == v => Some((node, n)),
            _ => None,
        }
    }
}

/// The argument of an expansion verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arg {
    /// No argument.
    None,
    /// A square (`release = [x, y]`).
    Pos(Pos),
    /// A feature on a tile (`fairy = [x, y, PORT]`).
    Feature(NodeId),
    /// A direction (`dragon = "N"`).
    Side(Side),
    /// A figure.
    Figure(FigureId),
}

/// What kind of argument a verb takes in a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ArgKind {
    /// `verb = true`
    None,
    /// `verb = [x, y]`
    Pos,
    /// `verb = [x, y, PORT]`
    Feature,
    /// `verb = "N"`
    Side,
}

impl ArgKind {
    /// Whether an action's argument is of this kind (a figure is of none: a record cannot
    /// name one).
    #[inline]
    pub fn takes(self, arg: &Arg) -> bool {
        arg.kind() == Some(self)
    }

    /// The kind in words: `a feature`.
    pub fn words(self) -> &'static str {
        match self {
            ArgKind::None => "no argument",
            ArgKind::Pos => "a square",
            ArgKind::Feature => "a feature",
            ArgKind::Side => "a side",
        }
    }
}

impl Arg {
    /// Its kind as a manifest declares it (`None`: a figure, which no kind names).
    #[inline]
    pub fn kind(&self) -> Option<ArgKind> {
        match self {
            Arg::None => Some(ArgKind::None),
            Arg::Pos(_) => Some(ArgKind::Pos),
            Arg::Feature(_) => Some(ArgKind::Feature),
            Arg::Side(_) => Some(ArgKind::Side),
            Arg::Figure(_) => None,
        }
    }

    /// The argument in words, as [`ArgKind::words`] says its kind.
    pub fn words(&self) -> &'static str {
        self.kind().map_or("a figure", ArgKind::words)
    }
}
