//! Game records (`docs/game-records.md`): the format, reading and writing it, and replay.

mod format;
mod moves;
mod parts;
mod printable;
mod replay;
mod summary;

pub use format::{
    Expect, FeatureRef, GameHeader, Move, OffBoard, Record, SupplyKind, Whereabouts, option_values,
};
pub use moves::{MoveError, action_to_move, describe_move, move_keys, move_to_action};
pub use printable::{LONGEST, Unprintable};
pub use replay::{
    Format, LoadError, Loaded, MoveFailure, Played, ReplayError, ReplayOutcome, apply_move,
    end_of_record, failure_report, load, parse, play_moves, record_schema, record_schema_json,
    replay, replay_with, setup_game,
};
pub use summary::state_summary;
