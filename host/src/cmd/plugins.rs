//! `carc plugins list|info|enable|disable|trust`: the expansion plugins this host finds,
//! what each declares, which are enabled by default, and which libraries are trusted.

use clap::{Args, Subcommand};
use serde::Serialize;

use carc_core::tiles::validate::plural;

use crate::host::{Entry, Status};

/// `carc plugins` subcommands.
#[derive(Subcommand, Debug)]
pub enum PluginsCommand {
    /// List the plugins: id, version, protocol, status and library path.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    List(ListArgs),
    /// Show what a plugin declares: phases, rules and their resolved order, figures and
    /// tags, options, tiles.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Info(IdArgs),
    /// Enable an expansion by default (edits the configuration file).
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Enable(IdArgs),
    /// Stop enabling an expansion by default (edits the configuration file).
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Disable(IdArgs),
    /// Pin a plugin's library: its SHA-256 goes into the configuration, and a library
    /// that no longer matches is refused.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Trust(IdArgs),
}

/// Arguments of `carc plugins list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Print one JSON object per plugin (an array) instead of a table.
    #[arg(long)]
    json: bool,
    /// Show the whole reason of each refusal (a library's layout report can be long).
    #[arg(long)]
    verbose: bool,
}

/// A plugin named by its id.
#[derive(Args, Debug)]
pub struct IdArgs {
    /// The expansion id.
    id: String,
}

/// One plugin, as listed.
#[derive(Serialize, Debug)]
struct Listed {
    id: String,
    /// `null` when not known (a manifest that cannot be read).
    version: Option<String>,
    /// The protocol its library speaks; `null` when not known (no library was read).
    protocol: Option<String>,
    /// Its library's path (its directory when no library was found; `null` for a plugin
    /// linked into carc).
    path: Option<String>,
    /// The plugin directory it was found in (`null`: a library given by path, or linked
    /// in).
    dir: Option<String>,
    /// `available`, `loaded`, `linked`, `refused` or `shadowed` (JSON); the table's
    /// status also says why.
    status: String,
    /// Why it is refused or shadowed, in one line; `null` otherwise.
    reason: Option<String>,
}

/// The path shown for a plugin: its library, else its directory; `None` when it is
/// linked into carc.
fn shown_path(e: &Entry) -> Option<String> {
    e.library
        .as_ref()
        .or(e.dir.as_ref())
        .map(|p| p.display().to_string())
}

/// A version as listed: `None` when it is not known (empty).
fn known(version: &str) -> Option<String> {
    (!version.is_empty()).then(|| version.to_string())
}

/// Runs a `carc plugins` subcommand.
pub fn run(cmd: PluginsCommand) -> u8 {
    let result = match cmd {
        PluginsCommand::List(args) => list(&args),
        PluginsCommand::Info(args) => info(&args.id),
        PluginsCommand::Enable(args) => set_enabled(&args.id, true),
        PluginsCommand::Disable(args) => set_enabled(&args.id, false),
        PluginsCommand::Trust(args) => trust(&args.id),
    };
    match result {
        Ok(code) => code,
        Err(e) => super::fail(e),
    }
}

