//! Shared helpers for the command-line tests.
#![allow(dead_code)]

pub mod plugins;
pub mod scaffold;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A `carc` command with arguments, to run in the repository root.
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_carc"));
    c.args(args).current_dir(root());
    c
}

/// Runs `carc` with arguments from the repository root.
pub fn carc(args: &[&str]) -> Output {
    command(args).output().expect("carc runs")
}

/// Runs `carc` with arguments from the repository root and `input` on its standard
/// input.
pub fn carc_with_stdin(args: &[&str], input: Vec<u8>) -> Output {
    let mut child = command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("carc runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // carc may stop reading early (an input over the limit): a failed write is no error.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("carc ends");
    writer.join().expect("the writer thread ends");
    out
}

/// The whole output of a run, for failure messages.
pub fn show(o: &Output) -> String {
    format!(
        "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
        o.status.code(),
        stdout(o),
        stderr(o)
    )
}

/// Asserts that a run exited with `code` and that its standard error says `words`.
#[track_caller]
pub fn exits_saying(o: &Output, code: i32, words: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", show(o));
    assert!(stderr(o).contains(words), "{}", show(o));
}

/// Writes `text` to `dir/name` and returns the path as a string.
pub fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("scratch file");
    p.to_str().expect("a UTF-8 temp path").to_owned()
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The fenced blocks of a page of `docs/` (a file name such as `game-records.md`):
/// (language, text).
pub fn doc_blocks(page: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root().join("docs").join(page)).expect("the page");
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in text.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((lang.trim().to_string(), String::new())),
            (Some(_), Some("")) => out.extend(open.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{page}: a block is not closed");
    out
}

/// The manifest of a test-only expansion: an id, a name, version 0.1.0 and nothing
/// declared.
pub fn test_manifest(id: &str, name: &str) -> carc_core::expansion::Manifest {
    carc_core::expansion::Manifest {
        id: id.into(),
        name: name.into(),
        version: "0.1.0".into(),
        ..Default::default()
    }
}

/// A fresh scratch directory for one test: removed when the test is done with it, kept
/// (and its path printed) when the test fails, to look into.
pub fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("carc-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    Scratch(d)
}

/// A scratch directory, removed on drop unless the test is failing.
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    // The test harness shows this beside the failure's message.
    #[allow(clippy::disallowed_macros)]
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the failing test's files are kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A row of `carc plugins list --json` as its table says its status: `status`, then
/// `: reason` when there is one (`refused: why`).
pub fn listed_status(row: &serde_json::Value) -> String {
    let status = row["status"].as_str().unwrap_or_default();
    match row["reason"].as_str() {
        Some(reason) => format!("{status}: {reason}"),
        None => status.to_string(),
    }
}
