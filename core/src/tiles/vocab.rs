//! The vocabulary tile data may use: feature kinds and markers, each registered by an
//! expansion under its namespace. The core registers `city`, `road`, `field` and
//! `monastery` under the namespace `base`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Index of a feature kind in a [`Vocabulary`].
pub type KindId = u8;
/// Index of a marker in a [`Vocabulary`].
pub type MarkerId = u8;

/// The base game's kind ids, fixed at the front of every vocabulary.
pub mod kinds {
    use super::KindId;
    /// `city`
    pub const CITY: KindId = 0;
    /// `road`
    pub const ROAD: KindId = 1;
    /// `field`
    pub const FIELD: KindId = 2;
    /// `monastery`
    pub const MONASTERY: KindId = 3;
}

/// How features of a kind behave on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum KindShape {
    /// Touches edges and joins the same kind across them; complete when no edge is open
    /// (city, road), unless `completes` is false (field).
    Edge {
        /// Whether a closed feature of this kind counts as complete.
        completes: bool,
    },
    /// An inner feature complete when its tile and the eight around it are placed
    /// (monastery, Baba Yaga's hut).
    Surrounded,
}

/// A registered feature kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KindDecl {
    /// Namespace of the registering expansion (`base` for the core; in a manifest it
    /// defaults to the manifest's id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Short name, as written in tile data and record feature references.
    pub name: String,
    /// Board behaviour.
    pub shape: KindShape,
    /// Declared tags (e.g. `shelter`: figures there are safe from the dragon).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A registered marker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerDecl {
    /// Namespace of the registering expansion (in a manifest it defaults to the
    /// manifest's id).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Short name, as written in tile data.
    pub name: String,
}

/// Feature kinds and markers known to a game or to a validation run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vocabulary {
    /// Kinds, indexed by [`KindId`].
    pub kinds: Vec<KindDecl>,
    /// Markers, indexed by [`MarkerId`].
    pub markers: Vec<MarkerDecl>,
}

impl Default for Vocabulary {
    fn default() -> Self {
        Vocabulary::base()
    }
}

impl Vocabulary {
    /// The base game's vocabulary: city, road, field, monastery; no markers.
    pub fn base() -> Vocabulary {
        let kind = |name: &str, shape| KindDecl {
            namespace: "base".into(),
            name: name.into(),
            shape,
            tags: Vec::new(),
        };
        Vocabulary {
            kinds: vec![
                kind("city", KindShape::Edge { completes: true }),
                kind("road", KindShape::Edge { completes: true }),
                kind("field", KindShape::Edge { completes: false }),
                kind("monastery", KindShape::Surrounded),
            ],
            markers: Vec::new(),
        }
    }

    /// Registers a kind; an error if the qualified name is taken.
    pub fn add_kind(&mut self, decl: KindDecl) -> Result<KindId, String> {
        if self
            .kinds
            .iter()
            .any(|k| k.namespace == decl.namespace && k.name == decl.name)
        {
            return Err(format!(
                "feature kind `{}:{}` is registered twice",
                decl.namespace, decl.name
            ));
        }
        if self.kinds.len() >= u8::MAX as usize {
            return Err("too many feature kinds".into());
        }
        self.kinds.push(decl);
        Ok((self.kinds.len() - 1) as KindId)
    }

    /// Registers a marker; an error if the qualified name is taken.
    pub fn add_marker(&mut self, decl: MarkerDecl) -> Result<MarkerId, String> {
        if self
            .markers
            .iter()
            .any(|k| k.namespace == decl.namespace && k.name == decl.name)
        {
            return Err(format!(
                "marker `{}:{}` is registered twice",
                decl.namespace, decl.name
            ));
        }
        if self.markers.len() >= u8::MAX as usize {
            return Err("too many markers".into());
        }
        self.markers.push(decl);
        Ok((self.markers.len() - 1) as MarkerId)
    }

    /// Registers the kinds and markers an expansion declares (its manifest's `[[kind]]`
    /// and `[[marker]]` entries). A name already taken is an error (the first one); the
    /// declarations after it are registered all the same.
    pub fn add_declared(
        &mut self,
        kinds: &[KindDecl],
        markers: &[MarkerDecl],
    ) -> Result<(), String> {
        let mut first = Ok(());
        for k in kinds {
            if let Err(e) = self.add_kind(k.clone()) {
                first = first.and(Err(e));
            }
        }
        for m in markers {
            if let Err(e) = self.add_marker(m.clone()) {
                first = first.and(Err(e));
            }
        }
        first
    }

    /// Resolves a kind written `name` or `namespace:name`.
    pub fn kind(&self, written: &str) -> Result<KindId, String> {
        resolve(
            written,
            self.kinds.iter().map(|k| (&k.namespace, &k.name)),
            "feature kind",
        )
    }

    /// Resolves a marker written `name` or `namespace:name`.
    pub fn marker(&self, written: &str) -> Result<MarkerId, String> {
        resolve(
            written,
            self.markers.iter().map(|k| (&k.namespace, &k.name)),
            "marker",
        )
    }

    /// The short name of a kind.
    pub fn kind_name(&self, id: KindId) -> &str {
        self.kinds.get(id as usize).map_or("?", |k| k.name.as_str())
    }

    /// The short name of a marker.
    pub fn marker_name(&self, id: MarkerId) -> &str {
        self.markers
            .get(id as usize)
            .map_or("?", |k| k.name.as_str())
    }
}

fn resolve<'a>(
    written: &str,
    entries: impl Iterator<Item = (&'a String, &'a String)>,
    what: &str,
) -> Result<u8, String> {
    let (ns, name) = match written.split_once(':') {
        Some((ns, name)) => (Some(ns), name),
        None => (None, written),
    };
    let hits: Vec<(usize, &String)> = entries
        .enumerate()
        .filter(|(_, (n, k))| k.as_str() == name && ns.is_none_or(|ns| ns == n.as_str()))
        .map(|(i, (n, _))| (i, n))
        .collect();
    match hits.as_slice() {
        [(i, _)] => Ok(*i as u8),
        [] => Err(format!("unknown {what} `{written}`")),
        many => Err(format!(
            "{what} `{written}` is ambiguous: registered by {}; qualify it as `namespace:{name}`",
            many.iter()
                .map(|(_, n)| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(name: &str) -> MarkerDecl {
        MarkerDecl {
            namespace: "x".into(),
            name: name.into(),
        }
    }

    #[test]
    fn declarations_after_a_taken_name_are_registered_and_the_first_clash_is_reported() {
        let mut vocab = Vocabulary::base();
        let kinds = vocab.kinds.len();
        vocab
            .add_declared(&[], &[marker("a")])
            .expect("a new marker");
        let clash = vocab.add_declared(&[], &[marker("a"), marker("b"), marker("a")]);
        assert_eq!(clash, Err("marker `x:a` is registered twice".to_string()));
        assert!(vocab.marker("x:b").is_ok(), "the marker after the clash");
        assert_eq!(vocab.markers.len(), 2);
        assert_eq!(vocab.kinds.len(), kinds);
    }
}
