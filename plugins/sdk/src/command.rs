//! Commands: the changes a rule asks the engine to make. The engine checks each one; a
//! command it refuses is reported as a fault of the expansion and changes nothing. A
//! command moving or returning a figure that an earlier command of the same step has
//! moved since the hook saw it is dropped, without a fault.

use crate::abi::{self, RawCommand};
use crate::ids::{FigureId, FigureKind, PhaseId, PlayerId, SegmentId, TileId};

/// Where a figure is, or goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Place {
    /// In its owner's supply.
    Supply,
    /// Out of play: beside the board (neutral figures before they enter) or removed.
    OffBoard,
    /// On a segment of a feature.
    Segment(SegmentId),
    /// On a tile, on no feature (the dragon, the fairy, a trapped follower).
    Tile(TileId),
}

impl Place {
    #[inline]
    pub(crate) fn raw(self) -> i64 {
        match self {
            Place::Supply => abi::place::SUPPLY,
            Place::OffBoard => abi::place::OFF_BOARD,
            Place::Segment(s) => s.raw() * 2,
            Place::Tile(t) => t.raw() * 2 + 1,
        }
    }

    #[inline]
    pub(crate) fn from_raw(v: i64) -> Place {
        match v {
            abi::place::SUPPLY => Place::Supply,
            v if v >= 0 && v % 2 == 0 => {
                SegmentId::from_raw(v / 2).map_or(Place::OffBoard, Place::Segment)
            }
            v if v >= 0 => TileId::from_raw(v / 2).map_or(Place::OffBoard, Place::Tile),
            _ => Place::OffBoard,
        }
    }

    /// The segment, if the place is one.
    #[inline]
    pub fn segment(self) -> Option<SegmentId> {
        match self {
            Place::Segment(s) => Some(s),
            _ => None,
        }
    }
}

/// What points are scored for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// A feature (the turn log describes it from the board).
    Feature(SegmentId),
    /// Anything else, in words: a noun phrase with its article, which the turn log puts
    /// after "for" (`Alice scores 2 points for a well`).
    Text(&'static str),
}

/// A change a rule asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Command {
    /// Set the drawn tile aside instead of playing it; the player draws again.
    SetAsideDrawn,
    /// Put the drawn tile back into the supply at a random place; the player draws again.
    ReturnDrawnToSupply,
    /// Shuffle the set-aside tiles back into the supply.
    ReshuffleSetAside,
    /// Deploy a figure of a player's supply onto a segment.
    Deploy {
        /// Whose figure.
        player: PlayerId,
        /// Its kind.
        figure: FigureKind,
        /// Where.
        segment: SegmentId,
    },
    /// Move a figure (a neutral figure onto a tile, a trapped follower onto its trap).
    MoveFigure {
        /// Which figure.
        figure: FigureId,
        /// Where to.
        to: Place,
        /// Why, for the turn log, when it is not the player's own move: a past-participle
        /// phrase, which the log puts after "is" (`trapped by Vodyanoy`).
        why: Option<&'static str>,
    },
    /// Return a figure to its owner's supply (a neutral figure goes off the board).
    ReturnFigure {
        /// Which figure.
        figure: FigureId,
        /// Why, for the turn log, when it is not plain scoring: a past-participle phrase,
        /// which the log puts after "is" (`eaten by the dragon`).
        why: Option<&'static str>,
    },
    /// Give a player points (negative for a penalty).
    Score {
        /// Who.
        player: PlayerId,
        /// How many.
        points: i32,
        /// What for.
        reason: Reason,
    },
    /// Mark a feature scored, so it never scores again (BASE-8).
    MarkScored {
        /// A segment of it.
        segment: SegmentId,
    },
    /// The current player's figure step (deploy, pass or an alternative) is over.
    FigureStepDone,
    /// The current player's figure step is over, and so is every figure step left in
    /// this turn: at a further tile of it ([`Command::AnotherTile`]) they may only pass,
    /// deploying and moving no figure (PD-17: a player whose princess removed a knight
    /// deploys and moves no other figure that turn). Protocol 1.6.
    FiguresDoneThisTurn,
    /// The next decision of this phase is this player's.
    SetDecider {
        /// Who decides.
        player: PlayerId,
    },
    /// Replace the expansion's own record (at most 65,536 values: a longer one is refused,
    /// as every refused command is, and the record stays as it was).
    SetRecord(Vec<i64>),
    /// Set one value of the record (growing it with zeros when `index` lies past its end;
    /// an `index` of 65,536 or more is refused).
    SetRecordValue {
        /// Position.
        index: u32,
        /// Value.
        value: i64,
    },
    /// Shorten or lengthen the record to `len` values (new ones are 0; at most 65,536).
    ResizeRecord {
        /// New length.
        len: u32,
    },
    /// Run an on-request phase in this turn.
    RequestPhase {
        /// The phase.
        phase: PhaseId,
    },
    /// End the game now; final scoring follows.
    EndGame,
    /// When this turn's phases are over, the current player draws and plays another
    /// tile in the same turn: the turn's phases from `draw` on run again, with every
    /// expansion taking part as in any turn (`turn-start` does not run again). Asked for
    /// twice before the next tile, it gives one tile. Protocol 1.1.
    AnotherTile,
    /// Points for a player for something in words made at the time (`3 huts around the
    /// well`): a noun phrase, which the turn log puts after "for", of at most
    /// [`MAX_WORDS`](crate::abi::command::MAX_WORDS) bytes (longer words are cut there,
    /// between characters). Protocol 1.5. (For words fixed in the code,
    /// [`Command::Score`] with [`Reason::Text`] costs less.)
    ScoreWords {
        /// Who.
        player: PlayerId,
        /// How many (may be negative).
        points: i32,
        /// What for.
        words: String,
    },
}