/// Lists the plugins; exit 0 (a refused plugin is a row, not a failure).
fn list(args: &ListArgs) -> Result<u8, String> {
    let host = crate::catalog::host()?;
    host.open_all();
    let plugins = host.plugins();
    let rows: Vec<Listed> = plugins
        .iter()
        .map(|e| Listed {
            id: e.id.clone(),
            version: known(&e.version),
            protocol: known(&e.protocol),
            path: shown_path(e),
            dir: e.dir.as_ref().map(|d| d.display().to_string()),
            status: status_word(&e.status).to_string(),
            reason: reason(e),
        })
        .collect();
    if args.json {
        let text = serde_json::to_string_pretty(&rows).map_err(|e| e.to_string())?;
        outln!("{text}");
        return Ok(0);
    }
    let width = rows.iter().map(|r| r.id.len()).max().unwrap_or(0).max(2);
    for (r, e) in rows.iter().zip(&plugins) {
        outln!(
            "{:<width$} {:<8} protocol {:<4} {}  {}",
            r.id,
            r.version.as_deref().unwrap_or("-"),
            r.protocol.as_deref().unwrap_or("-"),
            listed_status(e),
            r.path.as_deref().unwrap_or("(linked into carc)")
        );
    }
    if args.verbose {
        for e in plugins.iter().filter(|e| {
            matches!(e.status, Status::Refused(_))
                || (matches!(e.status, Status::Shadowed(_)) && !e.detail.is_empty())
        }) {
            let path = shown_path(e);
            let path = path.as_deref().unwrap_or("linked into carc");
            outln!("\n{} ({path}):\n{}", e.id, e.detail);
        }
    }
    Ok(0)
}

/// A status in one word, as `--json` gives it.
fn status_word(status: &Status) -> &'static str {
    match status {
        Status::Available => "available",
        Status::Loaded => "loaded",
        Status::Linked => "linked",
        Status::Refused(_) => "refused",
        Status::Shadowed(_) => "shadowed",
    }
}

/// Why a plugin is refused or shadowed, in one line, as `--json` gives it: a plugin
/// shadowed because it was refused says by what and why it was refused.
fn reason(e: &Entry) -> Option<String> {
    let first = |text: &str| text.lines().next().unwrap_or("").to_string();
    match &e.status {
        Status::Refused(why) => Some(first(why)),
        Status::Shadowed(by) => {
            let by = match by {
                Some(path) => format!("`{}` is used instead", path.display()),
                None => "the plugin linked into carc is used instead".to_string(),
            };
            Some(if e.detail.is_empty() {
                by
            } else {
                format!("{by}; it is refused: {}", first(&e.detail))
            })
        }
        Status::Available | Status::Loaded | Status::Linked => None,
    }
}

/// A plugin's status as listed: a plugin shadowed because it was refused (another of its
/// id is used instead) says why it was refused.
fn listed_status(e: &crate::host::Entry) -> String {
    match &e.status {
        Status::Shadowed(_) if !e.detail.is_empty() => format!(
            "{} (it is refused: {})",
            e.status,
            e.detail.lines().next().unwrap_or("")
        ),
        status => status.to_string(),
    }
}

