//! Checks tile-data files and reports every problem with file, line, column and a caret.
//!
//! A file goes through three stages, and every problem of a stage is reported at once:
//!
//! 1. TOML syntax ([`toml_edit`], with spans). A syntax error stops the check there.
//! 2. The JSON Schema of [`crate::tiles::schema`] (draft-07, run by `jsonschema`) on the
//!    file seen as JSON; each violation's instance path is mapped back to the TOML text.
//! 3. Semantic checks a schema cannot express: ports covered twice or not at all, roads
//!    on outer ports, fields on middle ports, cities covering part of a side, `sides`
//!    that disagree with the features, a field's `cities` naming a port that is not a
//!    city of the tile, pennants or `cities` on the wrong kind, inner kinds with ports and
//!    edge kinds without, unknown kinds and markers, duplicate ids, an unknown start tile.
//!
//! [`check_files`] and [`check_sources`] check several files together (duplicate ids and
//! start tiles across files) and give a [`Report`] with the output of `carc validate`.
//!
//! Diagnostics are sorted by their position in the file; features are numbered from 1
//! in messages.

mod memo;
mod schema_check;
pub(crate) use schema_check::edit_distance;
pub use schema_check::nearest;
mod semantic;
mod source;
mod tree;

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use source::{Position, SourceMap};
use tree::{Path, Tree};

use super::def::TileFile;
use super::vocab::Vocabulary;

/// How strict a validation run is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Accept markers no enabled expansion registers (tiles-only mode).
    pub tiles_only: bool,
    /// The expansion the files belong to (a plugin's manifest id), when known: a file
    /// whose `expansion` names another is an error.
    pub expansion: Option<String>,
}

/// One located problem in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file's name as given.
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column (in characters), 0 when unknown.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The source line and a caret line under the offending text, when located, with a
    /// rustc-like gutter (`12 | ...`); empty when unlocated.
    pub snippet: String,
}

impl Diagnostic {
    /// A problem at a byte range of `source` (unlocated when `span` is `None`), with
    /// line, column and a caret snippet.
    pub fn located(
        source: &str,
        file: &str,
        span: Option<std::ops::Range<usize>>,
        message: impl Into<String>,
    ) -> Diagnostic {
        match span {
            Some(s) => {
                let at = source::SourceMap::new(source).position(s);
                Diagnostic {
                    file: file.to_string(),
                    line: at.line,
                    column: at.column,
                    message: message.into(),
                    snippet: at.snippet,
                }
            }
            None => Diagnostic::unlocated(file, message),
        }
    }

    /// A problem that has no location in the file.
    pub fn unlocated(file: &str, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            line: 0,
            column: 0,
            message: message.into(),
            snippet: String::new(),
        }
    }

    fn at(file: &str, position: Position, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            line: position.line,
            column: position.column,
            message: message.into(),
            snippet: position.snippet,
        }
    }
}

/// `file:line:col: error: message`, then the source line and a caret line under the
/// offending text (`file: error: message` alone when unlocated).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A name quoted from the file stays on the message's line.
        let message = crate::plain::breaks_in_names_escaped(&self.message);
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: error: {message}",
                self.file, self.line, self.column
            )?;
        } else {
            write!(f, "{}: error: {message}", self.file)?;
        }
        if !self.snippet.is_empty() {
            write!(f, "\n{}", self.snippet)?;
        }
        Ok(())
    }
}

/// A problem found by a stage, located by a path into the document.
#[derive(Clone, Debug)]
pub(crate) struct Finding {
    /// The value the problem is about.
    path: Path,
    /// Which text of it to point at.
    at: At,
    message: String,
}

/// Which text a finding points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum At {
    /// The value (a `[table]`'s header for a table).
    Value,
    /// The key that ends the path.
    Key,
    /// Nothing: the problem concerns the whole file.
    Nowhere,
}

/// The outcome of checking one file, with what checks across files need.
#[derive(Clone, Debug)]
struct FileCheck {
    result: Result<TileFile, Vec<Diagnostic>>,
    /// Tile ids and where they are defined (line, column, snippet).
    ids: Vec<(String, Position)>,
    /// The start tile named by the file.
    start: Option<(String, Position)>,
}