/// The first `max` bytes of `words` at most, cut between characters.
fn cut(words: &str, max: usize) -> &str {
    let mut end = words.len().min(max);
    while !words.is_char_boundary(end) {
        end -= 1;
    }
    &words[..end]
}

fn text(why: Option<&'static str>) -> (*const u8, usize) {
    why.map_or((std::ptr::null(), 0), |s| (s.as_ptr(), s.len()))
}

impl Command {
    /// Encodes the command and hands it to `f` (the encoded form may borrow from it).
    #[inline(always)]
    pub fn with_raw<R>(&self, f: impl FnOnce(&RawCommand) -> R) -> R {
        let mut raw = RawCommand {
            kind: 0,
            small: 0,
            a: 0,
            b: 0,
            c: 0,
            text: std::ptr::null(),
            text_len: 0,
        };
        match self {
            Command::SetAsideDrawn => raw.kind = abi::command::SET_ASIDE_DRAWN,
            Command::ReturnDrawnToSupply => raw.kind = abi::command::RETURN_DRAWN_TO_SUPPLY,
            Command::ReshuffleSetAside => raw.kind = abi::command::RESHUFFLE_SET_ASIDE,
            Command::Deploy {
                player,
                figure,
                segment,
            } => {
                raw.kind = abi::command::DEPLOY;
                raw.small = u32::from(*player);
                raw.a = figure.raw();
                raw.b = segment.raw();
            }
            Command::MoveFigure { figure, to, why } => {
                raw.kind = abi::command::MOVE_FIGURE;
                raw.a = figure.raw();
                raw.b = to.raw();
                (raw.text, raw.text_len) = text(*why);
            }
            Command::ReturnFigure { figure, why } => {
                raw.kind = abi::command::RETURN_FIGURE;
                raw.a = figure.raw();
                (raw.text, raw.text_len) = text(*why);
            }
            Command::Score {
                player,
                points,
                reason,
            } => {
                raw.kind = abi::command::SCORE;
                raw.small = u32::from(*player);
                raw.a = i64::from(*points);
                raw.b = -1;
                match reason {
                    Reason::Feature(s) => raw.b = s.raw(),
                    Reason::Text(t) => (raw.text, raw.text_len) = text(Some(t)),
                }
            }
            Command::MarkScored { segment } => {
                raw.kind = abi::command::MARK_SCORED;
                raw.a = segment.raw();
            }
            Command::FigureStepDone => raw.kind = abi::command::FIGURE_STEP_DONE,
            Command::FiguresDoneThisTurn => raw.kind = abi::command::FIGURES_DONE_THIS_TURN,
            Command::SetDecider { player } => {
                raw.kind = abi::command::SET_DECIDER;
                raw.small = u32::from(*player);
            }
            Command::SetRecord(values) => {
                raw.kind = abi::command::SET_RECORD;
                raw.text = values.as_ptr().cast();
                raw.text_len = values.len();
            }
            Command::SetRecordValue { index, value } => {
                raw.kind = abi::command::SET_RECORD_VALUE;
                raw.a = i64::from(*index);
                raw.b = *value;
            }
            Command::ResizeRecord { len } => {
                raw.kind = abi::command::RESIZE_RECORD;
                raw.a = i64::from(*len);
            }
            Command::RequestPhase { phase } => {
                raw.kind = abi::command::REQUEST_PHASE;
                raw.a = phase.raw();
            }
            Command::EndGame => raw.kind = abi::command::END_GAME,
            Command::AnotherTile => raw.kind = abi::command::ANOTHER_TILE,
            Command::ScoreWords {
                player,
                points,
                words,
            } => {
                raw.kind = abi::command::SCORE_WORDS;
                raw.small = u32::from(*player);
                raw.a = i64::from(*points);
                raw.b = -1;
                let words = cut(words, abi::command::MAX_WORDS);
                raw.text = words.as_ptr();
                raw.text_len = words.len();
            }
        }
        f(&raw)
    }
}
