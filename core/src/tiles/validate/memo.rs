//! Checks of tile data already made in this process. A host puts several sets of rules
//! together from the same files (the declarations check, the catalog, the game's own), and
//! each would otherwise parse and check every file again: a check is a function of the
//! file's name and text, the vocabulary and the options alone, so its outcome is kept and
//! handed out again for the same four.

use std::collections::{BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use super::{FileCheck, Options};
use crate::tiles::vocab::{Vocabulary, kinds};

/// At most this many checks are kept (the oldest goes first).
const MOST_FILES: usize = 32;
/// At most this much text (in bytes, all kept files together) is kept.
const MOST_BYTES: usize = 64 << 20;

/// One check made: what it was asked, and its outcome.
struct Checked {
    file_name: String,
    source: String,
    vocab: Vocabulary,
    options: Options,
    outcome: Arc<FileCheck>,
}

impl Checked {
    fn is_for(&self, asked: Asked) -> bool {
        self.file_name == asked.file_name
            && self.source.len() == asked.source.len()
            && self.same_outcome_under(asked.options)
            && self.source == asked.source
            && self.same_words_in(asked.vocab)
    }

    /// Whether this check's outcome is also the file's under `vocab`: the same
    /// vocabulary, or a file without problems whose every kind and marker means the same
    /// in both (a host checks a plugin's tiles with the kinds of the expansions it
    /// requires, and a game's rules with those of every enabled one). Problems aside, a
    /// check looks at the vocabulary only through the words the file uses.
    fn same_words_in(&self, vocab: &Vocabulary) -> bool {
        if self.vocab == *vocab {
            return true;
        }
        let Ok(file) = &self.outcome.result else {
            return false;
        };
        let (mut kind_words, mut marker_words) = (BTreeSet::new(), BTreeSet::new());
        for tile in &file.tiles {
            kind_words.extend(tile.sides.iter().map(String::as_str));
            marker_words.extend(tile.markers.iter().map(String::as_str));
            for feature in &tile.features {
                kind_words.insert(feature.kind.as_str());
                marker_words.extend(feature.markers.iter().map(String::as_str));
            }
        }
        let (a, b) = (&self.vocab, vocab);
        let base_kinds = usize::from(kinds::MONASTERY) + 1;
        kind_words
            .into_iter()
            .all(|k| same_meaning((a.kind(k), b.kind(k)), &a.kinds, &b.kinds, base_kinds))
            && marker_words
                .into_iter()
                .all(|m| same_meaning((a.marker(m), b.marker(m)), &a.markers, &b.markers, 0))
    }

    /// Whether this check's outcome is also the file's under `options`: the same options,
    /// or a file without problems under options that differ only in naming (or not) the
    /// expansion it belongs to, which it does. That name only adds a problem when the file
    /// says it is another expansion's, and words the problems of unknown kinds.
    fn same_outcome_under(&self, options: &Options) -> bool {
        if self.options == *options {
            return true;
        }
        let Ok(file) = &self.outcome.result else {
            return false;
        };
        let belongs = |o: &Options| o.expansion.as_ref().is_none_or(|e| *e == file.expansion);
        // Every other option the same (a new one is compared without being named here).
        let but_expansion = |o: &Options| Options {
            expansion: None,
            ..o.clone()
        };
        but_expansion(&self.options) == but_expansion(options)
            && belongs(&self.options)
            && belongs(options)
    }
}

/// The checks kept, oldest first.
type Kept = Mutex<VecDeque<Checked>>;

/// The checks this process keeps.
static CHECKED: Kept = Mutex::new(VecDeque::new());

/// What a check is asked: a file's name and text, under a vocabulary and options.
#[derive(Clone, Copy)]
pub(super) struct Asked<'a> {
    pub source: &'a str,
    pub file_name: &'a str,
    pub vocab: &'a Vocabulary,
    pub options: &'a Options,
}

/// The outcome of checking this file: kept from an earlier check of the same text under
/// the same vocabulary and options (or ones that cannot change it), or made now by `check`
/// (and kept).
pub(super) fn checked(asked: Asked, check: impl FnOnce() -> FileCheck) -> Arc<FileCheck> {
    checked_in(&CHECKED, asked, check)
}

/// [`checked`], with the checks kept in `kept_checks`.
fn checked_in(
    kept_checks: &Kept,
    asked: Asked,
    check: impl FnOnce() -> FileCheck,
) -> Arc<FileCheck> {
    // A panic elsewhere while the list was held leaves it whole (it is changed only by
    // `push_back` and `pop_front`).
    let kept = |list: &VecDeque<Checked>| {
        list.iter()
            .rev()
            .find(|c| c.is_for(asked))
            .map(|c| Arc::clone(&c.outcome))
    };
    if let Some(outcome) = kept(&kept_checks.lock().unwrap_or_else(|e| e.into_inner())) {
        return outcome;
    }
    // Checked without holding the list: a check may take long.
    let outcome = Arc::new(check());
    if asked.source.len() <= MOST_BYTES {
        let mut list = kept_checks.lock().unwrap_or_else(|e| e.into_inner());
        if kept(&list).is_none() {
            list.push_back(Checked {
                file_name: asked.file_name.to_owned(),
                source: asked.source.to_owned(),
                vocab: asked.vocab.clone(),
                options: asked.options.clone(),
                outcome: Arc::clone(&outcome),
            });
            let mut bytes: usize = list.iter().map(|c| c.source.len()).sum();
            while list.len() > MOST_FILES || bytes > MOST_BYTES {
                let Some(old) = list.pop_front() else { break };
                bytes -= old.source.len();
            }
        }
    }
    outcome
}

