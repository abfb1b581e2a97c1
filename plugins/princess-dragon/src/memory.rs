//! What the expansion remembers between hooks, kept in the game state as its `ext` record:
//! `[fairy's follower, tile the dragon's movement started on, tile of step 1, ...]`, the
//! follower as `figure << 32 | its move count when the fairy came` (-1: none; see
//! `Figure::moves`).
//! A movement has steps left while fewer than six steps are recorded; its tiles stay until
//! the next dragon tile is placed and count only in the turn of their own dragon tile.

use carc_core::engine::Command;
use carc_core::expansion::Ctx;
use carc_core::figures::FigureId;

use crate::names::DRAGON_STEPS;

/// The expansion's record: what it reads from it, and the commands that change it.
#[derive(Clone, Copy, Debug)]
pub struct Memory;

impl Memory {
    /// The follower the fairy stands next to (PD-14): the one it came to, while that
    /// follower has not moved since (once it has left, even to be deployed on the same
    /// spot again, the fairy is next to nobody).
    pub fn fairy_follower(ctx: &Ctx) -> Option<FigureId> {
        let (figure, moves) = unpack(*ctx.my_data().first()?)?;
        let now = ctx.state.figures.get(figure as usize)?.moves;
        (now == moves).then_some(figure)
    }

    /// Dragon steps left in the movement under way (0: none), read without decoding.
    pub fn steps_left(ctx: &Ctx) -> i64 {
        match Memory::visited(ctx).len() as i64 {
            0 => 0,
            n => (DRAGON_STEPS + 1 - n).max(0),
        }
    }

    /// The tiles visited in the movement under way, read without decoding.
    pub fn visited<'a>(ctx: &Ctx<'a>) -> &'a [i64] {
        ctx.my_data().get(1..).unwrap_or(&[])
    }

    /// Stores a new fairy's follower and its move count (one value changed).
    pub fn set_fairy_follower(follower: Option<(FigureId, u32)>, out: &mut Vec<Command>) {
        out.push(Command::SetExtValue {
            index: 0,
            value: follower.map_or(-1, pack),
        });
    }

    /// Starts a movement from `start` (none: no movement): the tiles of the last one are
    /// dropped, the fairy's follower kept (changed in place: no new record).
    pub fn start_movement(ctx: &Ctx, start: Option<u32>, out: &mut Vec<Command>) {
        if ctx.my_data().is_empty() {
            // The first record: no fairy's follower yet, and room for a whole movement's
            // tiles, so that steps do not reallocate.
            let mut data = Vec::with_capacity(2 + DRAGON_STEPS as usize);
            data.push(-1);
            data.extend(start.map(i64::from));
            out.push(Command::SetExtData { data });
            return;
        }
        out.push(Command::ResizeExt { len: 1 });
        if let Some(tile) = start {
            out.push(Command::SetExtValue {
                index: 1,
                value: i64::from(tile),
            });
        }
    }

    /// Stores one dragon step onto `tile`: one more tile visited, so a step fewer left.
    pub fn record_step(ctx: &Ctx, tile: u32, out: &mut Vec<Command>) {
        out.push(Command::SetExtValue {
            index: ctx.my_data().len().max(1) as u32,
            value: i64::from(tile),
        });
    }
}

fn pack((figure, moves): (FigureId, u32)) -> i64 {
    i64::from(figure) << 32 | i64::from(moves)
}

fn unpack(packed: i64) -> Option<(FigureId, u32)> {
    (packed >= 0).then_some(((packed >> 32) as FigureId, packed as u32))
}
