//! An expansion's own record in the game state changes only through its commands:
//! `SetExtValue` (growing it with zeros), `ResizeExt` (shortening or lengthening it) and
//! `SetExtData` (replacing it); a record beyond 65,536 values is refused as a fault.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{Strategy, bot_game};
use carc_core::engine::{Command, Event, EventKind};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::rules::Rules;

/// On each tile placed (turn n), issues the commands `script(n)`.
struct Scripted(fn(u32) -> Vec<Command>);

impl Expansion for Scripted {
    fn manifest(&self) -> Manifest {
        Manifest {
            id: "scripted".into(),
            name: "test record".into(),
            version: "0.1.0".into(),
            ..Manifest::default()
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        if let Event::TilePlaced {
            player: Some(_), ..
        } = event
        {
            out.extend((self.0)(ctx.state.turn.number));
        }
    }
}

/// The record and the faults after the first `turns` turns.
fn after(script: fn(u32) -> Vec<Command>, turns: u32) -> (Vec<i64>, Vec<String>) {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Scripted(script))],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let players = ["A".to_string(), "B".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], 7).expect("game");
    loop {
        // Asking for the moves begins the next turn once the last one is over.
        g.game.legal_actions();
        if g.game.is_over() || g.game.state.turn.number > turns {
            break;
        }
        let seat = g.game.decider() as usize;
        let i = g.bots[seat].choose_index(&mut g.game).expect("a move");
        g.game.apply_index(i).expect("offered");
    }
    (g.game.state.ext[1].clone(), g.game.faults().to_vec())
}

#[test]
fn values_are_set_appended_and_the_record_resized() {
    // Turn n appends n; turn 4 shortens the record to two values, turn 5 lengthens it
    // to four (zeros) and sets the last.
    let (record, faults) = after(
        |n| match n {
            4 => vec![Command::ResizeExt { len: 2 }],
            5 => vec![
                Command::ResizeExt { len: 4 },
                Command::SetExtValue {
                    index: 3,
                    value: 50,
                },
            ],
            _ => vec![Command::SetExtValue {
                index: n - 1,
                value: i64::from(n),
            }],
        },
        5,
    );
    assert!(faults.is_empty(), "{faults:?}");
    assert_eq!(record, vec![1, 2, 0, 50]);
}

#[test]
fn a_value_beyond_the_end_grows_the_record_with_zeros() {
    let (record, _) = after(
        |n| {
            vec![Command::SetExtValue {
                index: 2 * n,
                value: -1,
            }]
        },
        2,
    );
    assert_eq!(record, vec![0, 0, -1, 0, -1]);
}

#[test]
fn a_record_too_long_is_a_fault_and_left_as_it_was() {
    let (record, faults) = after(
        |n| match n {
            1 => vec![Command::SetExtData { data: vec![9, 9] }],
            _ => vec![Command::ResizeExt { len: 1 << 20 }],
        },
        2,
    );
    assert_eq!(record, vec![9, 9]);
    assert!(
        faults
            .iter()
            .any(|f| f.contains("`scripted`") && f.contains("65536")),
        "{faults:?}"
    );
}
