//! `carc validate PATH...`: check tile-data files, reporting every error located, and
//! plugin directories, as the host uses them (its library opened, its expansion made).

use std::path::PathBuf;

use carc_core::input::InputError;
use carc_core::tiles::TileFile;
use carc_host::output;
use clap::Args;

/// Arguments of `carc validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Tile-data files, or plugin directories (a directory holding `manifest.toml`); `-`
    /// reads tile data from standard input.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Expansions whose feature kinds and markers may be used (default: all available).
    #[arg(long, value_name = "a,b")]
    expansions: Option<String>,
    /// Accept markers no enabled expansion registers.
    #[arg(long)]
    tiles_only: bool,
    /// Show every error (by default the first 100, then how many more there are).
    #[arg(long)]
    all_errors: bool,
    /// Also draw an atlas of each valid input's tiles (as `carc render tiles` does),
    /// written next to it with the extension `.svg`.
    #[arg(long)]
    render: bool,
    /// Write the atlas here instead (`.svg` or `.png`; one input only); implies
    /// `--render`.
    #[arg(long, value_name = "FILE")]
    render_out: Option<PathBuf>,
}

/// Validates the files: the errors on standard error, the verdict on standard output;
/// exit 0 when all are valid, 1 when not, 2 when a file cannot be read or on bad
/// arguments (see [`carc_host::output`]).
pub fn run(args: ValidateArgs) -> u8 {
    let inputs = args.paths.clone();
    if inputs
        .iter()
        .filter(|p| carc_core::input::is_stdin(p))
        .count()
        > 1
    {
        return super::fail("`-` is given twice: standard input can be read once");
    }
    let render = args.render || args.render_out.is_some();
    let out = args.render_out.clone();
    if let Some(out) = &out {
        if inputs.len() > 1 {
            return super::fail(format!(
                "--render-out `{}`: one atlas is written per input, so give one input only",
                out.display()
            ));
        }
        if carc_core::input::is_stdin(out) {
            return super::fail(
                "--render-out -: standard output holds the verdict; give a file (`carc render \
                 tiles` draws an atlas on standard output)",
            );
        }
        if let Err(e) = super::render::format_of(out, "--render-out") {
            return super::fail(e);
        }
    }
    // Where each input's atlas goes, checked before anything is read or validated (no
    // verdict is printed for a command that cannot be done).
    let targets: Vec<PathBuf> = if render {
        let mut targets = Vec::with_capacity(inputs.len());
        for path in &inputs {
            match &out {
                Some(o) => targets.push(o.clone()),
                None if carc_core::input::is_stdin(path) => {
                    return super::fail("the atlas of standard input needs --render-out FILE");
                }
                None => targets.push(path.with_extension("svg")),
            }
        }
        if let Err(e) = check_targets(&inputs, &targets, out.is_some()) {
            return super::fail(e);
        }
        targets
    } else {
        Vec::new()
    };
    let (code, checked) = check(args);
    if !render || code == output::CANNOT {
        return code;
    }
    if code != output::OK {
        errln!("no atlas drawn, as the tiles are not valid");
        return code;
    }
    let mut drawn = code;
    let mut done: Vec<PathBuf> = Vec::new();
    for (path, target) in inputs.iter().zip(targets) {
        // An input named twice is drawn once.
        if done.contains(&target) {
            continue;
        }
        done.push(target.clone());
        // A file is drawn as it was read and checked above (standard input cannot be
        // read twice); a plugin directory as `carc render tiles` reads it.
        let svg = match checked.iter().find(|c| &c.0 == path) {
            Some((_, files)) => super::render::atlas_of(files, &carc_core::input::name(path)),
            None => super::render::atlas_svg(path, false),
        };
        match svg {
            Ok(svg) => {
                let written = super::render::write_picture(&svg, Some(&target));
                if written == output::OK {
                    errln!(
                        "{}: atlas written to `{}`",
                        carc_core::input::name(path),
                        target.display()
                    );
                } else {
                    drawn = output::CANNOT;
                }
            }
            Err(c) => drawn = c,
        }
    }
    drawn
}

