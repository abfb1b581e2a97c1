//! Board geometry: positions, sides, rotations and the twelve edge ports.
//!
//! Conventions (`docs/tile-data.md`): x grows to the east, y to the south; the start tile
//! lies at (0, 0). Rotations are clockwise quarter turns. Every tile edge has three
//! ports; going clockwise from the north-west corner they are
//! `NNW N NNE | ENE E ESE | SSE S SSW | WSW W WNW`.

use std::fmt;
use std::str::FromStr;

/// A square of the board, `(x, y)` with x to the east and y to the south.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub struct Pos {
    /// Column, growing to the east.
    pub x: i32,
    /// Row, growing to the south.
    pub y: i32,
}

impl Pos {
    /// The start tile's square.
    pub const ORIGIN: Pos = Pos { x: 0, y: 0 };

    /// A position from its coordinates.
    #[inline]
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The orthogonal neighbour across `side`.
    #[inline]
    pub fn step(self, side: Side) -> Pos {
        let (dx, dy) = side.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// The four orthogonal neighbours, in the order N, E, S, W.
    #[inline]
    pub fn orthogonal(self) -> [Pos; 4] {
        Side::ALL.map(|s| self.step(s))
    }

    /// The eight surrounding squares, row by row from the north-west.
    #[inline]
    pub fn surrounding(self) -> [Pos; 8] {
        let Pos { x, y } = self;
        [
            Pos::new(x - 1, y - 1),
            Pos::new(x, y - 1),
            Pos::new(x + 1, y - 1),
            Pos::new(x - 1, y),
            Pos::new(x + 1, y),
            Pos::new(x - 1, y + 1),
            Pos::new(x, y + 1),
            Pos::new(x + 1, y + 1),
        ]
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// One of the four sides of a square (also the four step directions).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub enum Side {
    /// North (towards negative y).
    N,
    /// East (towards positive x).
    E,
    /// South (towards positive y).
    S,
    /// West (towards negative x).
    W,
}

impl Side {
    /// All sides clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// Index 0..4 clockwise from north.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with index `i % 4`.
    #[inline]
    pub const fn from_index(i: usize) -> Side {
        Side::ALL[i % 4]
    }

    /// The side facing this one across an edge.
    #[inline]
    pub const fn opposite(self) -> Side {
        Side::from_index(self.index() + 2)
    }

    /// Unit step `(dx, dy)` across this side.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The side's middle port.
    pub const fn middle_port(self) -> Port {
        Port(self as u8 * 3 + 1)
    }

    /// The side's letter.
    pub const fn letter(self) -> &'static str {
        ["N", "E", "S", "W"][self as usize]
    }

    /// Parses `N`, `E`, `S` or `W`.
    pub fn parse(s: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|d| d.letter() == s)
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// A clockwise rotation by a whole number of quarter turns.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Rotation(u8);

impl Rotation {
    /// All four rotations: 0, 90, 180, 270 degrees.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// A rotation from a number of quarter turns (taken modulo 4).
    #[inline]
    pub const fn quarter_turns(n: u8) -> Rotation {
        Rotation(n % 4)
    }

    /// The number of clockwise quarter turns, 0..4.
    #[inline]
    pub const fn turns(self) -> u8 {
        self.0
    }

    /// Degrees clockwise: 0, 90, 180 or 270.
    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }

    /// A rotation from degrees; only 0, 90, 180 and 270 are valid.
    pub fn from_degrees(degrees: i64) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// Where a port of the unrotated tile ends up on the board.
    pub const fn apply(self, port: Port) -> Port {
        Port((port.0 + 3 * self.0) % 12)
    }

    /// Where a side of the unrotated tile ends up on the board.
    pub const fn apply_side(self, side: Side) -> Side {
        Side::from_index(side.index() + self.0 as usize)
    }

    /// The inverse rotation.
    pub const fn inverse(self) -> Rotation {
        Rotation((4 - self.0) % 4)
    }
}

/// One of the twelve edge ports, numbered 0..12 clockwise from `NNW`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Port(u8);

/// Port names, clockwise from the north-west corner.
pub const PORT_NAMES: [&str; 12] = [
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW",
];

impl Port {
    /// All ports clockwise from `NNW`.
    pub const ALL: [Port; 12] = {
        let mut ports = [Port(0); 12];
        let mut i = 0;
        while i < 12 {
            ports[i] = Port(i as u8);
            i += 1;
        }
        ports
    };

    /// The port's number, 0..12.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The port with number `i` (must be below 12).
    #[inline]
    pub const fn from_index(i: usize) -> Port {
        assert!(i < 12);
        Port(i as u8)
    }

    /// The side this port lies on.
    #[inline]
    pub const fn side(self) -> Side {
        Side::from_index(self.0 as usize / 3)
    }

    /// Whether this is the middle port of its side (where roads end).
    pub const fn is_middle(self) -> bool {
        self.0 % 3 == 1
    }

    /// The port of the neighbouring tile that touches this one across the edge.
    #[inline]
    pub const fn facing(self) -> Port {
        match self.side() {
            Side::N | Side::S => Port(8 - self.0),
            Side::E | Side::W => Port(14 - self.0),
        }
    }

    /// The port's name, e.g. `NNE`.
    pub const fn name(self) -> &'static str {
        PORT_NAMES[self.0 as usize]
    }

    /// Bit for this port in a 12-bit port set.
    #[inline]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl FromStr for Port {
    type Err = ();
    fn from_str(s: &str) -> Result<Port, ()> {
        PORT_NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Port(i as u8))
            .ok_or(())
    }
}

impl fmt::Display for Port {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_ports_pair_up_across_edges() {
        for p in Port::ALL {
            assert_eq!(p.facing().facing(), p);
            assert_eq!(p.facing().side(), p.side().opposite());
            assert_eq!(p.facing().is_middle(), p.is_middle());
        }
        assert_eq!("NNW".parse::<Port>().unwrap().facing().name(), "SSW");
        assert_eq!("ENE".parse::<Port>().unwrap().facing().name(), "WNW");
    }

    #[test]
    fn rotation_moves_ports_clockwise() {
        let n: Port = "N".parse().unwrap();
        assert_eq!(Rotation::quarter_turns(1).apply(n).name(), "E");
        assert_eq!(Rotation::quarter_turns(3).apply(n).name(), "W");
        let nnw: Port = "NNW".parse().unwrap();
        assert_eq!(Rotation::quarter_turns(2).apply(nnw).name(), "SSE");
        for r in Rotation::ALL {
            for p in Port::ALL {
                assert_eq!(r.inverse().apply(r.apply(p)), p);
            }
        }
    }
}
