//! `carc view` and `carc play --html`: the replay viewer page, checked without a browser
//! (host/tests/browser.rs drives it in one).

mod common;

use std::path::Path;

use common::{carc, root, scratch, stderr, stdout};
use serde_json::Value;

/// The steps embedded in a viewer page.
fn embedded(html: &str) -> Value {
    let open = "<script id=\"steps\" type=\"application/json\">";
    let start = html.find(open).expect("the page embeds its steps") + open.len();
    let end = start + html[start..].find("</script>").expect("the steps end");
    serde_json::from_str(&html[start..end]).expect("the steps are JSON")
}

/// Board `k` of the embedded steps: its runs of lines, each the number of its text,
/// joined.
fn board(steps: &Value, k: usize) -> String {
    let texts = steps["texts"].as_array().unwrap();
    let lines = steps["lines"].as_array().unwrap();
    let mut out: Vec<&str> = Vec::new();
    for run in steps["boards"][k].as_array().unwrap() {
        let first = run[0].as_u64().unwrap() as usize;
        let count = run[1].as_u64().unwrap() as usize;
        out.extend(
            lines[first..first + count]
                .iter()
                .map(|l| texts[l.as_u64().unwrap() as usize].as_str().unwrap()),
        );
    }
    out.join("\n")
}

