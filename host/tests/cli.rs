//! The `carc` command line, end to end: exit codes, located errors, determinism.

mod common;

use common::{carc, exits_saying, root, scratch, show, stderr, stdout, write};

/// `carc replay` on a record under `tests/records/`: (exit code, stdout, stderr).
fn replay(name: &str) -> (Option<i32>, String, String) {
    let o = carc(&["replay", &format!("tests/records/{name}")]);
    (o.status.code(), stdout(&o), stderr(&o))
}

#[test]
fn invalid_records_exit_2_with_file_line_and_column() {
    let cases = [
        (
            "bad-syntax.toml",
            "tests/records/bad-syntax.toml:2:26: error: unclosed array",
        ),
        ("bad-type.json", "tests/records/bad-type.json:2:"),
        // At the first listing beyond the supply.
        (
            "too-many-copies.toml",
            "tests/records/too-many-copies.toml:5:49: error: `draw` lists more copies of \
             `base:D` than the supply holds (3 copies)",
        ),
        // At the value, the first of two of neither form (the reader stops after it).
        (
            "bad-whereabouts.json",
            "tests/records/bad-whereabouts.json:4:15: error: the value must be a square \
             `[x, y]` or \"off-board\"",
        ),
        (
            "game-key-under-rules.toml",
            "tests/records/game-key-under-rules.toml:7:1: error: `draw` is no rule option: it \
             belongs in `[game]`, above `[game.rules]` (a table's keys go before the next \
             table's header)",
        ),
        (
            "game-key-under-rules-text.toml",
            "tests/records/game-key-under-rules-text.toml:6:1: error: `supply` is no rule \
             option: it belongs in `[game]`, above `[game.rules]`",
        ),
        (
            "game-key-in-rules.toml",
            "tests/records/game-key-in-rules.toml:4:7: error: `seed` is no rule option: it \
             belongs in `[game]`, not in its `rules`",
        ),
        // In JSON, said at the key, also when its value (an array) is no option's.
        (
            "game-key-in-rules-array.json",
            "tests/records/game-key-in-rules-array.json:3:68: error: `draw` is no rule option: \
             it belongs in the `game` object, beside `rules`",
        ),
        // Tables only: a derived struct would take an array of its fields in order.
        (
            "game-as-array.toml",
            "tests/records/game-as-array.toml:2:8: error: expected a table, found an array",
        ),
        (
            "record-as-array.json",
            "tests/records/record-as-array.json:1:1: error: expected an object, found an array \
             (a record in JSON is one object",
        ),
        // Names, ids and keys are printable: a line break or an escape could forge output.
        (
            "name-with-line-break.toml",
            "tests/records/name-with-line-break.toml:4:12: error: this text holds a line break: \
             names, ids and keys in a record are printable text",
        ),
        (
            "escape-in-expect-key.json",
            "tests/records/escape-in-expect-key.json:3:24: error: this key holds an escape \
             character",
        ),
        // A whole number too large for any integer is said as written, not as the
        // floating-point number JSON's reader makes of it.
        (
            "rotation-too-large.json",
            "tests/records/rotation-too-large.json:1:85: error: expected a rotation: 0, 90, \
             180 or 270 (a number, not in quotes), found the number `18446744073709551616`, \
             which is too large",
        ),
        // A move's index is said as one, not as the machine's largest integer.
        (
            "error-at-negative.toml",
            "tests/records/error-at-negative.toml:6:12: error: expected the index of a move: a \
             whole number, 0 for the first move, found the number `-1`",
        ),
        // An expectation no game can meet is refused, not compared.
        (
            "winners-twice.toml",
            "tests/records/winners-twice.toml:6:28: error: `Alice` is listed twice among the \
             winners (give each player once)",
        ),
        (
            "supply-negative.json",
            "tests/records/supply-negative.json:3:44: error: `supply` counts followers: Bob's \
             count cannot be negative (-1)",
        ),
        // Keys nested past the reader's limit are located at the first such header.
        (
            "header-nested-too-deeply.toml",
            "tests/records/header-nested-too-deeply.toml:5:1: error: keys or tables are \
             nested too deeply",
        ),
        // Nested objects under `rules` are dotted keys: the bad value beside them is told.
        (
            "rule-option-array-beside-nested.json",
            "tests/records/rule-option-array-beside-nested.json:2:66: error: a rule option's \
             value must be a string",
        ),
        (
            "single-bracket-move.toml",
            "tests/records/single-bracket-move.toml:5:1: error: expected an array, found a table \
             (each move is its own `[[move]]`, with two brackets)",
        ),
        (
            "unknown-tile.toml",
            "tests/records/unknown-tile.toml:4:19: error: unknown tile `base:Z`",
        ),
        (
            "unknown-expansion.toml",
            "tests/records/unknown-expansion.toml:2:15: error: unknown expansion `mystery` \
             (available: ",
        ),
        (
            "bad-rotation.toml",
            "tests/records/bad-rotation.toml:9:12: error: move 0: rotation must be 0, 90, 180 or 270, not 45",
        ),
        (
            "rp-sets-2013-vodyanoy.toml",
            "tests/records/rp-sets-2013-vodyanoy.toml:6:29: error: `rp:vodyanoy` is not in this game's supply (excluded by a rule option)",
        ),
        (
            // Said at the name, not at its value.
            "unknown-expect-player.json",
            "tests/records/unknown-expect-player.json:3:25: error: no player named `Carol`",
        ),
        (
            // Said at the name in the list, not at the whole list.
            "unknown-winner.toml",
            "tests/records/unknown-winner.toml:6:21: error: no player named `Nobody`",
        ),
        // Of several errors in `[expect]`, the first in the file.
        (
            "expect-players-in-file-order.toml",
            "tests/records/expect-players-in-file-order.toml:15:1: error: no player named `Zed`",
        ),
        (
            "expect-keys-in-file-order.toml",
            "tests/records/expect-keys-in-file-order.toml:16:1: error: unknown key `bogus`: \
             expansion `russian-promos` declares no figure",
        ),
        // A square or a feature reference with elements to spare is no valid record, in
        // TOML as in JSON (spec: `at = [x, y]`, `[x, y, PORT]`).
        (
            "extra-coordinate.toml",
            "tests/records/extra-coordinate.toml:8:6: error: expected [x, y], found 3 values",
        ),
        (
            "extra-coordinate.json",
            "tests/records/extra-coordinate.json:3:40: error: expected [x, y], found 3 values",
        ),
        // A malformed move is found before play, even past the move play stops at.
        (
            "malformed-after-rejected-move.toml",
            "tests/records/malformed-after-rejected-move.toml:13:1: error: move 1: unknown move \
             `bogus` (no enabled expansion defines it)",
        ),
        (
            "unknown-port.toml",
            "tests/records/unknown-port.toml:11:12: error: move 1: `NE` is neither a port (NNW, \
             N, NNE, ENE, ...) nor a feature kind of this game",
        ),
        (
            "extra-port.toml",
            "tests/records/extra-port.toml:12:12: error: expected [x, y, PORT], found 4 values",
        ),
    ];
    for (file, want) in cases {
        let (code, _, err) = replay(file);
        assert_eq!(code, Some(2), "{file}: {err}");
        assert!(
            err.starts_with(want),
            "{file}: got\n{err}\nwanted it to start with\n{want}"
        );
        assert!(
            err.contains('^'),
            "{file}: no caret under the offending text:\n{err}"
        );
    }
}

