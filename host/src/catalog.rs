//! The host the `carc` command line uses, set up once per process from its flags
//! (`--plugin-dir`, `--config`, `--linked`, `--plugin`) and the environment.

use std::path::PathBuf;
use std::sync::OnceLock;

use carc_core::catalog::Catalog;

use crate::host::{Host, Settings};
use crate::plugins::Found;

/// What the command line said about plugins.
#[derive(Clone, Debug, Default)]
pub struct Flags {
    /// `--plugin-dir` (repeatable).
    pub plugin_dirs: Vec<PathBuf>,
    /// `--config`.
    pub config: Option<PathBuf>,
    /// `--linked`.
    pub linked: bool,
    /// `--plugin` (repeatable).
    pub libraries: Vec<PathBuf>,
    /// The command writes the configuration file (`carc plugins enable` …): a file named
    /// by `--config` or `CARC_CONFIG` may be absent, as it will be made.
    pub config_is_written: bool,
}

static FLAGS: OnceLock<Flags> = OnceLock::new();
static HOST: OnceLock<Result<Host, String>> = OnceLock::new();

/// Records the command line's flags (once, by `main`, before the host is first used).
pub fn set_flags(flags: Flags) {
    let _ = FLAGS.set(flags);
}

/// Whether `--linked` was given.
pub fn linked() -> bool {
    FLAGS.get().is_some_and(|f| f.linked)
}

/// The process's host, set up on first use; an unreadable configuration is an error.
pub fn host() -> Result<&'static Host, String> {
    HOST.get_or_init(|| {
        let flags = FLAGS.get().cloned().unwrap_or_default();
        let config = crate::config::load(flags.config.as_deref(), flags.config_is_written)?;
        let mut settings = Settings::with_config(flags.plugin_dirs, config);
        settings.linked = flags.linked;
        settings.libraries = flags.libraries;
        let host = Host::load(&settings);
        for w in &host.warnings {
            errln!("warning: {w}");
        }
        Ok(host)
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// A catalog of these expansions (see [`Host::catalog_for`]).
pub fn catalog_for(expansions: &[String]) -> Result<Catalog, String> {
    host()?.catalog_for(expansions)
}

/// The expansions of these plugins (those that loaded; a warning for each of the others),
/// for plugins handled outside a host (`carc simulate --compare-linking`, tests).
pub fn catalog_of(found: &[Found]) -> Catalog {
    let mut c = Catalog::new();
    for f in found {
        let added = f
            .module
            .clone()
            .and_then(carc_core::plugin::Plugin::factory)
            .and_then(|factory| c.add(factory));
        if let Err(e) = added {
            errln!("warning: plugin `{}` is not available: {e}", f.name);
        }
    }
    c
}

/// Checks a plugin directory as the host checks every plugin before opening its library
/// (`carc validate PLUGIN_DIR`): its manifest, tile data, requirements and trust, among
/// the plugins this host finds. Opens no library. A refusal comes with whether the
/// manifest and tile data themselves hold (the refusal is then about what lies beyond
/// them: the library, its trust, a refused requirement).
pub fn check_plugin_dir(dir: &std::path::Path) -> Result<(), (String, bool)> {
    let flags = FLAGS.get().cloned().unwrap_or_default();
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(flags.plugin_dirs);
    let mut settings =
        Settings::from_environment(dirs, flags.config.as_deref()).map_err(|why| (why, false))?;
    settings.linked = flags.linked;
    let host = Host::load(&settings);
    let same = |p: &std::path::Path| p.canonicalize().ok() == dir.canonicalize().ok();
    let entry = host
        .plugins()
        .into_iter()
        .find(|e| e.dir.as_deref().is_some_and(same))
        .ok_or_else(|| {
            let why = format!("`{}` holds no plugin (no manifest.toml)", dir.display());
            (why, false)
        })?;
    match entry.status {
        crate::host::Status::Refused(_) => Err((entry.detail, entry.declarations_hold)),
        _ => Ok(()),
    }
}
