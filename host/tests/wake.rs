//! Wake conditions (the manifest's `[[wake]]`, issue 10's speed): a hook that sleeps until
//! its conditions hold is not called before, games are the same as when every hook is
//! always called, and a wrong declaration is an error naming the expansion.

mod common;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use carc_core::base::BaseGame;
use carc_core::bots::{BotGame, Strategy, bot_game, play_out};
use carc_core::engine::{Command, Event, EventKind, Game};
use carc_core::expansion::{Ctx, EventKinds, Expansion, Manifest};
use carc_core::geometry::Pos;
use carc_core::manifest::WakeDecl;
use carc_core::rules::Rules;
use common::plugins::{
    princess_dragon, princess_dragon_with_manifest, russian_promos, russian_promos_with_manifest,
};

/// A manifest with its `[[wake]]` entries left out: every hook always called.
fn without_wake(manifest: &str) -> String {
    let mut kept = String::new();
    let mut in_wake = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_wake = line.trim() == "[[wake]]";
        }
        if !in_wake {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    assert!(manifest.contains("[[wake]]") && !kept.contains("[[wake]]"));
    kept
}

/// Plays seeded bot games and returns each final state as JSON.
fn finals(expansions: impl Fn() -> Vec<Box<dyn Expansion>>, seeds: u64) -> Vec<String> {
    let rules = Arc::new(Rules::new(expansions(), &BTreeMap::new()).expect("rules"));
    (0..seeds)
        .map(|seed| {
            let players = 2 + (seed % 3) as usize;
            let names: Vec<String> = (0..players).map(|i| format!("P{i}")).collect();
            let BotGame {
                mut game, mut bots, ..
            } = bot_game(&rules, &names, &[Strategy::Random], seed).expect("game");
            play_out(&mut game, &mut bots);
            assert!(game.faults().is_empty(), "seed {seed}: {:?}", game.faults());
            serde_json::to_string(&game.state).expect("JSON")
        })
        .collect()
}

#[test]
fn sleeping_hooks_change_no_game() {
    let pd_awake = without_wake(carc_princess_dragon::names::MANIFEST_TOML);
    let rp_awake = without_wake(carc_russian_promos::names::MANIFEST_TOML);
    // Each expansion alone and both together: the shipped manifests against the same
    // manifests with every hook always called.
    for (with_pd, with_rp) in [(false, true), (true, false), (true, true)] {
        let set = |awake: bool| {
            let (pd_awake, rp_awake) = (pd_awake.clone(), rp_awake.clone());
            move || {
                let mut v: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
                if with_pd {
                    v.push(match awake {
                        true => princess_dragon_with_manifest(&pd_awake),
                        false => princess_dragon(),
                    });
                }
                if with_rp {
                    v.push(match awake {
                        true => russian_promos_with_manifest(&rp_awake),
                        false => russian_promos(),
                    });
                }
                v
            }
        };
        let shipped = finals(set(false), 200);
        let always = finals(set(true), 200);
        for (seed, (a, b)) in shipped.iter().zip(&always).enumerate() {
            assert!(
                a == b,
                "seed {seed} (The Princess and the Dragon: {with_pd}, the promos: {with_rp}) \
                 ends otherwise when every hook is always called"
            );
        }
    }
}

/// A test expansion that wants every tile placement but sleeps until a tile or feature
/// carrying Vodyanoy's marker is on the board; it notes the tiles it is told about.
struct Sleeper {
    seen: Arc<Mutex<Vec<Pos>>>,
    wake: Vec<WakeDecl>,
}

impl Expansion for Sleeper {
    fn manifest(&self) -> Manifest {
        Manifest {
            wake: self.wake.clone(),
            ..common::test_manifest("zz-sleeper", "test sleeper")
        }
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, _ctx: &Ctx, event: &Event, _out: &mut Vec<Command>) {
        if let Event::TilePlaced { pos, .. } = event {
            self.seen.lock().expect("not poisoned").push(*pos);
        }
    }
}

fn wake(hooks: &[&str], when: &[&str]) -> WakeDecl {
    WakeDecl {
        hooks: hooks.iter().map(|s| s.to_string()).collect(),
        when: when.iter().map(|s| s.to_string()).collect(),
        doc: String::new(),
    }
}

/// Rules with a sleeper, and where the sleeper notes the placements it sees.
type Watched = (Arc<Rules>, Arc<Mutex<Vec<Pos>>>);

/// The base game, `others`, and a sleeper with one wake entry.
fn with_sleeper(others: Vec<Box<dyn Expansion>>, entry: WakeDecl) -> Watched {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let mut expansions: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    expansions.extend(others);
    expansions.push(Box::new(Sleeper {
        seen: seen.clone(),
        wake: vec![entry],
    }));
    let rules = Arc::new(Rules::new(expansions, &BTreeMap::new()).expect("rules"));
    (rules, seen)
}

