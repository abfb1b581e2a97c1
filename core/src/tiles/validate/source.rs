//! Byte offsets to lines and columns, and rustc-like snippets with a caret line.

use std::ops::Range;

/// Width a tab is shown with in snippets.
const TAB_WIDTH: usize = 4;
/// Longest line shown whole in a snippet, in characters; longer ones are cut.
const MAX_SHOWN: usize = 150;
/// Marks where a long line was cut.
const ELLIPSIS: &str = "...";

/// Line starts of a source text, to turn byte spans into positions and snippets.
///
/// Each position costs work bounded by the shown window, plus counting the characters
/// before it on its line; that count continues from the previous position when it is on
/// the same line further on, so positions asked in order cost time linear in the text
/// however many there are (a line holding 100,000 errors).
pub(crate) struct SourceMap<'a> {
    src: &'a str,
    /// Byte offset where each line starts; always starts with 0.
    line_starts: Vec<usize>,
    /// The last column counted: (line index, byte offset, characters before it).
    counted: std::cell::Cell<(usize, usize, usize)>,
}

/// A resolved position: 1-based line and column (in characters) plus the snippet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    pub line: usize,
    pub column: usize,
    pub snippet: String,
}

impl<'a> SourceMap<'a> {
    pub(crate) fn new(src: &'a str) -> SourceMap<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        SourceMap {
            src,
            line_starts,
            counted: std::cell::Cell::new((0, 0, 0)),
        }
    }

    /// The largest char boundary not after `offset` (clamped to the text).
    fn floor(&self, offset: usize) -> usize {
        let mut o = offset.min(self.src.len());
        while !self.src.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    /// 0-based line index holding byte `offset`.
    fn line_index(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// The text of 0-based line `index`, without its line break.
    fn line_text(&self, index: usize) -> (usize, &'a str) {
        let start = self
            .line_starts
            .get(index)
            .copied()
            .unwrap_or(self.src.len());
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.src.len(), |next| next - 1);
        let text = self.src.get(start..end.max(start)).unwrap_or("");
        (start, text.strip_suffix('\r').unwrap_or(text))
    }

    /// The 1-based line holding byte `offset`.
    pub(crate) fn line(&self, offset: usize) -> usize {
        self.line_index(offset) + 1
    }

    /// The number of characters in `text[..at]` of line `index`, counted on from the
    /// previous call when it was on the same line, before `at`.
    fn chars_before(&self, index: usize, text: &str, at: usize) -> usize {
        let (line, from, count) = self.counted.get();
        let (from, count) = if line == index && from <= at {
            (from, count)
        } else {
            (0, 0)
        };
        let total = count + text.get(from..at).map_or(0, |t| t.chars().count());
        self.counted.set((index, at, total));
        total
    }

    /// Position and snippet of `span`: the line holding its start and carets under the
    /// spanned text (to the end of that line if the span goes on).
    pub(crate) fn position(&self, span: Range<usize>) -> Position {
        let start = self.floor(span.start);
        let end = self.floor(span.end.max(start));
        let index = self.line_index(start);
        let (line_start, text) = self.line_text(index);
        let in_line = floor_in(text, start.saturating_sub(line_start).min(text.len()));
        let column = self.chars_before(index, text, in_line) + 1;
        let under_end = floor_in(
            text,
            end.saturating_sub(line_start).clamp(in_line, text.len()),
        );

        let line_no = index + 1;
        let gutter = " ".repeat(line_no.to_string().len());
        let (shown, pad, carets) = window(text, in_line, under_end);
        let body = if shown.is_empty() {
            String::new()
        } else {
            format!(" {shown}")
        };
        let snippet = format!(
            "{gutter} |\n{line_no} |{body}\n{gutter} | {}{}",
            " ".repeat(pad),
            "^".repeat(carets)
        );
        Position {
            line: line_no,
            column,
            snippet,
        }
    }
}

/// The largest char boundary of `text` not after `at`.
fn floor_in(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The byte offset `n` characters before `at` in `text` (or its start).
fn back(text: &str, at: usize, n: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .take(n)
        .last()
        .map_or(at, |(i, _)| i)
}

/// The byte offset `n` characters after `at` in `text` (or its end).
fn forward(text: &str, at: usize, n: usize) -> usize {
    text[at..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| at + i)
}

/// What to show of a line: the text (tabs expanded, a long line cut around the spanned
/// bytes `start..end` with `...`), the caret indent and the number of carets. The work
/// is bounded by [`MAX_SHOWN`], however long the line.
fn window(text: &str, start: usize, end: usize) -> (String, usize, usize) {
    let (from, to) = if forward(text, 0, MAX_SHOWN) == text.len() {
        (0, text.len())
    } else {
        let from = back(text, start, MAX_SHOWN / 4);
        let to = forward(text, from, MAX_SHOWN);
        // Near the end of the line, show a full window that ends there.
        (
            if to == text.len() {
                back(text, to, MAX_SHOWN)
            } else {
                from
            },
            to,
        )
    };
    let mut shown = String::new();
    let mut pad = 0;
    if from > 0 {
        shown.push_str(ELLIPSIS);
        pad += ELLIPSIS.len();
    }
    shown.push_str(&expand_tabs(&text[from..to]));
    if to < text.len() {
        shown.push_str(ELLIPSIS);
    }
    let start = start.clamp(from, to);
    pad += display_width(&text[from..start]);
    let end = end.clamp(start, to);
    let carets = display_width(&text[start..end]).max(1);
    (shown, pad, carets)
}

fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| if c == '\t' { TAB_WIDTH } else { 1 })
        .sum()
}

fn expand_tabs(text: &str) -> String {
    text.replace('\t', &" ".repeat(TAB_WIDTH))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_in_characters() {
        let src = "a = 1\nbé = \"x\"\n";
        let map = SourceMap::new(src);
        let p = map.position(12..15);
        assert_eq!((p.line, p.column), (2, 6));
        assert_eq!(p.snippet, "  |\n2 | bé = \"x\"\n  |      ^^^");
    }

    #[test]
    #[allow(clippy::reversed_empty_ranges)] // A reversed span must not panic either.
    fn spans_past_the_end_or_inside_a_char_do_not_panic() {
        let src = "é";
        let map = SourceMap::new(src);
        for span in [0..0, 1..1, 2..2, 5..9, 1..0] {
            let p = map.position(span);
            assert_eq!(p.line, 1);
        }
        let map = SourceMap::new("");
        assert_eq!(map.position(3..4).line, 1);
    }

    #[test]
    fn long_lines_are_cut_around_the_span() {
        let src = format!("x = [{}\"here\"{}]", "1, ".repeat(100), ", 2".repeat(100));
        let start = src.find("\"here").unwrap_or(0);
        let p = SourceMap::new(&src).position(start..start + 6);
        assert_eq!((p.line, p.column), (1, start + 1));
        let lines: Vec<&str> = p.snippet.lines().collect();
        assert!(lines[1].starts_with("1 | ...") && lines[1].ends_with("..."));
        assert!(lines[1].chars().count() < 170);
        let caret = lines[2].find('^').unwrap_or(0);
        assert_eq!(&lines[1][caret..caret + 6], "\"here\"");
        assert_eq!(lines[2].matches('^').count(), 6);
    }
}
