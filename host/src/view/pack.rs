//! The boards of every step, packed: consecutive boards share most of their lines (the
//! tiles already placed), so each line is kept once and a board is a list of
//! runs of lines, `[first, count]`; and a line is the number of its text, each distinct
//! text kept once (a tile's drawing, a kilobyte, may follow other lines in other
//! boards). A whole game's boards then take about as much room as a few of them, instead
//! of one full picture per move.

use rustc_hash::FxHashMap as HashMap;

use serde::Serialize;

/// Boards as runs over one list of distinct lines.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Packed {
    /// Every distinct text of a line, once.
    pub texts: Vec<String>,
    /// Every line, once for each line it follows, in the order first met: the number of
    /// its text in `texts`.
    pub lines: Vec<u32>,
    /// Per board, the runs `[first, count]` of `lines` that make it, in order; the board
    /// is those lines joined with line breaks.
    pub boards: Vec<Vec<[u32; 2]>>,
}

/// Packs the boards, each given as its lines (read once, as they come).
pub fn pack_lines<'a, B>(boards: impl IntoIterator<Item = B>) -> Packed
where
    B: IntoIterator<Item = &'a str>,
{
    // A line is known by its text, the last line before it holding a digit (a position:
    // nearly unique in a board) and how far back that is, so that a board repeating a
    // stretch of another repeats a run of indices, not scattered ones (the same `</g>`
    // closes many groups). Lines are numbered from the last board back: a later board
    // holds an earlier one's tiles in the same order, so the earlier board is a few long
    // runs. Texts are numbered first (a text shared by many boards, as a tile's drawing
    // is, is read once), and keys made of those numbers.
    let mut texts = Texts::default();
    let boards: Vec<Vec<u32>> = boards
        .into_iter()
        .map(|b| b.into_iter().map(|line| texts.number(line)).collect())
        .collect();
    let mut index: HashMap<Key, u32> = HashMap::default();
    let mut packed = Packed {
        texts: texts.text.iter().map(|t| t.to_string()).collect(),
        ..Packed::default()
    };
    for board in boards.iter().rev() {
        let mut context = Context::default();
        for &line in board {
            index.entry(context.key(line, &texts)).or_insert_with(|| {
                packed.lines.push(line);
                (packed.lines.len() - 1) as u32
            });
        }
    }
    for board in &boards {
        let mut runs: Vec<[u32; 2]> = Vec::new();
        let mut context = Context::default();
        for &line in board {
            let i = index.get(&context.key(line, &texts)).copied().unwrap_or(0);
            match runs.last_mut() {
                Some(run) if run[0] + run[1] == i => run[1] += 1,
                _ => runs.push([i, 1]),
            }
        }
        packed.boards.push(runs);
    }
    packed
}

/// The distinct texts of the boards' lines, numbered.
#[derive(Default)]
struct Texts<'a> {
    /// By number: the text, and whether it holds a digit.
    text: Vec<&'a str>,
    digit: Vec<bool>,
    by_text: HashMap<&'a str, u32>,
    /// A text already met at this address (the same borrowed line, as a tile's drawing
    /// shared by every board is): its number, without reading the text again.
    by_place: HashMap<(usize, usize), u32>,
}

impl<'a> Texts<'a> {
    fn number(&mut self, line: &'a str) -> u32 {
        let place = (line.as_ptr() as usize, line.len());
        if let Some(&n) = self.by_place.get(&place) {
            return n;
        }
        let next = self.text.len() as u32;
        let n = *self.by_text.entry(line).or_insert(next);
        if n == next {
            self.text.push(line);
            self.digit.push(line.bytes().any(|b| b.is_ascii_digit()));
        }
        self.by_place.insert(place, n);
        n
    }
}

/// A line with its context: (the last line holding a digit, lines since, the line), as
/// text numbers.
type Key = (u32, u32, u32);

/// Walking a board's lines: the last one holding a digit and how far back it is.
struct Context {
    anchor: u32,
    since: u32,
}

