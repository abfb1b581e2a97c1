//! Faults at the binary boundary, with a real plugin library: the misbehaving fixture
//! (`plugins/fixtures/misbehaving`), loaded the way `carc` loads plugins, panics in the
//! hook its rule option `fault` names or gives commands the engine refuses.
//!
//! - A panic in a hook during a game disables the expansion; the engine names the
//!   expansion and the hook, and `carc play` stops the game with that error (exit 2).
//! - A panic while the expansion is made (`new`) or declares its hooks
//!   (`hooks_in`, `events`) makes building the rules fail with an error naming both.
//! - The process goes on: after every faulting game, the same process plays a game with
//!   the shipped plugins exactly as before.
//! - A refused command is named, and the game is exactly as if it had not been given.
//! - A command about a figure that an earlier command of the same step has moved is
//!   refused, not applied.
//! - A panic while saying why a refused move is not allowed (`why_not`) disables the
//!   expansion too; the move is refused with the engine's reason and the game goes on.

mod common;
mod fixture_libs;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use carc_core::bots::{Strategy, bot_game, play_out};
use carc_core::catalog::Catalog;
use carc_core::engine::{Action, Game, GameState};
use carc_core::figures::Location;
use carc_core::geometry::{Pos, Rotation};
use carc_core::plugin::Plugin;
use carc_core::rules::Rules;
use carc_host::plugins;
use common::{carc, stderr, stdout};
use fixture_libs::MISBEHAVING;

/// The fixture's id.
const ID: &str = "fixture-misbehaving";

/// The faults that panic during a game, with the hook each names.
const IN_GAME: [(&str, &str); 8] = [
    ("panic-in-enter-phase", "enter_phase"),
    ("panic-in-actions", "actions"),
    ("panic-in-forbid", "forbid"),
    ("panic-in-apply", "apply"),
    ("panic-in-event", "on_event"),
    ("panic-in-final-scoring", "final_scoring"),
    ("panic-in-feature-worth", "feature_worth"),
    ("panic-in-figure-strength", "figure_strength"),
];

/// The faults that panic before a game, while the rules are put together.
const BEFORE_GAME: [(&str, &str); 3] = [
    ("panic-in-instantiate", "new"),
    ("panic-while-declaring", "hooks_in"),
    ("panic-in-events", "events"),
];

/// A catalog with the fixture and the shipped plugins, every one from its shared library,
/// loaded as `carc` loads them (once per process: libraries are never unloaded).
fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut catalog = Catalog::new();
        let path = fixture_libs::library(MISBEHAVING);
        let module = plugins::load_library(&path)
            .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
        catalog
            .add(Plugin::factory(module).expect("the fixture's declarations are valid"))
            .expect("added");
        for found in plugins::shipped_libraries(Some(fixture_libs::shipped_dirs())) {
            let module = found
                .module
                .unwrap_or_else(|e| panic!("shipped plugin `{}`: {e}", found.name));
            catalog
                .add(Plugin::factory(module).expect("valid declarations"))
                .expect("added");
        }
        catalog
    })
}

/// The rules with the fixture under fault `fault`.
fn fixture_rules(fault: &str) -> Result<Rules, String> {
    let options = BTreeMap::from([(format!("{ID}.fault"), fault.to_string())]);
    catalog()
        .rules(&[ID.to_string()], &options)
        .map_err(|e| e.to_string())
}

/// A game between two random bots, played out.
fn played(rules: Rules, seed: u64) -> Game {
    let players = ["Ann".to_string(), "Ben".to_string()];
    let mut g = bot_game(&Arc::new(rules), &players, &[Strategy::Random], seed).expect("game");
    play_out(&mut g.game, &mut g.bots);
    g.game
}

/// A game of the shipped expansions, played out: its final state.
fn shipped_game(seed: u64) -> GameState {
    let rules = catalog()
        .rules(
            &["princess-dragon".to_string(), "russian-promos".to_string()],
            &BTreeMap::new(),
        )
        .expect("rules of the shipped expansions");
    let game = played(rules, seed);
    assert!(game.is_over());
    assert_eq!(game.faults(), &[] as &[String], "a fault in a normal game");
    game.state
}