#[test]
fn an_unknown_expansion_in_a_record_is_told_which_the_host_has() {
    // The record's catalog holds only the expansions it names; the message names every
    // expansion the host found (the shipped ones among them).
    let (code, _, err) = replay("unknown-expansion.toml");
    assert_eq!(code, Some(2), "{err}");
    let first = err.lines().next().unwrap_or_default();
    let available = first
        .split_once("(available: ")
        .map(|(_, rest)| rest.trim_end_matches(')'))
        .unwrap_or_default();
    let names: Vec<&str> = available.split(", ").collect();
    assert!(
        names.contains(&"princess-dragon") && names.contains(&"russian-promos"),
        "{first}"
    );
}

#[test]
fn the_ok_line_counts_the_moves_replayed() {
    let one = "tests/scenarios/base-04-illegal-diagonal.toml";
    let o = carc(&["replay", one]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim_end(),
        format!("{one}: ok, 0 moves replayed, move 0 rejected as expected")
    );
    let dir = scratch("ok-line");
    let record = dir.join("one.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = [\"Ann\", \"Ben\"]\nsupply = \"draw\"\ndraw = [\"base:U\"]\n\n\
         [[move]]\nplace = \"base:U\"\nat = [0, 1]\nrotation = 0\n",
    )
    .expect("written");
    let path = record.to_str().expect("path");
    let o = carc(&["replay", path]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim_end(),
        format!("{path}: ok, 1 move replayed")
    );
}

#[test]
fn an_illegal_move_exits_1_naming_its_index() {
    let (code, _, err) = replay("illegal-placement.toml");
    assert_eq!(code, Some(1));
    assert!(
        err.contains("move 0 (place = \"base:U\", at = [1, 0], rotation = 90) is illegal"),
        "{err}"
    );
}

#[test]
fn a_move_the_pending_decision_does_not_take_is_refused_naming_the_decision() {
    let (code, _, err) = replay("place-during-figure-step.toml");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "move 1 (place = \"base:U\", at = [2, 0], rotation = 0) is illegal: the pending \
             decision, `deploy` by Alice, takes `follower` or `pass`; this move is none of them"
        ),
        "{err}"
    );
    let (code, _, err) = replay("fairy-during-dragon-step.toml");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "move 8 (fairy = [1, 0, \"E\"]) is illegal: the pending decision, `dragon-move` \
             by Bob, takes `dragon`; this move is none of them"
        ),
        "{err}"
    );
    // A second figure action after the turn ended: the next turn is named.
    let (code, _, err) = replay("second-figure-action-after-the-turn.toml");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "move 2 (follower = [1, 0, \"N\"]) is illegal: turn 2 (Bob) has begun: the \
             pending decision, `place-tile` by Bob, takes `place`; this move is none of them"
        ),
        "{err}"
    );
    // An expansion's moves among them, in the order place, deployments, moves, pass.
    let (code, _, err) = replay("dragon-during-figure-step.toml");
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "move 5 (dragon = \"N\") is illegal: the pending decision, `deploy` by Alice, \
             takes `follower`, `fairy` or `pass`; this move is none of them"
        ),
        "{err}"
    );
}

#[test]
fn an_invalid_expectation_makes_the_record_invalid_even_after_an_illegal_move() {
    let (code, _, err) = replay("illegal-move-and-unknown-player.toml");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.starts_with(
            "tests/records/illegal-move-and-unknown-player.toml:23:12: error: no player \
             named `Carol` in this game"
        ),
        "{err}"
    );
}

#[test]
fn an_expected_rejection_that_was_accepted_is_listed_beside_a_later_illegal_move() {
    let (code, _, err) = replay("expected-rejection-accepted.toml");
    assert_eq!(code, Some(1), "{err}");
    let accepted = err.find("expected move 1 to be rejected, but it was accepted");
    let illegal = err.find("move 2 (place = \"base:U\", at = [9, 9], rotation = 0) is illegal");
    assert!(
        accepted.is_some() && illegal.is_some() && accepted < illegal,
        "both, in the order of the moves:\n{err}"
    );
}

#[test]
fn a_failed_expectation_exits_1_with_expected_and_actual() {
    let (code, _, err) = replay("wrong-score.toml");
    assert_eq!(code, Some(1));
    assert!(err.contains("scores: Alice expected 5, got 4"), "{err}");
}

#[test]
fn a_missing_file_exits_2() {
    let o = carc(&["replay", "tests/records/no-such-file.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read the file"));
}