/// Whether a word resolves to the same declaration in two vocabularies (`a`, `b`: their
/// declarations): an equal one, at the same index among the first `fixed` (which checks
/// know by index: the base game's kinds) or past them in both; or to none in both.
fn same_meaning<T: PartialEq>(
    found: (Result<u8, String>, Result<u8, String>),
    a: &[T],
    b: &[T],
    fixed: usize,
) -> bool {
    match found {
        (Ok(i), Ok(j)) => {
            let (i, j) = (usize::from(i), usize::from(j));
            (i == j || (i >= fixed && j >= fixed)) && a.get(i).is_some() && a.get(i) == b.get(j)
        }
        (Err(_), Err(_)) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Options, check_one};
    use super::*;
    use crate::tiles::vocab::{KindDecl, KindShape};

    /// A tile pack of one tile with Baba Yaga's hut (RP-1's shape: surrounded).
    const HUT: &str = r#"expansion = "huts"

[[tile]]
id = "huts:hut"
count = 1
sides = ["field", "field", "field", "field"]
features = [
  { kind = "hut" },
  { kind = "field", ports = ["NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW"] },
]
"#;

    fn with_hut(shape: KindShape, namespace: &str) -> Vocabulary {
        let mut vocab = Vocabulary::base();
        let hut = KindDecl {
            namespace: namespace.into(),
            name: "hut".into(),
            shape,
            tags: Vec::new(),
        };
        vocab.add_declared(&[hut], &[]).expect("a new kind");
        vocab
    }

    fn check_in(kept: &Kept, vocab: &Vocabulary, options: &Options) -> Arc<FileCheck> {
        let asked = Asked {
            source: HUT,
            file_name: "huts.toml",
            vocab,
            options,
        };
        checked_in(kept, asked, || check_one(HUT, "huts.toml", vocab, options))
    }

    fn problems(outcome: &FileCheck) -> Vec<String> {
        match &outcome.result {
            Ok(_) => Vec::new(),
            Err(found) => found.iter().map(|d| d.message.clone()).collect(),
        }
    }

    #[test]
    fn a_file_checked_again_under_the_same_words_is_not_parsed_again() {
        let kept = Kept::default();
        let huts = with_hut(KindShape::Surrounded, "huts");
        let first = check_in(&kept, &huts, &Options::default());
        assert!(first.result.is_ok(), "{:?}", problems(&first));
        assert!(Arc::ptr_eq(
            &first,
            &check_in(&kept, &huts, &Options::default())
        ));
        // More kinds that the file does not use, and options naming its own expansion:
        // the outcome cannot differ.
        let mut more = huts.clone();
        let castle = KindDecl {
            namespace: "other".into(),
            name: "castle".into(),
            shape: KindShape::Surrounded,
            tags: Vec::new(),
        };
        more.add_declared(&[castle], &[]).expect("a new kind");
        let own = Options {
            expansion: Some("huts".into()),
            ..Options::default()
        };
        assert!(Arc::ptr_eq(&first, &check_in(&kept, &more, &own)));
        assert_eq!(kept.lock().expect("not poisoned").len(), 1);
    }

    #[test]
    fn a_file_is_checked_again_when_a_word_it_uses_means_something_else() {
        let kept = Kept::default();
        let huts = with_hut(KindShape::Surrounded, "huts");
        assert!(check_in(&kept, &huts, &Options::default()).result.is_ok());
        // `hut` unknown, or a kind of another shape: checked anew, with its problems.
        let unknown = check_in(&kept, &Vocabulary::base(), &Options::default());
        assert!(
            problems(&unknown).iter().any(|p| p.contains("hut")),
            "{:?}",
            problems(&unknown)
        );
        let edge = with_hut(KindShape::Edge { completes: true }, "huts");
        assert!(check_in(&kept, &edge, &Options::default()).result.is_err());
        // The same declaration from another namespace is another kind.
        let theirs = with_hut(KindShape::Surrounded, "theirs");
        let outcome = check_in(&kept, &theirs, &Options::default());
        assert!(!Arc::ptr_eq(
            &outcome,
            &check_in(&kept, &huts, &Options::default())
        ));
    }

    #[test]
    fn a_file_is_checked_again_for_another_expansion() {
        let kept = Kept::default();
        let huts = with_hut(KindShape::Surrounded, "huts");
        assert!(check_in(&kept, &huts, &Options::default()).result.is_ok());
        let another = Options {
            expansion: Some("castles".into()),
            ..Options::default()
        };
        let outcome = check_in(&kept, &huts, &another);
        assert!(
            problems(&outcome).iter().any(|p| p.contains("`castles`")),
            "{:?}",
            problems(&outcome)
        );
    }
}
