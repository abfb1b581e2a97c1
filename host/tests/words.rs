//! Words carc prints for players and plugin authors: `carc schema --help` names every
//! schema, `carc rules` shows each option's default once, `carc simulate` counts in
//! English, and every line of the turn log of games with the shipped expansions reads as
//! one of the sentences written here.

mod common;
#[path = "../../core/tests/common/grammar.rs"]
mod grammar;

use common::{carc, stderr, stdout};
use grammar::grammar_faults;

/// The schemas `carc schema` prints.
const SCHEMAS: [&str; 3] = ["tiles", "record", "manifest"];

/// The values clap lists after `[possible values: ` in short help.
fn possible_values(help: &str) -> Vec<String> {
    let start = help.find("[possible values: ").expect("possible values") + 18;
    let end = start + help[start..].find(']').expect("]");
    help[start..end].split(", ").map(str::to_string).collect()
}

#[test]
fn schema_help_lists_every_schema() {
    let short = carc(&["schema", "-h"]);
    assert!(short.status.success(), "{}", stderr(&short));
    let listed = possible_values(&stdout(&short));
    assert_eq!(listed, SCHEMAS, "`carc schema -h`:\n{}", stdout(&short));
    let long = carc(&["schema", "--help"]);
    assert!(long.status.success(), "{}", stderr(&long));
    let long = stdout(&long);
    for which in SCHEMAS {
        // Each value with its description, in the long help.
        assert!(
            long.contains(&format!("- {which}:")),
            "`{which}` missing from `carc schema --help`:\n{long}"
        );
        // Each is a schema carc prints.
        let o = carc(&["schema", which]);
        assert!(o.status.success(), "carc schema {which}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        assert!(v.is_object(), "carc schema {which}");
    }
    // The one-line summary in `carc --help` names exactly the values `carc schema`
    // takes, in their order.
    let top = stdout(&carc(&["--help"]));
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("schema "))
        .expect("schema in carc --help");
    let named: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
    assert_eq!(named, listed, "the summary {line:?}");
}

/// `carc rules` blocks: (the `exp.option = value` line, the `values:` line).
fn option_blocks(out: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = out.lines().collect();
    let mut blocks = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("  ") && !l.starts_with("   ") && l.contains(" = ") {
            let values = lines.get(i + 1).expect("values line");
            blocks.push((l.to_string(), values.to_string()));
        }
    }
    blocks
}