/// Prints a plugin's declarations; exit 2 for an unknown id.
fn info(id: &str) -> Result<u8, String> {
    let host = crate::catalog::host()?;
    host.open_plugin(id);
    let plugins = host.plugins();
    let e = installed(id, &plugins)?;
    if e.version.is_empty() {
        // A refused plugin whose manifest does not read has no version to show.
        outln!("{}", e.id);
    } else {
        outln!("{} {}", e.id, e.version);
    }
    if let Some(d) = &e.dir {
        outln!("directory: {}", d.display());
    }
    match &e.library {
        Some(l) => outln!("library: {}", l.display()),
        None if e.manifest.as_ref().is_some_and(|m| m.library.is_none()) => {
            outln!("library: none (a tile pack: data, no code)")
        }
        None if e.dir.is_some() => outln!("library: none found"),
        None => outln!("library: (linked into carc)"),
    }
    outln!("status: {}", listed_status(e));
    let Some(m) = &e.manifest else {
        return Ok(0);
    };
    outln!("name: {}", m.name);
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "none".to_string()
        } else {
            items.join(", ")
        }
    };
    outln!(
        "requires: {}",
        list(
            m.requires
                .iter()
                .map(|(k, v)| match k.as_str() {
                    // The plugin protocol's version, not carc's own (`carc --version`).
                    "carc" => format!("carc protocol {v}"),
                    _ => format!("{k} {v}"),
                })
                .collect()
        )
    );
    outln!("conflicts: {}", list(m.conflicts.clone()));
    outln!(
        "phases: {}",
        list(
            m.phases
                .iter()
                .map(|p| match (&p.after, &p.before) {
                    (Some(a), _) => format!("{} (after {a})", p.name),
                    (_, Some(b)) => format!("{} (before {b})", p.name),
                    _ => p.name.clone(),
                })
                .collect()
        )
    );
    outln!(
        "figures: {}",
        list(m.figures.iter().map(|f| tagged(&f.name, &f.tags)).collect())
    );
    outln!(
        "feature kinds: {}",
        list(m.kinds.iter().map(|k| tagged(&k.name, &k.tags)).collect())
    );
    outln!(
        "markers: {}",
        list(m.markers.iter().map(|k| k.name.clone()).collect())
    );
    outln!(
        "options: {}",
        list(
            m.options
                .iter()
                .map(|o| format!("{}.{} = {}", m.id, o.name, o.values.join(" | ")))
                .collect()
        )
    );
    // The rules' order as resolved with the base game (other expansions can add to it:
    // see `carc plan`).
    let plan = carc_core::precedence::resolve(&[
        carc_core::expansion::Expansion::manifest(&carc_core::base::BaseGame),
        m.clone(),
    ]);
    outln!("rules:");
    if m.rules.is_empty() {
        outln!("  none");
    }
    for r in &m.rules {
        let position = match &plan {
            Ok(plan) => {
                let order = plan.order(&r.point);
                let me = format!("{}:{}", m.id, r.id);
                format!(
                    "{} of {} at `{}`",
                    order.iter().position(|x| *x == me).map_or(0, |i| i + 1),
                    order.len(),
                    r.point
                )
            }
            Err(_) => format!(
                "at `{}` (no order: its precedence does not resolve)",
                r.point
            ),
        };
        outln!("  {}:{}, {position}: {}", m.id, r.id, r.doc);
    }
    if !m.wake.is_empty() {
        outln!("asleep until (speed only):");
        for w in &m.wake {
            outln!("  {}: {}", w.hooks.join(", "), w.when.join(" or "));
        }
    }
    outln!("tiles:");
    match &e.dir {
        None => outln!("  (given by its library)"),
        Some(_) if m.tiles.is_empty() => outln!("  none"),
        Some(dir) => {
            for file in &m.tiles {
                outln!("  {file}: {}", tile_summary(&dir.join(file)));
            }
        }
    }
    Ok(0)
}

/// How many tile types and tiles a tile file holds, `30 tile types, 32 tiles`, or why
/// that cannot be told.
fn tile_summary(path: &std::path::Path) -> String {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return format!("cannot be read ({})", carc_core::input::describe(&e)),
    };
    let table: toml::Table = match text.parse() {
        Ok(t) => t,
        Err(_) => return "not valid TOML (see `carc validate`)".to_string(),
    };
    let tiles = table
        .get("tile")
        .and_then(|t| t.as_array())
        .map_or(&[][..], |a| a.as_slice());
    // Every tile type has a count from 1 to the most; anything else is for `carc validate`
    // to locate, not for a summary to guess at.
    let max = i64::from(carc_core::tiles::def::MAX_COUNT);
    let copies: Option<u64> = tiles
        .iter()
        .map(|t| {
            t.get("count")
                .and_then(|c| c.as_integer())
                .filter(|c| (1..=max).contains(c))
                .map(|c| c as u64)
        })
        .sum();
    let Some(copies) = copies else {
        return "has a tile type without a valid count (see `carc validate`)".to_string();
    };
    format!(
        "{}, {}",
        plural(tiles.len() as u64, "tile type", "tile types"),
        plural(copies, "tile", "tiles")
    )
}

/// A name with its tags, `dragon [flesh-and-blood]`.
fn tagged(name: &str, tags: &[String]) -> String {
    if tags.is_empty() {
        name.to_string()
    } else {
        format!("{name} [{}]", tags.join(", "))
    }
}

