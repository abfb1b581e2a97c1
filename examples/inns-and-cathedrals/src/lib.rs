//! Inns and cathedrals (of Inns & Cathedrals) as a carc expansion plugin, written against
//! the SDK alone: what a road with an inn and a city with a cathedral are worth, changed
//! at the decision point `feature-worth` (see README.md for the rules).
//!
//! - IC-1 Inn: a completed road with an inn scores 2 per tile (not 1); a road with an inn
//!   left unfinished at the end scores nothing.
//! - IC-2 Cathedral: a completed city with a cathedral scores 3 per tile and 3 per
//!   pennant (not 2); a city with a cathedral left unfinished at the end scores nothing.

use carc_sdk::{Expansion, Hooks, KindId, MarkerId, SegmentId, View};

/// The expansion's id.
pub const ID: &str = "inns-and-cathedrals";

/// The expansion, for one set of rules.
pub struct InnsAndCathedrals {
    inn: MarkerId,
    cathedral: MarkerId,
    road: KindId,
    city: KindId,
}

impl Expansion for InnsAndCathedrals {
    const MANIFEST: &'static str = include_str!("../manifest.toml");
    const TILES: &'static [(&'static str, &'static str)] =
        &[("tiles.toml", include_str!("../tiles.toml"))];

    fn new(view: &View) -> Result<Self, String> {
        let marker = |name: &str| view.marker(name).ok_or(format!("no marker `{name}`"));
        let kind = |name: &str| view.kind(name).ok_or(format!("no feature kind `{name}`"));
        Ok(InnsAndCathedrals {
            inn: marker("inn")?,
            cathedral: marker("cathedral")?,
            road: kind("road")?,
            city: kind("city")?,
        })
    }

    fn hooks_in(&self, _phase: &str) -> Hooks {
        // Nothing happens in any phase: the engine asks `feature_worth` as it scores.
        Hooks::NONE
    }

    fn feature_worth(&self, view: &View, segment: SegmentId, worth: i32) -> i32 {
        let kind = view.segment_kind(segment);
        let marker = if kind == self.road {
            self.inn
        } else if kind == self.city {
            self.cathedral
        } else {
            return worth;
        };
        if !view.feature_has_marker(segment, marker) {
            return worth;
        }
        if !view.is_complete(segment) {
            // Only at the end of the game is an unfinished road or city scored.
            return 0;
        }
        let tiles = view.feature_tiles(segment).count() as i32;
        if kind == self.road {
            2 * tiles
        } else {
            3 * (tiles + i32::from(view.feature(segment).pennants))
        }
    }
}

carc_sdk::export_expansion!(InnsAndCathedrals);
