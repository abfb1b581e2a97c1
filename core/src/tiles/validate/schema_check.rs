//! Schema violations: the JSON Schema of [`crate::tiles::schema`] run on the file, each
//! error mapped back to the TOML text and worded for people.

use std::sync::OnceLock;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use jsonschema::{JsonType, ValidationError, Validator};
use serde_json::Value as Json;

use super::tree::{Path, Seg, Tree};
use super::{At, Finding};
use crate::geometry::PORT_NAMES;
use crate::tiles::schema::tile_schema;

/// The generated schema and its compiled validator, built once per process.
struct Compiled {
    schema: Json,
    validator: Option<Validator>,
}

fn compiled() -> &'static Compiled {
    static COMPILED: OnceLock<Compiled> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let schema = tile_schema();
        let validator = jsonschema::draft7::new(&schema).ok();
        Compiled { schema, validator }
    })
}

/// Every schema violation of `json`, located through `tree`.
pub(crate) fn findings(json: &Json, tree: &Tree<'_>) -> Vec<Finding> {
    let compiled = compiled();
    let Some(validator) = &compiled.validator else {
        return vec![Finding {
            path: Path::root(),
            at: At::Nowhere,
            message: "internal error: the tile schema does not compile".into(),
        }];
    };
    let mut out = Vec::new();
    for error in validator.iter_errors(json) {
        translate(&error, tree, &compiled.schema, &mut out);
    }
    out
}

fn instance_path(error: &ValidationError<'_>) -> Path {
    Path(
        error
            .instance_path()
            .segments()
            .map(|s| match s {
                LocationSegment::Property(p) => Seg::Key(p.into_owned()),
                LocationSegment::Index(i) => Seg::Index(i),
            })
            .collect(),
    )
}

/// What the object at `path` is, for messages.
fn object_name(path: &Path) -> &'static str {
    match path.0.as_slice() {
        [] => "the file",
        [Seg::Key(t), Seg::Index(_)] if t == "tile" => "tile",
        [Seg::Key(t), Seg::Index(_), Seg::Key(f), Seg::Index(_)]
            if t == "tile" && f == "features" =>
        {
            "feature"
        }
        _ => "table",
    }
}

/// The keys the schema allows in the object at `path`.
fn allowed_keys(schema: &Json, path: &Path) -> Vec<String> {
    let props = match object_name(path) {
        "the file" => schema.get("properties"),
        "tile" => schema.pointer("/definitions/TileDef/properties"),
        "feature" => schema.pointer("/definitions/FeatureDef/properties"),
        _ => None,
    };
    props
        .and_then(Json::as_object)
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
}

fn type_name(t: JsonType) -> Option<&'static str> {
    Some(match t {
        JsonType::Null => return None,
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Number => "a number",
        JsonType::String => "a string",
        JsonType::Array => "an array",
        JsonType::Object => "a table",
    })
}

/// "`count`" for a key, "in `sides`" for an array item: what a message is about.
fn subject(path: &Path) -> String {
    match (path.last_key(), path.is_item()) {
        (Some(k), true) => format!("in `{k}`"),
        (Some(k), false) => format!("for `{k}`"),
        (None, _) => "for the file".into(),
    }
}

fn found(tree: &Tree<'_>, path: &Path) -> String {
    tree.node(path)
        .map_or_else(|| "something else".into(), |n| n.describe())
}

fn is_port_entry(path: &Path) -> bool {
    path.is_item() && matches!(path.last_key(), Some("ports" | "cities"))
}

fn port_message(tree: &Tree<'_>, path: &Path) -> String {
    let key = path.last_key().unwrap_or("ports");
    match tree.node(path).and_then(|n| n.as_str()) {
        Some(s) => {
            let upper = s.trim().to_ascii_uppercase();
            if PORT_NAMES.contains(&upper.as_str()) {
                format!("unknown port `{s}` in `{key}`; did you mean `{upper}`?")
            } else {
                format!(
                    "unknown port `{}` in `{key}` (ports are {})",
                    super::tree::shorten(s),
                    PORT_NAMES.join(" ")
                )
            }
        }
        None => format!(
            "expected a port name in `{key}`, found {}",
            found(tree, path)
        ),
    }
}