/// Parses and checks a tile-data file; returns the parsed file or every problem found,
/// sorted by position.
pub fn check(
    source: &str,
    file_name: &str,
    vocab: &Vocabulary,
    options: &Options,
) -> Result<TileFile, Vec<Diagnostic>> {
    check_shared(source, file_name, vocab, options)
        .result
        .clone()
}

/// [`check`]'s outcome, shared: a file checked before in this process (same name and
/// text, under a vocabulary and options that cannot change the outcome) is not parsed
/// again.
fn check_shared(
    source: &str,
    file_name: &str,
    vocab: &Vocabulary,
    options: &Options,
) -> std::sync::Arc<FileCheck> {
    let asked = memo::Asked {
        source,
        file_name,
        vocab,
        options,
    };
    memo::checked(asked, || check_one(source, file_name, vocab, options))
}

/// Parses a tile-data file and adds it to `tiles` (see [`TileSet::load_str`]).
pub(crate) fn load_into(
    tiles: &mut super::TileSet,
    source: &str,
    file_name: &str,
    vocab: &Vocabulary,
) -> Result<(), Vec<Diagnostic>> {
    let checked = check_shared(source, file_name, vocab, &Options::default());
    let file = checked.result.as_ref().map_err(Clone::clone)?;
    tiles.add_file(file, vocab).map_err(|(path, msg)| {
        let span = crate::span::toml_span(source, &path);
        vec![Diagnostic::located(source, file_name, span, msg)]
    })
}

fn check_one(source: &str, file_name: &str, vocab: &Vocabulary, options: &Options) -> FileCheck {
    let map = SourceMap::new(source);
    let fail = |diagnostics| FileCheck {
        result: Err(diagnostics),
        ids: Vec::new(),
        start: None,
    };
    let doc = match toml_edit::Document::parse(source.to_string()) {
        Ok(doc) => doc,
        Err(e) => {
            let mut message = toml_message(e.message());
            let key = crate::plain::spanned(source, e.message(), e.span()).map(str::trim);
            if let (true, Some(key)) = (message.ends_with("duplicate key"), key) {
                message = match crate::plain::array_after_table(source, e.message(), e.span()) {
                    Some(why) => why,
                    None => format!("{message} `{}`", tree::shorten(key)),
                };
            }
            let d = match e.span() {
                Some(span) => Diagnostic::at(file_name, map.position(span), message),
                None => Diagnostic::unlocated(file_name, message),
            };
            return fail(vec![d]);
        }
    };
    let tree = Tree {
        root: doc.as_table(),
    };
    let json = tree::to_json(tree.root);
    let schema_findings = schema_check::findings(&json, &tree);
    let position = |path: &Path, at: At| {
        let span = match at {
            At::Value => tree.value_span(path),
            At::Key => tree.key_span(path),
            At::Nowhere => None,
        };
        span.map(|s| map.position(s))
    };
    let line_of = |path: &Path| tree.value_span(path).map_or(0, |s| map.line(s.start));
    let (semantic_findings, sites) =
        semantic::findings(&json, vocab, options, &schema_findings, &line_of);

    // Positioned in the order of the text, each position costs only the text since the
    // one before (see `SourceMap`).
    let mut spanned: Vec<(Option<std::ops::Range<usize>>, &Finding)> = schema_findings
        .iter()
        .chain(&semantic_findings)
        .map(|f| {
            let span = match f.at {
                At::Value => tree.value_span(&f.path),
                At::Key => tree.key_span(&f.path),
                At::Nowhere => None,
            };
            (span, f)
        })
        .collect();
    spanned.sort_by_key(|(span, _)| span.as_ref().map(|s| s.start));
    let mut diagnostics: Vec<Diagnostic> = spanned
        .into_iter()
        .map(|(span, f)| match span {
            Some(s) => Diagnostic::at(file_name, map.position(s), f.message.clone()),
            None => Diagnostic::unlocated(file_name, f.message.clone()),
        })
        .collect();
    sort_and_dedup(&mut diagnostics);

    let place = |(id, path): (String, Path)| position(&path, At::Value).map(|p| (id, p));
    let ids = sites.ids.into_iter().filter_map(place).collect();
    let start = sites.start.and_then(place);
    let result = if diagnostics.is_empty() {
        toml_edit::de::from_document::<TileFile>(doc).map_err(|e| {
            let message = toml_message(e.message());
            vec![match e.span() {
                Some(span) => Diagnostic::at(file_name, map.position(span), message),
                None => Diagnostic::unlocated(file_name, message),
            }]
        })
    } else {
        Err(diagnostics)
    };
    FileCheck { result, ids, start }
}

