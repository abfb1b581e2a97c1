//! Reading a large TOML record a part at a time, so that its memory stays a small
//! multiple of its size.
//!
//! The toml crate holds a whole document (every token, every value with its span) before
//! serde reads it: about 57 times the text. A record is mostly `[[move]]` tables, so a
//! large one is cut before `[[move]]` headers into parts of some 64 KiB, each part is
//! read on its own, and the moves are put together in order. That is the same record as
//! reading the whole text whenever every part reads and each top-level table is in one
//! part; otherwise (an error anywhere, a table split across parts, multi-line strings, in
//! which a `[[move]]` line could be text) the caller reads the whole text, so errors are
//! reported exactly as for a small record.

use serde::Deserialize;

use super::format::{Expect, GameHeader, Move, Record};

/// Records up to this size are read whole.
pub const WHOLE_UP_TO: usize = 256 * 1024;

/// The size of a part, at least (each part ends before a `[[move]]` header).
const PART: usize = 64 * 1024;

/// What one part may hold: the record's tables, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Part {
    #[serde(default, deserialize_with = "game_table")]
    game: Option<GameHeader>,
    #[serde(rename = "move", default)]
    moves: Vec<Move>,
    #[serde(default)]
    expect: Option<Expect>,
}

/// `[game]`, a table only (see [`super::format::table_only`]).
fn game_table<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<GameHeader>, D::Error> {
    super::format::table_only(d).map(Some)
}

/// The record in `source`, read a part at a time; `None` when it must be read whole (it
/// is small, or something in it does not read part by part).
pub fn read_in_parts(source: &str) -> Option<Record> {
    if source.len() <= WHOLE_UP_TO || source.contains("\"\"\"") || source.contains("'''") {
        return None;
    }
    let mut cuts = vec![0];
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        if at - cuts[cuts.len() - 1] >= PART && is_move_header(line) {
            cuts.push(at);
        }
        at += line.len();
    }
    cuts.push(source.len());
    let (mut game, mut expect, mut moves) = (None, None, Vec::new());
    for part in cuts.windows(2) {
        let part: Part = toml::from_str(&source[part[0]..part[1]]).ok()?;
        // A table in two parts: let the whole text say what is wrong.
        if let Some(g) = part.game
            && game.replace(g).is_some()
        {
            return None;
        }
        if let Some(e) = part.expect
            && expect.replace(e).is_some()
        {
            return None;
        }
        moves.extend(part.moves);
    }
    Some(Record {
        game: game?,
        moves,
        expect,
    })
}

/// Whether `line` is a `[[move]]` header (spaces and a comment allowed).
fn is_move_header(line: &str) -> bool {
    let line = line.split('#').next().unwrap_or_default().trim();
    line.strip_prefix("[[")
        .and_then(|rest| rest.strip_suffix("]]"))
        .is_some_and(|key| key.trim() == "move")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long road (see [`crate::fixtures::long_road_record`]) with comments and spaces
    /// in some `[[move]]` headers and an `[expect]` after the moves.
    fn road(n: usize) -> String {
        let text = crate::fixtures::long_road_record(n)
            .replace("[[move]]\npass", "[[ move ]]  # a pass\npass");
        format!("# a long road\n{text}\n[expect]\nscores = {{ Alice = 0, Bob = 0 }}\n")
    }

    #[test]
    fn a_large_record_read_in_parts_is_the_record_read_whole() {
        let text = road(8000);
        assert!(text.len() > 2 * WHOLE_UP_TO);
        let parts = read_in_parts(&text).expect("read in parts");
        let whole: Record = toml::from_str(&text).expect("read whole");
        assert_eq!(parts.moves.len(), 16_000);
        assert_eq!(parts, whole);
    }

    #[test]
    fn what_does_not_read_in_parts_is_left_to_the_whole_text() {
        let text = road(8000);
        // Small: read whole.
        assert!(read_in_parts(&road(10)).is_none());
        // An error in the middle.
        let bad = text.replacen("rotation = 0\n", "rotation = \"x\"\n", 3000);
        assert!(read_in_parts(&bad).is_none());
        // A second [game] table, far from the first.
        let twice = format!("{text}\n[game]\nplayers = [\"Eve\"]\n");
        assert!(read_in_parts(&twice).is_none());
        // A table of [game] defined after the moves: the whole text reads it.
        let later = format!("{text}\n[game.rules]\n\"russian-promos.sets\" = 2013\n");
        assert!(read_in_parts(&later).is_none());
        // Multi-line strings.
        let long = format!("{text}\n# '''\n");
        assert!(read_in_parts(&long).is_none());
    }

    #[test]
    fn move_headers_are_found_with_spaces_and_comments() {
        assert!(is_move_header("[[move]]\n"));
        assert!(is_move_header("  [[ move ]]  # the 3rd\n"));
        assert!(!is_move_header("[[moves]]\n"));
        assert!(!is_move_header("[move]\n"));
        assert!(!is_move_header("place = \"[[move]]\"\n"));
    }
}