/// Plays a game under each in-game fault and checks what the engine reports.
fn play_each_panicking_game() {
    for (fault, hook) in IN_GAME {
        let game = played(fixture_rules(fault).expect("the rules build"), 1);
        assert!(
            game.is_over(),
            "{fault}: the game ran to its end without it"
        );
        assert!(game.state.pile.is_empty(), "{fault}: every tile was played");
        assert_eq!(game.faults().len(), 1, "{fault}: {:?}", game.faults());
        let f = &game.faults()[0];
        assert!(
            f.starts_with(&format!("expansion `{ID}` panicked in `{hook}` (")),
            "{fault}: {f}"
        );
        assert!(f.contains("as its rule option asks"), "{fault}: {f}");
        assert!(f.ends_with("it is disabled"), "{fault}: {f}");
    }
}

#[test]
fn a_panic_in_a_hook_disables_the_expansion_and_names_it_and_the_hook() {
    play_each_panicking_game();
}

#[test]
fn a_panic_while_made_or_declaring_fails_the_rules_and_names_the_expansion_and_the_hook() {
    for (fault, hook) in BEFORE_GAME {
        let err = fixture_rules(fault).expect_err(fault);
        assert!(err.contains(&format!("expansion `{ID}`")), "{fault}: {err}");
        assert!(
            err.contains(&format!("panicked in `{hook}`")),
            "{fault}: {err}"
        );
        assert!(!err.contains('\n'), "{fault}: one line: {err}");
    }
    // The catalog still builds rules with the fixture behaving.
    assert!(fixture_rules("none").is_ok());
}

#[test]
fn after_faulting_games_the_process_plays_other_games_as_before() {
    let before = shipped_game(7);
    play_each_panicking_game();
    for (fault, _) in BEFORE_GAME {
        assert!(fixture_rules(fault).is_err(), "{fault}");
    }
    let after = shipped_game(7);
    assert!(
        before == after,
        "the same game ends otherwise after the faults"
    );
    // And the fixture's own library still plays a clean game.
    let game = played(fixture_rules("none").expect("rules"), 1);
    assert!(game.is_over());
    assert_eq!(game.faults(), &[] as &[String]);
}

#[test]
fn a_refused_command_is_named_and_changes_nothing() {
    let clean = played(fixture_rules("none").expect("rules"), 3);
    let bad = played(fixture_rules("bad-command").expect("rules"), 3);
    assert_eq!(clean.faults(), &[] as &[String]);
    // Each wave gave the same commands as in the clean game, plus two the engine refused:
    // the game is exactly the clean one.
    assert!(
        bad.state == clean.state,
        "the refused commands changed the game"
    );
    let waves = bad.state.ext[bad.rules.expansion_index(ID).expect("enabled")][2];
    assert!(waves > 10, "it waved ({waves} times)");
    assert_eq!(bad.faults().len() as i64, 2 * waves, "{:?}", bad.faults());
    let prefix = format!(
        "expansion `{ID}` gave a command in `apply` that was refused and changed nothing: it "
    );
    for pair in bad.faults().chunks(2) {
        assert_eq!(
            pair[0],
            format!("{prefix}moved figure 60000, which does not exist")
        );
        assert_eq!(
            pair[1],
            format!("{prefix}scored for seat 5, which does not exist")
        );
    }
    // Told to the player once each, with how many times.
    assert_eq!(
        bad.faults_said(),
        [
            format!("{prefix}moved figure 60000, which does not exist ({waves} times)"),
            format!("{prefix}scored for seat 5, which does not exist ({waves} times)"),
        ]
    );
}

#[test]
fn a_feature_is_not_scored_twice() {
    // BASE-8: a feature is scored once. Marking a scored feature again would tell every
    // rule that listens (the fairy's bonus, PD-14) that it was scored again.
    let clean = played(fixture_rules("none").expect("rules"), 4);
    let again = played(fixture_rules("score-twice").expect("rules"), 4);
    assert!(
        again.state == clean.state,
        "marking a scored feature again changed the game"
    );
    let prefix = format!(
        "expansion `{ID}` gave a command in `apply` that was refused and changed nothing: it \
         marked segment "
    );
    assert!(again.faults().len() > 3, "{:?}", again.faults());
    for fault in again.faults() {
        let rest = fault
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{fault}"));
        let (segment, why) = rest.split_once(' ').unwrap_or_else(|| panic!("{fault}"));
        assert!(segment.parse::<u32>().is_ok(), "{fault}");
        assert_eq!(why, "as scored, and its feature was scored already");
    }
}

#[test]
fn an_offer_its_manifest_does_not_allow_disables_the_expansion_and_says_why() {
    let game = played(fixture_rules("bad-offer").expect("rules"), 3);
    assert!(game.is_over(), "the game ran to its end without it");
    assert_eq!(
        game.faults(),
        [format!(
            "expansion `{ID}` went wrong in `actions`: it offered `wave` with a figure, but \
             its manifest says `wave` takes no argument; it is disabled"
        )]
    );
}

