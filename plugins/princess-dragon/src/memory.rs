//! What the expansion remembers between hooks, kept in the game state as its `ext` record:
//! `[fairy's follower or -1, dragon steps left, visited tile, visited tile, ...]`.

use carc_core::engine::Command;
use carc_core::expansion::Ctx;
use carc_core::figures::FigureId;

/// The expansion's record, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The follower the fairy stands next to (HiG), if any.
    pub fairy_follower: Option<FigureId>,
    /// Dragon steps left in the movement under way (0: none).
    pub steps_left: i64,
    /// Tiles (placement indices) the dragon has been on in this movement, the start first.
    pub visited: Vec<u32>,
}

impl Memory {
    /// Reads the record from the state.
    pub fn load(ctx: &Ctx) -> Memory {
        let d = ctx.my_data();
        Memory {
            fairy_follower: d.first().and_then(|&f| (f >= 0).then_some(f as FigureId)),
            steps_left: d.get(1).copied().unwrap_or(0),
            visited: d.iter().skip(2).map(|&t| t as u32).collect(),
        }
    }

    /// The fairy's follower, read without decoding the whole record.
    pub fn fairy_follower(ctx: &Ctx) -> Option<FigureId> {
        ctx.my_data()
            .first()
            .and_then(|&f| (f >= 0).then_some(f as FigureId))
    }

    /// Dragon steps left, read without decoding the whole record.
    pub fn steps_left(ctx: &Ctx) -> i64 {
        ctx.my_data().get(1).copied().unwrap_or(0)
    }

    /// The tiles visited in the movement under way, read without decoding.
    pub fn visited<'a>(ctx: &Ctx<'a>) -> &'a [i64] {
        ctx.my_data().get(2..).unwrap_or(&[])
    }

    /// Stores a new fairy's follower: one value changed, or the whole record when it is
    /// not laid out yet.
    pub fn set_fairy_follower(ctx: &Ctx, follower: Option<FigureId>, out: &mut Vec<Command>) {
        let value = follower.map_or(-1, i64::from);
        if ctx.my_data().len() < 2 {
            let mut memory = Memory::load(ctx);
            memory.fairy_follower = follower;
            out.push(memory.store());
        } else {
            out.push(Command::SetExtValue { index: 0, value });
        }
    }

    /// Stores one dragon step onto `tile`: a step fewer left, one more tile visited (after
    /// the last step, an empty list).
    pub fn record_step(ctx: &Ctx, tile: u32, out: &mut Vec<Command>) {
        let d = ctx.my_data();
        if d.len() < 2 {
            let mut memory = Memory::load(ctx);
            memory.steps_left -= 1;
            memory.visited.push(tile);
            out.push(memory.store());
            return;
        }
        if d[1] <= 1 {
            // The last step: the movement is over, and so is its list of tiles.
            out.push(Command::SetExtData {
                data: vec![d[0], 0],
            });
            return;
        }
        out.push(Command::SetExtValue {
            index: 1,
            value: d[1] - 1,
        });
        out.push(Command::SetExtValue {
            index: d.len() as u32,
            value: i64::from(tile),
        });
    }

    /// The command that stores the record.
    pub fn store(&self) -> Command {
        // Room for a whole movement's tiles, so that steps do not reallocate.
        let mut data = Vec::with_capacity(3 + crate::names::DRAGON_STEPS as usize);
        data.extend([self.fairy_follower.map_or(-1, i64::from), self.steps_left]);
        data.extend(self.visited.iter().map(|&t| t as i64));
        Command::SetExtData { data }
    }
}
