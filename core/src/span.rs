//! Source locations: finding the text behind a path (`game.draw[3]`) in a TOML or JSON
//! document. Turning the span into line, column and a caret snippet is
//! [`crate::tiles::validate::Diagnostic::located`]'s job.

use std::ops::Range;

/// One step of a path into a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    /// A table key.
    Key(String),
    /// An array index.
    Index(usize),
}

impl From<&str> for Seg {
    fn from(s: &str) -> Seg {
        Seg::Key(s.to_string())
    }
}

impl From<usize> for Seg {
    fn from(i: usize) -> Seg {
        Seg::Index(i)
    }
}

/// The span of the key that ends `path` in a TOML document (`path`'s value, or the
/// closest enclosing value found, when the key is not).
pub fn toml_key_span(src: &str, path: &[Seg]) -> Option<Range<usize>> {
    let Some((Seg::Key(last), parents)) = path.split_last() else {
        return toml_span(src, path);
    };
    let doc = toml_edit::Document::parse(src.to_string()).ok()?;
    let parent = parents
        .iter()
        .try_fold(doc.as_item(), |item, seg| match seg {
            Seg::Key(k) => item.get(k.as_str()),
            Seg::Index(i) => item.get(*i),
        });
    parent
        .and_then(|item| item.as_table_like()?.get_key_value(last)?.0.span())
        .or_else(|| toml_span(src, path))
}

/// The span of the value at `path` in a TOML document (the closest enclosing value found).
pub fn toml_span(src: &str, path: &[Seg]) -> Option<Range<usize>> {
    let doc = toml_edit::Document::parse(src.to_string()).ok()?;
    let mut item: &toml_edit::Item = doc.as_item();
    let mut best = None;
    for seg in path {
        let next = match (seg, item) {
            (Seg::Key(k), toml_edit::Item::Table(t)) => {
                if let Some((key, _)) = t.get_key_value(k) {
                    best = key.span().or(best);
                }
                t.get(k)
            }
            (Seg::Key(k), toml_edit::Item::Value(toml_edit::Value::InlineTable(t))) => {
                if let Some((key, _)) = t.get_key_value(k) {
                    best = key.span().or(best);
                }
                t.get(k).map(|_| &item[k.as_str()])
            }
            (Seg::Index(i), toml_edit::Item::ArrayOfTables(a)) => a.get(*i).map(|_| &item[*i]),
            (Seg::Index(i), toml_edit::Item::Value(toml_edit::Value::Array(a))) => {
                a.get(*i).map(|_| &item[*i])
            }
            _ => None,
        };
        match next {
            Some(n) => {
                item = n;
                if let Some(s) = item_span(item) {
                    best = Some(s);
                }
            }
            None => break,
        }
    }
    best
}

fn item_span(item: &toml_edit::Item) -> Option<Range<usize>> {
    match item {
        toml_edit::Item::Value(v) => v.span(),
        toml_edit::Item::Table(t) => t.span(),
        toml_edit::Item::ArrayOfTables(a) => a.span(),
        toml_edit::Item::None => None,
    }
}

/// The span of the value at `path` in a JSON document (the closest enclosing value found).
pub fn json_span(src: &str, path: &[Seg]) -> Option<Range<usize>> {
    json_scan(src, path, false)
}

/// The span of the key that ends `path` in a JSON document, quotes included (the closest
/// enclosing value found, when it is not there).
pub fn json_key_span(src: &str, path: &[Seg]) -> Option<Range<usize>> {
    json_scan(src, path, true)
}

fn json_scan(src: &str, path: &[Seg], key: bool) -> Option<Range<usize>> {
    let mut p = JsonScan {
        key,
        ..JsonScan::new(src)
    };
    let mut best = None;
    p.value_at(path, &mut best);
    best
}

/// The span of the innermost value of a JSON document that ends at `end` (where the
/// reader stops after a value of the wrong type: its last byte's end), to underline the
/// whole value rather than its last character.
pub fn json_value_ending_at(src: &str, end: usize) -> Option<Range<usize>> {
    let mut p = JsonScan {
        ends: Some(end),
        ..JsonScan::new(src)
    };
    p.value_at(&[], &mut None);
    p.ending
}

