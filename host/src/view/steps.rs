//! A record replayed one move at a time: what the viewer shows after each move.

use carc_core::catalog::Catalog;
use carc_core::engine::{Event, Game};
use carc_core::record::{self, Loaded, MoveFailure, describe_move};
use carc_core::rules::Rules;
use carc_core::turnlog;
use serde::Serialize;

use crate::render::board::{OPEN_MARK, TILES_MARK, TileDrawings, board_document_with};
use crate::render::looks::Looks;

/// The whole game as the viewer steps through it.
#[derive(Clone, Debug, Serialize)]
pub struct Viewer {
    /// What the page is about (the record's file name).
    pub title: String,
    /// The player names in turn order.
    pub players: Vec<String>,
    /// Step 0 is the game before any move; step k the game after move k.
    pub steps: Vec<Step>,
    /// The drawings of the placed tiles and open squares, one line each, which the
    /// boards share.
    #[serde(skip)]
    pub drawings: Vec<String>,
    /// What went wrong with an expansion while the record was played (a panic that
    /// disabled it, a command the engine refused): the page shows the game all the same.
    #[serde(skip)]
    pub faults: Vec<String>,
}

/// The game at one step.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    /// `Before the first move`, or `Move 3 of 40, Alice: place = "base:W", ...`.
    pub label: String,
    /// Whose turn it is (`Turn 4: Bob to play`), or who won.
    pub turn: String,
    /// The seat whose decision is pending (none once the game is over).
    pub current: Option<usize>,
    /// Every player's score, in turn order.
    pub scores: Vec<i32>,
    /// The turn-log lines of this move.
    pub log: Vec<LogLine>,
    /// The board as SVG, its tiles' lines kept apart.
    #[serde(skip)]
    pub board: Board,
}

/// A board as SVG, with its tiles' and open squares' lines kept apart (a game's boards
/// share them).
#[derive(Clone, Debug, Default)]
pub struct Board {
    /// The lines before the open squares'.
    head: String,
    /// The open squares' lines: numbers into [`Viewer::drawings`], in order.
    open: Vec<u32>,
    /// The lines between the open squares' and the tiles'.
    middle: String,
    /// The tiles' lines: numbers into [`Viewer::drawings`], in order.
    tiles: Vec<u32>,
    /// The lines after the tiles'.
    tail: String,
}

impl Board {
    /// The board's lines, its tiles' and open squares' taken from `drawings`.
    pub fn lines<'a>(&'a self, drawings: &'a [String]) -> impl Iterator<Item = &'a str> {
        let drawn = |&t: &u32| drawings.get(t as usize).map_or("", String::as_str);
        self.head
            .split('\n')
            .chain(self.open.iter().map(drawn))
            .chain(self.middle.split('\n'))
            .chain(self.tiles.iter().map(drawn))
            .chain(self.tail.split('\n'))
    }

    /// The board as one text (`\n` between lines).
    pub fn text(&self, tiles: &[String]) -> String {
        self.lines(tiles).collect::<Vec<_>>().join("\n")
    }
}

/// One line of the turn log.
#[derive(Clone, Debug, Serialize)]
pub struct LogLine {
    /// The line as `carc play` prints it.
    pub text: String,
    /// The rule that decided a figure's capture or removal (`PD-6`), when the expansion
    /// that did it declares one for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// What that rule says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule_doc: Option<String>,
}

/// The most lines of tiles and open squares the boards of a game may list together
/// (each step lists its whole board): about 350 MB of memory to pack them. A straight
/// line of 3,000 roads (6,000 moves) takes about 27 million.
pub const MOST_BOARD_LINES: usize = 30_000_000;

/// Replays a record move by move, keeping what the viewer shows after each. The record's
/// `[expect]` is not checked (`carc replay` does that), except that a move it expects to
/// be rejected (`error_at`) ends the game shown, and `final = true` applies final
/// scoring after the last move, as `carc replay` does.
/// Why it cannot: the record is not valid (exit 2), a move is illegal (exit 1), or the
/// game is too long to draw every board of (more than [`MOST_BOARD_LINES`]; exit 2).
pub fn steps(loaded: &Loaded, catalog: &Catalog) -> Result<Viewer, MoveFailure> {
    steps_within(loaded, catalog, MOST_BOARD_LINES)
}

