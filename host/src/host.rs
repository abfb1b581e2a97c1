//! The host: finds plugin directories, checks each before any library is opened, and
//! makes games' rules from any enabled subset of the plugins, opening a library only
//! when its expansion is first enabled. Load once, then play with any set:
//!
//! ```no_run
//! use std::collections::BTreeMap;
//! use carc_host::host::{Host, Settings};
//!
//! let host = Host::load(&Settings::from_environment(Vec::new(), None)?);
//! for p in host.plugins() {
//!     println!("{} {}: {}", p.id, p.version, p.status);
//! }
//! let options = BTreeMap::new();
//! // The base game alone, then with The Princess and the Dragon: the same loaded host.
//! let base = host.rules(&[], &options)?;
//! let pd = host.rules(&["princess-dragon".to_string()], &options)?;
//! # let _ = (base, pd);
//! # Ok::<(), String>(())
//! ```
//!
//! Where plugins are looked for, in order (the first plugin of an id wins; a later one
//! of the same id is *shadowed*): every `--plugin-dir`, `CARC_PLUGIN_PATH`
//! (`:`-separated), the configuration's `plugin-dirs`, the user's directory
//! (`$XDG_DATA_HOME/carc/plugins`, default `~/.local/share/carc/plugins`), and the
//! shipped plugins' directory (`plugins/` beside `carc`, else the checkout's). Each is a
//! directory of plugin directories; one that itself holds a `manifest.toml` is a single
//! plugin.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use carc_core::catalog::{Catalog, Factory};
use carc_core::declared::{self, Declared};
use carc_core::manifest::Manifest;
use carc_core::plugin::{HOST_PROTOCOL, Plugin};
use carc_core::rules::{Rules, RulesError};
use carc_sdk::abi::PluginMod_Ref;

use crate::config::{self, Config};
use crate::package::{MANIFEST_FILE, Package};
use crate::plugins;

/// What the host is told: where to look and what the configuration says.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Directories given with `--plugin-dir`, searched first.
    pub plugin_dirs: Vec<PathBuf>,
    /// `CARC_PLUGIN_PATH`'s directories.
    pub env_dirs: Vec<PathBuf>,
    /// The configuration.
    pub config: config::Loaded,
    /// The user's plugin directory.
    pub user_dir: Option<PathBuf>,
    /// The directory of the shipped plugins.
    pub shipped_dir: Option<PathBuf>,
    /// Where this host's build put the shipped plugins' libraries.
    pub build_dirs: Vec<PathBuf>,
    /// Use the shipped plugins linked into this binary instead of their directories.
    pub linked: bool,
    /// Plugin libraries given by path (`--plugin`), with the manifest they carry.
    pub libraries: Vec<PathBuf>,
}

impl Settings {
    /// The settings of this process: `plugin_dirs` from `--plugin-dir`, the
    /// configuration from `config` (`--config`) or its usual places, `CARC_PLUGIN_PATH`,
    /// the user's and the shipped directories.
    pub fn from_environment(
        plugin_dirs: Vec<PathBuf>,
        config: Option<&Path>,
    ) -> Result<Settings, String> {
        Ok(Settings::with_config(
            plugin_dirs,
            config::load(config, false)?,
        ))
    }

    /// As [`Settings::from_environment`], with a configuration already read.
    pub fn with_config(plugin_dirs: Vec<PathBuf>, config: config::Loaded) -> Settings {
        let env_dirs = std::env::var_os("CARC_PLUGIN_PATH")
            .map(|p| {
                std::env::split_paths(&p)
                    .filter(|d| !d.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default();
        Settings {
            plugin_dirs,
            env_dirs,
            config,
            user_dir: config::xdg_dir("XDG_DATA_HOME", ".local/share")
                .map(|d| d.join("carc").join("plugins")),
            shipped_dir: shipped_dir(),
            build_dirs: plugins::build_dirs(),
            linked: false,
            libraries: Vec::new(),
        }
    }
}

/// The directory of the shipped plugins: `plugins/` beside an installed `carc`, else the
/// source checkout's `plugins/` this `carc` was built from.
pub fn shipped_dir() -> Option<PathBuf> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("plugins")))
        .filter(|d| d.is_dir());
    beside.or_else(|| {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("plugins");
        checkout.canonicalize().ok().filter(|d| d.is_dir())
    })
}

