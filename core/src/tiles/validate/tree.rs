//! The parsed TOML document as JSON (for the schema) and paths back to its spans.

use std::fmt;
use std::ops::Range;

use serde_json::{Map, Value as Json};
use toml_edit::{Item, Table, Value};

/// One step of a path into the document: a key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// A path into the document, the JSON pointer of a value.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Path(pub Vec<Seg>);

impl Path {
    pub(crate) fn root() -> Path {
        Path(Vec::new())
    }

    pub(crate) fn key(&self, key: &str) -> Path {
        let mut p = self.clone();
        p.0.push(Seg::Key(key.to_string()));
        p
    }

    pub(crate) fn index(&self, index: usize) -> Path {
        let mut p = self.clone();
        p.0.push(Seg::Index(index));
        p
    }

    pub(crate) fn starts_with(&self, prefix: &Path) -> bool {
        self.0.starts_with(&prefix.0)
    }

    /// The last key on the path (the name of the value or of the array holding it).
    pub(crate) fn last_key(&self) -> Option<&str> {
        self.0.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
    }

    /// Whether the path ends in an array index.
    pub(crate) fn is_item(&self) -> bool {
        matches!(self.0.last(), Some(Seg::Index(_)))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in &self.0 {
            match s {
                Seg::Key(k) => write!(f, "/{k}")?,
                Seg::Index(i) => write!(f, "/{i}")?,
            }
        }
        Ok(())
    }
}

/// A node of the TOML tree.
#[derive(Clone, Copy)]
pub(crate) enum Node<'a> {
    Item(&'a Item),
    Value(&'a Value),
    Table(&'a Table),
}

impl<'a> Node<'a> {
    fn span(self) -> Option<Range<usize>> {
        match self {
            Node::Item(i) => i.span(),
            Node::Value(v) => v.span(),
            Node::Table(t) => t.span(),
        }
        .filter(|s| !s.is_empty() || s.start > 0)
    }

    fn child(self, seg: &Seg) -> Option<Node<'a>> {
        match (self, seg) {
            (Node::Item(Item::Table(t)) | Node::Table(t), Seg::Key(k)) => t.get(k).map(Node::Item),
            (Node::Item(Item::Value(v)) | Node::Value(v), s) => match (v, s) {
                (Value::InlineTable(t), Seg::Key(k)) => t.get(k).map(Node::Value),
                (Value::Array(a), Seg::Index(i)) => a.get(*i).map(Node::Value),
                _ => None,
            },
            (Node::Item(Item::ArrayOfTables(a)), Seg::Index(i)) => a.get(*i).map(Node::Table),
            _ => None,
        }
    }

    fn key_span(self, key: &str) -> Option<Range<usize>> {
        match self {
            Node::Item(Item::Table(t)) | Node::Table(t) => t.key(key).and_then(|k| k.span()),
            Node::Item(Item::Value(Value::InlineTable(t))) | Node::Value(Value::InlineTable(t)) => {
                t.key(key).and_then(|k| k.span())
            }
            _ => None,
        }
    }

    /// How the value is written, for messages: "a string", "an inline table", ...
    pub(crate) fn describe(self) -> String {
        let value = match self {
            Node::Item(Item::Value(v)) | Node::Value(v) => v,
            Node::Item(Item::Table(_)) | Node::Table(_) => return "a table".into(),
            Node::Item(Item::ArrayOfTables(_)) => return "an array of tables".into(),
            Node::Item(Item::None) => return "nothing".into(),
        };
        match value {
            Value::String(s) => format!("a string `{}`", shorten(s.value())),
            Value::Integer(i) => format!("an integer `{}`", i.value()),
            Value::Float(x) => format!("a float `{}`", shorten(&x.display_repr())),
            Value::Boolean(b) => format!("a boolean `{}`", b.value()),
            Value::Datetime(d) => format!("a datetime `{}`", d.value()),
            Value::Array(_) => "an array".into(),
            Value::InlineTable(_) => "an inline table".into(),
        }
    }

    /// The string, if the node is a string.
    pub(crate) fn as_str(self) -> Option<&'a str> {
        match self {
            Node::Item(Item::Value(v)) | Node::Value(v) => v.as_str(),
            _ => None,
        }
    }
}

/// Cuts long text for messages.
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

/// The parsed document with helpers to find spans.
pub(crate) struct Tree<'a> {
    pub root: &'a Table,
}

impl<'a> Tree<'a> {
    /// The node at `path`, if it exists.
    pub(crate) fn node(&self, path: &Path) -> Option<Node<'a>> {
        let mut node = Node::Table(self.root);
        for seg in &path.0 {
            node = node.child(seg)?;
        }
        Some(node)
    }

    /// Span of the value at `path` (a table's header for a `[table]`), or of the nearest
    /// enclosing value that has one.
    pub(crate) fn value_span(&self, path: &Path) -> Option<Range<usize>> {
        let mut node = Node::Table(self.root);
        let mut best = node.span();
        for seg in &path.0 {
            match node.child(seg) {
                Some(next) => node = next,
                None => break,
            }
            best = node.span().or(best);
        }
        best
    }

    /// Span of the key that ends `path` (falling back to the value).
    pub(crate) fn key_span(&self, path: &Path) -> Option<Range<usize>> {
        if let Some((Seg::Key(k), parent)) = path.0.split_last() {
            let parent = Path(parent.to_vec());
            if let Some(span) = self.node(&parent).and_then(|n| n.key_span(k)) {
                return Some(span);
            }
        }
        self.value_span(path)
    }
}

/// Stand-in for values tile data never holds (floats, datetimes, booleans): every place
/// in the schema rejects a boolean, so the schema reports them with their real location.
const NEVER: Json = Json::Bool(true);

/// The document as JSON, the way serde would see it.
pub(crate) fn to_json(root: &Table) -> Json {
    table_to_json(root)
}

fn table_to_json(t: &Table) -> Json {
    let mut map = Map::new();
    for (k, item) in t.iter() {
        if let Some(v) = item_to_json(item) {
            map.insert(k.to_string(), v);
        }
    }
    Json::Object(map)
}

fn item_to_json(item: &Item) -> Option<Json> {
    match item {
        Item::None => None,
        Item::Value(v) => Some(value_to_json(v)),
        Item::Table(t) => Some(table_to_json(t)),
        Item::ArrayOfTables(a) => Some(Json::Array(a.iter().map(table_to_json).collect())),
    }
}

fn value_to_json(v: &Value) -> Json {
    match v {
        Value::String(s) => Json::String(s.value().clone()),
        Value::Integer(i) => Json::from(*i.value()),
        Value::Float(_) | Value::Datetime(_) | Value::Boolean(_) => NEVER,
        Value::Array(a) => Json::Array(a.iter().map(value_to_json).collect()),
        Value::InlineTable(t) => {
            let mut map = Map::new();
            for (k, v) in t.iter() {
                map.insert(k.to_string(), value_to_json(v));
            }
            Json::Object(map)
        }
    }
}