impl Default for Context {
    fn default() -> Context {
        // No line yet: an anchor no text has.
        Context {
            anchor: u32::MAX,
            since: 0,
        }
    }
}

impl Context {
    /// The key of the next line.
    fn key(&mut self, line: u32, texts: &Texts) -> Key {
        let key = (self.anchor, self.since, line);
        if texts.digit[line as usize] {
            (self.anchor, self.since) = (line, 0);
        } else {
            self.since += 1;
        }
        key
    }
}

/// Board `k` back as text.
pub fn unpack(packed: &Packed, k: usize) -> Option<String> {
    let runs = packed.boards.get(k)?;
    let mut lines: Vec<&str> = Vec::new();
    for &[first, count] in runs {
        let (first, count) = (first as usize, count as usize);
        for &text in packed.lines.get(first..first + count)? {
            lines.push(packed.texts.get(text as usize)?);
        }
    }
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs the boards (`\n` separates lines).
    fn pack<'a>(boards: impl IntoIterator<Item = &'a str>) -> Packed {
        pack_lines(boards.into_iter().map(|b| b.split('\n')))
    }

    #[test]
    fn boards_come_back_as_they_were() {
        let boards = [
            "<svg>\na\nb\n</svg>",
            "<svg>\na\nb\nc\n</svg>",
            "",
            "x\n\ny",
        ];
        let packed = pack(boards);
        for (k, b) in boards.iter().enumerate() {
            assert_eq!(unpack(&packed, k).as_deref(), Some(*b));
        }
        assert_eq!(packed.lines.len(), 10);
        assert_eq!(packed.boards[0], vec![[4, 3], [9, 1]]);
        assert_eq!(unpack(&packed, 9), None);
    }

    #[test]
    fn an_earlier_board_is_a_few_runs_of_a_later_one() {
        // Two tiles, then a third: the groups repeat `</g>` lines, and the scores change.
        let tile = |x: u32| format!("<g x=\"{x}\">\n<rect x=\"{x}\"/>\n</g>");
        let board = |n: u32, score: u32| {
            let tiles: Vec<String> = (0..n).map(|x| tile(x * 100)).collect();
            format!("<svg>\n{}\n<text>{score}</text>\n</svg>", tiles.join("\n"))
        };
        let boards = [board(2, 0), board(3, 4)];
        let packed = pack(boards.iter().map(String::as_str));
        for (k, b) in boards.iter().enumerate() {
            assert_eq!(unpack(&packed, k).as_deref(), Some(b.as_str()));
        }
        // `<svg>` and both tiles are one run; the score and `</svg>` another.
        assert_eq!(packed.boards[0].len(), 2, "{:?}", packed.boards[0]);
        assert_eq!(packed.boards[1].len(), 1, "{:?}", packed.boards[1]);
        // The later board's 12 lines, then the earlier one's score and the `</svg>` after it.
        assert_eq!(packed.lines.len(), 12 + 2);
    }

    #[test]
    fn a_text_is_kept_once_wherever_its_lines_follow() {
        // The start tile's drawing follows a heading that changes at every move (the
        // board's size), so it is a new line in every board, but one text.
        let start = "<g data-tile=\"base:D\">a kilobyte of drawing</g>";
        let boards: Vec<String> = (1..=5)
            .map(|w| format!("<svg width=\"{w}00\">\n{start}\n</svg>"))
            .collect();
        let packed = pack(boards.iter().map(String::as_str));
        for (k, b) in boards.iter().enumerate() {
            assert_eq!(unpack(&packed, k).as_deref(), Some(b.as_str()));
        }
        let kept = packed.texts.iter().filter(|t| t.as_str() == start).count();
        assert_eq!(kept, 1, "{:?}", packed.texts);
        // Five headings, one drawing, one `</svg>`: each text once.
        assert_eq!(packed.texts.len(), 7);
    }
}