/// The first key given twice in one object of a JSON document (escapes decoded): the key
/// and the spans of its two occurrences, quotes included (serde would keep the last
/// silently).
pub fn json_duplicate_key(src: &str) -> Option<(String, Range<usize>, Range<usize>)> {
    let mut p = JsonScan {
        track_keys: true,
        ..JsonScan::new(src)
    };
    p.value_at(&[], &mut None);
    p.duplicate
}

struct JsonScan<'a> {
    b: &'a [u8],
    i: usize,
    /// The first duplicate key found, when tracking keys.
    duplicate: Option<(String, Range<usize>, Range<usize>)>,
    track_keys: bool,
    /// How many arrays and objects hold the value being scanned.
    depth: usize,
    /// Whether the span wanted is the last key of the path rather than its value.
    key: bool,
    /// When set, the span wanted is that of the innermost value ending there (its
    /// last byte's end), found as `ending`.
    ends: Option<usize>,
    ending: Option<Range<usize>>,
}

/// Deeper than this, a scan gives up (the JSON reader refuses such nesting too, with its
/// own error), so that no input can overflow the stack.
const MAX_JSON_DEPTH: usize = 256;

impl<'a> JsonScan<'a> {
    /// A scan of `src` from its start that looks for nothing yet.
    fn new(src: &'a str) -> JsonScan<'a> {
        JsonScan {
            b: src.as_bytes(),
            i: 0,
            duplicate: None,
            track_keys: false,
            depth: 0,
            key: false,
            ends: None,
            ending: None,
        }
    }

    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    /// Scans one value; records the span of the deepest value along `path`.
    fn value_at(&mut self, path: &[Seg], best: &mut Option<Range<usize>>) -> Option<()> {
        if self.depth >= MAX_JSON_DEPTH {
            return None;
        }
        self.depth += 1;
        self.ws();
        let start = self.i;
        let scanned = self.nested_value_at(path, best);
        self.depth -= 1;
        if scanned.is_some() && self.ending.is_none() && self.ends == Some(self.i) {
            self.ending = Some(start..self.i);
        }
        scanned
    }

    fn nested_value_at(&mut self, path: &[Seg], best: &mut Option<Range<usize>>) -> Option<()> {
        self.ws();
        let start = self.i;
        match *self.b.get(self.i)? {
            b'{' => {
                self.i += 1;
                let mut keys: std::collections::BTreeMap<std::borrow::Cow<str>, Range<usize>> =
                    Default::default();
                loop {
                    self.ws();
                    if *self.b.get(self.i)? == b'}' {
                        self.i += 1;
                        break;
                    }
                    let ks = self.i;
                    self.string()?;
                    let bytes = self.b;
                    let quoted = std::str::from_utf8(&bytes[ks..self.i]).ok()?;
                    // The key as the reader sees it: escapes (`\u0061`) decoded.
                    let key: std::borrow::Cow<str> = if quoted.contains('\\') {
                        serde_json::from_str::<String>(quoted).ok()?.into()
                    } else {
                        quoted[1..quoted.len() - 1].into()
                    };
                    let key_span = ks..self.i;
                    if self.track_keys {
                        if let Some(first) = keys.get(&key) {
                            self.duplicate = Some((key.to_string(), first.clone(), key_span));
                            return None;
                        }
                        keys.insert(key.clone(), key_span.clone());
                    }
                    self.ws();
                    if *self.b.get(self.i)? != b':' {
                        return None;
                    }
                    self.i += 1;
                    let hit = matches!(path.first(), Some(Seg::Key(k)) if *k == key);
                    if hit && self.key && path.len() == 1 {
                        *best = Some(key_span);
                        self.value_at(&[], &mut None)?;
                    } else if hit {
                        self.value_at(&path[1..], best)?;
                    } else {
                        self.value_at(&[], &mut None)?;
                    }
                    self.ws();
                    match *self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b'}' => {
                            self.i += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut n = 0;
                loop {
                    self.ws();
                    if *self.b.get(self.i)? == b']' {
                        self.i += 1;
                        break;
                    }
                    let hit = matches!(path.first(), Some(Seg::Index(k)) if *k == n);
                    if hit {
                        self.value_at(&path[1..], best)?;
                    } else {
                        self.value_at(&[], &mut None)?;
                    }
                    n += 1;
                    self.ws();
                    match *self.b.get(self.i)? {
                        b',' => self.i += 1,
                        b']' => {
                            self.i += 1;
                            break;
                        }
                        _ => return None,
                    }
                }
            }
            b'"' => self.string()?,
            _ => {
                while self.i < self.b.len() && !b",]} \t\r\n".contains(&self.b[self.i]) {
                    self.i += 1;
                }
            }
        }
        if best.as_ref().is_none_or(|b| b.start <= start) {
            *best = Some(start..self.i);
        }
        Some(())
    }

    fn string(&mut self) -> Option<()> {
        if *self.b.get(self.i)? != b'"' {
            return None;
        }
        self.i += 1;
        while *self.b.get(self.i)? != b'"' {
            if self.b[self.i] == b'\\' {
                self.i += 1;
            }
            self.i += 1;
        }
        self.i += 1;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_values_in_toml_and_json() {
        let t = "[game]\nplayers = [\"A\", \"B\"]\n\n[[move]]\npass = true\n";
        let s = toml_span(t, &["game".into(), "players".into(), 1.into()]).unwrap();
        assert_eq!(&t[s], "\"B\"");
        let s = toml_span(t, &["move".into(), 0.into(), "pass".into()]).unwrap();
        assert_eq!(&t[s], "true");
        let j = "{\"game\": {\"players\": [\"A\", \"B\"]},\n \"move\": [{\"pass\": true}]}";
        let s = json_span(j, &["game".into(), "players".into(), 1.into()]).unwrap();
        assert_eq!(&j[s], "\"B\"");
        let s = json_span(j, &["move".into(), 0.into(), "pass".into()]).unwrap();
        assert_eq!(&j[s], "true");
    }

    #[test]
    fn finds_keys_in_toml_and_json() {
        let path: [Seg; 3] = ["expect".into(), "pd".into(), "xyz".into()];
        for t in [
            "[expect.pd]\nxyz = 1\n",
            "[expect]\npd = { xyz = 1 }\n",
            "[expect]\n\"pd\".xyz = 1\n",
        ] {
            let s = toml_key_span(t, &path).unwrap_or_else(|| panic!("{t}"));
            assert_eq!(&t[s], "xyz", "{t}");
        }
        let j = "{\"expect\": {\"pd\": {\"n\": 2, \"xyz\": 1}}}";
        let s = json_key_span(j, &path).unwrap();
        assert_eq!(&j[s], "\"xyz\"");
        // A key not there: the closest enclosing value.
        let s = json_key_span(j, &["expect".into(), "pd".into(), "abc".into()]).unwrap();
        assert_eq!(&j[s], "{\"n\": 2, \"xyz\": 1}");
        let t = "[expect.pd]\nn = 2\n";
        assert!(toml_key_span(t, &["expect".into(), "pd".into(), "abc".into()]).is_some());
        // A key written with escapes is the key it decodes to.
        let j = "{\"expect\": {\"pd\": {\"x\\u0079z\": 1}}}";
        let s = json_key_span(j, &path).unwrap();
        assert_eq!(&j[s], "\"x\\u0079z\"");
    }

    #[test]
    fn a_key_given_twice_is_found_through_its_escapes() {
        let j = "{\"a\": {\"dragon\": 1,\n \"dr\\u0061gon\": 2}}";
        let (key, first, second) = json_duplicate_key(j).expect("the same key twice");
        assert_eq!(key, "dragon");
        assert_eq!(&j[first], "\"dragon\"");
        assert_eq!(&j[second], "\"dr\\u0061gon\"");
        assert_eq!(json_duplicate_key("{\"a\": 1, \"b\": {\"a\": 2}}"), None);
    }
}
