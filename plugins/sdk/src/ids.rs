//! Handles and small ids. Their numbers mean something only to the engine: get them from
//! [`View`](crate::View) queries, compare them, keep them in the expansion's record
//! (through [`FigureId::to_record`] and friends), never compute them.

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub(crate) $inner);

        impl $name {
            /// The handle as a number for the expansion's record.
            #[inline]
            pub const fn to_record(self) -> i64 {
                self.0 as i64
            }

            /// A handle stored with [`Self::to_record`] (`None` for a negative or
            /// out-of-range number).
            #[inline]
            pub fn from_record(value: i64) -> Option<Self> {
                <$inner>::try_from(value).ok().map($name)
            }

            #[inline]
            pub(crate) fn raw(self) -> i64 {
                self.0 as i64
            }

            #[inline]
            pub(crate) fn from_raw(value: i64) -> Option<Self> {
                Self::from_record(value)
            }
        }
    };
}

/// Ids of things the rules declare are dense: `0..count` in the rules' order, so an
/// expansion may keep a table indexed by them (worked out once in
/// [`Expansion::new`](crate::Expansion::new)).
macro_rules! dense {
    ($name:ident, $what:literal) => {
        impl $name {
            #[doc = concat!("This ", $what, "'s position among the rules' ", $what, "s (`0..count`), for tables indexed by ", $what, ".")]
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

handle! {
    /// A figure of the game (a follower, the dragon, …), wherever it is.
    FigureId(u32)
}
handle! {
    /// A tile on the board.
    TileId(u32)
}
handle! {
    /// One segment of a feature on a placed tile (a road, city, field or monastery as
    /// printed on that tile). Segments joined across tiles form one feature.
    SegmentId(u32)
}
handle! {
    /// A tile type (`base:D`, `pd:volcano`).
    TileType(u32)
}
dense! { TileType, "tile type" }
handle! {
    /// A feature kind (`city`, `road`, `field`, `monastery`, an expansion's own).
    KindId(u16)
}
dense! { KindId, "feature kind" }
handle! {
    /// A marker printed on tiles or segments (`volcano`, `princess`, …).
    MarkerId(u16)
}
handle! {
    /// A kind of figure (`follower`, `dragon`, `fairy`, …).
    FigureKind(u16)
}
dense! { FigureKind, "figure kind" }
handle! {
    /// A record verb (a move kind such as `fairy`).
    VerbId(u16)
}
handle! {
    /// A phase of the turn.
    PhaseId(u16)
}

/// A player's seat, 0-based in turn order.
pub type PlayerId = u8;

/// The broad class of a figure kind, as its manifest declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FigureClass {
    /// A player's follower: counts for majorities.
    Follower,
    /// A player's special figure (builder, pig): counts for no majority.
    Special,
    /// Belongs to nobody (dragon, fairy).
    Neutral,
}

impl FigureClass {
    #[inline]
    pub(crate) fn from_raw(v: i64) -> FigureClass {
        match v {
            0 => FigureClass::Follower,
            1 => FigureClass::Special,
            _ => FigureClass::Neutral,
        }
    }
}