/// Without `--seed`, the seed is taken from the clock and printed: two games started one
/// right after the other (in the same second, as a script would) get different seeds,
/// and the printed one replays the same game.
#[test]
fn play_without_a_seed_prints_a_fresh_one_each_time() {
    let seed_of = |o: &std::process::Output| {
        let out = stdout(o);
        let first = out.lines().next().unwrap_or_default().to_string();
        let seed = first
            .strip_prefix("carc play --seed ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or_else(|| panic!("no seed line: {out}"))
            .to_string();
        (seed, out)
    };
    let (a, out_a) = seed_of(&carc(&["play"]));
    let (b, _) = seed_of(&carc(&["play"]));
    assert_ne!(a, b, "two games in a row got the same seed");
    let (again, out_again) = seed_of(&carc(&["play", "--seed", &a]));
    assert_eq!(again, a);
    assert_eq!(out_again, out_a);
}

#[test]
fn play_is_deterministic_and_its_record_replays() {
    let dir = scratch("play");
    let toml = dir.join("game.toml");
    let json = dir.join("game.json");
    let a = carc(&[
        "play",
        "--seed",
        "7",
        "--bots",
        "random,greedy",
        "--record",
        toml.to_str().unwrap(),
    ]);
    let b = carc(&[
        "play",
        "--seed",
        "7",
        "--bots",
        "random,greedy",
        "--record",
        json.to_str().unwrap(),
    ]);
    assert!(a.status.success(), "{}", stderr(&a));
    let (la, lb) = (stdout(&a), stdout(&b));
    // Same game, apart from the line naming the record file.
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("record written"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&la), strip(&lb));
    assert!(la.contains("turn 1: Alice"));
    assert!(la.contains("final scores:"));
    for rec in [&toml, &json] {
        let r = carc(&["replay", rec.to_str().unwrap()]);
        assert!(r.status.success(), "{}: {}", rec.display(), stderr(&r));
    }
    let other = carc(&["play", "--seed", "8"]);
    assert_ne!(strip(&stdout(&other)), strip(&la));
}