/// [`steps`], with at most `most_lines` lines of tiles and open squares in all boards.
fn steps_within(
    loaded: &Loaded,
    catalog: &Catalog,
    most_lines: usize,
) -> Result<Viewer, MoveFailure> {
    let mut game = record::setup_game(loaded, catalog).map_err(MoveFailure::Invalid)?;
    game.keep_log(true);
    let total = loaded.record.moves.len();
    // How kinds and markers look: one set for every board drawn.
    let looks = Looks::from_manifests(&game.rules.manifests);
    // Each placed tile is drawn once for the whole game, its lines kept apart.
    let mut drawings = TileDrawings::kept_apart();
    let mut steps = vec![snapshot(
        &mut game,
        &looks,
        &mut drawings,
        "Before the first move".into(),
    )];
    let mut player = name(&game, game.decider() as usize);
    let mut listed = 0;
    let mut too_long = None;
    record::play_moves(loaded, &mut game, total, |game, i| {
        if too_long.is_some() {
            // Too long to draw: the moves are still checked, as `carc replay` would.
            return;
        }
        let m = &loaded.record.moves[i];
        let label = format!("Move {} of {total}, {player}: {}", i + 1, describe_move(m));
        let step = snapshot(game, &looks, &mut drawings, label);
        listed += step.board.tiles.len() + step.board.open.len();
        if listed > most_lines {
            too_long = Some((i, step.board.tiles.len()));
            steps.clear();
            return;
        }
        steps.push(step);
        player = name(game, game.decider() as usize);
    })?;
    if let Some((i, tiles)) = too_long {
        return Err(MoveFailure::Invalid(
            carc_core::tiles::validate::Diagnostic::unlocated(
                &loaded.file,
                format!(
                    "this game is too long to view: by move {} of {total} its board already \
                     shows {tiles} tiles, and its boards, one a move, would take too much \
                     memory to draw (`carc render board --move N` draws the board after \
                     any move)",
                    i + 1
                ),
            ),
        ));
    }
    // The game after the last move, as `carc replay` checks it: the lines this adds (a
    // game ending without another decision, final scoring) belong to the last step.
    record::end_of_record(loaded, &mut game);
    if let Some(last) = steps.pop() {
        let mut end = snapshot(&mut game, &looks, &mut drawings, last.label);
        let mut log = last.log;
        log.append(&mut end.log);
        end.log = log;
        steps.push(end);
    }
    Ok(Viewer {
        title: loaded.file.clone(),
        players: game.state.players.iter().map(|p| p.name.clone()).collect(),
        steps,
        drawings: drawings.into_lines(),
        faults: game.faults_said(),
    })
}

/// The game now, with the turn-log lines since the last snapshot.
fn snapshot(game: &mut Game, looks: &Looks, drawings: &mut TileDrawings, label: String) -> Step {
    let events = game.take_log();
    let mut log = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let nobody = turnlog::scored_for_nobody(&game.rules, &game.state, &events, i);
        log.extend(nobody.map(|text| LogLine {
            text,
            rule: None,
            rule_doc: None,
        }));
        log.extend(log_line(&game.rules, game, e));
    }
    let state = &game.state;
    let (turn, current) = if game.is_over() {
        let winners: Vec<String> = state
            .winners()
            .iter()
            .map(|&p| name(game, p as usize))
            .collect();
        let text = match winners.as_slice() {
            [] => "Game over".to_string(),
            [one] => format!("Game over: {one} wins"),
            many => format!("Game over: {} share the win", turnlog::and_list(many)),
        };
        (text, None)
    } else {
        let seat = game.decider() as usize;
        let number = state.turn.number + u32::from(state.turn.over);
        (
            format!("Turn {number}: {} to play", name(game, seat)),
            Some(seat),
        )
    };
    Step {
        label,
        turn,
        current,
        scores: state.players.iter().map(|p| p.score).collect(),
        log,
        board: board(game, looks, drawings),
    }
}

/// The board now, its tiles' and open squares' lines kept apart.
fn board(game: &Game, looks: &Looks, drawings: &mut TileDrawings) -> Board {
    let text = board_document_with(game, looks, drawings).to_string();
    let tiles = drawings.take_last();
    let open = drawings.take_last_open();
    // Each mark is a line of its own in its layer's group; the tiles' layer follows the
    // open squares' (drawn under them).
    let (open_mark, tiles_mark) = (format!("\n{OPEN_MARK}\n"), format!("\n{TILES_MARK}\n"));
    let parts = text.split_once(&open_mark).and_then(|(head, rest)| {
        let (middle, tail) = rest.split_once(&tiles_mark)?;
        Some((head, middle, tail))
    });
    match parts {
        Some((head, middle, tail)) => Board {
            head: head.to_string(),
            tiles,
            middle: middle.to_string(),
            open,
            tail: tail.to_string(),
        },
        None => {
            debug_assert!(false, "a board's tiles are marked");
            // Never without its tiles: the whole picture, drawn again.
            Board {
                head: crate::render::board::board_document(game, looks).to_string(),
                ..Board::default()
            }
        }
    }
}

/// An event as a log line, with the rule that decided it where one is declared.
fn log_line(rules: &Rules, game: &Game, event: &Event) -> Option<LogLine> {
    let text = turnlog::describe(rules, &game.state, event)?;
    let why = match event {
        Event::FigureMoved { why: Some(w), .. } | Event::FigureReturned { why: Some(w), .. } => {
            Some(w.as_ref())
        }
        _ => None,
    };
    let found = why.and_then(|w| deciding_rule(rules, w));
    Some(LogLine {
        text,
        rule: found.map(|(number, _)| number.to_string()),
        rule_doc: found.map(|(_, doc)| doc.to_string()),
    })
}