/// Checks where the atlases go: over no input, each to a file of its own (an input named
/// twice draws its atlas once), in a directory that exists.
fn check_targets(inputs: &[PathBuf], targets: &[PathBuf], given: bool) -> Result<(), String> {
    use carc_host::destination::{check, same_file};
    let flag = if given { "--render-out" } else { "the atlas" };
    let read: Vec<(&std::path::Path, &str)> =
        inputs.iter().map(|p| (p.as_path(), "the input")).collect();
    let mut drawn: Vec<(&PathBuf, &PathBuf)> = Vec::new();
    for (input, target) in inputs.iter().zip(targets) {
        if let Some((_, other)) = drawn.iter().find(|(t, _)| same_file(t, target)) {
            if same_file(other, input) {
                continue;
            }
            return Err(format!(
                "{} and {} would both draw their atlas to {}; validate them one at a time \
                 (`--render-out FILE` names another atlas)",
                other.display(),
                input.display(),
                target.display()
            ));
        }
        check(target, flag, &read, &[])?;
        drawn.push((input, target));
    }
    Ok(())
}

/// Says which plugins found but refused declare feature kinds or markers: tile data using
/// them reads as unknown names, and the refusal is the reason.
fn refused_vocabularies(host: &crate::host::Host) {
    for entry in host.plugins() {
        let (crate::host::Status::Refused(why), Some(manifest)) = (&entry.status, &entry.manifest)
        else {
            continue;
        };
        if manifest.kinds.is_empty() && manifest.markers.is_empty() {
            continue;
        }
        let place = entry
            .dir
            .as_ref()
            .or(entry.library.as_ref())
            .map(|p| format!(" ({})", p.display()))
            .unwrap_or_default();
        errln!(
            "note: the plugin `{}`{place} was refused, so the feature kinds and markers it \
             declares are unknown here: {}",
            entry.id,
            why.lines().next().unwrap_or("")
        );
    }
}

/// Says which invalid files look like game records (a `game` table, or `move`s) or
/// plugin manifests (an `id` and a `version`): tile data is what `validate` reads, a
/// record is `carc replay`'s, a manifest is checked with its plugin directory.
fn other_formats(report: &carc_core::tiles::validate::Report) {
    for file in report.files.iter().filter(|f| !f.diagnostics.is_empty()) {
        let path = std::path::Path::new(&file.name);
        if file.unreadable || carc_core::input::is_stdin(path) {
            continue;
        }
        // Within `--max-input-size`, as the validator read it.
        let Ok(text) = carc_core::input::read_text(path) else {
            continue;
        };
        let json = file.name.ends_with(".json");
        let table: Option<serde_json::Map<String, serde_json::Value>> = if json {
            serde_json::from_str(&text).ok()
        } else {
            toml::from_str(&text).ok()
        };
        let Some(table) = table else { continue };
        if table.contains_key("game") || table.contains_key("move") {
            errln!(
                "note: {} looks like a game record, not tile data: `carc replay {}` plays one",
                file.name,
                file.name
            );
        } else if !json && table.contains_key("id") && table.contains_key("version") {
            // A plugin's manifest: checked with its directory, tile data and library.
            let dir = path
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            errln!(
                "note: {} looks like a plugin's manifest, not tile data: `carc validate {}` \
                 checks the plugin directory that holds it",
                file.name,
                dir.display()
            );
        }
    }
}

/// Says which files with unknown kinds or markers hold tiles of an expansion that is not
/// enabled: its kinds and markers then read as unknown, and enabling it (or finding its
/// plugin) is the fix.
fn unfound_expansions(
    report: &carc_core::tiles::validate::Report,
    enabled: &[String],
    found: &[String],
) {
    #[derive(serde::Deserialize)]
    struct Head {
        expansion: Option<String>,
    }
    // Only files with an unknown kind or marker among their errors: for any other error
    // the note would be beside the point.
    let names_unknown = |file: &&carc_core::tiles::validate::FileReport| {
        file.diagnostics.iter().any(|d| {
            d.message.starts_with("unknown feature kind `")
                || d.message.starts_with("unknown marker `")
        })
    };
    for file in report.files.iter().filter(names_unknown) {
        let path = std::path::Path::new(&file.name);
        if file.unreadable || carc_core::input::is_stdin(path) {
            continue;
        }
        let Some(expansion) = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| toml::from_str::<Head>(&text).ok())
            .and_then(|head| head.expansion)
        else {
            continue;
        };
        if expansion == "base" || enabled.contains(&expansion) {
            continue;
        }
        let fix = if found.contains(&expansion) {
            "name it in --expansions".to_string()
        } else {
            format!(
                "carc found no plugin of that id: validate its plugin directory (`carc \
                 validate DIR`), or name the directory (`carc --plugin-dir DIR validate {}`)",
                file.name
            )
        };
        errln!(
            "note: {} holds tiles of the expansion `{expansion}`, which is not enabled here, so \
             the feature kinds and markers it declares are unknown; {fix}",
            file.name
        );
    }
}

