//! Another tile in the same turn (`Command::AnotherTile`, protocol 1.1; issue 12, what
//! the builder needs): the same player draws and plays a second tile, the turn's phases
//! from `draw` on run again with every expansion taking part (the dragon moves for a
//! dragon tile drawn second), and `turn-start` does not run again (PD-13: the fairy's
//! point is scored once).

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game};
use carc_core::engine::{Command, Event, EventKind};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::rules::Rules;
use common::plugins::princess_dragon;

/// A test expansion: in odd turns, the first tile placed gives its player another.
struct Twice;

impl Expansion for Twice {
    fn manifest(&self) -> Manifest {
        common::test_manifest("zz-twice", "test: two tiles in odd turns")
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, out: &mut Vec<Command>) {
        let turn = ctx.state.turn.number;
        let record = &ctx.state.ext[ctx.me];
        if let Event::TilePlaced {
            player: Some(_), ..
        } = event
            && turn % 2 == 1
            && record.first() != Some(&i64::from(turn))
        {
            out.push(Command::SetExtData {
                data: vec![i64::from(turn)],
            });
            out.push(Command::AnotherTile);
        }
    }
}

#[test]
fn another_tile_runs_the_turns_phases_again_for_the_same_player() {
    let rules = Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), princess_dragon(), Box::new(Twice)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    );
    let names = vec!["Ann".to_string(), "Ben".to_string(), "Cy".to_string()];
    let mut dragon_after_second = 0;
    for seed in 0..40 {
        let BotGame {
            mut game, mut bots, ..
        } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
        game.keep_log(true);
        // Per turn: who placed each tile, turn starts, dragon steps after the second tile.
        let mut placed: BTreeMap<u32, Vec<u8>> = BTreeMap::new();
        let mut starts: BTreeMap<u32, usize> = BTreeMap::new();
        let mut fairy_points: BTreeMap<u32, usize> = BTreeMap::new();
        let mut turn = game.state.turn.number;
        while !game.is_over() {
            let action = bots[game.decider() as usize]
                .choose(&mut game)
                .expect("a move");
            game.apply(&action).expect("legal");
            for event in game.take_log() {
                match event {
                    Event::TurnStarted { turn: t, .. } => {
                        turn = t;
                        *starts.entry(t).or_default() += 1;
                    }
                    Event::TilePlaced {
                        player: Some(p), ..
                    } => placed.entry(turn).or_default().push(p),
                    Event::Scored {
                        reason: carc_core::engine::Reason::Text(ref why),
                        ..
                    } if why.contains("at the start of the turn") => {
                        *fairy_points.entry(turn).or_default() += 1;
                    }
                    Event::FigureMoved { .. }
                        if placed.get(&turn).is_some_and(|p| p.len() == 2) =>
                    {
                        dragon_after_second += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
        let last = *placed.keys().last().expect("tiles were placed");
        for (&t, players) in &placed {
            // The last turn may end early: the supply ran out after its first tile.
            let want = if t % 2 == 1 && t != last { 2 } else { 1 };
            if t != last {
                assert_eq!(players.len(), want, "seed {seed}, turn {t}: {players:?}");
            }
            assert!(
                players.windows(2).all(|w| w[0] == w[1]),
                "seed {seed}, turn {t}: one player plays both tiles: {players:?}"
            );
        }
        for (&t, &n) in &starts {
            assert_eq!(n, 1, "seed {seed}: turn {t} started {n} times");
        }
        for (&t, &n) in &fairy_points {
            assert_eq!(
                n, 1,
                "seed {seed}: the fairy's point scored {n} times in turn {t}"
            );
        }
    }
    // Figures moved during a second tile (the dragon, the fairy): the other expansions
    // take part in it.
    assert!(
        dragon_after_second > 0,
        "nothing moved during a second tile"
    );
}