/// Whether a plugin can be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Checked; its library is opened when its expansion is first enabled.
    Available,
    /// Its library is open and its module answered.
    Loaded,
    /// Linked into this binary.
    Linked,
    /// Refused, with why; its library was not opened (or did not load).
    Refused(String),
    /// Another plugin of the same id was found first: in this directory or library
    /// (`None`: the plugin linked into carc).
    Shadowed(Option<PathBuf>),
}

/// Where the plugin shadowing another is: `in `DIR`` or `linked into carc`.
pub fn shadowing_place(by: Option<&Path>) -> String {
    match by {
        Some(by) => format!("in `{}`", by.display()),
        None => "linked into carc".to_string(),
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Available => write!(f, "available"),
            Status::Loaded => write!(f, "loaded"),
            Status::Linked => write!(f, "linked"),
            Status::Refused(why) => write!(f, "refused: {}", why.lines().next().unwrap_or("")),
            Status::Shadowed(Some(by)) => write!(f, "shadowed by `{}`", by.display()),
            Status::Shadowed(None) => write!(f, "shadowed by the plugin linked into carc"),
        }
    }
}

/// One plugin found.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Its expansion id (for a plugin whose manifest could not be read, its directory's
    /// or library's name).
    pub id: String,
    /// Its version (empty when unknown).
    pub version: String,
    /// Its plugin directory (`None`: a library given by path, or linked in).
    pub dir: Option<PathBuf>,
    /// Its library's path, when found.
    pub library: Option<PathBuf>,
    /// Its manifest, when it could be read.
    pub manifest: Option<Manifest>,
    /// Its status.
    pub status: Status,
    /// The protocol its library was built for (known once it is loaded).
    pub protocol: String,
    /// The full reason of a refusal (a layout mismatch report can be long).
    pub detail: String,
    /// Whether its manifest and tile data were read and checked and hold (a refusal is
    /// then about its library: missing, untrusted or not loadable).
    pub declarations_hold: bool,
}

/// An entry's plugin as it is used: its package (when read from a directory) and, once
/// opened, its module.
struct Slot {
    package: Option<Package>,
    module: Option<PluginMod_Ref>,
    opened: OnceLock<Result<Factory, String>>,
}

/// The plugins found, checked and (on demand) loaded.
pub struct Host {
    entries: Mutex<Vec<Entry>>,
    slots: Vec<Slot>,
    config: Config,
    config_path: Option<PathBuf>,
    /// Problems with the search itself (a `--plugin-dir` that does not exist).
    pub warnings: Vec<String>,
}

