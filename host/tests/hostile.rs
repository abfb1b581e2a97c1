//! Issue #13, "Hostile input": what `carc` does with output it cannot write, inputs with
//! very many errors, inputs that are too large, rule options and expansions given twice,
//! control characters in names and files, one way of reporting for every subcommand, and
//! error messages free of the implementation's type names. Each test runs the `carc`
//! binary from the repository root, as a user would.

mod common;
mod fixture_libs;

use common::{carc, carc_with_stdin, exits_saying, root, scratch, show, stderr, stdout, write};
use std::fs;
use std::path::Path;
use std::process::{Output, Stdio};

/// A record that replays with exit 0 and is larger than 1 KiB.
const RECORD: &str = "tests/scenarios/audit5-dragon-three-players-six-steps.toml";

/// The escape byte that starts a terminal control sequence.
const ESC: u8 = 0x1b;

// ---------------------------------------------------------------------------------------
// 1. Standard output that cannot be written

/// Every subcommand that prints results, as arguments.
fn printing_commands() -> Vec<Vec<&'static str>> {
    vec![
        vec!["play", "--seed", "1"],
        vec!["play", "--seed", "1", "--json"],
        vec!["replay", RECORD],
        vec!["replay", RECORD, "--json"],
        vec!["view", RECORD, "--out", "-"],
        vec!["validate", "tiledefs/base.toml"],
        vec!["rules"],
        vec!["plan"],
        vec!["schema", "tiles"],
        vec!["schema", "record"],
        vec!["simulate", "--games", "3", "--seed", "1"],
        vec!["plugins", "list"],
        vec!["plugins", "list", "--json"],
        vec!["plugins", "info", "princess-dragon"],
        vec!["--help"],
        vec!["-h"],
        vec!["--version"],
        vec!["help", "play"],
        vec!["play", "--help"],
    ]
}

