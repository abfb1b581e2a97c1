//! Every text in a record is printable: a player's name, a tile id or a key holding a
//! control character (a line break, an escape) or a character that turns text around
//! would print as something else in the turn log and in every message quoting it (a name
//! with a line break can forge a line of the final scores); and short enough to print
//! whole.

use crate::span::Seg;

use super::format::{FeatureRef, Record};

/// Whether a character may stand in a record's text: no control character (line
/// breaks, tabs, escapes, delete, and the line and paragraph separators U+2028 and
/// U+2029) and no embedding, override or isolate of the text's
/// direction (U+202A to U+202E, U+2066 to U+2069), which reorder what follows. (Joiners
/// and direction marks, which names in some scripts need, are printable.)
pub fn printable(c: char) -> bool {
    !(c.is_control()
        || c == '\u{2028}'
        || c == '\u{2029}'
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c))
}

/// The most characters of a name, an id or a key in a record (each is printed whole
/// in messages and in the turn log).
pub const LONGEST: usize = 1000;

/// A text that is not printable in a record: where it is, whether the key itself (not
/// its value) holds it, and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct Unprintable {
    /// The path to the value (or key).
    pub path: Vec<Seg>,
    /// Whether the key at the end of `path` holds it.
    pub in_key: bool,
    /// The first character that is not printable (`None`: the text is longer than
    /// [`LONGEST`]).
    pub found: Option<char>,
}

impl Unprintable {
    /// What is wrong with one text, if anything (its place left empty: `path` is empty).
    pub fn in_text(text: &str) -> Option<Unprintable> {
        let found = match text.chars().find(|&c| !printable(c)) {
            Some(c) => Some(c),
            None if text.chars().count() > LONGEST => None,
            None => return None,
        };
        Some(Unprintable {
            path: Vec::new(),
            in_key: false,
            found,
        })
    }

    /// What is wrong, in words: "holds a line break", "is longer than ...".
    pub fn what(&self) -> String {
        match self.found {
            Some(c) => format!("holds {}", Self::character(c)),
            None => "is too long".into(),
        }
    }

    /// The rule the text breaks.
    pub fn rule(&self) -> &'static str {
        match self.found {
            Some(_) => "names, ids and keys in a record are printable text",
            None => "names, ids and keys in a record are at most 1,000 characters long",
        }
    }

    /// A character that is not printable, in words.
    fn character(c: char) -> String {
        match c {
            '\n' => "a line break".into(),
            '\r' => "a carriage return".into(),
            '\t' => "a tab".into(),
            '\u{1b}' => "an escape character".into(),
            c if c.is_control() => format!("the control character U+{:04X}", c as u32),
            c => format!(
                "the character U+{:04X}, which reorders the text after it",
                c as u32
            ),
        }
    }
}

/// The first text of a record that is not printable, in the record's order (game,
/// moves, expectations).
pub fn unprintable(record: &Record) -> Option<Unprintable> {
    let found = Found::default();
    let (path, in_key) = where_unprintable(record, &found)?;
    Some(Unprintable {
        path,
        in_key,
        found: found.0.get(),
    })
}

/// What was last found wrong with a text (see [`Unprintable::found`]).
#[derive(Default)]
struct Found(std::cell::Cell<Option<char>>);

impl Found {
    /// Whether `text` holds a character that is not printable, or is too long (noted).
    fn in_text(&self, text: &str) -> bool {
        match Unprintable::in_text(text) {
            Some(u) => {
                self.0.set(u.found);
                true
            }
            None => false,
        }
    }
}

/// Where the first text that is not printable is, and whether a key holds it.
fn where_unprintable(record: &Record, found: &Found) -> Option<(Vec<Seg>, bool)> {
    let bad = |text: &str| found.in_text(text);
    let at = |path: &[Seg]| path.to_vec();
    let game = &record.game;
    let list = |name: &str, items: &[String]| {
        items
            .iter()
            .position(|t| bad(t))
            .map(|i| (at(&["game".into(), name.into(), i.into()]), false))
    };
    if let Some(found) = list("expansions", &game.expansions)
        .or_else(|| list("players", &game.players))
        .or_else(|| list("draw", &game.draw))
    {
        return Some(found);
    }
    for (key, value) in &game.rules {
        let in_key = bad(key);
        if in_key || bad(value) {
            return Some((
                at(&["game".into(), "rules".into(), key.as_str().into()]),
                in_key,
            ));
        }
    }
    for (i, m) in record.moves.iter().enumerate() {
        let here = |key: &str| vec![Seg::from("move"), Seg::from(i), Seg::from(key)];
        for (key, text) in [("place", &m.place), ("dragon", &m.dragon)] {
            if text.as_deref().is_some_and(bad) {
                return Some((here(key), false));
            }
        }
        let port = |r: &Option<FeatureRef>| r.as_ref().is_some_and(|r| bad(&r.2));
        for (key, r) in [
            ("follower", &m.follower),
            ("fairy", &m.fairy),
            ("princess", &m.princess),
        ] {
            if port(r) {
                let mut path = here(key);
                path.push(2.into());
                return Some((path, false));
            }
        }
        for (key, value) in &m.other {
            if bad(key) {
                return Some((here(key), true));
            }
            if let Some(found) = in_json(value, here(key), found) {
                return Some(found);
            }
        }
    }
    let expect = record.expect.as_ref()?;
    let players = [
        ("scores", &expect.scores),
        ("supply", &expect.supply),
        ("trapped", &expect.trapped),
    ];
    for (table, names) in players {
        if let Some(name) = names.iter().flat_map(|n| n.keys()).find(|n| bad(n)) {
            return Some((
                at(&["expect".into(), table.into(), name.as_str().into()]),
                true,
            ));
        }
    }
    if let Some(i) = expect.winners.iter().flatten().position(|n| bad(n)) {
        return Some((at(&["expect".into(), "winners".into(), i.into()]), false));
    }
    for (key, value) in &expect.expansions {
        let path = vec![Seg::from("expect"), Seg::from(key.as_str())];
        if bad(key) {
            return Some((path, true));
        }
        if let Some(found) = in_json(value, path, found) {
            return Some(found);
        }
    }
    None
}

