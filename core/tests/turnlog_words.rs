//! The turn log in words: every kind of event rendered, with singular and plural counts
//! (0, 1, 2), each against the sentence it must read as, and every line against general
//! checks (no doubled words, no verb after "is", plurals that agree with their counts, no
//! Rust names or debug output).
//!
//! The expansion events are given the words the shipped expansions use (the dragon and
//! the fairy of PD, the traps of RP), on neutral figures of a test expansion here; the
//! engine's own words come from a real game with the test builders.

use std::collections::BTreeMap;
use std::sync::Arc;

use carc_core::base::BaseGame;
use carc_core::engine::{Action, Arg, Event, Game, Reason, Setup, Text};
use carc_core::expansion::{Expansion, Manifest};
use carc_core::figures::{FOLLOWER, FigureClass, FigureKindDecl, Location, NEUTRAL};
use carc_core::fixtures::Builders;
use carc_core::geometry::{Pos, Rotation};
use carc_core::rules::Rules;
use carc_core::turnlog::{and_list, count, describe, plural, with_article};

#[path = "common/grammar.rs"]
mod grammar;
use grammar::grammar_faults;

/// Two neutral figures with the names PD gives its own: a dragon and a fairy.
struct Neutrals;

impl Expansion for Neutrals {
    fn manifest(&self) -> Manifest {
        let neutral = |name: &str| FigureKindDecl {
            namespace: "neutrals".into(),
            name: name.into(),
            class: FigureClass::Neutral,
            strength: 0,
            per_player: 0,
            neutral: 1,
            tags: Vec::new(),
        };
        Manifest {
            id: "neutrals".into(),
            name: "test neutral figures".into(),
            version: "0.1.0".into(),
            figures: vec![neutral("dragon"), neutral("fairy")],
            ..Manifest::default()
        }
    }
}

fn rules() -> Arc<Rules> {
    Arc::new(
        Rules::new(
            vec![Box::new(BaseGame), Box::new(Builders), Box::new(Neutrals)],
            &BTreeMap::new(),
        )
        .expect("rules"),
    )
}

/// A tile placed: `(id, x, y, degrees)`.
type Placed<'a> = (&'a str, i32, i32, i64);

