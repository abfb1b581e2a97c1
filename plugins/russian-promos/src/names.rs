//! What the expansion registers and the ids those names get under one set of rules.

use carc_sdk::{FigureClass, FigureKind, KindId, MarkerId, TileType, VerbId, View};

/// The decision point where the traps compete for a figure (RP-11).
pub const CAPTURE_POINT: &str = "figure-capture";
/// Vodyanoy's rule id at that point.
pub const VODYANOY_RULE: &str = "russian-promos:vodyanoy";
/// Solovei's rule id.
pub const SOLOVEI_RULE: &str = "russian-promos:solovei";

/// Baba Yaga's hut, the feature kind (RP-2).
pub const HUT_KIND: &str = "russian-promos:hut";
/// The marker on Solovei's road (RP-5).
pub const SOLOVEI_MARKER: &str = "russian-promos:solovei";
/// The marker on the Vodyanoy tile (RP-7).
pub const VODYANOY_MARKER: &str = "russian-promos:vodyanoy";
/// The record move that releases a trapped follower (RP-9).
pub const RELEASE_VERB: &str = "release";

/// The tag of figures the traps may take (RP-6, RP-7).
pub const FLESH_AND_BLOOD: &str = "flesh-and-blood";
/// The tag of feature kinds where figures are safe from the traps.
pub const SHELTER: &str = "shelter";

/// Option names.
pub mod opt {
    /// RP-OPT-1
    pub const HUT_VALUE: &str = "yaga-hut-value";
    /// RP-OPT-2
    pub const SETS: &str = "sets";
}

/// The manifest as shipped.
pub const MANIFEST_TOML: &str = include_str!("../manifest.toml");

/// The tile data as shipped.
pub const TILES_TOML: &str = include_str!("../../../tiledefs/russian-promos.toml");

/// The promo set that RP-OPT-2 `2013` leaves out of the supply.
pub const LATE_SET: &str = "2016";

/// This expansion's names resolved to ids under one set of rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ids {
    /// The hut's feature kind.
    pub hut: KindId,
    /// Solovei's marker (on its road).
    pub solovei: MarkerId,
    /// Vodyanoy's marker (on the tile).
    pub vodyanoy: MarkerId,
    /// The `release` move.
    pub release: VerbId,
    /// RP-OPT-1 `2013`: the hut itself is worth nothing at the end.
    pub hut_worth_nothing: bool,
    /// RP-OPT-2 `2013`: the tiles of the 2016 set stay out of the supply.
    pub sets_2013: bool,
    /// The tile types of the 2016 set.
    pub late_set: Vec<TileType>,
    /// Per figure kind: whether the traps take it (flesh and blood, and a player's).
    pub catchable: Vec<bool>,
    /// Per figure kind: whether it is a follower (RP-10 counts those).
    pub follower: Vec<bool>,
    /// Per feature kind: whether figures there are safe.
    pub shelter: Vec<bool>,
    /// Per tile type: whether it carries Vodyanoy.
    pub vodyanoy_tile: Vec<bool>,
    /// RP-11 as declared: whether Vodyanoy acts before Solovei at `figure-capture`.
    pub vodyanoy_first: bool,
    /// Per tile type: the feature kinds of its segments, in the order of its definition.
    pub tile_kinds: Vec<Vec<KindId>>,
}

impl Ids {
    /// Looks the names up (they were registered from the manifest).
    pub fn resolve(view: &View) -> Result<Ids, String> {
        fn need<T>(what: &str, found: Option<T>) -> Result<T, String> {
            found.ok_or_else(|| format!("the rules do not know `{what}`"))
        }
        let figure_kinds: Vec<FigureKind> = view.figure_kinds().collect();
        let late_set = view
            .tile_types()
            .filter(|&t| view.tile_type_in_set(t, LATE_SET))
            .collect();
        let vodyanoy = need(VODYANOY_MARKER, view.marker(VODYANOY_MARKER))?;
        Ok(Ids {
            hut: need(HUT_KIND, view.kind(HUT_KIND))?,
            solovei: need(SOLOVEI_MARKER, view.marker(SOLOVEI_MARKER))?,
            vodyanoy,
            release: need(RELEASE_VERB, view.verb(RELEASE_VERB))?,
            hut_worth_nothing: view.option_is(opt::HUT_VALUE, "2013"),
            sets_2013: view.option_is(opt::SETS, "2013"),
            late_set,
            catchable: figure_kinds
                .iter()
                .map(|&k| {
                    view.figure_kind_tagged(k, FLESH_AND_BLOOD)
                        && view.figure_class(k) != FigureClass::Neutral
                })
                .collect(),
            follower: figure_kinds
                .iter()
                .map(|&k| view.figure_class(k) == FigureClass::Follower)
                .collect(),
            shelter: view.kinds().map(|k| view.kind_tagged(k, SHELTER)).collect(),
            tile_kinds: view
                .tile_types()
                .map(|t| view.tile_type_kinds(t).collect())
                .collect(),
            vodyanoy_tile: view
                .tile_types()
                .map(|t| view.tile_type_has_marker(t, vodyanoy))
                .collect(),
            // Undeclared (not expected): Vodyanoy is the stronger trap (RP-11).
            vodyanoy_first: view
                .runs_before(CAPTURE_POINT, VODYANOY_RULE, SOLOVEI_RULE)
                .unwrap_or(true),
        })
    }

    /// Whether the traps take figures of this kind (if they are a player's).
    #[inline]
    pub fn is_catchable(&self, kind: FigureKind) -> bool {
        self.catchable.get(kind.index()).copied().unwrap_or(false)
    }

    /// Whether figures of this kind are followers.
    #[inline]
    pub fn is_follower(&self, kind: FigureKind) -> bool {
        self.follower.get(kind.index()).copied().unwrap_or(false)
    }

    /// Whether figures on features of this kind are safe from the traps.
    #[inline]
    pub fn is_shelter(&self, kind: KindId) -> bool {
        self.shelter.get(kind.index()).copied().unwrap_or(false)
    }

    /// Whether tiles of this type carry Vodyanoy.
    #[inline]
    pub fn is_vodyanoy_tile(&self, tile: TileType) -> bool {
        self.vodyanoy_tile
            .get(tile.index())
            .copied()
            .unwrap_or(false)
    }

    /// Whether RP-OPT-2 keeps tiles of this type out of the supply.
    pub fn excluded(&self, tile: TileType) -> bool {
        self.sets_2013 && self.late_set.contains(&tile)
    }

    /// The feature kinds of a tile type's segments (the order of [`View::segments`]).
    pub fn kinds_of(&self, tile: TileType) -> &[KindId] {
        self.tile_kinds
            .get(tile.index())
            .map_or(&[], |k| k.as_slice())
    }

    /// Whether a tile type has a segment of this kind.
    pub fn tile_has_kind(&self, tile: TileType, kind: KindId) -> bool {
        self.kinds_of(tile).contains(&kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ID;

    #[test]
    fn the_shipped_manifest_declares_the_names_resolved() {
        for name in ["\"hut\"", "\"solovei\"", "\"vodyanoy\"", "\"release\""] {
            assert!(MANIFEST_TOML.contains(name), "{name}");
        }
        assert!(MANIFEST_TOML.contains(&format!("id = \"{ID}\"")));
    }
}