#[test]
fn a_command_about_a_figure_moved_earlier_in_the_same_step_is_refused() {
    let rules = Arc::new(fixture_rules("stale-figure").expect("rules"));
    let players = ["Ann".to_string(), "Ben".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], 5).expect("game");
    let wave = rules.verb("wave").expect("registered").0;
    let mut checked = 0;
    while !g.game.is_over() {
        let actions = g.game.legal_actions().to_vec();
        let seat = g.game.decider();
        let state = &g.game.state;
        // The wave of a player with a follower on the board: the fixture sends it home,
        // then moves it onto the placed tile; the second command comes too late.
        let follower = state
            .figures
            .iter()
            .position(|f| f.owner == seat && f.kind == 0 && matches!(f.at, Location::Feature(_)));
        let waving = actions
            .iter()
            .find(|a| matches!(a, Action::Verb { verb, .. } if *verb == wave));
        if let (Some(f), Some(a)) = (follower, waving) {
            let moves = state.figures[f].moves;
            g.game.apply(a).expect("offered");
            let figure = &g.game.state.figures[f];
            assert_eq!(figure.at, Location::Supply, "sent home, and no further");
            assert_eq!(figure.moves, moves.wrapping_add(1), "moved once");
            checked += 1;
            continue;
        }
        let a = g.bots[seat as usize].choose(&mut g.game).expect("a move");
        g.game.apply(&a).expect("legal");
    }
    assert!(checked > 3, "waves with a follower on the board: {checked}");
    assert_eq!(g.game.faults(), &[] as &[String], "refused, not a fault");
}

#[test]
fn a_panic_while_explaining_a_refused_move_disables_the_expansion_and_the_game_goes_on() {
    let rules = Arc::new(fixture_rules("panic-in-why-not").expect("rules"));
    let players = ["Ann".to_string(), "Ben".to_string()];
    let mut g = bot_game(&rules, &players, &[Strategy::Random], 2).expect("game");
    // Play into turn 2 (the fixture panics from there on), then ask for a tile that was
    // not drawn.
    while g.game.state.turn.number < 2 {
        let seat = g.game.decider();
        let a = g.bots[seat as usize].choose(&mut g.game).expect("a move");
        g.game.apply(&a).expect("legal");
    }
    let state = g.game.state.clone();
    let drawn = g.game.state.turn.drawn;
    let other = rules
        .tiles
        .get("base:A")
        .filter(|&t| Some(t) != drawn)
        .or_else(|| rules.tiles.get("base:B"))
        .expect("a base tile");
    let refused = g.game.apply(&Action::Place {
        tile: other,
        pos: Pos::new(40, 40),
        rotation: Rotation::ALL[0],
    });
    let why = refused.expect_err("a tile that was not drawn is refused").0;
    // Ben has placed his tile: a placement is no option of his pending figure step.
    assert_eq!(
        why,
        "the pending decision, `deploy` by Ben, takes `follower` or `pass`; this move is none of \
         them",
        "the engine still says why"
    );
    assert_eq!(g.game.faults().len(), 1, "{:?}", g.game.faults());
    let f = &g.game.faults()[0];
    assert!(
        f.starts_with(&format!("expansion `{ID}` panicked in `why_not` ("))
            && f.ends_with("it is disabled"),
        "{f}"
    );
    assert!(g.game.state == state, "a refused move changes nothing");
    // The game goes on without it.
    play_out(&mut g.game, &mut g.bots);
    assert!(g.game.is_over());
    assert_eq!(g.game.faults().len(), 1, "{:?}", g.game.faults());
}