#[test]
fn a_full_disk_exits_2_with_one_line_and_no_panic() {
    let full = Path::new("/dev/full");
    assert!(full.exists(), "these tests need /dev/full (Linux)");
    for args in printing_commands() {
        let sink = fs::OpenOptions::new()
            .write(true)
            .open(full)
            .expect("/dev/full opens");
        let o = common::command(&args)
            .stdout(Stdio::from(sink))
            .stderr(Stdio::piped())
            .output()
            .expect("carc runs");
        let err = stderr(&o);
        let what = args.join(" ");
        assert!(!err.contains("panicked"), "carc {what} > /dev/full: {err}");
        assert_eq!(o.status.code(), Some(2), "carc {what} > /dev/full: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "carc {what} > /dev/full: {err}");
        assert!(
            lines[0].starts_with("error: cannot write to standard output"),
            "carc {what} > /dev/full: {err}"
        );
    }
    // Files written by name: the same words, without the system's error number.
    for flag in ["--record", "--html"] {
        let o = carc(&["play", "--seed", "1", flag, "/dev/full"]);
        exits_saying(
            &o,
            2,
            "error: cannot write `/dev/full`: no space left on device\n",
        );
    }
}

#[test]
fn a_closed_pipe_ends_quietly_without_a_panic() {
    let mut commands = printing_commands();
    commands.push(vec![
        "play",
        "--seed",
        "1",
        "--players",
        "6",
        "--expansions",
        "princess-dragon,russian-promos",
    ]);
    for args in commands {
        let what = args.join(" ");
        for read_first in [0usize, 16] {
            let mut child = common::command(&args)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("carc runs");
            let mut out = child.stdout.take().expect("stdout is piped");
            if read_first > 0 {
                let mut buf = vec![0u8; read_first];
                let _ = std::io::Read::read(&mut out, &mut buf);
            }
            drop(out);
            let o = child.wait_with_output().expect("carc ends");
            let err = stderr(&o);
            assert!(
                !err.contains("panicked"),
                "carc {what} | head -c {read_first}: {err}"
            );
            assert_ne!(
                o.status.code(),
                Some(101),
                "carc {what} | head -c {read_first}: {err}"
            );
            // `replay --json` says ok on standard error once its JSON is written (the
            // pipe may take all of it before the reader closes).
            let noise = err
                .lines()
                .filter(|l| !l.starts_with(&format!("{RECORD}: ok, ")));
            assert!(
                noise.count() == 0,
                "carc {what} | head -c {read_first}: a closed pipe should end carc quietly, got\n{err}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// 2. Many errors

/// The `... and N more errors` line's N, if `err` has such a line; panics when it is not
/// English (`1 more error`, `3 more errors`) or not followed by the `--all-errors` hint.
fn more_count(err: &str) -> Option<u64> {
    let line = err.lines().find(|l| l.starts_with("... and "))?;
    let digits: String = line["... and ".len()..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let n: u64 = digits.parse().expect("a count after `... and `");
    let noun = if n == 1 { "error" } else { "errors" };
    assert_eq!(
        line,
        format!("... and {n} more {noun} (`carc validate --all-errors` shows every one)"),
        "the `... and N more` line"
    );
    Some(n)
}

#[test]
fn one_and_several_errors_more_read_as_english() {
    let dir = scratch("more-errors");
    for (n, more) in [
        (101, "... and 1 more error "),
        (103, "... and 3 more errors "),
    ] {
        let mut text = String::from("expansion = \"test\"\n");
        for i in 0..n {
            text.push_str(&tile_with_bad_ports(&format!("t:a{i}"), 1));
        }
        let path = write(&dir, &format!("{n}.toml"), text);
        let o = carc(&["validate", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{}", show(&o));
        assert_eq!(diagnostic_count(&err, &path), 100, "{}", show(&o));
        assert!(
            err.lines().any(|l| l.starts_with(more)),
            "no `{more}` line: {}",
            show(&o)
        );
        assert_eq!(more_count(&err), Some(n - 100), "{}", show(&o));
    }
}

/// How many diagnostics about `path` are on `err`.
fn diagnostic_count(err: &str, path: &str) -> usize {
    err.lines()
        .filter(|l| l.starts_with(&format!("{path}:")) && l.contains(": error: "))
        .count()
}

/// A tile with one feature covering every outer port, and then `bad` ports `XYZ`.
fn tile_with_bad_ports(id: &str, bad: usize) -> String {
    let mut ports = String::from(r#""NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW""#);
    for _ in 0..bad {
        ports.push_str(r#", "XYZ""#);
    }
    format!(
        "\n[[tile]]\nid = \"{id}\"\ncount = 1\nsides = [\"field\", \"field\", \"field\", \"field\"]\n\
         features = [\n  {{ kind = \"field\", ports = [{ports}] }},\n]\n"
    )
}

#[test]
fn thousands_of_bad_tiles_show_100_errors_then_how_many_more() {
    let dir = scratch("many-tiles");
    let n = 3000;
    let mut text = String::from("expansion = \"test\"\n");
    for i in 0..n {
        text.push_str(&tile_with_bad_ports(&format!("t:a{i}"), 1));
    }
    let path = write(&dir, "many.toml", text);

    let o = carc(&["validate", &path]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert_eq!(
        stdout(&o),
        format!("{n} errors in 1 file\n"),
        "{}",
        show(&o)
    );
    assert_eq!(diagnostic_count(&err, &path), 100, "{}", show(&o));
    assert!(
        err.contains("unknown port `XYZ`"),
        "not the bad port: {}",
        show(&o)
    );
    assert_eq!(more_count(&err), Some(n - 100), "{}", show(&o));
    let more_line = err.lines().position(|l| l.starts_with("... and ")).unwrap();
    let last_diagnostic = err
        .lines()
        .collect::<Vec<_>>()
        .iter()
        .rposition(|l| l.contains(": error: "))
        .unwrap();
    assert!(
        more_line > last_diagnostic,
        "the `... and N more` line comes after the diagnostics"
    );

    // `render tiles` shows as many, as `validate` does (and draws nothing: exit 2).
    let out = dir.join("many.svg");
    let o = carc(&["render", "tiles", &path, "--out", out.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(!out.exists(), "drawn");
    assert_eq!(diagnostic_count(&err, &path), 100, "{}", show(&o));
    assert_eq!(more_count(&err), Some(n - 100), "{}", show(&o));

    let o = carc(&["validate", "--all-errors", &path]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "exit {:?}", o.status.code());
    assert_eq!(stdout(&o), format!("{n} errors in 1 file\n"));
    assert_eq!(diagnostic_count(&err, &path), n as usize);
    assert_eq!(more_count(&err), None, "--all-errors shows every one");
}

#[test]
fn thousands_of_bad_ports_on_one_line_show_100_errors_then_how_many_more() {
    let dir = scratch("many-ports");
    let n = 5000;
    let text = format!("expansion = \"test\"\n{}", tile_with_bad_ports("t:a", n));
    let path = write(&dir, "line.toml", text);

    let o = carc(&["validate", &path]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert_eq!(
        stdout(&o),
        format!("{n} errors in 1 file\n"),
        "{}",
        show(&o)
    );
    assert_eq!(diagnostic_count(&err, &path), 100, "{}", show(&o));
    assert_eq!(more_count(&err), Some(n as u64 - 100), "{}", show(&o));

    let o = carc(&["validate", "--all-errors", &path]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), format!("{n} errors in 1 file\n"));
    assert_eq!(diagnostic_count(&err, &path), n);
    assert_eq!(more_count(&err), None);
    // The line is some 35,000 characters long; the excerpt under each error is a window
    // of it, not the whole line.
    let longest = err.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 400, "an excerpt line of {longest} characters");
}

// ---------------------------------------------------------------------------------------
// 3. Input size

#[test]
fn a_record_over_the_size_limit_exits_2_naming_the_flag() {
    let size = fs::metadata(root().join(RECORD)).unwrap().len();
    assert!(size > 1024, "{RECORD} should be larger than 1 KiB");
    // The flag is global: before or after the subcommand.
    for args in [
        vec!["--max-input-size", "1K", "replay", RECORD],
        vec!["replay", "--max-input-size", "1K", RECORD],
    ] {
        let o = carc(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert!(err.contains("larger than the limit"), "{err}");
        assert!(err.contains("1 KiB"), "{err}");
        assert!(err.contains("--max-input-size"), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // Under a limit it fits, the same record replays.
    for limit in ["4K", "1M", "1048576", "1G"] {
        let o = carc(&["--max-input-size", limit, "replay", RECORD]);
        assert_eq!(o.status.code(), Some(0), "limit {limit}: {}", show(&o));
    }
    // Tile files are limited too.
    let o = carc(&["--max-input-size", "1K", "validate", "tiledefs/base.toml"]);
    exits_saying(&o, 2, "larger than the limit");
}

/// `--max-input-size` is about the inputs named on the command line: a configuration
/// larger than it still reads (it was refused, stopping every command), and a limit of
/// nothing is no limit to give.
#[test]
fn the_size_limit_leaves_the_configuration_alone_and_is_at_least_a_byte() {
    let dir = scratch("size-limit-config");
    let config = write(
        &dir,
        "carc.toml",
        "# a configuration longer than the limit given below: nothing but this comment\n",
    );
    assert!(fs::metadata(&config).unwrap().len() > 64);
    let o = carc(&[
        "--config",
        &config,
        "--max-input-size",
        "64",
        "plugins",
        "list",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    // The inputs named are still held to the limit.
    let o = carc(&[
        "--config",
        &config,
        "--max-input-size",
        "64",
        "replay",
        RECORD,
    ]);
    exits_saying(&o, 2, "larger than the limit of 64 bytes");
    for zero in ["0", "0K"] {
        let o = carc(&["--max-input-size", zero, "replay", RECORD]);
        exits_saying(&o, 2, "give a size of at least 1");
    }
}

#[test]
fn an_endless_file_is_refused_at_the_limit() {
    assert!(
        Path::new("/dev/zero").exists(),
        "these tests need /dev/zero (Linux)"
    );
    let o = carc(&["replay", "/dev/zero"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(err.contains("larger than the limit"), "{err}");
    assert!(err.contains("--max-input-size"), "{err}");

    let o = carc(&["validate", "/dev/zero"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(err.contains("larger than the limit"), "{err}");
    assert_eq!(stdout(&o), "1 error in 1 file\n", "{}", show(&o));
}

#[test]
fn deeply_nested_json_is_refused_without_overflowing_the_stack() {
    let dir = scratch("hostile-deep-json");
    let deep = "[".repeat(50_000);
    for text in [deep.clone(), format!("{{\"game\":{deep}")] {
        let file = write(&dir, "deep.json", &text);
        for o in [
            carc(&["replay", &file]),
            carc_with_stdin(&["replay", "-"], text.clone().into_bytes()),
        ] {
            assert_eq!(o.status.code(), Some(2), "{}", show(&o));
            assert!(stderr(&o).contains(":1:"), "located: {}", show(&o));
        }
    }
}

#[test]
fn a_seed_a_record_cannot_hold_is_a_clear_usage_error() {
    // TOML's integers stop at 2^63 - 1: a record of the game could not be read back.
    for cmd in ["play", "simulate"] {
        for seed in ["9223372036854775808", "-1"] {
            let o = carc(&[cmd, "--seed", seed]);
            exits_saying(
                &o,
                2,
                "a seed is a whole number from 0 to 9223372036854775807",
            );
        }
    }
    let dir = scratch("hostile-seed");
    let record = dir.join("max.toml");
    let path = record.to_str().expect("UTF-8");
    let o = carc(&["play", "--seed", "9223372036854775807", "--record", path]);
    assert!(o.status.success(), "{}", show(&o));
    let o = carc(&["replay", path]);
    assert!(o.status.success(), "{}", show(&o));
    // JSON reads larger integers, but a record is the same in both formats.
    let json = write(
        &dir,
        "big.json",
        "{\"game\": {\"players\": [\"A\"], \"seed\": 9223372036854775808}, \"move\": []}",
    );
    let o = carc(&["replay", &json]);
    let seed = "expected a seed: a whole number from 0 to 9223372036854775807";
    exits_saying(
        &o,
        2,
        &format!("{json}:1:37: error: {seed}, found the number `9223372036854775808`"),
    );
    // The same in TOML, and for any value that is no seed, located in both formats.
    for (value, said) in [
        (
            "9223372036854775808",
            "found the number `9223372036854775808`",
        ),
        ("-1", "found the number `-1`"),
        ("1.5", "found the number `1.5`"),
    ] {
        let toml = write(
            &dir,
            "seed.toml",
            format!("[game]\nplayers = [\"A\"]\nseed = {value}\n"),
        );
        exits_saying(
            &carc(&["replay", &toml]),
            2,
            &format!("{toml}:3:8: error: {seed}, {said}"),
        );
    }
}

#[test]
fn a_negative_number_gets_the_flags_own_words_not_an_unknown_argument() {
    for args in [
        &["play", "--players", "-2"][..],
        &["simulate", "--games", "-5"],
        &["simulate", "--threads", "-1"],
        &[
            "render",
            "board",
            "tests/scenarios/base-06-road-loop.toml",
            "--move",
            "-1",
        ],
    ] {
        exits_saying(&carc(args), 2, "expected a whole number, such as 2");
    }
    for size in ["-1", "-2M"] {
        exits_saying(
            &carc(&["--max-input-size", size, "rules"]),
            2,
            &format!("`{size}` is not a size"),
        );
    }
}

#[test]
fn a_rule_option_without_its_expansion_or_its_name_says_how_it_is_written() {
    for flag in [".=", "x.=y", ".sets=2013"] {
        let o = carc(&["plan", "--rule", flag]);
        exits_saying(&o, 2, "must be written `<expansion>.<option>`");
    }
    // A bare name that one enabled expansion has is given in full.
    let o = carc(&[
        "plan",
        "--expansions",
        "princess-dragon,russian-promos",
        "--rule",
        "dragon-move=after-scoring",
    ]);
    exits_saying(
        &o,
        2,
        "rule option `dragon-move` must be written `<expansion>.<option>`; did you mean \
         `princess-dragon.dragon-move`?",
    );
}

#[test]
fn error_at_past_the_moves_counts_them_in_words() {
    let dir = scratch("hostile-error-at");
    let game = "[game]\nplayers = [\"A\", \"B\"]\ndraw = [\"base:U\"]\n";
    let none = write(&dir, "none.toml", format!("{game}[expect]\nerror_at = 0\n"));
    exits_saying(
        &carc(&["replay", &none]),
        1,
        "error_at = 0, but the record has no moves",
    );
    let one = format!(
        "{game}[[move]]\nplace = \"base:U\"\nat = [0, 1]\nrotation = 0\n[expect]\nerror_at = 3\n"
    );
    let one = write(&dir, "one.toml", one);
    exits_saying(
        &carc(&["replay", &one]),
        1,
        "error_at = 3, but the record has only 1 move\n",
    );
}

#[test]
fn standard_input_over_the_limit_is_refused() {
    let record = fs::read(root().join(RECORD)).unwrap();
    let o = carc_with_stdin(&["--max-input-size", "1K", "replay", "-"], record);
    exits_saying(&o, 2, "larger than the limit");

    // More than the default limit of 4 MiB: carc stops reading and says so.
    let o = carc_with_stdin(&["replay", "-"], vec![b'#'; 5 << 20]);
    exits_saying(&o, 2, "larger than the limit");

    let base = fs::read(root().join("tiledefs/base.toml")).unwrap();
    let o = carc_with_stdin(&["--max-input-size", "1K", "validate", "-"], base);
    exits_saying(&o, 2, "larger than the limit");
}

#[test]
fn a_bad_size_is_a_clear_usage_error() {
    for bad in ["lots", "12Q", "-1", "", "99999999999999999999G"] {
        let flag = format!("--max-input-size={bad}");
        let o = carc(&[&flag, "replay", RECORD]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", show(&o));
        assert!(err.contains("--max-input-size"), "{bad}: {err}");
        let said = if bad.is_empty() {
            "no size given"
        } else {
            "is not a size"
        };
        assert!(err.contains(said), "{bad}: {err}");
        assert!(!err.contains("panicked"), "{bad}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// 4. A rule option given twice

#[test]
fn a_rule_option_quoted_and_dotted_is_refused_naming_both_lines() {
    let dir = scratch("rule-twice");
    let head = "[game]\nexpansions = [\"princess-dragon\"]\nplayers = [\"Alice\", \"Bob\"]\n\n";
    let cases = [
        (
            "quoted-then-dotted.toml",
            "[game.rules]\n\"princess-dragon.dragon-move\" = \"after-scoring\"\n\
             princess-dragon.dragon-move = \"after-scoring\"\n",
            (6, 7),
        ),
        (
            "dotted-then-quoted.toml",
            "[game.rules]\nprincess-dragon.dragon-move = \"before-scoring\"\n\
             \"princess-dragon.dragon-move\" = \"after-scoring\"\n",
            (6, 7),
        ),
        (
            "quoted-then-table.toml",
            "[game.rules]\n\"princess-dragon.dragon-move\" = \"after-scoring\"\n\n\
             [game.rules.princess-dragon]\ndragon-move = \"before-scoring\"\n",
            (6, 9),
        ),
    ];
    for (name, rules, (a, b)) in cases {
        let path = write(&dir, name, format!("{head}{rules}"));
        let o = carc(&["replay", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", show(&o));
        assert!(err.starts_with(&format!("{path}:")), "{name}: {err}");
        assert!(err.contains("princess-dragon.dragon-move"), "{name}: {err}");
        assert!(err.contains("twice"), "{name}: {err}");
        assert!(err.contains(&format!("line {a}")), "{name}: {err}");
        assert!(err.contains(&format!("line {b}")), "{name}: {err}");
    }
}

#[test]
fn a_json_record_with_a_key_twice_is_refused_naming_both_lines() {
    let dir = scratch("json-twice");
    let rules = r#"{
  "game": {
    "expansions": ["princess-dragon"],
    "players": ["Alice", "Bob"],
    "rules": {
      "princess-dragon.dragon-move": "after-scoring",
      "princess-dragon.dragon-move": "after-scoring"
    }
  },
  "move": []
}
"#;
    let players = r#"{
  "game": {
    "players": ["Alice", "Bob"],
    "players": ["Carol", "Bob"]
  },
  "move": []
}
"#;
    for (name, text, key, (a, b)) in [
        ("rules.json", rules, "princess-dragon.dragon-move", (6, 7)),
        ("players.json", players, "players", (3, 4)),
    ] {
        let path = write(&dir, name, text);
        let o = carc(&["replay", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", show(&o));
        assert!(err.starts_with(&format!("{path}:")), "{name}: {err}");
        assert!(err.contains(&format!("`{key}`")), "{name}: {err}");
        assert!(err.contains("twice"), "{name}: {err}");
        assert!(err.contains(&format!("line {a}")), "{name}: {err}");
        assert!(err.contains(&format!("line {b}")), "{name}: {err}");
    }
    // Both on one line: that line, named once.
    let path = write(
        &dir,
        "one-line.json",
        r#"{"game": {"players": ["A", "B"], "seed": 1, "seed": 2}, "move": []}"#,
    );
    exits_saying(
        &carc(&["replay", &path]),
        2,
        "the key `seed` is given twice in the same object (both on line 1)",
    );
}

#[test]
fn a_lone_surrogate_escape_in_json_is_refused_in_words() {
    let dir = scratch("json-surrogate");
    for (name, escape) in [("leading.json", r"\ud800"), ("trailing.json", r"\udc00")] {
        let text = format!(r#"{{"game": {{"players": ["A{escape}", "B"]}}, "move": []}}"#);
        let path = write(&dir, name, &text);
        let o = carc(&["replay", &path]);
        exits_saying(&o, 2, "escape must be half of a surrogate pair");
        assert!(
            stderr(&o).starts_with(&format!("{path}:1:")),
            "{}",
            show(&o)
        );
    }
}

#[test]
fn a_rule_option_given_twice_on_the_command_line_is_refused() {
    let twice = [
        "--rule",
        "princess-dragon.dragon-move=after-scoring",
        "--rule",
        "princess-dragon.dragon-move = immediately",
    ];
    let pd = ["--expansions", "princess-dragon"];
    for head in [
        vec!["play", "--seed", "1"],
        vec!["simulate", "--games", "1", "--seed", "1"],
        vec!["plan"],
        vec!["rules", "princess-dragon"],
    ] {
        let mut args = head.clone();
        if head[0] != "rules" {
            args.extend(pd);
        }
        args.extend(twice);
        let what = args.join(" ");
        let o = carc(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "carc {what}: {}", show(&o));
        assert!(stdout(&o).is_empty(), "carc {what}: {}", show(&o));
        assert_eq!(err.lines().count(), 1, "carc {what}: {err}");
        assert!(
            err.contains("`princess-dragon.dragon-move` is given twice"),
            "carc {what}: {err}"
        );
        assert!(err.contains("--rule"), "carc {what}: {err}");
        // Each option once is fine.
        let once: Vec<&str> = args[..args.len() - 2].to_vec();
        let o = carc(&once);
        assert_eq!(
            o.status.code(),
            Some(0),
            "carc {}: {}",
            once.join(" "),
            show(&o)
        );
    }
}

// ---------------------------------------------------------------------------------------
// 5. Expansions named twice, and `base`

#[test]
fn an_expansion_named_twice_on_the_command_line_is_refused() {
    for args in [
        vec![
            "play",
            "--seed",
            "1",
            "--expansions",
            "princess-dragon,princess-dragon",
        ],
        vec![
            "simulate",
            "--games",
            "1",
            "--expansions",
            "princess-dragon,princess-dragon",
        ],
        vec![
            "validate",
            "--expansions",
            "princess-dragon,princess-dragon",
            "tiledefs/base.toml",
        ],
        // The base game too: naming it once changes nothing, twice is a slip.
        vec!["play", "--seed", "1", "--expansions", "base,base"],
    ] {
        let o = carc(&args);
        let what = args.join(" ");
        assert_eq!(o.status.code(), Some(2), "carc {what}: {}", show(&o));
        assert!(
            stderr(&o).contains("named twice"),
            "carc {what}: {}",
            show(&o)
        );
    }
}

/// An empty item in a list flag (`a,,b`, `a,`) is refused, as an empty name in `--names`
/// is, rather than dropped: it is a slip, and dropping it plays something else.
#[test]
fn an_empty_item_in_a_list_flag_is_refused() {
    for (args, flag) in [
        (
            vec![
                "play",
                "--seed",
                "1",
                "--expansions",
                "princess-dragon,,russian-promos",
            ],
            "--expansions",
        ),
        (
            vec![
                "simulate",
                "--games",
                "1",
                "--expansions",
                "princess-dragon,",
            ],
            "--expansions",
        ),
        (
            vec!["plan", "--expansions", ",princess-dragon"],
            "--expansions",
        ),
        (
            vec!["validate", "--expansions", "base,", "tiledefs/base.toml"],
            "--expansions",
        ),
        (
            vec!["play", "--seed", "1", "--bots", "random,,greedy"],
            "--bots",
        ),
        (
            vec!["simulate", "--games", "1", "--bots", "random,"],
            "--bots",
        ),
    ] {
        let o = carc(&args);
        let what = args.join(" ");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "carc {what}: {}", show(&o));
        assert!(
            err.contains(&format!("{flag} ")) && err.contains("an item is empty"),
            "carc {what}: {}",
            show(&o)
        );
        assert!(o.stdout.is_empty(), "carc {what}: {}", show(&o));
    }
    // A flag left empty as a whole is an empty list: the base game alone.
    let o = carc(&["play", "--seed", "1", "--expansions", ""]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
}

#[test]
fn a_record_naming_an_expansion_twice_is_refused_where_it_does() {
    let dir = scratch("expansion-twice");
    let toml = write(
        &dir,
        "twice.toml",
        "[game]\nexpansions = [\"princess-dragon\", \"princess-dragon\"]\nplayers = [\"Alice\", \"Bob\"]\n",
    );
    let json = write(
        &dir,
        "twice.json",
        "{\n  \"game\": {\n    \"expansions\": [\"princess-dragon\", \"princess-dragon\"],\n    \
         \"players\": [\"Alice\", \"Bob\"]\n  },\n  \"move\": []\n}\n",
    );
    for (path, line) in [(toml, 2), (json, 3)] {
        let o = carc(&["replay", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert!(err.starts_with(&format!("{path}:{line}:")), "{err}");
        assert!(err.contains("named twice"), "{err}");
        assert!(err.contains('^'), "no caret: {err}");
    }
}

#[test]
fn base_among_the_expansions_means_the_base_game_and_is_not_recorded() {
    let dir = scratch("base-expansion");
    for name in ["game.toml", "game.json"] {
        let record = dir.join(name);
        let record = record.to_str().unwrap();
        let o = carc(&[
            "play",
            "--seed",
            "1",
            "--expansions",
            "base,princess-dragon",
            "--record",
            record,
        ]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", show(&o));
        let text = fs::read_to_string(record).expect("the record was written");
        assert!(
            !text.contains("\"base\""),
            "{name}: `base` is written into the record:\n{}",
            &text[..text.len().min(300)]
        );
        assert!(text.contains("\"princess-dragon\""), "{name}");
        let o = carc(&["replay", record]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", show(&o));
    }
    // A record may name it too.
    let path = write(
        &dir,
        "named.toml",
        "[game]\nexpansions = [\"base\", \"princess-dragon\"]\nplayers = [\"Alice\", \"Bob\"]\n",
    );
    let o = carc(&["replay", &path]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
}

// ---------------------------------------------------------------------------------------
// 6. Control characters

/// Panics when `o` wrote a raw escape byte anywhere.
fn assert_no_raw_escape(o: &Output, what: &str) {
    assert!(
        !o.stdout.contains(&ESC),
        "{what}: raw ESC on standard output: {}",
        show(o)
    );
    assert!(
        !o.stderr.contains(&ESC),
        "{what}: raw ESC on standard error: {}",
        show(o)
    );
}

#[test]
fn a_player_name_with_an_escape_sequence_is_refused_without_printing_it_raw() {
    let names = "\u{1b}[2JEve,Bob";
    for args in [
        vec!["play", "--seed", "1", "--names", names],
        vec!["play", "--seed", "1", "--json", "--names", names],
    ] {
        let o = carc(&args);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert_no_raw_escape(&o, "play --names");
        assert!(stderr(&o).contains("\\u{1b}[2JEve"), "{}", show(&o));
        assert!(
            stderr(&o).contains("names are printable text"),
            "{}",
            show(&o)
        );
        assert!(stdout(&o).is_empty(), "no game was played: {}", show(&o));
    }
}

#[test]
fn records_with_escape_sequences_never_reach_the_terminal_raw() {
    let dir = scratch("escapes");
    // A player's name, an expectation's key: refused (names are printable text), located
    // at the text, which the excerpt shows as the file writes it.
    let name = write(
        &dir,
        "name.toml",
        "[game]\nplayers = [\"\\u001b[2JEve\", \"Bob\"]\nsupply = \"draw\"\ndraw = [\"base:U\"]\n",
    );
    let unknown = write(
        &dir,
        "unknown.toml",
        "[game]\nplayers = [\"Eve\", \"Bob\"]\n\n[expect]\nscores = { \"\\u001b[2JMallory\" = 1 }\n",
    );
    for (path, place) in [
        (name, ":2:12: error: this text"),
        (unknown, ":5:12: error: this key"),
    ] {
        for json in [false, true] {
            let mut args = vec!["replay", path.as_str()];
            if json {
                args.push("--json");
            }
            let o = carc(&args);
            assert_eq!(o.status.code(), Some(2), "{}", show(&o));
            assert_no_raw_escape(&o, &path);
            assert!(stderr(&o).contains(place), "{}", show(&o));
            assert!(
                stderr(&o).contains("holds an escape character"),
                "{}",
                show(&o)
            );
        }
    }

    // A raw escape byte in the file itself, shown in the excerpt under the error.
    let raw_toml = write(
        &dir,
        "raw.toml",
        b"[game]\nplayers = [\"Eve\", \"Bob\"]\n# a raw \x1b[2J in a comment\n".as_slice(),
    );
    let raw_json = write(
        &dir,
        "raw.json",
        b"{\"game\": {\"players\": [\"Eve\", \"Bob\"]}, \"move\": [], \"x\x1b[2J\": 1}\n"
            .as_slice(),
    );
    for path in [raw_toml, raw_json] {
        let o = carc(&["replay", &path]);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert_no_raw_escape(&o, &path);
        assert!(stderr(&o).contains("\\u{1b}[2J"), "{}", show(&o));
    }

    // A file name holding an escape sequence.
    let named = dir.join("a\u{1b}[2Jb.toml");
    fs::copy(root().join(RECORD), &named).unwrap();
    let missing = dir.join("missing\u{1b}[2J.toml");
    for path in [named, missing] {
        let o = carc(&["replay", path.to_str().unwrap()]);
        assert_no_raw_escape(&o, "a file name with ESC");
    }

    // Tile data: a tile id holding an escape sequence.
    let tiles = write(
        &dir,
        "tiles.toml",
        "expansion = \"test\"\n\n[[tile]]\nid = \"t:\\u001b[2J\"\ncount = 1\n",
    );
    let o = carc(&["validate", &tiles]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert_no_raw_escape(&o, "validate");
    assert!(stderr(&o).contains("t:\\u{1b}[2J"), "{}", show(&o));
}

// ---------------------------------------------------------------------------------------
// 7. One way of reporting

#[test]
fn validate_puts_diagnostics_on_stderr_and_the_summary_on_stdout() {
    let o = carc(&["validate", "tests/validate/bad-port-name.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert_eq!(stdout(&o), "2 errors in 1 file\n", "{}", show(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("tests/validate/bad-port-name.toml:9:37: error: unknown port `NE`"),
        "{err}"
    );
    assert!(
        !err.contains("errors in"),
        "the summary is on stdout only: {err}"
    );

    let o = carc(&["validate", "tiledefs/base.toml"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(stdout(&o), "1 file, 24 tile types, 72 tiles: valid\n");
    assert_eq!(stderr(&o), "");
}

#[test]
fn a_missing_file_exits_2_for_validate_and_replay() {
    let dir = scratch("missing");
    let path = dir.join("nothing-here.toml");
    let path = path.to_str().unwrap();
    for args in [
        vec!["validate", path],
        vec!["replay", path],
        vec!["render", "tiles", path],
        vec!["render", "board", path],
        vec!["view", path],
    ] {
        let o = carc(&args);
        let err = stderr(&o);
        let sub = args.join(" ");
        assert_eq!(o.status.code(), Some(2), "{sub}: {}", show(&o));
        assert!(err.contains("cannot read the file"), "{sub}: {err}");
        assert!(err.contains(&format!("{path}: error: ")), "{sub}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn a_plugin_directory_whose_manifest_is_no_file_says_so() {
    let dir = scratch("hostile-manifest-device");
    std::os::unix::fs::symlink("/dev/zero", dir.join("manifest.toml")).unwrap();
    let path = dir.to_str().expect("UTF-8");
    for args in [vec!["validate", path], vec!["render", "tiles", path]] {
        let o = carc(&args);
        assert!(!o.status.success(), "{}", show(&o));
        assert!(
            stderr(&o).contains("manifest.toml` is not a file"),
            "{}",
            show(&o)
        );
    }
}

#[test]
fn the_configuration_is_a_file_and_a_quoted_diagnostic_keeps_the_error_prefix() {
    let o = carc_with_stdin(
        &["--config", "-", "plugins", "list"],
        b"trust = \"any\"\n".to_vec(),
    );
    exits_saying(
        &o,
        2,
        "error: the configuration cannot be read from standard input",
    );
    let dir = scratch("hostile-quoted");
    std::fs::create_dir_all(dir.join("pk")).unwrap();
    write(&dir.join("pk"), "manifest.toml", "id = 3\n");
    let flag = dir.to_str().expect("UTF-8");
    let o = carc(&["--plugin-dir", flag, "play", "--expansions", "pk"]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    // The quoted diagnostic begins a line of its own, as it would printed alone.
    let manifest = dir.join("pk").join("manifest.toml");
    let err = stderr(&o);
    let mut lines = err.lines();
    assert_eq!(
        lines.next(),
        Some("error: expansion `pk` cannot be enabled:"),
        "{}",
        show(&o)
    );
    assert!(
        lines
            .next()
            .is_some_and(|l| l.starts_with(&format!("{}:1:6: error: ", manifest.display()))),
        "{}",
        show(&o)
    );
    // A record enabling it: said at the record's line naming it, then the plugin's report.
    let record = write(
        &dir,
        "game.toml",
        "[game]\nexpansions = [\"pk\"]\nplayers = [\"A\", \"B\"]\n",
    );
    for cmd in ["replay", "view"] {
        let o = carc(&["--plugin-dir", flag, cmd, &record]);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        let err = stderr(&o);
        assert!(
            err.starts_with(&format!(
                "{record}:2:15: error: expansion `pk` cannot be enabled:\n"
            )),
            "{cmd}: {}",
            show(&o)
        );
        assert!(
            err.contains(&format!("\n{}:1:6: error: ", manifest.display())),
            "{cmd}: {}",
            show(&o)
        );
    }
}

#[test]
fn a_picture_file_of_another_format_names_the_option_that_gave_it() {
    let cases = [
        (
            vec!["render", "tiles", "tiledefs/base.toml", "--out", "x.txt"],
            "--out `x.txt`",
        ),
        (
            vec!["validate", "tiledefs/base.toml", "--render-out", "x.txt"],
            "--render-out `x.txt`",
        ),
    ];
    for (args, flag) in cases {
        let o = carc(&args);
        exits_saying(
            &o,
            2,
            &format!("error: {flag}: the picture is written as SVG or PNG"),
        );
    }
}

#[test]
fn a_dash_reads_standard_input() {
    let dir = scratch("stdin");
    let record = fs::read(root().join(RECORD)).unwrap();
    let o = carc_with_stdin(&["replay", "-"], record);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(stdout(&o).starts_with("<stdin>: ok, "), "{}", show(&o));

    // A JSON record on standard input.
    let json = dir.join("game.json");
    let o = carc(&["play", "--seed", "2", "--record", json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let o = carc_with_stdin(&["replay", "-"], fs::read(&json).unwrap());
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(stdout(&o).starts_with("<stdin>: ok, "), "{}", show(&o));

    let base = fs::read(root().join("tiledefs/base.toml")).unwrap();
    let o = carc_with_stdin(&["validate", "-"], base);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(stdout(&o), "1 file, 24 tile types, 72 tiles: valid\n");

    let bad = fs::read(root().join("tests/validate/bad-port-name.toml")).unwrap();
    let o = carc_with_stdin(&["validate", "-"], bad);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).starts_with("<stdin>:9:37: error: unknown port `NE`"),
        "{}",
        show(&o)
    );
}

#[test]
fn a_record_in_the_other_format_gets_a_hint() {
    let dir = scratch("format-hint");
    let json_as_toml = write(
        &dir,
        "record.toml",
        fs::read(root().join("tests/records/bad-type.json")).unwrap(),
    );
    let o = carc(&["replay", &json_as_toml]);
    exits_saying(&o, 2, "looks like JSON");

    let toml_as_json = write(&dir, "record.json", fs::read(root().join(RECORD)).unwrap());
    let o = carc(&["replay", &toml_as_json]);
    exits_saying(&o, 2, "looks like TOML");

    // JSON that is no object is no TOML either: it is told what a record is.
    for text in ["[1, 2]", "\"hello\"", "null", "7"] {
        let not_an_object = write(&dir, "value.json", text);
        let o = carc(&["replay", &not_an_object]);
        exits_saying(&o, 2, "a record in JSON is one object");
        assert!(
            !stderr(&o).contains("looks like TOML"),
            "{text}: {}",
            stderr(&o)
        );
    }
}

/// Panics unless `help` holds the table of exit codes.
fn assert_exit_codes(help: &str, what: &str) {
    assert!(help.contains("Exit codes"), "carc {what} --help:\n{help}");
    for code in ["0", "1", "2"] {
        assert!(
            help.lines()
                .any(|l| l.trim_start().starts_with(&format!("{code}  "))),
            "carc {what} --help has no exit code {code}:\n{help}"
        );
    }
}

#[test]
fn every_subcommand_help_shows_the_exit_codes() {
    let o = carc(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert_exit_codes(&stdout(&o), "");
    for sub in [
        "play", "replay", "validate", "rules", "plan", "schema", "simulate", "plugins", "new",
    ] {
        let o = carc(&[sub, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{sub}: {}", show(&o));
        assert_exit_codes(&stdout(&o), sub);
    }
}

#[test]
fn nested_subcommand_help_shows_the_exit_codes() {
    for sub in [
        ["plugins", "list"],
        ["plugins", "info"],
        ["plugins", "enable"],
        ["plugins", "disable"],
        ["plugins", "trust"],
        ["new", "expansion"],
    ] {
        let o = carc(&[sub[0], sub[1], "--help"]);
        assert_eq!(o.status.code(), Some(0), "{sub:?}: {}", show(&o));
        assert_exit_codes(&stdout(&o), &sub.join(" "));
    }
}

// ---------------------------------------------------------------------------------------
// 8. No internal type names in error messages

/// Words of the implementation that a message about a record must not use.
const INTERNAL: [&str; 11] = [
    "struct",
    "enum",
    "OptionValue",
    "$__toml_private",
    "u64",
    "i64",
    "i32",
    "i128",
    "untagged",
    "invalid type: map",
    "a sequence",
];

/// Replays each `(file name, text)` from `dir`; returns a description of every one that
/// does not exit 2 with a located error free of [`INTERNAL`] words.
fn internal_words(dir: &Path, cases: &[(&str, &str)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (name, text) in cases {
        let path = write(dir, name, text);
        let o = carc(&["replay", &path]);
        let err = stderr(&o);
        let first = err.lines().next().unwrap_or("").to_owned();
        if o.status.code() != Some(2) {
            bad.push(format!("{name}: exit {:?}: {first}", o.status.code()));
        } else if !err.starts_with(&format!("{path}:")) {
            bad.push(format!("{name}: not located: {first}"));
        } else if let Some(w) = INTERNAL.iter().find(|w| err.contains(*w)) {
            bad.push(format!("{name}: says `{w}`: {first}"));
        }
    }
    bad
}

const PLAYERS: &str = "[game]\nplayers = [\"Alice\", \"Bob\"]\n";

#[test]
fn malformed_records_name_no_internal_types() {
    let dir = scratch("internal-types");
    let cases: Vec<(String, String)> = vec![
        // A move as a string, or a number, instead of a table.
        ("move-string.toml", format!("move = [\"place base:U\"]\n\n{PLAYERS}")),
        ("move-number.toml", format!("move = [1]\n\n{PLAYERS}")),
        (
            "move-mixed.toml",
            format!("move = [{{ place = \"base:U\", at = [1, 0], rotation = 0 }}, \"pass\"]\n\n{PLAYERS}"),
        ),
        ("moves-string.toml", format!("move = \"place base:U\"\n\n{PLAYERS}")),
        (
            "move-string.json",
            r#"{"game": {"players": ["Alice", "Bob"]}, "move": ["place"]}"#.into(),
        ),
        // A negative number where a count is expected.
        ("seed-negative.toml", format!("{PLAYERS}seed = -1\n")),
        (
            "seed-negative.json",
            r#"{"game": {"players": ["Alice", "Bob"], "seed": -1}, "move": []}"#.into(),
        ),
        (
            "square-out-of-range.toml",
            format!("{PLAYERS}\n[[move]]\nplace = \"base:U\"\nat = [1, -99999999999999]\nrotation = 0\n"),
        ),
        (
            "square-float.toml",
            format!("{PLAYERS}\n[[move]]\nplace = \"base:U\"\nat = [1.5, 0]\nrotation = 0\n"),
        ),
        // TOML date-times as values.
        ("seed-date.toml", format!("{PLAYERS}seed = 1979-05-27T07:32:00Z\n")),
        ("draw-date.toml", format!("{PLAYERS}draw = 1979-05-27T07:32:00Z\n")),
        ("expansions-date.toml", format!("{PLAYERS}expansions = 1979-05-27\n")),
        ("players-date.toml", "[game]\nplayers = [1979-05-27T07:32:00Z]\n".into()),
        (
            "place-date.toml",
            format!("{PLAYERS}\n[[move]]\nplace = 1979-05-27T07:32:00Z\nat = [1, 0]\nrotation = 0\n"),
        ),
        (
            "rotation-date.toml",
            format!("{PLAYERS}\n[[move]]\nplace = \"base:U\"\nat = [1, 0]\nrotation = 1979-05-27\n"),
        ),
        ("pass-date.toml", format!("{PLAYERS}\n[[move]]\npass = 1979-05-27\n")),
        (
            "fairy-time.toml",
            format!("{PLAYERS}expansions = [\"princess-dragon\"]\n\n[[move]]\nfairy = 12:00:00\n"),
        ),
        ("score-date.toml", format!("{PLAYERS}\n[expect]\nscores = {{ Alice = 1979-05-27 }}\n")),
        ("pass-string.toml", format!("{PLAYERS}\n[[move]]\npass = \"yes\"\n")),
    ]
    .into_iter()
    .map(|(n, t)| (n.to_owned(), t))
    .collect();
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    let bad = internal_words(&dir, &cases);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_date_time_as_a_rule_option_value_names_no_internal_types() {
    let dir = scratch("internal-rule-date");
    let enabled = format!(
        "{PLAYERS}expansions = [\"princess-dragon\"]\n\n[game.rules]\n\
         \"princess-dragon.dragon-move\" = 1979-05-27\n"
    );
    let not_enabled = format!(
        "{PLAYERS}\n[game.rules]\n\"princess-dragon.dragon-move\" = 1979-05-27T07:32:00Z\n"
    );
    let dotted = format!(
        "{PLAYERS}expansions = [\"princess-dragon\"]\n\n[game.rules]\n\
         princess-dragon.dragon-move = 07:32:00\n"
    );
    let bad = internal_words(
        &dir,
        &[
            ("enabled.toml", &enabled),
            ("not-enabled.toml", &not_enabled),
            ("dotted.toml", &dotted),
        ],
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_huge_number_names_no_internal_types() {
    let dir = scratch("internal-huge");
    let seed = format!("{PLAYERS}seed = 99999999999999999999999\n");
    let rotation = format!(
        "{PLAYERS}\n[[move]]\nplace = \"base:U\"\nat = [1, 0]\nrotation = 99999999999999999999\n"
    );
    let bad = internal_words(&dir, &[("seed.toml", &seed), ("rotation.toml", &rotation)]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_bad_square_in_an_expectation_names_no_internal_types() {
    let dir = scratch("internal-square");
    let string = format!("{PLAYERS}\n[expect]\ndragon = \"x\"\n");
    let date = format!("{PLAYERS}\n[expect]\ndragon = 1979-05-27\n");
    let bad = internal_words(&dir, &[("string.toml", &string), ("date.toml", &date)]);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_supply_of_another_type_is_told_what_supply_may_be() {
    let dir = scratch("supply-type");
    let cases = [
        ("number.toml", format!("{PLAYERS}supply = 3\n"), 3),
        (
            "table.toml",
            format!("{PLAYERS}supply = {{ full = true }}\n"),
            3,
        ),
        ("word.toml", format!("{PLAYERS}supply = \"lots\"\n"), 3),
        (
            "number.json",
            r#"{"game": {"players": ["Alice", "Bob"], "supply": 3}, "move": []}"#.to_owned(),
            1,
        ),
    ];
    for (name, text, line) in cases {
        let path = write(&dir, name, text);
        let o = carc(&["replay", &path]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", show(&o));
        assert!(err.starts_with(&format!("{path}:{line}:")), "{name}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.contains(r#"`supply` to be "full" or "draw""#),
            "{name}: {first}"
        );
        for bad in ["wanted", "variant", "expected value"] {
            assert!(!first.contains(bad), "{name}: says `{bad}`: {first}");
        }
    }
}

#[test]
fn an_unreadable_configuration_file_says_why_in_plain_words() {
    let dir = scratch("config-unreadable");
    let missing = dir.join("missing.toml");
    for (path, why) in [
        (missing.as_path(), "no such file or directory"),
        (&*dir, "it is a directory"),
    ] {
        let path = path.to_str().expect("a UTF-8 temp path");
        let o = carc(&["--config", path, "rules"]);
        assert_eq!(o.status.code(), Some(2), "{}", show(&o));
        assert_eq!(
            stderr(&o),
            format!("error: cannot read the configuration file `{path}`: {why}\n"),
            "{}",
            show(&o)
        );
    }
}

/// A plugin directory the configuration names is written down on purpose, as a
/// `--plugin-dir` is: one that is not there is said, as a warning (it was skipped
/// silently).
#[test]
fn a_configured_plugin_directory_that_is_not_there_is_said() {
    let dir = scratch("config-plugin-dirs");
    let file = write(&dir, "typo", "not a directory\n");
    let config = write(&dir, "carc.toml", "plugin-dirs = [\"missing\", \"typo\"]\n");
    let o = carc(&["--config", &config, "plugins", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let missing = dir.join("missing");
    for want in [
        format!(
            "warning: the configuration's plugin directory `{}` does not exist",
            missing.display()
        ),
        format!(
            "warning: the configuration's plugin directory `{file}` is a file, not a directory"
        ),
    ] {
        assert!(stderr(&o).contains(&want), "{want}: {}", show(&o));
    }
    // A named pipe given as `--plugin-dir` is there, but is no directory (it was said
    // not to exist).
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let fifo = fifo.to_str().unwrap();
    let o = carc(&["--plugin-dir", fifo, "plugins", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let want = format!("warning: plugin directory `{fifo}` is not a directory");
    assert!(stderr(&o).contains(&want), "{want}: {}", show(&o));
}

/// A link that leads nowhere is said to be one, with where it points: as a record, and as
/// a plugin's manifest (the plugin is listed as refused; it was passed over in silence).
#[test]
fn a_link_to_nothing_is_said_to_be_one() {
    let dir = scratch("dangling-links");
    let record = dir.join("game.toml");
    std::os::unix::fs::symlink(dir.join("moved-away.toml"), &record).unwrap();
    let o = carc(&["replay", record.to_str().unwrap()]);
    exits_saying(
        &o,
        2,
        &format!(
            "cannot read the file: it is a link to `{}`, which is not there",
            dir.join("moved-away.toml").display()
        ),
    );
    let ghost = dir.join("plugins").join("ghost");
    fs::create_dir_all(&ghost).unwrap();
    std::os::unix::fs::symlink("/nonexistent/manifest.toml", ghost.join("manifest.toml")).unwrap();
    // `carc validate DIR` reads it as a plugin directory too.
    let o = carc(&["validate", ghost.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", show(&o));
    assert!(
        stderr(&o).contains("it is a link to `/nonexistent/manifest.toml`, which is not there"),
        "{}",
        show(&o)
    );
    // A link to a link to nothing leads nowhere; a plugin directory given as such a link
    // is said to be one.
    let twice = dir.join("twice.toml");
    std::os::unix::fs::symlink(&record, &twice).unwrap();
    exits_saying(
        &carc(&["replay", twice.to_str().unwrap()]),
        2,
        &format!(
            "it is a link to `{}`, which leads nowhere",
            record.display()
        ),
    );
    let gone = dir.join("gone-plugins");
    std::os::unix::fs::symlink("/nonexistent/plugins", &gone).unwrap();
    let o = carc(&["--plugin-dir", gone.to_str().unwrap(), "plugins", "list"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        stderr(&o).contains(&format!(
            "warning: plugin directory `{}` is a link to `/nonexistent/plugins`, which is not \
             there",
            gone.display()
        )),
        "{}",
        show(&o)
    );
    let rows = rows_of(dir.join("plugins").to_str().unwrap(), "ghost");
    let [row] = rows.as_slice() else {
        panic!("listed once: {rows:?}");
    };
    let status = common::listed_status(row);
    assert!(
        status.starts_with("refused: ")
            && status.contains("it is a link to `/nonexistent/manifest.toml`, which is not there"),
        "{status}"
    );
}

/// A library named with `--plugin` that cannot be used is said, whatever the command
/// (it was silently left out of a game).
#[test]
fn a_plugin_library_that_is_not_used_is_said_in_every_command() {
    let dir = scratch("plugin-library-unused");
    let junk = write(&dir, "libjunk.so", "not a library\n");
    let missing = dir.join("libmissing.so");
    for (path, words) in [
        (junk.as_str(), "it is not a shared library"),
        (missing.to_str().unwrap(), "there is no file at that path"),
    ] {
        let o = carc(&["--plugin", path, "play", "--seed", "1"]);
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
        assert!(
            stderr(&o).contains(&format!(
                "warning: plugin library `{path}` is not used: {words}"
            )),
            "{}",
            show(&o)
        );
        assert!(stdout(&o).contains("final scores"), "{}", show(&o));
    }
    // The shipped library of The Princess and the Dragon, given again: the shipped plugin
    // directory is found first.
    let shipped = fixture_libs::library("carc_princess_dragon");
    let shipped = shipped.to_str().expect("a UTF-8 path");
    let o = carc(&["--plugin", shipped, "plugins", "info", "princess-dragon"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        stderr(&o).contains(&format!(
            "warning: plugin library `{shipped}` is not used: another plugin of the id \
             `princess-dragon`, in `"
        )),
        "{}",
        show(&o)
    );
}

/// The rows of `carc --plugin-dir DIR plugins list --json` listing plugin `id`.
fn rows_of(dir: &str, id: &str) -> Vec<serde_json::Value> {
    let o = carc(&["--plugin-dir", dir, "plugins", "list", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    let list: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let rows = list.as_array().expect("an array of plugins");
    rows.iter().filter(|r| r["id"] == id).cloned().collect()
}

/// A plugin whose manifest reads but whose tile data does not is listed under its own id
/// and version, refused with the reason, and found by that id.
#[test]
fn a_plugin_with_missing_tile_data_keeps_its_name() {
    let dir = scratch("missing-tiles");
    let plugin = dir.join("some-directory");
    fs::create_dir_all(&plugin).unwrap();
    write(
        &plugin,
        "manifest.toml",
        "id = \"wishing-well\"\nname = \"Well\"\nversion = \"0.2.0\"\ntiles = [\"tiles.toml\"]\n",
    );
    let root = dir.to_str().unwrap();
    let listed = rows_of(root, "wishing-well");
    let [well] = listed.as_slice() else {
        panic!("listed once by its id: {listed:?}");
    };
    assert_eq!(well["version"], "0.2.0");
    // No library was read: its protocol is not known, said as JSON says it.
    assert!(well["protocol"].is_null(), "{well}");
    let status = common::listed_status(well);
    // Said at the manifest's line naming the file.
    assert!(
        status.starts_with("refused: ")
            && status.contains(
                "manifest.toml:4:10: error: the tile file `tiles.toml` cannot be used: cannot read"
            ),
        "{status}"
    );
    let o = carc(&["--plugin-dir", root, "plugins", "info", "wishing-well"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        stdout(&o).contains("tiles.toml: cannot be read (no such file or directory)"),
        "{}",
        show(&o)
    );
}

/// Standard input is read once: `-` named twice is a usage error, not a second, empty
/// input.
#[test]
fn standard_input_named_twice_is_refused() {
    let o = carc_with_stdin(&["validate", "-", "-"], b"[[tile]]\n".to_vec());
    exits_saying(&o, 2, "`-` is given twice");
}

/// A malformed argument of an expansion's move is located at the value, not at the move.
#[test]
fn a_bad_dragon_step_is_located_at_its_value() {
    let record = "[game]\nexpansions = [\"princess-dragon\"]\nplayers = [\"A\", \"B\"]\nseed = 1\n\n[[move]]\ndragon = \"Q\"\n";
    let o = carc_with_stdin(&["replay", "-"], record.as_bytes().to_vec());
    exits_saying(
        &o,
        2,
        "<stdin>:7:10: error: move 0: `dragon` takes \"N\", \"E\", \"S\" or \"W\", not \"Q\"",
    );
}

/// The moves the record format names (`fairy`, `princess`, `dragon`, `release`) have the
/// format's forms whatever is enabled: malformed, they make no valid record (exit 2, at
/// the value, even past the move `error_at` names) also when their expansion is off; well
/// formed, they are illegal moves there.
#[test]
fn a_malformed_move_of_an_expansion_that_is_off_makes_no_valid_record() {
    let record = |mv: &str| {
        format!(
            "[game]\nplayers = [\"A\", \"B\"]\nsupply = \"draw\"\ndraw = [\"base:U\"]\n\n\
             [[move]]\nplace = \"base:U\"\nat = [5, 5]\nrotation = 0\n\n[[move]]\n{mv}\n\n\
             [expect]\nerror_at = 0\n"
        )
    };
    let cases = [
        (
            "dragon = \"NE\"",
            "<stdin>:12:10: error: move 1: `dragon` takes \"N\", \"E\", \"S\" or \"W\", not \"NE\"",
        ),
        (
            "princess = [1, 0, \"XYZ\"]",
            "<stdin>:12:12: error: move 1: `XYZ` is neither a port (NNW, N, NNE, ENE, ...) nor a \
             feature kind of this game",
        ),
        (
            "fairy = [1, 0, \"hut\"]",
            "<stdin>:12:9: error: move 1: `hut` is neither a port (NNW, N, NNE, ENE, ...) nor a \
             feature kind of this game",
        ),
    ];
    for (mv, said) in cases {
        let o = carc_with_stdin(&["replay", "-"], record(mv).into_bytes());
        exits_saying(&o, 2, said);
    }
    // Well formed, it is a move like any other past `error_at`: the record is valid.
    let o = carc_with_stdin(&["replay", "-"], record("dragon = \"N\"").into_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert!(
        stdout(&o).contains("move 0 rejected as expected"),
        "{}",
        show(&o)
    );
}

/// Expansions the configuration file names, when one is unknown, are traced to the file.
#[test]
fn an_unknown_expansion_from_the_configuration_names_the_file() {
    let dir = scratch("config-expansions");
    let config = write(&dir, "carc.toml", "expansions = [\"nope\"]\n");
    let o = carc(&["--config", &config, "play", "--seed", "1"]);
    exits_saying(&o, 2, "unknown expansion `nope`");
    assert!(
        stderr(&o).starts_with(&format!("{config}:1:15: error: unknown expansion `nope`")),
        "{}",
        show(&o)
    );
    // One named twice: at the second.
    let config = write(
        &dir,
        "twice.toml",
        "expansions = [\"russian-promos\", \"russian-promos\"]\n",
    );
    let o = carc(&["--config", &config, "play", "--seed", "1"]);
    exits_saying(&o, 2, "is named twice");
    assert!(
        stderr(&o).starts_with(&format!("{config}:1:33: error:")),
        "{}",
        show(&o)
    );
}

/// A rule option the configuration file sets, when it is wrong, is traced to the file's
/// `[rules]` (not to `expansions`), in every subcommand that uses it; `--rule` over it
/// is said as given.
#[test]
fn a_wrong_rule_option_from_the_configuration_names_the_file() {
    let dir = scratch("config-rules");
    let config = write(
        &dir,
        "carc.toml",
        "expansions = [\"russian-promos\"]\n[rules]\n\"russian-promos.sets\" = \"after-scoring\"\n",
    );
    // Located at the value (file, line, column, caret).
    let said = format!("{config}:3:25: error: rule option `russian-promos.sets` cannot be");
    for args in [
        vec!["--config", &config, "play", "--seed", "1"],
        vec![
            "--config",
            &config,
            "simulate",
            "--games",
            "1",
            "--expansions",
            "russian-promos",
        ],
        vec!["--config", &config, "plan"],
    ] {
        let o = carc(&args);
        exits_saying(
            &o,
            2,
            "rule option `russian-promos.sets` cannot be `after-scoring`",
        );
        assert!(stderr(&o).contains(&said), "{args:?}: {}", show(&o));
        assert!(
            !stderr(&o).contains("come from `expansions`"),
            "{}",
            show(&o)
        );
    }
    let o = carc(&[
        "--config",
        &config,
        "play",
        "--seed",
        "1",
        "--rule",
        "russian-promos.sets=x",
    ]);
    exits_saying(&o, 2, "cannot be `x`");
    assert!(!stderr(&o).contains("[rules]"), "{}", show(&o));
    // An option's value is no matter of which expansions are played.
    assert!(!stderr(&o).contains("come from"), "{}", show(&o));
}

/// A default rule option for an expansion no plugin provides is said to be ignored (a
/// typo would otherwise go unnoticed); one for an expansion found but not enabled is not.
#[test]
fn a_configured_option_of_no_expansion_is_said_to_be_ignored() {
    let dir = scratch("config-unknown-option");
    let config = write(
        &dir,
        "carc.toml",
        "[rules]\n\"bogus.nope\" = \"x\"\n\"russian-promos.sets\" = \"2013\"\n",
    );
    let o = carc(&["--config", &config, "play", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", show(&o));
    assert_eq!(
        stderr(&o),
        "warning: the configuration's rule option `bogus.nope` is ignored: no plugin provides \
         an expansion `bogus`\n"
    );
}

/// Without a configuration file, a rule option for an expansion not enabled sends the
/// player to --expansions, not to a file that does not exist.
#[test]
fn without_a_configuration_file_no_file_is_named() {
    let dir = scratch("config-none");
    let o = common::command(&["play", "--seed", "1", "--rule", "russian-promos.sets=2013"])
        .env("XDG_CONFIG_HOME", &dir)
        .env_remove("CARC_CONFIG")
        .output()
        .expect("carc runs");
    exits_saying(
        &o,
        2,
        "expansion `russian-promos` is not enabled; name the expansions to play with \
         --expansions (no configuration file names any)",
    );
}

/// A copy of a plugin that cannot even be read does not hide a working copy of the same
/// id found after it: the working one loads, the broken one is listed as shadowed.
#[test]
fn a_broken_copy_does_not_hide_a_working_one() {
    let dir = scratch("broken-copy");
    let (broken, good) = (dir.join("a-broken"), dir.join("b-good"));
    fs::create_dir_all(&broken).unwrap();
    fs::create_dir_all(&good).unwrap();
    let pack = root().join("examples/tile-pack");
    for f in ["manifest.toml", "tiles.toml"] {
        fs::copy(pack.join(f), good.join(f)).unwrap();
    }
    fs::copy(pack.join("manifest.toml"), broken.join("manifest.toml")).unwrap();
    let rows = rows_of(dir.to_str().unwrap(), "crossings");
    assert_eq!(rows.len(), 2, "{rows:?}");
    let status_of = |d: &Path| {
        rows.iter()
            .find(|r| r["dir"].as_str() == d.to_str())
            .map(common::listed_status)
            .unwrap_or_else(|| panic!("{} listed: {rows:?}", d.display()))
    };
    assert_eq!(status_of(&good), "loaded", "{rows:?}");
    assert!(status_of(&broken).starts_with("shadowed: "), "{rows:?}");
}

/// A JSON record is told about objects, not TOML's tables; a rotation in quotes is told
/// what a rotation is.
#[test]
fn wrong_types_are_told_in_the_record_s_own_words() {
    let o = carc_with_stdin(&["replay", "-"], b"{\"move\": {}}".to_vec());
    exits_saying(&o, 2, "expected an array, found an object");
    assert!(!stderr(&o).contains("table"), "{}", show(&o));
    let text = fs::read_to_string(root().join("tests/scenarios/base-06-road-loop.toml")).unwrap();
    let quoted = replace_first(&text, "rotation = 270", "rotation = \"270\"");
    let o = carc_with_stdin(&["replay", "-"], quoted.into_bytes());
    exits_saying(
        &o,
        2,
        "expected a rotation: 0, 90, 180 or 270 (a number, not in quotes), found the string `270`",
    );
}

/// `text` with the first `from` replaced by `to` (which must be there).
fn replace_first(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

/// A name holding a line break (a key of a record, a kind in tile data) is quoted with
/// the break written `\n`: the message stays on its one line, whole.
#[test]
fn a_line_break_in_a_quoted_name_keeps_the_message_on_one_line() {
    let dir = scratch("break-in-name");
    let record = write(
        &dir,
        "r.toml",
        "[game]\nplayers = [\"A\", \"B\"]\n\"a\\nb\" = 1\n",
    );
    let tiles = write(
        &dir,
        "t.toml",
        "expansion = \"x\"\n[[tile]]\nid = \"x:a\"\ncount = 1\nsides = [\"field\", \"field\", \"field\", \"field\"]\nfeatures = [{ kind = \"a\\nb\", ports = [\"N\"] }]\n",
    );
    for (args, said) in [
        (
            vec!["replay", &record],
            "unknown key `a\\nb` (expected one of",
        ),
        (
            vec!["validate", &tiles],
            "feature kind `a\\nb` is not a valid name",
        ),
    ] {
        let o = carc(&args);
        let first = stderr(&o).lines().next().unwrap_or("").to_string();
        assert!(first.contains(said), "{args:?}: {}", show(&o));
    }
}

/// An unknown key of a JSON record is underlined whole, quotes included, as TOML's is
/// (the JSON reader stops at its closing quote).
#[test]
fn an_unknown_json_key_is_underlined_whole() {
    let dir = scratch("json-unknown-key");
    let record = write(
        &dir,
        "r.json",
        "{\"game\": {\"players\": [\"A\",\"B\"], \"bo\\\"gus\": 1}}",
    );
    let o = carc(&["replay", &record]);
    assert_eq!(o.status.code(), Some(2), "{}", show(&o));
    assert!(
        stderr(&o).starts_with(&format!("{record}:1:33: error: unknown key `bo\"gus`")),
        "{}",
        show(&o)
    );
    assert!(
        stderr(&o).contains(&format!("\n  | {}^^^^^^^^^\n", " ".repeat(32))),
        "{}",
        show(&o)
    );
}

/// A file that is no shared library for this machine is refused by its headers alone,
/// before the system loader sees it, with what is wrong: another machine, byte order or
/// word size, or a program. A link leading nowhere is said to be one. (On the 64-bit,
/// little-endian machines whose names the check and `ARCH` write alike.)
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
#[test]
fn a_library_for_another_machine_is_refused_by_its_headers() {
    let dir = scratch("plugin-library-headers");
    let real = fs::read(fixture_libs::library("carc_russian_promos")).expect("the library");
    let patched = |name: &str, at: usize, bytes: &[u8]| {
        let mut b = real.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        let path = dir.join(name).join("libcarc_russian_promos.so");
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, b).unwrap();
        path.to_str().unwrap().to_string()
    };
    // e_machine: another kind of machine than this one (x86_64 or aarch64, named both ways).
    let (other, other_name) = if std::env::consts::ARCH == "aarch64" {
        (62u16, "x86_64")
    } else {
        (183u16, "aarch64")
    };
    let here = std::env::consts::ARCH;
    let looping = dir.join("libcarc_loop.so");
    let _ = fs::remove_file(&looping);
    std::os::unix::fs::symlink(&looping, &looping).expect("a link to itself");
    for (path, said) in [
        (
            patched("machine", 18, &other.to_le_bytes()),
            format!(
                "it was built for another kind of machine ({other_name}), and this one is {here}"
            ),
        ),
        (
            patched("endian", 5, &[2]),
            "it is a library for a big-endian machine, and this one is not".to_string(),
        ),
        (
            patched("class", 4, &[1]),
            "it is a 32-bit library, and this is a 64-bit program".to_string(),
        ),
        (
            patched("program", 16, &2u16.to_le_bytes()),
            "it is a program, not a shared library".to_string(),
        ),
        (
            looping.to_str().unwrap().to_string(),
            "it is a link that leads nowhere (to nothing, or round in a loop)".to_string(),
        ),
    ] {
        let o = carc(&["--plugin", &path, "plugins", "list"]);
        assert_eq!(o.status.code(), Some(0), "{}", show(&o));
        assert!(
            stderr(&o).contains(&format!(
                "warning: plugin library `{path}` is not used: {said}"
            )),
            "{}",
            show(&o)
        );
    }
}

/// `[[move]]` (or `[[tile]]`) after `[move]` is said as what it is, at the second
/// header, in a record and in tile data alike (it was "duplicate key `move`").
#[test]
fn an_array_of_tables_after_a_table_of_its_name_says_why() {
    let dir = scratch("hostile-array-after-table");
    let record = write(
        &dir,
        "record.toml",
        "[game]\nplayers = [\"A\", \"B\"]\n\n[move]\npass = true\n\n[[move]]\npass = true\n",
    );
    exits_saying(
        &carc(&["replay", &record]),
        2,
        "record.toml:7:3: error: `[[move]]` after `[move]` (line 4), which makes `move` one \
         table: write every entry as `[[move]]`",
    );
    let tiles = write(
        &dir,
        "tiles.toml",
        "[tile]\nid = \"a\"\n[[tile]]\nid = \"b\"\n",
    );
    exits_saying(
        &carc(&["validate", &tiles]),
        1,
        "tiles.toml:3:3: error: `[[tile]]` after `[tile]` (line 1), which makes `tile` one \
         table: write every entry as `[[tile]]`",
    );
}

/// A record whose full supply is asked for a copy of a dragon tile it does not hold (its
/// one copy is on the board, none came back, PD-7) is invalid, said at that listing (it
/// made a second copy).
#[test]
fn a_dragon_tile_listed_for_a_copy_that_never_came_back_is_invalid() {
    let dir = scratch("hostile-overdrawn");
    let record = write(
        &dir,
        "record.toml",
        "[game]\nexpansions = [\"princess-dragon\"]\nplayers = [\"Alice\", \"Bob\"]\nseed = 11\n\
         draw = [\"pd:volcano\", \"pd:dragon-city\", \"pd:dragon-city\"]\n\n\
         [[move]]\nplace = \"pd:volcano\"\nat = [0, 1]\nrotation = 0\n\n[[move]]\npass = true\n\n\
         [[move]]\nplace = \"pd:dragon-city\"\nat = [0, -1]\nrotation = 180\n\n\
         [[move]]\npass = true\n\n[[move]]\ndragon = \"N\"\n\n[[move]]\ndragon = \"N\"\n\n\
         [[move]]\nplace = \"pd:dragon-city\"\nat = [0, -2]\nrotation = 0\n\n\
         [expect]\nerror_at = 6\n",
    );
    exits_saying(
        &carc(&["replay", &record]),
        2,
        "record.toml:5:41: error: `pd:dragon-city` is listed for a copy the supply does not \
         hold when it is drawn: the game has 1 copy, and none came back into the supply",
    );
}

/// Thousands of unknown players in `[expect]`: the first in the file is told, after
/// locating a few of them (each located by reading the file: all of them took minutes).
#[test]
fn thousands_of_unknown_players_in_expect_are_told_by_the_first() {
    let dir = scratch("hostile-expect-players");
    let names: Vec<String> = (0..5000).map(|i| format!("P{i} = 1")).collect();
    let record = write(
        &dir,
        "record.toml",
        format!(
            "[game]\nplayers = [\"A\", \"B\"]\n[expect]\nscores = {{ {} }}\n",
            names.join(", ")
        ),
    );
    exits_saying(
        &carc(&["replay", &record]),
        2,
        "record.toml:4:12: error: no player named `P0` in this game",
    );
}
