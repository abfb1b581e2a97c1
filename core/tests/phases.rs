//! Where expansions' phases go in the turn: after (or before) the phase each names, or of
//! several named, after the last that is in the turn (before the first), so that an
//! expansion can order its phase against another's that is not always there; never by
//! the order the expansions are listed in.

use std::collections::BTreeMap;

use carc_core::base::BaseGame;
use carc_core::expansion::{Expansion, Manifest};
use carc_core::manifest::{Anchor, PhaseDecl};
use carc_core::rules::Rules;

/// An expansion adding phases: (name, after, before).
struct Phases {
    id: &'static str,
    phases: Vec<(&'static str, Option<Anchor>, Option<Anchor>)>,
}

impl Expansion for Phases {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: self.id.into(),
            name: self.id.into(),
            version: "0.1.0".into(),
            phases: self
                .phases
                .iter()
                .map(|(name, after, before)| PhaseDecl {
                    name: name.to_string(),
                    after: after.clone(),
                    before: before.clone(),
                    when: None,
                    on_request: false,
                })
                .collect(),
            ..Manifest::default()
        }
    }
}

fn after(names: &[&str]) -> Option<Anchor> {
    Some(Anchor::Any(names.iter().map(|n| n.to_string()).collect()))
}

/// The dragon's movement after scoring, as The Princess and the Dragon's option places it.
fn dragon() -> Phases {
    Phases {
        id: "dragon",
        phases: vec![("dragon-move", Some("score".into()), None)],
    }
}

/// A wagon's decision after scoring, and after the dragon's movement when there is one.
fn wagon() -> Phases {
    Phases {
        id: "wagon",
        phases: vec![("wagon", after(&["score", "dragon-move"]), None)],
    }
}

fn turn(expansions: Vec<Phases>) -> Result<String, String> {
    let mut all: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    all.extend(
        expansions
            .into_iter()
            .map(|e| Box::new(e) as Box<dyn Expansion>),
    );
    let rules = Rules::new(all, &BTreeMap::new()).map_err(|e| e.to_string())?;
    Ok(rules.phases.join(" "))
}

#[test]
fn of_several_phases_named_a_phase_goes_after_the_last_in_the_turn() {
    assert_eq!(
        turn(vec![wagon()]).as_deref(),
        Ok("turn-start draw place-tile deploy score wagon turn-end")
    );
    // Either listing: the dragon's phase is placed first, as the wagon's names it.
    for expansions in [vec![dragon(), wagon()], vec![wagon(), dragon()]] {
        assert_eq!(
            turn(expansions).as_deref(),
            Ok("turn-start draw place-tile deploy score dragon-move wagon turn-end")
        );
    }
}

#[test]
fn of_several_phases_named_a_phase_goes_before_the_first_in_the_turn() {
    let early = Phases {
        id: "early",
        phases: vec![(
            "early",
            None,
            Some(Anchor::Any(vec!["dragon-move".into(), "score".into()])),
        )],
    };
    assert_eq!(
        turn(vec![early, dragon()]).as_deref(),
        Ok("turn-start draw place-tile deploy early score dragon-move turn-end")
    );
}

#[test]
fn a_phase_may_name_one_of_an_expansion_listed_later() {
    // `a-bell` is listed before `z-clock`, whose phase it follows.
    let bell = Phases {
        id: "a-bell",
        phases: vec![("bell", Some("clock".into()), None)],
    };
    let clock = Phases {
        id: "z-clock",
        phases: vec![("clock", Some("deploy".into()), None)],
    };
    assert_eq!(
        turn(vec![bell, clock]).as_deref(),
        Ok("turn-start draw place-tile deploy clock bell score turn-end")
    );
}

