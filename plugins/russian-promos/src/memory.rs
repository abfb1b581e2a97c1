//! What the expansion remembers, kept in the game as its record:
//! `[n, figures seen on Solovei's road (n of them)..., (trapped figure, turn)...]`,
//! figures as [`FigureId::to_record`].

use carc_sdk::{Command, FigureId};

/// The expansion's record, decoded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Figures standing on a Solovei road at the last check (a new one triggers the trap).
    pub seen: Vec<FigureId>,
    /// Trapped figures with the turn they were trapped in (RP-9: not released that turn).
    pub trapped: Vec<(FigureId, u32)>,
}

/// The record's two parts, undecoded: the figures seen on Solovei's road, and the
/// `(trapped figure, turn)` pairs.
pub fn parts(record: &[i64]) -> (&[i64], &[i64]) {
    let n = record.first().copied().unwrap_or(0).max(0) as usize;
    let rest = record.get(1..).unwrap_or(&[]);
    rest.split_at(n.min(rest.len()))
}

/// The `(trapped figure, turn)` pairs of the record, without decoding the rest.
pub fn trapped(record: &[i64]) -> impl Iterator<Item = (FigureId, u32)> + '_ {
    parts(record)
        .1
        .chunks_exact(2)
        .filter_map(|c| Some((FigureId::from_record(c[0])?, c[1] as u32)))
}

impl Memory {
    /// Reads the record.
    pub fn load(record: &[i64]) -> Memory {
        let (seen, _) = parts(record);
        Memory {
            seen: seen
                .iter()
                .filter_map(|&f| FigureId::from_record(f))
                .collect(),
            trapped: trapped(record).collect(),
        }
    }

    /// The command that stores it. Remembering nothing stores an empty record, so the
    /// hooks that wake on a record (see the manifest's `[[wake]]`) sleep again.
    pub fn store(&self) -> Command {
        if self.seen.is_empty() && self.trapped.is_empty() {
            return Command::SetRecord(Vec::new());
        }
        let mut data = Vec::with_capacity(1 + self.seen.len() + 2 * self.trapped.len());
        data.push(self.seen.len() as i64);
        data.extend(self.seen.iter().map(|f| f.to_record()));
        for &(f, t) in &self.trapped {
            data.extend([f.to_record(), i64::from(t)]);
        }
        Command::SetRecord(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(n: i64) -> FigureId {
        FigureId::from_record(n).expect("a figure")
    }

    #[test]
    fn the_record_round_trips() {
        let m = Memory {
            seen: vec![figure(3), figure(9)],
            trapped: vec![(figure(4), 7), (figure(12), 9)],
        };
        let Command::SetRecord(data) = m.store() else {
            panic!("a record");
        };
        assert_eq!(data, [2, 3, 9, 4, 7, 12, 9]);
        assert_eq!(Memory::load(&data), m);
        assert_eq!(parts(&data), (&[3, 9][..], &[4, 7, 12, 9][..]));
    }

    #[test]
    fn remembering_nothing_stores_an_empty_record() {
        let Command::SetRecord(data) = Memory::default().store() else {
            panic!("a record");
        };
        assert!(data.is_empty());
    }

    #[test]
    fn an_empty_record_remembers_nothing() {
        assert_eq!(Memory::load(&[]), Memory::default());
        assert_eq!(trapped(&[]).count(), 0);
        assert_eq!(parts(&[0]), (&[][..], &[][..]));
    }
}
