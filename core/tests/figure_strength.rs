//! The decision point `figure-strength`: expansions with a rule there change how strong a
//! follower counts when a feature's majority is decided (BASE-8), one after another in
//! the order their rules are declared in, never in the order the expansions are listed;
//! a rule is asked only about the follower kinds it claims, and one that panics is
//! disabled while the scoring goes on.

use std::sync::Arc;

use carc_core::catalog::Catalog;
use carc_core::engine::{Command, Reason, Text};
use carc_core::expansion::{Ctx, Expansion, Manifest, RuleDecl};
use carc_core::figures::{FigureClass, FigureId, FigureKindDecl, Location};
use carc_core::record::{Format, ReplayError, ReplayOutcome, parse, replay};
use carc_core::strength::FIGURE_STRENGTH;

/// A rule at `figure-strength` changing the strength of the followers it claims:
/// `change(owner seat, strength so far)`.
struct Strength {
    id: &'static str,
    change: fn(u8, u32) -> u32,
    claims: &'static [&'static str],
    after: &'static [&'static str],
}

impl Expansion for Strength {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: self.id.into(),
            name: self.id.into(),
            version: "0.1.0".into(),
            rules: vec![RuleDecl {
                id: "strength".into(),
                point: FIGURE_STRENGTH.into(),
                claims: self.claims.iter().map(|c| c.to_string()).collect(),
                before: Vec::new(),
                after: self.after.iter().map(|r| r.to_string()).collect(),
                doc: "changes how strong a follower is".into(),
            }],
            ..Manifest::default()
        }
    }

    fn figure_strength(&self, ctx: &Ctx, figure: FigureId, strength: u32) -> u32 {
        let owner = ctx.state.figures[figure as usize].owner;
        (self.change)(owner, strength)
    }
}

/// Alice's followers count double.
fn double_alice() -> Strength {
    Strength {
        id: "double-alice",
        change: |owner, s| if owner == 0 { s * 2 } else { s },
        claims: &["follower"],
        after: &[],
    }
}

/// A follower stronger than 1 counts nothing.
fn strong_count_nothing() -> Strength {
    Strength {
        id: "strong-count-nothing",
        change: |_, s| if s > 1 { 0 } else { s },
        claims: &["follower"],
        after: &[],
    }
}

/// `double-alice`'s manifest under another id: one rule at `figure-strength` about the
/// base game's follower.
fn manifest_as(id: &str) -> Manifest {
    let mut m = double_alice().manifest();
    m.id = id.into();
    m.name = id.into();
    m
}

/// A rule that panics when asked.
struct Panics;

impl Expansion for Panics {
    fn manifest(&self) -> Manifest {
        manifest_as("panics")
    }

    fn figure_strength(&self, _ctx: &Ctx, _figure: FigureId, _strength: u32) -> u32 {
        panic!("a rule at figure-strength panics")
    }
}

/// A follower kind of its own (one per player), whose strength a rule claims: it counts
/// as many as the tiles of its feature.
struct Mayor;

impl Expansion for Mayor {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "mayor".into(),
            name: "Mayor".into(),
            version: "0.1.0".into(),
            figures: vec![FigureKindDecl {
                namespace: "mayor".into(),
                name: "mayor".into(),
                class: FigureClass::Follower,
                strength: 1,
                per_player: 1,
                neutral: 0,
                tags: Vec::new(),
            }],
            rules: vec![RuleDecl {
                id: "mayor".into(),
                point: FIGURE_STRENGTH.into(),
                claims: vec!["mayor".into()],
                before: Vec::new(),
                after: Vec::new(),
                doc: "a mayor counts the tiles of its feature".into(),
            }],
            ..Manifest::default()
        }
    }

    fn figure_strength(&self, _ctx: &Ctx, _figure: FigureId, _strength: u32) -> u32 {
        panic!("asked about a figure whose kind its rule does not claim")
    }
}

fn catalog(expansions: Vec<fn() -> Box<dyn Expansion>>) -> Catalog {
    let mut catalog = Catalog::new();
    for make in expansions {
        catalog.add(Arc::new(make)).expect("adds");
    }
    catalog
}

/// The record `tests/scenarios/base-05-joined-road-tie.toml` (BASE-5, BASE-8): Alice's
/// and Bob's thieves end up on one road of 7 tiles, which is then closed; with these
/// expansions enabled in this order.
fn tie_record(expansions: &[&str]) -> String {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/scenarios/base-05-joined-road-tie.toml"),
    )
    .expect("the scenario exists");
    let listed: Vec<String> = expansions.iter().map(|e| format!("\"{e}\"")).collect();
    let text = text.replace(
        "[game]\n",
        &format!("[game]\nexpansions = [{}]\n", listed.join(", ")),
    );
    // Only the scores are checked here, against what each case expects.
    text[..text.find("[expect]").expect("an [expect]")].to_string()
}