#[test]
fn rules_show_each_default_once() {
    for args in [
        vec!["rules"],
        vec![
            "rules",
            "princess-dragon",
            "--rule",
            "princess-dragon.princess=must",
        ],
    ] {
        let o = carc(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        let blocks = option_blocks(&out);
        assert!(blocks.len() >= 6, "{args:?}: options listed:\n{out}");
        for (value, values) in &blocks {
            let shown = value.matches("default").count() + values.matches("default").count();
            assert_eq!(shown, 1, "{args:?}: the default once:\n{value}\n{values}");
            let listed = values
                .trim_start()
                .strip_prefix("values: ")
                .expect("values: …");
            let first = listed.split(" | ").next().expect("a value");
            assert!(
                first.ends_with(" (default)"),
                "the first value is the default: {values}"
            );
        }
    }
    // A value set away from its default shows as it is, the default still marked once.
    let out = stdout(&carc(&[
        "rules",
        "princess-dragon",
        "--rule",
        "princess-dragon.princess=must",
    ]));
    assert!(
        out.contains("  princess-dragon.princess = must\n      values: may (default) | must\n"),
        "{out}"
    );
}

#[test]
fn simulate_counts_in_english() {
    for (games, threads, want) in [
        ("1", "1", "1 game of the base game in "),
        ("2", "1", "2 games of the base game in "),
        ("2", "2", "2 games of the base game in "),
    ] {
        let o = carc(&["simulate", "--games", games, "--threads", threads]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with(want), "{games} games: {out}");
        let on = if threads == "1" {
            " on 1 thread: "
        } else {
            " on 2 threads: "
        };
        assert!(out.contains(on), "{threads} threads: {out}");
        // `1 games`, `2 thread`, `thread(s)`: none of these.
        let faults: Vec<String> = out.lines().flat_map(general_faults).collect();
        assert!(faults.is_empty(), "{}", faults.join("\n"));
        assert!(!out.contains("(s)"), "{out}");
    }
}

/// Nouns the log counts, singular and plural.
const NOUNS: [(&str, &str); 7] = [
    ("point", "points"),
    ("tile", "tiles"),
    ("city", "cities"),
    ("pennant", "pennants"),
    ("follower", "followers"),
    ("game", "games"),
    ("thread", "threads"),
];

/// What is wrong with a line in general: Rust or debug text, a doubled word, a verb after
/// "is", a count that disagrees with its noun.
fn general_faults(line: &str) -> Vec<String> {
    let mut faults = Vec::new();
    for bad in [
        "Some(",
        "None",
        "::",
        "Figure(",
        "Location",
        "OffBoard",
        "{",
        "}",
        "\\",
        "on off",
        "from off",
        "to off",
        "on the supply",
        "scores -",
        "citys",
    ] {
        if line.contains(bad) {
            faults.push(format!("`{bad}`"));
        }
    }
    faults
        .into_iter()
        .map(|f| format!("{f}: {line:?}"))
        .chain(grammar_faults(line, &NOUNS))
        .collect()
}

/// A piece of a sentence template.
#[derive(Debug)]
enum Piece {
    Text(String),
    /// An integer, maybe negative.
    Number,
    /// A player's name.
    Player,
    /// A tile id, `base:D`, `pd:volcano`.
    Tile,
    /// A lowercase word, maybe with hyphens: a figure or feature kind, a port.
    Word,
    /// A port (`NNW`) or the kind of a feature inside a tile (`monastery`).
    Port,
    /// A count with its noun: `1 tile`, `0 tiles`, `2 tiles`.
    Count(&'static str, &'static str),
    /// One of these.
    OneOf(&'static [&'static str]),
}

/// A sentence template: text with `{n}` (a number), `{p}` (a player), `{tile}`, `{w}`
/// (a word), `{port}`, `{tiles}`, `{pennants}`, `{cities}`, `{points}` (counts), `{state}`
/// (complete or incomplete), `{trap}`.
fn template(t: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    let mut rest = t;
    while let Some(open) = rest.find('{') {
        if open > 0 {
            pieces.push(Piece::Text(rest[..open].to_string()));
        }
        let close = open + rest[open..].find('}').expect("}");
        pieces.push(match &rest[open + 1..close] {
            "n" => Piece::Number,
            "p" => Piece::Player,
            "tile" => Piece::Tile,
            "w" => Piece::Word,
            "port" => Piece::Port,
            "tiles" => Piece::Count("tile", "tiles"),
            "pennants" => Piece::Count("pennant", "pennants"),
            "cities" => Piece::Count("completed city", "completed cities"),
            "points" => Piece::Count("point", "points"),
            "state" => Piece::OneOf(&["complete", "incomplete"]),
            "trap" => Piece::OneOf(&["Vodyanoy", "Solovei Razboynik"]),
            other => panic!("unknown placeholder {other}"),
        });
        rest = &rest[close + 1..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest.to_string()));
    }
    pieces
}

const PLAYERS: [&str; 3] = ["Alice", "Bob", "Carol"];

