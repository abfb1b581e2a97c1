//! Checks tile-data files and reports every problem with file, line, column and a caret.
//!
//! PLACEHOLDER: a minimal version so the engine can load data; the full validator
//! (schema + semantic checks, spans) replaces it.

use std::fmt;

use super::def::TileFile;
use super::vocab::Vocabulary;

/// How strict a validation run is.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Accept markers no enabled expansion registers (tiles-only mode).
    pub tiles_only: bool,
}

/// One located problem in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file's name as given.
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: usize,
    /// 1-based column, 0 when unknown.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The source line and a caret under the offending text, when located.
    pub snippet: String,
}

impl Diagnostic {
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
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, self.line, self.column, self.message
            )?;
        } else {
            write!(f, "{}: error: {}", self.file, self.message)?;
        }
        if !self.snippet.is_empty() {
            write!(f, "\n{}", self.snippet)?;
        }
        Ok(())
    }
}

/// Parses and checks a tile-data file; returns the parsed file or every problem found.
pub fn check(
    source: &str,
    file_name: &str,
    _vocab: &Vocabulary,
    _options: &Options,
) -> Result<TileFile, Vec<Diagnostic>> {
    toml::from_str(source).map_err(|e| vec![Diagnostic::unlocated(file_name, e.to_string())])
}

/// PLACEHOLDER report.
pub struct Report(Vec<Diagnostic>);
impl Report {
    /// Rendered.
    pub fn render(&self) -> String {
        self.0.iter().map(|d| format!("{d}\n")).collect()
    }
    /// Ok.
    pub fn is_ok(&self) -> bool {
        self.0.is_empty()
    }
}
/// PLACEHOLDER.
pub fn check_files(paths: &[std::path::PathBuf], vocab: &Vocabulary, o: &Options) -> Report {
    let mut v = Vec::new();
    for p in paths {
        let s = std::fs::read_to_string(p).unwrap_or_default();
        if let Err(e) = check(&s, &p.display().to_string(), vocab, o) {
            v.extend(e)
        }
    }
    Report(v)
}
