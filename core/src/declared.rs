//! An expansion known by its declarations alone (its manifest and tile data), with no
//! code: a host puts such stand-ins together with [`Rules::new`] to check a plugin
//! (its kinds, markers, moves, options, tiles and precedence against the others) before
//! its library is ever opened.

use std::collections::BTreeMap;

use crate::base::BaseGame;
use crate::expansion::{Expansion, TileSource};
use crate::manifest::Manifest;
use crate::rules::{Rules, RulesError};

/// An expansion's declarations, standing in for the expansion.
#[derive(Clone, Debug)]
pub struct Declared {
    /// Its manifest.
    pub manifest: Manifest,
    /// Its tile data.
    pub tiles: Vec<TileSource>,
}

impl Expansion for Declared {
    fn manifest(&self) -> Manifest {
        self.manifest.clone()
    }

    fn tile_sources(&self) -> Vec<TileSource> {
        self.tiles.clone()
    }
}

/// Puts the base game and these declarations together as a game's rules would be, with
/// default rule options: every problem a set of rules can have before any expansion's
/// code runs (a kind or move declared twice, tile data using an unknown kind, a
/// precedence cycle, ...).
pub fn check(expansions: &[Declared]) -> Result<(), RulesError> {
    let mut list: Vec<Box<dyn Expansion>> = vec![Box::new(BaseGame)];
    list.extend(
        expansions
            .iter()
            .map(|d| Box::new(d.clone()) as Box<dyn Expansion>),
    );
    Rules::new(list, &BTreeMap::new()).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(manifest: &str) -> Declared {
        Declared {
            manifest: Manifest::from_toml(manifest, "manifest.toml").expect("valid manifest"),
            tiles: Vec::new(),
        }
    }

    #[test]
    fn a_precedence_cycle_across_two_manifests_is_found_without_code() {
        let a = declared(
            "id = \"a\"\nname = \"A\"\n[[rule]]\nid = \"x\"\npoint = \"figure-capture\"\nbefore = [\"b:y\"]\n",
        );
        let b = declared(
            "id = \"b\"\nname = \"B\"\n[[rule]]\nid = \"y\"\npoint = \"figure-capture\"\nbefore = [\"a:x\"]\n",
        );
        assert!(check(std::slice::from_ref(&a)).is_ok());
        let e = check(&[a, b]).expect_err("a cycle");
        assert!(
            e.message.contains("a:x") && e.message.contains("b:y"),
            "{e}"
        );
    }

    #[test]
    fn two_expansions_placing_phases_at_the_same_place_must_order_them() {
        let nap = |id: &str, phase: &str, place: &str| {
            declared(&format!(
                "id = \"{id}\"\nname = \"{id}\"\n[[phase]]\nname = \"{phase}\"\n{place}\n"
            ))
        };
        let a = nap("a", "nap", "after = \"score\"");
        let b = nap("b", "snack", "after = \"score\"");
        let e = check(&[a.clone(), b]).expect_err("an ambiguity");
        assert!(
            e.message.contains("`nap` (expansion `a`)")
                && e.message.contains("`snack` (expansion `b`)")
                && e.message.contains("after `score`"),
            "{e}"
        );
        // Placed after the other's phase: ordered, whatever the ids.
        let ordered = nap("b", "snack", "after = \"nap\"");
        assert!(check(&[a, ordered]).is_ok());
        // Two phases of one expansion at one place follow its manifest.
        let both = declared(
            "id = \"c\"\nname = \"c\"\n[[phase]]\nname = \"x\"\nafter = \"score\"\n[[phase]]\nname = \"y\"\nafter = \"score\"\n",
        );
        assert!(check(&[both]).is_ok());
    }

    /// One manifest's precedence declaration at fault is located there (line, column),
    /// as `carc validate` shows it.
    #[test]
    fn a_precedence_declaration_at_fault_is_located_in_its_manifest() {
        let cases = [
            // Naming a rule its own expansion does not declare: at the name.
            (
                "[[rule]]\nid = \"x\"\npoint = \"figure-capture\"\nbefore = [\"a:y\", \"a:z\"]\n[[rule]]\nid = \"y\"\npoint = \"figure-capture\"\n",
                "\"a:z\"",
                "orders `a:z`, which its expansion does not declare",
            ),
            // Rules of two decision points ordered: at the link.
            (
                "[[rule]]\nid = \"x\"\npoint = \"figure-capture\"\n[[rule]]\nid = \"y\"\npoint = \"feature-worth\"\nclaims = [\"road\"]\nafter = [\"a:x\"]\n",
                "\"a:x\"",
                "orders `a:x` against `a:y`, but they belong to different decision points",
            ),
        ];
        for (rules, written, message) in cases {
            let source = format!("id = \"a\"\nname = \"A\"\n{rules}");
            let e = check(&[declared(&source)]).expect_err(message);
            assert!(e.message.contains(message), "{e}");
            let d = e
                .located_in("a", &source, "manifest.toml")
                .expect("located in `a`'s manifest");
            let (line, text) = source
                .lines()
                .enumerate()
                .find(|(_, l)| l.contains(written))
                .expect("written");
            let column = text.find(written).expect("on its line") + 1;
            assert_eq!((d.line, d.column), (line + 1, column), "{d}");
        }
    }

    #[test]
    fn tile_data_with_an_unknown_kind_is_refused() {
        let mut a = declared("id = \"a\"\nname = \"A\"\n");
        a.tiles.push(TileSource {
            name: "a.toml".into(),
            text: "[[tile]]\nid = \"A1\"\ncount = 1\nsegments = [{ kind = \"lake\", ports = [\"N1\"] }]\n"
                .into(),
        });
        let e = check(&[a]).expect_err("unknown kind");
        assert!(e.message.contains("a.toml"), "{e}");
    }
}