/// Whether `s` reads exactly as the pieces.
fn reads_as(pieces: &[Piece], s: &str) -> bool {
    let Some((first, rest)) = pieces.split_first() else {
        return s.is_empty();
    };
    // The lengths of the prefixes of `s` a piece may take.
    let run = |ok: &dyn Fn(usize, char) -> bool| {
        s.char_indices()
            .take_while(|&(i, c)| ok(i, c))
            .map(|(i, c)| i + c.len_utf8())
            .collect::<Vec<usize>>()
    };
    let number = |s: &str| -> Vec<usize> {
        s.char_indices()
            .take_while(|&(i, c)| c.is_ascii_digit() || (i == 0 && c == '-'))
            .map(|(i, c)| i + c.len_utf8())
            .filter(|&n| s[..n] != *"-")
            .collect()
    };
    let takes: Vec<usize> = match first {
        Piece::Text(t) => s
            .starts_with(t.as_str())
            .then_some(t.len())
            .into_iter()
            .collect(),
        Piece::Number => number(s),
        Piece::Player => PLAYERS
            .iter()
            .filter(|p| s.starts_with(*p))
            .map(|p| p.len())
            .collect(),
        Piece::Tile => {
            let Some(colon) = s.find(':') else {
                return false;
            };
            if colon == 0 || !s[..colon].chars().all(|c| c.is_ascii_lowercase()) {
                return false;
            }
            run(&|i, c| i <= colon || c.is_ascii_alphanumeric() || c == '-')
                .into_iter()
                .filter(|&n| n > colon + 1)
                .collect()
        }
        Piece::Word => run(&|_, c| c.is_ascii_lowercase() || c == '-'),
        Piece::Port => run(&|_, c| c.is_ascii_alphabetic() || c == '-'),
        Piece::Count(one, many) => number(s)
            .into_iter()
            .filter_map(|n| {
                let noun = if &s[..n] == "1" { one } else { many };
                s[n..]
                    .strip_prefix(' ')
                    .filter(|r| r.starts_with(noun))
                    .map(|_| n + 1 + noun.len())
            })
            .collect(),
        Piece::OneOf(words) => words
            .iter()
            .filter(|w| s.starts_with(*w))
            .map(|w| w.len())
            .collect(),
    };
    takes.into_iter().any(|n| reads_as(rest, &s[n..]))
}

/// Every sentence the turn log of games with the base game, the Princess and the Dragon
/// and the Russian promos may print, written from English.
const SENTENCES: &[&str] = &[
    "start tile {tile} at [{n}, {n}]",
    "turn {n}: {p}",
    "  draws {tile}",
    "  {tile} fits nowhere and is discarded",
    "  {tile} is set aside",
    "  {tile} goes back into the supply",
    "  1 set-aside tile is shuffled back into the supply",
    "  {n} set-aside tiles are shuffled back into the supply",
    "  places {tile} at [{n}, {n}] rotated {n}",
    "  deploys {p}'s {w} on the {w} at [{n}, {n}, \"{port}\"]",
    // PD-11, PD-4: the fairy and the dragon as a player moves them.
    "  {p} moves the fairy to the tile at [{n}, {n}]",
    "  {p} moves the fairy from the tile at [{n}, {n}] to the tile at [{n}, {n}]",
    "  {p} moves the dragon from the tile at [{n}, {n}] to the tile at [{n}, {n}]",
    // PD-2: a volcano draws the dragon, from beside the board or from where it stands.
    "  the dragon is moved to the volcano (now on the tile at [{n}, {n}])",
    "  the dragon on the tile at [{n}, {n}] is moved to the volcano (now on the tile at [{n}, \
     {n}])",
    // PD-6, PD-10.
    "  {p}'s {w} on the {w} at [{n}, {n}, \"{port}\"] is eaten by the dragon",
    "  {p}'s {w} on the tile at [{n}, {n}] is eaten by the dragon",
    "  {p}'s {w} on the {w} at [{n}, {n}, \"{port}\"] is removed by the princess",
    // RP: the traps and the release.
    "  {p}'s {w} on the {w} at [{n}, {n}, \"{port}\"] is trapped by {trap} (now on the tile at \
     [{n}, {n}])",
    "  {p}'s {w} on the tile at [{n}, {n}] is released from the trap",
    "  {p}'s {w} returns from the {w} at [{n}, {n}, \"{port}\"]",
    "  {p} scores {points} for a city of {tiles} ({state})",
    "  {p} scores {points} for a city of {tiles} and {pennants} ({state})",
    "  {p} scores {points} for a road of {tiles} ({state})",
    "  {p} scores {points} for a monastery with {tiles} ({state})",
    "  {p} scores {points} for a field touching {cities}",
    "  {p} scores {points} for a hut",
    "  {p} scores {points} for the fairy, at the start of the turn",
    "  {p} scores {points} for the fairy's bonus",
    "  {p} loses {points} for followers trapped by Vodyanoy",
    "  {p} scores {points} for followers trapped by Vodyanoy",
    "game over: final scoring",
];

