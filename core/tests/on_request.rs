//! Phases declared `on_request` run only in the turns in which an expansion asks for them
//! (`Command::RequestPhase`); in every other turn the engine skips them without calling a
//! hook. (The dragon's movement is such a phase, PD-4.)

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::engine::{Action, Arg, ArgKind, Command, Event, EventKind, Reason};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest, VerbDecl};
use carc_core::manifest::PhaseDecl;
use carc_core::rules::Rules;

/// When the bell expansion asks for its phase.
#[derive(Clone, Copy, Debug)]
enum Ask {
    /// When a tile is placed in an even-numbered turn.
    EvenTurns,
    /// At the end of every turn, after the bell's phase has passed.
    TooLate,
    /// With a phase index the turn does not have.
    NoSuchPhase,
}

/// A phase `bell` after `place-tile`, run on request: entering it scores 1 point for the
/// current player, and it offers one decision (`ring`).
struct Bell {
    ask: Ask,
    entered: Arc<AtomicU32>,
    offered: Arc<AtomicU32>,
}

impl Expansion for Bell {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "bell".into(),
            name: "test bell".into(),
            version: "0.1.0".into(),
            phases: vec![PhaseDecl {
                name: "bell".into(),
                after: Some("place-tile".into()),
                before: None,
                when: None,
                on_request: true,
            }],
            verbs: vec![VerbDecl {
                name: "ring".into(),
                arg: ArgKind::None,
            }],
            ..Manifest::default()
        }
    }

    fn enter_phase(&self, ctx: &Ctx, out: &mut Vec<Command>) {
        if ctx.phase == "bell" {
            self.entered.fetch_add(1, Ordering::Relaxed);
            out.push(Command::Score {
                player: ctx.state.turn.player,
                points: 1,
                reason: Reason::Text("the bell".into()),
            });
        } else if ctx.phase == "turn-end" && matches!(self.ask, Ask::TooLate) {
            out.push(request(ctx));
        }
    }

    fn actions(&self, ctx: &Ctx, out: &mut Vec<Action>) {
        if ctx.phase == "bell" && ctx.state.turn.decider == ctx.state.turn.player {
            self.offered.fetch_add(1, Ordering::Relaxed);
            let (verb, _) = ctx.rules.verb("ring").expect("declared");
            out.push(Action::Verb {
                verb,
                arg: Arg::None,
            });
        }
    }

    fn apply(&self, ctx: &Ctx, _action: &Action, out: &mut Vec<Command>) {
        // Rung: the decision passes to nobody who could ring again.
        let next = (ctx.state.turn.player as usize + 1) % ctx.state.players.len();
        out.push(Command::SetDecider { player: next as u8 });
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let Event::TilePlaced {
            player: Some(_), ..
        } = event
        else {
            return;
        };
        match self.ask {
            Ask::EvenTurns if ctx.state.turn.number.is_multiple_of(2) => out.push(request(ctx)),
            Ask::NoSuchPhase => out.push(Command::RequestPhase { phase: 200 }),
            _ => {}
        }
    }
}

fn request(ctx: &Ctx) -> Command {
    let phase = ctx.rules.phase_index("bell").expect("the bell's phase") as u8;
    Command::RequestPhase { phase }
}

struct Played {
    turns_with_tile: u32,
    even_turns_with_tile: u32,
    entered: u32,
    offered: u32,
    total_score: i32,
    faults: Vec<String>,
}

fn play(ask: Ask, seed: u64) -> Played {
    let entered = Arc::new(AtomicU32::new(0));
    let offered = Arc::new(AtomicU32::new(0));
    let bell = Bell {
        ask,
        entered: entered.clone(),
        offered: offered.clone(),
    };
    let rules = Arc::new(
        Rules::new(vec![Box::new(BaseGame), Box::new(bell)], &BTreeMap::new()).expect("rules"),
    );
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], seed).expect("game");
    g.game.keep_log(true);
    play_out(&mut g.game, &mut g.bots);
    assert!(g.game.is_over());
    let log = g.game.take_log();
    let placed_in: Vec<u32> = {
        let mut turn = 1;
        let mut turns = Vec::new();
        for e in &log {
            match e {
                Event::TurnStarted { turn: t, .. } => turn = *t,
                Event::TilePlaced {
                    player: Some(_), ..
                } => turns.push(turn),
                _ => {}
            }
        }
        turns
    };
    let bell_points: i32 = log
        .iter()
        .filter_map(|e| match e {
            Event::Scored {
                points,
                reason: Reason::Text(t),
                ..
            } if t == "the bell" => Some(*points),
            _ => None,
        })
        .sum();
    Played {
        turns_with_tile: placed_in.len() as u32,
        even_turns_with_tile: placed_in.iter().filter(|t| t.is_multiple_of(2)).count() as u32,
        entered: entered.load(Ordering::Relaxed),
        offered: offered.load(Ordering::Relaxed),
        total_score: bell_points,
        faults: g.game.faults().to_vec(),
    }
}

#[test]
fn an_on_request_phase_runs_only_in_the_turns_that_ask_for_it() {
    for seed in [1, 2, 3] {
        let p = play(Ask::EvenTurns, seed);
        assert!(p.turns_with_tile > 40, "a whole game was played");
        assert!(p.faults.is_empty(), "{:?}", p.faults);
        assert_eq!(
            p.entered, p.even_turns_with_tile,
            "entered once per asking turn"
        );
        assert_eq!(p.total_score, p.even_turns_with_tile as i32);
        // Its one decision was offered once per asking turn, and nowhere else.
        assert_eq!(p.offered, p.even_turns_with_tile);
    }
}

#[test]
fn a_request_after_the_phase_has_passed_changes_nothing() {
    let p = play(Ask::TooLate, 4);
    assert!(p.faults.is_empty(), "{:?}", p.faults);
    assert_eq!(
        p.entered, 0,
        "asked for at the end of each turn: never runs"
    );
    assert_eq!(p.offered, 0);
    // The request does not carry over into the next turn either.
    assert_eq!(p.total_score, 0);
}

#[test]
fn a_request_for_a_phase_the_turn_does_not_have_is_a_fault() {
    let p = play(Ask::NoSuchPhase, 5);
    assert_eq!(p.entered, 0);
    assert!(
        p.faults
            .iter()
            .any(|f| f.contains("`bell`") && f.contains("asked for phase 200")),
        "{:?}",
        p.faults
    );
}

#[test]
fn only_the_first_64_phases_may_run_on_request() {
    // 70 phases of one expansion, the last run on request.
    struct Many;
    impl Expansion for Many {
        fn manifest(&self) -> Manifest {
            let phase = |i: usize| PhaseDecl {
                name: format!("p{i}"),
                after: None,
                before: None,
                when: None,
                on_request: i == 69,
            };
            Manifest {
                id: "many".into(),
                name: "many phases".into(),
                version: "0.1.0".into(),
                phases: (0..70).map(phase).collect(),
                ..Manifest::default()
            }
        }
    }
    let err = Rules::new(vec![Box::new(BaseGame), Box::new(Many)], &BTreeMap::new())
        .expect_err("refused");
    assert!(err.message.contains("`p69`"), "{err}");
    assert!(err.message.contains("first 64 phases"), "{err}");
}