/// `carc` with the fixture library loaded (`--plugin`) and these arguments.
fn carc_with_fixture(args: &[&str]) -> std::process::Output {
    let lib = fixture_libs::library(MISBEHAVING);
    let mut all = vec!["--plugin", lib.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    carc(&all)
}

/// `carc play` with the fixture library under fault `fault`, seed 1, and `extra`
/// arguments.
fn carc_play_with(fault: &str, extra: &[&str]) -> std::process::Output {
    let rule = format!("{ID}.fault={fault}");
    let mut args = vec!["play", "--expansions", ID, "--rule", &rule, "--seed", "1"];
    args.extend_from_slice(extra);
    carc_with_fixture(&args)
}

/// `carc play` with the fixture library under fault `fault`, seed 1.
fn carc_play(fault: &str) -> std::process::Output {
    carc_play_with(fault, &[])
}

#[test]
fn carc_play_stops_the_game_with_an_error_naming_the_expansion_and_the_hook() {
    for (fault, hook) in IN_GAME {
        let o = carc_play(fault);
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(2), "{fault}: {err}");
        let want = format!("expansion `{ID}` panicked in `{hook}` (");
        let line = err
            .lines()
            .find(|l| l.starts_with("error: the game stopped after "))
            .unwrap_or_else(|| panic!("{fault}: no error line in {err}"));
        assert!(line.contains(&want), "{fault}: {line}");
        assert!(!out.contains("final scores"), "{fault}: the game stopped");
        assert!(
            out.starts_with("carc play --seed 1"),
            "{fault}: the log so far"
        );
    }
    for (fault, hook) in BEFORE_GAME {
        let o = carc_play(fault);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{fault}: {err}");
        assert!(stdout(&o).is_empty(), "{fault}: no game");
        let line = err
            .lines()
            .find(|l| l.starts_with("error: "))
            .unwrap_or_else(|| panic!("{fault}: no error line in {err}"));
        assert!(
            line.contains(&format!("expansion `{ID}`")),
            "{fault}: {line}"
        );
        assert!(
            line.contains(&format!("panicked in `{hook}`")),
            "{fault}: {line}"
        );
    }
}

#[test]
fn carc_play_stops_at_a_refused_command_and_names_it() {
    let o = carc_play("bad-command");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let prefix = format!(
        "expansion `{ID}` gave a command in `apply` that was refused and changed nothing: it"
    );
    assert!(
        err.starts_with("error: the game stopped after 3 moves, on 2 faults:\n"),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "\n  {prefix} moved figure 60000, which does not exist\n"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "\n  {prefix} scored for seat 5, which does not exist"
        )),
        "{err}"
    );
    // The fixture behaving, the same game plays to its end.
    let o = carc_play("none");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("final scores"));
}