/// Plays the two-player bot game of `seed`; the game and the placements the sleeper saw.
fn play_watched((rules, seen): &Watched, seed: u64) -> (Game, Vec<Pos>) {
    seen.lock().unwrap().clear();
    let names = vec!["A".to_string(), "B".to_string()];
    let BotGame {
        mut game, mut bots, ..
    } = bot_game(rules, &names, &[Strategy::Random], seed).expect("game");
    play_out(&mut game, &mut bots);
    let saw = seen.lock().unwrap().clone();
    (game, saw)
}

/// Plays the games of `seeds`, checking that the sleeper saw exactly the placements
/// `expected` names for each finished game; per game, how many placements after the start
/// tile it was woken for and how many it slept through.
fn sees_as_expected(
    watched: &Watched,
    seeds: std::ops::Range<u64>,
    mut expected: impl FnMut(&Game) -> Vec<Pos>,
) -> Vec<(usize, usize)> {
    seeds
        .map(|seed| {
            let (game, saw) = play_watched(watched, seed);
            let expected = expected(&game);
            assert_eq!(saw, expected, "seed {seed}");
            let placements = game.state.board.tiles.len() - 1;
            (expected.len(), placements - expected.len())
        })
        .collect()
}

/// Totals of [`sees_as_expected`]: placements woken for, and slept through.
fn totals(games: &[(usize, usize)]) -> (usize, usize) {
    games
        .iter()
        .fold((0, 0), |(w, a), &(gw, ga)| (w + gw, a + ga))
}

#[test]
fn a_hook_asleep_is_called_from_the_placement_that_wakes_it_on() {
    let watched = with_sleeper(
        vec![russian_promos()],
        wake(&["on-event"], &["marker:vodyanoy"]),
    );
    let rules = &watched.0;
    let vodyanoy = rules.vocab.marker("vodyanoy").expect("registered");
    let games = sees_as_expected(&watched, 0..40, |game| {
        let board = &game.state.board;
        // The index of the placed tile that carries the marker, if it was placed.
        let at = board
            .tiles
            .iter()
            .position(|t| rules.tiles.tile(t.tile).has_marker(vodyanoy));
        match at {
            Some(first) => board.tiles[first..].iter().map(|t| t.pos).collect(),
            None => Vec::new(),
        }
    });
    // The games in which Vodyanoy was placed (it wakes the hook from its own placement).
    let woken = games.iter().filter(|&&(w, _)| w > 0).count();
    assert!(woken > 10, "Vodyanoy was placed in {woken} of 40 games");
}

#[test]
fn a_hook_woken_by_the_placed_tile_is_called_only_for_such_a_tile() {
    // `placed:vodyanoy`: a placement is seen only when the tile placed carries Vodyanoy.
    let watched = with_sleeper(
        vec![russian_promos()],
        wake(&["on-event:tile-placed"], &["placed:vodyanoy"]),
    );
    let rules = &watched.0;
    let vodyanoy = rules.vocab.marker("vodyanoy").expect("registered");
    let games = sees_as_expected(&watched, 0..40, |game| {
        game.state.board.tiles[1..]
            .iter()
            .filter(|t| rules.tiles.tile(t.tile).has_marker(vodyanoy))
            .map(|t| t.pos)
            .collect()
    });
    let (woken, _) = totals(&games);
    assert!(woken > 10, "Vodyanoy was placed in {woken} of 40 games");
}

#[test]
fn a_hook_woken_near_the_placed_tile_is_called_only_around_such_a_feature() {
    // `near-placed:monastery`: a placement is seen when a monastery lies on the placed tile
    // or on one of the 8 squares around it (a game's other placements are not).
    let watched = with_sleeper(
        Vec::new(),
        wake(&["on-event:tile-placed"], &["near-placed:monastery"]),
    );
    let rules = &watched.0;
    let monastery = rules.vocab.kind("monastery").expect("a base kind");
    let games = sees_as_expected(&watched, 0..20, |game| {
        let tiles = &game.state.board.tiles;
        let has_monastery = |i: usize| {
            rules
                .tiles
                .tile(tiles[i].tile)
                .features
                .iter()
                .any(|f| f.kind == monastery)
        };
        // Placements after the start tile, with a monastery placed so far around them.
        (1..tiles.len())
            .filter(|&i| {
                (0..=i).any(|j| {
                    let (a, b) = (tiles[i].pos, tiles[j].pos);
                    has_monastery(j) && (a.x - b.x).abs() <= 1 && (a.y - b.y).abs() <= 1
                })
            })
            .map(|i| tiles[i].pos)
            .collect()
    });
    let (woken, asleep) = totals(&games);
    assert!(woken > 50 && asleep > 500, "woken {woken}, asleep {asleep}");
}

