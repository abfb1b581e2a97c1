//! `carc validate PATH...`: check tile-data files, reporting every error located, and
//! plugin directories, as the host checks them before opening a library.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `carc validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Tile-data files, or plugin directories (a directory holding `manifest.toml`).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Expansions whose feature kinds and markers may be used (default: all available).
    #[arg(long, value_name = "a,b")]
    expansions: Option<String>,
    /// Accept markers no enabled expansion registers.
    #[arg(long)]
    tiles_only: bool,
}

/// Validates the files; exit 0 when all are valid, 1 when not, 2 on bad arguments.
pub fn run(mut args: ValidateArgs) -> u8 {
    let (dirs, files): (Vec<PathBuf>, Vec<PathBuf>) = args
        .paths
        .drain(..)
        .partition(|p| p.join(crate::package::MANIFEST_FILE).is_file());
    let mut failed = false;
    for dir in &dirs {
        match crate::catalog::check_plugin_dir(dir) {
            Ok(()) => println!("{}: ok, the plugin can be loaded", dir.display()),
            Err(why) => {
                eprintln!(
                    "{}: error: the plugin would be refused: {why}",
                    dir.display()
                );
                failed = true;
            }
        }
    }
    if files.is_empty() {
        return u8::from(failed);
    }
    args.paths = files;
    let host = match crate::catalog::host() {
        Ok(h) => h,
        Err(e) => return super::fail(e),
    };
    let ids = match &args.expansions {
        Some(list) => super::split_list(list),
        None => host.ids(),
    };
    let rules = match host.rules(&ids, &Default::default()) {
        Ok(r) => r,
        Err(e) => return super::fail(e),
    };
    let options = carc_core::tiles::validate::Options {
        tiles_only: args.tiles_only,
    };
    let report = carc_core::tiles::validate::check_files(&args.paths, &rules.vocab, &options);
    print!("{}", report.render());
    if report.is_ok() && !failed { 0 } else { 1 }
}
