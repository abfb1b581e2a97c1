//! A crate made by `carc new expansion wishing-well` and built where it keeps its own
//! `target/` between test runs, for the tests of the scaffold and of the guide.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `carc` with arguments, in `dir`, away from the user's configuration and plugins.
pub fn carc_in(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_carc"))
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env_remove("CARC_CONFIG")
        .env_remove("CARC_PLUGIN_PATH")
        .output()
        .expect("carc runs")
}

/// `cargo` with arguments in a made crate: offline (every crate it needs is already in
/// cargo's cache, as the workspace's build put it there), its own `target/`, no debug
/// information (a third less time to build).
pub fn cargo_in(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| env!("CARGO").into());
    Command::new(cargo)
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .env("CARGO_PROFILE_DEV_DEBUG", "0")
        .output()
        .expect("cargo runs")
}

/// Where the made crate is built: a directory under this build's `target/` that keeps
/// its own `target/` between test runs (the sources are copied in anew each time), so
/// that only the first run compiles every dependency.
pub fn build_dir() -> PathBuf {
    let target = Path::new(env!("CARGO_BIN_EXE_carc"))
        .parent()
        .and_then(Path::parent)
        .expect("carc is in target/<profile>/")
        .to_path_buf();
    target.join("scaffold").join("wishing-well")
}

/// Copies the files of `from` over `to` (directories made as needed).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