fn play(catalog: &Catalog, expansions: &[&str]) -> Result<ReplayOutcome, String> {
    let loaded =
        parse(&tie_record(expansions), "tie.toml", Format::Toml).map_err(|d| d.to_string())?;
    replay(&loaded, catalog).map_err(|e| match e {
        ReplayError::Failed { problems, .. } => problems.join("\n"),
        ReplayError::Invalid(d) => d.to_string(),
    })
}

fn no_faults(outcome: &ReplayOutcome) {
    let faults = outcome.game.faults();
    assert!(faults.is_empty(), "{faults:?}");
}

fn scores(outcome: &ReplayOutcome) -> (i32, i32) {
    let p = &outcome.game.state.players;
    (p[0].score, p[1].score)
}

#[test]
fn without_a_rule_the_tie_shares_the_road() {
    // Control (BASE-8): 1 against 1, both score the road's 7.
    let outcome = play(&catalog(vec![]), &[]).expect("plays");
    assert_eq!(scores(&outcome), (7, 7));
}

#[test]
fn a_stronger_follower_wins_the_majority_alone() {
    // Alice's thief counts 2 against Bob's 1 (BASE-8): she alone scores the road.
    let outcome = play(
        &catalog(vec![|| Box::new(double_alice())]),
        &["double-alice"],
    )
    .expect("plays");
    assert_eq!(scores(&outcome), (7, 0));
    no_faults(&outcome);
}

#[test]
fn the_declared_order_decides_however_the_expansions_are_listed() {
    // `strong-count-nothing` after `double-alice`: Alice's 2 counts nothing, Bob wins.
    // Before it: Alice's 1 stays 1, then doubles to 2, Alice wins. Either listing.
    let after = || -> Box<dyn Expansion> {
        Box::new(Strength {
            after: &["double-alice:strength"],
            ..strong_count_nothing()
        })
    };
    let before = || -> Box<dyn Expansion> {
        Box::new(Strength {
            after: &[],
            ..strong_count_nothing()
        })
    };
    let double_after = || -> Box<dyn Expansion> {
        Box::new(Strength {
            after: &["strong-count-nothing:strength"],
            ..double_alice()
        })
    };
    for listing in [
        ["double-alice", "strong-count-nothing"],
        ["strong-count-nothing", "double-alice"],
    ] {
        let outcome =
            play(&catalog(vec![|| Box::new(double_alice()), after]), &listing).expect("plays");
        assert_eq!(
            scores(&outcome),
            (0, 7),
            "nothing after double, {listing:?}"
        );
        let outcome = play(&catalog(vec![double_after, before]), &listing).expect("plays");
        assert_eq!(
            scores(&outcome),
            (7, 0),
            "double after nothing, {listing:?}"
        );
    }
}

#[test]
fn two_rules_claiming_one_kind_must_be_ordered() {
    let err = play(
        &catalog(vec![|| Box::new(double_alice()), || {
            Box::new(strong_count_nothing())
        }]),
        &["double-alice", "strong-count-nothing"],
    )
    .err()
    .expect("unordered rules are refused");
    assert!(err.contains("follower"), "{err}");
    assert!(err.contains("double-alice:strength"), "{err}");
    assert!(err.contains("strong-count-nothing:strength"), "{err}");
}

#[test]
fn a_rule_is_asked_only_about_the_kinds_it_claims() {
    // The mayor's rule panics if asked about a thief: the road is scored as a tie.
    let outcome = play(&catalog(vec![|| Box::new(Mayor)]), &["mayor"]).expect("plays");
    assert_eq!(scores(&outcome), (7, 7));
    no_faults(&outcome);
}

#[test]
fn a_rule_that_panics_is_disabled_and_the_scoring_goes_on() {
    let loaded = parse(&tie_record(&["panics"]), "tie.toml", Format::Toml).expect("valid");
    // The replay reports the fault; the game went on to its end.
    let Err(ReplayError::Failed { problems, game }) =
        replay(&loaded, &catalog(vec![|| Box::new(Panics)]))
    else {
        panic!("a fault fails the replay");
    };
    assert!(game.is_over(), "{problems:?}");
    // Nothing of its rule counts: a tie.
    let p = &game.state.players;
    assert_eq!((p[0].score, p[1].score), (7, 7));
    let faults = game.faults();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert!(
        faults[0].contains("expansion `panics` panicked in `figure_strength`")
            && faults[0].contains("a rule at figure-strength panics"),
        "{faults:?}"
    );
}

