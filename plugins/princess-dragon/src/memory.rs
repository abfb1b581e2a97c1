//! What the expansion remembers between hooks, kept in the game state as its `ext` record:
//! `[fairy's follower or -1, tile the dragon's movement started on, tile of step 1, ...]`.
//! A movement is under way while fewer than six steps are recorded; its tiles are cleared
//! when the next dragon tile or any later tile is placed.

use carc_core::engine::Command;
use carc_core::expansion::Ctx;
use carc_core::figures::FigureId;

use crate::names::DRAGON_STEPS;

/// The expansion's record, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The follower the fairy stands next to (HiG), if any.
    pub fairy_follower: Option<FigureId>,
    /// Tiles (placement indices) the dragon has been on in this movement, the start first
    /// (empty: no movement).
    pub visited: Vec<u32>,
}

impl Memory {
    /// Reads the record from the state.
    pub fn load(ctx: &Ctx) -> Memory {
        let d = ctx.my_data();
        Memory {
            fairy_follower: Memory::fairy_follower(ctx),
            visited: d.iter().skip(1).map(|&t| t as u32).collect(),
        }
    }

    /// The fairy's follower, read without decoding the whole record.
    pub fn fairy_follower(ctx: &Ctx) -> Option<FigureId> {
        ctx.my_data()
            .first()
            .and_then(|&f| (f >= 0).then_some(f as FigureId))
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

    /// Stores a new fairy's follower (one value changed).
    pub fn set_fairy_follower(follower: Option<FigureId>, out: &mut Vec<Command>) {
        out.push(Command::SetExtValue {
            index: 0,
            value: follower.map_or(-1, i64::from),
        });
    }

    /// Stores one dragon step onto `tile`: one more tile visited, so a step fewer left.
    pub fn record_step(ctx: &Ctx, tile: u32, out: &mut Vec<Command>) {
        out.push(Command::SetExtValue {
            index: ctx.my_data().len().max(1) as u32,
            value: i64::from(tile),
        });
    }

    /// The command that stores the record.
    pub fn store(&self) -> Command {
        // Room for a whole movement's tiles, so that steps do not reallocate.
        let mut data = Vec::with_capacity(2 + DRAGON_STEPS as usize);
        data.push(self.fairy_follower.map_or(-1, i64::from));
        data.extend(self.visited.iter().map(|&t| i64::from(t)));
        Command::SetExtData { data }
    }
}