/// The plugin of this id that is in use (not shadowed), or an error naming what is
/// installed.
fn installed<'a>(id: &str, plugins: &'a [Entry]) -> Result<&'a Entry, String> {
    plugins
        .iter()
        .find(|e| e.id == id && !matches!(e.status, Status::Shadowed(_)))
        .ok_or_else(|| unknown(id, plugins))
}

fn unknown(id: &str, plugins: &[Entry]) -> String {
    if id == "base" {
        return "`base` is the base game, built into carc and always in play: it is not \
                a plugin"
            .into();
    }
    if id.is_empty() {
        return "no plugin id given: give an expansion id (`carc plugins list` shows them)".into();
    }
    let known: Vec<&str> = plugins.iter().map(|e| e.id.as_str()).collect();
    format!(
        "no plugin `{id}` is installed (found: {})",
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    )
}

/// The configuration file commands write to: the one in force, else the user's.
fn config_path() -> Result<std::path::PathBuf, String> {
    let host = crate::catalog::host()?;
    host.config_path().map(|p| p.to_path_buf()).ok_or_else(|| {
        "no configuration file to write: give --config FILE (or set CARC_CONFIG or HOME)"
            .to_string()
    })
}

impl PluginsCommand {
    /// Whether the command writes the configuration file (which it makes if absent).
    pub fn writes_config(&self) -> bool {
        matches!(
            self,
            PluginsCommand::Enable(_) | PluginsCommand::Disable(_) | PluginsCommand::Trust(_)
        )
    }
}

/// Adds `id` to, or removes it from, the configuration's `expansions`.
fn set_enabled(id: &str, on: bool) -> Result<u8, String> {
    let host = crate::catalog::host()?;
    let plugins = host.plugins();
    // No id, or the base game, is never in the list: said as by `enable` (an id not
    // installed may be, from a plugin since removed: it can be disabled).
    if id.is_empty() || id == "base" {
        return Err(unknown(id, &plugins));
    }
    if on {
        let e = installed(id, &plugins)?;
        if let Status::Refused(why) = &e.status {
            return Err(format!(
                "`{id}` cannot be enabled:{}",
                carc_host::output::then(why)
            ));
        }
    }
    let path = config_path()?;
    let mut list: Vec<String> = host.config().expansions.clone().unwrap_or_default();
    let had = list.iter().any(|x| x == id);
    if on && !had {
        list.push(id.to_string());
    }
    if !on {
        list.retain(|x| x != id);
    }
    if !on && !had {
        // Nothing to change: the file is left as it is (or not made).
        outln!("`{id}` was not enabled by default ({})", path.display());
        return Ok(0);
    }
    crate::config::edit(&path, |doc| {
        if on {
            crate::config::add_to_list(doc, "expansions", &list, id);
        } else {
            crate::config::remove_from_list(doc, "expansions", &list, id);
        }
    })?;
    let what = match (on, had) {
        (true, true) => "was already enabled",
        (true, false) => "is enabled",
        (false, true) => "is disabled",
        (false, false) => "was not enabled",
    };
    outln!("`{id}` {what} by default ({})", path.display());
    Ok(0)
}

/// Pins a plugin's library by its SHA-256.
fn trust(id: &str) -> Result<u8, String> {
    let host = crate::catalog::host()?;
    let plugins = host.plugins();
    let e = installed(id, &plugins)?;
    let Some(library) = &e.library else {
        return Err(format!(
            "`{id}` has no library to pin ({})",
            match &e.status {
                Status::Linked => "it is linked into carc".to_string(),
                _ if e.manifest.as_ref().is_some_and(|m| m.library.is_none()) => {
                    "it is a tile pack, which runs no code".to_string()
                }
                other => other.to_string(),
            }
        ));
    };
    let digest = crate::trust::digest(library)?;
    let path = config_path()?;
    crate::config::edit(&path, |doc| {
        crate::config::set_in_table(doc, "pins", id, &digest)
    })?;
    outln!(
        "`{id}`: `{}` pinned as {digest} ({})",
        library.display(),
        path.display()
    );
    Ok(0)
}
