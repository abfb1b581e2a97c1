//! What the expansion registers and the indices those names get in one game.

use carc_core::engine::VerbId;
use carc_core::expansion::Manifest;
use carc_core::rules::Rules;
use carc_core::tags;
use carc_core::tiles::{KindId, MarkerId};

use crate::ID;

/// The decision point where the traps compete for a figure (RP-11).
pub const CAPTURE_POINT: &str = "figure-capture";
/// The rule ids at that point.
pub const VODYANOY_RULE: &str = "russian-promos:vodyanoy";
/// Solovei's rule id.
pub const SOLOVEI_RULE: &str = "russian-promos:solovei";

/// Option names.
pub mod opt {
    /// RP-OPT-1
    pub const HUT_VALUE: &str = "yaga-hut-value";
    /// RP-OPT-2
    pub const SETS: &str = "sets";
}

/// The manifest as shipped.
pub const MANIFEST_TOML: &str = include_str!("../manifest.toml");

/// The declarations, from `manifest.toml`.
pub fn manifest() -> Manifest {
    Manifest::from_toml(MANIFEST_TOML, "plugins/russian-promos/manifest.toml").unwrap_or_default()
}

/// This expansion's names resolved to indices in one game's rules.
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
    /// Per figure kind: whether the traps take it (flesh and blood, and a player's).
    pub catchable: Vec<bool>,
    /// Per feature kind: whether figures there are safe.
    pub shelter: Vec<bool>,
    /// RP-11 as declared: whether Vodyanoy acts before Solovei at `figure-capture`.
    pub vodyanoy_first: bool,
}

impl Ids {
    /// Looks the names up in the rules.
    pub fn resolve(rules: &Rules) -> Ids {
        let me = rules.expansion_index(ID).unwrap_or(usize::MAX);
        Ids {
            hut: rules
                .vocab
                .kind(&format!("{ID}:hut"))
                .unwrap_or(KindId::MAX),
            solovei: rules
                .vocab
                .marker(&format!("{ID}:solovei"))
                .unwrap_or(MarkerId::MAX),
            vodyanoy: rules
                .vocab
                .marker(&format!("{ID}:vodyanoy"))
                .unwrap_or(MarkerId::MAX),
            release: rules.verb("release").map_or(VerbId::MAX, |(v, _)| v),
            hut_worth_nothing: rules.option(me, opt::HUT_VALUE) == "2013",
            catchable: tags::figure_kinds_tagged(rules, tags::FLESH_AND_BLOOD)
                .into_iter()
                .zip(&rules.figure_kinds)
                .map(|(tagged, k)| tagged && k.class != carc_core::figures::FigureClass::Neutral)
                .collect(),
            shelter: tags::feature_kinds_tagged(rules, tags::SHELTER),
            vodyanoy_first: rules
                .plan
                .first_of(CAPTURE_POINT, VODYANOY_RULE, SOLOVEI_RULE)
                .is_none_or(|first| first == VODYANOY_RULE),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_shipped_manifest_parses() {
        let m = carc_core::manifest::Manifest::from_toml(super::MANIFEST_TOML, "manifest.toml");
        assert!(
            m.is_ok(),
            "{}",
            m.err().map(|d| d.to_string()).unwrap_or_default()
        );
    }
}