/// A game of `players` after the start tile (base:D at [0, 0]) and `tiles` placed in
/// turn, `(id, x, y, degrees)`, nobody deploying.
fn board(players: &[&str], tiles: &[Placed]) -> Game {
    let rules = rules();
    let draw_order = tiles
        .iter()
        .map(|t| rules.tiles.get(t.0).expect("tile"))
        .collect();
    let mut game = Game::new(
        rules,
        Setup {
            players: players.iter().map(|p| p.to_string()).collect(),
            listed: tiles.len(),
            draw_order,
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    for &(id, x, y, degrees) in tiles {
        let rotation = Rotation::from_degrees(degrees).expect("rotation");
        game.place(id, Pos::new(x, y), rotation)
            .unwrap_or_else(|e| panic!("{id} at [{x}, {y}] rotated {degrees}: {e}"));
        if !game.state.ended {
            game.apply(&Action::Pass).expect("pass");
        }
    }
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    game
}

/// The node of feature `f` of the tile at `[x, y]`.
fn node(game: &Game, x: i32, y: i32, f: u32) -> u32 {
    game.state
        .board
        .tile_at(Pos::new(x, y))
        .expect("tile")
        .first_node
        + f
}

/// The placed tile at `[x, y]`, as a figure stands on it.
fn on_tile(game: &Game, x: i32, y: i32) -> Location {
    Location::Tile(game.state.board.index_at(Pos::new(x, y)).expect("tile"))
}

/// The first figure of this kind (by name) and owner.
fn figure(game: &Game, kind: &str, owner: u8) -> u16 {
    let kind = game
        .rules
        .figure_kinds
        .iter()
        .position(|k| k.name == kind)
        .expect("kind");
    game.state
        .figures
        .iter()
        .position(|f| f.kind as usize == kind && f.owner == owner)
        .expect("figure") as u16
}

fn why(words: &'static str) -> Option<Text> {
    Some(words.into())
}

fn text(words: &'static str) -> Reason {
    Reason::Text(words.into())
}

/// Renders each event and compares it with the line it must read as; returns the lines.
fn check(game: &Game, cases: &[(Event, Option<&str>)]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut wrong = Vec::new();
    for (event, want) in cases {
        let got = describe(&game.rules, &game.state, event);
        if got.as_deref() != *want {
            wrong.push(format!("{event:?}\n   got: {got:?}\n  want: {want:?}"));
        }
        lines.extend(got);
    }
    assert!(
        wrong.is_empty(),
        "lines that read wrong:\n{}",
        wrong.join("\n")
    );
    lines
}

/// Nouns the log counts, singular and plural.
const NOUNS: [(&str, &str); 5] = [
    ("point", "points"),
    ("tile", "tiles"),
    ("city", "cities"),
    ("pennant", "pennants"),
    ("follower", "followers"),
];

/// What is wrong with a line of the turn log in general, whatever the event.
fn general_faults(line: &str) -> Vec<String> {
    let mut faults = Vec::new();
    let mut fault = |what: String| faults.push(format!("{what}: {line:?}"));
    if !(line.starts_with("turn ")
        || line.starts_with("start tile ")
        || line.starts_with("game over")
        || (line.starts_with("  ") && !line.starts_with("   ")))
    {
        fault("a line is a header or an indented event".into());
    }
    if line.trim_end() != line || line.trim_start().contains("  ") {
        fault("stray spaces".into());
    }
    for bad in [
        "Some(", "None", "::", "Figure(", "Feature", "Location", "OffBoard", "Supply", "Text(",
        "{", "}", "\"\"", "\\",
    ] {
        if line.contains(bad) {
            fault(format!("Rust or debug text `{bad}`"));
        }
    }
    for bad in [
        "on off",
        "from off",
        "to off",
        "on the supply",
        "at the supply",
        "scores -",
        "loses -",
        " for .",
        "citys",
    ] {
        if line.contains(bad) {
            fault(format!("`{bad}`"));
        }
    }
    if line.ends_with(" for") || line.ends_with(" is") {
        fault("an unfinished sentence".into());
    }
    faults.extend(grammar_faults(line, &NOUNS));
    faults
}

fn assert_general(lines: &[String]) {
    let faults: Vec<String> = lines.iter().flat_map(|l| general_faults(l)).collect();
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn every_event_kind_reads_as_english() {
    // The start tile D, a cap closing its city, its road ended by two monasteries.
    let game = board(
        &["Alice", "Bob"],
        &[
            ("base:E", 0, -1, 180),
            ("base:U", 1, 0, 0),
            ("base:A", 2, 0, 90),
            ("base:A", -1, 0, 270),
        ],
    );
    let r = &game.rules;
    let [u, a, d] = ["base:U", "base:A", "base:D"].map(|id| r.tiles.get(id).expect(id));
    let alice = figure(&game, "follower", 0);
    let bob = figure(&game, "follower", 1);
    let dragon = figure(&game, "dragon", NEUTRAL);
    let fairy = figure(&game, "fairy", NEUTRAL);
    let city = node(&game, 0, 0, 0);
    let road = node(&game, 0, 0, 1);
    // The monasteries' fields join D's two fields into one.
    let field = node(&game, 0, 0, 2);
    let lower_field = node(&game, 0, 0, 3);
    let monastery = node(&game, 2, 0, 0);
    let road_east = node(&game, 1, 0, 0);
    let feature = Location::Feature;
    let (t10, t20, tm10) = (
        on_tile(&game, 1, 0),
        on_tile(&game, 2, 0),
        on_tile(&game, -1, 0),
    );
    let scored = |player: u8, points: i32, reason: Reason| Event::Scored {
        player,
        points,
        reason,
    };
    let cases = [
        (
            Event::TurnStarted { turn: 7, player: 1 },
            Some("turn 7: Bob"),
        ),
        (Event::TileDrawn { tile: u }, Some("  draws base:U")),
        (
            Event::TileDiscarded { tile: u },
            Some("  base:U fits nowhere and is discarded"),
        ),
        (
            Event::TileSetAside { tile: u },
            Some("  base:U is set aside"),
        ),
        (
            Event::TileReturned { tile: u },
            Some("  base:U goes back into the supply"),
        ),
        (
            Event::TilesReshuffled { count: 0 },
            Some("  0 set-aside tiles are shuffled back into the supply"),
        ),
        (
            Event::TilesReshuffled { count: 1 },
            Some("  1 set-aside tile is shuffled back into the supply"),
        ),
        (
            Event::TilesReshuffled { count: 2 },
            Some("  2 set-aside tiles are shuffled back into the supply"),
        ),
        (
            Event::TilePlaced {
                player: None,
                tile: d,
                pos: Pos::new(0, 0),
                rotation: Rotation::default(),
            },
            Some("start tile base:D at [0, 0]"),
        ),
        (
            Event::TilePlaced {
                player: Some(1),
                tile: a,
                pos: Pos::new(2, 0),
                rotation: Rotation::from_degrees(90).expect("90"),
            },
            Some("  places base:A at [2, 0] rotated 90"),
        ),
        // Deployed: a feature is named as a record names it (its lowest port, or its kind
        // for a feature inside the tile).
        (
            Event::FigureDeployed {
                figure: alice,
                node: city,
            },
            Some("  deploys Alice's follower on the city at [0, 0, \"NNW\"]"),
        ),
        (
            Event::FigureDeployed {
                figure: bob,
                node: monastery,
            },
            Some("  deploys Bob's follower on the monastery at [2, 0, \"monastery\"]"),
        ),
        (
            Event::FigureDeployed {
                figure: alice,
                node: lower_field,
            },
            Some("  deploys Alice's follower on the field at [0, 0, \"ESE\"]"),
        ),
        // Moved for a reason (PD-2: the volcano; RP: the traps), from beside the board, a
        // tile and a feature, to a tile and to the supply.
        (
            Event::FigureMoved {
                figure: dragon,
                from: Location::OffBoard,
                to: t20,
                by: None,
                why: why("moved to the volcano"),
            },
            Some("  the dragon is moved to the volcano (now on the tile at [2, 0])"),
        ),
        (
            Event::FigureMoved {
                figure: dragon,
                from: t20,
                to: tm10,
                by: None,
                why: why("moved to the volcano"),
            },
            Some(
                "  the dragon on the tile at [2, 0] is moved to the volcano (now on the tile at \
                 [-1, 0])",
            ),
        ),
        (
            Event::FigureMoved {
                figure: bob,
                from: feature(road_east),
                to: t20,
                by: None,
                why: why("trapped by Vodyanoy"),
            },
            Some(
                "  Bob's follower on the road at [1, 0, \"E\"] is trapped by Vodyanoy (now on \
                 the tile at [2, 0])",
            ),
        ),
        (
            Event::FigureMoved {
                figure: alice,
                from: feature(lower_field),
                to: Location::Supply,
                by: None,
                why: why("waved home"),
            },
            Some(
                "  Alice's follower on the field at [0, 0, \"ESE\"] is waved home (now in the \
                 supply)",
            ),
        ),
        // Moved by a player's decision (PD-11 the fairy, PD-4 the dragon).
        (
            Event::FigureMoved {
                figure: fairy,
                from: Location::OffBoard,
                to: t10,
                by: Some(0),
                why: None,
            },
            Some("  Alice moves the fairy to the tile at [1, 0]"),
        ),
        (
            Event::FigureMoved {
                figure: dragon,
                from: t10,
                to: t20,
                by: Some(1),
                why: None,
            },
            Some("  Bob moves the dragon from the tile at [1, 0] to the tile at [2, 0]"),
        ),
        (
            Event::FigureMoved {
                figure: fairy,
                from: t10,
                to: Location::OffBoard,
                by: Some(0),
                why: None,
            },
            Some("  Alice moves the fairy from the tile at [1, 0] off the board"),
        ),
        // Moved by nobody's decision, with no reason or with empty words.
        (
            Event::FigureMoved {
                figure: alice,
                from: feature(road_east),
                to: feature(city),
                by: None,
                why: None,
            },
            Some(
                "  Alice's follower moves from the road at [1, 0, \"E\"] to the city at [0, 0, \
                 \"NNW\"]",
            ),
        ),
        (
            Event::FigureMoved {
                figure: dragon,
                from: t10,
                to: t20,
                by: None,
                why: why(""),
            },
            Some("  the dragon moves from the tile at [1, 0] to the tile at [2, 0]"),
        ),
        // Returned: scoring, and the reasons of PD-6, PD-10 and RP-9.
        (
            Event::FigureReturned {
                figure: alice,
                from: feature(road),
                why: None,
            },
            Some("  Alice's follower returns from the road at [0, 0, \"E\"]"),
        ),
        (
            Event::FigureReturned {
                figure: alice,
                from: feature(city),
                why: why("eaten by the dragon"),
            },
            Some("  Alice's follower on the city at [0, 0, \"NNW\"] is eaten by the dragon"),
        ),
        (
            Event::FigureReturned {
                figure: bob,
                from: feature(city),
                why: why("removed by the princess"),
            },
            Some("  Bob's follower on the city at [0, 0, \"NNW\"] is removed by the princess"),
        ),
        (
            Event::FigureReturned {
                figure: bob,
                from: t20,
                why: why("released from the trap"),
            },
            Some("  Bob's follower on the tile at [2, 0] is released from the trap"),
        ),
        (
            Event::FigureReturned {
                figure: fairy,
                from: t10,
                why: None,
            },
            Some("  the fairy on the tile at [1, 0] is taken off the board"),
        ),
        // Scored: 0, 1 and 2 points and more, lost points, words of an expansion, none.
        (
            scored(1, 3, Reason::Feature { node: field }),
            Some("  Bob scores 3 points for a field touching 1 completed city"),
        ),
        (
            scored(0, 4, Reason::Feature { node: city }),
            Some("  Alice scores 4 points for a city of 2 tiles (complete)"),
        ),
        (
            scored(1, 4, Reason::Feature { node: road }),
            Some("  Bob scores 4 points for a road of 4 tiles (complete)"),
        ),
        (
            scored(0, 2, Reason::Feature { node: monastery }),
            Some("  Alice scores 2 points for a monastery with 2 tiles (incomplete)"),
        ),
        (
            scored(1, 1, text("the fairy, at the start of the turn")),
            Some("  Bob scores 1 point for the fairy, at the start of the turn"),
        ),
        (
            scored(0, 3, text("the fairy's bonus")),
            Some("  Alice scores 3 points for the fairy's bonus"),
        ),
        (
            scored(1, -1, text("a follower trapped by Vodyanoy")),
            Some("  Bob loses 1 point for a follower trapped by Vodyanoy"),
        ),
        (
            scored(1, -4, text("followers trapped by Vodyanoy")),
            Some("  Bob loses 4 points for followers trapped by Vodyanoy"),
        ),
        (scored(0, 2, text("")), Some("  Alice scores 2 points")),
        (Event::FeatureScored { node: city }, None),
        (Event::GameEnded, Some("game over: final scoring")),
    ];
    let mut lines = check(&game, &cases);

    // One tile of each feature: the singular.
    let alone = board(&["Alice", "Bob"], &[]);
    lines.extend(check(
        &alone,
        &[
            (
                scored(
                    0,
                    1,
                    Reason::Feature {
                        node: node(&alone, 0, 0, 0),
                    },
                ),
                Some("  Alice scores 1 point for a city of 1 tile (incomplete)"),
            ),
            (
                scored(
                    1,
                    1,
                    Reason::Feature {
                        node: node(&alone, 0, 0, 1),
                    },
                ),
                Some("  Bob scores 1 point for a road of 1 tile (incomplete)"),
            ),
            (
                scored(
                    0,
                    0,
                    Reason::Feature {
                        node: node(&alone, 0, 0, 2),
                    },
                ),
                Some("  Alice scores 0 points for a field touching 0 completed cities"),
            ),
        ],
    ));
    // Pennants: 1, then 2, the city incomplete, then complete.
    let steps: [(&[Placed], &str); 3] = [
        (
            &[("base:F", 0, -1, 90)],
            "  Alice scores 3 points for a city of 2 tiles and 1 pennant (incomplete)",
        ),
        (
            &[("base:F", 0, -1, 90), ("base:F", 0, -2, 90)],
            "  Alice scores 5 points for a city of 3 tiles and 2 pennants (incomplete)",
        ),
        (
            &[
                ("base:F", 0, -1, 90),
                ("base:F", 0, -2, 90),
                ("base:E", 0, -3, 180),
            ],
            "  Alice scores 12 points for a city of 4 tiles and 2 pennants (complete)",
        ),
    ];
    for (tiles, want) in steps {
        let game = board(&["Alice", "Bob"], tiles);
        let points =
            carc_core::base::feature_points(&game.rules, &game.state, node(&game, 0, 0, 0));
        lines.extend(check(
            &game,
            &[(
                scored(
                    0,
                    points,
                    Reason::Feature {
                        node: node(&game, 0, 0, 0),
                    },
                ),
                Some(want),
            )],
        ));
    }
    // A field between two completed cities.
    let two = board(
        &["Alice", "Bob"],
        &[("base:H", 0, -1, 0), ("base:E", 0, -2, 180)],
    );
    lines.extend(check(
        &two,
        &[(
            scored(
                1,
                6,
                Reason::Feature {
                    node: node(&two, 0, -1, 2),
                },
            ),
            Some("  Bob scores 6 points for a field touching 2 completed cities"),
        )],
    ));
    assert_general(&lines);
}

/// A whole game's log, with the engine's own reason words: a builder goes home with its
/// owner's last follower (PD-9, RP-6, X-2) when she withdraws it.
#[test]
fn a_games_log_reads_as_english() {
    let rules = rules();
    let u = rules.tiles.get("base:U").expect("U");
    let mut game = Game::new(
        rules,
        Setup {
            players: vec!["Alice".into()],
            listed: 3,
            draw_order: vec![u, u, u],
            seed: 0,
            full_supply: false,
        },
    )
    .expect("game");
    game.keep_log(true);
    let builder = Builders::kind(&game.rules);
    game.place("base:U", Pos::new(1, 0), Rotation::default())
        .expect("U");
    let road = node(&game, 1, 0, 0);
    game.apply(&Action::Deploy {
        figure: FOLLOWER,
        node: road,
    })
    .expect("follower");
    game.place("base:U", Pos::new(2, 0), Rotation::default())
        .expect("U");
    game.apply(&Action::Deploy {
        figure: builder,
        node: node(&game, 2, 0, 0),
    })
    .expect("builder");
    game.place("base:U", Pos::new(3, 0), Rotation::default())
        .expect("U");
    let retreat = game.rules.verb("retreat").expect("verb").0;
    game.apply(&Action::Verb {
        verb: retreat,
        arg: Arg::Feature(road),
    })
    .expect("retreat");
    assert!(game.faults().is_empty(), "{:?}", game.faults());
    let log = game.take_log();
    let lines: Vec<String> = log
        .iter()
        .filter_map(|e| describe(&game.rules, &game.state, e))
        .collect();
    let want = [
        "start tile base:D at [0, 0]",
        "turn 1: Alice",
        "  draws base:U",
        "  places base:U at [1, 0] rotated 0",
        "  deploys Alice's follower on the road at [1, 0, \"E\"]",
        "turn 2: Alice",
        "  draws base:U",
        "  places base:U at [2, 0] rotated 0",
        "  deploys Alice's builder on the road at [2, 0, \"E\"]",
        "turn 3: Alice",
        "  draws base:U",
        "  places base:U at [3, 0] rotated 0",
        "  Alice's follower on the road at [1, 0, \"E\"] is withdrawn",
        "  Alice's builder on the road at [2, 0, \"E\"] is returned with its owner's last \
         follower",
        "game over: final scoring",
    ];
    assert_eq!(lines, want, "the log:\n{}", lines.join("\n"));
    assert_general(&lines);
}

/// The general checks catch the mistakes the log once made.
#[test]
fn the_general_checks_catch_old_mistakes() {
    for line in [
        "  the dragon on off the board is flies to the volcano (now on the tile at [1, 2])",
        "  Alice scores 0 for field touching 0 completed citys",
        "  Alice scores 1 points for the fairy's bonus",
        "  Bob scores 2 point for a well",
        "  Alice's builder on the road at [2, 0, \"E\"] is leaves with its owner's last follower",
        "  deploys Alice's follower on the city at [0, 0, Some(\"N\")]",
        "  Alice moves the fairy from off the board to the tile at [1, 0]",
        "  the the dragon moves",
        "  Bob scores -2 points for followers trapped by Vodyanoy",
        "  Alice scores 3 points for ",
    ] {
        assert!(!general_faults(line).is_empty(), "not caught: {line:?}");
    }
}

#[test]
fn counts_and_plurals() {
    let cases = [
        (0, "point", "0 points"),
        (1, "point", "1 point"),
        (2, "point", "2 points"),
        (0, "completed city", "0 completed cities"),
        (1, "completed city", "1 completed city"),
        (2, "completed city", "2 completed cities"),
        (1, "game", "1 game"),
        (2, "game", "2 games"),
        (2, "thread", "2 threads"),
        (3, "follower", "3 followers"),
        (2, "set-aside tile", "2 set-aside tiles"),
        (2, "box", "2 boxes"),
        (2, "church", "2 churches"),
        (2, "day", "2 days"),
        (2, "key", "2 keys"),
        (2, "boss", "2 bosses"),
    ];
    for (n, noun, want) in cases {
        assert_eq!(count(n, noun), want);
    }
    assert_eq!(plural("city"), "cities");
    assert_eq!(plural("man"), "men");
    assert_eq!(with_article("hut"), "a hut");
    assert_eq!(with_article("inn"), "an inn");
    assert_eq!(with_article("abbey"), "an abbey");
    assert_eq!(with_article("university"), "a university");
    assert_eq!(with_article("hour"), "an hour");
    let n = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(and_list(&n(&["A"])), "A");
    assert_eq!(and_list(&n(&["A", "B"])), "A and B");
    assert_eq!(and_list(&n(&["A", "B", "C"])), "A, B and C");
}
