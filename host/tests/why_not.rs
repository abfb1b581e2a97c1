//! Why a move is illegal, in the words of the rule that refuses it (issue 12: "an
//! expansion can say why one of its moves is illegal"; SDK `Expansion::why_not`,
//! protocol 1.2).
//!
//! Each case replays a scenario record whose move `error_at` must be refused, without its
//! `error_at`: `carc replay` then fails at that move and says why. The reason must come
//! from the rule that refuses it (the rule's number in it): the base game, The Princess and
//! the Dragon, the Russian promos, each with the expansions loaded as plugins, and the
//! engine's own reason where no rule gives one.

mod common;

use common::{carc, scratch, stderr};

/// `(scenario in tests/scenarios, words the reason must hold)`; words beginning with
/// `is illegal: ` are the whole reason, to the end of its line.
const CASES: [(&str, &str); 23] = [
    // The engine itself: the tile was not drawn, or it does not fit.
    (
        "base-03-illegal-wrong-tile",
        "that is not the tile just drawn (`base:U` is)",
    ),
    (
        "base-04-illegal-edge-mismatch",
        "the tile does not fit there: it must touch the board and match every edge (BASE-4)",
    ),
    (
        "base-04-place-on-occupied-square-refused",
        "is illegal: the square (0, 0) already holds a tile (BASE-4)",
    ),
    (
        "base-04-place-discarded-tile-refused",
        "that is not the tile just drawn (`base:U` is); the `base:C` drawn before it in this \
         turn fitted nowhere and was discarded (BASE-4)",
    ),
    // A tile discarded in an earlier turn is no excuse for this one's.
    (
        "base-04-place-tile-discarded-last-turn-refused",
        "is illegal: that is not the tile just drawn (`base:U` is)",
    ),
    (
        "pd-07-place-set-aside-tile-refused",
        "that is not the tile just drawn (`base:U` is); the `pd:dragon-road-straight` drawn \
         before it in this turn was set aside, to come back later",
    ),
    // The base game (BASE-3, BASE-5).
    (
        "base-03-deploy-other-tile",
        "a follower goes only onto a feature of the tile just placed (BASE-3)",
    ),
    (
        "base-05-occupied-road-rejected",
        "that road already holds a follower",
    ),
    (
        "base-05-occupied-city-rejected",
        "that city already holds a follower",
    ),
    (
        "base-05-no-followers-left",
        "you have no follower left in your supply",
    ),
    // The Princess and the Dragon.
    ("pd-03-fairy-not-onto-dragon-tile", "(PD-3)"),
    ("audit3-pd03-volcano-road-deploy-refused", "(PD-3)"),
    // Each refused dragon step says which of PD-5's and PD-12's limits stops it.
    (
        "pd-05-refuse-visited-tile",
        "the dragon has already entered the tile to its east in this movement (PD-5)",
    ),
    (
        "pd-05-refuse-start-tile",
        "the dragon started this movement from the tile to its south and may not return to it \
         (PD-5)",
    ),
    (
        "pd-05-refuse-empty-square",
        "no tile is placed to the south of the dragon, and the dragon steps only onto placed \
         tiles (PD-5)",
    ),
    (
        "pd-12-dragon-refused-fairy-tile",
        "the fairy's tile is to the east of the dragon, and the dragon never enters it (PD-12)",
    ),
    (
        "pd-11-fairy-other-players-follower-refused",
        "one of your own followers",
    ),
    (
        "pd-opt3-fairy-same-tile-refused",
        "option fairy-placement = on-tile",
    ),
    ("pd-16-portal-occupied-refused", "(PD-16)"),
    (
        "pd-opt2-princess-must-pass-refused",
        "(PD-17, option princess = must)",
    ),
    (
        "audit6-xp-princess-spares-monk-in-city",
        "a knight of the city she joins, named by the tile it stands on and a port of the \
         city there (PD-17)",
    ),
    // The Russian promos.
    (
        "rp-07-vodyanoy-own-tile-deploy-refused",
        "on the Vodyanoy tile",
    ),
    ("rp-09-release-same-turn-refused", "(RP-9)"),
];

#[test]
fn a_refused_move_is_explained_by_the_rule_that_refuses_it() {
    let dir = scratch("why-not");
    let mut failures = Vec::new();
    for (name, words) in CASES {
        let text =
            std::fs::read_to_string(common::root().join(format!("tests/scenarios/{name}.toml")))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        let at: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("error_at = "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name}: a record with `error_at`"));
        let without: String = text
            .lines()
            .filter(|l| !l.starts_with("error_at = "))
            .map(|l| format!("{l}\n"))
            .collect();
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(&path, without).expect("written");
        let o = carc(&["replay", path.to_str().expect("UTF-8")]);
        let err = stderr(&o);
        let line = err
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("move {at} (")))
            .unwrap_or_default();
        let said = if words.starts_with("is illegal: ") {
            line.ends_with(words)
        } else {
            line.contains(words)
        };
        if o.status.code() != Some(1) || !line.contains("is illegal: ") || !said {
            failures.push(format!(
                "{name}: expected move {at} refused with `{words}`:\n{err}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
