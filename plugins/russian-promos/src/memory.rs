//! What the expansion remembers, kept in the game state as its `ext` record:
//! `[n, figures seen on Solovei's road (n of them)..., (trapped figure, turn)...]`.

use carc_core::engine::Command;
use carc_core::expansion::Ctx;
use carc_core::figures::FigureId;

/// The expansion's record, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Figures standing on a Solovei road at the last check (a new one triggers the trap).
    pub seen: Vec<FigureId>,
    /// Trapped figures with the turn they were trapped in (RP-9: not released that turn).
    pub trapped: Vec<(FigureId, u32)>,
}

impl Memory {
    /// Reads the record.
    pub fn load(ctx: &Ctx) -> Memory {
        let d = ctx.my_data();
        let n = d.first().copied().unwrap_or(0).max(0) as usize;
        let seen = d.iter().skip(1).take(n).map(|&f| f as FigureId).collect();
        let rest: Vec<i64> = d.iter().skip(1 + n).copied().collect();
        let trapped = rest
            .chunks_exact(2)
            .map(|c| (c[0] as FigureId, c[1] as u32))
            .collect();
        Memory { seen, trapped }
    }

    /// The command that stores it.
    pub fn store(&self) -> Command {
        let mut data = vec![self.seen.len() as i64];
        data.extend(self.seen.iter().map(|&f| f as i64));
        for &(f, t) in &self.trapped {
            data.extend([f as i64, t as i64]);
        }
        Command::SetExtData { data }
    }
}