#[test]
fn play_json_reports_the_final_state() {
    let o = carc(&["play", "--seed", "3", "--players", "3", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["ended"], true);
    assert_eq!(v["scores"].as_object().map(|m| m.len()), Some(3));
    assert_eq!(v["seed"], 3);
}

#[test]
fn replay_json_prints_the_state_alone_on_stdout_and_the_ok_line_on_stderr() {
    let record = "tests/scenarios/base-01-start-tile-and-supply.toml";
    let o = carc(&["replay", record, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON alone");
    assert!(v["scores"].is_object(), "{v}");
    let plain = carc(&["replay", record]);
    assert_eq!(stderr(&o), stdout(&plain), "the ok line, on standard error");
    assert!(stdout(&plain).starts_with(&format!("{record}: ok, ")));
}

#[test]
fn replay_json_prints_the_state() {
    let o = carc(&["replay", "tests/records/wrong-score.toml", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    assert_eq!(v["scores"]["Alice"], 4);
    assert_eq!(v["supply"]["Alice"], 7);
    // The only tile of the supply was played: the game is over (BASE-9).
    assert_eq!(v["ended"], true);
}

#[test]
fn replay_json_after_an_illegal_move_shows_the_game_the_last_accepted_move_left() {
    let record = "tests/records/illegal-move-after-a-turn-start-point.toml";
    let o = carc(&["replay", record, "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("move 8 ("), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    // Not turn 5, with the fairy's point of its start (PD-13).
    assert_eq!(v["turn"], 4, "{v}");
    assert_eq!(v["scores"]["Alice"], 0, "{v}");
    assert_eq!(v["neutral"]["fairy"], serde_json::json!([1, 0]), "{v}");
}

#[test]
fn bad_flags_are_clear_errors() {
    let long_name = format!("{},Bob", "x".repeat(1001));
    let cases: [(&[&str], &str); 18] = [
        (
            &["play", "--expansions", "nope"],
            "unknown expansion `nope` (available: princess-dragon, russian-promos); carc finds \
             a plugin in another directory with --plugin-dir DIR",
        ),
        (
            &["play", "--expansions", "princess-dragn"],
            "unknown expansion `princess-dragn` (available: princess-dragon, russian-promos); \
             did you mean `princess-dragon`?",
        ),
        (
            &["play", "--players", "9"],
            "--players 9: a game has 1 to 6 players",
        ),
        (&["play", "--bots", "clever"], "unknown bot `clever`"),
        (
            &["play", "--names", "A,B", "--bots", "random,random,random"],
            "3 bots for 2 players",
        ),
        (
            &["play", "--rule", "base.x=y"],
            "unknown rule option `base.x`",
        ),
        // `simulate` says the same as `play`.
        (
            &["simulate", "--players", "3", "--bots", "random,greedy"],
            "--bots names 2 bots for 3 players (give one, or one per seat)",
        ),
        (&["simulate", "--bots", "clever"], "unknown bot `clever`"),
        (
            &["simulate", "--players", "0"],
            "--players 0: a game has 1 to 6 players",
        ),
        (
            &["simulate", "--threads", "0"],
            "--threads 0: give 1 to 256 threads",
        ),
        // A count that is no number, in words (not the parser's).
        (
            &["play", "--players", "two"],
            "invalid value 'two' for '--players <PLAYERS>': expected a whole number, such as 2",
        ),
        (
            &["simulate", "--games", "99999999999999999999"],
            "the number is too large",
        ),
        // Beyond what one simulation plays (it overflowed counting the games).
        (
            &["simulate", "--games", "9223372036854775808", "--baseline"],
            "--games 9223372036854775808: give at most 10000000 games",
        ),
        (
            &["play", "--names", "Ann,"],
            "--names `Ann,`: a name is empty",
        ),
        (&["play", "--bots", ""], "--bots names no bot"),
        (&["play", "--bots", ","], "--bots `,`: an item is empty"),
        (
            &["play", "--names", &long_name],
            "--names: a name is 1001 characters long; names are at most 1000",
        ),
        (
            &["play", "--names", "Ann\nfinal scores:,Bob"],
            "--names: the name `Ann\\nfinal scores:` holds a line break",
        ),
    ];
    for (args, want) in cases {
        let o = carc(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn simulate_reports_games_per_second() {
    let o = carc(&["simulate", "--games", "20", "--seed", "5", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("20 games of the base game in"), "{out}");
    assert!(out.contains("games/s"));
    assert!(out.contains("mean final score per seat: P1"));
    // The thread count changes nothing but the speed.
    let j1 = carc(&["simulate", "--games", "20", "--seed", "5", "--json"]);
    let j2 = carc(&[
        "simulate",
        "--games",
        "20",
        "--seed",
        "5",
        "--threads",
        "3",
        "--json",
    ]);
    let v1: serde_json::Value = serde_json::from_str(&stdout(&j1)).unwrap();
    let v2: serde_json::Value = serde_json::from_str(&stdout(&j2)).unwrap();
    assert_eq!(v1["mean_scores"], v2["mean_scores"]);
    assert_eq!(v2["threads"], 3);
    // No more threads are used, nor said, than there are games.
    let o = carc(&["simulate", "--games", "3", "--threads", "256"]);
    assert!(
        stdout(&o).starts_with("3 games of the base game in ")
            && stdout(&o).contains(" on 3 threads:"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn simulate_with_a_baseline_plays_the_same_games_of_the_base_game() {
    let json = |args: &[&str]| -> serde_json::Value {
        let o = carc(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        serde_json::from_str(&stdout(&o)).expect("JSON")
    };
    let common = ["simulate", "--games", "23", "--seed", "9", "--json"];
    let with = json(
        &[
            &common[..],
            &["--expansions", "princess-dragon", "--baseline"],
        ]
        .concat(),
    );
    let alone = json(&[&common[..], &["--expansions", "princess-dragon"]].concat());
    let base = json(&common);
    // The same seeds on both sides (in rounds), so the scores are those of plain runs.
    assert_eq!(with["mean_scores"], alone["mean_scores"]);
    assert_eq!(with["baseline"]["mean_scores"], base["mean_scores"]);
    assert_ne!(with["mean_scores"], base["mean_scores"]);
    let rate = |v: &serde_json::Value| v.as_f64().expect("a number");
    let ratio = rate(&with["slower_than_baseline"]);
    let from_rates = rate(&with["baseline"]["games_per_second"]) / rate(&with["games_per_second"]);
    assert!(
        (ratio - from_rates).abs() < 1e-9 * ratio.max(1.0),
        "{ratio} vs {from_rates}"
    );
    // In words too.
    let o = carc(&[
        "simulate",
        "--games",
        "12",
        "--expansions",
        "princess-dragon",
        "--baseline",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("x as long"), "{}", stdout(&o));
    // Which game was played is said.
    assert!(
        stdout(&o).starts_with("12 games of the base game with `princess-dragon` in "),
        "{}",
        stdout(&o)
    );
    // Nothing to compare without expansions: a clear error.
    let o = carc(&["simulate", "--games", "5", "--baseline"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--expansions"), "{}", stderr(&o));
    // Nor any plugin to load or link (a ratio was printed, measuring nothing).
    let o = carc(&["simulate", "--games", "5", "--compare-linking"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("name them with --expansions"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
}

#[test]
fn checked_in_schemas_match_the_code() {
    for (which, file) in [
        ("tiles", "schema/tiles.schema.json"),
        ("record", "schema/record.schema.json"),
        ("manifest", "schema/manifest.schema.json"),
    ] {
        let o = carc(&["schema", which]);
        assert!(o.status.success());
        let on_disk = std::fs::read_to_string(root().join(file)).unwrap_or_default();
        assert_eq!(
            stdout(&o),
            on_disk,
            "{file} is out of date: run `cargo run -p carc-host -- schema {which} > {file}`"
        );
    }
}

/// Every scenario record holds to the checked-in record schema, and what the schema
/// says a record cannot hold (a rotation of 45, `pass = false`, no players) it refuses,
/// as `carc replay` does.
#[test]
fn records_hold_to_the_record_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/record.schema.json")).unwrap(),
    )
    .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let as_json = |toml_text: &str| -> serde_json::Value {
        let value: toml::Value = toml::from_str(toml_text).expect("TOML");
        serde_json::to_value(value).expect("as JSON")
    };
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("tests/scenarios")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let record = as_json(&std::fs::read_to_string(&path).unwrap());
            let errors: Vec<String> = validator
                .iter_errors(&record)
                .map(|e| e.to_string())
                .collect();
            assert!(errors.is_empty(), "{}: {errors:?}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} records");
    // JSON `null` where replay reads it as absent.
    let with_null = serde_json::json!({
        "game": {"players": ["A", "B"], "draw": ["base:U"]},
        "move": [{"place": "base:U", "at": [0, 1], "rotation": 0, "pass": null}]
    });
    assert!(validator.is_valid(&with_null));
    let dir = scratch("schema-null");
    let file = common::write(&dir, "null.json", with_null.to_string());
    assert_eq!(carc(&["replay", &file]).status.code(), Some(0));
    let head = "[game]\nplayers = [\"A\", \"B\"]\n";
    for bad in [
        format!("{head}[[move]]\nplace = \"base:U\"\nat = [0, 1]\nrotation = 45\n"),
        format!("{head}[[move]]\npass = false\n"),
        "[game]\nplayers = []\n".to_string(),
        "[game]\nplayers = [\"A\", \"B\", \"C\", \"D\", \"E\", \"F\", \"G\"]\n".to_string(),
    ] {
        assert!(!validator.is_valid(&as_json(&bad)), "{bad}");
        let dir = scratch("schema-refused");
        let file = common::write(&dir, "bad.toml", &bad);
        assert_eq!(carc(&["replay", &file]).status.code(), Some(2), "{bad}");
    }
}

#[test]
fn validate_accepts_the_base_tiles() {
    let o = carc(&["validate", "tiledefs/base.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn the_shipped_plugins_validate_without_warnings() {
    // Their `[requires] carc` admits no protocol older than their rules need.
    let o = carc(&[
        "validate",
        "plugins/princess-dragon",
        "plugins/russian-promos",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(
        stdout(&o).matches("ok, the plugin can be loaded").count(),
        2,
        "{}",
        stdout(&o)
    );
    assert_eq!(stderr(&o), "", "no warning");
}

/// A plugin directory refused for located problems (a tile file it cannot read) says so,
/// with the report from a line of its own, as `carc validate FILE` writes one.
#[test]
fn validate_of_a_refused_plugin_directory_gives_the_report_on_lines_of_its_own() {
    let dir = scratch("validate-refused-dir");
    std::fs::write(
        dir.join("manifest.toml"),
        "id = \"well\"\nname = \"Well\"\nversion = \"0.1.0\"\ntiles = [\"nope.toml\"]\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let o = carc(&["validate", d]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = format!(
        "{d}: error: the plugin would be refused:\n{d}/manifest.toml:4:10: error: the tile file \
         `nope.toml` cannot be used: cannot read `{d}/nope.toml`: no such file or directory\n"
    );
    assert!(stderr(&o).starts_with(&want), "{}", stderr(&o));
    // The result is on stdout too, as for a tile file (its summary line).
    assert_eq!(stdout(&o), format!("{d}: the plugin would be refused\n"));
}

#[test]
fn the_expansions_play_full_games_from_the_command_line() {
    for (exps, seed) in [
        ("princess-dragon", "3"),
        ("princess-dragon,russian-promos", "5"),
    ] {
        let dir = scratch(&format!("exp-{seed}"));
        let rec = dir.join("game.toml");
        let o = carc(&[
            "play",
            "--expansions",
            exps,
            "--seed",
            seed,
            "--record",
            rec.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{exps}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("final scores:"), "{exps}");
        assert!(
            out.contains("moves the dragon"),
            "{exps}: no dragon step in the log"
        );
        let r = carc(&["replay", rec.to_str().unwrap()]);
        assert!(r.status.success(), "{exps}: {}", stderr(&r));
    }
}

#[test]
fn plan_prints_the_resolved_orders_and_why() {
    let o = carc(&["plan", "--expansions", "russian-promos,princess-dragon"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "phases: turn-start -> draw -> place-tile -> deploy -> dragon-move (on request) -> \
             score -> turn-end"
        ),
        "{out}"
    );
    assert!(out.contains("\nstart tile: base:D\n"), "{out}");
    assert!(!out.contains("stacks"), "{out}");
    // Figure classes as a manifest writes them.
    assert!(
        out.contains("\n  base:follower (follower): flesh-and-blood\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  princess-dragon:dragon (neutral): none\n"),
        "{out}"
    );
    // The Russian promos have a rule at `final-scoring`, The Princess and the Dragon none:
    // after the base game, the promos score first, whatever the expansions' order.
    assert!(
        out.contains(
            "final scoring (in this order, see `final-scoring`): base, russian-promos, \
             princess-dragon"
        ),
        "{out}"
    );
    let v = out
        .find("1. russian-promos:vodyanoy")
        .expect("vodyanoy first");
    let s = out
        .find("2. russian-promos:solovei")
        .expect("solovei second");
    assert!(v < s);
    assert!(out.contains(
        "because russian-promos:vodyanoy before russian-promos:solovei (declared by russian-promos)"
    ));
    let after = carc(&[
        "plan",
        "--expansions",
        "princess-dragon",
        "--rule",
        "princess-dragon.dragon-move=after-scoring",
    ]);
    assert!(
        stdout(&after).contains("score -> dragon-move (on request) -> turn-end"),
        "{}",
        stdout(&after)
    );
}

#[test]
fn rules_lists_options_and_rejects_unknown_values() {
    let o = carc(&["rules", "princess-dragon"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for opt in [
        "dragon-move",
        "princess",
        "fairy-placement",
        "dragon-tiles-before-volcano",
        "fairy-bonus",
        "fairy-blocks-dragon",
    ] {
        assert!(
            out.contains(&format!("princess-dragon.{opt} = ")),
            "{opt} missing:\n{out}"
        );
    }
    let bad = carc(&[
        "play",
        "--expansions",
        "princess-dragon",
        "--rule",
        "princess-dragon.princess=always",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("cannot be `always` (allowed: may, must)"),
        "{}",
        stderr(&bad)
    );
    // No value is said as such (it was "cannot be ``").
    let none = carc(&[
        "play",
        "--expansions",
        "princess-dragon",
        "--rule",
        "princess-dragon.princess=",
    ]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        stderr(&none).contains(
            "rule option `princess-dragon.princess` is given no value (allowed: may, must)"
        ),
        "{}",
        stderr(&none)
    );
    let unknown = carc(&[
        "play",
        "--expansions",
        "princess-dragon",
        "--rule",
        "princess-dragon.wings=on",
    ]);
    assert!(stderr(&unknown).contains("unknown rule option `princess-dragon.wings`"));
}

#[test]
fn expansion_tiles_need_their_expansion_unless_tiles_only() {
    let all = carc(&[
        "validate",
        "tiledefs/base.toml",
        "tiledefs/princess-dragon.toml",
        "tiledefs/russian-promos.toml",
    ]);
    assert_eq!(all.status.code(), Some(0), "{}", stdout(&all));
    assert!(
        stdout(&all).contains("3 files, 57 tile types, 106 tiles: valid"),
        "{}",
        stdout(&all)
    );
    let without = carc(&[
        "validate",
        "--expansions",
        "",
        "tiledefs/princess-dragon.toml",
    ]);
    assert_eq!(without.status.code(), Some(1));
    assert!(
        stderr(&without)
            .contains("tiledefs/princess-dragon.toml:11:12: error: unknown marker `volcano`"),
        "{}",
        stderr(&without)
    );
    // It says where a plugin's own markers are known: with its manifest.
    assert!(
        stderr(&without).contains("validate the plugin directory whose manifest declares it"),
        "{}",
        stderr(&without)
    );
    // Diagnostics go to standard error, the summary (the result) to standard output.
    assert!(
        stdout(&without).contains("errors in 1 file") && !stdout(&without).contains("error:"),
        "{}",
        stdout(&without)
    );
    let tiles_only = carc(&[
        "validate",
        "--expansions",
        "",
        "--tiles-only",
        "tiledefs/princess-dragon.toml",
    ]);
    assert_eq!(tiles_only.status.code(), Some(0), "{}", stdout(&tiles_only));
}

#[test]
fn an_expansions_neutral_figures_are_expected_in_its_own_table() {
    let (code, _, err) = replay("expect-neutral-figures.toml");
    assert_eq!(code, Some(0), "{err}");
    let text = std::fs::read_to_string(root().join("tests/records/expect-neutral-figures.toml"))
        .expect("the record");
    let dir = scratch("expect-neutral");
    let variant = |name: &str, fairy: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text.replace("fairy = [1, 0]", fairy)).expect("written");
        carc(&["replay", path.to_str().unwrap()])
    };
    exits_saying(
        &variant("elsewhere.toml", "fairy = \"off-board\""),
        1,
        "princess-dragon.fairy: expected \"off-board\", got [1, 0]",
    );
    exits_saying(
        &variant("malformed.toml", "fairy = 3"),
        2,
        "`fairy` is a neutral figure: expected `[x, y]` or \"off-board\"",
    );
}

#[test]
fn replay_log_prints_the_turn_log_before_the_ok_line() {
    let file = "tests/scenarios/base-03-illegal-wrong-tile.toml";
    let o = carc(&["replay", "--log", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "start tile base:D at [0, 0]",
            "turn 1: Alice",
            "  draws base:U",
            &format!("{file}: ok, 0 moves replayed, move 0 rejected as expected"),
        ]
    );
    // Without it, the ok line alone; with `--json`, an error (one result on stdout).
    let o = carc(&["replay", file]);
    assert_eq!(stdout(&o).lines().count(), 1, "{}", stdout(&o));
    let o = carc(&["replay", "--log", "--json", file]);
    assert_eq!(o.status.code(), Some(2));
    // An invalid record: its error alone, no log.
    let o = carc(&["replay", "--log", "tests/records/unknown-port.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "", "no log for an invalid record");
}

/// No command writes over a file it reads, or twice to one file, however the path is
/// written; a directory that does not exist is said before a game is played.
#[test]
fn outputs_never_overwrite_inputs_and_are_checked_before_any_work() {
    let dir = scratch("cli-outputs");
    let record = dir.join("v.toml");
    std::fs::copy(
        root().join("tests/scenarios/base-06-road-loop.toml"),
        &record,
    )
    .unwrap();
    let original = std::fs::read_to_string(&record).unwrap();
    let roundabout = dir.join(".").join("v.toml");
    let roundabout = roundabout.to_str().unwrap();
    let rec = record.to_str().unwrap();
    let tiles = dir.join("tiles.svg");
    std::fs::copy(root().join("tiledefs/base.toml"), &tiles).unwrap();
    // A hard link is the record under another name.
    let (hard, hard_svg) = (dir.join("v-linked.html"), dir.join("v-linked.svg"));
    std::fs::hard_link(&record, &hard).unwrap();
    std::fs::hard_link(&record, &hard_svg).unwrap();
    let (hard, hard_svg) = (hard.to_str().unwrap(), hard_svg.to_str().unwrap());
    let cases: [(Vec<&str>, &str); 4] = [
        (
            vec!["view", rec, "--out", roundabout],
            "would overwrite the record",
        ),
        (
            vec!["view", rec, "--out", hard],
            "would overwrite the record",
        ),
        (
            vec!["render", "board", rec, "--out", hard_svg],
            "would overwrite the record",
        ),
        (
            vec!["validate", tiles.to_str().unwrap(), "--render"],
            "would overwrite the input",
        ),
    ];
    for (args, words) in &cases {
        let o = carc(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(&record).unwrap(), original);
    assert!(
        std::fs::read_to_string(&tiles)
            .unwrap()
            .contains("[[tile]]")
    );
    // `play` writes a record where asked (over an older file, as asked), but never its
    // page into the same file.
    let o = carc(&["play", "--seed", "1", "--record", rec, "--html", roundabout]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("name the same file"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no game was played: {}", stdout(&o));
    assert_eq!(std::fs::read_to_string(&record).unwrap(), original);
    let missing = dir.join("nope").join("x.toml");
    let o = carc(&["play", "--seed", "1", "--record", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "no game was played: {}", stdout(&o));
    let o = carc(&["play", "--seed", "1", "--html", "-"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("standard output holds"),
        "{}",
        stderr(&o)
    );
}

/// A failed expectation about the winners names them in words, as the turn log does.
#[test]
fn a_winners_mismatch_names_the_players_in_words() {
    let dir = scratch("cli-winners");
    let text = std::fs::read_to_string(
        root().join("tests/scenarios/audit6-base-three-players-tie-2-2-1.toml"),
    )
    .unwrap();
    let wrong = text.replace("winners = [\"Alice\", \"Bob\"]", "winners = [\"Carol\"]");
    assert_ne!(wrong, text);
    let record = dir.join("winners.toml");
    std::fs::write(&record, wrong).unwrap();
    let o = carc(&["replay", record.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("winners: expected Carol, got Alice and Bob"),
        "{}",
        stderr(&o)
    );
}

/// Linked plugins have no path: `null` in JSON, words in the table.
#[test]
fn a_linked_plugin_has_no_path_in_json() {
    let o = carc(&["--linked", "plugins", "list", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let rows = rows.as_array().expect("an array");
    assert!(!rows.is_empty());
    for row in rows {
        assert_eq!(row["status"], "linked", "{row}");
        assert!(row["path"].is_null(), "{row}");
        assert!(row["reason"].is_null(), "nothing to explain: {row}");
    }
    let o = carc(&["--linked", "plugins", "list"]);
    assert!(
        stdout(&o).contains("linked  (linked into carc)"),
        "{}",
        stdout(&o)
    );
    // `simulate --json` is one pretty-printed object, as every `--json` is.
    let o = carc(&["simulate", "--games", "2", "--seed", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["games"], 2);
    assert!(text.lines().count() > 3, "{text}");
}

/// Tile data of an expansion that is not enabled fails on its kinds and markers; a note
/// says why and what to do: name it in `--expansions`, or point carc at its plugin.
#[test]
fn validate_says_when_the_tiles_expansion_is_not_enabled() {
    let o = carc(&[
        "validate",
        "--expansions",
        "russian-promos",
        "tiledefs/princess-dragon.toml",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).contains(
            "note: tiledefs/princess-dragon.toml holds tiles of the expansion \
             `princess-dragon`, which is not enabled here, so the feature kinds and markers it \
             declares are unknown; name it in --expansions"
        ),
        "{}",
        show(&o)
    );
    let dir = scratch("validate-unfound");
    let text = std::fs::read_to_string(root().join("tiledefs/princess-dragon.toml"))
        .unwrap()
        .replace(
            "expansion = \"princess-dragon\"",
            "expansion = \"gold-mines\"",
        );
    let path = write(&dir, "tiles.toml", text);
    let o = carc(&["validate", "--expansions", "russian-promos", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let err = stderr(&o);
    assert!(
        err.contains("`gold-mines`, which is not enabled here")
            && err.contains(&format!("(`carc --plugin-dir DIR validate {path}`)")),
        "{}",
        show(&o)
    );
    // Valid tile data of the base game says nothing more.
    let o = carc(&["validate", "tiledefs/base.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(!stderr(&o).contains("note:"), "{}", show(&o));
    // Nor do errors that are not about kinds or markers (a tile count of 0), in tile data
    // of an expansion that is not enabled.
    let text = "expansion = \"gold-mines\"\n\n[[tile]]\nid = \"gm:a\"\ncount = 0\n\
                features = [{ kind = \"field\", ports = [\"NNE\", \"N\", \"NNW\", \"ENE\", \
                \"E\", \"ESE\", \"SSE\", \"S\", \"SSW\", \"WSW\", \"W\", \"WNW\"] }]\n";
    let path = write(&dir, "count.toml", text);
    let o = carc(&["validate", &path]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(stderr(&o).contains("count"), "{}", show(&o));
    assert!(!stderr(&o).contains("note:"), "{}", show(&o));
}

/// JSON's `-0` is the whole number 0, as in TOML (JSON's reader takes it for a
/// floating-point number); a `-0` inside a string stays as written.
#[test]
fn json_negative_zero_is_zero() {
    let dir = scratch("negative-zero");
    let record = |zero: &str| {
        format!(
            "{{\"game\": {{\"players\": [\"-0\", \"Bob\"], \"seed\": {zero}, \"draw\": [\"base:U\"]}},\n \
             \"move\": [{{\"place\": \"base:U\", \"at\": [1, {zero}], \"rotation\": 0}}],\n \
             \"expect\": {{\"scores\": {{\"-0\": {zero}}}}}}}\n"
        )
    };
    let negative = write(&dir, "negative.json", record("-0"));
    let plain = write(&dir, "plain.json", record("0"));
    let (a, b) = (
        carc(&["replay", "--json", &negative]),
        carc(&["replay", "--json", &plain]),
    );
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a).replace("negative", "plain"), stdout(&b));
    assert!(stdout(&a).contains("\"-0\""), "{}", stdout(&a));
}

/// An empty name is said to be missing, not quoted as two empty backticks.
#[test]
fn an_empty_expansion_id_or_option_name_is_said_to_be_missing() {
    for (args, want) in [
        (vec!["new", "expansion", ""], "no expansion id given"),
        (vec!["play", "--rule", "=x"], "a rule option has no name"),
    ] {
        let o = carc(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("``"), "{args:?}: {err}");
    }
}

/// `carc rules` heads each expansion with its id and name, without nesting parentheses.
#[test]
fn rules_names_each_expansion_once() {
    let o = carc(&["rules", "base"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("base: Carcassonne (base game)\n"),
        "{}",
        stdout(&o)
    );
}

/// A game record given to `validate` (which reads tile data) is said to be one.
#[test]
fn validate_says_when_it_is_given_a_game_record() {
    let file = "tests/scenarios/base-01-start-tile-and-supply.toml";
    let o = carc(&["validate", file]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).contains(&format!(
            "note: {file} looks like a game record, not tile data: `carc replay {file}` plays one"
        )),
        "{}",
        show(&o)
    );
    // Tile data with errors gets no such note.
    let o = carc(&["validate", "tests/validate/missing-id.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(!stderr(&o).contains("game record"), "{}", show(&o));
    assert!(!stderr(&o).contains("manifest"), "{}", show(&o));
    // Nor a plugin's manifest: its directory is what to check.
    let file = "plugins/princess-dragon/manifest.toml";
    let o = carc(&["validate", file]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).contains(&format!(
            "note: {file} looks like a plugin's manifest, not tile data: `carc validate \
             plugins/princess-dragon` checks the plugin directory that holds it"
        )),
        "{}",
        show(&o)
    );
}

/// A tile file named twice (also through another path) is checked once, not found to
/// clash with itself.
#[test]
fn validate_checks_a_file_named_twice_once() {
    let o = carc(&[
        "validate",
        "tiledefs/base.toml",
        "tiledefs/base.toml",
        "./tiledefs/base.toml",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        stdout(&o).starts_with("1 file, 24 tile types, 72 tiles: valid"),
        "{}",
        show(&o)
    );
}

/// A directory without a manifest given to `validate` or `render tiles` is said to be no
/// plugin directory (it was "cannot read the file: it is a directory").
#[test]
fn a_directory_that_is_no_plugin_directory_is_said_to_be_one() {
    let dir = scratch("not-a-plugin-dir");
    let d = dir.to_str().unwrap();
    for args in [vec!["validate", d], vec!["render", "tiles", d]] {
        let o = carc(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", show(&o));
        assert!(
            stderr(&o)
                .contains("a directory but not a plugin directory (it holds no `manifest.toml`)"),
            "{args:?}: {}",
            show(&o)
        );
        assert!(!stderr(&o).contains("cannot read the file"), "{}", show(&o));
    }
}

/// A directory that is no plugin directory counts among `validate`'s inputs, in its
/// place: the summary counts its error (it said "valid" for the other files, and exit 2),
/// and it comes where it was given.
#[test]
fn validate_counts_a_directory_that_is_no_plugin_directory_in_its_place() {
    let dir = scratch("not-a-plugin-dir-counted");
    let d = dir.to_str().unwrap();
    let o = carc(&["validate", "tiledefs/base.toml", d]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(stdout(&o), "1 error in 1 file\n", "{}", show(&o));
    let o = carc(&["validate", "tests/validate/count-zero.toml", "nope.toml", d]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert_eq!(stdout(&o), "3 errors in 3 files\n", "{}", show(&o));
    let err = stderr(&o);
    let at = |what: &str| err.find(what).unwrap_or_else(|| panic!("{what}: {err}"));
    assert!(at("count-zero.toml:") < at("nope.toml:") && at("nope.toml:") < at(&format!("{d}:")));
    let o = carc(&["validate", d]);
    assert_eq!(stdout(&o), "1 error in 1 file\n", "{}", show(&o));
    assert!(
        stderr(&o).contains(&format!(
            "{d}: error: it is a directory but not a plugin directory"
        )),
        "{}",
        show(&o)
    );
}

/// A move placing a tile id this game does not have names the near one it has.
#[test]
fn a_placed_tile_id_near_one_of_the_game_says_which() {
    let dir = scratch("near-tile-id");
    let file = common::write(
        &dir,
        "g.toml",
        "[game]\nplayers = [\"A\", \"B\"]\n[[move]]\nplace = \"base:UU\"\nat = [0, 1]\nrotation = 0\n",
    );
    let o = carc(&["replay", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).contains(
            "is illegal: `base:UU` is not a tile of this game (base game or an enabled \
             expansion); did you mean `base:U`?"
        ),
        "{}",
        show(&o)
    );
}

/// A move of an installed expansion the record does not enable is refused, and the
/// expansion is named.
#[test]
fn a_move_of_an_expansion_the_record_does_not_enable_names_it() {
    let dir = scratch("move-not-enabled");
    let file = common::write(
        &dir,
        "g.toml",
        "[game]\nplayers = [\"A\", \"B\"]\nsupply = \"draw\"\ndraw = [\"base:U\", \"base:U\"]\n\
         [[move]]\nplace = \"base:U\"\nat = [0, 1]\nrotation = 0\n[[move]]\nfairy = [0, 1, \"N\"]\n\
         [[move]]\nrelease = [0, 1]\n[[move]]\nfairy = [0, 1, \"S\"]\n",
    );
    let o = carc(&["replay", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    let err = stderr(&o);
    assert!(
        err.contains(
            "note: `fairy` is a move of `princess-dragon`, which the record does not enable \
             (`expansions` in `[game]`)"
        ),
        "{err}"
    );
    assert_eq!(err.matches("note: `fairy`").count(), 1, "{err}");
    assert!(
        err.contains("note: `release` is a move of `russian-promos`"),
        "{err}"
    );
    // Enabled, it is no note.
    let file = common::write(
        &dir,
        "h.toml",
        "[game]\nexpansions = [\"princess-dragon\"]\nplayers = [\"A\", \"B\"]\n\
         [expect]\nscores = { A = 1, B = 0 }\n[[move]]\nfairy = [0, 0, \"N\"]\n",
    );
    let o = carc(&["replay", &file]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(!stderr(&o).contains("note:"), "{}", show(&o));
}

/// A subcommand's help lists its own options apart from those of every command.
#[test]
fn help_sets_the_options_of_every_command_apart() {
    let o = carc(&["replay", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (own, every) = out
        .split_once("Options of every command:")
        .unwrap_or_else(|| panic!("no heading: {out}"));
    assert!(
        own.contains("--json") && !own.contains("--plugin-dir"),
        "{out}"
    );
    assert!(
        every.contains("--plugin-dir") && !every.contains("--json"),
        "{out}"
    );
}

/// A rule option no enabled expansion has is said at its name; a value the option does
/// not take, at the value.
#[test]
fn a_rule_option_is_located_at_what_is_wrong_with_it() {
    let dir = scratch("rule-option-located");
    let unknown = write(
        &dir,
        "unknown.toml",
        "[game]\nplayers = [\"A\"]\n\n[game.rules]\n\"princess-dragon.dragon-mov\" = \"x\"\n",
    );
    let o = carc(&["replay", &unknown]);
    exits_saying(&o, 2, &format!("{unknown}:5:1: error: rule option"));
    let value = write(
        &dir,
        "value.toml",
        "[game]\nexpansions = [\"princess-dragon\"]\nplayers = [\"A\"]\n\n[game.rules]\n\
         \"princess-dragon.dragon-move\" = \"x\"\n",
    );
    let o = carc(&["replay", &value]);
    exits_saying(&o, 2, &format!("{value}:6:33: error: rule option"));
}

/// An empty player name (or one of spaces), or one given twice (or alike but for spaces
/// around them, which every list of scores shows alike), is said at that name in the list.
#[test]
fn a_wrong_player_name_is_located_at_the_name() {
    let dir = scratch("player-name-located");
    for (name, players, at) in [
        (
            "empty.toml",
            "[\"A\", \"\", \"C\"]",
            ":2:17: error: a player name is empty",
        ),
        (
            "spaces.toml",
            "[\"A\", \"B\", \"  \"]",
            ":2:22: error: a player name is empty",
        ),
        (
            "twice.toml",
            "[\"A\", \"B\", \"A\"]",
            ":2:22: error: the player name `A` is given twice",
        ),
        (
            "spaced.toml",
            "[\"A\", \"B\", \"A \"]",
            ":2:22: error: the player names `A` and `A ` differ only in the spaces around \
             them: give each player a name of their own",
        ),
    ] {
        let file = write(&dir, name, format!("[game]\nplayers = {players}\n"));
        exits_saying(&carc(&["replay", &file]), 2, &format!("{file}{at}"));
    }
}