#[test]
fn carc_plugins_list_shows_a_plugin_given_with_plugin() {
    let lib = fixture_libs::library(MISBEHAVING);
    let o = carc(&[
        "plugins",
        "list",
        "--json",
        "--plugin",
        lib.to_str().expect("UTF-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let row = rows
        .as_array()
        .expect("an array")
        .iter()
        .find(|r| r["id"] == ID)
        .unwrap_or_else(|| panic!("not listed: {rows}"));
    assert_eq!(row["status"], "loaded");
    assert_eq!(row["protocol"], "1.6.0");
    assert_eq!(row["path"], lib.to_str().expect("UTF-8"));
}

/// Runs `carc` with the misbehaving fixture told how to behave when it is opened
/// (`CRASH_ON_OPEN`).
#[cfg(target_os = "linux")]
fn carc_opening_fixture(how: &str, args: &[&str]) -> std::process::Output {
    common::command(args)
        .env(carc_fixture_misbehaving::CRASH_ON_OPEN, how)
        .output()
        .expect("carc runs")
}

/// A library that crashes or stops the process that opens it (as a damaged library does,
/// in the system loader or in its initialisers) is opened in a test process first and
/// refused with what happened there; `carc` goes on: the shipped plugins are loaded, and a
/// game asking for the refused expansion is refused with the reason (exit 2), not crashed.
#[cfg(target_os = "linux")]
#[test]
fn a_library_that_crashes_when_opened_is_refused_and_carc_goes_on() {
    let lib = fixture_libs::library(MISBEHAVING);
    let lib = lib.to_str().expect("UTF-8");
    let damaged = "the library is damaged, or was not built for this system";
    for (how, said) in [
        (
            "segfault",
            "opening it crashed a test process (signal 11, a segmentation fault)",
        ),
        (
            "abort",
            "opening it crashed a test process (signal 6, an abort)",
        ),
        (
            "exit",
            "opening it stopped a test process (exit code 127: the fixture gave up while it \
             was opened)",
        ),
        (
            "exit-0",
            "opening it ended a test process early (exit code 0): the library ends the \
             process that opens it",
        ),
    ] {
        let crashing = |args: &[&str]| carc_opening_fixture(how, args);
        let o = crashing(&["plugins", "list", "--json", "--plugin", lib]);
        assert_eq!(o.status.code(), Some(0), "{how}: {}", stderr(&o));
        let rows: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        let rows = rows.as_array().expect("an array");
        let status = |path: &str| {
            rows.iter()
                .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with(path)))
                .map(common::listed_status)
                .unwrap_or_else(|| panic!("{path} not listed: {rows:?}"))
        };
        let reason = if how == "exit-0" {
            said.to_string()
        } else {
            format!("{said}: {damaged}")
        };
        assert_eq!(status(lib), format!("refused: {reason}"), "{how}");
        for shipped in plugins::SHIPPED {
            assert_eq!(status(&plugins::library_file(shipped)), "loaded", "{how}");
        }
        let o = crashing(&["play", "--plugin", lib, "--expansions", ID, "--seed", "1"]);
        assert_eq!(o.status.code(), Some(2), "{how}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("error: unknown expansion `{ID}`")));
        assert!(stderr(&o).contains(said), "{how}: {}", stderr(&o));
    }
}

/// The test process is this very `carc`, even when its file is removed (or replaced, as
/// a new build does) after it started: a library that crashes the process opening it is
/// still refused with what happened in the test process, not refused because no test
/// process could start, nor opened untried.
#[cfg(target_os = "linux")]
#[test]
fn a_library_is_tried_even_after_carcs_file_is_removed() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = common::scratch("faults-removed-carc");
    let copy = dir.join("carc");
    std::fs::copy(env!("CARGO_BIN_EXE_carc"), &copy).expect("carc copied");
    let lib = fixture_libs::library(MISBEHAVING);
    // `replay -` reads the record before it loads any plugin.
    let mut child = std::process::Command::new(&copy)
        .args(["replay", "-", "--plugin"])
        .arg(&lib)
        .env(carc_fixture_misbehaving::CRASH_ON_OPEN, "segfault")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the copy of carc runs");
    std::fs::remove_file(&copy).expect("the copy removed");
    let record = format!("[game]\nexpansions = [\"{ID}\"]\nplayers = [\"A\", \"B\"]\n");
    let mut stdin = child.stdin.take().expect("piped");
    stdin.write_all(record.as_bytes()).expect("record written");
    drop(stdin);
    let o = child.wait_with_output().expect("carc ends");
    common::exits_saying(
        &o,
        2,
        "opening it crashed a test process (signal 11, a segmentation fault)",
    );
}

/// What a library writes on standard output while it is opened (in the test process and
/// in `carc`) goes to standard error: results, here JSON, stay whole.
#[cfg(target_os = "linux")]
#[test]
fn what_a_library_prints_while_opened_does_not_mix_with_results() {
    let lib = fixture_libs::library(MISBEHAVING);
    let lib = lib.to_str().expect("UTF-8");
    let line = "a line from the fixture's initialiser";
    for args in [
        vec!["plugins", "list", "--json", "--plugin", lib],
        vec![
            "play",
            "--json",
            "--plugin",
            lib,
            "--expansions",
            ID,
            "--seed",
            "1",
        ],
    ] {
        let o = carc_opening_fixture("print", &args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let json: Result<serde_json::Value, _> = serde_json::from_str(&stdout(&o));
        assert!(json.is_ok(), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(line), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_stopped_game_is_still_written_and_every_command_reading_it_fails_with_exit_2() {
    let dir = common::scratch("faults-written");
    let lib = fixture_libs::library(MISBEHAVING);
    let lib = lib.to_str().expect("a UTF-8 path");
    let (record, page) = (dir.join("stopped.toml"), dir.join("stopped.html"));
    let rule = format!("{ID}.fault=bad-command");
    let o = carc(&[
        "play",
        "--plugin",
        lib,
        "--expansions",
        ID,
        "--rule",
        &rule,
        "--seed",
        "1",
        "--record",
        record.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("error: the game stopped after 3 moves"),
        "{err}"
    );
    assert!(err.contains("record written to"), "{err}");
    let text = std::fs::read_to_string(&record).expect("the record of the game so far");
    assert_eq!(text.matches("[[move]]").count(), 3, "{text}");
    assert!(page.is_file(), "the page of the game so far");
    // Played again, the game meets the same fault: each command says so and exits 2,
    // writing what it was asked for all the same.
    let (view, board) = (dir.join("view.html"), dir.join("board.svg"));
    for (args, written) in [
        (vec!["replay", record.to_str().unwrap()], None),
        (
            vec![
                "view",
                record.to_str().unwrap(),
                "--out",
                view.to_str().unwrap(),
            ],
            Some(&view),
        ),
        (
            vec![
                "render",
                "board",
                record.to_str().unwrap(),
                "--out",
                board.to_str().unwrap(),
            ],
            Some(&board),
        ),
    ] {
        let mut all = vec!["--plugin", lib];
        all.extend(args.iter().copied());
        let o = carc(&all);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("expansion `fixture-misbehaving` gave a command"),
            "{args:?}: {err}"
        );
        // Said once, not "an expansion misbehaved: expansion ...".
        assert!(!err.contains("misbehaved"), "{args:?}: {err}");
        // And alike by the three commands: the record, then each fault.
        assert!(
            err.contains(&format!(
                "{}: replay failed\n  expansion `fixture-misbehaving` gave a command",
                record.display()
            )),
            "{args:?}: {err}"
        );
        if let Some(file) = written {
            assert!(file.is_file(), "{args:?}: {} written", file.display());
        }
    }
}

/// A plugin library's panic is reported once, by the host, with its message and where
/// in the plugin's source it happened; the library's standard library prints nothing of
/// its own (no `thread '…' panicked at`, no backtrace hint).
#[test]
fn a_panic_in_a_library_is_reported_once_with_where_it_happened() {
    let o = carc_play("unforeseen-panic");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("thread '"), "{err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{err}");
    let line = err
        .lines()
        .find(|l| l.starts_with("error: the game stopped after "))
        .unwrap_or_else(|| panic!("no error line in {err}"));
    assert!(
        line.contains(&format!(
            "expansion `{ID}` panicked in `apply` (index out of bounds"
        )),
        "{line}"
    );
    assert!(
        line.contains(", at ") && line.contains("src/lib.rs:"),
        "{line}"
    );
}

/// A plugin directory holding the fixture's library, with its manifest (given the
/// library's name) and whatever `extra` adds to it.
fn fixture_dir(name: &str, extra: &str) -> common::Scratch {
    let dir = common::scratch(name);
    let manifest =
        std::fs::read_to_string(common::root().join("plugins/fixtures/misbehaving/manifest.toml"))
            .expect("the fixture's manifest");
    let manifest = manifest.replacen(
        "version = \"1.0.0\"\n",
        &format!("version = \"1.0.0\"\nlibrary = \"{MISBEHAVING}\"\n{extra}"),
        1,
    );
    std::fs::write(dir.join("manifest.toml"), manifest).expect("manifest written");
    let lib = fixture_libs::library(MISBEHAVING);
    std::fs::copy(&lib, dir.join(lib.file_name().expect("a file name"))).expect("copied");
    dir
}

/// `carc validate DIR` opens the library and makes the expansion, as a game does: a
/// library built from another manifest, or an expansion that cannot be made, is said
/// there (exit 1), not only in the first game.
#[test]
fn carc_validate_opens_the_library_and_makes_the_expansion() {
    let validate = |dir: &common::Scratch, fault: &str| {
        common::command(&["validate", dir.to_str().expect("a UTF-8 path")])
            .env(carc_fixture_misbehaving::FAULT_VARIABLE, fault)
            .output()
            .expect("carc runs")
    };
    let good = fixture_dir("validate-good", "");
    let o = validate(&good, "none");
    assert_eq!(o.status.code(), Some(0), "{}", common::show(&o));
    assert!(
        stdout(&o).contains("ok, the plugin can be loaded"),
        "{}",
        common::show(&o)
    );
    // Its phase `wave`, placed after `score`, meets the dragon's phase there under
    // `dragon-move = after-scoring`: valid alone, it cannot be played beside The Princess
    // and the Dragon with that option, which is said as a warning.
    assert!(
        stderr(&o).contains(
            "warning: beside `princess-dragon`, `russian-promos` with the rule option \
             `princess-dragon.dragon-move = after-scoring`, no game can be set up: the phases"
        ),
        "{}",
        common::show(&o)
    );
    assert_eq!(
        stderr(&o).matches("warning: beside").count(),
        1,
        "{}",
        common::show(&o)
    );

    // Declarations that hold, but not the ones its library was built with.
    let changed = fixture_dir("validate-changed", "\n[[marker]]\nname = \"silver\"\n");
    let o = validate(&changed, "none");
    assert_eq!(o.status.code(), Some(1), "{}", common::show(&o));
    let err = stderr(&o);
    assert!(err.contains("the plugin would be refused"), "{err}");
    assert!(err.contains("built with another manifest.toml"), "{err}");
    assert!(
        err.contains("its manifest and tile data are valid"),
        "{err}"
    );

    // A library whose expansion fails when it is made.
    let o = validate(&good, "panic-in-instantiate");
    assert_eq!(o.status.code(), Some(1), "{}", common::show(&o));
    let err = stderr(&o);
    assert!(
        err.contains("the plugin loads, but no game can use it"),
        "{err}"
    );
    assert!(
        err.contains(carc_fixture_misbehaving::PANIC_PREFIX),
        "{err}"
    );
    assert_eq!(
        stdout(&o),
        format!(
            "{}: the plugin loads, but no game can use it\n",
            good.display()
        ),
        "{}",
        common::show(&o)
    );
}

/// What a plugin gives that no game can hold is its fault, named, and the game goes on
/// to its end: a score for a feature that does not exist or past what a score holds (the
/// command is refused), an offer onto a segment that does not exist, a turn that never
/// ends (endless moves, or every drawn tile put
/// back, reactions that set off reactions without end): the expansion is then disabled.
#[test]
fn what_a_plugin_gives_that_no_game_can_hold_is_its_fault_and_the_game_goes_on() {
    let refused = format!(
        "expansion `{ID}` gave a command in `apply` that was refused and changed nothing: it "
    );
    let cases = [
        (
            "score-nowhere",
            format!("{refused}scored for segment 4294967294, which does not exist"),
        ),
        (
            "score-overflow",
            format!("{refused}scored 2147483647 points for seat "),
        ),
        (
            "offer-nowhere",
            format!(
                "expansion `{ID}` went wrong in `actions`: it offered a move onto segment 4294967294, which does not exist; it is disabled"
            ),
        ),
        (
            "endless-turn",
            format!(
                "expansion `{ID}` went wrong in `actions`: it offered moves for more than 1000 decisions in one turn, and a turn that long never ends; it is disabled"
            ),
        ),
        (
            "endless-reaction",
            format!(
                "expansion `{ID}` went wrong in `on_event`: its reactions set off events more than 32 deep (each reaction's event set off another), so the last was not told; it is disabled"
            ),
        ),
        (
            "redraw-forever",
            format!(
                "expansion `{ID}` went wrong in `on_event`: it set aside or put back more than 10000 drawn tiles in one turn, and a turn that never gets a tile to place never ends; it is disabled"
            ),
        ),
    ];
    for (fault, want) in cases {
        let game = played(fixture_rules(fault).expect("rules"), 3);
        assert!(game.is_over(), "{fault}: the game ran to its end");
        let faults = game.faults();
        assert!(
            !faults.is_empty() && faults.iter().all(|f| f.starts_with(&want)),
            "{fault}: {faults:?}"
        );
        if fault.starts_with("score") {
            assert!(
                game.state.players.iter().all(|p| p.score < 1000),
                "{fault}: the scores changed"
            );
        } else {
            assert_eq!(faults.len(), 1, "{fault}: disabled once: {faults:?}");
        }
    }
}

/// An expansion offers only moves of its own, and never a deployment of a neutral
/// figure (which no player has): either is its fault, named, and the game goes on
/// without it.
#[test]
fn offering_another_expansions_move_or_a_neutral_figure_is_a_fault() {
    for (fault, want) in [
        (
            "offer-foreign-verb",
            "it offered `fairy`, a move of `princess-dragon`: an expansion offers only the \
             moves its own manifest declares",
        ),
        (
            "deploy-neutral",
            "it offered to deploy the neutral figure `fairy`, which is in no player's supply",
        ),
    ] {
        let options = BTreeMap::from([(format!("{ID}.fault"), fault.to_string())]);
        let rules = catalog()
            .rules(&[ID.to_string(), "princess-dragon".to_string()], &options)
            .expect("rules");
        let game = played(rules, 3);
        assert!(game.is_over(), "{fault}: the game ran to its end");
        assert_eq!(game.faults().len(), 1, "{fault}: {:?}", game.faults());
        assert!(
            game.faults()[0]
                .starts_with(&format!("expansion `{ID}` went wrong in `actions`: {want}")),
            "{fault}: {:?}",
            game.faults()
        );
    }
}

/// Forbidding every move of a decision is no fault: the decision is skipped, as a tile
/// whose every placement is forbidden is discarded. The fixture forbids its wave (and the
/// pass) from turn 2 on: it waves in turn 1 at most, and the game goes on.
#[test]
fn forbidding_every_move_of_a_decision_skips_it() {
    let game = played(fixture_rules("forbid-all").expect("rules"), 3);
    assert!(game.is_over());
    assert_eq!(game.faults(), &[] as &[String]);
    let waves = game.state.ext[game.rules.expansion_index(ID).expect("enabled")][2];
    assert!(waves <= 1, "it waved {waves} times");
    let clean = played(fixture_rules("none").expect("rules"), 3);
    let waved = clean.state.ext[clean.rules.expansion_index(ID).expect("enabled")][2];
    assert!(waved > 10, "without the fault it waves ({waved} times)");
}

/// A verdict on placements that changes when they are judged together (forbidding all,
/// where each alone is allowed) would lose the drawn tile: it is the expansion's fault,
/// named with its hook, and the game goes on without it, every tile placed or discarded
/// (the tiles were drawn and silently never placed).
#[test]
fn forbidding_together_the_placements_allowed_alone_is_a_fault_and_no_tile_is_lost() {
    let game = played(
        fixture_rules("forbid-placements-together").expect("rules"),
        3,
    );
    assert!(game.is_over());
    assert_eq!(
        game.faults(),
        &[format!(
            "expansion `{ID}` went wrong in `forbid`: it forbade a placement of the drawn \
             tile judged with the others, which it allowed judged alone, and no placement \
             was left (a verdict on a placement must not depend on the others judged with \
             it); it is disabled"
        )]
    );
    let st = &game.state;
    assert_eq!(
        st.board.tiles.len() + st.discarded.len(),
        72,
        "every tile of the base game was placed (the start tile included) or discarded"
    );
    assert!(st.turn.number > 60, "the game went on to its end");
}

/// No fault: a tile that could be placed when drawn, but whose every placement an
/// expansion forbids once the placement phase begins (judged alone or together alike),
/// fits nowhere then: it is discarded and another drawn (BASE-4), as a tile that fits
/// nowhere when drawn is. The fixture closes the first tile of each turn from turn 2 on.
#[test]
fn a_tile_whose_placements_are_all_forbidden_after_it_was_drawn_is_discarded() {
    let game = played(fixture_rules("closed-after-draw").expect("rules"), 3);
    assert!(game.is_over());
    assert_eq!(game.faults(), &[] as &[String]);
    let st = &game.state;
    assert_eq!(
        st.board.tiles.len() + st.discarded.len(),
        72,
        "every tile of the base game was placed (the start tile included) or discarded"
    );
    // Every turn from the second on discarded its first tile, and then placed one.
    let turns = st.turn.number as usize;
    assert!(turns > 20, "{turns} turns");
    assert!(
        st.discarded.len() + 1 >= turns,
        "{} discarded in {turns} turns",
        st.discarded.len()
    );
    assert!(st.board.tiles.len() >= turns, "a tile placed every turn");
    // `carc play` writes such a game as a record (no entry for a discard) that replays.
    let dir = common::scratch("faults-closed-after-draw");
    let record = dir.join("game.toml");
    let record = record.to_str().expect("a UTF-8 path");
    let o = carc_play_with("closed-after-draw", &["--record", record]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("fits nowhere and is discarded"),
        "{}",
        stdout(&o)
    );
    let o = carc_with_fixture(&["replay", record]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// An expansion that fails as a turn begins, before any decision of it: `carc play`
/// meets it choosing the next move and stops, naming it, and the record it writes meets
/// it too when replayed (both exit 2), rather than replaying as a game that went well.
#[test]
fn a_fault_as_a_turn_begins_stops_play_and_its_replay_alike() {
    let dir = common::scratch("faults-turn-start");
    let record = dir.join("stopped.toml");
    let record = record.to_str().expect("a UTF-8 path");
    let o = carc_play_with("panic-at-turn-start", &["--record", record]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let want = format!("expansion `{ID}` panicked in `on_event`");
    assert!(err.contains(&want), "{err}");
    assert!(!err.contains("offered no move"), "{err}");
    let o = carc_with_fixture(&["replay", record]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&want), "{err}");
}

/// An expansion may end the game as a turn begins: `carc play` meets it choosing the next
/// move and ends the game as any other (not "no move"), and the record it writes replays
/// to the same final scores.
#[test]
fn a_game_ended_as_a_turn_begins_ends_in_play_and_replay_alike() {
    let dir = common::scratch("faults-end-at-turn-start");
    let record = dir.join("ended.toml");
    let record = record.to_str().expect("a UTF-8 path");
    let o = carc_play_with("end-at-turn-start", &["--record", record]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("final scores:"), "{}", stdout(&o));
    let text = std::fs::read_to_string(record).expect("the record");
    assert!(text.contains("[expect.scores]"), "{text}");
    let o = carc_with_fixture(&["replay", record]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}