#[test]
fn two_phases_at_one_place_with_nothing_ordering_them_are_an_error() {
    let other = Phases {
        id: "other",
        phases: vec![("other", Some("score".into()), None)],
    };
    let err = turn(vec![dragon(), other]).expect_err("ambiguous");
    assert_eq!(
        err,
        "the phases `dragon-move` (expansion `dragon`) and `other` (expansion `other`) are \
         both placed after `score`, and nothing orders them: one of the expansions must \
         place its phase after (or before) the other's (for example `after = [\"score\", \
         \"dragon-move\"]` in the phase `other` of `other`'s manifest, or `after = \
         [\"score\", \"other\"]` in the phase `dragon-move` of `dragon`'s; a list of phases \
         asks for `carc = \"^1.5\"`)"
    );
    // The wagon's list orders it after the dragon's phase: no clash, as the fix says.
    assert!(turn(vec![dragon(), wagon()]).is_ok());
}

#[test]
fn a_phase_named_nowhere_in_the_turn_or_in_a_circle_is_an_error() {
    // Placed next to phases the turn lacks; a misspelled one is told the near one.
    for (id, anchor, said) in [
        (
            "lost",
            after(&["dragon-move", "barn"]),
            "expansion `lost` places the phase `lost` next to `dragon-move` or `barn`, none \
             of which is a phase of the turn",
        ),
        (
            "lost",
            Some("barn".into()),
            "expansion `lost` places the phase `lost` next to `barn`, which is not a phase of \
             the turn",
        ),
        (
            "late",
            Some("scoring".into()),
            "expansion `late` places the phase `late` next to `scoring`, which is not a phase \
             of the turn; did you mean `score`?",
        ),
    ] {
        let phases = Phases {
            id,
            phases: vec![(id, anchor, None)],
        };
        assert_eq!(turn(vec![phases]).expect_err("nowhere"), said);
    }
    let a = Phases {
        id: "a",
        phases: vec![("a", Some("b".into()), None)],
    };
    let b = Phases {
        id: "b",
        phases: vec![("b", None, Some("a".into()))],
    };
    // `c` waits on the circle without being part of it.
    let c = Phases {
        id: "c",
        phases: vec![("c", Some("a".into()), None)],
    };
    assert_eq!(
        turn(vec![c, a, b]).expect_err("a circle"),
        "the phases `a` (expansion `a`) and `b` (expansion `b`) are placed next to one \
         another in a circle: none can be placed first"
    );
    let itself = Phases {
        id: "itself",
        phases: vec![("loop", Some("loop".into()), None)],
    };
    assert_eq!(
        turn(vec![itself]).expect_err("itself"),
        "the phase `loop` (expansion `itself`) is placed next to itself"
    );
}

#[test]
fn the_turn_does_not_depend_on_the_listing() {
    // Two phases of one expansion that become placeable at different times, beside a
    // phase of another expansion that one of them names.
    let a = || Phases {
        id: "a",
        phases: vec![
            ("a1", after(&["score", "c"]), None),
            ("a2", Some("score".into()), None),
        ],
    };
    let b = || Phases {
        id: "b",
        phases: vec![("c", None, Some("score".into()))],
    };
    let first = turn(vec![a(), b()]).expect("a turn");
    assert_eq!(first, turn(vec![b(), a()]).expect("a turn"));
    assert_eq!(
        first,
        "turn-start draw place-tile deploy c score a1 a2 turn-end"
    );
}

#[test]
fn a_manifest_names_one_phase_or_several() {
    let m = Manifest::from_toml(
        "id = \"w\"\nname = \"W\"\nversion = \"0.1.0\"\n[[phase]]\nname = \"wagon\"\nafter \
         = [\"score\", \"dragon-move\"]\n[[phase]]\nname = \"bell\"\nbefore = \"turn-end\"\n",
        "manifest.toml",
    )
    .expect("a valid manifest");
    assert_eq!(m.phases[0].after, after(&["score", "dragon-move"]));
    assert_eq!(m.phases[1].before, Some(Anchor::from("turn-end")));
}

#[test]
fn a_phase_placed_next_to_no_phase_is_refused_located() {
    let text = "id = \"w\"\nname = \"W\"\nversion = \"0.1.0\"\n[[phase]]\nname = \"wagon\"\n\
                after = []\n";
    let err = Manifest::from_toml(text, "manifest.toml")
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("the phase `wagon` is placed after no phase: name one"),
        "{err}"
    );
    assert!(err.contains("manifest.toml:6:"), "{err}");
}