/// A parser message as one lowercase line.
fn toml_message(message: &str) -> String {
    let line = message
        .trim()
        .lines()
        .next()
        .unwrap_or("invalid TOML")
        .trim_end();
    let line = crate::plain::plain(line, None);
    let mut chars = line.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => "invalid TOML".into(),
    };
    if !out.starts_with("invalid") && !out.contains("TOML") {
        out = format!("invalid TOML: {out}");
    }
    out
}

fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by_key(|d| (d.line, d.column));
    let mut seen = std::collections::BTreeSet::new();
    diagnostics.retain(|d| seen.insert((d.line, d.column, d.message.clone())));
}

/// The result of checking one file in a [`Report`].
#[derive(Clone, Debug)]
pub struct FileReport {
    /// The file's name as given.
    pub name: String,
    /// Every problem, sorted by position; empty when the file is valid.
    pub diagnostics: Vec<Diagnostic>,
    /// The parsed file, when it is valid.
    pub tiles: Option<TileFile>,
    /// Whether the file could not be read at all (missing, too large).
    pub unreadable: bool,
}

/// The result of checking several files together: what `carc validate` prints.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// One entry per file, in the order given.
    pub files: Vec<FileReport>,
}

impl Report {
    /// Whether every file is valid.
    pub fn is_ok(&self) -> bool {
        self.files.iter().all(|f| f.diagnostics.is_empty())
    }

    /// Every diagnostic, file by file, each file's sorted by position.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.files.iter().flat_map(|f| &f.diagnostics)
    }

    /// Number of diagnostics.
    pub fn error_count(&self) -> usize {
        self.diagnostics().count()
    }

    /// The closing line, without a line break: `2 files, 53 tile types, 102 tiles: valid`
    /// or `3 errors in 2 files` (the files that have errors).
    pub fn summary(&self) -> String {
        if self.is_ok() {
            let types: usize = self
                .files
                .iter()
                .filter_map(|f| f.tiles.as_ref())
                .map(|t| t.tiles.len())
                .sum();
            let tiles: u64 = self
                .files
                .iter()
                .filter_map(|f| f.tiles.as_ref())
                .flat_map(|t| &t.tiles)
                .map(|t| u64::from(t.count))
                .sum();
            format!(
                "{}, {}, {}: valid",
                plural(self.files.len() as u64, "file", "files"),
                plural(types as u64, "tile type", "tile types"),
                plural(tiles, "tile", "tiles")
            )
        } else {
            let bad = self
                .files
                .iter()
                .filter(|f| !f.diagnostics.is_empty())
                .count();
            format!(
                "{} in {}",
                plural(self.error_count() as u64, "error", "errors"),
                plural(bad as u64, "file", "files")
            )
        }
    }

    /// Every diagnostic followed by a blank line, then the summary line, ending with a
    /// line break.
    pub fn render(&self) -> String {
        let mut out = self.render_diagnostics(None);
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// The diagnostics, each followed by a blank line: the first `limit` of them (all
    /// when `None`), then a line saying how many more there are.
    pub fn render_diagnostics(&self, limit: Option<usize>) -> String {
        let mut out = String::new();
        let total = self.error_count();
        let shown = limit.unwrap_or(total).min(total);
        for d in self.diagnostics().take(shown) {
            out.push_str(&d.to_string());
            out.push_str("\n\n");
        }
        if shown < total {
            let more = total - shown;
            out.push_str(&format!(
                "... and {} (`carc validate --all-errors` shows every one)\n\n",
                plural(more as u64, "more error", "more errors")
            ));
        }
        out
    }

    /// Whether a file could not be read at all (missing, too large).
    pub fn has_unreadable(&self) -> bool {
        self.files.iter().any(|f| f.unreadable)
    }
}

