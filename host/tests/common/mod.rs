//! Shared helpers for the command-line tests.
#![allow(dead_code)]

pub mod plugins;
pub mod scaffold;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs `carc` with arguments from the repository root.
pub fn carc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("carc runs")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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
