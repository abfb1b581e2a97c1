//! What the expansion remembers between hooks, kept in the game as its record:
//! `[fairy's follower, tile the dragon's movement started on, tile of step 1, ...]`, the
//! follower as `figure << 40 | owner << 32 | its move count when the fairy came` (-1:
//! none; see [`View::figure_moves`]).
//! A movement has steps left while fewer than six steps are recorded; its tiles stay until
//! the next dragon tile is placed and count only in the turn of their own dragon tile.

use carc_sdk::{Command, FigureId, Out, PlayerId, TileId, View};

use crate::names::DRAGON_STEPS;

/// The expansion's record: what it reads from it, and the commands that change it.
#[derive(Clone, Copy, Debug)]
pub struct Memory;

impl Memory {
    /// The follower the fairy stands next to (PD-14): the one it came to, while that
    /// follower has not moved since (once it has left, even to be deployed on the same
    /// spot again, the fairy is next to nobody).
    pub fn fairy_follower(view: &View) -> Option<FigureId> {
        Memory::fairy_follower_and_owner(view).map(|(f, _)| f)
    }

    /// [`Memory::fairy_follower`] and its owner. While it has not moved since the fairy
    /// came, it stands where it stood then: on a segment.
    pub fn fairy_follower_and_owner(view: &View) -> Option<(FigureId, PlayerId)> {
        let (figure, owner, moves) = unpack(*view.record().first()?)?;
        (view.figure_moves(figure) == moves).then_some((figure, owner))
    }

    /// Dragon steps left in the movement under way (0: none).
    pub fn steps_left(view: &View) -> i64 {
        match Memory::visited(view).len() as i64 {
            0 => 0,
            n => (DRAGON_STEPS + 1 - n).max(0),
        }
    }

    /// The tiles visited in the movement under way, as stored.
    pub fn visited<'a>(view: &View<'a>) -> &'a [i64] {
        view.record().get(1..).unwrap_or(&[])
    }

    /// Stores a new fairy's follower, its owner and its move count (one value changed).
    pub fn set_fairy_follower(follower: Option<(FigureId, PlayerId, u32)>, out: &mut Out) {
        out.push(Command::SetRecordValue {
            index: 0,
            value: follower.map_or(-1, pack),
        });
    }

    /// Starts a movement from `start` (none: no movement): the tiles of the last one are
    /// dropped, the fairy's follower kept (changed in place).
    pub fn start_movement(view: &View, start: Option<TileId>, out: &mut Out) {
        if view.record().is_empty() {
            let mut data = vec![-1];
            data.extend(start.map(TileId::to_record));
            out.push(Command::SetRecord(data));
            return;
        }
        out.push(Command::ResizeRecord { len: 1 });
        if let Some(tile) = start {
            out.push(Command::SetRecordValue {
                index: 1,
                value: tile.to_record(),
            });
        }
    }

    /// Stores one dragon step onto `tile`: one more tile visited, so a step fewer left.
    pub fn record_step(view: &View, tile: TileId, out: &mut Out) {
        out.push(Command::SetRecordValue {
            index: view.record().len().max(1) as u32,
            value: tile.to_record(),
        });
    }
}

fn pack((figure, owner, moves): (FigureId, PlayerId, u32)) -> i64 {
    figure.to_record() << 40 | i64::from(owner) << 32 | i64::from(moves)
}

fn unpack(packed: i64) -> Option<(FigureId, PlayerId, u32)> {
    if packed < 0 {
        return None;
    }
    Some((
        FigureId::from_record(packed >> 40)?,
        (packed >> 32) as PlayerId,
        packed as u32,
    ))
}
