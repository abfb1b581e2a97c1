//! The shared vocabulary of declared tags: how figures and places state where they stand
//! on other expansions' rules. An expansion that brings a figure or a place tags it; the
//! rules that care read the tags, never a list of names.

use crate::rules::Rules;

/// A figure of flesh and blood: the dragon eats it (PD-8) and the traps take it (RP-6,
/// RP-7). The base game's follower has it.
pub const FLESH_AND_BLOOD: &str = "flesh-and-blood";

/// A place (feature kind) that keeps figures safe from the dragon and the traps (PD-8,
/// castles, the City of Carcassonne, the Wheel of Fortune, the school).
pub const SHELTER: &str = "shelter";

/// A place (feature kind) where no figure may stand (a river): a deployment onto it is
/// never a legal move, whoever offers it, and a command deploying or moving a figure
/// there is refused.
pub const NO_FIGURES: &str = "no-figures";

/// A figure that goes home when its owner's last follower leaves its feature (PD-9, RP-6,
/// builder, pig).
pub const RETURNS_WITH_LAST_FOLLOWER: &str = "returns-with-last-follower";

/// Per figure kind of the rules: whether it carries `tag`.
pub fn figure_kinds_tagged(rules: &Rules, tag: &str) -> Vec<bool> {
    rules
        .figure_kinds
        .iter()
        .map(|k| k.tags.iter().any(|t| t == tag))
        .collect()
}

/// Per feature kind of the rules: whether it carries `tag`.
pub fn feature_kinds_tagged(rules: &Rules, tag: &str) -> Vec<bool> {
    rules
        .vocab
        .kinds
        .iter()
        .map(|k| k.tags.iter().any(|t| t == tag))
        .collect()
}