/// The scores `carc replay --json` gives for a record.
fn replay_scores(record: &str) -> Vec<(String, i64)> {
    let o = carc(&["replay", record, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    v["scores"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
        .collect()
}

/// The last step's scores, by player name.
fn last_scores(steps: &Value) -> Vec<(String, i64)> {
    let players = steps["players"].as_array().unwrap();
    let last = steps["steps"].as_array().unwrap().last().unwrap();
    let mut scores: Vec<(String, i64)> = players
        .iter()
        .zip(last["scores"].as_array().unwrap())
        .map(|(p, s)| (p.as_str().unwrap().to_string(), s.as_i64().unwrap()))
        .collect();
    scores.sort();
    scores
}

fn moves_in(record: &Path) -> usize {
    carc_core::record::load(record).unwrap().record.moves.len()
}

/// Writes the viewer of a scenario and returns the page.
fn view(scenario: &str, dir: &Path) -> String {
    let out = dir.join("page.html");
    let o = carc(&["view", scenario, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "the page goes to the file");
    assert!(stderr(&o).contains("viewer written to"), "{}", stderr(&o));
    std::fs::read_to_string(out).unwrap()
}

const DRAGON: &str = "tests/scenarios/audit5-dragon-eats-monk-completed-monastery.toml";
const VODYANOY: &str = "tests/scenarios/audit4-x-vodyanoy-completes-monastery.toml";

#[test]
fn the_page_loads_nothing_from_elsewhere() {
    let dir = scratch("view-self-contained");
    let html = view(VODYANOY, &dir);
    let lower = html.to_lowercase();
    for banned in [
        "src=",
        "href=\"http",
        "href='http",
        "@import",
        "url(http",
        "url(//",
        "<link",
        "<iframe",
        "<img",
        "fetch(",
        "xmlhttprequest",
        "websocket",
        "import(",
    ] {
        assert!(!lower.contains(banned), "the page holds `{banned}`");
    }
    // Every url(...) points inside the page.
    for (i, _) in lower.match_indices("url(") {
        let rest = lower[i + 4..].trim_start_matches(['"', '\'']);
        assert!(
            rest.starts_with('#'),
            "url( outside the page: {}",
            &rest[..20.min(rest.len())]
        );
    }
    for id in [
        "prev", "next", "slider", "step", "board", "scores", "turn", "log",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "no #{id}");
    }
    assert!(html.contains("type=\"range\""));
}

#[test]
fn one_step_per_move_and_the_last_scores_are_the_replays() {
    let dir = scratch("view-steps");
    for scenario in [DRAGON, VODYANOY, "tests/scenarios/base-06-road-loop.toml"] {
        let steps = embedded(&view(scenario, &dir));
        let n = moves_in(&root().join(scenario));
        assert_eq!(
            steps["steps"].as_array().unwrap().len(),
            n + 1,
            "{scenario}"
        );
        let mut want = replay_scores(scenario);
        want.sort();
        assert_eq!(last_scores(&steps), want, "{scenario}");
        let first = &steps["steps"][0];
        assert!(first["scores"].as_array().unwrap().iter().all(|s| s == 0));
        assert_eq!(first["turn"], "Turn 1: Alice to play", "{scenario}");
        assert!(
            first["log"][0]["text"]
                .as_str()
                .unwrap()
                .starts_with("start tile ")
        );
        for k in [0, n] {
            let svg = board(&steps, k);
            assert!(
                svg.starts_with("<svg") && svg.ends_with("</svg>"),
                "{scenario}"
            );
        }
    }
}

#[test]
fn a_capture_names_the_rule_that_decided_it() {
    let dir = scratch("view-rules");
    for (scenario, words, rule) in [
        (DRAGON, "eaten by the dragon", "PD-6"),
        (VODYANOY, "trapped by Vodyanoy", "RP-7"),
    ] {
        let steps = embedded(&view(scenario, &dir));
        let lines: Vec<&Value> = steps["steps"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| s["log"].as_array().unwrap())
            .collect();
        let line = lines
            .iter()
            .find(|l| l["text"].as_str().unwrap().contains(words))
            .unwrap_or_else(|| panic!("{scenario}: no line `{words}`"));
        assert_eq!(line["rule"], rule, "{scenario}");
        assert!(
            line["rule_doc"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{rule}:"))
        );
        // Other lines name no rule.
        assert!(lines.iter().filter(|l| l.get("rule").is_some()).count() == 1);
    }
}

#[test]
fn play_html_has_a_step_per_move_of_the_recorded_game() {
    let dir = scratch("view-play");
    let record = dir.join("game.toml");
    let page = dir.join("game.html");
    let o = carc(&[
        "play",
        "--seed",
        "5",
        "--expansions",
        "princess-dragon,russian-promos",
        "--record",
        record.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let steps = embedded(&std::fs::read_to_string(&page).unwrap());
    let all = steps["steps"].as_array().unwrap();
    assert_eq!(all.len(), moves_in(&record) + 1);
    let mut want = replay_scores(record.to_str().unwrap());
    want.sort();
    assert_eq!(last_scores(&steps), want);
    assert!(
        all.last().unwrap()["turn"]
            .as_str()
            .unwrap()
            .starts_with("Game over")
    );
    // `carc view` of the record writes the same steps.
    let again = dir.join("again.html");
    let o = carc(&[
        "view",
        record.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let other = embedded(&std::fs::read_to_string(&again).unwrap());
    for key in ["players", "steps", "texts", "lines", "boards"] {
        assert!(other[key] == steps[key], "`{key}` differs");
    }
    // A placed tile is drawn the same in every later board, even after the board grew
    // to the north or west (its drawing, with its square's coordinates, is kept once, not
    // once per move).
    let tiles = |k: usize| -> Vec<String> {
        board(&steps, k)
            .lines()
            .filter(|l| l.contains("data-tile=") && !l.contains("data-next"))
            .map(str::to_string)
            .collect()
    };
    // Where the board is moved to: `translate(x y)`.
    let shift = |k: usize| -> (f64, f64) {
        let b = board(&steps, k);
        let at = b.find("translate(").expect("the board is moved into place") + 10;
        let inner = &b[at..at + b[at..].find(')').unwrap()];
        let (x, y) = inner.split_once(' ').unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    };
    let mut grew_north_or_west = 0;
    for k in 1..all.len() {
        let (before, after) = (tiles(k - 1), tiles(k));
        assert!(after.len() >= before.len(), "step {k}: tiles were lost");
        assert!(
            after.iter().all(|t| t.contains("<rect")),
            "step {k}: a tile is one line with its outline"
        );
        assert_eq!(
            after[..before.len()],
            before[..],
            "step {k}: a tile is drawn anew"
        );
        let (was, now) = (shift(k - 1), shift(k));
        if now.0 > was.0 || now.1 > was.1 {
            grew_north_or_west += 1;
        }
    }
    assert!(
        grew_north_or_west > 0,
        "the board grows to the north or west"
    );
    // So the page holds each tile's drawing once (drawn anew at each growth, as before,
    // it was kept about seven times; kept once per line it followed, twice).
    let drawings = steps["texts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l.as_str()
                .is_some_and(|l| l.contains("data-tile=") && !l.contains("data-next"))
        })
        .count();
    let placed = tiles(all.len() - 1).len();
    assert_eq!(drawings, placed, "tile drawings for {placed} tiles");
}

#[test]
fn default_out_is_the_record_renamed_and_dash_is_stdout() {
    let dir = scratch("view-out");
    let record = dir.join("loop.toml");
    std::fs::copy(
        root().join("tests/scenarios/base-06-road-loop.toml"),
        &record,
    )
    .unwrap();
    let o = carc(&["view", record.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = dir.join("loop.html");
    assert!(written.is_file());
    assert_eq!(
        stderr(&o).trim(),
        format!("viewer written to `{}`", written.display())
    );
    let o = carc(&["view", record.to_str().unwrap(), "--out", "-"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), std::fs::read_to_string(&written).unwrap());
}

#[test]
fn a_bad_record_exits_2_with_a_located_error_and_writes_nothing() {
    let dir = scratch("view-bad");
    let out = dir.join("x.html");
    let o = carc(&[
        "view",
        "tests/records/bad-syntax.toml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("tests/records/bad-syntax.toml:2:26: error:"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    let o = carc(&["view", "tests/records/no-such-record.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no-such-record.toml"), "{}", stderr(&o));
}

#[test]
fn an_illegal_move_exits_1_naming_the_move() {
    let dir = scratch("view-illegal");
    let out = dir.join("x.html");
    let o = carc(&[
        "view",
        "tests/records/illegal-placement.toml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("move 0 ("), "{}", stderr(&o));
    assert!(stderr(&o).contains("is illegal"), "{}", stderr(&o));
    assert!(!out.exists());
}

#[test]
fn an_unwritable_out_exits_2_with_one_line() {
    let o = carc(&[
        "view",
        "tests/scenarios/base-06-road-loop.toml",
        "--out",
        "/nonexistent-carc-dir/page.html",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot write `/nonexistent-carc-dir/page.html`"),
        "{err}"
    );
}

#[test]
fn a_page_named_like_a_picture_is_refused_with_where_pictures_come_from() {
    let dir = scratch("view-picture-name");
    for (args, flag) in [
        (
            vec!["view", "tests/scenarios/base-06-road-loop.toml", "--out"],
            "--out",
        ),
        (vec!["play", "--seed", "1", "--html"], "--html"),
    ] {
        for name in ["board.svg", "board.PNG", ".svg"] {
            let out = dir.join(name);
            let mut args = args.clone();
            args.push(out.to_str().unwrap());
            let o = carc(&args);
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            let err = stderr(&o);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with(&format!("error: {flag} `")) && err.contains("carc render board"),
                "{err}"
            );
            assert!(!out.exists(), "{name} was written");
            assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        }
    }
    // A record that cannot be read is the problem told first.
    let o = carc(&["view", "no-such-record.toml", "--out", "board.svg"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("no-such-record.toml: error: cannot read the file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_record_from_standard_input_goes_to_standard_output() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(["view", "-"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let record = std::fs::read(root().join("tests/scenarios/base-06-road-loop.toml")).unwrap();
    child.stdin.take().unwrap().write_all(&record).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let steps = embedded(&stdout(&o));
    assert_eq!(steps["title"], "<stdin>");
    assert_eq!(
        steps["steps"].as_array().unwrap().len(),
        moves_in(&root().join("tests/scenarios/base-06-road-loop.toml")) + 1
    );
}

#[test]
fn the_page_never_overwrites_its_record() {
    let dir = scratch("view-overwrite");
    let record = dir.join("game.html");
    std::fs::copy(
        root().join("tests/scenarios/base-06-road-loop.toml"),
        &record,
    )
    .unwrap();
    let o = carc(&["view", record.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("would overwrite the record"),
        "{}",
        stderr(&o)
    );
    let kept = std::fs::read_to_string(&record).unwrap();
    assert!(kept.contains("[[move]]"));
}

#[test]
fn names_cannot_break_out_of_the_page() {
    let dir = scratch("view-names");
    let record = dir.join("evil.toml");
    std::fs::write(
        &record,
        "[game]\nplayers = [\"<img src=x onerror=alert(1)>\", \"B&ob\\\"</script><!--\"]\n\
         supply = \"draw\"\ndraw = [\"base:U\"]\n\n[[move]]\nplace = \"base:U\"\nat = [0, 1]\n\
         rotation = 0\n",
    )
    .unwrap();
    let out = dir.join("evil.html");
    let o = carc(&[
        "view",
        record.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        html.matches("</script>").count(),
        2,
        "only the page's own two"
    );
    assert!(!html.contains("<img") && !html.contains("<!--"));
    let steps = embedded(&html);
    assert_eq!(steps["players"][0], "<img src=x onerror=alert(1)>");
    assert_eq!(steps["players"][1], "B&ob\"</script><!--");
    // The boards hold the names as text.
    assert!(!board(&steps, 1).contains("<img"));
}

#[test]
fn each_step_shows_the_board_carc_render_draws() {
    use carc_core::record;
    let catalog = common::plugins::both_expansions();
    for name in [
        "tests/scenarios/audit8-solovei-placed-next-to-vodyanoy-moves-on.toml",
        "tests/scenarios/audit8-four-players-dragon-round-fairy-protects.toml",
    ] {
        let loaded = record::load(&root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let viewer = carc_host::view::steps::steps(&loaded, &catalog)
            .unwrap_or_else(|_| panic!("{name}: the viewer replays it"));
        // The last step, its tiles' lines put back, is the picture of the replayed game.
        let outcome = record::replay(&loaded, &catalog)
            .unwrap_or_else(|_| panic!("{name}: carc replay accepts it"));
        let last = viewer.steps.last().expect("a step per move");
        assert_eq!(
            last.board.text(&viewer.drawings),
            carc_host::render::board_svg(&outcome.game),
            "{name}"
        );
        // No step shows the mark its tiles' lines stand in for.
        for step in &viewer.steps {
            let text = step.board.text(&viewer.drawings);
            assert!(
                !text.contains("<!--"),
                "{name}: a mark is left in the picture"
            );
        }
    }
}