/// Notes the placements after which a feature of the placed tile carries Solovei's marker
/// (worked out here from the board, node by node), never sleeping.
struct JoinJudge {
    joined: Arc<Mutex<Vec<Pos>>>,
}

impl Expansion for JoinJudge {
    fn manifest(&self) -> Manifest {
        common::test_manifest("zz-judge", "test judge")
    }

    fn events(&self) -> EventKinds {
        EventKinds::of(&[EventKind::TilePlaced])
    }

    fn on_event(&self, ctx: &Ctx, event: &Event, _out: &mut Vec<Command>) {
        let Event::TilePlaced {
            player: Some(_),
            pos,
            ..
        } = event
        else {
            return;
        };
        let board = &ctx.state.board;
        let solovei = ctx.rules.vocab.marker("solovei").expect("registered");
        let placed = board.tiles.last().expect("a tile was placed");
        let features = ctx.rules.tiles.tile(placed.tile).features.len() as u32;
        let joins = (placed.first_node..placed.first_node + features).any(|n| {
            board
                .marked_nodes
                .iter()
                .any(|&(m, marked)| m == solovei && board.graph.same(n, marked))
        });
        if joins {
            self.joined.lock().expect("not poisoned").push(*pos);
        }
    }
}

#[test]
fn a_hook_woken_by_a_joined_marker_is_called_only_when_the_placed_tile_joins_it() {
    // `joins:solovei`: a placement is seen when the placed tile is Solovei or joins the
    // road Solovei stands on (RP-5), and at no other placement.
    let joined = Arc::new(Mutex::new(Vec::new()));
    let watched = with_sleeper(
        vec![
            russian_promos(),
            Box::new(JoinJudge {
                joined: joined.clone(),
            }),
        ],
        wake(&["on-event:tile-placed"], &["joins:solovei"]),
    );
    // What the judge noted in each game, taken after it (so the next starts empty).
    let games = sees_as_expected(&watched, 0..60, |_| {
        std::mem::take(&mut *joined.lock().expect("not poisoned"))
    });
    let (woken, asleep) = totals(&games);
    assert!(
        woken > 20 && asleep > 1000,
        "woken {woken}, asleep {asleep}"
    );
}

/// The error of putting the base game and a sleeper with these wake entries together.
fn refusal(wake: Vec<WakeDecl>) -> String {
    let what = format!("{wake:?}");
    Rules::new(
        vec![
            Box::new(BaseGame),
            Box::new(Sleeper {
                seen: Arc::default(),
                wake,
            }),
        ],
        &BTreeMap::new(),
    )
    .err()
    .map(|e| e.to_string())
    .unwrap_or_else(|| panic!("{what} was accepted"))
}

#[test]
fn a_wrong_wake_declaration_is_an_error_naming_the_expansion() {
    let cases = [
        (wake(&["on-turn"], &["record"]), "unknown hook `on-turn`"),
        (
            wake(&["on-event:tile-flipped"], &["record"]),
            "unknown hook `on-event:tile-flipped`",
        ),
        (wake(&["actions"], &["marker:moon"]), "moon"),
        (
            wake(&["actions"], &["kind:monastry"]),
            "unknown feature kind `monastry`; did you mean `monastery`?",
        ),
        (wake(&["actions"], &["kind:road"]), "only an inner kind"),
        (
            wake(&["actions"], &["near-placed:city"]),
            "only an inner kind",
        ),
        (wake(&["actions"], &["placed:moon"]), "moon"),
        (wake(&["actions"], &["joins:moon"]), "moon"),
        (
            wake(&["restricts", "actions"], &["others-deploy"]),
            "can wake `restricts` only",
        ),
        (
            wake(&["actions"], &["sometimes"]),
            "unknown condition `sometimes`",
        ),
        // A misspelt hook is said as such, whatever its conditions would say of it.
        (
            wake(&["restricts", "restrict"], &["others-deploy"]),
            "unknown hook `restrict`",
        ),
        (wake(&["actions"], &[]), "`when` names no condition"),
    ];
    for (decl, why) in cases {
        let err = refusal(vec![decl]);
        assert!(err.contains("`zz-sleeper`") && err.contains(why), "{err}");
    }
    let err = refusal(vec![
        wake(&["actions"], &["record"]),
        wake(&["actions", "restricts"], &["kind:monastery"]),
    ]);
    assert!(err.contains("the hook `actions` is named twice"), "{err}");
    let err = refusal(vec![
        wake(&["on-event"], &["record"]),
        wake(&["on-event:scored"], &["kind:monastery"]),
    ]);
    assert!(
        err.contains("the hook `on-event:scored` is named twice"),
        "{err}"
    );
}
