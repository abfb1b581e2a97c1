//! `carc validate PATH...`: check tile-data files, reporting every error located.

use std::path::PathBuf;

use clap::Args;

/// Arguments of `carc validate`.
#[derive(Args, Debug)]
pub struct ValidateArgs {
    /// Tile-data files.
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
pub fn run(args: ValidateArgs) -> u8 {
    let catalog = crate::catalog::catalog();
    let ids = match &args.expansions {
        Some(list) => super::split_list(list),
        None => catalog.ids(),
    };
    let rules = match catalog.rules(&ids, &Default::default()) {
        Ok(r) => r,
        Err(e) => return super::fail(e),
    };
    let options = carc_core::tiles::validate::Options {
        tiles_only: args.tiles_only,
    };
    let report = carc_core::tiles::validate::check_files(&args.paths, &rules.vocab, &options);
    print!("{}", report.render());
    if report.is_ok() { 0 } else { 1 }
}