/// A tile-data file given on the command line and what was read from it, when valid.
type Checked = (PathBuf, Vec<TileFile>);

/// Checks the inputs; the exit code, and the tile-data files with what was read from
/// each valid one.
fn check(mut args: ValidateArgs) -> (u8, Vec<Checked>) {
    let (dirs, files): (Vec<PathBuf>, Vec<PathBuf>) = args
        .paths
        .drain(..)
        .partition(|p| crate::host::holds_manifest(p));
    let mut failed = false;
    for dir in &dirs {
        match crate::catalog::check_plugin_dir(dir) {
            Ok(warnings) => {
                outln!("{}: ok, the plugin can be loaded", dir.display());
                for w in warnings {
                    errln!("{}: warning: {w}", dir.display());
                }
                let warning = crate::package::Package::read(dir)
                    .ok()
                    .and_then(|p| p.protocol_warning());
                if let Some(w) = warning {
                    errln!("{}: warning: {w}", dir.display());
                }
            }
            Err(unusable) => {
                let why = crate::catalog::followed_by(unusable.verdict, &unusable.why);
                errln!("{}: error: {why}", dir.display());
                if unusable.declarations_hold {
                    errln!(
                        "{}: note: its manifest and tile data are valid",
                        dir.display()
                    );
                }
                // The result on stdout, as for every input (the reasons are on stderr).
                outln!("{}: {}", dir.display(), unusable.verdict);
                failed = true;
            }
        }
    }
    if files.is_empty() {
        return (u8::from(failed), Vec::new());
    }
    // A file named twice (by the same path, or two paths to one file) is checked once:
    // read twice, its tiles would clash with themselves.
    let mut seen: Vec<PathBuf> = Vec::new();
    let files: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| {
            let same = std::fs::canonicalize(f).unwrap_or_else(|_| f.clone());
            let new = carc_core::input::is_stdin(f) || !seen.contains(&same);
            seen.push(same);
            new
        })
        .collect();
    args.paths = files;
    // A directory that is no plugin directory cannot be read as tile data either: an
    // input that cannot be read, in its place.
    let sources: Vec<_> = args
        .paths
        .iter()
        .map(|p| {
            let text = if p.is_dir() {
                Err(InputError::Unreadable(format!(
                    "it is {}",
                    crate::host::NOT_A_PLUGIN_DIR
                )))
            } else {
                carc_core::input::read_text(p)
            };
            (carc_core::input::name(p), text)
        })
        .collect();
    let options = carc_core::tiles::validate::Options {
        tiles_only: args.tiles_only,
        ..Default::default()
    };
    // The expansions' vocabulary, when there is any tile data to read with it (no plugin
    // is loaded for inputs that cannot be read).
    let mut vocabulary = None;
    if sources.iter().any(|(_, text)| text.is_ok()) {
        let host = match crate::catalog::host() {
            Ok(h) => h,
            Err(e) => return (super::fail(e), Vec::new()),
        };
        let ids = match &args.expansions {
            Some(list) => match super::expansions_list(list) {
                Ok(ids) => ids,
                Err(e) => return (super::fail(e), Vec::new()),
            },
            None => host.ids(),
        };
        match host.rules(&ids, &Default::default()) {
            Ok(r) => vocabulary = Some((host, ids, r)),
            Err(e) => return (super::fail(e), Vec::new()),
        }
    }
    let base = carc_core::tiles::vocab::Vocabulary::base();
    let vocab = vocabulary
        .as_ref()
        .map_or(&base, |(_, _, rules)| &rules.vocab);
    let report = carc_core::tiles::validate::check_loaded(sources, vocab, &options);
    let limit = (!args.all_errors).then_some(super::SHOWN_ERRORS);
    let diagnostics = report.render_diagnostics(limit);
    if !diagnostics.is_empty() {
        output::write_err(format_args!("{diagnostics}"));
    }
    if let Some((host, ids, _)) = vocabulary.as_ref().filter(|_| !report.is_ok()) {
        refused_vocabularies(host);
        unfound_expansions(&report, ids, &host.ids());
        other_formats(&report);
    }
    outln!("{}", report.summary());
    let code = if report.has_unreadable() {
        output::CANNOT
    } else if report.is_ok() && !failed {
        output::OK
    } else {
        output::FAILED
    };
    let checked = args
        .paths
        .into_iter()
        .zip(report.files)
        .map(|(path, file)| (path, file.tiles.into_iter().collect()))
        .collect();
    (code, checked)
}