#[test]
fn a_claim_must_be_a_follower_kind_of_the_game() {
    for (claim, words) in [
        (
            "farmhand",
            "rule `bad:strength` at `figure-strength` claims `farmhand`, which is not a figure \
             kind of the game",
        ),
        (
            "pig",
            "rule `bad:strength` at `figure-strength` claims `pig`, which is not a follower: \
             only followers count in majorities (X-2)",
        ),
    ] {
        struct Bad(&'static str);
        impl Expansion for Bad {
            fn manifest(&self) -> Manifest {
                let mut m = manifest_as("bad");
                m.rules[0].claims = vec![self.0.into()];
                m.figures = vec![FigureKindDecl {
                    namespace: "bad".into(),
                    name: "pig".into(),
                    class: FigureClass::Special,
                    strength: 0,
                    per_player: 1,
                    neutral: 0,
                    tags: Vec::new(),
                }];
                m
            }
        }
        let mut catalog = Catalog::new();
        catalog
            .add(Arc::new(move || Box::new(Bad(claim))))
            .expect("adds");
        let err = play(&catalog, &["bad"]).err().expect("refused");
        assert!(err.contains(words), "{err}");
    }
}

#[test]
fn a_rule_claims_something_and_an_expansion_has_one_rule_there() {
    struct Rules2(bool);
    impl Expansion for Rules2 {
        fn manifest(&self) -> Manifest {
            let mut m = double_alice().manifest();
            if self.0 {
                m.rules[0].claims.clear();
            } else {
                let mut second = m.rules[0].clone();
                second.id = "again".into();
                second.after = vec!["double-alice:strength".into()];
                m.rules.push(second);
            }
            m
        }
    }
    for (empty, words) in [
        (
            true,
            "rule `double-alice:strength` at `figure-strength` claims nothing; it claims the \
             follower kinds whose strength it changes (`claims = [\"mayor\"]`)",
        ),
        (
            false,
            "expansion `double-alice` has more than one rule at `figure-strength`; it is asked \
             once for each follower counted, so it declares one",
        ),
    ] {
        let mut catalog = Catalog::new();
        catalog
            .add(Arc::new(move || Box::new(Rules2(empty))))
            .expect("adds");
        let err = play(&catalog, &["double-alice"]).err().expect("refused");
        assert!(err.contains(words), "{err}");
    }
}

/// A rule that panics when asked, and a hook at the end of each turn that asks who leads
/// every occupied feature (so that its own rule is asked inside it) and then scores 100
/// for the first seat.
struct AsksInside;

impl Expansion for AsksInside {
    fn manifest(&self) -> Manifest {
        manifest_as("asks-inside")
    }

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        if ctx.phase != "turn-end" {
            return;
        }
        let graph = &ctx.state.board.graph;
        for node in 0..graph.len() as u32 {
            let _ = carc_core::strength::majority(ctx, node);
        }
        out.push(Command::Score {
            player: 0,
            points: 100,
            reason: Reason::Text(Text::Borrowed("asking")),
        });
    }

    fn figure_strength(&self, _ctx: &Ctx, _figure: FigureId, _strength: u32) -> u32 {
        panic!("a rule at figure-strength panics inside its own hook")
    }
}

#[test]
fn a_rule_failing_inside_its_own_hook_disables_it_and_drops_that_hooks_commands() {
    let loaded = parse(&tie_record(&["asks-inside"]), "tie.toml", Format::Toml).expect("valid");
    let Err(ReplayError::Failed { game, .. }) =
        replay(&loaded, &catalog(vec![|| Box::new(AsksInside)]))
    else {
        panic!("a fault fails the replay");
    };
    let faults = game.faults();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert!(
        faults[0].contains("expansion `asks-inside` panicked in `figure_strength`"),
        "{faults:?}"
    );
    // Its rule failed in the first turn's end (a follower stands on the board), so no
    // 100 was scored; the game went on to the same end as without it (a tie).
    let p = &game.state.players;
    assert_eq!((p[0].score, p[1].score), (7, 7));
}

/// A rule asking for a majority while it is asked: that majority counts the kinds'
/// strengths alone (no rule is asked inside itself).
struct AsksWhileAsked;

impl Expansion for AsksWhileAsked {
    fn manifest(&self) -> Manifest {
        manifest_as("asks-while-asked")
    }

    fn figure_strength(&self, ctx: &Ctx, figure: FigureId, strength: u32) -> u32 {
        let Location::Feature(node) = ctx.state.figures[figure as usize].at else {
            return strength;
        };
        // 1 against 1 by the kinds' strengths: a tie, so Alice's follower counts double.
        if carc_core::strength::majority(ctx, node).len() == 2
            && ctx.state.figures[figure as usize].owner == 0
        {
            strength * 2
        } else {
            strength
        }
    }
}

#[test]
fn a_rule_asking_for_a_majority_while_it_is_asked_gets_the_kinds_strengths() {
    let outcome = play(
        &catalog(vec![|| Box::new(AsksWhileAsked)]),
        &["asks-while-asked"],
    )
    .expect("plays");
    assert_eq!(scores(&outcome), (7, 0));
    no_faults(&outcome);
}
