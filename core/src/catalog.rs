//! The catalog of expansions a host can enable, by id. The host fills it (plugins linked
//! in or loaded from their libraries); games pick from it.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::base::BaseGame;
use crate::expansion::Expansion;
use crate::rules::{Rules, RulesError};

/// Makes a fresh instance of an expansion.
pub type Factory = Arc<dyn Fn() -> Box<dyn Expansion> + Send + Sync>;

/// Expansions available to games, by id (the base game is always there).
#[derive(Clone, Default)]
pub struct Catalog {
    entries: BTreeMap<String, Factory>,
    /// Ids of expansions the host could also enable but left out of this catalog (a
    /// record's catalog holds only the expansions it names): named when an unknown one
    /// is asked for.
    others: Vec<String>,
}

impl Catalog {
    /// A catalog with only the base game.
    pub fn new() -> Catalog {
        Catalog::default()
    }

    /// Makes an expansion available under its manifest id.
    pub fn add(&mut self, factory: Factory) -> Result<(), String> {
        let id = crate::shield::caught(|| factory().manifest().id)
            .map_err(|why| format!("an expansion panicked while it was added ({why})"))?;
        if id == "base" || self.entries.contains_key(&id) {
            return Err(format!("expansion `{id}` is already in the catalog"));
        }
        self.entries.insert(id, factory);
        Ok(())
    }

    /// Ids of the optional expansions, sorted.
    pub fn ids(&self) -> Vec<String> {
        self.entries.keys().cloned().collect()
    }

    /// Names expansions the host could also enable but that this catalog leaves out, for
    /// the error about an unknown expansion.
    pub fn also_available(&mut self, ids: impl IntoIterator<Item = String>) {
        self.others.extend(ids);
    }

    /// The rules for the base game plus the given expansions (sorted by id, so the order
    /// they are named in never matters) and rule options.
    pub fn rules(
        &self,
        expansions: &[String],
        options: &BTreeMap<String, String>,
    ) -> Result<Rules, RulesError> {
        let mut ids: Vec<&String> = expansions.iter().collect();
        ids.sort();
        if let Some(twice) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(RulesError::new(format!(
                "expansion `{}` is named twice; name each expansion once",
                twice[0]
            )));
        }
        // `base`, the base game, is always in play: naming it (once) changes nothing.
        ids.retain(|e| e.as_str() != "base");
        let mut list: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
        for id in ids {
            let Some(f) = self.entries.get(id.as_str()) else {
                let mut known = self.ids();
                known.extend(self.others.iter().cloned());
                known.sort();
                known.dedup();
                return Err(RulesError::new(format!(
                    "unknown expansion `{id}` (available: {})",
                    if known.is_empty() {
                        "none yet besides the base game".to_string()
                    } else {
                        known.join(", ")
                    }
                )));
            };
            let made = crate::shield::caught(|| f()).map_err(|why| {
                RulesError::new(format!(
                    "expansion `{id}` panicked when it was made ({why})"
                ))
            })?;
            list.push(made);
        }
        // Putting the rules together runs every expansion's declarations.
        crate::shield::caught(|| Rules::new(list, options)).unwrap_or_else(|why| {
            Err(RulesError::new(format!(
                "an expansion panicked while the rules were put together ({why})"
            )))
        })
    }
}
