//! `carc new expansion NAME [--path DIR]`: a new expansion as a standalone crate that is
//! also a plugin directory: its `Cargo.toml` (the SDK its only dependency), a manifest,
//! a tile file, one rule with one hook, scenario records and the test that replays them,
//! a README, and the JSON Schemas its `#:schema` comments name. The files come from
//! `host/templates/expansion/`.

use std::path::{Path, PathBuf};

use carc_core::input::describe;
use clap::{Args, Subcommand};

/// `carc new` subcommands.
#[derive(Subcommand, Debug)]
pub enum NewCommand {
    /// Make a new expansion: a crate outside any workspace that `cargo build` turns into
    /// a plugin directory `carc` loads as it is.
    #[command(after_help = carc_host::output::EXIT_CODES)]
    Expansion(ExpansionArgs),
}

/// Arguments of `carc new expansion`.
#[derive(Args, Debug)]
pub struct ExpansionArgs {
    /// The expansion's id (lowercase letters, digits and `-`, starting with a letter),
    /// also the crate's name: `wishing-well`.
    name: String,
    /// The directory to make (default: `./NAME`); it must not exist or be empty.
    #[arg(long, value_name = "DIR")]
    path: Option<PathBuf>,
}

/// The template files: (path in the new crate, text with `{{...}}` placeholders).
const TEMPLATE: [(&str, &str); 9] = [
    (
        "Cargo.toml",
        include_str!("../../templates/expansion/Cargo.toml.in"),
    ),
    (
        ".gitignore",
        include_str!("../../templates/expansion/gitignore.in"),
    ),
    (
        "manifest.toml",
        include_str!("../../templates/expansion/manifest.toml"),
    ),
    (
        "tiles.toml",
        include_str!("../../templates/expansion/tiles.toml"),
    ),
    (
        "src/lib.rs",
        include_str!("../../templates/expansion/src/lib.rs"),
    ),
    (
        "tests/scenarios.rs",
        include_str!("../../templates/expansion/tests/scenarios.rs"),
    ),
    (
        "tests/scenarios/well.toml",
        include_str!("../../templates/expansion/tests/scenarios/well.toml"),
    ),
    (
        "tests/scenarios/well-with-the-princess-and-the-dragon.toml",
        include_str!(
            "../../templates/expansion/tests/scenarios/well-with-the-princess-and-the-dragon.toml"
        ),
    ),
    (
        "README.md",
        include_str!("../../templates/expansion/README.md"),
    ),
];

/// Ids an expansion of one's own cannot take.
const TAKEN: [&str; 4] = ["base", "carc", "princess-dragon", "russian-promos"];

/// Runs `carc new`.
pub fn run(cmd: NewCommand) -> u8 {
    match cmd {
        NewCommand::Expansion(args) => match expansion(&args) {
            Ok(()) => 0,
            Err(e) => super::fail(e),
        },
    }
}

/// Rust's keywords (reserved ones too) and the names of its own crates: no crate may be
/// named so.
const RUST_WORDS: &[&str] = &[
    "abstract",
    "alloc",
    "as",
    "async",
    "await",
    "become",
    "box",
    "break",
    "compiler-builtins",
    "const",
    "continue",
    "core",
    "crate",
    "do",
    "dyn",
    "else",
    "enum",
    "extern",
    "false",
    "final",
    "fn",
    "for",
    "gen",
    "if",
    "impl",
    "in",
    "let",
    "loop",
    "macro",
    "match",
    "mod",
    "move",
    "mut",
    "override",
    "priv",
    "proc-macro",
    "pub",
    "ref",
    "return",
    "self",
    "static",
    "std",
    "struct",
    "super",
    "test",
    "trait",
    "true",
    "try",
    "type",
    "typeof",
    "unsafe",
    "unsized",
    "use",
    "virtual",
    "where",
    "while",
    "yield",
];