/// The rule behind a figure's capture or removal: among the `[[rule]]`s the enabled
/// expansions declare at their decision points (`carc plan` lists them), the one whose
/// id is a word of the reason the event gives (`dragon` in "eaten by the dragon",
/// `vodyanoy` in "trapped by Vodyanoy"), with the rule number its description starts
/// with (`PD-6: the dragon eats ...`). The first in declaration order wins.
fn deciding_rule<'a>(rules: &'a Rules, why: &str) -> Option<(&'a str, &'a str)> {
    let words: Vec<String> = why
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    rules
        .manifests
        .iter()
        .flat_map(|m| &m.rules)
        .filter(|r| words.iter().any(|w| *w == r.id.to_lowercase()))
        .find_map(|r| rule_number(&r.doc).map(|n| (n, r.doc.as_str())))
}

/// The rule number a description starts with: `PD-6` of `PD-6: the dragon eats ...`.
pub fn rule_number(doc: &str) -> Option<&str> {
    let (head, _) = doc.split_once(':')?;
    is_rule_number(head).then_some(head)
}

/// Whether `text` is a rule number as docs/rules.md writes them: `BASE-4`, `PD-12`,
/// `PD-OPT-4`, `RP-3`, `X-2`.
pub fn is_rule_number(text: &str) -> bool {
    let mut parts = text.split('-');
    let prefix = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    let number = match rest.as_slice() {
        [n] => n,
        ["OPT", n] => n,
        _ => return false,
    };
    !prefix.is_empty()
        && prefix.chars().all(|c| c.is_ascii_uppercase())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
}

/// A seat's name.
fn name(game: &Game, seat: usize) -> String {
    game.state
        .players
        .get(seat)
        .map_or_else(|| format!("seat {seat}"), |p| p.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A base-game record (no plugin needed): a road loop.
    fn road_loop() -> Loaded {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/scenarios/base-06-road-loop.toml");
        record::load(&path).expect("the record loads")
    }

    #[test]
    fn a_game_too_long_to_draw_is_refused_with_the_move_it_reached() {
        let loaded = road_loop();
        let all = steps(&loaded, &Catalog::new()).expect("the record plays");
        let lines: Vec<usize> = all
            .steps
            .iter()
            .map(|s| s.board.tiles.len() + s.board.open.len())
            .collect();
        // Enough for every board but the last: the last move's board is one too many.
        let (sum, last) = (lines.iter().sum::<usize>(), lines.len() - 1);
        // (Step 0, before the first move, is not counted.)
        let budget = sum - lines[0] - 1;
        match steps_within(&loaded, &Catalog::new(), budget) {
            Err(MoveFailure::Invalid(d)) => {
                let text = d.to_string();
                assert!(
                    text.contains(&format!("too long to view: by move {last} of {last}")),
                    "{text}"
                );
            }
            other => panic!("{:?}", other.map(|v| v.steps.len())),
        }
        assert!(steps_within(&loaded, &Catalog::new(), budget + 1).is_ok());
    }

    #[test]
    fn boards_keep_tiles_and_open_squares_apart() {
        let loaded = road_loop();
        let viewer = steps(&loaded, &Catalog::new()).expect("the record plays");
        let last = viewer.steps.last().expect("steps").board.clone();
        // Every board's text around the kept-apart lines holds neither (each is drawn
        // once for the game, not again with every board).
        for step in &viewer.steps {
            let b = &step.board;
            for text in [&b.head, &b.middle, &b.tail] {
                assert!(!text.contains("data-open="), "{text}");
                assert!(!text.contains("data-layer=\"tiles\"><g"), "{text}");
            }
            assert!(!b.open.is_empty(), "a board has open squares");
        }
        let drawn = |n: &u32| viewer.drawings[*n as usize].as_str();
        assert!(
            last.open
                .iter()
                .map(drawn)
                .all(|l| l.contains("data-open="))
        );
        assert!(
            last.tiles
                .iter()
                .map(drawn)
                .all(|l| l.contains("data-tile="))
        );
        assert!(last.tiles.len() > 1, "{} tiles", last.tiles.len());
    }

    #[test]
    fn rule_numbers() {
        assert_eq!(rule_number("PD-6: the dragon eats"), Some("PD-6"));
        assert_eq!(rule_number("RP-11: x"), Some("RP-11"));
        assert_eq!(rule_number("PD-OPT-4: x"), Some("PD-OPT-4"));
        assert_eq!(rule_number("the dragon: x"), None);
        assert_eq!(rule_number("no colon"), None);
        assert!(!is_rule_number("PD-"));
        assert!(!is_rule_number("pd-6"));
    }
}