/// The path to the first text in a JSON value (a key or a string) that is not printable,
/// and whether it is a key.
fn in_json(value: &serde_json::Value, path: Vec<Seg>, found: &Found) -> Option<(Vec<Seg>, bool)> {
    let bad = |text: &str| found.in_text(text);
    match value {
        serde_json::Value::String(s) if bad(s) => Some((path, false)),
        serde_json::Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            let mut p = path.clone();
            p.push(i.into());
            in_json(v, p, found)
        }),
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| {
            let mut p = path.clone();
            p.push(k.as_str().into());
            if bad(k) {
                Some((p, true))
            } else {
                in_json(v, p, found)
            }
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(toml: &str) -> Record {
        toml::from_str(toml).expect("a record")
    }

    #[test]
    fn the_first_unprintable_text_is_found_in_the_record_order_with_its_place() {
        let r = record(
            "[game]\nplayers = [\"A\", \"B\"]\nrules = { \"x.y\" = \"a\\tb\" }\n\
             [[move]]\nplace = \"base:U\\u202e\"\n\
             [expect]\nwinners = [\"A\\n\"]\n",
        );
        let u = unprintable(&r).expect("found");
        assert_eq!(u.path, ["game".into(), "rules".into(), Seg::from("x.y")]);
        assert!(!u.in_key);
        assert_eq!(u.what(), "holds a tab");
        let r = record(
            "[game]\nplayers = [\"A\"]\n[[move]]\nplace = \"base:U\\u202e\"\n[[move]]\n\"b\\u001b\" = 1\n",
        );
        let u = unprintable(&r).expect("found");
        assert_eq!(u.path, ["move".into(), Seg::from(0), "place".into()]);
        assert!(
            u.what().starts_with("holds the character U+202E"),
            "{}",
            u.what()
        );
        // A key inside an expansion's move value is a key too.
        let r = record("[game]\nplayers = [\"A\"]\n[[move]]\nfoo = { \"a\\u001b\" = 1 }\n");
        let u = unprintable(&r).expect("found");
        assert_eq!(
            u.path,
            ["move".into(), Seg::from(0), "foo".into(), "a\u{1b}".into()]
        );
        assert!(u.in_key);
        let r = record("[game]\nplayers = [\"A\"]\n[[move]]\n\"b\\u001b\" = 1\n");
        let u = unprintable(&r).expect("found");
        assert!(u.in_key);
        assert_eq!(u.what(), "holds an escape character");
        assert_eq!(
            unprintable(&record("[game]\nplayers = [\"Zoë\", \"中\"]\n")),
            None
        );
        let long = "x".repeat(LONGEST + 1);
        let u = unprintable(&record(&format!("[game]\nplayers = [\"A\", \"{long}\"]\n")))
            .expect("found");
        assert_eq!(u.path, ["game".into(), "players".into(), Seg::from(1)]);
        assert_eq!(u.what(), "is too long");
        let longest = "x".repeat(LONGEST);
        let r = record(&format!("[game]\nplayers = [\"{longest}\"]\n"));
        assert_eq!(unprintable(&r), None);
    }

    #[test]
    fn line_breaks_escapes_and_direction_marks_are_not_printable() {
        for c in [
            '\n', '\r', '\t', '\u{1b}', '\u{7f}', '\u{85}', '\u{2028}', '\u{202e}', '\u{2066}',
        ] {
            assert!(!printable(c), "{c:?}");
        }
        // A joiner (Persian names need U+200C) and direction marks are printable.
        for c in [
            'A',
            'é',
            'ß',
            '中',
            ' ',
            '-',
            '\u{1f409}',
            '\u{200c}',
            '\u{200d}',
            '\u{200f}',
        ] {
            assert!(printable(c), "{c:?}");
        }
    }
}