/// Why a plugin directory given by name cannot be searched, said after its name (`None`:
/// it is a directory).
fn no_directory(d: &Path) -> Option<String> {
    match std::fs::metadata(d) {
        Ok(m) if m.is_dir() => None,
        Ok(m) if m.is_file() => Some("is a file, not a directory".into()),
        Ok(_) => Some("is not a directory".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(
            carc_core::input::leads_nowhere(d)
                .map_or_else(|| "does not exist".into(), |link| format!("is {link}")),
        ),
        Err(e) => Some(format!(
            "cannot be looked at: {}",
            carc_core::input::describe(&e)
        )),
    }
}

impl Host {
    /// Finds every plugin and checks each one; opens no library except those given by
    /// path and the linked ones.
    pub fn load(settings: &Settings) -> Host {
        let mut warnings = Vec::new();
        let mut roots: Vec<PathBuf> = Vec::new();
        for d in &settings.plugin_dirs {
            if let Some(why) = no_directory(d) {
                warnings.push(format!("plugin directory `{}` {why}", d.display()));
            }
            roots.push(d.clone());
        }
        roots.extend(settings.env_dirs.iter().cloned());
        // The configuration's are written down on purpose, as `--plugin-dir`s are (a
        // `CARC_PLUGIN_PATH` entry may name a directory still to come, as `PATH` does).
        for d in &settings.config.config.plugin_dirs {
            if let Some(why) = no_directory(d) {
                warnings.push(format!(
                    "the configuration's plugin directory `{}` {why}",
                    d.display()
                ));
            }
        }
        roots.extend(settings.config.config.plugin_dirs.iter().cloned());
        roots.extend(settings.user_dir.iter().cloned());
        let mut entries: Vec<Entry> = Vec::new();
        let mut slots: Vec<Slot> = Vec::new();
        if settings.linked {
            for found in plugins::shipped_linked() {
                add_module(&mut entries, &mut slots, &found, Status::Linked);
            }
        } else {
            roots.extend(settings.shipped_dir.iter().cloned());
        }
        for dir in roots.iter().flat_map(|r| plugin_dirs_in(r)) {
            let (entry, package) = match Package::read(&dir) {
                Ok(p) => (
                    Entry {
                        id: p.id().to_string(),
                        version: p.manifest.version.clone(),
                        dir: Some(dir.clone()),
                        library: None,
                        manifest: Some(p.manifest.clone()),
                        status: Status::Available,
                        protocol: String::new(),
                        detail: String::new(),
                        declarations_hold: false,
                    },
                    Some(p),
                ),
                Err(why) => {
                    // Named by its manifest when that reads (its tile data did not), else
                    // by the id its manifest gives, else by its directory.
                    let manifest = Package::read_manifest(&dir).ok();
                    let written_id = || {
                        let text = crate::package::read_text(&dir.join(MANIFEST_FILE)).ok()?;
                        carc_core::manifest::id_in(&text)
                    };
                    let id = match &manifest {
                        Some(m) => m.id.clone(),
                        None => written_id()
                            .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into()))
                            .unwrap_or_else(|| dir.display().to_string()),
                    };
                    let mut entry = refused(id, Some(dir.clone()), None, why);
                    if let Some(m) = manifest {
                        entry.version = m.version.clone();
                        entry.manifest = Some(m);
                    }
                    (entry, None)
                }
            };
            entries.push(entry);
            slots.push(Slot {
                package,
                module: None,
                opened: OnceLock::new(),
            });
        }
        for found in plugins::libraries(&settings.libraries) {
            add_module(&mut entries, &mut slots, &found, Status::Loaded);
        }
        // The first of an id wins; one that could not even be read (refused already)
        // wins only when no other of its id reads.
        for i in 0..entries.len() {
            if matches!(entries[i].status, Status::Shadowed(_)) {
                continue;
            }
            let id = entries[i].id.clone();
            let same = |e: &Entry| e.id == id && !matches!(e.status, Status::Shadowed(_));
            let winner = entries
                .iter()
                .position(|e| same(e) && !matches!(e.status, Status::Refused(_)))
                .or_else(|| entries.iter().position(same));
            if let Some(f) = winner.filter(|&w| w != i) {
                let by = entries[f]
                    .dir
                    .clone()
                    .or_else(|| entries[f].library.clone());
                entries[i].status = Status::Shadowed(by);
            }
        }
        let config = settings.config.config.clone();
        let shipped = settings.shipped_dir.as_deref();
        check_each(&mut entries, &slots, &config, &settings.build_dirs, shipped);
        // A library named with `--plugin` was asked for by name: its refusal is said
        // whatever the command (as a `--plugin-dir` that does not exist is).
        for path in &settings.libraries {
            let unused = entries.iter().find_map(|e| match &e.status {
                _ if e.library.as_ref() != Some(path) => None,
                Status::Refused(why) => Some(why.lines().next().unwrap_or("").to_string()),
                Status::Shadowed(by) => Some(format!(
                    "another plugin of the id `{}`, {}, was found first",
                    e.id,
                    shadowing_place(by.as_deref())
                )),
                _ => None,
            });
            if let Some(why) = unused {
                warnings.push(format!(
                    "plugin library `{}` is not used: {why}",
                    path.display()
                ));
            }
        }
        // A plugin in a directory named with `--plugin-dir` was asked for too: that
        // another of its id is used instead is said whatever the command (it was without
        // a word; one refused with no other of its id is said where it is enabled).
        let named = |dir: &Path| {
            settings
                .plugin_dirs
                .iter()
                .any(|d| d == dir || dir.parent() == Some(d.as_path()))
        };
        for e in &entries {
            let Some(dir) = e.dir.as_deref().filter(|d| named(d)) else {
                continue;
            };
            let first = |text: &str| text.lines().next().unwrap_or("").to_string();
            let dir = dir.display();
            warnings.push(match &e.status {
                Status::Shadowed(by) if !e.detail.is_empty() => format!(
                    "plugin directory `{dir}` is refused, and the plugin {} is used instead: {}",
                    shadowing_place(by.as_deref()),
                    first(&e.detail)
                ),
                Status::Shadowed(by) => format!(
                    "plugin directory `{dir}` is not used: another plugin of the id `{}`, {}, \
                     was found first",
                    e.id,
                    shadowing_place(by.as_deref())
                ),
                _ => continue,
            });
        }
        // A default rule option for an expansion no plugin provides is a typo, or a
        // plugin gone: said, as it is ignored (one for an expansion found but not
        // enabled is kept for when it is).
        for key in config.rules.keys() {
            let expansion = key.split_once('.').map_or(key.as_str(), |(e, _)| e);
            if expansion != "base" && !entries.iter().any(|e| e.id == expansion) {
                warnings.push(format!(
                    "the configuration's rule option `{key}` is ignored: no plugin provides \
                     an expansion `{expansion}`"
                ));
            }
        }
        Host {
            entries: Mutex::new(entries),
            slots,
            config,
            config_path: settings.config.path.clone(),
            warnings,
        }
    }

    /// Every plugin found, in the order found, with its status now.
    pub fn plugins(&self) -> Vec<Entry> {
        self.entries.lock().map(|e| e.clone()).unwrap_or_default()
    }

    /// The configuration in force.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The configuration file's path (`None`: no file applies).
    pub fn config_path(&self) -> Option<&Path> {
        self.config_path.as_deref()
    }

    /// The ids of the usable expansions (not refused, not shadowed), sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .plugins()
            .into_iter()
            .filter(|e| usable(&e.status))
            .map(|e| e.id)
            .collect();
        ids.sort();
        ids
    }

    /// The expansions enabled when none are named: the configuration's, else every
    /// usable one.
    pub fn default_expansions(&self) -> Vec<String> {
        self.config.expansions.clone().unwrap_or_else(|| self.ids())
    }

    /// Opens every usable plugin (for listing); a library that does not load makes its
    /// plugin refused.
    pub fn open_all(&self) {
        for i in 0..self.slots.len() {
            let _ = self.open(i);
        }
    }

    /// Opens the usable plugin of this id (the one not shadowed), so that its status says
    /// whether its library loads; a plugin not found or not usable is left as it is.
    pub fn open_plugin(&self, id: &str) {
        let index = self.entries.lock().ok().and_then(|entries| {
            entries
                .iter()
                .position(|e| e.id == id && !matches!(e.status, Status::Shadowed(_)))
        });
        if let Some(i) = index {
            let _ = self.open(i);
        }
    }

    /// A catalog holding exactly these expansions (the base game aside), after checking
    /// them as a set: each is usable, what each requires is enabled in a version it
    /// accepts, none conflicts with another, and their declarations go together (kinds,
    /// moves, precedence) — all before any library is opened. Then their libraries are
    /// opened (once per process).
    pub fn catalog_for(&self, expansions: &[String]) -> Result<Catalog, String> {
        let mut ids: Vec<&str> = expansions
            .iter()
            .map(String::as_str)
            .filter(|e| *e != "base")
            .collect();
        ids.sort();
        ids.dedup();
        let entries = self.plugins();
        let mut chosen = Vec::new();
        for id in &ids {
            let Some(i) = entries
                .iter()
                .position(|e| e.id == *id && !matches!(e.status, Status::Shadowed(_)))
            else {
                let known = self.ids();
                let refused: Vec<String> = entries
                    .iter()
                    .filter_map(|e| match &e.status {
                        Status::Refused(why) => Some(format!(
                            "`{}` was refused: {}",
                            e.id,
                            why.lines().next().unwrap_or("")
                        )),
                        _ => None,
                    })
                    .collect();
                let near =
                    carc_core::tiles::validate::nearest(id, known.iter().map(String::as_str), 2);
                return Err(format!(
                    "unknown expansion `{id}` (available: {}){}",
                    if known.is_empty() {
                        "none besides the base game".to_string()
                    } else {
                        known.join(", ")
                    },
                    match (near, refused.is_empty()) {
                        (Some(near), true) => format!("; did you mean `{near}`?"),
                        (Some(near), false) => {
                            format!("; {}; did you mean `{near}`?", refused.join("; "))
                        }
                        (None, true) => "; carc finds a plugin in another directory with \
                                         --plugin-dir DIR (`carc plugins list` shows what it \
                                         finds)"
                            .to_string(),
                        (None, false) => format!("; {}", refused.join("; ")),
                    }
                ));
            };
            if let Status::Refused(why) = &entries[i].status {
                return Err(format!(
                    "expansion `{id}` cannot be enabled:{}",
                    crate::output::then(why)
                ));
            }
            chosen.push(i);
        }
        let manifests: Vec<&Manifest> = chosen
            .iter()
            .filter_map(|&i| entries[i].manifest.as_ref())
            .collect();
        for m in &manifests {
            for (req, range) in m.requires.iter().filter(|(r, _)| *r != "carc") {
                let Some(other) = manifests.iter().find(|o| o.id == *req) else {
                    return Err(format!(
                        "expansion `{}` requires `{req}` {range}, which is not enabled (enable both: `--expansions {},{req}`)",
                        m.id, m.id
                    ));
                };
                if let Err(why) = version_matches(&other.version, range) {
                    return Err(format!(
                        "expansion `{}` requires `{req}` {range}: {why}",
                        m.id
                    ));
                }
            }
            for c in &m.conflicts {
                if manifests.iter().any(|o| o.id == *c) {
                    return Err(format!(
                        "expansions `{}` and `{c}` cannot be enabled together (`{}` declares the conflict)",
                        m.id, m.id
                    ));
                }
            }
        }
        let declared: Vec<Declared> = chosen
            .iter()
            .filter_map(|&i| self.slots[i].package.as_ref())
            .map(|p| Declared {
                manifest: p.manifest.clone(),
                tiles: p.tiles.clone(),
            })
            .collect();
        if declared.len() > 1 {
            declared::check(&declared).map_err(|e| {
                format!(
                    "expansions {} cannot be enabled together: {e}",
                    ids.iter()
                        .map(|i| format!("`{i}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?;
        }
        let mut catalog = Catalog::new();
        for &i in &chosen {
            let factory = self.open(i)?;
            catalog.add(factory)?;
        }
        Ok(catalog)
    }

    /// The rules for the base game plus these expansions with these options (see
    /// [`Host::catalog_for`]).
    pub fn rules(
        &self,
        expansions: &[String],
        options: &BTreeMap<String, String>,
    ) -> Result<Rules, String> {
        self.catalog_for(expansions)?
            .rules(expansions, options)
            .map_err(|e| said(&self.plugins(), &self.slots, &e))
    }

    /// Opens plugin `i`'s library (once) and reads its module, or says why not; a
    /// failure refuses the plugin.
    fn open(&self, i: usize) -> Result<Factory, String> {
        let entry = self.entries.lock().ok().and_then(|e| e.get(i).cloned());
        let Some(entry) = entry.filter(|e| usable(&e.status)) else {
            return Err("the plugin is not usable".into());
        };
        let slot = &self.slots[i];
        let result = slot
            .opened
            .get_or_init(|| {
                if let Some(p) = slot
                    .package
                    .as_ref()
                    .filter(|p| p.manifest.library.is_none())
                {
                    return Ok(tile_pack(p));
                }
                let module = match (slot.module, &entry.library) {
                    (Some(m), _) => Ok(m),
                    (None, Some(path)) => plugins::load_library(path),
                    (None, None) => Err("its library was not found".to_string()),
                };
                module.and_then(|m| {
                    let protocol = (m.protocol())().as_str().to_string();
                    let factory = match &slot.package {
                        Some(p) => {
                            let f = Plugin::factory_from(
                                m,
                                Some(&p.manifest_text),
                                Some(p.tiles.clone()),
                            )?;
                            if let Some(why) = p.built_from_another_manifest(
                                (m.manifest())().as_str(),
                                entry.library.as_deref(),
                            ) {
                                return Err(why);
                            }
                            f
                        }
                        None => Plugin::factory(m)?,
                    };
                    if let Ok(mut entries) = self.entries.lock() {
                        entries[i].protocol = protocol.split(';').next().unwrap_or("").to_string();
                    }
                    Ok(factory)
                })
            })
            .clone();
        if let Ok(mut entries) = self.entries.lock() {
            let e = &mut entries[i];
            match &result {
                Ok(_) if e.status == Status::Available => e.status = Status::Loaded,
                Ok(_) => {}
                Err(why) => {
                    e.detail = why.clone();
                    e.status = Status::Refused(why.clone());
                }
            }
        }
        result.map_err(|why| format!("plugin `{}` did not load: {why}", entry.id))
    }
}

/// A tile pack's expansion: its declarations and tile data, no code.
fn tile_pack(p: &Package) -> Factory {
    let pack = Declared {
        manifest: p.manifest.clone(),
        tiles: p.tiles.clone(),
    };
    std::sync::Arc::new(move || Box::new(pack.clone()))
}

/// A problem putting expansions together, as said to players and plugin authors: with
/// file, line, column and a caret in the manifest it is about (that of the plugin used
/// under that id, read from its directory), when it is one manifest's declaration.
fn said(entries: &[Entry], slots: &[Slot], e: &RulesError) -> String {
    entries
        .iter()
        .zip(slots)
        .filter(|(entry, _)| !matches!(entry.status, Status::Shadowed(_)))
        .filter_map(|(_, slot)| slot.package.as_ref())
        .find_map(|p| {
            let file = p.dir.join(MANIFEST_FILE).display().to_string();
            e.located_in(&p.manifest.id, &p.manifest_text, &file)
        })
        .map_or_else(|| e.to_string(), |d| d.to_string())
}

/// Whether a plugin with this status can be enabled.
fn usable(status: &Status) -> bool {
    matches!(status, Status::Available | Status::Loaded | Status::Linked)
}

/// Whether `dir` is a plugin directory: it holds a manifest. A manifest that is a link to
/// nothing still marks one (a plugin that cannot be read, and is said to be refused rather
/// than passed over in silence).
pub fn holds_manifest(dir: &Path) -> bool {
    dir.join(MANIFEST_FILE).symlink_metadata().is_ok()
}

/// What a directory holding no manifest is, given where a tile file or a plugin directory
/// is wanted.
pub const NOT_A_PLUGIN_DIR: &str = "a directory but not a plugin directory (it holds no \
                                    `manifest.toml`): give a tile file or a plugin directory";

/// The plugin directories in a search directory, by name; the directory itself when it
/// holds a manifest. A directory that cannot be read holds none.
fn plugin_dirs_in(root: &Path) -> Vec<PathBuf> {
    if holds_manifest(root) {
        return vec![root.to_path_buf()];
    }
    let Ok(read) = std::fs::read_dir(root) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = read
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir() && holds_manifest(p))
        .collect();
    dirs.sort();
    dirs
}

/// A plugin that cannot be used, known by a name, its directory or library, and why.
fn refused(id: String, dir: Option<PathBuf>, library: Option<PathBuf>, why: String) -> Entry {
    Entry {
        id,
        version: String::new(),
        dir,
        library,
        manifest: None,
        status: Status::Refused(why.clone()),
        protocol: String::new(),
        detail: why,
        declarations_hold: false,
    }
}

/// A plugin known by its module (linked in) or by a library path: `status` when its
/// module answered, refused otherwise.
fn add_module(
    entries: &mut Vec<Entry>,
    slots: &mut Vec<Slot>,
    found: &plugins::Found,
    status: Status,
) {
    let library = match &found.origin {
        plugins::Origin::Library(p) => Some(p.clone()),
        plugins::Origin::Linked => None,
    };
    let described = found
        .module
        .clone()
        .and_then(|m| Plugin::new(m).map(|p| (m, p)));
    let (entry, module) = match described {
        Ok((m, p)) => {
            let manifest = carc_core::expansion::Expansion::manifest(&p);
            (
                Entry {
                    id: manifest.id.clone(),
                    version: manifest.version.clone(),
                    dir: None,
                    library,
                    manifest: Some(manifest),
                    status,
                    protocol: p.protocol().to_string(),
                    detail: String::new(),
                    declarations_hold: false,
                },
                Some(m),
            )
        }
        Err(why) => (refused(found.name.clone(), None, library, why), None),
    };
    entries.push(entry);
    slots.push(Slot {
        package: None,
        module,
        opened: OnceLock::new(),
    });
}

/// Whether `version` is in `range`, or why not.
fn version_matches(version: &str, range: &str) -> Result<(), String> {
    let req = semver::VersionReq::parse(range).map_err(|e| {
        format!(
            "`{range}` is not a version range: {}",
            carc_core::manifest::semver_words(&e)
        )
    })?;
    let v = semver::Version::parse(version)
        .map_err(|e| format!("`{version}` is not a version: {e}"))?;
    if req.matches(&v) {
        Ok(())
    } else {
        Err(format!("version {version} is found, outside {range}"))
    }
}

/// The host's plugin protocol as a full version (`1.0` → `1.0.0`).
fn host_protocol() -> String {
    match HOST_PROTOCOL.split('.').count() {
        1 => format!("{HOST_PROTOCOL}.0.0"),
        2 => format!("{HOST_PROTOCOL}.0"),
        _ => HOST_PROTOCOL.to_string(),
    }
}

/// Checks every plugin read from a directory on its own: what it requires (the host's
/// protocol, and other plugins found, in a version it accepts), its tile data, its
/// declarations with the base game and what it requires, its library's presence, and
/// trust. Refusals spread to the plugins that require a refused one.
fn check_each(
    entries: &mut [Entry],
    slots: &[Slot],
    config: &Config,
    build_dirs: &[PathBuf],
    shipped: Option<&Path>,
) {
    // A plugin of the shipped directory is built with this host.
    let ships = |p: &Package| shipped.is_some_and(|s| p.dir.starts_with(s));
    for (i, slot) in slots.iter().enumerate() {
        let Some(p) = &slot.package else { continue };
        if entries[i].status != Status::Available {
            continue;
        }
        let refusal = (|| -> Result<Option<PathBuf>, String> {
            if let Some(range) = p.manifest.requires.get("carc") {
                version_matches(&host_protocol(), range).map_err(|_| {
                    p.at_key(
                        &["requires", "carc"],
                        format!(
                            "it requires carc protocol {range}, and this host speaks \
                             {HOST_PROTOCOL}"
                        ),
                    )
                })?;
            }
            let mut required: Vec<&Manifest> = Vec::new();
            for (req, range) in p.manifest.requires.iter().filter(|(r, _)| *r != "carc") {
                let other = entries
                    .iter()
                    .filter(|e| e.id == *req && !matches!(e.status, Status::Shadowed(_)))
                    .find_map(|e| e.manifest.as_ref())
                    .ok_or_else(|| {
                        let installed = entries
                            .iter()
                            .filter(|e| e.id != p.id() && !matches!(e.status, Status::Shadowed(_)))
                            .map(|e| e.id.as_str());
                        let near = match carc_core::tiles::validate::nearest(req, installed, 2) {
                            Some(near) => format!("; did you mean `{near}`?"),
                            None => String::new(),
                        };
                        p.at_key(
                            &["requires", req],
                            format!("it requires `{req}` {range}, which is not installed{near}"),
                        )
                    })?;
                version_matches(&other.version, range).map_err(|why| {
                    p.at_key(
                        &["requires", req],
                        format!("it requires `{req}` {range}: {why}"),
                    )
                })?;
                required.push(other);
            }
            p.check_tiles(&required)?;
            let mut with: Vec<Declared> = required
                .iter()
                .map(|m| Declared {
                    manifest: (*m).clone(),
                    tiles: slots
                        .iter()
                        .filter_map(|s| s.package.as_ref())
                        .find(|q| q.manifest.id == m.id)
                        .map(|q| q.tiles.clone())
                        .unwrap_or_default(),
                })
                .collect();
            with.push(Declared {
                manifest: p.manifest.clone(),
                tiles: p.tiles.clone(),
            });
            declared::check(&with).map_err(|e| said(entries, slots, &e))?;
            // What others could rewrite decides the game (and, for a code plugin, which
            // library opens): the directory, its manifest and its tile files, tile pack
            // or not.
            let manifest_file = p.dir.join(crate::package::MANIFEST_FILE);
            let mut read = vec![p.dir.clone(), manifest_file];
            read.extend(p.tiles.iter().map(|t| PathBuf::from(&t.name)));
            if let Some(why) = read
                .iter()
                .find_map(|f| crate::trust::writable_by_others(f))
            {
                return Err(why);
            }
            entries[i].declarations_hold = true;
            if p.manifest.library.is_none() {
                // A tile pack: no code, nothing to open or to trust.
                return Ok(None);
            }
            let library = p.find_library(build_dirs, ships(p)).ok_or_else(|| {
                format!(
                    "its library `{}` is neither in `{}` nor where cargo builds it (its `target/` or `CARGO_TARGET_DIR`; run `cargo build` there)",
                    p.library_file(),
                    p.dir.display()
                )
            })?;
            crate::trust::check(config, p.id(), &library)?;
            Ok(Some(library))
        })();
        match refusal {
            Ok(library) => entries[i].library = library,
            Err(why) => {
                // Shown (and pinned again by `carc plugins trust`) even when refused.
                entries[i].library = p.find_library(build_dirs, ships(p));
                entries[i].detail = why.clone();
                entries[i].status = Status::Refused(why);
            }
        }
    }
    // A plugin requiring a refused one is refused too (until nothing changes).
    loop {
        let mut changed = false;
        for i in 0..entries.len() {
            if !usable(&entries[i].status) {
                continue;
            }
            let Some(m) = entries[i].manifest.clone() else {
                continue;
            };
            for req in m.requires.keys().filter(|r| *r != "carc") {
                let ok = entries.iter().any(|e| e.id == *req && usable(&e.status));
                if !ok {
                    let why = format!("it requires `{req}`, which was refused");
                    let why = match &slots[i].package {
                        Some(p) => p.at_key(&["requires", req], why),
                        None => why,
                    };
                    entries[i].detail = why.clone();
                    entries[i].status = Status::Refused(why);
                    changed = true;
                    break;
                }
            }
        }
        if !changed {
            break;
        }
    }
}