/// `1 tile`, `2 tiles`: a count with the noun it takes.
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Reads and checks tile-data files together. An unreadable file is a diagnostic; each
/// file is named by its path as given.
pub fn check_files(paths: &[PathBuf], vocab: &Vocabulary, options: &Options) -> Report {
    let sources: Vec<(String, Result<String, crate::input::InputError>)> = paths
        .iter()
        .map(|p| (crate::input::name(p), crate::input::read_text(p)))
        .collect();
    check_loaded(sources, vocab, options)
}

/// Checks tile-data sources given as `(name, text)` together, as [`check_files`] does
/// for files on disk.
pub fn check_sources<'a>(
    sources: impl IntoIterator<Item = (&'a str, &'a str)>,
    vocab: &Vocabulary,
    options: &Options,
) -> Report {
    check_loaded(
        sources
            .into_iter()
            .map(|(name, text)| (name.to_string(), Ok(text.to_string())))
            .collect(),
        vocab,
        options,
    )
}

/// Checks tile-data sources as read (or not: an input that could not be read is an
/// error of its own, in its place), as [`check_files`] does for files on disk.
pub fn check_loaded(
    sources: Vec<(String, Result<String, crate::input::InputError>)>,
    vocab: &Vocabulary,
    options: &Options,
) -> Report {
    let mut report = Report::default();
    // First definition of each id across files: (file name, line).
    let mut defined: BTreeMap<String, (String, usize)> = BTreeMap::new();
    // The start tile named so far: (file, tile, line, expansion).
    let mut start_named: Option<(String, String, usize, String)> = None;
    for (name, text) in sources {
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                let unreadable = !matches!(e, crate::input::InputError::NotText(_));
                report.files.push(FileReport {
                    diagnostics: vec![Diagnostic::unlocated(&name, e.message())],
                    name,
                    tiles: None,
                    unreadable,
                });
                continue;
            }
        };
        let checked = FileCheck::clone(&check_shared(&text, &name, vocab, options));
        let mut diagnostics = Vec::new();
        for (id, pos) in checked.ids {
            match defined.get(&id) {
                Some((file, line)) => {
                    let msg = format!("tile id `{id}` is already defined in {file} (line {line})");
                    diagnostics.push(Diagnostic::at(&name, pos, msg));
                }
                None => {
                    defined.insert(id, (name.clone(), pos.line));
                }
            }
        }
        // An expansion's start tile replaces the base game's; two others clash.
        let expansion = checked.result.as_ref().ok().map(|f| f.expansion.clone());
        if let (Some((start, pos)), Some(expansion)) = (checked.start, expansion) {
            match &start_named {
                Some((file, other, line, by)) if (by == "base") == (expansion == "base") => {
                    let msg = format!(
                        "start tile `{start}` named, but {file} already names `{other}` \
                         (line {line}); a game has one start tile: the base game's, or one \
                         expansion's in its place"
                    );
                    diagnostics.push(Diagnostic::at(&name, pos, msg));
                }
                Some((.., by)) if by != "base" => {}
                _ => start_named = Some((name.clone(), start, pos.line, expansion)),
            }
        }
        let (tiles, diagnostics) = match checked.result {
            Ok(file) if diagnostics.is_empty() => (Some(file), diagnostics),
            Ok(_) => (None, diagnostics),
            Err(mut found) => {
                found.extend(diagnostics);
                (None, found)
            }
        };
        let mut diagnostics = diagnostics;
        sort_and_dedup(&mut diagnostics);
        report.files.push(FileReport {
            name,
            diagnostics,
            tiles,
            unreadable: false,
        });
    }
    report
}
