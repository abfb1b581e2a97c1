//! Where the fixture plugins' shared libraries are, for the tests that load them
//! (`faults.rs`, `compat.rs`). carc-host depends on the fixture crates for its tests, so
//! `cargo test` builds their libraries into `target/<profile>/deps/` (and
//! `cargo build --workspace` into `target/<profile>/`); a test that cannot find one fails
//! and says how to build it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The misbehaving fixture (`plugins/fixtures/misbehaving`), by crate name.
pub const MISBEHAVING: &str = "carc_fixture_misbehaving";
/// The protocol fixture (`plugins/fixtures/protocol`), by crate name.
pub const PROTOCOL: &str = "carc_fixture_protocol";
/// The environment variable naming the protocol the protocol fixture reports.
pub const PROTOCOL_VARIABLE: &str = "CARC_FIXTURE_PROTOCOL";
/// How the lines begin that the protocol fixture writes when any of its code beyond its
/// protocol runs.
pub const PROTOCOL_RAN: &str = "carc-fixture-protocol ran:";
/// How the lines begin that the protocol fixture writes when it is told that a turn ended
/// (when it reports protocol 1.7, the test-only next protocol).
pub const PROTOCOL_SAW: &str = "carc-fixture-protocol saw:";

/// The directory of this build's profile (`target/debug`): where `carc` is.
pub fn profile_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_carc"))
        .parent()
        .expect("the carc binary is in a directory")
        .to_path_buf()
}

/// A fixture plugin's shared library, from this build. Panics (failing the test) when
/// it is missing: a missing fixture must never make a test pass unseen.
pub fn library(crate_name: &str) -> PathBuf {
    let file = format!(
        "{}{crate_name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let dir = profile_dir();
    // `deps/` first: it is what `cargo test` rebuilds for carc-host's tests.
    let candidates = [dir.join("deps").join(&file), dir.join(&file)];
    if let Some(found) = candidates.iter().find(|p| p.is_file()) {
        return found.clone();
    }
    panic!(
        "the fixture plugin library `{file}` is in neither `{}` nor `{}`. `cargo test` \
         builds it (carc-host's tests depend on the fixture crates); to build it alone, run \
         `cargo build -p {}`",
        candidates[0].display(),
        candidates[1].display(),
        crate_name.replace('_', "-")
    );
}

/// The directory the shipped plugins' libraries are built into.
pub fn shipped_dirs() -> Vec<PathBuf> {
    let dir = profile_dir();
    vec![dir.join("deps"), dir]
}