fn translate(error: &ValidationError<'_>, tree: &Tree<'_>, schema: &Json, out: &mut Vec<Finding>) {
    let path = instance_path(error);
    let key = path.last_key().unwrap_or("").to_string();
    let value_finding = |message: String| Finding {
        path: path.clone(),
        at: At::Value,
        message,
    };
    let finding = match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed = allowed_keys(schema, &path);
            for name in unexpected {
                out.push(Finding {
                    path: path.key(name),
                    at: At::Key,
                    message: unknown_key(name, object_name(&path), &allowed),
                });
            }
            return;
        }
        ValidationErrorKind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_string);
            Finding {
                at: if path.0.is_empty() {
                    At::Nowhere
                } else {
                    At::Value
                },
                path: path.clone(),
                message: format!("{} is missing the key `{name}`", object_name(&path)),
            }
        }
        ValidationErrorKind::Type { kind } => {
            if is_port_entry(&path) {
                value_finding(port_message(tree, &path))
            } else {
                let expected: Vec<&str> = match kind {
                    TypeKind::Single(t) => type_name(*t).into_iter().collect(),
                    TypeKind::Multiple(set) => set.iter().filter_map(type_name).collect(),
                };
                value_finding(format!(
                    "expected {} {}, found {}",
                    expected.join(" or "),
                    subject(&path),
                    found(tree, &path)
                ))
            }
        }
        ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::Enum { .. }
        | ValidationErrorKind::Constant { .. }
            if is_port_entry(&path) =>
        {
            value_finding(port_message(tree, &path))
        }
        ValidationErrorKind::Pattern { pattern } => {
            let text = tree
                .node(&path)
                .and_then(|n| n.as_str())
                .map_or_else(String::new, super::tree::shorten);
            value_finding(match key.as_str() {
                "id" => format!(
                    "tile id `{text}` is not of the form `prefix:name` (e.g. `base:D`: a \
                     prefix of lowercase letters, digits and `-`, a colon, and a name of \
                     letters, digits and `-`)"
                ),
                "kind" => format!(
                    "feature kind `{text}` is not a valid name (lowercase `name` or \
                     `namespace:name`)"
                ),
                _ => format!("`{text}` does not match the pattern `{pattern}`"),
            })
        }
        ValidationErrorKind::Minimum { limit } => value_finding(format!(
            "`{key}` must be at least {limit}, found {}",
            error.instance()
        )),
        ValidationErrorKind::Maximum { limit } => value_finding(format!(
            "`{key}` must be at most {limit}, found {}",
            error.instance()
        )),
        ValidationErrorKind::MinItems { limit } | ValidationErrorKind::MaxItems { limit } => {
            let n = error.instance().as_array().map_or(0, Vec::len);
            value_finding(if key == "sides" {
                format!("`sides` must list {limit} kinds (N, E, S, W), found {n}")
            } else {
                format!("`{key}` must have {limit} items, found {n}")
            })
        }
        _ => value_finding(lowercase_first(&error.to_string())),
    };
    out.push(finding);
}

fn unknown_key(name: &str, owner: &str, allowed: &[String]) -> String {
    let shown = super::tree::shorten(name);
    if let Some(best) = allowed
        .iter()
        .filter(|a| edit_distance(&name.to_ascii_lowercase(), a) <= 2)
        .min_by_key(|a| edit_distance(&name.to_ascii_lowercase(), a))
    {
        return format!("unknown key `{shown}` in {owner}; did you mean `{best}`?");
    }
    if allowed.is_empty() {
        return format!("unknown key `{shown}` in {owner}");
    }
    let list: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
    format!(
        "unknown key `{shown}` in {owner} (expected {})",
        list.join(", ")
    )
}

/// Levenshtein distance, for "did you mean" hints.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The known name nearest to `written` within `most` edits, for a "did you mean" hint:
/// one that differs only in case first; otherwise the one nearest, when no other is as
/// near (`base:Y` is as near to `base:A` as to `base:B`: no hint), within at most half
/// the name's length in edits (`ab` is not a typo of `xy`).
pub fn nearest<'a>(
    written: &str,
    known: impl IntoIterator<Item = &'a str>,
    most: usize,
) -> Option<&'a str> {
    let known: Vec<&str> = known.into_iter().collect();
    if let Some(same) = known.iter().find(|k| k.eq_ignore_ascii_case(written)) {
        return Some(same);
    }
    let most = most.min((written.chars().count() / 2).max(1));
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for k in known {
        let d = edit_distance(written, k);
        if d > most {
            continue;
        }
        match best {
            Some((b, name)) if d == b && name != k => tied = true,
            Some((b, _)) if d >= b => {}
            _ => {
                best = Some((d, k));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, k)| k)
}

fn lowercase_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_the_only_one_as_near() {
        let tiles = ["base:A", "base:B", "base:U", "base:V"];
        assert_eq!(nearest("base:u", tiles, 2), Some("base:U"));
        assert_eq!(nearest("base:UU", tiles, 2), Some("base:U"));
        assert_eq!(nearest("base:Y", tiles, 2), None);
        assert_eq!(nearest("ab", ["xy"], 2), None);
        assert_eq!(nearest("scoer", ["score"], 2), Some("score"));
        assert_eq!(
            nearest("feature-wroth", ["feature-worth", "final-scoring"], 2),
            Some("feature-worth")
        );
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("port", "ports"), 1);
        assert_eq!(edit_distance("kind", "kind"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("colour", "count"), 4);
    }

    #[test]
    fn the_schema_compiles() {
        assert!(compiled().validator.is_some());
    }
}