/// Whether an id is one an expansion (and its crate) can take, or why not.
fn check_id(id: &str) -> Result<(), String> {
    if id.is_empty() {
        return Err(
            "no expansion id given: name it with lowercase letters, digits and \
                    single `-` between them, starting with a letter (`wishing-well`)"
                .into(),
        );
    }
    let shape = id.len() <= 64
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        && !id.ends_with('-')
        && !id.contains("--");
    if !shape {
        return Err(format!(
            "`{}` cannot name an expansion: use lowercase letters, digits and single `-` \
             between them, starting with a letter (`wishing-well`)",
            id.escape_debug()
        ));
    }
    if RUST_WORDS.contains(&id) {
        return Err(format!(
            "`{id}` cannot name an expansion: it is a word Rust keeps for itself, and the \
             expansion's crate takes its name; choose another (`{id}-expansion`)"
        ));
    }
    if TAKEN.contains(&id) || id.starts_with("carc-") {
        return Err(format!(
            "`{id}` is taken (by carc or one of its expansions): choose another name"
        ));
    }
    Ok(())
}

/// `wishing-well` → `WishingWell`.
fn type_name(id: &str) -> String {
    id.split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// `wishing-well` → `Wishing well`.
fn human_name(id: &str) -> String {
    let words = id.replace('-', " ");
    let mut c = words.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// Where this `carc` finds a carc crate's source (`plugins/sdk`), for the new crate's
/// path dependencies: beside an installed `carc`, else in the checkout it was built from.
fn crate_dir(relative: &str) -> Result<PathBuf, String> {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    checkout
        .join(relative)
        .canonicalize()
        .ok()
        .filter(|d| d.join("Cargo.toml").is_file())
        .ok_or_else(|| {
            format!(
                "the carc sources (`{relative}`) are not where this carc was built \
                 (`{}`): `carc new` needs them for the new crate's dependencies",
                checkout.display()
            )
        })
}

/// A path as TOML basic-string content.
fn toml_string(path: &Path) -> String {
    path.display()
        .to_string()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

fn expansion(args: &ExpansionArgs) -> Result<(), String> {
    let id = args.name.as_str();
    check_id(id)?;
    let dir = args.path.clone().unwrap_or_else(|| PathBuf::from(id));
    if dir.exists() {
        let empty = std::fs::read_dir(&dir)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !dir.is_dir() || !empty {
            return Err(format!(
                "`{}` already exists and is not an empty directory: nothing was written",
                dir.display()
            ));
        }
    }
    let sdk = crate_dir("plugins/sdk")?;
    let testing = crate_dir("host/testing")?;
    let fill = |text: &str| {
        text.replace("{{id}}", id)
            .replace("{{crate}}", &id.replace('-', "_"))
            .replace("{{type}}", &type_name(id))
            .replace("{{name}}", &human_name(id))
            .replace("{{sdk}}", &toml_string(&sdk))
            .replace("{{testing}}", &toml_string(&testing))
    };
    let mut files: Vec<(String, String)> = TEMPLATE
        .iter()
        .map(|(path, text)| (path.to_string(), fill(text)))
        .collect();
    files.push((
        "schema/tiles.schema.json".into(),
        carc_core::tiles::schema::tile_schema_json(),
    ));
    files.push((
        "schema/manifest.schema.json".into(),
        carc_core::manifest::manifest_schema_json(),
    ));
    for (path, text) in &files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make `{}`: {}", parent.display(), describe(&e)))?;
        }
        std::fs::write(&target, text)
            .map_err(|e| format!("cannot write `{}`: {}", target.display(), describe(&e)))?;
    }
    outln!("made the expansion `{id}` in {}:", dir.display());
    for (path, _) in &files {
        outln!("  {path}");
    }
    outln!(
        "next: cd {} && cargo build && carc --plugin-dir . plugins list",
        dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_and_named_in_rust_and_in_words() {
        assert!(check_id("wishing-well").is_ok());
        assert!(check_id("w2").is_ok());
        for bad in [
            "",
            "Well",
            "2wells",
            "well-",
            "wishing--well",
            "we ll",
            "base",
        ] {
            assert!(check_id(bad).is_err(), "{bad}");
        }
        assert_eq!(type_name("wishing-well-2"), "WishingWell2");
        assert_eq!(human_name("wishing-well"), "Wishing well");
    }
}
