//! Actions: the decisions a player makes, as expansions offer them.

use crate::abi::{self, RawAction, pack_pos, unpack_pos};
use crate::geometry::{Pos, Rotation, Side};
use crate::ids::{FigureId, FigureKind, SegmentId, TileType, VerbId};

/// One decision a player can take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Action {
    /// Place the drawn tile (BASE-4).
    Place {
        /// The drawn tile.
        tile: TileType,
        /// Where.
        pos: Pos,
        /// Turned how.
        rotation: Rotation,
    },
    /// Deploy a figure of this kind from the supply onto a segment (BASE-5).
    Deploy {
        /// The figure kind.
        figure: FigureKind,
        /// The segment (of the feature) it goes onto.
        segment: SegmentId,
    },
    /// Decline an optional step.
    Pass,
    /// An expansion's own move (declared in its manifest as a record verb).
    Verb {
        /// Which verb.
        verb: VerbId,
        /// Its argument.
        arg: Arg,
    },
    /// An action of a kind this SDK does not know (sent by a newer host); never offered
    /// by a plugin.
    Unknown,
}

/// The argument of a verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Arg {
    /// No argument (`verb = true`).
    None,
    /// A square (`release = [x, y]`).
    Pos(Pos),
    /// A segment of a feature on a tile (`fairy = [x, y, PORT]`).
    Segment(SegmentId),
    /// A direction (`dragon = "N"`).
    Side(Side),
    /// A figure. No manifest `arg` kind names one (a record could not write the move),
    /// so a verb is never offered with it: the engine disables an expansion whose such
    /// move is played.
    /// It stays for a later protocol.
    Figure(FigureId),
}

impl Action {
    /// The encoded form.
    #[inline]
    pub fn to_raw(self) -> RawAction {
        match self {
            Action::Place {
                tile,
                pos,
                rotation,
            } => RawAction {
                kind: abi::action::PLACE,
                verb: rotation.turns() as u32,
                a: tile.raw(),
                b: pack_pos(pos.x, pos.y),
            },
            Action::Deploy { figure, segment } => RawAction {
                kind: abi::action::DEPLOY,
                verb: 0,
                a: figure.raw(),
                b: segment.raw(),
            },
            Action::Pass => RawAction {
                kind: abi::action::PASS,
                ..RawAction::default()
            },
            Action::Verb { verb, arg } => {
                let (a, b) = match arg {
                    Arg::None => (abi::arg::NONE, 0),
                    Arg::Pos(p) => (abi::arg::POS, pack_pos(p.x, p.y)),
                    Arg::Segment(s) => (abi::arg::SEGMENT, s.raw()),
                    Arg::Side(s) => (abi::arg::SIDE, s.index() as i64),
                    Arg::Figure(f) => (abi::arg::FIGURE, f.raw()),
                };
                RawAction {
                    kind: abi::action::VERB,
                    verb: verb.raw() as u32,
                    a,
                    b,
                }
            }
            Action::Unknown => RawAction::default(),
        }
    }

    /// Decodes an encoded action ([`Action::Unknown`] for a kind this SDK does not know).
    #[inline]
    pub fn from_raw(raw: &RawAction) -> Action {
        let decoded = match raw.kind {
            abi::action::PLACE => (|| {
                let (x, y) = unpack_pos(raw.b);
                Some(Action::Place {
                    tile: TileType::from_raw(raw.a)?,
                    pos: Pos::new(x, y),
                    rotation: Rotation::quarter_turns(raw.verb as u8),
                })
            })(),
            abi::action::DEPLOY => (|| {
                Some(Action::Deploy {
                    figure: FigureKind::from_raw(raw.a)?,
                    segment: SegmentId::from_raw(raw.b)?,
                })
            })(),
            abi::action::PASS => Some(Action::Pass),
            abi::action::VERB => (|| {
                let arg = match raw.a {
                    abi::arg::NONE => Arg::None,
                    abi::arg::POS => {
                        let (x, y) = unpack_pos(raw.b);
                        Arg::Pos(Pos::new(x, y))
                    }
                    abi::arg::SEGMENT => Arg::Segment(SegmentId::from_raw(raw.b)?),
                    abi::arg::SIDE => Arg::Side(*Side::ALL.get(usize::try_from(raw.b).ok()?)?),
                    abi::arg::FIGURE => Arg::Figure(FigureId::from_raw(raw.b)?),
                    _ => return None,
                };
                Some(Action::Verb {
                    verb: VerbId::from_raw(i64::from(raw.verb))?,
                    arg,
                })
            })(),
            _ => None,
        };
        decoded.unwrap_or(Action::Unknown)
    }
}