/// The turn log of a `carc play` output: from the start tile to the final scores.
fn turn_log(out: &str) -> Vec<&str> {
    out.lines()
        .skip_while(|l| !l.starts_with("start tile "))
        .take_while(|l| *l != "final scores:")
        .collect()
}

#[test]
fn the_turn_log_reads_as_english_with_every_shipped_expansion() {
    let templates: Vec<Vec<Piece>> = SENTENCES.iter().map(|s| template(s)).collect();
    let mut wrong = Vec::new();
    let mut used = vec![0usize; SENTENCES.len()];
    let mut lines = 0;
    for seed in 1..=12 {
        let seed = seed.to_string();
        for args in [
            vec![
                "play",
                "--seed",
                &seed,
                "--players",
                "3",
                "--bots",
                "greedy",
                "--expansions",
                "princess-dragon,russian-promos",
            ],
            vec![
                "play",
                "--seed",
                &seed,
                "--expansions",
                "princess-dragon",
                "--rule",
                "princess-dragon.dragon-tiles-before-volcano=reshuffle",
            ],
        ] {
            let o = carc(&args);
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            let out = stdout(&o);
            let log = turn_log(&out);
            assert!(log.len() > 100, "{args:?}: a whole game:\n{out}");
            for line in log {
                lines += 1;
                wrong.extend(general_faults(line));
                match templates.iter().position(|t| reads_as(t, line)) {
                    Some(i) => used[i] += 1,
                    None => wrong.push(format!("no sentence reads as {line:?}")),
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(lines > 1000);
    // These games show the expansions' own sentences.
    for must in [
        "  the dragon is moved to the volcano (now on the tile at [{n}, {n}])",
        "  {p} moves the fairy to the tile at [{n}, {n}]",
        "  {p}'s {w} on the {w} at [{n}, {n}, \"{port}\"] is eaten by the dragon",
        "  {p}'s {w} on the tile at [{n}, {n}] is released from the trap",
        "  {p} scores {points} for a hut",
        "  {p} scores {points} for the fairy, at the start of the turn",
        "  {n} set-aside tiles are shuffled back into the supply",
    ] {
        let i = SENTENCES.iter().position(|s| *s == must).expect("listed");
        assert!(used[i] > 0, "no line reads as {must:?}");
    }
}

#[test]
fn the_sentence_checks_catch_old_mistakes() {
    let templates: Vec<Vec<Piece>> = SENTENCES.iter().map(|s| template(s)).collect();
    for line in [
        "  the dragon on off the board is flies to the volcano (now on the tile at [1, 2])",
        "  Alice scores 3 for field touching 1 completed city",
        "  Alice scores 1 points for the fairy's bonus",
        "  Alice scores 2 for city of 1 tile (complete)",
        "  Bob moves the fairy from off the board to the tile at [1, 0]",
        "  deploys Alice's follower on the city at [0, 0, NNW]",
        "  Bob scores -2 for followers trapped by Vodyanoy",
    ] {
        let caught =
            !general_faults(line).is_empty() || !templates.iter().any(|t| reads_as(t, line));
        assert!(caught, "not caught: {line:?}");
    }
    for line in [
        "  Alice scores 1 point for a city of 1 tile (incomplete)",
        "  Bob loses 4 points for followers trapped by Vodyanoy",
        "  Carol scores 6 points for a field touching 2 completed cities",
        "  pd:dragon-monastery-city is set aside",
        "  places base:P at [1, -10] rotated 180",
    ] {
        assert!(general_faults(line).is_empty(), "{line:?}");
        assert!(templates.iter().any(|t| reads_as(t, line)), "{line:?}");
    }
}
