//! The host the `carc` command line uses, set up once per process from its flags
//! (`--plugin-dir`, `--config`, `--linked`, `--plugin`) and the environment.

use std::collections::BTreeMap;
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

/// Checks a plugin directory as the host uses it (`carc validate PLUGIN_DIR`): its
/// manifest, tile data, requirements and trust, among the plugins this host finds; then
/// its library, opened as `carc plugins list` opens it (not when its trust forbids), and
/// its expansion, made for a game with the base game and what it requires — so that a
/// library built from another manifest, or an expansion whose `new` fails, is said here
/// and not in the first game. A refusal comes with whether the manifest and tile data
/// themselves hold (the refusal is then about what lies beyond them).
pub fn check_plugin_dir(dir: &std::path::Path) -> Result<Vec<String>, Unusable> {
    let flags = FLAGS.get().cloned().unwrap_or_default();
    let mut dirs = vec![dir.to_path_buf()];
    dirs.extend(flags.plugin_dirs);
    let mut settings =
        Settings::from_environment(dirs, flags.config.as_deref()).map_err(|why| Unusable {
            verdict: REFUSED,
            why,
            declarations_hold: false,
        })?;
    settings.linked = flags.linked;
    let host = Host::load(&settings);
    let same = |p: &std::path::Path| p.canonicalize().ok() == dir.canonicalize().ok();
    let find = || {
        host.plugins()
            .into_iter()
            .find(|e| e.dir.as_deref().is_some_and(same))
            .ok_or_else(|| Unusable {
                verdict: REFUSED,
                why: format!("`{}` holds no plugin (no manifest.toml)", dir.display()),
                declarations_hold: false,
            })
    };
    let entry = find()?;
    if let crate::host::Status::Available = entry.status {
        host.open_plugin(&entry.id);
    }
    let entry = find()?;
    if let crate::host::Status::Shadowed(by) = &entry.status {
        let instead = format!(
            "another of the id `{}`, {}, is used instead",
            entry.id,
            crate::host::shadowing_place(by.as_deref())
        );
        // Shadowed for being refused (it could not be read): its own problem first.
        let (verdict, why) = match entry.detail.as_str() {
            "" => ("the plugin would not be used", instead),
            detail => (REFUSED, format!("{detail}\n(and {instead})")),
        };
        return Err(Unusable {
            verdict,
            why,
            declarations_hold: entry.declarations_hold,
        });
    }
    if let crate::host::Status::Refused(_) = entry.status {
        return Err(Unusable {
            verdict: REFUSED,
            why: entry.detail.clone(),
            declarations_hold: entry.declarations_hold,
        });
    }
    let ids = with_requirements(&host, &entry.id);
    host.rules(&ids, &Default::default())
        .map_err(|why| Unusable {
            verdict: "the plugin loads, but no game can use it",
            why,
            declarations_hold: true,
        })?;
    let mut warnings = beside_the_others(&host, &ids);
    let plugins = host.plugins();
    let others: Vec<&carc_core::manifest::Manifest> = plugins
        .iter()
        .filter(|e| !matches!(e.status, crate::host::Status::Shadowed(_)))
        .filter_map(|e| e.manifest.as_ref())
        .collect();
    if let Some(mine) = &entry.manifest {
        warnings.extend(carc_core::plugin::mistyped_points(mine, &others));
    }
    Ok(warnings)
}

/// Why a plugin directory would not be used (see [`check_plugin_dir`]).
#[derive(Debug)]
pub struct Unusable {
    /// The verdict: `the plugin would be refused`, `the plugin would not be used`
    /// (another of its id is used instead) or `the plugin loads, but no game can use it`.
    pub verdict: &'static str,
    /// Why, in full (a located report can take several lines).
    pub why: String,
    /// Whether its manifest and tile data hold (what is wrong lies beyond them).
    pub declarations_hold: bool,
}

/// The verdict on a plugin that is refused.
const REFUSED: &str = "the plugin would be refused";

/// `lead: detail`, where a detail of several lines (a located report: file, line, caret)
/// begins on a line of its own.
pub fn followed_by(lead: &str, detail: &str) -> String {
    let sep = if detail.contains('\n') { "\n" } else { " " };
    format!("{lead}:{sep}{detail}")
}

/// Whether a plugin (with what it requires, `ids`) can be played beside every other
/// expansion carc finds, with their default options and under each option value that
/// changes the turn's phases (a phase of its own placed where another expansion's
/// optional phase may be): what stops it, as warnings. The plugin is valid alone; these
/// are games its players could not set up.
fn beside_the_others(host: &Host, ids: &[String]) -> Vec<String> {
    let mut all: Vec<String> = ids.to_vec();
    all.extend(host.ids().into_iter().filter(|id| !ids.contains(id)));
    if all.len() == ids.len() {
        return Vec::new();
    }
    // The default options, then each option value a phase is declared for.
    let mut variants: Vec<BTreeMap<String, String>> = vec![BTreeMap::new()];
    for entry in host.plugins() {
        let Some(manifest) = entry.manifest.filter(|m| all.contains(&m.id)) else {
            continue;
        };
        for phase in &manifest.phases {
            if let Some(when) = &phase.when {
                let option = BTreeMap::from([(
                    format!("{}.{}", manifest.id, when.option),
                    when.value.clone(),
                )]);
                if !variants.contains(&option) {
                    variants.push(option);
                }
            }
        }
    }
    let mut warnings: Vec<String> = Vec::new();
    for options in &variants {
        if let Err(e) = host.rules(&all, options) {
            let under = match options.iter().next() {
                Some((k, v)) => format!(" with the rule option `{k} = {v}`"),
                None => String::new(),
            };
            let beside: Vec<String> = all
                .iter()
                .filter(|id| !ids.contains(id))
                .map(|id| format!("`{id}`"))
                .collect();
            let lead = format!("beside {}{under}, no game can be set up", beside.join(", "));
            let warning = followed_by(&lead, &e);
            if !warnings.contains(&warning) {
                warnings.push(warning);
            }
        }
    }
    warnings
}

/// An expansion's id and those of every expansion it requires, directly or not.
fn with_requirements(host: &Host, id: &str) -> Vec<String> {
    let entries = host.plugins();
    let mut ids = vec![id.to_string()];
    let mut i = 0;
    while i < ids.len() {
        let manifest = entries
            .iter()
            .find(|e| e.id == ids[i] && !matches!(e.status, crate::host::Status::Shadowed(_)))
            .and_then(|e| e.manifest.as_ref());
        for req in manifest.iter().flat_map(|m| m.requires.keys()) {
            if req != "carc" && !ids.contains(req) {
                ids.push(req.clone());
            }
        }
        i += 1;
    }
    ids
}
